//! The purchase's read calls: a list with its total, a product's last purchase,
//! the grid in the stock unit and the instalments across purchases.

use async_trait::async_trait;
use chrono::NaiveDate;
use erp_platform::resource::call::{Ctx, Date, Dec, Money, Operation, Row};
use erp_platform::resource::query;
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::transitions::PurchaseId;
use crate::money::{money_out, opt_dec_out, opt_money_out};

/// The rows of a list and how many the filter matches.
#[derive(Serialize, JsonSchema)]
#[schemars(rename = "Counted_{T}")]
pub struct Counted<T> {
    pub dados: Vec<T>,
    pub count: i64,
}

/// `POST /compra/filtrocontador/{emp}`: the list body's rows and how many match.
pub(super) struct ListWithCount;

#[async_trait]
impl Operation for ListWithCount {
    /// Free-form: the register's list filter, as every list takes it (any field, its
    /// `_INI`/`_FIM` ranges, FILTRO, ORDENACAO, LIMIT, PAGINATION), which the engine
    /// reads and refuses key by key.
    type In = Map<String, Value>;
    type Out = Counted<Row>;
    async fn run(&self, cx: &mut Ctx<'_>, mut filter: Map<String, Value>) -> Result<Counted<Row>> {
        let emp = Some(cx.emp()?);
        // The path's company is the call's, not a filter.
        filter.remove("emp");
        let dados = query::list(cx.tx, cx.res, cx.caller, emp, &filter).await?;
        let count = query::count(cx.tx, cx.res, cx.caller, emp, &filter).await?;
        Ok(Counted { dados: dados.into_iter().map(Row).collect(), count })
    }
}

/// `GET /compraproduto/ultimacompra/{prodId}/{emp}`: the product.
#[derive(Deserialize, JsonSchema)]
pub struct LastPurchaseIn {
    #[serde(rename = "prodId")]
    pub product: i64,
}

/// The product's last finalized purchase: supplier, dates, quantity, price and
/// landed cost.
#[derive(sqlx::FromRow, Serialize, JsonSchema)]
pub struct LastPurchaseOf {
    #[serde(rename = "CMPP_PROD_ID")]
    pub product: i64,
    #[serde(rename = "COMP_ID")]
    pub purchase: i64,
    #[serde(rename = "COMP_EMP_ID")]
    pub emp: i64,
    #[serde(rename = "COMP_FORN_ID")]
    pub supplier: Option<i64>,
    #[serde(rename = "COMP_FORN_DESC")]
    pub supplier_name: Option<String>,
    #[serde(rename = "COMP_NUMERO")]
    pub number: Option<i64>,
    #[serde(rename = "COMP_SERIE")]
    pub serie: Option<String>,
    #[serde(rename = "COMP_DTA_EMISSAO")]
    #[sqlx(try_from = "NaiveDate")]
    pub issued: Date,
    #[serde(rename = "COMP_DTA_ENTRADA")]
    #[sqlx(try_from = "NaiveDate")]
    pub entered: Date,
    #[serde(rename = "CMPP_UNIDADE")]
    pub unit: Option<String>,
    /// Stock units per purchase unit.
    #[serde(rename = "CMPP_FATOR")]
    #[sqlx(try_from = "Decimal")]
    pub factor: Dec,
    #[serde(rename = "CMPP_QTDE")]
    #[sqlx(try_from = "Decimal")]
    pub qty: Dec,
    /// The quantity in the stock unit.
    #[serde(rename = "QTDE_ESTOQUE")]
    #[sqlx(try_from = "Decimal")]
    pub stock_qty: Dec,
    #[serde(rename = "CMPP_VLR_UNIT")]
    #[sqlx(try_from = "Decimal")]
    pub price: Dec,
    #[serde(rename = "CMPP_CUSTO_UNIT", serialize_with = "opt_dec_out")]
    #[schemars(with = "Option<Dec>")]
    pub unit_cost: Option<Decimal>,
    #[serde(rename = "CMPP_CUSTO_TOTAL", serialize_with = "opt_money_out")]
    #[schemars(with = "Option<Money>")]
    pub landed: Option<Decimal>,
}

/// `GET /compraproduto/ultimacompra/{prodId}/{emp}`: the product's last finalized
/// purchase (a list of one, empty when there is none).
pub(super) struct LastPurchase;

