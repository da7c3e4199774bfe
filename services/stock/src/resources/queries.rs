//! Read-only registers over the ledger (`movimentos`) and the product copy
//! (`produtos`, which carries the company balance), and the product stock reads.
//! Their writes are refused ('... somente para consulta.': a create or an update
//! before any SQL, a delete by the hook in the same transaction, which rolls it
//! back); they have no sample, which tells the table-driven tests to leave them out.
//!
//! - `fichaestoque` (the stock card): `POST /fichaestoque/{emp}` with
//!   `{"PROD_ID": 7, "DATA_INI": "2026-11-01", "DATA_FIM": "2026-11-30"}`
//!   (`SALD_PROD_ID` works as `PROD_ID`; LIMIT and PAGINATION as in every list)
//!   answers the product's movements in the order they were recorded, each with
//!   `DATA`, `MOVI_TIPO` (E/S), `QTDE_ENTRADA`, `QTDE_SAIDA`, `MOVI_CUSTO_UNIT`,
//!   `VALOR_MOVIMENTO`, the running balance `SALDO`, the average cost `CUSTO_MEDIO`
//!   and the stock value `SALDO_FINANCEIRO` after it, and its origin
//!   (`MOVI_ORIGEM`, `MOVI_ORIGEM_ID`, `MOVI_LOCA_ID`, `MOVI_ESTORNO` for undos)
//!   and the grid variant it moved (`MOVI_PRGR_ID`, null for none),
//!   with `MOVI_DOCUMENTO`, the document as a person reads it ('Compra 123, item
//!   2', 'Pedido 55 série 1', '... (cancelada)' / '(estorno)' for undos). A
//!   purchase entry's `VALOR_MOVIMENTO` is its landed total.
//!   `POST /fichaestoque/registros/{emp}` counts them. Dates are Brasília's days.
//! - `consultaprodutos` (screen /consultaprodutos, stock history): the products of
//!   the catalog copy with `SALDO_FISICO`, `CUSTO_MEDIO` and `SALDO_FINANCEIRO`; plus the
//!   GET calls `/produtosestoquebd`, `/produtosmultiestoquebd`,
//!   `/produtosqtdalocados`, `/produtosutimocusto` and `/produtosrecalculaestoque`
//!   (`/{PROD_ID}/{emp}`), and `POST /produtosgradeestoque/{emp}` (`PROD_ID`,
//!   optional `LOCA_ID`): the quantity of each grid variant of the product.
//! - `estoqueprodutos`: the item picker's source, active products of the catalog
//!   copy with `PROD_VALOR`, `UNID_ABREVIADA`, `PROD_IMAGEM` and `SALDO_FISICO`
//!   (`FILTRO` searches the description; deleted products leave the copy, inactive
//!   ones stay, `PROD_SITUACAO: 1` filters them out).

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::resource::call::{Ctx, Date, Dec, Operation};
use erp_platform::resource::{ActionPerm, DbType, Field, Kind, ReadOnly, Resource};
use erp_platform::Result;
use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use sqlx::types::chrono::NaiveDate;

use super::RecordId;
use crate::ledger::{self, Balance};

const SCHEMA: &str = crate::SCHEMA;

pub fn all() -> Vec<Resource> {
    vec![fichaestoque(), consultaprodutos(), estoqueprodutos()]
}

