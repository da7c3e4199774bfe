// 'Atualizar custos e preços' on a purchase: the call the line register declares
// (POST /compraproduto/atualizacaogeral, services/orders/src/resources/purchases/price_update.rs),
// the body its dialog sends and how its answer is read.
import type { FieldDescriptor, FormValues, GroupDescriptor } from '../../components/fields/types';
import { reading, readings, type Reading } from '../../lib/api';
import { formatMoney, formatNumber, parseBRNumber } from '../../lib/format';

/** The call's name on the purchase's line register (compraproduto). */
export const PRICE_UPDATE_ACTION = 'atualizacaogeral';

/** The largest margin the product register takes (PROD_MARGEM), as the server checks it. */
const MAX_MARGIN = '999.9999';

const marginField: FieldDescriptor = {
  name: 'MARGEM',
  type: 'NUMBER',
  text: 'Margem (%)',
  min: 0,
  max: MAX_MARGIN,
  prefix: '%',
  width: 4,
};
const withPriceField: FieldDescriptor = {
  name: 'ATUALIZAR_PRECO',
  type: 'BOOLEAN',
  text: 'Atualizar também o preço de venda pela margem',
  width: 8,
};

export const priceUpdateGroups: GroupDescriptor[] = [{ fields: [marginField, withPriceField] }];

/** The dialog starts with no margin (each product keeps its own) and the sale price updated. */
export const priceUpdateStart: FormValues = { MARGEM: '', ATUALIZAR_PRECO: true };

/** What `atualizacaogeral` takes (no schema yet): the purchase, the margin, whether the sale price follows it. */
export interface PriceUpdateBody {
  CMPP_COMP_ID: number | null | undefined;
  MARGEM?: number;
  ATUALIZAR_PRECO: boolean;
}

/** The call's body: the purchase, the margin when one is typed, whether the sale price follows. */
export function priceUpdateBody(purchaseId: number | null | undefined, values: FormValues): PriceUpdateBody {
  const margin = parseBRNumber(String(values.MARGEM ?? ''));
  return {
    CMPP_COMP_ID: purchaseId,
    ...(margin != null ? { MARGEM: margin } : {}),
    ATUALIZAR_PRECO: values.ATUALIZAR_PRECO === true,
  };
}

/** A product the call updated. */
export type UpdatedProduct = Reading<
  | 'PROD_ID'
  | 'PROD_DESCRICAO'
  | 'CMPP_IDS'
  | 'PROD_CUSTO_ANTERIOR'
  | 'PROD_CUSTO'
  | 'PROD_MARGEM'
  | 'PROD_VALOR_ANTERIOR'
  | 'PROD_VALOR'
>;
/** An item the call left out (CMPP_DESCRICAO when the item has one). */
export type SkippedItem = Reading<'CMPP_ID' | 'CMPP_DESCRICAO' | 'motivo'>;
/** A product the catalog refused to update. */
export type RefusedProduct = Reading<'PROD_ID' | 'msg'>;

/** What the call answers: its message, the products updated, the items left out and the products refused. */
export interface PriceUpdateAnswer {
  msg: string;
  produtos: UpdatedProduct[];
  ignorados: SkippedItem[];
  erros: RefusedProduct[];
}

/** The call's answer (no schema yet), read. */
export function parsePriceUpdate(json: unknown): PriceUpdateAnswer {
  const a = reading<keyof PriceUpdateAnswer>(json);
  return {
    msg: typeof a.msg === 'string' && a.msg ? a.msg : 'Custos e preços atualizados.',
    produtos: readings(a.produtos),
    ignorados: readings(a.ignorados),
    erros: readings(a.erros),
  };
}

const present = (v: unknown) => v != null && v !== '';

/** A product's value before and after ('R$ 12,39 → R$ 13,10'); '-' for a side the product has none. */
export function change(before: unknown, after: unknown): string {
  const money = (v: unknown) => (present(v) ? formatMoney(v as string | number) : '-');
  return `${money(before)} → ${money(after)}`;
}

/** A margin as shown ('50%', '35,5%'); '-' when the product has none. */
export const marginText = (v: unknown): string =>
  present(v) && !Number.isNaN(Number(v)) ? `${formatNumber(Number(v), 0, 4)}%` : '-';

/** An item the call left out, as listed: 'Item 3 - CHAVE COMBINADA 17MM: Item sem produto vinculado.' */
export const skippedText = (row: SkippedItem): string =>
  `Item ${String(row.CMPP_ID ?? '')}${present(row.CMPP_DESCRICAO) ? ` - ${String(row.CMPP_DESCRICAO)}` : ''}: ${String(row.motivo ?? '')}`;

/** A product the catalog refused to update, as listed: 'Produto 7: ...'. */
export const errorText = (row: RefusedProduct): string =>
  `Produto ${String(row.PROD_ID ?? '')}: ${String(row.msg ?? '')}`;
