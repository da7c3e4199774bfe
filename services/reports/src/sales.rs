//! The sales reports over the read model: sales per order (`/vendas/reports`),
//! per product (`/relatoriovendasprodutos`, grouped by product group) and per
//! service (`/relatoriovendasservico`), the ABC curves with their monthly curve
//! (products, customers, product groups, representatives) and the commission of
//! the representatives (`/comissao/reports`: the customer's seller and the
//! seller's commission % on what the seller's customers bought).
//!
//! Every query reads the rollups (`rollup`: per month and item, per day and
//! item, per day, item and customer) or the order headers (`vendas`), never the
//! lines, and joins the copies for names; a name the copy
//! does not have yet reads 'Produto 12', 'Cliente 7'.

use std::collections::HashMap;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::Result;
use rust_decimal::Decimal;
use serde_json::{Map, Value};
use sqlx::Row;

use crate::engine::{abc, col, num, sum, Filter, FilterKind, Kind, Params, Report, Source};
use crate::numeric::Num;
use crate::rollup::{bind, from_where, Dimension, BY_CUSTOMER, BY_PRODUCT, BY_SELLER, BY_SERVICE};
pub use crate::rollup::{BY_GROUP, BY_SUBGROUP};

const GROUP: Filter =
    Filter { field: "GRUP_ID", label: "Grupo", kind: FilterKind::Reference("grupo") };
const SUBGROUP: Filter = Filter {
    field: "GSUB_ID",
    label: "Subgrupo",
    kind: FilterKind::Reference("subgrupo"),
};
const PRODUCT: Filter = Filter {
    field: "PROD_ID",
    label: "Produto",
    kind: FilterKind::Reference("produtos"),
};
const CUSTOMER: Filter = Filter {
    field: "CLI_ID",
    label: "Cliente",
    kind: FilterKind::Reference("clientes"),
};
const SELLER: Filter = Filter {
    field: "COLA_ID",
    label: "Representante",
    kind: FilterKind::Reference("colaborador"),
};
const METHOD: Filter = Filter {
    field: "FRMP_ID",
    label: "Forma de Pagamento",
    kind: FilterKind::Reference("formapagamento"),
};

/// Value and quantity per key of `dim` over the period (and the filters).
pub async fn totals_by(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    p: &Params,
    dim: Dimension,
) -> Result<Vec<(i64, String, Decimal, Decimal)>> {
    let sql = format!(
        "SELECT {key} AS k, min({label}) AS l, sum(d.qtde), sum(d.valor)
         {src} AND d.tipo IN ({kinds})
         GROUP BY 1 ORDER BY 4 DESC, 1",
        key = dim.key,
        label = dim.label,
        kinds = dim.kinds,
        src = from_where(dim.per_customer, p),
    );
    let rows = bind(sqlx::query(&sql), client, emp, p)
        .fetch_all(&mut **tx)
        .await?;
    rows.iter()
        .map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?, r.try_get(3)?)))
        .collect()
}

/// An ABC curve of `dim` with the monthly curve (M1..M12 of the period's months,
/// M13 the total).
pub struct Curve {
    pub dim: Dimension,
    pub key: &'static str,
    pub label: &'static str,
}

#[async_trait]
impl Source for Curve {
    async fn rows(
        &self,
        tx: &mut Tx,
        client: i64,
        emp: i64,
        p: &Params,
    ) -> Result<Vec<Map<String, Value>>> {
        Ok(self.rows_and_totals(tx, client, emp, p).await?.0)
    }

