import { PHONE_MASK, applyMask, onlyDigits } from '../../lib/masks';
import { validatePhone } from '../../lib/validators';
import { MultiEntryInput } from './MultiEntryInput';
import type { FieldProps } from './props';

/** Phone list: entries of exactly 11 digits, shown with the (##) #####-#### mask. */
export function PhonesField(p: FieldProps<string[]>) {
  return (
    <MultiEntryInput
      id={p.id}
      label={p.field.text}
      values={p.value ?? []}
      onChange={p.onChange}
      validate={validatePhone}
      normalize={onlyDigits}
      display={(v) => applyMask(v, PHONE_MASK)}
      mask={p.field.mask ?? PHONE_MASK}
      placeholder="(##) #####-####"
      disabled={p.disabled}
      invalid={p.invalid}
      describedBy={p.describedBy}
    />
  );
}
