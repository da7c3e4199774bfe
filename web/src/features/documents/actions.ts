// The conversions and transitions of each document: which register call, with which path
// parameters (spec data-and-calls §7), and where the screen goes afterwards.
import type { Row } from '../../components/tables/types';
import { parseBRNumber } from '../../lib/format';
import { encodeId } from '../../lib/resources/metaFields';
import { isClosed, type DocSpec } from './specs';

/** A quote becomes billing order serie 1, NF-e model 55, operation type 1 (saída). */
export const ORDER_FROM_QUOTE = { serie: '1', model: '55', type: '1' } as const;

export interface DocActionDef {
  id: string;
  label: string;
  /** Asked before running (OK runs it). */
  confirm?: { title: string; text: string; okText: string };
  /** The acréscimo asks for a value or a percentage. */
  asksSurcharge?: boolean;
  disabled?: boolean;
  resource: string;
  action: string;
  params: Record<string, unknown>;
  body?: (values: Record<string, unknown>) => Record<string, unknown>;
  /** Where the answer leads: the new document's edit page, or null to stay and reload. */
  next?: (answer: Row) => string | null;
}

export const editHref = (root: string, id: unknown) => `/${root}/alterar?id=${encodeURIComponent(encodeId(id))}`;

/** The order a conversion answered, by its key (the row, or the keys the answer carries). */
const orderHref = (a: Row) => editHref('pedidos', { PEDF_ID: a.PEDF_ID, PEDF_SERIE: a.PEDF_SERIE });
const serviceOrderHref = (a: Row) =>
  editHref('ordensdeservico', { ORDS_ID: a.ORDS_ID, ORDS_SERIE: a.ORDS_SERIE ?? 'OS' });

export function documentActions(spec: DocSpec, record: Row, userId: number, canUpdate: boolean): DocActionDef[] {
  const closed = isClosed(spec, record);
  switch (spec.id) {
    case 'quote': {
      const id = record.ORCA_ID;
      return [
        {
          id: 'gerapedidofat',
          label: 'Gerar Pedido',
          disabled: closed || !canUpdate,
          resource: 'orcamento',
          action: 'gerapedidofat',
          params: { ORCA_ID: id, ...ORDER_FROM_QUOTE, user: userId },
          next: orderHref,
        },
        {
          id: 'geraos',
          label: 'Gerar OS',
          disabled: closed || !canUpdate,
          resource: 'orcamento',
          action: 'geraos',
          params: { ORCA_ID: id, user: userId },
          next: serviceOrderHref,
        },
        {
          id: 'gerarequisicao',
          label: 'Gerar Requisição',
          disabled: closed || !canUpdate || record.ORCA_REQU_OK === true,
          resource: 'orcamento',
          action: 'gerarequisicao',
          params: { ORCA_ID: id, user: userId },
          next: () => null,
        },
        {
          id: 'duplicar',
          label: 'Duplicar',
          resource: 'orcamento',
          action: 'duplicar',
          params: { ORCA_ID: id, user: userId },
          next: (a) => editHref('orcamentos', a.ORCA_ID),
        },
      ];
    }
    case 'order': {
      const params = { PEDF_ID: record.PEDF_ID, PEDF_SERIE: record.PEDF_SERIE };
      return [
        {
          id: 'faturar',
          label: 'Faturar',
          disabled: closed || !canUpdate,
          confirm: {
            title: 'Faturar pedido',
            text: `Deseja faturar o pedido ${String(record.PEDF_ID)}? Após faturado, o pedido não poderá ser alterado.`,
            okText: 'Faturar',
          },
          resource: 'pedido',
          action: 'faturar',
          params,
          next: () => null,
        },
        {
          id: 'duplicar',
          label: 'Duplicar',
          resource: 'pedido',
          action: 'duplicar',
          params: { ...params, userId },
          next: orderHref,
        },
      ];
    }
    case 'serviceOrder': {
      const done = record.ORDS_ESTOQUE_BAIXADO === true;
      return [
        {
          id: 'totalizacao',
          label: 'Totalizar',
          resource: 'ordemservico',
          action: 'totalizacao',
          params: { ORDS_ID: record.ORDS_ID, ORDS_SERIE: record.ORDS_SERIE },
          next: () => null,
        },
        {
          id: 'acrescimo',
          label: 'Acréscimo',
          disabled: closed || !canUpdate,
          asksSurcharge: true,
          resource: 'ordemservico',
          action: 'acrescimo',
          params: { NROS: record.ORDS_ID, SERIE: record.ORDS_SERIE },
          body: surchargeBody,
          next: () => null,
        },
        {
          id: 'baixarestoque',
          label: 'Baixar Estoque',
          disabled: done || statusCancelled(record) || !canUpdate,
          confirm: {
            title: 'Baixar estoque',
            text: 'Deseja baixar do estoque os produtos desta ordem de serviço?',
            okText: 'Baixar',
          },
          resource: 'ordemservico',
          action: 'baixarestoque',
          params: {},
          body: () => ({ ORDS_ID: record.ORDS_ID, ORDS_EMP_ID: record.ORDS_EMP_ID, ORDS_SERIE: record.ORDS_SERIE }),
          next: () => null,
        },
      ];
    }
    default:
      return [];
  }
}

const statusCancelled = (r: Row) => r.ORDS_SITUACAO === 'C';

/** The acréscimo dialog's values as the call's body: VALOR or PERCENTUAL. */
export function surchargeBody(values: Record<string, unknown>): Record<string, unknown> {
  const n = String(parseBRNumber(String(values.VALOR ?? '')) ?? 0);
  return values.TIPO === 'P' ? { PERCENTUAL: n } : { VALOR: n };
}
