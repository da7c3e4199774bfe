import { useSyncExternalStore } from 'react';

/** Spec §1: mobile means a window width of 1264 px or less. */
export const MOBILE_MAX_WIDTH = 1264;

function subscribe(cb: () => void) {
  window.addEventListener('resize', cb);
  return () => window.removeEventListener('resize', cb);
}

export function useWindowWidth(): number {
  return useSyncExternalStore(
    subscribe,
    () => window.innerWidth,
    () => 1920,
  );
}

export const useIsMobile = () => useWindowWidth() <= MOBILE_MAX_WIDTH;
