import { describe, expect, it } from 'vitest';
import { lastMonth } from './DominioPage';
import { linesBody, ofxAnswer, openMovements, reconciliationBalance, statementLines } from './reconciliation';
import { activeSlip, issuedSlips, returnAnswer, slipCheck, updateBody } from './slips';
import { accountBalances } from './useBankCalls';
import { daySummary } from './useDailyCash';

const issued = {
  BOL_ID: 7,
  CRCB_ID: 31,
  NOSSO_NUMERO: '00012345',
  CODIGO_BARRAS: '00191000000000000000000000000000000000000000',
  LINHA_DIGITAVEL: '00190.00009 01234.567004 00000.000000 1 00000000010000',
  PIX_COPIA_COLA: '00020101021226...6304ABCD',
  VALOR: 100,
  DTA_VCTO: '2026-12-10',
  BOL_SITUACAO: 'G',
};

describe('bank slips', () => {
  it("read what `gerar` answers, with or without Pix, and money as the API's text", () => {
    const [slip, noPix] = issuedSlips([issued, { ...issued, BOL_ID: 8, PIX_COPIA_COLA: null, VALOR: '1234.5' }]);
    expect(slip).toMatchObject({
      id: 7,
      titleId: 31,
      ourNumber: '00012345',
      digitableLine: '00190.00009 01234.567004 00000.000000 1 00000000010000',
      pix: '00020101021226...6304ABCD',
      value: '100.00',
      due: '2026-12-10',
      situation: 'G',
    });
    expect(noPix).toMatchObject({ pix: null, value: '1234.50' });
  });

  it('take no answer, null or an empty row as no active slip', () => {
    expect(activeSlip(null)).toBeNull();
    expect(activeSlip(undefined)).toBeNull();
    expect(activeSlip({})).toBeNull();
    expect(activeSlip([])).toBeNull();
    expect(
      activeSlip({
        BOL_ID: 7,
        BOL_CRCB_ID: 31,
        BOL_NOSSO_NUMERO: '00012345',
        BOL_VALOR: '100.00',
        BOL_DTA_VCTO: '2026-12-10T00:00:00',
        BOL_SITUACAO: 'P',
        BOL_VLR_PAGO: 100.5,
        BOL_DTA_PAG: '2026-12-09',
      }),
    ).toMatchObject({ id: 7, due: '2026-12-10', situation: 'P', paidValue: '100.50', paidOn: '2026-12-09' });
  });

  it("read the bank's check with its occurrences", () => {
    expect(
      slipCheck({
        BOL_ID: 7,
        BOL_SITUACAO: 'R',
        SITUACAO_DESCRICAO: 'Registrado',
        REGISTRADO: true,
        PAGO: false,
        OCORRENCIAS: [{ DATA: '2026-11-25', CODIGO: '02', DESCRICAO: 'Entrada confirmada', MOTIVOS: '00' }],
      }),
    ).toEqual({
      situation: 'R',
      situationText: 'Registrado',
      registered: true,
      paid: false,
      occurrences: [{ date: '2026-11-25', code: '02', description: 'Entrada confirmada', reasons: '00' }],
    });
  });

  it("change only what differs from the slip's due date and value", () => {
    const [slip] = issuedSlips([issued]);
    expect(updateBody(1, slip, { due: '2026-12-10', cents: 10000 })).toBeNull();
    expect(updateBody(1, slip, { due: '2026-12-20', cents: 10000 })).toEqual({
      EMP_ID: 1,
      BOL_ID: 7,
      DTA_VCTO: '2026-12-20',
    });
    expect(updateBody(1, slip, { due: '2026-12-10', cents: 123456 })).toEqual({
      EMP_ID: 1,
      BOL_ID: 7,
      VALOR: '1234.56',
    });
  });

  it("read a return file's counts and each slip's result", () => {
    const a = returnAnswer({
      ARQUIVO: 'CB241100.RET',
      LEIAUTE: 'CNAB 400',
      JA_PROCESSADO: false,
      LIQUIDADOS: 1,
      REGISTRADOS: '2',
      RECUSADOS: 0,
      BAIXADOS: 0,
      IGNORADOS: 1,
      AVISOS: ['Linha 5: registro desconhecido'],
      TITULOS: [
        {
          NOSSO_NUMERO: '00012345',
          BOL_ID: 7,
          CRCB_ID: 31,
          OCORRENCIA: '06',
          DESCRICAO: 'Liquidação',
          MOTIVOS: ['00', '01'],
          VALOR_PAGO: 101.5,
          JUROS: '1.5',
          TARIFA: 2.1,
          RESULTADO: 'Título baixado',
        },
      ],
    });
    expect(a).toMatchObject({ file: 'CB241100.RET', layout: 'CNAB 400', settled: 1, registered: 2, ignored: 1 });
    expect(a.warnings).toEqual(['Linha 5: registro desconhecido']);
    expect(a.lines[0]).toMatchObject({ reasons: '00, 01', paid: '101.50', interest: '1.50', fee: '2.10' });
  });
});

