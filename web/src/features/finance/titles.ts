// The titles of the finance registers (receivables `contasreceber`, payables `contaspagar` and
// the payables settlement screen's `baixacontaspagar`): each side's columns by role (the
// customer or supplier, the dates, the amounts, the status) in a map the compiler checks
// against the register's generated row type, and their metadata (labels, references) for the
// screens' filters and forms. The list's filters
// (period, situation, person, bank) become the `where` of `resourceList`, and the list's
// totals and overdue rows are worked out here.
import type { FieldDescriptor, FormValues } from '../../components/fields/types';
import type { ColumnOf, ListWhere, Row } from '../../lib/api';
import { addDays, toApiDate, toCents } from '../../lib/format';
import { RANGE_FROM, RANGE_TO } from '../../lib/resources/listFilters';
import type { ResourceMeta } from '../../lib/resources/metaFields';

type FieldMeta = ResourceMeta['fields'][number];

/** Status codes of a title (services/finance: A aberto, P parcialmente pago, Q pago, C cancelado). */
export const OPEN_STATUSES = ['A', 'P'];
export const PAID_STATUS = 'Q';

/** The registers of titles: the receivables, the payables and the payables settlement screen's (the same rows). */
export type TitleRegister = 'contasreceber' | 'contaspagar' | 'baixacontaspagar';
/** A title as the server answers it: a row of one of the title registers. */
export type TitleRow = Row<TitleRegister>;

/** What the column of each role holds, on either side. */
interface RoleValues {
  key: number;
  /** The customer (receivables) or supplier (payables). */
  person: number;
  /** The person's name kept on the title (the register's label field). */
  personName: string;
  document: string;
  instalment: number;
  instalments: number;
  issued: string;
  due: string;
  /** What the title is worth. */
  value: number;
  paid: number;
  balance: number;
  status: string;
  bank: number;
  method: number;
}
export type TitleRole = keyof RoleValues;

/** A side's column of each role: the compiler checks each name, and what it holds, against the register's row. */
type SideColumns<R extends TitleRegister> = { readonly [K in TitleRole]: ColumnOf<Row<R>, RoleValues[K]> };

/** The receivables' columns (`contasreceber`, CRCB_*). */
export const RECEIVABLE_COLUMNS = {
  key: 'CRCB_ID',
  person: 'CRCB_CLI_ID',
  personName: 'CLI_DESCRICAO',
  document: 'CRCB_DOCUMENTO',
  instalment: 'CRCB_PARCELA',
  instalments: 'CRCB_QTD_PARCELAS',
  issued: 'CRCB_DTA_EMIS',
  due: 'CRCB_DTA_VCTO',
  value: 'CRCB_VLR_CTA',
  paid: 'CRCB_VLR_PAGO',
  balance: 'SALDO',
  status: 'CRCB_SITUACAO',
  bank: 'CRCB_BCO_ID',
  method: 'CRCB_FRMP_ID',
} as const satisfies SideColumns<'contasreceber'>;

/** The payables' columns (`contaspagar` and `baixacontaspagar`, CMPD_*). */
export const PAYABLE_COLUMNS = {
  key: 'CMPD_ID',
  person: 'CMPD_COMP_FORN_ID',
  personName: 'FORN_DESCRICAO',
  document: 'CMPD_DOCUMENTO',
  instalment: 'CMPD_PARCELA',
  instalments: 'CMPD_QTD_PARCELAS',
  issued: 'CMPD_DTA_EMIS',
  due: 'CMPD_DTA_VCTO',
  value: 'CMPD_VLR_TITULO',
  paid: 'CMPD_VLR_PAGO',
  balance: 'SALDO',
  status: 'CMPD_SITUACAO',
  bank: 'CMPD_BCO_ID',
  method: 'CMPD_FRMP_ID',
} as const satisfies SideColumns<'contaspagar'> & SideColumns<'baixacontaspagar'>;

const SIDES = {
  contasreceber: RECEIVABLE_COLUMNS,
  contaspagar: PAYABLE_COLUMNS,
  baixacontaspagar: PAYABLE_COLUMNS,
} as const satisfies { [R in TitleRegister]: SideColumns<R> };

/** One side's columns by role. */
export type TitleNames = (typeof SIDES)[TitleRegister];

const isTitleRegister = (name: string): name is TitleRegister => Object.hasOwn(SIDES, name);

