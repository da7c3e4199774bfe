import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addDays, apiDateOf, formatDate } from '../../lib/format';
import { ResourceActionDocument, ResourceGetDocument, ResourceListDocument } from '../../lib/resources/documents';
import type { ResourceMeta } from '../../lib/resources/metaFields';
import { notify } from '../../lib/toast';
import type { Row } from '../../lib/api';
import { clientesMeta, mockRow, payablesSettlementMeta, receivablesMeta, payablesMeta } from '../../test/fixtures';
import { program, renderWith, signIn } from '../../test/utils';
import CustomerCredit from './CustomerCredit';
import FreeReceiptPage from './FreeReceiptPage';
import PayablesSettlementPage from './PayablesSettlementPage';
import TitlesListPage, { TITLES_LIMIT } from './TitlesListPage';

const TODAY = apiDateOf();
const YESTERDAY = addDays(TODAY, -1);
const metas: ResourceMeta[] = [receivablesMeta, payablesMeta, payablesSettlementMeta, clientesMeta];
// The debounced preview and the lazy dialogs take a moment.
const SLOW = { timeout: 4000 };

const page = (rows: object[], total = rows.length) => ({
  data: { resourceList: { __typename: 'ResourcePage', rows, total } },
});
const listMock = (name: string, input: object, rows: object[], maxUsageCount = 1) => ({
  request: { query: ResourceListDocument, variables: { name, emp: 1, input } },
  result: page(rows),
  maxUsageCount,
});
const titlesMock = (rows: object[], where?: object, maxUsageCount = 1) =>
  listMock(
    'contasreceber',
    { filter: null, order: 'CRCB_DTA_VCTO', page: 1, limit: TITLES_LIMIT, ...(where ? { where } : {}) },
    rows,
    maxUsageCount,
  );
const optionsMock = (name: string, rows: object[]) => listMock(name, { filter: null, limit: 20, page: 1 }, rows, 5);
const actionMock = (
  name: string,
  action: string,
  params: object,
  body: unknown,
  answer: unknown,
  maxUsageCount = 1,
) => ({
  request: {
    query: ResourceActionDocument,
    variables: { name, action, params: { emp: 1, ...params }, ...(body !== undefined ? { body } : {}) },
  },
  result: { data: { resourceAction: answer } },
  maxUsageCount,
});

const title = (over: { [C in keyof Row<'contasreceber'>]?: unknown }) =>
  mockRow('contasreceber', {
    CRCB_ID: 31,
    CRCB_CLI_ID: 5,
    CLI_DESCRICAO: 'JOÃO DA SILVA',
    CRCB_DOCUMENTO: '40/1',
    CRCB_PARCELA: 1,
    CRCB_QTD_PARCELAS: 2,
    CRCB_DTA_EMIS: '2026-10-01',
    CRCB_DTA_VCTO: YESTERDAY,
    CRCB_VLR_CTA: '100.00',
    CRCB_VLR_PAGO: '0.00',
    SALDO: '100.00',
    CRCB_SITUACAO: 'A',
    CRCB_BCO_ID: null,
    CRCB_FRMP_ID: null,
    ...over,
  });
const overdue = title({});
const upcoming = title({ CRCB_ID: 32, CRCB_PARCELA: 2, CRCB_DTA_VCTO: addDays(TODAY, 30) });
const paid = title({
  CRCB_ID: 33,
  CRCB_DOCUMENTO: '41/1',
  CRCB_PARCELA: 1,
  CRCB_QTD_PARCELAS: 1,
  CRCB_DTA_VCTO: '2026-01-10',
  CRCB_VLR_CTA: '50.00',
  CRCB_VLR_PAGO: '50.00',
  SALDO: '0.00',
  CRCB_SITUACAO: 'Q',
});

const pdfResponse = (name: string) =>
  new Response('%PDF-1.7 recibo', {
    status: 200,
    headers: { 'content-type': 'application/pdf', 'content-disposition': `inline; filename="${name}"` },
  });

beforeEach(() => {
  window.innerWidth = 1920;
  signIn({
    programs: [
      program({ id: 611, name: 'contasareceber', webPath: '/contasareceber' }),
      program({ id: 602, name: 'baixacontaspagar', webPath: '/baixacontaspagar' }),
      program({ id: 612, name: 'reciboavulso', webPath: '/reciboavulso' }),
      program({ id: 1, name: 'clientes', webPath: '/clientes' }),
    ],
  });
  // jsdom has no object URLs.
  URL.createObjectURL = vi.fn(() => 'blob:recibo');
  URL.revokeObjectURL = vi.fn();
});

