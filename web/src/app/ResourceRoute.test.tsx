import { screen, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  ResourceActionDocument,
  ResourceGetDocument,
  ResourceListDocument,
  ResourceMetasDocument,
} from '../lib/resources/documents';
import type { ResourceMeta } from '../lib/resources/metaFields';
import { clientesMeta, documentMetas, purchaseMeta, receivablesMeta } from '../test/fixtures';
import { program, renderWith, signIn } from '../test/utils';
import ResourceRoute from './ResourceRoute';

// The metas as the gateway answers them (the fragment spread reads __typename).
const metas = [clientesMeta, receivablesMeta, ...documentMetas, purchaseMeta].map((m: ResourceMeta) => ({
  __typename: 'ResourceMeta',
  ...m,
}));
const metasMock = { request: { query: ResourceMetasDocument }, result: { data: { resourceMetas: metas } } };
const page = (rows: object[]) => ({ data: { resourceList: { __typename: 'ResourcePage', rows, total: rows.length } } });
const listMock = (name: string, order: string, rows: object[]) => ({
  request: {
    query: ResourceListDocument,
    variables: { name, emp: 1, input: { filter: null, order, page: 1, limit: 20 } },
  },
  result: page(rows),
});
const linesMock = (name: string, where: object) => ({
  request: { query: ResourceListDocument, variables: { name, emp: 1, input: { page: 1, limit: 500, where } } },
  result: page([]),
});

// The screens are lazy chunks: the first import of one in a test run takes a while.
const LAZY = { timeout: 5000 };

function Where() {
  const { pathname } = useLocation();
  return <p data-testid="where">{pathname}</p>;
}

function renderRoute(route: string, mocks: object[]) {
  return renderWith(
    <>
      <Routes>
        <Route path="/404" element={<p>Página não encontrada</p>} />
        <Route path="*" element={<ResourceRoute />} />
      </Routes>
      <Where />
    </>,
    { route, mocks: [metasMock, ...mocks] as never },
  );
}

beforeEach(() => {
  window.innerWidth = 1920;
  signIn({
    programs: [
      program({ id: 1, name: 'IndexClientes', webPath: '/clientes' }),
      program({ id: 2, name: 'IndexPedido', webPath: '/pedidos' }),
      program({ id: 3, name: 'IndexOrdemservico', webPath: '/ordensdeservico' }),
      program({ id: 611, name: 'contasareceber', webPath: '/contasareceber' }),
      program({ id: 4, name: 'IndexCompra', webPath: '/compras' }),
    ],
  });
});

