import { useApolloClient } from '@apollo/client';
import { Component, lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { errorMessage } from '../../lib/apollo';
import { formatMoney } from '../../lib/format';
import type { ApiPeriod } from '../../lib/period';
import { RestError } from '../../lib/rest';
import { requestJson } from '../../lib/restForms';
import { useCompanyId } from '../../lib/resources/useResourceData';
import {
  chartColour,
  dashboardData,
  dashboardPath,
  formatShare,
  itemLabel,
  pieSliceOf,
  type ChartKind,
  type DashboardData,
  type WidgetName,
} from './dashboard';

// The chart library is a chunk of its own, fetched with the first widget that has figures.
const DashboardChart = lazy(() => import('./DashboardChart'));

/**
 * A chart that cannot load (its chunk gone after a deploy, offline) or draw is left out: the list
 * under it still gives the figures, and the rest of the page stays.
 */
class ChartBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? null : this.props.children;
  }
}

type WidgetState = { kind: 'loading' } | { kind: 'data'; data: DashboardData } | { kind: 'error'; message: string };

interface Props {
  nome: WidgetName;
  titulo: string;
  chart: ChartKind;
  period: ApiPeriod;
  /** Goes up each time the server says this call's figures moved: the widget asks again. */
  revision: number;
  /** The server does not have this call (404): the widget is not shown. */
  onMissing: (nome: WidgetName) => void;
}

/**
 * One dashboard call as a card: its title, the total, a chart and the list of its items (value in
 * R$ and share of the total), which is what screen readers read.
 */
export function Widget({ nome, titulo, chart, period, revision, onMissing }: Props) {
  const emp = useCompanyId();
  const client = useApolloClient();
  const [state, setState] = useState<{ key: string; revision: number; value: WidgetState } | null>(null);
  const key = `${emp}|${period.DATA_INI}|${period.DATA_FIM}`;
  useEffect(() => {
    let live = true;
    const settle = (value: WidgetState) => live && setState({ key, revision, value });
    requestJson(dashboardPath(nome), {
      json: { EMP_ID: emp, DATA_INI: period.DATA_INI, DATA_FIM: period.DATA_FIM },
    }).then(
      (answer) => settle({ kind: 'data', data: dashboardData(answer, chart) }),
      (e: unknown) => {
        if (!live) return;
        if (e instanceof RestError && e.status === 404) {
          onMissing(nome);
          return;
        }
        if (e instanceof RestError && e.status === 401) void client.clearStore();
        settle({ kind: 'error', message: errorMessage(e) });
      },
    );
    return () => {
      live = false;
    };
  }, [nome, chart, emp, period.DATA_INI, period.DATA_FIM, key, revision, onMissing, client]);
  // A new period shows the loading state until its answer comes; new figures of the same period
  // (a higher revision) replace the shown ones when they arrive, without the loading state.
  const shown: WidgetState = state && state.key === key ? state.value : { kind: 'loading' };
  const refreshing = state != null && state.key === key && state.revision !== revision;
  const titleId = `dashboard-${nome}-titulo`;

  return (
    <section
      aria-labelledby={titleId}
      aria-busy={shown.kind === 'loading' || refreshing}
      data-testid={`dashboard-widget-${nome}`}
      className="flex flex-col gap-3 rounded bg-white p-4 shadow-sm"
    >
      <header className="flex items-baseline justify-between gap-2">
        <h3 id={titleId} className="text-sm font-semibold text-primary">
          {titulo}
        </h3>
        {shown.kind === 'data' && (
          <span className="whitespace-nowrap text-sm font-semibold text-slate-800" data-testid="dashboard-total">
            Total: {formatMoney(shown.data.totalCents / 100)}
          </span>
        )}
      </header>
      {shown.kind === 'loading' && (
        <div role="status" className="space-y-2" aria-label={`Carregando ${titulo}`}>
          {[70, 45, 25].map((w) => (
            <div key={w} className="h-3 animate-pulse rounded bg-slate-200" style={{ width: `${w}%` }} />
          ))}
        </div>
      )}
      {shown.kind === 'error' && (
        <p role="alert" className="text-sm text-error">
          {shown.message}
        </p>
      )}
      {shown.kind === 'data' &&
        (shown.data.items.length === 0 ? (
          <p className="text-sm text-slate-500">Nenhum item encontrado.</p>
        ) : (
          <>
            <ChartBoundary>
              <Suspense fallback={<div className="h-48" aria-hidden="true" />}>
                <DashboardChart chart={chart} items={shown.data.items} />
              </Suspense>
            </ChartBoundary>
            <ItemList titulo={titulo} chart={chart} data={shown.data} />
          </>
        ))}
    </section>
  );
}

/** The figures as a compact list under the chart; for the donut each row's swatch is its slice's colour. */
function ItemList({ titulo, chart, data }: { titulo: string; chart: ChartKind; data: DashboardData }) {
  return (
    <ul className="max-h-48 divide-y divide-slate-100 overflow-y-auto pr-1 text-xs" aria-label={titulo}>
      {data.items.map((b, i) => {
        const slice = chart === 'pie' ? pieSliceOf(data.items, i) : null;
        return (
          <li key={`${b.label}-${i}`} data-testid="dashboard-barra" className="flex items-baseline gap-2 py-0.5">
            {chart === 'pie' && (
              <span
                aria-hidden="true"
                className="inline-block h-2 w-2 shrink-0 rounded-full"
                style={{ backgroundColor: slice == null ? 'transparent' : chartColour(slice) }}
              />
            )}
            <span className="min-w-0 flex-1 truncate text-slate-700" title={itemLabel(b.label)}>
              {itemLabel(b.label)}
            </span>
            <span className={`whitespace-nowrap ${b.cents < 0 ? 'text-error' : 'text-slate-800'}`}>
              {formatMoney(b.cents / 100)}{' '}
              <span className="inline-block w-14 text-right text-slate-500" data-testid="dashboard-percentual">
                {formatShare(b.share)}
              </span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}
