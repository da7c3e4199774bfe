// The finance registers' declared calls (services/finance/src/resources/titles.rs and
// settlement.rs), run through `resourceAction`: the settlement preview (`calculo`), settling
// (`baixa`, and the payables' quick one `rapida`), a title's settlements (`baixas`) and their
// reversal (`estorno`), the payables to settle (`filtros`), a customer's credit position
// (`limite_credito` of `clientescredito`) and the receipt of a settlement (a PDF, over REST).
//
// A call that reads answers JSON the cache does not hold (it is a mutation field), so its
// answer lives in the hook that asked for it. A call that writes evicts the cached pages and
// records of every register over the same titles (what is on screen is read again), and the
// hook that holds a call's answer reads it again after its own writes.
import { useApolloClient } from '@apollo/client';
import { useCallback, useMemo } from 'react';
import type { Row } from '../../components/tables/types';
import { RestError, fetchFile, type FetchedFile } from '../../lib/rest';
import type { ResourceMeta } from '../../lib/resources/metaFields';
import { useCompanyId } from '../../lib/resources/useResourceData';
import { useCallResult, useRegisterCall } from '../../lib/resources/registerCalls';

/** The registers over the same titles as `meta`: those keyed by the same column (contaspagar, baixacontaspagar). */
export function sameTitles(meta: ResourceMeta, metas: ResourceMeta[]): string[] {
  const key = meta.key.join(',');
  return [meta.name, ...metas.filter((m) => m.name !== meta.name && m.key.join(',') === key).map((m) => m.name)];
}

// The declared-call hooks are shared with the other features (src/lib/resources/registerCalls).
export { useCallResult, useRegisterCall, type CallResult } from '../../lib/resources/registerCalls';
const asRows = (v: unknown): Row[] => (Array.isArray(v) ? (v as Row[]) : []);

/** What `baixa` and `rapida` answer. */
export interface SettleAnswer {
  msg: string;
  /** One per title: BAIX_ID, the title's key, BAIX_VALOR, BAIX_JUROS, BAIX_MULTA, BAIX_DESCONTO, BAIX_TOTAL, SALDO. */
  settlements: Row[];
}

function settleAnswer(v: unknown): SettleAnswer {
  const a = (v ?? {}) as { msg?: unknown; baixas?: unknown };
  return { msg: typeof a.msg === 'string' ? a.msg : 'Baixa realizada com sucesso.', settlements: asRows(a.baixas) };
}

/** The charges and totals of settling titles on a date (`calculo`), nothing written. */
export function useSettlementPreview(meta: ResourceMeta) {
  const call = useRegisterCall();
  return useCallback(
    async (body: unknown): Promise<Row[]> => asRows(await call(meta.name, 'calculo', {}, body)),
    [call, meta.name],
  );
}

/** Settles one or more titles (`baixa`); the registers over the same titles are read again. */
export function useSettleTitles(meta: ResourceMeta, metas: ResourceMeta[]) {
  const call = useRegisterCall();
  const evicts = useMemo(() => sameTitles(meta, metas), [meta, metas]);
  return useCallback(
    async (body: unknown): Promise<SettleAnswer> => settleAnswer(await call(meta.name, 'baixa', {}, body, evicts)),
    [call, meta.name, evicts],
  );
}

/**
 * A title's settlements (`baixas`, newest first) and their reversal (`estorno`): reversing
 * reads the title's registers and the settlements again.
 */
export function useTitleSettlements(meta: ResourceMeta, metas: ResourceMeta[], titleId: unknown) {
  const call = useRegisterCall();
  const evicts = useMemo(() => sameTitles(meta, metas), [meta, metas]);
  const read = useCallback(
    async () => asRows(await call(meta.name, 'baixas', { id: titleId })),
    [call, meta.name, titleId],
  );
  const result = useCallResult(read);
  const { reload } = result;
  const reverse = useCallback(
    async (settlementId: unknown): Promise<string> => {
      const answer = (await call(meta.name, 'estorno', { id: settlementId }, undefined, evicts)) as {
        msg?: unknown;
      } | null;
      reload();
      return typeof answer?.msg === 'string' ? answer.msg : 'Baixa estornada com sucesso.';
    },
    [call, meta.name, evicts, reload],
  );
  return { ...result, reverse };
}