/** A title register's columns (its side's), and the metadata of the fields its screens show or ask for. */
export interface TitleColumns {
  register: TitleRegister;
  names: TitleNames;
  /** CRCB_ID, CMPD_ID. */
  key: TitleNames['key'];
  /** The customer or supplier: its label and the register it references (the filters ask for it). */
  person: FieldMeta;
  personName: TitleNames['personName'];
  document: TitleNames['document'];
  instalment: TitleNames['instalment'];
  instalments: TitleNames['instalments'];
  issued: FieldMeta;
  due: FieldMeta;
  value: FieldMeta;
  paid: TitleNames['paid'];
  balance: TitleNames['balance'];
  status: FieldMeta;
  bank: FieldMeta | null;
  method: FieldMeta | null;
}

/**
 * The columns of a title register (RECEIVABLE_COLUMNS, PAYABLE_COLUMNS) with their metadata,
 * or null when the register holds no titles or its metadata lacks a field the screens need
 * (the person, the dates, the value, the status).
 */
export function titleColumns(meta: ResourceMeta): TitleColumns | null {
  if (!isTitleRegister(meta.name)) return null;
  const names = SIDES[meta.name];
  const field = (name: string) => meta.fields.find((f) => f.name === name) ?? null;
  const person = field(names.person);
  const issued = field(names.issued);
  const due = field(names.due);
  const value = field(names.value);
  const status = field(names.status);
  if (!person || !issued || !due || !value || !status) return null;
  return {
    register: meta.name,
    names,
    key: names.key,
    person,
    personName: names.personName,
    document: names.document,
    instalment: names.instalment,
    instalments: names.instalments,
    issued,
    due,
    value,
    paid: names.paid,
    balance: names.balance,
    status,
    bank: field(names.bank),
    method: field(names.method),
  };
}

/**
 * What a title holds in the column of `role`. Each side's columns are checked against its
 * row type (SideColumns), so the column of `role` holds RoleValues[role] on either side.
 */
export function titleValue<K extends TitleRole>(
  row: TitleRow,
  cols: Pick<TitleColumns, 'names'>,
  role: K,
): RoleValues[K] | null | undefined {
  return (row as { readonly [C in TitleNames[K]]?: RoleValues[K] | null })[cols.names[role]];
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
export const isOpen = (row: TitleRow, cols: TitleColumns) =>
  OPEN_STATUSES.includes(titleValue(row, cols, 'status') ?? '');

/** Open (or partly paid) and due before `today` (yyyy-MM-dd). */
export function isOverdue(row: TitleRow, cols: TitleColumns, today: string): boolean {
  const due = day(titleValue(row, cols, 'due'));
  return isOpen(row, cols) && due !== '' && due < today;
}

/** 'Parcela 2/3', or '' when the title keeps no instalment. */
export function instalmentText(row: TitleRow, cols: TitleColumns): string {
  const instalment = titleValue(row, cols, 'instalment');
  if (instalment == null) return '';
  const count = titleValue(row, cols, 'instalments');
  return `${instalment}${count != null ? `/${count}` : ''}`;
}

/** How a title is named on screen: 'Título 12 (Doc. 40/1, parcela 1/3)'. */
export function titleName(row: TitleRow, cols: TitleColumns): string {
  const document = titleValue(row, cols, 'document');
  const parts = [
    document ? `Doc. ${document}` : '',
    instalmentText(row, cols) ? `parcela ${instalmentText(row, cols)}` : '',
  ].filter(Boolean);
  return `Título ${String(titleValue(row, cols, 'key'))}${parts.length ? ` (${parts.join(', ')})` : ''}`;
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
export function titleWhere(cols: TitleColumns, values: FormValues, today: string): ListWhere | null {
  const where: ListWhere = {};
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
export function titleTotals(rows: TitleRow[], cols: TitleColumns, today: string): TitleTotals {
  const totals: TitleTotals = { count: rows.length, value: 0, paid: 0, balance: 0, overdue: 0 };
  for (const r of rows) {
    totals.value += toCents(titleValue(r, cols, 'value'));
    totals.paid += toCents(titleValue(r, cols, 'paid'));
    const balance = toCents(titleValue(r, cols, 'balance'));
    totals.balance += balance;
    if (isOverdue(r, cols, today)) totals.overdue += balance;
  }
  return totals;
}
