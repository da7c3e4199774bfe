import { describe, expect, it } from 'vitest';
import { allowed, CORRECTION, formatKey, JUSTIFICATION, nfeOf, textRefusal, withKnownRejection } from './nfe';

describe('the NF-e as the server answers it', () => {
  it('reads a row, naming the statuses as the screen does', () => {
    const nfe = nfeOf({ PEXM_ID: 3, PEXM_SITUACAO: 'enviando', PEXM_NUMERO: '7', PEXM_NFE_SERIE: 1 });
    expect(nfe).toMatchObject({ id: 3, status: 'pendente', statusText: 'Pendente', number: 7, series: 1 });
    expect(nfeOf({ PEXM_ID: 3, PEXM_SITUACAO: 'autorizado' })?.statusText).toBe('Autorizada');
    expect(nfeOf({ PEXM_ID: 3, PEXM_SITUACAO: 'cancelado' })?.statusText).toBe('Cancelada');
    expect(nfeOf({ code: 200, msg: 'x' })).toBeNull();
    expect(nfeOf(null)).toBeNull();
  });

  it("explains a rejection from a call's answer, else from the row", () => {
    const row = {
      PEXM_ID: 3,
      PEXM_SITUACAO: 'rejeitado',
      PEXM_CSTAT: 778,
      PEXM_MOTIVO: 'NCM',
      PEXM_EXPLICACAO: 'Corrija',
    };
    const read = nfeOf(row)!;
    expect(read.rejection).toEqual({ cStat: '778', xMotivo: 'NCM', explanation: 'Corrija', field: null, screen: null });
    const answered = nfeOf({ ...row, cStat: '778', campo: 'NCM do produto', tela: '/ncm' })!;
    expect(withKnownRejection(read, answered).rejection).toMatchObject({ field: 'NCM do produto', screen: '/ncm' });
    // Another rejection read later is not given the old field.
    const other = nfeOf({ ...row, PEXM_CSTAT: 539 })!;
    expect(withKnownRejection(other, answered).rejection?.field).toBeNull();
    expect(nfeOf({ PEXM_ID: 3, PEXM_SITUACAO: 'erro', PEXM_MOTIVO: 'Nuvem Fiscal: falhou' })?.error).toBe(
      'Nuvem Fiscal: falhou',
    );
  });

  it('checks the texts of the events by their limits, in characters', () => {
    expect(textRefusal(JUSTIFICATION, ' curta ')).toBe(JUSTIFICATION.message);
    expect(textRefusal(JUSTIFICATION, 'ç'.repeat(15))).toBeNull();
    expect(textRefusal(JUSTIFICATION, 'a'.repeat(256))).toBe(JUSTIFICATION.message);
    expect(textRefusal(CORRECTION, 'a'.repeat(1000))).toBeNull();
  });

  it('offers the calls the status allows and groups the access key', () => {
    expect(allowed(null)).toMatchObject({ emit: true, consult: false, files: false });
    expect(allowed(nfeOf({ PEXM_ID: 1, PEXM_SITUACAO: 'autorizado' }))).toMatchObject({
      emit: false,
      files: true,
      cancel: true,
      correct: true,
    });
    expect(allowed(nfeOf({ PEXM_ID: 1, PEXM_SITUACAO: 'cancelado' }))).toMatchObject({ files: true, cancel: false });
    expect(formatKey('43261111222333000181550010000000011123939493')).toBe(
      '4326 1111 2223 3300 0181 5500 1000 0000 0111 2393 9493',
    );
  });
});
