import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addDays, apiDateOf } from '../../lib/format';
import { ResourceActionDocument, ResourceGetDocument, ResourceListDocument } from '../../lib/resources/documents';
import type { ResourceMeta } from '../../lib/resources/metaFields';
import { notify } from '../../lib/toast';
import type { Row } from '../../lib/api';
import { clientesMeta, mockRow, receivablesMeta } from '../../test/fixtures';
import { program, renderWith, signIn } from '../../test/utils';
import TitlesListPage, { TITLES_LIMIT } from './TitlesListPage';

const TODAY = apiDateOf();
const metas: ResourceMeta[] = [receivablesMeta, clientesMeta];
const SLOW = { timeout: 4000 };

const page = (rows: object[]) => ({ data: { resourceList: { __typename: 'ResourcePage', rows, total: rows.length } } });
const titlesMock = (rows: object[], maxUsageCount = 1) => ({
  request: {
    query: ResourceListDocument,
    variables: {
      name: 'contasreceber',
      emp: 1,
      input: { filter: null, order: 'CRCB_DTA_VCTO', page: 1, limit: TITLES_LIMIT },
    },
  },
  result: page(rows),
  maxUsageCount,
});
const banksMock = {
  request: {
    query: ResourceListDocument,
    variables: { name: 'banco', emp: 1, input: { filter: null, limit: 20, page: 1 } },
  },
  result: page([
    { id: 1, text: 'BANCO DO BRASIL - COBRANÇA', BCO_ID: 1 },
    { id: 2, text: 'CAIXA GERAL', BCO_ID: 2 },
  ]),
  maxUsageCount: 10,
};
const actionMock = (action: string, params: object, body: unknown, answer: unknown) => ({
  request: {
    query: ResourceActionDocument,
    variables: { name: 'boletos', action, params: { emp: 1, ...params }, ...(body !== undefined ? { body } : {}) },
  },
  result: { data: { resourceAction: answer } },
});

const title = (over: { [C in keyof Row<'contasreceber'>]?: unknown } = {}) =>
  mockRow('contasreceber', {
    CRCB_ID: 31,
    CRCB_CLI_ID: 5,
    CLI_DESCRICAO: 'JOÃO DA SILVA',
    CRCB_DOCUMENTO: '40/1',
    CRCB_PARCELA: 1,
    CRCB_QTD_PARCELAS: 2,
    CRCB_DTA_EMIS: '2026-10-01',
    CRCB_DTA_VCTO: addDays(TODAY, 10),
    CRCB_VLR_CTA: '1234.56',
    CRCB_VLR_PAGO: '0.00',
    SALDO: '1234.56',
    CRCB_SITUACAO: 'A',
    CRCB_BCO_ID: null,
    CRCB_FRMP_ID: null,
    ...over,
  });

const LINE = '00190.00009 01234.567004 00000.000000 1 00000000123456';
const PIX = '00020101021226830014br.gov.bcb.pix6304ABCD';
const slipRow = (over: { [C in keyof Row<'boletos'>]?: unknown } = {}) =>
  mockRow('boletos', {
    BOL_ID: 7,
    BOL_EMP_ID: 1,
    BOL_BCO_ID: 1,
    BOL_CRCB_ID: 31,
    BOL_CLI_NOME: 'JOÃO DA SILVA',
    BOL_NOSSO_NUMERO: '00012345',
    BOL_DTA_EMIS: TODAY,
    BOL_DTA_VCTO: '2026-12-10',
    BOL_VALOR: '1234.56',
    BOL_CODIGO_BARRAS: '00191000000000000000000000000000000000000000',
    BOL_LINHA_DIGITAVEL: LINE,
    BOL_PIX_COPIA_COLA: PIX,
    BOL_SITUACAO: 'R',
    BOL_OCORRENCIA: '02 - Entrada confirmada',
    BOL_VLR_PAGO: null,
    BOL_DTA_PAG: null,
    ...over,
  });

beforeEach(() => {
  window.innerWidth = 1920;
  signIn({ programs: [program({ id: 611, name: 'contasareceber', webPath: '/contasareceber' })] });
  URL.createObjectURL = vi.fn(() => 'blob:boleto');
  URL.revokeObjectURL = vi.fn();
});

afterEach(() => vi.restoreAllMocks());

async function openSlip(user: ReturnType<typeof userEvent.setup>) {
  const row = await screen.findByRole('row', { name: /40\/1/ });
  await user.click(within(row).getByRole('button', { name: 'Boleto' }));
  return screen.findByRole('dialog', { name: /Boleto do Título 31/ }, SLOW);
}

