import { useMemo, useState } from 'react';
import { useDialogs } from '../../components/dialogs/DialogHost';
import { LoadingScreen } from '../../components/dialogs/LoadingScreen';
import { dangerButton, primaryButton, secondaryButton } from '../../components/fields/styles';
import type { GroupDescriptor } from '../../components/fields/types';
import { FormView, fieldsOf } from '../../components/form/FormView';
import { useFormState } from '../../components/form/useFormState';
import { PAGE_SIZE } from '../../components/registers/RegisterListPage';
import { Pager } from '../../components/tables/Pager';
import { cellText, type Row as TableRow } from '../../components/tables/types';
import { useRows, type Row } from '../../lib/api';
import { errorMessage } from '../../lib/apollo';
import { apiDateOf, centsToApi, formatDate, toApiDate, toCents } from '../../lib/format';
import { usePageMeta } from '../../lib/pageMeta';
import { listColumns, type ResourceMeta } from '../../lib/resources/metaFields';
import { screenPermissions } from '../../lib/resources/permissions';
import { useOptionLookup, useOptionSearch, useReferenceTexts } from '../../lib/resources/useResourceData';
import { useSession } from '../../lib/session';
import { notify } from '../../lib/toast';
import { bankField, idValue, money } from './bankFields';
import { FinanceTable, type TableColumn } from './FinanceTable';
import { DAILY_CASH_STAND_IN, MOVEMENTS_STAND_IN, NO_PERMISSION, SCREENS, screenRouteName } from './screens';
import { MOVEMENTS } from './useBankCalls';
import { DAILY_CASH, useDailyCash, type DayMovement, type MethodTotals } from './useDailyCash';

const SCREEN = SCREENS.dailyCash;

const DAY_GROUPS: GroupDescriptor[] = [
  {
    fields: [
      { name: 'DATA', type: 'DATE', text: 'Data', required: true, width: 3 },
      bankField({ text: 'Conta bancária (todas se vazio)', width: 5 }),
    ],
  },
];

/** The columns of a register's rows, as its own list shows them. */
function tableColumns<T extends TableRow>(
  meta: ResourceMeta,
  texts: Parameters<typeof listColumns>[1],
): TableColumn<T>[] {
  return listColumns(meta, texts).map((c) => ({
    key: c.key,
    label: c.label,
    align: c.align,
    nowrap: c.nowrap,
    render: (r: T) => cellText(c, r),
  }));
}

const METHOD_COLUMNS: TableColumn<MethodTotals>[] = [
  { key: 'name', label: 'Forma de pagamento', render: (m) => m.name },
  { key: 'entries', label: 'Entradas', align: 'right', nowrap: true, render: (m) => money(m.entries) },
  { key: 'exits', label: 'Saídas', align: 'right', nowrap: true, render: (m) => money(m.exits) },
];

interface Props {
  /** The `movdiario` register's metadata, when the gateway describes it. */
  meta?: ResourceMeta;
  metas: ResourceMeta[];
}

/**
 * /movimentodiario: the cash of a day (today by default), optionally of one account: its
 * opening balance, entries, exits and closing balance, the breakdown by payment method and the
 * movements; 'Fechar o dia' and 'Reabrir o dia', confirmed first. The closed days (the
 * register's rows, newest first) are listed below; 'Ver' opens one.
 */
