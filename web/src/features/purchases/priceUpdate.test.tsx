// 'Atualizar custos e preços' on a purchase's screen: the dialog, the body of
// `atualizacaogeral` (compraproduto), the answer's products, ignored items and errors, and the
// product register's cached reads evicted.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCache } from '../../lib/apollo';
import { ResourceActionDocument, ResourceListDocument } from '../../lib/resources/documents';
import { notify } from '../../lib/toast';
import { purchaseMeta } from '../../test/fixtures';
import { program, renderWith, signIn } from '../../test/utils';
import {
  change,
  errorText,
  marginText,
  parsePriceUpdate,
  priceUpdateBody,
  priceUpdateStart,
  skippedText,
} from './priceUpdate';
import PurchasePriceUpdate from './PurchasePriceUpdate';

const purchase = (over = {}) => ({ COMP_ID: 12, COMP_EMP_ID: 1, COMP_SITUACAO: 'F', ...over });

const answer = {
  code: 200,
  msg: 'Custo e preço de venda atualizados em 2 produto(s).',
  CMPP_COMP_ID: 12,
  produtos: [
    {
      PROD_ID: 2,
      PROD_DESCRICAO: 'PARAFUSO SEXTAVADO M8',
      CMPP_IDS: [2],
      PROD_CUSTO_ANTERIOR: '12.39',
      PROD_CUSTO: '12.39',
      PROD_MARGEM: '50',
      PROD_VALOR_ANTERIOR: '0.20',
      PROD_VALOR: '18.59',
    },
    {
      PROD_ID: 5,
      PROD_DESCRICAO: 'CHAVE COMBINADA 17MM',
      CMPP_IDS: [3, 4],
      PROD_CUSTO_ANTERIOR: null,
      PROD_CUSTO: '33.33',
      PROD_MARGEM: '35.5',
      PROD_VALOR_ANTERIOR: '40.00',
      PROD_VALOR: '45.16',
    },
  ],
  ignorados: [{ CMPP_ID: 1, CMPP_DESCRICAO: 'ARRUELA LISA', motivo: 'Item sem produto vinculado.' }],
  erros: [{ PROD_ID: 9, msg: 'Produto inativo.' }],
};

const callMock = (body: object, result: object) => ({
  request: {
    query: ResourceActionDocument,
    variables: { name: 'compraproduto', action: 'atualizacaogeral', params: { emp: 1 }, body },
  },
  result,
});

function renderTool(mocks: object[], record = purchase(), cache = createCache()) {
  return renderWith(<PurchasePriceUpdate meta={purchaseMeta} metas={[purchaseMeta]} record={record} />, {
    mocks: mocks as never,
    cache,
  });
}

async function openDialog(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Atualizar custos e preços' }));
  return screen.getByRole('dialog', { name: 'Atualizar custos e preços' });
}

beforeEach(() => {
  window.innerWidth = 1920;
  signIn({ programs: [program({ id: 4, name: 'IndexCompra', webPath: '/compras' })] });
});
afterEach(() => vi.restoreAllMocks());

describe('the price update call', () => {
  it('sends the purchase, the margin typed (a number) and whether the sale price follows it', () => {
    expect(priceUpdateBody(12, { MARGEM: '35,5', ATUALIZAR_PRECO: true })).toEqual({
      CMPP_COMP_ID: 12,
      MARGEM: 35.5,
      ATUALIZAR_PRECO: true,
    });
    // No margin: each product keeps its own.
    expect(priceUpdateBody(12, { MARGEM: '', ATUALIZAR_PRECO: false })).toEqual({
      CMPP_COMP_ID: 12,
      ATUALIZAR_PRECO: false,
    });
    expect(priceUpdateBody(12, priceUpdateStart)).toEqual({ CMPP_COMP_ID: 12, ATUALIZAR_PRECO: true });
  });

  it('reads the answer, missing lists as empty', () => {
    expect(parsePriceUpdate({ msg: 'Custo atualizado em 0 produto(s).' })).toEqual({
      msg: 'Custo atualizado em 0 produto(s).',
      produtos: [],
      ignorados: [],
      erros: [],
    });
    expect(parsePriceUpdate(answer).produtos).toHaveLength(2);
  });

  it('shows values before and after in R$, margins in %, and the items and products left out', () => {
    expect(change('0.20', '18.59')).toBe('R$ 0,20 → R$ 18,59');
    expect(change(null, '1234.5')).toBe('- → R$ 1.234,50');
    expect(marginText('35.5')).toBe('35,5%');
    expect(marginText(null)).toBe('-');
    expect(skippedText(answer.ignorados[0])).toBe('Item 1 - ARRUELA LISA: Item sem produto vinculado.');
    expect(skippedText({ CMPP_ID: 4, motivo: 'Item sem quantidade.' })).toBe('Item 4: Item sem quantidade.');
    expect(errorText(answer.erros[0])).toBe('Produto 9: Produto inativo.');
  });
});

