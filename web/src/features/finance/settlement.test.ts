import { describe, expect, it } from 'vitest';
import type { Row } from '../../lib/api';
import { mockRow, receivablesMeta } from '../../test/fixtures';
import {
  applyPreview,
  editLine,
  lineError,
  lineTotal,
  previewBody,
  selectionError,
  settlementBody,
  settlementTotals,
  sharedValue,
  startLines,
} from './settlement';
import { titleColumns, type TitleColumns } from './titles';

const cols = titleColumns(receivablesMeta) as TitleColumns;

const title = (id: number, balance: string, over: { [C in keyof Row<'contasreceber'>]?: unknown } = {}) =>
  mockRow('contasreceber', {
    CRCB_ID: id,
    CRCB_CLI_ID: 5,
    CLI_DESCRICAO: 'JOÃO DA SILVA',
    CRCB_DTA_VCTO: '2026-11-10',
    CRCB_VLR_CTA: balance,
    SALDO: balance,
    CRCB_SITUACAO: 'A',
    CRCB_BCO_ID: 1,
    CRCB_FRMP_ID: 2,
    ...over,
  });

describe('settlement lines', () => {
  it('start by settling each balance, charges at zero', () => {
    const [line] = startLines([title(7, '1234.5')], cols);
    expect(line).toMatchObject({
      id: 7,
      balance: 123450,
      value: '1.234,50',
      interest: '0,00',
      fine: '0,00',
      discount: '0,00',
      refusal: null,
    });
    expect(lineTotal(line)).toBe(123450);
  });

  it('ask the preview for the date and the value settled of each title', () => {
    const lines = startLines([title(7, '100.00'), title(8, '50.00')], cols);
    const partial = editLine(lines[1], 'value', '20,5');
    expect(previewBody('2026-11-24', [lines[0], partial])).toEqual({
      DATA: '2026-11-24',
      TITULOS: [
        { ID: 7, VALOR: '100.00' },
        { ID: 8, VALOR: '20.50' },
      ],
    });
  });

  it("take the preview's interest and fine, but keep the ones the user typed", () => {
    const lines = startLines([title(7, '100.00'), title(8, '50.00')], cols);
    const typed = [lines[0], editLine(lines[1], 'interest', '9,99')];
    const preview = [
      { CRCB_ID: 7, JUROS: 0.47, MULTA: '2.00', DIAS_ATRASO: 14, PODE_BAIXAR: true, msg: 'Título pode ser baixado.' },
      { CRCB_ID: 8, JUROS: '0.23', MULTA: '1.00', DIAS_ATRASO: 14, PODE_BAIXAR: true },
    ];
    const [a, b] = applyPreview(typed, preview, 'CRCB_ID');
    expect(a).toMatchObject({ interest: '0,47', fine: '2,00', daysLate: 14, refusal: null });
    expect(b).toMatchObject({ interest: '9,99', fine: '1,00', daysLate: 14 });
    // A later preview (another date) still leaves the typed interest alone.
    const [, again] = applyPreview([a, b], [{ CRCB_ID: 8, JUROS: '0.50', MULTA: '1.00' }], 'CRCB_ID');
    expect(again.interest).toBe('9,99');
  });

  it("show the preview's refusal as the line's error", () => {
    const lines = startLines([title(7, '100.00')], cols);
    const [line] = applyPreview(lines, [{ CRCB_ID: 7, PODE_BAIXAR: false, msg: 'Título 7 já está pago.' }], 'CRCB_ID');
    expect(lineError(line)).toBe('Título 7 já está pago.');
  });

  it('total value + interest + fine - discount, in cents', () => {
    const lines = startLines([title(7, '100.10'), title(8, '0.20')], cols).map((l, i) =>
      i === 0
        ? editLine(editLine(editLine(l, 'interest', '0,47'), 'fine', '2,00'), 'discount', '0,57')
        : editLine(l, 'fine', '0,1'),
    );
    expect(lineTotal(lines[0])).toBe(10200);
    expect(lineTotal(lines[1])).toBe(30);
    expect(settlementTotals(lines)).toEqual({ value: 10030, interest: 47, fine: 210, discount: 57, total: 10230 });
  });

  it('refuse what the server would, in its own words', () => {
    const [line] = startLines([title(7, '100.00')], cols);
    expect(lineError(line)).toBeNull();
    expect(lineError(editLine(line, 'value', ''))).toBe('Informe o valor da baixa do título 7.');
    expect(lineError(editLine(line, 'value', '100,01'))).toBe(
      'Valor da baixa do título 7 (R$ 100,01) maior que o saldo (R$ 100,00).',
    );
    expect(lineError(editLine(line, 'discount', '100,01'))).toBe(
      'O desconto do título 7 não pode ser maior que o valor da baixa.',
    );
    // Interest and fine count towards what a discount may take.
    expect(lineError(editLine(editLine(line, 'interest', '1,00'), 'discount', '101,00'))).toBeNull();
  });
});

describe('settlement body', () => {
  it('carries the date, account, method, remarks and each title as text money', () => {
    const lines = startLines([title(7, '100.00'), title(8, '50.00')], cols);
    const edited = [editLine(lines[0], 'interest', '1,5'), editLine(lines[1], 'value', '20')];
    expect(
      settlementBody({ date: '2026-11-24', bank: '1', method: '2', remarks: '  recebido no caixa ' }, edited),
    ).toEqual({
      DATA: '2026-11-24',
      BCO_ID: 1,
      FRMP_ID: 2,
      OBS: 'recebido no caixa',
      TITULOS: [
        { ID: 7, VALOR: '100.00', JUROS: '1.50', MULTA: '0.00', DESCONTO: '0.00' },
        { ID: 8, VALOR: '20.00', JUROS: '0.00', MULTA: '0.00', DESCONTO: '0.00' },
      ],
    });
    // Left empty, the account and method are the server's defaults (the financial parameters).
    expect(settlementBody({ date: '2026-11-24', bank: '', method: '', remarks: ' ' }, lines)).not.toHaveProperty(
      'BCO_ID',
    );
  });
});

describe('titles settled together', () => {
  it('are open ones of one customer', () => {
    expect(selectionError([title(7, '10.00'), title(8, '5.00')], cols)).toBeNull();
    expect(selectionError([], cols)).toBe('Selecione os títulos a baixar.');
    expect(selectionError([title(7, '10.00'), title(8, '5.00', { CRCB_CLI_ID: 6 })], cols)).toBe(
      'Selecione títulos de um mesmo cliente.',
    );
    expect(selectionError([title(7, '0.00', { CRCB_SITUACAO: 'Q' })], cols)).toBe(
      'Somente títulos em aberto podem ser baixados.',
    );
  });

  it('propose the account and method they share, none when they differ', () => {
    expect(sharedValue([title(7, '1'), title(8, '1')], 'CRCB_BCO_ID')).toBe('1');
    expect(sharedValue([title(7, '1'), title(8, '1', { CRCB_BCO_ID: 3 })], 'CRCB_BCO_ID')).toBe('');
    expect(sharedValue([title(7, '1', { CRCB_BCO_ID: null })], 'CRCB_BCO_ID')).toBe('');
    expect(sharedValue([title(7, '1')], null)).toBe('');
  });
});
