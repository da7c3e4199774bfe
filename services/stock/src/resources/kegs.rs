//! Beer-keg tracking:
//!
//! - `barril` (screen /barris): the kegs, with number, capacity in litres,
//!   situation, and a status kept by the movements: `D` available, `C` with a
//!   customer (`BAR_CLI_ID`).
//! - `movimentacaobarril`: a keg leaves to a customer (`S`) or comes back (`R`). A
//!   keg already out cannot leave again, one that is in cannot come back. Deleting
//!   a keg's last movement puts the keg back as it was; an earlier one is refused.
//! - `carregamentobarril` (screen /carregamentobarris): a vehicle takes kegs to a
//!   customer on a date, with a photo or document uploaded by
//!   `PUT /carregamentobarril/uploads/{CARB_ID}/{emp}`; its lines
//!   `carregamentobarrilp` (screen /carregamentobarrisp) name the keg, the product
//!   and the litres. Each line writes the keg's `S` movement to the loading's
//!   customer; deleting the line (or the loading) deletes it and puts the keg back.
//!
//! Loadings do not move product stock: the beer leaves stock with the order that
//! invoices it.

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::call::{Ctx, Date, Operation, Row, Upload};
use erp_platform::resource::{query, record, DbType, Field, Kind, Op, RecordHooks, Resource};
use erp_platform::{Error, Result};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map};
use sqlx::types::chrono::NaiveDate;

use super::{NoBody, RecordId};

const SCHEMA: &str = crate::SCHEMA;

pub const KEG_STATUS: [(&str, &str); 2] = [("D", "Disponível"), ("C", "Com Cliente")];
pub const KEG_MOVES: [(&str, &str); 2] = [("S", "Saída"), ("R", "Retorno")];

pub fn all() -> Vec<Resource> {
    vec![
        barril(),
        carregamentobarril(),
        carregamentobarrilp(),
        movimentacaobarril(),
    ]
}

pub fn barril() -> Resource {
    Resource::new("barril", "Barris", SCHEMA, "barril", "barris")
        .screen("/barris")
        .key(&["BAR_ID"])
        .company("BAR_EMP_ID")
        .label("BAR_NUMERO")
        .order("BAR_NUMERO")
        .record_hooks(Keg)
        .sample(json!({"BAR_NUMERO": "B-0001", "BAR_CAPACIDADE": "50", "BAR_OBS": "Inox"}))
        .fields(vec![
            Field::id("BAR_ID", "Código"),
            Field::int("BAR_EMP_ID", "Empresa"),
            Field::text("BAR_NUMERO", "Número")
                .required()
                .len(30)
                .searchable()
                .list()
                .width(3),
            Field::decimal("BAR_CAPACIDADE", "Capacidade (litros)")
                .scale(2)
                .required()
                .min("0.01")
                .list()
                .width(3),
            Field::options("BAR_STATUS", "Status", DbType::Text, &KEG_STATUS)
                .read_only()
                .list()
                .width(3),
            Field::reference(
                "BAR_CLI_ID",
                "Cliente Atual",
                "clientes",
                Kind::Autocomplete,
            )
            .read_only()
            .list(),
            Field::situation("BAR_SITUACAO"),
            Field::textarea("BAR_OBS", "Observação").len(500),
        ])
}

/// A keg's row as its hook reads it.
#[derive(Deserialize)]
pub struct KegRow {
    #[serde(rename = "BAR_STATUS")]
    status: Option<String>,
}

struct Keg;

#[async_trait]
impl RecordHooks for Keg {
    type Body = NoBody;
    type Row = KegRow;

    async fn after_write(
        &self,
        _tx: &mut Tx,
        op: Op,
        _caller: &Caller,
        row: &KegRow,
    ) -> Result<()> {
        if op == Op::Delete && row.status.as_deref() == Some("C") {
            return Err(Error::Conflict(
                "O barril está com um cliente; registre o retorno antes de excluí-lo.".into(),
            ));
        }
        Ok(())
    }
}

