import { describe, expect, it } from 'vitest';
import { leadProgress } from './leadProgress';

describe('lead progress', () => {
  it("reads the percentage of a 'Processando leads' notification", () => {
    expect(leadProgress('Processando leads: 45%')).toBe(45);
    expect(leadProgress('Processando leads 12,5 %')).toBe(12.5);
    expect(leadProgress('Backup concluído 100%')).toBeNull();
  });
});
