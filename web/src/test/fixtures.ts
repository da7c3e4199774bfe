import type { RegisterName, Row } from '../lib/api';
import type { DocumentRegister, ResourceMeta } from '../lib/resources/metaFields';

/**
 * A mock row of register `R`: its keys are the register's columns (the compiler checks them),
 * its values as a test writes them (money as the API's text too: the screens read both).
 */
export const mockRow = <R extends RegisterName>(_register: R, row: { [C in keyof Row<R>]?: unknown }) => row as Row<R>;

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
  inForm: true,
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
  labelLength: null,
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
  document: null,
  actions: [],
};

// ------------------------------------------------------------------ documents
// The document headers as the gateway describes them (ResourceMeta.document and .actions,
// services/*/src/resources): the quote, the billing order, the service order, the stock
// transfer and the requisition.

type DocumentLine = DocumentRegister['document']['lines'][number];
type Action = ResourceMeta['actions'][number];

const money = (name: string, label: string) => field({ name, kind: 'MONEY', label, editable: false });
type StatusLabel = NonNullable<DocumentRegister['document']['status']>['labels'][number];
/** The status field: a read-only combobox of the status labels (their tones are the document's). */
const situation = (name: string, labels: StatusLabel[]) =>
  field({
    name,
    kind: 'COMBOBOX',
    label: 'Situação',
    editable: false,
    options: labels.map(({ value, text }) => ({ value, text })),
    inList: true,
  });

/** A line register's roles; the columns a line lacks are null. */
export const documentLine = (
  over: Pick<DocumentLine, 'resource' | 'kind' | 'key' | 'parent'> & Partial<DocumentLine>,
): DocumentLine => ({
  title: over.kind === 'product' ? 'Produtos' : 'Serviços',
  itemName: over.kind === 'product' ? 'produto' : 'serviço',
  seq: null,
  item: null,
  desc: null,
  unitName: null,
  qty: null,
  price: null,
  discount: null,
  total: null,
  cost: null,
  editable: [],
  lockedBy: null,
  ...over,
});

/**
 * A button: no confirmation, enabled in any status, path parameters by name, no body, not the
 * screen's primary one, needing the update permission, answering a record (not a file).
 */
export const action = (over: Pick<Action, 'name' | 'path' | 'label'> & Partial<Action>): Action => ({
  method: 'POST',
  confirm: null,
  openWhen: [],
  unless: null,
  params: [],
  body: [],
  dialog: null,
  dialogTitle: null,
  opens: null,
  primary: false,
  permission: 'update',
  download: false,
  ...over,
});

const fromField = (value: string) => ({ from: 'field', value });
const constant = (value: string) => ({ from: 'const', value });

const quoteStatus: StatusLabel[] = [
  { value: 'A', text: 'Aberto', tone: 'open' },
  { value: 'C', text: 'Convertido', tone: 'done' },
];
const orderStatus: StatusLabel[] = [
  { value: 'A', text: 'Aberto', tone: 'open' },
  { value: 'F', text: 'Faturado', tone: 'done' },
];
const serviceOrderStatus: StatusLabel[] = [
  { value: 'A', text: 'Aberta', tone: 'open' },
  { value: 'F', text: 'Finalizada', tone: 'done' },
  { value: 'C', text: 'Cancelada', tone: 'cancelled' },
];

