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
//!   with `MOVI_DOCUMENTO`, the document as a person reads it ('Compra 123, item
//!   2', 'Pedido 55 série 1', '... (cancelada)' / '(estorno)' for undos). A
//!   purchase entry's `VALOR_MOVIMENTO` is its landed total.
//!   `POST /fichaestoque/registros/{emp}` counts them. Dates are Brasília's days.
//! - `consultaprodutos` (screen /consultaprodutos, stock history): the products of
//!   the catalog copy with `SALDO_FISICO`, `CUSTO_MEDIO` and `SALDO_FINANCEIRO`; plus the
//!   GET calls `/produtosestoquebd`, `/produtosmultiestoquebd`,
//!   `/produtosqtdalocados`, `/produtosutimocusto` and `/produtosrecalculaestoque`
//!   (`/{PROD_ID}/{emp}`).
//! - `estoqueprodutos`: the item picker's source, active products of the catalog
//!   copy with `PROD_VALOR`, `UNID_ABREVIADA`, `PROD_IMAGEM` and `SALDO_FISICO`
//!   (`FILTRO` searches the description; deleted products leave the copy, inactive
//!   ones stay, `PROD_SITUACAO: 1` filters them out).

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::resource::{ActionHandler, ActionPerm, Call, DbType, Field, Kind, Resource};
use erp_platform::Result;
use rust_decimal::Decimal;
use serde_json::{json, Value};

use crate::ledger::{self, Balance};
use erp_platform::resource::params::{company, record_id as id_param};
use erp_platform::resource::ReadOnly;

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
    ])
}

pub fn consultaprodutos() -> Resource {
    let reads: [(&str, &str, &str, Arc<dyn ActionHandler>); 4] = [
        (
            "/produtosestoquebd/{PROD_ID}/{emp}",
            "estoquebd",
            "Saldo do produto",
            Arc::new(StockOf),
        ),
        (
            "/produtosmultiestoquebd/{PROD_ID}/{emp}",
            "multiestoquebd",
            "Saldo do produto por local de estoque",
            Arc::new(StockByLocation),
        ),
        (
            "/produtosqtdalocados/{PROD_ID}/{emp}",
            "qtdalocados",
            "Quantidade alocada do produto",
            Arc::new(AllocatedQty),
        ),
        (
            "/produtosutimocusto/{PROD_ID}/{emp}",
            "ultimocusto",
            "Custo da última entrada do produto",
            Arc::new(LastCost),
        ),
    ];
    let mut r = Resource::new(
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
    .action(
        "GET",
        "/produtosrecalculaestoque/{PROD_ID}/{emp}",
        "recalculaestoque",
        ActionPerm::Update,
        "Recalcula o saldo e o custo médio a partir dos movimentos",
        Arc::new(Recalculate),
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
    ]);
    for (path, name, summary, handler) in reads {
        r = r.action("GET", path, name, ActionPerm::View, summary, handler);
    }
    r
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

fn balance_json(product: i64, emp: i64, b: Balance) -> Value {
    json!({
        "PROD_ID": product,
        "EMP_ID": emp,
        "QTD_ESTOQUE": b.qty,
        "SALDO_FISICO": b.qty,
        "CUSTO_MEDIO": b.avg_cost,
        "SALDO_FINANCEIRO": b.value(),
    })
}

/// `GET /produtosestoquebd/{PROD_ID}/{emp}`: the company balance.
struct StockOf;

#[async_trait]
impl ActionHandler for StockOf {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { caller, emp, params, .. } = call;
        let emp = company(emp)?;
        let product = id_param(params, "PROD_ID", "Produto")?;
        let b = ledger::balance(tx, caller.client_id, emp, product).await?;
        Ok(balance_json(product, emp, b))
    }
}

/// `GET /produtosmultiestoquebd/{PROD_ID}/{emp}`: one row per location that holds
/// (or held) the product: `LOCA_ID`, `LOCA_DESCRICAO`, `SALDO_FISICO`, plus a last
/// row `LOCA_ID` null for the quantity kept without a location, when not zero.
struct StockByLocation;

