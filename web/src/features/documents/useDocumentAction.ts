import { useApolloClient, useMutation } from '@apollo/client';
import { useCallback } from 'react';
import type { Row } from '../../components/tables/types';
import { evictPages, shownReads } from '../../lib/resources/recordCache';
import { useCompanyId } from '../../lib/resources/useResourceData';
import type { DocActionDef } from './actions';
import { ResourceActionDocument } from './documents';
import type { DocSpec } from './specs';

/**
 * Runs one of a document's declared calls (invoice, convert, totalize...) with the company
 * filled in, and says where its answer leads (`next`: another document's screen, or null).
 * The call changes the document on the server, so the header register's cached pages are
 * evicted; when the screen stays, its header and lines are fetched again before the call
 * resolves, because their situation, totals and lines are what the server computed.
 */
export function useDocumentAction(spec: DocSpec) {
  const client = useApolloClient();
  const emp = useCompanyId();
  const [run, { loading }] = useMutation(ResourceActionDocument);
  const call = useCallback(
    async (def: DocActionDef, body?: Record<string, unknown>) => {
      const nextOf = (answer: Row | undefined) => (answer && def.next?.(answer)) || null;
      const { data } = await run({
        variables: {
          name: def.resource,
          action: def.action,
          params: { emp, ...def.params },
          ...(body ? { body } : {}),
        },
        update: (cache) => evictPages(cache, [{ name: spec.resource, emp }]),
        refetchQueries: ({ data: result }) =>
          nextOf(result?.resourceAction)
            ? []
            : shownReads(client, [spec.resource, ...spec.lines.map((l) => l.resource)]),
        awaitRefetchQueries: true,
      });
      const answer = (data?.resourceAction ?? {}) as Row;
      return { answer, next: nextOf(answer) };
    },
    [run, client, emp, spec],
  );
  return { call, loading };
}
