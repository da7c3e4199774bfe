import { useApolloClient } from '@apollo/client';
import { useCallback, useEffect, useState } from 'react';
import { primaryButton } from '../../components/fields/styles';
import type { GroupDescriptor } from '../../components/fields/types';
import { FormView, fieldsOf } from '../../components/form/FormView';
import { useFormState } from '../../components/form/useFormState';
import { errorMessage } from '../../lib/apollo';
import { formatDate, formatMoney, toApiDate } from '../../lib/format';
import type { ApiPeriod } from '../../lib/period';
import { RestError } from '../../lib/rest';
import { requestJson } from '../../lib/restForms';
import { useCompanyId } from '../../lib/resources/useResourceData';
import {
  DASHBOARD_WIDGETS,
  PERIOD_CHOICES,
  dashboardData,
  dashboardPath,
  formatShare,
  presetPeriod,
  type DashboardData,
  type PeriodChoice,
  type WidgetName,
} from './dashboard';

const CUSTOM_GROUPS: GroupDescriptor[] = [
  {
    fields: [
      { name: 'DATA_INI', type: 'DATE', text: 'Data inicial', required: true, width: 6 },
      {
        name: 'DATA_FIM',
        type: 'DATE',
        text: 'Data final',
        required: true,
        width: 6,
        compare: { field: 'DATA_INI', relation: 'gte', message: 'A data final deve ser igual ou posterior à inicial.' },
      },
    ],
  },
];
const CUSTOM_FIELDS = fieldsOf(CUSTOM_GROUPS);

type WidgetState = { kind: 'loading' } | { kind: 'data'; data: DashboardData } | { kind: 'error'; message: string };

interface WidgetProps {
  nome: WidgetName;
  titulo: string;
  period: ApiPeriod;
  /** The server does not have this call (404): the widget is not shown. */
  onMissing: (nome: WidgetName) => void;
}

/** One dashboard call as a card of horizontal bars: the value in R$ and its share of the total. */
function Widget({ nome, titulo, period, onMissing }: WidgetProps) {
  const emp = useCompanyId();
  const client = useApolloClient();
  const [state, setState] = useState<{ key: string; value: WidgetState } | null>(null);
  const key = `${emp}|${period.DATA_INI}|${period.DATA_FIM}`;
  useEffect(() => {
    let live = true;
    requestJson(dashboardPath(nome), {
      json: { EMP_ID: emp, DATA_INI: period.DATA_INI, DATA_FIM: period.DATA_FIM },
    }).then(
      (answer) => live && setState({ key, value: { kind: 'data', data: dashboardData(answer) } }),
      (e: unknown) => {
        if (!live) return;
        if (e instanceof RestError && e.status === 404) {
          onMissing(nome);
          return;
        }
        if (e instanceof RestError && e.status === 401) void client.clearStore();
        setState({ key, value: { kind: 'error', message: errorMessage(e) } });
      },
    );
    return () => {
      live = false;
    };
  }, [nome, emp, period.DATA_INI, period.DATA_FIM, key, onMissing, client]);
  // A new period shows the loading state until its answer comes.
  const shown: WidgetState = state && state.key === key ? state.value : { kind: 'loading' };
  const titleId = `dashboard-${nome}-titulo`;

  return (
    <section
      aria-labelledby={titleId}
      aria-busy={shown.kind === 'loading'}
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
        (shown.data.bars.length === 0 ? (
          <p className="text-sm text-slate-500">Nenhum item encontrado.</p>
        ) : (
          <ul className="max-h-80 space-y-2 overflow-y-auto pr-1" aria-label={titulo}>
            {shown.data.bars.map((b, i) => (
              <li key={`${b.label}-${i}`} data-testid="dashboard-barra" className="text-sm">
                <div className="flex items-baseline justify-between gap-2">
                  <span className="min-w-0 truncate text-slate-700" title={b.label}>
                    {b.label || '(sem descrição)'}
                  </span>
                  <span className="whitespace-nowrap text-slate-800">
                    {formatMoney(b.cents / 100)}{' '}
                    <span className="text-xs text-slate-500" data-testid="dashboard-percentual">
                      {formatShare(b.share)}
                    </span>
                  </span>
                </div>
                <div className="mt-1 h-2 w-full overflow-hidden rounded bg-slate-100" aria-hidden="true">
                  <div
                    className={`h-full rounded ${b.cents < 0 ? 'bg-error' : 'bg-secondary'}`}
                    style={{ width: `${b.width}%` }}
                  />
                </div>
              </li>
            ))}
          </ul>
        ))}
    </section>
  );
}