pub fn fichaestoque() -> Resource {
    Resource::new(
        "fichaestoque",
        "Ficha de Estoque",
        SCHEMA,
        "movimentos",
        "produtos",
    )
    .key(&["MOVI_ID"])
    .company("MOVI_EMP_ID")
    .label("MOVI_ORIGEM")
    .order("MOVI_ID")
    .hooks(Arc::new(ReadOnly(
        "A ficha de estoque é somente para consulta.",
    )))
    .fields(vec![
        Field::id("MOVI_ID", "Movimento"),
        Field::int("MOVI_EMP_ID", "Empresa"),
        Field::int("PROD_ID", "Produto")
            .column("movi_prod_id")
            .list(),
        Field::int("SALD_PROD_ID", "Produto").column("movi_prod_id"),
        Field::date("DATA", "Data").column("movi_dia").list(),
        Field::timestamp("MOVI_DATA", "Data e Hora"),
        Field::options(
            "MOVI_TIPO",
            "Tipo",
            DbType::Text,
            &[("E", "Entrada"), ("S", "Saída")],
        )
        .list(),
        Field::decimal("MOVI_QTDE", "Quantidade"),
        Field::decimal("QTDE_ENTRADA", "Entrada")
            .column("movi_qtde_entrada")
            .list(),
        Field::decimal("QTDE_SAIDA", "Saída")
            .column("movi_qtde_saida")
            .list(),
        Field::money("MOVI_CUSTO_UNIT", "Custo Unitário")
            .scale(4)
            .list(),
        Field::money("VALOR_MOVIMENTO", "Valor do Movimento").column("movi_valor"),
        Field::decimal("SALDO", "Saldo")
            .column("movi_saldo_apos")
            .list(),
        Field::money("CUSTO_MEDIO", "Custo Médio")
            .scale(4)
            .column("movi_custo_medio_apos")
            .list(),
        Field::money("SALDO_FINANCEIRO", "Saldo Financeiro")
            .column("movi_saldo_financeiro")
            .list(),
        Field::text("MOVI_ORIGEM", "Origem").searchable().list(),
        Field::text("MOVI_ORIGEM_ID", "Documento")
            .searchable()
            .list(),
        Field::text("MOVI_DOCUMENTO", "Descrição do Documento"),
        Field::reference(
            "MOVI_LOCA_ID",
            "Local de Estoque",
            "localestoque",
            Kind::Combobox,
        ),
        Field::boolean("MOVI_ESTORNO", "Estorno"),
        // The product's grid variant the movement moved (catalog's PRGR_ID).
        Field::int("MOVI_PRGR_ID", "Variação da Grade"),
    ])
}

pub fn consultaprodutos() -> Resource {
    Resource::new(
        "consultaprodutos",
        "Histórico de Estoque",
        SCHEMA,
        "produtos",
        "consultaprodutos",
    )
    .screen("/consultaprodutos")
    .key(&["PROD_ID"])
    .company("PROD_EMP_ID")
    .label("PROD_DESCRICAO")
    .order("PROD_DESCRICAO")
    .hooks(Arc::new(ReadOnly(
        "A consulta de estoque é somente para consulta.",
    )))
    .call(
        "GET",
        "/produtosrecalculaestoque/{PROD_ID}/{emp}",
        "recalculaestoque",
        ActionPerm::Update,
        "Recalcula o saldo e o custo médio a partir dos movimentos",
        Recalculate,
    )
    .call(
        "GET",
        "/produtosestoquebd/{PROD_ID}/{emp}",
        "estoquebd",
        ActionPerm::View,
        "Saldo do produto",
        StockOf,
    )
    .call(
        "GET",
        "/produtosmultiestoquebd/{PROD_ID}/{emp}",
        "multiestoquebd",
        ActionPerm::View,
        "Saldo do produto por local de estoque",
        StockByLocation,
    )
    .call(
        "POST",
        "/produtosgradeestoque/{emp}",
        "gradeestoque",
        ActionPerm::View,
        "Saldo do produto por variação da grade (tamanho e cor)",
        StockByVariant,
    )
    .call(
        "GET",
        "/produtosqtdalocados/{PROD_ID}/{emp}",
        "qtdalocados",
        ActionPerm::View,
        "Quantidade alocada do produto",
        AllocatedQty,
    )
    .call(
        "GET",
        "/produtosutimocusto/{PROD_ID}/{emp}",
        "ultimocusto",
        ActionPerm::View,
        "Custo da última entrada do produto",
        LastCost,
    )
    .fields(vec![
        Field::id("PROD_ID", "Código"),
        Field::int("PROD_EMP_ID", "Empresa"),
        Field::text("PROD_DESCRICAO", "Descrição")
            .searchable()
            .list()
            .width(6),
        Field::text("UNID_ABREVIADA", "Unidade").list().width(2),
        Field::money("PROD_VALOR", "Preço de Venda").list(),
        Field::money("PROD_CUSTO", "Preço de Custo"),
        Field::situation("PROD_SITUACAO"),
        Field::decimal("SALDO_FISICO", "Saldo Físico")
            .column("prod_saldo")
            .list(),
        Field::money("CUSTO_MEDIO", "Custo Médio")
            .scale(4)
            .column("prod_custo_medio")
            .list(),
        Field::money("SALDO_FINANCEIRO", "Saldo Financeiro")
            .column("prod_saldo_financeiro")
            .list(),
        Field::timestamp("PROD_ATUALIZADO", "Atualizado em"),
    ])
}