export const quoteMeta: DocumentRegister = {
  name: 'orcamento',
  path: '/orcamentos',
  title: 'Orçamentos',
  program: 'orcamentos',
  key: ['ORCA_ID'],
  companyColumn: 'ORCA_EMP_ID',
  labelField: 'ORCA_CLI_DESC',
  labelLength: null,
  defaultOrder: 'ORCA_ID DESC',
  fields: [
    field({ name: 'ORCA_ID', kind: 'NUMBER', label: 'Número', editable: false, inList: true }),
    field({ name: 'ORCA_CLI_DESC', kind: 'TEXT', label: 'Cliente', editable: false, inList: true }),
    field({ name: 'ORCA_DTA_EMIS', kind: 'DATE', label: 'Emissão', required: true, inList: true }),
    field({ name: 'ORCA_OBS', kind: 'TEXTAREA', label: 'Observações' }),
    money('ORCA_VLR_OS', 'Total Serviços'),
    money('ORCA_VLR_PECAS', 'Total Peças'),
    money('ORCA_VLR_ACRE', 'Acréscimos'),
    money('ORCA_VLR_DESC', 'Descontos'),
    money('ORCA_VLR_TOT', 'Total'),
    situation('ORCA_SITUACAO', quoteStatus),
    field({ name: 'ORCA_REQU_OK', kind: 'BOOLEAN', label: 'Requisição gerada', editable: false }),
  ],
  groups: [],
  document: {
    key: ['ORCA_ID'],
    dateField: 'ORCA_DTA_EMIS',
    breadcrumbs: null,
    blockStock: false,
    children: [],
    status: {
      field: 'ORCA_SITUACAO',
      open: ['A'],
      labels: quoteStatus,
    },
    totals: [
      { name: 'ORCA_VLR_OS', label: 'Total Serviços' },
      { name: 'ORCA_VLR_PECAS', label: 'Total Peças' },
      { name: 'ORCA_VLR_ACRE', label: 'Acréscimos' },
      { name: 'ORCA_VLR_DESC', label: 'Descontos' },
      { name: 'ORCA_VLR_TOT', label: 'Total' },
    ],
    lines: [
      documentLine({
        resource: 'orcamentoproduto',
        kind: 'product',
        key: ['ORCP_ORCA_ID', 'ORCP_ID'],
        parent: ['ORCP_ORCA_ID'],
        seq: 'ORCP_ID',
        item: 'ORCP_PROD_ID',
        desc: 'ORCP_DESCRICAO',
        unitName: 'ORCP_UNIDADE',
        qty: 'ORCP_QTDE',
        price: 'ORCP_VLR_UNIT',
        discount: 'ORCP_VLR_DESC',
        total: 'ORCP_VLR_TOTAL',
        editable: ['qty', 'discount'],
      }),
      documentLine({
        resource: 'orcamentoservico',
        kind: 'service',
        key: ['ORCI_ORCA_ID', 'ORCI_ID'],
        parent: ['ORCI_ORCA_ID'],
        seq: 'ORCI_ID',
        item: 'ORCI_SERV_ID',
        desc: 'ORCI_DESCRICAO',
        qty: 'ORCI_QTDE',
        price: 'ORCI_VLR_UNIT',
        discount: 'ORCI_VLR_DESC',
        total: 'ORCI_VLR_TOTAL',
        editable: ['qty', 'discount'],
      }),
    ],
  },
  actions: [
    action({
      name: 'gerapedidofat',
      path: '/orcamento/gerapedidofat/{ORCA_ID}/{emp}/{serie}/{model}/{type}/{user}',
      label: 'Gerar Pedido',
      primary: true,
      openWhen: ['A'],
      params: [
        { name: 'serie', source: constant('1') },
        { name: 'model', source: constant('55') },
        { name: 'type', source: constant('1') },
      ],
      opens: 'pedido',
    }),
    action({
      name: 'geraos',
      path: '/orcamento/geraos/{ORCA_ID}/{emp}/{user}',
      label: 'Gerar OS',
      openWhen: ['A'],
      opens: 'ordemservico',
    }),
    action({
      name: 'gerarequisicao',
      path: '/orcamento/gerarequisicao/{ORCA_ID}/{emp}/{user}',
      label: 'Gerar Requisição',
      openWhen: ['A'],
      unless: 'ORCA_REQU_OK',
    }),
    action({
      name: 'duplicar',
      path: '/orcamento/duplicar/{ORCA_ID}/{emp}/{user}',
      label: 'Duplicar',
      opens: 'orcamento',
      permission: 'create',
    }),
  ],
};

export const orderMeta: DocumentRegister = {
  name: 'pedido',
  path: '/pedidos',
  title: 'Pedidos de Venda',
  program: 'pedidos',
  key: ['PEDF_ID', 'PEDF_SERIE'],
  companyColumn: 'PEDF_EMP_ID',
  labelField: 'PEDF_CLI_DESC',
  labelLength: 20,
  defaultOrder: 'PEDF_ID DESC',
  fields: [
    field({ name: 'PEDF_ID', kind: 'NUMBER', label: 'Número', editable: false, inList: true }),
    field({ name: 'PEDF_SERIE', kind: 'TEXT', label: 'Série', required: true, inList: true }),
    field({ name: 'PEDF_CLI_DESC', kind: 'TEXT', label: 'Cliente', editable: false, inList: true }),
    field({ name: 'PEDF_DTA_EMISSAO', kind: 'DATE', label: 'Emissão', required: true, inList: true }),
    money('PEDF_TOT_PROD', 'Total Produtos'),
    money('PEDF_TOT_SERV', 'Total Serviços'),
    money('PEDF_VLR_ACRE', 'Acréscimos'),
    money('PEDF_VLR_FRETE', 'Frete'),
    money('PEDF_VLR_DESC', 'Descontos'),
    money('PEDF_VLR_TOTAL', 'Total'),
    situation('PEDF_SITUACAO', orderStatus),
  ],
  groups: [],
  document: {
    key: ['PEDF_ID', 'PEDF_SERIE'],
    dateField: 'PEDF_DTA_EMISSAO',
    breadcrumbs: null,
    blockStock: false,
    children: [],
    status: {
      field: 'PEDF_SITUACAO',
      open: ['A'],
      labels: orderStatus,
    },
    totals: [
      { name: 'PEDF_TOT_PROD', label: 'Total Produtos' },
      { name: 'PEDF_TOT_SERV', label: 'Total Serviços' },
      { name: 'PEDF_VLR_ACRE', label: 'Acréscimos' },
      { name: 'PEDF_VLR_FRETE', label: 'Frete' },
      { name: 'PEDF_VLR_DESC', label: 'Descontos' },
      { name: 'PEDF_VLR_TOTAL', label: 'Total' },
    ],
    lines: [
      documentLine({
        resource: 'pedidoproduto',
        kind: 'product',
        key: ['PEDI_PEDF_ID', 'PEDI_PEDF_SERIE_ID', 'PEDI_PEDF_ITEM'],
        parent: ['PEDI_PEDF_ID', 'PEDI_PEDF_SERIE_ID'],
        seq: 'PEDI_PEDF_ITEM',
        item: 'PEDI_PROD_ID',
        desc: 'PEDI_DESCRICAO',
        unitName: 'PEDI_UNIDADE',
        qty: 'PEDI_QTDE',
        price: 'PEDI_VLR_UNITARIO',
        discount: 'PEDI_VLR_DESCONTO',
        total: 'PEDI_VLR_TOTAL',
        editable: ['qty', 'discount'],
      }),
      documentLine({
        resource: 'pedidoservico',
        kind: 'service',
        key: ['PFOS_PEDF_ID', 'PFOS_PEDF_SERIE', 'PFOS_ID'],
        parent: ['PFOS_PEDF_ID', 'PFOS_PEDF_SERIE'],
        seq: 'PFOS_ID',
        item: 'PFOS_SERV_ID',
        desc: 'PFOS_DESCRICAO',
        qty: 'PFOS_QTDE',
        price: 'PFOS_VLR_UNIT',
        total: 'PFOS_VLR_SERV',
        editable: ['qty'],
      }),
    ],
  },
  actions: [
    action({
      name: 'faturar',
      method: 'PUT',
      path: '/pedidogenerator/{PEDF_ID}/{emp}/{PEDF_SERIE}',
      label: 'Faturar',
      primary: true,
      confirm: {
        title: 'Faturar pedido',
        text: 'Deseja faturar o pedido {PEDF_ID}? Após faturado, o pedido não poderá ser alterado.',
        ok: 'Faturar',
      },
      openWhen: ['A'],
    }),
    action({
      name: 'duplicar',
      path: '/pedidoduplicar/{PEDF_ID}/{emp}/{PEDF_SERIE}/{userId}',
      label: 'Duplicar',
      opens: 'pedido',
      permission: 'create',
    }),
  ],
};

