import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { field } from '../../test/fixtures';
import { program, renderWith, signIn } from '../../test/utils';
import { ResourceGetDocument, ResourceListDocument, ResourceMetasDocument } from '../../lib/resources/documents';
import type { ResourceMeta } from '../../lib/resources/metaFields';
import StockCardPage, { defaultRange, stockCardLine } from './StockCardPage';

const movement = {
  MOVI_ID: 12,
  PROD_ID: 7,
  DATA: '2026-11-23',
  MOVI_TIPO: 'S',
  MOVI_QTDE: '2.0000',
  QTDE_ENTRADA: '0',
  QTDE_SAIDA: '2.0000',
  MOVI_CUSTO_UNIT: '4.5000',
  VALOR_MOVIMENTO: '9.00',
  SALDO: '8.0000',
  CUSTO_MEDIO: '4.5000',
  SALDO_FINANCEIRO: '36.00',
  MOVI_ORIGEM: 'PEDIDO',
  MOVI_ORIGEM_ID: '9/1',
  MOVI_ESTORNO: false,
};

describe('stock card', () => {
  it('formats a movement: dd/MM/yyyy, Entrada/Saída, quantities and R$', () => {
    expect(stockCardLine(movement)).toEqual({
      date: '23/11/2026',
      type: 'Saída',
      quantity: '2',
      unitCost: 'R$ 4,50',
      value: 'R$ 9,00',
      balance: '8',
      averageCost: 'R$ 4,50',
      stockValue: 'R$ 36,00',
      origin: 'PEDIDO 9/1',
    });
    const entry = stockCardLine({
      ...movement,
      MOVI_TIPO: 'E',
      QTDE_ENTRADA: '10.5',
      QTDE_SAIDA: '0',
      MOVI_ESTORNO: true,
    });
    expect(entry.type).toBe('Entrada');
    expect(entry.quantity).toBe('10,5');
    expect(entry.origin).toBe('PEDIDO 9/1 (estorno)');
    // The server's description of the document, when it gives one, as it gives it.
    expect(
      stockCardLine({ ...movement, MOVI_TIPO: 'E', MOVI_ORIGEM: 'COMPRA', MOVI_DOCUMENTO: 'Compra 2, item 1' }).origin,
    ).toBe('Compra 2, item 1');
    expect(
      stockCardLine({ ...movement, MOVI_ESTORNO: true, MOVI_DOCUMENTO: 'Pedido 9 série 1 (estorno)' }).origin,
    ).toBe('Pedido 9 série 1 (estorno)');
  });

  it('defaults to the last 30 days', () => {
    expect(defaultRange(new Date(2026, 10, 23))).toEqual({ DATA_INI: '24/10/2026', DATA_FIM: '23/11/2026' });
  });
});

const meta: ResourceMeta & { __typename: 'ResourceMeta' } = {
  __typename: 'ResourceMeta',
  name: 'consultaprodutos',
  path: '/consultaprodutos',
  title: 'Histórico de Estoque',
  program: 'consultaprodutos',
  key: ['PROD_ID'],
  companyColumn: 'PROD_EMP_ID',
  labelField: 'PROD_DESCRICAO',
  labelLength: null,
  defaultOrder: 'PROD_DESCRICAO',
  fields: [{ ...field({ name: 'PROD_ID', kind: 'NUMBER' }), __typename: 'ResourceField' } as never],
  groups: [],
  document: null,
  actions: [],
};

describe('StockCardPage', () => {
  beforeEach(() => {
    window.innerWidth = 1920;
    signIn({ programs: [program({ id: 1, name: 'IndexConsultaprodutos', webPath: '/consultaprodutos' })] });
  });

  it('lists the product movements of the period', async () => {
    const range = defaultRange();
    const api = (d: string) => d.split('/').reverse().join('-');
    renderWith(<StockCardPage />, {
      route: '/consultaprodutos/alterar?id=7',
      mocks: [
        { request: { query: ResourceMetasDocument }, result: { data: { resourceMetas: [meta] } } },
        {
          request: { query: ResourceGetDocument, variables: { name: 'consultaprodutos', emp: 1, id: 7 } },
          result: {
            data: { resourceGet: { PROD_ID: 7, PROD_DESCRICAO: 'PARAFUSO', SALDO_FISICO: '8', UNID_ABREVIADA: 'UN' } },
          },
        },
        {
          request: {
            query: ResourceListDocument,
            variables: {
              name: 'fichaestoque',
              emp: 1,
              input: {
                page: 1,
                limit: 50,
                where: { PROD_ID: 7, DATA_INI: api(range.DATA_INI), DATA_FIM: api(range.DATA_FIM) },
              },
            },
          },
          result: { data: { resourceList: { __typename: 'ResourcePage', rows: [movement], total: 1 } } },
        },
      ] as never,
    });
    expect(await screen.findByText('7 - PARAFUSO')).toBeInTheDocument();
    const row = (await screen.findByText('Saída')).closest('tr') as HTMLElement;
    expect(within(row).getByText('23/11/2026')).toBeInTheDocument();
    expect(within(row).getByText('2')).toBeInTheDocument();
    expect(within(row).getByText('R$ 36,00')).toBeInTheDocument();
    expect(screen.getByLabelText(/Data inicial/)).toHaveValue(range.DATA_INI);
  });
});
