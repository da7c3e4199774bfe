import { useMemo, useState } from 'react';
import { useDialogs } from '../../components/dialogs/DialogHost';
import { DialogFrame } from '../../components/dialogs/DialogFrame';
import { LoadingScreen } from '../../components/dialogs/LoadingScreen';
import { useSendDocument } from '../../components/dialogs/useSendDocument';
import { dangerButton, inputClass, primaryButton, secondaryButton } from '../../components/fields/styles';
import type { GroupDescriptor } from '../../components/fields/types';
import { FormView, fieldsOf } from '../../components/form/FormView';
import { useFormState } from '../../components/form/useFormState';
import { PdfPreview, useShownFile } from '../../components/PdfPreview';
import { toId } from '../../lib/api';
import { errorMessage } from '../../lib/apollo';
import { copyText } from '../../lib/clipboard';
import { apiDateOf, centsToField, formatDate, formatTimestamp, toApiDate, toCents } from '../../lib/format';
import type { ResourceMeta } from '../../lib/resources/metaFields';
import { useCompanyId, useOptionLookup, useOptionSearch } from '../../lib/resources/useResourceData';
import { notify } from '../../lib/toast';
import { bankField, idValue, money } from './bankFields';
import { isOpenSlip, slipSituationText, updateBody, type Slip, type SlipCheck } from './slips';
import { isOpen, titleName, titleValue, type TitleColumns, type TitleRow } from './titles';
import { useIssueSlips, useSlipPdf, useTitleSlip } from './useSlipCalls';

/** A date or a timestamp of the server as the screen shows it. */
const when = (v: string) =>
  /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(v) ? formatTimestamp(v.replace(' ', 'T')) : formatDate(v);

const th = 'whitespace-nowrap bg-primary px-2 py-1.5 text-left text-xs font-semibold uppercase text-white';
const td = 'px-2 py-1.5 align-top';

