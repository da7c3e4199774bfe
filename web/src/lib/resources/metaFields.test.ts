import { describe, expect, it } from 'vitest';
import { clientesMeta, field } from '../../test/fixtures';
import { program, sessionData } from '../../test/utils';
import type { Session } from '../session';
import {
  decodeId,
  encodeId,
  fieldOfMessage,
  listColumns,
  matchResource,
  metaGroups,
  parseOrder,
  recordId,
  referenceLinks,
  routeName,
  rowToValues,
  valuesToRow,
  withReferenceWhere,
  type ResourceMeta,
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

  it('keeps fields marked not in form out of the form, and a group of only such fields', () => {
    const meta: ResourceMeta = {
      ...clientesMeta,
      fields: [
        field({ name: 'CTE_ID', kind: 'NUMBER', editable: false }),
        field({ name: 'CTE_NFE_XML', kind: 'TEXTAREA', editable: false, inForm: false }),
        field({ name: 'CTE_XML_ASSINADO', kind: 'TEXTAREA', editable: false, inForm: false }),
      ],
      groups: [
        { title: 'Dados', framed: true, width: 12, fields: ['CTE_ID', 'CTE_NFE_XML'] },
        { title: 'Arquivos', framed: true, width: 12, fields: ['CTE_XML_ASSINADO'] },
      ],
    };
    const groups = metaGroups(meta);
    expect(groups.map((g) => g.title)).toEqual(['Dados']);
    expect(groups[0].fields.map((f) => [f.name, f.mostrar])).toEqual([
      ['CTE_ID', true],
      ['CTE_NFE_XML', false],
    ]);
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

const register = (name: string, fields: ResourceMeta['fields']): ResourceMeta => ({
  ...clientesMeta,
  name,
  path: `/${name}`,
  key: [fields[0].name],
  labelField: fields[1]?.name ?? fields[0].name,
  fields,
  groups: [],
});

describe('reference fields', () => {
  const marca = register('marcaveiculo', [
    field({ name: 'MRCV_ID', kind: 'NUMBER' }),
    field({ name: 'MRCV_DESCRICAO', kind: 'TEXT' }),
  ]);
  const modelo = register('modeloveiculo', [
    field({ name: 'MDLV_ID', kind: 'NUMBER' }),
    field({ name: 'MDLV_DESCRICAO', kind: 'TEXT' }),
    field({ name: 'MDLV_MRCV_ID', kind: 'COMBOBOX', reference: 'marcaveiculo', required: true }),
    field({ name: 'MDLV_CID_IBGE', kind: 'AUTOCOMPLETE', reference: 'cidades' }),
  ]);
  const veiculo = register('veiculo', [
    field({ name: 'VEIC_ID', kind: 'NUMBER' }),
    field({ name: 'VEIC_PLACA1', kind: 'TEXT' }),
    field({ name: 'VEIC_MRCV_ID', kind: 'COMBOBOX', reference: 'marcaveiculo', inList: true }),
    field({ name: 'VEIC_MDLV_ID', kind: 'COMBOBOX', reference: 'modeloveiculo', inList: true }),
    field({ name: 'VEIC_CID_IBGE', kind: 'AUTOCOMPLETE', reference: 'cidades' }),
  ]);

  it('narrows the model by the chosen brand', () => {
    const links = referenceLinks(veiculo, [marca, modelo, veiculo]);
    expect(links).toEqual([{ field: 'VEIC_MDLV_ID', column: 'MDLV_MRCV_ID', source: 'VEIC_MRCV_ID' }]);
    const groups = metaGroups(veiculo);
    const find = (gs: typeof groups) => gs[0].fields.find((f) => f.name === 'VEIC_MDLV_ID');
    expect(find(withReferenceWhere(groups, links, { VEIC_MRCV_ID: '' }))?.where).toBeUndefined();
    expect(find(withReferenceWhere(groups, links, { VEIC_MRCV_ID: '2' }))?.where).toEqual({ MDLV_MRCV_ID: '2' });
  });

  it('shows the texts of referenced rows in list cells, the id until known', () => {
    const cols = listColumns(veiculo, { modeloveiculo: { '7': 'Gol' } });
    const row = { VEIC_MRCV_ID: 3, VEIC_MDLV_ID: 7 };
    expect(cols.map((c) => c.format?.(row[c.key as keyof typeof row], row))).toEqual(['3', 'Gol']);
  });
});

describe('server messages', () => {
  it('finds the field a message names by its label', () => {
    const meta = register('clientes', [
      field({ name: 'CLI_ID', kind: 'NUMBER', label: 'Código', editable: false }),
      field({ name: 'CLI_CPF', kind: 'CPF_CNPJ', label: 'CPF' }),
      field({ name: 'CLI_CPF_RESP', kind: 'CPF_CNPJ', label: 'CPF do Responsável' }),
      field({ name: 'CLI_CGC', kind: 'CPF_CNPJ', label: 'CNPJ' }),
    ]);
    expect(fieldOfMessage(meta, 'CPF inválido.')).toBe('CLI_CPF');
    expect(fieldOfMessage(meta, 'CPF é obrigatório!')).toBe('CLI_CPF');
    expect(fieldOfMessage(meta, 'CPF do Responsável inválido.')).toBe('CLI_CPF_RESP');
    expect(fieldOfMessage(meta, 'CNPJ é obrigatório!')).toBe('CLI_CGC');
    expect(fieldOfMessage(meta, 'Código inválido.')).toBeNull();
    expect(fieldOfMessage(meta, 'Registro já cadastrado.')).toBeNull();
  });

  it('formats documents, CEP and phones in list cells and CEP in the form', () => {
    const meta = register('x', [
      field({ name: 'ID', kind: 'NUMBER', inList: true }),
      field({ name: 'DOC', kind: 'CPF_CNPJ', inList: true }),
      field({ name: 'CEP', kind: 'CEP', inList: true }),
      field({ name: 'FONE', kind: 'PHONES', inList: true }),
    ]);
    const row = { ID: 1, DOC: '12ABC34501DE35', CEP: '01001000', FONE: '11987654321;1134567890' };
    const cells = listColumns(meta).map(
      (c) => c.format?.(row[c.key as keyof typeof row], row) ?? String(row[c.key as keyof typeof row]),
    );
    expect(cells).toEqual(['1', '12.ABC.345/01DE-35', '01001-000', '(11) 98765-4321, (11) 3456-7890']);
    expect(listColumns(meta).find((c) => c.key === 'DOC')?.nowrap).toBe(true);
    expect(rowToValues(meta, row).CEP).toBe('01001-000');
  });
});

describe('defaults', () => {
  it('starts a new record from the register defaults and an edited one from its row', () => {
    const meta = {
      ...clientesMeta,
      fields: [
        field({ name: 'CLI_TIPO_PESSOA', kind: 'COMBOBOX', defaultValue: 'F' as unknown as Record<string, unknown> }),
        field({ name: 'CLI_SITUACAO', kind: 'SITUATION', defaultValue: 1 as unknown as Record<string, unknown> }),
      ],
    };
    expect(rowToValues(meta, null)).toEqual({ CLI_TIPO_PESSOA: 'F', CLI_SITUACAO: '1' });
    expect(rowToValues(meta, { CLI_TIPO_PESSOA: 'J', CLI_SITUACAO: 2 })).toEqual({
      CLI_TIPO_PESSOA: 'J',
      CLI_SITUACAO: '2',
    });
  });
});
