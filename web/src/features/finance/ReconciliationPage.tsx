import { useId, useMemo, useState } from 'react';
import { useDialogs } from '../../components/dialogs/DialogHost';
import { DialogFrame } from '../../components/dialogs/DialogFrame';
import { LoadingScreen } from '../../components/dialogs/LoadingScreen';
import { dangerButton, primaryButton, secondaryButton } from '../../components/fields/styles';
import type { GroupDescriptor } from '../../components/fields/types';
import { FormView, fieldsOf } from '../../components/form/FormView';
import { useFormState } from '../../components/form/useFormState';
import { errorMessage } from '../../lib/apollo';
import { addDays, centsToApi, formatDate, toApiDate, toCents } from '../../lib/format';
import { usePageMeta } from '../../lib/pageMeta';
import type { ResourceMeta } from '../../lib/resources/metaFields';
import { screenPermissions } from '../../lib/resources/permissions';
import { useOptionLookup, useOptionSearch } from '../../lib/resources/useResourceData';
import { useSession } from '../../lib/session';
import { notify } from '../../lib/toast';
import { bankField, idValue, money, periodFields } from './bankFields';
import { FinanceTable, type TableColumn } from './FinanceTable';
import {
  DIRECTIONS,
  LINE_SITUATIONS,
  movementsCents,
  openMovements,
  SITUATION_FILTER,
  type Movement,
  type OfxAnswer,
  type ReconciliationBalance,
  type StatementLine,
  type Suggestion,
} from './reconciliation';
import { NO_PERMISSION, SCREENS, screenRouteName } from './screens';
import { useAccountMovements, useReconciliation, type LinesFilter } from './useReconciliation';

const SCREEN = SCREENS.reconciliation;

const FILTER_GROUPS: GroupDescriptor[] = [
  {
    fields: [
      bankField({ required: true, width: 4 }),
      ...periodFields(2),
      { name: 'SITUACAO', type: 'SITUATION', text: 'Situação', options: SITUATION_FILTER, width: 4 },
    ],
  },
];

/** A statement value with its direction: 'R$ 100,00 C'. */
const signed = (value: unknown, type: string) => `${money(value)} ${type}`;
const tone = (type: string) => (type === 'D' ? 'text-error' : 'text-tertiary');

const MOVEMENT_COLUMNS: TableColumn<Movement>[] = [
  { key: 'date', label: 'Data', nowrap: true, render: (m) => formatDate(String(m.MBCA_DTA_MOV ?? '')) },
  { key: 'history', label: 'Histórico', render: (m) => String(m.MBCA_HISTORICO ?? '') },
  { key: 'document', label: 'Documento', render: (m) => String(m.MBCA_DOCUMENTO ?? '') },
  {
    key: 'value',
    label: 'Valor',
    align: 'right',
    nowrap: true,
    render: (m) => (
      <span className={tone(String(m.MBCA_TIPO ?? ''))}>{signed(m.MBCA_VALOR, String(m.MBCA_TIPO ?? ''))}</span>
    ),
  },
];

interface Props {
  /** The register's metadata, when the gateway describes it (title, program). */
  meta?: ResourceMeta;
  metas: ResourceMeta[];
}

/**
 * /conciliacaobancaria: an account's bank statements (imported from OFX files) matched to the
 * system's movements. The statement lines of the chosen account and period are listed beside
 * the chosen line: a pending one is matched to a suggestion ('Conciliar') or to movements
 * chosen by hand, or posted as a new movement ('Lançar movimento'); a matched one shows its
 * movements and can be undone ('Desfazer'). The balances per statement and per system are
 * shown above, with their difference and what is still pending.
 */
