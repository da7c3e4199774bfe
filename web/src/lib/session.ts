// The session kept in localStorage (spec §3): token, client id, user, company,
// favourites (web paths), programs. Components read it through useSession().
import { useSyncExternalStore } from 'react';
import type { ProgramFieldsFragment, SessionFieldsFragment } from '../generated/graphql';

export type Program = ProgramFieldsFragment;
export type SessionData = Omit<SessionFieldsFragment, 'programs'> & { programs: Program[] };

export interface Session {
  token: string;
  clientId: number;
  user: SessionData['user'];
  company: SessionData['company'];
  companies: SessionData['companies'];
  favourites: string[];
  programs: Program[];
  privileged: boolean;
  serverVersion: string;
}

const KEYS = {
  token: 'token',
  clientId: 'id',
  user: 'user',
  company: 'empresa',
  companies: 'empresas',
  favourites: 'favoritos',
  programs: 'programas',
  privileged: 'privilegiado',
  serverVersion: 'versaoServ',
} as const;

const listeners = new Set<() => void>();
let cached: Session | null | undefined;

function readJson<T>(key: string): T | null {
  const raw = localStorage.getItem(key);
  if (raw == null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

function read(): Session | null {
  const token = localStorage.getItem(KEYS.token);
  const user = readJson<Session['user']>(KEYS.user);
  const company = readJson<Session['company']>(KEYS.company);
  if (!token || !user || !company) return null;
  return {
    token,
    clientId: Number(localStorage.getItem(KEYS.clientId) ?? 0),
    user,
    company,
    companies: readJson<Session['companies']>(KEYS.companies) ?? [company],
    favourites: readJson<string[]>(KEYS.favourites) ?? [],
    programs: readJson<Program[]>(KEYS.programs) ?? [],
    privileged: localStorage.getItem(KEYS.privileged) === 'true',
    serverVersion: localStorage.getItem(KEYS.serverVersion) ?? '',
  };
}

function emit() {
  cached = undefined;
  listeners.forEach((l) => l());
}

export const favouritesOf = (programs: Program[]) =>
  programs.filter((p) => p.favorite && p.webPath).map((p) => p.webPath as string);

/** Writes what the server says about the session; the token is kept unless given. */
export function saveSession(data: SessionData, token?: string) {
  if (token) localStorage.setItem(KEYS.token, token);
  localStorage.setItem(KEYS.clientId, String(data.clientId));
  localStorage.setItem(KEYS.user, JSON.stringify(data.user));
  localStorage.setItem(KEYS.company, JSON.stringify(data.company));
  localStorage.setItem(KEYS.companies, JSON.stringify(data.companies));
  localStorage.setItem(KEYS.programs, JSON.stringify(data.programs));
  localStorage.setItem(KEYS.favourites, JSON.stringify(favouritesOf(data.programs)));
  localStorage.setItem(KEYS.privileged, String(data.privileged));
  localStorage.setItem(KEYS.serverVersion, data.serverVersion);
  emit();
}

export function updatePrograms(programs: Program[]) {
  localStorage.setItem(KEYS.programs, JSON.stringify(programs));
  localStorage.setItem(KEYS.favourites, JSON.stringify(favouritesOf(programs)));
  emit();
}

export function setServerVersion(version: string) {
  if (localStorage.getItem(KEYS.serverVersion) === version) return;
  localStorage.setItem(KEYS.serverVersion, version);
  emit();
}

export function clearSession() {
  Object.values(KEYS).forEach((k) => localStorage.removeItem(k));
  emit();
}

export function getSession(): Session | null {
  if (cached === undefined) cached = read();
  return cached;
}

export const getToken = () => getSession()?.token ?? null;

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === null || (Object.values(KEYS) as string[]).includes(e.key)) emit();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useSession(): Session | null {
  return useSyncExternalStore(subscribe, getSession, () => null);
}

const normalizePath = (p: string) => '/' + p.replace(/^\/+|\/+$/g, '').toLowerCase();

/** The user's program whose web path matches a route path (spec §6). */
export function programForPath(programs: Program[], path: string): Program | undefined {
  const target = normalizePath(path);
  return programs.find((p) => p.webPath && normalizePath(p.webPath) === target);
}

export { normalizePath };

/** The route a program's web path opens ('clientes' and '/clientes' alike). */
export const webHref = (webPath: string) => (webPath.startsWith('/') ? webPath : `/${webPath}`);
