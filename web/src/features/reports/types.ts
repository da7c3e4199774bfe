// The report definitions the server lists (GET /relatorios/definicoes/{emp}) and the answer of
// a report call in JSON. The server is young: what it sends is read defensively, a definition
// without its route or its call is left out.

export type FilterType = 'data' | 'referencia' | 'opcoes' | 'texto' | 'inteiro';
export type ColumnType = 'texto' | 'dinheiro' | 'quantidade' | 'data' | 'percentual' | 'inteiro';
export type ReportFormat = 'json' | 'pdf' | 'xlsx';

/** An option value as the server wrote it (a number stays a number in the call's body). */
export type OptionValue = string | number;

export interface ReportFilter {
  CAMPO: string;
  ROTULO: string;
  TIPO: FilterType;
  /** The register a 'referencia' filter picks from ('clientes', 'produtos', 'grupo'...). */
  REGISTRO?: string;
  OPCOES?: [OptionValue, string][];
  OBRIGATORIO: boolean;
  PADRAO?: string;
}

export interface ReportColumn {
  CAMPO: string;
  ROTULO: string;
  TIPO: ColumnType;
}

export interface ReportDefinition {
  NOME: string;
  TITULO: string;
  /** The screen's route (spec §2.4), e.g. '/relatoriodevendas'. */
  ROTA: string;
  /** The report call, e.g. '/vendas/reports'. */
  CAMINHO: string;
  ORIENTACAO: 'retrato' | 'paisagem';
  FILTROS: ReportFilter[];
  COLUNAS: ReportColumn[];
  /** A CAMPO the rows are grouped by, with subtotals. */
  AGRUPA?: string;
  /** Rows carry M1..M12 and M13 (the total): the monthly curve. */
  MENSAL?: boolean;
}

export type ReportRow = Record<string, unknown>;

export interface ReportResult {
  dados: ReportRow[];
  totais: ReportRow;
  filtros: ReportRow;
}

const FILTER_TYPES: FilterType[] = ['data', 'referencia', 'opcoes', 'texto', 'inteiro'];
const COLUMN_TYPES: ColumnType[] = ['texto', 'dinheiro', 'quantidade', 'data', 'percentual', 'inteiro'];

const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const text = (v: unknown) => (v == null ? '' : String(v).trim());
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const isTrue = (v: unknown) => v === true || v === 1 || v === '1' || v === 'S' || v === 'true';

function parseFilter(raw: unknown): ReportFilter | null {
  const f = obj(raw);
  const CAMPO = text(f.CAMPO);
  if (!CAMPO) return null;
  const tipo = text(f.TIPO).toLowerCase() as FilterType;
  const OPCOES = list(f.OPCOES).flatMap((o): [OptionValue, string][] => {
    const pair = list(o);
    if (pair.length === 0 || pair[0] == null) return [];
    const value = typeof pair[0] === 'number' ? pair[0] : String(pair[0]);
    return [[value, text(pair[1] ?? pair[0])]];
  });
  return {
    CAMPO,
    ROTULO: text(f.ROTULO) || CAMPO,
    TIPO: FILTER_TYPES.includes(tipo) ? tipo : 'texto',
    ...(text(f.REGISTRO) ? { REGISTRO: text(f.REGISTRO) } : {}),
    ...(OPCOES.length ? { OPCOES } : {}),
    OBRIGATORIO: isTrue(f.OBRIGATORIO),
    ...(f.PADRAO != null && text(f.PADRAO) !== '' ? { PADRAO: text(f.PADRAO) } : {}),
  };
}

function parseColumn(raw: unknown): ReportColumn | null {
  const c = obj(raw);
  const CAMPO = text(c.CAMPO);
  if (!CAMPO) return null;
  const tipo = text(c.TIPO).toLowerCase() as ColumnType;
  return { CAMPO, ROTULO: text(c.ROTULO) || CAMPO, TIPO: COLUMN_TYPES.includes(tipo) ? tipo : 'texto' };
}

/** The definitions of an answer: those with a route and a call. */
export function parseDefinitions(answer: unknown): ReportDefinition[] {
  return list(answer).flatMap((raw): ReportDefinition[] => {
    const d = obj(raw);
    const ROTA = text(d.ROTA);
    const CAMINHO = text(d.CAMINHO);
    if (!ROTA || !CAMINHO) return [];
    const NOME = text(d.NOME) || ROTA.replace(/^\/+/, '');
    return [
      {
        NOME,
        TITULO: text(d.TITULO) || NOME,
        ROTA,
        CAMINHO: CAMINHO.startsWith('/') ? CAMINHO : `/${CAMINHO}`,
        ORIENTACAO: text(d.ORIENTACAO).toLowerCase() === 'paisagem' ? 'paisagem' : 'retrato',
        FILTROS: list(d.FILTROS)
          .map(parseFilter)
          .filter((f): f is ReportFilter => f !== null),
        COLUNAS: list(d.COLUNAS)
          .map(parseColumn)
          .filter((c): c is ReportColumn => c !== null),
        ...(text(d.AGRUPA) ? { AGRUPA: text(d.AGRUPA) } : {}),
        ...(isTrue(d.MENSAL) ? { MENSAL: true } : {}),
      },
    ];
  });
}

/** The JSON answer of a report call; 204 (null) is none. */
export function parseResult(answer: unknown): ReportResult | null {
  if (answer == null) return null;
  const a = obj(answer);
  return {
    dados: list(a.dados).map(obj),
    totais: obj(a.totais),
    filtros: obj(a.filtros),
  };
}
