// The bank slips' calls (services/finance, register `boletos`): issuing a receivable's slip
// (`gerar`), reading its active one (`titulo`), its PDF (REST), writing it off or recording its
// payment (`baixa`), checking it at the bank (`verificar`), changing its due date or value
// (`atualizar`), and the bank files of an account: the remittance (REST file) and the return
// (REST multipart). Each write evicts the cached reads of the registers it changed and the
// hook holding a read reads it again after its own writes.
import { useApolloClient } from '@apollo/client';
import { useCallback, useMemo } from 'react';
import { reading, rowOf, toId, toIds } from '../../lib/api';
import { centsToApi } from '../../lib/format';
import { fetchFile, RestError, type FetchedFile } from '../../lib/rest';
import { postForFile, postForm } from '../../lib/restForms';
import type { ResourceMeta } from '../../lib/resources/metaFields';
import { evictReads } from '../../lib/resources/recordCache';
import { useCompanyId } from '../../lib/resources/useResourceData';
import {
  activeSlip,
  issuedSlips,
  returnAnswer,
  slipCheck,
  slipOfIssue,
  slipOfRow,
  SLIPS,
  type ReturnAnswer,
  type Slip,
  type SlipCheck,
  type SlipUpdateBody,
} from './slips';
import { sameTitles, useCallResult, useRegisterCall } from './useTitleCalls';

/** The registers a bank movement changes: the movements, the accounts' balances, the day's cash. */
export const MONEY_REGISTERS = ['movimentacaobancaria', 'banco', 'movdiario'];

/** Evicts the cached reads of these registers (a REST call, or a call whose answer says what it changed). */
export function useEvict() {
  const client = useApolloClient();
  const emp = useCompanyId();
  return useCallback(
    (names: string[]) =>
      evictReads(
        client.cache,
        names.map((name) => ({ name, emp })),
      ),
    [client, emp],
  );
}

/** Runs a REST call; a 401 (the session ended) also empties the cache. */
export function useRest() {
  const client = useApolloClient();
  return useCallback(
    async <T>(run: () => Promise<T>): Promise<T> => {
      try {
        return await run();
      } catch (e) {
        if (e instanceof RestError && e.status === 401) void client.clearStore();
        throw e;
      }
    },
    [client],
  );
}

/** The PDF of one or more slips (one page each): POST /boletos/pdf. */
export function useSlipPdf() {
  const emp = useCompanyId();
  const rest = useRest();
  return useCallback(
    (ids: Slip['id'][]): Promise<FetchedFile> =>
      rest(() =>
        fetchFile(`/${SLIPS}/pdf`, {
          json: { EMP_ID: emp, BOL_IDS: ids },
          fallbackName: ids.length === 1 ? `boleto-${String(ids[0])}.pdf` : 'boletos.pdf',
          type: 'application/pdf',
        }),
      ),
    [emp, rest],
  );
}

/** Issues the slips of receivables on an account (`gerar`); a receivable with an active slip answers it. */
export function useIssueSlips(meta: ResourceMeta, metas: ResourceMeta[]) {
  const call = useRegisterCall();
  const emp = useCompanyId();
  const evicts = useMemo(() => [SLIPS, ...sameTitles(meta, metas)], [meta, metas]);
  return useCallback(
    async (bankId: unknown, titleIds: unknown[]): Promise<Slip[]> =>
      issuedSlips(
        await call(SLIPS, 'gerar', {}, { EMP_ID: emp, BCO_ID: toId(bankId), TITULOS: toIds(titleIds) }, evicts),
      ),
    [call, emp, evicts],
  );
}

/** What the payer paid, recorded by hand (`baixa` PAGO): yyyy-MM-dd and cents. */
export interface SlipPayment {
  date: string;
  cents: number;
}

/**
 * A receivable's active slip (`titulo`, null when it has none) and what can be done with it.
 * Every write reads the slip again.
 */