export const serviceOrderMeta: DocumentRegister = {
  name: 'ordemservico',
  path: '/ordensdeservico',
  title: 'Ordens de Serviço',
  program: 'ordensdeservico',
  key: ['ORDS_ID', 'ORDS_SERIE'],
  companyColumn: 'ORDS_EMP_ID',
  labelField: 'ORDS_CLI_DESC',
  labelLength: null,
  defaultOrder: 'ORDS_ID DESC',
  fields: [
    field({ name: 'ORDS_ID', kind: 'NUMBER', label: 'Número', editable: false, inList: true }),
    field({ name: 'ORDS_SERIE', kind: 'TEXT', label: 'Série', required: true, inList: true }),
    field({ name: 'ORDS_CLI_DESC', kind: 'TEXT', label: 'Cliente', editable: false, inList: true }),
    field({ name: 'ORDS_DTA_ENTRADA', kind: 'DATE', label: 'Entrada', required: true, inList: true }),
    money('ORDS_VLR_SERV', 'Total Serviços'),
    money('ORDS_VLR_PECAS', 'Total Peças'),
    field({ name: 'ORDS_ACRESCIMO', kind: 'MONEY', label: 'Acréscimo da Ordem' }),
    money('ORDS_VLR_ACRE', 'Acréscimos'),
    money('ORDS_VLR_DESC', 'Descontos'),
    money('ORDS_VLR_TOTAL', 'Total'),
    situation('ORDS_SITUACAO', serviceOrderStatus),
    field({ name: 'ORDS_ESTOQUE_BAIXADO', kind: 'BOOLEAN', label: 'Estoque baixado', editable: false }),
  ],
  groups: [],
  document: {
    key: ['ORDS_ID', 'ORDS_SERIE'],
    dateField: 'ORDS_DTA_ENTRADA',
    breadcrumbs: ['Início', 'Ordem de Serviço'],
    blockStock: false,
    children: [],
    status: {
      field: 'ORDS_SITUACAO',
      open: ['A'],
      labels: serviceOrderStatus,
    },
    totals: [
      { name: 'ORDS_VLR_SERV', label: 'Total Serviços' },
      { name: 'ORDS_VLR_PECAS', label: 'Total Peças' },
      { name: 'ORDS_ACRESCIMO', label: 'Acréscimo da Ordem' },
      { name: 'ORDS_VLR_ACRE', label: 'Acréscimos' },
      { name: 'ORDS_VLR_DESC', label: 'Descontos' },
      { name: 'ORDS_VLR_TOTAL', label: 'Total' },
    ],
    lines: [
      documentLine({
        resource: 'ordemservicoservico',
        kind: 'service',
        key: ['ORDI_ORDS_ID', 'ORDI_SERIE', 'ORDI_ID'],
        parent: ['ORDI_ORDS_ID', 'ORDI_SERIE'],
        seq: 'ORDI_ID',
        item: 'ORDI_SERV_ID',
        desc: 'ORDI_DESCRICAO',
        qty: 'ORDI_QTDE',
        price: 'ORDI_VLR_UNIT',
        discount: 'ORDI_VLR_DESC',
        total: 'ORDI_VLR_TOTAL',
        editable: ['qty', 'discount'],
      }),
      documentLine({
        resource: 'ordemservicoproduto',
        kind: 'product',
        key: ['ORDP_ORDS_ID', 'ORDP_SERIE', 'ORDP_SEQ'],
        parent: ['ORDP_ORDS_ID', 'ORDP_SERIE'],
        seq: 'ORDP_SEQ',
        item: 'ORDP_PROD_ID',
        desc: 'ORDP_DESCRICAO',
        unitName: 'ORDP_UNIDADE',
        qty: 'ORDP_QTDE',
        price: 'ORDP_VLR_UNIT',
        discount: 'ORDP_VLR_DESC',
        total: 'ORDP_VLR_TOTAL',
        editable: ['qty', 'discount'],
        lockedBy: 'ORDS_ESTOQUE_BAIXADO',
      }),
    ],
  },
  actions: [
    action({ name: 'totalizacao', path: '/ordemservicototalizacao/{ORDS_ID}/{emp}/{ORDS_SERIE}', label: 'Totalizar' }),
    action({
      name: 'acrescimo',
      path: '/ordemservicoacrescimo/{NROS}/{emp}/{SERIE}',
      label: 'Acréscimo',
      openWhen: ['A'],
      params: [
        { name: 'NROS', source: fromField('ORDS_ID') },
        { name: 'SERIE', source: fromField('ORDS_SERIE') },
      ],
      dialog: 'surcharge',
      dialogTitle: 'Acréscimo da ordem de serviço',
    }),
    action({
      name: 'baixarestoque',
      path: '/ordemservicobaixarestoque',
      label: 'Baixar Estoque',
      confirm: {
        title: 'Baixar estoque',
        text: 'Deseja baixar do estoque os produtos desta ordem de serviço?',
        ok: 'Baixar',
      },
      openWhen: ['A', 'F'],
      unless: 'ORDS_ESTOQUE_BAIXADO',
      body: [
        { name: 'ORDS_ID', source: fromField('ORDS_ID') },
        { name: 'ORDS_EMP_ID', source: fromField('ORDS_EMP_ID') },
        { name: 'ORDS_SERIE', source: fromField('ORDS_SERIE') },
      ],
    }),
    action({
      name: 'finalizar',
      method: 'PUT',
      path: '/ordemservico/finalizar/{ORDS_ID}/{emp}/{ORDS_SERIE}',
      label: 'Finalizar',
      primary: true,
      confirm: {
        title: 'Finalizar ordem de serviço',
        text: 'Deseja finalizar a ordem de serviço {ORDS_ID}? Depois de finalizada ela não poderá ser alterada.',
        ok: 'Finalizar',
      },
      openWhen: ['A'],
    }),
    action({
      name: 'cancelar',
      method: 'PUT',
      path: '/ordemservico/cancelar/{ORDS_ID}/{emp}/{ORDS_SERIE}',
      label: 'Cancelar OS',
      confirm: {
        title: 'Cancelar ordem de serviço',
        text: 'Deseja cancelar a ordem de serviço {ORDS_ID}?',
        ok: 'Cancelar OS',
      },
      openWhen: ['A'],
      unless: 'ORDS_ESTOQUE_BAIXADO',
    }),
  ],
};

