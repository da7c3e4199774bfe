//! The purchase's read calls: a list with its total, a product's last purchase,
//! the grid in the stock unit and the instalments across purchases.

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::resource::values::parse_date;
use erp_platform::resource::{params, query, ActionHandler, Call};
use erp_platform::{Error, Result};
use serde_json::{json, Value};

use super::hooks::int_of;
use super::transitions::purchase_id;

/// `POST /compra/filtrocontador/{emp}`: the list body's rows and how many match.
pub(super) struct ListWithCount;

#[async_trait]
impl ActionHandler for ListWithCount {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = Some(params::company(call.emp)?);
        let body = params::body_map(call.body);
        let dados = query::list(tx, call.res, call.caller, emp, &body).await?;
        let count = query::count(tx, call.res, call.caller, emp, &body).await?;
        Ok(json!({"dados": dados, "count": count}))
    }
}

/// `GET /compraproduto/ultimacompra/{prodId}/{emp}`: the product's last finalized
/// purchase (a list of one, empty when there is none).
pub(super) struct LastPurchase;

#[async_trait]
impl ActionHandler for LastPurchase {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = params::company(call.emp)?;
        let product = params::id_param(call.params, "prodId")?;
        let row: Option<Value> = sqlx::query_scalar(
            "SELECT jsonb_build_object(
                'CMPP_PROD_ID', p.cmpp_prod_id, 'COMP_ID', c.comp_id, 'COMP_EMP_ID', c.comp_emp_id,
                'COMP_FORN_ID', c.comp_forn_id, 'COMP_FORN_DESC', c.comp_forn_desc,
                'COMP_NUMERO', c.comp_numero, 'COMP_SERIE', c.comp_serie,
                'COMP_DTA_EMISSAO', to_char(c.comp_dta_emissao, 'YYYY-MM-DD'),
                'COMP_DTA_ENTRADA', to_char(c.comp_dta_entrada, 'YYYY-MM-DD'),
                'CMPP_UNIDADE', p.cmpp_unidade, 'CMPP_FATOR', p.cmpp_fator::text,
                'CMPP_QTDE', p.cmpp_qtde::text, 'QTDE_ESTOQUE', (p.cmpp_qtde * p.cmpp_fator)::text,
                'CMPP_VLR_UNIT', p.cmpp_vlr_unit::text, 'CMPP_CUSTO_UNIT', p.cmpp_custo_unit::text,
                'CMPP_CUSTO_TOTAL', p.cmpp_custo_total::text)
             FROM orders.compra_produtos p
             JOIN orders.compras c ON c.client_id = p.client_id AND c.comp_emp_id = p.cmpp_emp_id
                AND c.comp_id = p.cmpp_comp_id
             WHERE p.client_id = $1 AND p.cmpp_emp_id = $2 AND p.cmpp_prod_id = $3 AND c.comp_situacao = 'F'
             ORDER BY c.comp_dta_entrada DESC, c.comp_id DESC, p.cmpp_id DESC LIMIT 1",
        )
        .bind(call.caller.client_id)
        .bind(emp)
        .bind(product)
        .fetch_optional(&mut **tx)
        .await?;
        Ok(Value::Array(row.into_iter().collect()))
    }
}

/// `GET /compraprodutograde/estoque/{CMPG_COMP_ID}/{emp}`: what the purchase's grid
/// puts in stock, by product, size and colour (grid quantities are in the stock
/// unit).
pub(super) struct GridStock;

#[async_trait]
impl ActionHandler for GridStock {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = params::company(call.emp)?;
        let purchase = purchase_id(call.params, "CMPG_COMP_ID")?;
        let rows: Value = sqlx::query_scalar(
            "SELECT coalesce(jsonb_agg(jsonb_build_object(
                    'CMPP_PROD_ID', t.prod, 'CMPG_TAM_ID', t.tam, 'CMPG_COR_ID', t.cor, 'QTDE_ESTOQUE', t.qtde::text)
                    ORDER BY t.prod, t.tam, t.cor), '[]'::jsonb)
             FROM (SELECT p.cmpp_prod_id AS prod, g.cmpg_tam_id AS tam, g.cmpg_cor_id AS cor, sum(g.cmpg_qtde) AS qtde
                   FROM orders.compra_produtos_grade g
                   JOIN orders.compra_produtos p ON p.client_id = g.client_id AND p.cmpp_emp_id = g.cmpg_emp_id
                      AND p.cmpp_comp_id = g.cmpg_comp_id AND p.cmpp_id = g.cmpg_cmpp_id
                   WHERE g.client_id = $1 AND g.cmpg_emp_id = $2 AND g.cmpg_comp_id = $3
                   GROUP BY p.cmpp_prod_id, g.cmpg_tam_id, g.cmpg_cor_id) t",
        )
        .bind(call.caller.client_id)
        .bind(emp)
        .bind(purchase)
        .fetch_one(&mut **tx)
        .await?;
        Ok(rows)
    }
}

/// `POST /comprapagamentos/filtros/{emp}`: the instalments of the company's purchases
/// (cancelled ones aside unless COMP_SITUACAO asks), with the supplier and the open
/// balance, by due date; body DTA_VCTO_INI, DTA_VCTO_FIM (yyyy-MM-dd), FORN_ID,
/// COMP_ID, BAIXADO (true/false), COMP_SITUACAO (A, F or C), LIMIT (default 100, at
/// most 6000), OFFSET or PAGINATION. Answers `{dados, count}`.
pub(super) struct InstalmentFilter;