export function useTitleSlip(meta: ResourceMeta, metas: ResourceMeta[], titleId: unknown) {
  const call = useRegisterCall();
  const emp = useCompanyId();
  const evict = useEvict();
  const issue = useIssueSlips(meta, metas);
  const titles = useMemo(() => sameTitles(meta, metas), [meta, metas]);
  const read = useCallback(async () => activeSlip(await call(SLIPS, 'titulo', { id: toId(titleId) })), [call, titleId]);
  const result = useCallResult(read);
  const { reload } = result;

  const generate = useCallback(
    async (bankId: unknown): Promise<Slip | null> => {
      const [slip] = await issue(bankId, [titleId]);
      reload();
      return slip ?? null;
    },
    [issue, titleId, reload],
  );

  /** Writes the slip off at the bank (BAIXA): the receivable stays open. */
  const writeOff = useCallback(
    async (slip: Slip): Promise<Slip> => {
      const row = await call(SLIPS, 'baixa', {}, { EMP_ID: emp, BOL_ID: toId(slip.id), TIPO: 'BAIXA' }, [SLIPS]);
      reload();
      return slipOfRow(rowOf(SLIPS, row) ?? {});
    },
    [call, emp, reload],
  );

  /** Records the payer's payment (PAGO): the receivable is settled through the slip's account. */
  const pay = useCallback(
    async (slip: Slip, { date, cents }: SlipPayment): Promise<Slip> => {
      const body = { EMP_ID: emp, BOL_ID: toId(slip.id), TIPO: 'PAGO', DATA: date, VALOR: centsToApi(cents) };
      const row = await call(SLIPS, 'baixa', {}, body, [SLIPS, ...titles, ...MONEY_REGISTERS]);
      reload();
      return slipOfRow(rowOf(SLIPS, row) ?? {});
    },
    [call, emp, titles, reload],
  );

  /** Changes the due date and/or the value (`atualizar`, the body of `updateBody`). */
  const update = useCallback(
    async (body: SlipUpdateBody): Promise<Slip> => {
      const answer = await call(SLIPS, 'atualizar', {}, body, [SLIPS, ...titles]);
      reload();
      return slipOfIssue(reading(answer));
    },
    [call, titles, reload],
  );

  /**
   * Asks the bank about the slip (`verificar`). The check records what the bank says (a
   * registration, a payment): the slip is read again, and a paid one settled its receivable.
   */
  const check = useCallback(
    async (slip: Slip): Promise<SlipCheck> => {
      const answer = slipCheck(await call(SLIPS, 'verificar', {}, { EMP_ID: emp, BOL_ID: toId(slip.id) }));
      evict(answer.paid ? [SLIPS, ...titles, ...MONEY_REGISTERS] : [SLIPS]);
      reload();
      return answer;
    },
    [call, emp, evict, titles, reload],
  );

  return { ...result, generate, writeOff, pay, update, check };
}

/**
 * An account's bank files: the remittance of its slips not yet sent (POST
 * /boletos/remessa/{emp}, a text file) and the processing of the bank's return (POST
 * /boletos/retorno/{emp}, multipart `file` and `BCO_ID`), which settles paid receivables.
 */
export function useBankFiles() {
  const emp = useCompanyId();
  const rest = useRest();
  const evict = useEvict();
  const remittance = useCallback(
    async (bankId: unknown): Promise<FetchedFile> => {
      const file = await rest(() =>
        postForFile(
          `/${SLIPS}/remessa/${emp}`,
          { BCO_ID: bankId },
          { fallbackName: `remessa-${String(bankId)}.rem`, types: ['text/plain', 'application/octet-stream'] },
        ),
      );
      // The slips sent are now 'Enviado em remessa'.
      evict([SLIPS]);
      return file;
    },
    [emp, rest, evict],
  );
  const processReturn = useCallback(
    async (bankId: string | number, file: File): Promise<ReturnAnswer> => {
      const answer = returnAnswer(await rest(() => postForm(`/${SLIPS}/retorno/${emp}`, file, { BCO_ID: bankId })));
      evict([SLIPS, 'contasreceber', ...MONEY_REGISTERS]);
      return answer;
    },
    [emp, rest, evict],
  );
  return { remittance, processReturn };
}
