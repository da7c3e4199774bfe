// Apollo Client for the gateway: POST /graphql with the bearer token and the current screen,
// WebSocket /graphql/ws (graphql-transport-ws) for subscriptions, 15 s timeout, and a
// single place that turns an HTTP 401 or an UNAUTHENTICATED error into a logout.
import { ApolloClient, ApolloLink, HttpLink, InMemoryCache, split } from '@apollo/client';
import { setContext } from '@apollo/client/link/context';
import { onError } from '@apollo/client/link/error';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { getMainDefinition } from '@apollo/client/utilities';
import { createClient } from 'graphql-ws';
import { MSG } from './messages';

export const HTTP_TIMEOUT_MS = 15_000;

export interface ApolloOptions {
  getToken: () => string | null;
  onUnauthenticated: () => void;
  uri?: string;
  wsUrl?: string;
}

export class TimeoutError extends Error {
  constructor() {
    super(MSG.timeout);
    this.name = 'TimeoutError';
  }
}

/** fetch with the main client's timeout (spec §8: 15 s, 'Tempo de Solicitação Esgotado'). */
export function timeoutFetch(timeoutMs = HTTP_TIMEOUT_MS): typeof fetch {
  return async (input, init) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    init?.signal?.addEventListener('abort', () => controller.abort());
    try {
      return await fetch(input, { ...init, signal: controller.signal });
    } catch (e) {
      if (controller.signal.aborted && !init?.signal?.aborted) throw new TimeoutError();
      throw e;
    } finally {
      clearTimeout(timer);
    }
  };
}

/** True for the two ways the gateway says the token is no longer good. */
export function isUnauthenticated(error: {
  graphQLErrors?: ReadonlyArray<{ extensions?: Record<string, unknown> | null }>;
  networkError?: unknown;
}): boolean {
  const status = (error.networkError as { statusCode?: number } | null | undefined)?.statusCode;
  if (status === 401) return true;
  return (error.graphQLErrors ?? []).some((e) => e.extensions?.code === 'UNAUTHENTICATED');
}

export const isAuthClose = (event: unknown) => {
  const code = (event as { code?: number } | null)?.code;
  return code === 4401 || code === 4403;
};

export function defaultWsUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}/graphql/ws`;
}

/** The client's cache; tests build theirs with it too, so they normalize as the app does. */
export function createCache() {
  return new InMemoryCache({
    typePolicies: {
      // Programs are per user; their id is stable across menu and session queries.
      UserProgram: { keyFields: ['id'] },
      ResourceMeta: { keyFields: ['name'] },
      Session: { keyFields: [] },
    },
  });
}

export function createApolloClient(opts: ApolloOptions) {
  const auth = setContext((_, { headers }) => {
    const token = opts.getToken();
    return {
      headers: {
        ...headers,
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        'x-erp-screen': window.location.pathname,
      },
    };
  });

  const errors = onError((error) => {
    if (isUnauthenticated(error)) opts.onUnauthenticated();
  });

  const http = new HttpLink({ uri: opts.uri ?? '/graphql', fetch: timeoutFetch() });

  const ws = new GraphQLWsLink(
    createClient({
      url: opts.wsUrl ?? defaultWsUrl(),
      lazy: true,
      retryAttempts: Infinity,
      // 4401/4403: the gateway refused the token in connection_init.
      shouldRetry: (event) => Boolean(opts.getToken()) && !isAuthClose(event),
      on: {
        closed: (event) => {
          if (isAuthClose(event)) opts.onUnauthenticated();
        },
      },
      connectionParams: () => {
        const token = opts.getToken();
        return token ? { authorization: `Bearer ${token}` } : {};
      },
    }),
  );

  const transport = split(
    ({ query }) => {
      const def = getMainDefinition(query);
      return def.kind === 'OperationDefinition' && def.operation === 'subscription';
    },
    ws,
    ApolloLink.from([auth, http]),
  );

  return new ApolloClient({
    link: ApolloLink.from([errors, transport]),
    cache: createCache(),
    defaultOptions: { watchQuery: { fetchPolicy: 'cache-and-network' } },
  });
}

/** The message to show for a failed call: the server's text when it sent one. */
export function errorMessage(error: unknown): string {
  const e = error as {
    graphQLErrors?: ReadonlyArray<{ message: string }>;
    networkError?: { message?: string } | null;
    message?: string;
  };
  if (e?.graphQLErrors?.length) return e.graphQLErrors.map((g) => g.message).join('\n');
  if (e?.networkError?.message) return e.networkError.message;
  return e?.message ?? 'Ocorreu um erro durante o processo.';
}
