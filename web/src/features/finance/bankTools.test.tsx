import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiDateOf, formatDate } from '../../lib/format';
import { ResourceActionDocument, ResourceListDocument } from '../../lib/resources/documents';
import type { ResourceMeta } from '../../lib/resources/metaFields';
import { notify } from '../../lib/toast';
import { field } from '../../test/fixtures';
import { program, renderWith, signIn } from '../../test/utils';
import BankTools, { MovementTools } from './BankTools';
import { monthStart } from './bankFields';
import { SAME_ACCOUNT } from './BankDialogs';

const SLOW = { timeout: 4000 };
const TODAY = apiDateOf();

const register = (name: string, path: string, key: string): ResourceMeta => ({
  name,
  path,
  title: name,
  program: name,
  key: [key],
  companyColumn: null,
  labelField: key,
  labelLength: null,
  defaultOrder: key,
  fields: [field({ name: key, kind: 'NUMBER', inList: true })],
  groups: [],
  document: null,
  actions: [],
});
const bancoMeta = register('banco', '/bancos', 'BCO_ID');
const movementsMeta = register('movimentacaobancaria', '/movimentacaobancaria', 'MBCA_ID');
const metas = [bancoMeta, movementsMeta];

const banksMock = {
  request: {
    query: ResourceListDocument,
    variables: { name: 'banco', emp: 1, input: { filter: null, limit: 20, page: 1 } },
  },
  result: {
    data: {
      resourceList: {
        __typename: 'ResourcePage',
        rows: [
          { id: 1, text: 'BANCO DO BRASIL - COBRANÇA' },
          { id: 2, text: 'CAIXA GERAL' },
        ],
        total: 2,
      },
    },
  },
  maxUsageCount: 10,
};
const actionMock = (name: string, action: string, body: unknown, answer: unknown) => ({
  request: { query: ResourceActionDocument, variables: { name, action, params: { emp: 1 }, body } },
  result: { data: { resourceAction: answer } },
});
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  window.innerWidth = 1920;
  signIn({
    programs: [
      program({ id: 20, name: 'bancos', webPath: '/bancos' }),
      program({ id: 21, name: 'movimentacaobancaria', webPath: '/movimentacaobancaria' }),
    ],
  });
  URL.createObjectURL = vi.fn(() => 'blob:arquivo');
  URL.revokeObjectURL = vi.fn();
});

afterEach(() => vi.restoreAllMocks());

async function chooseAccount(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement, id = '1') {
  await within(dialog).findByRole('option', { name: 'BANCO DO BRASIL - COBRANÇA' });
  await user.selectOptions(within(dialog).getByLabelText(/^Conta bancária/), id);
}