#[async_trait]
impl Operation for LastPurchase {
    type In = LastPurchaseIn;
    type Out = Vec<LastPurchaseOf>;
    async fn run(&self, cx: &mut Ctx<'_>, i: LastPurchaseIn) -> Result<Vec<LastPurchaseOf>> {
        let emp = cx.emp()?;
        Ok(sqlx::query_as(
            "SELECT p.cmpp_prod_id AS product, c.comp_id AS purchase, c.comp_emp_id AS emp,
                    c.comp_forn_id AS supplier, c.comp_forn_desc AS supplier_name,
                    c.comp_numero AS number, c.comp_serie AS serie,
                    c.comp_dta_emissao AS issued, c.comp_dta_entrada AS entered,
                    p.cmpp_unidade AS unit, p.cmpp_fator AS factor, p.cmpp_qtde AS qty,
                    p.cmpp_qtde * p.cmpp_fator AS stock_qty, p.cmpp_vlr_unit AS price,
                    p.cmpp_custo_unit AS unit_cost, p.cmpp_custo_total AS landed
             FROM orders.compra_produtos p
             JOIN orders.compras c ON c.client_id = p.client_id AND c.comp_emp_id = p.cmpp_emp_id
                AND c.comp_id = p.cmpp_comp_id
             WHERE p.client_id = $1 AND p.cmpp_emp_id = $2 AND p.cmpp_prod_id = $3 AND c.comp_situacao = 'F'
             ORDER BY c.comp_dta_entrada DESC, c.comp_id DESC, p.cmpp_id DESC LIMIT 1",
        )
        .bind(cx.client())
        .bind(emp)
        .bind(i.product)
        .fetch_all(&mut **cx.tx)
        .await?)
    }
}

/// `GET /compraprodutograde/estoque/{CMPG_COMP_ID}/{emp}`: the purchase.
#[derive(Deserialize, JsonSchema)]
pub struct GridStockIn {
    #[serde(rename = "CMPG_COMP_ID")]
    pub purchase: PurchaseId,
}

/// What the purchase's grid puts in stock of a product, size and colour.
#[derive(sqlx::FromRow, Serialize, JsonSchema)]
pub struct GridStockOf {
    #[serde(rename = "CMPP_PROD_ID")]
    pub product: Option<i64>,
    #[serde(rename = "CMPG_TAM_ID")]
    pub size: Option<i64>,
    #[serde(rename = "CMPG_COR_ID")]
    pub colour: Option<i64>,
    /// In the stock unit.
    #[serde(rename = "QTDE_ESTOQUE")]
    #[sqlx(try_from = "Decimal")]
    pub qty: Dec,
}

/// `GET /compraprodutograde/estoque/{CMPG_COMP_ID}/{emp}`: what the purchase's grid
/// puts in stock, by product, size and colour (grid quantities are in the stock
/// unit).
pub(super) struct GridStock;

#[async_trait]
impl Operation for GridStock {
    type In = GridStockIn;
    type Out = Vec<GridStockOf>;
    async fn run(&self, cx: &mut Ctx<'_>, i: GridStockIn) -> Result<Vec<GridStockOf>> {
        let emp = cx.emp()?;
        Ok(sqlx::query_as(
            "SELECT p.cmpp_prod_id AS product, g.cmpg_tam_id AS size, g.cmpg_cor_id AS colour,
                    sum(g.cmpg_qtde) AS qty
             FROM orders.compra_produtos_grade g
             JOIN orders.compra_produtos p ON p.client_id = g.client_id AND p.cmpp_emp_id = g.cmpg_emp_id
                AND p.cmpp_comp_id = g.cmpg_comp_id AND p.cmpp_id = g.cmpg_cmpp_id
             WHERE g.client_id = $1 AND g.cmpg_emp_id = $2 AND g.cmpg_comp_id = $3
             GROUP BY p.cmpp_prod_id, g.cmpg_tam_id, g.cmpg_cor_id
             ORDER BY p.cmpp_prod_id, g.cmpg_tam_id, g.cmpg_cor_id",
        )
        .bind(cx.client())
        .bind(emp)
        .bind(i.purchase.get())
        .fetch_all(&mut **cx.tx)
        .await?)
    }
}

/// `POST /comprapagamentos/filtros/{emp}`: the filter.
#[derive(Deserialize, JsonSchema)]
pub struct InstalmentFilterIn {
    /// Due on or after (yyyy-MM-dd).
    #[serde(rename = "DTA_VCTO_INI", default)]
    pub from: Option<Date>,
    /// Due on or before (yyyy-MM-dd).
    #[serde(rename = "DTA_VCTO_FIM", default)]
    pub to: Option<Date>,
    #[serde(rename = "FORN_ID", default)]
    pub supplier: Option<i64>,
    #[serde(rename = "COMP_ID", default)]
    pub purchase: Option<i64>,
    #[serde(rename = "BAIXADO", default)]
    #[schemars(extend("x-invalid" = "Valor inválido para o filtro BAIXADO."))]
    pub settled: Option<bool>,
    /// A, F or C; cancelled purchases are left out unless asked.
    #[serde(rename = "COMP_SITUACAO", default)]
    pub status: Option<String>,
    /// 1 to 6000 (default 100).
    #[serde(rename = "LIMIT", default)]
    pub limit: Option<i64>,
    #[serde(rename = "OFFSET", default)]
    pub offset: Option<i64>,
    /// The page (of LIMIT rows), when OFFSET is not given.
    #[serde(rename = "PAGINATION", default)]
    pub page: Option<i64>,
}

