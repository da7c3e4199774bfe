// Writes on the rows of a document's child register (instalments, freight, apportionment).
// Unlike a line, a child row leaves the header's totals alone, so each write only keeps its
// own register's cached reads in step: a created row evicts the register's pages (the table
// on screen is read again), a changed one replaces its fields, a deleted one leaves them.
import { useCallback } from 'react';
import type { FormValues } from '../../components/fields/types';
import { useCreateRow, useUpdateRow, valueOf, type AnyRow, type ColumnValues } from '../../lib/api';
import { recordId, valuesToRow, type DocumentRegister, type ResourceMeta } from '../../lib/resources/metaFields';
import { useDeleteRecord } from '../../lib/resources/useDeleteRecord';
import { lineWhere, type DocumentChild } from './documentMeta';

/**
 * The body a child row is written with: the fields the user edits (as the API takes them)
 * and the parent fields, which always name the shown document.
 */
export function childRowData(
  childMeta: ResourceMeta,
  child: DocumentChild,
  meta: DocumentRegister,
  header: AnyRow,
  values: FormValues,
): ColumnValues {
  const row = valuesToRow(childMeta, values);
  const edited = childMeta.fields.filter((f) => f.editable && !child.parent.includes(f.name));
  return {
    ...Object.fromEntries(edited.map((f) => [f.name, valueOf(row, f.name)])),
    ...lineWhere(child, meta, header),
  };
}

/** Creates, changes and deletes the rows of one child register of a document. */
export function useChildWrites(meta: DocumentRegister, child: DocumentChild, childMeta: ResourceMeta) {
  const { create, loading: creating } = useCreateRow(child.resource);
  const { update, loading: updating } = useUpdateRow(child.resource, childMeta.key);
  const { remove, loading: removing } = useDeleteRecord(child.resource, childMeta.key);

  const add = useCallback(
    (header: AnyRow, values: FormValues) => create(childRowData(childMeta, child, meta, header, values)),
    [create, childMeta, child, meta],
  );
  const edit = useCallback(
    (header: AnyRow, row: AnyRow, values: FormValues) =>
      update(recordId(childMeta, row), childRowData(childMeta, child, meta, header, values)),
    [update, childMeta, child, meta],
  );
  const drop = useCallback((row: AnyRow) => remove(recordId(childMeta, row)), [remove, childMeta]);

  return { add, edit, drop, busy: creating || updating || removing };
}