describe("'Atualizar custos e preços' on a purchase", () => {
  it('asks the margin, updates and shows the products, the ignored items and the errors', async () => {
    const user = userEvent.setup();
    renderTool([
      callMock({ CMPP_COMP_ID: 12, MARGEM: 50, ATUALIZAR_PRECO: true }, { data: { resourceAction: answer } }),
    ]);
    const dialog = await openDialog(user);
    expect(within(dialog).getByLabelText('Margem (%)')).toHaveValue('');
    expect(within(dialog).getByLabelText('Atualizar também o preço de venda pela margem')).toBeChecked();
    await user.type(within(dialog).getByLabelText('Margem (%)'), '50');
    await user.click(within(dialog).getByRole('button', { name: 'Atualizar' }));

    expect(await within(dialog).findByRole('status')).toHaveTextContent(
      'Custo e preço de venda atualizados em 2 produto(s).',
    );
    const table = within(dialog).getByRole('table', { name: 'Produtos atualizados' });
    const [first, second] = within(table).getAllByRole('row').slice(1);
    expect(
      within(first)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['2 - PARAFUSO SEXTAVADO M8', 'R$ 12,39 → R$ 12,39', '50%', 'R$ 0,20 → R$ 18,59']);
    expect(
      within(second)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['5 - CHAVE COMBINADA 17MM', '- → R$ 33,33', '35,5%', 'R$ 40,00 → R$ 45,16']);
    expect(within(dialog).getByRole('region', { name: 'Itens ignorados' })).toHaveTextContent(
      'Item 1 - ARRUELA LISA: Item sem produto vinculado.',
    );
    expect(within(dialog).getByRole('region', { name: 'Produtos não atualizados' })).toHaveTextContent(
      'Produto 9: Produto inativo.',
    );
    // The footer's 'Fechar' (the title bar's × is named 'Fechar' too).
    await user.click(within(dialog).getByText('Fechar'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('updates the cost only, without a margin, and lists nothing left out when nothing was', async () => {
    const user = userEvent.setup();
    const costOnly = {
      ...answer,
      msg: 'Custo atualizado em 1 produto(s).',
      produtos: [answer.produtos[0]],
      ignorados: [],
      erros: [],
    };
    renderTool([callMock({ CMPP_COMP_ID: 12, ATUALIZAR_PRECO: false }, { data: { resourceAction: costOnly } })]);
    const dialog = await openDialog(user);
    await user.click(within(dialog).getByLabelText('Atualizar também o preço de venda pela margem'));
    await user.click(within(dialog).getByRole('button', { name: 'Atualizar' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Custo atualizado em 1 produto(s).');
    expect(within(dialog).queryByRole('region', { name: 'Itens ignorados' })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('region', { name: 'Produtos não atualizados' })).not.toBeInTheDocument();
  });

  it('shows a refusal as the error toast and keeps the dialog to try again', async () => {
    const error = vi.spyOn(notify, 'error');
    const message = 'Usuário sem permissão para alterar Produtos: custos e preços não foram atualizados.';
    const user = userEvent.setup();
    renderTool([
      callMock(
        { CMPP_COMP_ID: 12, ATUALIZAR_PRECO: true },
        { errors: [{ message, extensions: { code: 'FORBIDDEN', status: 403 } }] },
      ),
    ]);
    const dialog = await openDialog(user);
    await user.click(within(dialog).getByRole('button', { name: 'Atualizar' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith(message));
    expect(within(dialog).getByRole('button', { name: 'Atualizar' })).toBeEnabled();
    expect(within(dialog).queryByRole('status')).not.toBeInTheDocument();
  });

  it('checks the margin before sending it', async () => {
    const user = userEvent.setup();
    renderTool([]);
    const dialog = await openDialog(user);
    await user.type(within(dialog).getByLabelText('Margem (%)'), '1000');
    await user.click(within(dialog).getByRole('button', { name: 'Atualizar' }));
    expect(within(dialog).getByText('Valor Máximo permitido para o campo: 999.9999%')).toBeInTheDocument();
    expect(within(dialog).queryByRole('status')).not.toBeInTheDocument();
  });

  it('evicts the cached product reads (their cost and price changed)', async () => {
    const cache = createCache();
    const products = { name: 'produtos', emp: 1, input: { page: 1, limit: 20 } };
    // The page as the gateway answers it (a typed literal cannot carry __typename).
    const cached = { __typename: 'ResourcePage', rows: [{ PROD_ID: 2, PROD_VALOR: '0.20' }], total: 1 };
    cache.writeQuery({ query: ResourceListDocument, variables: products, data: { resourceList: cached } });
    const user = userEvent.setup();
    renderTool(
      [callMock({ CMPP_COMP_ID: 12, ATUALIZAR_PRECO: true }, { data: { resourceAction: answer } })],
      purchase(),
      cache,
    );
    expect(cache.readQuery({ query: ResourceListDocument, variables: products })).not.toBeNull();
    const dialog = await openDialog(user);
    await user.click(within(dialog).getByRole('button', { name: 'Atualizar' }));
    await within(dialog).findByRole('status');
    expect(cache.readQuery({ query: ResourceListDocument, variables: products })).toBeNull();
  });

  it('is offered to users who may change purchases, and not for a cancelled one', () => {
    signIn({ programs: [program({ id: 4, name: 'IndexCompra', webPath: '/compras', canUpdate: false })] });
    const { unmount } = renderTool([]);
    expect(screen.queryByRole('button', { name: 'Atualizar custos e preços' })).not.toBeInTheDocument();
    unmount();
    signIn({ programs: [program({ id: 4, name: 'IndexCompra', webPath: '/compras' })] });
    const { unmount: again } = renderTool([], purchase({ COMP_SITUACAO: 'C' }));
    expect(screen.getByRole('button', { name: 'Atualizar custos e preços' })).toBeDisabled();
    again();
    renderTool([], purchase({ COMP_SITUACAO: 'A' }));
    expect(screen.getByRole('button', { name: 'Atualizar custos e preços' })).toBeEnabled();
  });
});
