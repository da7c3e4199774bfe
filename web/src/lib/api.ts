// The register API typed by the gateway's own schemas. `make schema` exports every register's
// row (`<register>.row`, `.create`, `.update`) and the named inputs and outputs of the declared
// calls as JSON Schemas (web/api-schemas.json); `npm run codegen` turns them into
// src/generated/api.ts. GraphQL still carries rows as its JSON scalar (`resourceList`,
// `resourceGet`, `resourceCreate`, `resourceUpdate`, `resourceAction`): the server is the
// source of truth, and this module is where its JSON is read as the generated types, once.
//
// The declared calls are typed by CALLS (./calls.ts). A call no schema describes yet (a legacy
// call: `{}` in ActionMeta.schemas) answers `unknown`: its screen reads what it needs with
// `reading`/`readings` (names, values unknown) and checks each value where it uses it.
import { useApolloClient, useQuery, type FetchPolicy } from '@apollo/client';
import { useCallback, useMemo } from 'react';
import type { components } from '../generated/api';
import type { ListInput } from '../generated/graphql';
import { ResourceGetDocument, ResourceListDocument } from './resources/documents';
import { useCreateRecord } from './resources/useCreateRecord';
import { useCompanyId } from './resources/useResourceData';
import { useUpdateRecord, type RecordWriteOptions } from './resources/useUpdateRecord';

// ------------------------------------------------------------------------------ schemas

export type Schemas = components['schemas'];
export type SchemaName = keyof Schemas;
export type Schema<N extends SchemaName> = Schemas[N];

/** Every register the gateway documents ('contasreceber', 'pedido'...): the names of its `<register>.row` schemas. */
export type RegisterName = { [K in SchemaName]: K extends `${infer R}.row` ? R : never }[SchemaName];

/** A register's row as the server answers it (`resourceList`, `resourceGet`, writes). */
export type Row<R extends RegisterName> = Schemas[`${R}.row`];
/** What creating a row of the register takes. */
export type NewRow<R extends RegisterName> = Schemas[`${R}.create`];
/** What changing a row of the register takes. */
export type RowChanges<R extends RegisterName> = Schemas[`${R}.update`];

/**
 * A row of some register, which one known at run time only (a screen built from the metadata,
 * a document and its lines): its fields are read by the names the metadata gives, `valueOf`.
 */
export type AnyRow = Row<RegisterName>;

/**
 * Values by column name of a register known at run time (a write or a filter built from the
 * metadata): the server checks the names and the values against the register's schemas.
 */
export type ColumnValues = { readonly [column: string]: unknown };

/** The row of register `N`: its generated type for a register name, any register's for a name known at run time. */
export type RowOf<N extends string> = N extends RegisterName ? Row<N> : string extends N ? AnyRow : never;

/** The columns of row type `T` whose values (null aside) are of type `V`. */
export type ColumnOf<T, V> = { [K in keyof T]-?: [NonNullable<T[K]>] extends [V] ? K : never }[keyof T] & string;

/**
 * An id as a call takes it (an integer): a number, or the digits a form or a route holds;
 * undefined for anything else.
 */
export function toId(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isInteger(v) ? v : undefined;
  if (typeof v === 'string' && /^\s*-?\d+\s*$/.test(v)) return Number(v);
  return undefined;
}

/** The ids of a list as a call takes them (what is not an id is left out). */
export function toIds(vs: readonly unknown[]): number[] {
  return vs.flatMap((v) => {
    const id = toId(v);
    return id === undefined ? [] : [id];
  });
}

/**
 * A field named at run time (by the metadata) of a row: what it holds, unknown to the compiler.
 * Code that knows the register reads its fields as properties instead.
 */
export function valueOf(row: object | null | undefined, column: string): unknown {
  return row == null ? undefined : (row as { readonly [column: string]: unknown })[column];
}

/**
 * The rows of register `name` as the server sends them (the JSON scalar, shaped by the
 * register's row schema); anything but an object is left out.
 */
export function rowsOf<N extends string>(_name: N, rows: unknown): RowOf<N>[] {
  return Array.isArray(rows) ? (rows.filter(isObject) as RowOf<N>[]) : [];
}

/** One row of register `name` as the server sends it, or null. */
export function rowOf<N extends string>(_name: N, row: unknown): RowOf<N> | null {
  return isObject(row) ? (row as RowOf<N>) : null;
}

/**
 * The row of a screen built from the metadata as register `name`'s row, when that is the
 * register the screen shows (`register`, its metadata's name); null for any other.
 */
export function rowIf<R extends RegisterName>(
  name: R,
  register: string,
  row: object | null | undefined,
): Row<R> | null {
  return register === name && row != null ? (row as Row<R>) : null;
}

