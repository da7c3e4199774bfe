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
  options: { value: string; text: string }[] | null;
}

export interface Meta {
  name: string;
  path: string;
  title: string;
  labelField: string;
  fields: FieldMeta[];
}

/** A valid CPF from 9 random digits (check digits per Receita Federal's algorithm). */
export function randomCpf(): string {
  const d = Array.from({ length: 9 }, () => Math.floor(Math.random() * 10));
  if (d.every((x) => x === d[0])) d[0] = (d[0] + 1) % 10;
  for (const len of [9, 10]) {
    const sum = d.slice(0, len).reduce((s, x, i) => s + x * (len + 1 - i), 0);
    const r = (sum * 10) % 11;
    d.push(r === 10 ? 0 : r);
  }
  return d.join('');
}

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
      await el.fill(randomCpf());
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
