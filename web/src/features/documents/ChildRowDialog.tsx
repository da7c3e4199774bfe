import { useMemo, useState } from 'react';
import { DialogFrame } from '../../components/dialogs/DialogFrame';
import { primaryButton, secondaryButton } from '../../components/fields/styles';
import type { FormValues, GroupDescriptor, OptionLookup, OptionSearch } from '../../components/fields/types';
import { FormView, fieldsOf } from '../../components/form/FormView';
import { useFormState } from '../../components/form/useFormState';
import { errorMessage } from '../../lib/apollo';
import { notify } from '../../lib/toast';

interface Props {
  title: string;
  groups: GroupDescriptor[];
  initial: FormValues;
  /** False: the row is only shown (a document no longer open). */
  editable: boolean;
  search: OptionSearch;
  lookup: OptionLookup;
  uploadsBase: string;
  /** The field a server message names, to show it under that field. */
  fieldOf: (message: string) => string | null;
  /** Writes the row; a refusal (rejected promise) keeps the dialog open with its message. */
  onSave: (values: FormValues) => Promise<unknown>;
  onClose: () => void;
}

/** The form of one row of a document's child register, built from that register's metadata. */
export function ChildRowDialog({
  title,
  groups,
  initial,
  editable,
  search,
  lookup,
  uploadsBase,
  fieldOf,
  onSave,
  onClose,
}: Props) {
  const fields = useMemo(() => fieldsOf(groups), [groups]);
  const form = useFormState(fields, initial);
  const [saving, setSaving] = useState(false);
  // A refusal no field of the form is named in shows above the buttons.
  const [refusal, setRefusal] = useState<string | null>(null);

  const save = async () => {
    if (!form.validateAll()) return;
    setSaving(true);
    setRefusal(null);
    try {
      await onSave(form.values);
      notify.success('Registro salvo com sucesso!');
      onClose();
    } catch (e) {
      const message = errorMessage(e);
      notify.error(message);
      const field = fieldOf(message);
      if (field) form.showError(field, message);
      else setRefusal(message);
      setSaving(false);
    }
  };

  return (
    <DialogFrame
      title={title}
      onClose={onClose}
      width={720}
      footer={
        editable ? (
          <>
            <button type="button" className={secondaryButton} onClick={onClose}>
              Cancelar
            </button>
            <button type="submit" form={`${form.idPrefix}-form`} className={primaryButton} disabled={saving}>
              Salvar
            </button>
          </>
        ) : (
          <button type="button" className={primaryButton} onClick={onClose}>
            Fechar
          </button>
        )
      }
    >
      <form
        id={`${form.idPrefix}-form`}
        noValidate
        className="space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          if (editable) void save();
        }}
      >
        <FormView
          form={form}
          groups={groups}
          editable={editable}
          search={search}
          lookup={lookup}
          uploadsBase={uploadsBase}
        />
        {refusal && (
          <p role="alert" className="rounded bg-red-50 p-2 text-sm text-error">
            {refusal}
          </p>
        )}
      </form>
    </DialogFrame>
  );
}
