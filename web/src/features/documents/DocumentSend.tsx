// 'Enviar por e-mail' and 'Enviar por WhatsApp' on a saved quote's or billing order's screen: the
// server asks the document's owner for its file (MENS_DOC_TIPO orcamento with MENS_DOC_ID ORCA_ID;
// pedido with PEDF_ID and MENS_DOC_REF {PEDF_SERIE}); the recipients are the customer's.
import { useSendDocument, type DocumentMessage } from '../../components/dialogs/useSendDocument';
import { secondaryButton } from '../../components/fields/styles';
import { toId, valueOf, type AnyRow } from '../../lib/api';
import type { DocumentRef } from '../../lib/messaging';
import type { DocumentRegister, ResourceMeta } from '../../lib/resources/metaFields';

interface Sendable {
  /** The document's noun in the dialog and the message ('Orçamento', 'orçamento'). */
  noun: string;
  /** The header's customer (a `clientes` id), whose e-mails and numbers fill the recipients. */
  customer: string;
  /** The document as the server takes it, from its id (and the rest of its key), if it has one. */
  document: (id: number, record: AnyRow, label: string) => DocumentRef;
}

/** The registers whose documents the server produces, by register name. */
export const SENDABLE: Record<string, Sendable> = {
  orcamento: {
    noun: 'Orçamento',
    customer: 'ORCA_CLI_ID',
    document: (id, _record, label) => ({ kind: 'orcamento', id, label }),
  },
  pedido: {
    noun: 'Pedido',
    customer: 'PEDF_CLI_ID',
    document: (id, record, label) => ({
      kind: 'pedido',
      id,
      label,
      ref: { PEDF_SERIE: String(valueOf(record, 'PEDF_SERIE') ?? '') },
    }),
  },
};

/**
 * The message a saved document goes in: 'Orçamento nº 5', 'Pedido nº 9/1' (its key, as its
 * heading shows it), or null when the register is not one the server produces or the record has
 * no id yet.
 */
export function documentMessage(meta: DocumentRegister, record: AnyRow): DocumentMessage | null {
  const sendable = Object.hasOwn(SENDABLE, meta.name) ? SENDABLE[meta.name] : undefined;
  const keys = meta.document.key;
  const id = toId(valueOf(record, keys[0]));
  if (!sendable || id === undefined) return null;
  const number = keys.map((k) => String(valueOf(record, k) ?? '')).join('/');
  const label = `${sendable.noun} nº ${number}`;
  return {
    document: sendable.document(id, record, label),
    row: record,
    customerId: valueOf(record, sendable.customer),
    message: `Segue o ${sendable.noun.toLowerCase()} nº ${number}.`,
  };
}

interface Props {
  meta: DocumentRegister;
  metas: ResourceMeta[];
  record: AnyRow;
}

/** Beside a saved quote's or billing order's buttons: send it to the customer. */
export default function DocumentSend({ meta, record }: Props) {
  const sendDocument = useSendDocument();
  const message = documentMessage(meta, record);
  if (!message) return null;
  return (
    <>
      <button
        type="button"
        className={secondaryButton}
        data-testid="documento-enviar-email"
        onClick={() => void sendDocument.email(message)}
      >
        Enviar por e-mail
      </button>
      <button
        type="button"
        className={secondaryButton}
        data-testid="documento-enviar-whatsapp"
        onClick={() => void sendDocument.whatsapp(message)}
      >
        Enviar por WhatsApp
      </button>
    </>
  );
}
