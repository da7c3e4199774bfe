// The titles of the finance registers (receivables `contasreceber`, payables `contaspagar` and
// the payables settlement screen's `baixacontaspagar`), read from their metadata: which field
// is the customer or supplier, the dates, the amounts and the status. The list's filters
// (period, situation, person, bank) become the `where` of `resourceList`, and the list's
// totals and overdue rows are worked out here.
import type { FieldDescriptor, FormValues } from '../../components/fields/types';
import type { Row } from '../../components/tables/types';
import { addDays, toApiDate, toCents } from '../../lib/format';
import { RANGE_FROM, RANGE_TO } from '../../lib/resources/listFilters';
import type { ResourceMeta } from '../../lib/resources/metaFields';

type FieldMeta = ResourceMeta['fields'][number];

/** Status codes of a title (services/finance: A aberto, P parcialmente pago, Q pago, C cancelado). */
export const OPEN_STATUSES = ['A', 'P'];
export const PAID_STATUS = 'Q';

/** The fields of a title register, by their role. */
export interface TitleColumns {
  /** CRCB_ID, CMPD_ID. */
  key: string;
  /** The customer (receivables) or supplier (payables): a required autocomplete reference. */
  person: FieldMeta;
  /** The person's name kept on the title (the register's label field). */
  personName: string;
  document: string | null;
  instalment: string | null;
  instalments: string | null;
  issued: FieldMeta;
  due: FieldMeta;
  /** What the title is worth (its first required money field). */
  value: FieldMeta;
  paid: string;
  balance: string;
  status: FieldMeta;
  bank: FieldMeta | null;
  method: FieldMeta | null;
}

/**
 * The roles of a title register's fields, or null when the metadata is not a title's. The
 * legacy names share a prefix with the key (CRCB_ID: CRCB_DTA_VCTO, CRCB_SITUACAO...); the
 * person, the value, the bank and the method are found by kind and reference.
 */
export function titleColumns(meta: ResourceMeta): TitleColumns | null {
  const key = meta.key.length === 1 ? meta.key[0] : null;
  if (!key) return null;
  const prefix = key.replace(/_ID$/, '');
  const byName = (suffix: string) => meta.fields.find((f) => f.name === `${prefix}_${suffix}`) ?? null;
  const person = meta.fields.find((f) => f.reference && f.kind === 'AUTOCOMPLETE' && f.required);
  const issued = byName('DTA_EMIS');
  const due = byName('DTA_VCTO');
  const value = meta.fields.find((f) => f.kind === 'MONEY' && f.required);
  const paid = byName('VLR_PAGO');
  const balance = meta.fields.find((f) => f.name === 'SALDO');
  const status = byName('SITUACAO');
  if (!person || !issued || !due || !value || !paid || !balance || !status) return null;
  return {
    key,
    person,
    personName: meta.labelField,
    document: byName('DOCUMENTO')?.name ?? null,
    instalment: byName('PARCELA')?.name ?? null,
    instalments: byName('QTD_PARCELAS')?.name ?? null,
    issued,
    due,
    value,
    paid: paid.name,
    balance: balance.name,
    status,
    bank: meta.fields.find((f) => f.reference === 'banco') ?? null,
    method: meta.fields.find((f) => f.reference === 'formapagamento') ?? null,
  };
}

/**
 * The metadata a title list is drawn from: the register's, but the person's id is left out of
 * the list when the name kept on the title (the label column) is listed: its text repeats it.
 */
export function titleListMeta(meta: ResourceMeta, cols: TitleColumns): ResourceMeta {
  const named = meta.fields.some((f) => f.name === cols.personName && f.inList);
  if (!named) return meta;
  return { ...meta, fields: meta.fields.map((f) => (f.name === cols.person.name ? { ...f, inList: false } : f)) };
}

const day = (v: unknown) => (v == null ? '' : String(v).slice(0, 10));
export const isOpen = (row: Row, cols: TitleColumns) => OPEN_STATUSES.includes(String(row[cols.status.name] ?? ''));

/** Open (or partly paid) and due before `today` (yyyy-MM-dd). */
export function isOverdue(row: Row, cols: TitleColumns, today: string): boolean {
  const due = day(row[cols.due.name]);
  return isOpen(row, cols) && due !== '' && due < today;
}

/** 'Parcela 2/3', or '' when the register keeps no instalment. */
export function instalmentText(row: Row, cols: TitleColumns): string {
  if (!cols.instalment || row[cols.instalment] == null) return '';
  const count = cols.instalments ? row[cols.instalments] : null;
  return `${String(row[cols.instalment])}${count != null ? `/${String(count)}` : ''}`;
}

/** How a title is named on screen: 'Título 12 (Doc. 40/1, parcela 1/3)'. */
export function titleName(row: Row, cols: TitleColumns): string {
  const parts = [
    cols.document && row[cols.document] ? `Doc. ${String(row[cols.document])}` : '',
    instalmentText(row, cols) ? `parcela ${instalmentText(row, cols)}` : '',
  ].filter(Boolean);
  return `Título ${String(row[cols.key])}${parts.length ? ` (${parts.join(', ')})` : ''}`;
}

