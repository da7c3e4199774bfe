// Fields the finance screens ask for again and again: a bank account (the `banco` register's
// options), a period, and the money and date shapes of the screen and of the API.
import type { FieldDescriptor } from '../../components/fields/types';
import { apiDateOf, formatDate, formatMoney, toCents } from '../../lib/format';

/** The register of the company's bank accounts and cashboxes. */
export const BANKS = 'banco';

/** A bank account combobox (its options are the `banco` register's rows). */
export const bankField = (over: Partial<FieldDescriptor> & { name?: string } = {}): FieldDescriptor => ({
  name: 'BCO_ID',
  type: 'COMBOBOX',
  text: 'Conta bancária',
  reference: BANKS,
  width: 6,
  ...over,
});

/** 'DATA_INI' and 'DATA_FIM': a period, the end not before the start. */
export const periodFields = (width = 3): FieldDescriptor[] => [
  { name: 'DATA_INI', type: 'DATE', text: 'Data inicial', width },
  {
    name: 'DATA_FIM',
    type: 'DATE',
    text: 'Data final',
    width,
    compare: { field: 'DATA_INI', relation: 'gte', message: 'A data final deve ser igual ou posterior à inicial.' },
  },
];

/** The first day of `today`'s month, yyyy-MM-dd. */
export const monthStart = (today: string = apiDateOf()) => `${today.slice(0, 8)}01`;

/** The current month so far, as the period fields show it (dd/MM/yyyy). */
export const thisMonth = (today: string = apiDateOf()) => ({
  DATA_INI: formatDate(monthStart(today)),
  DATA_FIM: formatDate(today),
});

/** Money of the API (a number or '123.45') as the screen shows it: 'R$ 1.234,56'. */
export const money = (v: unknown) => formatMoney(toCents(v) / 100);

/** An id typed in a combobox as the API keeps it: digits are a number. */
export const idValue = (v: unknown): string | number | null => {
  const s = v == null ? '' : String(v).trim();
  if (s === '') return null;
  return /^\d+$/.test(s) && s.length < 16 ? Number(s) : s;
};
