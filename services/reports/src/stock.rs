//! The stock reports over the ledger's facts: the movements of the period per
//! product with the balance after each (`/movimentacaoestoque/reports`) and the
//! estimate of how long each product's stock lasts
//! (`/estimativaestoque/reports`): the average daily exits of the last `DIAS`
//! days up to `DATA_FIM` (without `DIAS`, of the period's days), the days the
//! balance covers at that pace and the day it runs out; the requisitions' exits
//! (`/requisicao/reports`, an undone line's entry taking it back).

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::Result;
use rust_decimal::prelude::ToPrimitive;
use serde_json::{Map, Value};

use crate::engine::{col, sum, Filter, FilterKind, Kind, Params, Report, Source};
use crate::registers::GROUP;
use crate::rows;

const PRODUCT: Filter = Filter {
    field: "PROD_ID",
    label: "Produto",
    kind: FilterKind::Reference("produtos"),
};
const DIRECTION: Filter = Filter {
    field: "TIPO",
    label: "Tipo",
    kind: FilterKind::Options(&[("E", "Entradas"), ("S", "Saídas")]),
};
const DAYS: Filter = Filter { field: "DIAS", label: "Dias de consumo", kind: FilterKind::Int };

pub struct Movements;

#[async_trait]
impl Source for Movements {
    async fn rows(
        &self,
        tx: &mut Tx,
        client: i64,
        emp: i64,
        p: &Params,
    ) -> Result<Vec<Map<String, Value>>> {
        let found = sqlx::query(
            "SELECT coalesce(p.descricao, 'Produto ' || m.prod_id) || ' (' || m.prod_id || ')' AS produto, m.dta AS data,
                    CASE m.tipo WHEN 'E' THEN 'Entrada' ELSE 'Saída' END AS tipo,
                    trim(coalesce(m.origem, '') || ' ' || coalesce(m.origem_id, '')) AS origem,
                    CASE m.tipo WHEN 'E' THEN m.qtde END AS entrada, CASE m.tipo WHEN 'S' THEN m.qtde END AS saida,
                    m.custo_unit, m.saldo_apos AS saldo
             FROM reports.estoquemov m
             LEFT JOIN reports.produtos p ON p.client_id = m.client_id AND p.emp_id = m.emp_id AND p.prod_id = m.prod_id
             WHERE m.client_id = $1 AND m.emp_id = $2 AND m.dta BETWEEN $3 AND $4
               AND ($5::bigint IS NULL OR m.prod_id = $5) AND ($6::bigint IS NULL OR p.grup_id = $6)
               AND ($7::text IS NULL OR m.tipo = $7)
             ORDER BY produto, m.movi_id",
        )
        .bind(client)
        .bind(emp)
        .bind(p.from)
        .bind(p.to)
        .bind(p.id("PROD_ID"))
        .bind(p.id("GRUP_ID"))
        .bind(p.text("TIPO"))
        .fetch_all(&mut **tx)
        .await?;
        rows::all(&found)
    }
}

pub struct Estimate;

#[async_trait]
impl Source for Estimate {
    async fn rows(
        &self,
        tx: &mut Tx,
        client: i64,
        emp: i64,
        p: &Params,
    ) -> Result<Vec<Map<String, Value>>> {
        let days = p
            .id("DIAS")
            .unwrap_or_else(|| (p.to - p.from).num_days() + 1)
            .min(crate::engine::MAX_DAYS);
        let from = p.to - chrono::Duration::days(days - 1);
        let found = sqlx::query(
            "SELECT * FROM (
                 SELECT p.prod_id, coalesce(p.descricao, '') AS produto, coalesce(s.qtde, 0) AS estoque,
                        coalesce(p.estoque_min, 0) AS estoque_min, coalesce(x.saidas, 0) AS saidas,
                        round(coalesce(x.saidas, 0) / $5, 4) AS media_diaria
                 FROM reports.produtos p
                 LEFT JOIN reports.estoquesaldo s ON s.client_id = p.client_id AND s.emp_id = p.emp_id AND s.prod_id = p.prod_id
                 LEFT JOIN (SELECT d.prod_id, sum(d.saidas) AS saidas FROM reports.estoquedia d
                            WHERE d.client_id = $1 AND d.emp_id = $2 AND d.dta BETWEEN $3 AND $4
                            GROUP BY d.prod_id) x ON x.prod_id = p.prod_id
                 WHERE p.client_id = $1 AND p.emp_id = $2 AND NOT p.excluido
                   AND ($6::bigint IS NULL OR p.grup_id = $6) AND ($7::bigint IS NULL OR p.prod_id = $7)) e
             WHERE e.saidas > 0 OR e.estoque <> 0
             ORDER BY e.produto, e.prod_id",
        )
        .bind(client)
        .bind(emp)
        .bind(from)
        .bind(p.to)
        .bind(rust_decimal::Decimal::from(days))
        .bind(p.id("GRUP_ID"))
        .bind(p.id("PROD_ID"))
        .fetch_all(&mut **tx)
        .await?;
        let mut out = rows::all(&found)?;
        for r in &mut out {
            let stock = crate::engine::decimal(r.get("ESTOQUE"));
            let pace = crate::engine::decimal(r.get("MEDIA_DIARIA"));
            // Without exits the stock lasts indefinitely: no estimate.
            let (cover, end) = if pace > rust_decimal::Decimal::ZERO {
                let cover = (stock.max(rust_decimal::Decimal::ZERO) / pace).round_dp(1);
                let whole = cover.trunc().to_i64().unwrap_or(0);
                let end = p.to + chrono::Duration::days(whole.min(crate::engine::MAX_DAYS));
                (
                    crate::engine::num(cover),
                    Value::from(end.format("%Y-%m-%d").to_string()),
                )
            } else {
                (Value::Null, Value::Null)
            };
            r.insert("DIAS_COBERTURA".into(), cover);
            r.insert("DATA_RUPTURA".into(), end);
        }
        Ok(out)
    }
}

