// Writes on the lines of a document. A document's totals (and a line's own price and total)
// are what the server computes from its lines, so every line write reads the shown header
// again before it resolves.
import { useApolloClient, useMutation } from '@apollo/client';
import { useCallback, useMemo } from 'react';
import type { SelectedItem } from '../../components/picker/pickerState';
import type { Row } from '../../components/tables/types';
import { ResourceCreateDocument, ResourceUpdateDocument } from '../../lib/resources/documents';
import { shownReads } from '../../lib/resources/recordCache';
import { useDeleteRecord } from '../../lib/resources/useDeleteRecord';
import { useCompanyId } from '../../lib/resources/useResourceData';
import { useUpdateRecord } from '../../lib/resources/useUpdateRecord';
import { lineId, lineWhere, num, type DocSpec, type LineSpec } from './specs';

/** The data a new line is created with: the parent's key, the item, the quantity and its price. */
export function newLineData(spec: DocSpec, line: LineSpec, header: Row, item: SelectedItem): Record<string, unknown> {
  return {
    ...lineWhere(line, spec, header),
    [line.item]: item.id,
    [line.qty]: item.quantity,
    ...(line.price ? { [line.price]: item.monetary } : {}),
  };
}

/**
 * Adds picked items to one line register of a document: an item picked in a group that is
 * already on a line adds to that line's quantity (when quantities are editable), any other
 * becomes a new line. The writes go one by one; then the shown lines and header are fetched
 * again once, whether all of them went through or one was refused.
 */
export function useAddLines(spec: DocSpec, line: LineSpec) {
  const client = useApolloClient();
  const emp = useCompanyId();
  const [create] = useMutation(ResourceCreateDocument);
  const [update] = useMutation(ResourceUpdateDocument);
  return useCallback(
    async (header: Row, lines: Row[], items: SelectedItem[]) => {
      try {
        for (const item of items) {
          const same = item.group ? lines.find((r) => String(r[line.item]) === String(item.id)) : undefined;
          if (same && line.editable.includes('qty')) {
            const data = { [line.qty]: num(same[line.qty]) + item.quantity };
            await update({ variables: { name: line.resource, emp, id: lineId(line, same), data } });
          } else {
            await create({ variables: { name: line.resource, emp, data: newLineData(spec, line, header, item) } });
          }
        }
      } finally {
        const reads = shownReads(client, [line.resource, spec.resource]);
        await Promise.all(reads.map((read) => client.query({ ...read, fetchPolicy: 'network-only' }))).catch(
          () => undefined,
        );
      }
    },
    [client, emp, create, update, spec, line],
  );
}

/** Changes one cell (quantity, discount) of a line; the answered line replaces it in the cache. */
export function useEditLine(spec: DocSpec, line: LineSpec) {
  const recomputes = useMemo(() => [spec.resource], [spec.resource]);
  const { update } = useUpdateRecord(line.resource, line.key, { recomputes });
  return useCallback(
    (row: Row, column: string, value: number) => update(lineId(line, row), { [column]: value }),
    [update, line],
  );
}

/** Deletes a line; it leaves the cached lines at once. */
export function useDeleteLine(spec: DocSpec, line: LineSpec) {
  const recomputes = useMemo(() => [spec.resource], [spec.resource]);
  const { remove } = useDeleteRecord(line.resource, line.key, { recomputes });
  return useCallback((row: Row) => remove(lineId(line, row)), [remove, line]);
}
