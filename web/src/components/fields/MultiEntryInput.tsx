import { useState, type KeyboardEvent } from 'react';
import { applyMask } from '../../lib/masks';
import type { Validation } from '../../lib/validators';
import { inputClass } from './styles';

export interface MultiEntryProps {
  id: string;
  label?: string;
  values: string[];
  onChange: (values: string[]) => void;
  /** Checked before an entry is added; its message is shown instead. */
  validate: (entry: string) => Validation;
  /** Stored form of an entry (e.g. digits only). */
  normalize?: (entry: string) => string;
  /** How a stored entry is shown. */
  display?: (entry: string) => string;
  mask?: string;
  placeholder?: string;
  disabled?: boolean;
  invalid?: boolean;
  describedBy?: string;
}

/** A list of entries (numbers, e-mails): ';' or Enter adds the typed one after validation. */
export function MultiEntryInput(p: MultiEntryProps) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const normalize = p.normalize ?? ((s: string) => s.trim());
  const display = p.display ?? ((s: string) => s);

  const commit = (): boolean => {
    const msg = p.validate(text);
    setError(msg);
    if (msg) return false;
    const entry = normalize(text);
    if (!p.values.includes(entry)) p.onChange([...p.values, entry]);
    setText('');
    return true;
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter' || e.key === ';') {
      e.preventDefault();
      commit();
    }
  };

  return (
    <div>
      {p.values.length > 0 && (
        <ul className="mb-1 flex flex-wrap gap-1" aria-label={p.label}>
          {p.values.map((v) => (
            <li key={v} className="inline-flex items-center gap-1 rounded-full bg-tertiary/15 px-2 py-0.5 text-xs">
              {display(v)}
              {!p.disabled && (
                <button
                  type="button"
                  aria-label={`Remover ${display(v)}`}
                  onClick={() => p.onChange(p.values.filter((x) => x !== v))}
                >
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <input
        id={p.id}
        className={inputClass}
        value={text}
        disabled={p.disabled}
        placeholder={p.placeholder}
        aria-invalid={p.invalid || Boolean(error)}
        aria-describedby={error ? `${p.id}-entry-error` : p.describedBy}
        onChange={(e) => {
          const raw = e.target.value;
          if (raw.endsWith(';')) return; // handled by onKeyDown
          setText(p.mask ? applyMask(raw, p.mask) : raw);
          setError(null);
        }}
        onKeyDown={onKeyDown}
        // A typed entry left in the box counts too (e.g. before pressing Enviar).
        onBlur={() => text.trim() !== '' && commit()}
      />
      {error && (
        <p id={`${p.id}-entry-error`} role="alert" className="mt-0.5 text-xs text-error">
          {error}
        </p>
      )}
    </div>
  );
}
