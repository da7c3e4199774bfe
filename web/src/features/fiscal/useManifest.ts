// The NF-e manifest list's calls that its metadata cannot declare as buttons (legacy REST
// paths): the distribution and the XML upload. Each evicts the manifest's cached pages, so the
// list on screen is read again.
import { useApolloClient } from '@apollo/client';
import { useCallback } from 'react';
import { postFile, RestError } from '../../lib/rest';
import { requestJson } from '../../lib/restForms';
import { evictPages } from '../../lib/resources/recordCache';
import { useCompanyId } from '../../lib/resources/useResourceData';
import {
  answerMessage,
  DISTRIBUTION_TIMEOUT_MS,
  distributionNotice,
  distributionPath,
  MANIFEST,
  uploadPath,
  type DistributionNotice,
} from './manifest';

/** The list's calls: fetch from the SEFAZ, send an XML. Both read the list again. */
export function useManifestList() {
  const client = useApolloClient();
  const emp = useCompanyId();
  const guarded = useCallback(
    async <T>(work: () => Promise<T>): Promise<T> => {
      try {
        const done = await work();
        evictPages(client.cache, [{ name: MANIFEST, emp }]);
        return done;
      } catch (e) {
        if (e instanceof RestError && e.status === 401) void client.clearStore();
        throw e;
      }
    },
    [client, emp],
  );
  const distribute = useCallback(
    (): Promise<DistributionNotice> =>
      guarded(async () =>
        distributionNotice(await requestJson(distributionPath(emp), { json: {}, timeoutMs: DISTRIBUTION_TIMEOUT_MS })),
      ),
    [guarded, emp],
  );
  const upload = useCallback(
    (file: File): Promise<string> =>
      guarded(async () => answerMessage(await postFile(uploadPath, file), 'NF-e incluída no manifesto.')),
    [guarded],
  );
  return { distribute, upload };
}
