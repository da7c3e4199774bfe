import { gql } from '@apollo/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TimeoutError, createApolloClient, isAuthClose, isUnauthenticated, timeoutFetch } from './apollo';

const QUERY = gql`
  query ServerVersion {
    serverVersion
  }
`;

function client(onUnauthenticated = vi.fn(), token: string | null = 'tok') {
  return {
    onUnauthenticated,
    apollo: createApolloClient({
      getToken: () => token,
      onUnauthenticated,
      uri: 'http://test/graphql',
      wsUrl: 'ws://test/graphql/ws',
    }),
  };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => vi.unstubAllGlobals());

describe('apollo client', () => {
  it('sends the bearer token and the current screen', async () => {
    const fetchMock = vi.fn(async () => json({ data: { serverVersion: '4.0.2' } }));
    vi.stubGlobal('fetch', fetchMock);
    window.history.pushState({}, '', '/clientes');
    const { apollo } = client();
    const res = await apollo.query({ query: QUERY });
    expect(res.data.serverVersion).toBe('4.0.2');
    const init = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1];
    const headers = init.headers as Record<string, string>;
    expect(headers.authorization).toBe('Bearer tok');
    expect(headers['x-erp-screen']).toBe('/clientes');
  });

  it('logs out on HTTP 401', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ errors: [{ message: 'não autenticado' }] }, 401)),
    );
    const { apollo, onUnauthenticated } = client();
    await expect(apollo.query({ query: QUERY })).rejects.toThrow();
    expect(onUnauthenticated).toHaveBeenCalledTimes(1);
  });

  it('logs out on a GraphQL error with code UNAUTHENTICATED', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        json({ data: null, errors: [{ message: 'Sessão expirada', extensions: { code: 'UNAUTHENTICATED' } }] }),
      ),
    );
    const { apollo, onUnauthenticated } = client();
    await expect(apollo.query({ query: QUERY })).rejects.toThrow('Sessão expirada');
    expect(onUnauthenticated).toHaveBeenCalledTimes(1);
  });

  it('does not log out on other errors', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        json({ data: null, errors: [{ message: 'CPF já cadastrado', extensions: { code: 'BAD_USER_INPUT' } }] }),
      ),
    );
    const { apollo, onUnauthenticated } = client();
    await expect(apollo.query({ query: QUERY })).rejects.toThrow('CPF já cadastrado');
    expect(onUnauthenticated).not.toHaveBeenCalled();
    expect(isUnauthenticated({ networkError: { statusCode: 500 } })).toBe(false);
  });

  it("times out with 'Tempo de Solicitação Esgotado'", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_: unknown, init: RequestInit) =>
          new Promise((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(new Error('aborted')))),
      ),
    );
    const call = timeoutFetch(20)('http://test/graphql', {});
    await expect(call).rejects.toBeInstanceOf(TimeoutError);
    await expect(call).rejects.toThrow('Tempo de Solicitação Esgotado');
  });
});

describe('websocket close codes', () => {
  it('treats 4401 and 4403 as a refused token', () => {
    expect(isAuthClose({ code: 4401 })).toBe(true);
    expect(isAuthClose({ code: 4403 })).toBe(true);
    expect(isAuthClose({ code: 1006 })).toBe(false);
    expect(isAuthClose(null)).toBe(false);
  });
});