export default function ReconciliationPage({ meta, metas }: Props) {
  usePageMeta(meta?.title || SCREEN.title, screenRouteName(SCREEN.register));
  const session = useSession();
  const perms = screenPermissions(session, meta, SCREEN.path);
  const dialogs = useDialogs();
  const search = useOptionSearch(metas);
  const lookup = useOptionLookup(metas);
  const filters = useFormState(fieldsOf(FILTER_GROUPS), { SITUACAO: 'P' });
  const [chosenId, setChosenId] = useState<string | null>(null);
  const [importing, setImporting] = useState(false);

  const bankId = idValue(filters.values.BCO_ID);
  const from = toApiDate(String(filters.values.DATA_INI ?? ''));
  const to = toApiDate(String(filters.values.DATA_FIM ?? ''));
  const situation = String(filters.values.SITUACAO ?? 'P');
  const filter = useMemo<LinesFilter | null>(
    () => (bankId == null ? null : { bankId, situation, from, to }),
    [bankId, situation, from, to],
  );
  const { lines, balance, importOfx, reconcile, undo, post } = useReconciliation(perms.canView ? filter : null);
  const list = useMemo(() => (filter ? (lines.data ?? []) : []), [filter, lines.data]);
  const current = list.find((l) => String(l.id) === chosenId) ?? list[0] ?? null;

  if (!perms.canView) return <p className="p-6 text-center text-sm text-slate-600">{NO_PERMISSION}</p>;

  const askReconcile = (line: StatementLine, movements: Movement[], ids: unknown[]) => {
    const total = movementsCents(movements);
    const n = ids.length;
    dialogs.confirm({
      title: 'Conciliar lançamento',
      text:
        `Conciliar o lançamento do extrato de ${formatDate(line.date)} (${signed(line.value, line.type)}) ` +
        `com ${n} ${n === 1 ? 'movimento' : 'movimentos'} de ${money(centsToApi(total))}?` +
        (total !== toCents(line.value) ? '\nAtenção: os valores são diferentes.' : ''),
      okText: 'Conciliar',
      onOk: async () => {
        try {
          notify.success(await reconcile(line.id, ids));
        } catch (e) {
          notify.error(errorMessage(e));
        }
      },
    });
  };

  const askUndo = (line: StatementLine) =>
    dialogs.confirm({
      title: 'Desfazer conciliação',
      text: `Desfazer a conciliação do lançamento de ${formatDate(line.date)} (${signed(line.value, line.type)})? Ele volta a ficar pendente.`,
      okText: 'Desfazer',
      onOk: async () => {
        try {
          notify.success(await undo(line.id));
        } catch (e) {
          notify.error(errorMessage(e));
        }
      },
    });

  const lineColumns: TableColumn<StatementLine>[] = [
    { key: 'date', label: 'Data', nowrap: true, render: (l) => formatDate(l.date) },
    { key: 'history', label: 'Histórico', render: (l) => l.history },
    { key: 'document', label: 'Documento', render: (l) => l.document },
    {
      key: 'value',
      label: 'Valor',
      align: 'right',
      nowrap: true,
      render: (l) => <span className={tone(l.type)}>{signed(l.value, l.type)}</span>,
    },
    {
      key: 'situation',
      label: 'Situação',
      nowrap: true,
      render: (l) => (
        <span data-testid={`conciliacao-situacao-${String(l.id)}`}>{LINE_SITUATIONS[l.situation] ?? l.situation}</span>
      ),
    },
  ];

  return (
    <section className="space-y-3">
      <form
        aria-label="Filtros"
        noValidate
        className="flex flex-wrap items-end gap-3 rounded bg-white p-3 shadow-sm"
        onSubmit={(e) => e.preventDefault()}
      >
        <div className="min-w-64 flex-1" data-testid="conciliacao-conta">
          <FormView form={filters} groups={FILTER_GROUPS} search={search} lookup={lookup} />
        </div>
        {perms.canCreate && (
          <button
            type="button"
            className={primaryButton}
            disabled={bankId == null}
            title={bankId == null ? 'Selecione a conta bancária' : undefined}
            data-testid="conciliacao-importar-ofx"
            onClick={() => setImporting(true)}
          >
            Importar OFX
          </button>
        )}
      </form>
      {!filter ? (
        <p className="rounded bg-white p-4 text-sm text-slate-600">
          Selecione a conta bancária para ver os lançamentos do extrato.
        </p>
      ) : (
        <>
          <BalancePanel balance={balance.data} error={balance.error} />
          {lines.error != null && !lines.data ? (
            <p role="alert" className="rounded bg-white p-4 text-sm text-error">
              {errorMessage(lines.error)}
            </p>
          ) : lines.loading && !lines.data ? (
            <LoadingScreen />
          ) : (
            <div className="grid gap-3 xl:grid-cols-2">
              <section aria-label="Lançamentos do extrato" className="space-y-2 rounded bg-white p-3 shadow-sm">
                <h2 className="text-sm font-semibold text-primary">Lançamentos do extrato ({list.length})</h2>
                <FinanceTable
                  label="Lançamentos do extrato"
                  testId="conciliacao-extrato"
                  columns={lineColumns}
                  rows={list}
                  rowKey={(l) => String(l.id)}
                  chosen={(l) => l === current}
                  actions={(l) => (
                    <button
                      type="button"
                      className={secondaryButton}
                      aria-label={`Selecionar lançamento ${String(l.id)}`}
                      aria-pressed={l === current}
                      data-testid={`conciliacao-selecionar-${String(l.id)}`}
                      onClick={() => setChosenId(String(l.id))}
                    >
                      Selecionar
                    </button>
                  )}
                  emptyText="Nenhum lançamento do extrato. Importe um arquivo OFX."
                />
              </section>
              {current && (
                <LineDetail
                  key={String(current.id)}
                  line={current}
                  lines={list}
                  metas={metas}
                  bankId={bankId}
                  period={{ from, to }}
                  canWrite={perms.canUpdate}
                  canPost={perms.canCreate}
                  onReconcile={askReconcile}
                  onUndo={askUndo}
                  onPost={post}
                />
              )}
            </div>
          )}
        </>
      )}
      {importing && <OfxDialog onImport={importOfx} onClose={() => setImporting(false)} />}
    </section>
  );
}

