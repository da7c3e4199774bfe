import { badgeClass, cellText, type Column, type Row } from './types';

/** A cell's text; a badge of its tone when the column shows one (Column.tone), an empty cell aside. */
export function CellContent({ column, row }: { column: Column; row: Row }) {
  const text = cellText(column, row);
  if (!column.tone || !text) return <>{text}</>;
  return <span className={badgeClass(column.tone(row[column.key], row))}>{text}</span>;
}
