import { useQuery } from '@apollo/client';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useDialogs } from '../../components/dialogs/DialogHost';
import { LoadingScreen } from '../../components/dialogs/LoadingScreen';
import type { FormValues, GroupDescriptor } from '../../components/fields/types';
import { primaryButton, secondaryButton } from '../../components/fields/styles';
import { FormView, fieldsOf } from '../../components/form/FormView';
import { useFormState } from '../../components/form/useFormState';
import type { Row } from '../../components/tables/types';
import { errorMessage } from '../../lib/apollo';
import { formatMoney } from '../../lib/format';
import { usePageMeta } from '../../lib/pageMeta';
import { useSession } from '../../lib/session';
import { notify } from '../../lib/toast';
import { ResourceGetDocument } from '../../lib/resources/documents';
import {
  decodeId,
  fieldOfMessage,
  metaGroups,
  routeName,
  rowToValues,
  valuesToRow,
  type ResourceMeta,
} from '../../lib/resources/metaFields';
import { permissionsFor } from '../../lib/resources/permissions';
import { useCreateRecord } from '../../lib/resources/useCreateRecord';
import { useCompanyId, useOptionLookup, useOptionSearch } from '../../lib/resources/useResourceData';
import { useUpdateRecord } from '../../lib/resources/useUpdateRecord';
import { clientLabel } from './clientLabel';
import { documentActions, editHref, type DocActionDef } from './actions';
import { DocumentLines } from './DocumentLines';
import { headerId, hiddenFields, isClosed, statusOf, type DocSpec } from './specs';
import { useDocumentAction } from './useDocumentAction';

interface Props {
  spec: DocSpec;
  meta: ResourceMeta;
  metas: ResourceMeta[];
  action: 'inserir' | 'alterar';
}

export const todayScreen = () => {
  const n = new Date();
  return `${String(n.getDate()).padStart(2, '0')}/${String(n.getMonth() + 1).padStart(2, '0')}/${n.getFullYear()}`;
};

const SURCHARGE_GROUPS: GroupDescriptor[] = [
  {
    fields: [
      {
        name: 'TIPO',
        type: 'COMBOBOX',
        text: 'Tipo',
        required: true,
        width: 6,
        options: [
          { value: 'V', text: 'Valor (R$)' },
          { value: 'P', text: 'Percentual (%)' },
        ],
      },
      { name: 'VALOR', type: 'MONEY', text: 'Acréscimo', required: true, width: 6 },
    ],
  },
];

const BADGE: Record<string, string> = {
  A: 'bg-emerald-100 text-emerald-800',
  F: 'bg-primary text-white',
  C: 'bg-slate-200 text-slate-700',
};

