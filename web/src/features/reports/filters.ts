// A definition's FILTROS as the shared form's fields (the generic forms' date, combobox,
// autocomplete, text and number fields, their required rule and message), the values they
// start with, and the body of the report call built from what the user chose.
import type { FieldDescriptor, FormValues, GroupDescriptor } from '../../components/fields/types';
import { formatDate, parseBRNumber, toApiDate } from '../../lib/format';
import { monthPeriod } from '../../lib/period';
import type { OptionValue, ReportDefinition, ReportFilter, ReportFormat } from './types';

export const PERIOD_START = 'DATA_INI';
export const PERIOD_END = 'DATA_FIM';

/** Registers short enough to list whole in a combobox; any other is searched as the user types. */
const SHORT_REGISTERS = new Set([
  'banco',
  'bancos',
  'grupo',
  'grupos',
  'subgrupo',
  'subgrupos',
  'gruposervico',
  'gruposservico',
  'setoresservico',
  'setorservico',
  'formaspagamento',
  'condicoesvencimento',
  'unidades',
  'locais',
  'marcaprodutos',
  'historicopadrao',
  'gruposhistoricopadrao',
  'tiposservico',
  'estados',
  'paises',
]);

/**
 * The filters the form shows: the definition's, with the period (DATA_INI, DATA_FIM: every
 * report call carries it) first when the definition does not list it, required.
 */
export function reportFilters(def: ReportDefinition): ReportFilter[] {
  const has = (campo: string) => def.FILTROS.some((f) => f.CAMPO === campo);
  const period: ReportFilter[] = [
    ...(has(PERIOD_START)
      ? []
      : [{ CAMPO: PERIOD_START, ROTULO: 'Data inicial', TIPO: 'data', OBRIGATORIO: true } as const]),
    ...(has(PERIOD_END) ? [] : [{ CAMPO: PERIOD_END, ROTULO: 'Data final', TIPO: 'data', OBRIGATORIO: true } as const]),
  ];
  return [...period, ...def.FILTROS];
}

/** The start of the period a date filter ending in FIM closes ('DATA_FIM' -> 'DATA_INI'), if shown. */
function periodStartOf(campo: string, filters: ReportFilter[]): string | null {
  if (!/FIM$/i.test(campo)) return null;
  const start = campo.replace(/FIM$/i, (m) => (m === 'FIM' ? 'INI' : 'ini'));
  return filters.some((f) => f.CAMPO === start && f.TIPO === 'data') ? start : null;
}

const optionKey = (v: OptionValue) => String(v);

export function filterField(f: ReportFilter, filters: ReportFilter[]): FieldDescriptor {
  const base = { name: f.CAMPO, text: f.ROTULO, required: f.OBRIGATORIO, width: 3 };
  switch (f.TIPO) {
    case 'data': {
      const start = periodStartOf(f.CAMPO, filters);
      return {
        ...base,
        type: 'DATE',
        ...(start
          ? {
              compare: {
                field: start,
                relation: 'gte',
                message: 'A data final deve ser igual ou posterior à inicial.',
              },
            }
          : {}),
      };
    }
    case 'referencia': {
      const register = f.REGISTRO;
      // A reference to no register is typed (its id).
      if (!register) return { ...base, type: 'TEXT' };
      const short = SHORT_REGISTERS.has(register.toLowerCase());
      return { ...base, type: short ? 'COMBOBOX' : 'AUTOCOMPLETE', reference: register, width: short ? 3 : 6 };
    }
    case 'opcoes':
      return {
        ...base,
        type: 'COMBOBOX',
        options: (f.OPCOES ?? []).map(([value, text]) => ({ value: optionKey(value), text })),
      };
    case 'inteiro':
      return { ...base, type: 'NUMBER' };
    default:
      return { ...base, type: 'TEXT' };
  }
}

/** The form's one group of fields. */
export function filterGroups(def: ReportDefinition): GroupDescriptor[] {
  const filters = reportFilters(def);
  return [{ fields: filters.map((f) => filterField(f, filters)) }];
}

/** A date filter's PADRAO as the field shows it (yyyy-MM-dd or dd/MM/yyyy accepted). */
function dateDefault(padrao: string | undefined): string | null {
  if (!padrao) return null;
  if (/^\d{4}-\d{2}-\d{2}/.test(padrao)) return formatDate(padrao);
  return /^\d{2}\/\d{2}\/\d{4}$/.test(padrao) ? padrao : null;
}

/**
 * What the form starts with: each PADRAO; a date filter without one that opens a period (…INI)
 * the first day of this month, one that closes it (…FIM) the last day.
 */
export function initialValues(def: ReportDefinition, today?: string): FormValues {
  const month = monthPeriod(today);
  return Object.fromEntries(
    reportFilters(def).map((f) => {
      if (f.TIPO !== 'data') return [f.CAMPO, f.PADRAO ?? ''];
      const given = dateDefault(f.PADRAO);
      if (given) return [f.CAMPO, given];
      if (/INI$/i.test(f.CAMPO)) return [f.CAMPO, formatDate(month.DATA_INI)];
      if (/FIM$/i.test(f.CAMPO)) return [f.CAMPO, formatDate(month.DATA_FIM)];
      return [f.CAMPO, ''];
    }),
  );
}

/** One filter's value as the call takes it; an empty one is null. */
function filterValue(f: ReportFilter, raw: unknown): unknown {
  const s = raw == null ? '' : String(raw).trim();
  if (s === '') return null;
  switch (f.TIPO) {
    case 'data':
      return toApiDate(s);
    case 'inteiro': {
      const n = parseBRNumber(s);
      return n == null ? null : Math.trunc(n);
    }
    case 'referencia':
      // Ids of digits are numbers, as the registers keep them.
      return /^\d+$/.test(s) && s.length < 16 ? Number(s) : s;
    case 'opcoes': {
      const option = (f.OPCOES ?? []).find(([value]) => optionKey(value) === s);
      return option ? option[0] : s;
    }
    default:
      return s;
  }
}

/** The report call's body: the company, every filter by its CAMPO (dates yyyy-MM-dd) and the format. */
export function reportBody(
  def: ReportDefinition,
  values: FormValues,
  emp: number,
  format: ReportFormat,
): Record<string, unknown> {
  const body: Record<string, unknown> = { EMP_ID: emp };
  for (const f of reportFilters(def)) body[f.CAMPO] = filterValue(f, values[f.CAMPO]);
  body.FORMATO = format;
  return body;
}
