import { useSubscription } from '@apollo/client';
import { useState } from 'react';
import { Icon } from '../../components/Icon';
import { formatDate } from '../../lib/format';
import { useSession } from '../../lib/session';
import { NotificationsDocument } from './documents';
import { leadProgress } from './leadProgress';

interface Item {
  id: string;
  message: string;
  createdAt: string;
}

const MAX_KEPT = 50;

/** Bell with a count badge fed by Subscription.notifications. */
export function NotificationBell() {
  const session = useSession();
  const [items, setItems] = useState<Item[]>([]);
  const [unread, setUnread] = useState(0);
  const [open, setOpen] = useState(false);
  useSubscription(NotificationsDocument, {
    skip: !session,
    onData: ({ data }) => {
      const n = data.data?.notifications;
      if (!n) return;
      setItems((list) => [n, ...list.filter((i) => i.id !== n.id)].slice(0, MAX_KEPT));
      setUnread((u) => u + 1);
    },
  });
  return (
    <div className="relative">
      <button
        type="button"
        aria-label={`Notificações (${unread})`}
        aria-expanded={open}
        onClick={() => {
          setOpen((o) => !o);
          setUnread(0);
        }}
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
                return (
                  <li key={n.id} className="px-3 py-2 text-sm">
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
                    <p className="mt-0.5 text-xs text-slate-400">{formatDate(n.createdAt)}</p>
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