describe("a receivable's slip", () => {
  it('is generated on the chosen account, shows its codes to copy and opens its PDF', async () => {
    const user = userEvent.setup();
    const success = vi.spyOn(notify, 'success');
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      new Response('%PDF-1.7 boleto', {
        status: 200,
        headers: { 'content-type': 'application/pdf', 'content-disposition': 'inline; filename="boleto-00012345.pdf"' },
      }),
    );
    renderWith(<TitlesListPage meta={receivablesMeta} metas={metas} />, {
      mocks: [
        // Issuing evicts the receivables: the list is read again.
        titlesMock([title()], 2),
        banksMock,
        actionMock('titulo', { id: 31 }, undefined, null),
        actionMock('gerar', {}, { EMP_ID: 1, BCO_ID: 1, TITULOS: [31] }, [
          {
            BOL_ID: 7,
            CRCB_ID: 31,
            NOSSO_NUMERO: '00012345',
            CODIGO_BARRAS: '00191000000000000000000000000000000000000000',
            LINHA_DIGITAVEL: LINE,
            PIX_COPIA_COLA: PIX,
            VALOR: 1234.56,
            DTA_VCTO: '2026-12-10',
            BOL_SITUACAO: 'G',
          },
        ]),
        actionMock('titulo', { id: 31 }, undefined, slipRow({ BOL_SITUACAO: 'G', BOL_OCORRENCIA: null })),
      ] as never,
    });
    const dialog = await openSlip(user);
    expect(await within(dialog).findByText('Este título não tem boleto ativo.')).toBeInTheDocument();
    // The account is asked for before anything is sent.
    await user.click(within(dialog).getByTestId('boleto-gerar'));
    expect(within(dialog).getByText('Conta bancária é obrigatório!')).toBeInTheDocument();
    await within(dialog).findByRole('option', { name: 'BANCO DO BRASIL - COBRANÇA' });
    await user.selectOptions(within(dialog).getByLabelText(/^Conta bancária/), '1');
    await user.click(within(dialog).getByRole('button', { name: 'Gerar boleto' }));

    expect(await within(dialog).findByTestId('boleto-linha-digitavel')).toHaveTextContent(LINE);
    expect(success).toHaveBeenCalledWith('Boleto gerado com sucesso!');
    expect(within(dialog).getByLabelText('Pix Copia e Cola')).toHaveValue(PIX);
    await waitFor(() => expect(within(dialog).getByTestId('boleto-situacao')).toHaveTextContent('Gerado'));
    expect(within(dialog).getByText('R$ 1.234,56')).toBeInTheDocument();
    expect(within(dialog).getByText('10/12/2026')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Copiar linha digitável' }));
    expect(await navigator.clipboard.readText()).toBe(LINE);
    expect(success).toHaveBeenCalledWith('Linha digitável copiado!');
    await user.click(within(dialog).getByRole('button', { name: 'Copiar Pix' }));
    expect(await navigator.clipboard.readText()).toBe(PIX);

    await user.click(within(dialog).getByRole('button', { name: 'Imprimir boleto' }));
    const pdf = await within(dialog).findByTestId('boleto-pdf');
    expect(within(pdf).getByRole('link', { name: 'Baixar PDF' })).toHaveAttribute('download', 'boleto-00012345.pdf');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/boletos/pdf');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({ EMP_ID: 1, BOL_IDS: [7] });
    expect(init.headers).toMatchObject({ authorization: 'Bearer token-123' });
  });

  it('is not generated for a paid title, which has none', async () => {
    const user = userEvent.setup();
    const paid = title({ CRCB_VLR_PAGO: '1234.56', SALDO: '0.00', CRCB_SITUACAO: 'Q' });
    renderWith(<TitlesListPage meta={receivablesMeta} metas={metas} />, {
      mocks: [titlesMock([paid]), banksMock, actionMock('titulo', { id: 31 }, undefined, null)] as never,
    });
    const dialog = await openSlip(user);
    expect(await within(dialog).findByText('Somente títulos em aberto podem ter boleto gerado.')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Gerar boleto' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Imprimir boleto' })).toBeNull();
  });

  it('is checked at the bank, its due date and value changed, and written off after confirmation', async () => {
    const user = userEvent.setup();
    const success = vi.spyOn(notify, 'success');
    renderWith(<TitlesListPage meta={receivablesMeta} metas={metas} />, {
      mocks: [
        titlesMock([title()], 3),
        banksMock,
        actionMock('titulo', { id: 31 }, undefined, slipRow()),
        actionMock(
          'verificar',
          {},
          { EMP_ID: 1, BOL_ID: 7 },
          {
            BOL_ID: 7,
            BOL_SITUACAO: 'R',
            SITUACAO_DESCRICAO: 'Registrado',
            REGISTRADO: true,
            PAGO: false,
            OCORRENCIAS: [
              { DATA: '2026-11-25', CODIGO: '02', DESCRICAO: 'Entrada confirmada', MOTIVOS: '00' },
              { DATA: '2026-11-26', CODIGO: '14', DESCRICAO: 'Vencimento alterado', MOTIVOS: '' },
            ],
          },
        ),
        actionMock('titulo', { id: 31 }, undefined, slipRow()),
        actionMock(
          'atualizar',
          {},
          { EMP_ID: 1, BOL_ID: 7, DTA_VCTO: '2026-12-20', VALOR: '1300.00' },
          {
            BOL_ID: 7,
            CRCB_ID: 31,
            NOSSO_NUMERO: '00012345',
            LINHA_DIGITAVEL: LINE,
            PIX_COPIA_COLA: null,
            VALOR: '1300.00',
            DTA_VCTO: '2026-12-20',
            BOL_SITUACAO: 'R',
          },
        ),
        actionMock(
          'titulo',
          { id: 31 },
          undefined,
          slipRow({ BOL_VALOR: '1300.00', BOL_DTA_VCTO: '2026-12-20', BOL_PIX_COPIA_COLA: null }),
        ),
        actionMock('baixa', {}, { EMP_ID: 1, BOL_ID: 7, TIPO: 'BAIXA' }, slipRow({ BOL_SITUACAO: 'B' })),
        actionMock('titulo', { id: 31 }, undefined, null),
      ] as never,
    });
    const dialog = await openSlip(user);
    expect(await within(dialog).findByTestId('boleto-situacao')).toHaveTextContent('Registrado');
    expect(within(dialog).queryByRole('button', { name: 'Gerar boleto' })).toBeNull();

    await user.click(within(dialog).getByRole('button', { name: 'Consultar boleto' }));
    const check = await within(dialog).findByRole('region', { name: 'Consulta do boleto' });
    expect(check).toHaveTextContent('Situação: Registrado · Registrado no banco · Não pago');
    const occurrences = within(check).getByRole('table', { name: 'Ocorrências do boleto' });
    expect(within(occurrences).getByRole('row', { name: /25\/11\/2026 02 Entrada confirmada 00/ })).toBeInTheDocument();
    expect(within(occurrences).getByRole('row', { name: /Vencimento alterado/ })).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Alterar vencimento/valor' }));
    const change = within(dialog).getByRole('form', { name: 'Alterar vencimento/valor' });
    expect(within(change).getByLabelText(/^Novo vencimento/)).toHaveValue('10/12/2026');
    expect(within(change).getByLabelText(/^Novo valor/)).toHaveValue('1.234,56');
    await user.clear(within(change).getByLabelText(/^Novo vencimento/));
    await user.type(within(change).getByLabelText(/^Novo vencimento/), '20122026');
    await user.clear(within(change).getByLabelText(/^Novo valor/));
    await user.type(within(change).getByLabelText(/^Novo valor/), '1300');
    await user.click(within(change).getByRole('button', { name: 'Salvar alteração' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Boleto alterado com sucesso!'));
    await waitFor(() => expect(within(dialog).getByText('20/12/2026')).toBeInTheDocument());
    expect(within(dialog).getByText('R$ 1.300,00')).toBeInTheDocument();
    // Without Pix, no Pix to copy.
    await waitFor(() => expect(within(dialog).queryByRole('button', { name: 'Copiar Pix' })).toBeNull());

    await user.click(within(dialog).getByRole('button', { name: 'Baixar boleto' }));
    const confirm = await screen.findByRole('dialog', { name: 'Baixar boleto' }, SLOW);
    expect(confirm).toHaveTextContent('Deseja baixar o boleto nosso número 00012345 de R$ 1.300,00 no banco?');
    await user.click(within(confirm).getByRole('button', { name: 'Baixar boleto' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Boleto baixado com sucesso!'));
    // The title stays open: a new slip can be generated.
    expect(await within(dialog).findByRole('button', { name: 'Gerar boleto' })).toBeInTheDocument();
  });

  it("is sent by e-mail to the customer's address, the server attaching the slip", async () => {
    const user = userEvent.setup();
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      new Response(JSON.stringify({ msg: 'E-mail agendado com sucesso!', MENS_ID: 4 }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      }),
    );
    renderWith(<TitlesListPage meta={receivablesMeta} metas={metas} />, {
      mocks: [
        titlesMock([title()]),
        banksMock,
        actionMock('titulo', { id: 31 }, undefined, slipRow()),
        {
          request: { query: ResourceGetDocument, variables: { name: 'clientes', emp: 1, id: 5 } },
          result: {
            data: { resourceGet: { CLI_ID: 5, CLI_EMAIL: 'joao@example.com', CLI_EMAIL_NFE: 'nfe@example.com' } },
          },
        },
      ] as never,
    });
    const dialog = await openSlip(user);
    await user.click(await within(dialog).findByTestId('boleto-enviar-email'));
    const email = await screen.findByRole('dialog', { name: 'Enviar e-mail' }, SLOW);
    expect(within(email).getByRole('list', { name: 'Destinatários' })).toHaveTextContent('joao@example.com');
    expect(within(email).getByLabelText('Assunto')).toHaveValue('Boleto do Título 31 (Doc. 40/1, parcela 1/2)');
    expect(within(email).getByLabelText('Mensagem')).toHaveValue(
      'Segue o boleto de R$ 1.234,56 com vencimento em 10/12/2026.',
    );
    expect(within(email).getByLabelText('Documento anexado')).toHaveTextContent('gerado pelo servidor');
    await user.click(within(email).getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Enviar e-mail' })).toBeNull());
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/email/send');
    const form = init.body as FormData;
    expect(form.get('MENS_DOC_TIPO')).toBe('boleto');
    expect(form.get('MENS_DOC_ID')).toBe('31');
    expect(form.get('MENS_DESTINATARIO')).toBe('joao@example.com');
    // The slip dialog stays open under it.
    expect(screen.getByRole('dialog', { name: /Boleto do Título 31/ })).toBeInTheDocument();
  });

  it('are generated for the chosen titles at once', async () => {
    const user = userEvent.setup();
    const second = title({ CRCB_ID: 32, CRCB_PARCELA: 2, CRCB_BCO_ID: 2 });
    renderWith(<TitlesListPage meta={receivablesMeta} metas={metas} />, {
      mocks: [
        titlesMock([title({ CRCB_BCO_ID: 2 }), second], 2),
        banksMock,
        {
          request: { query: ResourceGetDocument, variables: { name: 'banco', emp: 1, id: 2 } },
          result: { data: { resourceGet: { BCO_ID: 2, id: 2, text: 'CAIXA GERAL' } } },
        },
        actionMock(
          'gerar',
          {},
          { EMP_ID: 1, BCO_ID: 2, TITULOS: [31, 32] },
          [31, 32].map((id) => ({
            BOL_ID: id - 20,
            CRCB_ID: id,
            NOSSO_NUMERO: `000${id}`,
            LINHA_DIGITAVEL: `LINHA ${id}`,
            PIX_COPIA_COLA: null,
            VALOR: '1234.56',
            DTA_VCTO: '2026-12-10',
          })),
        ),
      ] as never,
    });
    await user.click(await screen.findByRole('checkbox', { name: /Título 31/ }));
    await user.click(screen.getByRole('checkbox', { name: /Título 32/ }));
    await user.click(screen.getByTestId('titulos-gerar-boletos'));
    const dialog = await screen.findByRole('dialog', { name: 'Gerar boletos' }, SLOW);
    expect(dialog).toHaveTextContent('2 títulos selecionados.');
    // The account both titles name is proposed.
    await within(dialog).findByRole('option', { name: 'CAIXA GERAL' });
    expect(within(dialog).getByLabelText(/^Conta bancária/)).toHaveValue('2');
    await user.click(within(dialog).getByRole('button', { name: 'Gerar boletos' }));
    expect(await within(dialog).findByTestId('boleto-11-linha-digitavel')).toHaveTextContent('LINHA 31');
    expect(within(dialog).getByTestId('boleto-12-linha-digitavel')).toHaveTextContent('LINHA 32');
    expect(within(dialog).getByRole('button', { name: 'Imprimir boletos' })).toBeInTheDocument();
  });
});
