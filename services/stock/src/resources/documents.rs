//! Stock documents whose rows post to the ledger in the same transaction:
//!
//! - `correcaoestoque` (screen /correcoesestoque): a counted quantity of a product,
//!   in the company or in one location; posting writes the difference as an entry
//!   (at the given cost, else the average cost) or an exit. Plus
//!   `GET /produtosalocados/{PROD_ID}/{emp}[/{USR_ID}]`.
//! - `transferencialocal` (screen /transferenciaestoque) and its lines
//!   `transferencialocalproduto`: each line leaves the origin location and enters the
//!   destination at the average cost, so the company's quantity and average cost do
//!   not change; `PUT /transferencialocalproduto/agrupar/{TRLP_TRLO_ID}/{emp}` merges
//!   the lines of one product.
//! - `requisicao` (screen /requisicoes) and its lines `requisicaoproduto`: each line
//!   is an exit at the average cost. A requisition asked by a quote (event
//!   `erp.orders.orcamento.requisicao`) may take the balance below zero.
//!
//! Posted values (product, quantity, locations) do not change on an edit: delete
//! and post again. Deleting a line, or a whole document, writes the reversing
//! movements. Origins in the ledger: `CORRECAO` (id), `TRANSFERENCIA` and
//! `REQUISICAO` (`document/line`).

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::{
    query, ActionHandler, ActionPerm, Call, DbType, Document, Field, Hooks, Kind, Lines, Op,
    Resource, Role,
};
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use serde_json::{json, Map, Value};

use super::posted::keep_posted;
use crate::ledger::{self, Movement};
use erp_platform::resource::params::{company, dec_of as dec, int, opt_dec, record_id as id_param};

pub fn all() -> std::result::Result<Vec<Resource>, String> {
    let mut out = vec![correcaoestoque()];
    out.extend(transfer()?);
    out.extend(requisition()?);
    Ok(out)
}

/// A transfer between locations and its lines, as one document (no totals: its
/// lines post as they are written).
pub fn transfer() -> std::result::Result<Vec<Resource>, String> {
    Document::new(transferencialocal())
        .missing("Transferência não encontrada.")
        .date("TRLO_DATA")
        .line(
            transferencialocalproduto(),
            Lines::products(&["TRLP_TRLO_ID"]),
        )
        .build()
}

/// A requisition and its lines, as one document; the item picker refuses more than
/// the product's stock.
pub fn requisition() -> std::result::Result<Vec<Resource>, String> {
    Document::new(requisicao())
        .missing("Requisição não encontrada.")
        .date("REQU_DATA")
        .block_stock()
        .line(requisicaoproduto(), Lines::products(&["REQP_REQU_ID"]))
        .build()
}

const SCHEMA: &str = crate::SCHEMA;
const KINDS: [(&str, &str); 2] = [("E", "Entrada"), ("S", "Saída")];

// ------------------------------------------------------------------ corrections

pub fn correcaoestoque() -> Resource {
    Resource::new("correcaoestoque", "Correções de Estoque", SCHEMA, "correcaoestoque", "correcoesestoque")
        .screen("/correcoesestoque")
        .key(&["CORE_ID"])
        .company("CORE_EMP_ID")
        .label("CORE_OBS")
        .order("CORE_DATA DESC, CORE_ID DESC")
        .hooks(Arc::new(Correction))
        .sample(json!({"CORE_PROD_ID": 1, "CORE_QTDE_CONTADA": "12", "CORE_DATA": "2026-11-23", "CORE_OBS": "Inventário mensal"}))
        .action(
            "GET",
            "/produtosalocados/{PROD_ID}/{emp}",
            "alocados",
            ActionPerm::View,
            "Quantidade alocada e disponível do produto",
            Arc::new(Allocated),
        )
        .action(
            "GET",
            "/produtosalocados/{PROD_ID}/{emp}/{USR_ID}",
            "alocadosusuario",
            ActionPerm::View,
            "Quantidade alocada e disponível do produto",
            Arc::new(Allocated),
        )
        .fields(vec![
            Field::id("CORE_ID", "Código"),
            Field::int("CORE_EMP_ID", "Empresa"),
            Field::reference("CORE_PROD_ID", "Produto", "estoqueprodutos", Kind::Autocomplete).required().list().width(6),
            Field::reference("CORE_LOCA_ID", "Local de Estoque", "localestoque", Kind::Combobox).width(3),
            Field::decimal("CORE_QTDE_CONTADA", "Quantidade Contada").scale(4).required().min("0").list().width(3),
            Field::decimal("CORE_QTDE_ANTERIOR", "Quantidade Anterior").read_only().list().width(3),
            Field::decimal("CORE_DIFERENCA", "Diferença").read_only().list().width(3),
            Field::options("CORE_TIPO", "Tipo", DbType::Text, &KINDS).read_only().list().width(3),
            Field::money("CORE_CUSTO_UNIT", "Custo Unitário").scale(4).width(3),
            Field::date("CORE_DATA", "Data").required().list(),
            Field::textarea("CORE_OBS", "Observação").len(500).searchable().list(),
            Field::int("CORE_USR_ID", "Usuário").read_only(),
        ])
}

