import { useCallback, useMemo, useRef, useState } from 'react';
import type { FieldDescriptor, FormValues } from '../fields/types';
import { validateField } from '../fields/validateField';

export type FormErrors = Record<string, string | null>;

export interface FormState {
  idPrefix: string;
  values: FormValues;
  errors: FormErrors;
  setValue: (name: string, value: unknown) => void;
  /** Validates every shown field, shows the messages and focuses the first invalid one. */
  validateAll: () => boolean;
  /** Shows a message under one field (e.g. the server refused its value) and focuses it. */
  showError: (name: string, message: string) => void;
  reset: (values: FormValues) => void;
  dirty: boolean;
}

let formCounter = 0;

export const fieldDomId = (idPrefix: string, name: string) => `${idPrefix}-${name}`;

export function useFormState(fields: FieldDescriptor[], initial: FormValues): FormState {
  const [idPrefix] = useState(() => `f${++formCounter}`);
  const [values, setValues] = useState<FormValues>(initial);
  const [errors, setErrors] = useState<FormErrors>({});
  const [dirty, setDirty] = useState(false);
  // The latest values for the callbacks below; every write of `values` goes through setValue or reset.
  const valuesRef = useRef(values);
  const byName = useMemo(() => new Map(fields.map((f) => [f.name, f])), [fields]);

  const setValue = useCallback(
    (name: string, value: unknown) => {
      setDirty(true);
      const next = { ...valuesRef.current, [name]: value };
      valuesRef.current = next;
      setValues(next);
      // Once a field shows a message, it is re-checked as the user corrects it.
      setErrors((errs) => {
        const field = byName.get(name);
        if (!field || errs[name] == null) return errs;
        return { ...errs, [name]: validateField(field, value, next) };
      });
    },
    [byName],
  );

  const validateAll = useCallback(() => {
    const current = valuesRef.current;
    const found: FormErrors = {};
    let first: string | null = null;
    for (const f of fields) {
      const msg = validateField(f, current[f.name], current);
      found[f.name] = msg;
      if (msg && first === null) first = f.name;
    }
    setErrors(found);
    if (first !== null) {
      const el = document.getElementById(fieldDomId(idPrefix, first));
      el?.focus();
      el?.scrollIntoView?.({ block: 'center' });
    }
    return first === null;
  }, [fields, idPrefix]);

  const showError = useCallback(
    (name: string, message: string) => {
      setErrors((errs) => ({ ...errs, [name]: message }));
      const el = document.getElementById(fieldDomId(idPrefix, name));
      el?.focus();
      el?.scrollIntoView?.({ block: 'center' });
    },
    [idPrefix],
  );

  const reset = useCallback((next: FormValues) => {
    valuesRef.current = next;
    setValues(next);
    setErrors({});
    setDirty(false);
  }, []);

  return { idPrefix, values, errors, setValue, validateAll, showError, reset, dirty };
}
