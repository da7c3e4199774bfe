import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResourceActionDocument, ResourceMetaDocument } from '../../lib/resources/documents';
import type { ResourceMeta } from '../../lib/resources/metaFields';
import { field } from '../../test/fixtures';
import { program, renderWith, signIn } from '../../test/utils';
import FiscalServicesTab from './FiscalServicesTab';
import { docTypeOf, NO_PASSWORD, settingsRow, splitGroups } from './services';

const SLOW = { timeout: 4000 };
const ENVIRONMENTS = [
  { value: '1', text: '1 - Produção' },
  { value: '2', text: '2 - Homologação' },
];
/** The server's default (a JSON value; the generated type names it an object). */
const HOMOLOGATION = 2 as unknown as Record<string, unknown>;
const REGIMES = [
  { value: '1', text: '1 - Simples Nacional' },
  { value: '3', text: '3 - Regime Normal' },
];

const companyMeta: ResourceMeta = {
  name: 'empresas',
  path: '/empresas',
  title: 'Empresas',
  program: 'empresas',
  key: ['EMP_ID'],
  companyColumn: null,
  labelField: 'EMP_DESCRICAO',
  labelLength: null,
  defaultOrder: 'EMP_ID',
  fields: [field({ name: 'EMP_ID', kind: 'NUMBER' }), field({ name: 'EMP_CGC', kind: 'CPF_CNPJ' })],
  groups: [],
  document: null,
  actions: [],
};

/** The register as services/fiscal/src/resources/company/mod.rs describes it (a few of its groups). */
const servicesMeta: ResourceMeta = {
  ...companyMeta,
  name: 'empresasservicos',
  path: '',
  title: 'Serviços Fiscais da Empresa',
  key: ['EMPS_EMP_ID'],
  labelField: 'EMPS_CPF_CNPJ',
  fields: [
    field({ name: 'EMPS_USR_ID', kind: 'NUMBER', label: 'Usuário', editable: false }),
    field({ name: 'EMPS_CPF_CNPJ', kind: 'CPF_CNPJ', label: 'CPF/CNPJ' }),
    field({
      name: 'EMPS_NFE_AMBIENTE',
      kind: 'COMBOBOX',
      label: 'Ambiente',
      required: true,
      options: ENVIRONMENTS,
      defaultValue: HOMOLOGATION,
    }),
    field({ name: 'EMPS_NFE_REGIME', kind: 'COMBOBOX', label: 'Regime Tributário (CRT)', options: REGIMES }),
    field({ name: 'EMPS_NFE_SERIE', kind: 'NUMBER', label: 'Série' }),
    field({
      name: 'EMPS_NFCE_AMBIENTE',
      kind: 'COMBOBOX',
      label: 'Ambiente',
      options: ENVIRONMENTS,
      defaultValue: HOMOLOGATION,
    }),
    field({ name: 'EMPS_NFCE_CSC', kind: 'PASSWORD', label: 'CSC' }),
    field({ name: 'EMPS_CERTIFICADO', kind: 'UPLOAD', label: 'Certificado Digital A1', editable: false }),
    field({ name: 'EMPS_CERT_TITULAR', kind: 'TEXT', label: 'Titular', editable: false }),
    field({ name: 'EMPS_CERT_SERIE', kind: 'TEXT', label: 'Número de Série', editable: false }),
    field({ name: 'EMPS_CERT_VALIDADE_INI', kind: 'DATE', label: 'Válido desde', editable: false }),
    field({ name: 'EMPS_CERT_VALIDADE', kind: 'DATE', label: 'Válido até', editable: false }),
    field({ name: 'EMPS_CERT_NUVEMFISCAL', kind: 'BOOLEAN', label: 'Na Nuvem Fiscal', editable: false }),
  ],
  groups: [
    { title: 'Empresa', framed: true, width: 12, fields: ['EMPS_EMP_ID', 'EMPS_CPF_CNPJ'] },
    { title: 'NF-e', framed: true, width: 12, fields: ['EMPS_NFE_AMBIENTE', 'EMPS_NFE_REGIME', 'EMPS_NFE_SERIE'] },
    { title: 'NFC-e', framed: true, width: 12, fields: ['EMPS_NFCE_AMBIENTE', 'EMPS_NFCE_CSC'] },
    {
      title: 'Certificado Digital',
      framed: true,
      width: 12,
      fields: [
        'EMPS_CERTIFICADO',
        'EMPS_CERT_TITULAR',
        'EMPS_CERT_SERIE',
        'EMPS_CERT_VALIDADE_INI',
        'EMPS_CERT_VALIDADE',
        'EMPS_CERT_NUVEMFISCAL',
      ],
    },
  ],
};

