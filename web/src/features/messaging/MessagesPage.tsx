import { useSubscription } from '@apollo/client';
import { useMemo, useState } from 'react';
import { useDialogs } from '../../components/dialogs/DialogHost';
import { LoadingScreen } from '../../components/dialogs/LoadingScreen';
import { primaryButton, secondaryButton } from '../../components/fields/styles';
import type { FieldDescriptor, FormValues } from '../../components/fields/types';
import { FormView } from '../../components/form/FormView';
import { useFormState } from '../../components/form/useFormState';
import { PAGE_SIZE, SEARCH_DEBOUNCE_MS } from '../../components/registers/RegisterListPage';
import { Pager } from '../../components/tables/Pager';
import { errorMessage } from '../../lib/apollo';
import { addDays, apiDateOf, formatDate, formatTimestamp, toApiDate } from '../../lib/format';
import { MSG } from '../../lib/messages';
import {
  CHANNEL_TEXT,
  FAILED,
  listMessages,
  recipientText,
  resendMessage,
  STATUS_TEXT,
  type MessageFilter,
  type QueuedMessage,
} from '../../lib/messaging';
import { usePageMeta } from '../../lib/pageMeta';
import { resourceHref, type ResourceMeta } from '../../lib/resources/metaFields';
import { screenPermissions } from '../../lib/resources/permissions';
import { useCallResult } from '../../lib/resources/registerCalls';
import { useSession } from '../../lib/session';
import { notify } from '../../lib/toast';
import { useDebouncedValue } from '../../lib/useDebounce';
import { useVisibleInterval } from '../../lib/useVisibleInterval';
import { ConnectionCard, type SettingsLink } from './ConnectionCard';
import { MessagesChangedDocument } from './documents';

/** The screen's path (spec §2.3, the single route 'whatsapp'), its route name (IndexWhatsapp) and title. */
export const MESSAGES_PATH = '/whatsapp';
const ROUTE_NAME = 'IndexWhatsapp';
const TITLE = 'Mensagens';

/**
 * Statuses move as the worker sends and the providers report: the list is read again when the
 * server says the company's queue moved (subscription messagesChanged), and, should that socket
 * be down, every REFRESH_MS while the page is visible.
 */
export const REFRESH_MS = 30_000;

/** The provider settings registers (services/messaging), by name, and where they are without metadata. */
const SETTINGS = [
  { register: 'whatsappconfig', text: 'Configuração do WhatsApp' },
  { register: 'emailconfig', text: 'Configuração de e-mail' },
] as const;

const ANY = 'todas';

const FILTER_FIELDS: FieldDescriptor[] = [
  { name: 'DATA_INI', type: 'DATE', text: 'De', width: 2 },
  {
    name: 'DATA_FIM',
    type: 'DATE',
    text: 'Até',
    width: 2,
    compare: { field: 'DATA_INI', relation: 'gte', message: 'A data final deve ser igual ou posterior à inicial.' },
  },
  {
    name: 'MENS_CANAL',
    type: 'COMBOBOX',
    text: 'Canal',
    width: 2,
    options: Object.entries(CHANNEL_TEXT).map(([value, text]) => ({ value, text })),
  },
  { name: 'MENS_DESTINATARIO', type: 'TEXT', text: 'Destinatário', width: 3 },
  { name: 'MENS_PROGRAMA', type: 'TEXT', text: 'Programa', width: 3 },
  {
    name: 'MENS_STATUS',
    type: 'SITUATION',
    text: 'Situação',
    width: 12,
    options: [{ value: ANY, text: 'Todas' }, ...Object.entries(STATUS_TEXT).map(([value, text]) => ({ value, text }))],
  },
];

/** The last 7 days, every situation and channel. */
const initialFilter = (today: string): FormValues => ({
  DATA_INI: formatDate(addDays(today, -7)),
  MENS_STATUS: ANY,
});

