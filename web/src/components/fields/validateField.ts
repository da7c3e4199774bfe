import { parseBRNumber } from '../../lib/format';
import {
  isEmpty,
  validateAccessKey,
  validateCpfCnpj,
  validateDate,
  validateEmail,
  validateHexColor,
  validateMax,
  validateMin,
  validateMinLength,
  validatePhone,
  validateRequired,
  type Validation,
} from '../../lib/validators';
import type { FieldDescriptor, FormValues } from './types';

const num = (v: string | number | null | undefined) =>
  v == null || v === '' ? null : typeof v === 'number' ? v : parseBRNumber(v);

/** The first rule the value breaks, in the order of spec §5, or null. */
export function validateField(field: FieldDescriptor, value: unknown, values: FormValues = {}): Validation {
  if (field.mostrar === false) return null;
  if (field.blocked !== undefined) return field.blocked;
  if (field.required) {
    const msg = validateRequired(value, field.text);
    if (msg) return msg;
  }
  if (isEmpty(value)) return null;
  const text = typeof value === 'string' ? value : '';
  switch (field.type) {
    case 'NUMBER':
    case 'MONEY': {
      const n = parseBRNumber(text || (value as number));
      const max = num(field.max);
      const min = num(field.min);
      return (
        (max != null ? validateMax(n, max, field.prefix) : null) ??
        (min != null ? validateMin(n, min, field.text) : null)
      );
    }
    case 'TEXTAREA': {
      const min = num(field.min);
      return min != null ? validateMinLength(text, min, field.text) : null;
    }
    case 'EMAIL':
      return validateEmail(text);
    case 'PHONES':
      return Array.isArray(value) ? (value.map((v) => validatePhone(String(v))).find(Boolean) ?? null) : null;
    case 'ACCESS_KEY':
      return validateAccessKey(text);
    case 'DATE':
      return validateDate(text, {
        other: field.compare ? String(values[field.compare.field] ?? '') : undefined,
        relation: field.compare?.relation,
        message: field.compare?.message,
      });
    case 'COLOR':
      return validateHexColor(text);
    case 'CPF_CNPJ':
      return validateCpfCnpj(text);
    default:
      return null;
  }
}
