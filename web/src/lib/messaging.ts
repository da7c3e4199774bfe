// The messaging service's calls (services/messaging, register `whatsapp`; data-and-calls.md §7
// "Messaging"), REST because two of them are multipart forms:
//
// - POST /whatsapp/send: one message to one number (a dialog with several numbers sends one
//   request per number, spec §7.1), text, one file, or a document the server produces itself
//   (MENS_DOC_TIPO + MENS_DOC_ID; MENS_DOC_REF, JSON: a report's name, format and filters, an
//   order's series). POST /email/send: recipients, subject, body, files.
//   Both answer `{msg, MENS_ID}` once the message is in the queue; the worker sends it later.
// - GET /whatsapp/messages: the queue, filtered and paged (`{dados, count}`; 204: none).
// - GET /whatsapp/status/conexao, POST /whatsapp/auth: the company's number at its provider
//   and its pairing by QR code. POST /whatsapp/reenviar/{id}: a failed message queued again.
//
// No schema describes these answers yet (the gateway does not export the messaging calls): what
// the screens need is read with `reading`/`readings` and checked here.
import { reading, readings, toId } from './api';
import { maskPhone, onlyDigits } from './masks';
import { MSG } from './messages';
import { getPageMeta } from './pageMeta';
import { postFields, requestJson } from './restForms';
import { getSession } from './session';
import { validateEmail, validatePhone } from './validators';

/** Default WhatsApp country prefix (spec §9). */
export const WHATSAPP_PREFIX = '55';

/** MENS_PROGRAMA of every message this client sends (spec §3). */
export const WEB_PROGRAM = 'BSWEB';

// ------------------------------------------------------------------------- documents

/**
 * The documents the server produces and attaches itself (MENS_DOC_TIPO): it asks the document's
 * owner for the file, by the document's id (MENS_DOC_ID) and, for some, more that names it
 * (MENS_DOC_REF, a JSON object).
 */
export const DOCUMENT_KINDS = {
  /** A receivable's bank slip (its title's id, CRCB_ID). */
  boleto: 'Boleto',
  /** A receivable's settlement receipt (its title's id, CRCB_ID). */
  recibo: 'Recibo',
  /** An NF-e's DANFE and XML (its PEXM_ID). */
  nfe: 'NF-e',
  /** A report, no id: its name, format and filters in MENS_DOC_REF ({relatorio, FORMATO, DATA_INI...}). */
  relatorio: 'Relatório',
  /** A quote (its ORCA_ID). */
  orcamento: 'Orçamento',
  /** A billing order (its PEDF_ID; its series in MENS_DOC_REF, {PEDF_SERIE}). */
  pedido: 'Pedido',
} as const;
export type DocumentKind = keyof typeof DOCUMENT_KINDS;

/** What names a document besides its id, sent as MENS_DOC_REF (JSON). */
export type DocumentFacts = Record<string, unknown>;

/** A document a screen asks to send: the server produces the file, the dialog names it. */
export type DocumentRef = {
  /** What the dialog shows ('Boleto do Título 31'). */
  label: string;
  ref?: DocumentFacts;
} & (
  | { kind: Exclude<DocumentKind, 'relatorio'>; id: number }
  /** A report has no id: `ref` names it. */
  | { kind: 'relatorio'; id?: number }
);

/** MENS_DOC_REF as the queue may list it: a JSON object, else nothing. */
function factsOf(ref: unknown): DocumentFacts | null {
  if (ref && typeof ref === 'object' && !Array.isArray(ref)) return ref as DocumentFacts;
  if (typeof ref !== 'string' || !ref.trim()) return null;
  try {
    const parsed: unknown = JSON.parse(ref);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as DocumentFacts) : null;
  } catch {
    return null;
  }
}

const fact = (facts: DocumentFacts | null, name: string) => {
  const v = facts?.[name];
  return typeof v === 'string' || typeof v === 'number' ? String(v).trim() : '';
};

/**
 * A message's document as the queue lists it ('Boleto nº 31', 'Pedido nº 12/1', 'Relatório
 * vendas (PDF)'); unknown kinds as they are. `ref` is its MENS_DOC_REF, when the queue gives it.
 */
