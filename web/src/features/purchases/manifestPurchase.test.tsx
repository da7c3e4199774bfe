// 'Gerar Compra' on an NF-e of the manifest: its XML, imported as a purchase the way the
// purchases list imports one, linked to the NF-e; then the purchase's screen opens.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../lib/toast';
import { manifestMeta, manifestRow, purchaseMeta } from '../../test/fixtures';
import { program, renderWith, signIn } from '../../test/utils';
import ManifestPurchase from './ManifestPurchase';
import { canMakePurchase, type ManifestNfe } from './manifestPurchase';

const compra = {
  COMP_ID: 12,
  COMP_EMP_ID: 1,
  COMP_FORN_ID: 3,
  COMP_FORN_DESC: 'UMA RAZAO SOCIAL DE TESTE QUALQUER',
  COMP_NUMERO: 26,
  COMP_SERIE: '1',
  COMP_SITUACAO: 'A',
};
const imported = { compra, itens: [], avisos: ['Produto novo: ITEM DE TESTE.'] };

const xmlReply = () =>
  new Response('<nfeProc/>', {
    status: 200,
    headers: {
      'content-type': 'application/xml',
      'content-disposition': 'inline; filename="43180906929383000163550010000000261000010301-nfe.xml"',
    },
  });
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function Where() {
  const { pathname, search, state } = useLocation();
  const record = (state as { record?: { COMP_ID?: number } } | null)?.record;
  return <p data-testid="where">{`${pathname}${decodeURIComponent(search)}${record ? ` #${record.COMP_ID}` : ''}`}</p>;
}

function renderTool(record: ManifestNfe) {
  return renderWith(
    <>
      <Routes>
        <Route
          path="/manifestonfe/alterar"
          element={<ManifestPurchase meta={manifestMeta} metas={[manifestMeta, purchaseMeta]} record={record} />}
        />
        <Route path="*" element={null} />
      </Routes>
      <Where />
    </>,
    { route: '/manifestonfe/alterar?id=9' },
  );
}

/** Answers each call by its path, and keeps what was sent. */
function serve(answers: Record<string, () => Response>) {
  const fetch = vi.fn(async (url: string) => {
    const answer = answers[url];
    if (!answer) throw new Error(`Unexpected call ${url}`);
    return answer();
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

const grant = (canCreatePurchase = true) =>
  signIn({
    programs: [
      program({ id: 9, name: 'IndexManifestonfe', webPath: '/manifestonfe' }),
      program({ id: 4, name: 'IndexCompra', webPath: '/compras', canCreate: canCreatePurchase }),
    ],
  });

beforeEach(() => {
  window.innerWidth = 1920;
  grant();
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe("'Gerar Compra'", () => {
  it('imports the XML as a purchase, links the NF-e to it and its supplier, and opens it', async () => {
    const success = vi.spyOn(notify, 'success');
    const fetch = serve({
      '/manifestonfe/download/doc': xmlReply,
      '/compra/uploads/1': () => json(imported),
      '/manifestonfe/updatefornecedor': () => json(manifestRow({ MAN_FOR_ID: 3, MAN_COMP_ID: 12 })),
    });
    const user = userEvent.setup();
    renderTool(manifestRow());
    await user.click(screen.getByRole('button', { name: 'Gerar Compra' }));
    const dialog = await screen.findByRole('dialog', { name: 'Gerar compra' });
    expect(dialog).toHaveTextContent('Gerar uma compra em aberto da NF-e 26 de UMA RAZAO SOCIAL DE TESTE QUALQUER?');
    await user.click(within(dialog).getByRole('button', { name: 'Gerar Compra' }));

    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/compras/alterar?id=12 #12'));
    expect(success).toHaveBeenCalledWith('XML importado com sucesso!', 'Produto novo: ITEM DE TESTE.');

    const calls = fetch.mock.calls as unknown as [string, RequestInit][];
    expect(calls.map(([url]) => url)).toEqual([
      '/manifestonfe/download/doc',
      '/compra/uploads/1',
      '/manifestonfe/updatefornecedor',
    ]);
    expect(JSON.parse(String(calls[0][1].body))).toEqual({ MAN_ID: 9 });
    const sent = (calls[1][1].body as FormData).get('file') as File;
    expect(sent.name).toBe('43180906929383000163550010000000261000010301-nfe.xml');
    expect(sent.size).toBe('<nfeProc/>'.length);
    expect(JSON.parse(String(calls[2][1].body))).toEqual({ MAN_ID: 9, FOR_ID: 3, COMP_ID: 12 });
  });

  it('opens the purchase all the same when the link is refused, and says so', async () => {
    const warning = vi.spyOn(notify, 'warning');
    serve({
      '/manifestonfe/download/doc': xmlReply,
      '/compra/uploads/1': () => json(imported),
      '/manifestonfe/updatefornecedor': () => json({ code: 404, msg: 'NF-e do manifesto não encontrada.' }, 404),
    });
    const user = userEvent.setup();
    renderTool(manifestRow());
    await user.click(screen.getByRole('button', { name: 'Gerar Compra' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Gerar Compra' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/compras/alterar?id=12'));
    expect(warning).toHaveBeenCalledWith(
      'A compra foi gerada, mas a NF-e não foi vinculada a ela: NF-e do manifesto não encontrada.',
    );
  });

  it("stays and shows the import's refusal", async () => {
    const error = vi.spyOn(notify, 'error');
    const fetch = serve({
      '/manifestonfe/download/doc': xmlReply,
      '/compra/uploads/1': () => json({ code: 409, msg: 'Esta NF-e já foi importada na compra 7.' }, 409),
    });
    const user = userEvent.setup();
    renderTool(manifestRow());
    await user.click(screen.getByRole('button', { name: 'Gerar Compra' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Gerar Compra' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('Esta NF-e já foi importada na compra 7.'));
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(screen.getByTestId('where')).toHaveTextContent('/manifestonfe/alterar?id=9');
    expect(screen.getByRole('button', { name: 'Gerar Compra' })).toBeEnabled();
  });

  it('is enabled for a whole NF-e acknowledged or confirmed that is no purchase yet', () => {
    expect(canMakePurchase(manifestRow())).toBe(true);
    expect(canMakePurchase(manifestRow({ MAN_SITUACAO: 'F' }))).toBe(true);
    expect(canMakePurchase(manifestRow({ MAN_SITUACAO: 'P' }))).toBe(false);
    expect(canMakePurchase(manifestRow({ MAN_SITUACAO: 'D' }))).toBe(false);
    expect(canMakePurchase(manifestRow({ MAN_COMPLETA: false }))).toBe(false);
    expect(canMakePurchase(manifestRow({ MAN_COMP_ID: 12 }))).toBe(false);
  });

  it('is disabled when not possible, and absent for users who may not create purchases', () => {
    const { unmount } = renderTool(manifestRow({ MAN_COMPLETA: false }));
    expect(screen.getByRole('button', { name: 'Gerar Compra' })).toBeDisabled();
    unmount();
    grant(false);
    renderTool(manifestRow());
    expect(screen.queryByRole('button', { name: 'Gerar Compra' })).not.toBeInTheDocument();
  });
});
