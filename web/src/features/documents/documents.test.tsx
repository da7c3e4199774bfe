import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../lib/toast';
import { field } from '../../test/fixtures';
import { program, renderWith, signIn } from '../../test/utils';
import type { ResourceMeta } from '../../lib/resources/metaFields';
import {
  ResourceCreateDocument,
  ResourceGetDocument,
  ResourceListDocument,
  ResourceUpdateDocument,
} from '../../lib/resources/documents';
import { documentActions, surchargeBody } from './actions';
import { clientLabel } from './clientLabel';
import RegisterListPage from '../../components/registers/RegisterListPage';
import DocumentFormPage from './DocumentFormPage';
import { ResourceActionDocument } from './documents';
import { newLineData } from './useLineWrites';
import { ORDER, QUOTE, REQUISITION, SERVICE_ORDER, TRANSFER } from './specs';

const quoteMeta: ResourceMeta = {
  name: 'orcamento',
  path: '/orcamentos',
  title: 'Orçamentos',
  program: 'orcamentos',
  key: ['ORCA_ID'],
  companyColumn: 'ORCA_EMP_ID',
  labelField: 'ORCA_CLI_DESC',
  defaultOrder: 'ORCA_ID DESC',
  fields: [
    field({ name: 'ORCA_ID', kind: 'NUMBER', label: 'Número', editable: false }),
    field({ name: 'ORCA_CLI_DESC', kind: 'TEXT', label: 'Cliente', editable: false }),
    field({ name: 'ORCA_DTA_EMIS', kind: 'DATE', label: 'Emissão', required: true }),
    field({ name: 'ORCA_VLR_PECAS', kind: 'MONEY', label: 'Total Peças', editable: false }),
    field({ name: 'ORCA_VLR_TOT', kind: 'MONEY', label: 'Total', editable: false }),
    field({ name: 'ORCA_SITUACAO', kind: 'COMBOBOX', label: 'Situação', editable: false }),
  ],
  groups: [],
};

const orderMeta: ResourceMeta = {
  ...quoteMeta,
  name: 'pedido',
  path: '/pedidos',
  title: 'Pedidos de Venda',
  program: 'pedidos',
  key: ['PEDF_ID', 'PEDF_SERIE'],
  labelField: 'PEDF_CLI_DESC',
  fields: [
    field({ name: 'PEDF_ID', kind: 'NUMBER', label: 'Número', editable: false }),
    field({ name: 'PEDF_SERIE', kind: 'TEXT', label: 'Série', required: true }),
    field({ name: 'PEDF_DTA_EMISSAO', kind: 'DATE', label: 'Emissão', required: true }),
    field({ name: 'PEDF_VLR_TOTAL', kind: 'MONEY', label: 'Total', editable: false }),
    field({ name: 'PEDF_SITUACAO', kind: 'COMBOBOX', label: 'Situação', editable: false }),
  ],
};