const CORRECTION_POSTED: [&str; 4] = [
    "CORE_PROD_ID",
    "CORE_LOCA_ID",
    "CORE_QTDE_CONTADA",
    "CORE_CUSTO_UNIT",
];

struct Correction;

#[async_trait]
impl Hooks for Correction {
    async fn before_write(
        &self,
        op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        keep_posted(op, body, &CORRECTION_POSTED);
        Ok(())
    }

    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &Value) -> Result<()> {
        let client = caller.client_id;
        let emp = int(row, "CORE_EMP_ID")?;
        let id = int(row, "CORE_ID")?;
        let product = int(row, "CORE_PROD_ID")?;
        let location = row["CORE_LOCA_ID"].as_i64();
        match op {
            Op::Update => Ok(()),
            Op::Create => {
                let counted = dec(row, "CORE_QTDE_CONTADA")?;
                // Lock the balance before reading it: the difference is against what
                // is there when the count is posted.
                let company_balance = ledger::lock(tx, client, emp, product).await?;
                let before = match location {
                    Some(l) => ledger::balance_at(tx, client, emp, product, l).await?,
                    None => company_balance.qty,
                };
                let diff = counted - before;
                let mut kind = None;
                let mut cost = opt_dec(row, "CORE_CUSTO_UNIT")?;
                if !diff.is_zero() {
                    let k = if diff > Decimal::ZERO {
                        ledger::Kind::Entry
                    } else {
                        ledger::Kind::Exit
                    };
                    let mut m =
                        Movement::new(emp, product, k, diff.abs(), "CORRECAO", id.to_string());
                    m.location = location;
                    m.unit_cost = cost.unwrap_or(company_balance.avg_cost);
                    let (_, unit) = ledger::record(tx, client, &m).await?;
                    kind = Some(k.code());
                    cost = Some(unit);
                }
                sqlx::query(
                    "UPDATE stock.correcaoestoque SET core_qtde_anterior = $4, core_diferenca = $5, core_tipo = $6,
                         core_custo_unit = $7, core_usr_id = $8
                     WHERE client_id = $1 AND core_emp_id = $2 AND core_id = $3",
                )
                .bind(client)
                .bind(emp)
                .bind(id)
                .bind(before)
                .bind(diff)
                .bind(kind)
                .bind(cost)
                .bind(caller.user_id)
                .execute(&mut **tx)
                .await?;
                Ok(())
            }
            Op::Delete => {
                let Some(kind) = row["CORE_TIPO"].as_str() else {
                    return Ok(()); // the count matched: nothing was posted
                };
                let kind = ledger::Kind::parse(kind)?;
                let mut m = Movement::new(
                    emp,
                    product,
                    kind.opposite(),
                    dec(row, "CORE_DIFERENCA")?.abs(),
                    "CORRECAO",
                    id.to_string(),
                );
                m.location = location;
                m.unit_cost = opt_dec(row, "CORE_CUSTO_UNIT")?.unwrap_or_default();
                m.reversal = true;
                ledger::record(tx, client, &m).await?;
                Ok(())
            }
        }
    }
}

/// `GET /produtosalocados/{PROD_ID}/{emp}`: quantity allocated and available.
/// Stock knows no open document that reserves a product: orders, service orders and
/// quotes reach stock only as facts (invoiced, parts taken, requisition created),
/// which are exits already, and requisitions and transfers post when written. So
/// the allocated quantity is 0 and the available quantity is the balance; the
/// fields are kept for the legacy screens that show them.
struct Allocated;