export const transferMeta: DocumentRegister = {
  name: 'transferencialocal',
  path: '/transferenciaestoque',
  title: 'Transferências de Estoque',
  program: 'transferenciaestoque',
  key: ['TRLO_ID'],
  companyColumn: 'TRLO_EMP_ID',
  labelField: 'TRLO_OBS',
  labelLength: null,
  defaultOrder: 'TRLO_ID DESC',
  fields: [
    field({ name: 'TRLO_ID', kind: 'NUMBER', label: 'Código', editable: false, inList: true }),
    field({ name: 'TRLO_DATA', kind: 'DATE', label: 'Data', required: true, inList: true }),
    field({ name: 'TRLO_OBS', kind: 'TEXTAREA', label: 'Observação', inList: true }),
  ],
  groups: [],
  document: {
    key: ['TRLO_ID'],
    dateField: 'TRLO_DATA',
    breadcrumbs: null,
    blockStock: false,
    children: [],
    status: null,
    totals: [],
    lines: [
      documentLine({
        resource: 'transferencialocalproduto',
        kind: 'product',
        key: ['TRLP_ID'],
        parent: ['TRLP_TRLO_ID'],
        item: 'TRLP_PROD_ID',
        qty: 'TRLP_QTDE',
      }),
    ],
  },
  actions: [],
};

export const requisitionMeta: DocumentRegister = {
  name: 'requisicao',
  path: '/requisicoes',
  title: 'Requisições',
  program: 'requisicoes',
  key: ['REQU_ID'],
  companyColumn: 'REQU_EMP_ID',
  labelField: 'REQU_DESCRICAO',
  labelLength: null,
  defaultOrder: 'REQU_ID DESC',
  fields: [
    field({ name: 'REQU_ID', kind: 'NUMBER', label: 'Código', editable: false, inList: true }),
    field({ name: 'REQU_DESCRICAO', kind: 'TEXT', label: 'Descrição', inList: true }),
    field({ name: 'REQU_DATA', kind: 'DATE', label: 'Data', required: true, inList: true }),
  ],
  groups: [],
  document: {
    key: ['REQU_ID'],
    dateField: 'REQU_DATA',
    breadcrumbs: null,
    blockStock: true,
    children: [],
    status: null,
    totals: [],
    lines: [
      documentLine({
        resource: 'requisicaoproduto',
        kind: 'product',
        key: ['REQP_ID'],
        parent: ['REQP_REQU_ID'],
        item: 'REQP_PROD_ID',
        qty: 'REQP_QTDE',
        cost: 'REQP_CUSTO_UNIT',
      }),
    ],
  },
  actions: [],
};

export const documentMetas: ResourceMeta[] = [quoteMeta, orderMeta, serviceOrderMeta, transferMeta, requisitionMeta];

// ------------------------------------------------------------------ purchases
// The purchase as the orders service declares it (services/orders/src/resources/purchases):
// header `compra`, item lines `compraproduto` keyed by purchase and item, 'Finalizar' with a
// confirmation; the product and unit registers a new product from an imported item goes to.

