import { ApolloError } from '@apollo/client';
import { screen, waitFor, within } from '@testing-library/react';
import { GraphQLError } from 'graphql';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../lib/toast';
import type { AnyRow, Row } from '../../lib/api';
import {
  mockRow,
  action,
  documentLine,
  documentMetas,
  field,
  orderMeta,
  quoteMeta,
  requisitionMeta,
  serviceOrderMeta,
  transferMeta,
} from '../../test/fixtures';
import { program, renderWith, signIn } from '../../test/utils';
import type { DocumentRegister } from '../../lib/resources/metaFields';
import { allows, type Permissions } from '../../lib/resources/permissions';
import { labelText } from '../../lib/resources/recordLabel';
import {
  ResourceActionDocument,
  ResourceCreateDocument,
  ResourceGetDocument,
  ResourceListDocument,
  ResourceUpdateDocument,
} from '../../lib/resources/documents';
import {
  actionBody,
  actionEnabled,
  actionParams,
  fillText,
  openedHref,
  overridableRefusal,
  pathParams,
  surchargeBody,
  type ActionContext,
} from './actions';
import DocumentFormPage from './DocumentFormPage';
import { hiddenFields, isReadOnly, lineLock, lineWhere, statusLabel } from './documentMeta';
import { newLineData } from './useLineWrites';

const quote = (over: { [C in keyof Row<'orcamento'>]?: unknown } = {}) =>
  mockRow('orcamento', {
    ORCA_ID: 5,
    ORCA_EMP_ID: 1,
    ORCA_CLI_DESC: 'JOÃO DA SILVA',
    ORCA_DTA_EMIS: '2026-11-22',
    ORCA_VLR_PECAS: '21.00',
    ORCA_VLR_OS: '120.00',
    ORCA_VLR_ACRE: '0.00',
    ORCA_VLR_DESC: '0.00',
    ORCA_VLR_TOT: '141.00',
    ORCA_SITUACAO: 'A',
    ORCA_REQU_OK: false,
    ...over,
  });
const productLine = (over: { [C in keyof Row<'orcamentoproduto'>]?: unknown } = {}) =>
  mockRow('orcamentoproduto', {
    ORCP_ORCA_ID: 5,
    ORCP_ID: 1,
    ORCP_PROD_ID: 7,
    ORCP_DESCRICAO: 'PARAFUSO',
    ORCP_UNIDADE: 'UN',
    ORCP_QTDE: '2.0000',
    ORCP_VLR_UNIT: '10.5000',
    ORCP_VLR_DESC: '0.00',
    ORCP_VLR_TOTAL: '21.00',
    ...over,
  });
const serviceLine = {
  ORCI_ORCA_ID: 5,
  ORCI_ID: 1,
  ORCI_SERV_ID: 2,
  ORCI_DESCRICAO: 'ALINHAMENTO',
  ORCI_QTDE: '1',
  ORCI_VLR_UNIT: '120',
  ORCI_VLR_DESC: '0',
  ORCI_VLR_TOTAL: '120.00',
};
const serviceOrder = (over: { [C in keyof Row<'ordemservico'>]?: unknown } = {}) =>
  mockRow('ordemservico', {
    ORDS_ID: 4,
    ORDS_SERIE: 'OS',
    ORDS_EMP_ID: 1,
    ORDS_CLI_DESC: 'MARIA',
    ORDS_DTA_ENTRADA: '2026-11-22',
    ORDS_ACRESCIMO: '5.00',
    ORDS_VLR_TOTAL: '50.00',
    ORDS_SITUACAO: 'A',
    ORDS_ESTOQUE_BAIXADO: false,
    ...over,
  });
const osId = { ORDS_ID: 4, ORDS_SERIE: 'OS' };
const osRoute = `/ordensdeservico/alterar?id=${encodeURIComponent(JSON.stringify(osId))}`;

// The status badge's colours by tone (StatusLabel.tone); none: neutral grey.
const TONE = {
  open: 'bg-emerald-100',
  done: 'bg-blue-100',
  cancelled: 'bg-red-100',
  neutral: 'bg-slate-200',
};
const expectTone = (tone: keyof typeof TONE) => {
  const badge = screen.getByTestId('status-badge');
  for (const [t, cls] of Object.entries(TONE)) {
    if (t === tone) expect(badge).toHaveClass(cls);
    else expect(badge).not.toHaveClass(cls);
  }
};
/** The buttons drawn in the primary style, by name. */
const primaryButtons = () =>
  screen
    .getAllByRole('button')
    .filter(
      (b) =>
        b.classList.contains('bg-primary') && b.textContent !== 'Salvar' && !/^Adicionar/.test(b.textContent ?? ''),
    )
    .map((b) => b.textContent);

const page = (rows: object[]) => ({ data: { resourceList: { __typename: 'ResourcePage', rows, total: rows.length } } });
const getMock = (name: string, id: unknown, row: object, maxUsageCount = 1) => ({
  request: { query: ResourceGetDocument, variables: { name, emp: 1, id } },
  result: { data: { resourceGet: row } },
  maxUsageCount,
});
const linesMock = (name: string, where: object, rows: object[], maxUsageCount = 1) => ({
  request: {
    query: ResourceListDocument,
    variables: { name, emp: 1, input: { page: 1, limit: 500, where } },
  },
  result: page(rows),
  maxUsageCount,
});
const actionMock = (name: string, action: string, params: object, answer: object, body?: object) => ({
  request: {
    query: ResourceActionDocument,
    variables: { name, action, params: { emp: 1, ...params }, ...(body ? { body } : {}) },
  },
  result: { data: { resourceAction: answer } },
});
/** A refused call as the gateway answers it: the message, and the HTTP status in the extensions. */
const refusedMock = (name: string, action: string, params: object, message: string, status: number, body?: object) => ({
  request: {
    query: ResourceActionDocument,
    variables: { name, action, params: { emp: 1, ...params }, ...(body ? { body } : {}) },
  },
  result: { errors: [{ message, extensions: { code: status === 409 ? 'CONFLICT' : 'FORBIDDEN', status } }] },
});
const CREDIT_REFUSAL = 'Limite de crédito excedido: limite R$ 1.000,00, disponível R$ 200,00, pedido R$ 300,00.';
const quoteLines = (n = 1, products = [productLine()], services: object[] = [serviceLine]) => [
  linesMock('orcamentoproduto', { ORCP_ORCA_ID: 5 }, products, n),
  linesMock('orcamentoservico', { ORCI_ORCA_ID: 5 }, services, n),
];
const osLines = (n = 1) => [
  linesMock('ordemservicoservico', { ORDI_ORDS_ID: 4, ORDI_SERIE: 'OS' }, [], n),
  linesMock('ordemservicoproduto', { ORDP_ORDS_ID: 4, ORDP_SERIE: 'OS' }, [], n),
];

