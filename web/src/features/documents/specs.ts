// The document screens (header + product and service lines) and how each maps onto the
// gateway's registers: the line registers' columns, the totals the server computes, the
// situations that make a document read-only.
import type { Row } from '../../components/tables/types';

export type ItemKind = 'product' | 'service';

export interface LineSpec {
  kind: ItemKind;
  /** The line register (resourceList/Create/Update/Delete name). */
  resource: string;
  /** 'Produtos', 'Serviços'. */
  title: string;
  /** 'produto' -> 'Adicionar produto' (button) and 'Adicionar Produto' (picker). */
  itemName: string;
  /** Key columns of a line, in key order. */
  key: string[];
  /** The line columns holding the header's key, in the header key's order. */
  parent: string[];
  /** Sequence column shown as 'Item' (absent: the key's last column). */
  seq?: string;
  item: string;
  desc?: string;
  unitName?: string;
  qty: string;
  price?: string;
  discount?: string;
  total?: string;
  cost?: string;
  /** Cells the user edits on a line (posted stock lines: none, delete and post again). */
  editable: ('qty' | 'discount')[];
}

export type DocId = 'quote' | 'order' | 'serviceOrder' | 'transfer' | 'requisition';

export interface TotalSpec {
  name: string;
  label: string;
}

export interface DocSpec {
  id: DocId;
  /** The header register. */
  resource: string;
  /** Screen root: /{root}, /{root}/inserir, /{root}/alterar. */
  root: string;
  /** Header key columns, in key order. */
  key: string[];
  /** A date the new document starts with (today). */
  dateField?: string;
  /** Server-computed totals, shown apart from the form (R$). */
  totals: TotalSpec[];
  /** The situation column, its texts, and which situations refuse changes. */
  status?: { field: string; closed: string[]; labels: Record<string, string> };
  lines: LineSpec[];
  /** The list's header breadcrumbs ('Início' first). */
  breadcrumbs?: string[];
  /** The picker refuses quantities above the product's stock. */
  blockStock?: boolean;
}

export const QUOTE: DocSpec = {
  id: 'quote',
  resource: 'orcamento',
  root: 'orcamentos',
  key: ['ORCA_ID'],
  dateField: 'ORCA_DTA_EMIS',
  totals: [
    { name: 'ORCA_VLR_PECAS', label: 'Total Peças' },
    { name: 'ORCA_VLR_OS', label: 'Total Serviços' },
    { name: 'ORCA_VLR_ACRE', label: 'Acréscimos' },
    { name: 'ORCA_VLR_DESC', label: 'Descontos' },
    { name: 'ORCA_VLR_TOT', label: 'Total' },
  ],
  status: { field: 'ORCA_SITUACAO', closed: ['C'], labels: { A: 'Aberto', C: 'Convertido' } },
  lines: [
    {
      kind: 'product',
      resource: 'orcamentoproduto',
      title: 'Produtos',
      itemName: 'produto',
      key: ['ORCP_ORCA_ID', 'ORCP_ID'],
      parent: ['ORCP_ORCA_ID'],
      item: 'ORCP_PROD_ID',
      desc: 'ORCP_DESCRICAO',
      unitName: 'ORCP_UNIDADE',
      qty: 'ORCP_QTDE',
      price: 'ORCP_VLR_UNIT',
      discount: 'ORCP_VLR_DESC',
      total: 'ORCP_VLR_TOTAL',
      editable: ['qty', 'discount'],
    },
    {
      kind: 'service',
      resource: 'orcamentoservico',
      title: 'Serviços',
      itemName: 'serviço',
      key: ['ORCI_ORCA_ID', 'ORCI_ID'],
      parent: ['ORCI_ORCA_ID'],
      item: 'ORCI_SERV_ID',
      desc: 'ORCI_DESCRICAO',
      qty: 'ORCI_QTDE',
      price: 'ORCI_VLR_UNIT',
      discount: 'ORCI_VLR_DESC',
      total: 'ORCI_VLR_TOTAL',
      editable: ['qty', 'discount'],
    },
  ],
};

