import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiDateOf, formatDate } from '../../lib/format';
import { monthPeriod } from '../../lib/period';
import { ResourceListDocument, ResourceMetasDocument } from '../../lib/resources/documents';
import { notify } from '../../lib/toast';
import { renderWith, signIn } from '../../test/utils';
import { resetReportDefinitions } from './definitions';
import ReportPage, { EMPTY_REPORT } from './ReportPage';
import ReportRoute from './ReportRoute';
import { parseDefinitions, type ReportDefinition } from './types';

const MONTH = monthPeriod(apiDateOf());

const metasMock = { request: { query: ResourceMetasDocument }, result: { data: { resourceMetas: [] } } };
const groupsMock = {
  request: {
    query: ResourceListDocument,
    variables: { name: 'grupo', emp: 1, input: { filter: null, limit: 20, page: 1 } },
  },
  result: {
    data: {
      resourceList: {
        __typename: 'ResourcePage',
        rows: [
          { id: 3, text: 'BEBIDAS' },
          { id: 4, text: 'LANCHES' },
        ],
        total: 2,
      },
    },
  },
  maxUsageCount: 5,
};
const mocks = [metasMock, groupsMock] as never;

/** As the server lists it (GET /relatorios/definicoes/1). */
const salesRaw = {
  NOME: 'vendas',
  TITULO: 'Relatório de Vendas',
  ROTA: '/relatoriodevendas',
  CAMINHO: '/vendas/reports',
  ORIENTACAO: 'paisagem',
  FILTROS: [
    { CAMPO: 'DATA_INI', ROTULO: 'Data inicial', TIPO: 'data', OBRIGATORIO: true },
    { CAMPO: 'DATA_FIM', ROTULO: 'Data final', TIPO: 'data', OBRIGATORIO: true },
    { CAMPO: 'GRUP_ID', ROTULO: 'Grupo', TIPO: 'referencia', REGISTRO: 'grupo', OBRIGATORIO: true },
    { CAMPO: 'CLI_ID', ROTULO: 'Cliente', TIPO: 'referencia', REGISTRO: 'clientes', OBRIGATORIO: false },
    {
      CAMPO: 'SITUACAO',
      ROTULO: 'Situação',
      TIPO: 'opcoes',
      OPCOES: [
        ['F', 'Faturado'],
        ['A', 'Aberto'],
      ],
      OBRIGATORIO: false,
      PADRAO: 'F',
    },
    {
      CAMPO: 'TIPO',
      ROTULO: 'Tipo',
      TIPO: 'opcoes',
      OPCOES: [
        [1, 'Analítico'],
        [2, 'Sintético'],
      ],
      OBRIGATORIO: false,
      PADRAO: '1',
    },
    { CAMPO: 'VEND_ID', ROTULO: 'Vendedor', TIPO: 'inteiro', OBRIGATORIO: false },
    { CAMPO: 'OBS', ROTULO: 'Observação', TIPO: 'texto', OBRIGATORIO: false },
  ],
  COLUNAS: [
    { CAMPO: 'PEDI_ID', ROTULO: 'Pedido', TIPO: 'inteiro' },
    { CAMPO: 'PEDI_DATA', ROTULO: 'Data', TIPO: 'data' },
    { CAMPO: 'CLI_DESCRICAO', ROTULO: 'Cliente', TIPO: 'texto' },
    { CAMPO: 'QTDE', ROTULO: 'Quantidade', TIPO: 'quantidade' },
    { CAMPO: 'VALOR', ROTULO: 'Valor', TIPO: 'dinheiro' },
    { CAMPO: 'MARGEM', ROTULO: 'Margem', TIPO: 'percentual' },
  ],
};
const [sales] = parseDefinitions([salesRaw]);

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

type Call = [string, RequestInit];
const calls = (fetchMock: { mock: { calls: unknown[][] } }) => fetchMock.mock.calls as unknown as Call[];
const bodyOf = (call: Call) => JSON.parse(String(call[1].body)) as Record<string, unknown>;

beforeEach(() => {
  window.innerWidth = 1920;
  signIn();
  resetReportDefinitions();
  URL.createObjectURL = vi.fn(() => 'blob:relatorio');
  URL.revokeObjectURL = vi.fn();
});

afterEach(() => vi.restoreAllMocks());

