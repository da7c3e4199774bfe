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

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::call::{Ctx, Dec, Operation, Row};
use erp_platform::resource::{
    query, ActionPerm, DbType, Document, Field, Kind, Lines, Op, RecordHooks, Resource, Role,
};
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use super::queries::ProductIn;
use super::NoBody;
use super::RecordId;
use crate::ledger::{self, Movement};

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
        .create_only(&CORRECTION_POSTED)
        .record_hooks(Correction)
        .sample(json!({"CORE_PROD_ID": 1, "CORE_QTDE_CONTADA": "12", "CORE_DATA": "2026-11-23", "CORE_OBS": "Inventário mensal"}))
        .call(
            "GET",
            "/produtosalocados/{PROD_ID}/{emp}",
            "alocados",
            ActionPerm::View,
            "Quantidade alocada e disponível do produto",
            Allocated,
        )
        .call(
            "GET",
            "/produtosalocados/{PROD_ID}/{emp}/{USR_ID}",
            "alocadosusuario",
            ActionPerm::View,
            "Quantidade alocada e disponível do produto",
            Allocated,
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

/// A correction's row as its hook reads it.
#[derive(Deserialize)]
struct CorrectionRow {
    #[serde(rename = "CORE_EMP_ID")]
    emp: i64,
    #[serde(rename = "CORE_ID")]
    id: i64,
    #[serde(rename = "CORE_PROD_ID")]
    product: i64,
    #[serde(rename = "CORE_LOCA_ID")]
    location: Option<i64>,
    #[serde(rename = "CORE_QTDE_CONTADA")]
    counted: Dec,
    #[serde(rename = "CORE_CUSTO_UNIT")]
    cost: Option<Dec>,
    /// What posting wrote: none when the count matched the balance.
    #[serde(rename = "CORE_TIPO")]
    kind: Option<String>,
    #[serde(rename = "CORE_DIFERENCA")]
    diff: Option<Dec>,
}

struct Correction;

#[async_trait]
impl RecordHooks for Correction {
    type Body = NoBody;
    type Row = CorrectionRow;

    async fn after_write(
        &self,
        tx: &mut Tx,
        op: Op,
        caller: &Caller,
        row: &CorrectionRow,
    ) -> Result<()> {
        let client = caller.client_id;
        let (emp, id, product, location) = (row.emp, row.id, row.product, row.location);
        match op {
            Op::Update => Ok(()),
            Op::Create => {
                let counted = row.counted.get();
                // Lock the balance before reading it: the difference is against what
                // is there when the count is posted.
                let company_balance = ledger::lock(tx, client, emp, product).await?;
                let before = match location {
                    Some(l) => ledger::balance_at(tx, client, emp, product, l).await?,
                    None => company_balance.qty,
                };
                let diff = counted - before;
                let mut kind = None;
                let mut cost = row.cost.map(Dec::get);
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
                let Some(kind) = row.kind.as_deref() else {
                    return Ok(()); // the count matched: nothing was posted
                };
                let kind = ledger::Kind::parse(kind)?;
                let diff = row
                    .diff
                    .ok_or_else(|| Error::internal("CORE_DIFERENCA is not a decimal"))?;
                let mut m = Movement::new(
                    emp,
                    product,
                    kind.opposite(),
                    diff.get().abs(),
                    "CORRECAO",
                    id.to_string(),
                );
                m.location = location;
                m.unit_cost = row.cost.map(Dec::get).unwrap_or_default();
                m.reversal = true;
                ledger::record(tx, client, &m).await?;
                Ok(())
            }
        }
    }
}

/// What `GET /produtosalocados` answers.
#[derive(Serialize, JsonSchema)]
pub struct AllocatedOf {
    #[serde(rename = "PROD_ID")]
    pub product: i64,
    #[serde(rename = "EMP_ID")]
    pub emp: i64,
    /// Always 0 (see [`Allocated`]).
    #[serde(rename = "QTD_ALOCADO")]
    pub allocated: Dec,
    /// The same, by the other legacy name.
    #[serde(rename = "QTD_ALOCADOS")]
    pub allocated_too: Dec,
    #[serde(rename = "SALDO_FISICO")]
    pub physical: Dec,
    #[serde(rename = "SALDO_DISPONIVEL")]
    pub available: Dec,
}

/// `GET /produtosalocados/{PROD_ID}/{emp}[/{USR_ID}]`: quantity allocated and
/// available (the user is the legacy screen's; nothing is allocated per user).
/// Stock knows no open document that reserves a product: orders, service orders and
/// quotes reach stock only as facts (invoiced, parts taken, requisition created),
/// which are exits already, and requisitions and transfers post when written. So
/// the allocated quantity is 0 and the available quantity is the balance; the
/// fields are kept for the legacy screens that show them.
pub struct Allocated;

#[async_trait]
impl Operation for Allocated {
    type In = ProductIn;
    type Out = AllocatedOf;
    async fn run(&self, cx: &mut Ctx<'_>, i: ProductIn) -> Result<AllocatedOf> {
        let emp = cx.emp()?;
        let product = i.product.get();
        let b = ledger::balance(cx.tx, cx.client(), emp, product).await?;
        Ok(AllocatedOf {
            product,
            emp,
            allocated: Dec(Decimal::ZERO),
            allocated_too: Dec(Decimal::ZERO),
            physical: Dec(b.qty),
            available: Dec(b.qty),
        })
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
        .create_only(&TRANSFER_POSTED)
        .record_hooks(Transfer)
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

/// The lines already moved stock between these two locations.
const TRANSFER_POSTED: [&str; 2] = ["TRLO_LOCA_ORIGEM", "TRLO_LOCA_DESTINO"];

/// A transfer's row as its hook reads it.
#[derive(Deserialize)]
struct TransferRow {
    #[serde(rename = "TRLO_EMP_ID")]
    emp: i64,
    #[serde(rename = "TRLO_ID")]
    id: i64,
    #[serde(rename = "TRLO_LOCA_ORIGEM")]
    from: i64,
    #[serde(rename = "TRLO_LOCA_DESTINO")]
    to: i64,
}

/// A line a transfer's delete took with it.
#[derive(sqlx::FromRow)]
struct DeletedTransferLine {
    line: i64,
    product: i64,
    qty: Decimal,
}

/// What the transfer's hook reads of a body: its two locations.
#[derive(Deserialize, Serialize)]
pub struct TransferBody {
    #[serde(rename = "TRLO_LOCA_ORIGEM", default, skip_serializing)]
    from: Option<i64>,
    #[serde(rename = "TRLO_LOCA_DESTINO", default, skip_serializing)]
    to: Option<i64>,
}

struct Transfer;

#[async_trait]
impl RecordHooks for Transfer {
    type Body = TransferBody;
    type Row = TransferRow;

    async fn before_write(&self, op: Op, _caller: &Caller, body: &mut TransferBody) -> Result<()> {
        if op == Op::Create && body.from.is_some() && body.from == body.to {
            return Err(Error::validation(
                "O local de destino deve ser diferente do local de origem.",
            ));
        }
        Ok(())
    }

    async fn after_write(
        &self,
        tx: &mut Tx,
        op: Op,
        caller: &Caller,
        row: &TransferRow,
    ) -> Result<()> {
        let (emp, id) = (row.emp, row.id);
        match op {
            Op::Create | Op::Update => Ok(()),
            Op::Delete => {
                // The document goes with its lines: each moves back.
                let lines: Vec<DeletedTransferLine> = sqlx::query_as(
                    "DELETE FROM stock.transferencialocalproduto WHERE client_id = $1 AND trlp_emp_id = $2 AND trlp_trlo_id = $3
                     RETURNING trlp_id AS line, trlp_prod_id AS product, trlp_qtde AS qty",
                )
                .bind(caller.client_id)
                .bind(emp)
                .bind(id)
                .fetch_all(&mut **tx)
                .await?;
                for l in lines {
                    move_between(
                        tx,
                        caller.client_id,
                        emp,
                        l.product,
                        l.qty,
                        row.to,
                        row.from,
                        format!("{id}/{}", l.line),
                    )
                    .await?;
                }
                Ok(())
            }
        }
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
    .create_only(&LINE_POSTED)
    .record_hooks(TransferLine)
    .sample(
        json!({"TRLP_TRLO_ID": 1, "TRLP_PROD_ID": 1, "TRLP_QTDE": "2", "TRLP_OBS": "Gôndola 3"}),
    )
    .call(
        "PUT",
        "/transferencialocalproduto/agrupar/{TRLP_TRLO_ID}/{emp}",
        "agrupar",
        ActionPerm::Update,
        "Agrupa os itens do mesmo produto",
        MergeLines,
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

/// Where a transfer takes stock from and to.
#[derive(sqlx::FromRow)]
struct Route {
    origin: i64,
    destination: i64,
}

async fn transfer_locations(tx: &mut Tx, client: i64, emp: i64, id: i64) -> Result<Route> {
    sqlx::query_as(
        "SELECT trlo_loca_origem AS origin, trlo_loca_destino AS destination FROM stock.transferencialocal
         WHERE client_id = $1 AND trlo_emp_id = $2 AND trlo_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| Error::NotFound("Transferência não encontrada.".into()))
}

/// A transfer line's row as its hook reads it.
#[derive(Deserialize)]
struct TransferLineRow {
    #[serde(rename = "TRLP_EMP_ID")]
    emp: i64,
    #[serde(rename = "TRLP_TRLO_ID")]
    doc: i64,
    #[serde(rename = "TRLP_ID")]
    id: i64,
    #[serde(rename = "TRLP_PROD_ID")]
    product: i64,
    #[serde(rename = "TRLP_QTDE")]
    qty: Dec,
}

struct TransferLine;

#[async_trait]
impl RecordHooks for TransferLine {
    type Body = NoBody;
    type Row = TransferLineRow;

    async fn after_write(
        &self,
        tx: &mut Tx,
        op: Op,
        caller: &Caller,
        row: &TransferLineRow,
    ) -> Result<()> {
        if op == Op::Update {
            return Ok(());
        }
        let route = transfer_locations(tx, caller.client_id, row.emp, row.doc).await?;
        let (from, to) = if op == Op::Delete {
            (route.destination, route.origin)
        } else {
            (route.origin, route.destination)
        };
        move_between(
            tx,
            caller.client_id,
            row.emp,
            row.product,
            row.qty.get(),
            from,
            to,
            format!("{}/{}", row.doc, row.id),
        )
        .await
    }
}

/// `PUT /transferencialocalproduto/agrupar/{TRLP_TRLO_ID}/{emp}`: the transfer.
#[derive(Deserialize, JsonSchema)]
pub struct MergeIn {
    #[serde(rename = "TRLP_TRLO_ID")]
    #[schemars(extend("x-invalid" = "Transferência inválido."))]
    pub transfer: RecordId,
}

/// `PUT /transferencialocalproduto/agrupar/{TRLP_TRLO_ID}/{emp}`: the lines of one
/// product become one (the first), holding their total. The stock already moved, so
/// the ledger is untouched; deleting the merged line moves the total back. Answers
/// the transfer's lines.
struct MergeLines;

#[async_trait]
impl Operation for MergeLines {
    type In = MergeIn;
    type Out = Vec<Row>;
    async fn run(&self, cx: &mut Ctx<'_>, i: MergeIn) -> Result<Vec<Row>> {
        let emp = cx.emp()?;
        let doc = i.transfer.get();
        let client = cx.client();
        transfer_locations(cx.tx, client, emp, doc).await?;
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
        .bind(client)
        .bind(emp)
        .bind(doc)
        .execute(&mut **cx.tx)
        .await?;
        // The engine's list of the transfer's lines (a list filter, as a screen sends it).
        let filter = Map::from_iter([
            ("TRLP_TRLO_ID".to_string(), Value::from(doc)),
            ("LIMIT".to_string(), Value::from(query::MAX_LIMIT)),
        ]);
        let lines = query::list(cx.tx, cx.res, cx.caller, Some(emp), &filter).await?;
        Ok(lines.into_iter().map(Row).collect())
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
    .create_only(&["REQU_LOCA_ID"])
    .record_hooks(Requisition)
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

/// A requisition's row as its hook reads it.
#[derive(Deserialize)]
struct RequisitionRow {
    #[serde(rename = "REQU_EMP_ID")]
    emp: i64,
    #[serde(rename = "REQU_ID")]
    id: i64,
    #[serde(rename = "REQU_LOCA_ID")]
    location: Option<i64>,
}

/// A line a requisition's delete took with it.
#[derive(sqlx::FromRow)]
struct DeletedRequisitionLine {
    line: i64,
    product: i64,
    qty: Decimal,
    cost: Option<Decimal>,
}

struct Requisition;

#[async_trait]
impl RecordHooks for Requisition {
    type Body = NoBody;
    type Row = RequisitionRow;

    async fn after_write(
        &self,
        tx: &mut Tx,
        op: Op,
        caller: &Caller,
        row: &RequisitionRow,
    ) -> Result<()> {
        let (emp, id) = (row.emp, row.id);
        match op {
            Op::Create | Op::Update => {}
            Op::Delete => {
                let lines: Vec<DeletedRequisitionLine> = sqlx::query_as(
                    "DELETE FROM stock.requisicaoproduto WHERE client_id = $1 AND reqp_emp_id = $2 AND reqp_requ_id = $3
                     RETURNING reqp_id AS line, reqp_prod_id AS product, reqp_qtde AS qty, reqp_custo_unit AS cost",
                )
                .bind(caller.client_id)
                .bind(emp)
                .bind(id)
                .fetch_all(&mut **tx)
                .await?;
                for l in lines {
                    undo_requisition_exit(
                        tx,
                        caller.client_id,
                        emp,
                        l.product,
                        l.qty,
                        l.cost,
                        row.location,
                        format!("{id}/{}", l.line),
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
        .create_only(&REQUISITION_LINE_POSTED)
        .record_hooks(RequisitionLine)
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

/// A requisition line's row as its hook reads it.
#[derive(Deserialize)]
struct RequisitionLineRow {
    #[serde(rename = "REQP_EMP_ID")]
    emp: i64,
    #[serde(rename = "REQP_REQU_ID")]
    doc: i64,
    #[serde(rename = "REQP_ID")]
    id: i64,
    #[serde(rename = "REQP_PROD_ID")]
    product: i64,
    #[serde(rename = "REQP_QTDE")]
    qty: Dec,
    #[serde(rename = "REQP_CUSTO_UNIT")]
    cost: Option<Dec>,
}

/// A line's requisition: its location and the quote that asked for it.
#[derive(sqlx::FromRow)]
struct RequisitionHead {
    location: Option<i64>,
    quote: Option<i64>,
}

struct RequisitionLine;

#[async_trait]
impl RecordHooks for RequisitionLine {
    type Body = NoBody;
    type Row = RequisitionLineRow;

    async fn after_write(
        &self,
        tx: &mut Tx,
        op: Op,
        caller: &Caller,
        row: &RequisitionLineRow,
    ) -> Result<()> {
        if op == Op::Update {
            return Ok(());
        }
        let client = caller.client_id;
        let (emp, doc, id) = (row.emp, row.doc, row.id);
        let head: RequisitionHead = sqlx::query_as(
            "SELECT requ_loca_id AS location, requ_orca_id AS quote FROM stock.requisicao
             WHERE client_id = $1 AND requ_emp_id = $2 AND requ_id = $3",
        )
        .bind(client)
        .bind(emp)
        .bind(doc)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or_else(|| Error::NotFound("Requisição não encontrada.".into()))?;
        let qty = row.qty.get();
        let origin_id = format!("{doc}/{id}");
        if op == Op::Delete {
            return undo_requisition_exit(
                tx,
                client,
                emp,
                row.product,
                qty,
                row.cost.map(Dec::get),
                head.location,
                origin_id,
            )
            .await;
        }
        let mut m = Movement::new(
            emp,
            row.product,
            ledger::Kind::Exit,
            qty,
            "REQUISICAO",
            origin_id,
        );
        m.location = head.location;
        // A quote's requisition was issued in orders: it is recorded as it came.
        m.allow_negative = head.quote.is_some();
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
