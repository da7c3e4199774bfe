import { useMutation } from '@apollo/client';
import { useCallback } from 'react';
import type { Row } from '../../components/tables/types';
import { ResourceCreateDocument } from './documents';
import { evictPages } from './recordCache';
import { useCompanyId } from './useResourceData';

/**
 * resourceCreate on one register. Where the new row lands (order, filter, page) is the
 * server's call, so the register's cached pages are evicted: a page on screen is read again,
 * the others when next shown.
 */
export function useCreateRecord(name: string) {
  const emp = useCompanyId();
  const [run, { loading }] = useMutation(ResourceCreateDocument);
  const create = useCallback(
    async (data: Row): Promise<Row> => {
      const { data: result } = await run({
        variables: { name, emp, data },
        update: (cache) => evictPages(cache, [{ name, emp }]),
      });
      return (result?.resourceCreate ?? {}) as Row;
    },
    [run, name, emp],
  );
  return { create, loading };
}
