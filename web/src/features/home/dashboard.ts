// The home page's dashboard: POST /dasboard/{nome} (the legacy path's spelling) with the company
// and a period answers `{dados: [{ROTULO, VALOR}], TOTAL}`. Each bar's share of the total is
// worked out in whole cents (never float money sums).
import { formatNumber, toCents } from '../../lib/format';
import { previousMonthPeriod, monthPeriod, yearPeriod, type ApiPeriod } from '../../lib/period';

/** The dashboard calls the server may answer, in the order their widgets show. */
export const DASHBOARD_WIDGETS = [
  { nome: 'vendasgrupo', titulo: 'Vendas por grupo' },
  { nome: 'vendassubgrupo', titulo: 'Vendas por subgrupo' },
  { nome: 'vendassetor', titulo: 'Vendas por setor' },
  { nome: 'formaspagamentos', titulo: 'Formas de pagamento' },
  { nome: 'contasreceber', titulo: 'Contas a receber' },
  { nome: 'contaspagar', titulo: 'Contas a pagar' },
  { nome: 'despesacentrocusto', titulo: 'Despesas por centro de custo' },
  { nome: 'despesagrupocentrocusto', titulo: 'Despesas por grupo de centro de custo' },
] as const;

export type WidgetName = (typeof DASHBOARD_WIDGETS)[number]['nome'];

export const dashboardPath = (nome: string) => `/dasboard/${nome}`;

export interface DashboardBar {
  label: string;
  cents: number;
  /** Share of the total, in hundredths of a percent (1234 = 12,34%). */
  share: number;
  /** Length of the bar against the largest one, 0 to 100. */
  width: number;
}

export interface DashboardData {
  bars: DashboardBar[];
  totalCents: number;
}

const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/**
 * An answer as bars, largest first. The total is the server's TOTAL, else the sum of the bars;
 * 204 (null) or no rows is an empty widget.
 */
export function dashboardData(answer: unknown): DashboardData {
  const a = obj(answer);
  const rows = Array.isArray(a.dados) ? a.dados.map(obj) : [];
  const items = rows
    .map((r) => ({ label: r.ROTULO == null ? '' : String(r.ROTULO), cents: toCents(r.VALOR) }))
    .sort((x, y) => y.cents - x.cents);
  const summed = items.reduce((acc, i) => acc + i.cents, 0);
  const totalCents = a.TOTAL == null || a.TOTAL === '' ? summed : toCents(a.TOTAL);
  const largest = items.reduce((m, i) => Math.max(m, Math.abs(i.cents)), 0);
  return {
    totalCents,
    bars: items.map((i) => ({
      ...i,
      share: totalCents === 0 ? 0 : Math.round((i.cents * 10000) / totalCents),
      width: largest === 0 ? 0 : Math.max(0, Math.min(100, (Math.abs(i.cents) * 100) / largest)),
    })),
  };
}

/** A share in hundredths of a percent as the screen shows it: 1234 -> '12,34%'. */
export const formatShare = (share: number) => `${formatNumber(share / 100, 2, 2)}%`;

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
