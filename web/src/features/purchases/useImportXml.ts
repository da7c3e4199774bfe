// The writes of the XML import: the upload that creates the purchase, linking an item to a
// product, and creating a product from an item. Each hook keeps Apollo's cache in step itself.
import { useApolloClient, useQuery } from '@apollo/client';
import { useCallback, useMemo } from 'react';
import type { Row } from '../../components/tables/types';
import { applyMask } from '../../lib/masks';
import { ResourceListDocument, ResourceMetaDocument } from '../../lib/resources/documents';
import { rowToValues, valuesToRow, type DocumentRegister, type ResourceMeta } from '../../lib/resources/metaFields';
import { evictPages, idOf } from '../../lib/resources/recordCache';
import { useCreateRecord } from '../../lib/resources/useCreateRecord';
import { useCompanyId } from '../../lib/resources/useResourceData';
import { useUpdateRecord } from '../../lib/resources/useUpdateRecord';
import { postFile, RestError } from '../../lib/rest';
import {
  importPath,
  itemId,
  parseImportAnswer,
  type ImportAnswer,
  type ItemLine,
  type ProductDraft,
} from './importAnswer';

/**
 * Uploads an NF-e XML; the server creates an open purchase from it. The purchase register's
 * cached pages are evicted (the list on screen is read again); a 401 also empties the cache.
 */
export function useImportXml(meta: DocumentRegister) {
  const client = useApolloClient();
  const emp = useCompanyId();
  return useCallback(
    async (file: File): Promise<ImportAnswer> => {
      try {
        const answer = parseImportAnswer(await postFile(importPath(emp), file));
        evictPages(client.cache, [{ name: meta.name, emp }]);
        return answer;
      } catch (e) {
        if (e instanceof RestError && e.status === 401) void client.clearStore();
        throw e;
      }
    },
    [client, emp, meta.name],
  );
}

/**
 * The line register's metadata (compraproduto): it has no screen, so resourceMetas leaves it out.
 * `settled` once read or refused (the dialog then makes do with the document's line roles).
 */
export function useLineMeta(line: ItemLine): { lineMeta: ResourceMeta | undefined; settled: boolean } {
  const { data, loading } = useQuery(ResourceMetaDocument, {
    variables: { name: line.resource },
    fetchPolicy: 'cache-first',
  });
  return { lineMeta: data?.resourceMeta as ResourceMeta | undefined, settled: !loading };
}

/** Links an item's line to a product (its `item` column); the answered line replaces the cached one. */
export function useLinkItem(line: ItemLine) {
  const { update } = useUpdateRecord(line.resource, line.key);
  return useCallback(
    async (item: Row, productId: unknown): Promise<Row> => {
      if (!line.item) throw new Error('O item da compra não tem coluna de produto.');
      const answer = await update(itemId(line, item), { [line.item]: productId });
      return { ...item, ...answer, [line.item]: answer[line.item] ?? productId };
    },
    [update, line],
  );
}

/** The product register and where it keeps what an item gives, by its metadata. */
interface ProductColumns {
  meta: ResourceMeta;
  unit: ResourceMeta['fields'][number] | undefined;
  ncm: ResourceMeta['fields'][number] | undefined;
  gtin: ResourceMeta['fields'][number] | undefined;
}

/** The register products are created in (the product form's). */
export const PRODUCT_REGISTER = 'produtos';

function productColumns(metas: ResourceMeta[]): ProductColumns | null {
  const meta = metas.find((m) => m.name === PRODUCT_REGISTER);
  if (!meta) return null;
  return {
    meta,
    unit: meta.fields.find((f) => f.reference && /unid/i.test(f.reference)),
    ncm: meta.fields.find((f) => /_NCM$/i.test(f.name) || /^NCM$/i.test(f.label)),
    gtin: meta.fields.find((f) => f.kind === 'BARCODE' || /(CBAR|GTIN|EAN)/i.test(f.name)),
  };
}

/** A new register row as its form starts it (the field defaults), as the form would send it. */
const blankRow = (meta: ResourceMeta): Row => valuesToRow(meta, rowToValues(meta, null));

/**
 * Creates a product from an item ('Cadastrar produto'), through the product form's own
 * resourceCreate, with the item's description, unit, NCM and GTIN; the unit is found by its
 * abbreviation in the unit register (created when missing). Then links the item to it.
 */
export function useCreateItemProduct(metas: ResourceMeta[], line: ItemLine) {
  const client = useApolloClient();
  const emp = useCompanyId();
  const columns = useMemo(() => productColumns(metas), [metas]);
  const unitMeta = metas.find((m) => m.name === columns?.unit?.reference);
  const { create } = useCreateRecord(PRODUCT_REGISTER);
  const { create: createUnit } = useCreateRecord(unitMeta?.name ?? 'unidade');
  const link = useLinkItem(line);

  const unitId = useCallback(
    async (abbreviation: string): Promise<unknown> => {
      if (!unitMeta) throw new Error(`Unidade ${abbreviation} não cadastrada.`);
      const column =
        unitMeta.fields.find((f) => /_ABREVIADA$/i.test(f.name) || /^sigla$/i.test(f.label))?.name ?? 'UNID_ABREVIADA';
      const { data } = await client.query({
        query: ResourceListDocument,
        variables: { name: unitMeta.name, emp, input: { page: 1, limit: 1, where: { [column]: abbreviation } } },
        fetchPolicy: 'network-only',
      });
      const found = (data?.resourceList.rows ?? [])[0] as Row | undefined;
      if (found) return idOf(unitMeta.key, found);
      const created = await createUnit({
        ...blankRow(unitMeta),
        [unitMeta.labelField]: abbreviation,
        [column]: abbreviation,
      });
      return idOf(unitMeta.key, created);
    },
    [client, emp, unitMeta, createUnit],
  );

  return useCallback(
    async (item: Row, draft: ProductDraft): Promise<{ product: Row; item: Row }> => {
      if (!columns) throw new Error('Você não tem permissão para cadastrar produtos.');
      const { meta, unit, ncm, gtin } = columns;
      const max = meta.fields.find((f) => f.name === meta.labelField)?.length;
      const data: Row = {
        ...blankRow(meta),
        [meta.labelField]: max ? draft.description.slice(0, max) : draft.description,
      };
      if (unit && draft.unit) data[unit.name] = await unitId(draft.unit);
      if (ncm && draft.ncm) data[ncm.name] = ncm.mask ? applyMask(draft.ncm, ncm.mask) : draft.ncm;
      if (gtin && draft.gtin) data[gtin.name] = draft.gtin;
      const product = await create(data);
      const linked = await link(item, idOf(meta.key, product));
      return { product, item: linked };
    },
    [columns, unitId, create, link],
  );
}
