import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCache } from '../../lib/apollo';
import { setPageMeta } from '../../lib/pageMeta';
import { getSession } from '../../lib/session';
import { program, renderWith, signIn } from '../../test/utils';
import { MenuDocument, ToggleFavoriteDocument } from './documents';
import { FavoriteStar } from './FavoriteStar';
import { SideMenu } from './SideMenu';

afterEach(() => vi.restoreAllMocks());

const clientes = program({ id: 1, name: 'IndexClientes', description: 'Clientes', webPath: '/clientes' });
const menu = [
  {
    __typename: 'MenuNode',
    label: 'Clientes',
    icon: null,
    program: { __typename: 'UserProgram', ...clientes },
    children: [],
  },
];

describe('FavoriteStar', () => {
  it('shows only on index routes of a program', () => {
    signIn({ programs: [clientes] });
    setPageMeta({ title: 'Editar Clientes', name: 'AlterClientes' });
    const { unmount } = renderWith(<FavoriteStar />, { route: '/clientes' });
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    unmount();
    setPageMeta({ title: 'Clientes', name: 'IndexClientes' });
    renderWith(<FavoriteStar />, { route: '/clientes' });
    expect(screen.getByRole('button', { name: 'Adicionar aos favoritos' })).toHaveAttribute(
      'title',
      'Adicionar aos favoritos',
    );
  });

  it('marks the menu entry from the cached answer, without reading the menu again', async () => {
    signIn({ programs: [clientes] });
    setPageMeta({ title: 'Clientes', name: 'IndexClientes' });
    const cache = createCache();
    const menuFetched = vi.fn(() => ({ data: { menu } }));
    renderWith(
      <>
        <SideMenu />
        <FavoriteStar />
      </>,
      {
        route: '/clientes',
        cache,
        mocks: [
          { request: { query: MenuDocument }, result: menuFetched, maxUsageCount: 2 },
          {
            request: { query: ToggleFavoriteDocument, variables: { programId: 1 } },
            result: { data: { toggleFavorite: { __typename: 'UserProgram', ...clientes, favorite: true } } },
          },
        ],
      },
    );
    const entry = await screen.findByRole('link', { name: 'Clientes' });
    expect(entry.querySelector('svg')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Adicionar aos favoritos' }));
    expect(await screen.findByRole('button', { name: 'Remover dos Favoritos' })).toBeInTheDocument();
    await waitFor(() => expect(entry.querySelector('svg')).not.toBeNull());
    expect(cache.readQuery({ query: MenuDocument })?.menu[0].program?.favorite).toBe(true);
    expect(getSession()?.favourites).toEqual(['/clientes']);
    expect(menuFetched).toHaveBeenCalledTimes(1);
  });
});
