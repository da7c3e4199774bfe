// ResourceMeta (from the gateway) -> the shared form and table models, and the conversions
// between rows as the API sends them and values as the screen edits them.
import type { FieldDescriptor, FormValues, GroupDescriptor } from '../../components/fields/types';
import type { Column, Row, SortState } from '../../components/tables/types';
import type { ResourceMetaFieldsFragment } from '../../generated/graphql';
import { formatDate, formatMoney, formatNumber, parseBRNumber, toApiDate } from '../format';
import { CEP_MASK, applyMask, maskCpfCnpj, maskPhone, onlyDigits } from '../masks';

export type ResourceMeta = ResourceMetaFieldsFragment;
type FieldMeta = ResourceMeta['fields'][number];

/** A document's header register: the meta with its lines, totals, status and layout. */
export type DocumentRegister = ResourceMeta & { document: NonNullable<ResourceMeta['document']> };
export const isDocument = (meta: ResourceMeta): meta is DocumentRegister => meta.document != null;

export function toDescriptor(f: FieldMeta): FieldDescriptor {
  return {
    name: f.name,
    type: f.kind,
    text: f.label,
    required: f.required,
    editable: f.editable,
    mask: f.mask,
    length: f.length,
    min: f.min,
    max: f.max,
    options: f.options,
    reference: f.reference,
    uploadTypes: f.uploadTypes,
    width: f.width || 6,
    // A field the register keeps out of its form (a stored XML) is not rendered nor validated.
    mostrar: f.inForm,
  };
}

/** The meta's groups; fields no group names are gathered in a last untitled group. */
export function metaGroups(meta: ResourceMeta): GroupDescriptor[] {
  const byName = new Map(meta.fields.map((f) => [f.name, f]));
  const used = new Set<string>();
  const groups: GroupDescriptor[] = meta.groups.map((g) => ({
    title: g.title,
    framed: g.framed,
    width: g.width || 12,
    mostrar: true,
    fields: g.fields.flatMap((n) => {
      const f = byName.get(n);
      if (!f) return [];
      used.add(n);
      return [toDescriptor(f)];
    }),
  }));
  const rest = meta.fields.filter((f) => !used.has(f.name));
  if (rest.length) groups.push({ framed: false, width: 12, fields: rest.map(toDescriptor) });
  // A group of fields all kept out of the form would be an empty frame.
  return groups.filter((g) => g.fields.some((f) => f.mostrar !== false));
}

/** A boolean as rows carry it: true, 1, '1', 'S' or 'true'. */
export const isTrue = (v: unknown) => v === true || v === 1 || v === '1' || v === 'S' || v === 'true';
const toList = (v: unknown): string[] =>
  Array.isArray(v)
    ? v.map(String)
    : typeof v === 'string' && v !== ''
      ? v
          .split(/[;,]/)
          .map((s) => s.trim())
          .filter(Boolean)
      : [];

/** Texts of referenced rows: reference name -> id -> text. */
export type ReferenceTexts = Record<string, Record<string, string>>;

function cellFormat(f: FieldMeta, texts: ReferenceTexts): Column['format'] {
  if (f.reference) {
    const ref = f.reference;
    return (v) => {
      if (v == null || v === '') return '';
      const list = Array.isArray(v) ? v.map(String) : [String(v)];
      return list.map((id) => texts[ref]?.[id] ?? id).join(', ');
    };
  }
  switch (f.kind) {
    case 'MONEY':
      return (v) => (v == null || v === '' ? '' : formatMoney(Number(v)));
    case 'DATE':
      return (v) => formatDate(v == null ? '' : String(v));
    case 'BOOLEAN':
      return (v) => (isTrue(v) ? 'Sim' : 'Não');
    case 'CPF_CNPJ':
      return (v) => (v == null ? '' : maskCpfCnpj(String(v)));
    case 'CEP':
      return (v) => (v == null ? '' : applyMask(String(v), CEP_MASK));
    case 'PHONES':
      return (v) =>
        toList(v)
          .map((p) => maskPhone(p))
          .join(', ');
    case 'COMBOBOX':
    case 'SITUATION':
      return (v) => f.options?.find((o) => o.value === String(v))?.text ?? (v == null ? '' : String(v));
    default:
      return undefined;
  }
}