pub fn movimentacaobarril() -> Resource {
    Resource::new("movimentacaobarril", "Movimentação de Barris", SCHEMA, "movimentacaobarril", "barris")
        .key(&["MOVB_ID"])
        .company("MOVB_EMP_ID")
        .label("MOVB_OBS")
        .order("MOVB_DATA DESC, MOVB_ID DESC")
        .create_only(&KEG_MOVE_POSTED)
        .record_hooks(KegMove)
        .sample(json!({"MOVB_BAR_ID": 1, "MOVB_TIPO": "R", "MOVB_DATA": "2026-11-24", "MOVB_OBS": "Retorno vazio"}))
        .fields(vec![
            Field::id("MOVB_ID", "Código"),
            Field::int("MOVB_EMP_ID", "Empresa"),
            Field::reference("MOVB_BAR_ID", "Barril", "barril", Kind::Combobox).required().list().width(3),
            Field::options("MOVB_TIPO", "Tipo", DbType::Text, &KEG_MOVES).required().list().width(3),
            Field::reference("MOVB_CLI_ID", "Cliente", "clientes", Kind::Autocomplete).list(),
            Field::date("MOVB_DATA", "Data").required().list(),
            Field::int("MOVB_CARP_ID", "Item do Carregamento").read_only(),
            Field::textarea("MOVB_OBS", "Observação").len(500).searchable().list(),
            Field::int("MOVB_USR_ID", "Usuário").read_only(),
        ])
}

/// A keg's status and the customer that has it.
#[derive(sqlx::FromRow)]
struct KegState {
    status: String,
    holder: Option<i64>,
}

/// The keg's status and customer, locked for this transaction.
async fn keg_state(tx: &mut Tx, client: i64, emp: i64, keg: i64) -> Result<KegState> {
    sqlx::query_as(
        "SELECT bar_status::text AS status, bar_cli_id AS holder FROM stock.barril WHERE client_id = $1 AND bar_emp_id = $2 AND bar_id = $3 FOR UPDATE",
    )
    .bind(client)
    .bind(emp)
    .bind(keg)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| Error::NotFound("Barril não encontrado.".into()))
}

async fn set_keg(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    keg: i64,
    status: &str,
    customer: Option<i64>,
) -> Result<()> {
    sqlx::query("UPDATE stock.barril SET bar_status = $4, bar_cli_id = $5 WHERE client_id = $1 AND bar_emp_id = $2 AND bar_id = $3")
        .bind(client)
        .bind(emp)
        .bind(keg)
        .bind(status)
        .bind(customer)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Applies a new movement to its keg; returns the customer the movement is about.
async fn move_keg(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    keg: i64,
    kind: &str,
    customer: Option<i64>,
) -> Result<Option<i64>> {
    let KegState { status, holder } = keg_state(tx, client, emp, keg).await?;
    match kind {
        "S" => {
            let customer = customer.ok_or_else(|| Error::validation("Cliente é obrigatório!"))?;
            if status == "C" {
                return Err(Error::Conflict("O barril já está com um cliente.".into()));
            }
            set_keg(tx, client, emp, keg, "C", Some(customer)).await?;
            Ok(Some(customer))
        }
        _ => {
            if status != "C" {
                return Err(Error::Conflict(
                    "O barril não está com nenhum cliente.".into(),
                ));
            }
            set_keg(tx, client, emp, keg, "D", None).await?;
            Ok(holder)
        }
    }
}

/// Undoes a deleted movement (already removed from the table): only a keg's last
/// movement can be undone.
async fn undo_keg_move(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    id: i64,
    keg: i64,
    kind: &str,
    customer: Option<i64>,
) -> Result<()> {
    let later: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM stock.movimentacaobarril WHERE client_id = $1 AND movb_emp_id = $2 AND movb_bar_id = $3 AND movb_id > $4",
    )
    .bind(client)
    .bind(emp)
    .bind(keg)
    .bind(id)
    .fetch_one(&mut **tx)
    .await?;
    if later > 0 {
        return Err(Error::Conflict(
            "O barril foi movimentado depois; exclua antes os movimentos mais recentes.".into(),
        ));
    }
    keg_state(tx, client, emp, keg).await?;
    if kind == "S" {
        set_keg(tx, client, emp, keg, "D", None).await
    } else {
        set_keg(tx, client, emp, keg, "C", customer).await
    }
}

/// Keg, type and customer made the keg's state: delete and move again.
const KEG_MOVE_POSTED: [&str; 3] = ["MOVB_BAR_ID", "MOVB_TIPO", "MOVB_CLI_ID"];

