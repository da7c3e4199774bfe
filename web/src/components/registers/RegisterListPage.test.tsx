import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../lib/toast';
import { clientesMeta, purchaseMeta } from '../../test/fixtures';
import { program, renderWith, signIn } from '../../test/utils';
import { ResourceDeleteDocument, ResourceListDocument } from '../../lib/resources/documents';
import RegisterListPage from './RegisterListPage';

const rows = [
  { CLI_ID: 1, CLI_DESCRICAO: 'Ana', CLI_CPF: '52998224725', CLI_LIMITE: 100, CLI_TIPO: '1' },
  { CLI_ID: 2, CLI_DESCRICAO: 'Bruno', CLI_CPF: null, CLI_LIMITE: null, CLI_TIPO: '2' },
];
const listInput = (filter: string | null) => ({ filter, order: 'CLI_DESCRICAO ASC', page: 1, limit: 20 });
const listMock = (filter: string | null, result: typeof rows) => ({
  request: { query: ResourceListDocument, variables: { name: 'clientes', emp: 1, input: listInput(filter) } },
  result: { data: { resourceList: { __typename: 'ResourcePage', rows: result, total: result.length } } },
});

function Where() {
  const { pathname, search } = useLocation();
  return <p data-testid="where">{`${pathname}${search}`}</p>;
}

function renderPage(ui: React.ReactElement, mocks: object[], route = '/clientes') {
  return renderWith(
    <Routes>
      <Route
        path="/clientes"
        element={
          <>
            {ui}
            <Where />
          </>
        }
      />
      <Route
        path="*"
        element={
          <>
            {ui}
            <Where />
          </>
        }
      />
    </Routes>,
    { mocks: mocks as never, route },
  );
}

const grant = (over = {}) =>
  signIn({ programs: [program({ id: 1, name: 'IndexClientes', webPath: '/clientes', ...over })] });

beforeEach(() => {
  window.innerWidth = 1920;
});
afterEach(() => vi.restoreAllMocks());