describe('reconciliation', () => {
  const line = {
    CONB_ID: 5,
    CONB_DTA: '2026-11-20',
    CONB_TIPO: 'C',
    CONB_VALOR: '250',
    CONB_HISTORICO: 'DEP DINHEIRO',
    CONB_DOCUMENTO: '123',
    CONB_SITUACAO: 'P',
    MOVIMENTOS: [],
    SUGESTOES: [
      {
        MBCA_IDS: [11],
        MOVIMENTOS: [{ MBCA_ID: 11, MBCA_VALOR: '250.00', MBCA_TIPO: 'C' }],
        VALOR: 250,
        MOTIVO: 'Mesmo valor e data',
      },
      // No ids: the movements' own; no value: their sum.
      {
        MOVIMENTOS: [
          { MBCA_ID: 12, MBCA_VALOR: '100.10' },
          { MBCA_ID: 13, MBCA_VALOR: '149.90' },
        ],
        MOTIVO: 'Soma',
      },
    ],
  };

  it('read the statement lines with their suggestions', () => {
    const [l] = statementLines([line]);
    expect(l).toMatchObject({ id: 5, date: '2026-11-20', type: 'C', value: '250.00', situation: 'P' });
    expect(l.suggestions[0]).toMatchObject({ ids: [11], value: '250.00', reason: 'Mesmo valor e data' });
    expect(l.suggestions[1]).toMatchObject({ ids: [12, 13], value: '250.00' });
  });

  it("send the account, the situation ('' for all) and only the dates given", () => {
    expect(linesBody(1, 'P', null, null)).toEqual({ BCO_ID: 1, SITUACAO: 'P' });
    expect(linesBody(1, 'T', '2026-11-01', '2026-11-30')).toEqual({
      BCO_ID: 1,
      SITUACAO: '',
      DATA_INI: '2026-11-01',
      DATA_FIM: '2026-11-30',
    });
  });

  it('leave out of the manual match the movements already matched', () => {
    const matched = statementLines([{ ...line, CONB_ID: 6, CONB_SITUACAO: 'C', MOVIMENTOS: [{ MBCA_ID: 11 }] }]);
    const rows = [
      { MBCA_ID: 11 },
      { MBCA_ID: 12, MBCA_CONCILIADO: 'S' },
      { MBCA_ID: 13, MBCA_CONB_ID: 9 },
      { MBCA_ID: 14 },
    ];
    expect(openMovements(rows, matched).map((m) => m.MBCA_ID)).toEqual([14]);
  });

  it('read the balances and an OFX import', () => {
    expect(
      reconciliationBalance({
        SALDO_EXTRATO: 1500,
        DATA_EXTRATO: '2026-11-20',
        SALDO_SISTEMA: '1250.5',
        DIFERENCA: 249.5,
        PENDENTES: 2,
        VALOR_PENDENTE: '249.50',
      }),
    ).toEqual({
      statement: '1500.00',
      statementDate: '2026-11-20',
      system: '1250.50',
      difference: '249.50',
      pending: 2,
      pendingValue: '249.50',
    });
    expect(
      ofxAnswer({
        IMPORTADOS: 3,
        IGNORADOS: 1,
        SUGERIDOS: 2,
        EXTRATOS: [
          { CONTA: '12345-6', INICIO: '2026-11-01', FIM: '2026-11-20', SALDO: 1500, DATA_SALDO: '2026-11-20' },
        ],
      }),
    ).toEqual({
      imported: 3,
      ignored: 1,
      suggested: 2,
      statements: [
        { account: '12345-6', start: '2026-11-01', end: '2026-11-20', balance: '1500.00', balanceDate: '2026-11-20' },
      ],
    });
  });
});

describe('bank balances, daily cash and the accounting period', () => {
  it('read the balances of each account', () => {
    expect(
      accountBalances([
        { BCO_ID: 1, BCO_DESCRICAO: 'CAIXA', SALDO_ANTERIOR: 10, CREDITOS: 5, DEBITOS: 2, SALDO_FINAL: 13 },
      ]),
    ).toEqual([{ bankId: 1, bank: 'CAIXA', opening: 10, credits: 5, debits: 2, closing: 13 }]);
    expect(accountBalances({ code: 500 })).toEqual([]);
  });

  it("read a day's summary", () => {
    expect(
      daySummary(
        {
          DATA: '2026-11-24',
          FECHADO: 'S',
          SALDO_INICIAL: 100,
          ENTRADAS: '50.5',
          SAIDAS: 20,
          SALDO_FINAL: 130.5,
          FORMAS: [{ FRMP_ID: 2, FRMP_DESCRICAO: 'PIX', ENTRADAS: 50.5, SAIDAS: 0 }],
          MOVIMENTOS: [{ MBCA_ID: 1 }],
        },
        '2026-11-24',
      ),
    ).toEqual({
      date: '2026-11-24',
      closed: true,
      opening: '100.00',
      entries: '50.50',
      exits: '20.00',
      closing: '130.50',
      methods: [{ id: 2, name: 'PIX', entries: '50.50', exits: '0.00' }],
      movements: [{ MBCA_ID: 1 }],
    });
  });

  it('export the last whole month by default', () => {
    expect(lastMonth('2026-03-15')).toEqual({ DATA_INI: '01/02/2026', DATA_FIM: '28/02/2026' });
    expect(lastMonth('2026-01-01')).toEqual({ DATA_INI: '01/12/2025', DATA_FIM: '31/12/2025' });
  });
});