function BalancePanel({ balance, error }: { balance: ReconciliationBalance | undefined; error: unknown }) {
  if (!balance) {
    return error != null ? (
      <p role="alert" className="rounded bg-white p-3 text-sm text-error">
        {errorMessage(error)}
      </p>
    ) : null;
  }
  const known = balance.statement !== '';
  const off = known && toCents(balance.difference) !== 0;
  return (
    <section aria-label="Saldos da conciliação" className="rounded bg-white p-3 shadow-sm">
      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-xs text-slate-500">
            Saldo do extrato{balance.statementDate ? ` em ${formatDate(balance.statementDate)}` : ''}
          </dt>
          <dd className="font-medium" data-testid="conciliacao-saldo-extrato">
            {known ? money(balance.statement) : '—'}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">Saldo no sistema</dt>
          <dd className="font-medium" data-testid="conciliacao-saldo-sistema">
            {money(balance.system)}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">Diferença</dt>
          <dd
            className={`font-semibold ${!known ? '' : off ? 'text-error' : 'text-tertiary'}`}
            data-testid="conciliacao-diferenca"
            title={known ? undefined : 'O extrato importado não informou o saldo final.'}
          >
            {known ? money(balance.difference) : '—'}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">Pendentes</dt>
          <dd className="font-medium" data-testid="conciliacao-pendentes">
            {balance.pending} ({money(balance.pendingValue)})
          </dd>
        </div>
      </dl>
    </section>
  );
}

interface DetailProps {
  line: StatementLine;
  lines: StatementLine[];
  metas: ResourceMeta[];
  bankId: string | number | null;
  period: { from: string | null; to: string | null };
  canWrite: boolean;
  canPost: boolean;
  onReconcile: (line: StatementLine, movements: Movement[], ids: unknown[]) => void;
  onUndo: (line: StatementLine) => void;
  onPost: (lineId: unknown, extra: { HISTORICO?: string; HISP_ID?: unknown }) => Promise<string>;
}

