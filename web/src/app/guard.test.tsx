import { MockedProvider } from '@apollo/client/testing';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet, RouterProvider, createMemoryRouter, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { LoginDocument } from '../features/auth/documents';
import LoginPage from '../features/auth/LoginPage';
import { getSession } from '../lib/session';
import { program, sessionData } from '../test/utils';
import { RequireAuth, VersionParam, loginRedirect, returnPath } from './guard';

function Protected() {
  const { pathname, search, state } = useLocation();
  return (
    <p data-testid="protected">
      {pathname}
      {search}|{JSON.stringify(state)}
    </p>
  );
}

function makeRouter(entry: string | { pathname: string; search?: string; state?: unknown }) {
  return createMemoryRouter(
    [
      {
        element: (
          <>
            <VersionParam />
            <Outlet />
          </>
        ),
        children: [
          { path: '/login', element: <LoginPage /> },
          {
            path: '*',
            element: (
              <RequireAuth>
                <Protected />
              </RequireAuth>
            ),
          },
        ],
      },
    ],
    { initialEntries: [entry] },
  );
}

const session = sessionData({
  programs: [program({ id: 1, name: 'IndexClientes', webPath: '/clientes', favorite: true })],
});
const typed = {
  __typename: 'Session',
  ...session,
  user: { __typename: 'User', ...session.user },
  company: { __typename: 'Company', ...session.company },
  companies: session.companies.map((c) => ({ __typename: 'Company', ...c })),
  programs: session.programs.map((p) => ({ __typename: 'UserProgram', ...p })),
};
const loginMock = {
  request: {
    query: LoginDocument,
    variables: { input: { cpfcnpj: '11.222.333/0001-81', login: 'admin', password: 'admin123' } },
  },
  result: { data: { login: { __typename: 'LoginResult', token: 'jwt-abc', session: typed } } },
};

describe('route guard', () => {
  it('builds the redirect without the version value', () => {
    expect(returnPath('/clientes/alterar', '?id=5&v=4.0.2')).toBe('/clientes/alterar?id=5');
    expect(loginRedirect('/clientes', '?v=4.0.2')).toBe('/login?redirect=%2Fclientes');
  });

  it('sends a visitor without a session to /login?redirect=<path> and back after login', async () => {
    const router = makeRouter('/clientes?filtro=ana');
    const user = userEvent.setup();
    render(
      <MockedProvider mocks={[loginMock]}>
        <RouterProvider router={router} />
      </MockedProvider>,
    );
    await screen.findByRole('button', { name: 'Entrar' });
    expect(router.state.location.pathname).toBe('/login');
    const params = new URLSearchParams(router.state.location.search);
    expect(params.get('redirect')).toBe('/clientes?filtro=ana');
    expect(params.get('v')).toBe('4.0.2');

    await user.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(screen.getByText('CPF/CNPJ é obrigatório!')).toBeInTheDocument();
    expect(screen.getByText('Usuário é obrigatório!')).toBeInTheDocument();
    expect(screen.getByText('Senha é obrigatório!')).toBeInTheDocument();

    await user.type(screen.getByLabelText(/CPF\/CNPJ/), '11222333000181');
    expect(screen.getByLabelText(/CPF\/CNPJ/)).toHaveValue('11.222.333/0001-81');
    await user.type(screen.getByLabelText(/Usuário/), 'admin');
    await user.type(screen.getByLabelText(/Senha/), 'admin123');
    await user.click(screen.getByRole('button', { name: 'Entrar' }));

    await waitFor(() => expect(screen.getByTestId('protected')).toHaveTextContent('/clientes?filtro=ana&v=4.0.2'));
    const stored = getSession();
    expect(stored?.token).toBe('jwt-abc');
    expect(stored?.favourites).toEqual(['/clientes']);
    expect(localStorage.getItem('token')).toBe('jwt-abc');
  });

  it('adds the version to every navigation and keeps the navigation state', async () => {
    localStorage.setItem('token', 't');
    localStorage.setItem('user', JSON.stringify(session.user));
    localStorage.setItem('empresa', JSON.stringify(session.company));
    const router = makeRouter({ pathname: '/clientes/alterar', search: '?id=5', state: { record: { CLI_ID: 5 } } });
    render(
      <MockedProvider mocks={[]}>
        <RouterProvider router={router} />
      </MockedProvider>,
    );
    await waitFor(() =>
      expect(screen.getByTestId('protected')).toHaveTextContent(
        '/clientes/alterar?id=5&v=4.0.2|{"record":{"CLI_ID":5}}',
      ),
    );
  });
});
