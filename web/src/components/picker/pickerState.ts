// Rules of the mobile item picker (spec §4 and §5), free of React so they are tested alone.

export interface PickerItem {
  id: string | number;
  text: string;
  /** Unit price. */
  monetary: number;
  stock?: number | null;
  unit?: string;
  image?: string | null;
}

export interface SelectedItem extends PickerItem {
  quantity: number;
  /** Chosen again after being launched: the caller merges it into the existing line. */
  group?: boolean;
}

export type Selection = Record<string, SelectedItem>;

export interface PickerRules {
  /** Quantities above the item's stock are refused. */
  blockStock?: boolean;
  /** Items already launched ask whether to group before being added. */
  ungroup?: boolean;
  launched?: ReadonlySet<string>;
}

export type Outcome =
  { kind: 'ok'; selection: Selection } | { kind: 'noStock' } | { kind: 'askGroup'; item: PickerItem; quantity: number };

export const DEFAULT_UNIT = 'UN';
/** Selection keys keep the order items were chosen in (integer-like keys would be sorted). */
export const keyOf = (item: PickerItem) => `#${String(item.id)}`;

export function setQuantity(sel: Selection, item: PickerItem, quantity: number, rules: PickerRules = {}): Outcome {
  const key = keyOf(item);
  if (!(quantity > 0)) {
    if (!(key in sel)) return { kind: 'ok', selection: sel };
    const rest = { ...sel };
    delete rest[key];
    return { kind: 'ok', selection: rest };
  }
  if (rules.blockStock && item.stock != null && quantity > item.stock) return { kind: 'noStock' };
  if (!(key in sel) && rules.ungroup && rules.launched?.has(String(item.id)))
    return { kind: 'askGroup', item, quantity };
  return { kind: 'ok', selection: { ...sel, [key]: { ...item, quantity, group: sel[key]?.group } } };
}

export const quantityOf = (sel: Selection, item: PickerItem) => sel[keyOf(item)]?.quantity ?? 0;

export const increment = (sel: Selection, item: PickerItem, rules?: PickerRules) =>
  setQuantity(sel, item, quantityOf(sel, item) + 1, rules);

export const decrement = (sel: Selection, item: PickerItem, rules?: PickerRules) =>
  setQuantity(sel, item, quantityOf(sel, item) - 1, rules);

/** 'Sim' in the grouping dialog: the item goes in as a grouped line. */
export const acceptGroup = (sel: Selection, item: PickerItem, quantity: number): Selection => ({
  ...sel,
  [keyOf(item)]: { ...item, quantity, group: true },
});

/** The chosen items, in the order they were chosen. */
export const selectedList = (sel: Selection) => Object.values(sel);

/** Sum of price x quantity, rounded to cents. */
export const totalOf = (sel: Selection) =>
  Math.round(selectedList(sel).reduce((t, i) => t + i.monetary * i.quantity, 0) * 100) / 100;

/** Spec §9: load more when scrolled within 50 px of the bottom while more remain. */
export const SCROLL_THRESHOLD = 50;
export const shouldLoadMore = (
  el: { scrollHeight: number; scrollTop: number; clientHeight: number },
  loaded: number,
  total: number,
) => loaded < total && el.scrollHeight - el.scrollTop - el.clientHeight <= SCROLL_THRESHOLD;