function Where() {
  const { pathname, search } = useLocation();
  return <p data-testid="where">{`${pathname}${decodeURIComponent(search)}`}</p>;
}

/** The screen as the app routes it: another record's id mounts it afresh. */
function Screen({ meta }: { meta: DocumentRegister }) {
  const { search } = useLocation();
  return <DocumentFormPage key={search} meta={meta} metas={documentMetas} action="alterar" />;
}

function renderForm(meta: DocumentRegister, route: string, mocks: object[]) {
  // Only the register's own path shows the page: a conversion leaves it for another screen.
  return renderWith(
    <>
      <Routes>
        <Route path={`${meta.path}/*`} element={<Screen meta={meta} />} />
        <Route path="*" element={null} />
      </Routes>
      <Where />
    </>,
    { mocks: mocks as never, route },
  );
}

const grant = (over = {}) =>
  signIn({
    programs: [
      program({ id: 1, name: 'IndexOrcamento', webPath: '/orcamentos', ...over }),
      program({ id: 2, name: 'IndexPedido', webPath: '/pedidos', ...over }),
      program({ id: 3, name: 'IndexOrdemservico', webPath: '/ordensdeservico', ...over }),
      program({ id: 4, name: 'IndexCompra', webPath: '/compras', ...over }),
    ],
  });

beforeEach(() => {
  window.innerWidth = 1920;
  grant();
});
afterEach(() => vi.restoreAllMocks());

describe('a document screen from its metadata alone', () => {
  // A document the client knows nothing about: every column, total and status comes from here.
  const purchaseMeta: DocumentRegister = {
    name: 'compra',
    path: '/compras',
    title: 'Compras',
    program: 'compras',
    key: ['COMP_ID'],
    companyColumn: 'COMP_EMP_ID',
    labelField: 'COMP_FORN_DESC',
    labelLength: null,
    defaultOrder: 'COMP_ID DESC',
    fields: [
      field({ name: 'COMP_ID', kind: 'NUMBER', label: 'Número', editable: false }),
      field({ name: 'COMP_FORN_DESC', kind: 'TEXT', label: 'Fornecedor' }),
      field({ name: 'COMP_FRETE', kind: 'MONEY', label: 'Frete', editable: false }),
      field({ name: 'COMP_TOTAL', kind: 'MONEY', label: 'Total da compra', editable: false }),
      field({ name: 'COMP_SIT', kind: 'COMBOBOX', label: 'Situação', editable: false }),
    ],
    groups: [],
    document: {
      key: ['COMP_ID'],
      dateField: null,
      breadcrumbs: null,
      blockStock: false,
      children: [],
      status: {
        field: 'COMP_SIT',
        open: ['D'],
        labels: [
          { value: 'D', text: 'Digitação', tone: 'open' },
          { value: 'R', text: 'Recebida', tone: null },
        ],
      },
      totals: [
        { name: 'COMP_FRETE', label: 'Frete' },
        { name: 'COMP_TOTAL', label: 'Total da compra' },
      ],
      lines: [
        documentLine({
          resource: 'compraitem',
          kind: 'product',
          title: 'Itens comprados',
          itemName: 'item',
          key: ['COMI_COMP_ID', 'COMI_SEQ'],
          parent: ['COMI_COMP_ID'],
          seq: 'COMI_SEQ',
          item: 'COMI_PROD_ID',
          desc: 'COMI_DESC',
          qty: 'COMI_QTDE',
          price: 'COMI_CUSTO',
          total: 'COMI_TOTAL',
          editable: ['price'],
        }),
      ],
    },
    actions: [],
  };
  const purchase = (sit: string) => ({
    COMP_ID: 8,
    COMP_FORN_DESC: 'DISTRIBUIDORA',
    COMP_FRETE: '15.00',
    COMP_TOTAL: '115.00',
    COMP_SIT: sit,
  });
  const items = [
    {
      COMI_COMP_ID: 8,
      COMI_SEQ: 1,
      COMI_PROD_ID: 7,
      COMI_DESC: 'PARAFUSO',
      COMI_QTDE: '10',
      COMI_CUSTO: '10',
      COMI_TOTAL: '100',
    },
  ];
  const render = (sit: string) =>
    renderForm(purchaseMeta, '/compras/alterar?id=8', [
      getMock('compra', 8, purchase(sit)),
      linesMock('compraitem', { COMI_COMP_ID: 8 }, items),
    ]);

  it('lays out the lines by their roles, the totals apart, and edits what the line declares', async () => {
    render('D');
    const table = await screen.findByRole('region', { name: 'Itens comprados' });
    expect(await within(table).findByText('PARAFUSO')).toBeInTheDocument();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Item', 'Código', 'Descrição', 'Quantidade', 'Valor Unitário', 'Total', 'Ações']);
    expect(within(table).getByLabelText('Valor unitário de PARAFUSO')).toHaveValue('10,00');
    expect(within(table).queryByLabelText('Quantidade de PARAFUSO')).not.toBeInTheDocument();
    expect(within(table).getByRole('button', { name: 'Adicionar item' })).toBeInTheDocument();
    expect(within(table).getByText('Total itens comprados: R$ 100,00')).toBeInTheDocument();
    const totals = screen.getByRole('region', { name: 'Totais' });
    expect(within(totals).getByText('Total da compra')).toBeInTheDocument();
    expect(screen.getByTestId('total-COMP_TOTAL')).toHaveTextContent('R$ 115,00');
    expect(screen.getByTestId('total-COMP_FRETE')).toHaveTextContent('R$ 15,00');
    // Totals and the status are shown apart, not in the form.
    expect(screen.queryByLabelText(/Total da compra/)).not.toBeInTheDocument();
    expect(screen.queryByLabelText(/Situação/)).not.toBeInTheDocument();
    expect(screen.getByLabelText(/Fornecedor/)).toBeEnabled();
    expect(screen.getByTestId('status-badge')).toHaveTextContent('Digitação');
    expectTone('open');
    expect(screen.getByRole('heading', { name: 'Compras nº 8 - DISTRIBUIDORA' })).toBeInTheDocument();
  });

  it('is read-only in a status that does not accept changes', async () => {
    render('R');
    const table = await screen.findByRole('region', { name: 'Itens comprados' });
    expect(await within(table).findByText('PARAFUSO')).toBeInTheDocument();
    expect(screen.getByTestId('status-badge')).toHaveTextContent('Recebida');
    // A status without a tone is neutral, read-only or not.
    expectTone('neutral');
    expect(screen.getByRole('note')).toHaveTextContent('Situação Recebida: somente consulta.');
    expect(within(table).queryByLabelText('Valor unitário de PARAFUSO')).not.toBeInTheDocument();
    expect(within(table).getByText('R$ 10,00')).toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: 'Adicionar item' })).not.toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: 'Excluir PARAFUSO' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Salvar' })).not.toBeInTheDocument();
    expect(screen.getByLabelText(/Fornecedor/)).toBeDisabled();
  });

  it('reads what the metadata says a document is', () => {
    expect([...hiddenFields(purchaseMeta)]).toEqual(['COMP_FRETE', 'COMP_TOTAL', 'COMP_SIT']);
    expect(isReadOnly(purchaseMeta, purchase('D'))).toBe(false);
    expect(isReadOnly(purchaseMeta, purchase('R'))).toBe(true);
    // No record yet (a new document), or no status at all: editable.
    expect(isReadOnly(purchaseMeta, null)).toBe(false);
    expect(isReadOnly(transferMeta, { TRLO_ID: 1 })).toBe(false);
    expect(statusLabel(purchaseMeta, 'D')).toEqual({ value: 'D', text: 'Digitação', tone: 'open' });
    // A code the metadata does not name: itself, neutral.
    expect(statusLabel(purchaseMeta, 'X')).toEqual({ value: 'X', text: 'X', tone: null });
    expect(lineWhere(orderMeta.document.lines[0], orderMeta, { PEDF_ID: 9, PEDF_SERIE: '1' })).toEqual({
      PEDI_PEDF_ID: 9,
      PEDI_PEDF_SERIE_ID: '1',
    });
  });
});

