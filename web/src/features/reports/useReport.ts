// The report call: POST {CAMINHO} with the filters and the format. A report may take as long
// as the server needs (spec §7.1: the reports client has no timeout). JSON answers its rows, or
// 204 when the period has none; 'pdf' and 'xlsx' answer the file (its name from
// Content-Disposition), or 204 too.
import { useApolloClient } from '@apollo/client';
import { useCallback } from 'react';
import { RestError, type FetchedFile } from '../../lib/rest';
import { isNoContent, postForFile, requestJson } from '../../lib/restForms';
import { parseResult, type ReportDefinition, type ReportFormat, type ReportResult } from './types';

export const PDF_TYPES = ['application/pdf'];
export const XLSX_TYPES = [
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-excel',
  'application/octet-stream',
];

export type ReportAnswer =
  { format: 'json'; result: ReportResult | null } | { format: 'pdf' | 'xlsx'; file: FetchedFile | null };

export function useReportCall() {
  const client = useApolloClient();
  return useCallback(
    async (def: ReportDefinition, body: Record<string, unknown>, format: ReportFormat): Promise<ReportAnswer> => {
      try {
        if (format === 'json') {
          return { format, result: parseResult(await requestJson(def.CAMINHO, { json: body, timeoutMs: null })) };
        }
        const file = await postForFile(def.CAMINHO, body, {
          fallbackName: `${def.NOME}.${format}`,
          types: format === 'pdf' ? PDF_TYPES : XLSX_TYPES,
          timeoutMs: null,
        });
        return { format, file };
      } catch (e) {
        if (format !== 'json' && isNoContent(e)) return { format, file: null };
        // The session ended: what the cache holds was the user's.
        if (e instanceof RestError && e.status === 401) void client.clearStore();
        throw e;
      }
    },
    [client],
  );
}
