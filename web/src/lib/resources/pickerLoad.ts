import { useApolloClient } from '@apollo/client';
import { useCallback } from 'react';
import type { PickerPage } from '../../components/picker/ItemPicker';
import type { Row } from '../../components/tables/types';
import { ResourceListDocument } from './documents';
import { useCompanyId } from './useResourceData';

/** The picker's page size (spec §9: services LIMIT 20). */
export const PICKER_PAGE = 20;

const num = (v: unknown): number => {
  if (v == null || v === '') return 0;
  const n = typeof v === 'number' ? v : Number(String(v));
  return Number.isNaN(n) ? 0 : n;
};

function imageUrl(v: unknown, emp: number): string | null {
  if (typeof v !== 'string' || v.trim() === '') return null;
  if (/^(https?:|data:|\/)/.test(v)) return v;
  return `/uploads/${emp}/${encodeURIComponent(v)}`;
}

/**
 * The item picker's source, by the kind of item (DocumentLine.kind): `product` lists the active
 * products with price and stock (estoqueprodutos), `service` the services (servico).
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
