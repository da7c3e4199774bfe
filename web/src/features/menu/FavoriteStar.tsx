import { useLocation } from 'react-router';
import { Icon } from '../../components/Icon';
import { errorMessage } from '../../lib/apollo';
import { isIndexRoute, useCurrentPageMeta } from '../../lib/pageMeta';
import { programForPath, useSession } from '../../lib/session';
import { notify } from '../../lib/toast';
import { useToggleFavorite } from './useToggleFavorite';

/** The star of the top bar: only on routes whose name contains 'index' and that are a program. */
export function FavoriteStar() {
  const session = useSession();
  const meta = useCurrentPageMeta();
  const { pathname } = useLocation();
  const { toggle, loading } = useToggleFavorite();
  const program = session ? programForPath(session.programs, pathname) : undefined;
  if (!session || !program || !isIndexRoute(meta.name)) return null;
  const label = program.favorite ? 'Remover dos Favoritos' : 'Adicionar aos favoritos';
  const onClick = async () => {
    try {
      await toggle(program.id);
    } catch (e) {
      notify.error(errorMessage(e));
    }
  };
  return (
    <button
      type="button"
      title={label}
      aria-label={label}
      aria-pressed={program.favorite}
      disabled={loading}
      onClick={() => void onClick()}
      className="rounded p-1 text-yellow-300 hover:bg-white/10"
    >
      <Icon name={program.favorite ? 'star' : 'starOutline'} />
    </button>
  );
}
