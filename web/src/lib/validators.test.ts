import { describe, expect, it } from 'vitest';
import {
  accessKeyCheckDigit,
  validateAccessKey,
  validateCell,
  validateCpfCnpj,
  validateDate,
  validateEmail,
  validateHexColor,
  validateMax,
  validateMin,
  validateMinLength,
  validateNewChip,
  validatePhone,
  validateRequired,
  validateUploadType,
} from './validators';

// Public test vectors:
// - CPF 123.456.789-09 and CNPJ 12.345.678/0001-95, Q0.SLF.MBD/7VX4-39: examples in the
//   documentation of @brazilian-utils/brazilian-utils (isValidCpf / isValidCnpj JSDoc).
// - CNPJ 12.ABC.345/01DE-35: the worked example of Receita Federal's "Manual de cálculo do DV
//   do CNPJ alfanumérico" (gov.br, CNPJ alfanumérico, in force from July 2026).
// - CNPJ 11.222.333/0001-81 and CPF 529.982.247-25: the examples used across Brazilian
//   validation tutorials (e.g. the macoratti.net and devmedia CPF/CNPJ articles).
// - NF-e key 35170458716523000119550010000000121000123458: isValidNfeKey example in the
//   same brazilian-utils documentation (SP, April 2017, modelo 55).

describe('required', () => {
  it('says "{label} é obrigatório!" for empty values', () => {
    expect(validateRequired('', 'Nome')).toBe('Nome é obrigatório!');
    expect(validateRequired('   ', 'Nome')).toBe('Nome é obrigatório!');
    expect(validateRequired(null, 'Cidade')).toBe('Cidade é obrigatório!');
    expect(validateRequired([], 'Telefones')).toBe('Telefones é obrigatório!');
    expect(validateRequired('x', 'Nome')).toBeNull();
    expect(validateRequired(0, 'Qtd')).toBeNull();
  });
});

describe('max and min', () => {
  it('uses the max message with its prefix', () => {
    expect(validateMax(11, 10)).toBe('Valor Máximo permitido para o campo: 10');
    expect(validateMax(101, 100, '%')).toBe('Valor Máximo permitido para o campo: 100%');
    expect(validateMax(10, 10)).toBeNull();
  });
  it('uses the min message, trailing space included', () => {
    expect(validateMin(1, 2, 'Quantidade')).toBe('O campo Quantidade deve ser maior ou igual a 2 ');
    expect(validateMin(2, 2, 'Quantidade')).toBeNull();
  });
  it('checks the minimum length of multi-line text', () => {
    expect(validateMinLength('abc', 5, 'Observação')).toBe('O campo Observação deve ter no minimo 5 caracteres.');
    expect(validateMinLength('abcde', 5, 'Observação')).toBeNull();
  });
});

describe('e-mail', () => {
  it('allows empty and rejects malformed addresses', () => {
    expect(validateEmail('')).toBeNull();
    expect(validateEmail('ana@empresa.com.br')).toBeNull();
    expect(validateEmail('ana@empresa')).toBe('E-mail inválido.');
    expect(validateEmail('ana empresa.com')).toBe('E-mail inválido.');
  });
});

describe('phone', () => {
  it('needs exactly 11 digits', () => {
    expect(validatePhone('(11) 98765-4321')).toBeNull();
    expect(validatePhone('11987654321')).toBeNull();
    expect(validatePhone('(11) 8765-4321')).toBe('Número incompleto');
    expect(validatePhone('1198765432a')).toBe('Número incompleto');
    expect(validatePhone('')).toBe('Número incompleto.');
  });
});

describe('invoice access key', () => {
  const key = '35170458716523000119550010000000121000123458';
  it('computes the modulo 11 check digit with weights 2..9 from the right', () => {
    expect(accessKeyCheckDigit(key.slice(0, 43))).toBe(8);
  });
  it('maps a result of 10 or more to 0', () => {
    // All zeros: remainder 0, 11 - 0 = 11 -> 0.
    expect(accessKeyCheckDigit('0'.repeat(43))).toBe(0);
    // A 5 at weight 2: sum 10, 11 - 10 = 1.
    expect(accessKeyCheckDigit('0'.repeat(42) + '5')).toBe(1);
    // 1 at weight 3 and 4 at weight 2: sum 11, remainder 0 -> 11 -> 0.
    expect(accessKeyCheckDigit('0'.repeat(41) + '14')).toBe(0);
    // 9 at weight 2: sum 18, remainder 7, 11 - 7 = 4.
    expect(accessKeyCheckDigit('0'.repeat(42) + '9')).toBe(4);
    // 1 at weight 9 (8th from the right) and 1 at weight 2 (after the cycle restarts at the 9th).
    expect(accessKeyCheckDigit('0'.repeat(34) + '100000001')).toBe(11 - ((2 + 2) % 11));
  });
  it('gives the spec messages', () => {
    expect(validateAccessKey(key)).toBeNull();
    expect(validateAccessKey(key.slice(0, 43))).toBe('Número incompleto.');
    expect(validateAccessKey(`${key.slice(0, 43)}A`)).toBe('Número incompleto.');
    expect(validateAccessKey(`${key.slice(0, 43)}9`)).toBe('Número inválido.');
  });
});