    /// The curve sorts, classes and sums its items before they become rows.
    async fn rows_and_totals(
        &self,
        tx: &mut Tx,
        client: i64,
        emp: i64,
        p: &Params,
    ) -> Result<(Vec<Map<String, Value>>, Option<Map<String, Value>>)> {
        // Keyed on the item and read from the item rollups, the rows are one per
        // item and month already: no GROUP BY, and the names once per item
        // afterwards (a year of 2,000 products is 24,000 rows).
        let per_item = self.dim.key == "d.item_id"
            && !self.dim.kinds.contains(',')
            && crate::rollup::per_item(self.dim.per_customer, p);
        let sql = if per_item {
            format!(
                "SELECT d.item_id AS k, extract(month FROM d.dta)::int AS m, d.qtde, d.valor
                 {src} AND d.tipo IN ({kinds})",
                kinds = self.dim.kinds,
                src = from_where(self.dim.per_customer, p),
            )
        } else {
            format!(
                "SELECT {key} AS k, extract(month FROM d.dta)::int AS m, sum(d.qtde), sum(d.valor), min({label}) AS l
                 {src} AND d.tipo IN ({kinds})
                 GROUP BY 1, 2",
                key = self.dim.key,
                label = self.dim.label,
                kinds = self.dim.kinds,
                src = from_where(self.dim.per_customer, p),
            )
        };
        let rows = bind(sqlx::query(&sql), client, emp, p)
            .fetch_all(&mut **tx)
            .await?;
        let mut by_key: Vec<(i64, String, Decimal, [Decimal; 12])> = Vec::new();
        let mut index: HashMap<i64, usize> = HashMap::new();
        for r in &rows {
            let k: i64 = r.try_get(0)?;
            let m: i32 = r.try_get(1)?;
            let Num(q) = r.try_get(2)?;
            let Num(v) = r.try_get(3)?;
            let i = match index.get(&k) {
                Some(i) => *i,
                None => {
                    let l: String = if per_item {
                        String::new()
                    } else {
                        r.try_get(4)?
                    };
                    by_key.push((k, l, Decimal::ZERO, [Decimal::ZERO; 12]));
                    index.insert(k, by_key.len() - 1);
                    by_key.len() - 1
                }
            };
            let Some(entry) = by_key.get_mut(i) else {
                continue;
            };
            entry.2 += q;
            if let Some(slot) = usize::try_from(m - 1).ok().and_then(|i| entry.3.get_mut(i)) {
                *slot += v;
            }
        }
        if per_item && !by_key.is_empty() {
            let keys: Vec<i64> = by_key.iter().map(|e| e.0).collect();
            let names = sqlx::query(&format!(
                "SELECT d.item_id, {label}
                 FROM (SELECT $1::bigint AS client_id, $2::bigint AS emp_id, {kinds}::char AS tipo, k AS item_id
                       FROM unnest($3::bigint[]) k) d
                 LEFT JOIN reports.produtos p ON d.tipo = 'P' AND p.client_id = d.client_id
                      AND p.emp_id = d.emp_id AND p.prod_id = d.item_id
                 LEFT JOIN reports.servicos v ON d.tipo = 'S' AND v.client_id = d.client_id
                      AND v.emp_id = d.emp_id AND v.serv_id = d.item_id",
                label = self.dim.label,
                kinds = self.dim.kinds,
            ))
            .bind(client)
            .bind(emp)
            .bind(&keys)
            .fetch_all(&mut **tx)
            .await?;
            for r in &names {
                let k: i64 = r.try_get(0)?;
                if let Some(entry) = index.get(&k).and_then(|i| by_key.get_mut(*i)) {
                    entry.1 = r.try_get(1)?;
                }
            }
        }
        // Highest value first (a stable sort: equal values keep their order).
        let mut valued: Vec<(Decimal, (i64, String, Decimal, [Decimal; 12]))> = by_key
            .into_iter()
            .map(|e| (e.3.iter().copied().sum(), e))
            .collect();
        valued.sort_by_key(|(v, _)| std::cmp::Reverse(*v));
        let values: Vec<Decimal> = valued.iter().map(|(v, _)| *v).collect();
        let mut sum_q = Decimal::ZERO;
        let mut sum_months = [Decimal::ZERO; 12];
        let out: Vec<Map<String, Value>> = valued
            .into_iter()
            .zip(abc(&values))
            .map(|((total, (k, l, q, months)), (share, acc, class))| {
                sum_q += q;
                for (s, v) in sum_months.iter_mut().zip(months.iter()) {
                    *s += *v;
                }
                let mut row = Map::new();
                row.insert(self.key.into(), Value::from(k));
                row.insert(self.label.into(), Value::from(l));
                row.insert("QTDE".into(), num(q));
                row.insert("VALOR".into(), num(total));
                row.insert("PARTICIPACAO".into(), num(share));
                row.insert("ACUMULADO".into(), num(acc));
                row.insert("CLASSE".into(), Value::from(class));
                for ((k, _), v) in MONTHS.iter().zip(months.iter()) {
                    row.insert((*k).into(), num(*v));
                }
                row.insert("M13".into(), num(total));
                row
            })
            .collect();
        // The totals of the curve's columns (`curve_columns`): quantity, value
        // and each month.
        let sum_total: Decimal = values.iter().copied().sum();
        let mut totals = Map::new();
        totals.insert("QTDE".into(), num(sum_q));
        totals.insert("VALOR".into(), num(sum_total));
        for ((k, _), v) in MONTHS.iter().zip(sum_months.iter()) {
            totals.insert((*k).into(), num(*v));
        }
        totals.insert("M13".into(), num(sum_total));
        Ok((out, Some(totals)))
    }
}