#[async_trait]
impl ActionHandler for InstalmentFilter {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = params::company(call.emp)?;
        let b = &call.body;
        let date = |k: &str| -> Result<Option<chrono::NaiveDate>> {
            match b.get(k).and_then(Value::as_str).map(str::trim) {
                None | Some("") => Ok(None),
                Some(s) => parse_date(s).map(Some),
            }
        };
        let from = date("DTA_VCTO_INI")?;
        let to = date("DTA_VCTO_FIM")?;
        let supplier = int_of(b.get("FORN_ID"));
        let purchase = int_of(b.get("COMP_ID"));
        let settled = match b.get("BAIXADO") {
            None | Some(Value::Null) => None,
            Some(Value::Bool(v)) => Some(*v),
            Some(Value::String(s)) => match s.trim().to_ascii_uppercase().as_str() {
                "" => None,
                "S" | "1" | "TRUE" => Some(true),
                "N" | "0" | "FALSE" => Some(false),
                _ => return Err(Error::validation("Valor inválido para o filtro BAIXADO.")),
            },
            Some(Value::Number(n)) => Some(n.as_i64() == Some(1)),
            Some(_) => return Err(Error::validation("Valor inválido para o filtro BAIXADO.")),
        };
        let status = match b
            .get("COMP_SITUACAO")
            .and_then(Value::as_str)
            .map(str::trim)
        {
            None | Some("") => None,
            Some(s @ ("A" | "F" | "C")) => Some(s.to_string()),
            Some(_) => {
                return Err(Error::validation(
                    "Valor inválido para o filtro COMP_SITUACAO.",
                ))
            }
        };
        let limit = int_of(b.get("LIMIT")).unwrap_or(query::DEFAULT_LIMIT);
        if !(1..=query::MAX_LIMIT).contains(&limit) {
            return Err(Error::validation(format!(
                "LIMIT deve estar entre 1 e {}.",
                query::MAX_LIMIT
            )));
        }
        let offset = match (int_of(b.get("OFFSET")), int_of(b.get("PAGINATION"))) {
            (Some(o), _) => o,
            (None, Some(page)) => page.saturating_mul(limit),
            _ => 0,
        };
        if offset < 0 {
            return Err(Error::validation("Paginação inválida."));
        }
        const FROM: &str = "FROM orders.compra_pagamentos d
             JOIN orders.compras c ON c.client_id = d.client_id AND c.comp_emp_id = d.cmpd_emp_id
                AND c.comp_id = d.cmpd_comp_id
             WHERE d.client_id = $1 AND d.cmpd_emp_id = $2
               AND ($3::date IS NULL OR d.cmpd_dta_vcto >= $3) AND ($4::date IS NULL OR d.cmpd_dta_vcto <= $4)
               AND ($5::bigint IS NULL OR c.comp_forn_id = $5) AND ($6::bigint IS NULL OR c.comp_id = $6)
               AND ($7::bool IS NULL OR d.cmpd_baixado = $7)
               AND (CASE WHEN $8::text IS NULL THEN c.comp_situacao <> 'C' ELSE c.comp_situacao = $8 END)";
        let rows_sql = format!(
            "SELECT coalesce(jsonb_agg(r ORDER BY r.ord), '[]'::jsonb) FROM (
               SELECT row_number() OVER (ORDER BY d.cmpd_dta_vcto, d.cmpd_comp_id, d.cmpd_id) AS ord,
                      d.cmpd_comp_id AS \"CMPD_COMP_ID\", d.cmpd_id AS \"CMPD_ID\", d.cmpd_emp_id AS \"CMPD_EMP_ID\",
                      d.cmpd_numero AS \"CMPD_NUMERO\", to_char(d.cmpd_dta_vcto, 'YYYY-MM-DD') AS \"CMPD_DTA_VCTO\",
                      d.cmpd_vlr_titulo::text AS \"CMPD_VLR_TITULO\", d.cmpd_vlr_juros::text AS \"CMPD_VLR_JUROS\",
                      d.cmpd_bco_id AS \"CMPD_BCO_ID\", d.cmpd_baixado AS \"CMPD_BAIXADO\",
                      c.comp_forn_id AS \"CMPD_COMP_FORN_ID\", c.comp_forn_desc AS \"FORN_DESCRICAO\",
                      c.comp_numero AS \"COMP_NUMERO\", c.comp_serie AS \"COMP_SERIE\", c.comp_situacao AS \"COMP_SITUACAO\",
                      (CASE WHEN d.cmpd_baixado THEN 0 ELSE d.cmpd_vlr_titulo + d.cmpd_vlr_juros END)::text AS \"SALDO\"
               {FROM}
               ORDER BY d.cmpd_dta_vcto, d.cmpd_comp_id, d.cmpd_id LIMIT $9 OFFSET $10) r"
        );
        let client = call.caller.client_id;
        let dados: Value = sqlx::query_scalar(&rows_sql)
            .bind(client)
            .bind(emp)
            .bind(from)
            .bind(to)
            .bind(supplier)
            .bind(purchase)
            .bind(settled)
            .bind(status.clone())
            .bind(limit)
            .bind(offset)
            .fetch_one(&mut **tx)
            .await?;
        let dados = match dados {
            Value::Array(rows) => Value::Array(
                rows.into_iter()
                    .map(|mut r| {
                        if let Value::Object(m) = &mut r {
                            m.remove("ord");
                        }
                        r
                    })
                    .collect(),
            ),
            other => other,
        };
        let count: i64 = sqlx::query_scalar(&format!("SELECT count(*) {FROM}"))
            .bind(client)
            .bind(emp)
            .bind(from)
            .bind(to)
            .bind(supplier)
            .bind(purchase)
            .bind(settled)
            .bind(status)
            .fetch_one(&mut **tx)
            .await?;
        Ok(json!({"dados": dados, "count": count}))
    }
}
