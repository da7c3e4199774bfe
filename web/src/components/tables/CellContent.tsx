import { valueOf } from '../../lib/api';
import { badgeClass, cellText, type Column } from './types';

/** A cell's text; a badge of its tone when the column shows one (Column.tone), an empty cell aside. */
export function CellContent<T extends object>({ column, row }: { column: Column<T>; row: T }) {
  const text = cellText(column, row);
  if (!column.tone || !text) return <>{text}</>;
  return <span className={badgeClass(column.tone(valueOf(row, column.key), row))}>{text}</span>;
}
