// The bank movements' calls (services/finance, register `movimentacaobancaria`): the
// accounts' balances over a period (`saldos`, nothing written) and a transfer between two
// accounts (`transferencia`: a debit on one, a credit on the other), after which the
// movements, the accounts' balances and the day's cash are read again.
import { useCallback } from 'react';
import { readings, rowsOf, toId, type Row } from '../../lib/api';
import { MONEY_REGISTERS } from './useSlipCalls';
import { useRegisterCall } from './useTitleCalls';

export const MOVEMENTS = 'movimentacaobancaria';

/** One account's balance over a period (what `saldos` answers per account). */
export interface AccountBalance {
  bankId: unknown;
  bank: string;
  opening: unknown;
  credits: unknown;
  debits: unknown;
  closing: unknown;
}

/** What `saldos` answers (no schema yet). */
export function accountBalances(answer: unknown): AccountBalance[] {
  return readings<'BCO_ID' | 'BCO_DESCRICAO' | 'SALDO_ANTERIOR' | 'CREDITOS' | 'DEBITOS' | 'SALDO_FINAL'>(answer).map(
    (r) => ({
      bankId: r.BCO_ID,
      bank: String(r.BCO_DESCRICAO ?? r.BCO_ID ?? ''),
      opening: r.SALDO_ANTERIOR,
      credits: r.CREDITOS,
      debits: r.DEBITOS,
      closing: r.SALDO_FINAL,
    }),
  );
}

/** A transfer as the call takes it: ids, yyyy-MM-dd, the API's money text. */
export interface TransferBody {
  BCO_ID_ORIGEM: number | undefined;
  BCO_ID_DESTINO: number | undefined;
  DATA: string;
  VALOR: string;
  HISTORICO?: string;
}

export function useBankMovements() {
  const call = useRegisterCall();
  const balances = useCallback(
    async (body: { DATA_INI: string; DATA_FIM: string; BCO_ID?: unknown }): Promise<AccountBalance[]> =>
      accountBalances(await call(MOVEMENTS, 'saldos', {}, { ...body, BCO_ID: toId(body.BCO_ID) })),
    [call],
  );
  const transfer = useCallback(
    // `transferencia` answers the two movements it made (no schema yet).
    async (body: TransferBody): Promise<Row<typeof MOVEMENTS>[]> =>
      rowsOf(MOVEMENTS, await call(MOVEMENTS, 'transferencia', {}, body, MONEY_REGISTERS)),
    [call],
  );
  return { balances, transfer };
}