/// A keg movement's row as its hook reads it.
#[derive(Deserialize)]
pub struct KegMoveRow {
    #[serde(rename = "MOVB_EMP_ID")]
    emp: i64,
    #[serde(rename = "MOVB_ID")]
    id: i64,
    #[serde(rename = "MOVB_BAR_ID")]
    keg: i64,
    /// `S` (leaves to a customer) or `R` (comes back).
    #[serde(rename = "MOVB_TIPO")]
    kind: String,
    #[serde(rename = "MOVB_CLI_ID")]
    customer: Option<i64>,
    /// The loading line that wrote it, if one did.
    #[serde(rename = "MOVB_CARP_ID")]
    loading_line: Option<i64>,
}

struct KegMove;

#[async_trait]
impl RecordHooks for KegMove {
    type Body = NoBody;
    type Row = KegMoveRow;

    async fn after_write(
        &self,
        tx: &mut Tx,
        op: Op,
        caller: &Caller,
        row: &KegMoveRow,
    ) -> Result<()> {
        let client = caller.client_id;
        let (emp, id, keg) = (row.emp, row.id, row.keg);
        match op {
            Op::Update => Ok(()),
            Op::Create => {
                let customer = move_keg(tx, client, emp, keg, &row.kind, row.customer).await?;
                sqlx::query("UPDATE stock.movimentacaobarril SET movb_cli_id = $4, movb_usr_id = $5 WHERE client_id = $1 AND movb_emp_id = $2 AND movb_id = $3")
                    .bind(client)
                    .bind(emp)
                    .bind(id)
                    .bind(customer)
                    .bind(caller.user_id)
                    .execute(&mut **tx)
                    .await?;
                Ok(())
            }
            Op::Delete => {
                if row.loading_line.is_some() {
                    return Err(Error::Conflict(
                        "Movimento gerado por um carregamento; exclua o item do carregamento."
                            .into(),
                    ));
                }
                undo_keg_move(tx, client, emp, id, keg, &row.kind, row.customer).await
            }
        }
    }
}

pub fn carregamentobarril() -> Resource {
    Resource::new("carregamentobarril", "Carregamento de Barris", SCHEMA, "carregamentobarril", "carregamentobarris")
        .screen("/carregamentobarris")
        .key(&["CARB_ID"])
        .company("CARB_EMP_ID")
        .label("CARB_OBS")
        .order("CARB_DATA DESC, CARB_ID DESC")
        .create_only(&["CARB_CLI_ID"])
        .record_hooks(Loading)
        .sample(json!({"CARB_CLI_ID": 1, "CARB_VEICULO": "ABC1D23", "CARB_DATA": "2026-11-23", "CARB_OBS": "Entrega do bar da praça"}))
        .upload_call(
            "PUT",
            "/carregamentobarril/uploads/{CARB_ID}/{emp}",
            "upload",
            &["jpg", "jpeg", "png", "pdf"],
            "Foto ou documento do carregamento",
            LoadingUpload,
        )
        .fields(vec![
            Field::id("CARB_ID", "Código"),
            Field::int("CARB_EMP_ID", "Empresa"),
            Field::reference("CARB_CLI_ID", "Cliente", "clientes", Kind::Autocomplete).required().list().width(6),
            Field::reference("CARB_VEIC_ID", "Veículo", "veiculo", Kind::Autocomplete).width(3),
            Field::text("CARB_VEICULO", "Placa").len(10).list().width(3),
            Field::date("CARB_DATA", "Data").required().list(),
            Field::textarea("CARB_OBS", "Observação").len(500).searchable().list(),
            Field::upload("CARB_ANEXO", "Foto / Documento", &["jpg", "jpeg", "png", "pdf"]),
            Field::text("CARB_ANEXO_NOME", "Nome do Arquivo").read_only(),
            Field::int("CARB_USR_ID", "Usuário").read_only(),
        ])
}

/// A loading's row as its hook reads it.
#[derive(Deserialize)]
pub struct LoadingRow {
    #[serde(rename = "CARB_EMP_ID")]
    emp: i64,
    #[serde(rename = "CARB_ID")]
    id: i64,
}

/// The kegs of the lines went to the loading's customer (`CARB_CLI_ID` is kept).
struct Loading;

#[async_trait]
impl RecordHooks for Loading {
    type Body = NoBody;
    type Row = LoadingRow;

