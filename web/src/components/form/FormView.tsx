import { useIsMobile } from '../../lib/useIsMobile';
import { FieldInput } from '../fields/FieldInput';
import type { GroupDescriptor, OptionLookup, OptionSearch } from '../fields/types';
import { fieldDomId, type FormState } from './useFormState';

interface Props {
  form: FormState;
  groups: GroupDescriptor[];
  /** The whole form; a field is disabled when either this or its own flag is false. */
  editable?: boolean;
  search?: OptionSearch;
  lookup?: OptionLookup;
  uploadsBase?: string;
}

const span = (cols: number) => ({ gridColumn: `span ${cols} / span ${cols}` });

/** Groups (title, frame, width, mostrar) of fields in a 12-column grid. */
export function FormView({ form, groups, editable = true, search, lookup, uploadsBase = '/uploads' }: Props) {
  const mobile = useIsMobile();
  return (
    <div className="grid grid-cols-12 gap-3">
      {groups
        .filter((g) => g.mostrar !== false)
        .map((g, gi) => (
          <fieldset
            key={`${g.title ?? ''}-${gi}`}
            style={span(mobile ? 12 : Math.min(12, Math.max(1, g.width ?? 12)))}
            className={g.framed ? 'rounded border border-slate-300 p-3' : 'p-0'}
          >
            {g.title && (
              <legend className={`text-sm font-semibold text-primary ${g.framed ? 'px-1' : 'mb-2'}`}>{g.title}</legend>
            )}
            <div className="grid grid-cols-12 gap-3">
              {g.fields
                .filter((f) => f.mostrar !== false)
                .map((f) => (
                  <div key={f.name} style={span(mobile ? 12 : Math.min(12, Math.max(1, f.width ?? 6)))}>
                    <FieldInput
                      field={f}
                      id={fieldDomId(form.idPrefix, f.name)}
                      value={form.values[f.name]}
                      onChange={(v) => form.setValue(f.name, v)}
                      error={form.errors[f.name] ?? null}
                      disabled={!editable || f.editable === false}
                      search={search}
                      lookup={lookup}
                      uploadsBase={uploadsBase}
                    />
                  </div>
                ))}
            </div>
          </fieldset>
        ))}
    </div>
  );
}

export const fieldsOf = (groups: GroupDescriptor[]) => groups.flatMap((g) => (g.mostrar === false ? [] : g.fields));
