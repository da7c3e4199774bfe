import { useEffect, useState } from 'react';
import { useDebouncedValue } from '../../lib/useDebounce';
import { validateNewChip } from '../../lib/validators';
import type { FieldProps } from './props';
import { inputClass } from './styles';
import type { FieldOption } from './types';

/** Options of a field: its fixed list, or the referenced register searched as the user types. */
function useOptions(p: FieldProps<unknown>, filter: string, active: boolean) {
  const debounced = useDebouncedValue(filter, 500);
  const [found, setFound] = useState<FieldOption[]>([]);
  const { reference } = p.field;
  const search = p.search;
  // Compared by content: the form builds a new object on every render.
  const where = p.field.where ? JSON.stringify(p.field.where) : '';
  useEffect(() => {
    if (!active || !reference || !search) return;
    let live = true;
    search(reference, debounced, where ? (JSON.parse(where) as Record<string, unknown>) : null).then(
      (list) => live && setFound(list),
      // Spec §7.2: a failed autocomplete search empties the list silently.
      () => live && setFound([]),
    );
    return () => {
      live = false;
    };
  }, [active, reference, search, debounced, where]);
  if (reference && search) return found;
  const f = filter.toLowerCase();
  return (p.field.options ?? []).filter((o) => o.text.toLowerCase().includes(f));
}

/**
 * The text of a stored value: the option already known, or the referenced register's row read
 * by its id (a record opened for editing holds ids only). Null until known.
 */
function useOptionText(p: FieldProps<unknown>, value: string, known: FieldOption | undefined): string | null {
  const [found, setFound] = useState<FieldOption | null>(null);
  const { reference } = p.field;
  const lookup = p.lookup;
  const missing = Boolean(value && reference && lookup && !known);
  useEffect(() => {
    if (!missing || !reference || !lookup) return;
    let live = true;
    lookup(reference, value).then(
      (o) => live && setFound(o),
      () => live && setFound(null),
    );
    return () => {
      live = false;
    };
  }, [missing, reference, lookup, value]);
  if (known) return known.text;
  if (!reference) return p.field.options?.find((o) => o.value === value)?.text ?? null;
  return found && found.value === value ? found.text : null;
}

export function ComboboxField(p: FieldProps<string>) {
  const referenced = Boolean(p.field.reference && p.search);
  const options = useOptions(p as FieldProps<unknown>, '', referenced);
  const value = p.value ?? '';
  const known = options.find((o) => o.value === value);
  const text = useOptionText(p as FieldProps<unknown>, value, known);
  // The stored value stays selectable when it is not among the first rows of the register.
  const shown = value && !known && referenced ? [{ value, text: text ?? value }, ...options] : options;
  return (
    <select
      id={p.id}
      name={p.field.name}
      className={inputClass}
      disabled={p.disabled}
      aria-invalid={p.invalid}
      aria-describedby={p.describedBy}
      value={value}
      onChange={(e) => p.onChange(e.target.value)}
    >
      <option value="">Selecione</option>
      {shown.map((o) => (
        <option key={o.value} value={o.value}>
          {o.text}
        </option>
      ))}
    </select>
  );
}

interface PickerListProps {
  id: string;
  options: FieldOption[];
  filter: string;
  onPick: (o: FieldOption) => void;
}

function OptionList({ id, options, filter, onPick }: PickerListProps) {
  return (
    <ul
      id={id}
      role="listbox"
      className="absolute z-30 mt-1 max-h-60 w-full overflow-auto rounded border border-slate-200 bg-white shadow-lg"
    >
      {options.length === 0 ? (
        <li className="px-2 py-1.5 text-sm text-slate-500">
          {filter ? 'Nenhum item encontrado...' : 'Digite para pesquisar...'}
        </li>
      ) : (
        options.slice(0, 50).map((o) => (
          <li key={o.value} role="option" aria-selected={false}>
            <button
              type="button"
              className="w-full px-2 py-1.5 text-left text-sm hover:bg-slate-100"
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => onPick(o)}
            >
              {o.text}
            </button>
          </li>
        ))
      )}
    </ul>
  );
}

export function AutocompleteField(p: FieldProps<string>) {
  const [text, setText] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<FieldOption | null>(null);
  const options = useOptions(p as FieldProps<unknown>, text ?? '', open);
  const value = p.value ?? '';
  const valueText = useOptionText(
    p as FieldProps<unknown>,
    value,
    chosen && chosen.value === value ? chosen : undefined,
  );
  const shown = text ?? valueText ?? value;
  return (
    <div className="relative">
      <input
        id={p.id}
        name={p.field.name}
        className={inputClass}
        disabled={p.disabled}
        aria-invalid={p.invalid}
        aria-describedby={p.describedBy}
        role="combobox"
        aria-expanded={open}
        aria-controls={`${p.id}-list`}
        autoComplete="off"
        value={shown}
        onFocus={() => setOpen(true)}
        onBlur={() => {
          setOpen(false);
          setText(null);
        }}
        onChange={(e) => {
          setText(e.target.value);
          if (e.target.value === '') p.onChange('');
        }}
      />
      {open && !p.disabled && (
        <OptionList
          id={`${p.id}-list`}
          options={options}
          filter={text ?? ''}
          onPick={(o) => {
            setChosen(o);
            p.onChange(o.value);
            setText(null);
            setOpen(false);
          }}
        />
      )}
    </div>
  );
}

