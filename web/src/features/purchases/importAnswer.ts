// The answer of POST /compra/uploads/{emp} (an NF-e XML imported as an open purchase) and how
// the import dialog reads it: the header row, the items with how each was matched to a product
// (VINCULO), the warnings. The item columns listed come from the line register's metadata
// (compraproduto); what a new product is made of, from the item's columns (ITEM_COLUMNS).
import type { Column } from '../../components/tables/types';
import { reading, rowOf, rowsOf, valueOf, type ColumnOf, type Reading, type Row } from '../../lib/api';
import { formatQuantity } from '../../lib/format';
import { onlyDigits } from '../../lib/masks';
import { editHref, listColumns, type DocumentRegister, type ResourceMeta } from '../../lib/resources/metaFields';
import { idOf } from '../../lib/resources/recordCache';

/** The legacy call the import posts the file to (multipart field `file`). */
export const importPath = (emp: number) => `/compra/uploads/${emp}`;

/** How the server matched an item (`fornecedor`: by the supplier's code, `gtin`, `manual`, `novo`: not at all). */
export const MATCH_FIELD = 'VINCULO';

export const MATCH_TEXT: Record<string, string> = {
  fornecedor: 'pelo código do fornecedor',
  gtin: 'pelo GTIN',
  manual: 'vinculado manualmente',
  novo: 'Produto novo',
};

/** The purchase register and its item lines. */
export const PURCHASES = 'compra';
export const PURCHASE_ITEMS = 'compraproduto';

/** A purchase: a row of the purchases register. */
export type Purchase = Row<typeof PURCHASES>;
/** An item of the purchase: a row of its line register, with how the import matched it (VINCULO). */
export type PurchaseItem = Row<typeof PURCHASE_ITEMS> & Reading<typeof MATCH_FIELD>;

export interface ImportAnswer {
  compra: Purchase;
  itens: PurchaseItem[];
  avisos: string[];
}

/** The notice of an imported XML. */
export const IMPORTED = 'XML importado com sucesso!';

/** The purchase's supplier (COMP_FORN_ID), null when it names none. */
export const purchaseSupplier = (purchase: Purchase): number | null => purchase.COMP_FORN_ID ?? null;

/** The edit screen of the purchase an import created, and the state that hands it its row. */
export const purchaseScreen = (meta: DocumentRegister, purchase: Purchase) => ({
  href: editHref(meta, idOf(meta.document.key, purchase)),
  state: { record: purchase },
});

/**
 * The answer as the server sends it (a REST call, no schema): the purchase's row, its items'
 * rows and the warnings; anything else is refused with a pt-BR message.
 */
export function parseImportAnswer(json: unknown): ImportAnswer {
  const a = reading<'compra' | 'itens' | 'avisos'>(json);
  const compra = rowOf(PURCHASES, a.compra);
  if (!compra) throw new Error('Resposta inesperada do servidor ao importar o XML.');
  return {
    compra,
    itens: rowsOf(PURCHASE_ITEMS, a.itens),
    avisos: Array.isArray(a.avisos) ? a.avisos.map(String).filter(Boolean) : [],
  };
}

/** The product line of a purchase (DocumentLine of kind `product`), whose items the answer lists. */
export const productLine = (meta: DocumentRegister) =>
  meta.document.lines.find((l) => l.kind === 'product') ?? meta.document.lines[0];

export type ItemLine = ReturnType<typeof productLine>;

/** The id of an item's line as resourceUpdate takes it. */
export const itemId = (line: ItemLine, item: PurchaseItem): unknown => idOf(line.key, item);

/** The product an item names (the line's `item` column; null while it names none). */
export function itemProduct(line: ItemLine, item: PurchaseItem): unknown {
  const v = line.item ? valueOf(item, line.item) : null;
  return v == null || v === '' ? null : v;
}

/** An item still to link: the server found no product for it and none was linked since. */
export const isPending = (line: ItemLine, item: PurchaseItem) => itemProduct(line, item) == null;

/** How an item is shown as matched: by the server's VINCULO, or by the user in this dialog. */
export function matchText(line: ItemLine, item: PurchaseItem, linkedHere: boolean): string {
  if (linkedHere) return 'vinculado nesta importação';
  const how = String(item[MATCH_FIELD] ?? '');
  if (isPending(line, item)) return MATCH_TEXT.novo;
  return MATCH_TEXT[how] ?? 'vinculado';
}

/**
 * The item's columns of what a new product is made of (the compiler checks them against the
 * line register's row): its description, its purchase unit and the unit stock counts it in
 * (the NF-e's taxable unit when it differs), NCM, GTIN and the supplier's code.
 */
