import { lazy, Suspense } from 'react';
import { Navigate, useLocation } from 'react-router';
import { LoadingScreen } from '../../components/dialogs/LoadingScreen';
import { useResourceMetas } from '../../lib/resources/useResourceData';
import { clientLabel } from './clientLabel';
import { DOC_SPECS, type DocId } from './specs';

const RegisterListPage = lazy(() => import('../../components/registers/RegisterListPage'));
const DocumentFormPage = lazy(() => import('./DocumentFormPage'));

const ORDER_FORMATS = { PEDF_CLI_DESC: (v: unknown) => clientLabel(v) };

/** /{root} (the generic list), /{root}/inserir and /{root}/alterar (header, lines, totals, conversions). */
export default function DocumentRoute({ doc }: { doc: DocId }) {
  const spec = DOC_SPECS[doc];
  const { pathname, search } = useLocation();
  const { metas, loading, error } = useResourceMetas();
  if (loading) return <LoadingScreen />;
  if (error && metas.length === 0) {
    return <p className="p-6 text-center text-sm text-slate-600">Não foi possível carregar as telas de cadastro.</p>;
  }
  const meta = metas.find((m) => m.name === spec.resource);
  if (!meta) return <Navigate to="/404" replace />;
  const rest = pathname.replace(/\/+$/, '').toLowerCase().split('/').filter(Boolean).slice(1).join('/');
  if (rest !== '' && rest !== 'inserir' && rest !== 'alterar') return <Navigate to="/404" replace />;
  return (
    <Suspense fallback={<LoadingScreen />}>
      {rest === '' ? (
        <RegisterListPage
          key={meta.name}
          meta={meta}
          metas={metas}
          breadcrumbs={spec.breadcrumbs}
          formats={doc === 'order' ? ORDER_FORMATS : undefined}
        />
      ) : (
        <DocumentFormPage
          key={`${meta.name}-${rest}-${search}`}
          spec={spec}
          meta={meta}
          metas={metas}
          action={rest as 'inserir' | 'alterar'}
        />
      )}
    </Suspense>
  );
}
