import { describe, expect, it } from 'vitest';
import { clientesMeta } from '../../test/fixtures';
import { program, sessionData } from '../../test/utils';
import type { Session } from '../../lib/session';
import {
  decodeId,
  encodeId,
  listColumns,
  matchResource,
  metaGroups,
  parseOrder,
  recordId,
  routeName,
  rowToValues,
  valuesToRow,
} from './metaFields';
import { permissionsFor } from './permissions';

describe('metaFields', () => {
  it('matches list, inserir and alterar routes, several segments too', () => {
    const projetos = { ...clientesMeta, name: 'solicitacoesprojeto', path: 'solicitacoes/projeto' };
    const metas = [clientesMeta, projetos];
    expect(matchResource(metas, '/clientes')).toMatchObject({ action: 'list', meta: { name: 'clientes' } });
    expect(matchResource(metas, '/clientes/inserir/')).toMatchObject({ action: 'inserir' });
    expect(matchResource(metas, '/clientes/alterar')).toMatchObject({ action: 'alterar' });
    expect(matchResource(metas, '/solicitacoes/projeto/alterar')).toMatchObject({
      action: 'alterar',
      meta: { name: 'solicitacoesprojeto' },
    });
    expect(matchResource(metas, '/naoexiste')).toBeNull();
    expect(matchResource(metas, '/clientes/excluir')).toBeNull();
    expect(routeName(clientesMeta, 'list')).toBe('IndexClientes');
    expect(routeName(clientesMeta, 'alterar')).toBe('AlterClientes');
  });

  it('builds groups, gathering fields no group names', () => {
    const groups = metaGroups(clientesMeta);
    expect(groups[0]).toMatchObject({ title: 'Identificação', framed: true });
    expect(groups[0].fields.map((f) => f.name)).toEqual(['CLI_ID', 'CLI_DESCRICAO', 'CLI_CPF']);
    expect(groups[1].fields.map((f) => f.name)).toContain('CLI_FONES');
    expect(groups[0].fields[1]).toMatchObject({ type: 'TEXT', text: 'Nome', required: true });
  });

  it('formats list cells in pt-BR', () => {
    const cols = listColumns(clientesMeta);
    const row = { CLI_LIMITE: 1500, CLI_TIPO: '2', CLI_CPF: '52998224725' };
    const byKey = Object.fromEntries(cols.map((c) => [c.key, c]));
    expect(byKey.CLI_LIMITE.format?.(row.CLI_LIMITE, row)).toBe('R$ 1.500,00');
    expect(byKey.CLI_TIPO.format?.(row.CLI_TIPO, row)).toBe('JURÍDICA');
    expect(byKey.CLI_CPF.format?.(row.CLI_CPF, row)).toBe('529.982.247-25');
    expect(cols.map((c) => c.key)).not.toContain('CLI_NASC');
  });

  it('converts rows to screen values and back', () => {
    const row = {
      CLI_ID: 5,
      CLI_DESCRICAO: 'Ana',
      CLI_CPF: '52998224725',
      CLI_LIMITE: 1234.5,
      CLI_NASC: '1990-03-09',
      CLI_FONES: '11987654321;11912345678',
      CLI_ATIVO: 'S',
      CLI_TIPO: 1,
    };
    const values = rowToValues(clientesMeta, row);
    expect(values).toMatchObject({
      CLI_ID: '5',
      CLI_LIMITE: '1.234,50',
      CLI_NASC: '09/03/1990',
      CLI_FONES: ['11987654321', '11912345678'],
      CLI_ATIVO: true,
      CLI_TIPO: '1',
      CLI_CPF: '529.982.247-25',
    });
    const back = valuesToRow(clientesMeta, { ...values, CLI_DESCRICAO: '' });
    expect(back).toMatchObject({
      CLI_ID: 5,
      CLI_LIMITE: 1234.5,
      CLI_NASC: '1990-03-09',
      CLI_FONES: '11987654321;11912345678',
      CLI_ATIVO: true,
      CLI_DESCRICAO: null,
    });
  });

  it('addresses a record by its key, composite keys as an object', () => {
    expect(recordId(clientesMeta, { CLI_ID: 9 })).toBe(9);
    const composite = { ...clientesMeta, key: ['PRCB_ID', 'PRCB_EMP_ID'] };
    expect(recordId(composite, { PRCB_ID: 1, PRCB_EMP_ID: 2 })).toEqual({ PRCB_ID: 1, PRCB_EMP_ID: 2 });
    expect(decodeId(encodeId({ a: 1 }))).toEqual({ a: 1 });
    expect(decodeId(null)).toBeUndefined();
  });
});

describe('permissions', () => {
  const withProgram = (over: Partial<Session['programs'][number]>): Session => ({
    ...sessionData({ programs: [program({ id: 1, name: 'IndexClientes', webPath: '/clientes', ...over })] }),
    token: 't',
    favourites: [],
  });
  it('reads the program whose web path matches', () => {
    const s = withProgram({ canCreate: false, canDelete: false });
    expect(permissionsFor(s, clientesMeta)).toEqual({
      canView: true,
      canCreate: false,
      canUpdate: true,
      canDelete: false,
    });
  });
  it('falls back to the program name and gives nothing without a program', () => {
    const s = withProgram({ webPath: null });
    expect(permissionsFor(s, clientesMeta).canView).toBe(true);
    expect(permissionsFor(withProgram({ webPath: '/outra', name: 'Outra' }), clientesMeta).canView).toBe(false);
    expect(permissionsFor(null, clientesMeta).canView).toBe(false);
  });
  it('gives internal operators all four', () => {
    const s = { ...withProgram({ canView: false }), privileged: true };
    expect(permissionsFor(s, clientesMeta)).toEqual({
      canView: true,
      canCreate: true,
      canUpdate: true,
      canDelete: true,
    });
  });
});

describe('list ordering', () => {
  it('reads the arrow from the first clause of the default order', () => {
    expect(parseOrder('CLI_DESCRICAO DESC, CLI_ID')).toEqual({ key: 'CLI_DESCRICAO', dir: 'DESC' });
    expect(parseOrder('CLI_ID')).toEqual({ key: 'CLI_ID', dir: 'ASC' });
    expect(parseOrder('')).toBeNull();
  });
});