interface ChipProps {
  p: FieldProps<string[]>;
  value: string;
  known: FieldOption | undefined;
  onRemove: () => void;
}

function Chip({ p, value, known, onRemove }: ChipProps) {
  const text = useOptionText(p as FieldProps<unknown>, value, known) ?? value;
  return (
    <span className="inline-flex items-center gap-1 rounded-full bg-accent/15 px-2 py-0.5 text-xs text-slate-800">
      {text}
      {!p.disabled && (
        <button type="button" aria-label={`Remover ${text}`} onClick={onRemove}>
          ×
        </button>
      )}
    </span>
  );
}

/** 'complete-combobox': chosen items become removable chips; a repeated one is refused. */
export function ChipsField(p: FieldProps<string[]>) {
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [picked, setPicked] = useState<Record<string, FieldOption>>({});
  const values = p.value ?? [];
  const options = useOptions(p as FieldProps<unknown>, text, open);
  const add = (o: FieldOption) => {
    const msg = validateNewChip(values, o.value);
    setError(msg);
    if (msg) return;
    setPicked((l) => ({ ...l, [o.value]: o }));
    p.onChange([...values, o.value]);
    setText('');
  };
  return (
    <div className="relative">
      <div className="mb-1 flex flex-wrap gap-1">
        {values.map((v) => (
          <Chip
            key={v}
            p={p}
            value={v}
            known={picked[v] ?? p.field.options?.find((o) => o.value === v)}
            onRemove={() => p.onChange(values.filter((x) => x !== v))}
          />
        ))}
      </div>
      <input
        id={p.id}
        name={p.field.name}
        className={inputClass}
        disabled={p.disabled}
        aria-invalid={p.invalid || Boolean(error)}
        aria-describedby={p.describedBy}
        autoComplete="off"
        value={text}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onChange={(e) => setText(e.target.value)}
      />
      {error && <p className="mt-0.5 text-xs text-error">{error}</p>}
      {open && !p.disabled && <OptionList id={`${p.id}-list`} options={options} filter={text} onPick={add} />}
    </div>
  );
}

/** Multi-check list; above 4 options it is split into two rows. */
export function ChecklistField(p: FieldProps<string[]>) {
  const options = p.field.options ?? [];
  const values = p.value ?? [];
  const half = Math.ceil(options.length / 2);
  const rows = options.length > 4 ? [options.slice(0, half), options.slice(half)] : [options];
  return (
    <div id={p.id} tabIndex={-1} role="group" aria-describedby={p.describedBy} className="space-y-1">
      {rows.map((row, i) => (
        <div key={i} className="flex flex-wrap gap-x-4 gap-y-1">
          {row.map((o) => (
            <label key={o.value} className="inline-flex items-center gap-1 text-sm">
              <input
                type="checkbox"
                disabled={p.disabled}
                checked={values.includes(o.value)}
                onChange={(e) =>
                  p.onChange(e.target.checked ? [...values, o.value] : values.filter((v) => v !== o.value))
                }
              />
              {o.text}
            </label>
          ))}
        </div>
      ))}
    </div>
  );
}

/** Filter-situation buttons: the selected one is marked. */
export function SituationField(p: FieldProps<string>) {
  return (
    <div id={p.id} tabIndex={-1} role="radiogroup" aria-describedby={p.describedBy} className="flex flex-wrap gap-1">
      {(p.field.options ?? []).map((o) => {
        const selected = p.value === o.value;
        return (
          <button
            key={o.value}
            type="button"
            role="radio"
            aria-checked={selected}
            disabled={p.disabled}
            onClick={() => p.onChange(o.value)}
            className={`rounded border px-3 py-1 text-sm ${selected ? 'border-secondary bg-secondary text-white' : 'border-slate-300 bg-white text-slate-700'}`}
          >
            {o.text}
          </button>
        );
      })}
    </div>
  );
}

export function BooleanField(p: FieldProps<boolean>) {
  return (
    <label className="inline-flex items-center gap-2 text-sm">
      <input
        id={p.id}
        type="checkbox"
        name={p.field.name}
        disabled={p.disabled}
        checked={Boolean(p.value)}
        onChange={(e) => p.onChange(e.target.checked)}
        className="h-4 w-4 accent-primary"
      />
      {p.field.text}
    </label>
  );
}
