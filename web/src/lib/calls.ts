// The declared calls typed by the gateway's schemas. Each call's metadata carries the JSON
// Schemas of its input and answer (ActionMeta.schemas), whose references name schemas of
// api-schemas.json; which call is which is known at run time only, so CALLS says it to the
// compiler: by register and call, the names of the schemas (checked against the generated
// ones). `callsDrift` compares CALLS with what the gateway declares (the e2e journey runs it
// against a live gateway), so a call that gains or changes schemas is told, not guessed.
//
// No React, no Apollo: the e2e journey imports it too.
import { GENERATED_CALLS } from '../generated/calls';
import type { ColumnValues, RegisterName, Schema, SchemaName } from './api';

/**
 * A declared call's schemas in api-schemas.json: its input (path parameters and body
 * together) and its answer (null: no schema of its own, the answer stays unknown); `list`: it
 * answers a list of them.
 */
interface CallSchemas {
  readonly input: SchemaName;
  readonly output: SchemaName | null;
  readonly list?: true;
}

/**
 * The declared calls whose input and answer have schemas, by register and call name, as the
 * gateway declares them (services/*: `.call(...)` with an `Operation`'s `In` and `Out`; an
 * `Out` of `Row` is the call's register's row), generated from api-schemas.json's `x-calls`
 * (`make schema`). The compiler checks every name against the generated schemas; a call left
 * out is untyped (`unknown` both ways).
 */
export const CALLS = GENERATED_CALLS satisfies {
  readonly [R in RegisterName]?: { readonly [call: string]: CallSchemas };
};

/** The calls CALLS types. */
export type DeclaredCalls = typeof CALLS;

type CallOf<R extends string, A extends string> = R extends keyof DeclaredCalls
  ? A extends keyof DeclaredCalls[R]
    ? DeclaredCalls[R][A]
    : null
  : null;

/** What call `A` of register `R` takes (path parameters and body together); unknown for an untyped call. */
export type CallInput<R extends string, A extends string> =
  CallOf<R, A> extends { input: infer I extends SchemaName } ? Schema<I> : unknown;

/** What call `A` of register `R` answers; unknown for an untyped call. */
export type CallOutput<R extends string, A extends string> =
  CallOf<R, A> extends { output: infer O extends SchemaName }
    ? CallOf<R, A> extends { list: true }
      ? Schema<O>[]
      : Schema<O>
    : unknown;

/**
 * The path parameters of a call by name (`emp` is added): part of its input when it is typed
 * (a company parameter the call reads as its company, not as an input field, is allowed too).
 */
export type CallParams<R extends string, A extends string> =
  CallOf<R, A> extends CallSchemas ? Partial<CallInput<R, A>> & Company : ColumnValues;

/**
 * The company of a call, in its path or its body (`EMP_ID`): the engine resolves it (path,
 * body, the user's current one), so a call's input does not name it.
 */
interface Company {
  readonly emp?: number;
  readonly EMP_ID?: number;
}

/** A call's JSON body: part of its input when it is typed. */
export type CallBody<R extends string, A extends string> =
  CallOf<R, A> extends CallSchemas ? Partial<CallInput<R, A>> & Company : unknown;

// ------------------------------------------------------------------------------ drift

/** What a JSON Schema of ActionMeta.schemas names: a component schema, or a list of them. */
interface Named {
  name: string;
  list: boolean;
}

const REF = '#/components/schemas/';
const objectOf = (v: unknown): { readonly [key: string]: unknown } | null =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as { readonly [key: string]: unknown }) : null;

/**
 * The component schema a call's JSON Schema names (`register`: the call's): a reference, a
 * row (`x-row`: the call's register's, or the one it names), or a list of either; null for a
 * schema of its own (a legacy call's `{}`, `{type: 'object'}`).
 */
function named(schema: unknown, register: string): Named | null {
  const s = objectOf(schema);
  if (!s) return null;
  if (typeof s.$ref === 'string' && s.$ref.startsWith(REF)) return { name: s.$ref.slice(REF.length), list: false };
  if (s['x-row'] === true) return { name: `${register}.row`, list: false };
  if (typeof s['x-row'] === 'string') return { name: `${s['x-row']}.row`, list: false };
  if (s.type === 'array') {
    const item = named(s.items, register);
    return item && !item.list ? { name: item.name, list: true } : null;
  }
  return null;
}

const shown = (n: Named | null) => (n ? `${n.name}${n.list ? '[]' : ''}` : 'none');

/** A register's calls as its metadata describes them (ResourceMeta.actions: name and schemas). */
export interface RegisterCalls {
  name: string;
  actions: readonly { name: string; schemas: unknown }[];
}

/**
 * How CALLS differs from the calls the gateway declares on these registers: one line per
 * difference (a call with schemas CALLS leaves out, a call whose schemas differ, a call CALLS
 * names that the register does not declare); none when they agree.
 */
export function callsDrift(registers: readonly RegisterCalls[]): string[] {
  const table: { readonly [register: string]: { readonly [call: string]: CallSchemas } | undefined } = CALLS;
  const drift: string[] = [];
  for (const register of registers) {
    const typed = table[register.name] ?? {};
    const declared = new Map(register.actions.map((a) => [a.name, a.schemas]));
    for (const [call, schemas] of declared) {
      const s = objectOf(schemas);
      const input = named(s?.input, register.name);
      const output = named(s?.output, register.name);
      const here = typed[call];
      const where = `${register.name}.${call}`;
      if (!here) {
        // CALLS types the calls whose input has a schema of its own (a free-form filter is untyped).
        if (input) drift.push(`${where}: ${shown(input)} -> ${shown(output)} in the gateway, not in CALLS`);
        continue;
      }
      const ours: Named | null = here.output ? { name: here.output, list: here.list === true } : null;
      if (shown(input) !== here.input || shown(output) !== shown(ours)) {
        drift.push(
          `${where}: ${shown(input)} -> ${shown(output)} in the gateway, ${here.input} -> ${shown(ours)} in CALLS`,
        );
      }
    }
    for (const call of Object.keys(typed)) {
      if (!declared.has(call)) drift.push(`${register.name}.${call}: in CALLS, not declared by the gateway`);
    }
  }
  return drift;
}