export function documentText(kind: unknown, id: unknown, ref?: unknown): string | null {
  if (typeof kind !== 'string' || !kind) return null;
  const name = Object.hasOwn(DOCUMENT_KINDS, kind) ? DOCUMENT_KINDS[kind as DocumentKind] : kind;
  const facts = factsOf(ref);
  if (kind === 'relatorio') {
    const report = fact(facts, 'relatorio');
    const format = fact(facts, 'FORMATO').toUpperCase();
    const shown = report ? `${name} ${report}` : name;
    return format ? `${shown} (${format === 'XLSX' ? 'Excel' : format})` : shown;
  }
  if (id == null || id === '') return name;
  const serie = kind === 'pedido' ? fact(facts, 'PEDF_SERIE') : '';
  return `${name} nº ${String(id)}${serie ? `/${serie}` : ''}`;
}

// ------------------------------------------------------------------------------ sending

/** What a sending call answered: the server's text, the message's id and, when the message
 * stays in the queue without going out (no provider or SMTP configured), the reason. */
export interface Queued {
  msg: string;
  id: number | null;
  notice: string | null;
}

/**
 * The reasons services/messaging gives for a message that waits because the company has no
 * provider ('Nenhum provedor de WhatsApp configurado para a empresa.', 'Nenhum servidor de
 * e-mail (SMTP) configurado para a empresa.').
 */
const NOT_CONFIGURED = /nenhum (provedor|servidor)\b[^.]*configurado/i;

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : null);

/** A sending call's answer: its `msg` (else `fallback`), `MENS_ID` and what it warns of (`aviso`). */
export function queuedOf(answer: unknown, fallback: string): Queued {
  const a = reading<'msg' | 'MENS_ID' | 'id' | 'aviso'>(answer);
  const msg = text(a.msg) ?? fallback;
  return {
    msg,
    id: toId(a.MENS_ID ?? a.id) ?? null,
    notice: text(a.aviso) ?? (NOT_CONFIGURED.test(msg) ? msg : null),
  };
}

/** Who sends and from where: the session's user and company, the screen's route name. */
function origin() {
  const session = getSession();
  return {
    MENS_USR_ID: session?.user.id,
    MENS_EMP_ID: session?.company.id,
    MENS_PROJETO: getPageMeta().name || window.location.pathname.replace(/^\/+/, '') || null,
    MENS_PROGRAMA: WEB_PROGRAM,
  };
}

/** MENS_DOC_TIPO, MENS_DOC_ID (none for a report) and MENS_DOC_REF (JSON) of a document. */
export function documentFields(doc: DocumentRef | null | undefined): Record<string, string | number> {
  if (!doc) return {};
  return {
    MENS_DOC_TIPO: doc.kind,
    ...(doc.id != null ? { MENS_DOC_ID: doc.id } : {}),
    ...(doc.ref ? { MENS_DOC_REF: JSON.stringify(doc.ref) } : {}),
  };
}

/** MENS_TIPO: a document (produced or attached), an image, or text alone. */
export function messageKind(file: File | null | undefined, doc: DocumentRef | null | undefined): 'T' | 'I' | 'D' {
  if (doc) return 'D';
  if (!file) return 'T';
  return file.type.startsWith('image/') ? 'I' : 'D';
}

/** The number as the server takes it: 55 + DDD + number, digits only. */
export const whatsappNumber = (number: string) => `${WHATSAPP_PREFIX}${onlyDigits(number)}`;

/** 'dd/MM/yyyy HH:mm' as MENS_DATAHORA takes it ('yyyy-MM-dd HH:mm'), or null when it is not a real moment. */
export function apiDateTime(screen: string): string | null {
  const m = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2})$/.exec(screen.trim());
  if (!m) return null;
  const [, dd, mm, yyyy, hh, mi] = m;
  if (Number(hh) > 23 || Number(mi) > 59) return null;
  const day = new Date(Number(yyyy), Number(mm) - 1, Number(dd));
  if (day.getDate() !== Number(dd) || day.getMonth() !== Number(mm) - 1) return null;
  return `${yyyy}-${mm}-${dd} ${hh}:${mi}`;
}

export interface WhatsappMessage {
  /** The number as typed (11 digits, with or without its mask). */
  number: string;
  text: string;
  file?: File | null;
  document?: DocumentRef | null;
  /** When to send ('yyyy-MM-dd HH:mm', Brasília); none: now. */
  at?: string | null;
}

/** POST /whatsapp/send: one message to one number, queued. */
export async function sendWhatsapp(m: WhatsappMessage): Promise<Queued> {
  const answer = await postFields(
    '/whatsapp/send',
    {
      ...origin(),
      MENS_DESCRICAO: m.text,
      MENS_DESTINATARIO: whatsappNumber(m.number),
      MENS_DATAHORA: m.at || null,
      MENS_TIPO: messageKind(m.file, m.document),
      MENS_STATUS: 'N',
      ...documentFields(m.document),
    },
    m.file && !m.document ? [m.file] : [],
  );
  return queuedOf(answer, MSG.whatsappQueued);
}

