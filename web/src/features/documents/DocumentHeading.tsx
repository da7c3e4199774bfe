import { badgeClass } from '../../components/tables/types';
import { valueOf, type AnyRow } from '../../lib/api';
import type { DocumentRegister } from '../../lib/resources/metaFields';
import { labelText } from '../../lib/resources/recordLabel';
import { statusLabel, statusOf } from './documentMeta';

const badge = 'rounded-full px-2.5 py-0.5 text-xs font-semibold';

interface Props {
  meta: DocumentRegister;
  record: AnyRow;
  /** The header fields that lock some of its lines, shown as badges by their labels. */
  locks: string[];
}

/** A saved document's heading: '{title} nº {number} - {label}', its status badge and its line locks. */
export function DocumentHeading({ meta, record, locks }: Props) {
  const doc = meta.document;
  const number = doc.key.map((k) => String(valueOf(record, k) ?? '')).join('/');
  // The record's label (the customer), unless the label is the document's number itself.
  const label = doc.key.includes(meta.labelField) ? '' : labelText(meta, valueOf(record, meta.labelField));
  const code = statusOf(meta, record);
  const status = code ? statusLabel(meta, code) : null;
  const lockTexts = [...new Set(locks)].map((f) => meta.fields.find((x) => x.name === f)?.label ?? f);
  return (
    <div className="flex flex-wrap items-center gap-2">
      <h2 className="text-lg font-semibold text-slate-800">
        {meta.title} nº {number}
        {label && <span className="font-normal text-slate-600"> - {label}</span>}
      </h2>
      {status && (
        <span data-testid="status-badge" className={badgeClass(status.tone)}>
          {status.text}
        </span>
      )}
      {lockTexts.map((text) => (
        <span key={text} data-testid="lock-badge" className={`${badge} bg-amber-100 text-amber-800`}>
          {text}
        </span>
      ))}
    </div>
  );
}
