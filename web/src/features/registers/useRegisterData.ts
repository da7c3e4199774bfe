import { useApolloClient, useQuery } from '@apollo/client';
import { useCallback } from 'react';
import type { FieldOption, OptionSearch } from '../../components/fields/types';
import { useSession } from '../../lib/session';
import { ResourceListDocument, ResourceMetasDocument } from './documents';
import type { ResourceMeta } from './metaFields';

export function useResourceMetas() {
  const { data, loading, error } = useQuery(ResourceMetasDocument, { fetchPolicy: 'cache-first' });
  return { metas: (data?.resourceMetas ?? []) as ResourceMeta[], loading: loading && !data, error };
}

/** Company the register calls address (the session's company; 1 is the legacy default). */
export function useCompanyId(): number {
  return useSession()?.company.id ?? 1;
}

/** Combo searches ask the referenced register for 20 rows (spec §7.1, autocomplete LIMIT 20). */
export const OPTION_LIMIT = 20;

export function useOptionSearch(metas: ResourceMeta[]): OptionSearch {
  const client = useApolloClient();
  const emp = useCompanyId();
  return useCallback(
    async (reference: string, filter: string): Promise<FieldOption[]> => {
      const meta = metas.find((m) => m.name === reference);
      const { data } = await client.query({
        query: ResourceListDocument,
        variables: { name: reference, emp, input: { filter: filter || null, limit: OPTION_LIMIT, page: 1 } },
        fetchPolicy: 'network-only',
      });
      const valueKey = meta?.key[0];
      const textKey = meta?.labelField;
      return (data?.resourceList.rows ?? []).map((r) => {
        const value = String(valueKey ? r[valueKey] : (r.id ?? ''));
        const text = textKey ? String(r[textKey] ?? '') : String(r.text ?? value);
        return { value, text: text ? `${value} - ${text}` : value };
      });
    },
    [client, emp, metas],
  );
}