/// The monthly curve's columns: M1..M12 the months, M13 the total.
const MONTHS: [(&str, &str); 13] = [
    ("M1", "Jan"),
    ("M2", "Fev"),
    ("M3", "Mar"),
    ("M4", "Abr"),
    ("M5", "Mai"),
    ("M6", "Jun"),
    ("M7", "Jul"),
    ("M8", "Ago"),
    ("M9", "Set"),
    ("M10", "Out"),
    ("M11", "Nov"),
    ("M12", "Dez"),
    ("M13", "Total"),
];

fn curve_columns(
    key: &'static str,
    key_label: &'static str,
    label: &'static str,
    label_label: &'static str,
) -> Vec<crate::engine::Col> {
    let mut cols = vec![
        col(key, key_label, Kind::Int, 16.0),
        col(label, label_label, Kind::Text, 125.0),
        sum("QTDE", "Qtde.", Kind::Quantity, 28.0),
        sum("VALOR", "Valor", Kind::Money, 32.0),
        col("PARTICIPACAO", "Part. %", Kind::Percent, 26.0),
        col("ACUMULADO", "Acum. %", Kind::Percent, 26.0),
        col("CLASSE", "Classe", Kind::Text, 24.0),
    ];
    // The month columns go to the screen and the spreadsheet; the PDF keeps the
    // curve (a landscape page has no room for 13 more columns).
    cols.extend(MONTHS.iter().map(|(f, l)| sum(f, l, Kind::Money, 0.0)));
    cols
}

/// Per product, service, group... (no curve): key, name, quantity, value.
pub struct Totals {
    pub dim: Dimension,
    pub key: &'static str,
    pub label: &'static str,
    /// Also the group name of each product (`GRUPO`).
    pub with_group: bool,
}

#[async_trait]
impl Source for Totals {
    async fn rows(
        &self,
        tx: &mut Tx,
        client: i64,
        emp: i64,
        p: &Params,
    ) -> Result<Vec<Map<String, Value>>> {
        let group = if self.with_group {
            "coalesce(g.descricao, 'Sem grupo')"
        } else {
            "''"
        };
        let sql = format!(
            "SELECT {key} AS k, min({label}) AS l, min({group}) AS g, sum(d.qtde), sum(d.valor)
             {src} AND d.tipo IN ({kinds})
             GROUP BY 1 ORDER BY 3, 5 DESC, 1",
            key = self.dim.key,
            label = self.dim.label,
            kinds = self.dim.kinds,
            src = from_where(self.dim.per_customer, p),
        );
        let rows = bind(sqlx::query(&sql), client, emp, p)
            .fetch_all(&mut **tx)
            .await?;
        rows.iter()
            .map(|r| {
                let mut row = Map::new();
                row.insert(self.key.into(), Value::from(r.try_get::<i64, _>(0)?));
                row.insert(self.label.into(), Value::from(r.try_get::<String, _>(1)?));
                if self.with_group {
                    row.insert("GRUPO".into(), Value::from(r.try_get::<String, _>(2)?));
                }
                row.insert("QTDE".into(), num(r.try_get(3)?));
                row.insert("VALOR".into(), num(r.try_get(4)?));
                Ok(row)
            })
            .collect()
    }
}

/// Sales per order, from the headers.
pub struct Orders;