const purchaseStatus: StatusLabel[] = [
  { value: 'A', text: 'Aberta', tone: 'open' },
  { value: 'F', text: 'Finalizada', tone: 'done' },
  { value: 'C', text: 'Cancelada', tone: 'cancelled' },
];

export const purchaseMeta: DocumentRegister = {
  name: 'compra',
  path: '/compras',
  title: 'Compras',
  program: 'compras',
  key: ['COMP_ID'],
  companyColumn: 'COMP_EMP_ID',
  labelField: 'COMP_FORN_DESC',
  labelLength: null,
  defaultOrder: 'COMP_DTA_ENTRADA DESC, COMP_ID DESC',
  fields: [
    field({ name: 'COMP_ID', kind: 'NUMBER', label: 'Código', editable: false }),
    field({ name: 'COMP_SERIE', kind: 'TEXT', label: 'Série', inList: true }),
    field({ name: 'COMP_NUMERO', kind: 'NUMBER', label: 'Número', inList: true }),
    // Not required (an NF-e names it; a paper invoice may not yet): the label makes it the party.
    field({ name: 'COMP_FORN_ID', kind: 'AUTOCOMPLETE', label: 'Fornecedor', reference: 'fornecedor' }),
    field({ name: 'COMP_FORN_DESC', kind: 'TEXT', label: 'Fornecedor', inList: true }),
    field({ name: 'COMP_DTA_EMISSAO', kind: 'DATE', label: 'Emissão', required: true, inList: true }),
    field({ name: 'COMP_DTA_ENTRADA', kind: 'DATE', label: 'Entrada', required: true, inList: true }),
    field({ name: 'COMP_CNDP_ID', kind: 'COMBOBOX', label: 'Condição de Pagamento', reference: 'condicaopagamento' }),
    money('COMP_VLR_PRODUTOS', 'Total Produtos'),
    { ...money('COMP_VLR_TOTAL', 'Total da Nota'), inList: true },
    situation('COMP_SITUACAO', purchaseStatus),
  ],
  groups: [],
  document: {
    key: ['COMP_ID'],
    dateField: 'COMP_DTA_ENTRADA',
    breadcrumbs: ['Início', 'Compras'],
    blockStock: false,
    children: [],
    status: { field: 'COMP_SITUACAO', open: ['A'], labels: purchaseStatus },
    totals: [
      { name: 'COMP_VLR_PRODUTOS', label: 'Total Produtos' },
      { name: 'COMP_VLR_TOTAL', label: 'Total da Nota' },
    ],
    lines: [
      documentLine({
        resource: 'compraproduto',
        kind: 'product',
        title: 'Itens',
        itemName: 'item',
        key: ['CMPP_COMP_ID', 'CMPP_ID'],
        parent: ['CMPP_COMP_ID'],
        seq: 'CMPP_ID',
        item: 'CMPP_PROD_ID',
        desc: 'CMPP_DESCRICAO',
        unitName: 'CMPP_UNIDADE',
        qty: 'CMPP_QTDE',
        price: 'CMPP_VLR_UNIT',
        discount: 'CMPP_VLR_DESC',
        total: 'CMPP_VLR_TOTAL',
        cost: 'CMPP_CUSTO_UNIT',
        editable: ['qty', 'price', 'discount'],
      }),
    ],
  },
  actions: [
    action({
      name: 'finalizar',
      path: '/compra/finalizar/{COMP_ID}/{emp}',
      label: 'Finalizar',
      primary: true,
      openWhen: ['A'],
      confirm: {
        title: 'Finalizar compra',
        text: 'Deseja finalizar a compra {COMP_ID}? Os itens entram no estoque pelo custo de entrada e a compra não poderá mais ser alterada.',
        ok: 'Finalizar',
      },
    }),
    action({
      name: 'cancelar',
      path: '/compra/cancelar/{COMP_ID}/{emp}',
      label: 'Cancelar',
      openWhen: ['A', 'F'],
      confirm: {
        title: 'Cancelar compra',
        text: 'Deseja cancelar a compra {COMP_ID}? As entradas de estoque serão estornadas.',
        ok: 'Cancelar compra',
      },
    }),
  ],
};

