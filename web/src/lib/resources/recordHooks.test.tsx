import { useQuery, type InMemoryCache } from '@apollo/client';
import type { MockedResponse } from '@apollo/client/testing';
import { act, renderHook, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ResourceListQueryVariables } from '../../generated/graphql';
import { Providers, signIn } from '../../test/utils';
import { createCache } from '../apollo';
import {
  ResourceCreateDocument,
  ResourceDeleteDocument,
  ResourceGetDocument,
  ResourceListDocument,
  ResourceUpdateDocument,
} from './documents';
import { useCreateRecord } from './useCreateRecord';
import { useDeleteRecord } from './useDeleteRecord';
import { useUpdateRecord } from './useUpdateRecord';

const ana = { CLI_ID: 1, CLI_DESCRICAO: 'Ana', id: 1, text: 'Ana' };
const bruno = { CLI_ID: 2, CLI_DESCRICAO: 'Bruno', id: 2, text: 'Bruno' };
const carla = { CLI_ID: 3, CLI_DESCRICAO: 'Carla', id: 3, text: 'Carla' };

const firstPage = { name: 'clientes', emp: 1, input: { filter: null, order: 'CLI_DESCRICAO ASC', page: 1, limit: 20 } };
const searchPage = {
  name: 'clientes',
  emp: 1,
  input: { filter: 'carla', order: 'CLI_DESCRICAO ASC', page: 1, limit: 20 },
};
const products = { name: 'produtos', emp: 1, input: { page: 1, limit: 20 } };
const record = (id: number) => ({ name: 'clientes', emp: 1, id });

let cache: InMemoryCache;

const page = (rows: Record<string, unknown>[]) => ({ __typename: 'ResourcePage', rows, total: rows.length });
// undefined: nothing cached for these variables.
const readPage = (variables: ResourceListQueryVariables) =>
  cache.readQuery({ query: ResourceListDocument, variables })?.resourceList;
const readRecord = (id: number) => cache.readQuery({ query: ResourceGetDocument, variables: record(id) })?.resourceGet;

function wrapper(mocks: MockedResponse[]) {
  return ({ children }: { children: ReactNode }) => (
    <Providers cache={cache} mocks={mocks}>
      {children}
    </Providers>
  );
}

beforeEach(() => {
  signIn();
  cache = createCache();
  cache.writeQuery({ query: ResourceListDocument, variables: firstPage, data: { resourceList: page([ana, bruno]) } });
  cache.writeQuery({ query: ResourceListDocument, variables: searchPage, data: { resourceList: page([carla]) } });
  cache.writeQuery({
    query: ResourceListDocument,
    variables: products,
    data: { resourceList: page([{ PROD_ID: 1 }]) },
  });
  cache.writeQuery({ query: ResourceGetDocument, variables: record(1), data: { resourceGet: ana } });
  cache.writeQuery({ query: ResourceGetDocument, variables: record(2), data: { resourceGet: bruno } });
});

describe('useDeleteRecord', () => {
  it('drops the row from the cached page that held it and evicts its record and the shifted pages', async () => {
    const { result } = renderHook(() => useDeleteRecord('clientes', ['CLI_ID']), {
      wrapper: wrapper([
        {
          request: { query: ResourceDeleteDocument, variables: record(1) },
          result: { data: { resourceDelete: true } },
        },
      ]),
    });
    await act(() => result.current.remove(1));

    expect(readPage(firstPage)).toEqual(page([bruno]));
    expect(readRecord(1)).toBeUndefined();
    expect(readRecord(2)).toEqual(bruno);
    // Carla's page did not hold Ana but may have shifted: it is read again when shown.
    expect(readPage(searchPage)).toBeUndefined();
    expect(readPage(products)).toEqual(page([{ PROD_ID: 1 }]));
  });

  it('updates the list on screen without reading it again', async () => {
    const listFetched = vi.fn(() => ({ data: { resourceList: page([ana, bruno]) } }));
    cache = createCache();
    function List() {
      const { data } = useQuery(ResourceListDocument, { variables: firstPage });
      return <p data-testid="rows">{data?.resourceList.rows.map((r) => String(r.CLI_DESCRICAO)).join(',')}</p>;
    }
    const { result } = renderHook(() => useDeleteRecord('clientes', ['CLI_ID']), {
      wrapper: ({ children }) => (
        <Providers
          cache={cache}
          mocks={[
            { request: { query: ResourceListDocument, variables: firstPage }, result: listFetched, maxUsageCount: 2 },
            {
              request: { query: ResourceDeleteDocument, variables: record(1) },
              result: { data: { resourceDelete: true } },
            },
          ]}
        >
          <List />
          {children}
        </Providers>
      ),
    });
    await waitFor(() => expect(screen.getByTestId('rows')).toHaveTextContent('Ana,Bruno'));
    await act(() => result.current.remove(1));
    expect(screen.getByTestId('rows')).toHaveTextContent(/^Bruno$/);
    expect(readPage(firstPage)?.total).toBe(1);
    expect(listFetched).toHaveBeenCalledTimes(1);
  });
});

