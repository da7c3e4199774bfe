// The NF-e of a billing order as the fiscal service answers it (register `pedidofatxml`,
// services/fiscal/src/resources/order_nfe): its row (PEXM_*), and what a call adds to it: `msg`,
// `aviso` (what went wrong without failing the call) and, for a rejection, the SEFAZ's `cStat`
// and `xMotivo` with the plain explanation (`explicacao`), the field to fix (`campo`) and the
// register screen that holds it (`tela`).
import type { Row } from '../../components/tables/types';

export const NFE = 'pedidofatxml';

/** The server's own words (services/fiscal/src/resources/order_nfe/calls.rs), checked here first. */
export const JUSTIFICATION = {
  field: 'JUSTIFICATIVA',
  min: 15,
  max: 255,
  message: 'A justificativa do cancelamento deve ter entre 15 e 255 caracteres.',
} as const;
export const CORRECTION = {
  field: 'CORRECAO',
  min: 15,
  max: 1000,
  message: 'A correção da carta de correção deve ter entre 15 e 1000 caracteres.',
} as const;
export type TextRule = typeof JUSTIFICATION | typeof CORRECTION;

/** The text's refusal by `rule` (trimmed, counted in characters), or null when it fits. */
export function textRefusal(rule: TextRule, text: string): string | null {
  const n = [...text.trim()].length;
  return n < rule.min || n > rule.max ? rule.message : null;
}

/** PEXM_SITUACAO as the screen names it. */
export type NfeStatus = 'autorizado' | 'rejeitado' | 'pendente' | 'cancelado' | 'denegado' | 'erro';

const STATUS_TEXT: Record<NfeStatus, string> = {
  autorizado: 'Autorizada',
  rejeitado: 'Rejeitada',
  pendente: 'Pendente',
  cancelado: 'Cancelada',
  denegado: 'Denegada',
  erro: 'Erro no envio',
};

const STATUS_TONE: Record<NfeStatus, string> = {
  autorizado: 'bg-blue-100 text-blue-800',
  rejeitado: 'bg-red-100 text-red-800',
  pendente: 'bg-amber-100 text-amber-900',
  cancelado: 'bg-slate-200 text-slate-700',
  denegado: 'bg-red-100 text-red-800',
  erro: 'bg-red-100 text-red-800',
};

/** The SEFAZ's refusal explained: what to fix and where. */
export interface Rejection {
  cStat: string;
  xMotivo: string;
  explanation: string;
  field: string | null;
  /** The register screen that holds the wrong value ('/clientes'). */
  screen: string | null;
}

export interface Nfe {
  id: number;
  status: NfeStatus;
  statusText: string;
  tone: string;
  number: number | null;
  series: number | null;
  key: string | null;
  protocol: string | null;
  value: unknown;
  issuedAt: string | null;
  authorisedAt: string | null;
  cancelledAt: string | null;
  cancelProtocol: string | null;
  corrections: number;
  lastCorrection: string | null;
  rejection: Rejection | null;
  /** The provider's error of an emission that never reached the SEFAZ (status erro). */
  error: string | null;
  notice: string | null;
  msg: string | null;
}

const text = (v: unknown): string | null => (v == null || v === '' ? null : String(v));
const num = (v: unknown): number | null => (v == null || v === '' || Number.isNaN(Number(v)) ? null : Number(v));

/** 'enviando' is still waiting for the SEFAZ, as 'pendente'. */
function statusOf(v: unknown): NfeStatus {
  const s = String(v ?? '');
  if (s === 'enviando') return 'pendente';
  return (s in STATUS_TEXT ? s : 'erro') as NfeStatus;
}

/** The NF-e of a row or of a call's answer (null when it is not one: no PEXM_ID). */
export function nfeOf(answer: unknown): Nfe | null {
  if (!answer || typeof answer !== 'object' || Array.isArray(answer)) return null;
  const r = answer as Row;
  const id = num(r.PEXM_ID);
  if (id == null) return null;
  const status = statusOf(r.PEXM_SITUACAO);
  const refused = status === 'rejeitado' || status === 'denegado';
  const cStat = text(r.cStat) ?? text(r.PEXM_CSTAT);
  return {
    id,
    status,
    statusText: STATUS_TEXT[status],
    tone: STATUS_TONE[status],
    number: num(r.PEXM_NUMERO),
    series: num(r.PEXM_NFE_SERIE),
    key: text(r.PEXM_CHAVE),
    protocol: text(r.PEXM_PROTOCOLO),
    value: r.PEXM_VALOR,
    issuedAt: text(r.PEXM_DTA_EMISSAO),
    authorisedAt: text(r.PEXM_DTA_AUTORIZACAO),
    cancelledAt: text(r.PEXM_DTA_CANCELAMENTO),
    cancelProtocol: text(r.PEXM_CANCEL_PROTOCOLO),
    corrections: num(r.PEXM_CCE_SEQ) ?? 0,
    lastCorrection: text(r.PEXM_CCE_CORRECAO),
    rejection:
      refused && cStat
        ? {
            cStat,
            xMotivo: text(r.xMotivo) ?? text(r.PEXM_MOTIVO) ?? '',
            explanation: text(r.explicacao) ?? text(r.PEXM_EXPLICACAO) ?? '',
            field: text(r.campo),
            screen: text(r.tela),
          }
        : null,
    error: status === 'erro' ? text(r.PEXM_MOTIVO) : null,
    notice: text(r.aviso),
    msg: text(r.msg),
  };
}

/** A row read again (the list) keeps what the last call's answer said of the same rejection. */
export function withKnownRejection(read: Nfe, answered: Nfe | null): Nfe {
  if (!answered || answered.id !== read.id || !read.rejection || !answered.rejection) return read;
  if (answered.rejection.cStat !== read.rejection.cStat) return read;
  return { ...read, rejection: { ...read.rejection, ...answered.rejection } };
}

/** The access key in groups of four digits, as printed on the DANFE. */
export const formatKey = (key: string) => key.replace(/\D/g, '').replace(/(\d{4})(?=\d)/g, '$1 ');

/** Which calls the NF-e's status allows. */
export function allowed(nfe: Nfe | null) {
  const s = nfe?.status;
  return {
    emit: !nfe || s === 'rejeitado' || s === 'erro',
    consult: !!nfe,
    files: s === 'autorizado' || s === 'cancelado',
    cancel: s === 'autorizado',
    correct: s === 'autorizado',
  };
}
