import { useId, useMemo, useState } from 'react';
import { DialogFrame } from '../../components/dialogs/DialogFrame';
import { primaryButton, secondaryButton } from '../../components/fields/styles';
import type { GroupDescriptor } from '../../components/fields/types';
import { FormView, fieldsOf } from '../../components/form/FormView';
import { useFormState } from '../../components/form/useFormState';
import { errorMessage } from '../../lib/apollo';
import { toId } from '../../lib/api';
import { apiDateOf, centsToApi, formatDate, toApiDate, toCents } from '../../lib/format';
import { saveFile } from '../../lib/restForms';
import type { ResourceMeta } from '../../lib/resources/metaFields';
import { useOptionLookup, useOptionSearch } from '../../lib/resources/useResourceData';
import { notify } from '../../lib/toast';
import { bankField, idValue, money, periodFields, thisMonth } from './bankFields';
import { FinanceTable, type TableColumn } from './FinanceTable';
import type { ReturnAnswer, ReturnLine } from './slips';
import { useBankMovements, type AccountBalance } from './useBankCalls';
import { useBankFiles } from './useSlipCalls';

interface DialogProps {
  metas: ResourceMeta[];
  onClose: () => void;
}

const ACCOUNT_GROUPS: GroupDescriptor[] = [{ fields: [bankField({ required: true, width: 12 })] }];

