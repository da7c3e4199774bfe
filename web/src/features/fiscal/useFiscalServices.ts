// The calls of a company's fiscal services (register `empresasservicos`): its metadata (the
// register has no screen of its own: read by name), its settings row (`filtro`), saving them
// (`salvar`), sending one document type's to the Nuvem Fiscal (`nuvemfiscal`), registering the
// company there (`cadastrarnuvemfiscal`), and the A1 certificate: the upload (REST multipart PUT)
// and its removal (`excluircertificado`). Each write reads the settings again.
import { useApolloClient, useQuery } from '@apollo/client';
import { useCallback, useMemo } from 'react';
import type { Row } from '../../components/tables/types';
import { RestError } from '../../lib/rest';
import { postForm } from '../../lib/restForms';
import { ResourceMetaDocument } from '../../lib/resources/documents';
import type { ResourceMeta } from '../../lib/resources/metaFields';
import { useCallResult, useRegisterCall } from '../../lib/resources/registerCalls';
import { SERVICES } from './services';

/** What a provider call answers: its message, and what went wrong without failing the call. */
export interface CallAnswer {
  msg: string;
  notice: string | null;
  row: Row | null;
}

function callAnswer(v: unknown, fallback: string): CallAnswer {
  const a = (v && typeof v === 'object' && !Array.isArray(v) ? v : {}) as Row;
  return {
    msg: typeof a.msg === 'string' && a.msg ? a.msg : fallback,
    notice: typeof a.aviso === 'string' && a.aviso ? a.aviso : null,
    row: 'EMPS_EMP_ID' in a || 'EMPS_CPF_CNPJ' in a ? a : null,
  };
}

/** The register's metadata: from resourceMetas when listed, else read by its name. */
export function useServicesMeta(metas: ResourceMeta[]) {
  const listed = metas.find((m) => m.name === SERVICES);
  const { data, loading, error } = useQuery(ResourceMetaDocument, {
    skip: listed !== undefined,
    variables: { name: SERVICES },
    fetchPolicy: 'cache-first',
  });
  const meta = listed ?? (data?.resourceMeta as ResourceMeta | undefined);
  return { meta, loading: loading && !meta, error: meta ? undefined : error };
}

/** The settings of company `emp` (the company on screen, not necessarily the session's). */
export function useFiscalServices(emp: number, userId: number) {
  const client = useApolloClient();
  const call = useRegisterCall();
  const read = useMemo(
    () => async (): Promise<Row | null> => {
      const rows = await call(SERVICES, 'filtro', { emp });
      return Array.isArray(rows) && rows.length > 0 ? (rows[0] as Row) : null;
    },
    [call, emp],
  );
  const settings = useCallResult(read);
  const { reload } = settings;

  const save = useCallback(
    async (row: Row): Promise<CallAnswer> => {
      const answer = callAnswer(
        await call(SERVICES, 'salvar', { emp }, row, [SERVICES]),
        'Registro salvo com sucesso!',
      );
      reload();
      return answer;
    },
    [call, emp, reload],
  );

  /** Saves the settings the body carries, then sends document type `tipo`'s to the provider. */
  const push = useCallback(
    async (tipo: string, document: string, row: Row): Promise<CallAnswer> => {
      const answer = callAnswer(
        await call(SERVICES, 'nuvemfiscal', { emp, TIPO: tipo, EMP_CGC: document }, row, [SERVICES]),
        'Configuração enviada à Nuvem Fiscal.',
      );
      reload();
      return answer;
    },
    [call, emp, reload],
  );

  /** The company at the provider, from the company register's row (EMP_*). */
  const register = useCallback(
    async (company: Row): Promise<CallAnswer> => {
      const answer = callAnswer(
        await call(SERVICES, 'cadastrarnuvemfiscal', { emp }, company, [SERVICES]),
        'Empresa cadastrada na Nuvem Fiscal.',
      );
      reload();
      return answer;
    },
    [call, emp, reload],
  );

  const upload = useCallback(
    async (file: File, password: string, document: string): Promise<CallAnswer> => {
      try {
        const answer = await postForm(
          `/${SERVICES}/certificado/uploads/${emp}`,
          file,
          { EMPS_EMP_ID: emp, EMPS_USR_ID: userId, SENHA: password, CPF_CNPJ: document },
          { method: 'PUT' },
        );
        return callAnswer(answer, 'Certificado digital salvo com sucesso.');
      } catch (e) {
        if (e instanceof RestError && e.status === 401) void client.clearStore();
        throw e;
      } finally {
        reload();
      }
    },
    [client, emp, userId, reload],
  );

  const removeCertificate = useCallback(
    async (document: string, fileName: string): Promise<CallAnswer> => {
      const answer = callAnswer(
        await call(
          SERVICES,
          'excluircertificado',
          { emp, CPF_CNPJ: document, ARQUIVO: fileName || 'certificado.pfx' },
          undefined,
          [SERVICES],
        ),
        'Certificado digital excluído.',
      );
      reload();
      return answer;
    },
    [call, emp, reload],
  );

  return { settings, save, push, register, upload, removeCertificate };
}
