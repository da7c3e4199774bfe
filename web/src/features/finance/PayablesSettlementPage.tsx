import { useMemo, useState } from 'react';
import { DialogFrame } from '../../components/dialogs/DialogFrame';
import { LoadingScreen } from '../../components/dialogs/LoadingScreen';
import { inputClass, primaryButton, secondaryButton } from '../../components/fields/styles';
import type { FieldDescriptor, FormValues, GroupDescriptor } from '../../components/fields/types';
import { FormView, fieldsOf } from '../../components/form/FormView';
import { useFormState } from '../../components/form/useFormState';
import { Icon } from '../../components/Icon';
import RegisterListPage, { PAGE_SIZE, SEARCH_DEBOUNCE_MS } from '../../components/registers/RegisterListPage';
import { CardList } from '../../components/tables/CardList';
import { DataGrid } from '../../components/tables/DataGrid';
import { Pager } from '../../components/tables/Pager';
import type { Column, RowSelect, SortState } from '../../components/tables/types';
import { errorMessage } from '../../lib/apollo';
import { apiDateOf, formatDate, formatMoney, toApiDate, toCents } from '../../lib/format';
import { usePageMeta } from '../../lib/pageMeta';
import {
  encodeId,
  listColumns,
  parseOrder,
  recordId,
  routeName,
  type ResourceMeta,
} from '../../lib/resources/metaFields';
import { permissionsFor } from '../../lib/resources/permissions';
import { useOptionLookup, useOptionSearch, useReferenceTexts } from '../../lib/resources/useResourceData';
import { useSession } from '../../lib/session';
import { notify } from '../../lib/toast';
import { useDebouncedValue } from '../../lib/useDebounce';
import { useIsMobile } from '../../lib/useIsMobile';
import {
  FILTER,
  isOverdue,
  titleColumns,
  titleListMeta,
  titleName,
  titleValue,
  titleWhere,
  type TitleColumns,
} from './titles';
import {
  usePayablesToSettle,
  type PayablesBody,
  type PayableToSettle,
  type QuickSettlementBody,
  type SettleAnswer,
} from './useTitleCalls';

/** The settlement date of the list: the charges shown are those of settling on it. */
export const SETTLE_DATE = 'DATA_BAIXA';

/** The situations of payables still to settle ('Em aberto': open and partly paid, the call's own default). */
export const PAYABLE_SITUATIONS = [
  { value: 'abertas', text: 'Em aberto' },
  { value: 'vencidas', text: 'Vencidas' },
  { value: 'avencer', text: 'A vencer' },
];

export function payableFilterFields(cols: TitleColumns): FieldDescriptor[] {
  const fields: FieldDescriptor[] = [
    {
      name: cols.person.name,
      type: 'AUTOCOMPLETE',
      text: cols.person.label,
      reference: cols.person.reference,
      width: 4,
    },
    { name: FILTER.from, type: 'DATE', text: 'Vencimento de', width: 2 },
    {
      name: FILTER.to,
      type: 'DATE',
      text: 'Vencimento até',
      width: 2,
      compare: { field: FILTER.from, relation: 'gte', message: 'A data final deve ser igual ou posterior à inicial.' },
    },
  ];
  if (cols.bank) {
    fields.push({
      name: cols.bank.name,
      type: 'COMBOBOX',
      text: cols.bank.label,
      reference: cols.bank.reference,
      width: 2,
    });
  }
  fields.push(
    { name: SETTLE_DATE, type: 'DATE', text: 'Data da baixa', required: true, width: 2 },
    { name: FILTER.situation, type: 'SITUATION', text: 'Situação', options: PAYABLE_SITUATIONS, width: 12 },
  );
  return fields;
}

/**
 * The body of `filtros` for the filters, the search text, the page and the order, or null
 * while the settlement date is not a real date. The due period, supplier, bank and situation
 * are the titles list's `where` (by due date); the charges are computed on DATA_BAIXA.
 */
