import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setPageMeta } from '../../lib/pageMeta';
import { getSession } from '../../lib/session';
import { program, renderWith, signIn } from '../../test/utils';
import { MenuDocument, ToggleFavoriteDocument } from '../menu/documents';
import { FavoriteStar } from '../menu/FavoriteStar';
import { leadProgress } from '../notifications/leadProgress';
import { LogoutDocument } from './documents';
import { UserMenu } from './UserMenu';

afterEach(() => vi.restoreAllMocks());

const clientes = program({ id: 1, name: 'IndexClientes', webPath: '/clientes' });

describe('UserMenu', () => {
  it('shows user, tax id, version, WHATSAPP and Sair to everyone', async () => {
    signIn();
    renderWith(<UserMenu />);
    await userEvent.click(screen.getByRole('button', { name: 'Menu do usuário' }));
    expect(screen.getByText('Administrador')).toBeInTheDocument();
    expect(screen.getByText('11.222.333/0001-81')).toBeInTheDocument();
    expect(screen.getByText('Versão: 4.0.2')).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'WHATSAPP' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Sair' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'HELP DESK' })).not.toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Leads' })).not.toBeInTheDocument();
  });

  it('adds the operator entries for privileged sessions', async () => {
    signIn({ privileged: true });
    renderWith(<UserMenu />);
    await userEvent.click(screen.getByRole('button', { name: 'Menu do usuário' }));
    for (const name of ['HELP DESK', 'MONITORAMENTO', 'ATUALIZA BD', 'EMPRESAS', 'Leads']) {
      expect(screen.getByRole('menuitem', { name })).toBeInTheDocument();
    }
  });

  it('Sair calls logout and clears the session', async () => {
    signIn();
    renderWith(<UserMenu />, { mocks: [{ request: { query: LogoutDocument }, result: { data: { logout: true } } }] });
    await userEvent.click(screen.getByRole('button', { name: 'Menu do usuário' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Sair' }));
    await waitFor(() => expect(getSession()).toBeNull());
    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('programas')).toBeNull();
  });

  it('WHATSAPP opens the WhatsApp dialog', async () => {
    signIn();
    renderWith(<UserMenu />);
    await userEvent.click(screen.getByRole('button', { name: 'Menu do usuário' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'WHATSAPP' }));
    expect(await screen.findByRole('dialog', { name: 'WhatsApp' })).toBeInTheDocument();
  });
});

describe('FavoriteStar', () => {
  it('shows only on index routes of a program', () => {
    signIn({ programs: [clientes] });
    setPageMeta({ title: 'Editar Clientes', name: 'AlterClientes' });
    const { unmount } = renderWith(<FavoriteStar />, { route: '/clientes' });
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    unmount();
    setPageMeta({ title: 'Clientes', name: 'IndexClientes' });
    renderWith(<FavoriteStar />, { route: '/clientes' });
    expect(screen.getByRole('button', { name: 'Adicionar aos favoritos' })).toHaveAttribute(
      'title',
      'Adicionar aos favoritos',
    );
  });

  it('toggles the favourite and refetches the menu', async () => {
    signIn({ programs: [clientes] });
    setPageMeta({ title: 'Clientes', name: 'IndexClientes' });
    const menuFetched = vi.fn(() => ({ data: { menu: [] } }));
    renderWith(<FavoriteStar />, {
      route: '/clientes',
      mocks: [
        {
          request: { query: ToggleFavoriteDocument, variables: { programId: 1 } },
          result: { data: { toggleFavorite: { __typename: 'UserProgram', ...clientes, favorite: true } } },
        },
        { request: { query: MenuDocument }, result: menuFetched },
      ],
    });
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar aos favoritos' }));
    expect(await screen.findByRole('button', { name: 'Remover dos Favoritos' })).toBeInTheDocument();
    expect(getSession()?.favourites).toEqual(['/clientes']);
    await waitFor(() => expect(menuFetched).toHaveBeenCalled());
  });
});

describe('lead progress', () => {
  it("reads the percentage of a 'Processando leads' notification", () => {
    expect(leadProgress('Processando leads: 45%')).toBe(45);
    expect(leadProgress('Processando leads 12,5 %')).toBe(12.5);
    expect(leadProgress('Backup concluído 100%')).toBeNull();
  });
});
