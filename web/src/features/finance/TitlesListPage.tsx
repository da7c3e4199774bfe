import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { useDialogs } from '../../components/dialogs/DialogHost';
import { LoadingScreen } from '../../components/dialogs/LoadingScreen';
import { inputClass, primaryButton, secondaryButton } from '../../components/fields/styles';
import { FormView } from '../../components/form/FormView';
import { useFormState } from '../../components/form/useFormState';
import { Icon } from '../../components/Icon';
import RegisterListPage, { PAGE_SIZE, SEARCH_DEBOUNCE_MS } from '../../components/registers/RegisterListPage';
import { CardList } from '../../components/tables/CardList';
import { DataGrid } from '../../components/tables/DataGrid';
import { Pager } from '../../components/tables/Pager';
import type { RowSelect, SortState } from '../../components/tables/types';
import { useRows } from '../../lib/api';
import { errorMessage } from '../../lib/apollo';
import { apiDateOf, formatMoney, toCents } from '../../lib/format';
import { usePageMeta } from '../../lib/pageMeta';
import {
  editHref,
  encodeId,
  listColumns,
  parseOrder,
  recordId,
  resourceHref,
  routeName,
  type ResourceMeta,
} from '../../lib/resources/metaFields';
import { permissionsFor } from '../../lib/resources/permissions';
import { useDeleteRecord } from '../../lib/resources/useDeleteRecord';
import { useOptionLookup, useOptionSearch, useReferenceTexts } from '../../lib/resources/useResourceData';
import { useSession } from '../../lib/session';
import { notify } from '../../lib/toast';
import { useDebouncedValue } from '../../lib/useDebounce';
import { useIsMobile } from '../../lib/useIsMobile';
import { selectionError } from './settlement';
import { SettlementDialog } from './SettlementDialog';
import { IssueSlipsDialog, SlipDialog } from './SlipDialog';
import { TitleSettlementsDialog } from './TitleSettlementsDialog';
import {
  initialFilter,
  isOpen,
  isOverdue,
  titleColumns,
  titleFilterFields,
  titleListMeta,
  titleName,
  titleTotals,
  titleValue,
  titleWhere,
  type TitleColumns,
  type TitleRegister,
  type TitleRow,
} from './titles';

/**
 * The filtered titles are read at once (the engine's largest page), so the totals are those of
 * every filtered row; the screen shows them 20 at a time.
 */
export const TITLES_LIMIT = 6000;

/** The register whose titles are charged by bank slips (the receivables). */
export const RECEIVABLES = 'contasreceber' satisfies TitleRegister;

/** A bank slip's bars (the icon set has none). */
function SlipIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" className="h-4 w-4" fill="currentColor">
      <path d="M2 5h2v14H2zm3 0h1v14H5zm2 0h3v14H7zm4 0h1v14h-1zm3 0h2v14h-2zm3 0h1v14h-1zm2 0h3v14h-3z" />
    </svg>
  );
}

interface Props {
  meta: ResourceMeta;
  metas: ResourceMeta[];
}

/**
 * /contasareceber and /contasapagar: the titles filtered by period (due or issue date),
 * situation, customer or supplier and bank account, with their totals; overdue titles are
 * tinted. Titles of one person are settled from here (one by its row's 'Baixar', several by
 * their checkboxes), a title's settlements listed, reversed and their receipts printed.
 * A register whose metadata is not a title's gets the generic list.
 */
export default function TitlesListPage({ meta, metas }: Props) {
  const cols = useMemo(() => titleColumns(meta), [meta]);
  if (!cols) return <RegisterListPage meta={meta} metas={metas} />;
  return <TitlesList meta={meta} metas={metas} cols={cols} />;
}

