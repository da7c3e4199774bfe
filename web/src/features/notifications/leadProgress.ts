/** A lead-processing notification: the text 'Processando leads' plus a percentage. */
export function leadProgress(message: string): number | null {
  if (!/processando leads/i.test(message)) return null;
  const m = /(\d{1,3}(?:[.,]\d+)?)\s*%/.exec(message);
  if (!m) return null;
  return Math.min(100, Math.max(0, Number(m[1].replace(',', '.'))));
}
