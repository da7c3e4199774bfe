import { ApolloLink, Observable } from '@apollo/client';
import { MockSubscriptionLink } from '@apollo/client/testing';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Schema } from '../../lib/api';
import { renderWith, signIn } from '../../test/utils';
import { NotificationBell } from './NotificationBell';
import { historyOf, liveItem, merged } from './notifications';

type Row = Schema<'Notificacao'>;

const row = (id: number, message: string, over: Partial<Row> = {}): Row => ({
  NOTI_ID: id,
  NOTI_EMP_ID: 1,
  NOTI_TIPO: 'mensagem',
  NOTI_MENSAGEM: message,
  NOTI_LINK: null,
  NOTI_DTA_CAD: '2026-11-22T13:05:00.000Z',
  lida: false,
  ...over,
});

/** What GET /notificacoes answers. */
const HISTORY: Schema<'Notificacoes'> = {
  dados: [
    row(12, 'NF-e do pedido 9/1 rejeitada: 539 Duplicidade de NF-e', {
      NOTI_TIPO: 'nfe',
      NOTI_LINK: '/pedidos/alterar?id=%7B%22PEDF_ID%22%3A9%2C%22PEDF_SERIE%22%3A%221%22%7D',
    }),
    row(11, 'WhatsApp para +55 (54) 99987-6543 não foi enviado: Número inválido.', { NOTI_LINK: '/whatsapp' }),
    row(10, 'Boleto nº 31 pago: R$ 1.234,50', { NOTI_TIPO: 'boleto', lida: true }),
  ],
  naoLidas: 2,
};

/**
 * The server: the register calls (resourceAction: GET /notificacoes answers `history`, null: an
 * error; PUT
 * /notificacoes/lidas its message), recorded in `calls`; the subscription, pushed by `live`.
 */
function server(history: unknown = HISTORY) {
  const calls: string[] = [];
  const live = new MockSubscriptionLink();
  const rest = new ApolloLink((op) => {
    const action = String(op.variables.action);
    calls.push(`${String(op.variables.name)}/${action}`);
    if (action === 'listar' && history === null)
      return new Observable((o) => o.error(new Error('Serviço messaging indisponível.')));
    const answer = action === 'listar' ? history : { code: 200, msg: 'Notificações marcadas como lidas.' };
    return Observable.of({ data: { resourceAction: answer } });
  });
  const link = ApolloLink.split((op) => op.operationName === 'Notifications', live, rest);
  return { link, live, calls };
}

/** Where the app is, the record's id as the edit screen reads it. */
function Where() {
  const l = useLocation();
  return <p data-testid="where">{`${l.pathname} id=${new URLSearchParams(l.search).get('id') ?? ''}`}</p>;
}

function renderBell(history?: unknown, onVersion = vi.fn()) {
  const s = server(history);
  renderWith(
    <>
      <NotificationBell onVersion={onVersion} />
      <Routes>
        <Route path="*" element={<Where />} />
      </Routes>
    </>,
    { link: s.link, route: '/' },
  );
  return { ...s, onVersion };
}

/** The subscription pushes a notification (MockSubscriptionLink delivers it on a timer). */
async function push(live: MockSubscriptionLink, n: { id: string; message: string; kind: string; link?: string }) {
  await waitFor(() => expect(live.operation?.operationName).toBe('Notifications'));
  await act(async () => {
    live.simulateResult({
      result: {
        data: {
          notifications: {
            __typename: 'Notification',
            createdAt: '2026-11-22T14:00:00.000Z',
            link: null,
            ...n,
          },
        },
      },
    });
    await new Promise((r) => setTimeout(r, 10));
  });
}

const bell = () => screen.getByRole('button', { name: /^Notificações/ });

beforeEach(() => signIn());

