import { maskCpfCnpj } from '../../lib/masks';
import { useNavigate } from 'react-router';
import { Icon } from '../../components/Icon';
import { usePageMeta } from '../../lib/pageMeta';
import { useSession, webHref } from '../../lib/session';
import { Dashboard } from './Dashboard';

/** 'Página Inicial': a greeting, the user's favourite screens and the dashboard of a period. */
export default function HomePage() {
  usePageMeta('Página Inicial', 'HomeView');
  const session = useSession();
  const navigate = useNavigate();
  if (!session) return null;
  const favourites = session.programs.filter((p) => p.favorite && p.webPath);
  return (
    <section className="space-y-4">
      <div className="rounded bg-white p-4 shadow-sm">
        <p className="text-lg">
          Olá, <strong>{session.user.name || session.user.login}</strong>
        </p>
        <p className="text-sm text-slate-500">
          {session.company.fantasyName || session.company.name} · {maskCpfCnpj(session.company.taxId)}
        </p>
      </div>
      <div>
        <h2 className="mb-2 text-sm font-semibold uppercase text-slate-600">Favoritos</h2>
        {favourites.length === 0 ? (
          <p className="text-sm text-slate-500">
            Nenhum favorito. Use a estrela no topo de uma tela para adicioná-la aqui.
          </p>
        ) : (
          <ul className="grid grid-cols-1 gap-2 sm:grid-cols-2 lg:grid-cols-4">
            {favourites.map((p) => (
              <li key={p.id}>
                <button
                  type="button"
                  onClick={() => navigate(webHref(p.webPath as string))}
                  className="flex w-full items-center gap-2 rounded border-l-4 border-tertiary bg-white p-3 text-left text-sm shadow-sm hover:bg-slate-50"
                >
                  <Icon name="star" className="h-4 w-4 text-yellow-500" />
                  {p.description || p.name}
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
      <Dashboard key={session.company.id} />
    </section>
  );
}
