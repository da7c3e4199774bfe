// Mask tokens: '#' a digit, 'X' a letter or digit (upper-cased), 'A' a letter.
export const PHONE_MASK = '(##) #####-####';
export const CPF_MASK = '###.###.###-##';
export const CNPJ_MASK = 'XX.XXX.XXX/XXXX-##';
export const CEP_MASK = '#####-###';
export const DATE_MASK = '##/##/####';

const TOKENS: Record<string, RegExp> = { '#': /\d/, X: /[0-9A-Za-z]/, A: /[A-Za-z]/ };

export function applyMask(value: string, mask: string): string {
  const chars = [...value].filter((c) => /[0-9A-Za-z]/.test(c));
  let out = '';
  let filled = 0; // length of out up to the last character taken from the input
  let i = 0;
  for (const m of mask) {
    if (i >= chars.length) break;
    const token = TOKENS[m];
    if (!token) {
      out += m;
      continue;
    }
    // Skip input characters the token does not accept.
    while (i < chars.length && !token.test(chars[i])) i++;
    if (i >= chars.length) break;
    out += m === '#' ? chars[i] : chars[i].toUpperCase();
    filled = out.length;
    i++;
  }
  return out.slice(0, filled);
}

export const onlyDigits = (value: string) => value.replace(/\D/g, '');
export const onlyAlnum = (value: string) => value.replace(/[^0-9A-Za-z]/g, '').toUpperCase();

/** CPF while 11 or fewer characters, CNPJ (alphanumeric since 2026) beyond. */
export function maskCpfCnpj(value: string): string {
  const raw = onlyAlnum(value).slice(0, 14);
  if (raw.length <= 11 && /^\d*$/.test(raw)) return applyMask(raw, CPF_MASK);
  return applyMask(raw, CNPJ_MASK);
}

/** A phone as '(11) 98765-4321' (mobile) or '(11) 3456-7890' (landline); other lengths as typed. */
export function maskPhone(value: string): string {
  const d = onlyDigits(value);
  if (d.length === 11) return applyMask(d, PHONE_MASK);
  if (d.length === 10) return applyMask(d, '(##) ####-####');
  return value;
}

/** Names of e-mail attachments keep only letters, digits, underscore and hyphen (extension kept). */
export function sanitizeFileName(name: string): string {
  const dot = name.lastIndexOf('.');
  const base = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot + 1) : '';
  const clean = (s: string) =>
    s
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9_-]/g, '');
  const b = clean(base) || 'arquivo';
  const e = clean(ext);
  return e ? `${b}.${e}` : b;
}
