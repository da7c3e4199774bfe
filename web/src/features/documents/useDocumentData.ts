import { useApolloClient, useQuery } from '@apollo/client';
import { useEffect, useMemo, useState } from 'react';
import type { Row } from '../../components/tables/types';
import { ResourceListDocument, ResourceMetaDocument } from '../../lib/resources/documents';
import { useCompanyId } from '../../lib/resources/useResourceData';
import type { DocumentRegister, ResourceMeta } from '../../lib/resources/metaFields';
import { lineWhere, type DocumentChild, type DocumentLine } from './documentMeta';

// The picker's source is shared with the other screens that pick products (the purchases' XML import).
export { PICKER_PAGE, usePickerLoad } from '../../lib/resources/pickerLoad';

/** Lines of one document shown at once (the gateway allows up to 6000 per call). */
export const LINE_LIMIT = 500;

/** One document's rows of one line or child register; skipped until the header exists. */
export function useLines(
  meta: DocumentRegister,
  line: Pick<DocumentLine | DocumentChild, 'resource' | 'parent'>,
  header: Row | null,
) {
  const emp = useCompanyId();
  const where = header ? lineWhere(line, meta, header) : null;
  const { data, loading, error } = useQuery(ResourceListDocument, {
    skip: !where,
    variables: { name: line.resource, emp, input: { page: 1, limit: LINE_LIMIT, where } },
    fetchPolicy: 'network-only',
    notifyOnNetworkStatusChange: true,
  });
  const rows = useMemo(() => (data?.resourceList.rows ?? []) as Row[], [data]);
  return { rows, loading: loading && !data, error };
}

/**
 * A child register's metadata: from resourceMetas when it has a screen of its own, else read
 * by its name (resourceMetas leaves out the registers without a screen, as the instalments).
 */
export function useChildMeta(child: DocumentChild, metas: ResourceMeta[]) {
  const listed = metas.find((m) => m.name === child.resource);
  const { data, loading, error } = useQuery(ResourceMetaDocument, {
    skip: listed !== undefined,
    variables: { name: child.resource },
    fetchPolicy: 'cache-first',
  });
  const childMeta = listed ?? (data?.resourceMeta as ResourceMeta | undefined);
  return { childMeta, loading: loading && !childMeta, error: childMeta ? undefined : error };
}

/** Product descriptions for lines that hold only the product id (transfers, requisitions). */
export function useProductTexts(ids: unknown[]): Record<string, string> {
  const client = useApolloClient();
  const emp = useCompanyId();
  const [texts, setTexts] = useState<Record<string, string>>({});
  const wanted = useMemo(
    () => JSON.stringify([...new Set(ids.filter((v) => v != null && v !== '').map(String))].sort()),
    [ids],
  );
  useEffect(() => {
    const list = JSON.parse(wanted) as string[];
    if (list.length === 0) return;
    let live = true;
    client
      .query({
        query: ResourceListDocument,
        variables: {
          name: 'estoqueprodutos',
          emp,
          input: { page: 1, limit: list.length, where: { PROD_ID: list.map(Number) } },
        },
        fetchPolicy: 'cache-first',
      })
      .then(
        ({ data }) => {
          if (!live) return;
          const found = (data?.resourceList.rows ?? []) as Row[];
          setTexts((t) => ({
            ...t,
            ...Object.fromEntries(found.map((r) => [String(r.PROD_ID), String(r.PROD_DESCRICAO ?? '')])),
          }));
        },
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, [wanted, client, emp]);
  return texts;
}
