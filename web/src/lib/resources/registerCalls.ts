// A register's declared calls run through `resourceAction` (a GraphQL mutation: Apollo does not
// cache its answer), and the answer of a call that reads, kept by the hook that asked for it.
// Shared by the features that call what the metadata declares (finance, fiscal).
import { useApolloClient } from '@apollo/client';
import { useCallback, useEffect, useState } from 'react';
import type { CallBody, CallOutput, CallParams } from '../api';
import { ResourceActionDocument } from './documents';
import { evictReads } from './recordCache';
import { useCompanyId } from './useResourceData';

/**
 * Runs a declared call of register `name` (`emp` added to its path parameters). With `evicts`,
 * the call writes: those registers' cached reads go. A call with schemas (CALLS, src/lib/api.ts)
 * takes and answers its generated types; any other answers `unknown`, read where it is used.
 */
export function useRegisterCall() {
  const client = useApolloClient();
  const emp = useCompanyId();
  return useCallback(
    async <R extends string, A extends string>(
      name: R,
      action: A,
      params: CallParams<R, A> = {},
      body?: CallBody<R, A>,
      evicts: string[] = [],
    ): Promise<CallOutput<R, A>> => {
      const { data } = await client.mutate({
        mutation: ResourceActionDocument,
        variables: { name, action, params: { emp, ...params }, ...(body !== undefined ? { body } : {}) },
        update: evicts.length
          ? (cache) =>
              evictReads(
                cache,
                evicts.map((n) => ({ name: n, emp })),
              )
          : undefined,
      });
      // The JSON the server answered, shaped by the call's output schema.
      return data?.resourceAction as CallOutput<R, A>;
    },
    [client, emp],
  );
}

export interface CallResult<T> {
  /** The answer; while a new one is read, the previous one stays. */
  data: T | undefined;
  error: unknown;
  loading: boolean;
  /** Reads again (the hooks call it after their own writes). */
  reload: () => void;
}

/**
 * The answer of `read` (null: nothing to read). A new `read` (its inputs changed) reads again;
 * until it answers, `loading` is true and the previous answer is kept.
 */
export function useCallResult<T>(read: (() => Promise<T>) | null): CallResult<T> {
  const [version, setVersion] = useState(0);
  const [state, setState] = useState<{ read: unknown; version: number; data?: T; error?: unknown } | null>(null);
  useEffect(() => {
    if (!read) return;
    let live = true;
    read().then(
      (data) => live && setState({ read, version, data }),
      (error: unknown) => live && setState((s) => ({ read, version, data: s?.data, error })),
    );
    return () => {
      live = false;
    };
  }, [read, version]);
  const current = state && state.read === read && state.version === version ? state : null;
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { data: state?.data, error: current?.error, loading: read != null && !current, reload };
}
