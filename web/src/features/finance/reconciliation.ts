// Bank reconciliation (services/finance, register `conciliacaobancaria`, CONB_*): the lines of
// an account's imported statements (OFX), the system's movements (MBCA_*) each is matched to,
// the server's suggestions for a pending one, and the account's balance per statement and per
// system. Money travels as the API's text ('123.45'), dates as yyyy-MM-dd.
import { listOf, reading, readings, rowsOf, toId, valueOf, type Row } from '../../lib/api';
import { centsToApi, toCents } from '../../lib/format';
import { isTrue } from '../../lib/resources/metaFields';

export const RECONCILIATION = 'conciliacaobancaria';
/** The register of the bank movements (useBankCalls' MOVEMENTS). */
const MOVEMENTS = 'movimentacaobancaria';

export const LINE_SITUATIONS: Record<string, string> = { P: 'Pendente', C: 'Conciliado' };
export const DIRECTIONS: Record<string, string> = { C: 'Crédito', D: 'Débito' };

/** The situation filter: pending lines by default. */
export const SITUATION_FILTER = [
  { value: 'P', text: 'Pendentes' },
  { value: 'C', text: 'Conciliados' },
  { value: 'T', text: 'Todos' },
];

/** A bank movement (`movimentacaobancaria`, MBCA_*): a row of the register, or the part of one the reconciliation calls answer. */
export type Movement = Row<typeof MOVEMENTS>;

export interface Suggestion {
  ids: unknown[];
  movements: Movement[];
  value: string;
  reason: string;
}

export interface StatementLine {
  id: unknown;
  date: string;
  /** C credit, D debit. */
  type: string;
  value: string;
  history: string;
  document: string;
  situation: string;
  movements: Movement[];
  suggestions: Suggestion[];
}

const text = (v: unknown) => (v == null ? '' : String(v));
const day = (v: unknown) => text(v).slice(0, 10);
const apiMoney = (v: unknown) => centsToApi(toCents(v));

/**
 * What `pendentes` answers (no schema yet): the statement lines, rows of the register (CONB_*)
 * each with the movements it is matched to and the server's suggestions (services/finance).
 */
export function statementLines(answer: unknown): StatementLine[] {
  return readings<keyof Row<typeof RECONCILIATION> | 'MOVIMENTOS' | 'SUGESTOES'>(answer).map((r) => ({
    id: r.CONB_ID,
    date: day(r.CONB_DTA),
    type: text(r.CONB_TIPO),
    value: apiMoney(r.CONB_VALOR),
    history: text(r.CONB_HISTORICO),
    document: text(r.CONB_DOCUMENTO),
    situation: text(r.CONB_SITUACAO) || 'P',
    movements: rowsOf(MOVEMENTS, r.MOVIMENTOS),
    suggestions: readings<'MOVIMENTOS' | 'MBCA_IDS' | 'VALOR' | 'MOTIVO'>(r.SUGESTOES).map((s) => {
      const movements = rowsOf(MOVEMENTS, s.MOVIMENTOS);
      const ids = listOf(s.MBCA_IDS);
      return {
        ids: ids.length ? ids : movements.map((m) => m.MBCA_ID),
        movements,
        value: apiMoney(s.VALOR ?? movements.reduce<number>((t, m) => t + toCents(m.MBCA_VALOR), 0) / 100),
        reason: text(s.MOTIVO),
      };
    }),
  }));
}

/** The pendentes body: the account, the situation ('' all) and the period when given. */
/** What `pendentes` takes: the account, the situation ('' all) and the period. */
export interface LinesBody {
  BCO_ID: number | undefined;
  SITUACAO: string;
  DATA_INI?: string;
  DATA_FIM?: string;
}

export function linesBody(bankId: unknown, situation: string, from: string | null, to: string | null): LinesBody {
  return {
    BCO_ID: toId(bankId),
    SITUACAO: situation === 'T' ? '' : situation,
    ...(from ? { DATA_INI: from } : {}),
    ...(to ? { DATA_FIM: to } : {}),
  };
}

export interface ReconciliationBalance {
  /** Empty while no imported statement carried its closing balance (LEDGERBAL). */
  statement: string;
  statementDate: string;
  system: string;
  /** Empty without a statement balance. */
  difference: string;
  pending: number;
  pendingValue: string;
}

export function reconciliationBalance(answer: unknown): ReconciliationBalance {
  const a = reading<'SALDO_EXTRATO' | 'DATA_EXTRATO' | 'SALDO_SISTEMA' | 'DIFERENCA' | 'PENDENTES' | 'VALOR_PENDENTE'>(
    answer,
  );
  return {
    statement: a.SALDO_EXTRATO == null ? '' : apiMoney(a.SALDO_EXTRATO),
    statementDate: day(a.DATA_EXTRATO),
    system: apiMoney(a.SALDO_SISTEMA),
    difference: a.DIFERENCA == null ? '' : apiMoney(a.DIFERENCA),
    pending: Number(a.PENDENTES ?? 0) || 0,
    pendingValue: apiMoney(a.VALOR_PENDENTE),
  };
}

export interface OfxStatement {
  account: string;
  start: string;
  end: string;
  balance: string | null;
  balanceDate: string;
}

export interface OfxAnswer {
  imported: number;
  ignored: number;
  suggested: number;
  statements: OfxStatement[];
}

export function ofxAnswer(answer: unknown): OfxAnswer {
  const a = reading<'IMPORTADOS' | 'IGNORADOS' | 'SUGERIDOS' | 'EXTRATOS'>(answer);
  return {
    imported: Number(a.IMPORTADOS ?? 0) || 0,
    ignored: Number(a.IGNORADOS ?? 0) || 0,
    suggested: Number(a.SUGERIDOS ?? 0) || 0,
    statements: readings<'CONTA' | 'INICIO' | 'FIM' | 'SALDO' | 'DATA_SALDO'>(a.EXTRATOS).map((e) => ({
      account: text(e.CONTA),
      start: day(e.INICIO),
      end: day(e.FIM),
      balance: e.SALDO == null || e.SALDO === '' ? null : apiMoney(e.SALDO),
      balanceDate: day(e.DATA_SALDO),
    })),
  };
}

/** What the chosen movements add up to, in cents. */
export const movementsCents = (rows: Movement[]) => rows.reduce((t, m) => t + toCents(m.MBCA_VALOR), 0);

/**
 * The account's movements a line may be matched to by hand: those of its direction not yet
 * matched to a statement line (the ids the loaded lines hold, and rows marked as reconciled).
 * MBCA_CONCILIADO and MBCA_CONB_ID are no columns of the register's row schema (the server
 * sends neither today): they are read as unknown, a guard should a row carry them.
 */
export function openMovements(rows: Movement[], lines: StatementLine[]): Movement[] {
  const matched = new Set(lines.flatMap((l) => l.movements.map((m) => String(m.MBCA_ID))));
  return rows.filter((m) => {
    const statementLine = valueOf(m, 'MBCA_CONB_ID');
    return (
      !matched.has(String(m.MBCA_ID)) &&
      !isTrue(valueOf(m, 'MBCA_CONCILIADO')) &&
      (statementLine == null || statementLine === '')
    );
  });
}
