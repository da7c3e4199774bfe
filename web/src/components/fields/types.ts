import type { FieldKind } from '../../generated/graphql';
import type { DateRelation } from '../../lib/validators';

export type { FieldKind };

export interface FieldOption {
  value: string;
  text: string;
}

/** The one field-descriptor model every form is made of (spec §2.7). */
export interface FieldDescriptor {
  name: string;
  type: FieldKind;
  /** The label. */
  text: string;
  required?: boolean;
  editable?: boolean;
  mask?: string | null;
  length?: number | null;
  min?: string | number | null;
  max?: string | number | null;
  /** Appended to the max in its message ('Valor Máximo permitido para o campo: {max}{prefix}'). */
  prefix?: string;
  mostrar?: boolean;
  focus?: boolean;
  options?: FieldOption[] | null;
  /** Register whose rows a COMBOBOX, AUTOCOMPLETE or CHIPS field lists. */
  reference?: string | null;
  /** Column conditions on the referenced rows (e.g. the models of the chosen brand). */
  where?: Record<string, unknown> | null;
  uploadTypes?: string[] | null;
  /** Columns out of 12; default 6. */
  width?: number;
  /** A blocked field is always invalid; the string is its message. */
  blocked?: string;
  /** DATE compared with another date field of the same form. */
  compare?: { field: string; relation: DateRelation; message?: string };
}

export interface GroupDescriptor {
  title?: string | null;
  framed?: boolean;
  /** Columns out of 12 the group takes; default 12. */
  width?: number;
  mostrar?: boolean;
  fields: FieldDescriptor[];
}

export type FormValues = Record<string, unknown>;

/** Searches the rows of a referenced register (COMBOBOX, AUTOCOMPLETE and CHIPS fields). */
export type OptionSearch = (
  reference: string,
  filter: string,
  where?: Record<string, unknown> | null,
) => Promise<FieldOption[]>;

/** The option of one stored value of a referenced register (its text), or null when it is gone. */
export type OptionLookup = (reference: string, value: string) => Promise<FieldOption | null>;

/** A file the user picked in an UPLOAD or GALLERY field, carried inline as a data URL. */
export interface PickedFile {
  name: string;
  type: string;
  dataUrl: string;
}

/** UPLOAD and GALLERY values: stored file names (served under /uploads) or freshly picked files. */
export type FileValue = string | PickedFile;
