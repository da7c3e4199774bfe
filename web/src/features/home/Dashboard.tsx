import { useSubscription } from '@apollo/client';
import { useCallback, useState } from 'react';
import { primaryButton } from '../../components/fields/styles';
import type { GroupDescriptor } from '../../components/fields/types';
import { FormView, fieldsOf } from '../../components/form/FormView';
import { useFormState } from '../../components/form/useFormState';
import { formatDate, toApiDate } from '../../lib/format';
import type { ApiPeriod } from '../../lib/period';
import { useCompanyId } from '../../lib/resources/useResourceData';
import {
  DASHBOARD_WIDGETS,
  PERIOD_CHOICES,
  bumpRevisions,
  presetPeriod,
  type PeriodChoice,
  type WidgetName,
} from './dashboard';
import { DashboardChangedDocument } from './documents';
import { Widget } from './Widget';

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

/**
 * The home page's dashboard: a period ('Este mês' by default, 'Mês passado', 'Este ano' or
 * typed dates) and one widget per dashboard call the server answers; a call it does not have
 * (404) shows no widget. The figures stay live: Subscription.dashboardChanged names the calls of
 * the company whose figures moved (an order invoiced...), and only those widgets ask again.
 */
export function Dashboard() {
  const emp = useCompanyId();
  const [choice, setChoice] = useState<PeriodChoice>('mes');
  const [period, setPeriod] = useState<ApiPeriod>(() => presetPeriod('mes'));
  const [missing, setMissing] = useState<ReadonlySet<WidgetName>>(() => new Set());
  const custom = useFormState(CUSTOM_FIELDS, {
    DATA_INI: formatDate(period.DATA_INI),
    DATA_FIM: formatDate(period.DATA_FIM),
  });
  const [revisions, setRevisions] = useState<Partial<Record<WidgetName, number>>>({});
  const onMissing = useCallback((nome: WidgetName) => setMissing((m) => (m.has(nome) ? m : new Set([...m, nome]))), []);
  useSubscription(DashboardChangedDocument, {
    variables: { emp },
    onData: ({ data }) => {
      const names = data.data?.dashboardChanged;
      if (names) setRevisions((r) => bumpRevisions(r, names));
    },
  });

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
            <Widget
              key={w.nome}
              nome={w.nome}
              titulo={w.titulo}
              chart={w.chart}
              period={period}
              revision={revisions[w.nome] ?? 0}
              onMissing={onMissing}
            />
          ))}
        </div>
      )}
    </section>
  );
}
