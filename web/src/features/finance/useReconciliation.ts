// The reconciliation calls of an account (register `conciliacaobancaria`): its statement lines
// (`pendentes`) and balances (`saldo`) are read here; importing an OFX statement (REST
// multipart), matching a line to movements (`conciliar`), undoing a match (`desfazer`) and
// posting a line as a new movement (`lancar`) evict what they changed and read both again.
import { useCallback, useMemo } from 'react';
import { reading, toId, toIds, useRows } from '../../lib/api';
import { postForm } from '../../lib/restForms';
import { RANGE_FROM, RANGE_TO } from '../../lib/resources/listFilters';
import { useCompanyId } from '../../lib/resources/useResourceData';
import {
  linesBody,
  ofxAnswer,
  RECONCILIATION,
  reconciliationBalance,
  statementLines,
  type OfxAnswer,
} from './reconciliation';
import { MOVEMENTS } from './useBankCalls';
import { MONEY_REGISTERS, useEvict, useRest } from './useSlipCalls';
import { useCallResult, useRegisterCall } from './useTitleCalls';

/** What a write answers: the server's message when it sends one. */
const messageOf = (answer: unknown, fallback: string) => {
  const { msg } = reading<'msg'>(answer);
  return typeof msg === 'string' && msg.trim() ? msg : fallback;
};

export interface LinesFilter {
  bankId: string | number;
  situation: string;
  from: string | null;
  to: string | null;
}

/** An account's statement lines and balances (null filter: no account chosen, nothing read). */
export function useReconciliation(filter: LinesFilter | null) {
  const call = useRegisterCall();
  const emp = useCompanyId();
  const rest = useRest();
  const evict = useEvict();
  const key = filter ? JSON.stringify(filter) : null;
  const readLines = useMemo(() => {
    if (!key) return null;
    const f = JSON.parse(key) as LinesFilter;
    return async () =>
      statementLines(await call(RECONCILIATION, 'pendentes', {}, linesBody(f.bankId, f.situation, f.from, f.to)));
  }, [call, key]);
  const bankId = filter?.bankId ?? null;
  const readBalance = useMemo(
    () =>
      bankId == null
        ? null
        : async () => reconciliationBalance(await call(RECONCILIATION, 'saldo', {}, { BCO_ID: toId(bankId) })),
    [call, bankId],
  );
  const lines = useCallResult(readLines);
  const balance = useCallResult(readBalance);
  const reloadLines = lines.reload;
  const reloadBalance = balance.reload;
  const reload = useCallback(() => {
    reloadLines();
    reloadBalance();
  }, [reloadLines, reloadBalance]);

  const importOfx = useCallback(
    async (file: File): Promise<OfxAnswer> => {
      if (bankId == null) throw new Error('Selecione a conta bancária.');
      const answer = ofxAnswer(await rest(() => postForm(`/${RECONCILIATION}/ofx/${emp}`, file, { BCO_ID: bankId })));
      evict([RECONCILIATION]);
      reload();
      return answer;
    },
    [bankId, emp, rest, evict, reload],
  );

  const reconcile = useCallback(
    async (lineId: unknown, movementIds: unknown[]): Promise<string> => {
      const answer = await call(RECONCILIATION, 'conciliar', {}, { CONB_ID: toId(lineId), MBCA_IDS: toIds(movementIds) }, [
        RECONCILIATION,
        MOVEMENTS,
      ]);
      reload();
      return messageOf(answer, 'Lançamento conciliado com sucesso!');
    },
    [call, reload],
  );

  const undo = useCallback(
    async (lineId: unknown): Promise<string> => {
      const answer = await call(RECONCILIATION, 'desfazer', { id: toId(lineId) }, undefined, [RECONCILIATION, MOVEMENTS]);
      reload();
      return messageOf(answer, 'Conciliação desfeita com sucesso!');
    },
    [call, reload],
  );

  const post = useCallback(
    async (lineId: unknown, extra: { HISTORICO?: string; HISP_ID?: unknown }): Promise<string> => {
      const answer = await call(RECONCILIATION, 'lancar', {}, { ...extra, CONB_ID: toId(lineId), HISP_ID: toId(extra.HISP_ID) }, [
        RECONCILIATION,
        ...MONEY_REGISTERS,
      ]);
      reload();
      return messageOf(answer, 'Movimento lançado e conciliado com sucesso!');
    },
    [call, reload],
  );

  return { lines, balance, importOfx, reconcile, undo, post };
}

/** How many of an account's movements the manual match lists at most. */
export const MOVEMENTS_LIMIT = 200;

/**
 * The account's movements of one direction in a period (the `movimentacaobancaria` register
 * read, by date), for matching a line by hand; null: nothing to read.
 */
export function useAccountMovements(filter: { bankId: unknown; type: string; from: string; to: string } | null) {
  const { rows, data, loading, error } = useRows(
    MOVEMENTS,
    filter && {
      page: 1,
      limit: MOVEMENTS_LIMIT,
      order: 'MBCA_DTA_MOV',
      where: {
        MBCA_BCO_ID: filter.bankId,
        MBCA_TIPO: filter.type,
        [`MBCA_DTA_MOV${RANGE_FROM}`]: filter.from,
        [`MBCA_DTA_MOV${RANGE_TO}`]: filter.to,
      },
    },
  );
  return { rows, loading: loading && !data, error };
}
