import { Suspense, useEffect, useMemo, useRef, useState, type ComponentType } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useDialogs } from '../../components/dialogs/DialogHost';
import { LoadingScreen } from '../../components/dialogs/LoadingScreen';
import type { FormValues } from '../../components/fields/types';
import { primaryButton, secondaryButton } from '../../components/fields/styles';
import { FormView, fieldsOf } from '../../components/form/FormView';
import { useFormState } from '../../components/form/useFormState';
import { rowOf, useCreateRow, useRow, useUpdateRow, valueOf, type AnyRow, type ColumnValues } from '../../lib/api';
import { errorMessage } from '../../lib/apollo';
import { formatMoney } from '../../lib/format';
import { usePageMeta } from '../../lib/pageMeta';
import { useSession } from '../../lib/session';
import { isNotice, saveFile } from '../../lib/restForms';
import { notify } from '../../lib/toast';
import {
  decodeId,
  editHref,
  fieldOfMessage,
  metaGroups,
  resourceHref,
  routeName,
  rowToValues,
  valuesToRow,
  type DocumentRegister,
  type ResourceMeta,
} from '../../lib/resources/metaFields';
import { permissionsFor } from '../../lib/resources/permissions';
import { useCompanyId, useOptionLookup, useOptionSearch } from '../../lib/resources/useResourceData';
import { ACTION_DIALOGS, actionEnabled, fillText, overridableRefusal, type ActionMeta } from './actions';
import { DocumentChildRows } from './DocumentChildRows';
import { DocumentHeading } from './DocumentHeading';
import { DocumentLines } from './DocumentLines';
import { headerId, hiddenFields, isReadOnly, lineLock, num, statusOf, statusText } from './documentMeta';
import { useDocumentAction } from './useDocumentAction';

/**
 * A call a saved document's screen offers beside its buttons that the metadata cannot declare
 * (ResourceRoute gives it by register: the purchase's cost and price update).
 */
export type DocumentTool = ComponentType<{ meta: DocumentRegister; metas: ResourceMeta[]; record: AnyRow }>;

interface Props {
  meta: DocumentRegister;
  metas: ResourceMeta[];
  action: 'inserir' | 'alterar';
  tool?: DocumentTool;
  /**
   * A section of a saved document's screen the metadata cannot declare, under its totals and
   * before its buttons (ResourceRoute gives it by register: a billing order's NF-e).
   */
  panel?: DocumentTool;
}

export const todayScreen = () => {
  const n = new Date();
  return `${String(n.getDate()).padStart(2, '0')}/${String(n.getMonth() + 1).padStart(2, '0')}/${n.getFullYear()}`;
};

/**
 * A document's screen, built from its register metadata (ResourceMeta.document and .actions):
 * the header form, the tables of its line registers and of the other registers whose rows
 * belong to it (children: instalments, freight...), the totals the server computes and the
 * buttons of its calls.
 */