const quote = (over = {}) => ({
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
  ...over,
});
const productLine = (over = {}) => ({
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

function Where() {
  const { pathname, search } = useLocation();
  return <p data-testid="where">{`${pathname}${decodeURIComponent(search)}`}</p>;
}

function renderForm(meta: ResourceMeta, spec: typeof QUOTE, route: string, mocks: object[]) {
  // Only the spec's own root shows the page: a conversion leaves it for another screen.
  return renderWith(
    <>
      <Routes>
        <Route
          path={`/${spec.root}/*`}
          element={<DocumentFormPage spec={spec} meta={meta} metas={[meta]} action="alterar" />}
        />
        <Route path="*" element={null} />
      </Routes>
      <Where />
    </>,
    { mocks: mocks as never, route },
  );
}

const grant = () =>
  signIn({
    programs: [
      program({ id: 1, name: 'IndexOrcamento', webPath: '/orcamentos' }),
      program({ id: 2, name: 'IndexPedido', webPath: '/pedidos' }),
    ],
  });

beforeEach(() => {
  window.innerWidth = 1920;
  grant();
});
afterEach(() => vi.restoreAllMocks());

describe('quote screen', () => {
  it('shows the lines and the server totals, and edits a quantity', async () => {
    const user = userEvent.setup();
    renderForm(quoteMeta, QUOTE, '/orcamentos/alterar?id=5', [
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
    renderForm(quoteMeta, QUOTE, '/orcamentos/alterar?id=5', [
      getMock('orcamento', 5, quote(), 2),
      linesMock('orcamentoproduto', { ORCP_ORCA_ID: 5 }, []),
      linesMock('orcamentoservico', { ORCI_ORCA_ID: 5 }, []),
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

  it('converts to a billing order (serie 1, model 55, type 1) and opens it', async () => {
    const user = userEvent.setup();
    renderForm(quoteMeta, QUOTE, '/orcamentos/alterar?id=5', [
      getMock('orcamento', 5, quote()),
      linesMock('orcamentoproduto', { ORCP_ORCA_ID: 5 }, [productLine()]),
      linesMock('orcamentoservico', { ORCI_ORCA_ID: 5 }, [serviceLine]),
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

  it('reports the server message of a refused conversion', async () => {
    const error = vi.spyOn(notify, 'error');
    const user = userEvent.setup();
    renderForm(quoteMeta, QUOTE, '/orcamentos/alterar?id=5', [
      getMock('orcamento', 5, quote()),
      linesMock('orcamentoproduto', { ORCP_ORCA_ID: 5 }, []),
      linesMock('orcamentoservico', { ORCI_ORCA_ID: 5 }, []),
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
  const order = (over = {}) => ({
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
    renderForm(orderMeta, ORDER, route, [getMock('pedido', id, order({ PEDF_SITUACAO: 'F' })), ...lines()]);
    expect(await screen.findByTestId('status-badge')).toHaveTextContent('Faturado');
    expect(await screen.findByText('PARAFUSO')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Salvar' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Adicionar produto' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Quantidade de PARAFUSO')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Excluir PARAFUSO' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Faturar' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Duplicar' })).toBeEnabled();
    expect(screen.getByLabelText(/Emissão/)).toBeDisabled();
    // The customer's name is cut to 20 characters in the order's label.
    expect(screen.getByText(/- JOÃO DA SILVA COMÉRC$/)).toBeInTheDocument();
  });

  it('invoices after confirmation', async () => {
    const success = vi.spyOn(notify, 'success');
    const user = userEvent.setup();
    renderForm(orderMeta, ORDER, route, [
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
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/Deseja faturar o pedido 9\?/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Faturar' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Pedido faturado com sucesso.'));
    await waitFor(() => expect(screen.getByTestId('status-badge')).toHaveTextContent('Faturado'));
  });
});

describe('document actions', () => {
  it('builds the service order calls', () => {
    const os = { ORDS_ID: 4, ORDS_SERIE: 'OS', ORDS_EMP_ID: 1, ORDS_SITUACAO: 'A', ORDS_ESTOQUE_BAIXADO: false };
    const defs = documentActions(SERVICE_ORDER, os, 3, true);
    expect(defs.map((d) => d.label)).toEqual(['Totalizar', 'Acréscimo', 'Baixar Estoque']);
    expect(defs[0].params).toEqual({ ORDS_ID: 4, ORDS_SERIE: 'OS' });
    expect(defs[1].params).toEqual({ NROS: 4, SERIE: 'OS' });
    expect(defs[1].body?.({ TIPO: 'P', VALOR: '10,00' })).toEqual({ PERCENTUAL: '10' });
    expect(defs[2].body?.({})).toEqual({ ORDS_ID: 4, ORDS_EMP_ID: 1, ORDS_SERIE: 'OS' });
    const written = documentActions(SERVICE_ORDER, { ...os, ORDS_ESTOQUE_BAIXADO: true }, 3, true);
    expect(written[2].disabled).toBe(true);
  });

  it('converts a quote with the documented parameters', () => {
    const defs = documentActions(QUOTE, { ORCA_ID: 5, ORCA_SITUACAO: 'A' }, 3, true);
    expect(defs.map((d) => d.label)).toEqual(['Gerar Pedido', 'Gerar OS', 'Gerar Requisição', 'Duplicar']);
    expect(defs[0].params).toEqual({ ORCA_ID: 5, serie: '1', model: '55', type: '1', user: 3 });
    expect(defs[1].next?.({ ORDS_ID: 4, ORDS_SERIE: 'OS' })).toBe(
      `/ordensdeservico/alterar?id=${encodeURIComponent('{"ORDS_ID":4,"ORDS_SERIE":"OS"}')}`,
    );
    const converted = documentActions(QUOTE, { ORCA_ID: 5, ORCA_SITUACAO: 'C' }, 3, true);
    expect(converted.filter((d) => d.disabled).map((d) => d.label)).toEqual([
      'Gerar Pedido',
      'Gerar OS',
      'Gerar Requisição',
    ]);
  });

  it('sends the amount of an acréscimo as VALOR', () => {
    expect(surchargeBody({ TIPO: 'V', VALOR: '1.234,50' })).toEqual({ VALOR: '1234.5' });
  });

  it('creates a line with the parent key, the item, the quantity and its price', () => {
    const data = newLineData(
      ORDER,
      ORDER.lines[1],
      { PEDF_ID: 9, PEDF_SERIE: '1' },
      {
        id: 2,
        text: 'ALINHAMENTO',
        monetary: 120,
        quantity: 1,
      },
    );
    expect(data).toEqual({ PFOS_PEDF_ID: 9, PFOS_PEDF_SERIE: '1', PFOS_SERV_ID: 2, PFOS_QTDE: 1, PFOS_VLR_UNIT: 120 });
  });

  it('posts stock document lines without a price, and keeps them read-only', () => {
    const item = { id: 7, text: 'PARAFUSO', monetary: 10.5, quantity: 3 };
    expect(newLineData(TRANSFER, TRANSFER.lines[0], { TRLO_ID: 4 }, item)).toEqual({
      TRLP_TRLO_ID: 4,
      TRLP_PROD_ID: 7,
      TRLP_QTDE: 3,
    });
    expect(newLineData(REQUISITION, REQUISITION.lines[0], { REQU_ID: 2 }, item)).toEqual({
      REQP_REQU_ID: 2,
      REQP_PROD_ID: 7,
      REQP_QTDE: 3,
    });
    expect(TRANSFER.lines[0].editable).toEqual([]);
    expect(REQUISITION.blockStock).toBe(true);
  });

  it('cuts a billing order customer to 20 characters', () => {
    expect(clientLabel('JOÃO DA SILVA COMÉRCIO DE PEÇAS')).toBe('JOÃO DA SILVA COMÉRC');
    expect(clientLabel('ANA')).toBe('ANA');
  });
});

describe('service order list', () => {
  it('has a header with breadcrumbs and the add button', async () => {
    signIn({ programs: [program({ id: 3, name: 'IndexOrdemservico', webPath: '/ordensdeservico' })] });
    const osMeta: ResourceMeta = {
      ...quoteMeta,
      name: 'ordemservico',
      path: '/ordensdeservico',
      title: 'Ordens de Serviço',
    };
    renderWith(<RegisterListPage meta={osMeta} metas={[osMeta]} breadcrumbs={SERVICE_ORDER.breadcrumbs} />, {
      route: '/ordensdeservico',
      mocks: [
        {
          request: {
            query: ResourceListDocument,
            variables: {
              name: 'ordemservico',
              emp: 1,
              input: { filter: null, order: 'ORCA_ID DESC', page: 1, limit: 20 },
            },
          },
          result: page([]),
        },
      ] as never,
    });
    const nav = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(nav).getByRole('link', { name: 'Início' })).toHaveAttribute('href', '/');
    expect(within(nav).getByText('Ordem de Serviço')).toHaveAttribute('aria-current', 'page');
    expect(screen.getAllByRole('button', { name: 'Adicionar' })).toHaveLength(1);
  });
});
