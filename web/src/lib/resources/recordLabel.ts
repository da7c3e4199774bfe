// The text that names a record (ResourceMeta.labelField) where a screen shows it as a label:
// the list column and a document's heading.
import type { ResourceMeta } from './metaFields';

/**
 * Spec §9 (screens-and-rules): a billing order names its customer in 20 characters at most.
 * The register metadata does not say how long a label may be, so the legacy rule is kept here
 * by register name until it does.
 */
const LABEL_LENGTH: Record<string, number> = { pedido: 20 };

/** The label column's longest text for a register (undefined: no limit). */
export const labelLength = (meta: ResourceMeta): number | undefined => LABEL_LENGTH[meta.name];

/** A label value as shown: text, cut to the register's label length. */
export function labelText(meta: ResourceMeta, value: unknown): string {
  const s = value == null ? '' : String(value);
  const max = labelLength(meta);
  return max != null && s.length > max ? s.slice(0, max) : s;
}
