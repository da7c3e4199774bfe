// The calls of a billing order's NF-e (register `pedidofatxml`): its row (the register's list,
// by order), emitting, consulting the SEFAZ, cancelling, the correction letter (declared calls
// through `resourceAction`) and its files, the DANFE (PDF) and the XML (REST: files answered as
// bytes). Every call that may change the NF-e evicts the register's cached pages, so the row on
// screen is read again; the answer of the last call is kept too, since only a call's answer
// names the field and the screen to fix of a rejection.
import { useApolloClient, useQuery } from '@apollo/client';
import { useCallback, useMemo, useState } from 'react';
import type { Row } from '../../components/tables/types';
import { fetchFile, RestError, type FetchedFile } from '../../lib/rest';
import { ResourceListDocument } from '../../lib/resources/documents';
import { useRegisterCall } from '../../lib/resources/registerCalls';
import { useCompanyId } from '../../lib/resources/useResourceData';
import { NFE, nfeOf, withKnownRejection, type Nfe } from './nfe';

/** The order on screen: its id and series (the billing order's key, PEDF_ID and PEDF_SERIE). */
export interface OrderRef {
  id: unknown;
  serie: unknown;
}

export function useOrderNfe(order: OrderRef) {
  const client = useApolloClient();
  const emp = useCompanyId();
  const call = useRegisterCall();
  const where = useMemo(() => ({ PEXM_PEDF_ID: Number(order.id), PEXM_SERIE: String(order.serie) }), [order]);
  const { data, loading, error } = useQuery(ResourceListDocument, {
    variables: { name: NFE, emp, input: { page: 1, limit: 1, where } },
    fetchPolicy: 'network-only',
    notifyOnNetworkStatusChange: true,
  });
  const [answered, setAnswered] = useState<Nfe | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const rows = (data?.resourceList.rows ?? []) as Row[];
  const read = rows.length > 0 ? nfeOf(rows[0]) : null;
  const nfe = read ? withKnownRejection(read, answered) : answered;

  /** Runs a call that answers the NF-e's row; the list is read again. */
  const run = useCallback(
    async (label: string, action: string, params: Record<string, unknown>, body?: unknown): Promise<Nfe | null> => {
      setBusy(label);
      try {
        const answer = nfeOf(await call(NFE, action, params, body, [NFE]));
        if (answer) setAnswered(answer);
        return answer;
      } finally {
        setBusy(null);
      }
    },
    [call],
  );

  const emit = useCallback(
    () =>
      run(
        'emitir',
        'emitir',
        {},
        { PEXM_PEDF_ID: Number(order.id), PEXM_EMP_ID: emp, PEXM_SERIE: String(order.serie) },
      ),
    [run, order, emp],
  );
  const consult = useCallback((id: number) => run('consultar', 'consultar', { PEXM_ID: id }), [run]);
  const cancel = useCallback(
    (id: number, justification: string) =>
      run('cancelar', 'cancelar', { PEXM_ID: id }, { JUSTIFICATIVA: justification.trim() }),
    [run],
  );
  const correct = useCallback(
    (id: number, correction: string) =>
      run('cartacorrecao', 'cartacorrecao', { PEXM_ID: id }, { CORRECAO: correction.trim() }),
    [run],
  );

  /** The DANFE (PDF) or the XML of an authorised or cancelled NF-e. */
  const file = useCallback(
    async (kind: 'danfe' | 'xml', id: number): Promise<FetchedFile> => {
      setBusy(kind);
      try {
        return await fetchFile(`/${NFE}/${kind}/${id}/${emp}`, {
          fallbackName: kind === 'danfe' ? `nfe-${id}-danfe.pdf` : `nfe-${id}.xml`,
          type: kind === 'danfe' ? 'application/pdf' : 'application/xml',
        });
      } catch (e) {
        // The session ended: what the cache holds goes with it.
        if (e instanceof RestError && e.status === 401) void client.clearStore();
        throw e;
      } finally {
        setBusy(null);
      }
    },
    [client, emp],
  );

  return { nfe, loading: loading && !data, error, busy, emit, consult, cancel, correct, file };
}
