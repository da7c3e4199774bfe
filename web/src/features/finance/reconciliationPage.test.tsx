import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResourceActionDocument, ResourceListDocument } from '../../lib/resources/documents';
import { notify } from '../../lib/toast';
import { program, renderWith, signIn } from '../../test/utils';
import ReconciliationPage from './ReconciliationPage';

const SLOW = { timeout: 4000 };

const page = (rows: object[]) => ({ data: { resourceList: { __typename: 'ResourcePage', rows, total: rows.length } } });
const banksMock = {
  request: {
    query: ResourceListDocument,
    variables: { name: 'banco', emp: 1, input: { filter: null, limit: 20, page: 1 } },
  },
  result: page([{ id: 1, text: 'BANCO DO BRASIL' }]),
  maxUsageCount: 10,
};
const call = (action: string, body: unknown, answer: unknown, params: object = {}) => ({
  request: {
    query: ResourceActionDocument,
    variables: {
      name: 'conciliacaobancaria',
      action,
      params: { emp: 1, ...params },
      ...(body !== undefined ? { body } : {}),
    },
  },
  result: { data: { resourceAction: answer } },
});

const movement = (id: number, value: string, over: object = {}) => ({
  MBCA_ID: id,
  MBCA_BCO_ID: 1,
  MBCA_DTA_MOV: '2026-11-20',
  MBCA_TIPO: 'C',
  MBCA_VALOR: value,
  MBCA_HISTORICO: `RECEBIMENTO ${id}`,
  MBCA_DOCUMENTO: `DOC ${id}`,
  ...over,
});
const pending = {
  CONB_ID: 5,
  CONB_EMP_ID: 1,
  CONB_BCO_ID: 1,
  CONB_DTA: '2026-11-20',
  CONB_TIPO: 'C',
  CONB_VALOR: '1250.00',
  CONB_HISTORICO: 'TED RECEBIDA JOAO',
  CONB_DOCUMENTO: '778899',
  CONB_FITID: 'F1',
  CONB_SITUACAO: 'P',
  MOVIMENTOS: [],
  SUGESTOES: [
    { MBCA_IDS: [11], MOVIMENTOS: [movement(11, '1250.00')], VALOR: '1250.00', MOTIVO: 'Mesmo valor e data' },
  ],
};
const debit = {
  ...pending,
  CONB_ID: 6,
  CONB_TIPO: 'D',
  CONB_VALOR: '35.9',
  CONB_HISTORICO: 'TARIFA BANCARIA',
  CONB_DOCUMENTO: '',
  SUGESTOES: [],
};
const balance = (pendentes: number, valor: string, diferenca: string) => ({
  SALDO_EXTRATO: '10000.00',
  DATA_EXTRATO: '2026-11-20',
  SALDO_SISTEMA: '8785.90',
  DIFERENCA: diferenca,
  PENDENTES: pendentes,
  VALOR_PENDENTE: valor,
});

beforeEach(() => {
  window.innerWidth = 1920;
  signIn({ programs: [program({ id: 30, name: 'conciliacaobancaria', webPath: '/conciliacaobancaria' })] });
});

afterEach(() => vi.restoreAllMocks());

async function chooseAccount(user: ReturnType<typeof userEvent.setup>) {
  await screen.findByRole('option', { name: 'BANCO DO BRASIL' });
  await user.selectOptions(screen.getByLabelText(/^Conta bancária/), '1');
}

