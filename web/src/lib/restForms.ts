// REST calls lib/rest.ts does not cover: a multipart form of a file plus text fields (a bank
// return file with its account, an OFX statement with its account; a message with its files), a file answer of any of
// several types (a CNAB remittance is text), the long calls of the accounting integration
// that wait as long as the server takes (spec §7.1: "a second client with no timeout"), and
// handing a fetched file to the browser as a download (and a file answered by any call: a
// document's download button); and plain JSON calls (GET, or POST with a
// JSON body) that tell a 204 (nothing) from an answer. They carry the same headers as
// lib/rest.ts, throw the server's pt-BR `msg` as a RestError, and a 401 ends the session.
import { timeoutFetch } from './apollo';
import { MSG } from './messages';
import { dispositionName, headers, refusal, REST_TIMEOUT_MS, RestError, type FetchedFile } from './rest';

/** `timeoutMs` null: the call waits as long as the server takes (the long client). */
const fetcher = (timeoutMs: number | null): typeof fetch => (timeoutMs == null ? fetch : timeoutFetch(timeoutMs));

/**
 * Sends a multipart form (POST, or `method`: the certificate upload is a PUT): `file` under the
 * field `fileField` and each of `fields` as text. Answers the JSON the server sent.
 */
export async function postForm(
  path: string,
  file: File,
  fields: Record<string, string | number>,
  {
    fileField = 'file',
    timeoutMs = REST_TIMEOUT_MS,
    method = 'POST',
  }: { fileField?: string; timeoutMs?: number | null; method?: 'POST' | 'PUT' } = {},
): Promise<unknown> {
  const body = new FormData();
  body.append(fileField, file, file.name);
  for (const [name, value] of Object.entries(fields)) body.append(name, String(value));
  const res = await fetcher(timeoutMs)(path, { method, headers: headers(), body });
  if (!res.ok) throw await refusal(res, MSG.uploadFailed);
  return res.json().catch(() => null);
}

/**
 * Sends a multipart form of text fields and any number of files, each under the field
 * `fileField` (the messaging calls: `/whatsapp/send` takes one file, `/email/send` several). A
 * field whose value is null or undefined is left out. Answers the JSON the server sent.
 */
export async function postFields(
  path: string,
  fields: Record<string, string | number | null | undefined>,
  files: readonly File[] = [],
  { fileField = 'file', timeoutMs = REST_TIMEOUT_MS }: { fileField?: string; timeoutMs?: number | null } = {},
): Promise<unknown> {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) if (value != null) body.append(name, String(value));
  for (const file of files) body.append(fileField, file, file.name);
  const res = await fetcher(timeoutMs)(path, { method: 'POST', headers: headers(), body });
  if (!res.ok) throw await refusal(res, MSG.requestFailed);
  return res.json().catch(() => null);
}

/**
 * A refusal the server answered with success: a JSON `{code, msg}` where a file was expected
 * (spec §8, the long client: "a body code 500 shows the server message as a warning").
 * Screens show it as a warning, not an error.
 */
export class RestNotice extends RestError {
  constructor(message: string, status: number) {
    super(message, status);
    this.name = 'RestNotice';
  }
}

export const isNotice = (e: unknown): e is RestNotice => e instanceof RestNotice;

/**
 * The server answered 204 where a file was expected: nothing to give for what was asked (a
 * report of a period with no rows). It keeps the text of a file that could not be read, so a
 * screen that does not look for it shows what it showed before.
 */
export class NoContent extends RestError {
  constructor() {
    super(MSG.fileFailed, 204);
    this.name = 'NoContent';
  }
}

export const isNoContent = (e: unknown): e is NoContent => e instanceof NoContent;

/**
 * A JSON call: GET `path`, or POST `json` to it. Answers the JSON the server sent, or null when
 * it answered 204 (nothing, e.g. an empty list) or no body at all. A refusal throws its `msg`.
 */