/// The requisitions: their exits (an undone one's entry taking it back), per
/// requisition, at the cost the ledger took them out.
pub struct Requisitions;

#[async_trait]
impl Source for Requisitions {
    async fn rows(
        &self,
        tx: &mut Tx,
        client: i64,
        emp: i64,
        p: &Params,
    ) -> Result<Vec<Map<String, Value>>> {
        let found = sqlx::query(
            "SELECT 'Requisição ' || split_part(m.origem_id, '/', 1) AS requisicao, m.dta AS data,
                    coalesce(p.descricao, 'Produto ' || m.prod_id) AS produto,
                    CASE WHEN m.tipo = 'S' THEN 'Saída' ELSE 'Estorno' END AS tipo,
                    CASE WHEN m.tipo = 'S' THEN m.qtde ELSE -m.qtde END AS quantidade, m.custo_unit,
                    round(CASE WHEN m.tipo = 'S' THEN m.qtde ELSE -m.qtde END * m.custo_unit, 2) AS valor
             FROM reports.estoquemov m
             LEFT JOIN reports.produtos p ON p.client_id = m.client_id AND p.emp_id = m.emp_id AND p.prod_id = m.prod_id
             WHERE m.client_id = $1 AND m.emp_id = $2 AND m.origem = 'REQUISICAO' AND m.dta BETWEEN $3 AND $4
               AND ($5::bigint IS NULL OR m.prod_id = $5)
               AND ($6::text IS NULL OR split_part(m.origem_id, '/', 1) = $6)
             ORDER BY length(split_part(m.origem_id, '/', 1)), split_part(m.origem_id, '/', 1), m.movi_id",
        )
        .bind(client)
        .bind(emp)
        .bind(p.from)
        .bind(p.to)
        .bind(p.id("PROD_ID"))
        .bind(p.id("REQU_ID").map(|id| id.to_string()))
        .fetch_all(&mut **tx)
        .await?;
        rows::all(&found)
    }
}

const REQUISITION: Filter =
    Filter { field: "REQU_ID", label: "Requisição", kind: FilterKind::Int };

/// The stock reports.
pub fn reports() -> Vec<Report> {
    vec![
        Report {
            name: "movimentacaoestoque",
            title: "Movimentação de Estoque",
            route: "/relatoriosmovimentacaoestoque",
            path: "/movimentacaoestoque/reports",
            landscape: false,
            filters: vec![PRODUCT, GROUP, DIRECTION],
            columns: vec![
                col("PRODUTO", "Produto", Kind::Text, 40.0),
                col("DATA", "Data", Kind::Date, 18.0),
                col("TIPO", "Tipo", Kind::Text, 16.0),
                col("ORIGEM", "Origem", Kind::Text, 40.0),
                sum("ENTRADA", "Entrada", Kind::Quantity, 20.0),
                sum("SAIDA", "Saída", Kind::Quantity, 20.0),
                col("CUSTO_UNIT", "Custo Unit.", Kind::Money, 18.0),
                col("SALDO", "Saldo", Kind::Quantity, 18.0),
            ],
            group_by: Some("PRODUTO"),
            monthly: false,
            source: Box::new(Movements),
        },
        Report {
            name: "estimativaestoque",
            title: "Estimativa de Estoque",
            route: "/relatoriosestimativaestoque",
            path: "/estimativaestoque/reports",
            landscape: false,
            filters: vec![DAYS, GROUP, PRODUCT],
            columns: vec![
                col("PROD_ID", "Código", Kind::Int, 14.0),
                col("PRODUTO", "Produto", Kind::Text, 60.0),
                sum("ESTOQUE", "Estoque", Kind::Quantity, 20.0),
                col("ESTOQUE_MIN", "Mínimo", Kind::Quantity, 18.0),
                sum("SAIDAS", "Saídas", Kind::Quantity, 20.0),
                col("MEDIA_DIARIA", "Média Diária", Kind::Quantity, 20.0),
                col("DIAS_COBERTURA", "Dias de Cobertura", Kind::Quantity, 20.0),
                col("DATA_RUPTURA", "Ruptura em", Kind::Date, 18.0),
            ],
            group_by: None,
            monthly: false,
            source: Box::new(Estimate),
        },
        Report {
            name: "requisicao",
            title: "Relatório de Requisições",
            route: "/relatorioderequisicoes",
            path: "/requisicao/reports",
            landscape: false,
            filters: vec![REQUISITION, PRODUCT],
            columns: vec![
                col("REQUISICAO", "Requisição", Kind::Text, 30.0),
                col("DATA", "Data", Kind::Date, 18.0),
                col("PRODUTO", "Produto", Kind::Text, 66.0),
                col("TIPO", "Tipo", Kind::Text, 16.0),
                sum("QUANTIDADE", "Quantidade", Kind::Quantity, 20.0),
                col("CUSTO_UNIT", "Custo Unit.", Kind::Money, 18.0),
                sum("VALOR", "Valor", Kind::Money, 22.0),
            ],
            group_by: Some("REQUISICAO"),
            monthly: false,
            source: Box::new(Requisitions),
        },
    ]
}
