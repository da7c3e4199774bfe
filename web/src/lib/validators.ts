// Validators return the spec's message (screens-and-rules.md §5) or null when valid.
import { isValidCnpj, isValidCpf } from '@brazilian-utils/brazilian-utils';
import { toApiDate } from './format';
import { onlyAlnum } from './masks';
import { MSG, cellMaxMessage, cellMinMessage, maxMessage, minLengthMessage, minMessage, required } from './messages';

export type Validation = string | null;

export function isEmpty(value: unknown): boolean {
  if (value == null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

export const validateRequired = (value: unknown, label: string): Validation =>
  isEmpty(value) ? required(label) : null;

export function validateMax(value: number | null, max: number, prefix = ''): Validation {
  return value != null && value > max ? maxMessage(max, prefix) : null;
}

export function validateMin(value: number | null, min: number, label: string): Validation {
  return value != null && value < min ? minMessage(label, min) : null;
}

export function validateMinLength(value: string, min: number, label: string): Validation {
  return value.length > 0 && value.length < min ? minLengthMessage(label, min) : null;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const validateEmail = (value: string): Validation =>
  value.trim() === '' || EMAIL.test(value.trim()) ? null : MSG.emailInvalid;

/** One phone entry: the mask characters aside, exactly 11 digits. */
export function validatePhone(value: string): Validation {
  const raw = value.replace(/[\s()-]/g, '');
  if (raw === '') return MSG.phoneEmpty;
  return /^\d{11}$/.test(raw) ? null : MSG.phoneIncomplete;
}

/** Modulo 11 over the first 43 digits, weights 2..9 cycling from the right; 10 or more -> 0. */
export function accessKeyCheckDigit(first43: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = first43.length - 1; i >= 0; i--) {
    sum += Number(first43[i]) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const digit = 11 - (sum % 11);
  return digit >= 10 ? 0 : digit;
}

export function validateAccessKey(value: string): Validation {
  const raw = value.replace(/\s/g, '');
  if (!/^\d{44}$/.test(raw)) return MSG.keyIncomplete;
  return accessKeyCheckDigit(raw.slice(0, 43)) === Number(raw[43]) ? null : MSG.keyInvalid;
}

export type DateRelation = 'gte' | 'lte';

/** 'dd/MM/yyyy'; with `other`, this date must be later-or-equal ('gte') or earlier-or-equal. */
export function validateDate(
  value: string,
  options: { other?: string; relation?: DateRelation; message?: string } = {},
): Validation {
  const message = options.message ?? MSG.dateInvalid;
  if (value.trim() === '') return null;
  const api = toApiDate(value);
  if (!api) return message;
  if (options.other && options.relation) {
    const other = toApiDate(options.other);
    if (other) {
      if (options.relation === 'gte' && api < other) return message;
      if (options.relation === 'lte' && api > other) return message;
    }
  }
  return null;
}

export const validateHexColor = (value: string): Validation =>
  value === '' || /^#?[0-9A-Fa-f]{6}$/.test(value) ? null : MSG.hexInvalid;

/** CPF (11 digits) or CNPJ, numeric or the alphanumeric format in force from July 2026. */
export function validateCpfCnpj(value: string): Validation {
  const raw = onlyAlnum(value);
  if (raw === '') return null;
  if (/^\d{11}$/.test(raw)) return isValidCpf(raw) ? null : MSG.cpfCnpjInvalid;
  if (raw.length === 14) return isValidCnpj(raw, { version: 2 }) ? null : MSG.cpfCnpjInvalid;
  return MSG.cpfCnpjInvalid;
}

/** Editable-table money cells. */
export function validateCell(value: number, bounds: { min?: number; max?: number }): Validation {
  if (bounds.max != null && value > bounds.max) return cellMaxMessage(bounds.max);
  if (bounds.min != null && value < bounds.min) return cellMinMessage(bounds.min);
  return null;
}

export const DEFAULT_UPLOAD_TYPES = ['png', 'jpeg', 'pdf'];

/** Extension check; 'jpeg' also admits '.jpg'. */
export function validateUploadType(fileName: string, allowed: string[] = DEFAULT_UPLOAD_TYPES): Validation {
  const ext = fileName.toLowerCase().split('.').pop() ?? '';
  const normalized = ext === 'jpg' ? 'jpeg' : ext;
  return allowed.map((a) => a.toLowerCase()).includes(normalized) ? null : MSG.uploadType;
}

export function validateNewChip(values: string[], candidate: string): Validation {
  return values.includes(candidate) ? MSG.duplicateChip : null;
}
