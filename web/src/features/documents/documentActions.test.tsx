// A document's download buttons (ActionMeta.download) and the text dialogs of its buttons
// (justificativa, correcao), on the NF-e manifest's screen.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from '../../lib/toast';
import { ResourceActionDocument, ResourceGetDocument } from '../../lib/resources/documents';
import type { DocumentRegister } from '../../lib/resources/metaFields';
import { action, manifestMeta, manifestRow } from '../../test/fixtures';
import { program, renderWith, signIn } from '../../test/utils';
import { ACTION_DIALOGS, actionPath, closingBody, cteCorrectionBody } from './actions';
import DocumentFormPage from './DocumentFormPage';

const getMock = (row: object, maxUsageCount = 1) => ({
  request: { query: ResourceGetDocument, variables: { name: 'manifestonfe', emp: 1, id: 9 } },
  result: { data: { resourceGet: row } },
  maxUsageCount,
});

function renderManifest(mocks: object[], meta: DocumentRegister = manifestMeta) {
  return renderWith(
    <Routes>
      <Route path="/manifestonfe/alterar" element={<DocumentFormPage meta={meta} metas={[meta]} action="alterar" />} />
    </Routes>,
    { mocks: mocks as never, route: '/manifestonfe/alterar?id=9' },
  );
}

const xmlReply = () =>
  new Response('<nfeProc/>', {
    status: 200,
    headers: {
      'content-type': 'application/xml',
      'content-disposition': 'inline; filename="43180906929383000163550010000000261000010301-nfe.xml"',
    },
  });
const json = (body: unknown, status: number) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The anchor clicked to save a file (saveFile), or undefined. */
function catchDownloads() {
  URL.createObjectURL = vi.fn(() => 'blob:x');
  URL.revokeObjectURL = vi.fn();
  return vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
}

