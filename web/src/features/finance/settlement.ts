// What the settlement dialog works out: one line per title (the value settled, interest, fine
// and discount, as the form edits them), the charges the server computes for a date
// (`calculo`) merged in unless the user typed their own, the totals, what each line may not
// be, and the body of the settlement call (`baixa`).
//
// Money is edited as pt-BR text ('1.234,56') and summed in cents.
import { valueOf, type Reading } from '../../lib/api';
import { centsToApi, centsToField, formatMoney, toCents } from '../../lib/format';
import { isOpen, titleValue, type TitleColumns, type TitleNames, type TitleRow } from './titles';

export type ChargeField = 'interest' | 'fine';
export type LineField = 'value' | ChargeField | 'discount';

export interface SettleLine {
  /** The title's id (its key column). */
  id: number | null | undefined;
  /** The title as the list showed it. */
  row: TitleRow;
  /** What is left to pay, in cents. */
  balance: number;
  value: string;
  interest: string;
  fine: string;
  discount: string;
  /** Charges the user typed: a new preview leaves them alone. */
  edited: Record<ChargeField, boolean>;
  /** From the preview: days past due on the settlement date, and why it cannot be settled. */
  daysLate: number | null;
  refusal: string | null;
}

/** The chosen titles, each settled by its whole balance, charges at zero until the preview comes. */
export function startLines(rows: TitleRow[], cols: TitleColumns): SettleLine[] {
  return rows.map((row) => {
    const balance = toCents(titleValue(row, cols, 'balance'));
    return {
      id: titleValue(row, cols, 'key'),
      row,
      balance,
      value: centsToField(balance),
      interest: centsToField(0),
      fine: centsToField(0),
      discount: centsToField(0),
      edited: { interest: false, fine: false },
      daysLate: null,
      refusal: null,
    };
  });
}

/** A line with one amount typed by the user (a typed charge is kept over later previews). */
export function editLine(line: SettleLine, field: LineField, text: string): SettleLine {
  const next = { ...line, [field]: text };
  if (field === 'interest' || field === 'fine') next.edited = { ...line.edited, [field]: true };
  return next;
}

/** The preview call's body: the date and what is settled of each title. */
export function previewBody(date: string, lines: SettleLine[]) {
  return { DATA: date, TITULOS: lines.map((l) => ({ ID: l.id, VALOR: centsToApi(toCents(l.value)) })) };
}

/** What `calculo` answers of each title (no schema yet: read here). */
export type PreviewField = 'ID' | 'JUROS' | 'MULTA' | 'DIAS_ATRASO' | 'PODE_BAIXAR' | 'msg';

/**
 * The preview's rows (one per title: JUROS, MULTA, DIAS_ATRASO, PODE_BAIXAR, msg, keyed by the
 * title's key column) merged into the lines; charges the user typed stay.
 */
export function applyPreview<K extends string>(
  lines: SettleLine[],
  preview: Reading<K | PreviewField>[],
  key: K,
): SettleLine[] {
  return lines.map((line) => {
    const p = preview.find((r) => String(valueOf(r, key) ?? r.ID) === String(line.id));
    if (!p) return line;
    return {
      ...line,
      interest: line.edited.interest ? line.interest : centsToField(toCents(p.JUROS)),
      fine: line.edited.fine ? line.fine : centsToField(toCents(p.MULTA)),
      daysLate: p.DIAS_ATRASO == null ? null : Number(p.DIAS_ATRASO),
      refusal: p.PODE_BAIXAR === false ? String(p.msg ?? 'Título não pode ser baixado.') : null,
    };
  });
}

/** What a line moves: value + interest + fine - discount, in cents (never below zero). */
export function lineTotal(line: SettleLine): number {
  return Math.max(0, toCents(line.value) + toCents(line.interest) + toCents(line.fine) - toCents(line.discount));
}

export interface SettlementTotals {
  value: number;
  interest: number;
  fine: number;
  discount: number;
  total: number;
}

export function settlementTotals(lines: SettleLine[]): SettlementTotals {
  const t: SettlementTotals = { value: 0, interest: 0, fine: 0, discount: 0, total: 0 };
  for (const l of lines) {
    t.value += toCents(l.value);
    t.interest += toCents(l.interest);
    t.fine += toCents(l.fine);
    t.discount += toCents(l.discount);
    t.total += lineTotal(l);
  }
  return t;
}

/** Why a line cannot be sent as it is (the server's own wording), or null. */
export function lineError(line: SettleLine): string | null {
  if (line.refusal) return line.refusal;
  const id = String(line.id);
  const value = toCents(line.value);
  if (value <= 0) return `Informe o valor da baixa do título ${id}.`;
  if (value > line.balance) {
    return `Valor da baixa do título ${id} (${formatMoney(value / 100)}) maior que o saldo (${formatMoney(line.balance / 100)}).`;
  }
  if (toCents(line.discount) > value + toCents(line.interest) + toCents(line.fine)) {
    return `O desconto do título ${id} não pode ser maior que o valor da baixa.`;
  }
  return null;
}

export interface SettlementHeader {
  /** yyyy-MM-dd. */
  date: string;
  bank: string;
  method: string;
  remarks: string;
}

const idValue = (v: string) => (/^\d+$/.test(v) && v.length < 16 ? Number(v) : v);

/** What `baixa` takes (no schema yet: the legacy body). */
export interface SettlementBody {
  DATA: string;
  BCO_ID?: string | number;
  FRMP_ID?: string | number;
  OBS?: string;
  TITULOS: { ID: SettleLine['id']; VALOR: string; JUROS: string; MULTA: string; DESCONTO: string }[];
}

/** The body of `baixa`: the date, account, method and remarks, and each title's amounts. */
export function settlementBody(header: SettlementHeader, lines: SettleLine[]): SettlementBody {
  return {
    DATA: header.date,
    ...(header.bank ? { BCO_ID: idValue(header.bank) } : {}),
    ...(header.method ? { FRMP_ID: idValue(header.method) } : {}),
    ...(header.remarks.trim() ? { OBS: header.remarks.trim() } : {}),
    TITULOS: lines.map((l) => ({
      ID: l.id,
      VALOR: centsToApi(toCents(l.value)),
      JUROS: centsToApi(toCents(l.interest)),
      MULTA: centsToApi(toCents(l.fine)),
      DESCONTO: centsToApi(toCents(l.discount)),
    })),
  };
}

/**
 * Why these titles cannot be settled together, or null: only open ones, all of the same
 * customer or supplier (`personLabel`: 'Cliente', 'Fornecedor').
 */
export function selectionError(rows: TitleRow[], cols: TitleColumns): string | null {
  if (rows.length === 0) return 'Selecione os títulos a baixar.';
  if (rows.some((r) => !isOpen(r, cols))) return 'Somente títulos em aberto podem ser baixados.';
  const persons = new Set(rows.map((r) => String(titleValue(r, cols, 'person') ?? '')));
  if (persons.size > 1) return `Selecione títulos de um mesmo ${cols.person.label.toLowerCase()}.`;
  return null;
}

/** The account or method of the titles, or '' when they differ: the ones proposed. */
export function sharedValue(rows: TitleRow[], column: TitleNames['bank' | 'method'] | null | undefined): string {
  if (!column) return '';
  const values = new Set(rows.map((r) => String(valueOf(r, column) ?? '')));
  return values.size === 1 ? [...values][0] : '';
}
