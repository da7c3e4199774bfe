import { describe, expect, it } from 'vitest';
import type { FieldDescriptor } from './types';
import { validateField } from './validateField';

const f = (over: Partial<FieldDescriptor>): FieldDescriptor => ({ name: 'X', type: 'TEXT', text: 'Campo', ...over });

describe('validateField', () => {
  it('checks required before the kind rules', () => {
    expect(validateField(f({ required: true, type: 'EMAIL' }), '')).toBe('Campo é obrigatório!');
    expect(validateField(f({ required: true, type: 'COMBOBOX', text: 'Cidade' }), '')).toBe('Cidade é obrigatório!');
  });
  it('skips rules of empty optional fields and hidden fields', () => {
    expect(validateField(f({ type: 'ACCESS_KEY' }), '')).toBeNull();
    expect(validateField(f({ required: true, mostrar: false }), '')).toBeNull();
  });
  it('a blocked field is always invalid', () => {
    expect(validateField(f({ blocked: 'Campo bloqueado' }), 'qualquer')).toBe('Campo bloqueado');
  });
  it('number bounds with the label and prefix', () => {
    expect(validateField(f({ type: 'NUMBER', text: 'Qtd', min: '1' }), '0')).toBe(
      'O campo Qtd deve ser maior ou igual a 1 ',
    );
    expect(validateField(f({ type: 'MONEY', max: '99,90', prefix: ' reais' }), '100,00')).toBe(
      'Valor Máximo permitido para o campo: 99.9 reais',
    );
  });
  it('textarea minimum length', () => {
    expect(validateField(f({ type: 'TEXTAREA', text: 'Obs', min: 10 }), 'curto')).toBe(
      'O campo Obs deve ter no minimo 10 caracteres.',
    );
  });
  it('kind rules: access key, colour, CPF/CNPJ, phones, date compare', () => {
    expect(validateField(f({ type: 'ACCESS_KEY' }), '123')).toBe('Número incompleto.');
    expect(validateField(f({ type: 'COLOR' }), '#12')).toBe('Valor hexadecimal inválido.');
    expect(validateField(f({ type: 'CPF_CNPJ' }), '11.222.333/0001-80')).toBe('CPF/CNPJ inválido.');
    expect(validateField(f({ type: 'PHONES' }), ['11987654321', '1234'])).toBe('Número incompleto');
    const end = f({
      type: 'DATE',
      compare: { field: 'INI', relation: 'gte', message: 'Data final menor que a inicial' },
    });
    expect(validateField(end, '01/01/2024', { INI: '05/01/2024' })).toBe('Data final menor que a inicial');
    expect(validateField(end, '06/01/2024', { INI: '05/01/2024' })).toBeNull();
    expect(validateField(f({ type: 'DATE' }), '32/01/2024')).toBe('Data inválida');
  });
});
