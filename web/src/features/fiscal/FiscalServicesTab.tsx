import { useEffect, useMemo, useRef, useState } from 'react';
import { LoadingScreen } from '../../components/dialogs/LoadingScreen';
import { primaryButton, secondaryButton } from '../../components/fields/styles';
import { FormView, fieldsOf } from '../../components/form/FormView';
import { useFormState } from '../../components/form/useFormState';
import type { Row } from '../../components/tables/types';
import { errorMessage } from '../../lib/apollo';
import { maskCpfCnpj } from '../../lib/masks';
import { fieldOfMessage, rowToValues, type ResourceMeta } from '../../lib/resources/metaFields';
import { permissionsFor } from '../../lib/resources/permissions';
import { useOptionLookup, useOptionSearch } from '../../lib/resources/useResourceData';
import { useSession } from '../../lib/session';
import { notify } from '../../lib/toast';
import { CertificateSection } from './CertificateSection';
import { companyDocument, docTypeOf, settingsRow, splitGroups } from './services';
import { useFiscalServices, useServicesMeta, type CallAnswer } from './useFiscalServices';

interface Props {
  /** The company register (`empresas`) and the company on screen. */
  meta: ResourceMeta;
  metas: ResourceMeta[];
  record: Row;
}

/**
 * 'Serviços fiscais' of a saved company (/empresas): the settings of each document type from
 * the `empresasservicos` register's own groups and fields, each with 'Enviar para Nuvem
 * Fiscal'; the company's registration at the Nuvem Fiscal; and the A1 certificate.
 */
export default function FiscalServicesTab({ meta, metas, record }: Props) {
  const session = useSession();
  const emp = Number(record[meta.key[0]]);
  const { meta: servicesMeta, loading, error } = useServicesMeta(metas);
  const calls = useFiscalServices(emp, session?.user.id ?? 0);
  const { data, error: readError } = calls.settings;
  if (!servicesMeta && loading) return <LoadingScreen />;
  if (!servicesMeta || (readError != null && data === undefined)) {
    return (
      <p role="alert" className="rounded bg-white p-4 text-sm text-error shadow-sm">
        {errorMessage(error ?? readError) || 'Não foi possível carregar os serviços fiscais.'}
      </p>
    );
  }
  if (data === undefined) return <LoadingScreen />;
  return (
    <ServicesForm companyMeta={meta} meta={servicesMeta} metas={metas} company={record} settings={data} calls={calls} />
  );
}

interface FormProps {
  companyMeta: ResourceMeta;
  meta: ResourceMeta;
  metas: ResourceMeta[];
  company: Row;
  settings: Row | null;
  calls: ReturnType<typeof useFiscalServices>;
}

function initialValues(meta: ResourceMeta, settings: Row | null, company: Row) {
  const values = rowToValues(meta, settings);
  // A company without settings yet: its own CNPJ is the one the provider knows it by.
  if (!values.EMPS_CPF_CNPJ && company.EMP_CGC) values.EMPS_CPF_CNPJ = maskCpfCnpj(String(company.EMP_CGC));
  return values;
}