export interface EmailMessage {
  to: string[];
  hidden: string[];
  subject: string;
  body: string;
  files: File[];
  document?: DocumentRef | null;
}

/** POST /email/send: one e-mail (its recipients comma-separated), queued. */
export async function sendEmail(m: EmailMessage): Promise<Queued> {
  const answer = await postFields(
    '/email/send',
    {
      ...origin(),
      MENS_DESTINATARIO: m.to.join(','),
      MENS_DESTINATARIO_OCULTO: m.hidden.join(','),
      MENS_ASSUNTO: m.subject,
      MENS_DESCRICAO: m.body,
      ...documentFields(m.document),
    },
    m.files,
  );
  return queuedOf(answer, MSG.emailQueued);
}

// ---------------------------------------------------------------------------- contacts

/** Where a message to a customer goes: the e-mails and mobile numbers (11 digits) a row holds. */
export interface Contacts {
  emails: string[];
  phones: string[];
}

const entries = (v: unknown) =>
  typeof v === 'string'
    ? v
        .split(/[;,]/)
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

/**
 * The contacts of a customer's row (`clientes`: CLI_EMAIL, CLI_EMAIL_NFE, CLI_FONE as
 * '11987654321;1133334444'), or of any row that carries those columns. An NF-e goes to the
 * customer's NF-e address first; anything else to the main one first.
 */
export function contactsOf(row: object | null | undefined, forNfe = false): Contacts {
  const r = reading<'CLI_EMAIL' | 'CLI_EMAIL_NFE' | 'CLI_FONE'>(row);
  const [first, second] = forNfe ? [r.CLI_EMAIL_NFE, r.CLI_EMAIL] : [r.CLI_EMAIL, r.CLI_EMAIL_NFE];
  const valid = (e: string) => validateEmail(e) === null;
  const emails = entries(first).filter(valid);
  return {
    emails: emails.length ? emails : entries(second).filter(valid),
    phones: [...new Set(entries(r.CLI_FONE).map(onlyDigits))].filter((p) => validatePhone(p) === null),
  };
}

// ------------------------------------------------------------------------------ the queue

/** MENS_STATUS and its words (services/messaging/src/status.rs). */
export const STATUS_TEXT = {
  N: 'Na fila',
  P: 'Enviando',
  E: 'Enviada',
  T: 'Entregue',
  L: 'Lida',
  F: 'Falhou',
} as const;
export type MessageStatus = keyof typeof STATUS_TEXT;
export const FAILED: MessageStatus = 'F';

/** MENS_CANAL and its words. */
export const CHANNEL_TEXT = { W: 'WhatsApp', E: 'E-mail' } as const;

/** A message of the queue as the screen shows it. */
export interface QueuedMessage {
  id: number;
  channel: string;
  to: string;
  subject: string | null;
  text: string;
  /** When it goes (or went) out: MENS_DATAHORA, RFC 3339. */
  at: string | null;
  status: string;
  statusText: string;
  error: string | null;
  attempts: number;
  attachment: string | null;
  program: string | null;
  sentAt: string | null;
}

export function messageOf(row: unknown): QueuedMessage | null {
  const r = reading<
    | 'MENS_ID'
    | 'MENS_CANAL'
    | 'MENS_DESTINATARIO'
    | 'MENS_ASSUNTO'
    | 'MENS_DESCRICAO'
    | 'MENS_DATAHORA'
    | 'MENS_STATUS'
    | 'MENS_STATUS_DESCRICAO'
    | 'MENS_ERRO'
    | 'MENS_TENTATIVAS'
    | 'MENS_ANEXO_NOME'
    | 'MENS_DOC_TIPO'
    | 'MENS_DOC_ID'
    | 'MENS_DOC_REF'
    | 'MENS_PROGRAMA'
    | 'MENS_DTA_ENVIO'
  >(row);
  const id = toId(r.MENS_ID);
  if (id === undefined) return null;
  const status = String(r.MENS_STATUS ?? '');
  return {
    id,
    channel: String(r.MENS_CANAL ?? ''),
    to: String(r.MENS_DESTINATARIO ?? ''),
    subject: text(r.MENS_ASSUNTO),
    text: String(r.MENS_DESCRICAO ?? ''),
    at: text(r.MENS_DATAHORA),
    status,
    statusText:
      text(r.MENS_STATUS_DESCRICAO) ??
      (Object.hasOwn(STATUS_TEXT, status) ? STATUS_TEXT[status as MessageStatus] : status),
    error: text(r.MENS_ERRO),
    attempts: Number(r.MENS_TENTATIVAS ?? 0) || 0,
    attachment: documentText(r.MENS_DOC_TIPO, r.MENS_DOC_ID, r.MENS_DOC_REF) ?? text(r.MENS_ANEXO_NOME),
    program: text(r.MENS_PROGRAMA),
    sentAt: text(r.MENS_DTA_ENVIO),
  };
}