/** The purchase's line register as resourceMeta answers it (no screen, no document part). */
export const purchaseLineMeta: ResourceMeta = {
  name: 'compraproduto',
  path: '',
  title: 'Itens da Compra',
  program: 'compras',
  key: ['CMPP_COMP_ID', 'CMPP_ID'],
  companyColumn: 'CMPP_EMP_ID',
  labelField: 'CMPP_DESCRICAO',
  labelLength: null,
  defaultOrder: 'CMPP_ID',
  fields: [
    field({ name: 'CMPP_COMP_ID', kind: 'NUMBER', label: 'Compra', required: true }),
    field({ name: 'CMPP_ID', kind: 'NUMBER', label: 'Item', editable: false, inList: true }),
    field({ name: 'CMPP_N_ITEM', kind: 'NUMBER', label: 'Item na NF-e', editable: false }),
    field({ name: 'CMPP_PROD_ID', kind: 'AUTOCOMPLETE', label: 'Produto', reference: 'produtos', inList: true }),
    field({ name: 'CMPP_COD_FORNECEDOR', kind: 'TEXT', label: 'Código no Fornecedor', inList: true }),
    field({ name: 'CMPP_DESCRICAO', kind: 'TEXT', label: 'Descrição', required: true, inList: true }),
    field({ name: 'CMPP_NCM', kind: 'TEXT', label: 'NCM' }),
    field({ name: 'CMPP_CFOP', kind: 'TEXT', label: 'CFOP' }),
    field({ name: 'CMPP_GTIN', kind: 'TEXT', label: 'GTIN' }),
    field({ name: 'CMPP_UNIDADE', kind: 'TEXT', label: 'Un. de Compra', inList: true }),
    field({ name: 'CMPP_UNIDADE_ESTOQUE', kind: 'TEXT', label: 'Un. de Estoque' }),
    field({ name: 'CMPP_FATOR', kind: 'NUMBER', label: 'Fator de Conversão' }),
    field({ name: 'CMPP_QTDE', kind: 'NUMBER', label: 'Quantidade', required: true, inList: true }),
    field({ name: 'CMPP_VLR_UNIT', kind: 'MONEY', label: 'Valor Unitário', inList: true }),
    field({ name: 'CMPP_VLR_DESC', kind: 'MONEY', label: 'Desconto' }),
    field({ name: 'CMPP_VLR_TOTAL', kind: 'MONEY', label: 'Total', inList: true }),
    field({
      name: 'CMPP_CUSTO_UNIT',
      kind: 'NUMBER',
      label: 'Custo Unitário de Entrada',
      editable: false,
      inList: true,
    }),
    field({
      name: 'CMPP_VINCULO',
      kind: 'COMBOBOX',
      label: 'Vínculo',
      editable: false,
      options: [
        { value: 'fornecedor', text: 'Código do fornecedor' },
        { value: 'gtin', text: 'GTIN' },
        { value: 'manual', text: 'Manual' },
        { value: 'novo', text: 'Novo' },
      ],
    }),
  ],
  groups: [],
  document: null,
  actions: [],
};

/**
 * The purchase's instalments as resourceMeta answers them: a child register of the document
 * (no screen, so resourceMetas leaves it out), its rows naming the purchase by CMPD_COMP_ID.
 */
export const purchaseInstalmentMeta: ResourceMeta = {
  name: 'comprapagamentos',
  path: '',
  title: 'Parcelas da Compra',
  program: 'compras',
  key: ['CMPD_COMP_ID', 'CMPD_ID'],
  companyColumn: 'CMPD_EMP_ID',
  labelField: 'CMPD_NUMERO',
  labelLength: null,
  defaultOrder: 'CMPD_DTA_VCTO, CMPD_ID',
  fields: [
    field({ name: 'CMPD_COMP_ID', kind: 'NUMBER', label: 'Compra', required: true }),
    field({ name: 'CMPD_ID', kind: 'NUMBER', label: 'Parcela', editable: false, inList: true, width: 1 }),
    field({ name: 'CMPD_NUMERO', kind: 'TEXT', label: 'Número', length: 60, searchable: true, inList: true }),
    field({ name: 'CMPD_DTA_VCTO', kind: 'DATE', label: 'Vencimento', required: true, inList: true }),
    field({ name: 'CMPD_VLR_TITULO', kind: 'MONEY', label: 'Valor', required: true, min: '0.01', inList: true }),
    field({ name: 'CMPD_VLR_JUROS', kind: 'MONEY', label: 'Juros' }),
    field({ name: 'CMPD_BAIXADO', kind: 'BOOLEAN', label: 'Paga', editable: false, inList: true }),
    field({ name: 'CMPD_OBS', kind: 'TEXT', label: 'Observação', length: 200 }),
  ],
  groups: [],
  document: null,
  actions: [],
};

/** The purchase with its instalments as a child of the document. */
export const purchaseWithInstalmentsMeta: DocumentRegister = {
  ...purchaseMeta,
  document: {
    ...purchaseMeta.document,
    children: [{ resource: 'comprapagamentos', title: 'Parcelas da Compra', parent: ['CMPD_COMP_ID'] }],
  },
};

export const productMeta: ResourceMeta = {
  name: 'produtos',
  path: '/produtos',
  title: 'Produtos',
  program: 'produtos',
  key: ['PROD_ID'],
  companyColumn: 'PROD_EMP_ID',
  labelField: 'PROD_DESCRICAO',
  labelLength: null,
  defaultOrder: 'PROD_DESCRICAO',
  fields: [
    field({ name: 'PROD_ID', kind: 'NUMBER', label: 'Código', editable: false, inList: true }),
    field({ name: 'PROD_DESCRICAO', kind: 'TEXT', label: 'Descrição', required: true, length: 120, inList: true }),
    field({ name: 'PROD_CBAR', kind: 'BARCODE', label: 'Código de Barras (EAN)', length: 14 }),
    field({
      name: 'PROD_TIPO',
      kind: 'COMBOBOX',
      label: 'Tipo do Item',
      required: true,
      // JSON scalars come typed as objects; the server sends the plain value.
      defaultValue: '00' as unknown as Record<string, unknown>,
      options: [{ value: '00', text: '00 - Mercadoria para Revenda' }],
    }),
    field({ name: 'PROD_UNID_ID', kind: 'COMBOBOX', label: 'Unidade', required: true, reference: 'unidade' }),
    field({ name: 'PROD_NCM', kind: 'AUTOCOMPLETE', label: 'NCM', reference: 'ncm', mask: '####.##.##', length: 8 }),
    field({ name: 'PROD_CUSTO', kind: 'MONEY', label: 'Preço de Custo' }),
  ],
  groups: [],
  document: null,
  actions: [],
};