const NOWRAP_KINDS = new Set<string>(['CPF_CNPJ', 'CEP', 'PHONES', 'DATE', 'MONEY', 'NUMBER']);

/** The fields a list shows: those marked inList, else the first four. */
export function listFields(meta: ResourceMeta): FieldMeta[] {
  const shown = meta.fields.filter((f) => f.inList);
  return shown.length ? shown : meta.fields.slice(0, 4);
}

/** The list's columns; a document's status shows as a badge of its label's tone. */
export function listColumns(meta: ResourceMeta, texts: ReferenceTexts = {}): Column[] {
  const status = meta.document?.status;
  const tone = (v: unknown) => status?.labels.find((l) => l.value === String(v ?? ''))?.tone;
  return listFields(meta).map((f) => ({
    key: f.name,
    label: f.label,
    format: cellFormat(f, texts),
    align: f.kind === 'MONEY' || f.kind === 'NUMBER' ? 'right' : 'left',
    nowrap: NOWRAP_KINDS.has(f.kind),
    ...(status && f.name === status.field ? { tone } : {}),
  }));
}

/** A row from the API as the form edits it. */
export function rowToValues(meta: ResourceMeta, row: Row | null): FormValues {
  const values: FormValues = {};
  for (const f of meta.fields) {
    // A new record starts from the register's defaults (person type, situation...).
    const v = row ? row[f.name] : (f.defaultValue ?? undefined);
    switch (f.kind) {
      case 'MONEY':
        values[f.name] = v == null || v === '' ? '' : formatNumber(Number(v), 2, 2);
        break;
      case 'NUMBER':
        values[f.name] = v == null ? '' : String(v).replace('.', ',');
        break;
      case 'DATE':
        values[f.name] = formatDate(v == null ? '' : String(v));
        break;
      case 'BOOLEAN':
        values[f.name] = isTrue(v);
        break;
      case 'PHONES':
        values[f.name] = toList(v).map(onlyDigits);
        break;
      case 'CHIPS':
      case 'CHECKLIST':
      case 'UPLOAD':
      case 'GALLERY':
        values[f.name] = toList(v);
        break;
      case 'CPF_CNPJ':
        values[f.name] = v == null ? '' : maskCpfCnpj(String(v));
        break;
      case 'CEP':
        values[f.name] = v == null ? '' : applyMask(String(v), CEP_MASK);
        break;
      default:
        values[f.name] = v == null ? '' : String(v);
    }
  }
  return values;
}

/** The form's values as the API takes them: numbers, yyyy-MM-dd dates, null for empty. */
export function valuesToRow(meta: ResourceMeta, values: FormValues): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const f of meta.fields) {
    const v = values[f.name];
    const empty = v == null || v === '';
    switch (f.kind) {
      case 'MONEY':
      case 'NUMBER':
        row[f.name] = empty ? null : parseBRNumber(String(v));
        break;
      case 'DATE':
        row[f.name] = empty ? null : toApiDate(String(v));
        break;
      case 'BOOLEAN':
        row[f.name] = Boolean(v);
        break;
      case 'PHONES':
        row[f.name] = Array.isArray(v) && v.length ? v.join(';') : null;
        break;
      case 'CHIPS':
      case 'CHECKLIST':
      case 'UPLOAD':
      case 'GALLERY':
        row[f.name] = Array.isArray(v) ? v : [];
        break;
      default:
        row[f.name] = empty ? null : v;
    }
  }
  return row;
}

/** A referenced register's column that another field of the same form decides. */
export interface ReferenceLink {
  /** The field whose options are narrowed (vehicle model). */
  field: string;
  /** The column of the referenced rows compared (the model's brand column). */
  column: string;
  /** The field of this form that holds the value (vehicle brand). */
  source: string;
}

/**
 * Links between reference fields: the vehicle's model (modeloveiculo) lists only the models of
 * the vehicle's brand, because a model row must name its brand (a required COMBOBOX column
 * referencing marcaveiculo) and another field of the form references marcaveiculo too. Optional
 * columns are no parents: a salesperson's city does not narrow a customer's salesperson.
 */
