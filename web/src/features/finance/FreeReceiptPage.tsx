import { useState } from 'react';
import { primaryButton, secondaryButton } from '../../components/fields/styles';
import type { FormValues, GroupDescriptor } from '../../components/fields/types';
import { FormView, fieldsOf } from '../../components/form/FormView';
import { useFormState } from '../../components/form/useFormState';
import { PdfPreview, useShownFile } from '../../components/PdfPreview';
import { errorMessage } from '../../lib/apollo';
import { apiDateOf, formatDate, parseBRNumber, toApiDate } from '../../lib/format';
import { usePageMeta } from '../../lib/pageMeta';
import { programForPath, useSession } from '../../lib/session';
import { notify } from '../../lib/toast';
import { useFreeReceipt, type FreeReceiptBody } from './useTitleCalls';

/** The screen's path (its program's web path). */
export const FREE_RECEIPT_PATH = '/reciboavulso';

// The limits and labels are the server's (services/finance/src/receipts.rs), so its messages
// ('Cidade é obrigatório!') name the fields as the screen does.
const GROUPS: GroupDescriptor[] = [
  {
    title: 'Recibo',
    framed: true,
    fields: [
      { name: 'VALOR', type: 'MONEY', text: 'Valor', required: true, min: '0,01', width: 3 },
      { name: 'DATA', type: 'DATE', text: 'Data', required: true, width: 3 },
      { name: 'CIDADE', type: 'TEXT', text: 'Cidade', required: true, length: 60, width: 6 },
      { name: 'PAGADOR', type: 'TEXT', text: 'Pagador', required: true, length: 150, width: 8 },
      { name: 'PAGADOR_DOC', type: 'CPF_CNPJ', text: 'CPF/CNPJ do Pagador', width: 4 },
      { name: 'RECEBEDOR', type: 'TEXT', text: 'Recebedor', length: 150, width: 8 },
      { name: 'RECEBEDOR_DOC', type: 'CPF_CNPJ', text: 'CPF/CNPJ do Recebedor', width: 4 },
      { name: 'REFERENTE', type: 'TEXTAREA', text: 'Referente', required: true, length: 500, width: 12 },
    ],
  },
];

const FIELDS = fieldsOf(GROUPS);

/**
 * The call's body: the value as a number, the date as yyyy-MM-dd, the texts trimmed, empty ones
 * as null (no payee: the company received, with its CNPJ and logo).
 */
export function freeReceiptBody(values: FormValues): FreeReceiptBody {
  const text = (name: string) => {
    const v = String(values[name] ?? '').trim();
    return v === '' ? null : v;
  };
  return {
    VALOR: parseBRNumber(String(values.VALOR ?? '')),
    PAGADOR: text('PAGADOR'),
    PAGADOR_DOC: text('PAGADOR_DOC'),
    RECEBEDOR: text('RECEBEDOR'),
    RECEBEDOR_DOC: text('RECEBEDOR_DOC'),
    REFERENTE: text('REFERENTE'),
    CIDADE: text('CIDADE'),
    DATA: toApiDate(String(values.DATA ?? '')),
  };
}

/** The field a server message names first ('Cidade é obrigatório!'), if any. */
export const fieldOfReceiptMessage = (message: string): string | null =>
  FIELDS.filter((f) => message.startsWith(`${f.text} `))
    .sort((a, b) => b.text.length - a.text.length)
    .map((f) => f.name)[0] ?? null;

/**
 * /reciboavulso: a receipt for a payment received outside the titles (value, payer, payee
 * (the company when left empty), what it refers to, place and date), issued and rendered by
 * the server as a PDF that is shown here and can be downloaded.
 */
export default function FreeReceiptPage() {
  usePageMeta('Recibo Avulso', 'IndexReciboavulso');
  const session = useSession();
  const program = session ? programForPath(session.programs, FREE_RECEIPT_PATH) : undefined;
  const allowed = Boolean(session?.privileged || program?.canView);
  const form = useFormState(FIELDS, { DATA: formatDate(apiDateOf()) });
  const render = useFreeReceipt();
  const [receipt, showReceipt] = useShownFile();
  const [busy, setBusy] = useState(false);

  if (!allowed) {
    return <p className="p-6 text-center text-sm text-slate-600">Você não tem permissão para acessar esta tela.</p>;
  }

  const generate = async () => {
    if (!form.validateAll()) return;
    setBusy(true);
    try {
      showReceipt(await render(freeReceiptBody(form.values)));
    } catch (e) {
      const message = errorMessage(e);
      notify.error(message);
      const field = fieldOfReceiptMessage(message);
      if (field) form.showError(field, message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="grid gap-4 xl:grid-cols-2">
      <form
        noValidate
        aria-label="Recibo Avulso"
        className="space-y-4 self-start rounded bg-white p-4 shadow-sm"
        onSubmit={(e) => {
          e.preventDefault();
          void generate();
        }}
      >
        <FormView form={form} groups={GROUPS} />
        <p className="text-xs text-slate-500">
          Recebedor em branco: {session?.company.name ?? 'a empresa'} recebe (com seu CNPJ e logotipo).
        </p>
        <div className="flex justify-end gap-2 border-t border-slate-200 pt-3">
          {receipt && (
            <button type="button" className={secondaryButton} onClick={() => showReceipt(null)}>
              Fechar visualização
            </button>
          )}
          <button type="submit" className={primaryButton} disabled={busy}>
            Gerar recibo
          </button>
        </div>
      </form>
      {receipt && (
        <section aria-label="Visualização do recibo" className="rounded bg-white p-4 shadow-sm">
          <PdfPreview file={receipt} title="Recibo avulso" />
        </section>
      )}
    </div>
  );
}
