import { useMutation } from '@apollo/client';
import { useMemo } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import type { GroupDescriptor } from '../../components/fields/types';
import { primaryButton } from '../../components/fields/styles';
import { FormView, fieldsOf } from '../../components/form/FormView';
import { useFormState } from '../../components/form/useFormState';
import { errorMessage } from '../../lib/apollo';
import { usePageMeta } from '../../lib/pageMeta';
import { saveSession, useSession } from '../../lib/session';
import { notify } from '../../lib/toast';
import { APP_TITLE, CLIENT_VERSION } from '../../lib/version';
import { LoginDocument } from './documents';

const groups: GroupDescriptor[] = [
  {
    fields: [
      { name: 'cpfcnpj', type: 'CPF_CNPJ', text: 'CPF/CNPJ', required: true, width: 12 },
      { name: 'login', type: 'TEXT', text: 'Usuário', required: true, width: 12 },
      { name: 'password', type: 'PASSWORD', text: 'Senha', required: true, width: 12 },
    ],
  },
];

/** Only same-site paths are followed after login. */
export function safeRedirect(value: string | null): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/login')) return '/';
  return value;
}

export default function LoginPage() {
  usePageMeta('Login', 'Login');
  const session = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const fields = useMemo(() => fieldsOf(groups), []);
  const form = useFormState(fields, { cpfcnpj: '', login: '', password: '' });
  const [login, { loading }] = useMutation(LoginDocument);
  const target = safeRedirect(params.get('redirect'));

  if (session) return <Navigate to={target} replace />;

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!form.validateAll()) return;
    try {
      const { data } = await login({
        variables: {
          input: {
            cpfcnpj: String(form.values.cpfcnpj),
            login: String(form.values.login).trim(),
            password: String(form.values.password),
          },
        },
      });
      if (!data) return;
      saveSession(data.login.session, data.login.token);
      navigate(target, { replace: true });
    } catch (err) {
      notify.error(errorMessage(err));
    }
  };

  return (
    <main className="flex min-h-full items-center justify-center bg-gradient-to-br from-primary to-secondary p-4">
      <form onSubmit={(e) => void submit(e)} noValidate className="w-full max-w-sm rounded-lg bg-white p-6 shadow-xl">
        <h1 className="mb-1 text-center text-2xl font-semibold text-primary">{APP_TITLE}</h1>
        <p className="mb-5 text-center text-sm text-slate-500">Acesse sua conta</p>
        <FormView form={form} groups={groups} />
        <button type="submit" className={`${primaryButton} mt-5 w-full py-2`} disabled={loading}>
          {loading ? 'Entrando...' : 'Entrar'}
        </button>
        <p className="mt-4 text-center text-xs text-slate-400">Versão: {CLIENT_VERSION}</p>
      </form>
    </main>
  );
}