/** The digitable line and the Pix 'copia e cola' of a slip, each with its copy button. */
export function SlipCodes({ slip, testPrefix = 'boleto' }: { slip: Slip; testPrefix?: string }) {
  return (
    <div className="space-y-3">
      <div className="space-y-1">
        <span className="block text-xs font-medium text-slate-600">Linha digitável</span>
        <div className="flex flex-wrap items-center gap-2">
          <output
            aria-label="Linha digitável"
            data-testid={`${testPrefix}-linha-digitavel`}
            className="min-w-0 flex-1 break-all rounded bg-slate-50 px-2 py-1.5 font-mono text-sm"
          >
            {slip.digitableLine}
          </output>
          <button
            type="button"
            className={secondaryButton}
            data-testid={`${testPrefix}-copiar-linha`}
            onClick={() => void copyText(slip.digitableLine, 'Linha digitável')}
          >
            Copiar linha digitável
          </button>
        </div>
      </div>
      {slip.pix && (
        <div className="space-y-1">
          <span className="block text-xs font-medium text-slate-600">Pix Copia e Cola</span>
          <div className="flex flex-wrap items-start gap-2">
            <textarea
              readOnly
              aria-label="Pix Copia e Cola"
              data-testid={`${testPrefix}-pix`}
              rows={3}
              className={`${inputClass} min-w-0 flex-1 font-mono text-xs`}
              value={slip.pix}
            />
            <button
              type="button"
              className={secondaryButton}
              data-testid={`${testPrefix}-copiar-pix`}
              onClick={() => void copyText(slip.pix ?? '', 'Pix Copia e Cola')}
            >
              Copiar Pix
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

/** What the bank said about a slip ('Consultar boleto'). */
function SlipCheckPanel({ check }: { check: SlipCheck }) {
  return (
    <section aria-label="Consulta do boleto" className="space-y-2 rounded border border-slate-200 p-3">
      <h3 className="text-sm font-semibold text-primary">Consulta no banco</h3>
      <p className="text-sm" data-testid="boleto-consulta-situacao">
        Situação: <strong>{check.situationText}</strong>
        {' · '}
        {check.registered ? 'Registrado no banco' : 'Não registrado no banco'}
        {' · '}
        {check.paid ? 'Pago' : 'Não pago'}
      </p>
      {check.occurrences.length === 0 ? (
        <p className="text-sm text-slate-500">Nenhuma ocorrência informada pelo banco.</p>
      ) : (
        <div className="overflow-x-auto rounded border border-slate-200">
          <table className="min-w-full text-sm" aria-label="Ocorrências do boleto">
            <thead>
              <tr>
                {['Data', 'Código', 'Descrição', 'Motivos'].map((h) => (
                  <th key={h} scope="col" className={th}>
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {check.occurrences.map((o, i) => (
                <tr key={`${o.code}-${i}`} className={i % 2 ? 'bg-slate-50' : 'bg-white'}>
                  <td className={`${td} whitespace-nowrap`}>{when(o.date)}</td>
                  <td className={td}>{o.code}</td>
                  <td className={td}>{o.description}</td>
                  <td className={td}>{o.reasons}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

const BANK = bankField({ required: true, width: 12 });
const BANK_GROUPS: GroupDescriptor[] = [{ fields: [BANK] }];

/** The account a slip is issued on: the titles' own when they share one. */
function sharedBank(rows: TitleRow[], cols: TitleColumns): string {
  if (!cols.bank) return '';
  const values = new Set(rows.map((r) => String(titleValue(r, cols, 'bank') ?? '')));
  return values.size === 1 ? [...values][0] : '';
}

const UPDATE_GROUPS: GroupDescriptor[] = [
  {
    fields: [
      { name: 'DTA_VCTO', type: 'DATE', text: 'Novo vencimento', required: true, width: 6 },
      { name: 'VALOR', type: 'MONEY', text: 'Novo valor', required: true, min: '0,01', width: 6 },
    ],
  },
];

const PAYMENT_GROUPS: GroupDescriptor[] = [
  {
    fields: [
      { name: 'DATA', type: 'DATE', text: 'Data do pagamento', required: true, width: 6 },
      { name: 'VALOR', type: 'MONEY', text: 'Valor pago', required: true, min: '0,01', width: 6 },
    ],
  },
];

type Panel = 'pdf' | 'check' | 'update' | 'payment' | null;

interface Props {
  meta: ResourceMeta;
  metas: ResourceMeta[];
  cols: TitleColumns;
  title: TitleRow;
  /** The user may issue and change slips (the register's update permission). */
  canWrite: boolean;
  onClose: () => void;
}

/**
 * A receivable's slip. Without an active one, an open title gets one ('Gerar boleto' on the
 * chosen account). With one: its digitable line and Pix to copy, its PDF ('Imprimir boleto'),
 * what the bank says of it ('Consultar boleto'), and while it is open at the bank, a new due
 * date or value ('Alterar vencimento/valor'), the payment received outside the bank's return
 * ('Informar pagamento') and its write-off ('Baixar boleto', confirmed first).
 */
export function SlipDialog({ meta, metas, cols, title, canWrite, onClose }: Props) {
  const dialogs = useDialogs();
  const emp = useCompanyId();
  const search = useOptionSearch(metas);
  const lookup = useOptionLookup(metas);
  const titleId = titleValue(title, cols, 'key');
  const { data, loading, error, generate, writeOff, pay, update, check } = useTitleSlip(meta, metas, titleId);
  const loadPdf = useSlipPdf();
  const [pdf, showPdf] = useShownFile();
  const [busy, setBusy] = useState<string | null>(null);
  const [panel, setPanel] = useState<Panel>(null);
  const [checked, setChecked] = useState<SlipCheck | null>(null);
  // The slip `gerar` answered, until `titulo` is read again.
  const [issued, setIssued] = useState<Slip | null>(null);
  const bankForm = useFormState(fieldsOf(BANK_GROUPS), { BCO_ID: sharedBank([title], cols) });
  // While the slip is read again after a write (or that read failed), the write's answer shows.
  const slip = (loading || error != null) && issued ? issued : (data ?? null);
  const editForm = useFormState(fieldsOf(UPDATE_GROUPS), {});
  const payForm = useFormState(fieldsOf(PAYMENT_GROUPS), {});
  const open = isOpen(title, cols);
  const name = titleName(title, cols);
  const sendDocument = useSendDocument();
  const titleKey = toId(titleId);
  // The server attaches the slip's PDF and adds its digitable line and Pix code to the text.
  const slipMessage = (s: Slip) =>
    titleKey === undefined
      ? null
      : {
          document: { kind: 'boleto' as const, id: titleKey, label: `Boleto do ${name}` },
          row: title,
          customerId: titleValue(title, cols, 'person'),
          message: `Segue o boleto de ${money(s.value)} com vencimento em ${formatDate(s.due)}.`,
        };

  const run = async (what: string, work: () => Promise<void>) => {
    setBusy(what);
    try {
      await work();
    } catch (e) {
      notify.error(errorMessage(e));
    } finally {
      setBusy(null);
    }
  };

  const issue = () => {
    if (!bankForm.validateAll()) return;
    void run('gerar', async () => {
      const s = await generate(idValue(bankForm.values.BCO_ID));
      if (s) setIssued(s);
      notify.success('Boleto gerado com sucesso!');
    });
  };

  const print = (s: Slip) =>
    void run('pdf', async () => {
      showPdf(await loadPdf([s.id]));
      setPanel('pdf');
    });

  const consult = (s: Slip) =>
    void run('check', async () => {
      setChecked(await check(s));
      setPanel('check');
    });

  const startUpdate = (s: Slip) => {
    editForm.reset({ DTA_VCTO: formatDate(s.due), VALOR: centsToField(toCents(s.value)) });
    setPanel('update');
  };

  const saveUpdate = (s: Slip) => {
    if (!editForm.validateAll()) return;
    const body = updateBody(emp, s, {
      due: toApiDate(String(editForm.values.DTA_VCTO ?? '')),
      cents: toCents(editForm.values.VALOR),
    });
    if (!body) {
      notify.warning('Informe um novo vencimento ou um novo valor.');
      return;
    }
    void run('update', async () => {
      setIssued(await update(body));
      setPanel(null);
      notify.success('Boleto alterado com sucesso!');
    });
  };

  const startPayment = (s: Slip) => {
    payForm.reset({ DATA: formatDate(apiDateOf()), VALOR: centsToField(toCents(s.value)) });
    setPanel('payment');
  };

  const savePayment = (s: Slip) => {
    if (!payForm.validateAll()) return;
    const date = toApiDate(String(payForm.values.DATA ?? ''));
    if (!date) return;
    void run('payment', async () => {
      await pay(s, { date, cents: toCents(payForm.values.VALOR) });
      setPanel(null);
      notify.success('Pagamento do boleto registrado: título baixado.');
    });
  };

  const askWriteOff = (s: Slip) =>
    dialogs.confirm({
      title: 'Baixar boleto',
      text:
        `Deseja baixar o boleto nosso número ${s.ourNumber} de ${money(s.value)} no banco?\n` +
        'O boleto deixa de valer para pagamento; o título continua em aberto.',
      okText: 'Baixar boleto',
      onOk: () =>
        run('baixa', async () => {
          await writeOff(s);
          setIssued(null);
          setPanel(null);
          notify.success('Boleto baixado com sucesso!');
        }),
    });

  const footer = (
    <button type="button" className={primaryButton} onClick={onClose}>
      Fechar
    </button>
  );

  let body;
  if (loading && !slip) {
    body = <LoadingScreen />;
  } else if (!slip) {
    body = (
      <div className="space-y-3">
        {error != null && (
          <p role="alert" className="text-sm text-error">
            {errorMessage(error)}
          </p>
        )}
        <p className="text-sm text-slate-600">Este título não tem boleto ativo.</p>
        {open && canWrite ? (
          <form
            noValidate
            aria-label="Gerar boleto"
            className="space-y-3"
            onSubmit={(e) => {
              e.preventDefault();
              issue();
            }}
          >
            <div data-testid="boleto-conta">
              <FormView form={bankForm} groups={BANK_GROUPS} search={search} lookup={lookup} editable={!busy} />
            </div>
            <div className="flex justify-end">
              <button type="submit" className={primaryButton} disabled={busy != null} data-testid="boleto-gerar">
                {busy === 'gerar' ? 'Gerando boleto...' : 'Gerar boleto'}
              </button>
            </div>
          </form>
        ) : (
          !open && <p className="text-sm text-slate-600">Somente títulos em aberto podem ter boleto gerado.</p>
        )}
      </div>
    );
  } else {
    const s = slip;
    const changeable = canWrite && isOpenSlip(s);
    const toSend = isOpenSlip(s) ? slipMessage(s) : null;
    body = (
      <div className="space-y-4" data-testid="boleto-detalhes">
        <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
          <div>
            <dt className="text-xs text-slate-500">Nosso número</dt>
            <dd className="font-medium" data-testid="boleto-nosso-numero">
              {s.ourNumber}
            </dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500">Vencimento</dt>
            <dd>{formatDate(s.due)}</dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500">Valor</dt>
            <dd>{money(s.value)}</dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500">Situação</dt>
            <dd data-testid="boleto-situacao">{slipSituationText(s.situation)}</dd>
          </div>
          {s.paidValue != null && (
            <div>
              <dt className="text-xs text-slate-500">Valor pago</dt>
              <dd>
                {money(s.paidValue)}
                {s.paidOn ? ` em ${formatDate(s.paidOn)}` : ''}
              </dd>
            </div>
          )}
          {s.occurrence && (
            <div className="col-span-2">
              <dt className="text-xs text-slate-500">Última ocorrência</dt>
              <dd>{s.occurrence}</dd>
            </div>
          )}
        </dl>
        <SlipCodes slip={s} />
        <div className="flex flex-wrap gap-2 border-t border-slate-200 pt-3">
          <button
            type="button"
            className={primaryButton}
            disabled={busy != null}
            data-testid="boleto-imprimir"
            onClick={() => print(s)}
          >
            {busy === 'pdf' ? 'Gerando PDF...' : 'Imprimir boleto'}
          </button>
          <button
            type="button"
            className={secondaryButton}
            disabled={busy != null}
            data-testid="boleto-consultar"
            onClick={() => consult(s)}
          >
            {busy === 'check' ? 'Consultando...' : 'Consultar boleto'}
          </button>
          {toSend && (
            <>
              <button
                type="button"
                className={secondaryButton}
                data-testid="boleto-enviar-email"
                onClick={() => void sendDocument.email(toSend)}
              >
                Enviar boleto por e-mail
              </button>
              <button
                type="button"
                className={secondaryButton}
                data-testid="boleto-enviar-whatsapp"
                onClick={() => void sendDocument.whatsapp(toSend)}
              >
                Enviar boleto por WhatsApp
              </button>
            </>
          )}
          {changeable && (
            <>
              <button
                type="button"
                className={secondaryButton}
                disabled={busy != null}
                data-testid="boleto-alterar"
                onClick={() => startUpdate(s)}
              >
                Alterar vencimento/valor
              </button>
              <button
                type="button"
                className={secondaryButton}
                disabled={busy != null}
                data-testid="boleto-informar-pagamento"
                onClick={() => startPayment(s)}
              >
                Informar pagamento
              </button>
              <button
                type="button"
                className={dangerButton}
                disabled={busy != null}
                data-testid="boleto-baixar"
                onClick={() => askWriteOff(s)}
              >
                Baixar boleto
              </button>
            </>
          )}
        </div>
        {panel === 'pdf' && pdf && (
          <section aria-label="Boleto em PDF" data-testid="boleto-pdf">
            <PdfPreview file={pdf} title={`Boleto nosso número ${s.ourNumber}`} />
          </section>
        )}
        {panel === 'check' && checked && <SlipCheckPanel check={checked} />}
        {panel === 'update' && (
          <form
            noValidate
            aria-label="Alterar vencimento/valor"
            className="space-y-3 rounded border border-slate-200 p-3"
            onSubmit={(e) => {
              e.preventDefault();
              saveUpdate(s);
            }}
          >
            <FormView form={editForm} groups={UPDATE_GROUPS} editable={!busy} />
            <div className="flex justify-end gap-2">
              <button type="button" className={secondaryButton} onClick={() => setPanel(null)}>
                Cancelar
              </button>
              <button
                type="submit"
                className={primaryButton}
                disabled={busy != null}
                data-testid="boleto-salvar-alteracao"
              >
                Salvar alteração
              </button>
            </div>
          </form>
        )}
        {panel === 'payment' && (
          <form
            noValidate
            aria-label="Informar pagamento"
            className="space-y-3 rounded border border-slate-200 p-3"
            onSubmit={(e) => {
              e.preventDefault();
              savePayment(s);
            }}
          >
            <p className="text-xs text-slate-600">
              O título é baixado pelo valor pago, na conta do boleto, e o boleto fica como pago.
            </p>
            <FormView form={payForm} groups={PAYMENT_GROUPS} editable={!busy} />
            <div className="flex justify-end gap-2">
              <button type="button" className={secondaryButton} onClick={() => setPanel(null)}>
                Cancelar
              </button>
              <button type="submit" className={primaryButton} disabled={busy != null}>
                Confirmar pagamento
              </button>
            </div>
          </form>
        )}
      </div>
    );
  }

  return (
    <DialogFrame title={`Boleto do ${name}`} onClose={onClose} width={900} footer={footer}>
      <p className="mb-3 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600">
        <span>{titleValue(title, cols, 'personName') ?? ''}</span>
        <span>Vencimento: {formatDate(titleValue(title, cols, 'due') ?? '')}</span>
        <span>Saldo: {money(titleValue(title, cols, 'balance'))}</span>
      </p>
      {body}
    </DialogFrame>
  );
}

interface IssueProps {
  metas: ResourceMeta[];
  meta: ResourceMeta;
  cols: TitleColumns;
  /** Open receivables of one customer. */
  rows: TitleRow[];
  onClose: () => void;
  onIssued?: () => void;
}

/**
 * 'Gerar boletos' for the chosen receivables: one account, one slip per title (a title with an
 * active slip answers it), then each slip's codes and one PDF of them all.
 */
export function IssueSlipsDialog({ meta, metas, cols, rows, onClose, onIssued }: IssueProps) {
  const search = useOptionSearch(metas);
  const lookup = useOptionLookup(metas);
  const issue = useIssueSlips(meta, metas);
  const loadPdf = useSlipPdf();
  const [pdf, showPdf] = useShownFile();
  const form = useFormState(fieldsOf(BANK_GROUPS), { BCO_ID: sharedBank(rows, cols) });
  const [busy, setBusy] = useState(false);
  const [slips, setSlips] = useState<Slip[] | null>(null);
  const byTitle = useMemo(() => new Map(rows.map((r) => [String(titleValue(r, cols, 'key')), r])), [rows, cols]);

  const send = async () => {
    if (!form.validateAll()) return;
    setBusy(true);
    try {
      const answer = await issue(
        idValue(form.values.BCO_ID),
        rows.map((r) => titleValue(r, cols, 'key')),
      );
      setSlips(answer);
      onIssued?.();
      notify.success(
        answer.length === 1 ? 'Boleto gerado com sucesso!' : `${answer.length} boletos gerados com sucesso!`,
      );
    } catch (e) {
      notify.error(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const printAll = async (list: Slip[]) => {
    setBusy(true);
    try {
      showPdf(await loadPdf(list.map((s) => s.id)));
    } catch (e) {
      notify.error(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <DialogFrame
      title="Gerar boletos"
      onClose={onClose}
      width={900}
      footer={
        slips ? (
          <>
            <button type="button" className={secondaryButton} disabled={busy} onClick={() => void printAll(slips)}>
              Imprimir boletos
            </button>
            <button type="button" className={primaryButton} onClick={onClose}>
              Fechar
            </button>
          </>
        ) : (
          <>
            <button type="button" className={secondaryButton} onClick={onClose}>
              Cancelar
            </button>
            <button type="button" className={primaryButton} disabled={busy} onClick={() => void send()}>
              {busy ? 'Gerando boletos...' : 'Gerar boletos'}
            </button>
          </>
        )
      }
    >
      {!slips ? (
        <form noValidate aria-label="Gerar boletos" className="space-y-3" onSubmit={(e) => e.preventDefault()}>
          <p className="text-sm text-slate-700">
            {rows.length === 1 ? '1 título selecionado.' : `${rows.length} títulos selecionados.`}
          </p>
          <FormView form={form} groups={BANK_GROUPS} search={search} lookup={lookup} editable={!busy} />
        </form>
      ) : (
        <ul className="space-y-3">
          {slips.map((s) => {
            const row = byTitle.get(String(s.titleId));
            return (
              <li key={String(s.id)} className="space-y-2 rounded border border-slate-200 p-3">
                <p className="text-sm font-semibold text-primary">
                  {row ? titleName(row, cols) : `Título ${String(s.titleId)}`} · Nosso número {s.ourNumber} ·{' '}
                  {money(s.value)} · Vencimento {formatDate(s.due)}
                </p>
                <SlipCodes slip={s} testPrefix={`boleto-${String(s.id)}`} />
              </li>
            );
          })}
        </ul>
      )}
      {pdf && (
        <section aria-label="Boletos em PDF" className="mt-3">
          <PdfPreview file={pdf} title="Boletos" />
        </section>
      )}
    </DialogFrame>
  );
}