/** 'Gerar remessa': the CNAB file of an account's slips not yet sent to the bank, downloaded. */
export function RemittanceDialog({ metas, onClose }: DialogProps) {
  const search = useOptionSearch(metas);
  const lookup = useOptionLookup(metas);
  const form = useFormState(fieldsOf(ACCOUNT_GROUPS), {});
  const { remittance } = useBankFiles();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const [refused, setRefused] = useState<string | null>(null);

  const generate = async () => {
    if (!form.validateAll()) return;
    setBusy(true);
    setRefused(null);
    try {
      const file = await remittance(idValue(form.values.BCO_ID));
      saveFile(file);
      setDone(file.name);
      notify.success(`Arquivo de remessa ${file.name} gerado.`);
    } catch (e) {
      const message = errorMessage(e);
      setRefused(message);
      notify.error(message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <DialogFrame
      title="Gerar remessa"
      onClose={onClose}
      footer={
        <>
          <button type="button" className={secondaryButton} onClick={onClose}>
            Fechar
          </button>
          <button
            type="button"
            className={primaryButton}
            disabled={busy}
            data-testid="remessa-gerar"
            onClick={() => void generate()}
          >
            {busy ? 'Gerando remessa...' : 'Gerar remessa'}
          </button>
        </>
      }
    >
      <form noValidate aria-label="Gerar remessa" className="space-y-3" onSubmit={(e) => e.preventDefault()}>
        <p className="text-sm text-slate-600">
          O arquivo reúne os boletos da conta ainda não enviados ao banco; depois de gerado, eles ficam como
          &quot;Enviado em remessa&quot;.
        </p>
        <FormView form={form} groups={ACCOUNT_GROUPS} search={search} lookup={lookup} editable={!busy} />
        {done && (
          <p role="status" className="text-sm text-tertiary">
            Arquivo {done} baixado.
          </p>
        )}
        {refused && (
          <p role="alert" className="text-sm text-error">
            {refused}
          </p>
        )}
      </form>
    </DialogFrame>
  );
}

const RETURN_TYPES = /\.(ret|txt)$/i;

const RETURN_COLUMNS: TableColumn<ReturnLine>[] = [
  { key: 'ourNumber', label: 'Nosso número', nowrap: true, render: (l) => l.ourNumber },
  { key: 'occurrence', label: 'Ocorrência', nowrap: true, render: (l) => l.occurrence },
  { key: 'description', label: 'Descrição', render: (l) => l.description },
  { key: 'reasons', label: 'Motivos', render: (l) => l.reasons },
  {
    key: 'paid',
    label: 'Valor pago',
    align: 'right',
    nowrap: true,
    render: (l) => (l.paid == null ? '' : money(l.paid)),
  },
  {
    key: 'interest',
    label: 'Juros',
    align: 'right',
    nowrap: true,
    render: (l) => (l.interest == null ? '' : money(l.interest)),
  },
  { key: 'fee', label: 'Tarifa', align: 'right', nowrap: true, render: (l) => (l.fee == null ? '' : money(l.fee)) },
  { key: 'result', label: 'Resultado', render: (l) => l.result },
];

/** What a return file did: the counts, the 'already processed' notice and one row per slip. */
export function ReturnResult({ answer }: { answer: ReturnAnswer }) {
  const sum = (pick: (l: ReturnLine) => string | null) =>
    money(centsToApi(answer.lines.reduce((t, l) => t + toCents(pick(l)), 0)));
  const counts: [string, number][] = [
    ['Liquidados', answer.settled],
    ['Registrados', answer.registered],
    ['Recusados', answer.refused],
    ['Baixados', answer.writtenOff],
    ['Ignorados', answer.ignored],
  ];
  return (
    <section aria-label="Resultado do retorno" className="space-y-3">
      {answer.file && (
        <p className="text-sm text-slate-700">
          Arquivo: {answer.file}
          {answer.layout ? ` · Leiaute ${answer.layout}` : ''}
        </p>
      )}
      {answer.alreadyProcessed && (
        <p role="status" data-testid="retorno-ja-processado" className="rounded bg-amber-50 p-2 text-sm text-amber-900">
          Arquivo já processado: nenhum título foi baixado de novo.
        </p>
      )}
      {answer.warnings.length > 0 && (
        <ul aria-label="Avisos" className="space-y-1 rounded bg-amber-50 p-2 text-sm text-amber-900">
          {answer.warnings.map((w, i) => (
            <li key={i}>{w}</li>
          ))}
        </ul>
      )}
      <dl
        aria-label="Totais do retorno"
        className="grid grid-cols-2 gap-2 rounded bg-slate-50 p-3 text-sm sm:grid-cols-5"
      >
        {counts.map(([label, n]) => (
          <div key={label}>
            <dt className="text-xs text-slate-500">{label}</dt>
            <dd className="font-semibold" data-testid={`retorno-${label.toLowerCase()}`}>
              {n}
            </dd>
          </div>
        ))}
      </dl>
      <FinanceTable
        label="Boletos do retorno"
        testId="retorno-resultado"
        columns={RETURN_COLUMNS}
        rows={answer.lines}
        rowKey={(l, i) => `${l.ourNumber}-${l.occurrence}-${i}`}
        totals={{
          ourNumber: 'Total',
          paid: sum((l) => l.paid),
          interest: sum((l) => l.interest),
          fee: sum((l) => l.fee),
        }}
      />
    </section>
  );
}

/**
 * 'Processar retorno': the bank's return file of an account (.RET or .TXT) is sent; paid slips
 * settle their receivables, and the result of each slip is listed.
 */
export function ReturnDialog({ metas, onClose }: DialogProps) {
  const inputId = useId();
  const search = useOptionSearch(metas);
  const lookup = useOptionLookup(metas);
  const form = useFormState(fieldsOf(ACCOUNT_GROUPS), {});
  const { processReturn } = useBankFiles();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const [answer, setAnswer] = useState<ReturnAnswer | null>(null);

  const send = async () => {
    if (!form.validateAll()) return;
    if (!file) {
      notify.warning('Selecione o arquivo de retorno.');
      return;
    }
    if (!RETURN_TYPES.test(file.name)) {
      notify.warning('Selecione um arquivo de retorno (.RET ou .TXT).');
      return;
    }
    const bank = idValue(form.values.BCO_ID);
    if (bank == null) return;
    setBusy(true);
    setRefused(null);
    try {
      const a = await processReturn(bank, file);
      setAnswer(a);
      if (a.alreadyProcessed) notify.warning('Arquivo já processado.');
      else notify.success('Retorno processado com sucesso!');
    } catch (e) {
      const message = errorMessage(e);
      setRefused(message);
      notify.error(message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <DialogFrame
      title="Processar retorno"
      onClose={onClose}
      width={1100}
      footer={
        answer ? (
          <>
            <button
              type="button"
              className={secondaryButton}
              onClick={() => {
                setAnswer(null);
                setFile(null);
              }}
            >
              Processar outro arquivo
            </button>
            <button type="button" className={primaryButton} onClick={onClose}>
              Fechar
            </button>
          </>
        ) : (
          <>
            <button type="button" className={secondaryButton} onClick={onClose} disabled={busy}>
              Cancelar
            </button>
            <button
              type="button"
              className={primaryButton}
              disabled={busy || !file}
              data-testid="retorno-processar"
              onClick={() => void send()}
            >
              {busy ? 'Processando...' : 'Processar retorno'}
            </button>
          </>
        )
      }
    >
      {answer ? (
        <ReturnResult answer={answer} />
      ) : (
        <form noValidate aria-label="Processar retorno" className="space-y-3" onSubmit={(e) => e.preventDefault()}>
          <FormView form={form} groups={ACCOUNT_GROUPS} search={search} lookup={lookup} editable={!busy} />
          <div className="space-y-1">
            <label htmlFor={inputId} className="block text-xs font-medium text-slate-600">
              Arquivo de retorno (.RET ou .TXT)
            </label>
            <input
              id={inputId}
              type="file"
              accept=".ret,.txt,.RET,.TXT"
              data-testid="retorno-arquivo"
              className="block w-full text-sm"
              disabled={busy}
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null);
                setRefused(null);
              }}
            />
          </div>
          {refused && (
            <p role="alert" className="text-sm text-error">
              {refused}
            </p>
          )}
        </form>
      )}
    </DialogFrame>
  );
}

const BALANCE_GROUPS: GroupDescriptor[] = [
  {
    fields: [
      ...periodFields(3).map((f) => ({ ...f, required: true })),
      bankField({ text: 'Conta bancária (todas se vazio)', width: 6 }),
    ],
  },
];

const BALANCE_COLUMNS: TableColumn<AccountBalance>[] = [
  { key: 'bank', label: 'Conta', render: (b) => b.bank },
  { key: 'opening', label: 'Saldo anterior', align: 'right', nowrap: true, render: (b) => money(b.opening) },
  { key: 'credits', label: 'Créditos', align: 'right', nowrap: true, render: (b) => money(b.credits) },
  { key: 'debits', label: 'Débitos', align: 'right', nowrap: true, render: (b) => money(b.debits) },
  { key: 'closing', label: 'Saldo final', align: 'right', nowrap: true, render: (b) => money(b.closing) },
];

/** 'Saldos por período': each account's opening balance, credits, debits and closing balance. */
export function BalancesDialog({ metas, onClose }: DialogProps) {
  const search = useOptionSearch(metas);
  const lookup = useOptionLookup(metas);
  const form = useFormState(fieldsOf(BALANCE_GROUPS), thisMonth());
  const { balances } = useBankMovements();
  const [busy, setBusy] = useState(false);
  const [rows, setRows] = useState<AccountBalance[] | null>(null);

  const ask = async () => {
    if (!form.validateAll()) return;
    const from = toApiDate(String(form.values.DATA_INI ?? ''));
    const to = toApiDate(String(form.values.DATA_FIM ?? ''));
    if (!from || !to) return;
    const bank = idValue(form.values.BCO_ID);
    setBusy(true);
    try {
      setRows(await balances({ DATA_INI: from, DATA_FIM: to, ...(bank != null ? { BCO_ID: bank } : {}) }));
    } catch (e) {
      notify.error(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  const totals = useMemo(() => {
    if (!rows) return undefined;
    const sum = (pick: (b: AccountBalance) => unknown) =>
      money(centsToApi(rows.reduce((t, b) => t + toCents(pick(b)), 0)));
    return {
      bank: 'Total',
      opening: sum((b) => b.opening),
      credits: sum((b) => b.credits),
      debits: sum((b) => b.debits),
      closing: sum((b) => b.closing),
    };
  }, [rows]);

  return (
    <DialogFrame
      title="Saldos por período"
      onClose={onClose}
      width={900}
      footer={
        <button type="button" className={primaryButton} onClick={onClose}>
          Fechar
        </button>
      }
    >
      <form
        noValidate
        aria-label="Saldos por período"
        className="space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          void ask();
        }}
      >
        <FormView form={form} groups={BALANCE_GROUPS} search={search} lookup={lookup} editable={!busy} />
        <div className="flex justify-end">
          <button type="submit" className={primaryButton} disabled={busy} data-testid="saldos-consultar">
            {busy ? 'Consultando...' : 'Consultar'}
          </button>
        </div>
      </form>
      {rows && (
        <div className="mt-3">
          <FinanceTable
            label="Saldos das contas"
            testId="saldos-resultado"
            columns={BALANCE_COLUMNS}
            rows={rows}
            rowKey={(b, i) => `${String(b.bankId)}-${i}`}
            totals={totals}
          />
        </div>
      )}
    </DialogFrame>
  );
}

const TRANSFER_GROUPS: GroupDescriptor[] = [
  {
    fields: [
      bankField({ name: 'BCO_ID_ORIGEM', text: 'Conta de origem', required: true }),
      bankField({ name: 'BCO_ID_DESTINO', text: 'Conta de destino', required: true }),
      { name: 'DATA', type: 'DATE', text: 'Data', required: true, width: 4 },
      { name: 'VALOR', type: 'MONEY', text: 'Valor', required: true, min: '0,01', width: 4 },
      { name: 'HISTORICO', type: 'TEXT', text: 'Histórico', length: 200, width: 12 },
    ],
  },
];

export const SAME_ACCOUNT = 'A conta de destino deve ser diferente da conta de origem.';

/** 'Transferência entre contas': a debit on the origin and a credit on the destination. */
export function TransferDialog({ metas, onClose }: DialogProps) {
  const search = useOptionSearch(metas);
  const lookup = useOptionLookup(metas);
  const form = useFormState(fieldsOf(TRANSFER_GROUPS), { DATA: formatDate(apiDateOf()) });
  const { transfer } = useBankMovements();
  const [busy, setBusy] = useState(false);

  const send = async () => {
    if (!form.validateAll()) return;
    const { BCO_ID_ORIGEM: from, BCO_ID_DESTINO: to } = form.values;
    if (String(from) === String(to)) {
      form.showError('BCO_ID_DESTINO', SAME_ACCOUNT);
      notify.warning(SAME_ACCOUNT);
      return;
    }
    const date = toApiDate(String(form.values.DATA ?? ''));
    if (!date) return;
    const history = String(form.values.HISTORICO ?? '').trim();
    setBusy(true);
    try {
      await transfer({
        BCO_ID_ORIGEM: toId(from),
        BCO_ID_DESTINO: toId(to),
        DATA: date,
        VALOR: centsToApi(toCents(form.values.VALOR)),
        ...(history ? { HISTORICO: history } : {}),
      });
      notify.success('Transferência realizada com sucesso!');
      onClose();
    } catch (e) {
      notify.error(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <DialogFrame
      title="Transferência entre contas"
      onClose={onClose}
      width={700}
      footer={
        <>
          <button type="button" className={secondaryButton} onClick={onClose} disabled={busy}>
            Cancelar
          </button>
          <button
            type="button"
            className={primaryButton}
            disabled={busy}
            data-testid="transferencia-confirmar"
            onClick={() => void send()}
          >
            {busy ? 'Transferindo...' : 'Transferir'}
          </button>
        </>
      }
    >
      <form noValidate aria-label="Transferência entre contas" onSubmit={(e) => e.preventDefault()}>
        <FormView form={form} groups={TRANSFER_GROUPS} search={search} lookup={lookup} editable={!busy} />
      </form>
    </DialogFrame>
  );
}
