import { describe, expect, it } from 'vitest';
import type { FormValues } from '../../components/fields/types';
import type { Row } from '../../lib/api';
import { clientesMeta, mockRow, payablesMeta, receivablesMeta } from '../../test/fixtures';
import { fieldOfReceiptMessage, freeReceiptBody } from './FreeReceiptPage';
import { payablesBody } from './PayablesSettlementPage';
import {
  FILTER,
  initialFilter,
  instalmentText,
  isOverdue,
  titleColumns,
  titleFilterFields,
  titleListMeta,
  titleName,
  titleTotals,
  titleWhere,
  type TitleColumns,
} from './titles';

const receivables = titleColumns(receivablesMeta) as TitleColumns;
const payables = titleColumns(payablesMeta) as TitleColumns;
const TODAY = '2026-11-24';

const title = (over: { [C in keyof Row<'contasreceber'>]?: unknown }) =>
  mockRow('contasreceber', {
    CRCB_ID: 1,
    CRCB_CLI_ID: 5,
    CLI_DESCRICAO: 'JOÃO DA SILVA',
    CRCB_DOCUMENTO: '40/1',
    CRCB_PARCELA: 1,
    CRCB_QTD_PARCELAS: 3,
    CRCB_DTA_EMIS: '2026-10-01',
    CRCB_DTA_VCTO: '2026-11-30',
    CRCB_VLR_CTA: '100.00',
    CRCB_VLR_PAGO: '0.00',
    SALDO: '100.00',
    CRCB_SITUACAO: 'A',
    ...over,
  });

describe('title registers by their metadata', () => {
  it('finds the roles of the receivables and payables fields', () => {
    expect(receivables).toMatchObject({
      key: 'CRCB_ID',
      personName: 'CLI_DESCRICAO',
      document: 'CRCB_DOCUMENTO',
      instalment: 'CRCB_PARCELA',
      instalments: 'CRCB_QTD_PARCELAS',
      paid: 'CRCB_VLR_PAGO',
      balance: 'SALDO',
    });
    expect(receivables.person.name).toBe('CRCB_CLI_ID');
    expect(receivables.value.name).toBe('CRCB_VLR_CTA');
    expect(receivables.due.name).toBe('CRCB_DTA_VCTO');
    expect(receivables.bank?.name).toBe('CRCB_BCO_ID');
    expect(receivables.method?.name).toBe('CRCB_FRMP_ID');
    expect(payables.person).toMatchObject({ name: 'CMPD_COMP_FORN_ID', label: 'Fornecedor', reference: 'fornecedor' });
    expect(payables.value.name).toBe('CMPD_VLR_TITULO');
    expect(payables.status.name).toBe('CMPD_SITUACAO');
  });

  it("lists the person's name once: its id column goes when the name kept on the title is listed", () => {
    const listed = (m: typeof receivablesMeta) => m.fields.filter((f) => f.inList).map((f) => f.name);
    expect(listed(titleListMeta(receivablesMeta, receivables))).not.toContain('CRCB_CLI_ID');
    expect(listed(titleListMeta(receivablesMeta, receivables))).toContain('CLI_DESCRICAO');
    const unnamed = {
      ...receivablesMeta,
      fields: receivablesMeta.fields.map((f) => (f.name === 'CLI_DESCRICAO' ? { ...f, inList: false } : f)),
    };
    expect(listed(titleListMeta(unnamed, receivables))).toContain('CRCB_CLI_ID');
  });

  it('is null for a register that holds no titles', () => {
    expect(titleColumns(clientesMeta)).toBeNull();
  });

  it('names a title by its id, document and instalment', () => {
    expect(titleName(title({}), receivables)).toBe('Título 1 (Doc. 40/1, parcela 1/3)');
    expect(instalmentText(title({ CRCB_QTD_PARCELAS: null }), receivables)).toBe('1');
    expect(titleName(title({ CRCB_DOCUMENTO: null, CRCB_PARCELA: null }), receivables)).toBe('Título 1');
  });
});