describe('RegisterListPage', () => {
  it('lists rows, searches after 500 ms and deletes after confirmation', async () => {
    grant();
    const success = vi.spyOn(notify, 'success');
    const user = userEvent.setup();
    renderPage(<RegisterListPage meta={clientesMeta} metas={[clientesMeta]} />, [
      listMock(null, rows),
      listMock('ana', [rows[0]]),
      {
        request: { query: ResourceDeleteDocument, variables: { name: 'clientes', emp: 1, id: 1 } },
        result: { data: { resourceDelete: true } },
      },
    ]);
    expect(await screen.findByText('Bruno')).toBeInTheDocument();
    expect(screen.getByText('R$ 100,00')).toBeInTheDocument();
    expect(screen.getByText('Total de registros: 2')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Pesquisar'), 'ana');
    await waitFor(() => expect(screen.queryByText('Bruno')).not.toBeInTheDocument(), { timeout: 2000 });

    const row = screen.getByText('Ana').closest('tr') as HTMLElement;
    await user.click(within(row).getByRole('button', { name: 'Excluir' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Deseja excluir "Ana"?')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Registro excluído com sucesso!'));
    // The row leaves the cached page: no list is read again after the delete.
    expect(await screen.findByText('Nenhum item encontrado.')).toBeInTheDocument();
  });

  it('honours the program permissions', async () => {
    grant({ canCreate: false, canDelete: false, canUpdate: false });
    renderPage(<RegisterListPage meta={clientesMeta} metas={[clientesMeta]} />, [listMock(null, rows)]);
    await screen.findByText('Ana');
    expect(screen.queryByRole('button', { name: 'Adicionar' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Excluir' })).not.toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Visualizar' })).toHaveLength(2);
  });

  it('opens the edit form with the record in the URL and in the state', async () => {
    grant();
    const user = userEvent.setup();
    renderPage(<RegisterListPage meta={clientesMeta} metas={[clientesMeta]} />, [listMock(null, rows)]);
    const row = (await screen.findByText('Bruno')).closest('tr') as HTMLElement;
    await user.click(within(row).getByRole('button', { name: 'Editar' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/clientes/alterar?id=2');
  });

  it('shows cards on mobile', async () => {
    window.innerWidth = 390;
    grant();
    renderPage(<RegisterListPage meta={clientesMeta} metas={[clientesMeta]} />, [listMock(null, rows)]);
    expect(await screen.findAllByRole('listitem')).toHaveLength(2);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('refuses users without the program', () => {
    signIn({ programs: [program({ id: 9, name: 'IndexProdutos', webPath: '/produtos' })] });
    renderPage(<RegisterListPage meta={clientesMeta} metas={[clientesMeta]} />, []);
    expect(screen.getByText('Você não tem permissão para acessar esta tela.')).toBeInTheDocument();
  });

  it('filters a document list by its period, its parties and its status, from the metadata', async () => {
    signIn({ programs: [program({ id: 4, name: 'IndexCompra', webPath: '/compras' })] });
    const user = userEvent.setup();
    const purchase = (id: number, sit: string) => ({
      COMP_ID: id,
      COMP_FORN_DESC: `FORNECEDOR ${id}`,
      COMP_NUMERO: 100 + id,
      COMP_SERIE: '1',
      COMP_DTA_EMISSAO: '2026-11-10',
      COMP_DTA_ENTRADA: '2026-11-11',
      COMP_VLR_TOTAL: '10.00',
      COMP_SITUACAO: sit,
    });
    const input = { filter: null, order: 'COMP_DTA_ENTRADA DESC, COMP_ID DESC', page: 1, limit: 20 };
    const mock = (where: object | null, result: object[]) => ({
      request: {
        query: ResourceListDocument,
        variables: { name: 'compra', emp: 1, input: where ? { ...input, where } : input },
      },
      result: { data: { resourceList: { __typename: 'ResourcePage', rows: result, total: result.length } } },
    });
    renderPage(
      <RegisterListPage meta={purchaseMeta} metas={[purchaseMeta]} />,
      [
        mock(null, [purchase(1, 'A'), purchase(2, 'F')]),
        mock({ COMP_SITUACAO: 'F' }, [purchase(2, 'F')]),
        mock({ COMP_SITUACAO: 'F', COMP_DTA_ENTRADA_INI: '2026-11-01' }, [purchase(2, 'F')]),
        mock({ COMP_SITUACAO: 'F', COMP_DTA_ENTRADA_INI: '2026-11-01', COMP_DTA_ENTRADA_FIM: '2026-11-05' }, []),
        mock(null, [purchase(1, 'A'), purchase(2, 'F')]),
      ],
      '/compras',
    );
    expect(await screen.findByText('FORNECEDOR 1')).toBeInTheDocument();
    const filters = screen.getByRole('form', { name: 'Filtros' });
    // The supplier is the reference labelled like the purchase's label; the period is its date field's.
    expect(within(filters).getByRole('combobox', { name: 'Fornecedor' })).toBeInTheDocument();
    expect(within(filters).queryByLabelText('Condição de Pagamento')).not.toBeInTheDocument();
    await user.selectOptions(within(filters).getByLabelText('Situação'), 'F');
    await waitFor(() => expect(screen.queryByText('FORNECEDOR 1')).not.toBeInTheDocument());
    expect(screen.getByText('FORNECEDOR 2')).toBeInTheDocument();
    await user.type(within(filters).getByLabelText('Entrada de'), '01112026');
    await user.type(within(filters).getByLabelText('Entrada até'), '05112026');
    expect(await screen.findByText('Nenhum item encontrado.')).toBeInTheDocument();
    await user.click(within(filters).getByRole('button', { name: 'Limpar filtros' }));
    expect(await screen.findByText('FORNECEDOR 1')).toBeInTheDocument();
  });

  it('offers no filters on a register that is not a document', async () => {
    grant();
    renderPage(<RegisterListPage meta={clientesMeta} metas={[clientesMeta]} />, [listMock(null, rows)]);
    await screen.findByText('Ana');
    expect(screen.queryByRole('form', { name: 'Filtros' })).not.toBeInTheDocument();
  });
});
