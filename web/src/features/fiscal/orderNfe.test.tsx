import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResourceActionDocument, ResourceGetDocument, ResourceListDocument } from '../../lib/resources/documents';
import { orderMeta } from '../../test/fixtures';
import { program, renderWith, signIn } from '../../test/utils';
import { CORRECTION, JUSTIFICATION } from './nfe';
import OrderNfePanel from './OrderNfePanel';

const SLOW = { timeout: 4000 };
const order = { PEDF_ID: 12, PEDF_SERIE: '1', PEDF_SITUACAO: 'F', PEDF_MODELO: '55' };
const KEY = '43261111222333000181550010000000011123939493';

const listMock = (rows: unknown[]) => ({
  request: {
    query: ResourceListDocument,
    variables: {
      name: 'pedidofatxml',
      emp: 1,
      input: { page: 1, limit: 1, where: { PEXM_PEDF_ID: 12, PEXM_SERIE: '1' } },
    },
  },
  result: { data: { resourceList: { __typename: 'ResourcePage', rows, total: rows.length } } },
});
const actionMock = (action: string, params: Record<string, unknown>, body: unknown, answer: unknown) => ({
  request: {
    query: ResourceActionDocument,
    variables: { name: 'pedidofatxml', action, params: { emp: 1, ...params }, ...(body === undefined ? {} : { body }) },
  },
  result: { data: { resourceAction: answer } },
});
const refusedMock = (action: string, params: Record<string, unknown>, body: unknown, message: string) => ({
  request: actionMock(action, params, body, null).request,
  result: { errors: [{ message, extensions: { code: 'UNAVAILABLE', status: 503 } }] },
});

const authorised = {
  PEXM_ID: 5,
  PEXM_EMP_ID: 1,
  PEXM_PEDF_ID: 12,
  PEXM_SERIE: '1',
  PEXM_SITUACAO: 'autorizado',
  PEXM_NUMERO: 31,
  PEXM_NFE_SERIE: 1,
  PEXM_CHAVE: KEY,
  PEXM_PROTOCOLO: '143260000000002',
  PEXM_VALOR: '1234.5',
  PEXM_DTA_EMISSAO: '2026-11-24T16:36:44+00:00',
  PEXM_DTA_AUTORIZACAO: '2026-11-24T16:36:45+00:00',
  PEXM_CCE_SEQ: 0,
};
const rejectedRow = {
  ...authorised,
  PEXM_SITUACAO: 'rejeitado',
  PEXM_PROTOCOLO: null,
  PEXM_DTA_AUTORIZACAO: null,
  PEXM_CSTAT: 778,
  PEXM_MOTIVO: 'Rejeição: Informado NCM inexistente',
  PEXM_EXPLICACAO: 'O NCM do produto não existe na tabela oficial.',
};
const emitBody = { PEXM_PEDF_ID: 12, PEXM_EMP_ID: 1, PEXM_SERIE: '1' };

beforeEach(() => {
  signIn({ programs: [program({ id: 30, name: 'pedidos', webPath: '/pedidos' })] });
  URL.createObjectURL = vi.fn(() => 'blob:danfe');
  URL.revokeObjectURL = vi.fn();
});

afterEach(() => vi.restoreAllMocks());

const renderPanel = (mocks: unknown[], record: Record<string, unknown> = order) =>
  renderWith(<OrderNfePanel meta={orderMeta} metas={[orderMeta]} record={record} />, {
    mocks: mocks as never,
  });

