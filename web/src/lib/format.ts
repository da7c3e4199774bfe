// pt-BR presentation: money R$ with 2 decimals, quantities up to 4 decimals,
// dates dd/MM/yyyy on screen and yyyy-MM-dd for the API.

const NBSP = /\u00a0/g;

const money = new Intl.NumberFormat('pt-BR', {
  style: 'currency',
  currency: 'BRL',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

export function formatMoney(value: number | string | null | undefined): string {
  const n = typeof value === 'string' ? Number(value) : value;
  return money.format(n == null || Number.isNaN(n) ? 0 : n).replace(NBSP, ' ');
}

export function formatNumber(value: number | null | undefined, minDecimals = 0, maxDecimals = 4): string {
  if (value == null || Number.isNaN(value)) return '';
  return new Intl.NumberFormat('pt-BR', {
    minimumFractionDigits: minDecimals,
    maximumFractionDigits: maxDecimals,
  }).format(value);
}

export const formatQuantity = (value: number | null | undefined) => formatNumber(value, 0, 4);

/** '1.234,56' -> 1234.56; also accepts a plain '1234.56'. Empty or garbage -> null. */
export function parseBRNumber(text: string | number | null | undefined): number | null {
  if (text == null) return null;
  if (typeof text === 'number') return Number.isNaN(text) ? null : text;
  let s = text.replace(/R\$/g, '').replace(/\s/g, '');
  if (s === '') return null;
  if (s.includes(',')) s = s.replace(/\./g, '').replace(',', '.');
  const n = Number(s);
  return Number.isNaN(n) ? null : n;
}

export function isRealDate(day: number, month: number, year: number): boolean {
  if (month < 1 || month > 12 || day < 1 || year < 1) return false;
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

/** 'dd/MM/yyyy' -> 'yyyy-MM-dd', or null when it is not a real date. */
export function toApiDate(screen: string): string | null {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(screen.trim());
  if (!m) return null;
  const [, dd, mm, yyyy] = m;
  if (!isRealDate(Number(dd), Number(mm), Number(yyyy))) return null;
  return `${yyyy}-${mm}-${dd}`;
}

/** 'yyyy-MM-dd' (optionally with a time part) -> 'dd/MM/yyyy'; other input is returned as is. */
export function formatDate(api: string | null | undefined): string {
  if (!api) return '';
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(api);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : api;
}

/** A server timestamp (RFC 3339, UTC) as dd/MM/yyyy HH:mm in the browser's time zone;
 * anything else unchanged. */
export function formatTimestamp(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return value;
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getDate())}/${p(d.getMonth() + 1)}/${d.getFullYear()} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** A day of the browser's calendar as the API writes it (yyyy-MM-dd); today by default. */
export function apiDateOf(d: Date = new Date()): string {
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())}`;
}

/** yyyy-MM-dd moved by whole days (calendar arithmetic, no time zone). */
export function addDays(api: string, days: number): string {
  const [y, m, d] = api.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d + days));
  return `${t.getUTCFullYear()}-${pad2(t.getUTCMonth() + 1)}-${pad2(t.getUTCDate())}`;
}

/** Money as whole cents (what sums without float drift): 12.345 -> 1235; empty or garbage -> 0. */
export function toCents(value: unknown): number {
  const n = typeof value === 'number' ? value : parseBRNumber(value == null ? null : String(value));
  // Through a fixed text: 1.005 * 100 is 100.49999999999999 in binary floating point.
  return n == null || Number.isNaN(n) ? 0 : Math.round(Number((n * 100).toFixed(6)));
}

/** Cents as the API's money text: 1235 -> '12.35'. */
export const centsToApi = (cents: number) => (cents / 100).toFixed(2);

/** Cents as the form's money text: 123456 -> '1.234,56'. */
export const centsToField = (cents: number) => formatNumber(cents / 100, 2, 2);
