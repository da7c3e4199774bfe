import { useApolloClient, useMutation } from '@apollo/client';
import { useCallback } from 'react';
import { ResourceDeleteDocument } from './documents';
import { removeRecord, shownReads } from './recordCache';
import type { RecordWriteOptions } from './useUpdateRecord';
import { useCompanyId } from './useResourceData';

const NONE: readonly string[] = [];

/**
 * resourceDelete on one register (`key`: its key columns). The row leaves the cached pages
 * that held it and its cached record is evicted; no page is fetched again for it.
 */
export function useDeleteRecord(name: string, key: readonly string[], { recomputes = NONE }: RecordWriteOptions = {}) {
  const client = useApolloClient();
  const emp = useCompanyId();
  const [run, { loading }] = useMutation(ResourceDeleteDocument);
  const remove = useCallback(
    async (id: unknown): Promise<void> => {
      await run({
        variables: { name, emp, id },
        update: (cache) => removeRecord(cache, { name, emp }, key, id),
        refetchQueries: () => shownReads(client, recomputes),
        awaitRefetchQueries: true,
      });
    },
    [run, client, name, emp, key, recomputes],
  );
  return { remove, loading };
}
