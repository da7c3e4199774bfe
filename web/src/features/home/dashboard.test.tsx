import { MockSubscriptionLink } from '@apollo/client/testing';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiDateOf, formatDate } from '../../lib/format';
import { monthPeriod, previousMonthPeriod, yearPeriod } from '../../lib/period';
import { notify } from '../../lib/toast';
import { renderWith, signIn } from '../../test/utils';
import { Dashboard } from './Dashboard';
import DashboardChart from './DashboardChart';
import {
  MAX_SLICES,
  bumpRevisions,
  chartData,
  dashboardData,
  formatAxisMoney,
  formatShare,
  pieSliceOf,
} from './dashboard';
import HomePage from './HomePage';

const TODAY = apiDateOf();

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

type Call = [string, RequestInit];

/** The server as it stands: sales by group and receivables answer, payables fails, the rest is not there yet. */
function server() {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = String(input);
    if (url === '/dasboard/vendasgrupo')
      return json({
        dados: [
          { ROTULO: 'LANCHES', VALOR: '250.00' },
          { ROTULO: 'BEBIDAS', VALOR: 750 },
        ],
        TOTAL: 1000,
      });
    if (url === '/dasboard/contasreceber')
      return json({
        dados: [
          { ROTULO: 'Vencido', VALOR: 0.1 },
          { ROTULO: 'A vencer', VALOR: 0.2 },
        ],
      });
    if (url === '/dasboard/contaspagar') return json({ code: 500, msg: 'Falha ao consultar as contas a pagar.' }, 500);
    if (url === '/dasboard/vendassetor') return new Response(null, { status: 204 });
    return json({ code: 404, msg: 'Rota não encontrada' }, 404);
  });
}

const requested = (fetchMock: { mock: { calls: unknown[][] } }) =>
  (fetchMock.mock.calls as unknown as Call[]).map(([url, init]) => ({
    url,
    body: JSON.parse(String(init.body)) as Record<string, unknown>,
  }));

beforeEach(() => {
  window.innerWidth = 1920;
  signIn();
});

afterEach(() => vi.restoreAllMocks());

describe('dashboard data', () => {
  it('shares each item of the total in cents, largest first', () => {
    const data = dashboardData({
      dados: [
        { ROTULO: 'PIX', VALOR: '0.1' },
        { ROTULO: 'DINHEIRO', VALOR: 0.2 },
      ],
    });
    expect(data.totalCents).toBe(30);
    expect(data.items.map((b) => [b.label, b.cents, formatShare(b.share)])).toEqual([
      ['DINHEIRO', 20, '66,67%'],
      ['PIX', 10, '33,33%'],
    ]);
    expect(dashboardData(null)).toEqual({ totalCents: 0, items: [] });
  });

  it('keeps a chart along time (receivables, payables) in the order the server answers, not by value', () => {
    const along = (labels: string[]) =>
      dashboardData({ dados: labels.map((ROTULO, i) => ({ ROTULO, VALOR: i + 1 })) }, 'columns').items.map(
        (i) => i.label,
      );
    expect(along(['Recebido', 'Vencido', 'A vencer'])).toEqual(['Recebido', 'Vencido', 'A vencer']);
    expect(along(['24/11/2026', '01/12/2026', '05/01/2027'])).toEqual(['24/11/2026', '01/12/2026', '05/01/2027']);
  });

  it('draws the largest items and one slice of the rest, summed in cents', () => {
    const items = dashboardData({
      dados: Array.from({ length: 10 }, (_, i) => ({ ROTULO: `G${i}`, VALOR: (i + 1) / 10 })),
    }).items;
    const bars = chartData(items, 'bars');
    expect(bars).toHaveLength(MAX_SLICES);
    expect(bars[0]).toEqual({ label: 'G9', cents: 100 });
    // G2 + G1 + G0: 30 + 20 + 10 cents (0.3 + 0.2 + 0.1 is not 0.6 in floating point).
    expect(bars[MAX_SLICES - 1]).toEqual({ label: 'Outros', cents: 60 });
    // Weeks are never merged; a donut has no slice for what is not positive, the list keeps it.
    expect(chartData(items, 'columns')).toHaveLength(10);
    const payments = dashboardData({
      dados: [
        { ROTULO: 'PIX', VALOR: 5 },
        { ROTULO: '', VALOR: 2 },
        { ROTULO: 'ESTORNO', VALOR: -1 },
      ],
    }).items;
    expect(chartData(payments, 'pie')).toEqual([
      { label: 'PIX', cents: 500 },
      { label: '(sem descrição)', cents: 200 },
    ]);
    expect(payments.map((_, i) => pieSliceOf(payments, i))).toEqual([0, 1, null]);
    expect(items.map((_, i) => pieSliceOf(items, i))).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 7, 7]);
  });

  it('names the widgets a push asks again, once each, and ignores names it does not know', () => {
    const none = {};
    expect(bumpRevisions(none, ['naoexiste'])).toBe(none);
    expect(bumpRevisions({ vendasgrupo: 2 }, ['vendasgrupo', 'formaspagamentos', 'vendasgrupo'])).toEqual({
      vendasgrupo: 3,
      formaspagamentos: 1,
    });
  });

  it('writes axis values as compact reais', () => {
    expect(formatAxisMoney(0)).toBe('R$ 0');
    expect(formatAxisMoney(123456)).toBe('R$ 1,2 mil');
    expect(formatAxisMoney(123456789)).toBe('R$ 1,2 mi');
  });
});