describe('notification bell', () => {
  it('loads the history when the session starts, counting what the user has not read', async () => {
    const { calls } = renderBell();
    expect(await screen.findByTestId('notification-count')).toHaveTextContent('2');
    expect(calls).toEqual(['notificacoes/listar']);
    fireEvent.click(bell());
    const items = within(screen.getByRole('list')).getAllByRole('listitem');
    expect(items.map((i) => i.querySelector('p')?.textContent)).toEqual([
      'NF-e do pedido 9/1 rejeitada: 539 Duplicidade de NF-e',
      'WhatsApp para +55 (54) 99987-6543 não foi enviado: Número inválido.',
      'Boleto nº 31 pago: R$ 1.234,50',
    ]);
    expect(items[2]).toHaveAttribute('data-read', 'true');
  });

  it('marks them read on the server once when opened', async () => {
    const { calls } = renderBell();
    await screen.findByTestId('notification-count');
    fireEvent.click(bell());
    expect(screen.queryByTestId('notification-count')).not.toBeInTheDocument();
    await waitFor(() => expect(calls).toEqual(['notificacoes/listar', 'notificacoes/lidas']));
    // Closed and opened again with nothing new: nothing more to mark.
    fireEvent.click(bell());
    fireEvent.click(bell());
    expect(calls).toEqual(['notificacoes/listar', 'notificacoes/lidas']);
    expect(bell()).toHaveAccessibleName('Notificações (0)');
  });

  it('puts a pushed notification first, unread, once however often it arrives', async () => {
    const { live } = renderBell();
    await screen.findByTestId('notification-count');
    const n = {
      id: '13',
      message: 'Boleto nº 32 pago: R$ 50,00',
      kind: 'boleto',
      link: '/contasareceber/alterar?id=7',
    };
    await push(live, n);
    await push(live, n);
    expect(screen.getByTestId('notification-count')).toHaveTextContent('3');
    fireEvent.click(bell());
    const first = within(screen.getByRole('list')).getAllByRole('listitem')[0];
    expect(first).toHaveTextContent('Boleto nº 32 pago: R$ 50,00');
    expect(within(screen.getByRole('list')).getAllByRole('listitem')).toHaveLength(4);
  });

  it('leads to the screen a notification names', async () => {
    renderBell();
    await screen.findByTestId('notification-count');
    fireEvent.click(bell());
    fireEvent.click(screen.getByRole('button', { name: /NF-e do pedido 9\/1 rejeitada/ }));
    expect(screen.getByTestId('where')).toHaveTextContent('/pedidos/alterar id={"PEDF_ID":9,"PEDF_SERIE":"1"}');
    expect(screen.queryByRole('list')).not.toBeInTheDocument();
  });

  it('tells the shell when a new version is announced', async () => {
    const { live, onVersion } = renderBell({ dados: [], naoLidas: 0 });
    await push(live, { id: '20', message: 'Pedido 10 faturado', kind: 'mensagem' });
    expect(onVersion).not.toHaveBeenCalled();
    await push(live, { id: '21', message: 'Nova versão disponível atualize o sistema!', kind: 'versao' });
    expect(onVersion).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('notification-count')).toHaveTextContent('2');
  });

  it('still shows what arrives live when the history cannot be read', async () => {
    const { live } = renderBell(null);
    await push(live, { id: '30', message: 'Pedido 10 faturado', kind: 'mensagem' });
    expect(screen.getByTestId('notification-count')).toHaveTextContent('1');
  });
});

describe('notification list', () => {
  it('keeps each id once, the first one first, read if either copy was', () => {
    const history = historyOf(HISTORY);
    expect(history.map((h) => [h.id, h.kind, h.read])).toEqual([
      ['12', 'nfe', false],
      ['11', 'mensagem', false],
      ['10', 'boleto', true],
    ]);
    const pushed = liveItem({ id: '10', message: 'Boleto nº 31 pago: R$ 1.234,50', createdAt: 'x', kind: 'boleto' });
    const list = merged([pushed], history);
    expect(list.map((i) => [i.id, i.read])).toEqual([
      ['10', true],
      ['12', false],
      ['11', false],
    ]);
    expect(historyOf(null)).toEqual([]);
    const many = Array.from({ length: 60 }, (_, i) => liveItem({ id: String(i), message: 'x', createdAt: 'y' }));
    expect(merged(many, [])).toHaveLength(50);
  });
});