export const unitMeta: ResourceMeta = {
  name: 'unidade',
  path: '/unidades',
  title: 'Unidades de Medida',
  program: 'unidades',
  key: ['UNID_ID'],
  companyColumn: 'UNID_EMP_ID',
  labelField: 'UNID_DESCRICAO',
  labelLength: null,
  defaultOrder: 'UNID_DESCRICAO',
  fields: [
    field({ name: 'UNID_ID', kind: 'NUMBER', label: 'Código', editable: false }),
    field({ name: 'UNID_DESCRICAO', kind: 'TEXT', label: 'Descrição', required: true, inList: true }),
    field({ name: 'UNID_ABREVIADA', kind: 'TEXT', label: 'Sigla', required: true, inList: true }),
  ],
  groups: [],
  document: null,
  actions: [],
};

// ------------------------------------------------------------------ finance titles
// The title registers as services/finance/src/resources/titles.rs describes them: receivables
// (CRCB_*), payables (CMPD_*) and the payables settlement screen's register over the same table.

const STATUS_OPTIONS = [
  { value: 'A', text: 'Aberto' },
  { value: 'P', text: 'Parcialmente pago' },
  { value: 'Q', text: 'Pago' },
  { value: 'C', text: 'Cancelado' },
];

interface TitleNames {
  name: string;
  path: string;
  title: string;
  program: string;
  prefix: string;
  person: string;
  personLabel: string;
  personRegister: string;
  personName: string;
  value: string;
  surcharge: string;
  paidOn: string;
  paidOnLabel: string;
}

function titleMeta(n: TitleNames): ResourceMeta {
  const f = (suffix: string) => `${n.prefix}_${suffix}`;
  const ro = (over: Parameters<typeof field>[0]) => field({ editable: false, ...over });
  return {
    name: n.name,
    path: n.path,
    title: n.title,
    program: n.program,
    key: [f('ID')],
    companyColumn: f('EMP_ID'),
    labelField: n.personName,
    labelLength: null,
    defaultOrder: f('DTA_VCTO'),
    fields: [
      field({ name: f('ID'), kind: 'NUMBER', label: 'Código' }),
      field({
        name: n.person,
        kind: 'AUTOCOMPLETE',
        label: n.personLabel,
        reference: n.personRegister,
        required: true,
        inList: true,
      }),
      field({ name: n.personName, kind: 'TEXT', label: 'Nome', length: 150, searchable: true, inList: true }),
      field({ name: f('DOCUMENTO'), kind: 'TEXT', label: 'Documento', length: 60, searchable: true, inList: true }),
      field({ name: f('PARCELA'), kind: 'NUMBER', label: 'Parcela', min: '1', max: '999', inList: true }),
      field({ name: f('QTD_PARCELAS'), kind: 'NUMBER', label: 'Qtde. de Parcelas', min: '1', max: '999' }),
      field({ name: f('DTA_EMIS'), kind: 'DATE', label: 'Emissão', required: true, inList: true }),
      field({ name: f('DTA_VCTO'), kind: 'DATE', label: 'Vencimento', required: true, inList: true }),
      field({ name: n.value, kind: 'MONEY', label: 'Valor', required: true, min: '0.01', inList: true }),
      field({ name: n.surcharge, kind: 'MONEY', label: 'Acréscimo' }),
      ro({ name: f('VLR_JUROS'), kind: 'MONEY', label: 'Juros' }),
      ro({ name: f('VLR_MULTA'), kind: 'MONEY', label: 'Multa' }),
      ro({ name: f('VLR_DESCONTO'), kind: 'MONEY', label: 'Desconto' }),
      ro({ name: f('VLR_PAGO'), kind: 'MONEY', label: 'Valor Pago', inList: true }),
      ro({ name: 'SALDO', kind: 'MONEY', label: 'Saldo', inList: true }),
      ro({ name: n.paidOn, kind: 'DATE', label: n.paidOnLabel, inList: true }),
      field({ name: f('FRMP_ID'), kind: 'COMBOBOX', label: 'Forma de Pagamento', reference: 'formapagamento' }),
      field({ name: f('BCO_ID'), kind: 'COMBOBOX', label: 'Conta Bancária', reference: 'banco' }),
      field({ name: f('HISP_ID'), kind: 'COMBOBOX', label: 'Centro de Custo', reference: 'historicopadrao' }),
      ro({ name: f('SITUACAO'), kind: 'COMBOBOX', label: 'Situação', options: STATUS_OPTIONS, inList: true }),
      field({ name: f('OBS'), kind: 'TEXTAREA', label: 'Observação', length: 500 }),
    ],
    groups: [],
    document: null,
    actions: [],
  };
}

export const receivablesMeta = titleMeta({
  name: 'contasreceber',
  path: '/contasareceber',
  title: 'Contas a Receber',
  program: 'contasareceber',
  prefix: 'CRCB',
  person: 'CRCB_CLI_ID',
  personLabel: 'Cliente',
  personRegister: 'clientes',
  personName: 'CLI_DESCRICAO',
  value: 'CRCB_VLR_CTA',
  surcharge: 'CRCB_VLR_ACRESCIMO',
  paidOn: 'CRCB_DTA_PAG',
  paidOnLabel: 'Data do Pagamento',
});

