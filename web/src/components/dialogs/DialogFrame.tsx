import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useIsMobile } from '../../lib/useIsMobile';

interface Props {
  title?: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  /** Desktop width in px; default 600 (spec §2.6). */
  width?: number;
  /** Image viewer dialogs take the whole screen on mobile (100vmax). */
  fullOnMobile?: boolean;
}

/** Modal frame: title bar, scrollable body, footer; Escape (on the topmost one) or the backdrop closes it. */
export function DialogFrame({ title, onClose, children, footer, width = 600, fullOnMobile }: Props) {
  const mobile = useIsMobile();
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      // Only the dialog on top closes (a confirmation opened over another dialog comes later in the page).
      const open = document.querySelectorAll('[role="dialog"]');
      if (open.length > 0 && open[open.length - 1] !== ref.current) return;
      onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  const size = mobile
    ? fullOnMobile
      ? { width: '100vmax', maxWidth: '100vw' }
      : { width: '80dvw' }
    : { width, maxWidth: 'calc(100vw - 1rem)' };
  return (
    <div
      className="fixed inset-0 z-50 flex items-center justify-center bg-black/40 p-2"
      onMouseDown={(e) => e.target === e.currentTarget && onClose()}
    >
      <div
        ref={ref}
        role="dialog"
        aria-modal="true"
        aria-labelledby={title ? titleId : undefined}
        style={{ ...size, maxHeight: '90dvh' }}
        className="flex flex-col overflow-hidden rounded-lg bg-white shadow-xl"
      >
        {title && (
          <div className="flex items-center justify-between bg-primary px-4 py-2 text-white">
            <h2 id={titleId} className="text-base font-semibold">
              {title}
            </h2>
            <button type="button" aria-label="Fechar" className="text-xl leading-none" onClick={onClose}>
              ×
            </button>
          </div>
        )}
        <div className="flex-1 overflow-auto p-4">{children}</div>
        {footer && <div className="flex flex-wrap justify-end gap-2 border-t border-slate-200 px-4 py-2">{footer}</div>}
      </div>
    </div>
  );
}
