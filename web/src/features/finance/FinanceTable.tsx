import type { ReactNode } from 'react';
import { MSG } from '../../lib/messages';

export interface TableColumn<T> {
  key: string;
  label: string;
  align?: 'left' | 'right';
  nowrap?: boolean;
  render: (row: T) => ReactNode;
}

interface Props<T> {
  /** The table's accessible name. */
  label: string;
  columns: TableColumn<T>[];
  rows: T[];
  rowKey: (row: T, index: number) => string;
  /** Cells of a totals row, by column key. */
  totals?: Record<string, ReactNode>;
  /** Per row: a button cell at the end, and whether the row is the chosen one. */
  actions?: (row: T) => ReactNode;
  chosen?: (row: T) => boolean;
  emptyText?: string;
  testId?: string;
}

const th = 'whitespace-nowrap bg-primary px-2 py-1.5 text-xs font-semibold uppercase text-white';
const td = 'px-2 py-1.5 align-top';

/** A fixed table of a call's answer (no sorting, no column moving), with an optional totals row. */
export function FinanceTable<T>({
  label,
  columns,
  rows,
  rowKey,
  totals,
  actions,
  chosen,
  emptyText = MSG.tableEmpty,
  testId,
}: Props<T>) {
  const align = (c: TableColumn<T>) => (c.align === 'right' ? 'text-right' : 'text-left');
  return (
    <div className="overflow-x-auto rounded border border-slate-200">
      <table aria-label={label} data-testid={testId} className="min-w-full text-sm">
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col" className={`${th} ${align(c)}`}>
                {c.label}
              </th>
            ))}
            {actions && (
              <th scope="col" className={`${th} text-right`}>
                Ações
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length + (actions ? 1 : 0)} className="px-2 py-4 text-center text-slate-500">
                {emptyText}
              </td>
            </tr>
          ) : (
            rows.map((r, i) => {
              const picked = chosen?.(r) ?? false;
              return (
                <tr
                  key={rowKey(r, i)}
                  aria-selected={chosen ? picked : undefined}
                  className={picked ? 'bg-sky-100' : i % 2 ? 'bg-slate-50' : 'bg-white'}
                >
                  {columns.map((c) => (
                    <td key={c.key} className={`${td} ${align(c)} ${c.nowrap ? 'whitespace-nowrap' : ''}`}>
                      {c.render(r)}
                    </td>
                  ))}
                  {actions && <td className={`${td} whitespace-nowrap text-right`}>{actions(r)}</td>}
                </tr>
              );
            })
          )}
        </tbody>
        {totals && rows.length > 0 && (
          <tfoot>
            <tr className="border-t border-slate-300 font-semibold">
              {columns.map((c) => (
                <td key={c.key} className={`${td} ${align(c)} whitespace-nowrap`}>
                  {totals[c.key] ?? ''}
                </td>
              ))}
              {actions && <td />}
            </tr>
          </tfoot>
        )}
      </table>
    </div>
  );
}
