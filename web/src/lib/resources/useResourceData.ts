import { useApolloClient, useQuery } from '@apollo/client';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { FieldOption, OptionLookup, OptionSearch } from '../../components/fields/types';
import type { Row } from '../../components/tables/types';
import { useSession } from '../session';
import { ResourceGetDocument, ResourceListDocument, ResourceMetasDocument } from './documents';
import { listFields, type ReferenceTexts, type ResourceMeta } from './metaFields';

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

/** A referenced row as an option: the gateway's `id` and `text`, else the meta's key and label. */
export function rowOption(row: Row, meta: ResourceMeta | undefined): FieldOption {
  const rawValue = row.id ?? (meta ? row[meta.key[0]] : undefined);
  const value = rawValue == null ? '' : String(rawValue);
  const rawText = row.text ?? (meta ? row[meta.labelField] : undefined);
  const text = rawText == null || rawText === '' ? value : String(rawText);
  return { value, text };
}

export function useOptionSearch(metas: ResourceMeta[]): OptionSearch {
  const client = useApolloClient();
  const emp = useCompanyId();
  return useCallback(
    async (reference: string, filter: string, where?: Record<string, unknown> | null): Promise<FieldOption[]> => {
      const meta = metas.find((m) => m.name === reference);
      const { data } = await client.query({
        query: ResourceListDocument,
        variables: {
          name: reference,
          emp,
          input: { filter: filter || null, limit: OPTION_LIMIT, page: 1, ...(where ? { where } : {}) },
        },
        fetchPolicy: 'network-only',
      });
      return (data?.resourceList.rows ?? []).map((r) => rowOption(r as Row, meta));
    },
    [client, emp, metas],
  );
}

/** Reads one referenced row by its id, for the text of a stored value (cached per id). */
export function useOptionLookup(metas: ResourceMeta[]): OptionLookup {
  const client = useApolloClient();
  const emp = useCompanyId();
  return useCallback(
    async (reference: string, value: string): Promise<FieldOption | null> => {
      const meta = metas.find((m) => m.name === reference);
      const id = /^\d+$/.test(value) && value.length < 16 ? Number(value) : value;
      const { data } = await client.query({
        query: ResourceGetDocument,
        variables: { name: reference, emp, id },
        fetchPolicy: 'cache-first',
      });
      const row = data?.resourceGet as Row | null | undefined;
      return row ? { ...rowOption(row, meta), value } : null;
    },
    [client, emp, metas],
  );
}

/**
 * Texts of the referenced rows a list page shows (the rows hold ids only): one call per
 * referenced register, `where {KEY: [ids]}`; registers without a meta are read id by id.
 */
export function useReferenceTexts(meta: ResourceMeta, metas: ResourceMeta[], rows: Row[]): ReferenceTexts {
  const client = useApolloClient();
  const emp = useCompanyId();
  const lookup = useOptionLookup(metas);
  const [texts, setTexts] = useState<ReferenceTexts>({});
  const wanted = useMemo(() => {
    const ids: Record<string, string[]> = {};
    for (const f of listFields(meta)) {
      if (!f.reference) continue;
      const set = new Set(ids[f.reference]);
      for (const r of rows) {
        const v = r[f.name];
        for (const id of Array.isArray(v) ? v : [v]) if (id != null && id !== '') set.add(String(id));
      }
      if (set.size) ids[f.reference] = [...set].sort();
    }
    return JSON.stringify(ids);
  }, [meta, rows]);
  useEffect(() => {
    let live = true;
    const ids = JSON.parse(wanted) as Record<string, string[]>;
    for (const [reference, list] of Object.entries(ids)) {
      const target = metas.find((m) => m.name === reference);
      const load: Promise<FieldOption[]> =
        target && target.key.length === 1
          ? client
              .query({
                query: ResourceListDocument,
                variables: {
                  name: reference,
                  emp,
                  input: {
                    limit: list.length,
                    page: 1,
                    where: { [target.key[0]]: list.map((id) => (/^\d+$/.test(id) ? Number(id) : id)) },
                  },
                },
                fetchPolicy: 'cache-first',
              })
              .then(({ data }) => (data?.resourceList.rows ?? []).map((r) => rowOption(r as Row, target)))
          : Promise.all(list.map((id) => lookup(reference, id).catch(() => null))).then((found) =>
              found.filter((o): o is FieldOption => o !== null),
            );
      load.then(
        (options) => {
          if (!live || options.length === 0) return;
          setTexts((t) => ({
            ...t,
            [reference]: { ...t[reference], ...Object.fromEntries(options.map((o) => [o.value, o.text])) },
          }));
        },
        // The ids stay shown when the texts cannot be read.
        () => undefined,
      );
    }
    return () => {
      live = false;
    };
  }, [wanted, client, emp, metas, lookup]);
  return texts;
}
