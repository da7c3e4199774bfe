import { useMemo } from 'react';
import { MSG } from '../../lib/messages';
import { notify } from '../../lib/toast';
import type { FormValues, GroupDescriptor } from '../fields/types';
import { primaryButton, secondaryButton } from '../fields/styles';
import { FormView, fieldsOf } from '../form/FormView';
import { useFormState } from '../form/useFormState';
import { DialogFrame } from './DialogFrame';

export interface ConfirmSettings {
  title: string;
  text?: string;
  groups?: GroupDescriptor[];
  okText?: string;
  cancelText?: string;
  onOk: (values: FormValues) => void | Promise<void>;
  onCancel?: () => void;
}

/** OK runs its action only when the embedded form validates, then closes; Cancel runs its own, then closes. */
export function ConfirmDialog({ settings, onClose }: { settings: ConfirmSettings; onClose: () => void }) {
  const groups = useMemo(() => settings.groups ?? [], [settings.groups]);
  const fields = useMemo(() => fieldsOf(groups), [groups]);
  const form = useFormState(fields, {});
  const ok = async () => {
    if (!form.validateAll()) {
      notify.warning(MSG.requiredConfirm);
      return;
    }
    try {
      await settings.onOk(form.values);
    } finally {
      onClose();
    }
  };
  const cancel = () => {
    settings.onCancel?.();
    onClose();
  };
  return (
    <DialogFrame
      title={settings.title}
      onClose={cancel}
      footer={
        <>
          <button type="button" className={secondaryButton} onClick={cancel}>
            {settings.cancelText ?? 'Cancelar'}
          </button>
          <button type="button" className={primaryButton} onClick={() => void ok()}>
            {settings.okText ?? 'OK'}
          </button>
        </>
      }
    >
      {settings.text && <p className="mb-3 whitespace-pre-line text-sm text-slate-700">{settings.text}</p>}
      {groups.length > 0 && <FormView form={form} groups={groups} />}
    </DialogFrame>
  );
}