const textOf = (v: unknown) => (v == null ? '' : String(v));

/** The filters as the call takes them (a date not yet complete narrows nothing). */
export function messageFilter(values: FormValues): MessageFilter {
  const status = textOf(values.MENS_STATUS);
  return {
    from: toApiDate(textOf(values.DATA_INI)),
    until: toApiDate(textOf(values.DATA_FIM)),
    status: status === ANY ? '' : status,
    channel: textOf(values.MENS_CANAL),
    to: textOf(values.MENS_DESTINATARIO),
    program: textOf(values.MENS_PROGRAMA),
  };
}

const STATUS_TONE: Record<string, string> = {
  N: 'bg-slate-200 text-slate-700',
  P: 'bg-amber-100 text-amber-900',
  E: 'bg-sky-100 text-sky-800',
  T: 'bg-blue-100 text-blue-800',
  L: 'bg-emerald-100 text-emerald-800',
  F: 'bg-red-100 text-red-800',
};

const th = 'whitespace-nowrap bg-primary px-2 py-1.5 text-left text-xs font-semibold uppercase text-white';
const td = 'px-2 py-1.5 align-top';

interface Props {
  /** The `whatsapp` register's metadata, when the gateway describes it. */
  meta?: ResourceMeta;
  metas: ResourceMeta[];
}

/**
 * /whatsapp (IndexWhatsapp): the company's messages, WhatsApp and e-mail, newest first, filtered
 * by period, situation, channel, recipient and program, 20 a page, read again every 5 s while the
 * page is visible (the statuses move as the providers report: na fila, enviando, enviada,
 * entregue, lida, falhou). A failed message shows why and can be sent again ('Reenviar'). Above,
 * the WhatsApp number's connection and the provider settings; a new WhatsApp message or e-mail
 * opens the shell's dialogs.
 */
