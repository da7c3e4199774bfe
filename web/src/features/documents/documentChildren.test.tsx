// A document's child registers (DocumentMeta.children): the purchase's instalments show under
// its items as a table of the comprapagamentos register, from that register's metadata, with
// the rows naming the purchase; rows are added, changed and deleted there while the purchase
// is open, and only shown once it is finalized.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../lib/toast';
import {
  ResourceCreateDocument,
  ResourceDeleteDocument,
  ResourceGetDocument,
  ResourceListDocument,
  ResourceMetaDocument,
  ResourceUpdateDocument,
} from '../../lib/resources/documents';
import type { ResourceMeta } from '../../lib/resources/metaFields';
import type { Row } from '../../lib/api';
import { mockRow, purchaseInstalmentMeta, purchaseWithInstalmentsMeta } from '../../test/fixtures';
import { program, renderWith, signIn } from '../../test/utils';
import DocumentFormPage from './DocumentFormPage';
import { childRowData } from './useChildWrites';

const purchase = (over: { [C in keyof Row<'compra'>]?: unknown } = {}) =>
  mockRow('compra', {
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
const instalment = (over: { [C in keyof Row<'comprapagamentos'>]?: unknown }) =>
  mockRow('comprapagamentos', {
    CMPD_COMP_ID: 12,
    CMPD_EMP_ID: 1,
    CMPD_VLR_JUROS: null,
    CMPD_BAIXADO: false,
    CMPD_DTA_BAIXA: null,
    CMPD_OBS: null,
    ...over,
  });
const first = instalment({ CMPD_ID: 1, CMPD_NUMERO: '4471/1', CMPD_DTA_VCTO: '2025-07-14', CMPD_VLR_TITULO: '412.35' });
const second = instalment({
  CMPD_ID: 2,
  CMPD_NUMERO: '4471/2',
  CMPD_DTA_VCTO: '2025-08-13',
  CMPD_VLR_TITULO: '412.36',
});
const third = instalment({ CMPD_ID: 3, CMPD_NUMERO: '4471/3', CMPD_DTA_VCTO: '2025-09-12', CMPD_VLR_TITULO: '100.00' });

const page = (rows: object[]) => ({ data: { resourceList: { __typename: 'ResourcePage', rows, total: rows.length } } });
const listOf = (name: string, where: object, rows: object[]) => ({
  request: { query: ResourceListDocument, variables: { name, emp: 1, input: { page: 1, limit: 500, where } } },
  result: page(rows),
});
const instalments = (rows: object[]) => listOf('comprapagamentos', { CMPD_COMP_ID: 12 }, rows);
const metaMock = {
  request: { query: ResourceMetaDocument, variables: { name: 'comprapagamentos' } },
  result: { data: { resourceMeta: { __typename: 'ResourceMeta', ...purchaseInstalmentMeta } } },
};

function renderPurchase(mocks: object[], header = purchase(), metas: ResourceMeta[] = [purchaseWithInstalmentsMeta]) {
  return renderWith(
    <Routes>
      <Route
        path="/compras/*"
        element={<DocumentFormPage meta={purchaseWithInstalmentsMeta} metas={metas} action="alterar" />}
      />
    </Routes>,
    {
      mocks: [
        {
          request: { query: ResourceGetDocument, variables: { name: 'fornecedor', emp: 1, id: 3 } },
          result: { data: { resourceGet: { id: 3, text: 'METALURGICA FIXA FORTE LTDA' } } },
        },
        {
          request: { query: ResourceGetDocument, variables: { name: 'compra', emp: 1, id: 12 } },
          result: { data: { resourceGet: header } },
        },
        // The header's payment condition combo lists its first options.
        {
          request: {
            query: ResourceListDocument,
            variables: { name: 'condicaopagamento', emp: 1, input: { filter: null, limit: 20, page: 1 } },
          },
          result: page([]),
        },
        listOf('compraproduto', { CMPP_COMP_ID: 12 }, []),
        ...mocks,
      ] as never,
      route: '/compras/alterar?id=12',
    },
  );
}

/** The instalments' section, once its rows are shown. */
async function section(text = '4471/1') {
  const region = await screen.findByRole('region', { name: 'Parcelas da Compra' });
  await within(region).findByText(text);
  return region;
}

const rowOf = (region: HTMLElement, text: string) => within(region).getByText(text).closest('tr') as HTMLElement;

beforeEach(() => {
  window.innerWidth = 1920;
  signIn({ programs: [program({ id: 4, name: 'IndexCompra', webPath: '/compras' })] });
});
afterEach(() => vi.restoreAllMocks());

describe('childRowData', () => {
  it('sends the fields the user edits and the parent fields with the header key', () => {
    const values = {
      CMPD_COMP_ID: '',
      CMPD_ID: '',
      CMPD_NUMERO: '4471/3',
      CMPD_DTA_VCTO: '12/09/2025',
      CMPD_VLR_TITULO: '1.100,50',
      CMPD_VLR_JUROS: '',
      CMPD_BAIXADO: true,
      CMPD_OBS: '',
    };
    expect(
      childRowData(
        purchaseInstalmentMeta,
        purchaseWithInstalmentsMeta.document.children[0],
        purchaseWithInstalmentsMeta,
        purchase(),
        values,
      ),
    ).toEqual({
      CMPD_COMP_ID: 12,
      CMPD_NUMERO: '4471/3',
      CMPD_DTA_VCTO: '2025-09-12',
      CMPD_VLR_TITULO: 1100.5,
      CMPD_VLR_JUROS: null,
      CMPD_OBS: null,
    });
  });
});

describe('document children', () => {
  it("lists the child's rows of the shown document with its register's columns", async () => {
    renderPurchase([metaMock, instalments([first, second])]);
    const region = await section();
    const table = within(region).getByRole('table');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    // The parent column names the purchase on every row: it is not listed.
    expect(headers).toEqual(['Parcela', 'Número', 'Vencimento', 'Valor', 'Paga', 'Ações']);
    const row = rowOf(region, '4471/2');
    expect(within(row).getByText('13/08/2025')).toBeInTheDocument();
    expect(within(row).getByText('R$ 412,36')).toBeInTheDocument();
    expect(within(row).getByText('Não')).toBeInTheDocument();
    expect(within(region).getByRole('button', { name: 'Adicionar' })).toBeEnabled();
  });

  it('takes the metadata from resourceMetas when the child register is listed there', async () => {
    renderPurchase([instalments([first])], purchase(), [purchaseWithInstalmentsMeta, purchaseInstalmentMeta]);
    const region = await section();
    expect(within(region).getByText('14/07/2025')).toBeInTheDocument();
  });

  it('adds a row with the parent fields naming the document', async () => {
    const success = vi.spyOn(notify, 'success');
    const user = userEvent.setup();
    const data = {
      CMPD_COMP_ID: 12,
      CMPD_NUMERO: '4471/3',
      CMPD_DTA_VCTO: '2025-09-12',
      CMPD_VLR_TITULO: 100,
      CMPD_VLR_JUROS: null,
      CMPD_OBS: null,
    };
    renderPurchase([
      metaMock,
      instalments([first, second]),
      {
        request: { query: ResourceCreateDocument, variables: { name: 'comprapagamentos', emp: 1, data } },
        result: { data: { resourceCreate: third } },
      },
      // The created row evicts the register's pages: the table is read again.
      instalments([first, second, third]),
    ]);
    const region = await section();
    await user.click(within(region).getByRole('button', { name: 'Adicionar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Parcelas da Compra - Incluir' });
    // Neither the purchase nor what the server assigns is asked.
    expect(within(dialog).queryByLabelText(/Compra/)).not.toBeInTheDocument();
    expect(within(dialog).queryByLabelText('Parcela')).not.toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));
    expect(within(dialog).getByText('Vencimento é obrigatório!')).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText('Número'), '4471/3');
    await user.type(within(dialog).getByLabelText(/Vencimento/), '12092025');
    await user.type(within(dialog).getByLabelText(/Valor/), '100');
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));

    await waitFor(() => expect(success).toHaveBeenCalledWith('Registro salvo com sucesso!'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const row = rowOf(await section('4471/3'), '4471/3');
    expect(within(row).getByText('12/09/2025')).toBeInTheDocument();
    expect(within(row).getByText('R$ 100,00')).toBeInTheDocument();
  });

  it("shows the server's refusal in the dialog, which stays open", async () => {
    const error = vi.spyOn(notify, 'error');
    const user = userEvent.setup();
    const message = 'Parcela paga não pode ser alterada nem excluída.';
    const paid = { ...first, CMPD_BAIXADO: true, CMPD_DTA_BAIXA: '2025-07-10' };
    renderPurchase([
      metaMock,
      instalments([paid]),
      {
        request: {
          query: ResourceUpdateDocument,
          variables: {
            name: 'comprapagamentos',
            emp: 1,
            id: { CMPD_COMP_ID: 12, CMPD_ID: 1 },
            data: {
              CMPD_COMP_ID: 12,
              CMPD_NUMERO: '4471/1',
              CMPD_DTA_VCTO: '2025-07-14',
              CMPD_VLR_TITULO: 400,
              CMPD_VLR_JUROS: null,
              CMPD_OBS: null,
            },
          },
        },
        result: { errors: [{ message, extensions: { code: 'CONFLICT' } }] },
      },
    ]);
    const region = await section();
    expect(within(rowOf(region, '4471/1')).getByText('Sim')).toBeInTheDocument();
    await user.click(within(region).getByRole('button', { name: 'Editar 4471/1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Parcelas da Compra - Editar' });
    // What the server assigned shows, not editable.
    expect(within(dialog).getByLabelText('Parcela')).toBeDisabled();
    expect(within(dialog).getByLabelText(/Vencimento/)).toHaveValue('14/07/2025');
    const value = within(dialog).getByLabelText(/Valor/);
    await user.clear(value);
    await user.type(value, '400');
    await user.click(within(dialog).getByRole('button', { name: 'Salvar' }));

    await waitFor(() => expect(error).toHaveBeenCalledWith(message));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('dialog', { name: 'Parcelas da Compra - Editar' })).toBeInTheDocument();
  });

  it('deletes a row once confirmed', async () => {
    const success = vi.spyOn(notify, 'success');
    const user = userEvent.setup();
    renderPurchase([
      metaMock,
      instalments([first, second]),
      {
        request: {
          query: ResourceDeleteDocument,
          variables: { name: 'comprapagamentos', emp: 1, id: { CMPD_COMP_ID: 12, CMPD_ID: 2 } },
        },
        result: { data: { resourceDelete: true } },
      },
    ]);
    const region = await section();
    await user.click(within(region).getByRole('button', { name: 'Excluir 4471/2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Excluir registro' });
    expect(within(dialog).getByText('Deseja excluir "4471/2" de Parcelas da Compra?')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Registro excluído com sucesso!'));
    await waitFor(() => expect(within(region).queryByText('4471/2')).not.toBeInTheDocument());
    expect(within(region).getByText('4471/1')).toBeInTheDocument();
  });

  it('only shows the rows of a finalized document', async () => {
    const user = userEvent.setup();
    renderPurchase([metaMock, instalments([first, second])], purchase({ COMP_SITUACAO: 'F' }));
    const region = await section();
    expect(screen.getByRole('note')).toHaveTextContent('Situação Finalizada: somente consulta.');
    expect(within(region).queryByRole('button', { name: 'Adicionar' })).not.toBeInTheDocument();
    expect(within(region).queryByRole('button', { name: /Excluir/ })).not.toBeInTheDocument();

    await user.click(within(region).getByRole('button', { name: 'Visualizar 4471/1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Parcelas da Compra - Visualizar' });
    expect(within(dialog).getByLabelText('Número')).toBeDisabled();
    expect(within(dialog).getByLabelText(/Valor/)).toHaveValue('412,35');
    expect(within(dialog).queryByRole('button', { name: 'Salvar' })).not.toBeInTheDocument();
    // The footer's button (the title bar's × is named 'Fechar' too).
    await user.click(within(dialog).getAllByRole('button', { name: 'Fechar' }).at(-1) as HTMLElement);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