function TitlesList({ meta, metas, cols }: Props & { cols: TitleColumns }) {
  usePageMeta(meta.title, routeName(meta, 'list'));
  const session = useSession();
  const perms = permissionsFor(session, meta);
  const mobile = useIsMobile();
  const navigate = useNavigate();
  const dialogs = useDialogs();
  // The day the screen opened: what is overdue and what 'A vencer' and 'Vencidas' mean.
  const [today] = useState(apiDateOf);
  const [search, setSearch] = useState('');
  const filter = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const [chosen, setChosen] = useState<SortState | null>(null);
  const sort = chosen ?? parseOrder(meta.defaultOrder);
  const filterFields = useMemo(() => titleFilterFields(cols), [cols]);
  const filters = useFormState(filterFields, initialFilter());
  const optionSearch = useOptionSearch(metas);
  const optionLookup = useOptionLookup(metas);
  const where = useMemo(() => titleWhere(cols, filters.values, today), [cols, filters.values, today]);
  const [selected, setSelected] = useState<Map<string, TitleRow>>(() => new Map());
  const [settling, setSettling] = useState<TitleRow[] | null>(null);
  const [settlementsOf, setSettlementsOf] = useState<TitleRow | null>(null);
  const [slipOf, setSlipOf] = useState<TitleRow | null>(null);
  const [issuing, setIssuing] = useState<TitleRow[] | null>(null);
  const withSlips = meta.name === RECEIVABLES;

  // Another filter, search or order starts from the first page with nothing chosen
  // (adjusted while rendering, no effect).
  const listKey = JSON.stringify([where, filter, chosen]);
  const [shownKey, setShownKey] = useState(listKey);
  if (listKey !== shownKey) {
    setShownKey(listKey);
    setPage(1);
    setSelected(new Map());
  }

  const { rows, total, data, loading, error } = useRows(
    cols.register,
    {
      filter: filter.trim() || null,
      order: chosen ? `${chosen.key} ${chosen.dir}` : meta.defaultOrder || null,
      page: 1,
      limit: TITLES_LIMIT,
      ...(where ? { where } : {}),
    },
    { skip: !perms.canView },
  );
  const { remove } = useDeleteRecord(meta.name, meta.key);
  const pageRows = useMemo(() => rows.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE), [rows, page]);
  const totals = useMemo(() => titleTotals(rows, cols, today), [rows, cols, today]);
  const listMeta = useMemo(() => titleListMeta(meta, cols), [meta, cols]);
  const texts = useReferenceTexts(listMeta, metas, pageRows);
  const columns = useMemo(
    () =>
      listColumns(listMeta, texts).map((c) => {
        if (c.key !== cols.status.name || !c.format) return c;
        const statusText = c.format;
        // An overdue title says so besides its tint.
        return {
          ...c,
          format: (v: unknown, row: TitleRow) =>
            `${statusText(v, row)}${isOverdue(row, cols, today) ? ' (vencido)' : ''}`,
        };
      }),
    [listMeta, texts, cols, today],
  );

  if (!perms.canView) {
    return <p className="p-6 text-center text-sm text-slate-600">Você não tem permissão para acessar esta tela.</p>;
  }

  const keyOf = (r: TitleRow) => encodeId(recordId(meta, r));
  const rowKey = (r: TitleRow, i: number) => `${keyOf(r)}-${i}`;
  const chosenRows = [...selected.values()];
  const personOf = (r: TitleRow) => String(titleValue(r, cols, 'person') ?? '');
  const chosenPerson = chosenRows.length ? personOf(chosenRows[0]) : null;
  const select: RowSelect<TitleRow> | undefined = perms.canUpdate
    ? {
        isSelected: (r) => selected.has(keyOf(r)),
        // Titles settled together are open ones of one customer or supplier.
        canSelect: (r) => isOpen(r, cols) && (chosenPerson === null || personOf(r) === chosenPerson),
        onChange: (r, on) =>
          setSelected((s) => {
            const next = new Map(s);
            if (on) next.set(keyOf(r), r);
            else next.delete(keyOf(r));
            return next;
          }),
        label: (r) => `Selecionar ${titleName(r, cols)}`,
      }
    : undefined;

  const settle = (list: TitleRow[]) => {
    const why = selectionError(list, cols);
    if (why) notify.warning(why);
    else setSettling(list);
  };

  const edit = (row: TitleRow) => {
    navigate(editHref(meta, recordId(meta, row)), { state: { record: row } });
  };

  const askDelete = (row: TitleRow) =>
    dialogs.confirm({
      title: 'Excluir registro',
      text: `Deseja excluir o ${titleName(row, cols)}?`,
      okText: 'Excluir',
      onOk: async () => {
        try {
          await remove(recordId(meta, row));
          notify.success('Registro excluído com sucesso!');
          setSelected((s) => {
            const next = new Map(s);
            next.delete(keyOf(row));
            return next;
          });
        } catch (e) {
          notify.error(errorMessage(e));
        }
      },
    });

  const iconButton = (
    label: string,
    icon: Parameters<typeof Icon>[0]['name'],
    onClick: () => void,
    tone = 'text-accent',
  ) => (
    <button
      type="button"
      title={label}
      aria-label={label}
      className={`rounded p-1 hover:bg-slate-100 ${tone}`}
      onClick={onClick}
    >
      <Icon name={icon} className="h-4 w-4" />
    </button>
  );

  const actions = (row: TitleRow) => (
    <>
      {perms.canUpdate && isOpen(row, cols) && iconButton('Baixar', 'payments', () => settle([row]), 'text-secondary')}
      {toCents(titleValue(row, cols, 'paid')) > 0 && iconButton('Baixas', 'receipt', () => setSettlementsOf(row))}
      {withSlips && (
        <button
          type="button"
          title="Boleto"
          aria-label="Boleto"
          data-testid={`titulo-boleto-${String(titleValue(row, cols, 'key'))}`}
          className="rounded p-1 text-primary hover:bg-slate-100"
          onClick={() => setSlipOf(row)}
        >
          <SlipIcon />
        </button>
      )}
      {iconButton(perms.canUpdate ? 'Editar' : 'Visualizar', perms.canUpdate ? 'edit' : 'view', () => edit(row))}
      {perms.canDelete && iconButton('Excluir', 'trash', () => askDelete(row), 'text-error')}
    </>
  );

  const tone = (row: TitleRow) => (isOverdue(row, cols, today) ? ('danger' as const) : undefined);

  return (
    <section className="space-y-3">
      <div className="flex flex-wrap items-center gap-2">
        <input
          type="search"
          aria-label="Pesquisar"
          placeholder="Pesquisar"
          // A row of its own on a phone: the buttons wrap below it.
          className={`${inputClass} max-w-md flex-1 basis-full sm:basis-auto`}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        {perms.canUpdate && (
          <button
            type="button"
            className={secondaryButton}
            disabled={selected.size === 0}
            onClick={() => settle(chosenRows)}
          >
            <Icon name="payments" className="h-4 w-4" />
            Baixar selecionados{selected.size ? ` (${selected.size})` : ''}
          </button>
        )}
        {perms.canUpdate && withSlips && (
          <button
            type="button"
            className={secondaryButton}
            disabled={selected.size === 0}
            data-testid="titulos-gerar-boletos"
            onClick={() => setIssuing(chosenRows)}
          >
            <SlipIcon />
            Gerar boletos{selected.size ? ` (${selected.size})` : ''}
          </button>
        )}
        {perms.canCreate && (
          <button type="button" className={primaryButton} onClick={() => navigate(`${resourceHref(meta)}/inserir`)}>
            <Icon name="plus" className="h-4 w-4" />
            Adicionar
          </button>
        )}
      </div>
      <form
        aria-label="Filtros"
        noValidate
        className="flex flex-wrap items-end gap-3 rounded bg-white p-3 shadow-sm"
        onSubmit={(e) => e.preventDefault()}
      >
        <div className="min-w-64 flex-1">
          <FormView form={filters} groups={[{ fields: filterFields }]} search={optionSearch} lookup={optionLookup} />
        </div>
        {where && (
          <button type="button" className={secondaryButton} onClick={() => filters.reset(initialFilter())}>
            Limpar filtros
          </button>
        )}
      </form>
      <section aria-label="Totais" className="rounded bg-white p-3 shadow-sm">
        <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-5">
          <div>
            <dt className="text-xs text-slate-500">Títulos</dt>
            <dd className="font-medium">{totals.count}</dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500">Valor</dt>
            <dd className="font-medium">{formatMoney(totals.value / 100)}</dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500">Pago</dt>
            <dd className="font-medium">{formatMoney(totals.paid / 100)}</dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500">Saldo</dt>
            <dd className="font-semibold">{formatMoney(totals.balance / 100)}</dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500">Vencido</dt>
            <dd className={`font-medium ${totals.overdue > 0 ? 'text-error' : ''}`}>
              {formatMoney(totals.overdue / 100)}
            </dd>
          </div>
        </dl>
        {total > rows.length && (
          <p role="status" className="mt-2 text-xs text-error">
            Mostrando e somando os primeiros {rows.length} de {total} títulos: refine os filtros.
          </p>
        )}
      </section>
      {error && !data ? (
        <p role="alert" className="rounded bg-white p-4 text-sm text-error">
          {errorMessage(error)}
        </p>
      ) : loading && !data ? (
        <LoadingScreen />
      ) : mobile ? (
        <CardList
          columns={columns}
          rows={pageRows}
          titleKey={meta.labelField}
          actions={actions}
          rowKey={rowKey}
          select={select}
          tone={tone}
        />
      ) : (
        <DataGrid
          columns={columns}
          rows={pageRows}
          sort={sort}
          onSort={(key) => {
            setChosen(sort?.key === key ? { key, dir: sort.dir === 'ASC' ? 'DESC' : 'ASC' } : { key, dir: 'ASC' });
          }}
          storageKey={meta.name}
          actions={actions}
          rowKey={rowKey}
          select={select}
          tone={tone}
        />
      )}
      <Pager page={page} pageSize={PAGE_SIZE} total={rows.length} onPage={setPage} />
      {settling && (
        <SettlementDialog
          meta={meta}
          metas={metas}
          cols={cols}
          rows={settling}
          onClose={() => setSettling(null)}
          onSettled={() => setSelected(new Map())}
        />
      )}
      {slipOf && (
        <SlipDialog
          meta={meta}
          metas={metas}
          cols={cols}
          title={slipOf}
          canWrite={perms.canUpdate}
          onClose={() => setSlipOf(null)}
        />
      )}
      {issuing && (
        <IssueSlipsDialog
          meta={meta}
          metas={metas}
          cols={cols}
          rows={issuing}
          onClose={() => setIssuing(null)}
          onIssued={() => setSelected(new Map())}
        />
      )}
      {settlementsOf && (
        <TitleSettlementsDialog
          meta={meta}
          metas={metas}
          cols={cols}
          title={settlementsOf}
          canReverse={perms.canUpdate}
          canSendReceipt={withSlips}
          onClose={() => setSettlementsOf(null)}
        />
      )}
    </section>
  );
}