export function payablesBody(
  cols: TitleColumns,
  values: FormValues,
  today: string,
  { filter, page, order }: { filter: string; page: number; order: string | null },
): PayablesBody | null {
  const date = toApiDate(String(values[SETTLE_DATE] ?? ''));
  if (!date) return null;
  return {
    ...titleWhere(cols, { ...values, [FILTER.period]: 'V' }, today),
    [SETTLE_DATE]: date,
    ...(filter.trim() ? { FILTRO: filter.trim() } : {}),
    ...(order ? { ORDENACAO: order } : {}),
    LIMIT: PAGE_SIZE,
    PAGINATION: page - 1,
  };
}

/** Columns the call adds to each row: the charges of settling its balance on DATA_BAIXA. */
const CHARGES: Column<PayableToSettle>[] = [
  { key: 'DIAS_ATRASO', label: 'Dias de atraso', align: 'right', nowrap: true },
  { key: 'JUROS_CALC', label: 'Juros', align: 'right', nowrap: true, format: (v) => formatMoney(toCents(v) / 100) },
  { key: 'MULTA_CALC', label: 'Multa', align: 'right', nowrap: true, format: (v) => formatMoney(toCents(v) / 100) },
  {
    key: 'TOTAL_CALC',
    label: 'Total a pagar',
    align: 'right',
    nowrap: true,
    format: (v) => formatMoney(toCents(v) / 100),
  },
];

interface Props {
  meta: ResourceMeta;
  metas: ResourceMeta[];
}

/**
 * /baixacontaspagar: the payables still to settle, filtered by supplier, due period, bank and
 * situation, with the interest and fine of settling each on the chosen date; the chosen ones
 * (on any page) are settled at once by their balances ('rapida', all or nothing).
 */
export default function PayablesSettlementPage({ meta, metas }: Props) {
  const cols = useMemo(() => titleColumns(meta), [meta]);
  if (!cols) return <RegisterListPage meta={meta} metas={metas} />;
  return <PayablesSettlement meta={meta} metas={metas} cols={cols} />;
}

