import { describe, expect, it } from 'vitest';
import {
  addDays,
  apiDateOf,
  centsToApi,
  centsToField,
  formatDate,
  formatMoney,
  formatQuantity,
  formatTimestamp,
  isRealDate,
  parseBRNumber,
  toApiDate,
  toCents,
} from './format';
import { CNPJ_MASK, PHONE_MASK, applyMask, maskCpfCnpj, sanitizeFileName } from './masks';
import { isNewerVersion, versionNumber } from './version';

describe('pt-BR formatting', () => {
  it('formats money as R$ with 2 decimals', () => {
    expect(formatMoney(1234.5)).toBe('R$ 1.234,50');
    expect(formatMoney(0)).toBe('R$ 0,00');
    expect(formatMoney('10.005')).toBe('R$ 10,01');
    expect(formatMoney(-3)).toBe('-R$ 3,00');
  });
  it('formats quantities with up to 4 decimals', () => {
    expect(formatQuantity(2)).toBe('2');
    expect(formatQuantity(1.23456)).toBe('1,2346');
    expect(formatQuantity(1000.5)).toBe('1.000,5');
  });
  it('parses pt-BR numbers', () => {
    expect(parseBRNumber('1.234,56')).toBe(1234.56);
    expect(parseBRNumber('R$ 10,00')).toBe(10);
    expect(parseBRNumber('12.5')).toBe(12.5);
    expect(parseBRNumber('')).toBeNull();
    expect(parseBRNumber('abc')).toBeNull();
  });
  it('shows dd/MM/yyyy and sends yyyy-MM-dd', () => {
    expect(formatDate('2024-03-09')).toBe('09/03/2024');
    expect(formatDate('2024-03-09T10:00:00Z')).toBe('09/03/2024');
    expect(toApiDate('09/03/2024')).toBe('2024-03-09');
    expect(toApiDate('31/02/2024')).toBeNull();
    expect(isRealDate(29, 2, 2000)).toBe(true);
    expect(isRealDate(29, 2, 1900)).toBe(false);
  });
});

describe('masks', () => {
  it('applies the phone mask', () => {
    expect(applyMask('11987654321', PHONE_MASK)).toBe('(11) 98765-4321');
    expect(applyMask('119', PHONE_MASK)).toBe('(11) 9');
  });
  it('masks CPF while short and CNPJ (alphanumeric too) beyond', () => {
    expect(maskCpfCnpj('52998224725')).toBe('529.982.247-25');
    expect(maskCpfCnpj('11222333000181')).toBe('11.222.333/0001-81');
    expect(maskCpfCnpj('12abc34501de35')).toBe('12.ABC.345/01DE-35');
    expect(applyMask('12ABC34501DEXY', CNPJ_MASK)).toBe('12.ABC.345/01DE');
  });
  it('sanitises attachment names to letters, digits, underscore and hyphen', () => {
    expect(sanitizeFileName('Relatório de vendas (março).pdf')).toBe('Relatoriodevendasmarco.pdf');
    expect(sanitizeFileName('nota_fiscal-123.xml')).toBe('nota_fiscal-123.xml');
    expect(sanitizeFileName('###.png')).toBe('arquivo.png');
  });
});

describe('version', () => {
  it('compares digits only, without "beta"', () => {
    expect(versionNumber('4.0.2 Beta')).toBe(402);
    expect(isNewerVersion('4.0.3')).toBe(true);
    expect(isNewerVersion('4.0.3beta')).toBe(true);
    expect(isNewerVersion('4.0.2 BETA')).toBe(false);
    expect(isNewerVersion('4.0.1')).toBe(false);
    expect(isNewerVersion('')).toBe(false);
  });
});

describe('formatTimestamp', () => {
  it('shows server timestamps as dd/MM/yyyy HH:mm and leaves other text alone', () => {
    const d = new Date(2026, 10, 22, 3, 44, 19);
    expect(formatTimestamp(d.toISOString())).toBe('22/11/2026 03:44');
    expect(formatTimestamp('Oficina do Zé')).toBe('Oficina do Zé');
    expect(formatTimestamp('')).toBe('');
  });
});

describe('calendar days and cents', () => {
  it('writes a local day as yyyy-MM-dd and moves it across months and years', () => {
    expect(apiDateOf(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
  });
  it('sums money in cents, whatever form the value came in', () => {
    expect(toCents('1.234,56')).toBe(123456);
    expect(toCents('150.00')).toBe(15000);
    expect(toCents(0.1) + toCents(0.2)).toBe(30);
    expect(toCents(12.345)).toBe(1235);
    expect(toCents(1.005)).toBe(101);
    expect(toCents('')).toBe(0);
    expect(toCents(null)).toBe(0);
    expect(centsToApi(1235)).toBe('12.35');
    expect(centsToApi(-50)).toBe('-0.50');
    expect(centsToField(123456)).toBe('1.234,56');
  });
});