describe('bank files', () => {
  it("processes a return file and lists each slip's result with the counts", async () => {
    const user = userEvent.setup();
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      json({
        ARQUIVO: 'CB241100.RET',
        LEIAUTE: 'CNAB 400',
        JA_PROCESSADO: true,
        LIQUIDADOS: 1,
        REGISTRADOS: 1,
        RECUSADOS: 1,
        BAIXADOS: 0,
        IGNORADOS: 0,
        AVISOS: [],
        TITULOS: [
          {
            NOSSO_NUMERO: '00012345',
            BOL_ID: 7,
            CRCB_ID: 31,
            OCORRENCIA: '06',
            DESCRICAO: 'Liquidação normal',
            MOTIVOS: '00',
            VALOR_PAGO: 1236.06,
            JUROS: '1.5',
            TARIFA: 2.5,
            RESULTADO: 'Título baixado',
          },
          {
            NOSSO_NUMERO: '00012346',
            BOL_ID: 8,
            CRCB_ID: 32,
            OCORRENCIA: '03',
            DESCRICAO: 'Entrada rejeitada',
            MOTIVOS: '48 - CEP inválido',
            VALOR_PAGO: 0,
            JUROS: 0,
            TARIFA: 1,
            RESULTADO: 'Recusado',
          },
        ],
      }),
    );
    const warning = vi.spyOn(notify, 'warning');
    renderWith(<BankTools meta={bancoMeta} metas={metas} />, { mocks: [banksMock] as never });
    await user.click(screen.getByRole('button', { name: 'Processar retorno' }));
    const dialog = await screen.findByRole('dialog', { name: 'Processar retorno' }, SLOW);
    await chooseAccount(user, dialog);
    await user.upload(
      within(dialog).getByLabelText('Arquivo de retorno (.RET ou .TXT)'),
      new File(['02RETORNO01COBRANCA'], 'CB241100.RET', { type: 'text/plain' }),
    );
    await user.click(within(dialog).getByTestId('retorno-processar'));

    const result = await within(dialog).findByRole('region', { name: 'Resultado do retorno' });
    expect(within(result).getByTestId('retorno-ja-processado')).toHaveTextContent('Arquivo já processado');
    expect(warning).toHaveBeenCalledWith('Arquivo já processado.');
    expect(result).toHaveTextContent('Leiaute CNAB 400');
    expect(within(result).getByTestId('retorno-liquidados')).toHaveTextContent('1');
    expect(within(result).getByTestId('retorno-recusados')).toHaveTextContent('1');
    const table = within(result).getByRole('table', { name: 'Boletos do retorno' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual([
      'Nosso número',
      'Ocorrência',
      'Descrição',
      'Motivos',
      'Valor pago',
      'Juros',
      'Tarifa',
      'Resultado',
    ]);
    const paid = within(table).getByRole('row', { name: /00012345/ });
    expect(
      within(paid)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['00012345', '06', 'Liquidação normal', '00', 'R$ 1.236,06', 'R$ 1,50', 'R$ 2,50', 'Título baixado']);
    expect(within(table).getByRole('row', { name: /Total/ })).toHaveTextContent('R$ 1.236,06R$ 1,50R$ 3,50');

    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/boletos/retorno/1');
    const form = init.body as FormData;
    expect((form.get('file') as File).name).toBe('CB241100.RET');
    expect(form.get('BCO_ID')).toBe('1');
  });

  it('downloads the remittance of an account, and shows why there is none', async () => {
    const user = userEvent.setup();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const error = vi.spyOn(notify, 'error');
    const fetchMock = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(
        new Response('01REMESSA01COBRANCA', {
          status: 200,
          headers: {
            'content-type': 'text/plain; charset=us-ascii',
            'content-disposition': 'attachment; filename="CB2411001.REM"',
          },
        }),
      )
      .mockResolvedValueOnce(json({ code: 400, msg: 'Nenhum boleto a enviar para esta conta.' }, 400));
    renderWith(<BankTools meta={bancoMeta} metas={metas} />, { mocks: [banksMock] as never });
    await user.click(screen.getByTestId('banco-gerar-remessa'));
    const dialog = await screen.findByRole('dialog', { name: 'Gerar remessa' }, SLOW);
    await chooseAccount(user, dialog);
    await user.click(within(dialog).getByTestId('remessa-gerar'));
    expect(await within(dialog).findByText('Arquivo CB2411001.REM baixado.')).toBeInTheDocument();
    const link = click.mock.contexts[0] as HTMLAnchorElement;
    expect(link.download).toBe('CB2411001.REM');
    expect(link.href).toBe('blob:arquivo');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/boletos/remessa/1');
    expect(JSON.parse(String(init.body))).toEqual({ BCO_ID: 1 });

    await user.click(within(dialog).getByTestId('remessa-gerar'));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Nenhum boleto a enviar para esta conta.');
    expect(error).toHaveBeenCalledWith('Nenhum boleto a enviar para esta conta.');
  });
});

describe('bank balances and transfers', () => {
  it("lists each account's balances over the period with their totals", async () => {
    const user = userEvent.setup();
    renderWith(<MovementTools meta={movementsMeta} metas={metas} />, {
      mocks: [
        banksMock,
        actionMock('movimentacaobancaria', 'saldos', { DATA_INI: monthStart(TODAY), DATA_FIM: TODAY }, [
          {
            BCO_ID: 1,
            BCO_DESCRICAO: 'BANCO DO BRASIL',
            SALDO_ANTERIOR: '1000.10',
            CREDITOS: 500,
            DEBITOS: '200.05',
            SALDO_FINAL: '1300.05',
          },
          { BCO_ID: 2, BCO_DESCRICAO: 'CAIXA GERAL', SALDO_ANTERIOR: 0.2, CREDITOS: 0.1, DEBITOS: 0, SALDO_FINAL: 0.3 },
        ]),
      ] as never,
    });
    // The movements list has no bank files.
    expect(screen.queryByRole('button', { name: 'Gerar remessa' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Saldos por período' }));
    const dialog = await screen.findByRole('dialog', { name: 'Saldos por período' }, SLOW);
    expect(within(dialog).getByLabelText(/^Data inicial/)).toHaveValue(formatDate(monthStart(TODAY)));
    expect(within(dialog).getByLabelText(/^Data final/)).toHaveValue(formatDate(TODAY));
    await user.click(within(dialog).getByRole('button', { name: 'Consultar' }));
    const table = await within(dialog).findByRole('table', { name: 'Saldos das contas' });
    expect(within(table).getByRole('row', { name: /BANCO DO BRASIL/ })).toHaveTextContent(
      'BANCO DO BRASILR$ 1.000,10R$ 500,00R$ 200,05R$ 1.300,05',
    );
    // Summed in cents: 0.2 + 0.1 is 0.30.
    expect(within(table).getByRole('row', { name: /Total/ })).toHaveTextContent(
      'TotalR$ 1.000,30R$ 500,10R$ 200,05R$ 1.300,35',
    );
  });

  it('transfers between two different accounts', async () => {
    const user = userEvent.setup();
    const success = vi.spyOn(notify, 'success');
    renderWith(<BankTools meta={bancoMeta} metas={metas} />, {
      mocks: [
        banksMock,
        actionMock(
          'movimentacaobancaria',
          'transferencia',
          { BCO_ID_ORIGEM: 1, BCO_ID_DESTINO: 2, DATA: TODAY, VALOR: '1234.56', HISTORICO: 'SUPRIMENTO DO CAIXA' },
          [{ MBCA_ID: 1 }, { MBCA_ID: 2 }],
        ),
      ] as never,
    });
    await user.click(screen.getByRole('button', { name: 'Transferência entre contas' }));
    const dialog = await screen.findByRole('dialog', { name: 'Transferência entre contas' }, SLOW);
    await within(dialog).findAllByRole('option', { name: 'CAIXA GERAL' });
    await user.selectOptions(within(dialog).getByLabelText(/^Conta de origem/), '1');
    await user.selectOptions(within(dialog).getByLabelText(/^Conta de destino/), '1');
    await user.type(within(dialog).getByLabelText(/^Valor/), '1234,56');
    await user.type(within(dialog).getByLabelText(/^Histórico/), 'SUPRIMENTO DO CAIXA');
    await user.click(within(dialog).getByRole('button', { name: 'Transferir' }));
    expect(await within(dialog).findByText(SAME_ACCOUNT)).toBeInTheDocument();

    await user.selectOptions(within(dialog).getByLabelText(/^Conta de destino/), '2');
    await user.click(within(dialog).getByRole('button', { name: 'Transferir' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Transferência realizada com sucesso!'));
    expect(screen.queryByRole('dialog', { name: 'Transferência entre contas' })).toBeNull();
  });
});