function PayablesSettlement({ meta, metas, cols }: Props & { cols: TitleColumns }) {
  usePageMeta(meta.title, routeName(meta, 'list'));
  const session = useSession();
  const perms = permissionsFor(session, meta);
  const mobile = useIsMobile();
  const [today] = useState(apiDateOf);
  const [search, setSearch] = useState('');
  const filter = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const [chosen, setChosen] = useState<SortState | null>(null);
  const sort = chosen ?? parseOrder(meta.defaultOrder);
  const filterFields = useMemo(() => payableFilterFields(cols), [cols]);
  const filters = useFormState(filterFields, { [SETTLE_DATE]: formatDate(today), [FILTER.situation]: 'abertas' });
  const optionSearch = useOptionSearch(metas);
  const optionLookup = useOptionLookup(metas);
  const order = chosen ? `${chosen.key} ${chosen.dir}` : null;
  const [selected, setSelected] = useState<Map<string, PayableToSettle>>(() => new Map());
  const [confirming, setConfirming] = useState(false);

  const filterKey = JSON.stringify([payablesBody(cols, filters.values, today, { filter, page: 1, order })]);
  const [shownKey, setShownKey] = useState(filterKey);
  if (filterKey !== shownKey) {
    setShownKey(filterKey);
    setPage(1);
    setSelected(new Map());
  }
  const body = useMemo(
    () => payablesBody(cols, filters.values, today, { filter, page, order }),
    [cols, filters.values, today, filter, page, order],
  );
  const { data, loading, error, settle } = usePayablesToSettle(meta, metas, perms.canView ? body : null);
  const rows = useMemo(() => data?.rows ?? [], [data]);
  const listMeta = useMemo(() => titleListMeta(meta, cols), [meta, cols]);
  const texts = useReferenceTexts(listMeta, metas, rows);
  // The charges follow the balance they are computed on.
  const columns = useMemo(() => {
    const listed = listColumns(listMeta, texts);
    const at = listed.findIndex((c) => c.key === cols.balance) + 1 || listed.length;
    return [...listed.slice(0, at), ...CHARGES, ...listed.slice(at)];
  }, [listMeta, texts, cols]);

  if (!perms.canView) {
    return <p className="p-6 text-center text-sm text-slate-600">Você não tem permissão para acessar esta tela.</p>;
  }

  const keyOf = (r: PayableToSettle) => encodeId(recordId(meta, r));
  const toggle = (list: PayableToSettle[], on: boolean) =>
    setSelected((s) => {
      const next = new Map(s);
      for (const r of list) {
        if (on) next.set(keyOf(r), r);
        else next.delete(keyOf(r));
      }
      return next;
    });
  const select: RowSelect<PayableToSettle> | undefined = perms.canUpdate
    ? {
        isSelected: (r) => selected.has(keyOf(r)),
        onChange: (r, on) => toggle([r], on),
        onChangeAll: toggle,
        label: (r) => `Selecionar ${titleName(r, cols)}`,
      }
    : undefined;
  const chosenRows = [...selected.values()];
  const chosenTotal = chosenRows.reduce((sum, r) => sum + toCents(r.TOTAL_CALC ?? titleValue(r, cols, 'balance')), 0);
  const settleDate = toApiDate(String(filters.values[SETTLE_DATE] ?? ''));
  const tone = (row: PayableToSettle) => (isOverdue(row, cols, today) ? ('danger' as const) : undefined);
  const fieldNames = new Set(meta.fields.map((f) => f.name));

  return (
    <section className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        <input
          type="search"
          aria-label="Pesquisar"
          placeholder="Pesquisar"
          className={`${inputClass} max-w-md flex-1`}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      </div>
      <form
        aria-label="Filtros"
        noValidate
        className="rounded bg-white p-3 shadow-sm"
        onSubmit={(e) => e.preventDefault()}
      >
        <FormView form={filters} groups={[{ fields: filterFields }]} search={optionSearch} lookup={optionLookup} />
      </form>
      {!body ? (
        <p role="alert" className="rounded bg-white p-4 text-sm text-error">
          Informe a data da baixa.
        </p>
      ) : error != null && !data ? (
        <p role="alert" className="rounded bg-white p-4 text-sm text-error">
          {errorMessage(error)}
        </p>
      ) : loading && !data ? (
        <LoadingScreen />
      ) : mobile ? (
        <CardList
          columns={columns}
          rows={rows}
          titleKey={meta.labelField}
          rowKey={(r, i) => `${keyOf(r)}-${i}`}
          select={select}
          tone={tone}
        />
      ) : (
        <DataGrid
          columns={columns}
          rows={rows}
          sort={sort}
          // The charges are computed, not columns of the register: the list is not ordered by them.
          onSort={(key) => {
            if (!fieldNames.has(key)) return;
            setChosen(sort?.key === key ? { key, dir: sort.dir === 'ASC' ? 'DESC' : 'ASC' } : { key, dir: 'ASC' });
          }}
          storageKey={meta.name}
          rowKey={(r, i) => `${keyOf(r)}-${i}`}
          select={select}
          tone={tone}
        />
      )}
      <Pager page={page} pageSize={PAGE_SIZE} total={data?.count ?? 0} onPage={setPage} />
      {perms.canUpdate && (
        <div
          aria-label="Selecionados"
          role="region"
          className="sticky bottom-0 flex flex-wrap items-center justify-between gap-2 rounded bg-white p-3 shadow-sm"
        >
          <p className="text-sm">
            {selected.size === 1 ? '1 título selecionado' : `${selected.size} títulos selecionados`} · Total a pagar:{' '}
            <strong>{formatMoney(chosenTotal / 100)}</strong>
          </p>
          <div className="flex gap-2">
            {selected.size > 0 && (
              <button type="button" className={secondaryButton} onClick={() => setSelected(new Map())}>
                Limpar seleção
              </button>
            )}
            <button
              type="button"
              className={primaryButton}
              disabled={selected.size === 0 || !settleDate}
              onClick={() => setConfirming(true)}
            >
              <Icon name="payments" className="h-4 w-4" />
              Baixar selecionados
            </button>
          </div>
        </div>
      )}
      {confirming && settleDate && (
        <QuickSettleDialog
          cols={cols}
          metas={metas}
          rows={chosenRows}
          date={settleDate}
          total={chosenTotal}
          settle={settle}
          onClose={() => setConfirming(false)}
          onSettled={() => {
            setConfirming(false);
            setSelected(new Map());
          }}
        />
      )}
    </section>
  );
}

