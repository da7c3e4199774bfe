import { useId, useRef, useState } from 'react';
import { useDialogs } from '../../components/dialogs/DialogHost';
import { dangerButton, inputClass, primaryButton } from '../../components/fields/styles';
import type { Row } from '../../components/tables/types';
import { errorMessage } from '../../lib/apollo';
import { isTrue, type ResourceMeta } from '../../lib/resources/metaFields';
import { notify } from '../../lib/toast';
import { certificateFacts, NO_FILE, NO_PASSWORD } from './services';
import type { CallAnswer } from './useFiscalServices';

interface Props {
  title: string;
  /** The certificate's fields of the register (what the server read of the file). */
  fields: ResourceMeta['fields'];
  settings: Row | null;
  /** The company's CPF/CNPJ (the certificate must be its own). */
  document: string;
  canWrite: boolean;
  canDelete: boolean;
  upload: (file: File, password: string, document: string) => Promise<CallAnswer>;
  remove: (document: string, fileName: string) => Promise<CallAnswer>;
  /** What the last certificate call said went wrong without failing (kept by the tab: registering the company replaces it). */
  notice: string | null;
  onNotice: (notice: string | null) => void;
}

/** Which input a refusal belongs under: the password's ('Senha do certificado incorreta.'), else the file's. */
const aboutPassword = (message: string) => /senha/i.test(message);

/**
 * The company's A1 certificate: what the server read of the one it keeps (holder, CPF/CNPJ,
 * issuer, serial, validity, whether the Nuvem Fiscal has it), and sending a new one (.pfx with
 * its password); a wrong password shows under the password.
 */
export function CertificateSection(props: Props) {
  const { title, fields, settings, document, canWrite, canDelete, upload, remove, notice, onNotice: setNotice } = props;
  const id = useId();
  const dialogs = useDialogs();
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ file?: string; password?: string }>({});
  const [busy, setBusy] = useState(false);
  const facts = certificateFacts(fields, settings);
  const situation = typeof settings?.EMPS_CERT_SITUACAO === 'string' ? settings.EMPS_CERT_SITUACAO : null;
  const expired = isTrue(settings?.EMPS_CERT_VENCIDO);
  const stored = facts.length > 0;

  const send = async () => {
    const missing = { file: file ? undefined : NO_FILE, password: password ? undefined : NO_PASSWORD };
    setErrors(missing);
    if (!file || !password) return;
    setBusy(true);
    setNotice(null);
    try {
      const answer = await upload(file, password, document);
      notify.success(answer.msg);
      setNotice(answer.notice);
      setFile(null);
      setPassword('');
      if (fileInput.current) fileInput.current.value = '';
    } catch (e) {
      const message = errorMessage(e);
      setErrors(aboutPassword(message) ? { password: message } : { file: message });
      notify.error(message);
    } finally {
      setBusy(false);
    }
  };

  const askRemove = () =>
    dialogs.confirm({
      title: 'Excluir certificado',
      text: 'Deseja excluir o certificado digital desta empresa? Sem ele não é possível emitir documentos fiscais.',
      okText: 'Excluir',
      cancelText: 'Cancelar',
      onOk: async () => {
        try {
          const answer = await remove(document, String(settings?.EMPS_CERTIFICADO ?? ''));
          notify.success(answer.msg);
          setNotice(answer.notice);
        } catch (e) {
          notify.error(errorMessage(e));
        }
      },
    });

  return (
    <fieldset aria-label={title} className="space-y-3 rounded border border-slate-300 p-3">
      <legend className="px-1 text-sm font-semibold text-primary">{title}</legend>
      {situation && (
        <p data-testid="cert-situacao" className={`text-sm font-medium ${expired ? 'text-error' : 'text-tertiary'}`}>
          {situation}
        </p>
      )}
      {stored ? (
        <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {facts.map((f) => (
            <div key={f.name}>
              <dt className="text-xs text-slate-500">{f.label}</dt>
              <dd data-testid={`cert-${f.name}`} className="text-sm break-words">
                {f.value}
              </dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="text-sm text-slate-600">Nenhum certificado digital enviado.</p>
      )}
      {notice && (
        <p role="note" className="rounded bg-amber-50 p-2 text-sm text-amber-900">
          {notice}
        </p>
      )}
      {canWrite && (
        <div className="grid grid-cols-1 items-start gap-3 sm:grid-cols-12">
          <div className="sm:col-span-6">
            <label htmlFor={`${id}-file`} className="mb-1 block text-sm font-medium text-slate-700">
              Arquivo do certificado (.pfx) <span className="text-error">*</span>
            </label>
            <input
              ref={fileInput}
              id={`${id}-file`}
              type="file"
              accept=".pfx,.p12,application/x-pkcs12"
              className={inputClass}
              aria-invalid={!!errors.file}
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null);
                setErrors((x) => ({ ...x, file: undefined }));
              }}
            />
            {errors.file && (
              <p role="alert" className="mt-1 text-xs text-error">
                {errors.file}
              </p>
            )}
          </div>
          <div className="sm:col-span-4">
            <label htmlFor={`${id}-senha`} className="mb-1 block text-sm font-medium text-slate-700">
              Senha do certificado <span className="text-error">*</span>
            </label>
            <input
              id={`${id}-senha`}
              type="password"
              autoComplete="new-password"
              value={password}
              className={inputClass}
              aria-invalid={!!errors.password}
              onChange={(e) => {
                setPassword(e.target.value);
                setErrors((x) => ({ ...x, password: undefined }));
              }}
            />
            {errors.password && (
              <p role="alert" className="mt-1 text-xs text-error">
                {errors.password}
              </p>
            )}
          </div>
          <div className="flex gap-2 sm:col-span-2 sm:pt-6">
            <button type="button" className={primaryButton} disabled={busy} onClick={() => void send()}>
              {busy ? 'Enviando...' : 'Enviar certificado'}
            </button>
          </div>
        </div>
      )}
      {stored && canDelete && document && (
        <div className="flex justify-end">
          <button type="button" className={dangerButton} disabled={busy} onClick={askRemove}>
            Excluir certificado
          </button>
        </div>
      )}
    </fieldset>
  );
}