#[async_trait]
impl ActionHandler for StockByLocation {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { caller, emp, params, .. } = call;
        let emp = company(emp)?;
        let product = id_param(params, "PROD_ID", "Produto")?;
        let rows: Vec<(i64, Option<String>, Decimal)> = sqlx::query_as(
            "SELECT l.sall_loca_id, c.loca_descricao, l.sall_qtde
             FROM stock.saldos_local l
             LEFT JOIN stock.localestoque c ON c.client_id = l.client_id AND c.loca_id = l.sall_loca_id
             WHERE l.client_id = $1 AND l.sall_emp_id = $2 AND l.sall_prod_id = $3
             ORDER BY c.loca_descricao, l.sall_loca_id",
        )
        .bind(caller.client_id)
        .bind(emp)
        .bind(product)
        .fetch_all(&mut **tx)
        .await?;
        let total = ledger::balance(tx, caller.client_id, emp, product)
            .await?
            .qty;
        let placed: Decimal = rows.iter().map(|r| r.2).sum();
        let mut out: Vec<Value> = rows
            .into_iter()
            .enumerate()
            .map(|(i, (id, name, qty))| {
                json!({"ORDEM": i % 2, "PROD_ID": product, "LOCA_ID": id, "LOCA_DESCRICAO": name, "SALDO_FISICO": qty})
            })
            .collect();
        if placed != total {
            out.push(json!({"ORDEM": out.len() % 2, "PROD_ID": product, "LOCA_ID": Value::Null, "LOCA_DESCRICAO": "SEM LOCAL", "SALDO_FISICO": total - placed}));
        }
        Ok(Value::Array(out))
    }
}

/// `GET /produtosqtdalocados/{PROD_ID}/{emp}`: see `documents::Allocated` for why
/// the allocated quantity is 0.
struct AllocatedQty;

#[async_trait]
impl ActionHandler for AllocatedQty {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { caller, emp, params, .. } = call;
        let emp = company(emp)?;
        let product = id_param(params, "PROD_ID", "Produto")?;
        let b = ledger::balance(tx, caller.client_id, emp, product).await?;
        Ok(
            json!({"PROD_ID": product, "EMP_ID": emp, "QTD_ALOCADOS": Decimal::ZERO, "SALDO_DISPONIVEL": b.qty}),
        )
    }
}

/// `GET /produtosutimocusto/{PROD_ID}/{emp}`: the unit cost of the last real entry
/// (not a transfer, not an undo), with its date; without one, the catalog's cost.
struct LastCost;

#[async_trait]
impl ActionHandler for LastCost {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { caller, emp, params, .. } = call;
        let emp = company(emp)?;
        let product = id_param(params, "PROD_ID", "Produto")?;
        let last: Option<(Decimal, String, String)> = sqlx::query_as(
            "SELECT movi_custo_unit, to_char(movi_data AT TIME ZONE 'America/Sao_Paulo', 'YYYY-MM-DD'), movi_origem
             FROM stock.movimentos
             WHERE client_id = $1 AND movi_emp_id = $2 AND movi_prod_id = $3
               AND movi_tipo = 'E' AND NOT movi_estorno AND movi_origem <> 'TRANSFERENCIA'
             ORDER BY movi_id DESC LIMIT 1",
        )
        .bind(caller.client_id)
        .bind(emp)
        .bind(product)
        .fetch_optional(&mut **tx)
        .await?;
        Ok(match last {
            Some((cost, date, origin)) => {
                json!({"PROD_ID": product, "ULTIMO_CUSTO": cost, "DATA_ULTIMA_ENTRADA": date, "ORIGEM": origin})
            }
            None => {
                let catalog: Option<Option<Decimal>> = sqlx::query_scalar(
                    "SELECT prod_custo FROM stock.produtos WHERE client_id = $1 AND prod_emp_id = $2 AND prod_id = $3",
                )
                .bind(caller.client_id)
                .bind(emp)
                .bind(product)
                .fetch_optional(&mut **tx)
                .await?;
                json!({"PROD_ID": product, "ULTIMO_CUSTO": catalog.flatten().unwrap_or_default(), "DATA_ULTIMA_ENTRADA": Value::Null, "ORIGEM": "CADASTRO"})
            }
        })
    }
}

/// `GET /produtosrecalculaestoque/{PROD_ID}/{emp}`: recomputes the balance and the
/// average cost from the movement rows (and the per-location balances from their
/// locations), fixes `saldos`, and answers `ANTES` and `DEPOIS`
/// (`SALDO_FISICO`, `CUSTO_MEDIO`, `SALDO_FINANCEIRO`) and `CORRIGIDO`.
struct Recalculate;

#[async_trait]
impl ActionHandler for Recalculate {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { caller, emp, params, .. } = call;
        let emp = company(emp)?;
        let product = id_param(params, "PROD_ID", "Produto")?;
        let (before, after) = ledger::recalculate(tx, caller.client_id, emp, product).await?;
        if before != after {
            tracing::warn!(
                client = caller.client_id,
                emp,
                product,
                ?before,
                ?after,
                "stock balance recalculated"
            );
        }
        Ok(json!({
            "PROD_ID": product,
            "EMP_ID": emp,
            "ANTES": balance_json(product, emp, before),
            "DEPOIS": balance_json(product, emp, after),
            "CORRIGIDO": before != after,
        }))
    }
}