/** A recipient as the screen shows it: a number masked (+55 (11) 98765-4321), e-mails comma-separated. */
export function recipientText(channel: string, to: string): string {
  if (channel === 'E') return to.split(/[;,]/).filter(Boolean).join(', ');
  const digits = onlyDigits(to);
  if (digits.startsWith(WHATSAPP_PREFIX) && (digits.length === 12 || digits.length === 13)) {
    return `+${WHATSAPP_PREFIX} ${maskPhone(digits.slice(2))}`;
  }
  return to;
}

/** The queue's filters as the screen holds them (dates yyyy-MM-dd; empty: any). */
export interface MessageFilter {
  from: string | null;
  until: string | null;
  status: string;
  channel: string;
  to: string;
  program: string;
}

export interface MessagePage {
  messages: QueuedMessage[];
  count: number;
}

/** GET /whatsapp/messages: one page (from 1) of `limit` messages, newest first. */
export async function listMessages(f: MessageFilter, page: number, limit: number): Promise<MessagePage> {
  const query = new URLSearchParams();
  const put = (name: string, value: string | null) => {
    if (value?.trim()) query.set(name, value.trim());
  };
  put('DATA_INI', f.from);
  put('DATA_FIM', f.until);
  put('MENS_STATUS', f.status);
  put('MENS_CANAL', f.channel);
  put('MENS_DESTINATARIO', f.to);
  put('MENS_PROGRAMA', f.program);
  query.set('LIMIT', String(limit));
  query.set('OFFSET', String((page - 1) * limit));
  // 204: no message.
  const a = reading<'dados' | 'count'>(await requestJson(`/whatsapp/messages?${query.toString()}`));
  const messages = readings<string>(a.dados).flatMap((r) => messageOf(r) ?? []);
  return { messages, count: Number(a.count ?? messages.length) || 0 };
}

/** POST /whatsapp/reenviar/{id}: a failed message back in the queue; the server's text. */
export async function resendMessage(id: number): Promise<string> {
  const { msg } = reading<'msg'>(await requestJson(`/whatsapp/reenviar/${id}`, { json: {} }));
  return text(msg) ?? 'Mensagem colocada de novo na fila.';
}

// ---------------------------------------------------------------------------- connection

/** The company's number at its WhatsApp provider. */
export interface Connection {
  /** open (connected), connecting (waiting for the QR code to be read), close. */
  state: string;
  msg: string;
  /** The pairing QR code as an image source (a PNG data: URL). */
  qrcode: string | null;
  number: string | null;
  name: string | null;
  quality: string | null;
}

/** A QR code as the provider gives it (a data: URL, or the PNG's base64 alone) as an image source. */
export const qrSource = (qr: string) => (qr.startsWith('data:') ? qr : `data:image/png;base64,${qr}`);

const CONNECTION_TEXT: Record<string, string> = {
  open: 'Conectado.',
  connecting: 'Aguardando a leitura do QR code no WhatsApp do celular.',
  close: 'Desconectado.',
};

export function connectionOf(answer: unknown): Connection {
  const a = reading<'state' | 'msg' | 'qrcode' | 'numero' | 'nome' | 'qualidade'>(answer);
  const state = String(a.state ?? 'close');
  const qr = text(a.qrcode);
  return {
    state,
    msg: text(a.msg) ?? CONNECTION_TEXT[state] ?? state,
    qrcode: qr ? qrSource(qr) : null,
    number: text(a.numero),
    name: text(a.nome),
    quality: text(a.qualidade),
  };
}

/** GET /whatsapp/status/conexao. */
export async function readConnection(): Promise<Connection> {
  return connectionOf(await requestJson('/whatsapp/status/conexao'));
}

/** POST /whatsapp/auth: pairs the number (Evolution API): its state and the QR code to read. */
export async function pairNumber(): Promise<Connection> {
  return connectionOf(await requestJson('/whatsapp/auth', { json: {} }));
}
