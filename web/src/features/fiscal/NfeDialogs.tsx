import { useId, useState } from 'react';
import { DialogFrame } from '../../components/dialogs/DialogFrame';
import { primaryButton, secondaryButton } from '../../components/fields/styles';
import { PdfPreview, type ShownFile } from '../../components/PdfPreview';
import { errorMessage } from '../../lib/apollo';
import { textRefusal, type TextRule } from './nfe';

interface TextDialogProps {
  title: string;
  label: string;
  /** What the text is for, above the field. */
  hint: string;
  okText: string;
  rule: TextRule;
  /** Sends the text; a refusal stays in the dialog (and is the caller's toast). */
  onSend: (text: string) => Promise<void>;
  onClose: () => void;
}

/**
 * The text an NF-e event needs (the cancel's justification, the correction letter), checked
 * against the server's limits before it is sent, with the server's own message.
 */
export function NfeTextDialog({ title, label, hint, okText, rule, onSend, onClose }: TextDialogProps) {
  const id = useId();
  const [text, setText] = useState('');
  const [refused, setRefused] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const count = [...text.trim()].length;

  const send = async () => {
    const invalid = textRefusal(rule, text);
    if (invalid) {
      setRefused(invalid);
      return;
    }
    setBusy(true);
    setRefused(null);
    try {
      await onSend(text);
    } catch (e) {
      setRefused(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <DialogFrame
      title={title}
      onClose={onClose}
      footer={
        <>
          <button type="button" className={secondaryButton} onClick={onClose}>
            Fechar
          </button>
          <button type="button" className={primaryButton} disabled={busy} onClick={() => void send()}>
            {busy ? 'Enviando...' : okText}
          </button>
        </>
      }
    >
      <form noValidate aria-label={title} className="space-y-2" onSubmit={(e) => e.preventDefault()}>
        <p className="text-sm text-slate-600">{hint}</p>
        <label htmlFor={id} className="block text-sm font-medium text-slate-700">
          {label}
        </label>
        <textarea
          id={id}
          rows={5}
          maxLength={rule.max}
          value={text}
          aria-invalid={refused != null}
          aria-describedby={`${id}-count`}
          className="w-full rounded border border-slate-300 p-2 text-sm focus:border-primary focus:outline-none"
          onChange={(e) => {
            setText(e.target.value);
            if (refused) setRefused(null);
          }}
        />
        <p id={`${id}-count`} className="text-right text-xs text-slate-500">
          {count} de {rule.max} caracteres (mínimo {rule.min})
        </p>
        {refused && (
          <p role="alert" className="text-sm text-error">
            {refused}
          </p>
        )}
      </form>
    </DialogFrame>
  );
}

/** The DANFE shown in the page, with its download and a link that opens it in a new tab. */
export function DanfeDialog({ file, onClose }: { file: ShownFile; onClose: () => void }) {
  return (
    <DialogFrame title="DANFE" width={900} onClose={onClose}>
      <div className="space-y-2">
        <PdfPreview file={file} title="DANFE" />
        <p className="text-right text-sm">
          <a className="text-primary underline" href={file.url} target="_blank" rel="noopener noreferrer">
            Abrir em nova aba
          </a>
        </p>
      </div>
    </DialogFrame>
  );
}
