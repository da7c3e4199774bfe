import { describe, expect, it } from 'vitest';
import {
  apiDateTime,
  connectionOf,
  contactsOf,
  documentFields,
  documentText,
  messageKind,
  messageOf,
  queuedOf,
  recipientText,
  whatsappNumber,
} from './messaging';

describe('messaging', () => {
  it("reads a sending call's answer: its text, the message's id and why it waits", () => {
    expect(queuedOf({ msg: 'Whatsapp Agendado com sucesso!', MENS_ID: 7 }, 'x')).toEqual({
      msg: 'Whatsapp Agendado com sucesso!',
      id: 7,
      notice: null,
    });
    expect(queuedOf(null, 'E-mail agendado com sucesso!')).toEqual({
      msg: 'E-mail agendado com sucesso!',
      id: null,
      notice: null,
    });
    expect(queuedOf({ msg: 'Nenhum provedor de WhatsApp configurado para a empresa.', id: 3 }, 'x').notice).toBe(
      'Nenhum provedor de WhatsApp configurado para a empresa.',
    );
    expect(queuedOf({ msg: 'E-mail agendado com sucesso!', aviso: 'Sem SMTP.' }, 'x').notice).toBe('Sem SMTP.');
  });

  it('sends numbers as 55 + digits, and a message as text, image or document', () => {
    expect(whatsappNumber('(11) 98765-4321')).toBe('5511987654321');
    expect(messageKind(null, null)).toBe('T');
    expect(messageKind(new File([''], 'a.png', { type: 'image/png' }), null)).toBe('I');
    expect(messageKind(new File([''], 'a.pdf', { type: 'application/pdf' }), null)).toBe('D');
    expect(messageKind(null, { kind: 'nfe', id: 1, label: 'NF-e' })).toBe('D');
  });

  it('takes a schedule typed dd/MM/yyyy HH:mm only when it is a real moment', () => {
    expect(apiDateTime('31/01/2030 09:30')).toBe('2030-01-31 09:30');
    expect(apiDateTime('30/02/2030 09:30')).toBeNull();
    expect(apiDateTime('31/01/2030 24:00')).toBeNull();
    expect(apiDateTime('31/01/2030')).toBeNull();
  });

  it("fills the recipients from a customer's row: valid e-mails, mobile numbers, the NF-e address for an NF-e", () => {
    const row = {
      CLI_EMAIL: 'compras@x.com.br; errado@',
      CLI_EMAIL_NFE: 'nfe@x.com.br',
      CLI_FONE: '1133334444;11987654321',
    };
    expect(contactsOf(row)).toEqual({ emails: ['compras@x.com.br'], phones: ['11987654321'] });
    expect(contactsOf(row, true).emails).toEqual(['nfe@x.com.br']);
    expect(contactsOf({ CLI_EMAIL_NFE: 'nfe@x.com.br' }).emails).toEqual(['nfe@x.com.br']);
    expect(contactsOf(null)).toEqual({ emails: [], phones: [] });
  });

  it('shows a queued message: its status in words, its document, its recipient', () => {
    const m = messageOf({
      MENS_ID: 4,
      MENS_CANAL: 'W',
      MENS_DESTINATARIO: '5511987654321',
      MENS_STATUS: 'T',
      MENS_DOC_TIPO: 'recibo',
      MENS_DOC_ID: 31,
      MENS_TENTATIVAS: 1,
    });
    expect(m).toMatchObject({ id: 4, statusText: 'Entregue', attachment: 'Recibo nº 31', attempts: 1, error: null });
    expect(messageOf({ MENS_STATUS: 'N' })).toBeNull();
    expect(recipientText('W', '5511987654321')).toBe('+55 (11) 98765-4321');
    expect(recipientText('E', 'a@x.com;b@x.com')).toBe('a@x.com, b@x.com');
  });

  it('shows the QR code of a pairing as an image, whether the provider sent a data: URL or the base64 alone', () => {
    expect(connectionOf({ state: 'connecting', qrcode: 'iVBORw0K' }).qrcode).toBe('data:image/png;base64,iVBORw0K');
    expect(connectionOf({ state: 'connecting', qrcode: 'data:image/png;base64,AAA' }).qrcode).toBe(
      'data:image/png;base64,AAA',
    );
    expect(connectionOf({ state: 'open' })).toMatchObject({ msg: 'Conectado.', qrcode: null });
  });

  it('sends each kind of document as the server takes it: MENS_DOC_TIPO, MENS_DOC_ID and MENS_DOC_REF (JSON)', () => {
    expect(documentFields(null)).toEqual({});
    expect(documentFields({ kind: 'boleto', id: 31, label: 'Boleto' })).toEqual({
      MENS_DOC_TIPO: 'boleto',
      MENS_DOC_ID: 31,
    });
    expect(documentFields({ kind: 'orcamento', id: 5, label: 'Orçamento nº 5' })).toEqual({
      MENS_DOC_TIPO: 'orcamento',
      MENS_DOC_ID: 5,
    });
    expect(documentFields({ kind: 'pedido', id: 9, label: 'Pedido nº 9/1', ref: { PEDF_SERIE: '1' } })).toEqual({
      MENS_DOC_TIPO: 'pedido',
      MENS_DOC_ID: 9,
      MENS_DOC_REF: '{"PEDF_SERIE":"1"}',
    });
    // A report has no id: its name, format and filters are its reference.
    expect(
      documentFields({
        kind: 'relatorio',
        label: 'Relatório de Vendas',
        ref: { relatorio: 'vendas', FORMATO: 'pdf', DATA_INI: '2026-11-01', DATA_FIM: '2026-11-30', CLI_ID: null },
      }),
    ).toEqual({
      MENS_DOC_TIPO: 'relatorio',
      MENS_DOC_REF:
        '{"relatorio":"vendas","FORMATO":"pdf","DATA_INI":"2026-11-01","DATA_FIM":"2026-11-30","CLI_ID":null}',
    });
    expect(messageKind(null, { kind: 'relatorio', label: 'Relatório' })).toBe('D');
  });

  it('names the new documents in the queue: a report by its name and format, an order with its series', () => {
    expect(documentText('orcamento', 5)).toBe('Orçamento nº 5');
    expect(documentText('pedido', 9)).toBe('Pedido nº 9');
    expect(documentText('pedido', 9, '{"PEDF_SERIE":"1"}')).toBe('Pedido nº 9/1');
    expect(documentText('relatorio', null)).toBe('Relatório');
    expect(documentText('relatorio', null, '{"relatorio":"vendas","FORMATO":"pdf"}')).toBe('Relatório vendas (PDF)');
    expect(documentText('relatorio', null, { relatorio: 'vendas', FORMATO: 'xlsx' })).toBe('Relatório vendas (Excel)');
    expect(documentText('relatorio', null, 'não é JSON')).toBe('Relatório');
    expect(
      messageOf({ MENS_ID: 1, MENS_DOC_TIPO: 'pedido', MENS_DOC_ID: 9, MENS_DOC_REF: '{"PEDF_SERIE":"2"}' })
        ?.attachment,
    ).toBe('Pedido nº 9/2');
  });
});
