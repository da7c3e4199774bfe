// How a report shows its cells by the column's TIPO (money 'R$ 1.234,56', quantities with 4
// decimals, dates dd/MM/yyyy, percentages '12,34%'), the groups of rows of AGRUPA with their
// subtotals (summed in whole units of the column's last decimal: money in cents, never float
// sums), and the columns of the monthly curve (M1..M12 and M13, the total).
import { formatDate, formatMoney, formatNumber, parseBRNumber, toCents } from '../../lib/format';
import type { ColumnType, ReportColumn, ReportRow } from './types';

/** The months of the curve (1 to 12) and 13, the total. */
export const MONTH_LABELS = [
  'Jan',
  'Fev',
  'Mar',
  'Abr',
  'Mai',
  'Jun',
  'Jul',
  'Ago',
  'Set',
  'Out',
  'Nov',
  'Dez',
  'Total',
];
export const monthField = (month: number) => `M${month}`;
export const isMonthField = (campo: string) => /^M(1[0-3]|[1-9])$/.test(campo);

/** An ABC curve's class column (CLASSE: 'A' | 'B' | 'C'), shown as a badge. */
export const isClassColumn = (c: ReportColumn) => /^(?:.*_)?CLASSE$/i.test(c.CAMPO);

const NUMERIC: ColumnType[] = ['dinheiro', 'quantidade', 'percentual', 'inteiro'];
export const isNumeric = (type: ColumnType) => NUMERIC.includes(type);

const toNumber = (v: unknown): number | null =>
  typeof v === 'number' ? (Number.isFinite(v) ? v : null) : parseBRNumber(v == null ? null : String(v));

/** A cell's text by its column's type; an empty value is an empty cell. */
export function formatCell(type: ColumnType, value: unknown): string {
  if (value == null || value === '') return '';
  switch (type) {
    case 'dinheiro': {
      const cents = toCents(value);
      // No '-R$ 0,00' for a value that rounds to nothing.
      return formatMoney(cents === 0 ? 0 : cents / 100);
    }
    case 'quantidade': {
      const n = toNumber(value);
      return n == null ? String(value) : formatNumber(n, 4, 4);
    }
    case 'percentual': {
      const n = toNumber(value);
      return n == null ? String(value) : `${formatNumber(n, 2, 2)}%`;
    }
    case 'inteiro': {
      const n = toNumber(value);
      // Codes are integers too: no thousands separator.
      return n == null ? String(value) : String(Math.trunc(n));
    }
    case 'data':
      return formatDate(String(value));
    default:
      return String(value);
  }
}

/** Decimals a sum of the type is kept in (whole units of the last one). */
const DECIMALS: Record<ColumnType, number> = {
  dinheiro: 2,
  quantidade: 4,
  percentual: 4,
  inteiro: 0,
  data: 0,
  texto: 0,
};

/** A value in whole units of its type's last decimal (money: cents). */
function units(type: ColumnType, value: unknown): number {
  if (type === 'dinheiro') return toCents(value);
  const n = toNumber(value);
  if (n == null) return 0;
  // Through a fixed text, as toCents: binary floating point is not decimal.
  return Math.round(Number((n * 10 ** DECIMALS[type]).toFixed(6)));
}

/** The sum of a column over rows, as a number of the column's type. */
export function sumColumn(rows: ReportRow[], col: ReportColumn): number {
  const total = rows.reduce((acc, r) => acc + units(col.TIPO, r[col.CAMPO]), 0);
  return total / 10 ** DECIMALS[col.TIPO];
}

/**
 * The columns a group's subtotal sums: those the server totals (`totais`), else the money and
 * quantity ones (a percentage or a code summed means nothing).
 */
export function summedColumns(columns: ReportColumn[], totais: ReportRow): ReportColumn[] {
  const totalled = columns.filter((c) => isNumeric(c.TIPO) && c.CAMPO in totais);
  if (totalled.length) return totalled;
  return columns.filter((c) => c.TIPO === 'dinheiro' || c.TIPO === 'quantidade');
}

export interface RowGroup {
  key: string;
  value: unknown;
  rows: ReportRow[];
}

/** Rows grouped by `campo`, the groups in the order their first row comes. */
export function groupRows(rows: ReportRow[], campo: string): RowGroup[] {
  const groups = new Map<string, RowGroup>();
  for (const r of rows) {
    const value = r[campo];
    const key = value == null ? '' : String(value);
    const group = groups.get(key);
    if (group) group.rows.push(r);
    else groups.set(key, { key, value, rows: [r] });
  }
  return [...groups.values()];
}

/**
 * The columns of the monthly curve: the definition's other columns first, then the 13 months
 * labelled 'Jan'..'Dez', 'Total' (typed as the definition types them, money by default).
 */
export function monthlyColumns(columns: ReportColumn[]): { leading: ReportColumn[]; months: ReportColumn[] } {
  const leading = columns.filter((c) => !isMonthField(c.CAMPO));
  const typed = columns.find((c) => isMonthField(c.CAMPO))?.TIPO ?? 'dinheiro';
  const months = MONTH_LABELS.map((label, i) => {
    const campo = monthField(i + 1);
    const own = columns.find((c) => c.CAMPO === campo);
    return { CAMPO: campo, ROTULO: label, TIPO: own?.TIPO ?? typed };
  });
  return { leading, months };
}
