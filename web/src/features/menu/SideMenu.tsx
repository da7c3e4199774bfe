import { useQuery } from '@apollo/client';
import { useState, type MouseEvent } from 'react';
import { useLocation } from 'react-router';
import { Icon } from '../../components/Icon';
import { MSG } from '../../lib/messages';
import { webHref, type Program } from '../../lib/session';
import { MenuDocument } from './documents';
import { searchMenu, type MenuNodeLike } from './menuSearch';
import { useOpenProgram } from './useOpenProgram';

interface Props {
  /** Called after an entry opened (closes the drawer on mobile). */
  onOpened?: () => void;
}

function Entry({
  label,
  program,
  depth,
  onOpen,
}: {
  label: string;
  program: Program;
  depth: number;
  onOpen: (p: Program, e: MouseEvent) => void;
}) {
  const { pathname } = useLocation();
  const href = program.webPath ? webHref(program.webPath) : undefined;
  const active = href !== undefined && (pathname === href || pathname.startsWith(`${href}/`));
  return (
    <a
      href={href ?? '#'}
      onClick={(e) => onOpen(program, e)}
      style={{ paddingLeft: 12 + depth * 12 }}
      aria-current={active ? 'page' : undefined}
      className={`flex items-center gap-2 py-1.5 pr-3 text-sm hover:bg-white/10 ${active ? 'bg-white/15 font-semibold' : ''}`}
    >
      {program.favorite && <Icon name="star" className="h-3.5 w-3.5 text-yellow-300" />}
      <span className="truncate">{label}</span>
    </a>
  );
}

function Group({
  node,
  depth,
  onOpen,
}: {
  node: MenuNodeLike;
  depth: number;
  onOpen: (p: Program, e: MouseEvent) => void;
}) {
  const [open, setOpen] = useState(false);
  if (!node.children?.length) {
    return node.program ? <Entry label={node.label} program={node.program} depth={depth} onOpen={onOpen} /> : null;
  }
  return (
    <div>
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        style={{ paddingLeft: 12 + depth * 12 }}
        className={`flex w-full items-center justify-between py-2 pr-3 text-left text-sm hover:bg-white/10 ${depth === 0 ? 'font-semibold uppercase' : ''}`}
      >
        <span className="truncate">{node.label}</span>
        <Icon name="chevron" className={`h-4 w-4 transition-transform ${open ? 'rotate-90' : ''}`} />
      </button>
      {open &&
        node.children.map((c, i) => <Group key={`${c.label}-${i}`} node={c} depth={depth + 1} onOpen={onOpen} />)}
    </div>
  );
}

/** Three-level menu of the user's programs with a search box. */
export function SideMenu({ onOpened }: Props) {
  const { data, loading, error } = useQuery(MenuDocument);
  const [query, setQuery] = useState('');
  const open = useOpenProgram();
  const nodes: MenuNodeLike[] = data?.menu ?? [];
  const onOpen = (p: Program, e: MouseEvent) => {
    if (open(p, e)) onOpened?.();
  };
  const hits = searchMenu(nodes, query);
  return (
    <nav aria-label="Menu principal" className="flex min-h-0 flex-1 flex-col">
      <div className="p-2">
        <label className="flex items-center gap-1 rounded bg-white/15 px-2">
          <Icon name="search" className="h-4 w-4 opacity-80" />
          <input
            type="search"
            placeholder="Buscar"
            aria-label="Buscar"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            className="w-full bg-transparent py-1.5 text-sm text-white scheme-dark placeholder:text-white/70 outline-none"
          />
        </label>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto pb-2">
        {query.trim() ? (
          hits.length === 0 ? (
            <p className="px-3 py-2 text-sm text-white/80">{MSG.menuEmpty}</p>
          ) : (
            <ul aria-label="Resultados da busca">
              {hits.map((h) => (
                <li key={h.program.id}>
                  <Entry label={h.label} program={h.program} depth={0} onOpen={onOpen} />
                </li>
              ))}
            </ul>
          )
        ) : loading && !data ? (
          <p className="px-3 py-2 text-sm text-white/80">Carregando...</p>
        ) : error && !data ? (
          <p className="px-3 py-2 text-sm text-white/80">Não foi possível carregar o menu.</p>
        ) : (
          nodes.map((n, i) => <Group key={`${n.label}-${i}`} node={n} depth={0} onOpen={onOpen} />)
        )}
      </div>
    </nav>
  );
}