describe('register and document routes', () => {
  it("renders a document's edit screen for a register whose metadata is a document", async () => {
    const id = { PEDF_ID: 9, PEDF_SERIE: '1' };
    renderRoute(`/pedidos/alterar?id=${encodeURIComponent(JSON.stringify(id))}`, [
      {
        request: { query: ResourceGetDocument, variables: { name: 'pedido', emp: 1, id } },
        result: { data: { resourceGet: { ...id, PEDF_CLI_DESC: 'ANA', PEDF_SITUACAO: 'A', PEDF_VLR_TOTAL: '10' } } },
      },
      linesMock('pedidoproduto', { PEDI_PEDF_ID: 9, PEDI_PEDF_SERIE_ID: '1' }),
      linesMock('pedidoservico', { PFOS_PEDF_ID: 9, PFOS_PEDF_SERIE: '1' }),
    ]);
    expect(await screen.findByTestId('status-badge', {}, LAZY)).toHaveTextContent('Aberto');
    expect(screen.getByRole('region', { name: 'Produtos' })).toBeInTheDocument();
    expect(screen.getByTestId('total-PEDF_VLR_TOTAL')).toHaveTextContent('R$ 10,00');
    expect(screen.getByRole('button', { name: 'Faturar' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Atualizar custos e preços' })).not.toBeInTheDocument();
    expect(document.title).toMatch(/^Editar Pedidos de Venda/);
  });

  it("shows an invoiced billing order's NF-e under its totals", async () => {
    const id = { PEDF_ID: 9, PEDF_SERIE: '1' };
    renderRoute(`/pedidos/alterar?id=${encodeURIComponent(JSON.stringify(id))}`, [
      {
        request: { query: ResourceGetDocument, variables: { name: 'pedido', emp: 1, id } },
        result: { data: { resourceGet: { ...id, PEDF_CLI_DESC: 'ANA', PEDF_SITUACAO: 'F', PEDF_VLR_TOTAL: '10' } } },
      },
      linesMock('pedidoproduto', { PEDI_PEDF_ID: 9, PEDI_PEDF_SERIE_ID: '1' }),
      linesMock('pedidoservico', { PFOS_PEDF_ID: 9, PFOS_PEDF_SERIE: '1' }),
      {
        request: {
          query: ResourceListDocument,
          variables: {
            name: 'pedidofatxml',
            emp: 1,
            input: { page: 1, limit: 1, where: { PEXM_PEDF_ID: 9, PEXM_SERIE: '1' } },
          },
        },
        result: page([]),
      },
    ]);
    const nfe = await screen.findByRole('region', { name: 'NF-e' }, LAZY);
    expect(await within(nfe).findByRole('button', { name: 'Emitir NF-e' }, LAZY)).toBeEnabled();
  });

  it("offers a purchase's cost and price update beside its buttons", async () => {
    renderRoute('/compras/alterar?id=12', [
      {
        request: { query: ResourceGetDocument, variables: { name: 'compra', emp: 1, id: 12 } },
        result: { data: { resourceGet: { COMP_ID: 12, COMP_FORN_DESC: 'ACME', COMP_SITUACAO: 'F' } } },
      },
      linesMock('compraproduto', { CMPP_COMP_ID: 12 }),
    ]);
    expect(await screen.findByRole('button', { name: 'Atualizar custos e preços' }, LAZY)).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Finalizar' })).toBeDisabled();
  });

  it('starts a new document today and asks to save it before its lines', async () => {
    renderRoute('/ordensdeservico/inserir', []);
    expect(await screen.findByText('Salve o documento para lançar os itens.', {}, LAZY)).toBeInTheDocument();
    const today = new Date();
    const screenDate = [today.getDate(), today.getMonth() + 1]
      .map((n) => String(n).padStart(2, '0'))
      .concat(String(today.getFullYear()))
      .join('/');
    expect(screen.getByLabelText(/Entrada/)).toHaveValue(screenDate);
    expect(screen.queryByRole('region', { name: 'Totais' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Totalizar' })).not.toBeInTheDocument();
  });

  it('renders the register form for a register without document metadata', async () => {
    renderRoute('/clientes/alterar?id=1', [
      {
        request: { query: ResourceGetDocument, variables: { name: 'clientes', emp: 1, id: 1 } },
        result: { data: { resourceGet: { CLI_ID: 1, CLI_DESCRICAO: 'Ana' } } },
      },
      {
        request: {
          query: ResourceActionDocument,
          variables: { name: 'clientescredito', action: 'limite_credito', params: { emp: 1, id: 1 } },
        },
        result: { data: { resourceAction: { CLI_ID: 1, CLI_LIMITE_CREDITO: 500, VALOR_UTILIZADO: 120, SALDO: 380 } } },
      },
    ]);
    expect(await screen.findByDisplayValue('Ana', {}, LAZY)).toBeInTheDocument();
    expect(screen.queryByTestId('status-badge')).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Totais' })).not.toBeInTheDocument();
    // A saved customer shows its credit above the fields.
    const credit = await screen.findByRole('region', { name: 'Posição financeira' }, LAZY);
    expect(await within(credit).findByText('R$ 380,00')).toBeInTheDocument();
  });

  it('gives the receivables a list of their own (filters, totals)', async () => {
    renderRoute('/contasareceber', [
      {
        request: {
          query: ResourceListDocument,
          variables: {
            name: 'contasreceber',
            emp: 1,
            input: { filter: null, order: 'CRCB_DTA_VCTO', page: 1, limit: 6000 },
          },
        },
        result: page([]),
      },
      {
        request: {
          query: ResourceListDocument,
          variables: { name: 'banco', emp: 1, input: { filter: null, limit: 20, page: 1 } },
        },
        result: page([]),
      },
    ]);
    expect(await screen.findByRole('region', { name: 'Totais' }, LAZY)).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Vencidas' })).toBeInTheDocument();
    expect(document.title).toMatch(/^Contas a Receber/);
  });

  it('lists a document with the breadcrumbs its metadata declares', async () => {
    renderRoute('/ordensdeservico', [listMock('ordemservico', 'ORDS_ID DESC', [])]);
    const nav = await screen.findByRole('navigation', { name: 'Breadcrumb' }, LAZY);
    expect(within(nav).getByRole('link', { name: 'Início' })).toHaveAttribute('href', '/');
    expect(within(nav).getByText('Ordem de Serviço')).toHaveAttribute('aria-current', 'page');
    expect(screen.getAllByRole('button', { name: 'Adicionar' })).toHaveLength(1);
  });

  it("cuts a billing order's customer to its labelLength (20) in the list", async () => {
    renderRoute('/pedidos', [
      listMock('pedido', 'PEDF_ID DESC', [
        { PEDF_ID: 9, PEDF_SERIE: '1', PEDF_CLI_DESC: 'JOÃO DA SILVA COMÉRCIO DE PEÇAS LTDA', PEDF_SITUACAO: 'A' },
      ]),
    ]);
    expect(await screen.findByText('JOÃO DA SILVA COMÉRC', {}, LAZY)).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Breadcrumb' })).not.toBeInTheDocument();
  });

  it('shows the whole customer in the list of a register without a labelLength', async () => {
    renderRoute('/ordensdeservico', [
      listMock('ordemservico', 'ORDS_ID DESC', [
        { ORDS_ID: 4, ORDS_SERIE: 'OS', ORDS_CLI_DESC: 'JOÃO DA SILVA COMÉRCIO DE PEÇAS LTDA', ORDS_SITUACAO: 'A' },
      ]),
    ]);
    expect(await screen.findByText('JOÃO DA SILVA COMÉRCIO DE PEÇAS LTDA', {}, LAZY)).toBeInTheDocument();
  });

  it('sends an unknown sub-path of a document to /404', async () => {
    renderRoute('/pedidos/outra', []);
    expect(await screen.findByText('Página não encontrada')).toBeInTheDocument();
    expect(screen.getByTestId('where')).toHaveTextContent('/404');
  });
});
