import { ApolloLink } from '@apollo/client';
import { MockLink, MockSubscriptionLink, type MockedResponse } from '@apollo/client/testing';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MeDocument, ServerVersionDocument } from '../../features/auth/documents';
import { MenuDocument } from '../../features/menu/documents';
import { NotificationsDocument } from '../../features/notifications/documents';
import { usePageMeta } from '../../lib/pageMeta';
import { ResourceActionDocument } from '../../lib/resources/documents';
import { notify } from '../../lib/toast';
import { installZoomGuard } from '../../lib/zoomGuard';
import { renderWith, sessionData, signIn } from '../../test/utils';
import { CompanyLogo, logoSrc } from './CompanyLogo';
import Shell from './Shell';

afterEach(() => vi.restoreAllMocks());

function Page() {
  usePageMeta('Clientes', 'IndexClientes');
  return <p>conteúdo</p>;
}

const typedSession = (serverVersion: string) => {
  const s = sessionData({ serverVersion });
  return {
    __typename: 'Session',
    ...s,
    user: { __typename: 'User', ...s.user },
    company: { __typename: 'Company', ...s.company },
    companies: s.companies.map((c) => ({ __typename: 'Company', ...c })),
    programs: [],
  };
};

/** The bell's calls of services/messaging: its history (none) and marking it read. */
const bellCalls: MockedResponse[] = [
  {
    request: {
      query: ResourceActionDocument,
      variables: { name: 'notificacoes', action: 'listar', params: { emp: 1 } },
    },
    result: { data: { resourceAction: { dados: [], naoLidas: 0 } } },
  },
  {
    request: {
      query: ResourceActionDocument,
      variables: { name: 'notificacoes', action: 'lidas', params: { emp: 1 } },
    },
    result: { data: { resourceAction: { code: 200, msg: 'Notificações marcadas como lidas.' } } },
  },
];

/** The session's queries, the server answering `versions` to its version query in turn. */
const sessionMocks = (versions: string[]): MockedResponse[] => [
  { request: { query: MeDocument }, result: { data: { me: typedSession(versions[0]) } } },
  ...versions.map((serverVersion) => ({
    request: { query: ServerVersionDocument },
    result: { data: { serverVersion } },
  })),
  { request: { query: MenuDocument }, result: { data: { menu: [] } } },
  ...bellCalls,
];

const shellRoutes = (
  <Routes>
    <Route element={<Shell />}>
      <Route path="/clientes" element={<Page />} />
    </Route>
  </Routes>
);

function renderShell(serverVersion: string) {
  signIn();
  return renderWith(shellRoutes, {
    route: '/clientes',
    mocks: [
      ...sessionMocks([serverVersion]),
      {
        request: { query: NotificationsDocument },
        result: {
          data: {
            notifications: {
              __typename: 'Notification',
              id: 'n1',
              message: 'Processando leads 40%',
              createdAt: '2026-11-21',
              kind: 'leads',
              link: null,
            },
          },
        },
      },
    ],
  });
}

/** The shell with the subscription pushed by the test (`live`); `versions` as above. */
function renderLiveShell(versions: string[]) {
  signIn({ serverVersion: versions[0] });
  const live = new MockSubscriptionLink();
  const link = ApolloLink.split(
    (op) => op.operationName === 'Notifications',
    live,
    new MockLink(sessionMocks(versions)),
  );
  renderWith(shellRoutes, { route: '/clientes', link });
  return live;
}

