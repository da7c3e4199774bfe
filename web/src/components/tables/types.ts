export type Row = Record<string, unknown>;

export interface Column {
  key: string;
  label: string;
  format?: (value: unknown, row: Row) => string;
  align?: 'left' | 'right';
  /** Kept on one line (documents, phones, dates, amounts). */
  nowrap?: boolean;
}

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
