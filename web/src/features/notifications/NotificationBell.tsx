import { useSubscription } from '@apollo/client';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Icon } from '../../components/Icon';
import { formatDate, formatTimestamp } from '../../lib/format';
import { useRegisterCall } from '../../lib/resources/registerCalls';
import { useSession } from '../../lib/session';
import { NotificationsDocument } from './documents';
import { leadProgress } from './leadProgress';
import { allRead, historyOf, liveItem, merged, unreadOf, VERSION_KIND, type Item } from './notifications';

interface Props {
  /** A new version was announced (the shell asks the server's version again and shows its banner). */
  onVersion?: () => void;
}

/** A server timestamp with its time; a bare date as a date. */
const when = (value: string) => (value.includes('T') ? formatTimestamp(value) : formatDate(value));

/**
 * Bell with a count badge: the user's notifications the server keeps (GET /notificacoes, read
 * when the session starts) and those Subscription.notifications pushes meanwhile, newest first.
 * Opening it marks them read (PUT /notificacoes/lidas); a notification with a link leads there.
 */
export function NotificationBell({ onVersion }: Props) {
  const session = useSession();
  const call = useRegisterCall();
  const navigate = useNavigate();
  const [items, setItems] = useState<Item[]>([]);
  const [open, setOpen] = useState(false);
  // The session's user: another user (a new login) reads their own history.
  const user = session ? `${session.clientId}:${session.user.id}` : null;

  useEffect(() => {
    if (!user) return;
    let live = true;
    call('notificacoes', 'listar').then(
      (answer) => live && setItems((pushed) => merged(pushed, historyOf(answer))),
      // Without the history the bell still shows what arrives from now on.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [call, user]);

  useSubscription(NotificationsDocument, {
    skip: !session,
    onData: ({ data }) => {
      const n = data.data?.notifications;
      if (!n) return;
      setItems((list) => merged([liveItem(n)], list));
      if (n.kind === VERSION_KIND) onVersion?.();
    },
  });

  const unread = unreadOf(items);
  const toggle = () => {
    setOpen((o) => !o);
    if (unread === 0) return;
    setItems(allRead);
    // What the user has now seen is read on the server too (for them alone).
    call('notificacoes', 'lidas').catch(() => undefined);
  };
  const go = (link: string) => {
    setOpen(false);
    void navigate(link);
  };

  return (
    <div className="relative">
      <button
        type="button"
        aria-label={`Notificações (${unread})`}
        aria-expanded={open}
        onClick={toggle}
        className="relative rounded p-1 hover:bg-white/10"
      >
        <Icon name="bell" />
        {unread > 0 && (
          <span
            data-testid="notification-count"
            className="absolute -right-1 -top-1 min-w-4 rounded-full bg-error px-1 text-center text-[10px] font-bold leading-4 text-white"
          >
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </button>
      {open && (
        <div className="absolute right-0 z-40 mt-1 max-h-96 w-80 overflow-y-auto rounded border border-slate-200 bg-white text-slate-800 shadow-lg">
          {items.length === 0 ? (
            <p className="p-4 text-center text-sm text-slate-500">Nenhuma notificação.</p>
          ) : (
            <ul className="divide-y divide-slate-100">
              {items.map((n) => {
                const pct = leadProgress(n.message);
                const body = (
                  <>
                    <p>{n.message}</p>
                    {pct != null && (
                      <div
                        role="progressbar"
                        aria-valuenow={pct}
                        aria-valuemin={0}
                        aria-valuemax={100}
                        className="mt-1 h-2 rounded bg-slate-200"
                      >
                        <div className="h-2 rounded bg-tertiary" style={{ width: `${pct}%` }} />
                      </div>
                    )}
                    <p className="mt-0.5 text-xs text-slate-400">{when(n.createdAt)}</p>
                  </>
                );
                return (
                  <li key={n.id} className="text-sm" data-read={n.read}>
                    {n.link ? (
                      <button
                        type="button"
                        onClick={() => go(n.link ?? '/')}
                        className="block w-full px-3 py-2 text-left hover:bg-slate-50"
                      >
                        {body}
                      </button>
                    ) : (
                      <div className="px-3 py-2">{body}</div>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
