import { afterEach, describe, expect, it, vi } from 'vitest';
import { signIn } from '../test/utils';
import { getSession } from './session';
import { dispositionName, fetchFile, postFile, RestError } from './rest';

const json = (body: unknown, status: number) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => vi.unstubAllGlobals());

describe('postFile', () => {
  it('posts the file as multipart with the bearer token and the screen, and answers the JSON', async () => {
    signIn();
    const fetchMock = vi.fn(async () => json({ compra: { COMP_ID: 1 } }, 200));
    vi.stubGlobal('fetch', fetchMock);
    const file = new File(['<NFe/>'], 'nota.xml', { type: 'text/xml' });
    await expect(postFile('/compra/uploads/1', file)).resolves.toEqual({ compra: { COMP_ID: 1 } });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/compra/uploads/1');
    expect(init.headers).toMatchObject({ authorization: 'Bearer token-123', 'x-erp-screen': '/' });
    expect(((init.body as FormData).get('file') as File).name).toBe('nota.xml');
  });

  it("throws the server's msg, a fixed text when there is none, and ends the session on a 401", async () => {
    signIn();
    const file = new File(['x'], 'nota.xml');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ code: 400, msg: 'XML malformado.' }, 400)),
    );
    await expect(postFile('/compra/uploads/1', file)).rejects.toThrow('XML malformado.');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('Payload Too Large', { status: 413 })),
    );
    const refused = await postFile('/compra/uploads/1', file).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RestError);
    expect(refused).toMatchObject({ message: 'Erro no upload', status: 413 });
    expect(getSession()).not.toBeNull();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ code: 401, msg: 'Token inválido.' }, 401)),
    );
    await expect(postFile('/compra/uploads/1', file)).rejects.toThrow('Token inválido.');
    expect(getSession()).toBeNull();
  });
});

describe('fetchFile', () => {
  const pdf = (name?: string) =>
    new Response('%PDF-1.7 ...', {
      status: 200,
      headers: {
        'content-type': 'application/pdf',
        ...(name ? { 'content-disposition': `inline; filename="${name}"` } : {}),
      },
    });

  it("GETs the file with the token and answers its bytes under the server's name", async () => {
    signIn();
    const fetchMock = vi.fn(async () => pdf('recibo-12.pdf'));
    vi.stubGlobal('fetch', fetchMock);
    const file = await fetchFile('/contasreceber/recibo/12/1', { fallbackName: 'recibo.pdf', type: 'application/pdf' });
    expect(file.name).toBe('recibo-12.pdf');
    expect(file.blob.type).toBe('application/pdf');
    expect(await file.blob.text()).toMatch(/^%PDF/);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/contasreceber/recibo/12/1');
    expect(init).toMatchObject({ method: 'GET', headers: { authorization: 'Bearer token-123' } });
  });

  it('POSTs a JSON body, names the file itself when the server does not, and refuses another type', async () => {
    signIn();
    const fetchMock = vi.fn(async () => pdf());
    vi.stubGlobal('fetch', fetchMock);
    const file = await fetchFile('/reciboavulso/1', {
      json: { VALOR: 10 },
      fallbackName: 'recibo-avulso.pdf',
      type: 'application/pdf',
    });
    expect(file.name).toBe('recibo-avulso.pdf');
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(init).toMatchObject({ method: 'POST', body: '{"VALOR":10}' });
    expect((init.headers as Record<string, string>)['content-type']).toBe('application/json');
    // The app's index.html answered instead of the PDF (a route the gateway does not serve).
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html></html>', { status: 200, headers: { 'content-type': 'text/html' } })),
    );
    await expect(fetchFile('/x', { fallbackName: 'x.pdf', type: 'application/pdf' })).rejects.toThrow(
      'Não foi possível obter o arquivo.',
    );
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json({ code: 404, msg: 'Baixa 9 não encontrada.' }, 404)),
    );
    await expect(fetchFile('/x', { fallbackName: 'x.pdf', type: 'application/pdf' })).rejects.toMatchObject({
      message: 'Baixa 9 não encontrada.',
      status: 404,
    });
  });

  it('reads the name of a Content-Disposition header', () => {
    expect(dispositionName('inline; filename="recibo-3.pdf"')).toBe('recibo-3.pdf');
    expect(dispositionName("attachment; filename*=UTF-8''recibo%20avulso.pdf")).toBe('recibo avulso.pdf');
    expect(dispositionName(null)).toBeNull();
  });
});
