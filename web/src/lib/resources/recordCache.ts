// How a register write keeps Apollo's cache in step. Register reads are root fields
// (resourceList pages, resourceGet records) whose rows are JSON, so nothing is normalized:
// a write finds its register's entries by the arguments Apollo keeps in each field's store
// name, `resourceGet({"emp":1,"id":5,"name":"clientes"})`.
import type { ApolloCache, ApolloClient, QueryOptions } from '@apollo/client';
import type { Row } from '../../components/tables/types';
import type { ResourceGetQuery, ResourceListQuery } from '../../generated/graphql';
import { ResourceGetDocument, ResourceListDocument } from './documents';

type RegisterReads = ResourceListQuery & ResourceGetQuery;

interface ReadArgs {
  name?: unknown;
  emp?: unknown;
  id?: unknown;
}

function argsOf(storeFieldName: string): ReadArgs {
  const open = storeFieldName.indexOf('(');
  if (open < 0) return {};
  try {
    return JSON.parse(storeFieldName.slice(open + 1, storeFieldName.lastIndexOf(')'))) as ReadArgs;
  } catch {
    return {};
  }
}

/** The id a row is addressed by: its key column, or an object of the key columns. */
export function idOf(key: readonly string[], row: Row): unknown {
  if (key.length === 1) return row[key[0]];
  return Object.fromEntries(key.map((k) => [k, row[k]]));
}

/** Ids compared as the gateway reads them: 5 and '5' are the same record, key order aside. */
export function sameId(a: unknown, b: unknown): boolean {
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const x = a as Record<string, unknown>;
    const y = b as Record<string, unknown>;
    const keys = Object.keys(x);
    return keys.length === Object.keys(y).length && keys.every((k) => k in y && String(x[k]) === String(y[k]));
  }
  return a != null && b != null && String(a) === String(b);
}

/** A register of the company the screen works in. */
export interface RegisterRef {
  name: string;
  emp: number;
}

const isOf = (args: ReadArgs, ref: RegisterRef) => args.name === ref.name && args.emp === ref.emp;

/** An updated row replaces its fields in every cached page and in its cached record. */
export function mergeRecord(
  cache: ApolloCache<object>,
  ref: RegisterRef,
  key: readonly string[],
  id: unknown,
  row: Row,
) {
  cache.modify<RegisterReads>({
    fields: {
      resourceList(page, { storeFieldName, isReference }) {
        if (isReference(page) || !isOf(argsOf(storeFieldName), ref)) return page;
        return { ...page, rows: page.rows.map((r) => (sameId(idOf(key, r), id) ? { ...r, ...row } : r)) };
      },
      resourceGet(record, { storeFieldName }) {
        const args = argsOf(storeFieldName);
        if (!record || !isOf(args, ref) || !sameId(args.id, id)) return record;
        return { ...record, ...row };
      },
    },
  });
}

/**
 * A deleted row leaves the cached pages that held it (their total drops by one) and its cached
 * record is evicted. Other pages of the register are evicted too: the rows after the deleted one
 * moved up a place, so they are read again when shown.
 */
export function removeRecord(cache: ApolloCache<object>, ref: RegisterRef, key: readonly string[], id: unknown) {
  cache.modify<RegisterReads>({
    fields: {
      resourceList(page, { storeFieldName, DELETE, isReference }) {
        if (isReference(page) || !isOf(argsOf(storeFieldName), ref)) return page;
        const rows = page.rows.filter((r) => !sameId(idOf(key, r), id));
        return rows.length === page.rows.length ? DELETE : { ...page, rows, total: Math.max(0, page.total - 1) };
      },
      resourceGet(record, { storeFieldName, DELETE }) {
        const args = argsOf(storeFieldName);
        return isOf(args, ref) && sameId(args.id, id) ? DELETE : record;
      },
    },
  });
  cache.gc();
}

/** Evicts every cached page of these registers; a page on screen is read again at once. */
export function evictPages(cache: ApolloCache<object>, refs: RegisterRef[]) {
  cache.modify<RegisterReads>({
    fields: {
      resourceList(page, { storeFieldName, DELETE }) {
        const args = argsOf(storeFieldName);
        return refs.some((ref) => isOf(args, ref)) ? DELETE : page;
      },
    },
  });
  cache.gc();
}

/**
 * Evicts every cached page and record of these registers: a call changed rows the client cannot
 * name (a settlement moved a title's paid value, status and balance, and the rows of every
 * register over the same titles). What is on screen is read again at once.
 */
export function evictReads(cache: ApolloCache<object>, refs: RegisterRef[]) {
  cache.modify<RegisterReads>({
    fields: {
      resourceList(page, { storeFieldName, DELETE }) {
        return refs.some((ref) => isOf(argsOf(storeFieldName), ref)) ? DELETE : page;
      },
      resourceGet(record, { storeFieldName, DELETE }) {
        return refs.some((ref) => isOf(argsOf(storeFieldName), ref)) ? DELETE : record;
      },
    },
  });
  cache.gc();
}

/**
 * The reads of these registers that a screen shows (active resourceGet and resourceList
 * queries), as `refetchQueries` entries with their own variables.
 */
export function shownReads(client: ApolloClient<object>, names: readonly string[]): QueryOptions[] {
  const reads: QueryOptions[] = [];
  for (const query of client.getObservableQueries('active').values()) {
    const name: unknown = query.variables?.name;
    const isRead = query.options.query === ResourceGetDocument || query.options.query === ResourceListDocument;
    if (isRead && typeof name === 'string' && names.includes(name)) {
      reads.push({ query: query.options.query, variables: query.variables });
    }
  }
  return reads;
}
