import { useMemo, useState } from 'react';
import { DialogFrame } from '../../components/dialogs/DialogFrame';
import { FieldInput } from '../../components/fields/FieldInput';
import { primaryButton, secondaryButton } from '../../components/fields/styles';
import type { FieldDescriptor, GroupDescriptor } from '../../components/fields/types';
import { FormView, fieldsOf } from '../../components/form/FormView';
import { fieldDomId, useFormState } from '../../components/form/useFormState';
import { PdfPreview, useShownFile } from '../../components/PdfPreview';
import { errorMessage } from '../../lib/apollo';
import { apiDateOf, formatDate, formatMoney, toApiDate, toCents } from '../../lib/format';
import { notify } from '../../lib/toast';
import { useDebouncedValue } from '../../lib/useDebounce';
import type { ResourceMeta } from '../../lib/resources/metaFields';
import { useOptionLookup, useOptionSearch } from '../../lib/resources/useResourceData';
import {
  applyPreview,
  editLine,
  lineError,
  lineTotal,
  previewBody,
  settlementBody,
  settlementTotals,
  sharedValue,
  startLines,
  type LineField,
  type SettleLine,
} from './settlement';
import { titleName, titleValue, type TitleColumns, type TitleRow } from './titles';
import {
  useCallResult,
  useReceipt,
  useSettlementPreview,
  useSettleTitles,
  type Preview,
  type SettleAnswer,
} from './useTitleCalls';

/** The preview is asked again this long after the last change of the date or a value. */
export const PREVIEW_DEBOUNCE_MS = 500;

const HEADER = { date: 'DATA', bank: 'BCO_ID', method: 'FRMP_ID', remarks: 'OBS' } as const;

function headerGroups(cols: TitleColumns): GroupDescriptor[] {
  const fields: FieldDescriptor[] = [
    { name: HEADER.date, type: 'DATE', text: 'Data da baixa', required: true, width: 3 },
  ];
  if (cols.bank)
    fields.push({
      name: HEADER.bank,
      type: 'COMBOBOX',
      text: cols.bank.label,
      reference: cols.bank.reference,
      width: 3,
    });
  if (cols.method) {
    fields.push({
      name: HEADER.method,
      type: 'COMBOBOX',
      text: cols.method.label,
      reference: cols.method.reference,
      width: 3,
    });
  }
  fields.push({ name: HEADER.remarks, type: 'TEXT', text: 'Observação', length: 500, width: 3 });
  return [{ fields }];
}

const AMOUNTS: { field: LineField; text: string }[] = [
  { field: 'value', text: 'Valor' },
  { field: 'interest', text: 'Juros' },
  { field: 'fine', text: 'Multa' },
  { field: 'discount', text: 'Desconto' },
];

interface LineProps {
  line: SettleLine;
  cols: TitleColumns;
  idPrefix: string;
  disabled: boolean;
  onEdit: (field: LineField, text: string) => void;
}

