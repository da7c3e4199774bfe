// The accounting integration with Domínio (register `integracaodominio`, INTD_*: one
// configuration row per company): the company and its configuration (`dadosempresa`), saving
// the configuration (`configuracao`), and the two export files (POST
// /integracaodominio/enviarnotas/{emp} and /baixaparcela/{emp}), which take as long as the
// server needs: they are read with no timeout (spec §7.1, the long client).
import { useCallback, useMemo } from 'react';
import type { Row } from '../../components/tables/types';
import type { FetchedFile } from '../../lib/rest';
import { postForFile } from '../../lib/restForms';
import { useCompanyId } from '../../lib/resources/useResourceData';
import { useRest } from './useSlipCalls';
import { useCallResult, useRegisterCall } from './useTitleCalls';

export const DOMINIO = 'integracaodominio';

export interface DominioData {
  company: Row;
  config: Row | null;
}

export function dominioData(answer: unknown): DominioData {
  const a = (answer ?? {}) as Row;
  const config = a.CONFIGURACAO;
  return {
    company: (a.EMPRESA && typeof a.EMPRESA === 'object' ? a.EMPRESA : {}) as Row,
    config: config && typeof config === 'object' ? (config as Row) : null,
  };
}

/** The two export files: the invoices, and the instalments settled. */
export const EXPORTS = {
  notas: { path: 'enviarnotas', label: 'Exportar notas', file: 'notas' },
  baixas: { path: 'baixaparcela', label: 'Exportar baixas', file: 'baixas' },
} as const;
export type ExportKind = keyof typeof EXPORTS;

export function useDominio() {
  const call = useRegisterCall();
  const emp = useCompanyId();
  const rest = useRest();
  const read = useMemo(() => async () => dominioData(await call(DOMINIO, 'dadosempresa', { id: emp })), [call, emp]);
  const result = useCallResult(read);
  const { reload } = result;

  const save = useCallback(
    async (config: Row): Promise<Row> => {
      const saved = (await call(DOMINIO, 'configuracao', { EMP_ID: emp }, { ...config, INTD_EMP_ID: emp }, [
        DOMINIO,
      ])) as Row | null;
      reload();
      return saved ?? {};
    },
    [call, emp, reload],
  );

  const exportFile = useCallback(
    (kind: ExportKind, period: { DATA_INI: string; DATA_FIM: string }): Promise<FetchedFile> => {
      const e = EXPORTS[kind];
      return rest(() =>
        postForFile(`/${DOMINIO}/${e.path}/${emp}`, period, {
          fallbackName: `${e.file}-${period.DATA_INI}-${period.DATA_FIM}.txt`,
          types: ['text/', 'application/octet-stream', 'application/zip'],
          timeoutMs: null,
        }),
      );
    },
    [emp, rest],
  );

  return { ...result, save, exportFile };
}