export default function MessagesPage({ meta, metas }: Props) {
  usePageMeta(TITLE, ROUTE_NAME);
  const session = useSession();
  const perms = screenPermissions(session, meta, MESSAGES_PATH);
  const dialogs = useDialogs();
  const [today] = useState(apiDateOf);
  const form = useFormState(FILTER_FIELDS, initialFilter(today));
  const typed = JSON.stringify(messageFilter(form.values));
  const filterKey = useDebouncedValue(typed, SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  const [resending, setResending] = useState<number | null>(null);

  // Other filters start from the first page (adjusted while rendering, no effect).
  const [shownKey, setShownKey] = useState(filterKey);
  if (filterKey !== shownKey) {
    setShownKey(filterKey);
    setPage(1);
  }

  const read = useMemo(
    () => (perms.canView ? () => listMessages(JSON.parse(filterKey) as MessageFilter, page, PAGE_SIZE) : null),
    [perms.canView, filterKey, page],
  );
  const list = useCallResult(read);
  useVisibleInterval(list.reload, REFRESH_MS);
  useSubscription(MessagesChangedDocument, {
    skip: !perms.canView || !session,
    variables: { emp: session?.company.id ?? 0 },
    onData: () => list.reload(),
  });

  const settings: SettingsLink[] = SETTINGS.map((s) => {
    const m = metas.find((x) => x.name === s.register);
    return { href: m ? resourceHref(m) : `/${s.register}`, text: m?.title || s.text };
  });

  if (!perms.canView) {
    return <p className="p-6 text-center text-sm text-slate-600">Você não tem permissão para acessar esta tela.</p>;
  }

  const resend = async (m: QueuedMessage) => {
    setResending(m.id);
    try {
      notify.success(await resendMessage(m.id));
      list.reload();
    } catch (e) {
      notify.error(errorMessage(e));
    } finally {
      setResending(null);
    }
  };

  const messages = list.data?.messages ?? [];
  return (
    <section className="space-y-3">
      {perms.canCreate && (
        <div className="flex flex-wrap justify-end gap-2">
          <button type="button" className={primaryButton} onClick={() => dialogs.whatsapp({})}>
            Nova mensagem de WhatsApp
          </button>
          <button type="button" className={primaryButton} onClick={() => dialogs.email({})}>
            Novo e-mail
          </button>
        </div>
      )}
      <ConnectionCard canConnect={perms.canUpdate} settings={settings} />
      <form
        aria-label="Filtros"
        noValidate
        className="rounded bg-white p-3 shadow-sm"
        onSubmit={(e) => e.preventDefault()}
      >
        <FormView form={form} groups={[{ fields: FILTER_FIELDS }]} />
        <div className="mt-2 flex justify-end">
          <button type="button" className={secondaryButton} onClick={() => form.reset(initialFilter(today))}>
            Limpar filtros
          </button>
        </div>
      </form>
      {list.error != null && (
        <p role="alert" className="rounded bg-white p-3 text-sm text-error">
          {errorMessage(list.error)}
        </p>
      )}
      {list.loading && !list.data ? (
        <LoadingScreen />
      ) : (
        <div className="overflow-x-auto rounded border border-slate-200 bg-white">
          <table aria-label="Mensagens" className="min-w-full text-sm">
            <thead>
              <tr>
                {['Data/hora', 'Situação', 'Canal', 'Destinatário', 'Mensagem', 'Anexo', 'Enviada em'].map((h) => (
                  <th key={h} scope="col" className={th}>
                    {h}
                  </th>
                ))}
                <th scope="col" className={`${th} text-right`}>
                  Ações
                </th>
              </tr>
            </thead>
            <tbody>
              {messages.length === 0 ? (
                <tr>
                  <td colSpan={8} className="px-2 py-4 text-center text-slate-500">
                    {MSG.tableEmpty}
                  </td>
                </tr>
              ) : (
                messages.map((m, i) => (
                  <tr key={m.id} className={i % 2 ? 'bg-slate-50' : 'bg-white'}>
                    <td className={`${td} whitespace-nowrap`}>{m.at ? formatTimestamp(m.at) : ''}</td>
                    <td className={td}>
                      <span
                        data-testid={`mensagem-situacao-${m.id}`}
                        className={`whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_TONE[m.status] ?? STATUS_TONE.N}`}
                      >
                        {m.statusText}
                      </span>
                      {m.attempts > 1 && <span className="block text-xs text-slate-500">{m.attempts} tentativas</span>}
                      {m.error && (
                        <span
                          className={`block max-w-xs text-xs ${m.status === FAILED ? 'text-error' : 'text-amber-800'}`}
                        >
                          {m.error}
                        </span>
                      )}
                    </td>
                    <td className={td}>{CHANNEL_TEXT[m.channel as keyof typeof CHANNEL_TEXT] ?? m.channel}</td>
                    <td className={`${td} max-w-[16rem] break-words`}>{recipientText(m.channel, m.to)}</td>
                    <td className={`${td} min-w-[12rem] max-w-xs`}>
                      {m.subject && <span className="block font-medium">{m.subject}</span>}
                      <span className="line-clamp-2 whitespace-pre-line break-words" title={m.text}>
                        {m.text}
                      </span>
                    </td>
                    <td className={`${td} max-w-[10rem] break-words`}>{m.attachment ?? ''}</td>
                    <td className={`${td} whitespace-nowrap`}>{m.sentAt ? formatTimestamp(m.sentAt) : ''}</td>
                    <td className={`${td} whitespace-nowrap text-right`}>
                      {m.status === FAILED && perms.canUpdate && (
                        <button
                          type="button"
                          className={secondaryButton}
                          disabled={resending === m.id}
                          aria-label={`Reenviar mensagem ${m.id}`}
                          onClick={() => void resend(m)}
                        >
                          Reenviar
                        </button>
                      )}
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} pageSize={PAGE_SIZE} total={list.data?.count ?? 0} onPage={setPage} />
    </section>
  );
}
