import { useApolloClient, useMutation } from '@apollo/client';
import { useCallback } from 'react';
import { reading, type AnyRow, type ColumnValues } from '../../lib/api';
import type { FetchedFile } from '../../lib/rest';
import type { DocumentRegister, ResourceMeta } from '../../lib/resources/metaFields';
import { evictPages, shownReads } from '../../lib/resources/recordCache';
import { useCompanyId } from '../../lib/resources/useResourceData';
import { useSession } from '../../lib/session';
import { requestFile } from '../../lib/restForms';
import { actionBody, actionParams, actionPath, openedHref, type ActionMeta } from './actions';
import { ResourceActionDocument } from '../../lib/resources/documents';

/**
 * Runs one of a document's buttons (ResourceMeta.actions) on the record on screen: its path
 * parameters and body come from the metadata, the company and the signed-in user; `asked` is
 * what its dialog asked. It says where the answer leads (`next`: the edit screen of the
 * register the button opens, or null to stay).
 * The call changes the document on the server, so the header register's cached pages (and
 * those of the register it opens) are evicted; when the screen stays, its header and lines
 * are fetched again before the call resolves, because their status, totals and lines are what
 * the server computed.
 */
export function useDocumentAction(meta: DocumentRegister, metas: ResourceMeta[]) {
  const client = useApolloClient();
  const emp = useCompanyId();
  const userId = useSession()?.user.id ?? 0;
  const [run, { loading }] = useMutation(ResourceActionDocument);
  const call = useCallback(
    async (action: ActionMeta, record: AnyRow, asked?: ColumnValues) => {
      const ctx = { record, emp, userId };
      const body = actionBody(action, ctx, asked);
      const nextOf = (answer: unknown) => openedHref(action, metas, answer);
      const evicted = [meta.name, ...(action.opens && action.opens !== meta.name ? [action.opens] : [])];
      const { data } = await run({
        variables: {
          name: meta.name,
          action: action.name,
          params: actionParams(action, ctx),
          ...(body ? { body } : {}),
        },
        update: (cache) =>
          evictPages(
            cache,
            evicted.map((name) => ({ name, emp })),
          ),
        refetchQueries: ({ data: result }) =>
          nextOf(result?.resourceAction)
            ? []
            : shownReads(client, [meta.name, ...meta.document.lines.map((l) => l.resource)]),
        awaitRefetchQueries: true,
      });
      // Any call of the metadata's: its answer (the row it leads to, a message) is read, not typed.
      const answer = data?.resourceAction;
      return { answer, msg: reading<'msg'>(answer).msg, next: nextOf(answer) };
    },
    [run, client, emp, userId, meta, metas],
  );

  /**
   * A download button (ActionMeta.download): its legacy REST path, method and body as for any
   * button, answering the file the browser is to save (under the name the server gives it).
   * Fetching it may have completed the document on the server (the NF-e manifest keeps the
   * whole XML once it came), so the shown header is read again, without waiting for it.
   */
  const download = useCallback(
    async (action: ActionMeta, record: AnyRow, asked?: ColumnValues): Promise<FetchedFile> => {
      const ctx = { record, emp, userId };
      const file = await requestFile(actionPath(action, ctx), {
        method: action.method,
        json: actionBody(action, ctx, asked) ?? {},
        fallbackName: `${meta.name}-${action.name}`,
      });
      for (const read of shownReads(client, [meta.name])) {
        client.query({ ...read, fetchPolicy: 'network-only' }).catch(() => undefined);
      }
      return file;
    },
    [client, emp, userId, meta],
  );
  return { call, download, loading };
}
