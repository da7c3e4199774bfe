import { afterEach, describe, expect, it, vi } from 'vitest';
import { signIn } from '../test/utils';
import { getSession } from './session';
import { postFile, UploadError } from './upload';

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
    expect(refused).toBeInstanceOf(UploadError);
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