#[async_trait]
impl ActionHandler for Allocated {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { caller, emp, params, .. } = call;
        let emp = company(emp)?;
        let product = id_param(params, "PROD_ID", "Produto")?;
        let b = ledger::balance(tx, caller.client_id, emp, product).await?;
        Ok(json!({
            "PROD_ID": product,
            "EMP_ID": emp,
            "QTD_ALOCADO": Decimal::ZERO,
            "QTD_ALOCADOS": Decimal::ZERO,
            "SALDO_FISICO": b.qty,
            "SALDO_DISPONIVEL": b.qty,
        }))
    }
}

// ------------------------------------------------------------------ transfers

fn transferencialocal() -> Resource {
    Resource::new("transferencialocal", "Transferência entre Locais", SCHEMA, "transferencialocal", "transferenciaestoque")
        .screen("/transferenciaestoque")
        .key(&["TRLO_ID"])
        .company("TRLO_EMP_ID")
        .label("TRLO_OBS")
        .order("TRLO_DATA DESC, TRLO_ID DESC")
        .hooks(Arc::new(Transfer))
        .sample(json!({"TRLO_LOCA_ORIGEM": 1, "TRLO_LOCA_DESTINO": 2, "TRLO_DATA": "2026-11-23", "TRLO_OBS": "Reposição da loja"}))
        .fields(vec![
            Field::id("TRLO_ID", "Código"),
            Field::int("TRLO_EMP_ID", "Empresa"),
            Field::reference("TRLO_LOCA_ORIGEM", "Local de Origem", "localestoque", Kind::Combobox).required().list().width(4),
            Field::reference("TRLO_LOCA_DESTINO", "Local de Destino", "localestoque", Kind::Combobox).required().list().width(4),
            Field::date("TRLO_DATA", "Data").required().list().width(4),
            Field::textarea("TRLO_OBS", "Observação").len(500).searchable().list(),
            Field::int("TRLO_USR_ID", "Usuário").role(Role::CreatedBy),
        ])
}

fn same_value(a: Option<&Value>, b: Option<&Value>) -> bool {
    let text = |v: Option<&Value>| match v {
        Some(Value::String(s)) => s.trim().to_string(),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    };
    let (a, b) = (text(a), text(b));
    !a.is_empty() && a == b
}

struct Transfer;

#[async_trait]
impl Hooks for Transfer {
    async fn before_write(
        &self,
        op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        // The lines already moved stock between these two locations.
        keep_posted(op, body, &["TRLO_LOCA_ORIGEM", "TRLO_LOCA_DESTINO"]);
        if op == Op::Create
            && same_value(body.get("TRLO_LOCA_ORIGEM"), body.get("TRLO_LOCA_DESTINO"))
        {
            return Err(Error::validation(
                "O local de destino deve ser diferente do local de origem.",
            ));
        }
        Ok(())
    }

    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &Value) -> Result<()> {
        let emp = int(row, "TRLO_EMP_ID")?;
        let id = int(row, "TRLO_ID")?;
        match op {
            Op::Create | Op::Update => {}
            Op::Delete => {
                // The document goes with its lines: each moves back.
                let lines: Vec<(i64, i64, Decimal)> = sqlx::query_as(
                    "DELETE FROM stock.transferencialocalproduto WHERE client_id = $1 AND trlp_emp_id = $2 AND trlp_trlo_id = $3
                     RETURNING trlp_id, trlp_prod_id, trlp_qtde",
                )
                .bind(caller.client_id)
                .bind(emp)
                .bind(id)
                .fetch_all(&mut **tx)
                .await?;
                let (from, to) = (
                    int(row, "TRLO_LOCA_ORIGEM")?,
                    int(row, "TRLO_LOCA_DESTINO")?,
                );
                for (line, product, qty) in lines {
                    move_between(
                        tx,
                        caller.client_id,
                        emp,
                        product,
                        qty,
                        to,
                        from,
                        format!("{id}/{line}"),
                    )
                    .await?;
                }
            }
        }
        Ok(())
    }
}

