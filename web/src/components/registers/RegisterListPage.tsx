import { useQuery } from '@apollo/client';
import { useMemo, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { useDialogs } from '../dialogs/DialogHost';
import { LoadingScreen } from '../dialogs/LoadingScreen';
import { inputClass, primaryButton, secondaryButton } from '../fields/styles';
import { FormView } from '../form/FormView';
import { useFormState } from '../form/useFormState';
import { Icon } from '../Icon';
import { CardList } from '../tables/CardList';
import { DataGrid } from '../tables/DataGrid';
import { Pager } from '../tables/Pager';
import type { Row, SortState } from '../tables/types';
import { errorMessage } from '../../lib/apollo';
import { usePageMeta } from '../../lib/pageMeta';
import { useSession } from '../../lib/session';
import { notify } from '../../lib/toast';
import { useDebouncedValue } from '../../lib/useDebounce';
import { useIsMobile } from '../../lib/useIsMobile';
import { ResourceListDocument } from '../../lib/resources/documents';
import { filterWhere, listFilterFields } from '../../lib/resources/listFilters';
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
import { labelText } from '../../lib/resources/recordLabel';
import { useDeleteRecord } from '../../lib/resources/useDeleteRecord';
import { useCompanyId, useOptionLookup, useOptionSearch, useReferenceTexts } from '../../lib/resources/useResourceData';

/** Spec §9: page size 20, search debounce 500 ms. */
export const PAGE_SIZE = 20;
export const SEARCH_DEBOUNCE_MS = 500;

interface ListProps {
  meta: ResourceMeta;
  metas: ResourceMeta[];
  /** What a register adds beside the add button (the purchases' 'Importar XML'). */
  tools?: ReactNode;
}

/**
 * The list of a register (documents included). A document whose metadata declares breadcrumbs
 * gets a header with them ('Início' links home) and the add button; the label column is cut
 * to the register's label length. A document's list is filtered by its period, the parties it
 * names and its status (src/lib/resources/listFilters.ts).
 */
export default function RegisterListPage({ meta, metas, tools }: ListProps) {
  const breadcrumbs = meta.document?.breadcrumbs;
  usePageMeta(meta.title, routeName(meta, 'list'));
  const session = useSession();
  const perms = permissionsFor(session, meta);
  const emp = useCompanyId();
  const mobile = useIsMobile();
  const navigate = useNavigate();
  const dialogs = useDialogs();
  const [search, setSearch] = useState('');
  const filter = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  // null: the register's own default ordering, sent as the gateway declared it.
  const [chosen, setChosen] = useState<SortState | null>(null);
  const sort = chosen ?? parseOrder(meta.defaultOrder);
  const href = resourceHref(meta);
  const filterFields = useMemo(() => listFilterFields(meta), [meta]);
  const filters = useFormState(filterFields, {});
  const optionSearch = useOptionSearch(metas);
  const optionLookup = useOptionLookup(metas);
  const where = useMemo(() => filterWhere(filterFields, filters.values), [filterFields, filters.values]);
  // A changed filter starts again from the first page (adjusted while rendering, no effect).
  const whereKey = JSON.stringify(where);
  const [shownWhere, setShownWhere] = useState(whereKey);
  if (whereKey !== shownWhere) {
    setShownWhere(whereKey);
    setPage(1);
  }

  const { data, loading, error } = useQuery(ResourceListDocument, {
    skip: !perms.canView,
    variables: {
      name: meta.name,
      emp,
      input: {
        filter: filter.trim() || null,
        order: chosen ? `${chosen.key} ${chosen.dir}` : meta.defaultOrder || null,
        page,
        limit: PAGE_SIZE,
        ...(where ? { where } : {}),
      },
    },
  });
  const { remove } = useDeleteRecord(meta.name, meta.key);
  const rows = useMemo(() => (data?.resourceList.rows ?? []) as Row[], [data]);
  const texts = useReferenceTexts(meta, metas, rows);
  const columns = useMemo(
    () =>
      listColumns(meta, texts).map((c) =>
        c.key === meta.labelField && meta.labelLength != null
          ? { ...c, format: (v: unknown) => labelText(meta, v) }
          : c,
      ),
    [meta, texts],
  );

  if (!perms.canView) {
    return <p className="p-6 text-center text-sm text-slate-600">Você não tem permissão para acessar esta tela.</p>;
  }

  const total = data?.resourceList.total ?? 0;
  const rowKey = (r: Row, i: number) => `${encodeId(recordId(meta, r))}-${i}`;

  const onSort = (key: string) => {
    setChosen(sort?.key === key ? { key, dir: sort.dir === 'ASC' ? 'DESC' : 'ASC' } : { key, dir: 'ASC' });
    setPage(1);
  };

  const edit = (row: Row) => navigate(editHref(meta, recordId(meta, row)), { state: { record: row } });

  const askDelete = (row: Row) =>
    dialogs.confirm({
      title: 'Excluir registro',
      text: `Deseja excluir "${String(row[meta.labelField] ?? encodeId(recordId(meta, row)))}"?`,
      okText: 'Excluir',
      onOk: async () => {
        try {
          await remove(recordId(meta, row));
          notify.success('Registro excluído com sucesso!');
          // The cache dropped the row from this page; an emptied page gives way to the one before.
          if (rows.length === 1 && page > 1) setPage(page - 1);
        } catch (e) {
          notify.error(errorMessage(e));
        }
      },
    });

  const actions = (row: Row) => (
    <>
      <button
        type="button"
        title={perms.canUpdate ? 'Editar' : 'Visualizar'}
        aria-label={perms.canUpdate ? 'Editar' : 'Visualizar'}
        className="rounded p-1 text-accent hover:bg-slate-100"
        onClick={() => edit(row)}
      >
        <Icon name={perms.canUpdate ? 'edit' : 'view'} className="h-4 w-4" />
      </button>
      {perms.canDelete && (
        <button
          type="button"
          title="Excluir"
          aria-label="Excluir"
          className="rounded p-1 text-error hover:bg-slate-100"
          onClick={() => askDelete(row)}
        >
          <Icon name="trash" className="h-4 w-4" />
        </button>
      )}
    </>
  );

  const addButton = perms.canCreate && (
    <button type="button" className={primaryButton} onClick={() => navigate(`${href}/inserir`)}>
      <Icon name="plus" className="h-4 w-4" />
      Adicionar
    </button>
  );

  return (
    <section className="space-y-3">
      {breadcrumbs && breadcrumbs.length > 0 && (
        <header className="flex flex-wrap items-center justify-between gap-2 rounded bg-white px-4 py-2 shadow-sm">
          <nav aria-label="Breadcrumb">
            <ol className="flex items-center gap-1 text-sm">
              {breadcrumbs.map((b, i) => (
                <li key={b} className="flex items-center gap-1">
                  {i > 0 && <Icon name="chevron" className="h-4 w-4 text-slate-400" />}
                  {i === 0 ? (
                    <Link to="/" className="text-accent hover:underline">
                      {b}
                    </Link>
                  ) : (
                    <span aria-current={i === breadcrumbs.length - 1 ? 'page' : undefined} className="font-medium">
                      {b}
                    </span>
                  )}
                </li>
              ))}
            </ol>
          </nav>
          {addButton}
        </header>
      )}
      <div className="flex flex-wrap items-center gap-2">
        <input
          type="search"
          aria-label="Pesquisar"
          placeholder="Pesquisar"
          className={`${inputClass} max-w-md flex-1`}
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(1);
          }}
        />
        {tools}
        {!breadcrumbs?.length && addButton}
      </div>
      {filterFields.length > 0 && (
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
            <button type="button" className={secondaryButton} onClick={() => filters.reset({})}>
              Limpar filtros
            </button>
          )}
        </form>
      )}
      {error && !data ? (
        <p role="alert" className="rounded bg-white p-4 text-sm text-error">
          {errorMessage(error)}
        </p>
      ) : loading && !data ? (
        <LoadingScreen />
      ) : mobile ? (
        <CardList columns={columns} rows={rows} titleKey={meta.labelField} actions={actions} rowKey={rowKey} />
      ) : (
        <DataGrid
          columns={columns}
          rows={rows}
          sort={sort}
          onSort={onSort}
          storageKey={meta.name}
          actions={actions}
          rowKey={rowKey}
        />
      )}
      <Pager page={page} pageSize={PAGE_SIZE} total={total} onPage={setPage} />
    </section>
  );
}
