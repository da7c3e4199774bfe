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
import { reading, readings, rowsOf, toId, type ListWhere, type Reading, type Row } from '../../lib/api';
import { RestError, fetchFile, type FetchedFile } from '../../lib/rest';
import type { ResourceMeta } from '../../lib/resources/metaFields';
import { useCompanyId } from '../../lib/resources/useResourceData';
import { useCallResult, useRegisterCall } from '../../lib/resources/registerCalls';
import type { PreviewField, SettlementBody } from './settlement';
import type { TitleNames } from './titles';

/** The registers over the same titles as `meta`: those keyed by the same column (contaspagar, baixacontaspagar). */
export function sameTitles(meta: ResourceMeta, metas: ResourceMeta[]): string[] {
  const key = meta.key.join(',');
  return [meta.name, ...metas.filter((m) => m.name !== meta.name && m.key.join(',') === key).map((m) => m.name)];
}

// The declared-call hooks are shared with the other features (src/lib/resources/registerCalls).
export { useCallResult, useRegisterCall, type CallResult } from '../../lib/resources/registerCalls';
// The finance calls have no schemas yet (legacy calls: `{}` in ActionMeta.schemas): their
// answers are read here by the names the screens use, values unknown until shown.

/** A settlement as `baixa`, `rapida` and `baixas` answer it (the title's key column among its fields). */
export type Settlement = Reading<
  | TitleNames['key']
  | 'BAIX_ID'
  | 'BAIX_DTA'
  | 'BAIX_VALOR'
  | 'BAIX_JUROS'
  | 'BAIX_MULTA'
  | 'BAIX_DESCONTO'
  | 'BAIX_TOTAL'
  | 'SALDO'
  | 'BAIX_ESTORNADA'
  | 'BAIX_DTA_ESTORNO'
  | 'BCO_DESCRICAO'
  | 'FRMP_DESCRICAO'
>;

/** What `baixa` and `rapida` answer. */
export interface SettleAnswer {
  msg: string;
  /** One per title: BAIX_ID, the title's key, BAIX_VALOR, BAIX_JUROS, BAIX_MULTA, BAIX_DESCONTO, BAIX_TOTAL, SALDO. */
  settlements: Settlement[];
}

function settleAnswer(v: unknown): SettleAnswer {
  const a = reading<'msg' | 'baixas'>(v);
  return { msg: typeof a.msg === 'string' ? a.msg : 'Baixa realizada com sucesso.', settlements: readings(a.baixas) };
}

/** A title's charges of settling it on a date, as `calculo` answers them (keyed by the title's key column). */
export type Preview = Reading<TitleNames['key'] | PreviewField>;

/** The charges and totals of settling titles on a date (`calculo`), nothing written. */
export function useSettlementPreview(meta: ResourceMeta) {
  const call = useRegisterCall();
  return useCallback(
    async (body: unknown): Promise<Preview[]> => readings(await call(meta.name, 'calculo', {}, body)),
    [call, meta.name],
  );
}

/** Settles one or more titles (`baixa`); the registers over the same titles are read again. */
export function useSettleTitles(meta: ResourceMeta, metas: ResourceMeta[]) {
  const call = useRegisterCall();
  const evicts = useMemo(() => sameTitles(meta, metas), [meta, metas]);
  return useCallback(
    async (body: SettlementBody): Promise<SettleAnswer> =>
      settleAnswer(await call(meta.name, 'baixa', {}, body, evicts)),
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
    async (): Promise<Settlement[]> => readings(await call(meta.name, 'baixas', { id: titleId })),
    [call, meta.name, titleId],
  );
  const result = useCallResult(read);
  const { reload } = result;
  const reverse = useCallback(
    async (settlementId: unknown): Promise<string> => {
      const answer = reading<'msg'>(await call(meta.name, 'estorno', { id: settlementId }, undefined, evicts));
      reload();
      return typeof answer.msg === 'string' ? answer.msg : 'Baixa estornada com sucesso.';
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

/** What a free-form receipt takes: the value, the payer and payee, what it refers to, place and date. */
export interface FreeReceiptBody {
  VALOR: number | null;
  PAGADOR: string | null;
  PAGADOR_DOC: string | null;
  RECEBEDOR: string | null;
  RECEBEDOR_DOC: string | null;
  REFERENTE: string | null;
  CIDADE: string | null;
  /** yyyy-MM-dd. */
  DATA: string | null;
}

/** A free-form receipt: POST /reciboavulso/{emp} with its fields answers the PDF. */
export function useFreeReceipt() {
  const client = useApolloClient();
  const emp = useCompanyId();
  return useCallback(
    async (body: FreeReceiptBody): Promise<FetchedFile> => {
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

/**
 * A payable to settle as `filtros` answers it: a row of the register (services/finance lists
 * the register's rows) with the charges of settling its balance on DATA_BAIXA.
 */
export type PayableToSettle = Row<'baixacontaspagar'> &
  Reading<'DIAS_ATRASO' | 'JUROS_CALC' | 'MULTA_CALC' | 'TOTAL_CALC'>;

/** The page of payables to settle (`filtros`: `{dados, count}`, with the charges on DATA_BAIXA). */
export interface PayablesPage {
  rows: PayableToSettle[];
  count: number;
}

/** What `filtros` takes: the titles list's `where` by due date, the settlement date, the search, the order and the page. */
export type PayablesBody = ListWhere & {
  /** yyyy-MM-dd. */
  DATA_BAIXA: string;
  FILTRO?: string;
  ORDENACAO?: string;
  LIMIT: number;
  /** From 0. */
  PAGINATION: number;
};

/** What `rapida` takes: the date, account, method and remarks, and the ids of the titles settled by their balances. */
export interface QuickSettlementBody {
  DATA: string;
  BCO_ID?: string | number;
  FRMP_ID?: string | number;
  OBS?: string;
  TITULOS: (number | null | undefined)[];
}

/**
 * The payables settlement screen's list (`filtros` with `body`, null while the filters are
 * not valid) and the quick settlement of chosen ones (`rapida`, all or nothing), after which
 * the list and the title registers are read again.
 */
export function usePayablesToSettle(meta: ResourceMeta, metas: ResourceMeta[], body: PayablesBody | null) {
  const call = useRegisterCall();
  const evicts = useMemo(() => sameTitles(meta, metas), [meta, metas]);
  const read = useMemo(
    () =>
      body
        ? async (): Promise<PayablesPage> => {
            const a = reading<'dados' | 'count'>(await call(meta.name, 'filtros', {}, body));
            return { rows: rowsOf('baixacontaspagar', a.dados), count: Number(a.count ?? 0) };
          }
        : null,
    [call, meta.name, body],
  );
  const result = useCallResult(read);
  const { reload } = result;
  const settle = useCallback(
    async (settlement: QuickSettlementBody): Promise<SettleAnswer> => {
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
            const a = reading<'CLI_LIMITE_CREDITO' | 'VALOR_UTILIZADO' | 'SALDO'>(
              await call(CUSTOMERS, 'limite_credito', { id: toId(customerId) }),
            );
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
