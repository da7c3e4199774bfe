import { useQuery } from '@apollo/client';
import { useCallback, useEffect, useRef } from 'react';
import { MeDocument, ServerVersionDocument } from '../../features/auth/documents';
import { MSG } from '../../lib/messages';
import { saveSession, setServerVersion, useSession } from '../../lib/session';
import { notify } from '../../lib/toast';
import { isNewerVersion } from '../../lib/version';

/** How often the server's version is asked for. */
const VERSION_POLL_MS = 5 * 60_000;
const WARNED_KEY = 'versaoAvisada';

/**
 * Keeps the stored session in step with the server (programs, privileges) and tells whether
 * a newer client is available, warning once per announced version. `checkVersion` asks the
 * server's version at once (a new version was announced: the banner shows without waiting
 * for the next poll).
 */
export function useSessionRefresh(): { updateAvailable: boolean; checkVersion: () => void } {
  const session = useSession();
  const me = useQuery(MeDocument, { skip: !session, fetchPolicy: 'network-only' });
  const version = useQuery(ServerVersionDocument, { skip: !session, pollInterval: VERSION_POLL_MS });
  const lastMe = useRef<unknown>(null);
  const { refetch: refetchVersion } = version;
  const checkVersion = useCallback(() => {
    refetchVersion().catch(() => undefined);
  }, [refetchVersion]);

  useEffect(() => {
    const data = me.data?.me;
    if (data && data !== lastMe.current) {
      lastMe.current = data;
      saveSession(data);
    }
  }, [me.data]);

  useEffect(() => {
    const v = version.data?.serverVersion;
    if (v) setServerVersion(v);
  }, [version.data]);

  const serverVersion = session?.serverVersion ?? '';
  const updateAvailable = isNewerVersion(serverVersion);
  useEffect(() => {
    if (!updateAvailable || localStorage.getItem(WARNED_KEY) === serverVersion) return;
    localStorage.setItem(WARNED_KEY, serverVersion);
    notify.warning(MSG.newVersion);
  }, [updateAvailable, serverVersion]);

  return { updateAvailable, checkVersion };
}
