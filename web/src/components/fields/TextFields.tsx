import type { ChangeEvent } from 'react';
import { formatNumber, formatTimestamp, parseBRNumber } from '../../lib/format';
import { CEP_MASK, DATE_MASK, applyMask, maskCpfCnpj } from '../../lib/masks';
import type { FieldProps } from './props';
import { inputClass } from './styles';

type TextProps = FieldProps<string>;

function common(p: TextProps) {
  return {
    id: p.id,
    name: p.field.name,
    disabled: p.disabled,
    'aria-invalid': p.invalid,
    'aria-describedby': p.describedBy,
    'aria-required': p.field.required || undefined,
    className: inputClass,
  };
}

/** Text-like kinds: the value is always the on-screen string. */
export function TextField(p: TextProps) {
  const { field } = p;
  const transform = (raw: string): string => {
    switch (field.type) {
      case 'CPF_CNPJ':
        return maskCpfCnpj(raw);
      case 'CEP':
        return applyMask(raw, CEP_MASK);
      case 'DATE':
        return applyMask(raw, DATE_MASK);
      case 'ACCESS_KEY':
        return raw.replace(/\D/g, '').slice(0, 44);
      case 'NUMBER':
        return field.mask ? applyMask(raw, field.mask) : raw.replace(/[^\d,.-]/g, '').slice(0, 14);
      case 'MONEY':
        return raw.replace(/[^\d,.-]/g, '');
      case 'COLOR':
        return raw.slice(0, 7);
      default:
        return field.mask ? applyMask(raw, field.mask) : raw;
    }
  };
  const onChange = (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => p.onChange(transform(e.target.value));
  // Timestamps the server keeps (read-only) show as dd/MM/yyyy HH:mm.
  const value = p.disabled && field.type === 'TEXT' ? formatTimestamp(p.value ?? '') : (p.value ?? '');
  const maxLength = field.length ?? undefined;

  if (field.type === 'TEXTAREA') {
    return <textarea {...common(p)} rows={4} value={value} maxLength={maxLength} onChange={onChange} />;
  }
  if (field.type === 'MONEY' || field.type === 'NUMBER') {
    // Money is shown with its 2 decimals once the user leaves the field.
    const onBlur = () => {
      const n = parseBRNumber(value);
      if (field.type === 'MONEY' && n != null) p.onChange(formatNumber(n, 2, 2));
    };
    return (
      <div className="flex items-center gap-1">
        {field.type === 'MONEY' && <span className="text-sm text-slate-500">R$</span>}
        <input {...common(p)} inputMode="decimal" value={value} onChange={onChange} onBlur={onBlur} />
      </div>
    );
  }
  if (field.type === 'COLOR') {
    const hex = /^#?[0-9A-Fa-f]{6}$/.test(value) ? (value.startsWith('#') ? value : `#${value}`) : '#000000';
    return (
      <div className="flex items-center gap-2">
        <input {...common(p)} value={value} onChange={onChange} placeholder="#RRGGBB" />
        <input
          type="color"
          aria-label={`${field.text} (seletor)`}
          disabled={p.disabled}
          value={hex}
          onChange={(e) => p.onChange(e.target.value.toUpperCase())}
          className="h-8 w-10 cursor-pointer rounded border border-slate-300"
        />
      </div>
    );
  }
  const type = field.type === 'PASSWORD' ? 'password' : field.type === 'EMAIL' ? 'email' : 'text';
  const inputMode =
    field.type === 'ACCESS_KEY' || field.type === 'CEP' || field.type === 'DATE' ? 'numeric' : undefined;
  const placeholder = field.type === 'DATE' ? 'dd/mm/aaaa' : undefined;
  return (
    <input
      {...common(p)}
      type={type}
      inputMode={inputMode}
      placeholder={placeholder}
      autoComplete={field.type === 'PASSWORD' ? 'current-password' : 'off'}
      value={value}
      maxLength={field.type === 'TEXT' || field.type === 'EMAIL' ? maxLength : undefined}
      onChange={onChange}
    />
  );
}
