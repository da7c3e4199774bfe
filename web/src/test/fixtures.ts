import type { ResourceMeta } from '../lib/resources/metaFields';

export const field = (
  over: Partial<ResourceMeta['fields'][number]> & { name: string; kind: ResourceMeta['fields'][number]['kind'] },
) => ({
  label: over.name,
  required: false,
  editable: true,
  length: null,
  min: null,
  max: null,
  mask: null,
  searchable: false,
  reference: null,
  options: null,
  uploadTypes: null,
  width: 6,
  inList: false,
  defaultValue: null,
  ...over,
});

export const clientesMeta: ResourceMeta = {
  name: 'clientes',
  path: '/clientes',
  title: 'Clientes',
  program: 'IndexClientes',
  key: ['CLI_ID'],
  companyColumn: 'CLI_EMP_ID',
  labelField: 'CLI_DESCRICAO',
  defaultOrder: 'CLI_DESCRICAO ASC',
  fields: [
    field({ name: 'CLI_ID', kind: 'NUMBER', label: 'Código', editable: false, inList: true }),
    field({ name: 'CLI_DESCRICAO', kind: 'TEXT', label: 'Nome', required: true, inList: true }),
    field({ name: 'CLI_CPF', kind: 'CPF_CNPJ', label: 'CPF/CNPJ', inList: true }),
    field({ name: 'CLI_LIMITE', kind: 'MONEY', label: 'Limite de crédito', inList: true }),
    field({ name: 'CLI_NASC', kind: 'DATE', label: 'Nascimento' }),
    field({ name: 'CLI_FONES', kind: 'PHONES', label: 'Telefones' }),
    field({ name: 'CLI_ATIVO', kind: 'BOOLEAN', label: 'Ativo' }),
    field({
      name: 'CLI_TIPO',
      kind: 'COMBOBOX',
      label: 'Tipo',
      options: [
        { value: '1', text: 'FÍSICA' },
        { value: '2', text: 'JURÍDICA' },
      ],
      inList: true,
    }),
  ],
  groups: [{ title: 'Identificação', framed: true, width: 12, fields: ['CLI_ID', 'CLI_DESCRICAO', 'CLI_CPF'] }],
};
