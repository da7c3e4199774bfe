// File uploads to the gateway's REST calls (multipart/form-data): the same bearer token and
// screen header as POST /graphql, a longer timeout, and the server's pt-BR `msg` as the error.
import { timeoutFetch } from './apollo';
import { MSG } from './messages';
import { clearSession, getToken } from './session';

/** An upload waits longer than the other calls (15 s): the server reads the whole file first. */
export const UPLOAD_TIMEOUT_MS = 60_000;

/** A refused upload: the server's message and the HTTP status (400, 409, 413...). */
export class UploadError extends Error {
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.name = 'UploadError';
    this.status = status;
  }
}

/**
 * POSTs one file as the multipart field `field` and answers the JSON the server sent. A refusal
 * throws an UploadError with the answer's `msg` (the gateway answers errors as `{code, msg}`);
 * a 401 ends the session (the guard then goes to /login).
 */
export async function postFile(path: string, file: File, field = 'file'): Promise<unknown> {
  const body = new FormData();
  body.append(field, file, file.name);
  const token = getToken();
  const res = await timeoutFetch(UPLOAD_TIMEOUT_MS)(path, {
    method: 'POST',
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      'x-erp-screen': window.location.pathname,
    },
    body,
  });
  const answer: unknown = await res.json().catch(() => null);
  if (res.ok) return answer;
  const msg = (answer as { msg?: unknown } | null)?.msg;
  const message = typeof msg === 'string' && msg.trim() ? msg : MSG.uploadFailed;
  if (res.status === 401 && token) clearSession();
  throw new UploadError(message, res.status);
}
