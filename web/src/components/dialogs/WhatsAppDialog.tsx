import { useState } from 'react';
import { errorMessage } from '../../lib/apollo';
import { maskPhone, onlyDigits, PHONE_MASK, applyMask } from '../../lib/masks';
import { MSG, required } from '../../lib/messages';
import { apiDateTime, sendWhatsapp, WHATSAPP_PREFIX, type DocumentRef, type Queued } from '../../lib/messaging';
import { notify } from '../../lib/toast';
import { validatePhone } from '../../lib/validators';
import { MultiEntryInput } from '../fields/MultiEntryInput';
import { inputClass, primaryButton, secondaryButton } from '../fields/styles';
import { DialogFrame } from './DialogFrame';
import { DocumentAttachment, QueuedNotice } from './MessageParts';

export function whatsappLink(number: string, message = ''): string | null {
  const digits = onlyDigits(number);
  if (digits.length !== 11) return null;
  const text = message ? `?text=${encodeURIComponent(message)}` : '';
  return `https://wa.me/${WHATSAPP_PREFIX}${digits}${text}`;
}

/** Opens WhatsApp Web for each number (spec §7.1); a missing or bad number is reported (spec §5). */
export function openWhatsApp(numbers: string[], message: string) {
  const links = numbers.map((n) => whatsappLink(n, message));
  if (links.length === 0 || links.some((l) => l === null)) {
    notify.warning(MSG.whatsappNoNumber);
    return;
  }
  links.forEach((l) => window.open(l as string, '_blank', 'noopener'));
}

export interface WhatsAppSettings {
  numbers?: string[];
  message?: string;
  /** A document the server produces and attaches (a slip, a receipt, an NF-e): no upload. */
  document?: DocumentRef;
}

/** The schedule box's mask: dd/MM/yyyy HH:mm. */
const SCHEDULE_MASK = '##/##/#### ##:##';

/**
 * The shell's WhatsApp dialog: each number gets its own message through the server's queue
 * (POST /whatsapp/send, one request per number), now or at the time asked for, with its text and
 * one file, or the document of the screen that opened it. A number the server refuses stays in
 * the list with its reason; the others are done. A message the server queued without a
 * provider to send it stays in the queue, and the dialog says so.
 */
export function WhatsAppDialog({ settings, onClose }: { settings: WhatsAppSettings; onClose: () => void }) {
  const { document } = settings;
  const [numbers, setNumbers] = useState<string[]>(settings.numbers ?? []);
  const [message, setMessage] = useState(settings.message ?? '');
  const [file, setFile] = useState<File | null>(null);
  const [schedule, setSchedule] = useState('');
  const [sending, setSending] = useState(false);
  const [waiting, setWaiting] = useState<Queued | null>(null);

  const send = async () => {
    if (numbers.length === 0) return notify.warning(MSG.noRecipient);
    if (!file && !document && message.trim() === '') return notify.warning(required('Mensagem'));
    const at = schedule.trim() ? apiDateTime(schedule) : null;
    if (schedule.trim() && !at) return notify.warning(MSG.dateInvalid);
    setSending(true);
    const failed: string[] = [];
    let queued: Queued | null = null;
    for (const number of numbers) {
      try {
        queued = await sendWhatsapp({ number, text: message, file, document, at });
      } catch (e) {
        failed.push(number);
        const reason = errorMessage(e);
        notify.error(numbers.length > 1 ? `${maskPhone(number)}: ${reason}` : reason);
      }
    }
    setSending(false);
    setNumbers(failed);
    if (!queued) return;
    if (queued.notice) setWaiting(queued);
    else notify.success(queued.msg);
    if (failed.length === 0 && !queued.notice) onClose();
  };

  const done = waiting !== null && numbers.length === 0;
  const label = 'text-xs font-medium text-slate-600';
  return (
    <DialogFrame
      title="WhatsApp"
      onClose={onClose}
      footer={
        done ? (
          <button type="button" className={primaryButton} onClick={onClose}>
            Fechar
          </button>
        ) : (
          <>
            <button type="button" className={secondaryButton} onClick={onClose}>
              Cancelar
            </button>
            {!file && !document && (
              <button type="button" className={secondaryButton} onClick={() => openWhatsApp(numbers, message)}>
                Abrir no WhatsApp Web
              </button>
            )}
            <button type="button" className={primaryButton} disabled={sending} onClick={() => void send()}>
              {sending ? 'Enviando...' : 'Enviar'}
            </button>
          </>
        )
      }
    >
      <div className="space-y-3">
        {waiting && <QueuedNotice queued={waiting} />}
        {!done && (
          <>
            <div>
              <label htmlFor="whatsapp-number" className={label}>
                Número (Enter ou ; para adicionar)
              </label>
              <MultiEntryInput
                id="whatsapp-number"
                label="Destinatários"
                values={numbers}
                onChange={setNumbers}
                validate={validatePhone}
                normalize={onlyDigits}
                display={(v) => applyMask(v, PHONE_MASK)}
                mask={PHONE_MASK}
                placeholder="(##) #####-####"
              />
            </div>
            <div>
              <label htmlFor="whatsapp-message" className={label}>
                Mensagem
              </label>
              <textarea
                id="whatsapp-message"
                className={inputClass}
                rows={4}
                value={message}
                onChange={(e) => setMessage(e.target.value)}
              />
            </div>
            {document ? (
              <DocumentAttachment document={document} />
            ) : (
              <div>
                {file ? (
                  <p className="flex items-center gap-2 text-sm" aria-label="Anexo">
                    {file.name}
                    <button
                      type="button"
                      aria-label={`Remover ${file.name}`}
                      className="text-error"
                      onClick={() => setFile(null)}
                    >
                      ×
                    </button>
                  </p>
                ) : (
                  <>
                    <label htmlFor="whatsapp-file" className={label}>
                      Anexo (opcional: uma imagem ou um documento)
                    </label>
                    <input
                      id="whatsapp-file"
                      type="file"
                      className="block text-sm"
                      onChange={(e) => {
                        setFile(e.target.files?.[0] ?? null);
                        e.target.value = '';
                      }}
                    />
                  </>
                )}
              </div>
            )}
            <div>
              <label htmlFor="whatsapp-schedule" className={label}>
                Agendar para (opcional)
              </label>
              <input
                id="whatsapp-schedule"
                className={inputClass}
                inputMode="numeric"
                placeholder="dd/mm/aaaa hh:mm"
                value={schedule}
                onChange={(e) => setSchedule(applyMask(e.target.value, SCHEDULE_MASK))}
              />
            </div>
          </>
        )}
      </div>
    </DialogFrame>
  );
}
