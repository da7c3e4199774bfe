import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../lib/toast';
import {
  ResourceCreateDocument,
  ResourceListDocument,
  ResourceMetaDocument,
  ResourceUpdateDocument,
} from '../../lib/resources/documents';
import { productMeta, purchaseLineMeta, purchaseMeta, unitMeta } from '../../test/fixtures';
import { program, renderWith, signIn } from '../../test/utils';
import {
  itemColumns,
  itemFields,
  matchText,
  parseImportAnswer,
  productDraft,
  productLine,
  type PurchaseItem,
} from './importAnswer';
import PurchaseImport from './PurchaseImport';

// The answer of POST /compra/uploads/1 for an NF-e of three items: one matched by the
// supplier's code, one by its GTIN, one new.
const compra = {
  COMP_ID: 12,
  COMP_EMP_ID: 1,
  COMP_FORN_ID: 3,
  COMP_FORN_DESC: 'METALURGICA FIXA FORTE LTDA',
  COMP_NUMERO: 4471,
  COMP_SERIE: '1',
  COMP_DTA_EMISSAO: '2025-06-14',
  COMP_DTA_ENTRADA: '2025-06-14',
  COMP_VLR_TOTAL: '824.71',
  COMP_SITUACAO: 'A',
};
/** An item as the import answers it (its keys checked against the line's row, quantities as text). */
const item = (over: { [C in keyof PurchaseItem]?: unknown }) =>
  ({
    CMPP_COMP_ID: 12,
    CMPP_GTIN: 'SEM GTIN',
    CMPP_UNIDADE: 'UN',
    CMPP_CUSTO_UNIT: null,
    CMPP_FATOR: '1.0000',
    ...over,
  }) as PurchaseItem;
const newItem = item({
  CMPP_ID: 3,
  CMPP_PROD_ID: null,
  CMPP_COD_FORNECEDOR: 'CHV-COMB-17',
  CMPP_DESCRICAO: 'CHAVE COMBINADA 17MM',
  CMPP_NCM: '82041100',
  CMPP_GTIN: '7894900011517',
  CMPP_QTDE: '3.0000',
  CMPP_VLR_UNIT: '33.33',
  CMPP_VLR_TOTAL: '99.99',
  VINCULO: 'novo',
});
const answer = {
  compra,
  itens: [
    item({
      CMPP_ID: 1,
      CMPP_PROD_ID: 7,
      CMPP_COD_FORNECEDOR: 'PAR-M8-CX12',
      CMPP_DESCRICAO: 'PARAFUSO SEXTAVADO M8 X 40 ZINCADO CX C/12',
      CMPP_NCM: '73181500',
      CMPP_UNIDADE: 'CX',
      CMPP_QTDE: '10.0000',
      CMPP_VLR_UNIT: '45.00',
      CMPP_VLR_TOTAL: '450.00',
      VINCULO: 'fornecedor',
    }),
    item({
      CMPP_ID: 2,
      CMPP_PROD_ID: 8,
      CMPP_COD_FORNECEDOR: 'ARR-8-UN',
      CMPP_DESCRICAO: 'ARRUELA LISA 8MM ZINCADA',
      CMPP_NCM: '73182200',
      CMPP_GTIN: '7891234567895',
      CMPP_QTDE: '200.0000',
      CMPP_VLR_UNIT: '0.655',
      CMPP_VLR_TOTAL: '131.00',
      VINCULO: 'gtin',
    }),
    newItem,
  ],
  avisos: ['NF-e destinada ao CNPJ 44.555.666/0001-81, diferente do CNPJ da empresa.'],
};

const metas = [purchaseMeta, productMeta, unitMeta];
const page = (rows: object[]) => ({ data: { resourceList: { __typename: 'ResourcePage', rows, total: rows.length } } });
const lineMetaMock = {
  request: { query: ResourceMetaDocument, variables: { name: 'compraproduto' } },
  result: { data: { resourceMeta: { __typename: 'ResourceMeta', ...purchaseLineMeta } } },
};
const linkMock = (productId: number) => ({
  request: {
    query: ResourceUpdateDocument,
    variables: {
      name: 'compraproduto',
      emp: 1,
      id: { CMPP_COMP_ID: 12, CMPP_ID: 3 },
      data: { CMPP_PROD_ID: productId },
    },
  },
  result: { data: { resourceUpdate: { ...newItem, CMPP_PROD_ID: productId, CMPP_VINCULO: 'manual' } } },
});

