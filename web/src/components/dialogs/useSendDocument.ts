// Opens the shell's e-mail or WhatsApp dialog for a document a screen shows (a receivable's slip
// or receipt, an NF-e), the server producing the file, with the customer's e-mails or mobile
// numbers filled in: the row's own when it carries them, else the customer's register row (a read
// the user may not be allowed: the recipients are then left for the user to type).
import { useApolloClient } from '@apollo/client';
import { useCallback, useMemo } from 'react';
import { rowOf, toId } from '../../lib/api';
import { contactsOf, type Contacts, type DocumentRef } from '../../lib/messaging';
import { ResourceGetDocument } from '../../lib/resources/documents';
import { useCompanyId } from '../../lib/resources/useResourceData';
import { useDialogs } from './DialogHost';

export interface DocumentMessage {
  document: DocumentRef;
  /** The row on screen: its contact columns, when it has them, fill the recipients. */
  row?: object | null;
  /** The customer (`clientes` id) whose contacts fill the recipients the row does not give. */
  customerId?: unknown;
  /** The e-mail's subject (default: the document's label). */
  subject?: string;
  /** The e-mail's body, or the WhatsApp message's text. */
  message?: string;
}

export function useSendDocument() {
  const dialogs = useDialogs();
  const client = useApolloClient();
  const emp = useCompanyId();

  const contacts = useCallback(
    async (m: DocumentMessage, wanted: keyof Contacts): Promise<Contacts> => {
      const forNfe = m.document.kind === 'nfe';
      const own = contactsOf(m.row, forNfe);
      const id = toId(m.customerId);
      if (own[wanted].length > 0 || id === undefined) return own;
      try {
        const { data } = await client.query({
          query: ResourceGetDocument,
          variables: { name: 'clientes', emp, id },
          fetchPolicy: 'cache-first',
        });
        return contactsOf(rowOf('clientes', data?.resourceGet), forNfe);
      } catch {
        return own;
      }
    },
    [client, emp],
  );

  return useMemo(
    () => ({
      email: async (m: DocumentMessage) => {
        const { emails } = await contacts(m, 'emails');
        dialogs.email({ to: emails, subject: m.subject ?? m.document.label, body: m.message, document: m.document });
      },
      whatsapp: async (m: DocumentMessage) => {
        const { phones } = await contacts(m, 'phones');
        dialogs.whatsapp({ numbers: phones, message: m.message, document: m.document });
      },
    }),
    [contacts, dialogs],
  );
}
