export type Row = Record<string, unknown>;

export interface Column {
  key: string;
  label: string;
  format?: (value: unknown, row: Row) => string;
  align?: 'left' | 'right';
  /** Kept on one line (documents, phones, dates, amounts). */
  nowrap?: boolean;
}

/** Rows the user picks for a call on several of them (settle the chosen titles). */
export interface RowSelect {
  isSelected: (row: Row) => boolean;
  /** A row that cannot be picked shows its checkbox disabled (default: every row can). */
  canSelect?: (row: Row) => boolean;
  onChange: (row: Row, selected: boolean) => void;
  /** When given, a header checkbox picks (or drops) every pickable row shown. */
  onChangeAll?: (rows: Row[], selected: boolean) => void;
  /** The checkbox's accessible name ('Selecionar título 12'). */
  label: (row: Row) => string;
}

/** A row shown apart from the others: `danger` (an overdue title) is tinted red. */
export type RowTone = 'danger';

export interface SortState {
  key: string;
  dir: 'ASC' | 'DESC';
}

/** Rows carry ORDEM (0/1 alternating) for striping, as the legacy lists did. */
export function withOrdem(rows: Row[]): Row[] {
  return rows.map((r, i) => ('ORDEM' in r ? r : { ...r, ORDEM: i % 2 }));
}

export const cellText = (col: Column, row: Row) => {
  const v = row[col.key];
  if (col.format) return col.format(v, row);
  return v == null ? '' : String(v);
};

/** Keeps a saved column order valid for the current columns. */
export function mergeOrder(saved: string[] | null, keys: string[]): string[] {
  if (!saved) return keys;
  const kept = saved.filter((k) => keys.includes(k));
  return [...kept, ...keys.filter((k) => !kept.includes(k))];
}