/// Moves a quantity of a product from one location to another: an exit at the
/// average cost and an entry at that same cost, so the company's quantity and
/// average cost stay as they were.
#[allow(clippy::too_many_arguments)]
async fn move_between(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    product: i64,
    qty: Decimal,
    from: i64,
    to: i64,
    origin_id: String,
) -> Result<()> {
    let mut out = Movement::new(
        emp,
        product,
        ledger::Kind::Exit,
        qty,
        "TRANSFERENCIA",
        origin_id.clone(),
    );
    out.location = Some(from);
    let (_, cost) = ledger::record(tx, client, &out).await?;
    let mut entry = Movement::new(
        emp,
        product,
        ledger::Kind::Entry,
        qty,
        "TRANSFERENCIA",
        origin_id,
    );
    entry.location = Some(to);
    entry.unit_cost = cost;
    ledger::record(tx, client, &entry).await?;
    Ok(())
}

fn transferencialocalproduto() -> Resource {
    Resource::new(
        "transferencialocalproduto",
        "Produtos da Transferência",
        SCHEMA,
        "transferencialocalproduto",
        "transferenciaestoque",
    )
    .key(&["TRLP_ID"])
    .company("TRLP_EMP_ID")
    .label("TRLP_OBS")
    .order("TRLP_ID")
    .list_path("/transferencialocalproduto/filtro/{TRLP_TRLO_ID}/{emp}")
    .count_path("/transferencialocalproduto/registros/{TRLP_TRLO_ID}/{emp}")
    .hooks(Arc::new(TransferLine))
    .sample(
        json!({"TRLP_TRLO_ID": 1, "TRLP_PROD_ID": 1, "TRLP_QTDE": "2", "TRLP_OBS": "Gôndola 3"}),
    )
    .action(
        "PUT",
        "/transferencialocalproduto/agrupar/{TRLP_TRLO_ID}/{emp}",
        "agrupar",
        ActionPerm::Update,
        "Agrupa os itens do mesmo produto",
        Arc::new(MergeLines),
    )
    .fields(vec![
        Field::id("TRLP_ID", "Código"),
        Field::int("TRLP_EMP_ID", "Empresa"),
        Field::reference(
            "TRLP_TRLO_ID",
            "Transferência",
            "transferencialocal",
            Kind::Combobox,
        )
        .required(),
        Field::reference(
            "TRLP_PROD_ID",
            "Produto",
            "estoqueprodutos",
            Kind::Autocomplete,
        )
        .required()
        .list()
        .width(6)
        .role(Role::Item),
        Field::decimal("TRLP_QTDE", "Quantidade")
            .scale(4)
            .required()
            .min("0.0001")
            .list()
            .width(3)
            .role(Role::Quantity),
        Field::text("TRLP_OBS", "Observação")
            .len(200)
            .searchable()
            .list()
            .width(3),
    ])
}

const LINE_POSTED: [&str; 3] = ["TRLP_TRLO_ID", "TRLP_PROD_ID", "TRLP_QTDE"];

async fn transfer_locations(tx: &mut Tx, client: i64, emp: i64, id: i64) -> Result<(i64, i64)> {
    sqlx::query_as(
        "SELECT trlo_loca_origem, trlo_loca_destino FROM stock.transferencialocal
         WHERE client_id = $1 AND trlo_emp_id = $2 AND trlo_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| Error::NotFound("Transferência não encontrada.".into()))
}

struct TransferLine;

#[async_trait]
impl Hooks for TransferLine {
    async fn before_write(
        &self,
        op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        keep_posted(op, body, &LINE_POSTED);
        Ok(())
    }

    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &Value) -> Result<()> {
        if op == Op::Update {
            return Ok(());
        }
        let emp = int(row, "TRLP_EMP_ID")?;
        let doc = int(row, "TRLP_TRLO_ID")?;
        let (from, to) = transfer_locations(tx, caller.client_id, emp, doc).await?;
        let (from, to) = if op == Op::Delete {
            (to, from)
        } else {
            (from, to)
        };
        let origin_id = format!("{doc}/{}", int(row, "TRLP_ID")?);
        move_between(
            tx,
            caller.client_id,
            emp,
            int(row, "TRLP_PROD_ID")?,
            dec(row, "TRLP_QTDE")?,
            from,
            to,
            origin_id,
        )
        .await
    }
}

/// `PUT /transferencialocalproduto/agrupar/{TRLP_TRLO_ID}/{emp}`: the lines of one
/// product become one (the first), holding their total. The stock already moved, so
/// the ledger is untouched; deleting the merged line moves the total back. Answers
/// the transfer's lines.
struct MergeLines;

