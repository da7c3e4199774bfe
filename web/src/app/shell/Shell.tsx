import { Suspense, useState } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { LoadingScreen } from '../../components/dialogs/LoadingScreen';
import { Icon } from '../../components/Icon';
import { UserMenu } from '../../features/auth/UserMenu';
import { FavoriteStar } from '../../features/menu/FavoriteStar';
import { SideMenu } from '../../features/menu/SideMenu';
import { NotificationBell } from '../../features/notifications/NotificationBell';
import { MSG } from '../../lib/messages';
import { useCurrentPageMeta } from '../../lib/pageMeta';
import { useSession } from '../../lib/session';
import { useIsMobile } from '../../lib/useIsMobile';
import { APP_TITLE } from '../../lib/version';
import { CompanyLogo } from './CompanyLogo';
import { useSessionRefresh } from './useSessionRefresh';

/** Side menu, top bar (title, favourite, bell, user menu), update banner and the routed view. */
export default function Shell() {
  const session = useSession();
  const mobile = useIsMobile();
  const navigate = useNavigate();
  const meta = useCurrentPageMeta();
  const { updateAvailable, checkVersion } = useSessionRefresh();
  const [collapsed, setCollapsed] = useState(false);
  const [drawer, setDrawer] = useState(false);
  if (!session) return null;

  const menuOpen = mobile ? drawer : !collapsed;
  const toggleMenu = () => (mobile ? setDrawer((d) => !d) : setCollapsed((c) => !c));

  const aside = (
    <aside
      aria-label="Menu lateral"
      className={`flex w-64 shrink-0 flex-col bg-primary text-white ${mobile ? 'fixed inset-y-0 left-0 z-40 shadow-xl' : 'sticky top-0 h-dvh'}`}
    >
      <button
        type="button"
        onClick={() => navigate('/')}
        className="px-4 py-3 text-left text-lg font-semibold hover:bg-white/10"
      >
        {APP_TITLE}
      </button>
      <SideMenu onOpened={() => mobile && setDrawer(false)} />
      <div className="border-t border-white/20 p-2">
        <CompanyLogo key={session.company.id} company={session.company} />
      </div>
    </aside>
  );

  return (
    // The document scrolls (not an inner box): the top bar and the desktop menu stay put.
    <div className="flex min-h-full">
      {menuOpen &&
        (mobile ? (
          aside
        ) : (
          // The column keeps the menu's colour down a long page while the menu itself stays put.
          <div className="w-64 shrink-0 bg-primary">{aside}</div>
        ))}
      {mobile && drawer && (
        <div className="fixed inset-0 z-30 bg-black/40" onClick={() => setDrawer(false)} aria-hidden="true" />
      )}
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-20 flex items-center gap-2 bg-primary px-2 py-2 text-white shadow">
          <button
            type="button"
            aria-label={menuOpen ? 'Recolher menu' : 'Abrir menu'}
            aria-expanded={menuOpen}
            onClick={toggleMenu}
            className="rounded p-1 hover:bg-white/10"
          >
            <Icon name="menu" />
          </button>
          <h1 className="min-w-0 truncate text-base font-medium">{meta.title}</h1>
          <FavoriteStar />
          <div className="flex-1" />
          <NotificationBell onVersion={checkVersion} />
          <UserMenu />
        </header>
        {updateAvailable && (
          <div
            role="status"
            className="flex items-center justify-between gap-2 bg-accent px-4 py-1.5 text-sm text-white"
          >
            <span>{MSG.newVersion}</span>
            <button type="button" className="rounded bg-white/20 px-2 py-0.5" onClick={() => window.location.reload()}>
              Atualizar
            </button>
          </div>
        )}
        <main className={`flex-1 ${mobile ? 'p-2' : 'p-4'}`}>
          <Suspense fallback={<LoadingScreen />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
    </div>
  );
}
