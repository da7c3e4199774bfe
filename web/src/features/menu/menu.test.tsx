import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../lib/toast';
import { program, renderWith } from '../../test/utils';
import { MenuDocument } from './documents';
import { searchMenu, type MenuNodeLike } from './menuSearch';
import { SideMenu } from './SideMenu';

const clientes = program({ id: 1, name: 'IndexClientes', description: 'Cadastro de Clientes', webPath: '/clientes' });
const fornecedores = program({
  id: 2,
  name: 'IndexFornecedores',
  description: 'Fornecedores',
  webPath: 'fornecedores',
});
const sped = program({ id: 3, name: 'SPED', description: 'Gerar SPED Fiscal', exe: 'SPED.EXE' });
const ncm = program({ id: 4, name: 'IndexNcm', description: 'Tabela NCM', webPath: '/ncm' });

type P = typeof clientes;
const leaf = (label: string, p: P) => ({
  __typename: 'MenuNode',
  label,
  icon: null,
  program: { __typename: 'UserProgram', ...p },
});
const node = (label: string, children: object[]) => ({
  __typename: 'MenuNode',
  label,
  icon: null,
  program: null,
  children,
});

// Level 1 group, NIVEL2 group, NIVEL3 entries; the query asks for a fourth level of children.
const menu = [
  node('CADASTROS', [
    { ...leaf('Clientes', clientes), children: [] },
    node('PESSOAS', [{ ...leaf('Fornecedores', fornecedores), children: [] }]),
    node('FISCAL', [
      { ...leaf('SPED Fiscal', sped), children: [] },
      { ...leaf('NCM', ncm), children: [] },
    ]),
  ]),
];

const mocks = [{ request: { query: MenuDocument }, result: { data: { menu } } }];

function Where() {
  const { pathname } = useLocation();
  return <p data-testid="where">{pathname}</p>;
}

function renderMenu() {
  return renderWith(
    <>
      <SideMenu />
      <Routes>
        <Route path="*" element={<Where />} />
      </Routes>
    </>,
    { mocks },
  );
}

afterEach(() => vi.restoreAllMocks());

describe('searchMenu', () => {
  const nodes = menu as unknown as MenuNodeLike[];
  it('lists only programs with a web path, matching label, name or description without accents', () => {
    expect(searchMenu(nodes, 'cli').map((h) => h.program.id)).toEqual([1]);
    expect(searchMenu(nodes, 'FORNECEDORES').map((h) => h.trail)).toEqual([['CADASTROS', 'PESSOAS']]);
    expect(searchMenu(nodes, 'sped')).toEqual([]);
    expect(searchMenu(nodes, 'tabela')).toHaveLength(1);
    expect(searchMenu(nodes, '  ')).toEqual([]);
  });
});

describe('SideMenu', () => {
  it('shows three levels and opens an entry', async () => {
    const user = userEvent.setup();
    renderMenu();
    await user.click(await screen.findByRole('button', { name: 'CADASTROS' }));
    await user.click(screen.getByRole('button', { name: 'PESSOAS' }));
    await user.click(screen.getByRole('link', { name: 'Fornecedores' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/fornecedores');
  });

  it("search lists programs with a web path, else 'Nenhuma página encontrada'", async () => {
    const user = userEvent.setup();
    renderMenu();
    await screen.findByRole('button', { name: 'CADASTROS' });
    const box = screen.getByPlaceholderText('Buscar');
    await user.type(box, 'clientes');
    expect(screen.getByRole('link', { name: 'Clientes' })).toHaveAttribute('href', '/clientes');
    await user.clear(box);
    await user.type(box, 'sped');
    expect(screen.getByText('Nenhuma página encontrada')).toBeInTheDocument();
  });

  it('Ctrl+click opens a new tab', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const user = userEvent.setup();
    renderMenu();
    await screen.findByRole('button', { name: 'CADASTROS' });
    await user.type(screen.getByPlaceholderText('Buscar'), 'ncm');
    await user.keyboard('{Control>}');
    await user.click(screen.getByRole('link', { name: 'NCM' }));
    await user.keyboard('{/Control}');
    expect(open).toHaveBeenCalledWith('/ncm', '_blank');
    expect(screen.getByTestId('where')).toHaveTextContent(/^\/$/);
  });

  it('desktop-only programs explain why they cannot open', async () => {
    const warn = vi.spyOn(notify, 'warning');
    window.innerWidth = 1920;
    const user = userEvent.setup();
    renderMenu();
    await user.click(await screen.findByRole('button', { name: 'CADASTROS' }));
    await user.click(screen.getByRole('button', { name: 'FISCAL' }));
    await user.click(screen.getByRole('link', { name: 'SPED Fiscal' }));
    await waitFor(() =>
      expect(warn).toHaveBeenCalledWith('Sistema de abertura de aplicativos não disponível nessa máquina!'),
    );
  });

  it('on mobile a desktop-only program says so', async () => {
    const warn = vi.spyOn(notify, 'warning');
    window.innerWidth = 390;
    const user = userEvent.setup();
    renderMenu();
    await user.click(await screen.findByRole('button', { name: 'CADASTROS' }));
    await user.click(screen.getByRole('button', { name: 'FISCAL' }));
    await user.click(screen.getByRole('link', { name: 'SPED Fiscal' }));
    expect(warn).toHaveBeenCalledWith('Tela só disponível no desktop!');
  });
});