#[async_trait]
impl Source for Orders {
    async fn rows(
        &self,
        tx: &mut Tx,
        client: i64,
        emp: i64,
        p: &Params,
    ) -> Result<Vec<Map<String, Value>>> {
        let rows = sqlx::query(
            "SELECT to_char(v.dta, 'YYYY-MM-DD'), v.pedf_id || '/' || v.serie, coalesce(c.descricao, v.cli_nome, 'Cliente ' || v.cli_id),
                    coalesce(f.descricao, ''), v.tot_prod, v.tot_serv, v.total
             FROM reports.vendas v
             LEFT JOIN reports.clientes c ON c.client_id = v.client_id AND c.emp_id = v.emp_id AND c.cli_id = v.cli_id
             LEFT JOIN reports.formaspagamento f ON f.client_id = v.client_id AND f.emp_id = 0 AND f.frmp_id = v.frmp_id
             WHERE v.client_id = $1 AND v.emp_id = $2 AND v.dta BETWEEN $3 AND $4
               AND ($5::bigint IS NULL OR v.cli_id = $5) AND ($6::bigint IS NULL OR v.frmp_id = $6)
               AND ($7::bigint IS NULL OR c.cola_id = $7)
             ORDER BY v.dta, v.pedf_id",
        )
        .bind(client)
        .bind(emp)
        .bind(p.from)
        .bind(p.to)
        .bind(p.id("CLI_ID"))
        .bind(p.id("FRMP_ID"))
        .bind(p.id("COLA_ID"))
        .fetch_all(&mut **tx)
        .await?;
        rows.iter()
            .map(|r| {
                let mut row = Map::new();
                row.insert("DATA".into(), Value::from(r.try_get::<String, _>(0)?));
                row.insert("PEDIDO".into(), Value::from(r.try_get::<String, _>(1)?));
                row.insert("CLIENTE".into(), Value::from(r.try_get::<String, _>(2)?));
                row.insert(
                    "FORMA_PAGAMENTO".into(),
                    Value::from(r.try_get::<String, _>(3)?),
                );
                row.insert("VALOR_PRODUTOS".into(), num(r.try_get(4)?));
                row.insert("VALOR_SERVICOS".into(), num(r.try_get(5)?));
                row.insert("VALOR_TOTAL".into(), num(r.try_get(6)?));
                Ok(row)
            })
            .collect()
    }
}

/// The representatives' commission: what their customers bought × their %.
pub struct Commission;

#[async_trait]
impl Source for Commission {
    async fn rows(
        &self,
        tx: &mut Tx,
        client: i64,
        emp: i64,
        p: &Params,
    ) -> Result<Vec<Map<String, Value>>> {
        let sql = format!(
            "SELECT c.cola_id, min(coalesce(r.nome, 'Representante ' || c.cola_id)), count(DISTINCT d.cli_id),
                    sum(d.valor), coalesce(min(r.perc_comissao), 0)
             {src} AND c.cola_id IS NOT NULL
             GROUP BY 1 ORDER BY 2, 1",
            src = from_where(true, p),
        );
        let rows = bind(sqlx::query(&sql), client, emp, p)
            .fetch_all(&mut **tx)
            .await?;
        rows.iter()
            .map(|r| {
                let value: Decimal = r.try_get(3)?;
                let pct: Decimal = r.try_get(4)?;
                let mut row = Map::new();
                row.insert("COLA_ID".into(), Value::from(r.try_get::<i64, _>(0)?));
                row.insert(
                    "REPRESENTANTE".into(),
                    Value::from(r.try_get::<String, _>(1)?),
                );
                row.insert("CLIENTES".into(), Value::from(r.try_get::<i64, _>(2)?));
                row.insert("VALOR_VENDAS".into(), num(value));
                row.insert("PERC_COMISSAO".into(), num(pct.normalize()));
                row.insert(
                    "VALOR_COMISSAO".into(),
                    num((value * pct / Decimal::ONE_HUNDRED).round_dp(2)),
                );
                Ok(row)
            })
            .collect()
    }
}

