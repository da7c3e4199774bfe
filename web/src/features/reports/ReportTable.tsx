import { useState, type ReactNode } from 'react';
import { Icon } from '../../components/Icon';
import { useIsMobile } from '../../lib/useIsMobile';
import {
  MONTH_LABELS,
  formatCell,
  groupRows,
  isClassColumn,
  isNumeric,
  monthlyColumns,
  sumColumn,
  summedColumns,
} from './cells';
import type { ReportColumn, ReportDefinition, ReportResult, ReportRow } from './types';

const th = 'whitespace-nowrap bg-primary px-2 py-1.5 text-xs font-semibold uppercase text-white';
const td = 'px-2 py-1.5 align-top';

const CLASS_TONES: Record<string, string> = {
  A: 'bg-emerald-100 text-emerald-800 ring-emerald-300',
  B: 'bg-amber-100 text-amber-800 ring-amber-300',
  C: 'bg-rose-100 text-rose-800 ring-rose-300',
};

/** An ABC curve's class as a small badge. */
function ClassBadge({ value }: { value: string }) {
  const tone = CLASS_TONES[value.toUpperCase()] ?? 'bg-slate-100 text-slate-700 ring-slate-300';
  return (
    <span
      data-testid="relatorio-classe"
      aria-label={`Classe ${value}`}
      className={`inline-flex h-5 min-w-5 items-center justify-center rounded-full px-1.5 text-xs font-bold ring-1 ${tone}`}
    >
      {value}
    </span>
  );
}

function cell(col: ReportColumn, value: unknown): ReactNode {
  if (isClassColumn(col) && value != null && String(value).trim() !== '') return <ClassBadge value={String(value)} />;
  return formatCell(col.TIPO, value);
}

const alignOf = (col: ReportColumn) => (isNumeric(col.TIPO) ? 'text-right' : 'text-left');
const nowrapOf = (col: ReportColumn) => (col.TIPO === 'texto' ? '' : 'whitespace-nowrap');

interface Props {
  def: ReportDefinition;
  result: ReportResult;
}

/**
 * A report's rows: one column per COLUNAS (the monthly curve: the other columns, then
 * 'Jan'..'Dez' and 'Total'; on mobile one month at a time), the groups of AGRUPA with a header
 * and a subtotal row, and the totals the server sent. Wide tables scroll sideways on mobile,
 * their first column kept in view.
 */
export function ReportTable({ def, result }: Props) {
  const mobile = useIsMobile();
  // The curve on mobile: one month at a time, the total first.
  const [month, setMonth] = useState(13);
  const monthly = def.MENSAL ? monthlyColumns(def.COLUNAS) : null;
  const columns0: ReportColumn[] = monthly
    ? [...monthly.leading, ...(mobile ? [monthly.months[month - 1]] : monthly.months)]
    : def.COLUNAS;
  const groupBy = def.AGRUPA && result.dados.some((r) => def.AGRUPA! in r) ? def.AGRUPA : null;
  const groupColumn = groupBy ? def.COLUNAS.find((c) => c.CAMPO === groupBy) : undefined;
  // The grouped column is the groups' heading, not a column of their rows.
  const columns = groupBy ? columns0.filter((c) => c.CAMPO !== groupBy) : columns0;
  const summed = summedColumns(columns, result.totais);
  const hasTotals = columns.some((c) => result.totais[c.CAMPO] != null);
  const sticky = (i: number, bg: string) => (mobile && i === 0 ? `sticky left-0 z-10 ${bg}` : '');

  const dataRow = (r: ReportRow, i: number, key: string) => {
    const bg = i % 2 ? 'bg-slate-50' : 'bg-white';
    return (
      <tr key={key} className={bg}>
        {columns.map((c, ci) => (
          <td key={c.CAMPO} className={`${td} ${alignOf(c)} ${nowrapOf(c)} ${sticky(ci, bg)}`}>
            {cell(c, r[c.CAMPO])}
          </td>
        ))}
      </tr>
    );
  };

  // One row group per AGRUPA value: its heading, its rows and its subtotal.
  const body = groupBy ? (
    groupRows(result.dados, groupBy).map((g, gi) => {
      const heading = groupColumn ? formatCell(groupColumn.TIPO, g.value) : g.key;
      const label = `${groupColumn?.ROTULO ?? groupBy}: ${heading || '(sem valor)'}`;
      return (
        <tbody key={gi}>
          <tr className="border-t border-slate-300 bg-slate-100" data-testid="relatorio-grupo">
            <th
              scope="rowgroup"
              colSpan={columns.length}
              className="px-2 py-1.5 text-left text-sm font-semibold text-primary"
            >
              {label}
            </th>
          </tr>
          {g.rows.map((r, i) => dataRow(r, i, String(i)))}
          <tr className="bg-slate-100 font-semibold" data-testid="relatorio-subtotal" aria-label={`Subtotal ${label}`}>
            {columns.map((c, ci) => (
              <td key={c.CAMPO} className={`${td} ${alignOf(c)} whitespace-nowrap ${sticky(ci, 'bg-slate-100')}`}>
                {summed.includes(c) ? formatCell(c.TIPO, sumColumn(g.rows, c)) : ci === 0 ? 'Subtotal' : ''}
              </td>
            ))}
          </tr>
        </tbody>
      );
    })
  ) : (
    <tbody>{result.dados.map((r, i) => dataRow(r, i, String(i)))}</tbody>
  );

  return (
    <div className="space-y-2">
      {monthly && mobile && (
        <div className="flex items-center justify-center gap-2" role="group" aria-label="Mês da curva">
          <button
            type="button"
            aria-label="Mês anterior"
            className="rounded p-1 text-primary hover:bg-slate-100 disabled:opacity-40"
            disabled={month === 1}
            onClick={() => setMonth((m) => Math.max(1, m - 1))}
          >
            <Icon name="chevron" className="h-5 w-5 rotate-180" />
          </button>
          <span className="w-16 text-center text-sm font-semibold" data-testid="relatorio-mes" aria-live="polite">
            {MONTH_LABELS[month - 1]}
          </span>
          <button
            type="button"
            aria-label="Próximo mês"
            className="rounded p-1 text-primary hover:bg-slate-100 disabled:opacity-40"
            disabled={month === 13}
            onClick={() => setMonth((m) => Math.min(13, m + 1))}
          >
            <Icon name="chevron" />
          </button>
        </div>
      )}
      <div className="overflow-x-auto rounded border border-slate-200 bg-white">
        <table aria-label={def.TITULO} data-testid="relatorio-tabela" className="min-w-full text-sm">
          <thead>
            <tr>
              {columns.map((c, ci) => (
                <th key={c.CAMPO} scope="col" className={`${th} ${alignOf(c)} ${sticky(ci, 'bg-primary')}`}>
                  {c.ROTULO}
                </th>
              ))}
            </tr>
          </thead>
          {body}
          {hasTotals && (
            <tfoot>
              <tr className="border-t-2 border-slate-300 bg-white font-semibold" data-testid="relatorio-totais">
                {columns.map((c, ci) => {
                  const total = result.totais[c.CAMPO];
                  return (
                    <td key={c.CAMPO} className={`${td} ${alignOf(c)} whitespace-nowrap ${sticky(ci, 'bg-white')}`}>
                      {total != null ? cell(c, total) : ci === 0 ? 'Total' : ''}
                    </td>
                  );
                })}
              </tr>
            </tfoot>
          )}
        </table>
      </div>
      <p className="text-xs text-slate-500">
        {result.dados.length} {result.dados.length === 1 ? 'registro' : 'registros'}
      </p>
    </div>
  );
}