#[async_trait]
impl ActionHandler for MergeLines {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, emp, params, .. } = call;
        let emp = company(emp)?;
        let doc = id_param(params, "TRLP_TRLO_ID", "Transferência")?;
        transfer_locations(tx, caller.client_id, emp, doc).await?;
        sqlx::query(
            "WITH totals AS (
                 SELECT trlp_prod_id, min(trlp_id) AS keep, sum(trlp_qtde) AS total
                 FROM stock.transferencialocalproduto
                 WHERE client_id = $1 AND trlp_emp_id = $2 AND trlp_trlo_id = $3
                 GROUP BY trlp_prod_id HAVING count(*) > 1
             ), merged AS (
                 UPDATE stock.transferencialocalproduto l SET trlp_qtde = t.total
                 FROM totals t
                 WHERE l.client_id = $1 AND l.trlp_emp_id = $2 AND l.trlp_id = t.keep
             )
             DELETE FROM stock.transferencialocalproduto l USING totals t
             WHERE l.client_id = $1 AND l.trlp_emp_id = $2 AND l.trlp_trlo_id = $3
               AND l.trlp_prod_id = t.trlp_prod_id AND l.trlp_id <> t.keep",
        )
        .bind(caller.client_id)
        .bind(emp)
        .bind(doc)
        .execute(&mut **tx)
        .await?;
        let mut filter = Map::new();
        filter.insert("TRLP_TRLO_ID".into(), Value::from(doc));
        filter.insert("LIMIT".into(), Value::from(query::MAX_LIMIT));
        Ok(Value::Array(
            query::list(tx, res, caller, Some(emp), &filter).await?,
        ))
    }
}

// ------------------------------------------------------------------ requisitions

fn requisicao() -> Resource {
    Resource::new(
        "requisicao",
        "Requisições",
        SCHEMA,
        "requisicao",
        "requisicoes",
    )
    .screen("/requisicoes")
    .key(&["REQU_ID"])
    .company("REQU_EMP_ID")
    .label("REQU_DESCRICAO")
    .order("REQU_DATA DESC, REQU_ID DESC")
    .hooks(Arc::new(Requisition))
    .sample(json!({"REQU_DESCRICAO": "Consumo interno da oficina", "REQU_DATA": "2026-11-23"}))
    .fields(vec![
        Field::id("REQU_ID", "Código"),
        Field::int("REQU_EMP_ID", "Empresa"),
        Field::text("REQU_DESCRICAO", "Descrição")
            .required()
            .len(200)
            .searchable()
            .list()
            .width(6),
        Field::date("REQU_DATA", "Data").required().list(),
        Field::reference("REQU_CLI_ID", "Cliente", "clientes", Kind::Autocomplete)
            .list()
            .width(6),
        Field::reference(
            "REQU_LOCA_ID",
            "Local de Estoque",
            "localestoque",
            Kind::Combobox,
        )
        .width(3),
        Field::int("REQU_ORCA_ID", "Orçamento").read_only().list(),
        Field::text("REQU_ORCA_SERIE", "Série do Orçamento").read_only(),
        Field::textarea("REQU_OBS", "Observação").len(500),
        Field::int("REQU_USR_ID", "Usuário").read_only(),
    ])
}

struct Requisition;

#[async_trait]
impl Hooks for Requisition {
    async fn before_write(
        &self,
        op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        keep_posted(op, body, &["REQU_LOCA_ID"]);
        Ok(())
    }

    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &Value) -> Result<()> {
        let emp = int(row, "REQU_EMP_ID")?;
        let id = int(row, "REQU_ID")?;
        match op {
            Op::Create | Op::Update => {}
            Op::Delete => {
                let lines: Vec<(i64, i64, Decimal, Option<Decimal>)> = sqlx::query_as(
                    "DELETE FROM stock.requisicaoproduto WHERE client_id = $1 AND reqp_emp_id = $2 AND reqp_requ_id = $3
                     RETURNING reqp_id, reqp_prod_id, reqp_qtde, reqp_custo_unit",
                )
                .bind(caller.client_id)
                .bind(emp)
                .bind(id)
                .fetch_all(&mut **tx)
                .await?;
                let location = row["REQU_LOCA_ID"].as_i64();
                for (line, product, qty, cost) in lines {
                    undo_requisition_exit(
                        tx,
                        caller.client_id,
                        emp,
                        product,
                        qty,
                        cost,
                        location,
                        format!("{id}/{line}"),
                    )
                    .await?;
                }
            }
        }
        Ok(())
    }
}