/** The chosen statement line: its match, or its suggestions, the manual match and the posting. */
function LineDetail({
  line,
  lines,
  metas,
  bankId,
  period,
  canWrite,
  canPost,
  onReconcile,
  onUndo,
  onPost,
}: DetailProps) {
  const [mode, setMode] = useState<'manual' | 'post' | null>(null);
  const matched = line.situation === 'C';
  return (
    <section aria-label="Lançamento selecionado" className="space-y-3 rounded bg-white p-3 shadow-sm">
      <header className="space-y-1">
        <h2 className="text-sm font-semibold text-primary">
          Lançamento de {formatDate(line.date)} ·{' '}
          <span className={tone(line.type)}>{signed(line.value, line.type)}</span>
        </h2>
        <p className="text-sm text-slate-700">
          {line.history}
          {line.document ? ` · Doc. ${line.document}` : ''} · {DIRECTIONS[line.type] ?? line.type} ·{' '}
          {LINE_SITUATIONS[line.situation] ?? line.situation}
        </p>
      </header>
      {matched ? (
        <>
          <h3 className="text-sm font-semibold">Movimentos conciliados</h3>
          <FinanceTable
            label="Movimentos conciliados"
            columns={MOVEMENT_COLUMNS}
            rows={line.movements}
            rowKey={(m, i) => `${String(m.MBCA_ID)}-${i}`}
          />
          {canWrite && (
            <div className="flex justify-end">
              <button
                type="button"
                className={dangerButton}
                data-testid="conciliacao-desfazer"
                onClick={() => onUndo(line)}
              >
                Desfazer
              </button>
            </div>
          )}
        </>
      ) : (
        <>
          <h3 className="text-sm font-semibold">Sugestões ({line.suggestions.length})</h3>
          {line.suggestions.length === 0 ? (
            <p className="text-sm text-slate-500">Nenhuma sugestão para este lançamento.</p>
          ) : (
            <ul className="space-y-2" aria-label="Sugestões">
              {line.suggestions.map((s, i) => (
                <SuggestionCard
                  key={i}
                  index={i}
                  suggestion={s}
                  canWrite={canWrite}
                  onReconcile={() => onReconcile(line, s.movements, s.ids)}
                />
              ))}
            </ul>
          )}
          {(canWrite || canPost) && (
            <div className="flex flex-wrap justify-end gap-2 border-t border-slate-200 pt-3">
              {canWrite && (
                <button
                  type="button"
                  className={secondaryButton}
                  aria-pressed={mode === 'manual'}
                  data-testid="conciliacao-escolher-movimentos"
                  onClick={() => setMode(mode === 'manual' ? null : 'manual')}
                >
                  Escolher movimentos
                </button>
              )}
              {canPost && (
                <button
                  type="button"
                  className={secondaryButton}
                  aria-pressed={mode === 'post'}
                  data-testid="conciliacao-lancar"
                  onClick={() => setMode(mode === 'post' ? null : 'post')}
                >
                  Lançar movimento
                </button>
              )}
            </div>
          )}
          {mode === 'manual' && bankId != null && (
            <ManualMatch
              line={line}
              lines={lines}
              bankId={bankId}
              period={period}
              onReconcile={(movements) =>
                onReconcile(
                  line,
                  movements,
                  movements.map((m) => m.MBCA_ID),
                )
              }
            />
          )}
          {mode === 'post' && <PostForm line={line} metas={metas} onPost={onPost} onDone={() => setMode(null)} />}
        </>
      )}
    </section>
  );
}

function SuggestionCard({
  index,
  suggestion,
  canWrite,
  onReconcile,
}: {
  index: number;
  suggestion: Suggestion;
  canWrite: boolean;
  onReconcile: () => void;
}) {
  return (
    <li className="space-y-2 rounded border border-slate-200 p-2" data-testid={`conciliacao-sugestao-${index}`}>
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <span>
          <strong>{money(suggestion.value)}</strong>
          {suggestion.reason ? ` · ${suggestion.reason}` : ''}
        </span>
        {canWrite && (
          <button
            type="button"
            className={primaryButton}
            aria-label={`Conciliar sugestão ${index + 1}`}
            data-testid={`conciliacao-conciliar-sugestao-${index}`}
            onClick={onReconcile}
          >
            Conciliar
          </button>
        )}
      </div>
      <FinanceTable
        label={`Movimentos da sugestão ${index + 1}`}
        columns={MOVEMENT_COLUMNS}
        rows={suggestion.movements}
        rowKey={(m, i) => `${String(m.MBCA_ID)}-${i}`}
      />
    </li>
  );
}

/** How far around a line's date the manual match looks when no period is chosen. */
export const MATCH_WINDOW_DAYS = 30;

