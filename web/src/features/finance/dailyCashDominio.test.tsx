import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiDateOf, formatDate } from '../../lib/format';
import { ResourceActionDocument, ResourceGetDocument, ResourceListDocument } from '../../lib/resources/documents';
import { notify } from '../../lib/toast';
import { program, renderWith, signIn } from '../../test/utils';
import DailyCashPage from './DailyCashPage';
import DominioPage, { lastMonth } from './DominioPage';

const SLOW = { timeout: 4000 };
const TODAY = apiDateOf();

const page = (rows: object[], total = rows.length) => ({
  data: { resourceList: { __typename: 'ResourcePage', rows, total } },
});
const listMock = (name: string, input: object, rows: object[], maxUsageCount = 1) => ({
  request: { query: ResourceListDocument, variables: { name, emp: 1, input } },
  result: page(rows),
  maxUsageCount,
});
const call = (name: string, action: string, params: object, body: unknown, answer: unknown) => ({
  request: {
    query: ResourceActionDocument,
    variables: { name, action, params: { emp: 1, ...params }, ...(body !== undefined ? { body } : {}) },
  },
  result: { data: { resourceAction: answer } },
});

beforeEach(() => {
  window.innerWidth = 1920;
  signIn({
    programs: [
      program({ id: 40, name: 'movimentodiario', webPath: '/movimentodiario' }),
      program({ id: 41, name: 'integracaodominio', webPath: '/integracaodominio' }),
    ],
  });
  URL.createObjectURL = vi.fn(() => 'blob:arquivo');
  URL.revokeObjectURL = vi.fn();
});

afterEach(() => vi.restoreAllMocks());

