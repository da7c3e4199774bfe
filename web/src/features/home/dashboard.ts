// The home page's dashboard: POST /dasboard/{nome} (the legacy path's spelling) with the company
// and a period answers `{dados: [{ROTULO, VALOR}], TOTAL}`. Each item's share of the total is
// worked out in whole cents (never float money sums); the charts draw cents and only the texts
// turn them into R$.
import { formatNumber, toCents } from '../../lib/format';
import { previousMonthPeriod, monthPeriod, yearPeriod, type ApiPeriod } from '../../lib/period';

/**
 * How a widget is drawn: `bars` (horizontal, largest first), `pie` (a donut, largest first) or
 * `columns` (vertical, in the answer's order: receivables and payables along their due dates).
 */
export type ChartKind = 'bars' | 'pie' | 'columns';

/** The dashboard calls the server may answer, in the order their widgets show. */
export const DASHBOARD_WIDGETS = [
  { nome: 'vendasgrupo', titulo: 'Vendas por grupo', chart: 'bars' },
  { nome: 'vendassubgrupo', titulo: 'Vendas por subgrupo', chart: 'bars' },
  { nome: 'vendassetor', titulo: 'Vendas por setor', chart: 'bars' },
  { nome: 'formaspagamentos', titulo: 'Formas de pagamento', chart: 'pie' },
  { nome: 'contasreceber', titulo: 'Contas a receber', chart: 'columns' },
  { nome: 'contaspagar', titulo: 'Contas a pagar', chart: 'columns' },
  { nome: 'despesacentrocusto', titulo: 'Despesas por centro de custo', chart: 'bars' },
  { nome: 'despesagrupocentrocusto', titulo: 'Despesas por grupo de centro de custo', chart: 'bars' },
] as const satisfies readonly { nome: string; titulo: string; chart: ChartKind }[];

export type WidgetName = (typeof DASHBOARD_WIDGETS)[number]['nome'];

const WIDGET_NAMES: ReadonlySet<string> = new Set(DASHBOARD_WIDGETS.map((w) => w.nome));

export const dashboardPath = (nome: string) => `/dasboard/${nome}`;

export interface DashboardItem {
  label: string;
  cents: number;
  /** Share of the total, in hundredths of a percent (1234 = 12,34%). */
  share: number;
}

export interface DashboardData {
  items: DashboardItem[];
  totalCents: number;
}

const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/**
 * An answer as items: largest first, or for `columns` (receivables and payables, along their due
 * dates) in the order of the answer's rows, which the server gives in time order. The total is
 * the server's TOTAL, else the sum of the items; 204 (null) or no rows is an empty widget.
 */
export function dashboardData(answer: unknown, chart: ChartKind = 'bars'): DashboardData {
  const a = obj(answer);
  const rows = Array.isArray(a.dados) ? a.dados.map(obj) : [];
  const answered = rows.map((r) => ({ label: r.ROTULO == null ? '' : String(r.ROTULO), cents: toCents(r.VALOR) }));
  const items = chart === 'columns' ? answered : answered.sort((x, y) => y.cents - x.cents);
  const summed = items.reduce((acc, i) => acc + i.cents, 0);
  const totalCents = a.TOTAL == null || a.TOTAL === '' ? summed : toCents(a.TOTAL);
  return {
    totalCents,
    items: items.map((i) => ({ ...i, share: totalCents === 0 ? 0 : Math.round((i.cents * 10000) / totalCents) })),
  };
}

/** The text an item without a label shows. */
export const NO_LABEL = '(sem descrição)';

/** The label an item shows: its own, or NO_LABEL. */
export const itemLabel = (label: string) => label || NO_LABEL;

/** Slices a chart draws at most; the rest of a value-ordered widget is one 'Outros' slice. */
export const MAX_SLICES = 8;

export interface ChartDatum {
  label: string;
  cents: number;
}

/**
 * What a chart draws: every item of a `columns` chart (each period counts); for bars and the pie
 * the largest MAX_SLICES - 1 items and 'Outros' summing the rest in cents. A pie draws only the
 * positive values (a negative has no slice); the list under the chart keeps them all.
 */
export function chartData(items: DashboardItem[], chart: ChartKind): ChartDatum[] {
  const drawn = (chart === 'pie' ? items.filter((i) => i.cents > 0) : items).map((i) => ({
    label: itemLabel(i.label),
    cents: i.cents,
  }));
  if (chart === 'columns' || drawn.length <= MAX_SLICES) return drawn;
  const rest = drawn.slice(MAX_SLICES - 1).reduce((acc, i) => acc + i.cents, 0);
  return [...drawn.slice(0, MAX_SLICES - 1), { label: 'Outros', cents: rest }];
}

/**
 * The donut slice an item of a value-ordered list is drawn in (the index of its colour), or null
 * for an item the donut does not draw (zero or negative); items past the drawn ones are 'Outros'.
 */
export function pieSliceOf(items: DashboardItem[], index: number): number | null {
  if (!(items[index]?.cents > 0)) return null;
  const drawn = items.filter((i) => i.cents > 0).length;
  return drawn > MAX_SLICES ? Math.min(index, MAX_SLICES - 1) : index;
}

/** The slices' colours (the theme's, with contrasting ones between), in order; the list's swatches use the same. */
export const CHART_COLOURS = [
  '#365998', // primary
  '#d97706',
  '#056e6e', // secondary
  '#db2777',
  '#39799f', // accent
  '#7c3aed',
  '#08897c', // tertiary
  '#64748b',
] as const;

export const chartColour = (index: number) => CHART_COLOURS[index % CHART_COLOURS.length];

/**
 * The widgets a `dashboardChanged` push names, each one revision later; names this screen does not
 * know are left out. Returns the same object when nothing changes, so React keeps the render.
 */
export function bumpRevisions(
  revisions: Readonly<Partial<Record<WidgetName, number>>>,
  names: readonly string[],
): Partial<Record<WidgetName, number>> {
  const known = [...new Set(names)].filter((n): n is WidgetName => WIDGET_NAMES.has(n));
  if (known.length === 0) return revisions;
  const next = { ...revisions };
  for (const n of known) next[n] = (next[n] ?? 0) + 1;
  return next;
}

/** A share in hundredths of a percent as the screen shows it: 1234 -> '12,34%'. */
export const formatShare = (share: number) => `${formatNumber(share / 100, 2, 2)}%`;

const compactMoney = new Intl.NumberFormat('pt-BR', {
  style: 'currency',
  currency: 'BRL',
  notation: 'compact',
  minimumFractionDigits: 0,
  maximumFractionDigits: 1,
});

/** Cents as a chart axis shows them: 123456789 -> 'R$ 1,2 mi'. */
export const formatAxisMoney = (cents: number) => compactMoney.format(cents / 100).replace(/\u00a0/g, ' ');

export type PeriodChoice = 'mes' | 'mespassado' | 'ano' | 'personalizado';

export const PERIOD_CHOICES: { value: PeriodChoice; label: string }[] = [
  { value: 'mes', label: 'Este mês' },
  { value: 'mespassado', label: 'Mês passado' },
  { value: 'ano', label: 'Este ano' },
  { value: 'personalizado', label: 'Personalizado' },
];

/** The period of a preset choice (the custom one is typed). */
export function presetPeriod(choice: Exclude<PeriodChoice, 'personalizado'>, today?: string): ApiPeriod {
  switch (choice) {
    case 'mespassado':
      return previousMonthPeriod(today);
    case 'ano':
      return yearPeriod(today);
    default:
      return monthPeriod(today);
  }
}