describe('overdue titles', () => {
  it('are open or partly paid and due before today', () => {
    expect(isOverdue(title({ CRCB_DTA_VCTO: '2026-11-23' }), receivables, TODAY)).toBe(true);
    expect(isOverdue(title({ CRCB_DTA_VCTO: '2026-11-23', CRCB_SITUACAO: 'P' }), receivables, TODAY)).toBe(true);
    // Due today is not late yet; paid and cancelled titles are never overdue.
    expect(isOverdue(title({ CRCB_DTA_VCTO: TODAY }), receivables, TODAY)).toBe(false);
    expect(isOverdue(title({ CRCB_DTA_VCTO: '2026-01-01', CRCB_SITUACAO: 'Q' }), receivables, TODAY)).toBe(false);
    expect(isOverdue(title({ CRCB_DTA_VCTO: '2026-01-01', CRCB_SITUACAO: 'C' }), receivables, TODAY)).toBe(false);
    // A date with a time part still compares by its day.
    expect(isOverdue(title({ CRCB_DTA_VCTO: '2026-11-23T00:00:00' }), receivables, TODAY)).toBe(true);
  });
});

describe('list filters -> where', () => {
  const where = (values: FormValues) => titleWhere(receivables, { ...initialFilter(), ...values }, TODAY);

  it('offers period, dates, person, bank and situation', () => {
    expect(titleFilterFields(receivables).map((f) => [f.name, f.type, f.text])).toEqual([
      ['PERIODO', 'COMBOBOX', 'Período por'],
      ['DATA_INI', 'DATE', 'De'],
      ['DATA_FIM', 'DATE', 'Até'],
      ['CRCB_CLI_ID', 'AUTOCOMPLETE', 'Cliente'],
      ['CRCB_BCO_ID', 'COMBOBOX', 'Conta Bancária'],
      ['SITUACAO', 'SITUATION', 'Situação'],
    ]);
    expect(titleFilterFields(payables)[3]).toMatchObject({ text: 'Fornecedor', reference: 'fornecedor' });
  });

  it('sends nothing for every situation and no other filter', () => {
    expect(where({})).toBeNull();
    // A date that is not a real one does not count.
    expect(where({ [FILTER.from]: '31/02/2026', [FILTER.to]: '01/11/26' })).toBeNull();
  });

  it('bounds the due date, or the issue date, by the period', () => {
    expect(where({ [FILTER.from]: '01/11/2026', [FILTER.to]: '30/11/2026' })).toEqual({
      CRCB_DTA_VCTO_INI: '2026-11-01',
      CRCB_DTA_VCTO_FIM: '2026-11-30',
    });
    expect(where({ [FILTER.period]: 'E', [FILTER.from]: '01/11/2026' })).toEqual({ CRCB_DTA_EMIS_INI: '2026-11-01' });
  });

  it("reads 'A vencer' as open titles due from today on, within the period", () => {
    expect(where({ [FILTER.situation]: 'avencer' })).toEqual({
      CRCB_SITUACAO: ['A', 'P'],
      CRCB_DTA_VCTO_INI: TODAY,
    });
    // A period starting later keeps its start; one starting earlier starts today.
    expect(where({ [FILTER.situation]: 'avencer', [FILTER.from]: '10/12/2026', [FILTER.to]: '31/12/2026' })).toEqual({
      CRCB_SITUACAO: ['A', 'P'],
      CRCB_DTA_VCTO_INI: '2026-12-10',
      CRCB_DTA_VCTO_FIM: '2026-12-31',
    });
    expect(where({ [FILTER.situation]: 'avencer', [FILTER.from]: '01/01/2026' })).toMatchObject({
      CRCB_DTA_VCTO_INI: TODAY,
    });
  });

  it("reads 'Vencidas' as open titles due before today, within the period", () => {
    expect(where({ [FILTER.situation]: 'vencidas' })).toEqual({
      CRCB_SITUACAO: ['A', 'P'],
      CRCB_DTA_VCTO_FIM: '2026-11-23',
    });
    expect(where({ [FILTER.situation]: 'vencidas', [FILTER.to]: '31/10/2026' })).toMatchObject({
      CRCB_DTA_VCTO_FIM: '2026-10-31',
    });
    expect(where({ [FILTER.situation]: 'vencidas', [FILTER.to]: '31/12/2026' })).toMatchObject({
      CRCB_DTA_VCTO_FIM: '2026-11-23',
    });
    // Issue-date periods leave the due date to the situation.
    expect(where({ [FILTER.situation]: 'vencidas', [FILTER.period]: 'E', [FILTER.from]: '01/10/2026' })).toEqual({
      CRCB_DTA_EMIS_INI: '2026-10-01',
      CRCB_SITUACAO: ['A', 'P'],
      CRCB_DTA_VCTO_FIM: '2026-11-23',
    });
  });

  it("reads 'Pagas' as the paid status, and sends the person and bank ids as numbers", () => {
    expect(where({ [FILTER.situation]: 'pagas', CRCB_CLI_ID: '5', CRCB_BCO_ID: '2' })).toEqual({
      CRCB_SITUACAO: 'Q',
      CRCB_CLI_ID: 5,
      CRCB_BCO_ID: 2,
    });
  });

  it('builds the payables settlement call from the same filters, by due date, with the settlement date', () => {
    const values = {
      [FILTER.situation]: 'vencidas',
      CMPD_COMP_FORN_ID: '3',
      [FILTER.from]: '01/10/2026',
      DATA_BAIXA: '25/11/2026',
    };
    expect(payablesBody(payables, values, TODAY, { filter: ' nf 12 ', page: 2, order: null })).toEqual({
      CMPD_DTA_VCTO_INI: '2026-10-01',
      CMPD_DTA_VCTO_FIM: '2026-11-23',
      CMPD_SITUACAO: ['A', 'P'],
      CMPD_COMP_FORN_ID: 3,
      DATA_BAIXA: '2026-11-25',
      FILTRO: 'nf 12',
      LIMIT: 20,
      PAGINATION: 1,
    });
    // 'Em aberto' sends no status: the call lists open and partly paid titles by itself.
    expect(
      payablesBody(payables, { [FILTER.situation]: 'abertas', DATA_BAIXA: '24/11/2026' }, TODAY, {
        filter: '',
        page: 1,
        order: 'CMPD_DTA_VCTO DESC',
      }),
    ).toEqual({ DATA_BAIXA: TODAY, ORDENACAO: 'CMPD_DTA_VCTO DESC', LIMIT: 20, PAGINATION: 0 });
    expect(payablesBody(payables, { DATA_BAIXA: '' }, TODAY, { filter: '', page: 1, order: null })).toBeNull();
  });
});