function ManualMatch({
  line,
  lines,
  bankId,
  period,
  onReconcile,
}: {
  line: StatementLine;
  lines: StatementLine[];
  bankId: string | number;
  period: { from: string | null; to: string | null };
  onReconcile: (movements: Movement[]) => void;
}) {
  const from = period.from ?? addDays(line.date, -MATCH_WINDOW_DAYS);
  const to = period.to ?? addDays(line.date, MATCH_WINDOW_DAYS);
  const { rows, loading, error } = useAccountMovements({ bankId, type: line.type, from, to });
  const open = useMemo(() => openMovements(rows, lines), [rows, lines]);
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const chosen = open.filter((m) => picked.has(String(m.MBCA_ID)));
  const total = movementsCents(chosen);
  const target = toCents(line.value);
  const toggle = (m: Movement, on: boolean) =>
    setPicked((s) => {
      const next = new Set(s);
      if (on) next.add(String(m.MBCA_ID));
      else next.delete(String(m.MBCA_ID));
      return next;
    });
  const columns: TableColumn<Movement>[] = [
    {
      key: 'pick',
      label: '',
      render: (m) => (
        <input
          type="checkbox"
          aria-label={`Escolher movimento ${String(m.MBCA_ID)}`}
          checked={picked.has(String(m.MBCA_ID))}
          onChange={(e) => toggle(m, e.target.checked)}
        />
      ),
    },
    ...MOVEMENT_COLUMNS,
  ];
  return (
    <section aria-label="Escolher movimentos" className="space-y-2 rounded border border-slate-200 p-2">
      <p className="text-xs text-slate-600">
        Movimentos de {DIRECTIONS[line.type]?.toLowerCase() ?? line.type} da conta de {formatDate(from)} a{' '}
        {formatDate(to)} ainda não conciliados.
      </p>
      {loading ? (
        <LoadingScreen />
      ) : error ? (
        <p role="alert" className="text-sm text-error">
          {errorMessage(error)}
        </p>
      ) : (
        <FinanceTable
          label="Movimentos da conta"
          columns={columns}
          rows={open}
          rowKey={(m, i) => `${String(m.MBCA_ID)}-${i}`}
        />
      )}
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <span role="status" className={total === target ? 'text-tertiary' : 'text-slate-700'}>
          Escolhidos: {money(centsToApi(total))} de {money(line.value)}
        </span>
        <button
          type="button"
          className={primaryButton}
          disabled={chosen.length === 0}
          data-testid="conciliacao-conciliar-escolhidos"
          onClick={() => onReconcile(chosen)}
        >
          Conciliar escolhidos
        </button>
      </div>
    </section>
  );
}

const POST_GROUPS: GroupDescriptor[] = [
  {
    fields: [
      { name: 'HISTORICO', type: 'TEXT', text: 'Histórico', length: 200, width: 12 },
      { name: 'HISP_ID', type: 'COMBOBOX', text: 'Centro de Custo', reference: 'historicopadrao', width: 12 },
    ],
  },
];