export function referenceLinks(meta: ResourceMeta, metas: ResourceMeta[]): ReferenceLink[] {
  const links: ReferenceLink[] = [];
  for (const f of meta.fields) {
    if (!f.reference) continue;
    const target = metas.find((m) => m.name === f.reference);
    for (const col of target?.fields ?? []) {
      if (!col.reference || !col.required || col.kind !== 'COMBOBOX') continue;
      const source = meta.fields.find((s) => s !== f && s.reference === col.reference);
      if (source) links.push({ field: f.name, column: col.name, source: source.name });
    }
  }
  return links;
}

/** The groups with each linked field's `where` taken from the current values. */
export function withReferenceWhere(
  groups: GroupDescriptor[],
  links: ReferenceLink[],
  values: FormValues,
): GroupDescriptor[] {
  if (links.length === 0) return groups;
  const where = new Map<string, Record<string, unknown>>();
  for (const l of links) {
    const v = values[l.source];
    if (v == null || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    where.set(l.field, { ...where.get(l.field), [l.column]: Array.isArray(v) ? v[0] : v });
  }
  return groups.map((g) => ({
    ...g,
    fields: g.fields.map((f) => (where.has(f.name) ? { ...f, where: where.get(f.name) } : f)),
  }));
}

/** The editable field a server message starts with the label of (the longest label wins). */
export function fieldOfMessage(meta: ResourceMeta, message: string): string | null {
  const text = message.trim().toLowerCase();
  let best: FieldMeta | null = null;
  for (const f of meta.fields) {
    const label = f.label.trim().toLowerCase();
    if (!f.editable || !label || !text.startsWith(label)) continue;
    const next = text.charAt(label.length);
    if (next && /[\p{L}\p{N}]/u.test(next)) continue;
    if (!best || label.length > best.label.trim().length) best = f;
  }
  return best?.name ?? null;
}

/** The id a row is addressed by: its key column, or an object of the key columns. */
export function recordId(meta: ResourceMeta, row: Row): unknown {
  if (meta.key.length === 1) return row[meta.key[0]];
  return Object.fromEntries(meta.key.map((k) => [k, row[k]]));
}

export const encodeId = (id: unknown) => JSON.stringify(id);
export function decodeId(text: string | null): unknown {
  if (text == null) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const trimSlashes = (p: string) => p.replace(/^\/+|\/+$/g, '').toLowerCase();
export const resourceHref = (meta: ResourceMeta) => `/${trimSlashes(meta.path || meta.name)}`;

/** A record's edit screen: /{path}/alterar?id=<JSON id>. */
export const editHref = (meta: ResourceMeta, id: unknown) =>
  `${resourceHref(meta)}/alterar?id=${encodeURIComponent(encodeId(id))}`;

export type RegisterAction = 'list' | 'inserir' | 'alterar';

/** '/clientes/alterar' -> the clientes meta and 'alterar'; paths of several segments work too. */
export function matchResource(
  metas: ResourceMeta[],
  pathname: string,
): { meta: ResourceMeta; action: RegisterAction } | null {
  const path = trimSlashes(pathname);
  for (const action of ['inserir', 'alterar'] as const) {
    if (path.endsWith(`/${action}`)) {
      const base = path.slice(0, -(action.length + 1));
      const meta = metas.find((m) => trimSlashes(m.path || m.name) === base);
      if (meta) return { meta, action };
    }
  }
  const meta = metas.find((m) => trimSlashes(m.path || m.name) === path);
  return meta ? { meta, action: 'list' } : null;
}

export const routeName = (meta: ResourceMeta, action: RegisterAction) => {
  const n = meta.name.charAt(0).toUpperCase() + meta.name.slice(1);
  return action === 'list' ? `Index${n}` : action === 'inserir' ? `Insert${n}` : `Alter${n}`;
};

/** The header arrow for the first clause of an ORDER BY list ('CLI_DESCRICAO DESC, CLI_ID'). */
export function parseOrder(order: string): SortState | null {
  const [key, dir] = (order.split(',')[0] ?? '').trim().split(/\s+/);
  if (!key) return null;
  return { key, dir: dir?.toUpperCase() === 'DESC' ? 'DESC' : 'ASC' };
}
