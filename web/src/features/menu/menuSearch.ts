import type { Program } from '../../lib/session';

/** The shape shared by the three levels of Query.menu. */
export interface MenuNodeLike {
  label: string;
  icon?: string | null;
  program?: Program | null;
  children?: MenuNodeLike[];
}

export interface MenuHit {
  program: Program;
  /** Labels of the groups above the entry. */
  trail: string[];
  label: string;
}

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/** Every entry with a program that has a web path, depth first, each program once. */
export function menuEntries(nodes: MenuNodeLike[], trail: string[] = [], seen = new Set<number>()): MenuHit[] {
  const out: MenuHit[] = [];
  for (const n of nodes) {
    const p = n.program;
    if (p && p.webPath && !seen.has(p.id)) {
      seen.add(p.id);
      out.push({ program: p, trail, label: n.label });
    }
    if (n.children?.length) out.push(...menuEntries(n.children, [...trail, n.label], seen));
  }
  return out;
}

/** The search box lists only programs with a web path whose label, name or description matches. */
export function searchMenu(nodes: MenuNodeLike[], query: string): MenuHit[] {
  const q = fold(query.trim());
  if (!q) return [];
  return menuEntries(nodes).filter(
    (h) => fold(h.label).includes(q) || fold(h.program.description).includes(q) || fold(h.program.name).includes(q),
  );
}