/** 'Lançar movimento': the line becomes a movement of the account (history and cost centre), matched to it. */
function PostForm({
  line,
  metas,
  onPost,
  onDone,
}: {
  line: StatementLine;
  metas: ResourceMeta[];
  onPost: DetailProps['onPost'];
  onDone: () => void;
}) {
  const search = useOptionSearch(metas);
  const lookup = useOptionLookup(metas);
  const form = useFormState(fieldsOf(POST_GROUPS), { HISTORICO: line.history });
  const [busy, setBusy] = useState(false);
  const send = async () => {
    if (!form.validateAll()) return;
    const history = String(form.values.HISTORICO ?? '').trim();
    const cost = idValue(form.values.HISP_ID);
    setBusy(true);
    try {
      notify.success(
        await onPost(line.id, {
          ...(history ? { HISTORICO: history } : {}),
          ...(cost != null ? { HISP_ID: cost } : {}),
        }),
      );
      onDone();
    } catch (e) {
      notify.error(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      noValidate
      aria-label="Lançar movimento"
      className="space-y-2 rounded border border-slate-200 p-2"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <p className="text-xs text-slate-600">
        Cria o movimento de {signed(line.value, line.type)} em {formatDate(line.date)} na conta e o concilia com este
        lançamento.
      </p>
      <FormView form={form} groups={POST_GROUPS} search={search} lookup={lookup} editable={!busy} />
      <div className="flex justify-end gap-2">
        <button type="button" className={secondaryButton} onClick={onDone}>
          Cancelar
        </button>
        <button type="submit" className={primaryButton} disabled={busy} data-testid="conciliacao-lancar-confirmar">
          {busy ? 'Lançando...' : 'Lançar e conciliar'}
        </button>
      </div>
    </form>
  );
}

/** 'Importar OFX': the statement file of the chosen account, then what it brought. */
function OfxDialog({ onImport, onClose }: { onImport: (file: File) => Promise<OfxAnswer>; onClose: () => void }) {
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const [answer, setAnswer] = useState<OfxAnswer | null>(null);
  const send = async () => {
    if (!file) return;
    if (!/\.ofx$/i.test(file.name)) {
      notify.warning('Selecione um arquivo OFX (.ofx).');
      return;
    }
    setBusy(true);
    setRefused(null);
    try {
      const a = await onImport(file);
      setAnswer(a);
      notify.success(`Extrato importado: ${a.imported} ${a.imported === 1 ? 'lançamento' : 'lançamentos'}.`);
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
      title="Importar OFX"
      onClose={onClose}
      width={800}
      footer={
        answer ? (
          <button type="button" className={primaryButton} data-testid="ofx-fechar" onClick={onClose}>
            Fechar
          </button>
        ) : (
          <>
            <button type="button" className={secondaryButton} onClick={onClose} disabled={busy}>
              Cancelar
            </button>
            <button
              type="button"
              className={primaryButton}
              disabled={!file || busy}
              data-testid="ofx-importar"
              onClick={() => void send()}
            >
              {busy ? 'Importando...' : 'Importar'}
            </button>
          </>
        )
      }
    >
      {answer ? (
        <section aria-label="Resultado da importação" className="space-y-3" data-testid="ofx-resultado">
          <dl className="grid grid-cols-3 gap-2 rounded bg-slate-50 p-3 text-sm">
            <div>
              <dt className="text-xs text-slate-500">Importados</dt>
              <dd className="font-semibold" data-testid="ofx-importados">
                {answer.imported}
              </dd>
            </div>
            <div>
              <dt className="text-xs text-slate-500">Ignorados (já importados)</dt>
              <dd className="font-semibold" data-testid="ofx-ignorados">
                {answer.ignored}
              </dd>
            </div>
            <div>
              <dt className="text-xs text-slate-500">Com sugestão</dt>
              <dd className="font-semibold" data-testid="ofx-sugeridos">
                {answer.suggested}
              </dd>
            </div>
          </dl>
          {answer.statements.length > 0 && (
            <FinanceTable
              label="Extratos importados"
              columns={[
                { key: 'account', label: 'Conta', render: (e) => e.account },
                {
                  key: 'period',
                  label: 'Período',
                  nowrap: true,
                  render: (e) => `${formatDate(e.start)} a ${formatDate(e.end)}`,
                },
                {
                  key: 'balance',
                  label: 'Saldo',
                  align: 'right',
                  nowrap: true,
                  render: (e) =>
                    e.balance == null
                      ? ''
                      : `${money(e.balance)}${e.balanceDate ? ` em ${formatDate(e.balanceDate)}` : ''}`,
                },
              ]}
              rows={answer.statements}
              rowKey={(e, i) => `${e.account}-${i}`}
            />
          )}
        </section>
      ) : (
        <form noValidate aria-label="Importar OFX" className="space-y-2" onSubmit={(e) => e.preventDefault()}>
          <label htmlFor={inputId} className="block text-xs font-medium text-slate-600">
            Arquivo OFX do extrato
          </label>
          <input
            id={inputId}
            type="file"
            accept=".ofx,.OFX"
            data-testid="ofx-arquivo"
            className="block w-full text-sm"
            disabled={busy}
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setRefused(null);
            }}
          />
          <p className="text-xs text-slate-500">
            Lançamentos já importados (mesmo identificador do banco) são ignorados.
          </p>
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