const isObject = (v: unknown): v is object => v !== null && typeof v === 'object' && !Array.isArray(v);

// ------------------------------------------------------------------------ untyped answers

/**
 * What a screen reads of a value no schema describes (a legacy call's answer): the names it
 * looks at, each value unknown until checked where it is used.
 */
export type Reading<K extends string> = { readonly [P in K]?: unknown };

/** An untyped answer read for names `K` (anything but an object reads as empty). */
export const reading = <K extends string>(v: unknown): Reading<K> => (isObject(v) ? v : {});

/** An untyped answer's list of objects, each read for names `K` (anything else: none). */
export const readings = <K extends string>(v: unknown): Reading<K>[] => (Array.isArray(v) ? v.filter(isObject) : []);

/** An untyped answer's list, items unknown (anything else: none). */
export const listOf = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

// --------------------------------------------------------------------------- declared calls

export {
  CALLS,
  callsDrift,
  type CallBody,
  type CallInput,
  type CallOutput,
  type CallParams,
  type DeclaredCalls,
} from './calls';

// --------------------------------------------------------------------------- GraphQL reads

/**
 * `resourceList`'s `where`: by a column's name an equality (a list: any of its values), by
 * `<column>_INI` / `<column>_FIM` the bounds of a range. Its names come from a register's
 * columns or its metadata; the server checks them.
 */
export type ListWhere = { [filter: string]: unknown };

interface ReadOptions {
  skip?: boolean;
  fetchPolicy?: FetchPolicy;
  notifyOnNetworkStatusChange?: boolean;
}

/**
 * A page of register `name` (`resourceList`, the company's): its rows as the generated row
 * type, the total, and the read's state. `input` null: nothing is read.
 */
export function useRows<N extends string>(name: N, input: ListInput | null, options: ReadOptions = {}) {
  const emp = useCompanyId();
  const { skip = false, ...rest } = options;
  const { data, loading, error } = useQuery(ResourceListDocument, {
    ...rest,
    skip: skip || input === null,
    variables: { name, emp, input },
  });
  const rows = useMemo(() => rowsOf(name, data?.resourceList.rows), [name, data]);
  return { rows, total: data?.resourceList.total ?? 0, data, loading, error };
}

/** One row of register `name` by its id (`resourceGet`); `id` undefined: nothing is read. */
export function useRow<N extends string>(name: N, id: unknown, options: ReadOptions = {}) {
  const emp = useCompanyId();
  const { skip = false, ...rest } = options;
  const { data, loading, error } = useQuery(ResourceGetDocument, {
    ...rest,
    skip: skip || id === undefined,
    variables: { name, emp, id: id ?? null },
  });
  const row = useMemo(() => rowOf(name, data?.resourceGet), [name, data]);
  return { row, data, loading, error };
}

/** Reads rows of register `name` when asked (a search, the texts of ids), outside a component's query. */
export function useReadRows() {
  const client = useApolloClient();
  const emp = useCompanyId();
  return useCallback(
    async <N extends string>(
      name: N,
      input: ListInput,
      fetchPolicy: 'cache-first' | 'network-only' = 'cache-first',
    ) => {
      const { data } = await client.query({
        query: ResourceListDocument,
        variables: { name, emp, input },
        fetchPolicy,
      });
      return rowsOf(name, data?.resourceList.rows);
    },
    [client, emp],
  );
}

// -------------------------------------------------------------------------- GraphQL writes

/** What creating a row of `N` takes: its create schema, or (a register known at run time) its columns by name. */
export type NewRowOf<N extends string> = N extends RegisterName ? NewRow<N> : ColumnValues;
/** What changing a row of `N` takes: its update schema, or (a register known at run time) its columns by name. */
export type RowChangesOf<N extends string> = N extends RegisterName ? RowChanges<N> : ColumnValues;

/** `resourceCreate` on register `name` (its cached pages evicted): the row the server stored. */
export function useCreateRow<N extends string>(name: N) {
  const { create: run, loading } = useCreateRecord(name);
  const create = useCallback(async (data: NewRowOf<N>): Promise<RowOf<N>> => (await run(data)) as RowOf<N>, [run]);
  return { create, loading };
}

/** `resourceUpdate` on register `name` (its cached rows merged): the row the server stored. */
export function useUpdateRow<N extends string>(name: N, key: readonly string[], options?: RecordWriteOptions) {
  const { update: run, loading } = useUpdateRecord(name, key, options);
  const update = useCallback(
    async (id: unknown, data: RowChangesOf<N>): Promise<RowOf<N>> => (await run(id, data)) as RowOf<N>,
    [run],
  );
  return { update, loading };
}
