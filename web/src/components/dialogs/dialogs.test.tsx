import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setPageMeta } from '../../lib/pageMeta';
import { notify } from '../../lib/toast';
import { signIn } from '../../test/utils';
import { ConfirmDialog } from './ConfirmDialog';
import { DialogHost, useDialogs } from './DialogHost';
import { EmailDialog, sanitizeAttachment } from './EmailDialog';
import { GenericDialog } from './GenericDialog';
import { LoadingScreen } from './LoadingScreen';
import { WhatsAppDialog, openWhatsApp, whatsappLink } from './WhatsAppDialog';

afterEach(() => vi.restoreAllMocks());

const reason = [{ fields: [{ name: 'MOTIVO', type: 'TEXT' as const, text: 'Motivo', required: true }] }];

describe('ConfirmDialog', () => {
  it('runs OK only when the embedded form validates, then closes', async () => {
    const warn = vi.spyOn(notify, 'warning');
    const onOk = vi.fn();
    const onClose = vi.fn();
    const user = userEvent.setup();
    render(<ConfirmDialog settings={{ title: 'Cancelar nota', groups: reason, onOk }} onClose={onClose} />);
    await user.click(screen.getByRole('button', { name: 'OK' }));
    expect(warn).toHaveBeenCalledWith('Preencha os campos obrigatórios.');
    expect(screen.getByText('Motivo é obrigatório!')).toBeInTheDocument();
    expect(onOk).not.toHaveBeenCalled();
    await user.type(screen.getByLabelText(/Motivo/), 'Erro de digitação');
    await user.click(screen.getByRole('button', { name: 'OK' }));
    expect(onOk).toHaveBeenCalledWith({ MOTIVO: 'Erro de digitação' });
    expect(onClose).toHaveBeenCalled();
  });
  it('Cancel runs its own action, then closes', async () => {
    const onCancel = vi.fn();
    const onClose = vi.fn();
    render(<ConfirmDialog settings={{ title: 'Excluir', onOk: vi.fn(), onCancel }} onClose={onClose} />);
    await userEvent.click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(onCancel).toHaveBeenCalled();
    expect(onClose).toHaveBeenCalled();
  });
});

