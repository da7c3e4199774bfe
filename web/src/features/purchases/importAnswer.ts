// The answer of POST /compra/uploads/{emp} (an NF-e XML imported as an open purchase) and how
// the import dialog reads it: the header row, the items with how each was matched to a product
// (VINCULO), the warnings. The item columns come from the line register's metadata
// (compraproduto), not from a list kept here.
import type { Column, Row } from '../../components/tables/types';
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

export interface ImportAnswer {
  compra: Row;
  itens: Row[];
  avisos: string[];
}

/** The notice of an imported XML. */
export const IMPORTED = 'XML importado com sucesso!';

/** The purchase's supplier (its field referencing the suppliers: COMP_FORN_ID), null when it names none. */
export function purchaseSupplier(meta: ResourceMeta, purchase: Row): unknown {
  const field =
    meta.fields.find((f) => /^fornecedor/i.test(f.reference ?? '') && /^fornecedor$/i.test(f.label))?.name ??
    'COMP_FORN_ID';
  const v = purchase[field];
  return v == null || v === '' ? null : v;
}

/** The edit screen of the purchase an import created, and the state that hands it its row. */
export const purchaseScreen = (meta: DocumentRegister, purchase: Row) => ({
  href: editHref(meta, idOf(meta.document.key, purchase)),
  state: { record: purchase },
});

/** The answer as the server sends it; anything else is refused with a pt-BR message. */
export function parseImportAnswer(json: unknown): ImportAnswer {
  const a = json as { compra?: unknown; itens?: unknown; avisos?: unknown } | null;
  if (!a || typeof a.compra !== 'object' || a.compra === null) {
    throw new Error('Resposta inesperada do servidor ao importar o XML.');
  }
  return {
    compra: a.compra as Row,
    itens: Array.isArray(a.itens) ? (a.itens as Row[]) : [],
    avisos: Array.isArray(a.avisos) ? a.avisos.map(String).filter(Boolean) : [],
  };
}

/** The product line of a purchase (DocumentLine of kind `product`), whose items the answer lists. */
export const productLine = (meta: DocumentRegister) =>
  meta.document.lines.find((l) => l.kind === 'product') ?? meta.document.lines[0];

export type ItemLine = ReturnType<typeof productLine>;

/** The id of an item's line as resourceUpdate takes it. */
export const itemId = (line: ItemLine, item: Row): unknown => idOf(line.key, item);

/** The product an item names (null while it names none). */
export function itemProduct(line: ItemLine, item: Row): unknown {
  const v = line.item ? item[line.item] : null;
  return v == null || v === '' ? null : v;
}

/** An item still to link: the server found no product for it and none was linked since. */
export const isPending = (line: ItemLine, item: Row) => itemProduct(line, item) == null;

/** How an item is shown as matched: by the server's VINCULO, or by the user in this dialog. */
export function matchText(line: ItemLine, item: Row, linkedHere: boolean): string {
  if (linkedHere) return 'vinculado nesta importação';
  const how = String(item[MATCH_FIELD] ?? '');
  if (isPending(line, item)) return MATCH_TEXT.novo;
  return MATCH_TEXT[how] ?? 'vinculado';
}

/** A field of the line register found by its name's end or its label (fields may be named otherwise). */
function findField(meta: ResourceMeta | undefined, name: RegExp, label: RegExp): string | null {
  return meta?.fields.find((f) => name.test(f.name) || label.test(f.label))?.name ?? null;
}

/** Where an item keeps what a new product is made of, by the line register's metadata. */
export interface ItemFields {
  description: string | null;
  unit: string | null;
  /** The unit stock counts the item in (the NF-e's taxable unit when it differs). */
  stockUnit: string | null;
  ncm: string | null;
  gtin: string | null;
  supplierCode: string | null;
}

export function itemFields(line: ItemLine, lineMeta: ResourceMeta | undefined): ItemFields {
  return {
    description: line.desc,
    unit: line.unitName ?? findField(lineMeta, /_UNIDADE$/i, /^(un\.?|unidade)$/i),
    stockUnit: findField(lineMeta, /_UNIDADE_ESTOQUE$/i, /^un\.? de estoque$/i),
    ncm: findField(lineMeta, /_NCM$/i, /^NCM$/i),
    gtin: findField(lineMeta, /(GTIN|EAN)/i, /(GTIN|EAN|barras)/i),
    supplierCode: findField(lineMeta, /COD(IGO)?_?FORN/i, /c[óo]digo (do |no )?fornecedor/i),
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

export function productDraft(fields: ItemFields, item: Row): ProductDraft {
  const text = (name: string | null) => (name && item[name] != null ? String(item[name]).trim() : '');
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
  items: Row[],
): Column[] {
  const present = (name: string) => items.some((r) => r[name] != null && r[name] !== '');
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
  const extra = [fields.supplierCode, fields.ncm, fields.gtin].filter((n): n is string => !!n);
  const listed = new Set(lineMeta.fields.filter((f) => f.inList).map((f) => f.name));
  const shown = {
    ...lineMeta,
    fields: lineMeta.fields
      .filter((f) => listed.has(f.name) || extra.includes(f.name))
      .map((f) => ({ ...f, inList: true })),
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
