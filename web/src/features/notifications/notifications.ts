// The bell's notifications (services/messaging, register `notificacoes`): the history the
// server keeps (GET /notificacoes: the user's last 50, newest first, each with `lida`), the
// ones the subscription pushes meanwhile, and marking them read (PUT /notificacoes/lidas).
import type { Schema } from '../../lib/api';

/** The kind of the announcement of a new version: the shell asks the server's version again. */
export const VERSION_KIND = 'versao';

/** How many the bell keeps (the server lists as many). */
export const MAX_KEPT = 50;

export interface Item {
  /** The notification's id (the server's NOTI_ID, as the subscription sends it: text). */
  id: string;
  message: string;
  createdAt: string;
  /** 'mensagem', 'nfe', 'boleto', 'versao' (or another service's). */
  kind: string;
  /** The screen it leads to. */
  link: string | null;
  read: boolean;
}

/** What GET /notificacoes answers, as items (anything else: none). */
export function historyOf(answer: Schema<'Notificacoes'> | null | undefined): Item[] {
  const rows = Array.isArray(answer?.dados) ? answer.dados : [];
  return rows.map((n) => ({
    id: String(n.NOTI_ID),
    message: n.NOTI_MENSAGEM,
    createdAt: n.NOTI_DTA_CAD,
    kind: n.NOTI_TIPO,
    link: n.NOTI_LINK ?? null,
    read: n.lida,
  }));
}

/** A pushed notification, unread. */
export function liveItem(n: {
  id: string;
  message: string;
  createdAt: string;
  kind?: string | null;
  link?: string | null;
}): Item {
  return {
    id: n.id,
    message: n.message,
    createdAt: n.createdAt,
    kind: n.kind ?? '',
    link: n.link ?? null,
    read: false,
  };
}

/**
 * The list the bell shows: `first` before `then`, each id once (the first one wins, read if
 * either says so), at most MAX_KEPT.
 */
export function merged(first: Item[], then: Item[]): Item[] {
  const out: Item[] = [];
  const at = new Map<string, number>();
  for (const item of [...first, ...then]) {
    const i = at.get(item.id);
    if (i === undefined) {
      at.set(item.id, out.length);
      out.push(item);
    } else if (item.read && !out[i].read) {
      out[i] = { ...out[i], read: true };
    }
  }
  return out.slice(0, MAX_KEPT);
}

export const unreadOf = (items: Item[]) => items.filter((i) => !i.read).length;

export const allRead = (items: Item[]) => items.map((i) => (i.read ? i : { ...i, read: true }));
