// The purchase screen (/compras/alterar) is the generic document screen: header, items and
// totals from its metadata, and 'Finalizar' from its declared call, whose refusals show as the
// server words them.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../lib/toast';
import { purchaseMeta } from '../../test/fixtures';
import { program, renderWith, signIn } from '../../test/utils';
import { ResourceActionDocument, ResourceGetDocument, ResourceListDocument } from '../../lib/resources/documents';
import DocumentFormPage from './DocumentFormPage';

const purchase = (over = {}) => ({
  COMP_ID: 12,
  COMP_EMP_ID: 1,
  COMP_FORN_ID: 3,
  COMP_FORN_DESC: 'METALURGICA FIXA FORTE LTDA',
  COMP_NUMERO: 4471,
  COMP_SERIE: '1',
  COMP_DTA_EMISSAO: '2025-06-14',
  COMP_DTA_ENTRADA: '2025-06-14',
  COMP_VLR_PRODUTOS: '680.99',
  COMP_VLR_TOTAL: '824.71',
  COMP_SITUACAO: 'A',
  ...over,
});
const items = [
  {
    CMPP_COMP_ID: 12,
    CMPP_ID: 3,
    CMPP_PROD_ID: null,
    CMPP_DESCRICAO: 'CHAVE COMBINADA 17MM',
    CMPP_UNIDADE: 'UN',
    CMPP_QTDE: '3.0000',
    CMPP_VLR_UNIT: '33.3300',
    CMPP_VLR_TOTAL: '99.99',
    CMPP_CUSTO_UNIT: null,
  },
];
const page = (rows: object[]) => ({ data: { resourceList: { __typename: 'ResourcePage', rows, total: rows.length } } });
const mocks = (answer: object) => [
  // The supplier field shows the supplier's name, read by its id.
  {
    request: { query: ResourceGetDocument, variables: { name: 'fornecedor', emp: 1, id: 3 } },
    result: { data: { resourceGet: { id: 3, text: 'METALURGICA FIXA FORTE LTDA' } } },
  },
  {
    request: { query: ResourceGetDocument, variables: { name: 'compra', emp: 1, id: 12 } },
    result: { data: { resourceGet: purchase() } },
  },
  {
    request: {
      query: ResourceListDocument,
      variables: { name: 'compraproduto', emp: 1, input: { page: 1, limit: 500, where: { CMPP_COMP_ID: 12 } } },
    },
    result: page(items),
  },
  {
    request: {
      query: ResourceActionDocument,
      variables: { name: 'compra', action: 'finalizar', params: { emp: 1, COMP_ID: 12 } },
    },
    result: answer,
  },
];

function Where() {
  const { pathname, search } = useLocation();
  return <p data-testid="where">{`${pathname}${decodeURIComponent(search)}`}</p>;
}

function renderPurchase(answer: object) {
  return renderWith(
    <>
      <Routes>
        <Route
          path="/compras/*"
          element={<DocumentFormPage meta={purchaseMeta} metas={[purchaseMeta]} action="alterar" />}
        />
      </Routes>
      <Where />
    </>,
    { mocks: mocks(answer) as never, route: '/compras/alterar?id=12' },
  );
}

/** Clicks 'Finalizar' and confirms in the dialog that names the purchase. */
async function finalize() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Finalizar' }));
  const dialog = await screen.findByRole('dialog', { name: 'Finalizar compra' });
  expect(
    within(dialog).getByText(
      'Deseja finalizar a compra 12? Os itens entram no estoque pelo custo de entrada e a compra não poderá mais ser alterada.',
    ),
  ).toBeInTheDocument();
  await user.click(within(dialog).getByRole('button', { name: 'Finalizar' }));
}

beforeEach(() => {
  window.innerWidth = 1920;
  signIn({ programs: [program({ id: 4, name: 'IndexCompra', webPath: '/compras' })] });
});
afterEach(() => vi.restoreAllMocks());

describe('purchase screen', () => {
  it('draws the header, the items with their landed cost column and the totals from the metadata', async () => {
    renderPurchase({ data: { resourceAction: {} } });
    expect(
      await screen.findByRole('heading', { name: 'Compras nº 12 - METALURGICA FIXA FORTE LTDA' }),
    ).toBeInTheDocument();
    expect(screen.getByTestId('status-badge')).toHaveTextContent('Aberta');
    const table = screen.getByRole('region', { name: 'Itens' });
    expect(await within(table).findByText('CHAVE COMBINADA 17MM')).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Custo Unitário' })).toBeInTheDocument();
    expect(screen.getByTestId('total-COMP_VLR_TOTAL')).toHaveTextContent('R$ 824,71');
    expect(screen.getByRole('button', { name: 'Finalizar' })).toBeEnabled();
  });

  it('shows why the server refuses to finalize: items without a product', async () => {
    const error = vi.spyOn(notify, 'error');
    const message = 'Itens sem produto cadastrado: 3 - CHAVE COMBINADA 17MM. Vincule-os antes de finalizar.';
    renderPurchase({ errors: [{ message }] });
    await finalize();
    await waitFor(() => expect(error).toHaveBeenCalledWith(message));
    expect(screen.getByTestId('status-badge')).toHaveTextContent('Aberta');
  });

  it('shows the refusal of a purchase finalized already', async () => {
    const error = vi.spyOn(notify, 'error');
    renderPurchase({ errors: [{ message: 'Compra já finalizada.' }] });
    await finalize();
    await waitFor(() => expect(error).toHaveBeenCalledWith('Compra já finalizada.'));
  });
});
