// Bank slips (the `boletos` register of services/finance, BOL_*): what a receivable's slip
// is on screen, whichever call answered it (`gerar`, `atualizar` or `titulo`), what the
// server says when it checks one at the bank (`verificar`) and what a bank return file did
// to each slip (`retorno`). Money travels as the API's text ('123.45'), dates as yyyy-MM-dd.
import { listOf, reading, readings, rowOf, toId, type Reading, type Row } from '../../lib/api';
import { centsToApi, toCents } from '../../lib/format';
import { isTrue } from '../../lib/resources/metaFields';

/** The register of the slips and its calls. */
export const SLIPS = 'boletos';

/** Situations of a slip (BOL_SITUACAO). */
export const SLIP_SITUATIONS: Record<string, string> = {
  G: 'Gerado',
  E: 'Enviado em remessa',
  R: 'Registrado',
  X: 'Recusado',
  P: 'Pago',
  B: 'Baixado',
};

/** A paid or written-off slip is closed: it can no longer be changed or written off. */
export const CLOSED_SLIP = ['P', 'B'];

export const slipSituationText = (code: string) => SLIP_SITUATIONS[code] ?? code;

/** A slip as the screen shows it. */
export interface Slip {
  id: number | string;
  titleId: unknown;
  ourNumber: string;
  barcode: string;
  digitableLine: string;
  /** The Pix 'copia e cola' text, when the account issues slips with Pix. */
  pix: string | null;
  /** API money text. */
  value: string;
  /** yyyy-MM-dd. */
  due: string;
  /** BOL_SITUACAO (G when `gerar` answered it). */
  situation: string;
  occurrence: string;
  paidValue: string | null;
  paidOn: string | null;
}

const text = (v: unknown) => (v == null ? '' : String(v));
const day = (v: unknown) => text(v).slice(0, 10);
const moneyText = (v: unknown) => centsToApi(toCents(v));
const orNull = (v: unknown) => (v == null || String(v).trim() === '' ? null : String(v));
const idOf = (v: unknown): number | string => (typeof v === 'number' ? v : text(v));

// The slips' calls have no schemas yet (legacy calls): their answers are read here by the
// names the screens use. `titulo` and `baixa` answer the slip's row of the register.

/** What `gerar` and `atualizar` answer of a slip. */
export type IssuedSlip = Reading<
  | 'BOL_ID'
  | 'CRCB_ID'
  | 'NOSSO_NUMERO'
  | 'CODIGO_BARRAS'
  | 'LINHA_DIGITAVEL'
  | 'PIX_COPIA_COLA'
  | 'VALOR'
  | 'DTA_VCTO'
  | 'BOL_SITUACAO'
  | 'BOL_OCORRENCIA'
>;

/** A slip answered by `gerar` or `atualizar` ({BOL_ID, CRCB_ID, NOSSO_NUMERO, ...}). */
export function slipOfIssue(a: IssuedSlip, situation = 'G'): Slip {
  return {
    id: idOf(a.BOL_ID),
    titleId: a.CRCB_ID,
    ourNumber: text(a.NOSSO_NUMERO),
    barcode: text(a.CODIGO_BARRAS),
    digitableLine: text(a.LINHA_DIGITAVEL),
    pix: orNull(a.PIX_COPIA_COLA),
    value: moneyText(a.VALOR),
    due: day(a.DTA_VCTO),
    situation: text(a.BOL_SITUACAO) || situation,
    occurrence: text(a.BOL_OCORRENCIA),
    paidValue: null,
    paidOn: null,
  };
}

/** A slip row (BOL_* fields: `titulo`, `baixa`). */
export function slipOfRow(r: Row<'boletos'>): Slip {
  return {
    id: idOf(r.BOL_ID),
    titleId: r.BOL_CRCB_ID,
    ourNumber: text(r.BOL_NOSSO_NUMERO),
    barcode: text(r.BOL_CODIGO_BARRAS),
    digitableLine: text(r.BOL_LINHA_DIGITAVEL),
    pix: orNull(r.BOL_PIX_COPIA_COLA),
    value: moneyText(r.BOL_VALOR),
    due: day(r.BOL_DTA_VCTO),
    situation: text(r.BOL_SITUACAO),
    occurrence: text(r.BOL_OCORRENCIA),
    paidValue: r.BOL_VLR_PAGO == null ? null : moneyText(r.BOL_VLR_PAGO),
    paidOn: orNull(r.BOL_DTA_PAG) && day(r.BOL_DTA_PAG),
  };
}

/** What `titulo` answered: the active slip, or null (null, an empty answer or a 204). */
export function activeSlip(answer: unknown): Slip | null {
  const row = rowOf('boletos', Array.isArray(answer) ? answer[0] : answer);
  if (!row || row.BOL_ID == null) return null;
  return slipOfRow(row);
}

/** What `gerar` answered: one slip per receivable. */
export function issuedSlips(answer: unknown): Slip[] {
  const rows: IssuedSlip[] = Array.isArray(answer) ? readings(answer) : [reading(answer)];
  return rows.filter((r) => r.BOL_ID != null).map((r) => slipOfIssue(r));
}

