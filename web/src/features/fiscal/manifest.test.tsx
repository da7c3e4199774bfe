// The NF-e manifest's list: its status as a coloured badge, and the calls of its toolbar
// (fetch from the SEFAZ, send an XML), which tell the server's message and read the list again.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import RegisterListPage from '../../components/registers/RegisterListPage';
import { notify } from '../../lib/toast';
import { ResourceListDocument } from '../../lib/resources/documents';
import { manifestMeta, manifestRow } from '../../test/fixtures';
import { program, renderWith, signIn } from '../../test/utils';
import { distributionNotice } from './manifest';
import ManifestTools from './ManifestTools';

const listMock = (rows: object[]) => ({
  request: {
    query: ResourceListDocument,
    variables: {
      name: 'manifestonfe',
      emp: 1,
      input: { filter: null, order: 'MAN_DATA DESC, MAN_ID DESC', page: 1, limit: 20 },
    },
  },
  result: { data: { resourceList: { __typename: 'ResourcePage', rows, total: rows.length } } },
});
const fetched = [
  manifestRow({
    MAN_ID: 10,
    MAN_DATA: '2020-01-15',
    MAN_NUMERO: 1,
    MAN_EMIT_NOME: 'OUTRO EMITENTE',
    MAN_SITUACAO: 'P',
  }),
  manifestRow({ MAN_SITUACAO: 'D' }),
];

const json = (body: unknown, status: number) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function renderList(mocks: object[]) {
  return renderWith(
    <RegisterListPage
      meta={manifestMeta}
      metas={[manifestMeta]}
      tools={<ManifestTools meta={manifestMeta} metas={[manifestMeta]} />}
    />,
    { mocks: mocks as never, route: '/manifestonfe' },
  );
}

beforeEach(() => {
  window.innerWidth = 1920;
  signIn({ programs: [program({ id: 9, name: 'IndexManifestonfe', webPath: '/manifestonfe' })] });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('NF-e manifest list', () => {
  it('fetches from the SEFAZ, tells the message and its warnings, and reads the list again', async () => {
    const success = vi.spyOn(notify, 'success');
    const fetch = vi.fn(async () =>
      json(
        {
          NOVAS: 2,
          COMPLETAS: 1,
          DOCUMENTOS: 2,
          CIENCIAS: 0,
          ULTIMO_NSU: 2,
          MAX_NSU: 2,
          CSTAT: 138,
          MOTIVO: 'Documento localizado',
          AVISOS: ['35200159594315000157550010000000012062777161: ciência recusada.'],
          msg: '2 NF-e nova(s), 1 com o XML completo.',
        },
        200,
      ),
    );
    vi.stubGlobal('fetch', fetch);
    const user = userEvent.setup();
    renderList([listMock([]), listMock(fetched)]);
    expect(await screen.findByText('Nenhum item encontrado.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Buscar NF-e na SEFAZ' }));
    await waitFor(() =>
      expect(success).toHaveBeenCalledWith(
        '2 NF-e nova(s), 1 com o XML completo.',
        '35200159594315000157550010000000012062777161: ciência recusada.',
      ),
    );
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/manifestonfe/distribuicao/1');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({});
    expect(init.headers).toMatchObject({ authorization: 'Bearer token-123' });

    // Newest first, as the server orders them, each status a badge of its tone.
    const other = (await screen.findByText('OUTRO EMITENTE')).closest('tr') as HTMLElement;
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows[0]).toBe(other);
    expect(within(other).getByText('Sem manifestação')).toHaveClass('rounded-full', 'bg-emerald-100');
    expect(within(rows[1]).getByText('Operação desconhecida')).toHaveClass('rounded-full', 'bg-red-100');
  });

  it("tells the server's refusal of the distribution", async () => {
    const error = vi.spyOn(notify, 'error');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        json({ code: 409, msg: 'Configure as credenciais da Nuvem Fiscal em Empresas › Serviços fiscais.' }, 409),
      ),
    );
    const user = userEvent.setup();
    renderList([listMock([])]);
    await user.click(await screen.findByRole('button', { name: 'Buscar NF-e na SEFAZ' }));
    await waitFor(() =>
      expect(error).toHaveBeenCalledWith('Configure as credenciais da Nuvem Fiscal em Empresas › Serviços fiscais.'),
    );
    expect(screen.getByRole('button', { name: 'Buscar NF-e na SEFAZ' })).toBeEnabled();
  });

  it('sends an XML picked as multipart, tells the message and reads the list again', async () => {
    const success = vi.spyOn(notify, 'success');
    const fetch = vi.fn(async () => json({ ...manifestRow(), msg: 'NF-e incluída no manifesto.' }, 200));
    vi.stubGlobal('fetch', fetch);
    const user = userEvent.setup();
    renderList([listMock([]), listMock([manifestRow()])]);
    await screen.findByText('Nenhum item encontrado.');
    expect(screen.getByRole('button', { name: 'Enviar XML' })).toBeEnabled();
    await user.upload(
      screen.getByLabelText('Arquivo XML da NF-e'),
      new File(['<nfeProc/>'], 'nota.xml', { type: 'text/xml' }),
    );
    await waitFor(() => expect(success).toHaveBeenCalledWith('NF-e incluída no manifesto.'));
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/manifestonfe');
    expect(((init.body as FormData).get('file') as File).name).toBe('nota.xml');
    expect(await screen.findByText('UMA RAZAO SOCIAL DE TESTE QUALQUER')).toBeInTheDocument();
  });

  it('offers its calls to users who may add to the manifest only', async () => {
    signIn({
      programs: [program({ id: 9, name: 'IndexManifestonfe', webPath: '/manifestonfe', canCreate: false })],
    });
    renderList([listMock([])]);
    await screen.findByText('Nenhum item encontrado.');
    expect(screen.queryByRole('button', { name: 'Buscar NF-e na SEFAZ' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Enviar XML' })).not.toBeInTheDocument();
  });

  it('reads the distribution answer, with a text of its own when it has no message', () => {
    expect(distributionNotice({ msg: 'Nenhuma NF-e nova emitida contra a empresa.', AVISOS: [] })).toEqual({
      message: 'Nenhuma NF-e nova emitida contra a empresa.',
      warnings: [],
    });
    expect(distributionNotice(null)).toEqual({ message: 'Consulta à SEFAZ concluída.', warnings: [] });
  });
});
