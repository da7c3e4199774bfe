// Filling a generic register form from its ResourceMeta, as a user would type it.
import type { Page } from 'playwright-core';

export interface FieldMeta {
  name: string;
  label: string;
  kind: string;
  required: boolean;
  editable: boolean;
  min: string | null;
  length: number | null;
  defaultValue?: unknown;
  options: { value: string; text: string }[] | null;
}

export interface Meta {
  name: string;
  path: string;
  title: string;
  labelField: string;
  fields: FieldMeta[];
}

const randomDigits = (n: number) => {
  const d = Array.from({ length: n }, () => Math.floor(Math.random() * 10));
  if (d.every((x) => x === d[0])) d[0] = (d[0] + 1) % 10;
  return d;
};

/** A valid CPF from 9 random digits (check digits per Receita Federal's algorithm). */
export function randomCpf(): string {
  const d = randomDigits(9);
  for (const len of [9, 10]) {
    const sum = d.slice(0, len).reduce((s, x, i) => s + x * (len + 1 - i), 0);
    const r = (sum * 10) % 11;
    d.push(r === 10 ? 0 : r);
  }
  return d.join('');
}

/** A valid numeric CNPJ from 12 random digits (weights 5..2,9..2 and 6..2,9..2). */
export function randomCnpj(): string {
  const d = randomDigits(12);
  for (const len of [12, 13]) {
    const weights = len === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    const r = d.slice(0, len).reduce((s, x, i) => s + x * weights[i], 0) % 11;
    d.push(r < 2 ? 0 : 11 - r);
  }
  return d.join('');
}

/** A CNPJ field is told apart from a CPF one by its label or its masked length (18). */
export const wantsCnpj = (f: FieldMeta) =>
  (/CNPJ|CGC/i.test(f.label) && !/CPF/i.test(f.label)) || (f.length ?? 0) >= 18;

/** Kinds the client or the server checks for form: worth filling even when not required. */
export const CHECKED_KINDS = new Set(['CPF_CNPJ', 'EMAIL', 'PHONES', 'CEP', 'DATE']);

const today = () => {
  const n = new Date();
  return `${String(n.getDate()).padStart(2, '0')}/${String(n.getMonth() + 1).padStart(2, '0')}/${n.getFullYear()}`;
};

// Public example key (brazilian-utils documentation, isValidNfeKey).
const ACCESS_KEY = '35170458716523000119550010000000121000123458';

export const fieldLocator = (page: Page, name: string) => page.locator(`[id$="-${name}"]`).first();

/** Types a valid value into one field; returns false for kinds a script cannot fill (files). */
export async function fillField(page: Page, f: FieldMeta, text: string): Promise<boolean> {
  const el = fieldLocator(page, f.name);
  switch (f.kind) {
    case 'TEXT':
      await el.fill(f.length ? text.slice(0, f.length) : text);
      return true;
    case 'TEXTAREA':
      await el.fill(`${text} ${'x'.repeat(Number(f.min ?? 0))}`);
      return true;
    case 'EMAIL':
      await el.fill('e2e@example.com');
      return true;
    case 'PASSWORD':
      await el.fill('Senha123!');
      return true;
    case 'CPF_CNPJ':
      await el.fill(wantsCnpj(f) ? randomCnpj() : randomCpf());
      return true;
    case 'CEP':
      await el.fill('01001000');
      return true;
    case 'NUMBER':
      await el.fill(f.min ?? '1');
      return true;
    case 'MONEY':
      await el.fill(f.min ?? '10,00');
      return true;
    case 'DATE':
      await el.fill(today());
      return true;
    case 'COLOR':
      await el.fill('#365998');
      return true;
    case 'ACCESS_KEY':
      await el.fill(ACCESS_KEY);
      return true;
    case 'BARCODE':
      await el.fill('7891000100103');
      return true;
    case 'PHONES':
      await el.fill('11987654321');
      await el.press('Enter');
      return true;
    case 'BOOLEAN':
      await el.check();
      return true;
    case 'COMBOBOX':
      // Options of a referenced register arrive after the field shows.
      await el.locator('option:nth-child(2)').waitFor({ state: 'attached', timeout: 10_000 });
      await el.selectOption({ index: 1 });
      return true;
    case 'SITUATION':
      await el.getByRole('radio').first().click();
      return true;
    case 'CHECKLIST':
      await el.getByRole('checkbox').first().check();
      return true;
    case 'AUTOCOMPLETE':
    case 'CHIPS':
      await el.click();
      await el.fill('');
      await page.locator(`[id$="-${f.name}-list"] [role=option] button`).first().click({ timeout: 10_000 });
      return true;
    default:
      return false;
  }
}