/** A slip is still open at the bank: it can be changed, written off or paid. */
export const isOpenSlip = (slip: Slip) => !CLOSED_SLIP.includes(slip.situation);

// ------------------------------------------------------------------------------ verificar

export interface SlipOccurrence {
  date: string;
  code: string;
  description: string;
  reasons: string;
}

export interface SlipCheck {
  situation: string;
  situationText: string;
  registered: boolean;
  paid: boolean;
  occurrences: SlipOccurrence[];
}

export function slipCheck(answer: unknown): SlipCheck {
  const a = reading<'BOL_SITUACAO' | 'SITUACAO_DESCRICAO' | 'REGISTRADO' | 'PAGO' | 'OCORRENCIAS'>(answer);
  const situation = text(a.BOL_SITUACAO);
  const list = readings<'DATA' | 'CODIGO' | 'DESCRICAO' | 'MOTIVOS'>(a.OCORRENCIAS);
  return {
    situation,
    situationText: text(a.SITUACAO_DESCRICAO) || slipSituationText(situation),
    registered: isTrue(a.REGISTRADO),
    paid: isTrue(a.PAGO),
    occurrences: list.map((o) => ({
      date: text(o.DATA),
      code: text(o.CODIGO),
      description: text(o.DESCRICAO),
      reasons: Array.isArray(o.MOTIVOS) ? listOf(o.MOTIVOS).map(text).join(', ') : text(o.MOTIVOS),
    })),
  };
}

// ------------------------------------------------------------------------------ retorno

export interface ReturnLine {
  ourNumber: string;
  slipId: unknown;
  titleId: unknown;
  occurrence: string;
  description: string;
  reasons: string;
  paid: string | null;
  interest: string | null;
  fee: string | null;
  result: string;
}

export interface ReturnAnswer {
  file: string;
  /** The CNAB layout the file was read as (240, 400). */
  layout: string;
  alreadyProcessed: boolean;
  /** Lines of the file the server could not read. */
  warnings: string[];
  settled: number;
  registered: number;
  refused: number;
  writtenOff: number;
  ignored: number;
  lines: ReturnLine[];
}

const count = (v: unknown) => {
  const n = Number(v ?? 0);
  return Number.isFinite(n) ? n : 0;
};
const moneyOrNull = (v: unknown) => (v == null || v === '' ? null : moneyText(v));

/** What processing a bank return file answered. */
export function returnAnswer(answer: unknown): ReturnAnswer {
  const a = reading<
    | 'ARQUIVO'
    | 'LEIAUTE'
    | 'JA_PROCESSADO'
    | 'AVISOS'
    | 'LIQUIDADOS'
    | 'REGISTRADOS'
    | 'RECUSADOS'
    | 'BAIXADOS'
    | 'IGNORADOS'
    | 'TITULOS'
  >(answer);
  const lines = readings<
    | 'NOSSO_NUMERO'
    | 'BOL_ID'
    | 'CRCB_ID'
    | 'OCORRENCIA'
    | 'DESCRICAO'
    | 'MOTIVOS'
    | 'VALOR_PAGO'
    | 'JUROS'
    | 'TARIFA'
    | 'RESULTADO'
  >(a.TITULOS);
  return {
    file: text(a.ARQUIVO),
    layout: text(a.LEIAUTE),
    alreadyProcessed: isTrue(a.JA_PROCESSADO),
    warnings: listOf(a.AVISOS).map(text),
    settled: count(a.LIQUIDADOS),
    registered: count(a.REGISTRADOS),
    refused: count(a.RECUSADOS),
    writtenOff: count(a.BAIXADOS),
    ignored: count(a.IGNORADOS),
    lines: lines.map((l) => ({
      ourNumber: text(l.NOSSO_NUMERO),
      slipId: l.BOL_ID,
      titleId: l.CRCB_ID,
      occurrence: text(l.OCORRENCIA),
      description: text(l.DESCRICAO),
      reasons: Array.isArray(l.MOTIVOS) ? listOf(l.MOTIVOS).map(text).join(', ') : text(l.MOTIVOS),
      paid: moneyOrNull(l.VALOR_PAGO),
      interest: moneyOrNull(l.JUROS),
      fee: moneyOrNull(l.TARIFA),
      result: text(l.RESULTADO),
    })),
  };
}

// ------------------------------------------------------------------------------ bodies

/** What `atualizar` takes: the slip and what changes of it. */
export interface SlipUpdateBody {
  EMP_ID: number;
  BOL_ID: number | undefined;
  /** yyyy-MM-dd. */
  DTA_VCTO?: string;
  /** The API's money text. */
  VALOR?: string;
}

/**
 * `atualizar`: only what changed goes (a new due date, yyyy-MM-dd; a new value, in cents);
 * null when nothing did.
 */
export function updateBody(
  emp: number,
  slip: Slip,
  { due, cents }: { due: string | null; cents: number | null },
): SlipUpdateBody | null {
  const body: SlipUpdateBody = { EMP_ID: emp, BOL_ID: toId(slip.id) };
  if (due && due !== slip.due) body.DTA_VCTO = due;
  if (cents != null && cents !== toCents(slip.value)) body.VALOR = centsToApi(cents);
  return body.DTA_VCTO !== undefined || body.VALOR !== undefined ? body : null;
}
