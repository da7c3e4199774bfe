import { useQuery } from '@apollo/client';
import { Suspense, useEffect, useMemo, useRef, useState, type ComponentType } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { LoadingScreen } from '../../components/dialogs/LoadingScreen';
import { primaryButton, secondaryButton } from '../../components/fields/styles';
import { FormView, fieldsOf } from '../../components/form/FormView';
import { useFormState, type FormState } from '../../components/form/useFormState';
import type { Row } from '../../components/tables/types';
import { errorMessage } from '../../lib/apollo';
import { usePageMeta } from '../../lib/pageMeta';
import { useSession } from '../../lib/session';
import { notify } from '../../lib/toast';
import { ResourceGetDocument } from '../../lib/resources/documents';
import {
  decodeId,
  fieldOfMessage,
  metaGroups,
  recordId,
  referenceLinks,
  resourceHref,
  routeName,
  rowToValues,
  valuesToRow,
  withReferenceWhere,
  type ResourceMeta,
} from '../../lib/resources/metaFields';
import { permissionsFor } from '../../lib/resources/permissions';
import { useCreateRecord } from '../../lib/resources/useCreateRecord';
import { useCompanyId, useOptionLookup, useOptionSearch } from '../../lib/resources/useResourceData';
import { useUpdateRecord } from '../../lib/resources/useUpdateRecord';

/** What a register's edit screen shows above its fields about the record (a customer's credit). */
export type RecordPanel = ComponentType<{ meta: ResourceMeta; id: unknown }>;

/**
 * A tab of a saved record's edit screen beside its fields, with a screen of its own (a
 * company's fiscal services): it gets the record as read and saves through its own calls.
 */
export interface RecordTab {
  label: string;
  Screen: ComponentType<{ meta: ResourceMeta; metas: ResourceMeta[]; record: Row }>;
}

interface Props {
  meta: ResourceMeta;
  metas: ResourceMeta[];
  action: 'inserir' | 'alterar';
  /** Shown above the fields of a saved record. */
  panel?: RecordPanel;
  /** Tabs after the record's own fields ('Dados'), on a saved record. */
  tabs?: RecordTab[];
}

export default function RegisterFormPage({ meta, metas, action, panel: Panel, tabs = [] }: Props) {
  const [tab, setTab] = useState(0);
  const editing = action === 'alterar';
  usePageMeta(`${editing ? 'Editar' : 'Cadastrar'} ${meta.title}`, routeName(meta, action));
  const session = useSession();
  const perms = permissionsFor(session, meta);
  const emp = useCompanyId();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const search = useOptionSearch(metas);
  const lookup = useOptionLookup(metas);
  const links = useMemo(() => referenceLinks(meta, metas), [meta, metas]);
  const groups = useMemo(() => metaGroups(meta), [meta]);
  const fields = useMemo(() => fieldsOf(groups), [groups]);
  const href = resourceHref(meta);

  // The record comes in the navigation state and shows at once; the full row is then read
  // by its id (kept in the URL, so a reload of /alterar finds it again).
  const handed = (location.state as { record?: Row } | null)?.record ?? null;
  const id = editing ? (handed ? recordId(meta, handed) : decodeId(params.get('id'))) : undefined;
  const { data, loading, error } = useQuery(ResourceGetDocument, {
    skip: !editing || id === undefined,
    variables: { name: meta.name, emp, id: id ?? null },
    fetchPolicy: 'network-only',
  });
  const record: Row | null = (data?.resourceGet as Row | null | undefined) ?? handed;
  const form = useFormState(fields, rowToValues(meta, record));
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
  const editable = editing ? perms.canUpdate : perms.canCreate;

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

  // A field narrowed by another (model by brand) is emptied when that other one changes.
  const linkedForm: FormState = {
    ...form,
    setValue: (name, value) => {
      const changed = form.values[name] !== value;
      form.setValue(name, value);
      if (!changed) return;
      for (const l of links) {
        if (l.source !== name) continue;
        const dependent = fields.find((f) => f.name === l.field);
        form.setValue(l.field, dependent?.type === 'CHIPS' ? [] : '');
      }
    },
  };
  const shownGroups = withReferenceWhere(groups, links, form.values);

  const save = async () => {
    if (!form.validateAll()) return;
    const row = valuesToRow(meta, form.values);
    try {
      if (editing) await update(id, row);
      else await create(row);
      notify.success('Registro salvo com sucesso!');
      navigate(href);
    } catch (e) {
      const message = errorMessage(e);
      notify.error(message);
      // 'CPF inválido.', 'CPF é obrigatório!': the server names the field by its label.
      const field = fieldOfMessage(meta, message);
      if (field) form.showError(field, message);
    }
  };

  const fieldsForm = (
    <form
      noValidate
      className="space-y-4 rounded bg-white p-4 shadow-sm"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      {editing && Panel && <Panel meta={meta} id={id} />}
      <FormView
        form={linkedForm}
        groups={shownGroups}
        editable={editable}
        search={search}
        lookup={lookup}
        uploadsBase={`/uploads/${emp}`}
      />
      <div className="flex justify-end gap-2 border-t border-slate-200 pt-3">
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
  );
  if (!editing || !record || tabs.length === 0) return fieldsForm;
  const Extra = tab > 0 ? tabs[tab - 1]?.Screen : undefined;
  return (
    <div className="space-y-3">
      <div role="tablist" aria-label={meta.title} className="flex flex-wrap gap-1 border-b border-slate-300">
        {['Dados', ...tabs.map((t) => t.label)].map((label, i) => (
          <button
            key={label}
            type="button"
            role="tab"
            aria-selected={tab === i}
            className={`rounded-t px-4 py-2 text-sm font-medium ${
              tab === i ? 'bg-white text-primary shadow-sm' : 'text-slate-600 hover:bg-slate-100'
            }`}
            onClick={() => setTab(i)}
          >
            {label}
          </button>
        ))}
      </div>
      {Extra ? (
        <div role="tabpanel" aria-label={tabs[tab - 1].label}>
          <Suspense fallback={<LoadingScreen />}>
            <Extra meta={meta} metas={metas} record={record} />
          </Suspense>
        </div>
      ) : (
        fieldsForm
      )}
    </div>
  );
}