describe('dashboard chart', () => {
  it('draws bars, a donut or columns, hidden from screen readers (the list is read)', () => {
    // jsdom has no layout: the chart learns its size from ResizeObserver.
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(private readonly callback: ResizeObserverCallback) {}
        observe() {
          this.callback([{ contentRect: { width: 400, height: 200 } } as ResizeObserverEntry], this as never);
        }
        unobserve() {}
        disconnect() {}
      },
    );
    const items = dashboardData({
      dados: [
        { ROTULO: 'PIX', VALOR: 20 },
        { ROTULO: 'DINHEIRO', VALOR: 10 },
        { ROTULO: 'ESTORNO', VALOR: -5 },
      ],
    }).items;
    const { container } = render(
      <>
        <DashboardChart chart="bars" items={items} />
        <DashboardChart chart="pie" items={items} />
        <DashboardChart chart="columns" items={items} />
      </>,
    );
    const charts = [...container.querySelectorAll<HTMLElement>('[data-chart]')];
    expect(charts.map((c) => c.dataset.chart)).toEqual(['bars', 'pie', 'columns']);
    for (const c of charts) expect(c).toHaveAttribute('aria-hidden', 'true');
    expect(charts[0].querySelectorAll('.recharts-bar-rectangle')).toHaveLength(3);
    expect(charts[1].querySelector('.recharts-pie')).not.toBeNull();
    expect(charts[2].querySelectorAll('.recharts-bar-rectangle')).toHaveLength(3);
    expect(container.querySelectorAll('[tabindex="0"]')).toHaveLength(0);
    vi.unstubAllGlobals();
  });
});

