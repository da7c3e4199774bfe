import { useEffect, useRef } from 'react';

/**
 * Runs `tick` every `ms` while the page is visible (a hidden tab asks nothing), and at once when
 * the page becomes visible again. The latest `tick` runs; a new one does not restart the clock.
 */
export function useVisibleInterval(tick: () => void, ms: number) {
  const latest = useRef(tick);
  useEffect(() => {
    latest.current = tick;
  });
  useEffect(() => {
    const visible = () => document.visibilityState === 'visible';
    const id = setInterval(() => visible() && latest.current(), ms);
    const onChange = () => visible() && latest.current();
    document.addEventListener('visibilitychange', onChange);
    return () => {
      clearInterval(id);
      document.removeEventListener('visibilitychange', onChange);
    };
  }, [ms]);
}