describe('daily cash', () => {
  const day = (closed: boolean) => ({
    DATA: TODAY,
    FECHADO: closed,
    SALDO_INICIAL: '1000.00',
    ENTRADAS: 1500.1,
    SAIDAS: '200.2',
    SALDO_FINAL: '2299.90',
    FORMAS: [
      { FRMP_ID: 1, FRMP_DESCRICAO: 'DINHEIRO', ENTRADAS: '1000.05', SAIDAS: 0 },
      { FRMP_ID: 2, FRMP_DESCRICAO: 'PIX', ENTRADAS: '500.05', SAIDAS: '200.2' },
    ],
    MOVIMENTOS: [
      {
        MBCA_ID: 9,
        MBCA_BCO_ID: 1,
        MBCA_DTA_MOV: TODAY,
        MBCA_TIPO: 'C',
        MBCA_VALOR: '1000.05',
        MBCA_HISTORICO: 'RECEBIMENTO TÍTULO 31',
        MBCA_DOCUMENTO: '40/1',
      },
    ],
  });
  const closedDays = (rows: object[]) =>
    listMock('movdiario', { filter: null, order: 'MOVD_DTA_MOV DESC', page: 1, limit: 20 }, rows);

  it("shows the day's summary, closes it after confirmation and lists the closed days", async () => {
    const user = userEvent.setup();
    const success = vi.spyOn(notify, 'success');
    const closedRow = {
      MOVD_ID: 3,
      MOVD_EMP_ID: 1,
      MOVD_DTA_MOV: TODAY,
      MOVD_SALDO_INICIAL: '1000.00',
      MOVD_ENTRADAS: '1500.10',
      MOVD_SAIDAS: '200.20',
      MOVD_SALDO_FINAL: '2299.90',
      MOVD_DTA_CAD: `${TODAY}T18:00:00Z`,
    };
    renderWith(<DailyCashPage metas={[]} />, {
      mocks: [
        listMock('banco', { filter: null, limit: 20, page: 1 }, [{ id: 1, text: 'CAIXA GERAL' }], 5),
        // The movements hold the account's id: its text is read.
        {
          request: { query: ResourceGetDocument, variables: { name: 'banco', emp: 1, id: 1 } },
          result: { data: { resourceGet: { id: 1, text: 'CAIXA GERAL' } } },
        },
        call('movdiario', 'dia', {}, { DATA: TODAY }, day(false)),
        closedDays([]),
        call('movdiario', 'fechar', {}, { DATA: TODAY }, { msg: 'Dia fechado.' }),
        call('movdiario', 'dia', {}, { DATA: TODAY }, day(true)),
        // Closing evicts the register: the closed days are read again.
        closedDays([closedRow]),
      ] as never,
    });
    expect(screen.getByLabelText(/^Data/)).toHaveValue(formatDate(TODAY));
    const summary = await screen.findByRole('region', { name: 'Resumo do dia' });
    expect(within(summary).getByTestId('movdiario-situacao')).toHaveTextContent('Dia aberto');
    expect(within(summary).getByTestId('movdiario-saldo-inicial')).toHaveTextContent('R$ 1.000,00');
    expect(within(summary).getByTestId('movdiario-entradas')).toHaveTextContent('R$ 1.500,10');
    expect(within(summary).getByTestId('movdiario-saidas')).toHaveTextContent('R$ 200,20');
    expect(within(summary).getByTestId('movdiario-saldo-final')).toHaveTextContent('R$ 2.299,90');
    const methods = screen.getByRole('table', { name: 'Por forma de pagamento' });
    expect(within(methods).getByRole('row', { name: /PIX/ })).toHaveTextContent('PIXR$ 500,05R$ 200,20');
    expect(within(methods).getByRole('row', { name: /Total/ })).toHaveTextContent('TotalR$ 1.500,10R$ 200,20');
    const movements = screen.getByRole('table', { name: 'Movimentos do dia' });
    const row = within(movements).getByRole('row', { name: /RECEBIMENTO TÍTULO 31/ });
    expect(row).toHaveTextContent('R$ 1.000,05');
    expect(row).toHaveTextContent('Crédito');
    await waitFor(() => expect(row).toHaveTextContent('CAIXA GERAL'));
    expect(await screen.findByText('Nenhum dia fechado.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Fechar o dia' }));
    const confirm = await screen.findByRole('dialog', { name: 'Fechar o dia' }, SLOW);
    expect(confirm).toHaveTextContent(`Fechar o movimento de ${formatDate(TODAY)} com saldo final de R$ 2.299,90?`);
    await user.click(within(confirm).getByRole('button', { name: 'Fechar o dia' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Dia fechado.'));
    await waitFor(() => expect(screen.getByTestId('movdiario-situacao')).toHaveTextContent('Dia fechado'));
    expect(screen.getByRole('button', { name: 'Reabrir o dia' })).toBeInTheDocument();
    const closed = await screen.findByRole('table', { name: 'Dias fechados' });
    expect(await within(closed).findByRole('row', { name: /R\$ 2\.299,90/ })).toHaveTextContent(
      `${formatDate(TODAY)}R$ 1.000,00R$ 1.500,10R$ 200,20R$ 2.299,90`,
    );
  });
});

describe('Domínio integration', () => {
  const config = {
    INTD_ID: 4,
    INTD_EMP_ID: 1,
    INTD_COD_EMPRESA: '123',
    INTD_CONTA_CLIENTES: '1.1.2.01',
    INTD_CONTA_FORNECEDORES: '2.1.1.01',
    INTD_CONTA_CAIXA: '1.1.1.01',
    INTD_CONTA_JUROS: '3.1.1.05',
    INTD_CONTA_DESCONTOS: '4.1.1.02',
    INTD_HISTORICO_RECEBIMENTO: '101',
    INTD_HISTORICO_PAGAMENTO: '102',
  };
  // The company travels as the call's EMP_ID, never in the body.
  const withoutCompany = Object.fromEntries(Object.entries(config).filter(([k]) => k !== 'INTD_EMP_ID'));

  it('loads the configuration and saves it', async () => {
    const user = userEvent.setup();
    const success = vi.spyOn(notify, 'success');
    renderWith(<DominioPage metas={[]} />, {
      mocks: [
        call('integracaodominio', 'dadosempresa', { id: 1 }, undefined, {
          EMPRESA: { EMP_ID: 1, EMP_DESCRICAO: 'Empresa Teste LTDA', EMP_CGC: '11222333000181' },
          CONFIGURACAO: config,
        }),
        call(
          'integracaodominio',
          'configuracao',
          { EMP_ID: 1 },
          { ...withoutCompany, INTD_CONTA_CAIXA: '1.1.1.02' },
          { ...config, INTD_CONTA_CAIXA: '1.1.1.02' },
        ),
        call('integracaodominio', 'dadosempresa', { id: 1 }, undefined, {
          EMPRESA: { EMP_ID: 1, EMP_DESCRICAO: 'Empresa Teste LTDA', EMP_CGC: '11222333000181' },
          CONFIGURACAO: { ...config, INTD_CONTA_CAIXA: '1.1.1.02' },
        }),
      ] as never,
    });
    expect(await screen.findByTestId('dominio-empresa')).toHaveTextContent(
      'Empresa Teste LTDA · CNPJ 11.222.333/0001-81',
    );
    expect(screen.getByLabelText(/^Código da empresa na Domínio/)).toHaveValue('123');
    expect(screen.getByLabelText(/^Conta de clientes/)).toHaveValue('1.1.2.01');
    await user.clear(screen.getByLabelText(/^Conta caixa/));
    await user.type(screen.getByLabelText(/^Conta caixa/), '1.1.1.02');
    await user.click(screen.getByRole('button', { name: 'Salvar configuração' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Configuração salva com sucesso!'));
    expect(screen.getByLabelText(/^Conta caixa/)).toHaveValue('1.1.1.02');
  });

  it('exports the notes of the period with no timeout, showing progress, and says when there is nothing', async () => {
    const user = userEvent.setup();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const warning = vi.spyOn(notify, 'warning');
    let answer: (r: Response) => void = () => undefined;
    const fetchMock = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementationOnce(() => new Promise<Response>((resolve) => (answer = resolve)))
      .mockResolvedValueOnce(
        new Response(JSON.stringify({ code: 500, msg: 'Nenhuma baixa no período.' }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
      );
    renderWith(<DominioPage metas={[]} />, {
      mocks: [
        call('integracaodominio', 'dadosempresa', { id: 1 }, undefined, {
          EMPRESA: { EMP_ID: 1, EMP_DESCRICAO: 'Empresa Teste LTDA' },
          CONFIGURACAO: null,
        }),
      ] as never,
    });
    expect(await screen.findByText('Integração ainda não configurada para esta empresa.')).toBeInTheDocument();
    const period = lastMonth();
    expect(screen.getByLabelText(/^Data inicial/)).toHaveValue(period.DATA_INI);
    expect(screen.getByLabelText(/^Data final/)).toHaveValue(period.DATA_FIM);
    await user.clear(screen.getByLabelText(/^Data inicial/));
    await user.type(screen.getByLabelText(/^Data inicial/), '01102026');
    await user.clear(screen.getByLabelText(/^Data final/));
    await user.type(screen.getByLabelText(/^Data final/), '31102026');

    await user.click(screen.getByRole('button', { name: 'Exportar notas' }));
    expect(await screen.findByTestId('dominio-exportando')).toHaveTextContent('Gerando o arquivo de notas');
    expect(screen.getByRole('button', { name: 'Exportar baixas' })).toBeDisabled();
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/integracaodominio/enviarnotas/1');
    expect(JSON.parse(String(init.body))).toEqual({ DATA_INI: '2026-10-01', DATA_FIM: '2026-10-31' });
    // The long client: no abort signal, so no timeout.
    expect(init.signal).toBeUndefined();
    answer(
      new Response('0000|123|notas', {
        status: 200,
        headers: { 'content-type': 'text/plain', 'content-disposition': 'attachment; filename="notas-102026.txt"' },
      }),
    );
    expect(await screen.findByText('Arquivo notas-102026.txt baixado.')).toBeInTheDocument();
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('notas-102026.txt');
    expect(screen.queryByTestId('dominio-exportando')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Exportar baixas' }));
    await waitFor(() => expect(warning).toHaveBeenCalledWith('Nenhuma baixa no período.'));
    expect(fetchMock.mock.calls[1][0]).toBe('/integracaodominio/baixaparcela/1');
  });
});