export default function DailyCashPage({ meta, metas }: Props) {
  usePageMeta(meta?.title || SCREEN.title, screenRouteName(SCREEN.register));
  const session = useSession();
  const perms = screenPermissions(session, meta, SCREEN.path);
  const dialogs = useDialogs();
  const search = useOptionSearch(metas);
  const lookup = useOptionLookup(metas);
  const form = useFormState(fieldsOf(DAY_GROUPS), { DATA: formatDate(apiDateOf()) });
  const date = toApiDate(String(form.values.DATA ?? ''));
  const bankId = idValue(form.values.BCO_ID);
  const day = useDailyCash(perms.canView ? date : null, bankId);
  const [page, setPage] = useState(1);

  const closedMeta = meta ?? DAILY_CASH_STAND_IN;
  const movementMeta = metas.find((m) => m.name === MOVEMENTS) ?? MOVEMENTS_STAND_IN;
  const closedDays = useRows(
    DAILY_CASH,
    { filter: null, order: 'MOVD_DTA_MOV DESC', page, limit: PAGE_SIZE },
    { skip: !perms.canView },
  );
  const closedRows = closedDays.rows;
  const movements = day.data?.movements;
  const movementRows = useMemo(() => movements ?? [], [movements]);
  const movementTexts = useReferenceTexts(movementMeta, metas, movementRows);
  const closedTexts = useReferenceTexts(closedMeta, metas, closedRows);
  const movementColumns = useMemo(
    () => tableColumns<DayMovement>(movementMeta, movementTexts),
    [movementMeta, movementTexts],
  );
  const closedColumns = useMemo(
    () => tableColumns<Row<typeof DAILY_CASH>>(closedMeta, closedTexts),
    [closedMeta, closedTexts],
  );

  if (!perms.canView) return <p className="p-6 text-center text-sm text-slate-600">{NO_PERMISSION}</p>;

  const summary = day.data && day.data.date === date ? day.data : day.loading ? null : (day.data ?? null);

  const askClose = (d: string, closing: string) =>
    dialogs.confirm({
      title: 'Fechar o dia',
      text:
        `Fechar o movimento de ${formatDate(d)} com saldo final de ${money(closing)}?\n` +
        'Depois de fechado, o dia não aceita lançamentos até ser reaberto.',
      okText: 'Fechar o dia',
      onOk: async () => {
        try {
          notify.success(await day.close(d));
        } catch (e) {
          notify.error(errorMessage(e));
        }
      },
    });

  const askReopen = (d: string) =>
    dialogs.confirm({
      title: 'Reabrir o dia',
      text: `Reabrir o movimento de ${formatDate(d)}? O dia volta a aceitar lançamentos.`,
      okText: 'Reabrir o dia',
      onOk: async () => {
        try {
          notify.success(await day.reopen(d));
        } catch (e) {
          notify.error(errorMessage(e));
        }
      },
    });

  const methodTotals = summary
    ? {
        name: 'Total',
        entries: money(centsToApi(summary.methods.reduce((t, m) => t + toCents(m.entries), 0))),
        exits: money(centsToApi(summary.methods.reduce((t, m) => t + toCents(m.exits), 0))),
      }
    : undefined;

  return (
    <section className="space-y-3">
      <form
        aria-label="Dia"
        noValidate
        className="flex flex-wrap items-end gap-3 rounded bg-white p-3 shadow-sm"
        onSubmit={(e) => e.preventDefault()}
      >
        <div className="min-w-64 flex-1" data-testid="movdiario-data">
          <FormView form={form} groups={DAY_GROUPS} search={search} lookup={lookup} />
        </div>
        {summary && perms.canUpdate && date && (
          <>
            {summary.closed ? (
              <button
                type="button"
                className={dangerButton}
                data-testid="movdiario-reabrir"
                onClick={() => askReopen(date)}
              >
                Reabrir o dia
              </button>
            ) : (
              <button
                type="button"
                className={primaryButton}
                data-testid="movdiario-fechar"
                onClick={() => askClose(date, summary.closing)}
              >
                Fechar o dia
              </button>
            )}
          </>
        )}
      </form>
      {!date ? (
        <p className="rounded bg-white p-4 text-sm text-slate-600">Informe uma data válida.</p>
      ) : day.error != null && !summary ? (
        <p role="alert" className="rounded bg-white p-4 text-sm text-error">
          {errorMessage(day.error)}
        </p>
      ) : !summary ? (
        <LoadingScreen />
      ) : (
        <>
          <section aria-label="Resumo do dia" className="rounded bg-white p-3 shadow-sm">
            <div className="mb-2 flex items-center gap-2">
              <h2 className="text-sm font-semibold text-primary">Movimento de {formatDate(summary.date)}</h2>
              <span
                data-testid="movdiario-situacao"
                className={`rounded-full px-2 py-0.5 text-xs font-semibold ${
                  summary.closed ? 'bg-slate-200 text-slate-800' : 'bg-emerald-100 text-emerald-800'
                }`}
              >
                {summary.closed ? 'Dia fechado' : 'Dia aberto'}
              </span>
            </div>
            <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
              {(
                [
                  ['Saldo inicial', summary.opening, 'movdiario-saldo-inicial', ''],
                  ['Entradas', summary.entries, 'movdiario-entradas', 'text-tertiary'],
                  ['Saídas', summary.exits, 'movdiario-saidas', 'text-error'],
                  ['Saldo final', summary.closing, 'movdiario-saldo-final', 'font-semibold'],
                ] as const
              ).map(([label, value, testId, cls]) => (
                <div key={label}>
                  <dt className="text-xs text-slate-500">{label}</dt>
                  <dd className={`font-medium ${cls}`} data-testid={testId}>
                    {money(value)}
                  </dd>
                </div>
              ))}
            </dl>
          </section>
          <div className="grid gap-3 xl:grid-cols-3">
            <section aria-label="Por forma de pagamento" className="space-y-2 rounded bg-white p-3 shadow-sm">
              <h2 className="text-sm font-semibold text-primary">Por forma de pagamento</h2>
              <FinanceTable
                label="Por forma de pagamento"
                columns={METHOD_COLUMNS}
                rows={summary.methods}
                rowKey={(m, i) => `${String(m.id)}-${i}`}
                totals={methodTotals}
              />
            </section>
            <section aria-label="Movimentos do dia" className="space-y-2 rounded bg-white p-3 shadow-sm xl:col-span-2">
              <h2 className="text-sm font-semibold text-primary">Movimentos do dia ({summary.movements.length})</h2>
              <FinanceTable
                label="Movimentos do dia"
                columns={movementColumns}
                rows={summary.movements}
                rowKey={(m, i) => `${String(m.MBCA_ID)}-${i}`}
              />
            </section>
          </div>
        </>
      )}
      <section aria-label="Dias fechados" className="space-y-2 rounded bg-white p-3 shadow-sm">
        <h2 className="text-sm font-semibold text-primary">Dias fechados</h2>
        {closedDays.error && !closedDays.data ? (
          <p role="alert" className="text-sm text-error">
            {errorMessage(closedDays.error)}
          </p>
        ) : closedDays.loading && !closedDays.data ? (
          <LoadingScreen />
        ) : (
          <FinanceTable
            label="Dias fechados"
            testId="movdiario-dias-fechados"
            columns={closedColumns}
            rows={closedRows}
            rowKey={(r, i) => `${String(r.MOVD_ID)}-${i}`}
            actions={(r) => (
              <button
                type="button"
                className={secondaryButton}
                aria-label={`Ver o dia ${formatDate(String(r.MOVD_DTA_MOV ?? ''))}`}
                onClick={() => form.setValue('DATA', formatDate(String(r.MOVD_DTA_MOV ?? '')))}
              >
                Ver
              </button>
            )}
            emptyText="Nenhum dia fechado."
          />
        )}
        <Pager page={page} pageSize={PAGE_SIZE} total={closedDays.data?.resourceList.total ?? 0} onPage={setPage} />
      </section>
    </section>
  );
}