export default function DocumentFormPage({ meta, metas, action, tool: Tool, panel: Panel }: Props) {
  const editing = action === 'alterar';
  const doc = meta.document;
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
  const hidden = useMemo(() => hiddenFields(meta), [meta]);
  const groups = useMemo(
    () =>
      metaGroups(meta)
        .map((g) => ({ ...g, fields: g.fields.filter((f) => !hidden.has(f.name)) }))
        .filter((g) => g.fields.length > 0),
    [meta, hidden],
  );
  const fields = useMemo(() => fieldsOf(groups), [groups]);
  const href = resourceHref(meta);

  // The row the previous screen handed over (the list's, a call's answer), until the server's is read.
  const handed = rowOf(meta.name, (location.state as { record?: unknown } | null)?.record);
  const id = editing ? (decodeId(params.get('id')) ?? (handed ? headerId(meta, handed) : undefined)) : undefined;
  const { row, loading, error } = useRow(meta.name, id, {
    skip: !editing,
    fetchPolicy: 'network-only',
    notifyOnNetworkStatusChange: true,
  });
  const record: AnyRow | null = row ?? handed;
  // The first record only (a new document starts today); later ones go through reset below.
  const [initial] = useState<FormValues>(() => {
    const v = rowToValues(meta, record);
    if (!record && doc.dateField && !v[doc.dateField]) v[doc.dateField] = todayScreen();
    return v;
  });
  const form = useFormState(fields, initial);
  const loadedFrom = useRef<AnyRow | null>(record);
  const { reset, dirty } = form;
  useEffect(() => {
    if (record && loadedFrom.current !== record && !dirty) {
      loadedFrom.current = record;
      reset(rowToValues(meta, record));
    }
  }, [record, reset, dirty, meta]);

  const { create, loading: creating } = useCreateRow(meta.name);
  const { update, loading: updating } = useUpdateRow(meta.name, meta.key);
  const { call, download, loading: calling } = useDocumentAction(meta, metas);
  const [fetching, setFetching] = useState(false);
  const acting = calling || fetching;

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

  const readOnly = isReadOnly(meta, record);
  const editable = (editing ? perms.canUpdate : perms.canCreate) && !readOnly;
  const status = statusOf(meta, record);

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
        navigate(editHref(meta, headerId(meta, saved)), { replace: true, state: { record: saved } });
      }
    } catch (e) {
      const message = errorMessage(e);
      notify.error(message);
      const field = fieldOfMessage(meta, message);
      if (field) form.showError(field, message);
    }
  };

  // A refusal the button may override (REFUSAL_OVERRIDES) becomes a question: once the user
  // confirms, the call is made again with the override added to its body. Any other is a toast.
  const run = async (button: ActionMeta, shown: AnyRow, asked?: ColumnValues) => {
    if (button.download) {
      await fetchFile(button, shown, asked);
      return;
    }
    try {
      const { answer, msg, next } = await call(button, shown, asked);
      notify.success(typeof msg === 'string' && msg ? msg : 'Operação realizada com sucesso!');
      if (next) navigate(next, { state: { record: answer } });
    } catch (e) {
      const refusal = overridableRefusal(meta.name, button, e, asked);
      if (!refusal) {
        notify.error(errorMessage(e));
        return;
      }
      const { override, message } = refusal;
      dialogs.confirm({
        title: override.title,
        text: `${message}\n\n${override.question}`,
        okText: override.okText,
        cancelText: 'Cancelar',
        onOk: () => run(button, shown, { ...asked, ...override.body }),
      });
    }
  };

  // A download button's file goes to the browser; a JSON refusal with success is a warning.
  const fetchFile = async (button: ActionMeta, shown: AnyRow, asked?: ColumnValues) => {
    setFetching(true);
    try {
      saveFile(await download(button, shown, asked));
    } catch (e) {
      if (isNotice(e)) notify.warning(e.message);
      else notify.error(errorMessage(e));
    } finally {
      setFetching(false);
    }
  };

  // A button asks its dialog, or its confirmation, before the call; else it calls at once.
  const start = (button: ActionMeta, shown: AnyRow) => {
    const dialog = button.dialog ? ACTION_DIALOGS[button.dialog] : undefined;
    if (dialog) {
      dialogs.confirm({
        title: button.dialogTitle ?? button.label,
        groups: dialog.groups,
        okText: dialog.okText,
        onOk: (values) => run(button, shown, dialog.body(values)),
      });
    } else if (button.confirm) {
      dialogs.confirm({
        title: button.confirm.title,
        text: fillText(button.confirm.text, shown),
        okText: button.confirm.ok,
        onOk: () => run(button, shown),
      });
    } else {
      void run(button, shown);
    }
  };

  const buttons = editing && record ? meta.actions : [];
  const locks = record ? doc.lines.map((line) => lineLock(line, record)) : [];

  return (
    <div className="space-y-4">
      {editing && record && (
        <DocumentHeading meta={meta} record={record} locks={locks.filter((f): f is string => !!f)} />
      )}
      {readOnly && (
        <p role="note" className="rounded bg-amber-50 p-2 text-sm text-amber-900">
          Situação {statusText(meta, status)}: somente consulta.
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
        doc.lines.map((line, i) => (
          <DocumentLines key={line.resource} meta={meta} line={line} header={record} editable={editable && !locks[i]} />
        ))}

      {editing &&
        record &&
        doc.children.map((child) => (
          <DocumentChildRows
            key={child.resource}
            meta={meta}
            metas={metas}
            child={child}
            header={record}
            editable={editable}
          />
        ))}

      {editing && record && doc.totals.length > 0 && (
        <section aria-label="Totais" className="rounded bg-white p-4 shadow-sm">
          <h2 className="mb-2 text-base font-semibold text-primary">Totais</h2>
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
            {doc.totals.map((t, i) => (
              <div key={t.name} className={i === doc.totals.length - 1 ? 'font-semibold' : ''}>
                <dt className="text-xs text-slate-500">{t.label}</dt>
                <dd data-testid={`total-${t.name}`} className="text-sm">
                  {formatMoney(num(valueOf(record, t.name)))}
                </dd>
              </div>
            ))}
          </dl>
        </section>
      )}

      {editing && record && Panel && (
        // A panel may be a lazy chunk: the screen stays while it loads.
        <Suspense fallback={null}>
          <Panel meta={meta} metas={metas} record={record} />
        </Suspense>
      )}

      {editing && record && (buttons.length > 0 || Tool) && (
        <div className="flex flex-wrap justify-end gap-2">
          {Tool && (
            // A tool may be a lazy chunk: the screen stays while it loads.
            <Suspense fallback={null}>
              <Tool meta={meta} metas={metas} record={record} />
            </Suspense>
          )}
          {buttons.map((b, i) => (
            <button
              // One call may be offered by several buttons (the NF-e manifest's four events).
              key={`${b.name}-${i}`}
              type="button"
              className={b.primary ? primaryButton : secondaryButton}
              disabled={acting || !actionEnabled(b, meta, record, perms)}
              onClick={() => start(b, record)}
            >
              {b.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