/**
 * The home page's dashboard: a period ('Este mês' by default, 'Mês passado', 'Este ano' or
 * typed dates) and one widget per dashboard call the server answers; a call it does not have
 * (404) shows no widget.
 */
export function Dashboard() {
  const [choice, setChoice] = useState<PeriodChoice>('mes');
  const [period, setPeriod] = useState<ApiPeriod>(() => presetPeriod('mes'));
  const [missing, setMissing] = useState<ReadonlySet<WidgetName>>(() => new Set());
  const custom = useFormState(CUSTOM_FIELDS, {
    DATA_INI: formatDate(period.DATA_INI),
    DATA_FIM: formatDate(period.DATA_FIM),
  });
  const onMissing = useCallback((nome: WidgetName) => setMissing((m) => (m.has(nome) ? m : new Set([...m, nome]))), []);

  const choose = (next: PeriodChoice) => {
    setChoice(next);
    if (next === 'personalizado') {
      custom.reset({ DATA_INI: formatDate(period.DATA_INI), DATA_FIM: formatDate(period.DATA_FIM) });
    } else {
      setPeriod(presetPeriod(next));
    }
  };

  const applyCustom = () => {
    if (!custom.validateAll()) return;
    const from = toApiDate(String(custom.values.DATA_INI ?? ''));
    const to = toApiDate(String(custom.values.DATA_FIM ?? ''));
    if (from && to) setPeriod({ DATA_INI: from, DATA_FIM: to });
  };

  const shown = DASHBOARD_WIDGETS.filter((w) => !missing.has(w.nome));

  return (
    <section aria-label="Painel" className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-sm font-semibold uppercase text-slate-600">Painel</h2>
        <div role="radiogroup" aria-label="Período" data-testid="dashboard-periodo" className="flex flex-wrap gap-1">
          {PERIOD_CHOICES.map((o) => {
            const selected = choice === o.value;
            return (
              <button
                key={o.value}
                type="button"
                role="radio"
                aria-checked={selected}
                data-value={o.value}
                onClick={() => choose(o.value)}
                className={`rounded border px-3 py-1 text-sm ${selected ? 'border-secondary bg-secondary text-white' : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50'}`}
              >
                {o.label}
              </button>
            );
          })}
        </div>
      </div>
      {choice === 'personalizado' && (
        <form
          noValidate
          aria-label="Período personalizado"
          className="flex flex-wrap items-end gap-3 rounded bg-white p-3 shadow-sm"
          onSubmit={(e) => {
            e.preventDefault();
            applyCustom();
          }}
        >
          <div className="min-w-64 flex-1">
            <FormView form={custom} groups={CUSTOM_GROUPS} />
          </div>
          <button type="submit" className={primaryButton}>
            Aplicar
          </button>
        </form>
      )}
      <p className="text-xs text-slate-500" data-testid="dashboard-intervalo">
        {formatDate(period.DATA_INI)} a {formatDate(period.DATA_FIM)}
      </p>
      {shown.length === 0 ? (
        <p className="text-sm text-slate-500">Nenhum indicador disponível.</p>
      ) : (
        <div className="grid grid-cols-1 gap-3 md:grid-cols-2 2xl:grid-cols-3">
          {shown.map((w) => (
            <Widget key={w.nome} nome={w.nome} titulo={w.titulo} period={period} onMissing={onMissing} />
          ))}
        </div>
      )}
    </section>
  );
}
