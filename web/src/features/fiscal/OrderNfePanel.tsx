import { useMemo, useState } from 'react';
import { useDialogs } from '../../components/dialogs/DialogHost';
import { useSendDocument } from '../../components/dialogs/useSendDocument';
import { primaryButton, secondaryButton } from '../../components/fields/styles';
import { useShownFile } from '../../components/PdfPreview';
import type { Row } from '../../components/tables/types';
import { errorMessage } from '../../lib/apollo';
import { saveFile } from '../../lib/restForms';
import type { DocumentRegister, ResourceMeta } from '../../lib/resources/metaFields';
import { permissionsFor } from '../../lib/resources/permissions';
import { useSession } from '../../lib/session';
import { notify } from '../../lib/toast';
import { allowed, CORRECTION, JUSTIFICATION, type Nfe } from './nfe';
import { NfeFacts, RejectionBox } from './NfeFacts';
import { DanfeDialog, NfeTextDialog } from './NfeDialogs';
import { useOrderNfe } from './useOrderNfe';

interface Props {
  meta: DocumentRegister;
  metas: ResourceMeta[];
  record: Row;
}

/** The order is invoiced: its status is one the metadata marks as done (F, 'Faturado'). */
export function invoiced(meta: DocumentRegister, record: Row): boolean {
  const status = meta.document.status;
  if (!status) return false;
  const value = String(record[status.field] ?? '');
  return status.labels.some((l) => l.value === value && l.tone === 'done');
}

/** An order of another fiscal model (NFC-e, none) has no NF-e. */
const modelOf = (record: Row) => String(record.PEDF_MODELO ?? '55') || '55';

const BUSY_TEXT: Record<string, string> = {
  emitir: 'Emitindo a NF-e e aguardando a SEFAZ...',
  consultar: 'Consultando a SEFAZ...',
  cancelar: 'Cancelando a NF-e...',
  cartacorrecao: 'Registrando a carta de correção...',
  danfe: 'Obtendo o DANFE...',
  xml: 'Obtendo o XML...',
};

/** The toast of a call's answer: a rejection is an error, a pending answer a warning. */
function tell(nfe: Nfe | null) {
  if (!nfe) return;
  const msg = nfe.msg ?? `NF-e ${nfe.statusText.toLowerCase()}.`;
  if (nfe.status === 'autorizado' || nfe.status === 'cancelado') notify.success(msg);
  else if (nfe.status === 'pendente') notify.warning(msg);
  else notify.error(msg);
  if (nfe.notice) notify.warning(nfe.notice);
}

/**
 * The NF-e of an invoiced billing order, under its totals: emit it (asked first), its status
 * with number, series, access key and protocol, the DANFE and the XML, a new consult of the
 * SEFAZ, the cancel and the correction letter; a rejection shows the SEFAZ's code and text, what
 * it means, the field to fix and a link to the screen that holds it.
 */
export default function OrderNfePanel({ meta, metas, record }: Props) {
  if (!invoiced(meta, record) || modelOf(record) !== '55') return null;
  return <NfeSection meta={meta} metas={metas} record={record} />;
}

