// The typed register API: what the generated schemas make of a register's rows and of a
// declared call (checked by the compiler: `npm run typecheck`), and how JSON the server sent
// is read as them.
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  CALLS,
  callsDrift,
  listOf,
  reading,
  readings,
  rowIf,
  rowOf,
  rowsOf,
  valueOf,
  type AnyRow,
  type CallInput,
  type CallOutput,
  type ColumnOf,
  type RegisterName,
  type Row,
  type RowOf,
  type Schema,
} from './api';

describe('generated types', () => {
  it("type a register's rows by its row schema", () => {
    expectTypeOf<RegisterName>().toExtend<string>();
    expectTypeOf<'contasreceber'>().toExtend<RegisterName>();
    expectTypeOf<Row<'contasreceber'>['CRCB_VLR_CTA']>().toEqualTypeOf<number | null | undefined>();
    expectTypeOf<Row<'contasreceber'>['CRCB_DTA_VCTO']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<RowOf<'pedido'>>().toEqualTypeOf<Row<'pedido'>>();
    // A register named at run time: a row of any register.
    expectTypeOf<RowOf<string>>().toEqualTypeOf<AnyRow>();
    expectTypeOf<ColumnOf<Row<'contaspagar'>, string>>().toExtend<keyof Row<'contaspagar'>>();
  });

  it('type a declared call by its schemas, an untyped one as unknown', () => {
    expectTypeOf<CallInput<'pedido', 'faturar'>>().toEqualTypeOf<Schema<'InvoiceIn'>>();
    expectTypeOf<CallOutput<'pedido', 'faturar'>>().toEqualTypeOf<Schema<'Invoiced'>>();
    expectTypeOf<CallOutput<'orcamento', 'geraos'>>().toEqualTypeOf<Schema<'Converted'>>();
    expectTypeOf<CallOutput<'produtosinf', 'replicar'>>().toEqualTypeOf<Schema<'Replicated'>[]>();
    // A call answering a row answers its register's.
    expectTypeOf<CallOutput<'pedido', 'duplicar'>>().toEqualTypeOf<Row<'pedido'>>();
    // A call still written against the untyped handlers has no schemas at all.
    expectTypeOf<CallOutput<'cte', 'emitir'>>().toBeUnknown();
    expectTypeOf<CallInput<'cte', 'emitir'>>().toBeUnknown();
    // Finance's settlement is typed.
    expectTypeOf<CallInput<'contasreceber', 'baixa'>>().toEqualTypeOf<Schema<'SettleIn'>>();
  });
});

describe('CALLS against the calls the gateway declares', () => {
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const table: Record<string, Record<string, { input: string; output: string | null; list?: true }>> = CALLS;
  // A register's calls as the gateway's metadata shows them, built from CALLS: an input and an
  // answer by reference, a row answer as the row marker, a list as an array of it.
  const asGateway = (name: string) => ({
    name,
    actions: Object.entries(table[name] ?? {}).map(([call, c]) => {
      const row = c.output?.endsWith('.row') ? c.output.slice(0, -'.row'.length) : null;
      const one = c.output === null ? {} : row ? { type: 'object', 'x-row': row === name ? true : row } : ref(c.output);
      return { name: call, schemas: { input: ref(c.input), output: c.list ? { type: 'array', items: one } : one } };
    }),
  });

  it('agree when the gateway names the schemas CALLS gives (a row marker is its register row)', () => {
    expect(Object.keys(table).length).toBeGreaterThan(20);
    expect(callsDrift(Object.keys(table).map(asGateway))).toEqual([]);
    // An untyped call (no schemas of its own) is not CALLS' business.
    const order = asGateway('pedido');
    const untyped = { name: 'imprimir', schemas: { input: { type: 'object' }, output: {} } };
    expect(callsDrift([{ ...order, actions: [...order.actions, untyped] }])).toEqual([]);
  });

  it('tell a call whose schemas changed, a typed call left out and one the gateway no longer declares', () => {
    const order = asGateway('pedido');
    const changed = order.actions.map((a) =>
      a.name === 'faturar' ? { ...a, schemas: { input: ref('InvoiceIn'), output: ref('Faturado') } } : a,
    );
    expect(callsDrift([{ ...order, actions: changed }])).toEqual([
      'pedido.faturar: InvoiceIn -> Faturado in the gateway, InvoiceIn -> Invoiced in CALLS',
    ]);
    const added = { name: 'novo', schemas: { input: ref('NovoIn'), output: { type: 'array', items: ref('Novo') } } };
    expect(callsDrift([{ ...order, actions: [...order.actions, added] }])).toEqual([
      'pedido.novo: NovoIn -> Novo[] in the gateway, not in CALLS',
    ]);
    expect(callsDrift([{ name: 'produtosgrade', actions: [] }])).toEqual([
      'produtosgrade.replicar: in CALLS, not declared by the gateway',
    ]);
  });
});

describe("reading the server's JSON", () => {
  it('keeps the objects of a list of rows', () => {
    const rows = rowsOf('contasreceber', [{ CRCB_ID: 1 }, null, 'x', [2], { CRCB_ID: 2 }]);
    expect(rows).toEqual([{ CRCB_ID: 1 }, { CRCB_ID: 2 }]);
    expect(rowsOf('contasreceber', null)).toEqual([]);
    expect(rowOf('boletos', { BOL_ID: 7 })?.BOL_ID).toBe(7);
    expect(rowOf('boletos', [{ BOL_ID: 7 }])).toBeNull();
  });

  it('reads a field named at run time', () => {
    const row: AnyRow = { PEDF_ID: 9 };
    expect(valueOf(row, 'PEDF_ID')).toBe(9);
    expect(valueOf(row, 'NADA')).toBeUndefined();
    expect(valueOf(null, 'PEDF_ID')).toBeUndefined();
  });

  it("reads an untyped answer's names, values unknown", () => {
    const a = reading<'msg' | 'baixas'>({ msg: 'ok', baixas: [{ BAIX_ID: 1 }, 3] });
    expectTypeOf(a.msg).toBeUnknown();
    expect(a.msg).toBe('ok');
    expect(readings<'BAIX_ID'>(a.baixas)).toEqual([{ BAIX_ID: 1 }]);
    expect(reading<'msg'>(null)).toEqual({});
    expect(reading<'msg'>([{ msg: 'x' }])).toEqual({});
    expect(listOf([1, 'a'])).toEqual([1, 'a']);
    expect(listOf({})).toEqual([]);
  });

  it("takes a screen's row as a register's only when the screen shows that register", () => {
    const record: AnyRow = { MAN_ID: 9 };
    expect(rowIf('manifestonfe', 'manifestonfe', record)?.MAN_ID).toBe(9);
    expect(rowIf('manifestonfe', 'compra', record)).toBeNull();
  });
});
