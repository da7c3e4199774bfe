import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import ResourceRoute from './ResourceRoute';
import type { AnyRow } from '../lib/api';
import { ResourceGetDocument, ResourceListDocument, ResourceMetasDocument } from '../lib/resources/documents';
import type { ResourceMeta } from '../lib/resources/metaFields';
import { documentMetas, orderMeta, quoteMeta, serviceOrderMeta } from '../test/fixtures';
import { program, renderWith, signIn } from '../test/utils';
import { documentMessage } from '../features/documents/DocumentSend';

// The metas as the gateway answers them (the fragment spread reads __typename).
const metas = documentMetas.map((m: ResourceMeta) => ({ __typename: 'ResourceMeta', ...m }));
const metasMock = { request: { query: ResourceMetasDocument }, result: { data: { resourceMetas: metas } } };
const page = (rows: object[]) => ({ data: { resourceList: { __typename: 'ResourcePage', rows, total: rows.length } } });
const linesMock = (name: string, where: object) => ({
  request: { query: ResourceListDocument, variables: { name, emp: 1, input: { page: 1, limit: 500, where } } },
  result: page([]),
  maxUsageCount: 3,
});
const getMock = (name: string, id: unknown, row: object) => ({
  request: { query: ResourceGetDocument, variables: { name, emp: 1, id } },
  result: { data: { resourceGet: row } },
  maxUsageCount: 3,
});
const customerMock = (row: object) => getMock('clientes', 4, { CLI_ID: 4, ...row });

// The screens and the dialogs are lazy chunks: the first import of one in a test run takes a while.
const LAZY = { timeout: 5000 };

const quoteRoute = '/orcamentos/alterar?id=5';
const quoteMocks = [
  getMock('orcamento', 5, {
    ORCA_ID: 5,
    ORCA_CLI_ID: 4,
    ORCA_CLI_DESC: 'JOÃO DA SILVA',
    ORCA_SITUACAO: 'A',
    ORCA_VLR_TOT: '141.00',
  }),
  linesMock('orcamentoproduto', { ORCP_ORCA_ID: 5 }),
  linesMock('orcamentoservico', { ORCI_ORCA_ID: 5 }),
];
const orderId = { PEDF_ID: 9, PEDF_SERIE: '1' };
const orderRoute = `/pedidos/alterar?id=${encodeURIComponent(JSON.stringify(orderId))}`;
const orderMocks = [
  getMock('pedido', orderId, { ...orderId, PEDF_CLI_ID: 4, PEDF_CLI_DESC: 'ANA', PEDF_SITUACAO: 'A' }),
  linesMock('pedidoproduto', { PEDI_PEDF_ID: 9, PEDI_PEDF_SERIE_ID: '1' }),
  linesMock('pedidoservico', { PFOS_PEDF_ID: 9, PFOS_PEDF_SERIE: '1' }),
];

function renderRoute(route: string, mocks: object[]) {
  return renderWith(
    <Routes>
      <Route path="*" element={<ResourceRoute />} />
    </Routes>,
    { route, mocks: [metasMock, ...mocks] as never },
  );
}

type Call = [string, RequestInit];
const queued = (msg: string) =>
  new Response(JSON.stringify({ msg, MENS_ID: 12 }), { status: 200, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  window.innerWidth = 1920;
  signIn({
    programs: [
      program({ id: 1, name: 'IndexOrcamento', webPath: '/orcamentos' }),
      program({ id: 2, name: 'IndexPedido', webPath: '/pedidos' }),
      program({ id: 3, name: 'IndexOrdemservico', webPath: '/ordensdeservico' }),
    ],
  });
});
afterEach(() => vi.restoreAllMocks());

