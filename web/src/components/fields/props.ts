import type { FieldDescriptor, OptionLookup, OptionSearch } from './types';

export interface FieldProps<V = unknown> {
  field: FieldDescriptor;
  id: string;
  value: V;
  onChange: (value: V) => void;
  disabled: boolean;
  invalid: boolean;
  describedBy?: string;
  search?: OptionSearch;
  lookup?: OptionLookup;
}