afterEach(() => vi.restoreAllMocks());

describe('receivables list', () => {
  it('lists the titles with their totals, tints and names the overdue ones, and filters by situation', async () => {
    const user = userEvent.setup();
    renderWith(<TitlesListPage meta={receivablesMeta} metas={metas} />, {
      mocks: [
        titlesMock([overdue, upcoming, paid]),
        optionsMock('banco', []),
        titlesMock([overdue], { CRCB_SITUACAO: ['A', 'P'], CRCB_DTA_VCTO_FIM: YESTERDAY }),
      ] as never,
    });
    const totals = await screen.findByRole('region', { name: 'Totais' });
    await waitFor(() => expect(within(totals).getByText('R$ 250,00')).toBeInTheDocument());
    expect(within(totals).getByText('R$ 50,00')).toBeInTheDocument();
    expect(within(totals).getByText('R$ 200,00')).toBeInTheDocument();
    // The overdue balance apart, in its own colour.
    expect(within(totals).getByText('R$ 100,00')).toHaveClass('text-error');

    const late = screen.getByRole('row', { name: /40\/1.*Aberto \(vencido\)/ });
    expect(late).toHaveAttribute('data-tone', 'danger');
    const onTime = screen.getAllByRole('row').find((r) => within(r).queryByText(formatDate(upcoming.CRCB_DTA_VCTO)));
    expect(onTime).not.toHaveAttribute('data-tone');
    expect(within(onTime as HTMLElement).getByText('Aberto')).toBeInTheDocument();
    // Open titles can be settled, paid ones show their settlements.
    expect(within(late).getByRole('button', { name: 'Baixar' })).toBeInTheDocument();
    const paidRow = screen.getByRole('row', { name: /41\/1/ });
    expect(within(paidRow).queryByRole('button', { name: 'Baixar' })).toBeNull();
    expect(within(paidRow).getByRole('button', { name: 'Baixas' })).toBeInTheDocument();
    expect(within(paidRow).getByRole('checkbox')).toBeDisabled();

    await user.click(screen.getByRole('radio', { name: 'Vencidas' }));
    await waitFor(() => expect(screen.queryByRole('row', { name: /41\/1/ })).toBeNull());
    expect(within(totals).getByText('1')).toBeInTheDocument();
  });

  it('lets only titles of the chosen customer be chosen together', async () => {
    const user = userEvent.setup();
    const other = title({ CRCB_ID: 34, CRCB_CLI_ID: 6, CLI_DESCRICAO: 'MARIA', CRCB_DOCUMENTO: '42/1' });
    renderWith(<TitlesListPage meta={receivablesMeta} metas={metas} />, {
      mocks: [titlesMock([overdue, upcoming, other]), optionsMock('banco', [])] as never,
    });
    const first = await screen.findByRole('checkbox', { name: /Título 31/ });
    const settleChosen = screen.getByRole('button', { name: /Baixar selecionados/ });
    expect(settleChosen).toBeDisabled();
    await user.click(first);
    expect(screen.getByRole('checkbox', { name: /Título 34/ })).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: /Título 32/ })).toBeEnabled();
    await user.click(screen.getByRole('checkbox', { name: /Título 32/ }));
    expect(settleChosen).toHaveTextContent('Baixar selecionados (2)');
  });
});