export const ORDER: DocSpec = {
  id: 'order',
  resource: 'pedido',
  root: 'pedidos',
  key: ['PEDF_ID', 'PEDF_SERIE'],
  dateField: 'PEDF_DTA_EMISSAO',
  totals: [
    { name: 'PEDF_TOT_PROD', label: 'Total Produtos' },
    { name: 'PEDF_TOT_SERV', label: 'Total Serviços' },
    { name: 'PEDF_VLR_ACRE', label: 'Acréscimos' },
    { name: 'PEDF_VLR_FRETE', label: 'Frete' },
    { name: 'PEDF_VLR_DESC', label: 'Descontos' },
    { name: 'PEDF_VLR_TOTAL', label: 'Total' },
  ],
  status: { field: 'PEDF_SITUACAO', closed: ['F'], labels: { A: 'Aberto', F: 'Faturado' } },
  lines: [
    {
      kind: 'product',
      resource: 'pedidoproduto',
      title: 'Produtos',
      itemName: 'produto',
      key: ['PEDI_PEDF_ID', 'PEDI_PEDF_SERIE_ID', 'PEDI_PEDF_ITEM'],
      parent: ['PEDI_PEDF_ID', 'PEDI_PEDF_SERIE_ID'],
      item: 'PEDI_PROD_ID',
      desc: 'PEDI_DESCRICAO',
      unitName: 'PEDI_UNIDADE',
      qty: 'PEDI_QTDE',
      price: 'PEDI_VLR_UNITARIO',
      discount: 'PEDI_VLR_DESCONTO',
      total: 'PEDI_VLR_TOTAL',
      editable: ['qty', 'discount'],
    },
    {
      kind: 'service',
      resource: 'pedidoservico',
      title: 'Serviços',
      itemName: 'serviço',
      key: ['PFOS_PEDF_ID', 'PFOS_PEDF_SERIE', 'PFOS_ID'],
      parent: ['PFOS_PEDF_ID', 'PFOS_PEDF_SERIE'],
      item: 'PFOS_SERV_ID',
      desc: 'PFOS_DESCRICAO',
      qty: 'PFOS_QTDE',
      price: 'PFOS_VLR_UNIT',
      total: 'PFOS_VLR_SERV',
      editable: ['qty'],
    },
  ],
};

export const SERVICE_ORDER: DocSpec = {
  id: 'serviceOrder',
  resource: 'ordemservico',
  root: 'ordensdeservico',
  key: ['ORDS_ID', 'ORDS_SERIE'],
  dateField: 'ORDS_DTA_ENTRADA',
  totals: [
    { name: 'ORDS_VLR_SERV', label: 'Total Serviços' },
    { name: 'ORDS_VLR_PECAS', label: 'Total Peças' },
    { name: 'ORDS_ACRESCIMO', label: 'Acréscimo da Ordem' },
    { name: 'ORDS_VLR_ACRE', label: 'Acréscimos' },
    { name: 'ORDS_VLR_DESC', label: 'Descontos' },
    { name: 'ORDS_VLR_TOTAL', label: 'Total' },
  ],
  status: {
    field: 'ORDS_SITUACAO',
    closed: ['F', 'C'],
    labels: { A: 'Aberta', F: 'Finalizada', C: 'Cancelada' },
  },
  breadcrumbs: ['Início', 'Ordem de Serviço'],
  lines: [
    {
      kind: 'service',
      resource: 'ordemservicoservico',
      title: 'Serviços',
      itemName: 'serviço',
      key: ['ORDI_ORDS_ID', 'ORDI_SERIE', 'ORDI_ID'],
      parent: ['ORDI_ORDS_ID', 'ORDI_SERIE'],
      item: 'ORDI_SERV_ID',
      desc: 'ORDI_DESCRICAO',
      qty: 'ORDI_QTDE',
      price: 'ORDI_VLR_UNIT',
      discount: 'ORDI_VLR_DESC',
      total: 'ORDI_VLR_TOTAL',
      editable: ['qty', 'discount'],
    },
    {
      kind: 'product',
      resource: 'ordemservicoproduto',
      title: 'Produtos',
      itemName: 'produto',
      key: ['ORDP_ORDS_ID', 'ORDP_SERIE', 'ORDP_SEQ'],
      parent: ['ORDP_ORDS_ID', 'ORDP_SERIE'],
      item: 'ORDP_PROD_ID',
      desc: 'ORDP_DESCRICAO',
      unitName: 'ORDP_UNIDADE',
      qty: 'ORDP_QTDE',
      price: 'ORDP_VLR_UNIT',
      discount: 'ORDP_VLR_DESC',
      total: 'ORDP_VLR_TOTAL',
      editable: ['qty', 'discount'],
    },
  ],
};

