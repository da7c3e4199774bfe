import { useQuery } from '@apollo/client';
import { useEffect, useMemo, useState } from 'react';
import { useReadRows, useRows, type AnyRow } from '../../lib/api';
import { ResourceMetaDocument } from '../../lib/resources/documents';
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
  header: AnyRow | null,
) {
  const where = header ? lineWhere(line, meta, header) : null;
  const { rows, data, loading, error } = useRows(line.resource, where && { page: 1, limit: LINE_LIMIT, where }, {
    fetchPolicy: 'network-only',
    notifyOnNetworkStatusChange: true,
  });
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

/** The register of the products with their stock (the picker's). */
const PRODUCTS = 'estoqueprodutos';

/** Product descriptions for lines that hold only the product id (transfers, requisitions). */
export function useProductTexts(ids: unknown[]): Record<string, string> {
  const readRows = useReadRows();
  const [texts, setTexts] = useState<Record<string, string>>({});
  const wanted = useMemo(
    () => JSON.stringify([...new Set(ids.filter((v) => v != null && v !== '').map(String))].sort()),
    [ids],
  );
  useEffect(() => {
    const list = JSON.parse(wanted) as string[];
    if (list.length === 0) return;
    let live = true;
    readRows(PRODUCTS, { page: 1, limit: list.length, where: { PROD_ID: list.map(Number) } }).then(
      (found) => {
        if (!live) return;
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
  }, [wanted, readRows]);
  return texts;
}