describe('dashboard', () => {
  it('shows one widget per call that answers, with bars, values, percentages and the total', async () => {
    const fetchMock = server();
    const error = vi.spyOn(notify, 'error');
    renderWith(<Dashboard />, { link: new MockSubscriptionLink() });
    const sales = await screen.findByTestId('dashboard-widget-vendasgrupo');
    await waitFor(() => expect(within(sales).getAllByTestId('dashboard-barra')).toHaveLength(2));
    expect(within(sales).getByRole('heading', { name: 'Vendas por grupo' })).toBeInTheDocument();
    expect(within(sales).getByTestId('dashboard-total')).toHaveTextContent('Total: R$ 1.000,00');
    const bars = within(sales).getAllByTestId('dashboard-barra');
    expect(bars[0]).toHaveTextContent('BEBIDASR$ 750,00 75,00%');
    expect(bars[1]).toHaveTextContent('LANCHESR$ 250,00 25,00%');
    expect(within(sales).getByRole('list', { name: 'Vendas por grupo' })).toBeInTheDocument();
    // The chart above the list (its own chunk, loaded once there are figures).
    await waitFor(() => expect(sales.querySelector('[data-chart="bars"]')).not.toBeNull());

    // Receivables along their due dates: columns in the server's order, not by value.
    const receivables = screen.getByTestId('dashboard-widget-contasreceber');
    await waitFor(() => expect(within(receivables).getByTestId('dashboard-total')).toHaveTextContent('R$ 0,30'));
    expect(
      within(receivables)
        .getAllByTestId('dashboard-barra')
        .map((b) => b.textContent),
    ).toEqual(['VencidoR$ 0,10 33,33%', 'A vencerR$ 0,20 66,67%']);
    await waitFor(() => expect(receivables.querySelector('[data-chart="columns"]')).not.toBeNull());

    // Another error shows in its widget, not as a toast; 204 is an empty widget.
    const payables = screen.getByTestId('dashboard-widget-contaspagar');
    expect(await within(payables).findByRole('alert')).toHaveTextContent('Falha ao consultar as contas a pagar.');
    expect(
      await within(screen.getByTestId('dashboard-widget-vendassetor')).findByText('Nenhum item encontrado.'),
    ).toBeInTheDocument();

    // A call the server does not have (404) shows no widget.
    for (const nome of ['vendassubgrupo', 'formaspagamentos', 'despesacentrocusto', 'despesagrupocentrocusto']) {
      await waitFor(() => expect(screen.queryByTestId(`dashboard-widget-${nome}`)).toBeNull());
    }
    expect(error).not.toHaveBeenCalled();

    // This month by default, the whole of it.
    const month = monthPeriod(TODAY);
    const calls = requested(fetchMock);
    expect(calls).toHaveLength(8);
    expect(calls.find((c) => c.url === '/dasboard/vendasgrupo')?.body).toEqual({
      EMP_ID: 1,
      DATA_INI: month.DATA_INI,
      DATA_FIM: month.DATA_FIM,
    });
    expect(within(screen.getByTestId('dashboard-periodo')).getByRole('radio', { name: 'Este mês' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    expect(screen.getByTestId('dashboard-intervalo')).toHaveTextContent(
      `${formatDate(month.DATA_INI)} a ${formatDate(month.DATA_FIM)}`,
    );
  });

  it('asks again for the chosen period, only the calls the server has', async () => {
    const user = userEvent.setup();
    const fetchMock = server();
    renderWith(<Dashboard />, { link: new MockSubscriptionLink() });
    await waitFor(() => expect(screen.queryByTestId('dashboard-widget-vendassubgrupo')).toBeNull());
    await within(screen.getByTestId('dashboard-widget-vendasgrupo')).findAllByTestId('dashboard-barra');
    fetchMock.mockClear();

    const period = screen.getByTestId('dashboard-periodo');
    await user.click(within(period).getByRole('radio', { name: 'Mês passado' }));
    const last = previousMonthPeriod(TODAY);
    await waitFor(() => expect(requested(fetchMock)).toHaveLength(4));
    expect(requested(fetchMock).map((c) => c.url)).toEqual([
      '/dasboard/vendasgrupo',
      '/dasboard/vendassetor',
      '/dasboard/contasreceber',
      '/dasboard/contaspagar',
    ]);
    expect(requested(fetchMock)[0].body).toEqual({ EMP_ID: 1, DATA_INI: last.DATA_INI, DATA_FIM: last.DATA_FIM });

    fetchMock.mockClear();
    await user.click(within(period).getByRole('radio', { name: 'Este ano' }));
    await waitFor(() => expect(requested(fetchMock)).toHaveLength(4));
    expect(requested(fetchMock)[0].body).toMatchObject(yearPeriod(TODAY));

    fetchMock.mockClear();
    await user.click(within(period).getByRole('radio', { name: 'Personalizado' }));
    const form = screen.getByRole('form', { name: 'Período personalizado' });
    await user.clear(within(form).getByLabelText(/^Data inicial/));
    await user.type(within(form).getByLabelText(/^Data inicial/), '01/02/2026');
    await user.clear(within(form).getByLabelText(/^Data final/));
    await user.click(within(form).getByRole('button', { name: 'Aplicar' }));
    expect(await within(form).findByText('Data final é obrigatório!')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
    await user.type(within(form).getByLabelText(/^Data final/), '15/02/2026');
    await user.click(within(form).getByRole('button', { name: 'Aplicar' }));
    await waitFor(() => expect(requested(fetchMock)).toHaveLength(4));
    expect(requested(fetchMock)[0].body).toEqual({ EMP_ID: 1, DATA_INI: '2026-02-01', DATA_FIM: '2026-02-15' });
    expect(screen.getByTestId('dashboard-intervalo')).toHaveTextContent('01/02/2026 a 15/02/2026');
  });

  it('is on the home page, below the greeting', async () => {
    server();
    renderWith(<HomePage />, { link: new MockSubscriptionLink() });
    expect(screen.getByText('Administrador')).toBeInTheDocument();
    expect(await screen.findByTestId('dashboard-widget-vendasgrupo')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Painel' })).toBeInTheDocument();
  });
});
