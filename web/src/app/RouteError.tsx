import { isRouteErrorResponse, useRouteError } from 'react-router';
import { primaryButton } from '../components/fields/styles';

/** A screen that failed to load or render (often a chunk gone after a new deploy). */
export function RouteError() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : (error as Error | undefined)?.message;
  return (
    <div role="alert" className="flex min-h-full flex-col items-center justify-center gap-3 p-6 text-center">
      <p className="text-lg font-medium text-primary">Não foi possível carregar esta tela.</p>
      {detail && <p className="max-w-lg text-sm text-slate-500">{detail}</p>}
      <button type="button" className={primaryButton} onClick={() => window.location.reload()}>
        Recarregar
      </button>
    </div>
  );
}
