// The day's cash (services/finance, register `movdiario`, MOVD_*: one row per closed day):
// a day's summary (`dia`: opening balance, entries, exits, closing balance, the breakdown by
// payment method and the movements), closing it (`fechar`) and reopening it (`reabrir`).
// Closing and reopening evict the register's rows (the closed days list) and read the day again.
import { useCallback, useMemo } from 'react';
import { reading, readings, rowsOf, toId, type Reading, type Row } from '../../lib/api';
import { centsToApi, toCents } from '../../lib/format';
import { isTrue } from '../../lib/resources/metaFields';
import { useCallResult, useRegisterCall } from './useTitleCalls';

export const DAILY_CASH = 'movdiario';

export interface MethodTotals {
  id: unknown;
  name: string;
  entries: string;
  exits: string;
}

export interface DaySummary {
  date: string;
  closed: boolean;
  opening: string;
  entries: string;
  exits: string;
  closing: string;
  methods: MethodTotals[];
  movements: DayMovement[];
}

/** A movement of the day as `dia` answers it: the movement's columns and its account's name. */
export type DayMovement = Row<'movimentacaobancaria'> & Reading<'BCO_DESCRICAO'>;

const apiMoney = (v: unknown) => centsToApi(toCents(v));

/** What `dia` answers (no schema yet). */
export function daySummary(answer: unknown, date: string): DaySummary {
  const a = reading<
    'DATA' | 'FECHADO' | 'SALDO_INICIAL' | 'ENTRADAS' | 'SAIDAS' | 'SALDO_FINAL' | 'FORMAS' | 'MOVIMENTOS'
  >(answer);
  return {
    date: a.DATA == null ? date : String(a.DATA).slice(0, 10),
    closed: isTrue(a.FECHADO),
    opening: apiMoney(a.SALDO_INICIAL),
    entries: apiMoney(a.ENTRADAS),
    exits: apiMoney(a.SAIDAS),
    closing: apiMoney(a.SALDO_FINAL),
    methods: readings<'FRMP_ID' | 'FRMP_DESCRICAO' | 'ENTRADAS' | 'SAIDAS'>(a.FORMAS).map((f) => ({
      id: f.FRMP_ID,
      name: String(f.FRMP_DESCRICAO ?? f.FRMP_ID ?? 'Sem forma de pagamento'),
      entries: apiMoney(f.ENTRADAS),
      exits: apiMoney(f.SAIDAS),
    })),
    movements: rowsOf('movimentacaobancaria', a.MOVIMENTOS),
  };
}

const messageOf = (answer: unknown, fallback: string) => {
  const { msg } = reading<'msg'>(answer);
  return typeof msg === 'string' && msg.trim() ? msg : fallback;
};

/** The summary of a day (yyyy-MM-dd; null: nothing to read), optionally of one account. */
export function useDailyCash(date: string | null, bankId: string | number | null) {
  const call = useRegisterCall();
  const read = useMemo(
    () =>
      date
        ? async () =>
            daySummary(
              await call(DAILY_CASH, 'dia', {}, { DATA: date, ...(bankId != null ? { BCO_ID: toId(bankId) } : {}) }),
              date,
            )
        : null,
    [call, date, bankId],
  );
  const result = useCallResult(read);
  const { reload } = result;
  const close = useCallback(
    async (day: string): Promise<string> => {
      const answer = await call(DAILY_CASH, 'fechar', {}, { DATA: day }, [DAILY_CASH]);
      reload();
      return messageOf(answer, 'Dia fechado com sucesso!');
    },
    [call, reload],
  );
  const reopen = useCallback(
    async (day: string): Promise<string> => {
      const answer = await call(DAILY_CASH, 'reabrir', {}, { DATA: day }, [DAILY_CASH]);
      reload();
      return messageOf(answer, 'Dia reaberto com sucesso!');
    },
    [call, reload],
  );
  return { ...result, close, reopen };
}