pub fn estoqueprodutos() -> Resource {
    Resource::new(
        "estoqueprodutos",
        "Produtos com Estoque",
        SCHEMA,
        "produtos",
        "produtos",
    )
    .key(&["PROD_ID"])
    .company("PROD_EMP_ID")
    .label("PROD_DESCRICAO")
    .order("PROD_DESCRICAO")
    .search_limit(20)
    .hooks(Arc::new(ReadOnly(
        "A lista de produtos do estoque é somente para consulta.",
    )))
    .fields(vec![
        Field::id("PROD_ID", "Código"),
        Field::int("PROD_EMP_ID", "Empresa"),
        Field::text("PROD_DESCRICAO", "Descrição")
            .searchable()
            .list()
            .width(6),
        Field::money("PROD_VALOR", "Preço de Venda").list(),
        Field::text("UNID_ABREVIADA", "Unidade").list().width(2),
        Field::text("PROD_IMAGEM", "Imagem"),
        Field::situation("PROD_SITUACAO"),
        Field::decimal("SALDO_FISICO", "Estoque")
            .column("prod_saldo")
            .list(),
    ])
}

/// A product's balance as the stock reads answer it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ProductBalance {
    #[serde(rename = "PROD_ID")]
    pub product: i64,
    #[serde(rename = "EMP_ID")]
    pub emp: i64,
    /// The quantity in stock (the legacy name of `SALDO_FISICO`).
    #[serde(rename = "QTD_ESTOQUE")]
    pub qty: Dec,
    #[serde(rename = "SALDO_FISICO")]
    pub physical: Dec,
    #[serde(rename = "CUSTO_MEDIO")]
    pub avg_cost: Dec,
    /// The stock's value at average cost.
    #[serde(rename = "SALDO_FINANCEIRO")]
    pub value: Dec,
}

impl ProductBalance {
    fn new(product: i64, emp: i64, b: Balance) -> ProductBalance {
        ProductBalance {
            product,
            emp,
            qty: Dec(b.qty),
            physical: Dec(b.qty),
            avg_cost: Dec(b.avg_cost),
            value: Dec(b.value()),
        }
    }
}

/// The product of a product read (`{PROD_ID}` of the path).
#[derive(Deserialize, JsonSchema)]
pub struct ProductIn {
    #[serde(rename = "PROD_ID")]
    #[schemars(extend("x-invalid" = "Produto inválido."))]
    pub product: RecordId,
}

/// `GET /produtosestoquebd/{PROD_ID}/{emp}`: the company balance.
struct StockOf;

#[async_trait]
impl Operation for StockOf {
    type In = ProductIn;
    type Out = ProductBalance;
    async fn run(&self, cx: &mut Ctx<'_>, i: ProductIn) -> Result<ProductBalance> {
        let emp = cx.emp()?;
        let product = i.product.get();
        let b = ledger::balance(cx.tx, cx.client(), emp, product).await?;
        Ok(ProductBalance::new(product, emp, b))
    }
}

/// A location's balance of a product, as `StockByLocation` reads it.
#[derive(sqlx::FromRow)]
struct Placed {
    location: i64,
    name: Option<String>,
    qty: Decimal,
}

/// A row of `GET /produtosmultiestoquebd`.
#[derive(Serialize, JsonSchema)]
pub struct LocationBalance {
    /// Alternates 0 and 1 (the legacy grid's stripes).
    #[serde(rename = "ORDEM")]
    pub stripe: u8,
    #[serde(rename = "PROD_ID")]
    pub product: i64,
    /// The location; null for the quantity kept without one.
    #[serde(rename = "LOCA_ID")]
    pub location: Option<i64>,
    #[serde(rename = "LOCA_DESCRICAO")]
    pub name: Option<String>,
    #[serde(rename = "SALDO_FISICO")]
    pub qty: Dec,
}

/// `GET /produtosmultiestoquebd/{PROD_ID}/{emp}`: one row per location that holds
/// (or held) the product: `LOCA_ID`, `LOCA_DESCRICAO`, `SALDO_FISICO`, plus a last
/// row `LOCA_ID` null for the quantity kept without a location, when not zero.
struct StockByLocation;

