import type { ReactNode } from 'react';
import { MSG } from '../../lib/messages';
import { CellContent } from './CellContent';
import { cellText, type Column, type Row, type RowSelect, type RowTone } from './types';

interface Props<T extends object> {
  columns: Column<T>[];
  rows: T[];
  titleKey?: string;
  actions?: (row: T) => ReactNode;
  rowKey: (row: T, index: number) => string;
  emptyText?: string;
  /** A checkbox on each card. */
  select?: RowSelect<T>;
  /** Cards shown apart (an overdue title). */
  tone?: (row: T) => RowTone | undefined;
}

/** Mobile list: one card per row, the label column as its title. */
export function CardList<T extends object = Row>({
  columns,
  rows,
  titleKey,
  actions,
  rowKey,
  emptyText = MSG.tableEmpty,
  select,
  tone,
}: Props<T>) {
  if (rows.length === 0) return <p className="py-6 text-center text-sm text-slate-500">{emptyText}</p>;
  const title = columns.find((c) => c.key === titleKey) ?? columns[0];
  const rest = columns.filter((c) => c !== title);
  return (
    <ul className="space-y-2">
      {rows.map((row, i) => {
        const rowTone = tone?.(row);
        return (
          <li
            key={rowKey(row, i)}
            data-tone={rowTone}
            className={`rounded border-l-4 p-3 shadow-sm ${rowTone === 'danger' ? 'border-error bg-red-50' : 'border-accent bg-white'}`}
          >
            <div className="flex items-start justify-between gap-2">
              <div className="flex min-w-0 items-start gap-2">
                {select && (
                  <input
                    type="checkbox"
                    aria-label={select.label(row)}
                    className="mt-1 h-4 w-4 shrink-0 accent-secondary"
                    disabled={!(select.canSelect?.(row) ?? true)}
                    checked={select.isSelected(row)}
                    onChange={(e) => select.onChange(row, e.target.checked)}
                  />
                )}
                <p className="font-medium text-slate-800">{title ? cellText(title, row) : ''}</p>
              </div>
              {actions && <div className="flex shrink-0 gap-1">{actions(row)}</div>}
            </div>
            <dl className="mt-1 grid grid-cols-2 gap-x-3 gap-y-0.5 text-xs">
              {rest.map((c) => (
                <div key={c.key} className="contents">
                  <dt className="text-slate-500">{c.label}</dt>
                  <dd className={`truncate ${rowTone === 'danger' ? 'text-red-800' : 'text-slate-700'}`}>
                    <CellContent column={c} row={row} />
                  </dd>
                </div>
              ))}
            </dl>
          </li>
        );
      })}
    </ul>
  );
}
