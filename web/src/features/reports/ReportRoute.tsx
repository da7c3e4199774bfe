import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { LoadingScreen } from '../../components/dialogs/LoadingScreen';
import { findDefinition, useReportDefinitions } from './definitions';
import ReportPage from './ReportPage';

/**
 * A report route (spec §2.4): the report whose definition's ROTA is the current path, among the
 * company's definitions (read once, kept). A route the server defines no report for (or when the
 * definitions cannot be read) shows `fallback`: what the path showed before.
 */
export default function ReportRoute({ fallback }: { fallback: ReactNode }) {
  const { pathname } = useLocation();
  const { definitions, loading } = useReportDefinitions();
  if (loading) return <LoadingScreen />;
  const def = findDefinition(definitions, pathname);
  if (!def) return <>{fallback}</>;
  // Another report on the same screen starts afresh (its own filters and result).
  return <ReportPage key={def.NOME} def={def} />;
}