#[async_trait]
impl Operation for StockByLocation {
    type In = ProductIn;
    type Out = Vec<LocationBalance>;
    async fn run(&self, cx: &mut Ctx<'_>, i: ProductIn) -> Result<Vec<LocationBalance>> {
        let emp = cx.emp()?;
        let product = i.product.get();
        let client = cx.client();
        let rows: Vec<Placed> = sqlx::query_as(
            "SELECT l.sall_loca_id AS location, c.loca_descricao AS name, l.sall_qtde AS qty
             FROM stock.saldos_local l
             LEFT JOIN stock.localestoque c ON c.client_id = l.client_id AND c.loca_id = l.sall_loca_id
             WHERE l.client_id = $1 AND l.sall_emp_id = $2 AND l.sall_prod_id = $3
             ORDER BY c.loca_descricao, l.sall_loca_id",
        )
        .bind(client)
        .bind(emp)
        .bind(product)
        .fetch_all(&mut **cx.tx)
        .await?;
        let total = ledger::balance(cx.tx, client, emp, product).await?.qty;
        let placed: Decimal = rows.iter().map(|r| r.qty).sum();
        let stripe = |i: usize| (i % 2) as u8;
        let mut out: Vec<LocationBalance> = rows
            .into_iter()
            .enumerate()
            .map(|(i, r)| LocationBalance {
                stripe: stripe(i),
                product,
                location: Some(r.location),
                name: r.name,
                qty: Dec(r.qty),
            })
            .collect();
        if placed != total {
            out.push(LocationBalance {
                stripe: stripe(out.len()),
                product,
                location: None,
                name: Some("SEM LOCAL".into()),
                qty: Dec(total - placed),
            });
        }
        Ok(out)
    }
}

/// `POST /produtosgradeestoque/{emp}`: the product and, optionally, a location.
#[derive(Deserialize, JsonSchema)]
pub struct VariantStockIn {
    #[serde(rename = "PROD_ID")]
    #[schemars(title = "Produto", extend("x-invalid" = "Produto inválido."))]
    pub product: RecordId,
    /// Only this location's quantities; absent: the company's (every location).
    #[serde(rename = "LOCA_ID", default)]
    #[schemars(title = "Local de Estoque")]
    pub location: Option<i64>,
}

/// A row of `POST /produtosgradeestoque`.
#[derive(Debug, Serialize, JsonSchema)]
pub struct VariantBalance {
    #[serde(rename = "PROD_ID")]
    pub product: i64,
    /// The grid variant (catalog's PRGR_ID).
    #[serde(rename = "PRGR_ID")]
    pub variant: i64,
    /// The location asked for; null for the company's quantity.
    #[serde(rename = "LOCA_ID")]
    pub location: Option<i64>,
    #[serde(rename = "SALDO_FISICO")]
    pub qty: Dec,
}

/// `POST /produtosgradeestoque/{emp}` (`{"PROD_ID": 7, "LOCA_ID": 2}`): one row per
/// grid variant of the product that has (or had) stock, in variant order:
/// `PRGR_ID` and its `SALDO_FISICO` in the company, or in `LOCA_ID` when given. A
/// variant never moved has no row (its quantity is 0). Orders asks it for the
/// sales grid (`/produtosgradevendas`).
struct StockByVariant;

#[async_trait]
impl Operation for StockByVariant {
    type In = VariantStockIn;
    type Out = Vec<VariantBalance>;
    async fn run(&self, cx: &mut Ctx<'_>, i: VariantStockIn) -> Result<Vec<VariantBalance>> {
        let emp = cx.emp()?;
        let product = i.product.get();
        let rows = ledger::variant_balances(cx.tx, cx.client(), emp, product, i.location).await?;
        Ok(rows
            .into_iter()
            .map(|(variant, qty)| VariantBalance {
                product,
                variant,
                location: i.location,
                qty: Dec(qty),
            })
            .collect())
    }
}

/// What `GET /produtosqtdalocados` answers.
#[derive(Serialize, JsonSchema)]
pub struct AllocatedQtyOf {
    #[serde(rename = "PROD_ID")]
    pub product: i64,
    #[serde(rename = "EMP_ID")]
    pub emp: i64,
    /// Always 0 (see `documents::Allocated`).
    #[serde(rename = "QTD_ALOCADOS")]
    pub allocated: Dec,
    #[serde(rename = "SALDO_DISPONIVEL")]
    pub available: Dec,
}

/// `GET /produtosqtdalocados/{PROD_ID}/{emp}`: see `documents::Allocated` for why
/// the allocated quantity is 0.
struct AllocatedQty;

#[async_trait]
impl Operation for AllocatedQty {
    type In = ProductIn;
    type Out = AllocatedQtyOf;
    async fn run(&self, cx: &mut Ctx<'_>, i: ProductIn) -> Result<AllocatedQtyOf> {
        let emp = cx.emp()?;
        let product = i.product.get();
        let b = ledger::balance(cx.tx, cx.client(), emp, product).await?;
        Ok(AllocatedQtyOf { product, emp, allocated: Dec(Decimal::ZERO), available: Dec(b.qty) })
    }
}

