export const inputClass =
  'w-full rounded border border-slate-300 bg-white px-2 py-1.5 text-sm outline-none ' +
  'focus:border-primary focus:ring-1 focus:ring-primary disabled:bg-slate-100 disabled:text-slate-500 ' +
  'aria-[invalid=true]:border-error';
export const buttonClass =
  'inline-flex items-center justify-center gap-1 rounded px-3 py-1.5 text-sm font-medium ' +
  'disabled:opacity-50 disabled:cursor-not-allowed';
export const primaryButton = `${buttonClass} bg-primary text-white hover:brightness-110`;
export const secondaryButton = `${buttonClass} border border-slate-300 bg-white text-slate-700 hover:bg-slate-50`;
export const dangerButton = `${buttonClass} bg-error text-white hover:brightness-110`;