const company = { EMP_ID: 2, EMP_DESCRICAO: 'DISTRIBUIDORA DEMO LTDA', EMP_CGC: '11222333000181' };
const certified = {
  EMPS_EMP_ID: 2,
  EMPS_CPF_CNPJ: '11222333000181',
  EMPS_NFE_AMBIENTE: 2,
  EMPS_NFE_REGIME: 1,
  EMPS_NFE_SERIE: 1,
  EMPS_CERTIFICADO: 'cert.pfx',
  EMPS_CERT_TITULAR: 'DISTRIBUIDORA DEMO LTDA:11222333000181',
  EMPS_CERT_SERIE: '526FF0BB',
  EMPS_CERT_VALIDADE_INI: '2026-11-24',
  EMPS_CERT_VALIDADE: '2027-11-24',
  EMPS_CERT_NUVEMFISCAL: false,
  EMPS_CERT_SITUACAO: 'Válido até 24/11/2027',
};

/** The metadata as GraphQL answers it (with its type names, which the cache needs). */
const answeredMeta = {
  ...servicesMeta,
  __typename: 'ResourceMeta',
  fields: servicesMeta.fields.map((f) => ({
    ...f,
    __typename: 'FieldMeta',
    options: f.options?.map((o) => ({ ...o, __typename: 'FieldOption' })) ?? null,
  })),
  groups: servicesMeta.groups.map((g) => ({ ...g, __typename: 'FormGroup' })),
};
const metaMock = {
  request: { query: ResourceMetaDocument, variables: { name: 'empresasservicos' } },
  result: { data: { resourceMeta: answeredMeta } },
};
const action = (name: string, params: Record<string, unknown>, body: unknown, answer: unknown, uses = 1) => ({
  request: {
    query: ResourceActionDocument,
    variables: { name: 'empresasservicos', action: name, params, ...(body === undefined ? {} : { body }) },
  },
  result: { data: { resourceAction: answer } },
  maxUsageCount: uses,
});
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  window.innerWidth = 1920;
  signIn({ programs: [program({ id: 5, name: 'empresas', webPath: '/empresas' })] });
});

afterEach(() => vi.restoreAllMocks());

const renderTab = (mocks: unknown[]) =>
  renderWith(<FiscalServicesTab meta={companyMeta} metas={[companyMeta]} record={company} />, {
    mocks: mocks as never,
  });

describe('the settings from the register metadata', () => {
  it('edits the document groups, leaves the certificate apart and keeps an empty secret as stored', () => {
    const { settings, certificate, certTitle } = splitGroups(servicesMeta);
    expect(settings.map((g) => g.title)).toEqual(['Empresa', 'NF-e', 'NFC-e']);
    expect(settings.map(docTypeOf)).toEqual([null, 'nfe', 'nfce']);
    expect(certTitle).toBe('Certificado Digital');
    expect(certificate.map((f) => f.name)).not.toContain('EMPS_CERTIFICADO');
    const row = settingsRow(servicesMeta, settings, {
      EMPS_CPF_CNPJ: '11.222.333/0001-81',
      EMPS_NFE_AMBIENTE: '1',
      EMPS_NFE_SERIE: '3',
      EMPS_NFCE_CSC: '',
    });
    expect(row).toMatchObject({ EMPS_NFE_AMBIENTE: '1', EMPS_NFE_SERIE: 3 });
    expect(row).not.toHaveProperty('EMPS_NFCE_CSC');
    expect(row).not.toHaveProperty('EMPS_CERT_TITULAR');
  });
});