/// The last real entry of a product, as `LastCost` reads it.
#[derive(sqlx::FromRow)]
struct LastEntry {
    cost: Decimal,
    day: NaiveDate,
    origin: String,
}

/// What `GET /produtosutimocusto` answers.
#[derive(Serialize, JsonSchema)]
pub struct LastCostOf {
    #[serde(rename = "PROD_ID")]
    pub product: i64,
    #[serde(rename = "ULTIMO_CUSTO")]
    pub cost: Dec,
    /// The entry's day (Brasília); null for the catalog's cost.
    #[serde(rename = "DATA_ULTIMA_ENTRADA")]
    pub day: Option<Date>,
    /// The entry's origin, or `CADASTRO` for the catalog's cost.
    #[serde(rename = "ORIGEM")]
    pub origin: String,
}

/// `GET /produtosutimocusto/{PROD_ID}/{emp}`: the unit cost of the last real entry
/// (not a transfer, not an undo), with its date; without one, the catalog's cost.
struct LastCost;

#[async_trait]
impl Operation for LastCost {
    type In = ProductIn;
    type Out = LastCostOf;
    async fn run(&self, cx: &mut Ctx<'_>, i: ProductIn) -> Result<LastCostOf> {
        let emp = cx.emp()?;
        let product = i.product.get();
        let client = cx.client();
        let last: Option<LastEntry> = sqlx::query_as(
            "SELECT movi_custo_unit AS cost, (movi_data AT TIME ZONE 'America/Sao_Paulo')::date AS day,
                    movi_origem AS origin
             FROM stock.movimentos
             WHERE client_id = $1 AND movi_emp_id = $2 AND movi_prod_id = $3
               AND movi_tipo = 'E' AND NOT movi_estorno AND movi_origem <> 'TRANSFERENCIA'
             ORDER BY movi_id DESC LIMIT 1",
        )
        .bind(client)
        .bind(emp)
        .bind(product)
        .fetch_optional(&mut **cx.tx)
        .await?;
        if let Some(e) = last {
            return Ok(LastCostOf {
                product,
                cost: Dec(e.cost),
                day: Some(Date(e.day)),
                origin: e.origin,
            });
        }
        let catalog: Option<Option<Decimal>> = sqlx::query_scalar(
            "SELECT prod_custo FROM stock.produtos WHERE client_id = $1 AND prod_emp_id = $2 AND prod_id = $3",
        )
        .bind(client)
        .bind(emp)
        .bind(product)
        .fetch_optional(&mut **cx.tx)
        .await?;
        Ok(LastCostOf {
            product,
            cost: Dec(catalog.flatten().unwrap_or_default()),
            day: None,
            origin: "CADASTRO".into(),
        })
    }
}

/// What `GET /produtosrecalculaestoque` answers.
#[derive(Serialize, JsonSchema)]
pub struct Recalculated {
    #[serde(rename = "PROD_ID")]
    pub product: i64,
    #[serde(rename = "EMP_ID")]
    pub emp: i64,
    #[serde(rename = "ANTES")]
    pub before: ProductBalance,
    #[serde(rename = "DEPOIS")]
    pub after: ProductBalance,
    /// The stored balance was wrong and was fixed.
    #[serde(rename = "CORRIGIDO")]
    pub fixed: bool,
}

/// `GET /produtosrecalculaestoque/{PROD_ID}/{emp}`: recomputes the balance and the
/// average cost from the movement rows (and the per-location balances from their
/// locations), fixes `saldos`, and answers `ANTES` and `DEPOIS`
/// (`SALDO_FISICO`, `CUSTO_MEDIO`, `SALDO_FINANCEIRO`) and `CORRIGIDO`.
struct Recalculate;

#[async_trait]
impl Operation for Recalculate {
    type In = ProductIn;
    type Out = Recalculated;
    async fn run(&self, cx: &mut Ctx<'_>, i: ProductIn) -> Result<Recalculated> {
        let emp = cx.emp()?;
        let product = i.product.get();
        let client = cx.client();
        let (before, after) = ledger::recalculate(cx.tx, client, emp, product).await?;
        let fixed = before != after;
        if fixed {
            tracing::warn!(
                client,
                emp,
                product,
                ?before,
                ?after,
                "stock balance recalculated"
            );
        }
        Ok(Recalculated {
            product,
            emp,
            before: ProductBalance::new(product, emp, before),
            after: ProductBalance::new(product, emp, after),
            fixed,
        })
    }
}
