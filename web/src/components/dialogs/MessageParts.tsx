// What the WhatsApp and e-mail dialogs both show: a document the server attaches itself, and
// the answer of a message that went into the queue but waits for a provider.
import type { DocumentRef, Queued } from '../../lib/messaging';

/** A document a screen asked to send: no upload, the server produces the file. */
export function DocumentAttachment({ document }: { document: DocumentRef }) {
  return (
    <p
      aria-label="Documento anexado"
      data-testid="mensagem-documento"
      className="rounded border border-slate-200 bg-slate-50 px-2 py-1.5 text-sm"
    >
      <span className="font-medium">{document.label}</span>
      <span className="text-slate-500"> — gerado pelo servidor no envio</span>
    </p>
  );
}

/** The message is queued but does not go out yet (no WhatsApp provider or SMTP server): the server says why. */
export function QueuedNotice({ queued }: { queued: Queued }) {
  return (
    <div
      role="status"
      data-testid="mensagem-na-fila"
      className="space-y-1 rounded bg-amber-50 p-3 text-sm text-amber-900"
    >
      {queued.msg !== queued.notice && <p className="font-medium">{queued.msg}</p>}
      <p>{queued.notice}</p>
      <p className="text-xs">A mensagem ficou na fila e sai assim que o envio for configurado (tela Mensagens).</p>
    </div>
  );
}
