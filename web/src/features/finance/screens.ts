// The finance screens that are pages of their own (reconciliation, daily cash, accounting
// integration): their paths and titles. Each has a register whose metadata gives the title and
// the program; without it (not yet described by the gateway), the program whose web path is the
// screen's path decides what the user may do (screenPermissions, lib/resources/permissions.ts).
import type { ResourceMeta } from '../../lib/resources/metaFields';

/** Register, path (spec §2.3) and title of each screen. */
export const SCREENS = {
  reconciliation: { register: 'conciliacaobancaria', path: '/conciliacaobancaria', title: 'Conciliação Bancária' },
  dailyCash: { register: 'movdiario', path: '/movimentodiario', title: 'Movimento Diário' },
  dominio: { register: 'integracaodominio', path: '/integracaodominio', title: 'Integração Domínio' },
} as const;

/** The route name of a screen (its list's: 'Index' + name), for the favourite star. */
export const screenRouteName = (register: string) => `Index${register.charAt(0).toUpperCase()}${register.slice(1)}`;

export const NO_PERMISSION = 'Você não tem permissão para acessar esta tela.';

type FieldMeta = ResourceMeta['fields'][number];

/** A listed field of a stand-in register description. */
export const listedField = (over: Pick<FieldMeta, 'name' | 'label' | 'kind'> & Partial<FieldMeta>): FieldMeta => ({
  required: false,
  editable: true,
  length: null,
  min: null,
  max: null,
  mask: null,
  searchable: false,
  reference: null,
  uploadTypes: null,
  width: 6,
  inList: true,
  inForm: true,
  defaultValue: null,
  options: null,
  ...over,
});

/**
 * A stand-in description of a register the gateway does not (yet) describe to this user: what
 * its rows' columns are, for listing them as the register's own screen would.
 */
export function standInMeta(name: string, key: string, order: string, fields: FieldMeta[]): ResourceMeta {
  return {
    name,
    path: `/${name}`,
    title: name,
    program: name,
    key: [key],
    companyColumn: null,
    labelField: key,
    labelLength: null,
    defaultOrder: order,
    fields,
    groups: [],
    document: null,
    actions: [],
  };
}

/** The bank movements' columns (MBCA_*), as services/finance describes them. */
export const MOVEMENTS_STAND_IN = standInMeta('movimentacaobancaria', 'MBCA_ID', 'MBCA_DTA_MOV DESC', [
  listedField({ name: 'MBCA_DTA_MOV', label: 'Data', kind: 'DATE' }),
  listedField({ name: 'MBCA_BCO_ID', label: 'Conta', kind: 'COMBOBOX', reference: 'banco' }),
  listedField({
    name: 'MBCA_TIPO',
    label: 'Tipo',
    kind: 'COMBOBOX',
    options: [
      { value: 'C', text: 'Crédito' },
      { value: 'D', text: 'Débito' },
    ],
  }),
  listedField({ name: 'MBCA_HISTORICO', label: 'Histórico', kind: 'TEXT' }),
  listedField({ name: 'MBCA_DOCUMENTO', label: 'Documento', kind: 'TEXT' }),
  listedField({ name: 'MBCA_VALOR', label: 'Valor', kind: 'MONEY' }),
]);

/** The closed days' columns (MOVD_*). */
export const DAILY_CASH_STAND_IN = standInMeta('movdiario', 'MOVD_ID', 'MOVD_DTA_MOV DESC', [
  listedField({ name: 'MOVD_DTA_MOV', label: 'Data', kind: 'DATE' }),
  listedField({ name: 'MOVD_SALDO_INICIAL', label: 'Saldo inicial', kind: 'MONEY' }),
  listedField({ name: 'MOVD_ENTRADAS', label: 'Entradas', kind: 'MONEY' }),
  listedField({ name: 'MOVD_SAIDAS', label: 'Saídas', kind: 'MONEY' }),
  listedField({ name: 'MOVD_SALDO_FINAL', label: 'Saldo final', kind: 'MONEY' }),
  listedField({ name: 'MOVD_DTA_CAD', label: 'Fechado em', kind: 'DATE' }),
]);
