// What the routed page tells the shell: its title and its route name (the favourite star
// shows only on routes whose name contains 'index').
import { useEffect, useSyncExternalStore } from 'react';
import { APP_TITLE } from './version';

export interface PageMeta {
  title: string;
  name: string;
}

let current: PageMeta = { title: APP_TITLE, name: '' };
const listeners = new Set<() => void>();

export function setPageMeta(meta: PageMeta) {
  current = meta;
  document.title = meta.title === APP_TITLE ? APP_TITLE : `${meta.title} - ${APP_TITLE}`;
  listeners.forEach((l) => l());
}

/** What the routed page told the shell last (a call outside React names the screen it comes from). */
export const getPageMeta = (): PageMeta => current;

export function usePageMeta(title: string | undefined, name: string) {
  useEffect(() => {
    setPageMeta({ title: title || APP_TITLE, name });
  }, [title, name]);
}

export function useCurrentPageMeta(): PageMeta {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => current,
  );
}

export const isIndexRoute = (name: string) => name.toLowerCase().includes('index');
