import { useMemo, useState } from 'react';
import { useDialogs } from '../../components/dialogs/DialogHost';
import { primaryButton } from '../../components/fields/styles';
import { Icon } from '../../components/Icon';
import { CardList } from '../../components/tables/CardList';
import { DataGrid } from '../../components/tables/DataGrid';
import { valueOf, type AnyRow } from '../../lib/api';
import { errorMessage } from '../../lib/apollo';
import { notify } from '../../lib/toast';
import { useIsMobile } from '../../lib/useIsMobile';
import {
  encodeId,
  fieldOfMessage,
  listColumns,
  metaGroups,
  recordId,
  rowToValues,
  type DocumentRegister,
  type ResourceMeta,
} from '../../lib/resources/metaFields';
import { useCompanyId, useOptionLookup, useOptionSearch, useReferenceTexts } from '../../lib/resources/useResourceData';
import { ChildRowDialog } from './ChildRowDialog';
import type { DocumentChild } from './documentMeta';
import { useChildWrites } from './useChildWrites';
import { useChildMeta, useLines } from './useDocumentData';

interface Props {
  meta: DocumentRegister;
  metas: ResourceMeta[];
  child: DocumentChild;
  header: AnyRow;
  /** False once the document is no longer open (or the user may not change it). */
  editable: boolean;
}

/**
 * One child register of a saved document (its instalments, freight, apportionment): a table
 * of the rows naming the document, with the columns and the form of that register's metadata.
 */
export function DocumentChildRows({ meta, metas, child, header, editable }: Props) {
  const { childMeta, loading, error } = useChildMeta(child, metas);
  // The section stays while the register's metadata comes; the table then fills it.
  return (
    <section aria-label={child.title} className="space-y-2 rounded bg-white p-4 shadow-sm">
      {childMeta ? (
        <ChildTable meta={meta} metas={metas} child={child} childMeta={childMeta} header={header} editable={editable} />
      ) : (
        <>
          <h2 className="text-base font-semibold text-primary">{child.title}</h2>
          {loading ? (
            <p className="text-sm text-slate-500">Carregando...</p>
          ) : (
            <p role="alert" className="text-sm text-error">
              {error ? errorMessage(error) : 'Não foi possível carregar os campos deste registro.'}
            </p>
          )}
        </>
      )}
    </section>
  );
}

/** Which row the dialog shows: a new one (row null) or a listed one. */
type Editing = { row: AnyRow | null } | null;

function ChildTable({ meta, metas, child, childMeta, header, editable }: Props & { childMeta: ResourceMeta }) {
  const dialogs = useDialogs();
  const mobile = useIsMobile();
  const emp = useCompanyId();
  const search = useOptionSearch(metas);
  const lookup = useOptionLookup(metas);
  const { rows, loading, error } = useLines(meta, child, header);
  const texts = useReferenceTexts(childMeta, metas, rows);
  const { add, edit, drop, busy } = useChildWrites(meta, child, childMeta);
  const [editing, setEditing] = useState<Editing>(null);

  const parent = useMemo(() => new Set(child.parent), [child.parent]);
  // The parent columns name the shown document on every row: neither listed nor asked.
  const columns = useMemo(
    () => listColumns(childMeta, texts).filter((c) => !parent.has(c.key)),
    [childMeta, texts, parent],
  );
  const groups = useMemo(
    () =>
      metaGroups(childMeta)
        .map((g) => ({ ...g, fields: g.fields.filter((f) => !parent.has(f.name)) }))
        .filter((g) => g.fields.length > 0),
    [childMeta, parent],
  );
  // A new row asks only what the user fills; what the server assigns shows once it exists.
  const newGroups = useMemo(
    () =>
      groups
        .map((g) => ({ ...g, fields: g.fields.filter((f) => f.editable !== false) }))
        .filter((g) => g.fields.length > 0),
    [groups],
  );

  const rowKey = (r: AnyRow, i: number) => `${encodeId(recordId(childMeta, r))}-${i}`;
  // A row is named by its label field, else by its last key column ('Sequência 2').
  const seq = childMeta.key[childMeta.key.length - 1];
  const seqLabel = childMeta.fields.find((f) => f.name === seq)?.label ?? 'Registro';
  const rowLabel = (r: AnyRow) => {
    const label = valueOf(r, childMeta.labelField);
    return label == null || label === '' ? `${seqLabel} ${String(valueOf(r, seq) ?? '')}`.trim() : String(label);
  };

  const askDelete = (row: AnyRow) =>
    dialogs.confirm({
      title: 'Excluir registro',
      text: `Deseja excluir "${rowLabel(row)}" de ${child.title}?`,
      okText: 'Excluir',
      onOk: async () => {
        try {
          await drop(row);
          notify.success('Registro excluído com sucesso!');
        } catch (e) {
          notify.error(errorMessage(e));
        }
      },
    });

  const actions = (row: AnyRow) => (
    <>
      <button
        type="button"
        title={editable ? 'Editar' : 'Visualizar'}
        aria-label={`${editable ? 'Editar' : 'Visualizar'} ${rowLabel(row)}`}
        className="rounded p-1 text-accent hover:bg-slate-100"
        onClick={() => setEditing({ row })}
      >
        <Icon name={editable ? 'edit' : 'view'} className="h-4 w-4" />
      </button>
      {editable && (
        <button
          type="button"
          title="Excluir"
          aria-label={`Excluir ${rowLabel(row)}`}
          className="rounded p-1 text-error hover:bg-slate-100"
          disabled={busy}
          onClick={() => askDelete(row)}
        >
          <Icon name="trash" className="h-4 w-4" />
        </button>
      )}
    </>
  );

  const shown = editing?.row ?? null;

  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-base font-semibold text-primary">{child.title}</h2>
        {editable && (
          <button type="button" className={primaryButton} disabled={busy} onClick={() => setEditing({ row: null })}>
            <Icon name="plus" className="h-4 w-4" />
            Adicionar
          </button>
        )}
      </div>
      {error && rows.length === 0 ? (
        <p role="alert" className="text-sm text-error">
          {errorMessage(error)}
        </p>
      ) : loading ? (
        <p className="text-sm text-slate-500">Carregando...</p>
      ) : mobile ? (
        <CardList columns={columns} rows={rows} titleKey={childMeta.labelField} actions={actions} rowKey={rowKey} />
      ) : (
        <DataGrid
          columns={columns}
          rows={rows}
          storageKey={`${meta.name}.${child.resource}`}
          actions={actions}
          rowKey={rowKey}
        />
      )}
      {editing && (
        <ChildRowDialog
          title={`${child.title} - ${shown ? (editable ? 'Editar' : 'Visualizar') : 'Incluir'}`}
          groups={shown ? groups : newGroups}
          initial={rowToValues(childMeta, shown)}
          editable={editable}
          search={search}
          lookup={lookup}
          uploadsBase={`/uploads/${emp}`}
          fieldOf={(message) => fieldOfMessage(childMeta, message)}
          onSave={(values) => (shown ? edit(header, shown, values) : add(header, values))}
          onClose={() => setEditing(null)}
        />
      )}
    </>
  );
}
