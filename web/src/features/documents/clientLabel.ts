/** Billing orders name their customer in 20 characters at most (spec §9). */
export const clientLabel = (name: unknown, max = 20) => {
  const s = name == null ? '' : String(name);
  return s.length > max ? s.slice(0, max) : s;
};
