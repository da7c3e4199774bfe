// How a document screen reads its register metadata (ResourceMeta.document): the header's key,
// the lines of each line register and the header field that locks them, the other registers
// whose rows belong to it (children), the status (its badge, and whether it makes a document
// read-only), and the header fields shown apart from the form.
import { valueOf, type AnyRow, type ListWhere } from '../../lib/api';
import { isTrue, type DocumentRegister } from '../../lib/resources/metaFields';
import { idOf } from '../../lib/resources/recordCache';

export type DocumentMeta = DocumentRegister['document'];
export type DocumentLine = DocumentMeta['lines'][number];
/** A register whose rows belong to the document without being lines (instalments, freight...). */
export type DocumentChild = DocumentMeta['children'][number];
/** What a line lets the user edit in place (DocumentLine.editable). */
export type LineRole = 'qty' | 'discount' | 'price';

/** The header's id as the gateway takes it: the key value, or an object of the key columns. */
export const headerId = (meta: DocumentRegister, row: AnyRow): unknown => idOf(meta.document.key, row);

/**
 * The conditions that list one document's rows of a line or child register: the register's
 * parent columns, in header key order, with the header's key values.
 */
export function lineWhere(
  part: Pick<DocumentLine | DocumentChild, 'parent'>,
  meta: DocumentRegister,
  header: AnyRow,
): ListWhere {
  return Object.fromEntries(part.parent.map((col, i) => [col, valueOf(header, meta.document.key[i])]));
}

/** A line's id: its key column, or an object of its key columns. */
export const lineId = (line: DocumentLine, row: AnyRow): unknown => idOf(line.key, row);

/** The column shown as 'Item': the line's sequence, else the last key column. */
export const seqOf = (line: DocumentLine): string => line.seq ?? line.key[line.key.length - 1];

/** The line's column of a role the user may edit, when the line has it and declares it editable. */
export function editableColumn(line: DocumentLine, role: LineRole): string | null {
  const column = line[role];
  return column && line.editable.includes(role) ? column : null;
}

export const num = (v: unknown): number => {
  if (v == null || v === '') return 0;
  const n = typeof v === 'number' ? v : Number(String(v));
  return Number.isNaN(n) ? 0 : n;
};

/** The status code of a document ('' when the document has no status or no record yet). */
export const statusOf = (meta: DocumentRegister, row: AnyRow | null): string =>
  meta.document.status && row ? String(valueOf(row, meta.document.status.field) ?? '') : '';

type StatusLabel = NonNullable<DocumentMeta['status']>['labels'][number];

/**
 * The status code's label: its text ('Aberto', 'Faturado'...) and its badge's tone; the code
 * itself, neutral, when the metadata has none.
 */
export const statusLabel = (meta: DocumentRegister, code: string): StatusLabel =>
  meta.document.status?.labels.find((l) => l.value === code) ?? { value: code, text: code, tone: null };

/** The status code's text. */
export const statusText = (meta: DocumentRegister, code: string): string => statusLabel(meta, code).text;

/** A saved document whose status is not among those that accept changes is read-only. */
export const isReadOnly = (meta: DocumentRegister, row: AnyRow | null): boolean =>
  !!meta.document.status && !!row && !meta.document.status.open.includes(statusOf(meta, row));

/** Header fields the form leaves out: the totals and the status are shown apart. */
export const hiddenFields = (meta: DocumentRegister): Set<string> =>
  new Set([...meta.document.totals.map((t) => t.name), ...(meta.document.status ? [meta.document.status.field] : [])]);

/** The header field that locks this line register (DocumentLine.lockedBy), when it is true. */
export const lineLock = (line: DocumentLine, header: AnyRow): string | null =>
  line.lockedBy && isTrue(valueOf(header, line.lockedBy)) ? line.lockedBy : null;