/** One title: what it is, and the amounts settled of it. */
function LineFields({ line, cols, idPrefix, disabled, onEdit }: LineProps) {
  const error = lineError(line);
  const name = titleName(line.row, cols);
  return (
    <fieldset className="rounded border border-slate-300 p-3">
      <legend className="px-1 text-sm font-semibold text-primary">{name}</legend>
      <p className="mb-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600">
        <span>{titleValue(line.row, cols, 'personName') ?? ''}</span>
        <span>Vencimento: {formatDate(titleValue(line.row, cols, 'due') ?? '')}</span>
        <span>Saldo: {formatMoney(line.balance / 100)}</span>
        {line.daysLate != null && line.daysLate > 0 && (
          <span className="font-medium text-error">
            {line.daysLate} {line.daysLate === 1 ? 'dia' : 'dias'} em atraso
          </span>
        )}
      </p>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-5">
        {AMOUNTS.map(({ field, text }) => (
          <FieldInput
            key={field}
            field={{ name: field, type: 'MONEY', text }}
            id={`${idPrefix}-${String(line.id)}-${field}`}
            value={line[field]}
            onChange={(v) => onEdit(field, String(v))}
            error={null}
            disabled={disabled}
            uploadsBase=""
          />
        ))}
        <div className="flex flex-col gap-0.5">
          <span className="text-xs font-medium text-slate-600">Total</span>
          <output className="py-1.5 text-sm font-semibold" aria-label={`Total do ${name}`}>
            {formatMoney(lineTotal(line) / 100)}
          </output>
        </div>
      </div>
      {error && (
        <p role="alert" className="mt-1 text-xs text-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}

interface Props {
  meta: ResourceMeta;
  metas: ResourceMeta[];
  cols: TitleColumns;
  /** The titles to settle (open ones of one customer or supplier). */
  rows: TitleRow[];
  onClose: () => void;
  /** The titles were settled (the list drops its selection). */
  onSettled?: () => void;
}

/**
 * Settles one or more titles: the date (today), the account and method (the titles' own when
 * they share one), and per title the value (its balance), interest and fine (computed by the
 * server for the date and value, `calculo`, until the user types their own) and a discount.
 * Once settled, it lists the settlements, each with its receipt ('Imprimir recibo').
 */
export function SettlementDialog({ meta, metas, cols, rows, onClose, onSettled }: Props) {
  const groups = useMemo(() => headerGroups(cols), [cols]);
  const form = useFormState(fieldsOf(groups), {
    [HEADER.date]: formatDate(apiDateOf()),
    [HEADER.bank]: cols.bank ? sharedValue(rows, cols.names.bank) : '',
    [HEADER.method]: cols.method ? sharedValue(rows, cols.names.method) : '',
    [HEADER.remarks]: '',
  });
  const search = useOptionSearch(metas);
  const lookup = useOptionLookup(metas);
  const [lines, setLines] = useState(() => startLines(rows, cols));
  const [saving, setSaving] = useState(false);
  const [refused, setRefused] = useState<string | null>(null);
  const [done, setDone] = useState<SettleAnswer | null>(null);
  const [receipt, showReceipt] = useShownFile();
  const [receiptOf, setReceiptOf] = useState<unknown>(null);
  const preview = useSettlementPreview(meta);
  const settle = useSettleTitles(meta, metas);
  const loadReceipt = useReceipt(meta);

  // The charges of the date and values on screen, asked once the typing stops.
  const date = toApiDate(String(form.values[HEADER.date] ?? ''));
  const asked = useDebouncedValue(date ? JSON.stringify(previewBody(date, lines)) : null, PREVIEW_DEBOUNCE_MS);
  const read = useMemo(() => (asked ? () => preview(JSON.parse(asked)) : null), [asked, preview]);
  const charges = useCallResult(read);
  // A new answer is merged into the lines once (adjusted while rendering, no effect).
  const [merged, setMerged] = useState<Preview[] | undefined>(undefined);
  if (charges.data !== merged) {
    setMerged(charges.data);
    if (charges.data) setLines((l) => applyPreview(l, charges.data ?? [], cols.key));
  }
  const totals = settlementTotals(lines);
  const pending = asked !== (date ? JSON.stringify(previewBody(date, lines)) : null) || charges.loading;

  const confirm = async () => {
    setRefused(null);
    if (!form.validateAll() || !date) return;
    const invalid = lines.find((l) => lineError(l));
    if (invalid) {
      const first = document.getElementById(`${form.idPrefix}-${String(invalid.id)}-value`);
      first?.focus();
      notify.warning(lineError(invalid) ?? '');
      return;
    }
    setSaving(true);
    try {
      const answer = await settle(
        settlementBody(
          {
            date,
            bank: String(form.values[HEADER.bank] ?? ''),
            method: String(form.values[HEADER.method] ?? ''),
            remarks: String(form.values[HEADER.remarks] ?? ''),
          },
          lines,
        ),
      );
      notify.success(answer.msg);
      setDone(answer);
      onSettled?.();
    } catch (e) {
      const message = errorMessage(e);
      setRefused(message);
      notify.error(message);
      if (/conta banc/i.test(message)) document.getElementById(fieldDomId(form.idPrefix, HEADER.bank))?.focus();
    } finally {
      setSaving(false);
    }
  };

  const print = async (settlementId: unknown) => {
    setReceiptOf(settlementId);
    try {
      showReceipt(await loadReceipt(settlementId));
    } catch (e) {
      setReceiptOf(null);
      notify.error(errorMessage(e));
    }
  };

  if (done) {
    const byTitle = new Map(lines.map((l) => [String(l.id), l]));
    return (
      <DialogFrame
        title="Baixa de Títulos"
        onClose={onClose}
        width={900}
        footer={
          <button type="button" className={primaryButton} onClick={onClose}>
            Fechar
          </button>
        }
      >
        <p className="mb-3 text-sm font-medium text-tertiary" role="status">
          {done.msg}
        </p>
        <ul className="space-y-2">
          {done.settlements.map((s) => {
            const line = byTitle.get(String(s[cols.key]));
            return (
              <li
                key={String(s.BAIX_ID)}
                className="flex flex-wrap items-center justify-between gap-2 rounded border border-slate-200 p-2 text-sm"
              >
                <span>
                  Baixa nº {String(s.BAIX_ID)} · {line ? titleName(line.row, cols) : `Título ${String(s[cols.key])}`} ·
                  Total {formatMoney(toCents(s.BAIX_TOTAL) / 100)} · Saldo restante{' '}
                  {formatMoney(toCents(s.SALDO) / 100)}
                </span>
                {/* A settlement by discount alone moved no money: it has no receipt. */}
                {toCents(s.BAIX_TOTAL) > 0 && (
                  <button
                    type="button"
                    className={secondaryButton}
                    disabled={receiptOf === s.BAIX_ID && !receipt}
                    onClick={() => void print(s.BAIX_ID)}
                  >
                    Imprimir recibo
                  </button>
                )}
              </li>
            );
          })}
        </ul>
        {receipt && (
          <div className="mt-3">
            <PdfPreview file={receipt} title={`Recibo da baixa nº ${String(receiptOf)}`} />
          </div>
        )}
      </DialogFrame>
    );
  }

  return (
    <DialogFrame
      title="Baixa de Títulos"
      onClose={onClose}
      width={900}
      footer={
        <>
          <button type="button" className={secondaryButton} onClick={onClose}>
            Cancelar
          </button>
          <button type="button" className={primaryButton} disabled={saving || pending} onClick={() => void confirm()}>
            Confirmar baixa
          </button>
        </>
      }
    >
      <form
        noValidate
        aria-label="Baixa de Títulos"
        className="space-y-3"
        // Enter in a field does not settle: money moves only by the button.
        onSubmit={(e) => e.preventDefault()}
      >
        <FormView form={form} groups={groups} search={search} lookup={lookup} editable={!saving} />
        {lines.map((line) => (
          <LineFields
            key={String(line.id)}
            line={line}
            cols={cols}
            idPrefix={form.idPrefix}
            disabled={saving}
            onEdit={(field, text) => setLines((all) => all.map((l) => (l === line ? editLine(l, field, text) : l)))}
          />
        ))}
        <dl
          aria-label="Totais da baixa"
          className="grid grid-cols-2 gap-2 rounded bg-slate-50 p-3 text-sm sm:grid-cols-5"
        >
          {[
            ['Valor', totals.value],
            ['Juros', totals.interest],
            ['Multa', totals.fine],
            ['Desconto', totals.discount],
            ['Total', totals.total],
          ].map(([label, cents]) => (
            <div key={label}>
              <dt className="text-xs text-slate-500">{label}</dt>
              <dd className={label === 'Total' ? 'font-semibold' : ''}>{formatMoney(Number(cents) / 100)}</dd>
            </div>
          ))}
        </dl>
        <p aria-live="polite" className="text-xs text-slate-500">
          {pending ? 'Calculando juros e multa...' : ''}
        </p>
        {charges.error != null && !pending && (
          <p role="alert" className="text-sm text-error">
            {errorMessage(charges.error)}
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