export const TRANSFER: DocSpec = {
  id: 'transfer',
  resource: 'transferencialocal',
  root: 'transferenciaestoque',
  key: ['TRLO_ID'],
  dateField: 'TRLO_DATA',
  totals: [],
  lines: [
    {
      kind: 'product',
      resource: 'transferencialocalproduto',
      title: 'Produtos',
      itemName: 'produto',
      key: ['TRLP_ID'],
      parent: ['TRLP_TRLO_ID'],
      item: 'TRLP_PROD_ID',
      qty: 'TRLP_QTDE',
      editable: [],
    },
  ],
};

export const REQUISITION: DocSpec = {
  id: 'requisition',
  resource: 'requisicao',
  root: 'requisicoes',
  key: ['REQU_ID'],
  dateField: 'REQU_DATA',
  totals: [],
  blockStock: true,
  lines: [
    {
      kind: 'product',
      resource: 'requisicaoproduto',
      title: 'Produtos',
      itemName: 'produto',
      key: ['REQP_ID'],
      parent: ['REQP_REQU_ID'],
      item: 'REQP_PROD_ID',
      qty: 'REQP_QTDE',
      cost: 'REQP_CUSTO_UNIT',
      editable: [],
    },
  ],
};

export const DOC_SPECS: Record<DocId, DocSpec> = {
  quote: QUOTE,
  order: ORDER,
  serviceOrder: SERVICE_ORDER,
  transfer: TRANSFER,
  requisition: REQUISITION,
};

/** The header's id as the gateway takes it: the key value, or an object of the key columns. */
export function headerId(spec: DocSpec, row: Row): unknown {
  if (spec.key.length === 1) return row[spec.key[0]];
  return Object.fromEntries(spec.key.map((k) => [k, row[k]]));
}

/** The conditions that list one document's lines. */
export function lineWhere(line: LineSpec, spec: DocSpec, header: Row): Record<string, unknown> {
  return Object.fromEntries(line.parent.map((col, i) => [col, header[spec.key[i]]]));
}

/** A line's id: an object of its key columns. */
export function lineId(line: LineSpec, row: Row): unknown {
  if (line.key.length === 1) return row[line.key[0]];
  return Object.fromEntries(line.key.map((k) => [k, row[k]]));
}

export const num = (v: unknown): number => {
  if (v == null || v === '') return 0;
  const n = typeof v === 'number' ? v : Number(String(v));
  return Number.isNaN(n) ? 0 : n;
};

/** The situation's code of a document ('' when it has none). */
export const statusOf = (spec: DocSpec, row: Row | null) =>
  spec.status && row ? String(row[spec.status.field] ?? '') : '';

export const isClosed = (spec: DocSpec, row: Row | null) =>
  !!spec.status && spec.status.closed.includes(statusOf(spec, row));

/** Columns the header form leaves out: totals and the situation are shown apart. */
export const hiddenFields = (spec: DocSpec) =>
  new Set([...spec.totals.map((t) => t.name), ...(spec.status ? [spec.status.field] : [])]);