beforeEach(() => {
  window.innerWidth = 1920;
  signIn({ programs: [program({ id: 9, name: 'IndexManifestonfe', webPath: '/manifestonfe' })] });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('download buttons', () => {
  it("calls the button's REST path with its body and saves the file under the server's name", async () => {
    const fetch = vi.fn(async () => xmlReply());
    vi.stubGlobal('fetch', fetch);
    const click = catchDownloads();
    const user = userEvent.setup();
    // The header is read again once the file came (the server may have kept the whole XML).
    renderManifest([getMock(manifestRow(), 2)]);
    await user.click(await screen.findByRole('button', { name: 'Baixar XML' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe(
      '43180906929383000163550010000000261000010301-nfe.xml',
    );
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/manifestonfe/download/doc');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({ MAN_ID: 9 });
    expect(init.headers).toMatchObject({ authorization: 'Bearer token-123', 'content-type': 'application/json' });
  });

  it("shows the server's message when it refuses, and a fixed text when no file came", async () => {
    const error = vi.spyOn(notify, 'error');
    const click = catchDownloads();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        json(
          {
            code: 409,
            msg: 'A SEFAZ só entrega o XML completo depois da ciência ou da confirmação da operação: registre a ciência e baixe de novo.',
          },
          409,
        ),
      ),
    );
    const user = userEvent.setup();
    renderManifest([getMock(manifestRow({ MAN_SITUACAO: 'P', MAN_COMPLETA: false }))]);
    await user.click(await screen.findByRole('button', { name: 'Baixar XML' }));
    await waitFor(() =>
      expect(error).toHaveBeenCalledWith(
        'A SEFAZ só entrega o XML completo depois da ciência ou da confirmação da operação: registre a ciência e baixe de novo.',
      ),
    );
    // A misrouted call answering the app's page.
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<!doctype html>', { status: 200, headers: { 'content-type': 'text/html' } })),
    );
    await user.click(screen.getByRole('button', { name: 'Baixar XML' }));
    await waitFor(() => expect(error).toHaveBeenCalledWith('Não foi possível obter o arquivo.'));
    expect(click).not.toHaveBeenCalled();
  });

  it('fills the path parameters of a download like those of any button', () => {
    const dacte = action({ name: 'dacte', path: '/cte/dacte/{CTE_ID}/{emp}', label: 'DACTE', download: true });
    expect(actionPath(dacte, { record: { CTE_ID: 12 }, emp: 1, userId: 3 })).toBe('/cte/dacte/12/1');
  });
});

describe('text dialogs of the buttons', () => {
  it("asks the justification of 'Desconhecer' (15 to 255 characters) and sends it", async () => {
    const success = vi.spyOn(notify, 'success');
    const justification = 'Mercadoria nunca encomendada a este fornecedor.';
    const user = userEvent.setup();
    renderManifest([
      getMock(manifestRow({ MAN_SITUACAO: 'P', MAN_COMPLETA: false }), 2),
      {
        request: {
          query: ResourceActionDocument,
          variables: {
            name: 'manifestonfe',
            action: 'manifestar',
            params: { emp: 1 },
            body: { MAN_ID: 9, TIPO_EVENTO: '210220', JUSTIFICATIVA: justification },
          },
        },
        result: {
          data: {
            resourceAction: { ...manifestRow({ MAN_SITUACAO: 'D' }), msg: 'Desconhecimento registrada na SEFAZ.' },
          },
        },
      },
    ]);
    await user.click(await screen.findByRole('button', { name: 'Desconhecer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Desconhecimento da operação' });
    const text = within(dialog).getByLabelText(/Justificativa/);
    expect(text.tagName).toBe('TEXTAREA');
    expect(text).toHaveAttribute('maxLength', '255');

    await user.click(within(dialog).getByRole('button', { name: 'Confirmar' }));
    expect(within(dialog).getByText('Justificativa é obrigatório!')).toBeInTheDocument();
    await user.type(text, 'Curta demais');
    await user.click(within(dialog).getByRole('button', { name: 'Confirmar' }));
    expect(within(dialog).getByText('O campo Justificativa deve ter no minimo 15 caracteres.')).toBeInTheDocument();

    await user.clear(text);
    await user.type(text, `  ${justification} `);
    await user.click(within(dialog).getByRole('button', { name: 'Confirmar' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Desconhecimento registrada na SEFAZ.'));
  });

  it('declares the justification and the correction letter with their limits and bodies', () => {
    const justificativa = ACTION_DIALOGS.justificativa.groups[0].fields[0];
    expect(justificativa).toMatchObject({
      name: 'JUSTIFICATIVA',
      type: 'TEXTAREA',
      text: 'Justificativa',
      required: true,
      min: 15,
      length: 255,
    });
    expect(ACTION_DIALOGS.justificativa.body({ JUSTIFICATIVA: ' Cancelada por erro de digitação. ' })).toEqual({
      JUSTIFICATIVA: 'Cancelada por erro de digitação.',
    });
    const correcao = ACTION_DIALOGS.correcao.groups[0].fields[0];
    expect(correcao).toMatchObject({
      name: 'CORRECAO',
      type: 'TEXTAREA',
      text: 'Correção',
      required: true,
      min: 15,
      length: 1000,
    });
    expect(ACTION_DIALOGS.correcao.body({ CORRECAO: 'Peso bruto correto: 120 kg.' })).toEqual({
      CORRECAO: 'Peso bruto correto: 120 kg.',
    });
  });

  it('enables the buttons of a known dialog only, and sends the correction letter', async () => {
    const success = vi.spyOn(notify, 'success');
    const correction = 'O peso bruto correto é 120 kg.';
    const meta: DocumentRegister = {
      ...manifestMeta,
      actions: [
        action({
          name: 'cartacorrecao',
          path: '/manifestonfe/cce',
          label: 'Carta de Correção',
          dialog: 'correcao',
          dialogTitle: 'Carta de correção',
          body: [{ name: 'MAN_ID', source: { from: 'field', value: 'MAN_ID' } }],
        }),
        action({ name: 'outro', path: '/manifestonfe/outro', label: 'Outro', dialog: 'desconhecido' }),
      ],
    };
    const user = userEvent.setup();
    renderManifest(
      [
        getMock(manifestRow(), 2),
        {
          request: {
            query: ResourceActionDocument,
            variables: {
              name: 'manifestonfe',
              action: 'cartacorrecao',
              params: { emp: 1 },
              body: { MAN_ID: 9, CORRECAO: correction },
            },
          },
          result: { data: { resourceAction: { msg: 'Carta de correção registrada.' } } },
        },
      ],
      meta,
    );
    expect(await screen.findByRole('button', { name: 'Outro' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Carta de Correção' }));
    const dialog = await screen.findByRole('dialog', { name: 'Carta de correção' });
    const text = within(dialog).getByLabelText(/Correção/);
    expect(text).toHaveAttribute('maxLength', '1000');
    await user.type(text, correction);
    await user.click(within(dialog).getByRole('button', { name: 'Enviar' }));
    await waitFor(() => expect(success).toHaveBeenCalledWith('Carta de correção registrada.'));
  });
});

describe('fiscal document dialogs', () => {
  it('sends an MDF-e closing as the call reads it: date yyyy-MM-dd, UF in capitals, IBGE digits', () => {
    expect(ACTION_DIALOGS.encerramento.body).toBe(closingBody);
    expect(closingBody({ DATA_ENCERRAMENTO: '10/01/2026', UF: 'mg', CODIGO_MUNICIPIO: '3106200' })).toEqual({
      DATA_ENCERRAMENTO: '2026-01-10',
      UF: 'MG',
      CODIGO_MUNICIPIO: '3106200',
    });
    expect(closingBody({ UF: 'SP', CODIGO_MUNICIPIO: '3550-308' })).toEqual({ UF: 'SP', CODIGO_MUNICIPIO: '3550308' });
  });

  it('sends a CT-e correction letter as group, field and value, trimmed', () => {
    expect(ACTION_DIALOGS['cte-correction'].body).toBe(cteCorrectionBody);
    expect(cteCorrectionBody({ GRUPO: ' compl ', CAMPO: 'xObs', VALOR: ' Entrega no galpão 2 ' })).toEqual({
      GRUPO: 'compl',
      CAMPO: 'xObs',
      VALOR: 'Entrega no galpão 2',
    });
  });
});