// ------------------------------------------------------------------------------ filters

/** The situations the list filters by. */
export const SITUATIONS = [
  { value: 'avencer', text: 'A vencer' },
  { value: 'vencidas', text: 'Vencidas' },
  { value: 'pagas', text: 'Pagas' },
  { value: 'todas', text: 'Todas' },
] as const;
export type Situation = (typeof SITUATIONS)[number]['value'];

/** Filter field names of the list (the person and bank filters take their field's name). */
export const FILTER = {
  period: 'PERIODO',
  from: 'DATA_INI',
  to: 'DATA_FIM',
  situation: 'SITUACAO',
} as const;

/** Which date the period bounds. */
export const PERIODS = [
  { value: 'V', text: 'Vencimento' },
  { value: 'E', text: 'Emissão' },
];

export function titleFilterFields(cols: TitleColumns): FieldDescriptor[] {
  const fields: FieldDescriptor[] = [
    { name: FILTER.period, type: 'COMBOBOX', text: 'Período por', options: PERIODS, width: 2 },
    { name: FILTER.from, type: 'DATE', text: 'De', width: 2 },
    {
      name: FILTER.to,
      type: 'DATE',
      text: 'Até',
      width: 2,
      compare: { field: FILTER.from, relation: 'gte', message: 'A data final deve ser igual ou posterior à inicial.' },
    },
    {
      name: cols.person.name,
      type: 'AUTOCOMPLETE',
      text: cols.person.label,
      reference: cols.person.reference,
      width: 3,
    },
  ];
  if (cols.bank) {
    fields.push({
      name: cols.bank.name,
      type: 'COMBOBOX',
      text: cols.bank.label,
      reference: cols.bank.reference,
      width: 3,
    });
  }
  fields.push({ name: FILTER.situation, type: 'SITUATION', text: 'Situação', options: [...SITUATIONS], width: 12 });
  return fields;
}

/** What the filters start with: every situation, the period by due date, no dates. */
export const initialFilter = (): FormValues => ({ [FILTER.period]: 'V', [FILTER.situation]: 'todas' });

const later = (a: string | null, b: string) => (a && a > b ? a : b);
const earlier = (a: string | null, b: string) => (a && a < b ? a : b);
const idValue = (v: string) => (/^\d+$/.test(v) && v.length < 16 ? Number(v) : v);

/**
 * The `where` of the filled filters (null when none narrows the list), `today` being
 * yyyy-MM-dd. The period bounds the due or the issue date (only real dd/MM/yyyy dates count).
 * 'A vencer' is open titles due from today on, 'Vencidas' open titles due before today: both
 * narrow the due-date range the period may already set. 'Pagas' is the paid status; 'Todas'
 * adds nothing.
 */
export function titleWhere(cols: TitleColumns, values: FormValues, today: string): Record<string, unknown> | null {
  const where: Record<string, unknown> = {};
  const text = (name: string) => (values[name] == null ? '' : String(values[name]).trim());
  const dateField = text(FILTER.period) === 'E' ? cols.issued.name : cols.due.name;
  const from = toApiDate(text(FILTER.from));
  const to = toApiDate(text(FILTER.to));
  if (from) where[`${dateField}${RANGE_FROM}`] = from;
  if (to) where[`${dateField}${RANGE_TO}`] = to;
  const dueFrom = `${cols.due.name}${RANGE_FROM}`;
  const dueTo = `${cols.due.name}${RANGE_TO}`;
  switch (text(FILTER.situation) as Situation) {
    case 'avencer':
      where[cols.status.name] = OPEN_STATUSES;
      where[dueFrom] = later(where[dueFrom] as string | null, today);
      break;
    case 'vencidas':
      where[cols.status.name] = OPEN_STATUSES;
      where[dueTo] = earlier(where[dueTo] as string | null, addDays(today, -1));
      break;
    case 'pagas':
      where[cols.status.name] = PAID_STATUS;
      break;
    default:
      break;
  }
  const person = text(cols.person.name);
  if (person) where[cols.person.name] = idValue(person);
  const bank = cols.bank ? text(cols.bank.name) : '';
  if (cols.bank && bank) where[cols.bank.name] = idValue(bank);
  return Object.keys(where).length > 0 ? where : null;
}

// ------------------------------------------------------------------------------ totals

export interface TitleTotals {
  count: number;
  /** Cents. */
  value: number;
  paid: number;
  balance: number;
  overdue: number;
}

/** What the rows add up to, in cents (sums of the value, paid and balance columns). */
export function titleTotals(rows: Row[], cols: TitleColumns, today: string): TitleTotals {
  const totals: TitleTotals = { count: rows.length, value: 0, paid: 0, balance: 0, overdue: 0 };
  for (const r of rows) {
    totals.value += toCents(r[cols.value.name]);
    totals.paid += toCents(r[cols.paid]);
    const balance = toCents(r[cols.balance]);
    totals.balance += balance;
    if (isOverdue(r, cols, today)) totals.overdue += balance;
  }
  return totals;
}