#[allow(clippy::too_many_arguments)]
async fn undo_requisition_exit(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    product: i64,
    qty: Decimal,
    cost: Option<Decimal>,
    location: Option<i64>,
    origin_id: String,
) -> Result<()> {
    let mut m = Movement::new(
        emp,
        product,
        ledger::Kind::Entry,
        qty,
        "REQUISICAO",
        origin_id,
    );
    m.location = location;
    m.unit_cost = cost.unwrap_or_default();
    m.reversal = true;
    ledger::record(tx, client, &m).await?;
    Ok(())
}

fn requisicaoproduto() -> Resource {
    Resource::new("requisicaoproduto", "Produtos da Requisição", SCHEMA, "requisicaoproduto", "requisicoes")
        .key(&["REQP_ID"])
        .company("REQP_EMP_ID")
        .label("REQP_OBS")
        .order("REQP_ID")
        .list_path("/requisicaoproduto/{REQP_REQU_ID}/{emp}")
        .count_path("/requisicaoproduto/registros/{REQP_REQU_ID}/{emp}")
        .hooks(Arc::new(RequisitionLine))
        .sample(json!({"REQP_REQU_ID": 1, "REQP_PROD_ID": 1, "REQP_QTDE": "1", "REQP_OBS": "Troca de peça"}))
        .fields(vec![
            Field::id("REQP_ID", "Código"),
            Field::int("REQP_EMP_ID", "Empresa"),
            Field::reference("REQP_REQU_ID", "Requisição", "requisicao", Kind::Combobox).required(),
            Field::reference("REQP_PROD_ID", "Produto", "estoqueprodutos", Kind::Autocomplete).required().list().width(6).role(Role::Item),
            Field::decimal("REQP_QTDE", "Quantidade").scale(4).required().min("0.0001").list().width(3).role(Role::Quantity),
            Field::money("REQP_CUSTO_UNIT", "Custo Unitário").scale(4).read_only().list().width(3).role(Role::UnitCost),
            Field::text("REQP_OBS", "Observação").len(200).searchable().list(),
        ])
}

const REQUISITION_LINE_POSTED: [&str; 3] = ["REQP_REQU_ID", "REQP_PROD_ID", "REQP_QTDE"];

struct RequisitionLine;

#[async_trait]
impl Hooks for RequisitionLine {
    async fn before_write(
        &self,
        op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        keep_posted(op, body, &REQUISITION_LINE_POSTED);
        Ok(())
    }

    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &Value) -> Result<()> {
        if op == Op::Update {
            return Ok(());
        }
        let client = caller.client_id;
        let emp = int(row, "REQP_EMP_ID")?;
        let doc = int(row, "REQP_REQU_ID")?;
        let id = int(row, "REQP_ID")?;
        let (location, quote): (Option<i64>, Option<i64>) = sqlx::query_as(
            "SELECT requ_loca_id, requ_orca_id FROM stock.requisicao WHERE client_id = $1 AND requ_emp_id = $2 AND requ_id = $3",
        )
        .bind(client)
        .bind(emp)
        .bind(doc)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or_else(|| Error::NotFound("Requisição não encontrada.".into()))?;
        let product = int(row, "REQP_PROD_ID")?;
        let qty = dec(row, "REQP_QTDE")?;
        let origin_id = format!("{doc}/{id}");
        if op == Op::Delete {
            return undo_requisition_exit(
                tx,
                client,
                emp,
                product,
                qty,
                opt_dec(row, "REQP_CUSTO_UNIT")?,
                location,
                origin_id,
            )
            .await;
        }
        let mut m = Movement::new(
            emp,
            product,
            ledger::Kind::Exit,
            qty,
            "REQUISICAO",
            origin_id,
        );
        m.location = location;
        // A quote's requisition was issued in orders: it is recorded as it came.
        m.allow_negative = quote.is_some();
        let (_, cost) = ledger::record(tx, client, &m).await?;
        sqlx::query("UPDATE stock.requisicaoproduto SET reqp_custo_unit = $4 WHERE client_id = $1 AND reqp_emp_id = $2 AND reqp_id = $3")
            .bind(client)
            .bind(emp)
            .bind(id)
            .bind(cost)
            .execute(&mut **tx)
            .await?;
        Ok(())
    }
}
