import { MSG } from '../../lib/messages';

/** Full-area loading screen: a message (default 'Carregando') with animated dots. */
export function LoadingScreen({ message = MSG.loading, overlay = false }: { message?: string; overlay?: boolean }) {
  return (
    <div
      role="status"
      aria-live="polite"
      className={`${overlay ? 'fixed inset-0 z-40 bg-white/80' : 'h-full min-h-40 w-full'} flex items-center justify-center`}
    >
      <span className="text-lg font-medium text-primary">
        {message}
        <span aria-hidden="true" className="loading-dots" />
      </span>
    </div>
  );
}
