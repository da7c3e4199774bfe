// The accounting integration with Domínio (register `integracaodominio`, INTD_*: one
// configuration row per company): the company and its configuration (`dadosempresa`), saving
// the configuration (`configuracao`), and the two export files (POST
// /integracaodominio/enviarnotas/{emp} and /baixaparcela/{emp}), which take as long as the
// server needs: they are read with no timeout (spec §7.1, the long client).
import { useCallback, useMemo } from 'react';
import { reading, rowOf, type Reading, type Row } from '../../lib/api';
import type { FetchedFile } from '../../lib/rest';
import { postForFile } from '../../lib/restForms';
import { useCompanyId } from '../../lib/resources/useResourceData';
import { useRest } from './useSlipCalls';
import { useCallResult, useRegisterCall } from './useTitleCalls';

export const DOMINIO = 'integracaodominio';

/** The company as `dadosempresa` answers it. */
export type DominioCompany = Reading<'EMP_ID' | 'EMP_DESCRICAO' | 'EMP_FANTASIA' | 'EMP_CGC' | 'ENDERECO' | 'CIDADE'>;
/** The company's configuration: its row of the register. */
export type DominioConfig = Row<typeof DOMINIO>;

export interface DominioData {
  company: DominioCompany;
  config: DominioConfig | null;
}

/** What `dadosempresa` answers (no schema yet): the company, and its configuration row (null: none yet). */
export function dominioData(answer: unknown): DominioData {
  const a = reading<'EMPRESA' | 'CONFIGURACAO'>(answer);
  return { company: reading(a.EMPRESA), config: rowOf(DOMINIO, a.CONFIGURACAO) };
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
    async (config: DominioConfig): Promise<void> => {
      await call(DOMINIO, 'configuracao', { EMP_ID: emp }, config, [DOMINIO]);
      reload();
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
