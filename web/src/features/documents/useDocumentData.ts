import { useApolloClient, useQuery } from '@apollo/client';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { PickerPage } from '../../components/picker/ItemPicker';
import type { Row } from '../../components/tables/types';
import { ResourceListDocument } from '../../lib/resources/documents';
import { useCompanyId } from '../../lib/resources/useResourceData';
import type { DocumentRegister } from '../../lib/resources/metaFields';
import { lineWhere, num, type DocumentLine } from './documentMeta';

/** Lines of one document shown at once (the gateway allows up to 6000 per call). */
export const LINE_LIMIT = 500;
/** The picker's page size (spec §9: services LIMIT 20). */
export const PICKER_PAGE = 20;

/** One document's lines of one register; skipped until the header exists. */
export function useLines(meta: DocumentRegister, line: DocumentLine, header: Row | null) {
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
 * The picker's source, by the line's kind (DocumentLine.kind): `product` lists products with
 * price and stock (estoqueprodutos), `service` the services (servico).
 */
export function usePickerLoad(kind: string): (page: number, filter: string) => Promise<PickerPage> {
  const client = useApolloClient();
  const emp = useCompanyId();
  return useCallback(
    async (page: number, filter: string) => {
      const product = kind === 'product';
      const { data } = await client.query({
        query: ResourceListDocument,
        variables: {
          name: product ? 'estoqueprodutos' : 'servico',
          emp,
          input: {
            filter: filter.trim() || null,
            page: page + 1,
            limit: PICKER_PAGE,
            ...(product ? { where: { PROD_SITUACAO: 1 } } : {}),
          },
        },
        fetchPolicy: 'network-only',
      });
      const rows = (data?.resourceList.rows ?? []) as Row[];
      return {
        total: data?.resourceList.total ?? 0,
        items: rows.map((r) =>
          product
            ? {
                id: r.PROD_ID as number,
                text: String(r.PROD_DESCRICAO ?? ''),
                monetary: num(r.PROD_VALOR),
                stock: r.SALDO_FISICO == null ? null : num(r.SALDO_FISICO),
                unit: (r.UNID_ABREVIADA as string | null) || undefined,
                image: imageUrl(r.PROD_IMAGEM, emp),
              }
            : {
                id: r.SERV_ID as number,
                text: String(r.SERV_DESCRICAO ?? ''),
                monetary: num(r.SERV_VLR_BASE),
              },
        ),
      };
    },
    [client, emp, kind],
  );
}

function imageUrl(v: unknown, emp: number): string | null {
  if (typeof v !== 'string' || v.trim() === '') return null;
  if (/^(https?:|data:|\/)/.test(v)) return v;
  return `/uploads/${emp}/${encodeURIComponent(v)}`;
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
