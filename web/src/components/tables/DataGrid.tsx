import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useSensor,
  useSensors,
  type DragEndEvent,
} from '@dnd-kit/core';
import {
  SortableContext,
  arrayMove,
  horizontalListSortingStrategy,
  sortableKeyboardCoordinates,
  useSortable,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useMemo, useState, type ReactNode } from 'react';
import { MSG } from '../../lib/messages';
import { CellContent } from './CellContent';
import { valueOf } from '../../lib/api';
import { mergeOrder, withOrdem, type Column, type Row, type RowSelect, type RowTone, type SortState } from './types';

interface Props<T extends object> {
  columns: Column<T>[];
  rows: T[];
  sort?: SortState | null;
  onSort?: (key: string) => void;
  /** Column order is kept per grid under this key. */
  storageKey?: string;
  actions?: (row: T) => ReactNode;
  rowKey: (row: T, index: number) => string;
  emptyText?: string;
  /** A checkbox per row (and one in the header when the selection allows it). */
  select?: RowSelect<T>;
  /** Rows shown apart (an overdue title). */
  tone?: (row: T) => RowTone | undefined;
}

/** The background of a row: its tone, else the ORDEM stripe. */
const rowBackground = (row: object, tone: RowTone | undefined) =>
  tone === 'danger' ? 'bg-red-50 text-red-800' : valueOf(row, 'ORDEM') === 1 ? 'bg-slate-50' : 'bg-white';

function HeaderCell<T extends object>({
  col,
  sort,
  onSort,
}: {
  col: Column<T>;
  sort?: SortState | null;
  onSort?: (k: string) => void;
}) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id: col.key });
  const active = sort?.key === col.key;
  return (
    <th
      ref={setNodeRef}
      scope="col"
      aria-sort={active ? (sort?.dir === 'ASC' ? 'ascending' : 'descending') : 'none'}
      style={{ transform: CSS.Translate.toString(transform), transition, opacity: isDragging ? 0.6 : 1 }}
      className={`select-none whitespace-nowrap bg-primary px-2.5 py-2 text-xs font-semibold uppercase text-white ${col.align === 'right' ? 'text-right' : 'text-left'}`}
      {...attributes}
      {...listeners}
      // The sortable attributes make it a button; it stays a column header for readers.
      role="columnheader"
    >
      <button type="button" className="inline-flex items-center gap-1 uppercase" onClick={() => onSort?.(col.key)}>
        {col.label}
        {active && <span aria-hidden="true">{sort?.dir === 'ASC' ? '▲' : '▼'}</span>}
      </button>
    </th>
  );
}

function loadOrder(key?: string): string[] | null {
  if (!key) return null;
  try {
    return JSON.parse(localStorage.getItem(`colunas:${key}`) ?? 'null') as string[] | null;
  } catch {
    return null;
  }
}

/** Desktop grid: sortable headers that can be reordered by drag and drop, ORDEM striping. */
export function DataGrid<T extends object = Row>({
  columns,
  rows,
  sort,
  onSort,
  storageKey,
  actions,
  rowKey,
  emptyText = MSG.tableEmpty,
  select,
  tone,
}: Props<T>) {
  const keys = useMemo(() => columns.map((c) => c.key), [columns]);
  const [saved, setSaved] = useState<string[] | null>(() => loadOrder(storageKey));
  const order = mergeOrder(saved, keys);
  const byKey = new Map(columns.map((c) => [c.key, c]));
  const ordered = order.map((k) => byKey.get(k)).filter((c): c is Column<T> => Boolean(c));
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const next = arrayMove(order, order.indexOf(String(active.id)), order.indexOf(String(over.id)));
    setSaved(next);
    if (storageKey) localStorage.setItem(`colunas:${storageKey}`, JSON.stringify(next));
  };
  const striped = withOrdem(rows);
  const pickable = select ? rows.filter((r) => select.canSelect?.(r) ?? true) : [];
  const allPicked = pickable.length > 0 && pickable.every((r) => select?.isSelected(r));
  const extra = (select ? 1 : 0) + (actions ? 1 : 0);
  return (
    // DndContext renders its screen-reader text in place, so it wraps the whole table.
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
      <div className="overflow-x-auto rounded border border-slate-200 bg-white">
        <table className="min-w-full text-sm">
          <thead>
            <SortableContext items={order} strategy={horizontalListSortingStrategy}>
              <tr>
                {select && (
                  <th scope="col" className="w-8 bg-primary px-2.5 py-2 text-white">
                    {select.onChangeAll && (
                      <input
                        type="checkbox"
                        aria-label="Selecionar todos"
                        className="h-4 w-4 accent-secondary"
                        disabled={pickable.length === 0}
                        checked={allPicked}
                        onChange={(e) => select.onChangeAll?.(pickable, e.target.checked)}
                      />
                    )}
                  </th>
                )}
                {ordered.map((c) => (
                  <HeaderCell key={c.key} col={c} sort={sort} onSort={onSort} />
                ))}
                {actions && (
                  // Pinned to the right edge: a wide list still shows its actions without scrolling.
                  <th className="sticky right-0 bg-primary px-3 py-2 text-right text-xs font-semibold uppercase text-white">
                    Ações
                  </th>
                )}
              </tr>
            </SortableContext>
          </thead>
          <tbody>
            {striped.length === 0 ? (
              <tr>
                <td colSpan={ordered.length + extra} className="px-3 py-6 text-center text-slate-500">
                  {emptyText}
                </td>
              </tr>
            ) : (
              striped.map((row, i) => {
                const rowTone = tone?.(row);
                const background = rowBackground(row, rowTone);
                return (
                  <tr key={rowKey(row, i)} className={background} data-tone={rowTone}>
                    {select && (
                      <td className="px-2.5 py-1.5">
                        {/* The row as given, without its ORDEM stripe. */}
                        <input
                          type="checkbox"
                          aria-label={select.label(rows[i])}
                          className="h-4 w-4 accent-secondary"
                          disabled={!(select.canSelect?.(rows[i]) ?? true)}
                          checked={select.isSelected(rows[i])}
                          onChange={(e) => select.onChange(rows[i], e.target.checked)}
                        />
                      </td>
                    )}
                    {ordered.map((c) => (
                      <td
                        key={c.key}
                        className={`px-2.5 py-1.5 ${c.align === 'right' ? 'text-right' : ''} ${c.nowrap ? 'whitespace-nowrap' : ''}`}
                      >
                        <CellContent column={c} row={row} />
                      </td>
                    ))}
                    {actions && (
                      <td
                        className={`sticky right-0 whitespace-nowrap px-3 py-1 text-right shadow-[-4px_0_4px_-4px_rgba(0,0,0,0.15)] ${background}`}
                      >
                        {actions(row)}
                      </td>
                    )}
                  </tr>
                );
              })
            )}
          </tbody>
        </table>
      </div>
    </DndContext>
  );
}
