// A company's fiscal services settings (register `empresasservicos`,
// services/fiscal/src/resources/company): the settings are the register's own groups and fields
// (one group per document type: environment, tax regime, series...), the certificate is the
// group that holds the upload field (its other fields are what the server read of the file).
import type { FormValues, GroupDescriptor } from '../../components/fields/types';
import type { Row } from '../../components/tables/types';
import { formatDate, formatTimestamp } from '../../lib/format';
import { maskCpfCnpj, onlyAlnum, onlyDigits } from '../../lib/masks';
import { isTrue, metaGroups, valuesToRow, type ResourceMeta } from '../../lib/resources/metaFields';

export const SERVICES = 'empresasservicos';

/** The server's messages for what the screen checks first (certificate.rs). */
export const NO_PASSWORD = 'Informe a senha do certificado digital.';
export const NO_FILE = 'Selecione o arquivo do certificado digital (.pfx).';

/**
 * The document type of the path `PUT /empresasservicos/nuvemfiscal/{tipo}/{EMP_CGC}`, by the
 * prefix of a group's environment field (`EMPS_{prefix}_AMBIENTE`).
 */
const TYPES: Record<string, string> = {
  NFE: 'nfe',
  NFCE: 'nfce',
  NFSE: 'nfse',
  MDFE: 'mdfe',
  CTE: 'cte',
  CTE_OS: 'cte_os',
  DCE: 'dce',
  NFCON: 'nfcom',
  DIST: 'distnfe',
};

/** The group's document type for the provider, or null when it is not a document type's. */
export function docTypeOf(group: GroupDescriptor): string | null {
  for (const f of group.fields) {
    const m = /^EMPS_(.+)_AMBIENTE$/.exec(f.name);
    if (m && TYPES[m[1]]) return TYPES[m[1]];
  }
  return null;
}

const isUpload = (meta: ResourceMeta, name: string) => meta.fields.find((f) => f.name === name)?.kind === 'UPLOAD';

/**
 * The register's groups split: the settings the user edits (editable fields; the certificate's
 * group and the fields the server fills left out) and the certificate's fields as read.
 */
export function splitGroups(meta: ResourceMeta) {
  const certGroup = meta.groups.find((g) => g.fields.some((n) => isUpload(meta, n)));
  const certNames = new Set(certGroup?.fields ?? []);
  const settings: GroupDescriptor[] = metaGroups(meta)
    .map((g) => ({ ...g, fields: g.fields.filter((f) => f.editable !== false && !certNames.has(f.name)) }))
    .filter((g) => g.fields.length > 0);
  const certificate = meta.fields.filter((f) => certNames.has(f.name) && f.kind !== 'UPLOAD');
  return { settings, certificate, certTitle: certGroup?.title ?? 'Certificado Digital' };
}

/** The settings as the server takes them: the edited fields only; a secret left empty is kept as stored. */
export function settingsRow(meta: ResourceMeta, settings: GroupDescriptor[], values: FormValues): Row {
  const all = valuesToRow(meta, values);
  const row: Row = {};
  for (const g of settings) {
    for (const f of g.fields) {
      const v = all[f.name];
      if (f.type === 'PASSWORD' && (v == null || v === '')) continue;
      row[f.name] = v;
    }
  }
  return row;
}

/** One fact of the certificate, formatted as the screen shows it (dd/MM/yyyy, Sim/Não). */
export interface Fact {
  name: string;
  label: string;
  value: string;
}

function shown(kind: string, v: unknown): string {
  if (v == null || v === '') return '';
  if (kind === 'BOOLEAN') return isTrue(v) ? 'Sim' : 'Não';
  if (kind === 'DATE') return formatDate(String(v));
  const text = String(v);
  if (/^\d{4}-\d{2}-\d{2}T/.test(text)) return formatTimestamp(text);
  const digits = onlyDigits(text);
  if ((digits.length === 11 || digits.length === 14) && digits === text) return maskCpfCnpj(text);
  return text;
}

/** The certificate's facts the row holds (none when no certificate was sent). */
export function certificateFacts(fields: ResourceMeta['fields'], row: Row | null): Fact[] {
  if (!row) return [];
  return fields
    .map((f) => ({ name: f.name, label: f.label, value: shown(f.kind, row[f.name]) }))
    .filter((f) => f.value !== '');
}

/** The CPF/CNPJ the provider knows the company by: the settings', else the company register's. */
export function companyDocument(settings: Row | null, company: Row): string {
  return onlyAlnum(String(settings?.EMPS_CPF_CNPJ ?? '') || String(company.EMP_CGC ?? ''));
}
