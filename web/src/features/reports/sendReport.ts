// A report sent by e-mail or WhatsApp: the server runs it again (MENS_DOC_TIPO=relatorio, no id)
// with what MENS_DOC_REF names: the report (its NOME), the format and the filters of the call
// whose result the screen shows.
import { formatDate } from '../../lib/format';
import type { DocumentRef } from '../../lib/messaging';
import { PERIOD_END, PERIOD_START } from './filters';
import type { ReportDefinition } from './types';

/** The formats a sent report goes as: WhatsApp takes the PDF only. */
export type SentFormat = 'pdf' | 'xlsx';

/** What the server knows already: the company (MENS_EMP_ID) and the format (given apart). */
const NOT_FILTERS = new Set(['EMP_ID', 'FORMATO']);

/** 'Relatório de Vendas (01/11/2026 a 30/11/2026)': the title and the period, when it has one. */
export function reportLabel(def: ReportDefinition, body: Record<string, unknown>): string {
  const date = (v: unknown) => (typeof v === 'string' && v ? formatDate(v) : '');
  const [start, end] = [date(body[PERIOD_START]), date(body[PERIOD_END])];
  if (start && end) return `${def.TITULO} (${start} a ${end})`;
  if (start) return `${def.TITULO} (desde ${start})`;
  if (end) return `${def.TITULO} (até ${end})`;
  return def.TITULO;
}

/**
 * The report as a message's document: MENS_DOC_REF is {relatorio, FORMATO, ...the filters of
 * the call's body} (dates yyyy-MM-dd, an empty filter null, as the call sends them).
 */
export function reportDocument(def: ReportDefinition, body: Record<string, unknown>, format: SentFormat): DocumentRef {
  const filters = Object.fromEntries(Object.entries(body).filter(([name]) => !NOT_FILTERS.has(name)));
  return {
    kind: 'relatorio',
    label: reportLabel(def, body),
    ref: { relatorio: def.NOME, FORMATO: format, ...filters },
  };
}
