import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getSession } from '../../lib/session';
import { renderWith, signIn } from '../../test/utils';
import { LogoutDocument } from './documents';
import { UserMenu } from './UserMenu';

afterEach(() => vi.restoreAllMocks());

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

  it('WHATSAPP opens the messages screen (IndexWhatsapp, /whatsapp)', async () => {
    signIn();
    renderWith(
      <Routes>
        <Route path="/" element={<UserMenu />} />
        <Route path="/whatsapp" element={<p>Tela de mensagens</p>} />
      </Routes>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Menu do usuário' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'WHATSAPP' }));
    expect(await screen.findByText('Tela de mensagens')).toBeInTheDocument();
  });
});