export const ITEM_COLUMNS = {
  description: 'CMPP_DESCRICAO',
  unit: 'CMPP_UNIDADE',
  stockUnit: 'CMPP_UNIDADE_ESTOQUE',
  ncm: 'CMPP_NCM',
  gtin: 'CMPP_GTIN',
  supplierCode: 'CMPP_COD_FORNECEDOR',
} as const satisfies Record<string, ColumnOf<Row<typeof PURCHASE_ITEMS>, string>>;

/** Where an item keeps what a new product is made of: the columns of ITEM_COLUMNS the item is known to carry. */
export type ItemFields = { [K in keyof typeof ITEM_COLUMNS]: (typeof ITEM_COLUMNS)[K] | null };

/**
 * The item columns the line register's metadata describes (before it is read, those the
 * document's line roles name: the description and the unit).
 */
export function itemFields(line: ItemLine, lineMeta: ResourceMeta | undefined): ItemFields {
  const known = (column: string) =>
    lineMeta ? lineMeta.fields.some((f) => f.name === column) : column === line.desc || column === line.unitName;
  const field = <C extends string>(column: C): C | null => (known(column) ? column : null);
  return {
    description: field(ITEM_COLUMNS.description),
    unit: field(ITEM_COLUMNS.unit),
    stockUnit: field(ITEM_COLUMNS.stockUnit),
    ncm: field(ITEM_COLUMNS.ncm),
    gtin: field(ITEM_COLUMNS.gtin),
    supplierCode: field(ITEM_COLUMNS.supplierCode),
  };
}

/** What a new product takes from an item: its description, unit, NCM and GTIN. */
export interface ProductDraft {
  description: string;
  unit: string;
  ncm: string;
  gtin: string;
}

/** A GTIN worth keeping: 8, 12, 13 or 14 digits ('SEM GTIN' is none). */
export function validGtin(v: unknown): string {
  const digits = onlyDigits(String(v ?? ''));
  return [8, 12, 13, 14].includes(digits.length) && /^\d+$/.test(String(v ?? '').trim()) ? digits : '';
}

export function productDraft(fields: ItemFields, item: PurchaseItem): ProductDraft {
  const text = (column: ItemFields[keyof ItemFields]) => (column ? String(item[column] ?? '').trim() : '');
  return {
    description: text(fields.description),
    // A product counts its stock in the unit its entries come in (10 CX of 12 enter as 120 UN).
    unit: (text(fields.stockUnit) || text(fields.unit)).toUpperCase(),
    ncm: onlyDigits(text(fields.ncm)),
    gtin: validGtin(fields.gtin ? item[fields.gtin] : ''),
  };
}

/**
 * The item columns the dialog shows, from the line register's metadata: its list columns and
 * the supplier's code, NCM and GTIN, when the items carry them; not the parent and product
 * columns (the match column says what the product is).
 */
export function itemColumns(
  line: ItemLine,
  lineMeta: ResourceMeta | undefined,
  fields: ItemFields,
  items: PurchaseItem[],
): Column<PurchaseItem>[] {
  const present = (name: string) =>
    items.some((r) => {
      const v = valueOf(r, name);
      return v != null && v !== '';
    });
  const skip = new Set([...line.parent, ...(line.item ? [line.item] : [])]);
  if (!lineMeta) {
    // No metadata of the line register: the columns the document's line roles name.
    const roles: [string | null, string, Column['align']][] = [
      [line.desc, 'Descrição', 'left'],
      [line.unitName, 'Un.', 'left'],
      [line.qty, 'Quantidade', 'right'],
      [line.price, 'Valor Unitário', 'right'],
      [line.total, 'Total', 'right'],
    ];
    return roles
      .filter((r): r is [string, string, Column['align']] => !!r[0] && present(r[0]))
      .map(([key, label, align]) => ({ key, label, align }));
  }
  const extra = new Set<string | null>([fields.supplierCode, fields.ncm, fields.gtin]);
  const listed = new Set(lineMeta.fields.filter((f) => f.inList).map((f) => f.name));
  const shown = {
    ...lineMeta,
    fields: lineMeta.fields.filter((f) => listed.has(f.name) || extra.has(f.name)).map((f) => ({ ...f, inList: true })),
  };
  const numbers = new Set(lineMeta.fields.filter((f) => f.kind === 'NUMBER').map((f) => f.name));
  return listColumns(shown)
    .filter((c) => !skip.has(c.key) && present(c.key))
    .map((c) => (numbers.has(c.key) && !c.format ? { ...c, format: quantityText } : c));
}

/** A quantity as pt-BR shows it ('10.0000' -> '10'; '2.5' -> '2,5'). */
const quantityText = (v: unknown) => {
  if (v == null || v === '') return '';
  const n = Number(v);
  return Number.isNaN(n) ? String(v) : formatQuantity(n);
};
