import { useState } from 'react';
import { inputClass, primaryButton } from '../../components/fields/styles';
import { Icon } from '../../components/Icon';
import { valueOf, type AnyRow } from '../../lib/api';
import { formatMoney, formatNumber, formatQuantity, parseBRNumber } from '../../lib/format';
import { MSG } from '../../lib/messages';
import { editableColumn, num, seqOf, type DocumentLine, type LineRole } from './documentMeta';

interface Props {
  line: DocumentLine;
  rows: AnyRow[];
  /** Item texts for lines without a description column. */
  texts?: Record<string, string>;
  editable: boolean;
  busy?: boolean;
  onAdd: () => void;
  onEdit: (row: AnyRow, column: string, value: number) => void;
  onDelete: (row: AnyRow) => void;
}

/** A number cell that commits on blur or Enter, when its value changed. */
function NumberCell({
  label,
  value,
  decimals,
  disabled,
  onCommit,
}: {
  label: string;
  value: number;
  decimals: number;
  disabled: boolean;
  onCommit: (v: number) => void;
}) {
  const shown = decimals === 2 ? formatNumber(value, 2, 2) : formatQuantity(value);
  const [text, setText] = useState(shown);
  // A new value from the server replaces what the cell shows (adjusted while rendering, no effect).
  const [prevShown, setPrevShown] = useState(shown);
  if (shown !== prevShown) {
    setPrevShown(shown);
    setText(shown);
  }
  const commit = () => {
    const v = parseBRNumber(text);
    if (v == null || v === value) {
      setText(shown);
      return;
    }
    onCommit(v);
  };
  return (
    <input
      aria-label={label}
      inputMode="decimal"
      className={`${inputClass} w-24 text-right`}
      value={text}
      disabled={disabled}
      onChange={(e) => setText(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          commit();
        }
      }}
    />
  );
}

export function describe(line: DocumentLine, row: AnyRow, texts?: Record<string, string>): string {
  const own = line.desc ? valueOf(row, line.desc) : null;
  if (own != null && own !== '') return String(own);
  const id = line.item ? String(valueOf(row, line.item) ?? '') : '';
  return texts?.[id] ?? id;
}

/** Whether a line register can take new lines: it names the item and the quantity. */
export const canAddLines = (line: DocumentLine) => !!line.item && !!line.qty;

const th = 'whitespace-nowrap bg-primary px-2.5 py-2 text-xs font-semibold uppercase text-white';
const td = 'px-2.5 py-1.5 align-middle';

/**
 * The lines of one line register of a document, columns by the metadata's roles (item,
 * description, unit, quantity, price, cost, discount, total): the editable ones (quantity,
 * discount, price) edited in place, delete.
 */
export function LineTable({ line, rows, texts, editable, busy = false, onAdd, onEdit, onDelete }: Props) {
  const seq = seqOf(line);
  const sum = line.total ? rows.reduce((t, r) => t + num(valueOf(r, line.total as string)), 0) : null;
  /** A number column: edited in place when the line declares it editable, else shown. */
  const numberCell = (row: AnyRow, text: string, role: LineRole, label: string, money: boolean) => {
    const column = line[role];
    if (!column) return null;
    const edited = editable ? editableColumn(line, role) : null;
    const value = num(valueOf(row, column));
    return (
      <td className={`${td} text-right`}>
        {edited ? (
          <NumberCell
            label={`${label} de ${text}`}
            value={value}
            decimals={money ? 2 : 4}
            disabled={busy}
            onCommit={(v) => onEdit(row, edited, v)}
          />
        ) : money ? (
          formatMoney(value)
        ) : (
          formatQuantity(value)
        )}
      </td>
    );
  };
  return (
    <section aria-label={line.title} className="space-y-2 rounded bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-base font-semibold text-primary">{line.title}</h2>
        {editable && canAddLines(line) && (
          <button type="button" className={primaryButton} onClick={onAdd} disabled={busy}>
            <Icon name="plus" className="h-4 w-4" />
            Adicionar {line.itemName}
          </button>
        )}
      </div>
      <div className="overflow-x-auto">
        <table className="w-full border-collapse text-sm">
          <thead>
            <tr>
              <th className={`${th} text-left`}>Item</th>
              {line.item && <th className={`${th} text-left`}>Código</th>}
              <th className={`${th} text-left`}>Descrição</th>
              {line.unitName && <th className={`${th} text-left`}>Un.</th>}
              {line.qty && <th className={`${th} text-right`}>Quantidade</th>}
              {line.price && <th className={`${th} text-right`}>Valor Unitário</th>}
              {line.cost && <th className={`${th} text-right`}>Custo Unitário</th>}
              {line.discount && <th className={`${th} text-right`}>Desconto</th>}
              {line.total && <th className={`${th} text-right`}>Total</th>}
              {editable && (
                <th className={th}>
                  <span className="sr-only">Ações</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && (
              <tr>
                <td colSpan={10} className="p-4 text-center text-slate-500">
                  {MSG.tableEmpty}
                </td>
              </tr>
            )}
            {rows.map((r, i) => {
              const text = describe(line, r, texts);
              return (
                <tr key={`${String(valueOf(r, seq))}-${i}`} className={i % 2 ? 'bg-slate-50' : ''}>
                  <td className={td}>{String(valueOf(r, seq) ?? '')}</td>
                  {line.item && <td className={td}>{String(valueOf(r, line.item) ?? '')}</td>}
                  <td className={td}>{text}</td>
                  {line.unitName && <td className={td}>{String(valueOf(r, line.unitName) ?? '')}</td>}
                  {numberCell(r, text, 'qty', 'Quantidade', false)}
                  {numberCell(r, text, 'price', 'Valor unitário', true)}
                  {line.cost && <td className={`${td} text-right`}>{formatMoney(num(valueOf(r, line.cost)))}</td>}
                  {numberCell(r, text, 'discount', 'Desconto', true)}
                  {line.total && <td className={`${td} text-right`}>{formatMoney(num(valueOf(r, line.total)))}</td>}
                  {editable && (
                    <td className={`${td} text-right`}>
                      <button
                        type="button"
                        title="Excluir"
                        aria-label={`Excluir ${text}`}
                        className="rounded p-1 text-error hover:bg-slate-100"
                        disabled={busy}
                        onClick={() => onDelete(r)}
                      >
                        <Icon name="trash" className="h-4 w-4" />
                      </button>
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
          {sum != null && rows.length > 0 && (
            <tfoot>
              <tr>
                <td className={`${td} text-right font-medium`} colSpan={100}>
                  Total {line.title.toLowerCase()}: {formatMoney(sum)}
                </td>
              </tr>
            </tfoot>
          )}
        </table>
      </div>
    </section>
  );
}
