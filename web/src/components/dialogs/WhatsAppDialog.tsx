import { useState } from 'react';
import { MSG } from '../../lib/messages';
import { PHONE_MASK, applyMask, onlyDigits } from '../../lib/masks';
import { notify } from '../../lib/toast';
import { validatePhone } from '../../lib/validators';
import { MultiEntryInput } from '../fields/MultiEntryInput';
import { inputClass, primaryButton, secondaryButton } from '../fields/styles';
import { DialogFrame } from './DialogFrame';

/** Default WhatsApp country prefix (spec §9). */
export const WHATSAPP_PREFIX = '55';

export function whatsappLink(number: string, message = ''): string | null {
  const digits = onlyDigits(number);
  if (digits.length !== 11) return null;
  const text = message ? `?text=${encodeURIComponent(message)}` : '';
  return `https://wa.me/${WHATSAPP_PREFIX}${digits}${text}`;
}

/** Opens WhatsApp Web for each number; a missing or bad number is reported (spec §5). */
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
  /** What sending does; by default WhatsApp Web opens for each number. */
  onSend?: (numbers: string[], message: string) => void | Promise<void>;
}

export function WhatsAppDialog({ settings, onClose }: { settings: WhatsAppSettings; onClose: () => void }) {
  const [numbers, setNumbers] = useState<string[]>(settings.numbers ?? []);
  const [message, setMessage] = useState(settings.message ?? '');
  const send = async () => {
    if (numbers.length === 0) {
      notify.warning(MSG.noRecipient);
      return;
    }
    await (settings.onSend ?? openWhatsApp)(numbers, message);
    onClose();
  };
  return (
    <DialogFrame
      title="WhatsApp"
      onClose={onClose}
      footer={
        <>
          <button type="button" className={secondaryButton} onClick={onClose}>
            Cancelar
          </button>
          <button type="button" className={primaryButton} onClick={() => void send()}>
            Enviar
          </button>
        </>
      }
    >
      <div className="space-y-3">
        <div>
          <label htmlFor="whatsapp-number" className="text-xs font-medium text-slate-600">
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
          <label htmlFor="whatsapp-message" className="text-xs font-medium text-slate-600">
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
      </div>
    </DialogFrame>
  );
}