describe('DialogHost', () => {
  // A refusal the user may override is asked from the OK of the confirmation that made the call.
  function Asker({ onSecond }: { onSecond: () => void }) {
    const dialogs = useDialogs();
    const second = () => dialogs.confirm({ title: 'Segunda pergunta', okText: 'Sim', onOk: onSecond });
    return (
      <button type="button" onClick={() => dialogs.confirm({ title: 'Primeira pergunta', onOk: async () => second() })}>
        Perguntar
      </button>
    );
  }

  it('keeps open a confirmation opened from the OK of another, which closes itself only', async () => {
    const onSecond = vi.fn();
    const user = userEvent.setup();
    render(
      <DialogHost>
        <Asker onSecond={onSecond} />
      </DialogHost>,
    );
    await user.click(screen.getByRole('button', { name: 'Perguntar' }));
    await user.click(await screen.findByRole('button', { name: 'OK' }));
    const second = await screen.findByRole('dialog', { name: 'Segunda pergunta' });
    expect(screen.queryByRole('dialog', { name: 'Primeira pergunta' })).not.toBeInTheDocument();
    await user.click(within(second).getByRole('button', { name: 'Sim' }));
    expect(onSecond).toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('GenericDialog', () => {
  beforeEach(() => {
    window.innerWidth = 1920;
  });
  it('form mode: an action runs only when every section validates', async () => {
    const warn = vi.spyOn(notify, 'warning');
    const action = vi.fn();
    const user = userEvent.setup();
    render(
      <GenericDialog
        settings={{
          mode: 'form',
          title: 'Observação',
          text: 'Informe o motivo',
          groups: reason,
          actions: [{ text: 'Gravar', onClick: action }],
        }}
        onClose={vi.fn()}
      />,
    );
    expect(screen.getByRole('dialog')).toHaveStyle({ width: '600px' });
    // Mobile (1264 px or less): 80dvw.
    await act(async () => {
      window.innerWidth = 390;
      window.dispatchEvent(new Event('resize'));
    });
    expect(screen.getByRole('dialog').style.width).toBe('80dvw');
    expect(screen.getByRole('button', { name: 'Não' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Gravar' }));
    expect(warn).toHaveBeenCalledWith('Preencha os campos obrigatórios');
    expect(action).not.toHaveBeenCalled();
  });
  it('image mode: shows the image with download and close', () => {
    const onClose = vi.fn();
    render(<GenericDialog settings={{ mode: 'image', src: '/uploads/1/foto.png' }} onClose={onClose} />);
    expect(screen.getByRole('img', { name: 'foto.png' })).toHaveAttribute('src', '/uploads/1/foto.png');
    expect(screen.getByRole('link', { name: 'Baixar' })).toHaveAttribute('download', 'foto.png');
  });
});

// The sending calls (POST /whatsapp/send, /email/send) as the server answers them: each request's
// multipart fields are kept for the test to read.
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function server(...answers: Response[]) {
  const sent: { url: string; form: FormData }[] = [];
  const fetchMock = vi.fn(async (url: string, init: RequestInit) => {
    sent.push({ url, form: init.body as FormData });
    return answers.shift() ?? json({ msg: 'Whatsapp Agendado com sucesso!', MENS_ID: 99 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { sent, fields: (n: number) => Object.fromEntries([...sent[n].form.entries()]) };
}

const boleto = { kind: 'boleto' as const, id: 31, label: 'Boleto do Título 31' };

describe('WhatsAppDialog', () => {
  beforeEach(() => signIn());
  afterEach(() => vi.unstubAllGlobals());

  it('needs at least one number, and a text when nothing is attached', async () => {
    const warn = vi.spyOn(notify, 'warning');
    const { sent } = server();
    const user = userEvent.setup();
    render(<WhatsAppDialog settings={{}} onClose={vi.fn()} />);
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(warn).toHaveBeenLastCalledWith('Adicione pelo menos um destinatário!');
    await user.type(screen.getByLabelText(/Número/), '11987654321{Enter}');
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(warn).toHaveBeenLastCalledWith('Mensagem é obrigatório!');
    expect(sent).toHaveLength(0);
  });

  it('masks the number (##) #####-#### and sends one multipart request per number', async () => {
    const success = vi.spyOn(notify, 'success');
    const { sent, fields } = server(
      json({ msg: 'Whatsapp Agendado com sucesso!', MENS_ID: 7 }),
      json({ msg: 'Whatsapp Agendado com sucesso!', MENS_ID: 8 }),
    );
    // The screen the dialog was opened from names the message's project.
    setPageMeta({ title: 'Contas a Receber', name: 'IndexContasreceber' });
    const onClose = vi.fn();
    const user = userEvent.setup();
    render(<WhatsAppDialog settings={{ numbers: ['21912345678'] }} onClose={onClose} />);
    const input = screen.getByLabelText(/Número/);
    await user.type(input, '11987654321');
    expect(input).toHaveValue('(11) 98765-4321');
    await user.type(input, '{Enter}');
    await user.type(screen.getByLabelText('Mensagem'), 'Olá');
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent.map((s) => s.url)).toEqual(['/whatsapp/send', '/whatsapp/send']);
    expect(fields(0)).toEqual({
      MENS_USR_ID: '3',
      MENS_EMP_ID: '1',
      MENS_PROJETO: 'IndexContasreceber',
      MENS_PROGRAMA: 'BSWEB',
      MENS_DESCRICAO: 'Olá',
      MENS_DESTINATARIO: '5521912345678',
      MENS_TIPO: 'T',
      MENS_STATUS: 'N',
    });
    expect(fields(1).MENS_DESTINATARIO).toBe('5511987654321');
    expect(success).toHaveBeenCalledWith('Whatsapp Agendado com sucesso!');
  });

  it('takes a number left typed in the box, a file and a time to send at', async () => {
    const { fields } = server();
    const user = userEvent.setup();
    render(<WhatsAppDialog settings={{}} onClose={vi.fn()} />);
    await user.type(screen.getByLabelText(/Número/), '11912345678');
    await user.upload(
      screen.getByLabelText(/Anexo/),
      new File(['%PDF'], 'orçamento 12.pdf', { type: 'application/pdf' }),
    );
    expect(screen.getByText('orçamento 12.pdf')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/Agendar para/), '310120300930');
    expect(screen.getByLabelText(/Agendar para/)).toHaveValue('31/01/2030 09:30');
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(fields(0).MENS_DESTINATARIO).toBe('5511912345678'));
    expect(fields(0).MENS_TIPO).toBe('D');
    expect(fields(0).MENS_DATAHORA).toBe('2030-01-31 09:30');
    expect((fields(0).file as File).name).toBe('orçamento 12.pdf');
  });

  it("sends a screen's document by reference: no upload, MENS_DOC_TIPO and MENS_DOC_ID", async () => {
    const { fields } = server();
    const user = userEvent.setup();
    render(
      <WhatsAppDialog
        settings={{ numbers: ['11987654321'], message: 'Segue o boleto.', document: boleto }}
        onClose={vi.fn()}
      />,
    );
    expect(screen.getByLabelText('Documento anexado')).toHaveTextContent('Boleto do Título 31');
    expect(screen.getByLabelText('Documento anexado')).toHaveTextContent('gerado pelo servidor');
    expect(screen.queryByLabelText(/Anexo \(opcional/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Abrir no WhatsApp Web' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(fields(0).MENS_DOC_TIPO).toBe('boleto'));
    expect(fields(0)).toMatchObject({ MENS_DOC_ID: '31', MENS_TIPO: 'D', MENS_DESCRICAO: 'Segue o boleto.' });
    expect(fields(0).file).toBeUndefined();
  });

  it("shows the server's refusal and keeps the refused number to fix", async () => {
    const error = vi.spyOn(notify, 'error');
    server(json({ code: 400, msg: 'Número Inválido ou não encontrado!' }, 400));
    const onClose = vi.fn();
    const user = userEvent.setup();
    render(<WhatsAppDialog settings={{ numbers: ['11900000000'], message: 'Oi' }} onClose={onClose} />);
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('Número Inválido ou não encontrado!'));
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('list', { name: 'Destinatários' })).toHaveTextContent('(11) 90000-0000');
  });

  it('says so when the message stays in the queue for want of a provider', async () => {
    const success = vi.spyOn(notify, 'success');
    server(json({ msg: 'Nenhum provedor de WhatsApp configurado para a empresa.', MENS_ID: 5 }));
    const onClose = vi.fn();
    const user = userEvent.setup();
    render(<WhatsAppDialog settings={{ numbers: ['11987654321'], message: 'Oi' }} onClose={onClose} />);
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    const notice = await screen.findByTestId('mensagem-na-fila');
    expect(notice).toHaveTextContent('Nenhum provedor de WhatsApp configurado para a empresa.');
    expect(notice).toHaveTextContent('A mensagem ficou na fila');
    expect(success).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
    // The footer's button (the title bar's × is named 'Fechar' too).
    await user.click(screen.getAllByRole('button', { name: 'Fechar' }).at(-1)!);
    expect(onClose).toHaveBeenCalled();
  });

  it('builds WhatsApp Web links with the 55 prefix and reports bad numbers', () => {
    expect(whatsappLink('(11) 98765-4321', 'Oi tudo')).toBe('https://wa.me/5511987654321?text=Oi%20tudo');
    const warn = vi.spyOn(notify, 'warning');
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    openWhatsApp(['123'], '');
    expect(warn).toHaveBeenCalledWith('Número Inválido ou não encontrado!');
    expect(open).not.toHaveBeenCalled();
  });
});

describe('EmailDialog', () => {
  beforeEach(() => signIn());
  afterEach(() => vi.unstubAllGlobals());

  it('needs a recipient, then a subject, and sends the multipart form', async () => {
    const warn = vi.spyOn(notify, 'warning');
    const success = vi.spyOn(notify, 'success');
    const { sent, fields } = server(json({ msg: 'E-mail agendado com sucesso!', MENS_ID: 12 }));
    setPageMeta({ title: 'Pedidos', name: 'AlterPedido' });
    const onClose = vi.fn();
    const user = userEvent.setup();
    render(<EmailDialog settings={{}} onClose={onClose} />);
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(warn).toHaveBeenLastCalledWith('Adicione pelo menos um destinatário!');
    await user.type(screen.getByLabelText(/^Destinatários \(/), 'ana@x{Enter}');
    expect(screen.getByText('E-mail inválido.')).toBeInTheDocument();
    await user.clear(screen.getByLabelText(/^Destinatários \(/));
    await user.type(screen.getByLabelText(/^Destinatários \(/), 'ana@empresa.com.br;bia@empresa.com.br;');
    await user.type(screen.getByLabelText('Destinatários ocultos'), 'arquivo@empresa.com.br;');
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(warn).toHaveBeenLastCalledWith('Adicione um assunto!');
    expect(sent).toHaveLength(0);
    await user.type(screen.getByLabelText('Assunto'), 'Orçamento');
    await user.type(screen.getByLabelText('Mensagem'), 'Segue o orçamento.');
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent[0].url).toBe('/email/send');
    expect(fields(0)).toEqual({
      MENS_USR_ID: '3',
      MENS_EMP_ID: '1',
      MENS_PROJETO: 'AlterPedido',
      MENS_PROGRAMA: 'BSWEB',
      MENS_DESTINATARIO: 'ana@empresa.com.br,bia@empresa.com.br',
      MENS_DESTINATARIO_OCULTO: 'arquivo@empresa.com.br',
      MENS_ASSUNTO: 'Orçamento',
      MENS_DESCRICAO: 'Segue o orçamento.',
    });
    expect(success).toHaveBeenCalledWith('E-mail agendado com sucesso!');
  });

  it('sanitises attachment names and sends every file', async () => {
    const { sent } = server(json({ msg: 'E-mail agendado com sucesso!', MENS_ID: 13 }));
    const user = userEvent.setup();
    render(<EmailDialog settings={{ to: ['a@b.com'], subject: 'S' }} onClose={vi.fn()} />);
    await user.upload(screen.getByLabelText('Anexos'), [
      new File(['x'], 'Orçamento nº 12 (final).pdf', { type: 'application/pdf' }),
      new File(['y'], 'foto.png', { type: 'image/png' }),
    ]);
    expect(screen.getByText('Orcamenton12final.pdf')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect((sent[0].form.getAll('file') as File[]).map((f) => f.name)).toEqual(['Orcamenton12final.pdf', 'foto.png']);
    expect(sanitizeAttachment(new File([''], 'a b.txt')).name).toBe('ab.txt');
  });

  it("sends a screen's document by reference, without uploads", async () => {
    const { fields } = server(json({ msg: 'E-mail agendado com sucesso!', MENS_ID: 14 }));
    const onClose = vi.fn();
    const user = userEvent.setup();
    render(
      <EmailDialog
        settings={{
          to: ['cliente@example.com'],
          subject: 'DANFE e XML da NF-e nº 123',
          document: { kind: 'nfe', id: 55, label: 'DANFE e XML da NF-e nº 123' },
        }}
        onClose={onClose}
      />,
    );
    expect(screen.getByLabelText('Documento anexado')).toHaveTextContent('DANFE e XML da NF-e nº 123');
    expect(screen.queryByLabelText('Anexos')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(fields(0)).toMatchObject({
      MENS_DOC_TIPO: 'nfe',
      MENS_DOC_ID: '55',
      MENS_DESTINATARIO: 'cliente@example.com',
    });
    expect(fields(0).file).toBeUndefined();
  });

  it('keeps what was typed when the server refuses, and says when no SMTP server sends it', async () => {
    const error = vi.spyOn(notify, 'error');
    server(
      json({ code: 400, msg: 'Destinatário: e-mail inválido (ana@).' }, 400),
      json({
        msg: 'E-mail agendado com sucesso!',
        MENS_ID: 15,
        aviso: 'Nenhum servidor de e-mail (SMTP) configurado para a empresa.',
      }),
    );
    const onClose = vi.fn();
    const user = userEvent.setup();
    render(<EmailDialog settings={{ to: ['ana@empresa.com.br'], subject: 'Oi' }} onClose={onClose} />);
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('Destinatário: e-mail inválido (ana@).'));
    expect(screen.getByLabelText('Assunto')).toHaveValue('Oi');
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    const notice = await screen.findByTestId('mensagem-na-fila');
    expect(notice).toHaveTextContent('E-mail agendado com sucesso!');
    expect(notice).toHaveTextContent('Nenhum servidor de e-mail (SMTP) configurado para a empresa.');
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('LoadingScreen', () => {
  it("says 'Carregando' by default", () => {
    render(<LoadingScreen />);
    expect(screen.getByRole('status')).toHaveTextContent('Carregando');
  });
});