describe('settlement dialog', () => {
  it('pre-computes interest and fine, keeps the typed interest, settles and prints the receipt', async () => {
    const user = userEvent.setup();
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockResolvedValue(pdfResponse('recibo-9.pdf'));
    const success = vi.spyOn(notify, 'success');
    const settled = title({ CRCB_VLR_PAGO: '100.00', SALDO: '0.00', CRCB_SITUACAO: 'Q', CRCB_DTA_PAG: TODAY });
    renderWith(<TitlesListPage meta={receivablesMeta} metas={metas} />, {
      mocks: [
        titlesMock([overdue]),
        optionsMock('banco', [{ id: 1, text: 'CAIXA GERAL', BCO_ID: 1, BCO_DESCRICAO: 'CAIXA GERAL' }]),
        optionsMock('formapagamento', [{ id: 2, text: 'PIX', FRMP_ID: 2, FRMP_DESCRICAO: 'PIX' }]),
        actionMock('contasreceber', 'calculo', {}, { DATA: TODAY, TITULOS: [{ ID: 31, VALOR: '100.00' }] }, [
          {
            CRCB_ID: 31,
            JUROS: 0.03,
            MULTA: '2.00',
            DIAS_ATRASO: 1,
            PODE_BAIXAR: true,
            msg: 'Título pode ser baixado.',
          },
        ]),
        actionMock(
          'contasreceber',
          'baixa',
          {},
          {
            DATA: TODAY,
            BCO_ID: 1,
            FRMP_ID: 2,
            TITULOS: [{ ID: 31, VALOR: '100.00', JUROS: '1.50', MULTA: '2.00', DESCONTO: '0.00' }],
          },
          {
            code: 200,
            msg: 'Baixa realizada com sucesso.',
            BAIX_DTA: TODAY,
            BAIX_TOTAL: 103.5,
            baixas: [
              { BAIX_ID: 9, CRCB_ID: 31, BAIX_VALOR: 100, BAIX_JUROS: 1.5, BAIX_MULTA: 2, BAIX_TOTAL: 103.5, SALDO: 0 },
            ],
          },
        ),
        // The settlement evicts the titles: the list on screen is read again.
        titlesMock([settled]),
      ] as never,
    });
    await user.click(await screen.findByRole('button', { name: 'Baixar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Baixa de Títulos' }, SLOW);
    const line = within(dialog).getByRole('group', { name: /Título 31/ });

    await waitFor(() => expect(within(line).getByLabelText('Multa')).toHaveValue('2,00'), SLOW);
    expect(within(line).getByText('1 dia em atraso')).toBeInTheDocument();
    expect(within(line).getByLabelText('Juros')).toHaveValue('0,03');
    expect(within(dialog).getByLabelText(/^Data da baixa/)).toHaveValue(formatDate(TODAY));

    await user.clear(within(line).getByLabelText('Juros'));
    await user.type(within(line).getByLabelText('Juros'), '1,5');
    expect(within(line).getByLabelText(/^Total do Título 31/)).toHaveTextContent('R$ 103,50');
    const totals = within(dialog).getByLabelText('Totais da baixa');
    expect(totals).toHaveTextContent('R$ 103,50');
    await within(dialog).findByRole('option', { name: 'CAIXA GERAL' });
    await user.selectOptions(within(dialog).getByLabelText('Conta Bancária'), '1');
    await within(dialog).findByRole('option', { name: 'PIX' });
    await user.selectOptions(within(dialog).getByLabelText('Forma de Pagamento'), '2');
    await user.click(within(dialog).getByRole('button', { name: 'Confirmar baixa' }));

    await within(dialog).findByText('Baixa realizada com sucesso.');
    expect(success).toHaveBeenCalledWith('Baixa realizada com sucesso.');
    await waitFor(() => expect(screen.queryByText('Aberto (vencido)')).toBeNull());
    expect(within(screen.getByRole('row', { name: /40\/1/ })).getByText('Pago')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Imprimir recibo' }));
    const link = await within(dialog).findByRole('link', { name: 'Baixar PDF' });
    expect(link).toHaveAttribute('download', 'recibo-9.pdf');
    expect(link).toHaveAttribute('href', 'blob:recibo');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/contasreceber/recibo/9/1');
    expect(init.headers).toMatchObject({ authorization: 'Bearer token-123' });
  });

  it('shows a value above the balance and does not send it', async () => {
    const user = userEvent.setup();
    const warning = vi.spyOn(notify, 'warning');
    renderWith(<TitlesListPage meta={receivablesMeta} metas={metas} />, {
      mocks: [
        titlesMock([upcoming]),
        optionsMock('banco', []),
        optionsMock('formapagamento', []),
        actionMock('contasreceber', 'calculo', {}, { DATA: TODAY, TITULOS: [{ ID: 32, VALOR: '100.00' }] }, [
          { CRCB_ID: 32, JUROS: 0, MULTA: 0, DIAS_ATRASO: 0, PODE_BAIXAR: true },
        ]),
        actionMock('contasreceber', 'calculo', {}, { DATA: TODAY, TITULOS: [{ ID: 32, VALOR: '150.00' }] }, [
          { CRCB_ID: 32, JUROS: 0, MULTA: 0, DIAS_ATRASO: 0, PODE_BAIXAR: true },
        ]),
      ] as never,
    });
    await user.click(await screen.findByRole('button', { name: 'Baixar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Baixa de Títulos' }, SLOW);
    const value = within(dialog).getByLabelText('Valor');
    await user.clear(value);
    await user.type(value, '150');
    expect(
      await within(dialog).findByText('Valor da baixa do título 32 (R$ 150,00) maior que o saldo (R$ 100,00).'),
    ).toBeInTheDocument();
    const confirm = within(dialog).getByRole('button', { name: 'Confirmar baixa' });
    await waitFor(() => expect(confirm).toBeEnabled(), SLOW);
    await user.click(confirm);
    expect(warning).toHaveBeenCalledWith('Valor da baixa do título 32 (R$ 150,00) maior que o saldo (R$ 100,00).');
  });
});

describe("a title's settlements", () => {
  it('reverses one after confirmation and reads the settlements again', async () => {
    const user = userEvent.setup();
    const success = vi.spyOn(notify, 'success');
    const settlement = {
      BAIX_ID: 9,
      BAIX_TIT_ID: 33,
      BAIX_DTA: '2026-01-12',
      BAIX_VALOR: 50,
      BAIX_JUROS: 0.5,
      BAIX_MULTA: 1,
      BAIX_DESCONTO: 0,
      BAIX_TOTAL: 51.5,
      BCO_DESCRICAO: 'CAIXA GERAL',
      FRMP_DESCRICAO: 'PIX',
      BAIX_ESTORNADA: false,
      BAIX_DTA_ESTORNO: null,
    };
    renderWith(<TitlesListPage meta={receivablesMeta} metas={metas} />, {
      mocks: [
        titlesMock([paid]),
        optionsMock('banco', []),
        actionMock('contasreceber', 'baixas', { id: 33 }, undefined, [settlement]),
        actionMock('contasreceber', 'estorno', { id: 9 }, undefined, {
          code: 200,
          msg: 'Baixa estornada com sucesso.',
          BAIX_ID: 9,
          SALDO: 50,
          CRCB_ID: 33,
          CRCB_SITUACAO: 'A',
        }),
        actionMock('contasreceber', 'baixas', { id: 33 }, undefined, [
          { ...settlement, BAIX_ESTORNADA: true, BAIX_DTA_ESTORNO: '2026-11-24T10:00:00Z' },
        ]),
        titlesMock([title({ CRCB_ID: 33, CRCB_DOCUMENTO: '41/1', CRCB_VLR_CTA: '50.00', SALDO: '50.00' })]),
      ] as never,
    });
    await user.click(await screen.findByRole('button', { name: 'Baixas' }));
    const dialog = await screen.findByRole('dialog', { name: /Baixas do Título 33/ }, SLOW);
    const row = await within(dialog).findByRole('row', { name: /CAIXA GERAL/ });
    expect(row).toHaveTextContent('R$ 51,50');
    expect(row).toHaveTextContent('Ativa');
    await user.click(within(row).getByRole('button', { name: 'Estornar' }));
    const confirm = await screen.findByRole('dialog', { name: 'Estornar baixa' }, SLOW);
    expect(confirm).toHaveTextContent('Deseja estornar a baixa nº 9 de R$ 51,50?');
    await user.click(within(confirm).getByRole('button', { name: 'Estornar' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Baixa estornada com sucesso.'));
    expect(await within(dialog).findByText(/^Estornada em/)).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Estornar' })).toBeNull();
  });
});

describe("a receivable's receipt", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("is sent by WhatsApp to the customer's mobile, produced by the server from the title", async () => {
    const user = userEvent.setup();
    const fetchMock = vi.fn(
      async () =>
        new Response(JSON.stringify({ msg: 'Whatsapp Agendado com sucesso!', MENS_ID: 3 }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderWith(<TitlesListPage meta={receivablesMeta} metas={metas} />, {
      mocks: [
        titlesMock([paid]),
        optionsMock('banco', []),
        actionMock('contasreceber', 'baixas', { id: 33 }, undefined, [
          { BAIX_ID: 9, BAIX_DTA: '2026-01-12', BAIX_VALOR: 50, BAIX_TOTAL: 50, BAIX_ESTORNADA: false },
        ]),
        {
          request: { query: ResourceGetDocument, variables: { name: 'clientes', emp: 1, id: 5 } },
          // A landline (10 digits) is no WhatsApp number.
          result: { data: { resourceGet: { CLI_ID: 5, CLI_FONE: '1133334444;11987654321', CLI_EMAIL: null } } },
        },
      ] as never,
    });
    await user.click(await screen.findByRole('button', { name: 'Baixas' }));
    const dialog = await screen.findByRole('dialog', { name: /Baixas do Título 33/ }, SLOW);
    await user.click(await within(dialog).findByRole('button', { name: 'Enviar recibo por WhatsApp' }));
    const whatsapp = await screen.findByRole('dialog', { name: 'WhatsApp' }, SLOW);
    expect(within(whatsapp).getByRole('list', { name: 'Destinatários' })).toHaveTextContent('(11) 98765-4321');
    expect(within(whatsapp).getByRole('list', { name: 'Destinatários' })).not.toHaveTextContent('3333');
    expect(within(whatsapp).getByLabelText('Documento anexado')).toHaveTextContent(
      'Recibo da última baixa do Título 33',
    );
    await user.click(within(whatsapp).getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/whatsapp/send');
    const form = init.body as FormData;
    expect(form.get('MENS_DOC_TIPO')).toBe('recibo');
    expect(form.get('MENS_DOC_ID')).toBe('33');
    expect(form.get('MENS_DESTINATARIO')).toBe('5511987654321');
    expect(form.get('file')).toBeNull();
  });
});

describe('payables settlement screen', () => {
  it('lists the payables with their charges on the settlement date and settles the chosen ones at once', async () => {
    const user = userEvent.setup();
    const success = vi.spyOn(notify, 'success');
    const payable = (id: number, total: string) => ({
      CMPD_ID: id,
      CMPD_COMP_FORN_ID: 3,
      FORN_DESCRICAO: 'METALURGICA FIXA FORTE LTDA',
      CMPD_DOCUMENTO: `NF ${id}`,
      CMPD_PARCELA: 1,
      CMPD_DTA_VCTO: YESTERDAY,
      CMPD_VLR_TITULO: '100.00',
      CMPD_VLR_PAGO: '0.00',
      SALDO: '100.00',
      CMPD_SITUACAO: 'A',
      DIAS_ATRASO: 1,
      JUROS_CALC: '0.03',
      MULTA_CALC: '2.00',
      TOTAL_CALC: total,
    });
    const body = { DATA_BAIXA: TODAY, LIMIT: 20, PAGINATION: 0 };
    renderWith(<PayablesSettlementPage meta={payablesSettlementMeta} metas={metas} />, {
      mocks: [
        actionMock('baixacontaspagar', 'filtros', {}, body, {
          dados: [payable(4, '102.03'), payable(5, '102.03')],
          count: 2,
        }),
        optionsMock('banco', [{ id: 1, text: 'CAIXA GERAL', BCO_ID: 1, BCO_DESCRICAO: 'CAIXA GERAL' }]),
        optionsMock('formapagamento', []),
        actionMock(
          'baixacontaspagar',
          'rapida',
          {},
          { DATA: TODAY, BCO_ID: 1, TITULOS: [4, 5] },
          { code: 200, msg: 'Baixas realizadas com sucesso.', baixas: [] },
        ),
        actionMock('baixacontaspagar', 'filtros', {}, body, { dados: [], count: 0 }),
      ] as never,
    });
    const row = await screen.findByRole('row', { name: /NF 4/ });
    expect(row).toHaveTextContent('R$ 102,03');
    expect(row).toHaveAttribute('data-tone', 'danger');
    expect(screen.getByLabelText(/^Data da baixa/)).toHaveValue(formatDate(TODAY));
    await user.click(screen.getByRole('checkbox', { name: 'Selecionar todos' }));
    const chosen = screen.getByRole('region', { name: 'Selecionados' });
    expect(chosen).toHaveTextContent('2 títulos selecionados · Total a pagar: R$ 204,06');
    await user.click(within(chosen).getByRole('button', { name: /Baixar selecionados/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Baixar títulos selecionados' }, SLOW);
    expect(dialog).toHaveTextContent('2 títulos serão baixados');
    await within(dialog).findByRole('option', { name: 'CAIXA GERAL' });
    await user.selectOptions(within(dialog).getByLabelText('Conta Bancária'), '1');
    await user.click(within(dialog).getByRole('button', { name: 'Confirmar baixa' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Baixas realizadas com sucesso.'));
    expect(await screen.findByText('Nenhum item encontrado.')).toBeInTheDocument();
    expect(chosen).toHaveTextContent('0 títulos selecionados');
  });
});

describe("customer's credit", () => {
  it('shows the limit, the open balance and the credit available', async () => {
    renderWith(<CustomerCredit meta={clientesMeta} id={5} />, {
      mocks: [
        actionMock('clientescredito', 'limite_credito', { id: 5 }, undefined, {
          CLI_ID: 5,
          CLI_DESCRICAO: 'JOÃO DA SILVA',
          CLI_SITUACAO: 1,
          CLI_LIMITE_CREDITO: 1000,
          VALOR_UTILIZADO: 800,
          SALDO: 200,
        }),
      ] as never,
    });
    const panel = screen.getByRole('region', { name: 'Posição financeira' });
    expect(await within(panel).findByText('R$ 1.000,00')).toBeInTheDocument();
    expect(within(panel).getByText('R$ 800,00')).toBeInTheDocument();
    expect(within(panel).getByText('R$ 200,00')).toBeInTheDocument();
  });
});

describe('free-form receipt', () => {
  it('asks for the required fields, then renders the PDF and offers it for download', async () => {
    const user = userEvent.setup();
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockResolvedValue(pdfResponse('recibo-avulso.pdf'));
    renderWith(<FreeReceiptPage />);
    // Left empty, the company receives.
    expect(screen.getByLabelText(/^Recebedor/)).toHaveValue('');
    expect(screen.getByText(/Recebedor em branco: Empresa Teste LTDA recebe/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Gerar recibo' }));
    expect(screen.getByText('Valor é obrigatório!')).toBeInTheDocument();
    expect(screen.getByText('Pagador é obrigatório!')).toBeInTheDocument();
    expect(screen.getByText('Cidade é obrigatório!')).toBeInTheDocument();
    expect(screen.getByText('Referente é obrigatório!')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();

    await user.type(screen.getByLabelText(/^Valor/), '1.234,56');
    await user.type(screen.getByLabelText(/^Pagador/), 'JOÃO DA SILVA');
    await user.type(screen.getByLabelText(/^Cidade/), 'Caxias do Sul');
    await user.type(screen.getByLabelText(/^Referente/), 'Mensalidade de novembro');
    await user.click(screen.getByRole('button', { name: 'Gerar recibo' }));
    const preview = await screen.findByRole('region', { name: 'Visualização do recibo' });
    expect(within(preview).getByRole('link', { name: 'Baixar PDF' })).toHaveAttribute('download', 'recibo-avulso.pdf');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/reciboavulso/1');
    expect(JSON.parse(String(init.body))).toMatchObject({
      VALOR: 1234.56,
      PAGADOR: 'JOÃO DA SILVA',
      RECEBEDOR: null,
      REFERENTE: 'Mensalidade de novembro',
      CIDADE: 'Caxias do Sul',
      DATA: TODAY,
    });
  });

  it("shows the server's refusal as a toast and under the field it names", async () => {
    const user = userEvent.setup();
    const error = vi.spyOn(notify, 'error');
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      new Response(JSON.stringify({ code: 400, msg: 'Valor aceita no máximo 2 casas decimais.' }), {
        status: 400,
        headers: { 'content-type': 'application/json' },
      }),
    );
    renderWith(<FreeReceiptPage />);
    await user.type(screen.getByLabelText(/^Valor/), '10');
    await user.type(screen.getByLabelText(/^Pagador/), 'JOÃO DA SILVA');
    await user.type(screen.getByLabelText(/^Cidade/), 'Caxias do Sul');
    await user.type(screen.getByLabelText(/^Referente/), 'Aluguel');
    await user.click(screen.getByRole('button', { name: 'Gerar recibo' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('Valor aceita no máximo 2 casas decimais.'));
    expect(screen.getByLabelText(/^Valor/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getAllByText('Valor aceita no máximo 2 casas decimais.')).not.toHaveLength(0);
    expect(screen.queryByRole('region', { name: 'Visualização do recibo' })).toBeNull();
  });

  it('is refused to a user without the program', () => {
    signIn({ programs: [] });
    renderWith(<FreeReceiptPage />);
    expect(screen.getByText('Você não tem permissão para acessar esta tela.')).toBeInTheDocument();
  });
});