describe("a company's fiscal services", () => {
  it("starts from the company's CNPJ and sends one document type's settings to the Nuvem Fiscal", async () => {
    const user = userEvent.setup();
    const body = {
      EMPS_CPF_CNPJ: '11.222.333/0001-81',
      EMPS_NFE_AMBIENTE: '2',
      EMPS_NFE_REGIME: '3',
      EMPS_NFE_SERIE: 2,
      EMPS_NFCE_AMBIENTE: '2',
    };
    renderTab([
      metaMock,
      action('filtro', { emp: 2 }, undefined, [], 5),
      action('nuvemfiscal', { emp: 2, TIPO: 'nfe', EMP_CGC: '11222333000181' }, body, {
        code: 200,
        msg: 'Configuração de NF-e enviada à Nuvem Fiscal.',
        tipo: 'nfe',
      }),
    ]);
    const form = await screen.findByRole('form', { name: 'Serviços fiscais' }, SLOW);
    expect(within(form).getByLabelText('CPF/CNPJ')).toHaveValue('11.222.333/0001-81');
    const nfe = within(form).getByRole('group', { name: 'NF-e' });
    expect(within(nfe).getByLabelText(/Ambiente/)).toHaveValue('2');
    await user.selectOptions(within(nfe).getByLabelText(/Regime/), '3');
    await user.type(within(nfe).getByLabelText('Série'), '2');
    await user.click(screen.getByTestId('nuvemfiscal-nfe'));
    expect(await screen.findByText('Configuração de NF-e enviada à Nuvem Fiscal.', {}, SLOW)).toBeInTheDocument();
    // The certificate is its own section, not fields of the form.
    expect(within(form).queryByLabelText('Titular')).not.toBeInTheDocument();
  });

  it('shows a wrong certificate password under the password, then what the server read of the certificate', async () => {
    const user = userEvent.setup();
    const fetchMock = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(json({ code: 400, msg: 'Senha do certificado incorreta.' }, 400))
      .mockResolvedValueOnce(
        json({
          ...certified,
          msg: 'Certificado digital salvo com sucesso.',
          aviso: 'O certificado foi guardado, mas a Nuvem Fiscal não o aceitou: A empresa não está cadastrada.',
        }),
      );
    renderTab([
      metaMock,
      action('filtro', { emp: 2 }, undefined, [], 1),
      action('filtro', { emp: 2 }, undefined, [certified], 5),
    ]);
    const cert = await screen.findByRole('group', { name: 'Certificado Digital' }, SLOW);
    expect(within(cert).getByText('Nenhum certificado digital enviado.')).toBeInTheDocument();
    await user.click(within(cert).getByRole('button', { name: 'Enviar certificado' }));
    expect(
      within(cert)
        .getAllByRole('alert')
        .map((a) => a.textContent),
    ).toContain(NO_PASSWORD);
    expect(fetchMock).not.toHaveBeenCalled();

    const pfx = new File([new Uint8Array([48, 130])], 'empresa.pfx', { type: 'application/x-pkcs12' });
    await user.upload(within(cert).getByLabelText(/Arquivo do certificado/), pfx);
    await user.type(within(cert).getByLabelText(/Senha do certificado/), 'errada');
    await user.click(within(cert).getByRole('button', { name: 'Enviar certificado' }));
    const password = within(cert).getByLabelText(/Senha do certificado/);
    await waitFor(() => expect(password).toHaveAttribute('aria-invalid', 'true'));
    expect(within(cert).getByRole('alert')).toHaveTextContent('Senha do certificado incorreta.');

    const [path, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(path).toBe('/empresasservicos/certificado/uploads/2');
    expect(init.method).toBe('PUT');
    const sent = init.body as FormData;
    expect(sent.get('SENHA')).toBe('errada');
    expect(sent.get('CPF_CNPJ')).toBe('11222333000181');
    expect(sent.get('EMPS_EMP_ID')).toBe('2');
    expect(sent.get('EMPS_USR_ID')).toBe('3');
    expect((sent.get('file') as File).name).toBe('empresa.pfx');

    await user.clear(password);
    await user.type(password, 'segredo123');
    await user.click(within(cert).getByRole('button', { name: 'Enviar certificado' }));
    expect(await within(cert).findByTestId('cert-situacao', {}, SLOW)).toHaveTextContent('Válido até 24/11/2027');
    expect(within(cert).getByTestId('cert-EMPS_CERT_VALIDADE_INI')).toHaveTextContent('24/11/2026');
    expect(within(cert).getByTestId('cert-EMPS_CERT_VALIDADE')).toHaveTextContent('24/11/2027');
    expect(within(cert).getByTestId('cert-EMPS_CERT_SERIE')).toHaveTextContent('526FF0BB');
    expect(within(cert).getByTestId('cert-EMPS_CERT_TITULAR')).toHaveTextContent('DISTRIBUIDORA DEMO LTDA');
    expect(within(cert).getByTestId('cert-EMPS_CERT_NUVEMFISCAL')).toHaveTextContent('Não');
    expect(within(cert).getByRole('note')).toHaveTextContent('a Nuvem Fiscal não o aceitou');
  });
});