describe('Shell', () => {
  it('shows the page title, the menu and no banner when up to date', async () => {
    window.innerWidth = 1920;
    renderShell('4.0.2 Beta');
    expect(await screen.findByRole('heading', { name: 'Clientes' })).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Buscar')).toBeInTheDocument();
    expect(screen.getByTestId('default-logo')).toHaveTextContent('Empresa Teste');
    await waitFor(() =>
      expect(screen.queryByText('Nova versão disponível atualize o sistema!')).not.toBeInTheDocument(),
    );
  });

  it('counts notifications on the bell and shows lead progress', async () => {
    renderShell('4.0.2');
    expect(await screen.findByTestId('notification-count')).toHaveTextContent('1');
    fireEvent.click(screen.getByRole('button', { name: 'Notificações (1)' }));
    expect(screen.getByText('Processando leads 40%')).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '40');
    expect(screen.queryByTestId('notification-count')).not.toBeInTheDocument();
  });

  it('announces a newer server version with a banner and a one-time warning', async () => {
    const warn = vi.spyOn(notify, 'warning');
    renderShell('4.0.3 Beta');
    expect(await screen.findByText('Nova versão disponível atualize o sistema!')).toBeInTheDocument();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem('versaoAvisada')).toBe('4.0.3 Beta');
  });

  it('shows the banner at once when the server announces a new version', async () => {
    const warn = vi.spyOn(notify, 'warning');
    // The version the shell read when it mounted, then the one deployed meanwhile.
    const live = renderLiveShell(['4.0.2', '4.0.3 Beta']);
    expect(await screen.findByRole('heading', { name: 'Clientes' })).toBeInTheDocument();
    await waitFor(() => expect(live.operation?.operationName).toBe('Notifications'));
    expect(screen.queryByText('Nova versão disponível atualize o sistema!')).not.toBeInTheDocument();
    await act(async () => {
      live.simulateResult({
        result: {
          data: {
            notifications: {
              __typename: 'Notification',
              id: '77',
              message: 'Nova versão disponível atualize o sistema!',
              createdAt: '2026-11-22T10:00:00.000Z',
              kind: 'versao',
              link: null,
            },
          },
        },
      });
      await new Promise((r) => setTimeout(r, 10));
    });
    // Without waiting for the 5-minute poll.
    expect(await screen.findByRole('status')).toHaveTextContent('Nova versão disponível atualize o sistema!');
    expect(screen.getByTestId('notification-count')).toHaveTextContent('1');
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('collapses the side menu', async () => {
    window.innerWidth = 1920;
    renderShell('4.0.2');
    fireEvent.click(await screen.findByRole('button', { name: 'Recolher menu' }));
    expect(screen.queryByPlaceholderText('Buscar')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Abrir menu' }));
    expect(screen.getByPlaceholderText('Buscar')).toBeInTheDocument();
  });

  it('keeps the menu in a drawer on mobile', async () => {
    window.innerWidth = 390;
    renderShell('4.0.2');
    fireEvent.click(await screen.findByRole('button', { name: 'Abrir menu' }));
    expect(screen.getByPlaceholderText('Buscar')).toBeInTheDocument();
  });
});

describe('CompanyLogo', () => {
  const company = { id: 2, name: 'Oficina Silva', taxId: '', fantasyName: null, logoUrl: 'logo.png' };
  it('serves a stored logo from /uploads/{company}', () => {
    expect(logoSrc(company)).toBe('/uploads/2/logo.png');
    expect(logoSrc({ ...company, logoUrl: '/uploads/2/x.png' })).toBe('/uploads/2/x.png');
  });
  it('uses the default logo with the company name when the logo is narrower than 100 px', () => {
    render(<CompanyLogo company={company} />);
    const img = screen.getByRole('img', { name: 'Oficina Silva' });
    Object.defineProperty(img, 'naturalWidth', { value: 80 });
    fireEvent.load(img);
    expect(screen.getByTestId('default-logo')).toHaveTextContent('Oficina Silva');
  });
  it('keeps a wide logo', () => {
    render(<CompanyLogo company={company} />);
    const img = screen.getByRole('img', { name: 'Oficina Silva' });
    Object.defineProperty(img, 'naturalWidth', { value: 240 });
    fireEvent.load(img);
    expect(screen.queryByTestId('default-logo')).not.toBeInTheDocument();
  });
});

describe('zoom guard', () => {
  it('blocks ctrl+wheel, ctrl +/- and a second tap within 300 ms', () => {
    const uninstall = installZoomGuard(window);
    const wheel = new WheelEvent('wheel', { ctrlKey: true, cancelable: true });
    window.dispatchEvent(wheel);
    expect(wheel.defaultPrevented).toBe(true);
    const plainWheel = new WheelEvent('wheel', { cancelable: true });
    window.dispatchEvent(plainWheel);
    expect(plainWheel.defaultPrevented).toBe(false);
    const plus = new KeyboardEvent('keydown', { key: '+', ctrlKey: true, cancelable: true });
    window.dispatchEvent(plus);
    expect(plus.defaultPrevented).toBe(true);
    const first = new Event('touchend', { cancelable: true });
    const second = new Event('touchend', { cancelable: true });
    window.dispatchEvent(first);
    window.dispatchEvent(second);
    expect(first.defaultPrevented).toBe(false);
    expect(second.defaultPrevented).toBe(true);
    uninstall();
  });
});