describe('bank reconciliation', () => {
  it('imports an OFX file, then matches a line to its suggestion after confirmation', async () => {
    const user = userEvent.setup();
    const success = vi.spyOn(notify, 'success');
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      new Response(
        JSON.stringify({
          IMPORTADOS: 2,
          IGNORADOS: 1,
          SUGERIDOS: 1,
          EXTRATOS: [
            { CONTA: '12345-6', INICIO: '2026-11-01', FIM: '2026-11-20', SALDO: 10000, DATA_SALDO: '2026-11-20' },
          ],
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      ),
    );
    renderWith(<ReconciliationPage metas={[]} />, {
      mocks: [
        banksMock,
        call('pendentes', { BCO_ID: 1, SITUACAO: 'P' }, []),
        call('saldo', { BCO_ID: 1 }, balance(0, '0', '0')),
        // The import reads the lines and the balances again.
        call('pendentes', { BCO_ID: 1, SITUACAO: 'P' }, [pending, debit]),
        call('saldo', { BCO_ID: 1 }, balance(2, '1214.10', '1214.10')),
        call('conciliar', { CONB_ID: 5, MBCA_IDS: [11] }, { msg: 'Lançamento conciliado.' }),
        call('pendentes', { BCO_ID: 1, SITUACAO: 'P' }, [debit]),
        call('saldo', { BCO_ID: 1 }, balance(1, '35.90', '-35.90')),
      ] as never,
    });
    expect(screen.getByRole('button', { name: 'Importar OFX' })).toBeDisabled();
    await chooseAccount(user);
    expect(await screen.findByText('Nenhum lançamento do extrato. Importe um arquivo OFX.')).toBeInTheDocument();

    await user.click(screen.getByTestId('conciliacao-importar-ofx'));
    const dialog = await screen.findByRole('dialog', { name: 'Importar OFX' }, SLOW);
    await user.upload(
      within(dialog).getByLabelText('Arquivo OFX do extrato'),
      new File(['OFXHEADER:100'], 'extrato.ofx', { type: 'application/x-ofx' }),
    );
    await user.click(within(dialog).getByTestId('ofx-importar'));
    const result = await within(dialog).findByRole('region', { name: 'Resultado da importação' });
    expect(within(result).getByTestId('ofx-importados')).toHaveTextContent('2');
    expect(within(result).getByTestId('ofx-ignorados')).toHaveTextContent('1');
    expect(within(result).getByTestId('ofx-sugeridos')).toHaveTextContent('1');
    expect(within(result).getByRole('row', { name: /12345-6/ })).toHaveTextContent(
      '12345-601/11/2026 a 20/11/2026R$ 10.000,00 em 20/11/2026',
    );
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/conciliacaobancaria/ofx/1');
    expect(((init.body as FormData).get('file') as File).name).toBe('extrato.ofx');
    expect((init.body as FormData).get('BCO_ID')).toBe('1');
    await user.click(within(dialog).getByTestId('ofx-fechar'));

    // The lines and the balances after the import.
    const lines = await screen.findByRole('table', { name: 'Lançamentos do extrato' });
    const credit = await within(lines).findByRole('row', { name: /TED RECEBIDA JOAO/ });
    expect(
      within(credit)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['20/11/2026', 'TED RECEBIDA JOAO', '778899', 'R$ 1.250,00 C', 'Pendente', 'Selecionar']);
    expect(within(lines).getByRole('row', { name: /TARIFA BANCARIA/ })).toHaveTextContent('R$ 35,90 D');
    const panel = screen.getByRole('region', { name: 'Saldos da conciliação' });
    await waitFor(() =>
      expect(within(panel).getByTestId('conciliacao-pendentes')).toHaveTextContent('2 (R$ 1.214,10)'),
    );
    expect(within(panel).getByTestId('conciliacao-saldo-extrato')).toHaveTextContent('R$ 10.000,00');
    expect(panel).toHaveTextContent('Saldo do extrato em 20/11/2026');
    expect(within(panel).getByTestId('conciliacao-saldo-sistema')).toHaveTextContent('R$ 8.785,90');
    expect(within(panel).getByTestId('conciliacao-diferenca')).toHaveClass('text-error');

    // The first line is the chosen one: its suggestion is matched.
    const detail = screen.getByRole('region', { name: 'Lançamento selecionado' });
    const suggestion = within(detail).getByTestId('conciliacao-sugestao-0');
    expect(suggestion).toHaveTextContent('R$ 1.250,00 · Mesmo valor e data');
    expect(within(suggestion).getByRole('row', { name: /RECEBIMENTO 11/ })).toBeInTheDocument();
    await user.click(within(suggestion).getByRole('button', { name: 'Conciliar sugestão 1' }));
    const confirm = await screen.findByRole('dialog', { name: 'Conciliar lançamento' }, SLOW);
    expect(confirm).toHaveTextContent(
      'Conciliar o lançamento do extrato de 20/11/2026 (R$ 1.250,00 C) com 1 movimento de R$ 1.250,00?',
    );
    expect(confirm).not.toHaveTextContent('os valores são diferentes');
    await user.click(within(confirm).getByRole('button', { name: 'Conciliar' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Lançamento conciliado.'));
    await waitFor(() => expect(within(lines).queryByRole('row', { name: /TED RECEBIDA JOAO/ })).toBeNull());
    await waitFor(() => expect(within(panel).getByTestId('conciliacao-pendentes')).toHaveTextContent('1 (R$ 35,90)'));
  });

  it('matches a line to movements chosen by hand, warning when the values differ', async () => {
    const user = userEvent.setup();
    renderWith(<ReconciliationPage metas={[]} />, {
      mocks: [
        banksMock,
        call('pendentes', { BCO_ID: 1, SITUACAO: 'P' }, [{ ...pending, SUGESTOES: [] }]),
        call('saldo', { BCO_ID: 1 }, balance(1, '1250', '1250')),
        {
          request: {
            query: ResourceListDocument,
            variables: {
              name: 'movimentacaobancaria',
              emp: 1,
              input: {
                page: 1,
                limit: 200,
                order: 'MBCA_DTA_MOV',
                where: {
                  MBCA_BCO_ID: 1,
                  MBCA_TIPO: 'C',
                  MBCA_DTA_MOV_INI: '2026-10-21',
                  MBCA_DTA_MOV_FIM: '2026-12-20',
                },
              },
            },
          },
          result: page([
            movement(12, '1000.00'),
            movement(13, '200.00'),
            movement(14, '9.99', { MBCA_CONCILIADO: true }),
          ]),
          // Matching evicts the movements: the list on screen is read again.
          maxUsageCount: 2,
        },
        call('conciliar', { CONB_ID: 5, MBCA_IDS: [12, 13] }, {}),
        call('pendentes', { BCO_ID: 1, SITUACAO: 'P' }, []),
        call('saldo', { BCO_ID: 1 }, balance(0, '0', '0')),
      ] as never,
    });
    await chooseAccount(user);
    const detail = await screen.findByRole('region', { name: 'Lançamento selecionado' });
    expect(within(detail).getByText('Nenhuma sugestão para este lançamento.')).toBeInTheDocument();
    await user.click(within(detail).getByRole('button', { name: 'Escolher movimentos' }));
    const pick = await within(detail).findByRole('region', { name: 'Escolher movimentos' });
    await within(pick).findByRole('row', { name: /RECEBIMENTO 12/ });
    // A movement already reconciled is not offered.
    expect(within(pick).queryByRole('row', { name: /RECEBIMENTO 14/ })).toBeNull();
    await user.click(within(pick).getByRole('checkbox', { name: 'Escolher movimento 12' }));
    await user.click(within(pick).getByRole('checkbox', { name: 'Escolher movimento 13' }));
    expect(within(pick).getByRole('status')).toHaveTextContent('Escolhidos: R$ 1.200,00 de R$ 1.250,00');
    await user.click(within(pick).getByRole('button', { name: 'Conciliar escolhidos' }));
    const confirm = await screen.findByRole('dialog', { name: 'Conciliar lançamento' }, SLOW);
    expect(confirm).toHaveTextContent('com 2 movimentos de R$ 1.200,00?');
    expect(confirm).toHaveTextContent('Atenção: os valores são diferentes.');
    await user.click(within(confirm).getByRole('button', { name: 'Conciliar' }));
    expect(await screen.findByText('Nenhum lançamento do extrato. Importe um arquivo OFX.')).toBeInTheDocument();
  });

  it('undoes a match and posts an unmatched line as a movement', async () => {
    const user = userEvent.setup();
    const success = vi.spyOn(notify, 'success');
    const matched = { ...pending, CONB_SITUACAO: 'C', MOVIMENTOS: [movement(11, '1250.00')], SUGESTOES: [] };
    const all = { BCO_ID: 1, SITUACAO: '' };
    renderWith(<ReconciliationPage metas={[]} />, {
      mocks: [
        banksMock,
        call('pendentes', { BCO_ID: 1, SITUACAO: 'P' }, [debit]),
        call('saldo', { BCO_ID: 1 }, balance(1, '35.90', '-35.90'), {}),
        call('pendentes', all, [matched, debit]),
        call('desfazer', undefined, { msg: 'Conciliação desfeita.' }, { id: 5 }),
        call('pendentes', all, [{ ...matched, CONB_SITUACAO: 'P', MOVIMENTOS: [] }, debit]),
        call('saldo', { BCO_ID: 1 }, balance(2, '1285.90', '1214.10')),
        {
          request: {
            query: ResourceListDocument,
            variables: { name: 'historicopadrao', emp: 1, input: { filter: null, limit: 20, page: 1 } },
          },
          result: page([{ id: 3, text: 'DESPESAS BANCÁRIAS' }]),
        },
        call('lancar', { CONB_ID: 6, HISTORICO: 'TARIFA DO MES' }, { msg: 'Movimento lançado.' }),
        call('pendentes', all, [
          { ...matched, CONB_SITUACAO: 'P', MOVIMENTOS: [] },
          { ...debit, CONB_SITUACAO: 'C' },
        ]),
        call('saldo', { BCO_ID: 1 }, balance(1, '1250', '1250')),
      ] as never,
    });
    await chooseAccount(user);
    await screen.findByRole('row', { name: /TARIFA BANCARIA/ });
    await user.click(screen.getByRole('radio', { name: 'Todos' }));
    const detail = await screen.findByRole('region', { name: 'Lançamento selecionado' });
    await within(detail).findByRole('table', { name: 'Movimentos conciliados' });
    expect(within(detail).getByRole('row', { name: /RECEBIMENTO 11/ })).toBeInTheDocument();
    await user.click(within(detail).getByRole('button', { name: 'Desfazer' }));
    const confirm = await screen.findByRole('dialog', { name: 'Desfazer conciliação' }, SLOW);
    await user.click(within(confirm).getByRole('button', { name: 'Desfazer' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Conciliação desfeita.'));
    await waitFor(() => expect(screen.getByTestId('conciliacao-situacao-5')).toHaveTextContent('Pendente'));

    await user.click(screen.getByRole('button', { name: 'Selecionar lançamento 6' }));
    const debitDetail = screen.getByRole('region', { name: 'Lançamento selecionado' });
    expect(debitDetail).toHaveTextContent('TARIFA BANCARIA');
    await user.click(within(debitDetail).getByRole('button', { name: 'Lançar movimento' }));
    const form = within(debitDetail).getByRole('form', { name: 'Lançar movimento' });
    expect(within(form).getByLabelText(/^Histórico/)).toHaveValue('TARIFA BANCARIA');
    await user.clear(within(form).getByLabelText(/^Histórico/));
    await user.type(within(form).getByLabelText(/^Histórico/), 'TARIFA DO MES');
    await user.click(within(form).getByRole('button', { name: 'Lançar e conciliar' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Movimento lançado.'));
    await waitFor(() => expect(screen.getByTestId('conciliacao-situacao-6')).toHaveTextContent('Conciliado'));
  });
});
