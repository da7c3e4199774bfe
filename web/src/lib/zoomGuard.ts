/** Spec §9: block double-tap within 300 ms and ctrl+wheel / ctrl +/- zoom. Returns an uninstaller. */
export function installZoomGuard(target: Window = window): () => void {
  let lastTouchEnd = 0;
  const onTouchEnd = (e: TouchEvent) => {
    const now = Date.now();
    if (now - lastTouchEnd <= 300) e.preventDefault();
    lastTouchEnd = now;
  };
  const onWheel = (e: WheelEvent) => {
    if (e.ctrlKey) e.preventDefault();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if ((e.ctrlKey || e.metaKey) && ['+', '-', '=', '_', 'Add', 'Subtract'].includes(e.key)) {
      e.preventDefault();
    }
  };
  target.addEventListener('touchend', onTouchEnd, { passive: false });
  target.addEventListener('wheel', onWheel, { passive: false });
  target.addEventListener('keydown', onKeyDown);
  return () => {
    target.removeEventListener('touchend', onTouchEnd);
    target.removeEventListener('wheel', onWheel);
    target.removeEventListener('keydown', onKeyDown);
  };
}