describe('date', () => {
  it('accepts real dd/MM/yyyy dates only', () => {
    expect(validateDate('29/02/2024')).toBeNull();
    expect(validateDate('29/02/2023')).toBe('Data inválida');
    expect(validateDate('31/04/2024')).toBe('Data inválida');
    expect(validateDate('2024-01-01')).toBe('Data inválida');
    expect(validateDate('')).toBeNull();
  });
  it('compares with another date and uses the custom text', () => {
    const message = 'Data final deve ser maior que a inicial';
    expect(validateDate('01/01/2024', { other: '02/01/2024', relation: 'gte', message })).toBe(message);
    expect(validateDate('02/01/2024', { other: '02/01/2024', relation: 'gte', message })).toBeNull();
    expect(validateDate('03/01/2024', { other: '02/01/2024', relation: 'lte' })).toBe('Data inválida');
  });
});

describe('hex colour', () => {
  it('needs 6 hex digits', () => {
    expect(validateHexColor('#365998')).toBeNull();
    expect(validateHexColor('f51515')).toBeNull();
    expect(validateHexColor('#36599')).toBe('Valor hexadecimal inválido.');
    expect(validateHexColor('#GG5998')).toBe('Valor hexadecimal inválido.');
  });
});

describe('CPF/CNPJ', () => {
  it('validates CPFs', () => {
    expect(validateCpfCnpj('123.456.789-09')).toBeNull();
    expect(validateCpfCnpj('529.982.247-25')).toBeNull();
    expect(validateCpfCnpj('123.456.789-00')).toBe('CPF/CNPJ inválido.');
    expect(validateCpfCnpj('111.111.111-11')).toBe('CPF/CNPJ inválido.');
  });
  it('validates numeric CNPJs', () => {
    expect(validateCpfCnpj('11.222.333/0001-81')).toBeNull();
    expect(validateCpfCnpj('12.345.678/0001-95')).toBeNull();
    expect(validateCpfCnpj('11.222.333/0001-82')).toBe('CPF/CNPJ inválido.');
  });
  it('validates the alphanumeric CNPJ of 2026', () => {
    expect(validateCpfCnpj('12.ABC.345/01DE-35')).toBeNull();
    expect(validateCpfCnpj('12abc34501de35')).toBeNull();
    expect(validateCpfCnpj('Q0.SLF.MBD/7VX4-39')).toBeNull();
    expect(validateCpfCnpj('12.ABC.345/01DE-36')).toBe('CPF/CNPJ inválido.');
  });
  it('rejects lengths that are neither', () => {
    expect(validateCpfCnpj('1234')).toBe('CPF/CNPJ inválido.');
  });
});

describe('editable table money cells', () => {
  it('uses the per-row bounds', () => {
    expect(validateCell(150, { max: 100 })).toBe('O valor deve ser menor do que 100');
    expect(validateCell(5, { min: 10 })).toBe('O valor deve ser maior do que 10');
    expect(validateCell(50, { min: 10, max: 100 })).toBeNull();
  });
});

describe('upload types and chips', () => {
  it('allows png, jpeg and pdf by default', () => {
    expect(validateUploadType('foto.PNG')).toBeNull();
    expect(validateUploadType('foto.jpg')).toBeNull();
    expect(validateUploadType('nota.pdf')).toBeNull();
    expect(validateUploadType('planilha.xlsx')).toBe('Permitidos apenas imagens e PDF!');
    expect(validateUploadType('cert.pfx', ['pdf', 'crt', 'cer', 'pem', 'key', 'pfx'])).toBeNull();
  });
  it('refuses a chip already added', () => {
    expect(validateNewChip(['1', '2'], '2')).toBe('Item já adicionado');
    expect(validateNewChip(['1'], '2')).toBeNull();
  });
});
