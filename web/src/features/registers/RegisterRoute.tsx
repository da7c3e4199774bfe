import { lazy, Suspense } from 'react';
import { Navigate, useLocation } from 'react-router';
import { LoadingScreen } from '../../components/dialogs/LoadingScreen';
import { matchResource } from '../../lib/resources/metaFields';
import { useResourceMetas } from '../../lib/resources/useResourceData';

const RegisterListPage = lazy(() => import('../../components/registers/RegisterListPage'));
const RegisterFormPage = lazy(() => import('./RegisterFormPage'));

/** /{resource}, /{resource}/inserir and /{resource}/alterar for every register the gateway describes. */
export default function RegisterRoute() {
  const { pathname } = useLocation();
  const { metas, loading, error } = useResourceMetas();
  if (loading) return <LoadingScreen />;
  if (error && metas.length === 0) {
    return <p className="p-6 text-center text-sm text-slate-600">Não foi possível carregar as telas de cadastro.</p>;
  }
  const match = matchResource(metas, pathname);
  if (!match) return <Navigate to="/404" replace />;
  return (
    <Suspense fallback={<LoadingScreen />}>
      {match.action === 'list' ? (
        <RegisterListPage key={match.meta.name} meta={match.meta} metas={metas} />
      ) : (
        <RegisterFormPage
          key={`${match.meta.name}-${match.action}`}
          meta={match.meta}
          metas={metas}
          action={match.action}
        />
      )}
    </Suspense>
  );
}