/** A document's header form, its line tables, the server's totals and its conversions. */
export default function DocumentFormPage({ spec, meta, metas, action }: Props) {
  const editing = action === 'alterar';
  usePageMeta(`${editing ? 'Editar' : 'Cadastrar'} ${meta.title}`, routeName(meta, action));
  const session = useSession();
  const perms = permissionsFor(session, meta);
  const emp = useCompanyId();
  const navigate = useNavigate();
  const dialogs = useDialogs();
  const location = useLocation();
  const [params] = useSearchParams();
  const search = useOptionSearch(metas);
  const lookup = useOptionLookup(metas);
  const hidden = useMemo(() => hiddenFields(spec), [spec]);
  const groups = useMemo(
    () =>
      metaGroups(meta)
        .map((g) => ({ ...g, fields: g.fields.filter((f) => !hidden.has(f.name)) }))
        .filter((g) => g.fields.length > 0),
    [meta, hidden],
  );
  const fields = useMemo(() => fieldsOf(groups), [groups]);
  const href = `/${spec.root}`;

  const handed = (location.state as { record?: Row } | null)?.record ?? null;
  const id = editing ? (decodeId(params.get('id')) ?? (handed ? headerId(spec, handed) : undefined)) : undefined;
  const { data, loading, error } = useQuery(ResourceGetDocument, {
    skip: !editing || id === undefined,
    variables: { name: meta.name, emp, id: id ?? null },
    fetchPolicy: 'network-only',
    notifyOnNetworkStatusChange: true,
  });
  const record: Row | null = (data?.resourceGet as Row | null | undefined) ?? handed;
  // The first record only (a new document starts today); later ones go through reset below.
  const [initial] = useState<FormValues>(() => {
    const v = rowToValues(meta, record);
    if (!record && spec.dateField && !v[spec.dateField]) v[spec.dateField] = todayScreen();
    return v;
  });
  const form = useFormState(fields, initial);
  const loadedFrom = useRef<Row | null>(record);
  const { reset, dirty } = form;
  useEffect(() => {
    if (record && loadedFrom.current !== record && !dirty) {
      loadedFrom.current = record;
      reset(rowToValues(meta, record));
    }
  }, [record, reset, dirty, meta]);

  const { create, loading: creating } = useCreateRecord(meta.name);
  const { update, loading: updating } = useUpdateRecord(meta.name, meta.key);
  const { call, loading: acting } = useDocumentAction(spec);

  if (!perms.canView && !(action === 'inserir' && perms.canCreate)) {
    return <p className="p-6 text-center text-sm text-slate-600">Você não tem permissão para acessar esta tela.</p>;
  }
  if (editing && id === undefined) {
    return <p className="p-6 text-center text-sm text-slate-600">Nenhum registro selecionado.</p>;
  }
  if (editing && loading && !record) return <LoadingScreen />;
  if (editing && !record) {
    return (
      <p role="alert" className="p-6 text-center text-sm text-error">
        {error ? errorMessage(error) : 'Registro não encontrado.'}
      </p>
    );
  }

  const closed = isClosed(spec, record);
  const editable = (editing ? perms.canUpdate : perms.canCreate) && !closed;
  const status = statusOf(spec, record);

  const save = async () => {
    if (!form.validateAll()) return;
    const row = valuesToRow(meta, form.values);
    for (const h of hidden) delete row[h];
    try {
      if (editing) {
        // The answered row replaces the cached header, and the form takes it once not dirty.
        await update(id, row);
        notify.success('Registro salvo com sucesso!');
        reset(form.values);
      } else {
        const saved = await create(row);
        notify.success('Registro salvo com sucesso!');
        navigate(editHref(spec.root, headerId(spec, saved)), { replace: true, state: { record: saved } });
      }
    } catch (e) {
      const message = errorMessage(e);
      notify.error(message);
      const field = fieldOfMessage(meta, message);
      if (field) form.showError(field, message);
    }
  };

  const run = async (def: DocActionDef, values: FormValues) => {
    try {
      const { answer, next } = await call(def, def.body?.(values));
      notify.success(typeof answer.msg === 'string' && answer.msg ? answer.msg : 'Operação realizada com sucesso!');
      if (next) navigate(next, { state: { record: answer } });
    } catch (e) {
      notify.error(errorMessage(e));
    }
  };

  const start = (def: DocActionDef) => {
    if (def.asksSurcharge) {
      dialogs.confirm({
        title: 'Acréscimo da ordem de serviço',
        groups: SURCHARGE_GROUPS,
        okText: 'Aplicar',
        onOk: (values) => run(def, values),
      });
    } else if (def.confirm) {
      dialogs.confirm({ ...def.confirm, onOk: () => run(def, {}) });
    } else {
      void run(def, {});
    }
  };

  const actions = editing && record ? documentActions(spec, record, session?.user.id ?? 0, perms.canUpdate) : [];
  const number = record ? spec.key.map((k) => String(record[k] ?? '')).join('/') : '';
  const customer = record
    ? spec.id === 'order'
      ? clientLabel(record.PEDF_CLI_DESC)
      : String(record.ORCA_CLI_DESC ?? record.ORDS_CLI_DESC ?? '')
    : '';
  const partsLocked = spec.id === 'serviceOrder' && record?.ORDS_ESTOQUE_BAIXADO === true;

  return (
    <div className="space-y-4">
      {editing && record && (
        <div className="flex flex-wrap items-center gap-2">
          <h2 className="text-lg font-semibold text-slate-800">
            {meta.title} nº {number}
            {customer && <span className="font-normal text-slate-600"> - {customer}</span>}
          </h2>
          {status && spec.status && (
            <span
              data-testid="status-badge"
              className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${BADGE[status] ?? BADGE.C}`}
            >
              {spec.status.labels[status] ?? status}
            </span>
          )}
          {partsLocked && (
            <span className="rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-800">
              Estoque baixado
            </span>
          )}
        </div>
      )}
      {closed && (
        <p role="note" className="rounded bg-amber-50 p-2 text-sm text-amber-900">
          Documento {spec.status?.labels[status]?.toLowerCase()}: somente consulta.
        </p>
      )}
      <form
        noValidate
        className="space-y-4 rounded bg-white p-4 shadow-sm"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <FormView
          form={form}
          groups={groups}
          editable={editable}
          search={search}
          lookup={lookup}
          uploadsBase={`/uploads/${emp}`}
        />
        <div className="flex flex-wrap justify-end gap-2 border-t border-slate-200 pt-3">
          <button type="button" className={secondaryButton} onClick={() => navigate(href)}>
            Voltar
          </button>
          {editable && (
            <button type="submit" className={primaryButton} disabled={creating || updating}>
              Salvar
            </button>
          )}
        </div>
      </form>

      {!editing && (
        <p className="rounded bg-white p-4 text-sm text-slate-600 shadow-sm">Salve o documento para lançar os itens.</p>
      )}

      {editing &&
        record &&
        spec.lines.map((line) => (
          <DocumentLines
            key={line.resource}
            spec={spec}
            line={line}
            header={record}
            editable={editable && !(partsLocked && line.kind === 'product')}
          />
        ))}

      {editing && record && spec.totals.length > 0 && (
        <section aria-label="Totais" className="rounded bg-white p-4 shadow-sm">
          <h2 className="mb-2 text-base font-semibold text-primary">Totais</h2>
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
            {spec.totals.map((t, i) => (
              <div key={t.name} className={i === spec.totals.length - 1 ? 'font-semibold' : ''}>
                <dt className="text-xs text-slate-500">{t.label}</dt>
                <dd data-testid={`total-${t.name}`} className="text-sm">
                  {formatMoney(record[t.name] as string | number | null)}
                </dd>
              </div>
            ))}
          </dl>
        </section>
      )}

      {actions.length > 0 && (
        <div className="flex flex-wrap justify-end gap-2">
          {actions.map((a) => (
            <button
              key={a.id}
              type="button"
              className={a.id === 'faturar' || a.id === 'gerapedidofat' ? primaryButton : secondaryButton}
              disabled={a.disabled || acting}
              onClick={() => start(a)}
            >
              {a.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
