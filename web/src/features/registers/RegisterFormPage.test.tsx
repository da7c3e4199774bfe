import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../lib/toast';
import { clientesMeta } from '../../test/fixtures';
import { program, renderWith, signIn } from '../../test/utils';
import { ResourceCreateDocument, ResourceGetDocument, ResourceUpdateDocument } from '../../lib/resources/documents';
import RegisterFormPage from './RegisterFormPage';

const rows = [
  { CLI_ID: 1, CLI_DESCRICAO: 'Ana', CLI_CPF: '52998224725', CLI_LIMITE: 100, CLI_TIPO: '1' },
  { CLI_ID: 2, CLI_DESCRICAO: 'Bruno', CLI_CPF: null, CLI_LIMITE: null, CLI_TIPO: '2' },
];

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

describe('RegisterFormPage', () => {
  it('shows the required messages, then creates the record', async () => {
    grant();
    const success = vi.spyOn(notify, 'success');
    const user = userEvent.setup();
    const data = {
      CLI_ID: null,
      CLI_DESCRICAO: 'Maria',
      CLI_CPF: '529.982.247-25',
      CLI_LIMITE: 50,
      CLI_NASC: null,
      CLI_FONES: null,
      CLI_ATIVO: false,
      CLI_TIPO: null,
    };
    renderPage(
      <RegisterFormPage meta={clientesMeta} metas={[clientesMeta]} action="inserir" />,
      [
        {
          request: { query: ResourceCreateDocument, variables: { name: 'clientes', emp: 1, data } },
          result: { data: { resourceCreate: { ...data, CLI_ID: 3 } } },
        },
      ],
      '/clientes/inserir',
    );
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(screen.getByText('Nome é obrigatório!')).toBeInTheDocument();
    expect(screen.getByLabelText(/Nome/)).toHaveFocus();
    expect(screen.getByLabelText('Código')).toBeDisabled();

    await user.type(screen.getByLabelText(/Nome/), 'Maria');
    await user.type(screen.getByLabelText('CPF/CNPJ'), '52998224725');
    await user.type(screen.getByLabelText('Limite de crédito'), '50');
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Registro salvo com sucesso!'));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^\/clientes$/));
  });

  it('shows the server refusal in a toast and under the field it names', async () => {
    grant();
    const error = vi.spyOn(notify, 'error');
    const user = userEvent.setup();
    const data = {
      CLI_ID: null,
      CLI_DESCRICAO: 'Maria',
      CLI_CPF: null,
      CLI_LIMITE: null,
      CLI_NASC: null,
      CLI_FONES: null,
      CLI_ATIVO: false,
      CLI_TIPO: null,
    };
    renderPage(
      <RegisterFormPage meta={clientesMeta} metas={[clientesMeta]} action="inserir" />,
      [
        {
          request: { query: ResourceCreateDocument, variables: { name: 'clientes', emp: 1, data } },
          result: { errors: [{ message: 'CPF/CNPJ é obrigatório!', extensions: { code: 'BAD_USER_INPUT' } }] },
        },
      ],
      '/clientes/inserir',
    );
    await user.type(screen.getByLabelText(/Nome/), 'Maria');
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('CPF/CNPJ é obrigatório!'));
    expect(screen.getByRole('alert')).toHaveTextContent('CPF/CNPJ é obrigatório!');
    expect(screen.getByLabelText('CPF/CNPJ')).toHaveFocus();
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/clientes\/inserir/);
  });

  it('reloads the record by the id in the URL and updates it', async () => {
    grant();
    const user = userEvent.setup();
    const stored = {
      CLI_ID: 2,
      CLI_DESCRICAO: 'Bruno',
      CLI_CPF: null,
      CLI_LIMITE: 10,
      CLI_NASC: '1990-03-09',
      CLI_FONES: null,
      CLI_ATIVO: true,
      CLI_TIPO: '2',
    };
    const changed = { ...stored, CLI_DESCRICAO: 'Bruno Silva' };
    renderPage(
      <RegisterFormPage meta={clientesMeta} metas={[clientesMeta]} action="alterar" />,
      [
        {
          request: { query: ResourceGetDocument, variables: { name: 'clientes', emp: 1, id: 2 } },
          result: { data: { resourceGet: stored } },
        },
        {
          request: { query: ResourceUpdateDocument, variables: { name: 'clientes', emp: 1, id: 2, data: changed } },
          result: { data: { resourceUpdate: changed } },
        },
      ],
      '/clientes/alterar?id=2',
    );
    const name = await screen.findByDisplayValue('Bruno');
    expect(screen.getByLabelText('Nascimento')).toHaveValue('09/03/1990');
    await user.type(name, ' Silva');
    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^\/clientes$/));
  });

  it('is read-only without the update permission', async () => {
    grant({ canUpdate: false });
    renderPage(
      <RegisterFormPage meta={clientesMeta} metas={[clientesMeta]} action="alterar" />,
      [
        {
          request: { query: ResourceGetDocument, variables: { name: 'clientes', emp: 1, id: 1 } },
          result: { data: { resourceGet: rows[0] } },
        },
      ],
      '/clientes/alterar?id=1',
    );
    expect(await screen.findByDisplayValue('Ana')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Salvar' })).not.toBeInTheDocument();
  });

  it("shows a saved record's tabs beside its fields, each screen getting the record", async () => {
    grant();
    const user = userEvent.setup();
    const Credit = ({ record }: { record: Record<string, unknown> }) => <p>Ficha de {String(record.CLI_DESCRICAO)}</p>;
    renderPage(
      <RegisterFormPage
        meta={clientesMeta}
        metas={[clientesMeta]}
        action="alterar"
        tabs={[{ label: 'Crédito', Screen: Credit }]}
      />,
      [
        {
          request: { query: ResourceGetDocument, variables: { name: 'clientes', emp: 1, id: 1 } },
          result: { data: { resourceGet: rows[0] } },
        },
      ],
      '/clientes/alterar?id=1',
    );
    expect(await screen.findByDisplayValue('Ana')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Dados' })).toHaveAttribute('aria-selected', 'true');
    await user.click(screen.getByRole('tab', { name: 'Crédito' }));
    expect(await screen.findByText('Ficha de Ana')).toBeInTheDocument();
    expect(screen.queryByDisplayValue('Ana')).not.toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Dados' }));
    expect(await screen.findByDisplayValue('Ana')).toBeInTheDocument();
  });

  it('shows no tabs on a new record', () => {
    grant();
    const Credit = () => <p>Crédito</p>;
    renderPage(
      <RegisterFormPage
        meta={clientesMeta}
        metas={[clientesMeta]}
        action="inserir"
        tabs={[{ label: 'Crédito', Screen: Credit }]}
      />,
      [],
      '/clientes/inserir',
    );
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
  });
});
