import { afterEach, describe, expect, it, vi } from 'vitest';
import { signIn } from '../test/utils';
import { RestError } from './rest';
import { isNoContent, isNotice, postForFile, postForm, requestFile, requestJson, saveFile } from './restForms';
import { getSession } from './session';

const json = (body: unknown, status: number) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('postForm', () => {
  it('posts the file and the text fields as multipart with the token, and answers the JSON', async () => {
    signIn();
    const fetchMock = vi.fn(async () => json({ IMPORTADOS: 2 }, 200));
    vi.stubGlobal('fetch', fetchMock);
    const file = new File(['OFXHEADER'], 'extrato.ofx');
    await expect(postForm('/conciliacaobancaria/ofx/1', file, { BCO_ID: 3 })).resolves.toEqual({ IMPORTADOS: 2 });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/conciliacaobancaria/ofx/1');
    expect(init.headers).toMatchObject({ authorization: 'Bearer token-123' });
    const body = init.body as FormData;
    expect((body.get('file') as File).name).toBe('extrato.ofx');
    expect(body.get('BCO_ID')).toBe('3');
    // The usual REST timeout applies: the call carries an abort signal.
    expect(init.signal).toBeInstanceOf(AbortSignal);
  });

  it("throws the server's msg and ends the session on a 401", async () => {
    signIn();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ code: 400, msg: 'Arquivo OFX inválido.' }, 400)),
    );
    await expect(postForm('/x', new File(['x'], 'a.ofx'), {})).rejects.toThrow('Arquivo OFX inválido.');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ code: 401, msg: 'Token inválido.' }, 401)),
    );
    await expect(postForm('/x', new File(['x'], 'a.ofx'), {})).rejects.toMatchObject({ status: 401 });
    expect(getSession()).toBeNull();
  });
});

describe('postForFile', () => {
  it('reads a file of the expected types under its name, with no timeout when asked', async () => {
    signIn();
    const fetchMock = vi.fn(
      async () =>
        new Response('01REMESSA', {
          status: 200,
          headers: {
            'content-type': 'text/plain; charset=us-ascii',
            'content-disposition': 'attachment; filename="R1.REM"',
          },
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const file = await postForFile(
      '/boletos/remessa/1',
      { BCO_ID: 1 },
      {
        fallbackName: 'remessa.rem',
        types: ['text/plain'],
        timeoutMs: null,
      },
    );
    expect(file.name).toBe('R1.REM');
    expect(await file.blob.text()).toBe('01REMESSA');
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.signal).toBeUndefined();
    expect(JSON.parse(String(init.body))).toEqual({ BCO_ID: 1 });
  });

  it('takes a JSON answer for a refusal: a notice when the status is a success', async () => {
    signIn();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ code: 500, msg: 'Nenhuma nota no período.' }, 200)),
    );
    const e = await postForFile('/x', {}, { fallbackName: 'a.txt', types: ['text/'] }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(RestError);
    expect(isNotice(e)).toBe(true);
    expect((e as RestError).message).toBe('Nenhuma nota no período.');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>', { status: 200, headers: { 'content-type': 'text/html' } })),
    );
    const html = await postForFile('/x', {}, { fallbackName: 'a.txt', types: ['text/plain'] }).catch(
      (err: unknown) => err,
    );
    expect(html).toBeInstanceOf(RestError);
    expect(isNotice(html)).toBe(false);
    expect((html as RestError).message).toBe('Não foi possível obter o arquivo.');
  });
});

describe('saveFile', () => {
  it('downloads the file under its name', () => {
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    saveFile({ blob: new Blob(['a']), name: 'notas.txt' });
    const link = click.mock.contexts[0] as HTMLAnchorElement;
    expect(link.download).toBe('notas.txt');
    expect(link.href).toBe('blob:x');
    expect(document.body.contains(link)).toBe(false);
  });
});

