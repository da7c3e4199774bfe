import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { useSession } from '../lib/session';
import { CLIENT_VERSION, VERSION_PARAM } from '../lib/version';

/** The path and query to come back to, without the version value. */
export function returnPath(pathname: string, search: string): string {
  const params = new URLSearchParams(search);
  params.delete(VERSION_PARAM);
  const q = params.toString();
  return q ? `${pathname}?${q}` : pathname;
}

export const loginRedirect = (pathname: string, search: string) =>
  `/login?${new URLSearchParams({ redirect: returnPath(pathname, search) })}`;

/** Routes that need a session send a visitor without one to /login?redirect=<path>. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const session = useSession();
  const { pathname, search } = useLocation();
  if (!session) return <Navigate to={loginRedirect(pathname, search)} replace />;
  return <>{children}</>;
}

/** Every navigation carries the client version in its query (replacing history entry, state kept). */
export function VersionParam() {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    if (params.get(VERSION_PARAM) === CLIENT_VERSION) return;
    params.set(VERSION_PARAM, CLIENT_VERSION);
    navigate(
      { pathname: location.pathname, search: `?${params}`, hash: location.hash },
      { replace: true, state: location.state },
    );
  }, [location, navigate]);
  return null;
}
