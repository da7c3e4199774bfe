import { MockSubscriptionLink } from '@apollo/client/testing';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addDays, apiDateOf } from '../../lib/format';
import { notify } from '../../lib/toast';
import { program, renderWith, signIn } from '../../test/utils';
import MessagesPage, { REFRESH_MS } from './MessagesPage';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** An instant of the browser's clock as the server writes it (RFC 3339, UTC). */
const at = (y: number, m: number, d: number, h: number, min: number) => new Date(y, m - 1, d, h, min).toISOString();

const QR = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk';

const failed = {
  MENS_ID: 5,
  MENS_CANAL: 'W',
  MENS_DESTINATARIO: '5511987654321',
  MENS_ASSUNTO: null,
  MENS_DESCRICAO: 'Segue o boleto.',
  MENS_DATAHORA: at(2026, 6, 10, 9, 30),
  MENS_TIPO: 'D',
  MENS_STATUS: 'F',
  MENS_STATUS_DESCRICAO: 'Falhou',
  MENS_ERRO: 'Número sem WhatsApp.',
  MENS_TENTATIVAS: 3,
  MENS_ANEXO_NOME: 'boleto.pdf',
  MENS_DOC_TIPO: 'boleto',
  MENS_DOC_ID: 31,
  MENS_PROGRAMA: 'BSWEB',
  MENS_DTA_CAD: at(2026, 6, 10, 9, 30),
  MENS_DTA_ENVIO: null,
};
const read = {
  ...failed,
  MENS_ID: 6,
  MENS_CANAL: 'E',
  MENS_DESTINATARIO: 'ana@empresa.com.br;bia@empresa.com.br',
  MENS_ASSUNTO: 'NF-e 123',
  MENS_DESCRICAO: 'Segue a nota.',
  MENS_STATUS: 'L',
  MENS_STATUS_DESCRICAO: 'Lida',
  MENS_ERRO: null,
  MENS_TENTATIVAS: 1,
  MENS_DOC_TIPO: 'nfe',
  MENS_DOC_ID: 55,
  MENS_DTA_ENVIO: at(2026, 6, 10, 9, 31),
};

/** The messaging calls as the gateway answers them; what each asked is kept. */
function backend() {
  const state = {
    rows: [failed, read] as object[],
    connection: { state: 'close', msg: 'Desconectado.' } as object,
    connectionStatus: 200,
  };
  const calls: { path: string; query: URLSearchParams; method: string }[] = [];
  const fetchMock = vi.fn(async (input: string, init?: RequestInit) => {
    const url = new URL(input, 'http://localhost');
    calls.push({ path: url.pathname, query: url.searchParams, method: init?.method ?? 'GET' });
    switch (url.pathname) {
      case '/whatsapp/messages':
        return json({ dados: state.rows, count: 42 });
      case '/whatsapp/status/conexao':
        return json(state.connection, state.connectionStatus);
      case '/whatsapp/auth':
        state.connection = { state: 'connecting', msg: 'Aguardando a leitura do QR code no WhatsApp do celular.' };
        return json({ ...state.connection, qrcode: QR });
      case '/whatsapp/reenviar/5':
        state.rows = [{ ...failed, MENS_STATUS: 'N', MENS_STATUS_DESCRICAO: 'Na fila', MENS_ERRO: null }, read];
        return json({ code: 200, msg: 'Mensagem colocada de novo na fila.' });
      default:
        return json({ code: 404, msg: 'Não encontrado.' }, 404);
    }
  });
  vi.stubGlobal('fetch', fetchMock);
  const listed = () => calls.filter((c) => c.path === '/whatsapp/messages');
  return { state, calls, listed };
}

const WHATSAPP_PROGRAM = program({ id: 1001, name: 'whatsapp', webPath: '/whatsapp', level1: 'Comunicação' });