describe('totals of the filtered titles', () => {
  it('adds value, paid and balance in cents, and the overdue balance apart', () => {
    const rows = [
      title({ CRCB_VLR_CTA: '0.10', SALDO: '0.10' }),
      title({ CRCB_VLR_CTA: 0.2, SALDO: 0.2, CRCB_DTA_VCTO: '2026-11-01' }),
      title({ CRCB_VLR_CTA: '1234.56', CRCB_VLR_PAGO: '1000.00', SALDO: '234.56', CRCB_SITUACAO: 'P' }),
      title({
        CRCB_VLR_CTA: '50.00',
        CRCB_VLR_PAGO: '50.00',
        SALDO: '0.00',
        CRCB_SITUACAO: 'Q',
        CRCB_DTA_VCTO: '2026-01-01',
      }),
    ];
    expect(titleTotals(rows, receivables, TODAY)).toEqual({
      count: 4,
      value: 128486,
      paid: 105000,
      balance: 23486,
      overdue: 20,
    });
    expect(titleTotals([], receivables, TODAY)).toEqual({ count: 0, value: 0, paid: 0, balance: 0, overdue: 0 });
  });
});

describe('free-form receipt', () => {
  it('sends the value as a number, the date as yyyy-MM-dd and empty texts as null', () => {
    expect(
      freeReceiptBody({
        VALOR: '1.234,56',
        PAGADOR: ' JOÃO DA SILVA ',
        PAGADOR_DOC: '111.444.777-35',
        RECEBEDOR: '',
        REFERENTE: 'Mensalidade de novembro',
        CIDADE: 'Caxias do Sul',
        DATA: '24/11/2026',
      }),
    ).toEqual({
      VALOR: 1234.56,
      PAGADOR: 'JOÃO DA SILVA',
      PAGADOR_DOC: '111.444.777-35',
      RECEBEDOR: null,
      RECEBEDOR_DOC: null,
      REFERENTE: 'Mensalidade de novembro',
      CIDADE: 'Caxias do Sul',
      DATA: '2026-11-24',
    });
  });

  it('finds the field a server message names', () => {
    expect(fieldOfReceiptMessage('Cidade é obrigatório!')).toBe('CIDADE');
    expect(fieldOfReceiptMessage('Referente é obrigatório!')).toBe('REFERENTE');
    expect(fieldOfReceiptMessage('CPF/CNPJ inválido.')).toBeNull();
  });
});