/// An instalment of a purchase, with its supplier and open balance.
#[derive(sqlx::FromRow, Serialize, JsonSchema)]
pub struct InstalmentOf {
    #[serde(rename = "CMPD_COMP_ID")]
    pub purchase: i64,
    #[serde(rename = "CMPD_ID")]
    pub id: i64,
    #[serde(rename = "CMPD_EMP_ID")]
    pub emp: i64,
    #[serde(rename = "CMPD_NUMERO")]
    pub number: Option<String>,
    #[serde(rename = "CMPD_DTA_VCTO")]
    #[sqlx(try_from = "NaiveDate")]
    pub due: Date,
    #[serde(rename = "CMPD_VLR_TITULO", serialize_with = "money_out")]
    #[schemars(with = "Money")]
    pub amount: Decimal,
    #[serde(rename = "CMPD_VLR_JUROS", serialize_with = "money_out")]
    #[schemars(with = "Money")]
    pub interest: Decimal,
    #[serde(rename = "CMPD_BCO_ID")]
    pub bank: Option<i64>,
    #[serde(rename = "CMPD_BAIXADO")]
    pub settled: bool,
    #[serde(rename = "CMPD_COMP_FORN_ID")]
    pub supplier: Option<i64>,
    #[serde(rename = "FORN_DESCRICAO")]
    pub supplier_name: Option<String>,
    #[serde(rename = "COMP_NUMERO")]
    pub invoice: Option<i64>,
    #[serde(rename = "COMP_SERIE")]
    pub serie: Option<String>,
    #[serde(rename = "COMP_SITUACAO")]
    pub status: String,
    /// What is still to pay (0 once settled).
    #[serde(rename = "SALDO", serialize_with = "money_out")]
    #[schemars(with = "Money")]
    pub balance: Decimal,
}

/// `POST /comprapagamentos/filtros/{emp}`: the instalments of the company's purchases
/// (cancelled ones aside unless COMP_SITUACAO asks), with the supplier and the open
/// balance, by due date; body DTA_VCTO_INI, DTA_VCTO_FIM (yyyy-MM-dd), FORN_ID,
/// COMP_ID, BAIXADO (true/false), COMP_SITUACAO (A, F or C), LIMIT (default 100, at
/// most 6000), OFFSET or PAGINATION. Answers `{dados, count}`.
pub(super) struct InstalmentFilter;

#[async_trait]
impl Operation for InstalmentFilter {
    type In = InstalmentFilterIn;
    type Out = Counted<InstalmentOf>;
    async fn run(&self, cx: &mut Ctx<'_>, f: InstalmentFilterIn) -> Result<Counted<InstalmentOf>> {
        let emp = cx.emp()?;
        let from = f.from.map(Date::get);
        let to = f.to.map(Date::get);
        let status = match f.status.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(s @ ("A" | "F" | "C")) => Some(s.to_string()),
            Some(_) => {
                return Err(Error::validation(
                    "Valor inválido para o filtro COMP_SITUACAO.",
                ))
            }
        };
        let limit = f.limit.unwrap_or(query::DEFAULT_LIMIT);
        if !(1..=query::MAX_LIMIT).contains(&limit) {
            return Err(Error::validation(format!(
                "LIMIT deve estar entre 1 e {}.",
                query::MAX_LIMIT
            )));
        }
        let offset = match (f.offset, f.page) {
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
            "SELECT d.cmpd_comp_id AS purchase, d.cmpd_id AS id, d.cmpd_emp_id AS emp,
                    d.cmpd_numero AS number, d.cmpd_dta_vcto AS due,
                    d.cmpd_vlr_titulo AS amount, d.cmpd_vlr_juros AS interest,
                    d.cmpd_bco_id AS bank, d.cmpd_baixado AS settled,
                    c.comp_forn_id AS supplier, c.comp_forn_desc AS supplier_name,
                    c.comp_numero AS invoice, c.comp_serie AS serie, c.comp_situacao AS status,
                    CASE WHEN d.cmpd_baixado THEN 0 ELSE d.cmpd_vlr_titulo + d.cmpd_vlr_juros END AS balance
             {FROM}
             ORDER BY d.cmpd_dta_vcto, d.cmpd_comp_id, d.cmpd_id LIMIT $9 OFFSET $10"
        );
        let client = cx.client();
        let dados: Vec<InstalmentOf> = sqlx::query_as(&rows_sql)
            .bind(client)
            .bind(emp)
            .bind(from)
            .bind(to)
            .bind(f.supplier)
            .bind(f.purchase)
            .bind(f.settled)
            .bind(status.clone())
            .bind(limit)
            .bind(offset)
            .fetch_all(&mut **cx.tx)
            .await?;
        let count: i64 = sqlx::query_scalar(&format!("SELECT count(*) {FROM}"))
            .bind(client)
            .bind(emp)
            .bind(from)
            .bind(to)
            .bind(f.supplier)
            .bind(f.purchase)
            .bind(f.settled)
            .bind(status)
            .fetch_one(&mut **cx.tx)
            .await?;
        Ok(Counted { dados, count })
    }
}