/** The filters filled as a user would: the required group chosen. */
async function chooseGroup(user: ReturnType<typeof userEvent.setup>) {
  await screen.findByRole('option', { name: 'BEBIDAS' });
  await user.selectOptions(screen.getByLabelText(/^Grupo/), '3');
}

describe('report definitions', () => {
  it('are read defensively: a definition without route or call is left out', () => {
    const defs = parseDefinitions([
      salesRaw,
      { NOME: 'sem-rota', CAMINHO: '/x/reports' },
      { NOME: 'estranho', ROTA: 'relatorioscompras', CAMINHO: 'compras/reports', MENSAL: 'S', FILTROS: [{}] },
    ]);
    expect(defs.map((d) => d.NOME)).toEqual(['vendas', 'estranho']);
    expect(defs[1]).toMatchObject({ CAMINHO: '/compras/reports', MENSAL: true, FILTROS: [], COLUNAS: [] });
    expect(defs[0].FILTROS[5].OPCOES).toEqual([
      [1, 'Analítico'],
      [2, 'Sintético'],
    ]);
  });
});

describe('report filters', () => {
  it('builds the form from the definition, the period this month, and asks for the required filters', async () => {
    const user = userEvent.setup();
    const fetchMock = vi.spyOn(globalThis, 'fetch');
    renderWith(<ReportPage def={sales} />, { mocks });
    expect(screen.getByLabelText(/^Data inicial/)).toHaveValue(formatDate(MONTH.DATA_INI));
    expect(screen.getByLabelText(/^Data final/)).toHaveValue(formatDate(MONTH.DATA_FIM));
    expect(MONTH.DATA_INI.endsWith('-01')).toBe(true);
    // A reference to a short register is a combobox of its rows; a long one is searched.
    expect(screen.getByLabelText(/^Grupo/).tagName).toBe('SELECT');
    expect(screen.getByRole('combobox', { name: 'Cliente' })).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByLabelText('Situação')).toHaveValue('F');
    expect(
      within(screen.getByLabelText('Situação'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Selecione', 'Faturado', 'Aberto']);
    expect(screen.getByLabelText('Tipo')).toHaveValue('1');
    expect(screen.getByLabelText('Vendedor')).toHaveValue('');
    expect(screen.getByLabelText('Observação')).toHaveValue('');
    for (const name of ['relatorio-gerar', 'relatorio-pdf', 'relatorio-excel']) {
      expect(screen.getByTestId(name)).toBeEnabled();
    }
    expect(screen.getByTestId('relatorio-gerar')).toHaveTextContent('Gerar');
    expect(screen.getByTestId('relatorio-pdf')).toHaveTextContent('PDF');
    expect(screen.getByTestId('relatorio-excel')).toHaveTextContent('Excel');

    await user.clear(screen.getByLabelText(/^Data inicial/));
    await user.click(screen.getByTestId('relatorio-gerar'));
    expect(await screen.findByText('Data inicial é obrigatório!')).toBeInTheDocument();
    expect(screen.getByText('Grupo é obrigatório!')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Data inicial/)).toHaveFocus();
    await user.click(screen.getByTestId('relatorio-pdf'));
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('adds the period when the definition does not list it, and refuses an end before the start', async () => {
    const user = userEvent.setup();
    const [def] = parseDefinitions([{ ...salesRaw, FILTROS: [] }]);
    const fetchMock = vi.spyOn(globalThis, 'fetch');
    renderWith(<ReportPage def={def} />, { mocks });
    const start = screen.getByLabelText(/^Data inicial/);
    const end = screen.getByLabelText(/^Data final/);
    expect(start).toHaveValue(formatDate(MONTH.DATA_INI));
    await user.clear(end);
    await user.type(end, '01/01/2000');
    await user.click(screen.getByTestId('relatorio-gerar'));
    expect(await screen.findByText('A data final deve ser igual ou posterior à inicial.')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('report call', () => {
  it('posts the filters (dates yyyy-MM-dd) with FORMATO json, with no timeout, and shows rows and totals', async () => {
    const user = userEvent.setup();
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      json({
        dados: [
          {
            PEDI_ID: 1201,
            PEDI_DATA: '2026-03-05',
            CLI_DESCRICAO: 'JOÃO DA SILVA',
            QTDE: 2.5,
            VALOR: '1234.56',
            MARGEM: 12.345,
          },
          { PEDI_ID: 1202, PEDI_DATA: '2026-03-06T10:00:00', CLI_DESCRICAO: 'MARIA', QTDE: '1', VALOR: 0.1, MARGEM: 5 },
        ],
        totais: { QTDE: 3.5, VALOR: '1234.66' },
        filtros: {},
      }),
    );
    renderWith(<ReportPage def={sales} />, { mocks });
    await chooseGroup(user);
    await user.selectOptions(screen.getByLabelText('Tipo'), '2');
    await user.type(screen.getByLabelText('Vendedor'), '7');
    await user.type(screen.getByLabelText('Observação'), '  balcão ');
    await user.clear(screen.getByLabelText(/^Data inicial/));
    await user.type(screen.getByLabelText(/^Data inicial/), '01/03/2026');
    await user.clear(screen.getByLabelText(/^Data final/));
    await user.type(screen.getByLabelText(/^Data final/), '31/03/2026');
    await user.click(screen.getByTestId('relatorio-gerar'));

    const table = await screen.findByTestId('relatorio-tabela');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [call] = calls(fetchMock);
    expect(call[0]).toBe('/vendas/reports');
    expect(call[1].method).toBe('POST');
    expect(call[1].headers).toMatchObject({ authorization: 'Bearer token-123', 'content-type': 'application/json' });
    // Reports take as long as the server needs: no abort signal.
    expect(call[1].signal).toBeUndefined();
    expect(bodyOf(call)).toEqual({
      EMP_ID: 1,
      DATA_INI: '2026-03-01',
      DATA_FIM: '2026-03-31',
      GRUP_ID: 3,
      CLI_ID: null,
      SITUACAO: 'F',
      TIPO: 2,
      VEND_ID: 7,
      OBS: 'balcão',
      FORMATO: 'json',
    });

    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual(['Pedido', 'Data', 'Cliente', 'Quantidade', 'Valor', 'Margem']);
    const first = within(table).getByRole('row', { name: /JOÃO DA SILVA/ });
    expect(
      within(first)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['1201', '05/03/2026', 'JOÃO DA SILVA', '2,5000', 'R$ 1.234,56', '12,35%']);
    expect(within(first).getAllByRole('cell')[4]).toHaveClass('text-right');
    const second = within(table).getByRole('row', { name: /MARIA/ });
    expect(second).toHaveTextContent('06/03/2026');
    expect(second).toHaveTextContent('R$ 0,10');
    const totals = screen.getByTestId('relatorio-totais');
    expect(
      within(totals)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Total', '', '', '3,5000', 'R$ 1.234,66', '']);
    expect(screen.getByText('2 registros')).toBeInTheDocument();
  });

  it('shows the empty message when the server answers 204', async () => {
    const user = userEvent.setup();
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(null, { status: 204 }));
    renderWith(<ReportPage def={sales} />, { mocks });
    await chooseGroup(user);
    await user.click(screen.getByTestId('relatorio-gerar'));
    expect(await screen.findByTestId('relatorio-vazio')).toHaveTextContent(EMPTY_REPORT);
    expect(screen.queryByTestId('relatorio-tabela')).toBeNull();
  });

  it("shows a spinner while the report runs and the server's msg when it refuses", async () => {
    const user = userEvent.setup();
    const error = vi.spyOn(notify, 'error');
    let answer: (r: Response) => void = () => undefined;
    vi.spyOn(globalThis, 'fetch').mockReturnValue(new Promise<Response>((resolve) => (answer = resolve)));
    renderWith(<ReportPage def={sales} />, { mocks });
    await chooseGroup(user);
    await user.click(screen.getByTestId('relatorio-gerar'));
    expect(await screen.findByTestId('relatorio-carregando')).toHaveTextContent('Gerando relatório...');
    expect(screen.getByTestId('relatorio-gerar')).toBeDisabled();
    expect(screen.getByTestId('relatorio-excel')).toBeDisabled();
    answer(json({ code: 400, msg: 'O período não pode passar de um ano.' }, 400));
    expect(await screen.findByTestId('relatorio-erro')).toHaveTextContent('O período não pode passar de um ano.');
    expect(error).toHaveBeenCalledWith('O período não pode passar de um ano.');
    expect(screen.queryByTestId('relatorio-carregando')).toBeNull();
    expect(screen.getByTestId('relatorio-gerar')).toBeEnabled();
  });

  it('shows the PDF in the page with its download link', async () => {
    const user = userEvent.setup();
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      new Response('%PDF-1.7 vendas', {
        status: 200,
        headers: { 'content-type': 'application/pdf', 'content-disposition': 'inline; filename="vendas-03-2026.pdf"' },
      }),
    );
    renderWith(<ReportPage def={sales} />, { mocks });
    await chooseGroup(user);
    await user.click(screen.getByTestId('relatorio-pdf'));
    const link = await screen.findByRole('link', { name: 'Baixar PDF' });
    expect(link).toHaveAttribute('download', 'vendas-03-2026.pdf');
    expect(link).toHaveAttribute('href', 'blob:relatorio');
    expect(screen.getByLabelText('Relatório de Vendas', { selector: 'object' })).toHaveAttribute(
      'data',
      'blob:relatorio',
    );
    const [call] = calls(fetchMock);
    expect(call[0]).toBe('/vendas/reports');
    expect(bodyOf(call)).toMatchObject({ FORMATO: 'pdf', GRUP_ID: 3, DATA_INI: MONTH.DATA_INI });
    expect(call[1].signal).toBeUndefined();
  });

  it('downloads the spreadsheet under the name the server gives, and says nothing came on 204', async () => {
    const user = userEvent.setup();
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    const fetchMock = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(
        new Response('PK\u0003\u0004', {
          status: 200,
          headers: {
            'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
            'content-disposition': 'attachment; filename="vendas-03-2026.xlsx"',
          },
        }),
      )
      .mockResolvedValueOnce(new Response(null, { status: 204 }));
    renderWith(<ReportPage def={sales} />, { mocks });
    await chooseGroup(user);
    await user.click(screen.getByTestId('relatorio-excel'));
    expect(await screen.findByText('vendas-03-2026.xlsx')).toBeInTheDocument();
    expect(clicked).toEqual(['vendas-03-2026.xlsx']);
    expect(bodyOf(calls(fetchMock)[0])).toMatchObject({ FORMATO: 'xlsx' });
    expect(calls(fetchMock)[0][1].signal).toBeUndefined();

    await user.click(screen.getByTestId('relatorio-excel'));
    expect(await screen.findByTestId('relatorio-vazio')).toHaveTextContent(EMPTY_REPORT);
    expect(clicked).toHaveLength(1);
  });
});

describe('sending a report', () => {
  const SLOW = { timeout: 4000 };
  const queued = (msg: string) => json({ msg, MENS_ID: 11 });
  const pdfAnswer = () =>
    new Response('%PDF-1.7 vendas', {
      status: 200,
      headers: { 'content-type': 'application/pdf', 'content-disposition': 'inline; filename="vendas.pdf"' },
    });
  /** The period of November 2026 and the required group, as a user fills them. */
  async function fill(user: ReturnType<typeof userEvent.setup>) {
    await chooseGroup(user);
    await user.clear(screen.getByLabelText(/^Data inicial/));
    await user.type(screen.getByLabelText(/^Data inicial/), '01/11/2026');
    await user.clear(screen.getByLabelText(/^Data final/));
    await user.type(screen.getByLabelText(/^Data final/), '30/11/2026');
  }
  const formOf = (call: Call) => call[1].body as FormData;

  it('is offered only for a result on screen: not before, not while it runs, not for an empty period', async () => {
    const user = userEvent.setup();
    let answer: (r: Response) => void = () => undefined;
    vi.spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(new Response(null, { status: 204 }))
      .mockReturnValueOnce(new Promise<Response>((resolve) => (answer = resolve)));
    renderWith(<ReportPage def={sales} />, { mocks });
    await chooseGroup(user);
    expect(screen.queryByTestId('relatorio-enviar-email')).toBeNull();
    expect(screen.queryByTestId('relatorio-enviar-whatsapp')).toBeNull();
    await user.click(screen.getByTestId('relatorio-pdf'));
    expect(await screen.findByTestId('relatorio-vazio')).toBeInTheDocument();
    expect(screen.queryByTestId('relatorio-enviar-email')).toBeNull();
    await user.click(screen.getByTestId('relatorio-pdf'));
    expect(await screen.findByTestId('relatorio-carregando')).toBeInTheDocument();
    expect(screen.queryByTestId('relatorio-enviar-email')).toBeNull();
    answer(pdfAnswer());
    expect(await screen.findByTestId('relatorio-enviar-email')).toHaveTextContent('Enviar por e-mail');
    expect(screen.getByTestId('relatorio-enviar-whatsapp')).toHaveTextContent('Enviar por WhatsApp');
  });

  it('sends by e-mail the spreadsheet last asked, with the filters of the result on screen', async () => {
    const user = userEvent.setup();
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const fetchMock = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(
        new Response('PK\u0003\u0004', {
          status: 200,
          headers: {
            'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
            'content-disposition': 'attachment; filename="vendas.xlsx"',
          },
        }),
      )
      .mockResolvedValueOnce(queued('E-mail agendado com sucesso!'));
    renderWith(<ReportPage def={sales} />, { mocks });
    await fill(user);
    await user.click(screen.getByTestId('relatorio-excel'));
    await screen.findByText('vendas.xlsx');
    // A filter changed after the result is not what is sent: the result's are.
    await user.type(screen.getByLabelText('Observação'), 'depois');
    await user.click(screen.getByTestId('relatorio-enviar-email'));
    const email = await screen.findByRole('dialog', { name: 'Enviar e-mail' }, SLOW);
    const label = 'Relatório de Vendas (01/11/2026 a 30/11/2026)';
    expect(within(email).getByLabelText('Assunto')).toHaveValue(label);
    expect(within(email).getByLabelText('Documento anexado')).toHaveTextContent(label);
    await user.type(within(email).getByLabelText(/^Destinatários \(/), 'diretoria@empresa.com.br;');
    await user.click(within(email).getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    const call = calls(fetchMock)[1];
    expect(call[0]).toBe('/email/send');
    const form = formOf(call);
    expect(form.get('MENS_DOC_TIPO')).toBe('relatorio');
    expect(form.get('MENS_DOC_ID')).toBeNull();
    expect(form.get('MENS_DOC_REF')).toBe(
      JSON.stringify({
        relatorio: 'vendas',
        FORMATO: 'xlsx',
        DATA_INI: '2026-11-01',
        DATA_FIM: '2026-11-30',
        GRUP_ID: 3,
        CLI_ID: null,
        SITUACAO: 'F',
        TIPO: 1,
        VEND_ID: null,
        OBS: null,
      }),
    );
    expect(form.get('MENS_DESTINATARIO')).toBe('diretoria@empresa.com.br');
    expect(form.get('MENS_ASSUNTO')).toBe(label);
    expect(form.get('file')).toBeNull();
  });

  it('sends by WhatsApp the PDF, whatever was asked last', async () => {
    const user = userEvent.setup();
    const fetchMock = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(json({ dados: [{ PEDI_ID: 1 }], totais: {}, filtros: {} }))
      .mockResolvedValueOnce(queued('Whatsapp Agendado com sucesso!'));
    renderWith(<ReportPage def={sales} />, { mocks });
    await fill(user);
    await user.click(screen.getByTestId('relatorio-gerar'));
    await screen.findByTestId('relatorio-tabela');
    await user.click(screen.getByTestId('relatorio-enviar-whatsapp'));
    const dialog = await screen.findByRole('dialog', { name: /WhatsApp/ }, SLOW);
    expect(within(dialog).getByLabelText('Documento anexado')).toHaveTextContent(
      'Relatório de Vendas (01/11/2026 a 30/11/2026)',
    );
    await user.type(within(dialog).getByLabelText(/Número/), '11987654321{Enter}');
    await user.click(within(dialog).getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    const call = calls(fetchMock)[1];
    expect(call[0]).toBe('/whatsapp/send');
    const form = formOf(call);
    expect(form.get('MENS_DOC_TIPO')).toBe('relatorio');
    expect(form.get('MENS_DOC_ID')).toBeNull();
    expect(JSON.parse(String(form.get('MENS_DOC_REF')))).toMatchObject({ relatorio: 'vendas', FORMATO: 'pdf' });
    expect(form.get('MENS_DESTINATARIO')).toBe('5511987654321');
    expect(form.get('MENS_TIPO')).toBe('D');
  });
});

describe('report layouts', () => {
  const run = async (def: ReportDefinition, answer: unknown) => {
    const user = userEvent.setup();
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(json(answer));
    renderWith(<ReportPage def={def} />, { mocks });
    await user.click(screen.getByTestId('relatorio-gerar'));
    return { user, table: await screen.findByTestId('relatorio-tabela') };
  };

  it('groups the rows of AGRUPA with a subtotal each (summed in cents)', async () => {
    const [def] = parseDefinitions([
      {
        NOME: 'produtos',
        TITULO: 'Vendas de Produtos',
        ROTA: '/relatoriovendadeprodutos',
        CAMINHO: '/relatoriovendasprodutos',
        AGRUPA: 'GRUP_DESCRICAO',
        COLUNAS: [
          { CAMPO: 'GRUP_DESCRICAO', ROTULO: 'Grupo', TIPO: 'texto' },
          { CAMPO: 'PROD_DESCRICAO', ROTULO: 'Produto', TIPO: 'texto' },
          { CAMPO: 'QTDE', ROTULO: 'Qtde', TIPO: 'quantidade' },
          { CAMPO: 'VALOR', ROTULO: 'Valor', TIPO: 'dinheiro' },
        ],
      },
    ]);
    const { table } = await run(def, {
      dados: [
        { GRUP_DESCRICAO: 'BEBIDAS', PROD_DESCRICAO: 'ÁGUA', QTDE: 0.1, VALOR: 0.1 },
        { GRUP_DESCRICAO: 'LANCHES', PROD_DESCRICAO: 'COXINHA', QTDE: 3, VALOR: '10.00' },
        { GRUP_DESCRICAO: 'BEBIDAS', PROD_DESCRICAO: 'SUCO', QTDE: 0.2, VALOR: 0.2 },
      ],
      totais: { QTDE: 3.3, VALOR: 10.3 },
    });
    // The grouped column heads its groups instead of being a column.
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Produto', 'Qtde', 'Valor']);
    expect(screen.getAllByTestId('relatorio-grupo').map((g) => g.textContent)).toEqual([
      'Grupo: BEBIDAS',
      'Grupo: LANCHES',
    ]);
    const subtotals = screen.getAllByTestId('relatorio-subtotal');
    expect(
      subtotals.map((s) =>
        within(s)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['Subtotal', '0,3000', 'R$ 0,30'],
      ['Subtotal', '3,0000', 'R$ 10,00'],
    ]);
    // The rows follow their group's heading, in the order they came.
    const rows = within(table)
      .getAllByRole('row')
      .map((r) => r.textContent);
    expect(rows.slice(1, 5)).toEqual([
      'Grupo: BEBIDAS',
      'ÁGUA0,1000R$ 0,10',
      'SUCO0,2000R$ 0,20',
      'Subtotal0,3000R$ 0,30',
    ]);
    expect(screen.getByTestId('relatorio-totais')).toHaveTextContent('Total3,3000R$ 10,30');
  });

  const curveRaw = {
    NOME: 'curvaprodutos',
    TITULO: 'Curva de Produtos',
    ROTA: '/relatoriocurvadeprodutos',
    CAMINHO: '/curvaprodutos/reports',
    MENSAL: true,
    COLUNAS: [
      { CAMPO: 'PROD_DESCRICAO', ROTULO: 'Produto', TIPO: 'texto' },
      ...Array.from({ length: 13 }, (_, i) => ({ CAMPO: `M${i + 1}`, ROTULO: `M${i + 1}`, TIPO: 'dinheiro' })),
    ],
  };
  const months = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`M${i + 1}`, (i + 1) * 100]));
  const curveAnswer = {
    dados: [{ PROD_DESCRICAO: 'CERVEJA', ...months, M13: 7800 }],
    totais: { ...months, M13: 7800 },
  };

  it('shows the monthly curve with the months as columns and the total', async () => {
    const [def] = parseDefinitions([curveRaw]);
    const { table } = await run(def, curveAnswer);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Produto', 'Jan', 'Fev', 'Mar', 'Abr', 'Mai', 'Jun', 'Jul', 'Ago', 'Set', 'Out', 'Nov', 'Dez', 'Total']);
    const row = within(table).getByRole('row', { name: /CERVEJA/ });
    const cells = within(row)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells[1]).toBe('R$ 100,00');
    expect(cells[12]).toBe('R$ 1.200,00');
    expect(cells[13]).toBe('R$ 7.800,00');
    expect(screen.getByTestId('relatorio-totais')).toHaveTextContent(/^TotalR\$ 100,00.*R\$ 7\.800,00$/);
  });

  it('on mobile shows the curve one month at a time, the total first', async () => {
    window.innerWidth = 390;
    const [def] = parseDefinitions([curveRaw]);
    const { user, table } = await run(def, curveAnswer);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Produto', 'Total']);
    expect(screen.getByTestId('relatorio-mes')).toHaveTextContent('Total');
    expect(screen.getByRole('button', { name: 'Próximo mês' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Mês anterior' }));
    expect(screen.getByTestId('relatorio-mes')).toHaveTextContent('Dez');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Produto', 'Dez']);
    expect(within(table).getByRole('row', { name: /CERVEJA/ })).toHaveTextContent('CERVEJAR$ 1.200,00');
  });

  it("shows an ABC curve's class as a badge and its percentages", async () => {
    const [def] = parseDefinitions([
      {
        NOME: 'curvaclientes',
        TITULO: 'Curva ABC de Clientes',
        ROTA: '/relatorioscurvadeclientes',
        CAMINHO: '/curvaClientes/reports',
        COLUNAS: [
          { CAMPO: 'CLI_DESCRICAO', ROTULO: 'Cliente', TIPO: 'texto' },
          { CAMPO: 'VALOR', ROTULO: 'Valor', TIPO: 'dinheiro' },
          { CAMPO: 'PARTICIPACAO', ROTULO: 'Part. %', TIPO: 'percentual' },
          { CAMPO: 'ACUMULADO', ROTULO: 'Acum. %', TIPO: 'percentual' },
          { CAMPO: 'CLASSE', ROTULO: 'Classe', TIPO: 'texto' },
        ],
      },
    ]);
    const { table } = await run(def, {
      dados: [
        { CLI_DESCRICAO: 'ATACADÃO', VALOR: 8000, PARTICIPACAO: 80, ACUMULADO: 80, CLASSE: 'A' },
        { CLI_DESCRICAO: 'MERCADINHO', VALOR: 1500, PARTICIPACAO: 15, ACUMULADO: 95, CLASSE: 'B' },
        { CLI_DESCRICAO: 'PADARIA', VALOR: 500, PARTICIPACAO: 5, ACUMULADO: 100, CLASSE: 'C' },
      ],
      totais: { VALOR: 10000, PARTICIPACAO: 100 },
    });
    const badges = within(table).getAllByTestId('relatorio-classe');
    expect(badges.map((b) => b.textContent)).toEqual(['A', 'B', 'C']);
    expect(badges[0]).toHaveClass('bg-emerald-100');
    expect(badges[2]).toHaveClass('bg-rose-100');
    expect(within(table).getByRole('row', { name: /MERCADINHO/ })).toHaveTextContent(
      'MERCADINHOR$ 1.500,0015,00%95,00%B',
    );
    expect(screen.getByTestId('relatorio-totais')).toHaveTextContent('TotalR$ 10.000,00100,00%');
  });
});

describe('report route', () => {
  const definitions = [salesRaw];
  const renderRoute = (path: string) =>
    renderWith(
      <Routes>
        <Route path="*" element={<ReportRoute fallback={<p>Tela de antes</p>} />} />
      </Routes>,
      { route: path, mocks },
    );

  it("finds the route's definition among the company's, read once and kept", async () => {
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockImplementation(async () => json(definitions));
    const first = renderRoute('/relatoriodevendas');
    expect(await screen.findByTestId('relatorio-gerar')).toBeInTheDocument();
    expect(document.title).toMatch(/^Relatório de Vendas/);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = calls(fetchMock)[0];
    expect(url).toBe('/relatorios/definicoes/1');
    expect(init.method).toBe('GET');
    expect(init.headers).toMatchObject({ authorization: 'Bearer token-123' });
    first.unmount();

    // Kept: another report screen does not read them again.
    renderRoute('/relatoriosclientes/');
    expect(await screen.findByText('Tela de antes')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('shows what the path showed before when the definitions cannot be read', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(json({ code: 404, msg: 'Not Found' }, 404));
    renderRoute('/relatoriodevendas');
    expect(screen.getByRole('status')).toHaveTextContent('Carregando');
    expect(await screen.findByText('Tela de antes')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('relatorio-gerar')).toBeNull());
  });
});