beforeEach(() => {
  window.innerWidth = 1920;
  signIn({ programs: [WHATSAPP_PROGRAM] });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the messages screen (/whatsapp)', () => {
  it('lists the last 7 days, newest first, with status chips, the reason of a failure and the settings', async () => {
    const { listed } = backend();
    renderWith(<MessagesPage metas={[]} />, { route: '/whatsapp' });
    const table = await screen.findByRole('table', { name: 'Mensagens' });
    const first = await within(table).findByRole('row', { name: /Segue o boleto/ });
    expect(first).toHaveTextContent('10/06/2026 09:30');
    expect(first).toHaveTextContent('WhatsApp');
    expect(first).toHaveTextContent('+55 (11) 98765-4321');
    expect(first).toHaveTextContent('Boleto nº 31');
    expect(within(first).getByTestId('mensagem-situacao-5')).toHaveTextContent('Falhou');
    expect(first).toHaveTextContent('3 tentativas');
    expect(first).toHaveTextContent('Número sem WhatsApp.');
    expect(within(first).getByRole('button', { name: /Reenviar/ })).toBeInTheDocument();

    const second = within(table).getByRole('row', { name: /Segue a nota/ });
    expect(second).toHaveTextContent('E-mail');
    expect(second).toHaveTextContent('ana@empresa.com.br, bia@empresa.com.br');
    expect(second).toHaveTextContent('NF-e 123');
    expect(second).toHaveTextContent('NF-e nº 55');
    expect(within(second).getByTestId('mensagem-situacao-6')).toHaveTextContent('Lida');
    expect(second).toHaveTextContent('10/06/2026 09:31');
    expect(within(second).queryByRole('button', { name: /Reenviar/ })).toBeNull();

    expect(screen.getByText('Total de registros: 42')).toBeInTheDocument();
    const query = listed()[0].query;
    expect(query.get('DATA_INI')).toBe(addDays(apiDateOf(), -7));
    expect(query.has('DATA_FIM')).toBe(false);
    expect(query.has('MENS_STATUS')).toBe(false);
    expect(query.get('LIMIT')).toBe('20');
    expect(query.get('OFFSET')).toBe('0');

    expect(screen.getByRole('link', { name: 'Configuração do WhatsApp' })).toHaveAttribute('href', '/whatsappconfig');
    expect(screen.getByRole('link', { name: 'Configuração de e-mail' })).toHaveAttribute('href', '/emailconfig');
    expect(await screen.findByTestId('whatsapp-conexao')).toHaveTextContent('Desconectado.');
  });

  it('filters by situation, channel, recipient, program and period, from the first page', async () => {
    const { listed } = backend();
    const user = userEvent.setup();
    renderWith(<MessagesPage metas={[]} />, { route: '/whatsapp' });
    await screen.findByRole('row', { name: /Segue o boleto/ });
    await user.click(screen.getByRole('button', { name: 'Próxima' }));
    await waitFor(() => expect(listed().at(-1)?.query.get('OFFSET')).toBe('20'));

    await user.click(screen.getByRole('radio', { name: 'Falhou' }));
    await user.selectOptions(screen.getByLabelText(/^Canal/), 'W');
    await user.type(screen.getByLabelText(/^Destinatário/), '(11) 98765');
    await user.type(screen.getByLabelText(/^Programa/), 'BSWEB');
    await user.type(screen.getByLabelText(/^Até/), '10062026');
    await waitFor(() => expect(listed().at(-1)?.query.get('MENS_PROGRAMA')).toBe('BSWEB'), { timeout: 3000 });
    const query = listed().at(-1)!.query;
    expect(query.get('MENS_STATUS')).toBe('F');
    expect(query.get('MENS_CANAL')).toBe('W');
    expect(query.get('MENS_DESTINATARIO')).toBe('(11) 98765');
    expect(query.get('DATA_FIM')).toBe('2026-06-10');
    expect(query.get('OFFSET')).toBe('0');

    await user.click(screen.getByRole('button', { name: 'Limpar filtros' }));
    await waitFor(() => expect(listed().at(-1)?.query.has('MENS_STATUS')).toBe(false), { timeout: 3000 });
  });

  it("sends a failed message again ('Reenviar') and reads the list again", async () => {
    const { calls } = backend();
    const success = vi.spyOn(notify, 'success');
    const user = userEvent.setup();
    renderWith(<MessagesPage metas={[]} />, { route: '/whatsapp' });
    const row = await screen.findByRole('row', { name: /Segue o boleto/ });
    await user.click(within(row).getByRole('button', { name: /Reenviar/ }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Mensagem colocada de novo na fila.'));
    expect(calls.find((c) => c.path === '/whatsapp/reenviar/5')?.method).toBe('POST');
    await waitFor(() => expect(screen.getByTestId('mensagem-situacao-5')).toHaveTextContent('Na fila'));
    expect(screen.queryByText('Número sem WhatsApp.')).toBeNull();
  });

  it('reads the list again every 5 s while the page is visible, not while it is hidden', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { state, listed } = backend();
    renderWith(<MessagesPage metas={[]} />, { route: '/whatsapp' });
    await screen.findByRole('row', { name: /Segue o boleto/ });
    const before = listed().length;
    // The provider reports the message read.
    state.rows = [{ ...failed, MENS_STATUS: 'L', MENS_STATUS_DESCRICAO: 'Lida', MENS_ERRO: null }];
    await act(() => vi.advanceTimersByTimeAsync(REFRESH_MS));
    await waitFor(() => expect(screen.getByTestId('mensagem-situacao-5')).toHaveTextContent('Lida'));
    expect(listed().length).toBe(before + 1);

    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    await act(() => vi.advanceTimersByTimeAsync(REFRESH_MS * 3));
    expect(listed().length).toBe(before + 1);
    visibility.mockReturnValue('visible');
    await act(async () => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await waitFor(() => expect(listed().length).toBe(before + 2));
  });

  it("pairs the number: 'Conectar' shows the QR code until the phone reads it", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { state, calls } = backend();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderWith(<MessagesPage metas={[]} />, { route: '/whatsapp' });
    expect(await screen.findByTestId('whatsapp-conexao')).toHaveTextContent('Desconectado.');
    await user.click(screen.getByRole('button', { name: 'Conectar' }));
    const qr = await screen.findByRole('img', { name: 'QR code para conectar o WhatsApp' });
    expect(qr).toHaveAttribute('src', QR);
    expect(calls.find((c) => c.path === '/whatsapp/auth')?.method).toBe('POST');
    await waitFor(() =>
      expect(screen.getByTestId('whatsapp-conexao')).toHaveTextContent('Aguardando a leitura do QR code'),
    );

    // The phone read it: the next look at the connection finds it open.
    state.connection = { state: 'open', msg: 'Conectado.', numero: '5511999990000' };
    await act(() => vi.advanceTimersByTimeAsync(REFRESH_MS));
    await waitFor(() => expect(screen.getByTestId('whatsapp-conexao')).toHaveTextContent('Conectado.'));
    expect(screen.queryByRole('img', { name: 'QR code para conectar o WhatsApp' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Conectar' })).toBeNull();
    expect(screen.getByText('5511999990000')).toBeInTheDocument();
  });

  it("says when the company has no WhatsApp provider, and opens the shell's dialogs for a new message", async () => {
    const { state } = backend();
    state.connectionStatus = 400;
    state.connection = { code: 400, msg: 'Nenhum provedor de WhatsApp configurado para a empresa.' };
    const user = userEvent.setup();
    renderWith(<MessagesPage metas={[]} />, { route: '/whatsapp' });
    const card = screen.getByRole('region', { name: 'Conexão do WhatsApp' });
    expect(await within(card).findByRole('alert')).toHaveTextContent(
      'Nenhum provedor de WhatsApp configurado para a empresa.',
    );
    await user.click(screen.getByRole('button', { name: 'Nova mensagem de WhatsApp' }));
    expect(await screen.findByRole('dialog', { name: 'WhatsApp' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancelar' }));
    await user.click(screen.getByRole('button', { name: 'Novo e-mail' }));
    expect(await screen.findByRole('dialog', { name: 'Enviar e-mail' })).toBeInTheDocument();
  });

  it('is closed to a user without the program, and read-only without its update permission', async () => {
    backend();
    signIn({ programs: [] });
    const { unmount } = renderWith(<MessagesPage metas={[]} />, { route: '/whatsapp' });
    expect(screen.getByText('Você não tem permissão para acessar esta tela.')).toBeInTheDocument();
    unmount();

    signIn({ programs: [{ ...WHATSAPP_PROGRAM, canCreate: false, canUpdate: false }] });
    renderWith(<MessagesPage metas={[]} />, { route: '/whatsapp' });
    const row = await screen.findByRole('row', { name: /Segue o boleto/ });
    expect(within(row).queryByRole('button', { name: /Reenviar/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Conectar' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Nova mensagem de WhatsApp' })).toBeNull();
  });

  it("reads the queue again when the server says the company's queue moved", async () => {
    const { state, listed } = backend();
    const link = new MockSubscriptionLink();
    renderWith(<MessagesPage metas={[]} />, { route: '/whatsapp', link });
    await screen.findByRole('row', { name: /Segue o boleto/ });
    const before = listed().length;
    state.rows = [{ ...(state.rows[0] as object), MENS_STATUS: 'L', MENS_STATUS_DESCRICAO: 'Lida', MENS_ERRO: null }];
    await act(async () => {
      link.simulateResult({ result: { data: { messagesChanged: true } } });
      await new Promise((r) => setTimeout(r, 10));
    });
    await waitFor(() => expect(listed().length).toBe(before + 1));
    expect(await screen.findByTestId('mensagem-situacao-5')).toHaveTextContent('Lida');
    expect(link.operation?.variables).toEqual({ emp: 1 });
  });
});