function ServicesForm({ companyMeta, meta, metas, company, settings, calls }: FormProps) {
  const session = useSession();
  const perms = permissionsFor(session, companyMeta);
  const search = useOptionSearch(metas);
  const lookup = useOptionLookup(metas);
  const { settings: groups, certificate, certTitle } = useMemo(() => splitGroups(meta), [meta]);
  const fields = useMemo(() => fieldsOf(groups), [groups]);
  const form = useFormState(fields, initialValues(meta, settings, company));
  const [busy, setBusy] = useState<string | null>(null);
  const [sent, setSent] = useState<Record<string, CallAnswer>>({});
  const [registered, setRegistered] = useState<CallAnswer | null>(null);
  const [certNotice, setCertNotice] = useState<string | null>(null);
  const { reset, dirty } = form;
  const loadedFrom = useRef(settings);
  useEffect(() => {
    if (settings && loadedFrom.current !== settings && !dirty) {
      loadedFrom.current = settings;
      reset(initialValues(meta, settings, company));
    }
  }, [settings, reset, dirty, meta, company]);

  const document = companyDocument(settings, company);
  const editable = perms.canUpdate && !busy;

  /**
   * Runs a write: its refusal is a toast and, when it names a field by its label, under it. A
   * write that saved the form (`saves`) leaves it clean, so the settings read again replace it;
   * any other keeps what the user has not saved yet.
   */
  const write = async (label: string, run: () => Promise<CallAnswer>, saves: boolean): Promise<CallAnswer | null> => {
    setBusy(label);
    try {
      const answer = await run();
      notify.success(answer.msg);
      if (answer.notice) notify.warning(answer.notice);
      if (saves) reset(form.values);
      return answer;
    } catch (e) {
      const message = errorMessage(e);
      notify.error(message);
      const field = fieldOfMessage(meta, message);
      if (field) form.showError(field, message);
      return null;
    } finally {
      setBusy(null);
    }
  };

  const save = () => {
    if (!form.validateAll()) return;
    void write('salvar', () => calls.save(settingsRow(meta, groups, form.values)), true);
  };

  const push = async (tipo: string) => {
    if (!form.validateAll()) return;
    const answer = await write(tipo, () => calls.push(tipo, document, settingsRow(meta, groups, form.values)), true);
    if (answer) setSent((s) => ({ ...s, [tipo]: answer }));
  };

  const register = async () => {
    setRegistered(null);
    const answer = await write('cadastro', () => calls.register(company), false);
    if (answer) {
      setRegistered(answer);
      // Registering sends the certificate kept here: what the upload said of the provider is past.
      setCertNotice(answer.notice);
    }
  };

  return (
    <div className="space-y-4 rounded bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-slate-600">
          Ambiente, regime tributário e séries de cada documento fiscal, enviados à Nuvem Fiscal por tipo de documento.
        </p>
        {perms.canUpdate && (
          <button type="button" className={secondaryButton} disabled={!!busy} onClick={() => void register()}>
            {busy === 'cadastro' ? 'Cadastrando...' : 'Cadastrar empresa na Nuvem Fiscal'}
          </button>
        )}
      </div>
      {registered && (
        <p role="status" className="rounded bg-emerald-50 p-2 text-sm text-emerald-900">
          {registered.msg}
          {registered.notice ? ` ${registered.notice}` : ''}
        </p>
      )}
      <form
        noValidate
        aria-label="Serviços fiscais"
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        {groups.map((g) => {
          const tipo = docTypeOf(g);
          return (
            <div key={g.title ?? g.fields[0].name} className="space-y-2">
              <FormView form={form} groups={[g]} editable={editable} search={search} lookup={lookup} />
              {tipo && perms.canUpdate && (
                <div className="flex flex-wrap items-center justify-end gap-2">
                  {sent[tipo] && (
                    <span role="status" className="text-sm text-tertiary">
                      {sent[tipo].msg}
                    </span>
                  )}
                  <button
                    type="button"
                    className={secondaryButton}
                    data-testid={`nuvemfiscal-${tipo}`}
                    disabled={!!busy || !document}
                    title={document ? undefined : 'Informe o CPF/CNPJ da empresa.'}
                    onClick={() => void push(tipo)}
                  >
                    {busy === tipo ? 'Enviando...' : 'Enviar para Nuvem Fiscal'}
                  </button>
                </div>
              )}
            </div>
          );
        })}
        {perms.canUpdate && (
          <div className="flex justify-end border-t border-slate-200 pt-3">
            <button type="submit" className={primaryButton} disabled={!!busy}>
              {busy === 'salvar' ? 'Salvando...' : 'Salvar'}
            </button>
          </div>
        )}
      </form>
      <CertificateSection
        title={certTitle}
        fields={certificate}
        settings={settings}
        document={document}
        canWrite={perms.canUpdate}
        canDelete={perms.canDelete}
        upload={calls.upload}
        remove={calls.removeCertificate}
        notice={certNotice}
        onNotice={setCertNotice}
      />
    </div>
  );
}
