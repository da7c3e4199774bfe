import { useMemo, type ReactNode } from 'react';
import { MSG } from '../../lib/messages';
import { notify } from '../../lib/toast';
import type { FormValues, GroupDescriptor } from '../fields/types';
import { dangerButton, primaryButton, secondaryButton } from '../fields/styles';
import { FormView, fieldsOf } from '../form/FormView';
import { useFormState } from '../form/useFormState';
import { DialogFrame } from './DialogFrame';

export interface DialogAction {
  text: string;
  color?: 'primary' | 'secondary' | 'error';
  /** Runs only when every section of the form validates (default true). */
  validate?: boolean;
  onClick: (values: FormValues) => void | Promise<void>;
}

export interface FormDialogSettings {
  mode: 'form';
  title: string;
  text?: string;
  groups?: GroupDescriptor[];
  initialValues?: FormValues;
  component?: ReactNode;
  actions: DialogAction[];
  /** The closing button; default 'Não'. */
  noText?: string;
  width?: number;
}

export interface ImageDialogSettings {
  mode: 'image';
  title?: string;
  src: string;
  fileName?: string;
  actions?: { text: string; onClick: () => void }[];
}

export type GenericDialogSettings = FormDialogSettings | ImageDialogSettings;

const colors = { primary: primaryButton, secondary: secondaryButton, error: dangerButton };

function FormDialog({ settings, onClose }: { settings: FormDialogSettings; onClose: () => void }) {
  const groups = useMemo(() => settings.groups ?? [], [settings.groups]);
  const fields = useMemo(() => fieldsOf(groups), [groups]);
  const form = useFormState(fields, settings.initialValues ?? {});
  const run = async (a: DialogAction) => {
    if (a.validate !== false && !form.validateAll()) {
      notify.warning(MSG.requiredDialog);
      return;
    }
    await a.onClick(form.values);
  };
  return (
    <DialogFrame
      title={settings.title}
      onClose={onClose}
      width={settings.width}
      footer={
        <>
          <button type="button" className={secondaryButton} onClick={onClose}>
            {settings.noText ?? 'Não'}
          </button>
          {settings.actions.map((a) => (
            <button key={a.text} type="button" className={colors[a.color ?? 'primary']} onClick={() => void run(a)}>
              {a.text}
            </button>
          ))}
        </>
      }
    >
      {settings.text && <p className="mb-3 whitespace-pre-line text-sm text-slate-700">{settings.text}</p>}
      {groups.length > 0 && <FormView form={form} groups={groups} />}
      {settings.component}
    </DialogFrame>
  );
}

function ImageDialog({ settings, onClose }: { settings: ImageDialogSettings; onClose: () => void }) {
  const name = settings.fileName ?? settings.src.split('/').pop() ?? 'imagem';
  return (
    <DialogFrame
      title={settings.title ?? name}
      onClose={onClose}
      fullOnMobile
      footer={
        <>
          {(settings.actions ?? []).map((a) => (
            <button key={a.text} type="button" className={secondaryButton} onClick={a.onClick}>
              {a.text}
            </button>
          ))}
          <a className={secondaryButton} href={settings.src} download={name}>
            Baixar
          </a>
          <button type="button" className={primaryButton} onClick={onClose}>
            Fechar
          </button>
        </>
      }
    >
      <img src={settings.src} alt={name} className="mx-auto max-h-[70dvh] max-w-full object-contain" />
    </DialogFrame>
  );
}

export function GenericDialog({ settings, onClose }: { settings: GenericDialogSettings; onClose: () => void }) {
  return settings.mode === 'image' ? (
    <ImageDialog settings={settings} onClose={onClose} />
  ) : (
    <FormDialog settings={settings} onClose={onClose} />
  );
}
