import { useState } from 'react';
import { errorMessage } from '../../lib/apollo';
import { sanitizeFileName } from '../../lib/masks';
import { MSG } from '../../lib/messages';
import { sendEmail, type DocumentRef, type Queued } from '../../lib/messaging';
import { notify } from '../../lib/toast';
import { validateEmail } from '../../lib/validators';
import { MultiEntryInput } from '../fields/MultiEntryInput';
import { inputClass, primaryButton, secondaryButton } from '../fields/styles';
import { DialogFrame } from './DialogFrame';
import { DocumentAttachment, QueuedNotice } from './MessageParts';

export interface EmailSettings {
  to?: string[];
  hidden?: string[];
  subject?: string;
  body?: string;
  attachments?: File[];
  /** A document the server produces and attaches (a slip, a receipt, an NF-e's DANFE and XML). */
  document?: DocumentRef;
}

/** Attachment names keep only letters, digits, underscore and hyphen. */
export const sanitizeAttachment = (file: File) => new File([file], sanitizeFileName(file.name), { type: file.type });

const validateRecipient = (s: string) => (s.trim() === '' ? MSG.emailInvalid : validateEmail(s));

/**
 * The shell's e-mail dialog: recipients, hidden recipients, subject, files and body, sent to the
 * server's queue (POST /email/send), with the document of the screen that opened it. A refusal
 * keeps the dialog open with what was typed; an e-mail queued without an SMTP server to send it
 * stays in the queue, and the dialog says so.
 */
export function EmailDialog({ settings, onClose }: { settings: EmailSettings; onClose: () => void }) {
  const [to, setTo] = useState<string[]>(settings.to ?? []);
  const [hidden, setHidden] = useState<string[]>(settings.hidden ?? []);
  const [subject, setSubject] = useState(settings.subject ?? '');
  const [body, setBody] = useState(settings.body ?? '');
  const [files, setFiles] = useState<File[]>((settings.attachments ?? []).map(sanitizeAttachment));
  const [sending, setSending] = useState(false);
  const [waiting, setWaiting] = useState<Queued | null>(null);
  const { document } = settings;

  const send = async () => {
    if (to.length === 0) return notify.warning(MSG.noRecipient);
    if (subject.trim() === '') return notify.warning(MSG.noSubject);
    setSending(true);
    try {
      const queued = await sendEmail({ to, hidden, subject, body, files: document ? [] : files, document });
      if (queued.notice) {
        setWaiting(queued);
      } else {
        notify.success(queued.msg);
        onClose();
      }
    } catch (e) {
      notify.error(errorMessage(e));
    } finally {
      setSending(false);
    }
  };

  const label = 'text-xs font-medium text-slate-600';
  return (
    <DialogFrame
      title="Enviar e-mail"
      onClose={onClose}
      footer={
        waiting ? (
          <button type="button" className={primaryButton} onClick={onClose}>
            Fechar
          </button>
        ) : (
          <>
            <button type="button" className={secondaryButton} onClick={onClose}>
              Cancelar
            </button>
            <button type="button" className={primaryButton} disabled={sending} onClick={() => void send()}>
              {sending ? 'Enviando...' : 'Enviar'}
            </button>
          </>
        )
      }
    >
      {waiting ? (
        <QueuedNotice queued={waiting} />
      ) : (
        <div className="space-y-3">
          <div>
            <label htmlFor="email-to" className={label}>
              Destinatários (Enter ou ; para adicionar)
            </label>
            <MultiEntryInput
              id="email-to"
              label="Destinatários"
              values={to}
              onChange={setTo}
              validate={validateRecipient}
            />
          </div>
          <div>
            <label htmlFor="email-hidden" className={label}>
              Destinatários ocultos
            </label>
            <MultiEntryInput
              id="email-hidden"
              label="Destinatários ocultos"
              values={hidden}
              onChange={setHidden}
              validate={validateRecipient}
            />
          </div>
          <div>
            <label htmlFor="email-subject" className={label}>
              Assunto
            </label>
            <input
              id="email-subject"
              className={inputClass}
              value={subject}
              onChange={(e) => setSubject(e.target.value)}
            />
          </div>
          {/* The server produces the document only for an e-mail that carries no file of its own. */}
          {document ? (
            <DocumentAttachment document={document} />
          ) : (
            <div>
              <label htmlFor="email-files" className={label}>
                Anexos
              </label>
              <input
                id="email-files"
                type="file"
                multiple
                className="block text-sm"
                onChange={(e) => {
                  const picked = Array.from(e.target.files ?? []).map(sanitizeAttachment);
                  setFiles((f) => [...f, ...picked]);
                  e.target.value = '';
                }}
              />
              {files.length > 0 && (
                <ul className="mt-1 space-y-0.5 text-xs" aria-label="Anexos">
                  {files.map((f, i) => (
                    <li key={`${f.name}-${i}`} className="flex items-center gap-2">
                      {f.name}
                      <button
                        type="button"
                        aria-label={`Remover ${f.name}`}
                        className="text-error"
                        onClick={() => setFiles(files.filter((_, j) => j !== i))}
                      >
                        ×
                      </button>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          )}
          <div>
            <label htmlFor="email-body" className={label}>
              Mensagem
            </label>
            <textarea
              id="email-body"
              className={inputClass}
              rows={6}
              value={body}
              onChange={(e) => setBody(e.target.value)}
            />
          </div>
        </div>
      )}
    </DialogFrame>
  );
}
