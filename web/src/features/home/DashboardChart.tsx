// A dashboard widget's chart (recharts, SVG). Loaded on its own (React.lazy in Widget) so the
// chart library stays out of the first bundle. The chart is a picture of the list under it:
// hidden from screen readers, which read the list (label, R$ and share of every item).
import { Bar, BarChart, CartesianGrid, Pie, PieChart, Tooltip, XAxis, YAxis } from 'recharts';
import { formatMoney } from '../../lib/format';
import { chartColour, chartData, formatAxisMoney, type ChartKind, type DashboardItem } from './dashboard';

// The theme's secondary colour for values, its error colour for negatives.
const POSITIVE = '#056e6e';
const NEGATIVE = '#f51515';

const BAR_HEIGHT = 26;
const LABEL_CHARS = 18;
const shortLabel = (label: string) => (label.length > LABEL_CHARS ? `${label.slice(0, LABEL_CHARS - 1)}…` : label);

// Tooltips show the full amount in R$ (the chart draws cents), named by the series ('Valor') or
// by the slice's label.
const tooltipProps = {
  formatter: (value: unknown, name: unknown): [string, string] => [formatMoney(Number(value) / 100), String(name)],
  separator: ': ',
  isAnimationActive: false,
} as const;

interface Props {
  chart: ChartKind;
  items: DashboardItem[];
}

/** The widget's items drawn as horizontal bars, a donut or columns in label order. */
export default function DashboardChart({ chart, items }: Props) {
  const data = chartData(items, chart).map((d, i) => ({
    ...d,
    fill: chart === 'pie' ? chartColour(i) : d.cents < 0 ? NEGATIVE : POSITIVE,
  }));
  if (data.length === 0) return null;

  if (chart === 'pie') {
    return (
      <div aria-hidden="true" data-chart="pie">
        <PieChart responsive accessibilityLayer={false} style={{ width: '100%', height: 200 }}>
          <Pie
            data={data}
            dataKey="cents"
            nameKey="label"
            innerRadius="55%"
            outerRadius="90%"
            paddingAngle={1}
            startAngle={90}
            endAngle={-270}
            rootTabIndex={-1}
          />
          <Tooltip {...tooltipProps} />
        </PieChart>
      </div>
    );
  }

  if (chart === 'columns') {
    return (
      <div aria-hidden="true" data-chart="columns">
        <BarChart
          data={data}
          responsive
          accessibilityLayer={false}
          style={{ width: '100%', height: 200 }}
          margin={{ top: 12, right: 8, bottom: 4, left: 0 }}
        >
          <CartesianGrid vertical={false} strokeDasharray="3 3" />
          <XAxis dataKey="label" type="category" tickFormatter={shortLabel} tick={{ fontSize: 11 }} />
          <YAxis type="number" tickFormatter={formatAxisMoney} tick={{ fontSize: 11 }} width={88} />
          <Tooltip {...tooltipProps} />
          <Bar dataKey="cents" name="Valor" maxBarSize={40} />
        </BarChart>
      </div>
    );
  }

  return (
    <div aria-hidden="true" data-chart="bars">
      <BarChart
        data={data}
        layout="vertical"
        responsive
        accessibilityLayer={false}
        style={{ width: '100%', height: data.length * BAR_HEIGHT + 32 }}
        margin={{ top: 4, right: 12, bottom: 4, left: 0 }}
      >
        <CartesianGrid horizontal={false} strokeDasharray="3 3" />
        <XAxis type="number" tickFormatter={formatAxisMoney} tick={{ fontSize: 11 }} />
        <YAxis dataKey="label" type="category" tickFormatter={shortLabel} tick={{ fontSize: 11 }} width={120} />
        <Tooltip {...tooltipProps} />
        <Bar dataKey="cents" name="Valor" maxBarSize={18} />
      </BarChart>
    </div>
  );
}
