// The text that names a record (ResourceMeta.labelField) where a screen shows it as a label:
// the list column and a document's heading.
import type { ResourceMeta } from './metaFields';

/** A label value as shown: text, cut to the register's label length (ResourceMeta.labelLength; none: all). */
export function labelText(meta: ResourceMeta, value: unknown): string {
  const s = value == null ? '' : String(value);
  const max = meta.labelLength;
  return max != null && s.length > max ? s.slice(0, max) : s;
}