describe('the NF-e of a billing order', () => {
  it('is not offered on an order that is not invoiced, nor on one of another fiscal model', () => {
    const { container, unmount } = renderPanel([], { ...order, PEDF_SITUACAO: 'A' });
    expect(container).toBeEmptyDOMElement();
    unmount();
    const other = renderPanel([], { ...order, PEDF_MODELO: '65' });
    expect(other.container).toBeEmptyDOMElement();
  });

  it('emits after asking and shows a rejection with its code, explanation, field and screen to fix', async () => {
    const user = userEvent.setup();
    renderPanel([
      listMock([]),
      actionMock('emitir', {}, emitBody, {
        ...rejectedRow,
        cStat: '778',
        xMotivo: 'Rejeição: Informado NCM inexistente',
        explicacao: 'O NCM do produto não existe na tabela oficial.',
        campo: 'NCM do produto',
        tela: '/ncm',
        msg: 'NF-e rejeitado pela SEFAZ (778): O NCM do produto não existe na tabela oficial.',
      }),
      // The row read again after the call names neither the field nor the screen.
      listMock([rejectedRow]),
    ]);
    const section = await screen.findByRole('region', { name: 'NF-e' });
    expect(await within(section).findByText('Nenhuma NF-e emitida para este pedido.')).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Emitir NF-e' }));
    const confirm = await screen.findByRole('dialog', { name: 'Emitir NF-e' });
    expect(confirm).toHaveTextContent('Deseja emitir a NF-e do pedido 12?');
    await user.click(within(confirm).getByRole('button', { name: 'Emitir NF-e' }));

    const rejection = await within(section).findByRole('alert', { name: 'Rejeição da SEFAZ' }, SLOW);
    expect(rejection).toHaveTextContent('Rejeição 778: Informado NCM inexistente');
    expect(rejection).toHaveTextContent('O NCM do produto não existe na tabela oficial.');
    expect(rejection).toHaveTextContent('Campo a corrigir: NCM do produto');
    expect(within(rejection).getByRole('link', { name: /Abrir ncm para corrigir/i })).toHaveAttribute('href', '/ncm');
    expect(within(section).getByTestId('nfe-status')).toHaveTextContent('Rejeitada');
    // A rejected NF-e is sent again (its own number, a new attempt).
    expect(within(section).getByRole('button', { name: 'Emitir NF-e novamente' })).toBeEnabled();
    expect(within(section).queryByRole('button', { name: 'Cancelar NF-e' })).not.toBeInTheDocument();
  });

  it("shows the server's refusal of an emission (no provider credentials)", async () => {
    const user = userEvent.setup();
    const message = 'Configure as credenciais da Nuvem Fiscal em Empresas › Serviços fiscais.';
    renderPanel([listMock([]), refusedMock('emitir', {}, emitBody, message)]);
    const section = await screen.findByRole('region', { name: 'NF-e' });
    await user.click(await within(section).findByRole('button', { name: 'Emitir NF-e' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Emitir NF-e' }));
    expect(await within(section).findByTestId('nfe-failure', {}, SLOW)).toHaveTextContent(message);
  });

  it('shows an authorised NF-e and opens its DANFE and downloads its XML', async () => {
    const user = userEvent.setup();
    const fetchMock = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(
        new Response(new Blob(['%PDF-1.4']), {
          status: 200,
          headers: { 'content-type': 'application/pdf', 'content-disposition': `inline; filename="${KEY}-danfe.pdf"` },
        }),
      )
      .mockResolvedValueOnce(
        new Response('<nfeProc/>', {
          status: 200,
          headers: { 'content-type': 'application/xml', 'content-disposition': `inline; filename="${KEY}-nfe.xml"` },
        }),
      );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderPanel([listMock([authorised])]);
    const section = await screen.findByRole('region', { name: 'NF-e' });
    expect(await within(section).findByTestId('nfe-status')).toHaveTextContent('Autorizada');
    expect(within(section).getByTestId('nfe-chave')).toHaveTextContent(
      '4326 1111 2223 3300 0181 5500 1000 0000 0111 2393 9493',
    );
    expect(section).toHaveTextContent('143260000000002');
    expect(section).toHaveTextContent('R$ 1.234,50');
    expect(section).toHaveTextContent(/24\/11\/2026 \d{2}:\d{2}/);

    await user.click(within(section).getByRole('button', { name: 'DANFE (PDF)' }));
    const danfe = await screen.findByRole('dialog', { name: 'DANFE' });
    expect(within(danfe).getByRole('link', { name: 'Baixar PDF' })).toHaveAttribute('download', `${KEY}-danfe.pdf`);
    expect(fetchMock.mock.calls[0][0]).toBe('/pedidofatxml/danfe/5/1');

    await user.click(within(section).getByRole('button', { name: 'XML' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(fetchMock.mock.calls[1][0]).toBe('/pedidofatxml/xml/5/1');
  });

  it("checks the cancel's justification with the server's message, then cancels", async () => {
    const user = userEvent.setup();
    const justification = 'Pedido cancelado a pedido do cliente.';
    renderPanel([
      listMock([authorised]),
      actionMock(
        'cancelar',
        { PEXM_ID: 5 },
        { JUSTIFICATIVA: justification },
        {
          ...authorised,
          PEXM_SITUACAO: 'cancelado',
          PEXM_CANCEL_PROTOCOLO: '143260000000008',
          PEXM_DTA_CANCELAMENTO: '2026-11-24T17:00:00+00:00',
          msg: 'NF-e cancelada.',
        },
      ),
      listMock([{ ...authorised, PEXM_SITUACAO: 'cancelado', PEXM_CANCEL_PROTOCOLO: '143260000000008' }]),
    ]);
    const section = await screen.findByRole('region', { name: 'NF-e' });
    await user.click(await within(section).findByRole('button', { name: 'Cancelar NF-e' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancelar NF-e' });
    await user.type(within(dialog).getByRole('textbox'), 'curta');
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar NF-e' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(JUSTIFICATION.message);

    await user.clear(within(dialog).getByRole('textbox'));
    await user.type(within(dialog).getByRole('textbox'), justification);
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar NF-e' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Cancelar NF-e' })).not.toBeInTheDocument(), SLOW);
    expect(await within(section).findByText('Cancelada', {}, SLOW)).toBeInTheDocument();
    expect(section).toHaveTextContent('143260000000008');
    expect(within(section).queryByRole('button', { name: 'Carta de correção' })).not.toBeInTheDocument();
  });

  it('keeps a refused correction letter in its dialog', async () => {
    const user = userEvent.setup();
    const text = 'Endereço de entrega: Rua Sinimbu, 1500.';
    const refusal = 'A carta de correção foi rejeitado pela SEFAZ (999 - x): y';
    renderPanel([listMock([authorised]), refusedMock('cartacorrecao', { PEXM_ID: 5 }, { CORRECAO: text }, refusal)]);
    const section = await screen.findByRole('region', { name: 'NF-e' });
    await user.click(await within(section).findByRole('button', { name: 'Carta de correção' }));
    const dialog = await screen.findByRole('dialog', { name: 'Carta de correção' });
    await user.click(within(dialog).getByRole('button', { name: 'Enviar carta de correção' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(CORRECTION.message);
    await user.type(within(dialog).getByRole('textbox'), text);
    await user.click(within(dialog).getByRole('button', { name: 'Enviar carta de correção' }));
    expect(await within(dialog).findByRole('alert', {}, SLOW)).toHaveTextContent(refusal);
    expect(screen.getByRole('dialog', { name: 'Carta de correção' })).toBeInTheDocument();
  });
});

describe('sending an authorised NF-e', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("opens the e-mail with the customer's NF-e address and the DANFE and XML produced by the server", async () => {
    const user = userEvent.setup();
    const fetchMock = vi.fn(
      async () =>
        new Response(JSON.stringify({ msg: 'E-mail agendado com sucesso!', MENS_ID: 8 }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
    renderPanel(
      [
        listMock([authorised]),
        {
          request: { query: ResourceGetDocument, variables: { name: 'clientes', emp: 1, id: 4 } },
          result: {
            data: {
              resourceGet: { CLI_ID: 4, CLI_EMAIL: 'compras@cliente.com.br', CLI_EMAIL_NFE: 'nfe@cliente.com.br' },
            },
          },
        },
      ],
      { ...order, PEDF_CLI_ID: 4 },
    );
    const section = await screen.findByRole('region', { name: 'NF-e' });
    expect(await within(section).findByRole('button', { name: 'Enviar DANFE por WhatsApp' })).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Enviar DANFE/XML por e-mail' }));
    const email = await screen.findByRole('dialog', { name: 'Enviar e-mail' }, SLOW);
    expect(within(email).getByRole('list', { name: 'Destinatários' })).toHaveTextContent('nfe@cliente.com.br');
    expect(within(email).getByRole('list', { name: 'Destinatários' })).not.toHaveTextContent('compras@');
    expect(within(email).getByLabelText('Documento anexado')).toHaveTextContent('DANFE e XML da NF-e nº 31');
    await user.click(within(email).getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const form = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1].body as FormData;
    expect(form.get('MENS_DOC_TIPO')).toBe('nfe');
    expect(form.get('MENS_DOC_ID')).toBe('5');
  });

  it('is not offered for an NF-e that is not authorised', async () => {
    renderPanel([listMock([rejectedRow])]);
    const section = await screen.findByRole('region', { name: 'NF-e' });
    await within(section).findByText(/Rejeição/);
    expect(within(section).queryByRole('button', { name: /Enviar DANFE/ })).toBeNull();
  });
});