describe('useUpdateRecord', () => {
  it("merges the server's row into the cached pages and record", async () => {
    const answer = { CLI_ID: 2, CLI_DESCRICAO: 'Bruno Silva' };
    const { result } = renderHook(() => useUpdateRecord('clientes', ['CLI_ID']), {
      wrapper: wrapper([
        {
          request: {
            query: ResourceUpdateDocument,
            variables: { ...record(2), data: { CLI_DESCRICAO: 'Bruno Silva' } },
          },
          result: { data: { resourceUpdate: answer } },
        },
      ]),
    });
    await act(async () => {
      expect(await result.current.update(2, { CLI_DESCRICAO: 'Bruno Silva' })).toEqual(answer);
    });

    expect(readPage(firstPage)).toEqual(page([ana, { ...bruno, CLI_DESCRICAO: 'Bruno Silva' }]));
    expect(readRecord(2)).toEqual({ ...bruno, CLI_DESCRICAO: 'Bruno Silva' });
    expect(readRecord(1)).toEqual(ana);
    expect(readPage(searchPage)).toEqual(page([carla]));
  });

  it('reads the shown records of the registers it recomputes again before resolving', async () => {
    const header = { name: 'orcamento', emp: 1, id: 5 };
    const headerFetched = vi
      .fn()
      .mockReturnValueOnce({ data: { resourceGet: { ORCA_ID: 5, ORCA_VLR_TOT: '10.00' } } })
      .mockReturnValueOnce({ data: { resourceGet: { ORCA_ID: 5, ORCA_VLR_TOT: '15.00' } } });
    function Header() {
      const { data } = useQuery(ResourceGetDocument, { variables: header, fetchPolicy: 'network-only' });
      return <p data-testid="total">{String(data?.resourceGet?.ORCA_VLR_TOT ?? '')}</p>;
    }
    const line = { ORCP_ORCA_ID: 5, ORCP_ID: 1 };
    const recomputes = ['orcamento'];
    const { result } = renderHook(
      () => useUpdateRecord('orcamentoproduto', ['ORCP_ORCA_ID', 'ORCP_ID'], { recomputes }),
      {
        wrapper: ({ children }) => (
          <Providers
            cache={cache}
            mocks={[
              { request: { query: ResourceGetDocument, variables: header }, result: headerFetched, maxUsageCount: 2 },
              {
                request: {
                  query: ResourceUpdateDocument,
                  variables: { name: 'orcamentoproduto', emp: 1, id: line, data: { ORCP_QTDE: 3 } },
                },
                result: { data: { resourceUpdate: { ...line, ORCP_QTDE: '3' } } },
              },
            ]}
          >
            <Header />
            {children}
          </Providers>
        ),
      },
    );
    await waitFor(() => expect(screen.getByTestId('total')).toHaveTextContent('10.00'));
    await act(async () => {
      await result.current.update(line, { ORCP_QTDE: 3 });
      expect(headerFetched).toHaveBeenCalledTimes(2);
    });
    expect(screen.getByTestId('total')).toHaveTextContent('15.00');
  });
});

describe('useCreateRecord', () => {
  it("evicts the register's cached pages and leaves the others", async () => {
    const { result } = renderHook(() => useCreateRecord('clientes'), {
      wrapper: wrapper([
        {
          request: {
            query: ResourceCreateDocument,
            variables: { name: 'clientes', emp: 1, data: { CLI_DESCRICAO: 'Dora' } },
          },
          result: { data: { resourceCreate: { CLI_ID: 4, CLI_DESCRICAO: 'Dora' } } },
        },
      ]),
    });
    await act(async () => {
      expect(await result.current.create({ CLI_DESCRICAO: 'Dora' })).toEqual({ CLI_ID: 4, CLI_DESCRICAO: 'Dora' });
    });

    expect(readPage(firstPage)).toBeUndefined();
    expect(readPage(searchPage)).toBeUndefined();
    expect(readRecord(1)).toEqual(ana);
    expect(readPage(products)).toEqual(page([{ PROD_ID: 1 }]));
  });
});