export async function requestJson(
  path: string,
  { json, timeoutMs = REST_TIMEOUT_MS }: { json?: unknown; timeoutMs?: number | null } = {},
): Promise<unknown> {
  const init: RequestInit =
    json === undefined
      ? { method: 'GET', headers: headers() }
      : {
          method: 'POST',
          headers: { ...headers(), 'content-type': 'application/json' },
          body: JSON.stringify(json),
        };
  const res = await fetcher(timeoutMs)(path, init);
  if (!res.ok) throw await refusal(res, MSG.requestFailed);
  if (res.status === 204) return null;
  const text = await res.text();
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // A misrouted call answering the app's HTML.
    throw new RestError(MSG.requestFailed, res.status);
  }
}

/**
 * POSTs `json` and reads the file answered, of one of `types` (content-type prefixes). A JSON
 * answer with success is the server's refusal all the same (a RestNotice with its `msg`); any
 * other type (a misrouted call answering the app's HTML) is refused with a fixed text.
 */
export async function postForFile(
  path: string,
  json: unknown,
  {
    fallbackName,
    types,
    timeoutMs = REST_TIMEOUT_MS,
  }: { fallbackName: string; types: string[]; timeoutMs?: number | null },
): Promise<FetchedFile> {
  const res = await fetcher(timeoutMs)(path, {
    method: 'POST',
    headers: { ...headers(), 'content-type': 'application/json' },
    body: JSON.stringify(json),
  });
  if (!res.ok) throw await refusal(res, MSG.fileFailed);
  if (res.status === 204) throw new NoContent();
  const received = (res.headers.get('content-type') ?? '').toLowerCase();
  if (received.startsWith('application/json')) {
    const refused = await refusal(res, MSG.fileFailed);
    throw new RestNotice(refused.message, refused.status);
  }
  if (!types.some((t) => received.startsWith(t))) throw new RestError(MSG.fileFailed, res.status);
  const blob = await res.blob();
  return {
    blob: blob.type ? blob : new Blob([blob], { type: types[0] }),
    name: dispositionName(res.headers.get('content-disposition')) ?? fallbackName,
  };
}

/**
 * Calls `path` with `method` (a body, `json`, for any but GET) and reads the file it answers,
 * whatever its type (a document's download button: an XML, a PDF). A JSON answer is the
 * server's refusal all the same (its `msg`; a RestNotice when the status is a success), and an
 * HTML one (a misrouted call answering the app) is refused with a fixed text. `fallbackName`
 * names the file when the server sends no Content-Disposition.
 */
export async function requestFile(
  path: string,
  {
    method = 'POST',
    json,
    fallbackName,
    timeoutMs = REST_TIMEOUT_MS,
  }: { method?: string; json?: unknown; fallbackName: string; timeoutMs?: number | null },
): Promise<FetchedFile> {
  const verb = method.toUpperCase();
  const init: RequestInit =
    verb === 'GET'
      ? { method: verb, headers: headers() }
      : {
          method: verb,
          headers: { ...headers(), 'content-type': 'application/json' },
          body: JSON.stringify(json ?? {}),
        };
  const res = await fetcher(timeoutMs)(path, init);
  if (!res.ok) throw await refusal(res, MSG.fileFailed);
  if (res.status === 204) throw new NoContent();
  const received = (res.headers.get('content-type') ?? '').toLowerCase();
  if (received.startsWith('application/json')) {
    const refused = await refusal(res, MSG.fileFailed);
    throw new RestNotice(refused.message, refused.status);
  }
  if (received.startsWith('text/html')) throw new RestError(MSG.fileFailed, res.status);
  const blob = await res.blob();
  return {
    blob: blob.type || !received ? blob : new Blob([blob], { type: received }),
    name: dispositionName(res.headers.get('content-disposition')) ?? fallbackName,
  };
}

/** Hands a fetched file to the browser as a download under its name. */
export function saveFile(file: FetchedFile) {
  const url = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.name;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The download has started from the URL: it can go once the click is handled.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
