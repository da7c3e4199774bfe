import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../lib/toast';
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

describe('WhatsAppDialog', () => {
  it('needs at least one number', async () => {
    const warn = vi.spyOn(notify, 'warning');
    const onSend = vi.fn();
    render(<WhatsAppDialog settings={{ onSend }} onClose={vi.fn()} />);
    await userEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(warn).toHaveBeenCalledWith('Adicione pelo menos um destinatário!');
    expect(onSend).not.toHaveBeenCalled();
  });
  it('masks the number (##) #####-#### and sends the digits', async () => {
    const onSend = vi.fn();
    const user = userEvent.setup();
    render(<WhatsAppDialog settings={{ onSend }} onClose={vi.fn()} />);
    const input = screen.getByLabelText(/Número/);
    await user.type(input, '11987654321');
    expect(input).toHaveValue('(11) 98765-4321');
    await user.type(input, '{Enter}');
    await user.type(screen.getByLabelText('Mensagem'), 'Olá');
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(onSend).toHaveBeenCalledWith(['11987654321'], 'Olá');
  });
  it('takes a number left typed in the box when sending', async () => {
    const onSend = vi.fn();
    const user = userEvent.setup();
    render(<WhatsAppDialog settings={{ onSend }} onClose={vi.fn()} />);
    await user.type(screen.getByLabelText(/Número/), '11912345678');
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(onSend).toHaveBeenCalledWith(['11912345678'], '');
  });
  it('builds WhatsApp links with the 55 prefix and reports bad numbers', () => {
    expect(whatsappLink('(11) 98765-4321', 'Oi tudo')).toBe('https://wa.me/5511987654321?text=Oi%20tudo');
    const warn = vi.spyOn(notify, 'warning');
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    openWhatsApp(['123'], '');
    expect(warn).toHaveBeenCalledWith('Número Inválido ou não encontrado!');
    expect(open).not.toHaveBeenCalled();
  });
});

describe('EmailDialog', () => {
  it('needs a recipient, then a subject', async () => {
    const warn = vi.spyOn(notify, 'warning');
    const onSend = vi.fn();
    const user = userEvent.setup();
    render(<EmailDialog settings={{ onSend }} onClose={vi.fn()} />);
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(warn).toHaveBeenLastCalledWith('Adicione pelo menos um destinatário!');
    await user.type(screen.getByLabelText(/^Destinatários \(/), 'ana@x{Enter}');
    expect(screen.getByText('E-mail inválido.')).toBeInTheDocument();
    await user.clear(screen.getByLabelText(/^Destinatários \(/));
    await user.type(screen.getByLabelText(/^Destinatários \(/), 'ana@empresa.com.br;');
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(warn).toHaveBeenLastCalledWith('Adicione um assunto!');
    await user.type(screen.getByLabelText('Assunto'), 'Orçamento');
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(onSend).toHaveBeenCalledWith(
      expect.objectContaining({ to: ['ana@empresa.com.br'], subject: 'Orçamento', hidden: [] }),
    );
  });
  it('sanitises attachment names', async () => {
    const onSend = vi.fn();
    const user = userEvent.setup();
    render(<EmailDialog settings={{ onSend, to: ['a@b.com'], subject: 'S' }} onClose={vi.fn()} />);
    await user.upload(
      screen.getByLabelText('Anexos'),
      new File(['x'], 'Orçamento nº 12 (final).pdf', { type: 'application/pdf' }),
    );
    expect(screen.getByText('Orcamenton12final.pdf')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(onSend.mock.calls[0][0].attachments[0].name).toBe('Orcamenton12final.pdf');
    expect(sanitizeAttachment(new File([''], 'a b.txt')).name).toBe('ab.txt');
  });
});

describe('LoadingScreen', () => {
  it("says 'Carregando' by default", () => {
    render(<LoadingScreen />);
    expect(screen.getByRole('status')).toHaveTextContent('Carregando');
  });
});
