import type { ReactNode } from 'react';
import { MSG } from '../../lib/messages';
import { cellText, type Column, type Row } from './types';

interface Props {
  columns: Column[];
  rows: Row[];
  titleKey?: string;
  actions?: (row: Row) => ReactNode;
  rowKey: (row: Row, index: number) => string;
  emptyText?: string;
}

/** Mobile list: one card per row, the label column as its title. */
export function CardList({ columns, rows, titleKey, actions, rowKey, emptyText = MSG.tableEmpty }: Props) {
  if (rows.length === 0) return <p className="py-6 text-center text-sm text-slate-500">{emptyText}</p>;
  const title = columns.find((c) => c.key === titleKey) ?? columns[0];
  const rest = columns.filter((c) => c !== title);
  return (
    <ul className="space-y-2">
      {rows.map((row, i) => (
        <li key={rowKey(row, i)} className="rounded border-l-4 border-accent bg-white p-3 shadow-sm">
          <div className="flex items-start justify-between gap-2">
            <p className="font-medium text-slate-800">{title ? cellText(title, row) : ''}</p>
            {actions && <div className="flex shrink-0 gap-1">{actions(row)}</div>}
          </div>
          <dl className="mt-1 grid grid-cols-2 gap-x-3 gap-y-0.5 text-xs">
            {rest.map((c) => (
              <div key={c.key} className="contents">
                <dt className="text-slate-500">{c.label}</dt>
                <dd className="truncate text-slate-700">{cellText(c, row)}</dd>
              </div>
            ))}
          </dl>
        </li>
      ))}
    </ul>
  );
}
