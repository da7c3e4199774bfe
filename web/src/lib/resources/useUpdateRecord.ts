import { useApolloClient, useMutation } from '@apollo/client';
import { useCallback } from 'react';
import type { Row } from '../../components/tables/types';
import { ResourceUpdateDocument } from './documents';
import { mergeRecord, shownReads } from './recordCache';
import { useCompanyId } from './useResourceData';

const NONE: readonly string[] = [];

export interface RecordWriteOptions {
  /**
   * Registers whose rows the server recomputes after this write (a document's header totals
   * after a line changes): their reads on screen are fetched again before the write resolves.
   */
  recomputes?: readonly string[];
}

/**
 * resourceUpdate on one register (`key`: its key columns). The row the server answers, as it
 * stored it, replaces the record's fields in the cached pages and in its cached record.
 */
export function useUpdateRecord(name: string, key: readonly string[], { recomputes = NONE }: RecordWriteOptions = {}) {
  const client = useApolloClient();
  const emp = useCompanyId();
  const [run, { loading }] = useMutation(ResourceUpdateDocument);
  const update = useCallback(
    async (id: unknown, data: Row): Promise<Row> => {
      const { data: result } = await run({
        variables: { name, emp, id, data },
        update: (cache, { data: answer }) => {
          if (answer) mergeRecord(cache, { name, emp }, key, id, answer.resourceUpdate);
        },
        refetchQueries: () => shownReads(client, recomputes),
        awaitRefetchQueries: true,
      });
      return (result?.resourceUpdate ?? {}) as Row;
    },
    [run, client, name, emp, key, recomputes],
  );
  return { update, loading };
}
