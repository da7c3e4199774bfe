import { describe, expect, it } from 'vitest';
import { lastOfMonth, monthPeriod, previousMonthPeriod, yearPeriod } from './period';

describe('periods', () => {
  it('take whole months and years of a day', () => {
    expect(monthPeriod('2026-03-17')).toEqual({ DATA_INI: '2026-03-01', DATA_FIM: '2026-03-31' });
    expect(monthPeriod('2028-02-10')).toEqual({ DATA_INI: '2028-02-01', DATA_FIM: '2028-02-29' });
    expect(monthPeriod('2026-12-31')).toEqual({ DATA_INI: '2026-12-01', DATA_FIM: '2026-12-31' });
    expect(previousMonthPeriod('2026-01-15')).toEqual({ DATA_INI: '2025-12-01', DATA_FIM: '2025-12-31' });
    expect(previousMonthPeriod('2026-03-31')).toEqual({ DATA_INI: '2026-02-01', DATA_FIM: '2026-02-28' });
    expect(yearPeriod('2026-07-04')).toEqual({ DATA_INI: '2026-01-01', DATA_FIM: '2026-12-31' });
    expect(lastOfMonth('2026-04-01')).toBe('2026-04-30');
  });
});