describe('quote screen', () => {
  it('shows the lines and the server totals, and edits a quantity', async () => {
    const user = userEvent.setup();
    renderForm(quoteMeta, '/orcamentos/alterar?id=5', [
      getMock('orcamento', 5, quote()),
      linesMock('orcamentoproduto', { ORCP_ORCA_ID: 5 }, [productLine()]),
      linesMock('orcamentoservico', { ORCI_ORCA_ID: 5 }, [serviceLine], 3),
      {
        request: {
          query: ResourceUpdateDocument,
          variables: { name: 'orcamentoproduto', emp: 1, id: { ORCP_ORCA_ID: 5, ORCP_ID: 1 }, data: { ORCP_QTDE: 3 } },
        },
        result: { data: { resourceUpdate: productLine({ ORCP_QTDE: '3', ORCP_VLR_TOTAL: '31.50' }) } },
      },
      // The answered line replaces the cached one; only the header (server totals) is read again.
      getMock('orcamento', 5, quote({ ORCA_VLR_PECAS: '31.50', ORCA_VLR_TOT: '151.50' })),
    ]);
    expect(await screen.findByText('PARAFUSO')).toBeInTheDocument();
    expect(await screen.findByText('ALINHAMENTO')).toBeInTheDocument();
    expect(screen.getByTestId('total-ORCA_VLR_TOT')).toHaveTextContent('R$ 141,00');
    expect(screen.getByTestId('total-ORCA_VLR_PECAS')).toHaveTextContent('R$ 21,00');
    expect(screen.getByTestId('status-badge')).toHaveTextContent('Aberto');
    const products = screen.getByRole('region', { name: 'Produtos' });
    expect(
      within(products)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Item', 'Código', 'Descrição', 'Un.', 'Quantidade', 'Valor Unitário', 'Desconto', 'Total', 'Ações']);
    expect(within(products).getByLabelText('Desconto de PARAFUSO')).toHaveValue('0,00');

    const qty = screen.getByLabelText('Quantidade de PARAFUSO');
    expect(qty).toHaveValue('2');
    await user.clear(qty);
    await user.type(qty, '3{Enter}');
    await waitFor(() => expect(screen.getByTestId('total-ORCA_VLR_TOT')).toHaveTextContent('R$ 151,50'));
    expect(screen.getByLabelText('Quantidade de PARAFUSO')).toHaveValue('3');
    expect(screen.getByLabelText('Quantidade de PARAFUSO').closest('tr')).toHaveTextContent('R$ 31,50');
  });

  it('adds products from the picker with their price', async () => {
    const user = userEvent.setup();
    renderForm(quoteMeta, '/orcamentos/alterar?id=5', [
      getMock('orcamento', 5, quote(), 2),
      ...quoteLines(1, [], []),
      {
        request: {
          query: ResourceListDocument,
          variables: {
            name: 'estoqueprodutos',
            emp: 1,
            input: { filter: null, page: 1, limit: 20, where: { PROD_SITUACAO: 1 } },
          },
        },
        result: page([
          { PROD_ID: 7, PROD_DESCRICAO: 'PARAFUSO', PROD_VALOR: '10.50', UNID_ABREVIADA: 'UN', SALDO_FISICO: '10' },
        ]),
      },
      {
        request: {
          query: ResourceCreateDocument,
          variables: {
            name: 'orcamentoproduto',
            emp: 1,
            data: { ORCP_ORCA_ID: 5, ORCP_PROD_ID: 7, ORCP_QTDE: 2, ORCP_VLR_UNIT: 10.5 },
          },
        },
        result: { data: { resourceCreate: productLine() } },
      },
      linesMock('orcamentoproduto', { ORCP_ORCA_ID: 5 }, [productLine()]),
    ]);
    await user.click(await screen.findByRole('button', { name: 'Adicionar produto' }));
    const picker = await screen.findByRole('dialog', { name: 'Adicionar Produto' });
    expect(await within(picker).findByText('7 - PARAFUSO')).toBeInTheDocument();
    expect(within(picker).getByText(/EST: 10 UN/)).toBeInTheDocument();
    await user.click(within(picker).getByRole('button', { name: 'Aumentar PARAFUSO' }));
    await user.click(within(picker).getByRole('button', { name: 'Aumentar PARAFUSO' }));
    expect(within(picker).getByText('Valor total: R$ 21,00')).toBeInTheDocument();
    await user.click(within(picker).getByRole('button', { name: 'SALVAR' }));
    expect(await screen.findByLabelText('Quantidade de PARAFUSO')).toHaveValue('2');
  });

  it('shows the buttons the metadata declares, in its order', async () => {
    renderForm(quoteMeta, '/orcamentos/alterar?id=5', [getMock('orcamento', 5, quote()), ...quoteLines()]);
    await screen.findByText('PARAFUSO');
    const buttons = ['Gerar Pedido', 'Gerar OS', 'Gerar Requisição', 'Duplicar'];
    for (const name of buttons) expect(screen.getByRole('button', { name })).toBeEnabled();
    expect(primaryButtons()).toEqual(['Gerar Pedido']);
    expectTone('open');
  });

  it('disables a button whose `unless` field is true and those out of their `openWhen`', async () => {
    renderForm(quoteMeta, '/orcamentos/alterar?id=5', [
      getMock('orcamento', 5, quote({ ORCA_REQU_OK: true })),
      ...quoteLines(),
    ]);
    await screen.findByText('PARAFUSO');
    expect(screen.getByRole('button', { name: 'Gerar Requisição' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Gerar Pedido' })).toBeEnabled();
  });

  it('converts to a billing order (serie 1, model 55, type 1) and opens it', async () => {
    const user = userEvent.setup();
    renderForm(quoteMeta, '/orcamentos/alterar?id=5', [
      getMock('orcamento', 5, quote()),
      ...quoteLines(),
      actionMock(
        'orcamento',
        'gerapedidofat',
        { ORCA_ID: 5, serie: '1', model: '55', type: '1', user: 3 },
        { PEDF_ID: 9, PEDF_SERIE: '1', PEDF_SITUACAO: 'A' },
      ),
    ]);
    await user.click(await screen.findByRole('button', { name: 'Gerar Pedido' }));
    await waitFor(() =>
      expect(screen.getByTestId('where')).toHaveTextContent('/pedidos/alterar?id={"PEDF_ID":9,"PEDF_SERIE":"1"}'),
    );
  });

  it('opens the service order a quote becomes, by its key fields in the answer', async () => {
    const user = userEvent.setup();
    renderForm(quoteMeta, '/orcamentos/alterar?id=5', [
      getMock('orcamento', 5, quote()),
      ...quoteLines(),
      actionMock('orcamento', 'geraos', { ORCA_ID: 5, user: 3 }, serviceOrder({ ORDS_ORCA_ID: 5 })),
    ]);
    await user.click(await screen.findByRole('button', { name: 'Gerar OS' }));
    await waitFor(() =>
      expect(screen.getByTestId('where')).toHaveTextContent(
        '/ordensdeservico/alterar?id={"ORDS_ID":4,"ORDS_SERIE":"OS"}',
      ),
    );
  });

  it('stays and reads the quote again after a call that opens nothing', async () => {
    const success = vi.spyOn(notify, 'success');
    const user = userEvent.setup();
    renderForm(quoteMeta, '/orcamentos/alterar?id=5', [
      getMock('orcamento', 5, quote()),
      ...quoteLines(2),
      actionMock(
        'orcamento',
        'gerarequisicao',
        { ORCA_ID: 5, user: 3 },
        { code: 200, msg: 'Requisição enviada ao estoque.', ORCA_ID: 5 },
      ),
      getMock('orcamento', 5, quote({ ORCA_REQU_OK: true })),
    ]);
    await user.click(await screen.findByRole('button', { name: 'Gerar Requisição' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Requisição enviada ao estoque.'));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Gerar Requisição' })).toBeDisabled());
    expect(screen.getByTestId('where')).toHaveTextContent('/orcamentos/alterar?id=5');
  });

  it('reports the server message of a refused conversion', async () => {
    const error = vi.spyOn(notify, 'error');
    const user = userEvent.setup();
    renderForm(quoteMeta, '/orcamentos/alterar?id=5', [
      getMock('orcamento', 5, quote()),
      ...quoteLines(1, [], []),
      {
        request: {
          query: ResourceActionDocument,
          variables: { name: 'orcamento', action: 'geraos', params: { emp: 1, ORCA_ID: 5, user: 3 } },
        },
        result: { errors: [{ message: 'Orçamento sem itens não pode ser convertido.' }] },
      },
    ]);
    await user.click(await screen.findByRole('button', { name: 'Gerar OS' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('Orçamento sem itens não pode ser convertido.'));
  });
});

describe('billing order screen', () => {
  const order = (over: { [C in keyof Row<'pedido'>]?: unknown } = {}) =>
    mockRow('pedido', {
      PEDF_ID: 9,
      PEDF_SERIE: '1',
      PEDF_EMP_ID: 1,
      PEDF_CLI_DESC: 'JOÃO DA SILVA COMÉRCIO DE PEÇAS LTDA',
      PEDF_DTA_EMISSAO: '2026-11-22',
      PEDF_TOT_PROD: '21.00',
      PEDF_TOT_SERV: '120.00',
      PEDF_VLR_TOTAL: '141.00',
      PEDF_SITUACAO: 'A',
      ...over,
    });
  const id = { PEDF_ID: 9, PEDF_SERIE: '1' };
  const route = `/pedidos/alterar?id=${encodeURIComponent(JSON.stringify(id))}`;
  const lines = (n = 1) => [
    linesMock(
      'pedidoproduto',
      { PEDI_PEDF_ID: 9, PEDI_PEDF_SERIE_ID: '1' },
      [
        {
          PEDI_PEDF_ID: 9,
          PEDI_PEDF_SERIE_ID: '1',
          PEDI_PEDF_ITEM: 1,
          PEDI_PROD_ID: 7,
          PEDI_DESCRICAO: 'PARAFUSO',
          PEDI_QTDE: '2',
          PEDI_VLR_UNITARIO: '10.5',
          PEDI_VLR_TOTAL: '21',
        },
      ],
      n,
    ),
    linesMock('pedidoservico', { PFOS_PEDF_ID: 9, PFOS_PEDF_SERIE: '1' }, [], n),
  ];

  it('is read-only once invoiced, with a badge', async () => {
    renderForm(orderMeta, route, [getMock('pedido', id, order({ PEDF_SITUACAO: 'F' })), ...lines()]);
    expect(await screen.findByTestId('status-badge')).toHaveTextContent('Faturado');
    expectTone('done');
    expect(await screen.findByText('PARAFUSO')).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent('Situação Faturado: somente consulta.');
    expect(screen.queryByRole('button', { name: 'Salvar' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Adicionar produto' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Quantidade de PARAFUSO')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Excluir PARAFUSO' })).not.toBeInTheDocument();
    // Faturar is open only in 'A'; Duplicar in any status.
    expect(screen.getByRole('button', { name: 'Faturar' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Duplicar' })).toBeEnabled();
    expect(screen.getByLabelText(/Emissão/)).toBeDisabled();
    // The customer's name is cut to the order's labelLength (20) in its heading.
    expect(screen.getByText(/- JOÃO DA SILVA COMÉRC$/)).toBeInTheDocument();
    // The service lines have no discount: no such column.
    const services = screen.getByRole('region', { name: 'Serviços' });
    expect(within(services).queryByRole('columnheader', { name: 'Desconto' })).not.toBeInTheDocument();
  });

  it('invoices after a confirmation naming the order', async () => {
    const success = vi.spyOn(notify, 'success');
    const user = userEvent.setup();
    renderForm(orderMeta, route, [
      getMock('pedido', id, order()),
      ...lines(2),
      actionMock(
        'pedido',
        'faturar',
        { PEDF_ID: 9, PEDF_SERIE: '1' },
        { code: 200, msg: 'Pedido faturado com sucesso.' },
      ),
      getMock('pedido', id, order({ PEDF_SITUACAO: 'F' })),
    ]);
    await user.click(await screen.findByRole('button', { name: 'Faturar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Faturar pedido' });
    expect(
      within(dialog).getByText('Deseja faturar o pedido 9? Após faturado, o pedido não poderá ser alterado.'),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Faturar' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Pedido faturado com sucesso.'));
    await waitFor(() => expect(screen.getByTestId('status-badge')).toHaveTextContent('Faturado'));
    expect(screen.getByRole('button', { name: 'Faturar' })).toBeDisabled();
  });

  /** Clicks 'Faturar' and confirms; the server's refusal, when one the button may override, is asked next. */
  async function invoice(user: ReturnType<typeof userEvent.setup>) {
    await user.click(await screen.findByRole('button', { name: 'Faturar' }));
    const confirm = await screen.findByRole('dialog', { name: 'Faturar pedido' });
    await user.click(within(confirm).getByRole('button', { name: 'Faturar' }));
  }

  it('asks to release the credit limit the server refuses, and invoices with LIBERAR_LIMITE', async () => {
    const success = vi.spyOn(notify, 'success');
    const error = vi.spyOn(notify, 'error');
    const user = userEvent.setup();
    renderForm(orderMeta, route, [
      getMock('pedido', id, order()),
      ...lines(2),
      refusedMock('pedido', 'faturar', id, CREDIT_REFUSAL, 409),
      actionMock('pedido', 'faturar', id, { code: 200, msg: 'Pedido faturado com sucesso.' }, { LIBERAR_LIMITE: true }),
      getMock('pedido', id, order({ PEDF_SITUACAO: 'F' })),
    ]);
    await invoice(user);
    const release = await screen.findByRole('dialog', { name: 'Limite de crédito excedido' });
    expect(within(release).getByText(CREDIT_REFUSAL, { exact: false })).toBeInTheDocument();
    expect(
      within(release).getByText('Faturar mesmo assim? A liberação fica registrada no pedido com o seu usuário.', {
        exact: false,
      }),
    ).toBeInTheDocument();
    expect(within(release).getByRole('button', { name: 'Cancelar' })).toBeInTheDocument();
    await user.click(within(release).getByRole('button', { name: 'Liberar e faturar' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Pedido faturado com sucesso.'));
    await waitFor(() => expect(screen.getByTestId('status-badge')).toHaveTextContent('Faturado'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(error).not.toHaveBeenCalled();
  });

  it('leaves the order open when the release is cancelled', async () => {
    const error = vi.spyOn(notify, 'error');
    const user = userEvent.setup();
    renderForm(orderMeta, route, [
      getMock('pedido', id, order()),
      ...lines(),
      refusedMock('pedido', 'faturar', id, CREDIT_REFUSAL, 409),
    ]);
    await invoice(user);
    const release = await screen.findByRole('dialog', { name: 'Limite de crédito excedido' });
    await user.click(within(release).getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByTestId('status-badge')).toHaveTextContent('Aberto');
    expect(screen.getByRole('button', { name: 'Faturar' })).toBeEnabled();
    expect(error).not.toHaveBeenCalled();
  });

  it('shows the refusal of a user who may not release the limit as the error toast', async () => {
    const error = vi.spyOn(notify, 'error');
    const forbidden = `${CREDIT_REFUSAL} Liberar o limite de crédito exige permissão de alteração em Contas a Receber.`;
    const user = userEvent.setup();
    renderForm(orderMeta, route, [
      getMock('pedido', id, order()),
      ...lines(),
      refusedMock('pedido', 'faturar', id, CREDIT_REFUSAL, 409),
      refusedMock('pedido', 'faturar', id, forbidden, 403, { LIBERAR_LIMITE: true }),
    ]);
    await invoice(user);
    const release = await screen.findByRole('dialog', { name: 'Limite de crédito excedido' });
    await user.click(within(release).getByRole('button', { name: 'Liberar e faturar' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith(forbidden));
    // The 403 is final: no second question, the order stays open.
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByTestId('status-badge')).toHaveTextContent('Aberto');
  });

  it('shows any other refusal of invoicing as the error toast', async () => {
    const error = vi.spyOn(notify, 'error');
    const user = userEvent.setup();
    renderForm(orderMeta, route, [
      getMock('pedido', id, order()),
      ...lines(),
      refusedMock('pedido', 'faturar', id, 'Pedido sem itens.', 409),
    ]);
    await invoice(user);
    await waitFor(() => expect(error).toHaveBeenCalledWith('Pedido sem itens.'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('duplicates with the user id and opens the copy', async () => {
    const user = userEvent.setup();
    renderForm(orderMeta, route, [
      getMock('pedido', id, order({ PEDF_SITUACAO: 'F' })),
      ...lines(),
      actionMock('pedido', 'duplicar', { PEDF_ID: 9, PEDF_SERIE: '1', userId: 3 }, order({ PEDF_ID: 10 })),
      getMock('pedido', { PEDF_ID: 10, PEDF_SERIE: '1' }, order({ PEDF_ID: 10 })),
      linesMock('pedidoproduto', { PEDI_PEDF_ID: 10, PEDI_PEDF_SERIE_ID: '1' }, []),
      linesMock('pedidoservico', { PFOS_PEDF_ID: 10, PFOS_PEDF_SERIE: '1' }, []),
    ]);
    await user.click(await screen.findByRole('button', { name: 'Duplicar' }));
    await waitFor(() =>
      expect(screen.getByTestId('where')).toHaveTextContent('/pedidos/alterar?id={"PEDF_ID":10,"PEDF_SERIE":"1"}'),
    );
    expect(await screen.findByRole('heading', { name: /^Pedidos de Venda nº 10\/1/ })).toBeInTheDocument();
    expect(screen.getByTestId('status-badge')).toHaveTextContent('Aberto');
  });

  it('shows the whole customer name when the metadata gives no label length', async () => {
    renderForm({ ...orderMeta, labelLength: null }, route, [getMock('pedido', id, order()), ...lines()]);
    expect(await screen.findByText(/- JOÃO DA SILVA COMÉRCIO DE PEÇAS LTDA$/)).toBeInTheDocument();
    expect(primaryButtons()).toEqual(['Faturar']);
  });

  it('needs the create permission to duplicate and the update one to invoice', async () => {
    grant({ canCreate: false });
    const { unmount } = renderForm(orderMeta, route, [getMock('pedido', id, order()), ...lines()]);
    await screen.findByText('PARAFUSO');
    expect(screen.getByRole('button', { name: 'Duplicar' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Faturar' })).toBeEnabled();
    unmount();
    grant({ canUpdate: false });
    renderForm(orderMeta, route, [getMock('pedido', id, order()), ...lines()]);
    await screen.findByText('PARAFUSO');
    expect(screen.getByRole('button', { name: 'Duplicar' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Faturar' })).toBeDisabled();
  });
});

describe('service order screen', () => {
  it('shows the buttons the server declares, Finalizar and Cancelar OS included', async () => {
    renderForm(serviceOrderMeta, osRoute, [getMock('ordemservico', osId, serviceOrder()), ...osLines()]);
    expect(await screen.findByTestId('status-badge')).toHaveTextContent('Aberta');
    expectTone('open');
    for (const name of ['Totalizar', 'Acréscimo', 'Baixar Estoque', 'Finalizar', 'Cancelar OS']) {
      expect(screen.getByRole('button', { name })).toBeEnabled();
    }
    // The primary style goes to the button the metadata marks, not to the first one.
    expect(primaryButtons()).toEqual(['Finalizar']);
    // The surcharge a call sets is among the totals, in the header's field order, not in the form.
    const totals = screen.getByRole('region', { name: 'Totais' });
    expect(
      within(totals)
        .getAllByRole('term')
        .map((t) => t.textContent),
    ).toEqual(['Total Serviços', 'Total Peças', 'Acréscimo da Ordem', 'Acréscimos', 'Descontos', 'Total']);
    expect(screen.getByTestId('total-ORDS_ACRESCIMO')).toHaveTextContent('R$ 5,00');
    expect(screen.queryByLabelText(/Acréscimo da Ordem/)).not.toBeInTheDocument();
    // Services come before products, as the metadata lists them.
    expect(screen.getAllByRole('region').map((r) => r.getAttribute('aria-label'))).toEqual([
      'Serviços',
      'Produtos',
      'Totais',
    ]);
  });

  it('once finished, keeps Totalizar and Baixar Estoque and disables the rest', async () => {
    renderForm(serviceOrderMeta, osRoute, [
      getMock('ordemservico', osId, serviceOrder({ ORDS_SITUACAO: 'F' })),
      ...osLines(),
    ]);
    expect(await screen.findByTestId('status-badge')).toHaveTextContent('Finalizada');
    expectTone('done');
    expect(screen.getByRole('button', { name: 'Totalizar' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Baixar Estoque' })).toBeEnabled();
    for (const name of ['Acréscimo', 'Finalizar', 'Cancelar OS']) {
      expect(screen.getByRole('button', { name })).toBeDisabled();
    }
  });

  it('tints a cancelled order red', async () => {
    renderForm(serviceOrderMeta, osRoute, [
      getMock('ordemservico', osId, serviceOrder({ ORDS_SITUACAO: 'C' })),
      ...osLines(),
    ]);
    expect(await screen.findByTestId('status-badge')).toHaveTextContent('Cancelada');
    expectTone('cancelled');
  });

  it('locks no line the metadata does not name a lock for', async () => {
    const unlocked: DocumentRegister = {
      ...serviceOrderMeta,
      document: {
        ...serviceOrderMeta.document,
        lines: serviceOrderMeta.document.lines.map((l) => ({ ...l, lockedBy: null })),
      },
    };
    renderForm(unlocked, osRoute, [
      getMock('ordemservico', osId, serviceOrder({ ORDS_ESTOQUE_BAIXADO: true })),
      ...osLines(),
    ]);
    expect(await screen.findByRole('button', { name: 'Adicionar produto' })).toBeInTheDocument();
    expect(screen.queryByTestId('lock-badge')).not.toBeInTheDocument();
  });

  it('locks the products and the stock buttons once the stock is written off', async () => {
    renderForm(serviceOrderMeta, osRoute, [
      getMock('ordemservico', osId, serviceOrder({ ORDS_ESTOQUE_BAIXADO: true })),
      ...osLines(),
    ]);
    expect(await screen.findByTestId('lock-badge')).toHaveTextContent('Estoque baixado');
    expect(screen.getByRole('button', { name: 'Baixar Estoque' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Cancelar OS' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Finalizar' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Adicionar produto' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Adicionar serviço' })).toBeInTheDocument();
  });

  it('writes off the stock after its confirmation, with the body the metadata declares', async () => {
    const success = vi.spyOn(notify, 'success');
    const user = userEvent.setup();
    renderForm(serviceOrderMeta, osRoute, [
      getMock('ordemservico', osId, serviceOrder()),
      ...osLines(2),
      actionMock(
        'ordemservico',
        'baixarestoque',
        {},
        { code: 200, msg: 'Estoque baixado com sucesso.' },
        { ORDS_ID: 4, ORDS_EMP_ID: 1, ORDS_SERIE: 'OS' },
      ),
      getMock('ordemservico', osId, serviceOrder({ ORDS_ESTOQUE_BAIXADO: true })),
    ]);
    await user.click(await screen.findByRole('button', { name: 'Baixar Estoque' }));
    const dialog = await screen.findByRole('dialog', { name: 'Baixar estoque' });
    expect(
      within(dialog).getByText('Deseja baixar do estoque os produtos desta ordem de serviço?'),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Baixar' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Estoque baixado com sucesso.'));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Baixar Estoque' })).toBeDisabled());
  });

  it('asks the acréscimo first and sends it as a percentage', async () => {
    const user = userEvent.setup();
    renderForm(serviceOrderMeta, osRoute, [
      getMock('ordemservico', osId, serviceOrder(), 2),
      ...osLines(2),
      actionMock('ordemservico', 'acrescimo', { NROS: 4, SERIE: 'OS' }, { code: 200 }, { PERCENTUAL: '10' }),
    ]);
    await user.click(await screen.findByRole('button', { name: 'Acréscimo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Acréscimo da ordem de serviço' });
    await user.selectOptions(within(dialog).getByLabelText(/Tipo/), 'P');
    await user.type(within(dialog).getByLabelText(/^Acréscimo/), '10');
    const success = vi.spyOn(notify, 'success');
    await user.click(within(dialog).getByRole('button', { name: 'Aplicar' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Operação realizada com sucesso!'));
  });

  it('titles the dialog with the dialogTitle the metadata declares', async () => {
    const user = userEvent.setup();
    const renamed: DocumentRegister = {
      ...serviceOrderMeta,
      actions: serviceOrderMeta.actions.map((a) =>
        a.name === 'acrescimo' ? { ...a, dialogTitle: 'Acréscimo sobre os itens' } : a,
      ),
    };
    renderForm(renamed, osRoute, [getMock('ordemservico', osId, serviceOrder()), ...osLines()]);
    await user.click(await screen.findByRole('button', { name: 'Acréscimo' }));
    expect(await screen.findByRole('dialog', { name: 'Acréscimo sobre os itens' })).toBeInTheDocument();
  });
});

describe('document buttons from the metadata', () => {
  const ctx = (record: AnyRow): ActionContext => ({ record, emp: 1, userId: 3 });
  const all: Permissions = { canView: true, canCreate: true, canUpdate: true, canDelete: true };
  const NONE: Permissions = { canView: false, canCreate: false, canUpdate: false, canDelete: false };
  const button = (metaName: DocumentRegister, name: string) => {
    const found = metaName.actions.find((a) => a.name === name);
    if (!found) throw new Error(`no button ${name}`);
    return found;
  };

  it('resolves path parameters from constants, the user, the company and the record', () => {
    const convert = button(quoteMeta, 'gerapedidofat');
    expect(pathParams(convert.path)).toEqual(['ORCA_ID', 'emp', 'serie', 'model', 'type', 'user']);
    expect(actionParams(convert, ctx({ ORCA_ID: 5 }))).toEqual({
      ORCA_ID: 5,
      emp: 1,
      serie: '1',
      model: '55',
      type: '1',
      user: 3,
    });
    expect(actionParams(button(orderMeta, 'duplicar'), ctx({ PEDF_ID: 9, PEDF_SERIE: '1' }))).toEqual({
      PEDF_ID: 9,
      emp: 1,
      PEDF_SERIE: '1',
      userId: 3,
    });
  });

  it('takes a declared parameter from a field of another name, and builds the body', () => {
    const os = serviceOrder();
    expect(actionParams(button(serviceOrderMeta, 'acrescimo'), ctx(os))).toEqual({ NROS: 4, emp: 1, SERIE: 'OS' });
    expect(actionParams(button(serviceOrderMeta, 'totalizacao'), ctx(os))).toEqual({
      ORDS_ID: 4,
      emp: 1,
      ORDS_SERIE: 'OS',
    });
    // A path without parameters still names the company the call works in.
    const writeOff = button(serviceOrderMeta, 'baixarestoque');
    expect(actionParams(writeOff, ctx(os))).toEqual({ emp: 1 });
    expect(actionBody(writeOff, ctx(os))).toEqual({ ORDS_ID: 4, ORDS_EMP_ID: 1, ORDS_SERIE: 'OS' });
    expect(actionBody(button(serviceOrderMeta, 'totalizacao'), ctx(os))).toBeUndefined();
    expect(actionBody(button(serviceOrderMeta, 'acrescimo'), ctx(os), { VALOR: '5' })).toEqual({ VALOR: '5' });
    const byUser = action({
      name: 'x',
      path: '/x/{who}',
      label: 'X',
      params: [{ name: 'who', source: { from: 'user', value: null } }],
      body: [{ name: 'QUEM', source: { from: 'user', value: null } }],
    });
    expect(actionParams(byUser, ctx({}))).toEqual({ emp: 1, who: 3 });
    expect(actionBody(byUser, ctx({}))).toEqual({ QUEM: 3 });
    const unknown = action({
      name: 'y',
      path: '/y/{z}',
      label: 'Y',
      params: [{ name: 'z', source: { from: 'clipboard', value: null } }],
    });
    expect(() => actionParams(unknown, ctx({}))).toThrow('Origem de valor desconhecida: clipboard.');
  });

  it('fills a confirmation text with the record values', () => {
    expect(fillText('Deseja cancelar a ordem de serviço {ORDS_ID}/{ORDS_SERIE}?', serviceOrder())).toBe(
      'Deseja cancelar a ordem de serviço 4/OS?',
    );
    expect(fillText('Pedido {PEDF_ID}{NADA}.', { PEDF_ID: 9 })).toBe('Pedido 9.');
  });

  it('enables a button by status, unless field, permission and known dialog', () => {
    const writeOff = button(serviceOrderMeta, 'baixarestoque');
    expect(actionEnabled(writeOff, serviceOrderMeta, serviceOrder(), all)).toBe(true);
    expect(actionEnabled(writeOff, serviceOrderMeta, serviceOrder({ ORDS_SITUACAO: 'F' }), all)).toBe(true);
    expect(actionEnabled(writeOff, serviceOrderMeta, serviceOrder({ ORDS_SITUACAO: 'C' }), all)).toBe(false);
    expect(actionEnabled(writeOff, serviceOrderMeta, serviceOrder({ ORDS_ESTOQUE_BAIXADO: 'S' }), all)).toBe(false);
    expect(actionEnabled(writeOff, serviceOrderMeta, serviceOrder(), { ...all, canUpdate: false })).toBe(false);
    const copy = button(quoteMeta, 'duplicar');
    expect(actionEnabled(copy, quoteMeta, quote({ ORCA_SITUACAO: 'C' }), { ...all, canUpdate: false })).toBe(true);
    expect(actionEnabled(copy, quoteMeta, quote(), { ...all, canCreate: false })).toBe(false);
    // The permission is the one the button declares, whatever it opens.
    const convert = button(quoteMeta, 'gerapedidofat');
    expect(actionEnabled(convert, quoteMeta, quote(), { ...all, canCreate: false })).toBe(true);
    expect(actionEnabled(convert, quoteMeta, quote(), { ...all, canUpdate: false })).toBe(false);
    const asUpdate = { ...copy, permission: 'update' };
    expect(actionEnabled(asUpdate, quoteMeta, quote(), { ...all, canCreate: false })).toBe(true);
    const asDelete = { ...copy, permission: 'delete' };
    expect(actionEnabled(asDelete, quoteMeta, quote(), { ...all, canDelete: false })).toBe(false);
    expect(actionEnabled(asDelete, quoteMeta, quote(), { ...NONE, canDelete: true })).toBe(true);
    expect(actionEnabled({ ...copy, permission: 'view' }, quoteMeta, quote(), { ...NONE, canView: true })).toBe(true);
    expect(actionEnabled({ ...copy, permission: 'admin' }, quoteMeta, quote(), all)).toBe(false);
    const strange = { ...button(serviceOrderMeta, 'acrescimo'), dialog: 'signature' };
    expect(actionEnabled(strange, serviceOrderMeta, serviceOrder(), all)).toBe(false);
  });

  it('opens the edit screen of the register the answer names, or none', () => {
    expect(openedHref(button(quoteMeta, 'duplicar'), documentMetas, quote({ ORCA_ID: 6 }))).toBe(
      '/orcamentos/alterar?id=6',
    );
    expect(openedHref(button(quoteMeta, 'gerarequisicao'), documentMetas, { ORCA_ID: 5 })).toBeNull();
    // A register the client was not told about: nowhere to go, the screen stays.
    expect(openedHref(button(quoteMeta, 'geraos'), [quoteMeta], serviceOrder())).toBeNull();
  });

  it("maps a permission kind to the user's program permission", () => {
    expect(allows({ ...NONE, canCreate: true }, 'create')).toBe(true);
    expect(allows({ ...NONE, canCreate: true }, 'update')).toBe(false);
    expect(allows(all, 'unknown')).toBe(false);
  });

  it('offers to override the refusals a button declares, once, by status and message', () => {
    const invoice = button(orderMeta, 'faturar');
    const refused = (message: string, status?: number) =>
      new ApolloError({
        graphQLErrors: [new GraphQLError(message, { extensions: status ? { code: 'X', status } : {} })],
      });
    const offered = overridableRefusal('pedido', invoice, refused(CREDIT_REFUSAL, 409), undefined);
    expect(offered?.message).toBe(CREDIT_REFUSAL);
    expect(offered?.override).toMatchObject({ okText: 'Liberar e faturar', body: { LIBERAR_LIMITE: true } });
    // What a dialog asked is kept; the override is added to it by the caller.
    expect(overridableRefusal('pedido', invoice, refused(CREDIT_REFUSAL, 409), { OBS: 'x' })).not.toBeNull();
    // Refused again with the override sent: final.
    expect(overridableRefusal('pedido', invoice, refused(CREDIT_REFUSAL, 409), { LIBERAR_LIMITE: true })).toBeNull();
    // Another status (the 403 of a user without the grant starts with the same words), another message.
    expect(overridableRefusal('pedido', invoice, refused(CREDIT_REFUSAL, 403), undefined)).toBeNull();
    expect(overridableRefusal('pedido', invoice, refused(CREDIT_REFUSAL), undefined)).toBeNull();
    expect(overridableRefusal('pedido', invoice, refused('Pedido já faturado.', 409), undefined)).toBeNull();
    // Another call, another register, or no server answer at all.
    expect(
      overridableRefusal('pedido', button(orderMeta, 'duplicar'), refused(CREDIT_REFUSAL, 409), undefined),
    ).toBeNull();
    expect(overridableRefusal('orcamento', invoice, refused(CREDIT_REFUSAL, 409), undefined)).toBeNull();
    expect(overridableRefusal('pedido', invoice, new Error(CREDIT_REFUSAL), undefined)).toBeNull();
  });

  it('sends the amount of an acréscimo as VALOR, a percentage as PERCENTUAL', () => {
    expect(surchargeBody({ TIPO: 'V', VALOR: '1.234,50' })).toEqual({ VALOR: '1234.5' });
    expect(surchargeBody({ TIPO: 'P', VALOR: '10,00' })).toEqual({ PERCENTUAL: '10' });
  });
});

describe('document lines', () => {
  it('locks a line register by the header field it names, once true', () => {
    const [services, products] = serviceOrderMeta.document.lines;
    expect(lineLock(products, serviceOrder({ ORDS_ESTOQUE_BAIXADO: 'S' }))).toBe('ORDS_ESTOQUE_BAIXADO');
    expect(lineLock(products, serviceOrder())).toBeNull();
    expect(lineLock(services, serviceOrder({ ORDS_ESTOQUE_BAIXADO: true }))).toBeNull();
  });

  it("cuts a label to the register's label length, none: whole", () => {
    expect(labelText(orderMeta, 'JOÃO DA SILVA COMÉRCIO DE PEÇAS LTDA')).toBe('JOÃO DA SILVA COMÉRC');
    expect(labelText({ ...orderMeta, labelLength: 4 }, 'JOÃO DA SILVA')).toBe('JOÃO');
    expect(labelText(quoteMeta, 'JOÃO DA SILVA COMÉRCIO DE PEÇAS LTDA')).toBe('JOÃO DA SILVA COMÉRCIO DE PEÇAS LTDA');
    expect(labelText(orderMeta, null)).toBe('');
  });

  it('creates a line with the parent key, the item, the quantity and its price', () => {
    const data = newLineData(
      orderMeta,
      orderMeta.document.lines[1],
      { PEDF_ID: 9, PEDF_SERIE: '1' },
      { id: 2, text: 'ALINHAMENTO', monetary: 120, quantity: 1 },
    );
    expect(data).toEqual({ PFOS_PEDF_ID: 9, PFOS_PEDF_SERIE: '1', PFOS_SERV_ID: 2, PFOS_QTDE: 1, PFOS_VLR_UNIT: 120 });
  });

  it('posts stock document lines without a price', () => {
    const item = { id: 7, text: 'PARAFUSO', monetary: 10.5, quantity: 3 };
    expect(newLineData(transferMeta, transferMeta.document.lines[0], { TRLO_ID: 4 }, item)).toEqual({
      TRLP_TRLO_ID: 4,
      TRLP_PROD_ID: 7,
      TRLP_QTDE: 3,
    });
    expect(newLineData(requisitionMeta, requisitionMeta.document.lines[0], { REQU_ID: 2 }, item)).toEqual({
      REQP_REQU_ID: 2,
      REQP_PROD_ID: 7,
      REQP_QTDE: 3,
    });
  });

  it('shows a requisition read-only line with the product text and its cost', async () => {
    signIn({ privileged: true });
    renderWith(
      <Routes>
        <Route
          path="/requisicoes/*"
          element={<DocumentFormPage meta={requisitionMeta} metas={documentMetas} action="alterar" />}
        />
      </Routes>,
      {
        route: '/requisicoes/alterar?id=2',
        mocks: [
          getMock('requisicao', 2, { REQU_ID: 2, REQU_DESCRICAO: 'OFICINA', REQU_DATA: '2026-11-22' }),
          linesMock('requisicaoproduto', { REQP_REQU_ID: 2 }, [
            { REQP_ID: 11, REQP_REQU_ID: 2, REQP_PROD_ID: 7, REQP_QTDE: '3', REQP_CUSTO_UNIT: '4.5' },
          ]),
          {
            request: {
              query: ResourceListDocument,
              variables: { name: 'estoqueprodutos', emp: 1, input: { page: 1, limit: 1, where: { PROD_ID: [7] } } },
            },
            result: page([{ PROD_ID: 7, PROD_DESCRICAO: 'PARAFUSO' }]),
          },
        ] as never,
      },
    );
    const table = await screen.findByRole('region', { name: 'Produtos' });
    expect(await within(table).findByText('PARAFUSO')).toBeInTheDocument();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Item', 'Código', 'Descrição', 'Quantidade', 'Custo Unitário', 'Ações']);
    // Item is the last key column when the line declares no sequence; nothing is edited in place.
    expect(within(table).getByText('11')).toBeInTheDocument();
    expect(within(table).getByText('R$ 4,50')).toBeInTheDocument();
    expect(within(table).queryByLabelText('Quantidade de PARAFUSO')).not.toBeInTheDocument();
    expect(screen.queryByTestId('status-badge')).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Totais' })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Requisições nº 2 - OFICINA' })).toBeInTheDocument();
  });
});
