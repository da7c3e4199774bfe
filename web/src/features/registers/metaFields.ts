// ResourceMeta (from the gateway) -> the shared form and table models, and the conversions
// between rows as the API sends them and values as the screen edits them.
import type { FieldDescriptor, FormValues, GroupDescriptor } from '../../components/fields/types';
import type { Column, Row, SortState } from '../../components/tables/types';
import type { ResourceMetaFieldsFragment } from '../../generated/graphql';
import { formatDate, formatMoney, formatNumber, parseBRNumber, toApiDate } from '../../lib/format';
import { maskCpfCnpj, onlyDigits } from '../../lib/masks';

export type ResourceMeta = ResourceMetaFieldsFragment;
type FieldMeta = ResourceMeta['fields'][number];

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
    mostrar: true,
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
  return groups.filter((g) => g.fields.length > 0);
}

const isTrue = (v: unknown) => v === true || v === 1 || v === '1' || v === 'S' || v === 'true';
const toList = (v: unknown): string[] =>
  Array.isArray(v)
    ? v.map(String)
    : typeof v === 'string' && v !== ''
      ? v
          .split(/[;,]/)
          .map((s) => s.trim())
          .filter(Boolean)
      : [];

function cellFormat(f: FieldMeta): Column['format'] {
  switch (f.kind) {
    case 'MONEY':
      return (v) => (v == null || v === '' ? '' : formatMoney(Number(v)));
    case 'DATE':
      return (v) => formatDate(v == null ? '' : String(v));
    case 'BOOLEAN':
      return (v) => (isTrue(v) ? 'Sim' : 'Não');
    case 'CPF_CNPJ':
      return (v) => (v == null ? '' : maskCpfCnpj(String(v)));
    case 'COMBOBOX':
    case 'SITUATION':
      return (v) => f.options?.find((o) => o.value === String(v))?.text ?? (v == null ? '' : String(v));
    default:
      return undefined;
  }
}

export function listColumns(meta: ResourceMeta): Column[] {
  const shown = meta.fields.filter((f) => f.inList);
  return (shown.length ? shown : meta.fields.slice(0, 4)).map((f) => ({
    key: f.name,
    label: f.label,
    format: cellFormat(f),
    align: f.kind === 'MONEY' || f.kind === 'NUMBER' ? 'right' : 'left',
  }));
}

/** A row from the API as the form edits it. */
export function rowToValues(meta: ResourceMeta, row: Row | null): FormValues {
  const values: FormValues = {};
  for (const f of meta.fields) {
    const v = row?.[f.name];
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