describe('the document a quote or a billing order is sent as', () => {
  it('names a quote by its ORCA_ID and an order by its PEDF_ID with its series in MENS_DOC_REF', () => {
    const quote = { ORCA_ID: 5, ORCA_CLI_ID: 4 } as unknown as AnyRow;
    expect(documentMessage(quoteMeta, quote)).toEqual({
      document: { kind: 'orcamento', id: 5, label: 'Orçamento nº 5' },
      row: quote,
      customerId: 4,
      message: 'Segue o orçamento nº 5.',
    });
    const order = { PEDF_ID: 9, PEDF_SERIE: '1', PEDF_CLI_ID: 4 } as unknown as AnyRow;
    expect(documentMessage(orderMeta, order)).toMatchObject({
      document: { kind: 'pedido', id: 9, label: 'Pedido nº 9/1', ref: { PEDF_SERIE: '1' } },
      customerId: 4,
    });
    // No id yet, or a document the server does not produce: nothing to send.
    expect(documentMessage(quoteMeta, {} as AnyRow)).toBeNull();
    expect(documentMessage(serviceOrderMeta, { ORDS_ID: 4, ORDS_SERIE: 'OS' } as unknown as AnyRow)).toBeNull();
  });
});

describe('sending a quote or a billing order', () => {
  it("sends a saved quote by e-mail to the customer's address: orcamento and its ORCA_ID", async () => {
    const user = userEvent.setup();
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockResolvedValue(queued('E-mail agendado com sucesso!'));
    renderRoute(quoteRoute, [...quoteMocks, customerMock({ CLI_EMAIL: 'joao@example.com' })]);
    await user.click(await screen.findByRole('button', { name: 'Enviar por e-mail' }, LAZY));
    expect(screen.getByRole('button', { name: 'Enviar por WhatsApp' })).toBeEnabled();
    const email = await screen.findByRole('dialog', { name: 'Enviar e-mail' }, LAZY);
    expect(within(email).getByRole('list', { name: 'Destinatários' })).toHaveTextContent('joao@example.com');
    expect(within(email).getByLabelText('Assunto')).toHaveValue('Orçamento nº 5');
    expect(within(email).getByLabelText('Documento anexado')).toHaveTextContent('Orçamento nº 5');
    await user.click(within(email).getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [url, init] = fetchMock.mock.calls[0] as unknown as Call;
    expect(url).toBe('/email/send');
    const form = init.body as FormData;
    expect(form.get('MENS_DOC_TIPO')).toBe('orcamento');
    expect(form.get('MENS_DOC_ID')).toBe('5');
    expect(form.get('MENS_DOC_REF')).toBeNull();
    expect(form.get('MENS_DESTINATARIO')).toBe('joao@example.com');
    expect(form.get('MENS_DESCRICAO')).toBe('Segue o orçamento nº 5.');
  });

  it("sends a saved billing order by WhatsApp to the customer's mobile: pedido, PEDF_ID and {PEDF_SERIE}", async () => {
    const user = userEvent.setup();
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockResolvedValue(queued('Whatsapp Agendado com sucesso!'));
    renderRoute(orderRoute, [...orderMocks, customerMock({ CLI_FONE: '1133334444;11987654321' })]);
    await user.click(await screen.findByRole('button', { name: 'Enviar por WhatsApp' }, LAZY));
    const dialog = await screen.findByRole('dialog', { name: /WhatsApp/ }, LAZY);
    expect(within(dialog).getByRole('list', { name: 'Destinatários' })).toHaveTextContent('(11) 98765-4321');
    expect(within(dialog).getByLabelText('Documento anexado')).toHaveTextContent('Pedido nº 9/1');
    await user.click(within(dialog).getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [url, init] = fetchMock.mock.calls[0] as unknown as Call;
    expect(url).toBe('/whatsapp/send');
    const form = init.body as FormData;
    expect(form.get('MENS_DOC_TIPO')).toBe('pedido');
    expect(form.get('MENS_DOC_ID')).toBe('9');
    expect(form.get('MENS_DOC_REF')).toBe('{"PEDF_SERIE":"1"}');
    expect(form.get('MENS_DESTINATARIO')).toBe('5511987654321');
    expect(form.get('MENS_TIPO')).toBe('D');
  });

  it('is not offered for a document not saved yet', async () => {
    for (const route of ['/orcamentos/inserir', '/pedidos/inserir']) {
      const { unmount } = renderRoute(route, []);
      expect(await screen.findByText('Salve o documento para lançar os itens.', {}, LAZY)).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Enviar por e-mail' })).toBeNull();
      expect(screen.queryByRole('button', { name: 'Enviar por WhatsApp' })).toBeNull();
      unmount();
    }
  });
});
