import { valueOf } from '../../lib/api';

/**
 * A row of a register screen built from the metadata, its columns known at run time. A screen
 * that knows its register gives the tables its generated row type instead (src/lib/api.ts).
 */
export type Row = Record<string, unknown>;

/** A column of the rows `T` shows: `key` names the field it shows. */
export interface Column<T extends object = Row> {
  key: string;
  label: string;
  format?: (value: unknown, row: T) => string;
  align?: 'left' | 'right';
  /** Kept on one line (documents, phones, dates, amounts). */
  nowrap?: boolean;
  /** Shows the text as a badge of this tone (a document's status); none: plain text. */
  tone?: (value: unknown, row: T) => string | null | undefined;
}

/** A badge's colours by its tone (a document status's StatusLabel.tone); any other: neutral. */
const BADGE_TONES: Record<string, string> = {
  open: 'bg-emerald-100 text-emerald-800',
  done: 'bg-blue-100 text-blue-800',
  cancelled: 'bg-red-100 text-red-800',
};

export const badgeClass = (tone: string | null | undefined) =>
  `rounded-full px-2.5 py-0.5 text-xs font-semibold ${(tone && BADGE_TONES[tone]) || 'bg-slate-200 text-slate-700'}`;

/** Rows the user picks for a call on several of them (settle the chosen titles). */
export interface RowSelect<T extends object = Row> {
  isSelected: (row: T) => boolean;
  /** A row that cannot be picked shows its checkbox disabled (default: every row can). */
  canSelect?: (row: T) => boolean;
  onChange: (row: T, selected: boolean) => void;
  /** When given, a header checkbox picks (or drops) every pickable row shown. */
  onChangeAll?: (rows: T[], selected: boolean) => void;
  /** The checkbox's accessible name ('Selecionar título 12'). */
  label: (row: T) => string;
}

/** A row shown apart from the others: `danger` (an overdue title) is tinted red. */
export type RowTone = 'danger';

export interface SortState {
  key: string;
  dir: 'ASC' | 'DESC';
}

/** Rows carry ORDEM (0/1 alternating) for striping, as the legacy lists did. */
export function withOrdem<T extends object>(rows: T[]): (T & { ORDEM?: unknown })[] {
  return rows.map((r, i) => ('ORDEM' in r ? r : { ...r, ORDEM: i % 2 }));
}

export const cellText = <T extends object>(col: Column<T>, row: T) => {
  const v = valueOf(row, col.key);
  if (col.format) return col.format(v, row);
  return v == null ? '' : String(v);
};

/** Keeps a saved column order valid for the current columns. */
export function mergeOrder(saved: string[] | null, keys: string[]): string[] {
  if (!saved) return keys;
  const kept = saved.filter((k) => keys.includes(k));
  return [...kept, ...keys.filter((k) => !kept.includes(k))];
}