    async fn after_write(
        &self,
        tx: &mut Tx,
        op: Op,
        caller: &Caller,
        row: &LoadingRow,
    ) -> Result<()> {
        let client = caller.client_id;
        let (emp, id) = (row.emp, row.id);
        match op {
            Op::Create => {
                sqlx::query("UPDATE stock.carregamentobarril SET carb_usr_id = $4 WHERE client_id = $1 AND carb_emp_id = $2 AND carb_id = $3")
                    .bind(client)
                    .bind(emp)
                    .bind(id)
                    .bind(caller.user_id)
                    .execute(&mut **tx)
                    .await?;
                Ok(())
            }
            Op::Update => Ok(()),
            Op::Delete => {
                let lines: Vec<i64> = sqlx::query_scalar(
                    "DELETE FROM stock.carregamentobarrilp WHERE client_id = $1 AND carp_emp_id = $2 AND carp_carb_id = $3
                     RETURNING carp_id",
                )
                .bind(client)
                .bind(emp)
                .bind(id)
                .fetch_all(&mut **tx)
                .await?;
                for line in lines.into_iter().rev() {
                    undo_line(tx, client, emp, line).await?;
                }
                Ok(())
            }
        }
    }
}

/// A keg movement a loading line's undo deleted.
#[derive(sqlx::FromRow)]
struct DeletedKegMove {
    id: i64,
    keg: i64,
    kind: String,
    customer: Option<i64>,
}

/// Deletes the keg movement a loading line wrote and puts the keg back.
async fn undo_line(tx: &mut Tx, client: i64, emp: i64, line: i64) -> Result<()> {
    let moved: Option<DeletedKegMove> = sqlx::query_as(
        "DELETE FROM stock.movimentacaobarril WHERE client_id = $1 AND movb_emp_id = $2 AND movb_carp_id = $3
         RETURNING movb_id AS id, movb_bar_id AS keg, movb_tipo::text AS kind, movb_cli_id AS customer",
    )
    .bind(client)
    .bind(emp)
    .bind(line)
    .fetch_optional(&mut **tx)
    .await?;
    match moved {
        Some(m) => undo_keg_move(tx, client, emp, m.id, m.keg, &m.kind, m.customer).await,
        None => Ok(()),
    }
}

/// `PUT /carregamentobarril/uploads/{CARB_ID}/{emp}`: the loading and the file.
#[derive(Deserialize, JsonSchema)]
pub struct LoadingUploadIn {
    #[serde(rename = "CARB_ID")]
    #[schemars(extend("x-invalid" = "Carregamento inválido."))]
    pub id: RecordId,
    #[serde(rename = "arquivo")]
    #[schemars(extend("x-missing" = "Arquivo é obrigatório!", "x-invalid" = "Arquivo é obrigatório!"))]
    pub file: Upload,
}

/// `PUT /carregamentobarril/uploads/{CARB_ID}/{emp}` (multipart `file`): keeps the
/// stored file name on the loading; answers the loading.
struct LoadingUpload;

#[async_trait]
impl Operation for LoadingUpload {
    type In = LoadingUploadIn;
    type Out = Row;
    async fn run(&self, cx: &mut Ctx<'_>, i: LoadingUploadIn) -> Result<Row> {
        let emp = cx.emp()?;
        let id = i.id.get();
        if i.file.nome.trim().is_empty() {
            return Err(Error::validation("Arquivo é obrigatório!"));
        }
        let done = sqlx::query(
            "UPDATE stock.carregamentobarril SET carb_anexo = $4, carb_anexo_nome = $5 WHERE client_id = $1 AND carb_emp_id = $2 AND carb_id = $3",
        )
        .bind(cx.client())
        .bind(emp)
        .bind(id)
        .bind(&i.file.nome)
        .bind(&i.file.original)
        .execute(&mut **cx.tx)
        .await?
        .rows_affected();
        if done == 0 {
            return Err(Error::NotFound("Carregamento não encontrado.".into()));
        }
        Ok(Row(query::get(
            cx.tx,
            cx.res,
            cx.caller,
            Some(emp),
            &[id.to_string()],
        )
        .await?))
    }
}