interface QuickProps {
  cols: TitleColumns;
  metas: ResourceMeta[];
  rows: PayableToSettle[];
  /** yyyy-MM-dd: the list's settlement date. */
  date: string;
  /** Cents: what the list computed for the chosen titles on that date. */
  total: number;
  settle: (body: QuickSettlementBody) => Promise<SettleAnswer>;
  onClose: () => void;
  onSettled: () => void;
}

const QUICK = { bank: 'BCO_ID', method: 'FRMP_ID', remarks: 'OBS' } as const;

/** Confirms the quick settlement: the account and method, then every chosen title by its balance. */
function QuickSettleDialog({ cols, metas, rows, date, total, settle, onClose, onSettled }: QuickProps) {
  const groups = useMemo<GroupDescriptor[]>(() => {
    const fields: FieldDescriptor[] = [];
    if (cols.bank)
      fields.push({
        name: QUICK.bank,
        type: 'COMBOBOX',
        text: cols.bank.label,
        reference: cols.bank.reference,
        width: 4,
      });
    if (cols.method) {
      fields.push({
        name: QUICK.method,
        type: 'COMBOBOX',
        text: cols.method.label,
        reference: cols.method.reference,
        width: 4,
      });
    }
    fields.push({ name: QUICK.remarks, type: 'TEXT', text: 'Observação', length: 500, width: 4 });
    return [{ fields }];
  }, [cols]);
  const form = useFormState(fieldsOf(groups), {});
  const search = useOptionSearch(metas);
  const lookup = useOptionLookup(metas);
  const [saving, setSaving] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);

  const confirm = async () => {
    setRefused(null);
    if (!form.validateAll()) return;
    const text = (name: string) => String(form.values[name] ?? '').trim();
    const id = (name: string) => (/^\d+$/.test(text(name)) ? Number(text(name)) : text(name));
    setSaving(true);
    try {
      const answer = await settle({
        DATA: date,
        ...(text(QUICK.bank) ? { BCO_ID: id(QUICK.bank) } : {}),
        ...(text(QUICK.method) ? { FRMP_ID: id(QUICK.method) } : {}),
        ...(text(QUICK.remarks) ? { OBS: text(QUICK.remarks) } : {}),
        TITULOS: rows.map((r) => titleValue(r, cols, 'key')),
      });
      notify.success(answer.msg);
      onSettled();
    } catch (e) {
      const message = errorMessage(e);
      setRefused(message);
      notify.error(message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <DialogFrame
      title="Baixar títulos selecionados"
      onClose={onClose}
      width={720}
      footer={
        <>
          <button type="button" className={secondaryButton} onClick={onClose}>
            Cancelar
          </button>
          <button type="button" className={primaryButton} disabled={saving} onClick={() => void confirm()}>
            Confirmar baixa
          </button>
        </>
      }
    >
      <p className="mb-3 text-sm text-slate-700">
        {rows.length === 1 ? '1 título será baixado' : `${rows.length} títulos serão baixados`} pelo saldo em{' '}
        {formatDate(date)}, com juros e multa calculados para essa data: total de{' '}
        <strong>{formatMoney(total / 100)}</strong>.
      </p>
      <ul className="mb-3 max-h-40 list-inside list-disc overflow-auto text-xs text-slate-600">
        {rows.map((r) => (
          <li key={String(titleValue(r, cols, 'key'))}>
            {titleName(r, cols)} · {titleValue(r, cols, 'personName') ?? ''} ·{' '}
            {formatMoney(toCents(r.TOTAL_CALC) / 100)}
          </li>
        ))}
      </ul>
      <FormView form={form} groups={groups} search={search} lookup={lookup} editable={!saving} />
      {refused && (
        <p role="alert" className="mt-2 text-sm text-error">
          {refused}
        </p>
      )}
    </DialogFrame>
  );
}
