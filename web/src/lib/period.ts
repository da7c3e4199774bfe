// Periods the report and dashboard screens start from, as the API writes dates (yyyy-MM-dd):
// calendar arithmetic on the browser's today, no time zone involved.
import { addDays, apiDateOf } from './format';

export interface ApiPeriod {
  /** yyyy-MM-dd */
  DATA_INI: string;
  /** yyyy-MM-dd */
  DATA_FIM: string;
}

/** The first day of `day`'s month. */
export const firstOfMonth = (day: string) => `${day.slice(0, 8)}01`;

/** The last day of `day`'s month. */
export function lastOfMonth(day: string): string {
  const [y, m] = day.split('-').map(Number);
  const next = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
  return addDays(next, -1);
}

/** The whole month of `today`: its first and last days. */
export const monthPeriod = (today: string = apiDateOf()): ApiPeriod => ({
  DATA_INI: firstOfMonth(today),
  DATA_FIM: lastOfMonth(today),
});

/** The whole month before `today`'s. */
export const previousMonthPeriod = (today: string = apiDateOf()): ApiPeriod =>
  monthPeriod(addDays(firstOfMonth(today), -1));

/** The whole year of `today`: 1 January to 31 December. */
export const yearPeriod = (today: string = apiDateOf()): ApiPeriod => ({
  DATA_INI: `${today.slice(0, 4)}-01-01`,
  DATA_FIM: `${today.slice(0, 4)}-12-31`,
});
