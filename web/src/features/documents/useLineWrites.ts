// Writes on the lines of a document. A document's totals (and a line's own price and total)
// are what the server computes from its lines, so every line write reads the shown header
// again before it resolves.
import { useApolloClient, useMutation } from '@apollo/client';
import { useCallback, useMemo } from 'react';
import type { SelectedItem } from '../../components/picker/pickerState';
import { useUpdateRow, valueOf, type AnyRow, type ColumnValues } from '../../lib/api';
import { ResourceCreateDocument, ResourceUpdateDocument } from '../../lib/resources/documents';
import { shownReads } from '../../lib/resources/recordCache';
import { useDeleteRecord } from '../../lib/resources/useDeleteRecord';
import { useCompanyId } from '../../lib/resources/useResourceData';
import type { DocumentRegister } from '../../lib/resources/metaFields';
import { editableColumn, lineId, lineWhere, num, type DocumentLine } from './documentMeta';

/** The data a new line is created with: the parent's key, the item, the quantity and its price. */
export function newLineData(
  meta: DocumentRegister,
  line: DocumentLine,
  header: AnyRow,
  item: SelectedItem,
): ColumnValues {
  return {
    ...lineWhere(line, meta, header),
    ...(line.item ? { [line.item]: item.id } : {}),
    ...(line.qty ? { [line.qty]: item.quantity } : {}),
    ...(line.price ? { [line.price]: item.monetary } : {}),
  };
}

/**
 * Adds picked items to one line register of a document: an item picked in a group that is
 * already on a line adds to that line's quantity (when quantities are editable), any other
 * becomes a new line. The writes go one by one; then the shown lines and header are fetched
 * again once, whether all of them went through or one was refused.
 */
export function useAddLines(meta: DocumentRegister, line: DocumentLine) {
  const client = useApolloClient();
  const emp = useCompanyId();
  const [create] = useMutation(ResourceCreateDocument);
  const [update] = useMutation(ResourceUpdateDocument);
  return useCallback(
    async (header: AnyRow, lines: AnyRow[], items: SelectedItem[]) => {
      try {
        const qty = editableColumn(line, 'qty');
        for (const item of items) {
          const same =
            item.group && line.item
              ? lines.find((r) => String(valueOf(r, line.item as string)) === String(item.id))
              : undefined;
          if (same && qty) {
            const data = { [qty]: num(valueOf(same, qty)) + item.quantity };
            await update({ variables: { name: line.resource, emp, id: lineId(line, same), data } });
          } else {
            await create({ variables: { name: line.resource, emp, data: newLineData(meta, line, header, item) } });
          }
        }
      } finally {
        const reads = shownReads(client, [line.resource, meta.name]);
        await Promise.all(reads.map((read) => client.query({ ...read, fetchPolicy: 'network-only' }))).catch(
          () => undefined,
        );
      }
    },
    [client, emp, create, update, meta, line],
  );
}

/** Changes one cell (quantity, discount, price) of a line; the answered line replaces it in the cache. */
export function useEditLine(meta: DocumentRegister, line: DocumentLine) {
  const recomputes = useMemo(() => [meta.name], [meta.name]);
  const { update } = useUpdateRow(line.resource, line.key, { recomputes });
  return useCallback(
    (row: AnyRow, column: string, value: number) => update(lineId(line, row), { [column]: value }),
    [update, line],
  );
}

/** Deletes a line; it leaves the cached lines at once. */
export function useDeleteLine(meta: DocumentRegister, line: DocumentLine) {
  const recomputes = useMemo(() => [meta.name], [meta.name]);
  const { remove } = useDeleteRecord(line.resource, line.key, { recomputes });
  return useCallback((row: AnyRow) => remove(lineId(line, row)), [remove, line]);
}
