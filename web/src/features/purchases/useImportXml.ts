// The writes of the XML import: the upload that creates the purchase, linking an item to a
// product, and creating a product from an item. Each hook keeps Apollo's cache in step itself.
import { useApolloClient, useQuery } from '@apollo/client';
import { useCallback } from 'react';
import { rowOf, useReadRows, valueOf, type ColumnOf, type NewRow, type Row } from '../../lib/api';
import { applyMask } from '../../lib/masks';
import { ResourceMetaDocument } from '../../lib/resources/documents';
import { rowToValues, valuesToRow, type DocumentRegister, type ResourceMeta } from '../../lib/resources/metaFields';
import { evictPages } from '../../lib/resources/recordCache';
import { useCreateRecord } from '../../lib/resources/useCreateRecord';
import { useCompanyId } from '../../lib/resources/useResourceData';
import { useUpdateRecord } from '../../lib/resources/useUpdateRecord';
import { postFile, RestError } from '../../lib/rest';
import {
  importPath,
  itemId,
  parseImportAnswer,
  PURCHASE_ITEMS,
  type ImportAnswer,
  type ItemLine,
  type ProductDraft,
  type PurchaseItem,
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

/**
 * Links an item's line to a product (the line's `item` column, a name of its metadata); the
 * answered line replaces the cached one.
 */
export function useLinkItem(line: ItemLine) {
  const { update } = useUpdateRecord(line.resource, line.key);
  return useCallback(
    async (item: PurchaseItem, productId: unknown): Promise<PurchaseItem> => {
      if (!line.item) throw new Error('O item da compra não tem coluna de produto.');
      const answer = rowOf(PURCHASE_ITEMS, await update(itemId(line, item), { [line.item]: productId }));
      return { ...item, ...answer, [line.item]: valueOf(answer, line.item) ?? productId };
    },
    [update, line],
  );
}

/** The register products are created in (the product form's), and the register of their units. */
export const PRODUCT_REGISTER = 'produtos';
export const UNIT_REGISTER = 'unidade';

/** Where a product keeps what an item gives it (the compiler checks them against the product's row). */
export const PRODUCT_COLUMNS = {
  description: 'PROD_DESCRICAO',
  unit: 'PROD_UNID_ID',
  ncm: 'PROD_NCM',
  gtin: 'PROD_CBAR',
} as const satisfies {
  description: ColumnOf<Row<typeof PRODUCT_REGISTER>, string>;
  unit: ColumnOf<Row<typeof PRODUCT_REGISTER>, number>;
  ncm: ColumnOf<Row<typeof PRODUCT_REGISTER>, string>;
  gtin: ColumnOf<Row<typeof PRODUCT_REGISTER>, string>;
};

/** A unit's abbreviation ('UN', 'CX'): what an item names its unit by. */
export const UNIT_ABBREVIATION = 'UNID_ABREVIADA' satisfies ColumnOf<Row<typeof UNIT_REGISTER>, string>;

/** A new register row as its form starts it (the field defaults), as the form would send it. */
const blankRow = (meta: ResourceMeta) => valuesToRow(meta, rowToValues(meta, null));

/**
 * Creates a product from an item ('Cadastrar produto'), through the product form's own
 * resourceCreate, with the item's description, unit, NCM and GTIN; the unit is found by its
 * abbreviation in the unit register (created when missing). Then links the item to it.
 */
export function useCreateItemProduct(metas: ResourceMeta[], line: ItemLine) {
  const readRows = useReadRows();
  const productMeta = metas.find((m) => m.name === PRODUCT_REGISTER);
  const unitMeta = metas.find((m) => m.name === UNIT_REGISTER);
  const { create } = useCreateRecord(PRODUCT_REGISTER);
  const { create: createUnit } = useCreateRecord(UNIT_REGISTER);
  const link = useLinkItem(line);

  const unitId = useCallback(
    async (abbreviation: string): Promise<number | null | undefined> => {
      if (!unitMeta) throw new Error(`Unidade ${abbreviation} não cadastrada.`);
      const where = { [UNIT_ABBREVIATION]: abbreviation };
      const [found] = await readRows(UNIT_REGISTER, { page: 1, limit: 1, where }, 'network-only');
      if (found) return found.UNID_ID;
      const unit = { UNID_DESCRICAO: abbreviation, [UNIT_ABBREVIATION]: abbreviation } satisfies Partial<
        NewRow<typeof UNIT_REGISTER>
      >;
      return rowOf(UNIT_REGISTER, await createUnit({ ...blankRow(unitMeta), ...unit }))?.UNID_ID;
    },
    [readRows, unitMeta, createUnit],
  );

  return useCallback(
    async (
      item: PurchaseItem,
      draft: ProductDraft,
    ): Promise<{ product: Row<typeof PRODUCT_REGISTER> | null; item: PurchaseItem }> => {
      if (!productMeta) throw new Error('Você não tem permissão para cadastrar produtos.');
      const field = (name: string) => productMeta.fields.find((f) => f.name === name);
      const max = field(PRODUCT_COLUMNS.description)?.length;
      const ncm = field(PRODUCT_COLUMNS.ncm);
      const fromItem: Partial<NewRow<typeof PRODUCT_REGISTER>> = {
        [PRODUCT_COLUMNS.description]: max ? draft.description.slice(0, max) : draft.description,
      };
      const unit = draft.unit ? await unitId(draft.unit) : null;
      if (unit != null) fromItem[PRODUCT_COLUMNS.unit] = unit;
      if (draft.ncm) fromItem[PRODUCT_COLUMNS.ncm] = ncm?.mask ? applyMask(draft.ncm, ncm.mask) : draft.ncm;
      if (draft.gtin) fromItem[PRODUCT_COLUMNS.gtin] = draft.gtin;
      const product = rowOf(PRODUCT_REGISTER, await create({ ...blankRow(productMeta), ...fromItem }));
      const linked = await link(item, product?.PROD_ID);
      return { product, item: linked };
    },
    [productMeta, unitId, create, link],
  );
}
