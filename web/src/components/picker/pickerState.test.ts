import { describe, expect, it } from 'vitest';
import {
  acceptGroup,
  decrement,
  increment,
  selectedList,
  setQuantity,
  shouldLoadMore,
  totalOf,
  type PickerItem,
  type Selection,
} from './pickerState';

const item: PickerItem = { id: 10, text: 'Parafuso', monetary: 2.5, stock: 3 };
const other: PickerItem = { id: 11, text: 'Porca', monetary: 1.1, stock: null };

function ok(outcome: ReturnType<typeof setQuantity>): Selection {
  if (outcome.kind !== 'ok') throw new Error(`expected ok, got ${outcome.kind}`);
  return outcome.selection;
}

describe('picker rules', () => {
  it('plus adds one, minus removes one, zero removes the item', () => {
    let sel = ok(increment({}, item));
    expect(sel['#10'].quantity).toBe(1);
    sel = ok(increment(sel, item));
    expect(sel['#10'].quantity).toBe(2);
    sel = ok(decrement(sel, item));
    expect(sel['#10'].quantity).toBe(1);
    sel = ok(decrement(sel, item));
    expect(sel['#10']).toBeUndefined();
  });
  it('a typed quantity sets it; zero or less removes', () => {
    let sel = ok(setQuantity({}, item, 2.5));
    expect(sel['#10'].quantity).toBe(2.5);
    sel = ok(setQuantity(sel, item, -1));
    expect(Object.keys(sel)).toHaveLength(0);
  });
  it('blocks quantities above stock when asked to', () => {
    const sel = ok(setQuantity({}, item, 3, { blockStock: true }));
    expect(increment(sel, item, { blockStock: true })).toEqual({ kind: 'noStock' });
    expect(setQuantity({}, item, 4, { blockStock: true })).toEqual({ kind: 'noStock' });
    expect(ok(setQuantity({}, item, 4))['#10'].quantity).toBe(4);
    expect(ok(setQuantity({}, other, 999, { blockStock: true }))['#11'].quantity).toBe(999);
  });
  it('asks to group an item already launched when ungroup is on', () => {
    const rules = { ungroup: true, launched: new Set(['10']) };
    expect(increment({}, item, rules)).toEqual({ kind: 'askGroup', item, quantity: 1 });
    const grouped = acceptGroup({}, item, 1);
    expect(grouped['#10']).toMatchObject({ quantity: 1, group: true });
    // Once in the selection it is not asked again, and keeps its group flag.
    expect(ok(increment(grouped, item, rules))['#10']).toMatchObject({ quantity: 2, group: true });
    expect(ok(increment({}, item, { ungroup: false, launched: new Set(['10']) }))['#10'].quantity).toBe(1);
  });
  it('totals price times quantity', () => {
    const sel = ok(setQuantity(ok(setQuantity({}, item, 3)), other, 2));
    expect(totalOf(sel)).toBe(9.7);
  });
  it('loads more within 50 px of the bottom while more remain', () => {
    expect(shouldLoadMore({ scrollHeight: 1000, scrollTop: 560, clientHeight: 400 }, 20, 45)).toBe(true);
    expect(shouldLoadMore({ scrollHeight: 1000, scrollTop: 540, clientHeight: 400 }, 20, 45)).toBe(false);
    expect(shouldLoadMore({ scrollHeight: 1000, scrollTop: 600, clientHeight: 400 }, 45, 45)).toBe(false);
  });
});

describe('selection order', () => {
  it('lists items in the order they were chosen, numeric ids included', () => {
    const a = { id: 2, text: 'Filtro', monetary: 10 };
    const b = { id: 1, text: 'Parafuso', monetary: 1 };
    let sel = {};
    for (const item of [a, b]) {
      const out = increment(sel, item);
      if (out.kind === 'ok') sel = out.selection;
    }
    expect(selectedList(sel).map((i) => i.id)).toEqual([2, 1]);
  });
});