/** A settlement's receipt: GET /{register}/recibo/{settlement}/{emp} answers the PDF. */
export function useReceipt(meta: ResourceMeta) {
  const client = useApolloClient();
  const emp = useCompanyId();
  return useCallback(
    async (settlementId: unknown): Promise<FetchedFile> => {
      try {
        return await fetchFile(`/${meta.name}/recibo/${String(settlementId)}/${emp}`, {
          fallbackName: `recibo-${String(settlementId)}.pdf`,
          type: 'application/pdf',
        });
      } catch (e) {
        // The session ended: what the cache holds belongs to it.
        if (e instanceof RestError && e.status === 401) void client.clearStore();
        throw e;
      }
    },
    [client, emp, meta.name],
  );
}

/** A free-form receipt: POST /reciboavulso/{emp} with its fields answers the PDF. */
export function useFreeReceipt() {
  const client = useApolloClient();
  const emp = useCompanyId();
  return useCallback(
    async (body: Record<string, unknown>): Promise<FetchedFile> => {
      try {
        return await fetchFile(`/reciboavulso/${emp}`, {
          json: body,
          fallbackName: 'recibo-avulso.pdf',
          type: 'application/pdf',
        });
      } catch (e) {
        if (e instanceof RestError && e.status === 401) void client.clearStore();
        throw e;
      }
    },
    [client, emp],
  );
}

/** The page of payables to settle (`filtros`: `{dados, count}`, with the charges on DATA_BAIXA). */
export interface PayablesPage {
  rows: Row[];
  count: number;
}

/**
 * The payables settlement screen's list (`filtros` with `body`, null while the filters are
 * not valid) and the quick settlement of chosen ones (`rapida`, all or nothing), after which
 * the list and the title registers are read again.
 */
export function usePayablesToSettle(meta: ResourceMeta, metas: ResourceMeta[], body: Record<string, unknown> | null) {
  const call = useRegisterCall();
  const evicts = useMemo(() => sameTitles(meta, metas), [meta, metas]);
  const read = useMemo(
    () =>
      body
        ? async (): Promise<PayablesPage> => {
            const a = (await call(meta.name, 'filtros', {}, body)) as { dados?: unknown; count?: unknown } | null;
            return { rows: asRows(a?.dados), count: Number(a?.count ?? 0) };
          }
        : null,
    [call, meta.name, body],
  );
  const result = useCallResult(read);
  const { reload } = result;
  const settle = useCallback(
    async (settlement: unknown): Promise<SettleAnswer> => {
      const answer = settleAnswer(await call(meta.name, 'rapida', {}, settlement, evicts));
      reload();
      return answer;
    },
    [call, meta.name, evicts, reload],
  );
  return { ...result, settle };
}

/** A customer's credit (`limite_credito`): limit, what open receivables use of it and what is left. */
export interface CreditPosition {
  limit: number;
  used: number;
  available: number;
}

/** The finance register that answers a customer's credit (`/clientes/limitecredito`). */
export const CUSTOMERS = 'clientescredito';

export function useCreditPosition(customerId: unknown) {
  const call = useRegisterCall();
  const read = useMemo(
    () =>
      customerId == null
        ? null
        : async (): Promise<CreditPosition> => {
            const a = ((await call(CUSTOMERS, 'limite_credito', { id: customerId })) ?? {}) as Row;
            return {
              limit: Number(a.CLI_LIMITE_CREDITO ?? 0),
              used: Number(a.VALOR_UTILIZADO ?? 0),
              available: Number(a.SALDO ?? 0),
            };
          },
    [call, customerId],
  );
  return useCallResult(read);
}