const reply = (status: number, body: unknown) =>
  ({ ok: status >= 200 && status < 300, status, json: () => Promise.resolve(body) }) as Response;

function Where() {
  const { pathname, search, state } = useLocation();
  const record = (state as { record?: { COMP_ID?: number } } | null)?.record;
  return <p data-testid="where">{`${pathname}${decodeURIComponent(search)}${record ? ` #${record.COMP_ID}` : ''}`}</p>;
}

function renderImport(mocks: object[] = []) {
  return renderWith(
    <>
      <Routes>
        <Route path="/compras" element={<PurchaseImport meta={purchaseMeta} metas={metas} />} />
        <Route path="*" element={null} />
      </Routes>
      <Where />
    </>,
    { mocks: [lineMetaMock, ...mocks] as never, route: '/compras' },
  );
}

/** Opens the dialog, picks the XML and imports it; answers the dialog. */
async function importXml(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Importar XML' }));
  const dialog = await screen.findByRole('dialog', { name: 'Importar XML da NF-e' });
  const importButton = within(dialog).getByRole('button', { name: 'Importar' });
  expect(importButton).toBeDisabled();
  await user.upload(
    within(dialog).getByLabelText('Arquivo XML da NF-e'),
    new File(['<nfeProc/>'], 'nota.xml', { type: 'text/xml' }),
  );
  await user.click(importButton);
  return dialog;
}

const rowOf = (dialog: HTMLElement, text: string) => within(dialog).getByText(text).closest('tr') as HTMLElement;

beforeEach(() => {
  window.innerWidth = 1920;
  signIn({ programs: [program({ id: 4, name: 'IndexCompra', webPath: '/compras' })] });
});
afterEach(() => vi.restoreAllMocks());

describe('XML import', () => {
  it('uploads the file with the token and shows the purchase, the warnings and how each item matched', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(reply(200, answer));
    const success = vi.spyOn(notify, 'success');
    const user = userEvent.setup();
    renderImport();
    const dialog = await importXml(user);

    const summary = await within(dialog).findByRole('region', { name: 'Compra importada' });
    expect(within(summary).getByRole('heading', { name: 'Compras nº 12 importada' })).toBeInTheDocument();
    expect(within(summary).getByText('METALURGICA FIXA FORTE LTDA')).toBeInTheDocument();
    expect(within(summary).getByText('4471')).toBeInTheDocument();
    expect(within(summary).getAllByText('14/06/2025')).toHaveLength(2);
    expect(within(summary).getByText('R$ 824,71')).toBeInTheDocument();
    expect(within(summary).getByText('Aberta')).toBeInTheDocument();
    expect(within(dialog).getByRole('list', { name: 'Avisos' })).toHaveTextContent(
      'NF-e destinada ao CNPJ 44.555.666/0001-81, diferente do CNPJ da empresa.',
    );
    expect(success).toHaveBeenCalledWith('XML importado com sucesso!');

    // One multipart POST to the purchases' upload call, field `file`, with the bearer token.
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/compra/uploads/1');
    expect(init.method).toBe('POST');
    expect((init.headers as Record<string, string>).authorization).toBe('Bearer token-123');
    const sent = (init.body as FormData).get('file') as File;
    expect(sent.name).toBe('nota.xml');

    // The columns are the line register's (its list columns plus supplier code, NCM and GTIN).
    const items = within(dialog).getByRole('region', { name: /Itens da nota/ });
    await waitFor(() =>
      expect(within(items).getByRole('columnheader', { name: 'Código no Fornecedor' })).toBeInTheDocument(),
    );
    expect(
      within(items)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([
      'Item',
      'Código no Fornecedor',
      'Descrição',
      'NCM',
      'GTIN',
      'Un. de Compra',
      'Quantidade',
      'Valor Unitário',
      'Total',
      'Vínculo',
      'Ações',
    ]);
    expect(within(items).getByRole('heading')).toHaveTextContent('Itens da nota (3) - 1 sem produto');
    const screw = rowOf(dialog, 'PARAFUSO SEXTAVADO M8 X 40 ZINCADO CX C/12');
    expect(within(screw).getByTestId('match')).toHaveTextContent('pelo código do fornecedor');
    expect(within(screw).getByText('R$ 450,00')).toBeInTheDocument();
    expect(within(screw).queryByRole('button')).not.toBeInTheDocument();
    expect(within(rowOf(dialog, 'ARRUELA LISA 8MM ZINCADA')).getByTestId('match')).toHaveTextContent('pelo GTIN');
    const key = rowOf(dialog, 'CHAVE COMBINADA 17MM');
    expect(within(key).getByTestId('match')).toHaveTextContent('Produto novo');
    expect(within(key).getByRole('button', { name: 'Vincular produto' })).toBeEnabled();
    expect(within(key).getByRole('button', { name: 'Cadastrar produto' })).toBeEnabled();
  });

  it("shows the server's message when it refuses the file, and sends nothing else", async () => {
    const msg = 'NF-e já importada (chave 31250611222333000181550010000044711528391741).';
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(reply(409, { code: 409, msg }));
    const error = vi.spyOn(notify, 'error');
    const user = userEvent.setup();
    renderImport();
    const dialog = await importXml(user);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(msg);
    expect(error).toHaveBeenCalledWith(msg);
    expect(within(dialog).queryByRole('region', { name: 'Compra importada' })).not.toBeInTheDocument();
    // A file that is not an NF-e: 400 with its own message.
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(reply(400, { code: 400, msg: 'O arquivo não é uma NF-e.' }));
    await user.click(within(dialog).getByRole('button', { name: 'Importar' }));
    await waitFor(() => expect(within(dialog).getByRole('alert')).toHaveTextContent('O arquivo não é uma NF-e.'));
  });

  it('creates the product of a new item in one click, with its description, unit, NCM and GTIN, and links it', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(reply(200, answer));
    const success = vi.spyOn(notify, 'success');
    const user = userEvent.setup();
    renderImport([
      {
        request: {
          query: ResourceListDocument,
          variables: { name: 'unidade', emp: 1, input: { page: 1, limit: 1, where: { UNID_ABREVIADA: 'UN' } } },
        },
        result: page([{ UNID_ID: 1, UNID_DESCRICAO: 'UNIDADE', UNID_ABREVIADA: 'UN' }]),
      },
      {
        request: {
          query: ResourceCreateDocument,
          variables: {
            name: 'produtos',
            emp: 1,
            // What the product form sends for a new product (its defaults), with the item's values.
            data: {
              PROD_ID: null,
              PROD_DESCRICAO: 'CHAVE COMBINADA 17MM',
              PROD_CBAR: '7894900011517',
              PROD_TIPO: '00',
              PROD_UNID_ID: 1,
              PROD_NCM: '8204.11.00',
              PROD_CUSTO: null,
            },
          },
        },
        result: { data: { resourceCreate: { PROD_ID: 41, PROD_DESCRICAO: 'CHAVE COMBINADA 17MM' } } },
      },
      linkMock(41),
    ]);
    const dialog = await importXml(user);
    // The line register's metadata says where the item keeps its NCM and GTIN.
    await within(dialog).findByRole('columnheader', { name: 'NCM' });
    const key = rowOf(dialog, 'CHAVE COMBINADA 17MM');
    expect(within(key).getByText('82041100')).toBeInTheDocument();
    // Item 3, quantity '3.0000' shown as 3.
    expect(within(key).getAllByText('3')).toHaveLength(2);
    await user.click(within(key).getByRole('button', { name: 'Cadastrar produto' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Produto cadastrado e vinculado ao item.'));
    const linked = rowOf(dialog, 'CHAVE COMBINADA 17MM');
    expect(within(linked).getByTestId('match')).toHaveTextContent('vinculado nesta importação');
    expect(within(linked).queryByRole('button')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('region', { name: /Itens da nota/ })).not.toHaveTextContent('sem produto');
  });

  it('links a new item to a product chosen in the item picker', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(reply(200, answer));
    const success = vi.spyOn(notify, 'success');
    const user = userEvent.setup();
    renderImport([
      {
        request: {
          query: ResourceListDocument,
          variables: {
            name: 'estoqueprodutos',
            emp: 1,
            input: { filter: null, page: 1, limit: 20, where: { PROD_SITUACAO: 1 } },
          },
        },
        result: page([{ PROD_ID: 5, PROD_DESCRICAO: 'CHAVE COMBINADA 17 MM', PROD_VALOR: '52.00', SALDO_FISICO: 4 }]),
      },
      linkMock(5),
    ]);
    const dialog = await importXml(user);
    await within(dialog).findByRole('columnheader', { name: 'NCM' });
    const key = rowOf(dialog, 'CHAVE COMBINADA 17MM');
    await user.click(within(key).getByRole('button', { name: 'Vincular produto' }));
    const picker = await screen.findByRole('dialog', { name: 'Adicionar Produto' });
    await user.click(await within(picker).findByRole('button', { name: 'Aumentar CHAVE COMBINADA 17 MM' }));
    await user.click(within(picker).getByRole('button', { name: 'SALVAR' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Produto vinculado ao item.'));
    expect(screen.queryByRole('dialog', { name: 'Adicionar Produto' })).not.toBeInTheDocument();
    expect(within(rowOf(dialog, 'CHAVE COMBINADA 17MM')).getByTestId('match')).toHaveTextContent(
      'vinculado nesta importação',
    );
  });

  it('opens the imported purchase on its edit screen', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(reply(200, answer));
    const user = userEvent.setup();
    renderImport();
    const dialog = await importXml(user);
    await user.click(await within(dialog).findByRole('button', { name: 'Abrir compra' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/compras/alterar?id=12 #12');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('is offered to users who may create purchases only', () => {
    signIn({ programs: [program({ id: 4, name: 'IndexCompra', webPath: '/compras', canCreate: false })] });
    renderImport();
    expect(screen.queryByRole('button', { name: 'Importar XML' })).not.toBeInTheDocument();
  });
});

describe('import answer', () => {
  const line = productLine(purchaseMeta);

  it('refuses an answer without the purchase', () => {
    expect(() => parseImportAnswer({ msg: 'ok' })).toThrow('Resposta inesperada do servidor ao importar o XML.');
    expect(parseImportAnswer({ compra, itens: null }).avisos).toEqual([]);
  });

  it('finds where an item keeps what a product is made of, by the line metadata', () => {
    const fields = itemFields(line, purchaseLineMeta);
    expect(fields).toEqual({
      description: 'CMPP_DESCRICAO',
      unit: 'CMPP_UNIDADE',
      stockUnit: 'CMPP_UNIDADE_ESTOQUE',
      ncm: 'CMPP_NCM',
      gtin: 'CMPP_GTIN',
      supplierCode: 'CMPP_COD_FORNECEDOR',
    });
    expect(productDraft(fields, newItem)).toEqual({
      description: 'CHAVE COMBINADA 17MM',
      unit: 'UN',
      ncm: '82041100',
      gtin: '7894900011517',
    });
    // 'SEM GTIN' is no GTIN.
    expect(productDraft(fields, answer.itens[0]).gtin).toBe('');
    // 10 CX of 12 enter stock as 120 UN: the product counts in UN.
    expect(productDraft(fields, { ...newItem, CMPP_UNIDADE: 'CX', CMPP_UNIDADE_ESTOQUE: 'UN' }).unit).toBe('UN');
    expect(productDraft(fields, { ...newItem, CMPP_UNIDADE: 'CX', CMPP_UNIDADE_ESTOQUE: null }).unit).toBe('CX');
  });

  it("shows the line register's list columns and the supplier's code, NCM and GTIN, quantities in pt-BR", () => {
    const columns = itemColumns(line, purchaseLineMeta, itemFields(line, purchaseLineMeta), answer.itens);
    expect(columns.map((c) => c.key)).toEqual([
      'CMPP_ID',
      'CMPP_COD_FORNECEDOR',
      'CMPP_DESCRICAO',
      'CMPP_NCM',
      'CMPP_GTIN',
      'CMPP_UNIDADE',
      'CMPP_QTDE',
      'CMPP_VLR_UNIT',
      'CMPP_VLR_TOTAL',
    ]);
    const qty = columns.find((c) => c.key === 'CMPP_QTDE');
    expect(qty?.format?.('200.0000', {})).toBe('200');
    expect(qty?.format?.('2.5', {})).toBe('2,5');
  });

  it('falls back on the line roles while the line metadata is unknown', () => {
    const columns = itemColumns(line, undefined, itemFields(line, undefined), answer.itens);
    expect(columns.map((c) => c.label)).toEqual(['Descrição', 'Un.', 'Quantidade', 'Valor Unitário', 'Total']);
  });

  it('says how an item was matched', () => {
    expect(matchText(line, answer.itens[0], false)).toBe('pelo código do fornecedor');
    expect(matchText(line, answer.itens[1], false)).toBe('pelo GTIN');
    expect(matchText(line, newItem, false)).toBe('Produto novo');
    expect(matchText(line, { ...newItem, CMPP_PROD_ID: 41 }, true)).toBe('vinculado nesta importação');
    expect(matchText(line, { ...newItem, CMPP_PROD_ID: 41, VINCULO: 'manual' }, false)).toBe('vinculado manualmente');
  });
});
