import { normalizePath, programForPath, type Session } from '../session';
import type { ResourceMeta } from './metaFields';
import { resourceHref } from './metaFields';

export interface Permissions {
  canView: boolean;
  canCreate: boolean;
  canUpdate: boolean;
  canDelete: boolean;
}

const NONE: Permissions = { canView: false, canCreate: false, canUpdate: false, canDelete: false };
const ALL: Permissions = { canView: true, canCreate: true, canUpdate: true, canDelete: true };

/**
 * Spec §6: the user's program whose web path matches the screen; the meta's program name
 * is the fallback for a program recorded without one. Internal operators get all four.
 */
export function permissionsFor(session: Session | null, meta: ResourceMeta): Permissions {
  if (!session) return NONE;
  if (session.privileged) return ALL;
  const href = resourceHref(meta);
  const p =
    programForPath(session.programs, href) ??
    session.programs.find(
      (x) =>
        x.name.toLowerCase() === meta.program.toLowerCase() ||
        (x.webPath && normalizePath(x.webPath) === normalizePath(meta.program)),
    );
  if (!p) return NONE;
  return { canView: p.canView, canCreate: p.canCreate, canUpdate: p.canUpdate, canDelete: p.canDelete };
}

/**
 * The permissions of a screen of its own over a register (a single route): the register's when
 * the gateway describes it to the user, else those of the program whose web path is `path`.
 */
export function screenPermissions(session: Session | null, meta: ResourceMeta | undefined, path: string): Permissions {
  if (meta) return permissionsFor(session, meta);
  if (!session) return NONE;
  if (session.privileged) return ALL;
  const p = programForPath(session.programs, path);
  return p ? { canView: p.canView, canCreate: p.canCreate, canUpdate: p.canUpdate, canDelete: p.canDelete } : NONE;
}

const BY_KIND: Record<string, keyof Permissions> = {
  view: 'canView',
  create: 'canCreate',
  update: 'canUpdate',
  delete: 'canDelete',
};

/** Whether the permissions allow a kind of call (`view`, `create`, `update`, `delete`); an unknown kind: no. */
export const allows = (perms: Permissions, kind: string): boolean => {
  const key = BY_KIND[kind];
  return key != null && perms[key];
};
