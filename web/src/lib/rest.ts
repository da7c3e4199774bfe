// The gateway's legacy REST calls that GraphQL does not carry: a file sent as multipart
// (the NF-e XML import) and a file answered as bytes (a receipt PDF). Both carry the same
// bearer token and screen header as POST /graphql, wait longer than the other calls, throw the
// server's pt-BR `msg` when refused, and a 401 ends the session.
import { timeoutFetch } from './apollo';
import { MSG } from './messages';
import { clearSession, getToken } from './session';

/** A REST call waits longer than the GraphQL ones (15 s): the server reads or renders a whole file. */
export const REST_TIMEOUT_MS = 60_000;

/** A refused call: the server's message and the HTTP status (400, 404, 409, 413...). */
export class RestError extends Error {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.name = 'RestError';
    this.status = status;
  }
}

/** The bearer token and the screen header every REST call carries. */
export function headers(): Record<string, string> {
  const token = getToken();
  return {
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    'x-erp-screen': window.location.pathname,
  };
}

/** The error of a refused answer: its `msg` (the gateway answers errors as `{code, msg}`), else `fallback`. */
export async function refusal(res: Response, fallback: string): Promise<RestError> {
  const answer: unknown = await res.json().catch(() => null);
  const msg = (answer as { msg?: unknown } | null)?.msg;
  if (res.status === 401 && getToken()) clearSession();
  return new RestError(typeof msg === 'string' && msg.trim() ? msg : fallback, res.status);
}

/** POSTs one file as the multipart field `field` and answers the JSON the server sent. */
export async function postFile(path: string, file: File, field = 'file'): Promise<unknown> {
  const body = new FormData();
  body.append(field, file, file.name);
  const res = await timeoutFetch(REST_TIMEOUT_MS)(path, { method: 'POST', headers: headers(), body });
  if (!res.ok) throw await refusal(res, MSG.uploadFailed);
  return res.json().catch(() => null);
}

/** A file a call answered: its bytes and the name the server gave it. */
export interface FetchedFile {
  blob: Blob;
  name: string;
}

/** The file name of a `Content-Disposition` header (`inline; filename="recibo-12.pdf"`), if any. */
export function dispositionName(header: string | null): string | null {
  const m = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(header ?? '');
  return m ? decodeURIComponent(m[1].trim()) : null;
}

/**
 * Reads a file a call answers (GET, or POST with a JSON body). `fallbackName` names it when
 * the server sends no Content-Disposition; `type` is the content type the caller expects
 * (an answer of another type is refused: a misrouted call answering the app's HTML).
 */
export async function fetchFile(
  path: string,
  { json, fallbackName, type }: { json?: unknown; fallbackName: string; type: string },
): Promise<FetchedFile> {
  const init: RequestInit =
    json === undefined
      ? { method: 'GET', headers: headers() }
      : {
          method: 'POST',
          headers: { ...headers(), 'content-type': 'application/json' },
          body: JSON.stringify(json),
        };
  const res = await timeoutFetch(REST_TIMEOUT_MS)(path, init);
  if (!res.ok) throw await refusal(res, MSG.fileFailed);
  const received = res.headers.get('content-type') ?? '';
  if (!received.toLowerCase().startsWith(type)) throw new RestError(MSG.fileFailed, res.status);
  const blob = await res.blob();
  return {
    blob: blob.type ? blob : new Blob([blob], { type }),
    name: dispositionName(res.headers.get('content-disposition')) ?? fallbackName,
  };
}
