import { describe, expect, it } from 'vitest';
import { clientesMeta, purchaseMeta } from '../../test/fixtures';
import { filterWhere, listFilterFields } from './listFilters';

describe('list filters', () => {
  it("offers a document's period, required references and status; nothing on a plain register", () => {
    const fields = listFilterFields(purchaseMeta);
    expect(fields.map((f) => [f.name, f.type, f.text])).toEqual([
      ['COMP_DTA_ENTRADA_INI', 'DATE', 'Entrada de'],
      ['COMP_DTA_ENTRADA_FIM', 'DATE', 'Entrada até'],
      ['COMP_FORN_ID', 'AUTOCOMPLETE', 'Fornecedor'],
      ['COMP_SITUACAO', 'COMBOBOX', 'Situação'],
    ]);
    // The supplier is not required: it is the reference labelled like the document's label field.
    expect(fields[2].reference).toBe('fornecedor');
    expect(fields[3].options?.map((o) => o.text)).toEqual(['Aberta', 'Finalizada', 'Cancelada']);
    expect(listFilterFields(clientesMeta)).toEqual([]);
  });

  it('sends only the filled filters, real dates as yyyy-MM-dd and ids as numbers', () => {
    const fields = listFilterFields(purchaseMeta);
    expect(filterWhere(fields, {})).toBeNull();
    expect(filterWhere(fields, { COMP_DTA_ENTRADA_INI: '01/11/20', COMP_SITUACAO: '' })).toBeNull();
    expect(
      filterWhere(fields, {
        COMP_DTA_ENTRADA_INI: '01/11/2026',
        COMP_DTA_ENTRADA_FIM: '31/02/2026',
        COMP_FORN_ID: '3',
        COMP_SITUACAO: 'F',
      }),
    ).toEqual({ COMP_DTA_ENTRADA_INI: '2026-11-01', COMP_FORN_ID: 3, COMP_SITUACAO: 'F' });
  });
});
