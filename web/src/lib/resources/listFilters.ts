// The filters a document's list offers, read from its metadata (ResourceMeta.document): the
// period of its date field, its parties (the reference labelled like the document's label
// field: the customer of an order, the supplier of a purchase; and its required references:
// the locations of a transfer) and its status. They
// go to `resourceList` as `where`: `{FIELD}_INI` / `{FIELD}_FIM` bound a range (dates as
// yyyy-MM-dd), any other key is an equality.
import type { FieldDescriptor, FormValues } from '../../components/fields/types';
import { toApiDate } from '../format';
import type { ResourceMeta } from './metaFields';

/** The suffixes the engine reads as the bounds of a range filter. */
export const RANGE_FROM = '_INI';
export const RANGE_TO = '_FIM';

/** The filter fields of a register's list; none for a register that is not a document. */
export function listFilterFields(meta: ResourceMeta): FieldDescriptor[] {
  const doc = meta.document;
  if (!doc) return [];
  const fields: FieldDescriptor[] = [];
  const date = doc.dateField ? meta.fields.find((f) => f.name === doc.dateField) : undefined;
  if (date) {
    fields.push(
      { name: `${date.name}${RANGE_FROM}`, type: 'DATE', text: `${date.label} de`, width: 2 },
      { name: `${date.name}${RANGE_TO}`, type: 'DATE', text: `${date.label} até`, width: 2 },
    );
  }
  const party = meta.fields.find((f) => f.name === meta.labelField)?.label;
  for (const f of meta.fields) {
    if (!f.reference || (f.kind !== 'AUTOCOMPLETE' && f.kind !== 'COMBOBOX')) continue;
    if (!f.required && f.label !== party) continue;
    fields.push({ name: f.name, type: f.kind, text: f.label, reference: f.reference, width: 3 });
  }
  if (doc.status) {
    const status = doc.status;
    fields.push({
      name: status.field,
      type: 'COMBOBOX',
      text: meta.fields.find((f) => f.name === status.field)?.label || 'Situação',
      options: status.labels.map(({ value, text }) => ({ value, text })),
      width: 2,
    });
  }
  return fields;
}

/**
 * The `where` of the filled filters, or null when none is: a date only once it is a real
 * dd/MM/yyyy date, a referenced id as a number when it is one.
 */
export function filterWhere(fields: FieldDescriptor[], values: FormValues): Record<string, unknown> | null {
  const where: Record<string, unknown> = {};
  for (const f of fields) {
    const v = values[f.name];
    if (v == null || v === '') continue;
    const text = String(v);
    if (f.type === 'DATE') {
      const date = toApiDate(text);
      if (date) where[f.name] = date;
    } else if (f.reference && /^\d+$/.test(text) && text.length < 16) {
      where[f.name] = Number(text);
    } else {
      where[f.name] = text;
    }
  }
  return Object.keys(where).length > 0 ? where : null;
}
