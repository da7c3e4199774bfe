import { describe, expect, it } from 'vitest';
import { formatCell, groupRows, monthlyColumns, sumColumn, summedColumns } from './cells';
import type { ReportColumn } from './types';

const col = (CAMPO: string, TIPO: ReportColumn['TIPO']): ReportColumn => ({ CAMPO, ROTULO: CAMPO, TIPO });

describe('report cells', () => {
  it('are shown by their type', () => {
    expect(formatCell('dinheiro', '1234.5')).toBe('R$ 1.234,50');
    expect(formatCell('dinheiro', -12.5)).toBe('-R$ 12,50');
    expect(formatCell('dinheiro', -0.004)).toBe('R$ 0,00');
    expect(formatCell('quantidade', 1.23456)).toBe('1,2346');
    expect(formatCell('quantidade', '10')).toBe('10,0000');
    expect(formatCell('percentual', 12.34)).toBe('12,34%');
    expect(formatCell('inteiro', 12345)).toBe('12345');
    expect(formatCell('data', '2026-01-31')).toBe('31/01/2026');
    expect(formatCell('texto', 'ABC')).toBe('ABC');
    expect(formatCell('dinheiro', null)).toBe('');
    expect(formatCell('quantidade', '')).toBe('');
  });

  it('sum in whole units of the last decimal', () => {
    const rows = [
      { V: 0.1, Q: 0.0001 },
      { V: '0.2', Q: '0.0002' },
      { V: null, Q: 1 },
    ];
    expect(sumColumn(rows, col('V', 'dinheiro'))).toBe(0.3);
    expect(sumColumn(rows, col('Q', 'quantidade'))).toBe(1.0003);
  });

  it('subtotal the columns the server totals, else money and quantities', () => {
    const cols = [col('A', 'texto'), col('V', 'dinheiro'), col('Q', 'quantidade'), col('P', 'percentual')];
    expect(summedColumns(cols, { P: 100 }).map((c) => c.CAMPO)).toEqual(['P']);
    expect(summedColumns(cols, {}).map((c) => c.CAMPO)).toEqual(['V', 'Q']);
  });

  it('group rows in the order their first row comes', () => {
    const groups = groupRows([{ G: 'B' }, { G: 'A' }, { G: 'B' }, { G: null }], 'G');
    expect(groups.map((g) => [g.key, g.rows.length])).toEqual([
      ['B', 2],
      ['A', 1],
      ['', 1],
    ]);
  });

  it('lay the monthly curve out as Jan..Dez and Total', () => {
    const { leading, months } = monthlyColumns([
      col('PROD', 'texto'),
      col('M1', 'quantidade'),
      col('M13', 'quantidade'),
    ]);
    expect(leading.map((c) => c.CAMPO)).toEqual(['PROD']);
    expect(months.map((c) => c.ROTULO).join(' ')).toBe('Jan Fev Mar Abr Mai Jun Jul Ago Set Out Nov Dez Total');
    expect(months.map((c) => c.CAMPO)[12]).toBe('M13');
    expect(new Set(months.map((c) => c.TIPO))).toEqual(new Set(['quantidade']));
  });
});
