import { MockSubscriptionLink } from '@apollo/client/testing';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWith, signIn } from '../../test/utils';
import { Dashboard } from './Dashboard';

// The charts are dashboard.test's; here they would only add recharts' own renders.
const chart = vi.hoisted(() => ({ fails: false }));
vi.mock('./DashboardChart', () => ({
  default: () => {
    if (chart.fails) throw new Error('Failed to fetch dynamically imported module');
    return <div data-chart="stub" />;
  },
}));

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const sales = (lanches: number, bebidas: number) =>
  json({
    dados: [
      { ROTULO: 'LANCHES', VALOR: lanches },
      { ROTULO: 'BEBIDAS', VALOR: bebidas },
    ],
    TOTAL: lanches + bebidas,
  });

/**
 * Sales by group and payment methods answer (the first asking of sales by group waits for
 * `nextSales` when a test sets it), the rest is not there (404).
 */
function server() {
  const state: { nextSales: Promise<Response> | null } = { nextSales: null };
  const fetchMock = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = String(input);
    if (url === '/dasboard/vendasgrupo') return state.nextSales ?? sales(250, 750);
    if (url === '/dasboard/formaspagamentos') return json({ dados: [{ ROTULO: 'PIX', VALOR: 100 }] });
    return json({ code: 404, msg: 'Rota não encontrada' }, 404);
  });
  return { fetchMock, state };
}

const urls = (fetchMock: { mock: { calls: unknown[][] } }) => fetchMock.mock.calls.map(([url]) => String(url));

/** The server pushes `names` (MockSubscriptionLink delivers on a timer). */
const push = (link: MockSubscriptionLink, names: string[]) =>
  act(async () => {
    link.simulateResult({ result: { data: { dashboardChanged: names } } });
    await new Promise((r) => setTimeout(r, 10));
  });

beforeEach(() => {
  window.innerWidth = 1920;
  signIn({
    company: { id: 2, name: 'Filial LTDA', taxId: '11.222.333/0002-62', fantasyName: 'Filial', logoUrl: null },
  });
});

afterEach(() => {
  chart.fails = false;
  vi.restoreAllMocks();
});

describe('live dashboard', () => {
  it("subscribes for the session's company and asks again only the widgets a push names, keeping the figures meanwhile", async () => {
    const { fetchMock, state } = server();
    const link = new MockSubscriptionLink();
    renderWith(<Dashboard />, { link });

    const widget = await screen.findByTestId('dashboard-widget-vendasgrupo');
    await waitFor(() => expect(within(widget).getByTestId('dashboard-total')).toHaveTextContent('Total: R$ 1.000,00'));
    await waitFor(() =>
      expect(screen.getByTestId('dashboard-widget-formaspagamentos')).toHaveAttribute('aria-busy', 'false'),
    );
    await waitFor(() => expect(screen.queryByTestId('dashboard-widget-contaspagar')).toBeNull());
    expect(link.operation?.operationName).toBe('DashboardChanged');
    expect(link.operation?.variables).toEqual({ emp: 2 });
    fetchMock.mockClear();

    // An invoiced order moved sales by group (and a call this screen does not show).
    let answer: (r: Response) => void = () => {};
    state.nextSales = new Promise<Response>((resolve) => {
      answer = resolve;
    });
    await push(link, ['vendasgrupo', 'naoexiste']);
    await waitFor(() => expect(urls(fetchMock)).toEqual(['/dasboard/vendasgrupo']));
    expect(JSON.parse(String(fetchMock.mock.calls[0][1]?.body))).toMatchObject({ EMP_ID: 2 });

    // While the new figures are on their way the old ones stay, with no loading skeleton.
    expect(widget).toHaveAttribute('aria-busy', 'true');
    expect(within(widget).queryByRole('status')).toBeNull();
    expect(within(widget).getByTestId('dashboard-total')).toHaveTextContent('Total: R$ 1.000,00');
    expect(within(widget).getAllByTestId('dashboard-barra')).toHaveLength(2);

    await act(async () => answer(sales(250, 1250)));
    await waitFor(() => expect(within(widget).getByTestId('dashboard-total')).toHaveTextContent('Total: R$ 1.500,00'));
    expect(widget).toHaveAttribute('aria-busy', 'false');
    expect(within(widget).getAllByTestId('dashboard-barra')[0]).toHaveTextContent('BEBIDASR$ 1.250,00 83,33%');

    // A later push naming only payment methods asks only that call.
    fetchMock.mockClear();
    state.nextSales = null;
    await push(link, ['formaspagamentos']);
    await waitFor(() => expect(urls(fetchMock)).toEqual(['/dasboard/formaspagamentos']));
    // Widgets the server does not have stay hidden: a push naming one asks nothing.
    fetchMock.mockClear();
    await push(link, ['contaspagar']);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.queryByTestId('dashboard-widget-contaspagar')).toBeNull();
  });

  it('leaves out a chart that cannot load, keeping the figures and the other widgets', async () => {
    server();
    chart.fails = true;
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderWith(<Dashboard />, { link: new MockSubscriptionLink() });
    const widget = await screen.findByTestId('dashboard-widget-vendasgrupo');
    await waitFor(() => expect(within(widget).getAllByTestId('dashboard-barra')).toHaveLength(2));
    expect(within(widget).getByTestId('dashboard-total')).toHaveTextContent('Total: R$ 1.000,00');
    expect(widget.querySelector('[data-chart]')).toBeNull();
    expect(await screen.findByTestId('dashboard-widget-formaspagamentos')).toBeInTheDocument();
    expect(logged).toHaveBeenCalled();
  });
});