describe('requestJson', () => {
  it('GETs with the token, or POSTs the JSON, and answers the JSON; 204 is null', async () => {
    signIn();
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(json([{ NOME: 'vendas' }], 200))
      .mockResolvedValueOnce(new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(requestJson('/relatorios/definicoes/1')).resolves.toEqual([{ NOME: 'vendas' }]);
    const [url, get] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/relatorios/definicoes/1');
    expect(get.method).toBe('GET');
    expect(get.headers).toMatchObject({ authorization: 'Bearer token-123' });
    expect(get.signal).toBeInstanceOf(AbortSignal);

    await expect(requestJson('/vendas/reports', { json: { EMP_ID: 1 }, timeoutMs: null })).resolves.toBeNull();
    const [, post] = fetchMock.mock.calls[1] as [string, RequestInit];
    expect(post.method).toBe('POST');
    expect(JSON.parse(String(post.body))).toEqual({ EMP_ID: 1 });
    expect(post.signal).toBeUndefined();
  });

  it("throws the server's msg with its status, and a fixed text for an answer that is no JSON", async () => {
    signIn();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ code: 404, msg: 'Relatório não encontrado.' }, 404)),
    );
    await expect(requestJson('/x')).rejects.toMatchObject({ message: 'Relatório não encontrado.', status: 404 });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<!doctype html>', { status: 200, headers: { 'content-type': 'text/html' } })),
    );
    await expect(requestJson('/x')).rejects.toThrow('Ocorreu um erro durante o processo.');
  });
});

describe('postForFile on 204', () => {
  it('throws NoContent, which keeps the text of a file that could not be read', async () => {
    signIn();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(null, { status: 204 })),
    );
    const refused = await postForFile('/x', {}, { fallbackName: 'a.pdf', types: ['application/pdf'] }).catch(
      (e: unknown) => e,
    );
    expect(isNoContent(refused)).toBe(true);
    expect(refused).toBeInstanceOf(RestError);
    expect((refused as RestError).message).toBe('Não foi possível obter o arquivo.');
  });
});

describe('requestFile', () => {
  it('calls with the method and JSON body and reads a file of any type under its name', async () => {
    signIn();
    const fetchMock = vi.fn(
      async () =>
        new Response('%PDF', {
          status: 200,
          headers: { 'content-type': 'application/pdf', 'content-disposition': 'inline; filename="dacte-12.pdf"' },
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const file = await requestFile('/cte/dacte', { json: { CTE_ID: 12 }, fallbackName: 'dacte.pdf' });
    expect(file.name).toBe('dacte-12.pdf');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/cte/dacte');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({ CTE_ID: 12 });
    expect(init.headers).toMatchObject({ authorization: 'Bearer token-123' });

    // GET sends no body; no Content-Disposition: the fallback name.
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<xml/>', { status: 200, headers: { 'content-type': 'application/xml' } })),
    );
    const got = await requestFile('/x/1', { method: 'get', fallbackName: 'x.xml' });
    expect(got.name).toBe('x.xml');
  });

  it("refuses with the server's msg, a notice for JSON with success, and a fixed text for HTML", async () => {
    signIn();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ code: 409, msg: 'O XML desta NF-e ainda não está disponível.' }, 409)),
    );
    await expect(requestFile('/x', { fallbackName: 'x' })).rejects.toMatchObject({
      message: 'O XML desta NF-e ainda não está disponível.',
      status: 409,
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ code: 200, msg: 'Nada a baixar.' }, 200)),
    );
    const notice = await requestFile('/x', { fallbackName: 'x' }).catch((e: unknown) => e);
    expect(isNotice(notice)).toBe(true);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<!doctype html>', { status: 200, headers: { 'content-type': 'text/html' } })),
    );
    await expect(requestFile('/x', { fallbackName: 'x' })).rejects.toThrow('Não foi possível obter o arquivo.');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{}', { status: 500 })),
    );
    await expect(requestFile('/x', { fallbackName: 'x' })).rejects.toBeInstanceOf(RestError);
  });
});