pub fn carregamentobarrilp() -> Resource {
    Resource::new("carregamentobarrilp", "Barris do Carregamento", SCHEMA, "carregamentobarrilp", "carregamentobarris")
        .screen("/carregamentobarrisp")
        .key(&["CARP_ID"])
        .company("CARP_EMP_ID")
        .label("CARP_OBS")
        .order("CARP_ID")
        .list_path("/carregamentobarrilp/{CARP_CARB_ID}/{emp}")
        .create_only(&["CARP_CARB_ID", "CARP_BAR_ID"])
        .record_hooks(LoadingLine)
        .sample(json!({"CARP_CARB_ID": 1, "CARP_BAR_ID": 1, "CARP_PROD_ID": 1, "CARP_QTDE": "50", "CARP_OBS": "Chope pilsen"}))
        .fields(vec![
            Field::id("CARP_ID", "Código"),
            Field::int("CARP_EMP_ID", "Empresa"),
            Field::reference("CARP_CARB_ID", "Carregamento", "carregamentobarril", Kind::Combobox).required(),
            Field::reference("CARP_BAR_ID", "Barril", "barril", Kind::Combobox).required().list().width(3),
            Field::reference("CARP_PROD_ID", "Produto", "estoqueprodutos", Kind::Autocomplete).list().width(6),
            Field::decimal("CARP_QTDE", "Quantidade (litros)").scale(4).min("0.0001").default(json!("1")).list().width(3),
            Field::text("CARP_OBS", "Observação").len(200).searchable().list(),
        ])
}

/// A loading line's row as its hook reads it.
#[derive(Deserialize)]
pub struct LoadingLineRow {
    #[serde(rename = "CARP_EMP_ID")]
    emp: i64,
    #[serde(rename = "CARP_ID")]
    id: i64,
    #[serde(rename = "CARP_CARB_ID")]
    loading: i64,
    #[serde(rename = "CARP_BAR_ID")]
    keg: i64,
}

/// The loading a line belongs to: its customer and date.
#[derive(sqlx::FromRow)]
struct LoadingHead {
    customer: i64,
    day: NaiveDate,
}

/// The keg movement a loading line writes, as a body of `movimentacaobarril`.
#[derive(Serialize)]
struct KegLeaves {
    #[serde(rename = "MOVB_BAR_ID")]
    keg: i64,
    #[serde(rename = "MOVB_TIPO")]
    kind: &'static str,
    #[serde(rename = "MOVB_CLI_ID")]
    customer: i64,
    #[serde(rename = "MOVB_DATA")]
    day: Date,
    #[serde(rename = "MOVB_OBS")]
    note: String,
}

/// The movement the engine wrote for a loading line.
#[derive(Deserialize)]
struct Moved {
    #[serde(rename = "MOVB_ID")]
    id: i64,
}

struct LoadingLine;

#[async_trait]
impl RecordHooks for LoadingLine {
    type Body = NoBody;
    type Row = LoadingLineRow;

    async fn after_write(
        &self,
        tx: &mut Tx,
        op: Op,
        caller: &Caller,
        row: &LoadingLineRow,
    ) -> Result<()> {
        let client = caller.client_id;
        let (emp, id) = (row.emp, row.id);
        match op {
            Op::Update => Ok(()),
            Op::Delete => undo_line(tx, client, emp, id).await,
            Op::Create => {
                let loading = row.loading;
                let head: LoadingHead = sqlx::query_as(
                    "SELECT carb_cli_id AS customer, carb_data AS day FROM stock.carregamentobarril
                     WHERE client_id = $1 AND carb_emp_id = $2 AND carb_id = $3",
                )
                .bind(client)
                .bind(emp)
                .bind(loading)
                .fetch_optional(&mut **tx)
                .await?
                .ok_or_else(|| Error::NotFound("Carregamento não encontrado.".into()))?;
                let leaves = KegLeaves {
                    keg: row.keg,
                    kind: "S",
                    customer: head.customer,
                    day: Date(head.day),
                    note: format!("Carregamento {loading}"),
                };
                let mut body = Map::new();
                record::into_map(&leaves, &mut body)?;
                let moved: Moved = record::from_row(
                    &query::create(tx, &movimentacaobarril(), caller, Some(emp), &body).await?,
                )?;
                sqlx::query("UPDATE stock.movimentacaobarril SET movb_carp_id = $4 WHERE client_id = $1 AND movb_emp_id = $2 AND movb_id = $3")
                    .bind(client)
                    .bind(emp)
                    .bind(moved.id)
                    .bind(id)
                    .execute(&mut **tx)
                    .await?;
                Ok(())
            }
        }
    }
}