const payableNames = {
  prefix: 'CMPD',
  person: 'CMPD_COMP_FORN_ID',
  personLabel: 'Fornecedor',
  personRegister: 'fornecedor',
  personName: 'FORN_DESCRICAO',
  value: 'CMPD_VLR_TITULO',
  surcharge: 'CMPD_VLR_ACRECIMO',
  paidOn: 'CMPD_DTA_MOV',
  paidOnLabel: 'Data da Baixa',
};

export const payablesMeta = titleMeta({
  name: 'contaspagar',
  path: '/contasapagar',
  title: 'Contas a Pagar',
  program: 'contasapagar',
  ...payableNames,
});

export const payablesSettlementMeta = titleMeta({
  name: 'baixacontaspagar',
  path: '/baixacontaspagar',
  title: 'Baixa de Contas a Pagar',
  program: 'baixacontaspagar',
  ...payableNames,
});

// ------------------------------------------------------------------ NF-e manifest
// The NF-e manifest as the fiscal service declares it (services/fiscal/src/resources/manifest):
// rows written by its calls only (no status accepts changes), its four events as buttons of one
// call, and its XML as a download button.
const manifestStatus: StatusLabel[] = [
  { value: 'P', text: 'Sem manifestação', tone: 'open' },
  { value: 'C', text: 'Ciência da operação', tone: 'open' },
  { value: 'F', text: 'Operação confirmada', tone: 'done' },
  { value: 'D', text: 'Operação desconhecida', tone: 'cancelled' },
  { value: 'N', text: 'Operação não realizada', tone: 'cancelled' },
];
const manifestEvent = (label: string, code: string, openWhen: string[], over: Partial<Action> = {}) =>
  action({
    name: 'manifestar',
    path: '/manifestonfe/manifestar/nfe',
    label,
    openWhen,
    body: [
      { name: 'MAN_ID', source: fromField('MAN_ID') },
      { name: 'TIPO_EVENTO', source: constant(code) },
    ],
    ...over,
  });

export const manifestMeta: DocumentRegister = {
  name: 'manifestonfe',
  path: '/manifestonfe',
  title: 'Manifesto de NF-e',
  program: 'manifestonfe',
  key: ['MAN_ID'],
  companyColumn: 'MAN_EMP_ID',
  labelField: 'MAN_EMIT_NOME',
  labelLength: null,
  defaultOrder: 'MAN_DATA DESC, MAN_ID DESC',
  fields: [
    field({ name: 'MAN_ID', kind: 'NUMBER', label: 'Código', editable: false }),
    field({ name: 'MAN_DATA', kind: 'DATE', label: 'Emissão', editable: false, inList: true }),
    field({ name: 'MAN_NUMERO', kind: 'NUMBER', label: 'Número', editable: false, inList: true }),
    field({ name: 'MAN_EMIT_NOME', kind: 'TEXT', label: 'Emitente', editable: false, inList: true }),
    { ...money('MAN_VALOR', 'Valor'), inList: true },
    situation('MAN_SITUACAO', manifestStatus),
    field({ name: 'MAN_CHAVE', kind: 'ACCESS_KEY', label: 'Chave de Acesso', editable: false }),
    field({ name: 'MAN_COMPLETA', kind: 'BOOLEAN', label: 'XML completo', editable: false, inList: true }),
    field({ name: 'MAN_COMP_ID', kind: 'NUMBER', label: 'Compra', editable: false }),
  ],
  groups: [],
  document: {
    key: ['MAN_ID'],
    dateField: 'MAN_DATA',
    breadcrumbs: ['Início', 'Fiscal', 'Manifesto de NF-e'],
    blockStock: false,
    children: [],
    status: { field: 'MAN_SITUACAO', open: [], labels: manifestStatus },
    totals: [],
    lines: [],
  },
  actions: [
    manifestEvent('Ciência da Operação', '210210', ['P'], { primary: true }),
    manifestEvent('Confirmar Operação', '210200', ['P', 'C'], {
      confirm: {
        title: 'Confirmar operação',
        text: 'Confirmar que a NF-e {MAN_NUMERO} de {MAN_EMIT_NOME} foi recebida como emitida?',
        ok: 'Confirmar',
      },
    }),
    manifestEvent('Desconhecer', '210220', ['P', 'C'], {
      dialog: 'justificativa',
      dialogTitle: 'Desconhecimento da operação',
    }),
    manifestEvent('Operação não Realizada', '210240', ['P', 'C'], {
      dialog: 'justificativa',
      dialogTitle: 'Operação não realizada',
    }),
    action({
      name: 'download',
      path: '/manifestonfe/download/doc',
      label: 'Baixar XML',
      permission: 'view',
      body: [{ name: 'MAN_ID', source: fromField('MAN_ID') }],
      download: true,
    }),
  ],
};

/** An NF-e of the manifest: the 2018 one the fake provider distributes, acknowledged and whole. */
export const manifestRow = (over: { [C in keyof Row<'manifestonfe'>]?: unknown } = {}) =>
  mockRow('manifestonfe', {
    MAN_ID: 9,
    MAN_EMP_ID: 1,
    MAN_DATA: '2018-09-25',
    MAN_NUMERO: 26,
    MAN_EMIT_NOME: 'UMA RAZAO SOCIAL DE TESTE QUALQUER',
    MAN_VALOR: '500.00',
    MAN_SITUACAO: 'C',
    MAN_CHAVE: '43180906929383000163550010000000261000010301',
    MAN_COMPLETA: true,
    MAN_COMP_ID: null,
    ...over,
  });
