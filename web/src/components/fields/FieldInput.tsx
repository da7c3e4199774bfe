import { BarcodeField } from './BarcodeField';
import {
  AutocompleteField,
  BooleanField,
  ChecklistField,
  ChipsField,
  ComboboxField,
  SituationField,
} from './ChoiceFields';
import { PhonesField } from './PhonesField';
import type { FieldProps } from './props';
import { TextField } from './TextFields';
import type { FileValue } from './types';
import { UploadField } from './UploadField';

interface Props {
  field: FieldProps['field'];
  id: string;
  value: unknown;
  onChange: (value: unknown) => void;
  error: string | null;
  disabled: boolean;
  search?: FieldProps['search'];
  lookup?: FieldProps['lookup'];
  uploadsBase: string;
}

const asString = (v: unknown) => (v == null ? '' : String(v));
const asArray = <T,>(v: unknown) => (Array.isArray(v) ? (v as T[]) : []);

/** Label, the component of the field's kind, and its validation message. */
export function FieldInput({ field, id, value, onChange, error, disabled, search, lookup, uploadsBase }: Props) {
  const errorId = `${id}-error`;
  const base = {
    field,
    id,
    disabled,
    invalid: Boolean(error),
    describedBy: error ? errorId : undefined,
    search,
    lookup,
  };
  const control = (() => {
    switch (field.type) {
      case 'COMBOBOX':
        return <ComboboxField {...base} value={asString(value)} onChange={onChange} />;
      case 'AUTOCOMPLETE':
        return <AutocompleteField {...base} value={asString(value)} onChange={onChange} />;
      case 'CHIPS':
        return <ChipsField {...base} value={asArray<string>(value)} onChange={onChange} />;
      case 'CHECKLIST':
        return <ChecklistField {...base} value={asArray<string>(value)} onChange={onChange} />;
      case 'SITUATION':
        return <SituationField {...base} value={asString(value)} onChange={onChange} />;
      case 'BOOLEAN':
        return <BooleanField {...base} value={Boolean(value)} onChange={onChange} />;
      case 'PHONES':
        return <PhonesField {...base} value={asArray<string>(value)} onChange={onChange} />;
      case 'UPLOAD':
      case 'GALLERY':
        return (
          <UploadField {...base} uploadsBase={uploadsBase} value={asArray<FileValue>(value)} onChange={onChange} />
        );
      case 'BARCODE':
        return <BarcodeField {...base} value={asString(value)} onChange={onChange} />;
      default:
        return <TextField {...base} value={asString(value)} onChange={onChange} />;
    }
  })();
  return (
    <div className="flex flex-col gap-0.5">
      {field.type !== 'BOOLEAN' && (
        <label htmlFor={id} className="text-xs font-medium text-slate-600">
          {field.text}
          {field.required && <span className="text-error"> *</span>}
        </label>
      )}
      {control}
      {error && (
        <p id={errorId} role="alert" className="text-xs text-error">
          {error}
        </p>
      )}
    </div>
  );
}