function NfeSection({ meta, metas, record }: Props) {
  const session = useSession();
  const perms = permissionsFor(session, meta);
  const dialogs = useDialogs();
  const [orderId, orderSerie] = meta.key;
  const id = record[orderId];
  const serie = record[orderSerie];
  const order = useMemo(() => ({ id, serie }), [id, serie]);
  const { nfe, loading, error, busy, emit, consult, cancel, correct, file } = useOrderNfe(order);
  const [failure, setFailure] = useState<string | null>(null);
  const [asking, setAsking] = useState<'cancel' | 'correct' | null>(null);
  const [danfe, showDanfe] = useShownFile();
  const sendDocument = useSendDocument();
  const can = allowed(nfe);
  // An authorised NF-e goes to the customer (its NF-e e-mail first): the server attaches the DANFE,
  // and to an e-mail the XML too.
  const nfeMessage = (files: string) =>
    nfe?.status === 'autorizado'
      ? {
          document: { kind: 'nfe' as const, id: nfe.id, label: `${files} da NF-e nº ${nfe.number ?? nfe.id}` },
          row: record,
          customerId: record.PEDF_CLI_ID,
        }
      : null;
  const nfeByEmail = nfeMessage('DANFE e XML');
  const nfeByWhatsapp = nfeMessage('DANFE');

  const attempt = async (run: () => Promise<Nfe | null>) => {
    setFailure(null);
    try {
      tell(await run());
    } catch (e) {
      const message = errorMessage(e);
      setFailure(message);
      notify.error(message);
    }
  };

  const askEmit = () =>
    dialogs.confirm({
      title: 'Emitir NF-e',
      text: `Deseja emitir a NF-e do pedido ${String(order.id)}? Ela será enviada à SEFAZ e não poderá ser alterada depois de autorizada.`,
      okText: 'Emitir NF-e',
      cancelText: 'Cancelar',
      // The dialog closes at once; the panel shows the wait.
      onOk: () => void attempt(emit),
    });

  const download = async (kind: 'danfe' | 'xml', id: number) => {
    setFailure(null);
    try {
      const got = await file(kind, id);
      if (kind === 'danfe') showDanfe(got);
      else saveFile(got);
    } catch (e) {
      const message = errorMessage(e);
      setFailure(message);
      notify.error(message);
    }
  };

  const sendEvent = (run: (text: string) => Promise<Nfe | null>) => async (text: string) => {
    // A refusal throws to the dialog, which keeps it on screen; the toast says it too.
    try {
      tell(await run(text));
      setAsking(null);
    } catch (e) {
      notify.error(errorMessage(e));
      throw e;
    }
  };

  return (
    <section aria-label="NF-e" className="space-y-3 rounded bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="text-base font-semibold text-primary">NF-e</h2>
        {nfe && (
          <span data-testid="nfe-status" className={`rounded px-2 py-0.5 text-xs font-semibold ${nfe.tone}`}>
            {nfe.statusText}
          </span>
        )}
      </div>

      {loading ? (
        <p className="text-sm text-slate-500">Carregando...</p>
      ) : error && !nfe ? (
        <p role="alert" className="text-sm text-error">
          {errorMessage(error)}
        </p>
      ) : !nfe ? (
        <p className="text-sm text-slate-600">Nenhuma NF-e emitida para este pedido.</p>
      ) : (
        <NfeFacts nfe={nfe} />
      )}

      {nfe?.rejection && <RejectionBox nfe={nfe} metas={metas} />}
      {nfe?.error && (
        <p role="alert" className="rounded bg-red-50 p-2 text-sm text-red-900">
          {nfe.error}
        </p>
      )}
      {nfe?.notice && (
        <p role="note" className="rounded bg-amber-50 p-2 text-sm text-amber-900">
          {nfe.notice}
        </p>
      )}
      {failure && (
        <p role="alert" data-testid="nfe-failure" className="rounded bg-red-50 p-2 text-sm text-red-900">
          {failure}
        </p>
      )}
      {busy && (
        <p role="status" className="text-sm text-slate-600">
          {BUSY_TEXT[busy] ?? 'Aguarde...'}
        </p>
      )}

      <div className="flex flex-wrap justify-end gap-2">
        {can.emit && perms.canCreate && (
          <button type="button" className={primaryButton} disabled={!!busy || loading} onClick={askEmit}>
            {nfe ? 'Emitir NF-e novamente' : 'Emitir NF-e'}
          </button>
        )}
        {nfe && can.files && (
          <>
            <button
              type="button"
              className={secondaryButton}
              disabled={!!busy}
              onClick={() => void download('danfe', nfe.id)}
            >
              DANFE (PDF)
            </button>
            <button
              type="button"
              className={secondaryButton}
              disabled={!!busy}
              onClick={() => void download('xml', nfe.id)}
            >
              XML
            </button>
          </>
        )}
        {nfeByEmail && (
          <button
            type="button"
            className={secondaryButton}
            disabled={!!busy}
            onClick={() => void sendDocument.email(nfeByEmail)}
          >
            Enviar DANFE/XML por e-mail
          </button>
        )}
        {nfeByWhatsapp && (
          <button
            type="button"
            className={secondaryButton}
            disabled={!!busy}
            onClick={() => void sendDocument.whatsapp(nfeByWhatsapp)}
          >
            Enviar DANFE por WhatsApp
          </button>
        )}
        {nfe && can.consult && (
          <button
            type="button"
            className={secondaryButton}
            disabled={!!busy}
            onClick={() => void attempt(() => consult(nfe.id))}
          >
            Consultar
          </button>
        )}
        {nfe && can.correct && perms.canUpdate && (
          <button type="button" className={secondaryButton} disabled={!!busy} onClick={() => setAsking('correct')}>
            Carta de correção
          </button>
        )}
        {nfe && can.cancel && perms.canUpdate && (
          <button type="button" className={secondaryButton} disabled={!!busy} onClick={() => setAsking('cancel')}>
            Cancelar NF-e
          </button>
        )}
      </div>

      {nfe && asking === 'cancel' && (
        <NfeTextDialog
          title="Cancelar NF-e"
          label="Justificativa"
          hint={`A NF-e nº ${nfe.number ?? ''} será cancelada na SEFAZ. Informe o motivo (de ${JUSTIFICATION.min} a ${JUSTIFICATION.max} caracteres).`}
          okText="Cancelar NF-e"
          rule={JUSTIFICATION}
          onSend={sendEvent((text) => cancel(nfe.id, text))}
          onClose={() => setAsking(null)}
        />
      )}
      {nfe && asking === 'correct' && (
        <NfeTextDialog
          title="Carta de correção"
          label="Correção"
          hint="A carta de correção corrige dados da NF-e autorizada que não mudam valores, impostos, emitente nem destinatário. A nova carta substitui a anterior."
          okText="Enviar carta de correção"
          rule={CORRECTION}
          onSend={sendEvent((text) => correct(nfe.id, text))}
          onClose={() => setAsking(null)}
        />
      )}
      {danfe && <DanfeDialog file={danfe} onClose={() => showDanfe(null)} />}
    </section>
  );
}