/// The sales reports.
pub fn reports() -> Vec<Report> {
    vec![
        Report {
            name: "vendas",
            title: "Relatório de Vendas",
            route: "/relatoriodevendas",
            path: "/vendas/reports",
            landscape: false,
            filters: vec![CUSTOMER, METHOD, SELLER],
            columns: vec![
                col("DATA", "Data", Kind::Date, 20.0),
                col("PEDIDO", "Pedido", Kind::Text, 20.0),
                col("CLIENTE", "Cliente", Kind::Text, 62.0),
                col("FORMA_PAGAMENTO", "Forma de Pagamento", Kind::Text, 28.0),
                sum("VALOR_PRODUTOS", "Produtos", Kind::Money, 20.0),
                sum("VALOR_SERVICOS", "Serviços", Kind::Money, 20.0),
                sum("VALOR_TOTAL", "Total", Kind::Money, 20.0),
            ],
            group_by: None,
            monthly: false,
            source: Box::new(Orders),
        },
        Report {
            name: "vendasprodutos",
            title: "Vendas de Produtos",
            route: "/relatoriovendadeprodutos",
            path: "/relatoriovendasprodutos",
            landscape: false,
            filters: vec![GROUP, SUBGROUP, PRODUCT, CUSTOMER, SELLER],
            columns: vec![
                col("GRUPO", "Grupo", Kind::Text, 40.0),
                col("PROD_ID", "Código", Kind::Int, 18.0),
                col("PRODUTO", "Produto", Kind::Text, 84.0),
                sum("QTDE", "Qtde.", Kind::Quantity, 24.0),
                sum("VALOR", "Valor", Kind::Money, 24.0),
            ],
            group_by: Some("GRUPO"),
            monthly: false,
            source: Box::new(Totals {
                dim: BY_PRODUCT,
                key: "PROD_ID",
                label: "PRODUTO",
                with_group: true,
            }),
        },
        Report {
            name: "vendasservicos",
            title: "Vendas de Serviços",
            route: "/relatoriovendadeservicos",
            path: "/relatoriovendasservico",
            landscape: false,
            filters: vec![CUSTOMER, SELLER],
            columns: vec![
                col("SERV_ID", "Código", Kind::Int, 20.0),
                col("SERVICO", "Serviço", Kind::Text, 122.0),
                sum("QTDE", "Qtde.", Kind::Quantity, 24.0),
                sum("VALOR", "Valor", Kind::Money, 24.0),
            ],
            group_by: None,
            monthly: false,
            source: Box::new(Totals {
                dim: BY_SERVICE,
                key: "SERV_ID",
                label: "SERVICO",
                with_group: false,
            }),
        },
        curve(
            "curvaprodutos",
            "Curva ABC de Produtos",
            "/relatoriocurvadeprodutos",
            "/curvaprodutos/reports",
            BY_PRODUCT,
            ("PROD_ID", "Código"),
            ("PRODUTO", "Produto"),
            vec![GROUP, SUBGROUP, CUSTOMER, SELLER],
        ),
        curve(
            "curvaclientes",
            "Curva ABC de Clientes",
            "/relatorioscurvadeclientes",
            "/curvaClientes/reports",
            BY_CUSTOMER,
            ("CLI_ID", "Código"),
            ("CLIENTE", "Cliente"),
            vec![SELLER],
        ),
        curve(
            "curvagrupos",
            "Curva ABC de Grupos de Produtos",
            "/relatorioscurvadegrupos",
            "/curvaGrupoProdutos/reports",
            BY_GROUP,
            ("GRUP_ID", "Código"),
            ("GRUPO", "Grupo"),
            vec![CUSTOMER, SELLER],
        ),
        curve(
            "curvarepresentantes",
            "Curva ABC de Representantes",
            "/relatorioscurvaderepresentantes",
            "/curvaRepresentantes/reports",
            BY_SELLER,
            ("COLA_ID", "Código"),
            ("REPRESENTANTE", "Representante"),
            vec![GROUP, CUSTOMER],
        ),
        Report {
            name: "comissao",
            title: "Comissão de Representantes",
            route: "/relatorioscomissao",
            path: "/comissao/reports",
            landscape: false,
            filters: vec![SELLER, CUSTOMER, GROUP],
            columns: vec![
                col("COLA_ID", "Código", Kind::Int, 16.0),
                col("REPRESENTANTE", "Representante", Kind::Text, 74.0),
                col("CLIENTES", "Clientes", Kind::Int, 16.0),
                sum("VALOR_VENDAS", "Vendas", Kind::Money, 30.0),
                col("PERC_COMISSAO", "Comissão %", Kind::Percent, 22.0),
                sum("VALOR_COMISSAO", "Comissão", Kind::Money, 32.0),
            ],
            group_by: None,
            monthly: false,
            source: Box::new(Commission),
        },
    ]
}

#[allow(clippy::too_many_arguments)]
fn curve(
    name: &'static str,
    title: &'static str,
    route: &'static str,
    path: &'static str,
    dim: Dimension,
    key: (&'static str, &'static str),
    label: (&'static str, &'static str),
    filters: Vec<Filter>,
) -> Report {
    Report {
        name,
        title,
        route,
        path,
        landscape: true,
        filters,
        columns: curve_columns(key.0, key.1, label.0, label.1),
        group_by: None,
        monthly: true,
        source: Box::new(Curve { dim, key: key.0, label: label.0 }),
    }
}
