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

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::{
    query, uploaded_file, ActionHandler, Call, DbType, Field, Hooks, Kind, Op, Resource,
};
use erp_platform::{Error, Result};
use serde_json::{json, Map, Value};

use super::posted::keep_posted;
use erp_platform::resource::params::{company, int, record_id as id_param};

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
        .hooks(Arc::new(Keg))
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

struct Keg;

#[async_trait]
impl Hooks for Keg {
    async fn after_write(&self, _tx: &mut Tx, op: Op, _caller: &Caller, row: &Value) -> Result<()> {
        if op == Op::Delete && row["BAR_STATUS"].as_str() == Some("C") {
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
        .hooks(Arc::new(KegMove))
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

/// The keg's status and customer, locked for this transaction.
async fn keg_state(tx: &mut Tx, client: i64, emp: i64, keg: i64) -> Result<(String, Option<i64>)> {
    sqlx::query_as(
        "SELECT bar_status::text, bar_cli_id FROM stock.barril WHERE client_id = $1 AND bar_emp_id = $2 AND bar_id = $3 FOR UPDATE",
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
    let (status, holder) = keg_state(tx, client, emp, keg).await?;
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

struct KegMove;

#[async_trait]
impl Hooks for KegMove {
    async fn before_write(
        &self,
        op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        // Keg, type and customer made the keg's state: delete and move again.
        keep_posted(op, body, &["MOVB_BAR_ID", "MOVB_TIPO", "MOVB_CLI_ID"]);
        Ok(())
    }

    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &Value) -> Result<()> {
        let client = caller.client_id;
        let emp = int(row, "MOVB_EMP_ID")?;
        let id = int(row, "MOVB_ID")?;
        let keg = int(row, "MOVB_BAR_ID")?;
        let kind = row["MOVB_TIPO"].as_str().unwrap_or_default().to_string();
        match op {
            Op::Update => Ok(()),
            Op::Create => {
                let customer =
                    move_keg(tx, client, emp, keg, &kind, row["MOVB_CLI_ID"].as_i64()).await?;
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
                if !row["MOVB_CARP_ID"].is_null() {
                    return Err(Error::Conflict(
                        "Movimento gerado por um carregamento; exclua o item do carregamento."
                            .into(),
                    ));
                }
                undo_keg_move(tx, client, emp, id, keg, &kind, row["MOVB_CLI_ID"].as_i64()).await
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
        .hooks(Arc::new(Loading))
        .sample(json!({"CARB_CLI_ID": 1, "CARB_VEICULO": "ABC1D23", "CARB_DATA": "2026-11-23", "CARB_OBS": "Entrega do bar da praça"}))
        .upload_action(
            "PUT",
            "/carregamentobarril/uploads/{CARB_ID}/{emp}",
            "upload",
            &["jpg", "jpeg", "png", "pdf"],
            "Foto ou documento do carregamento",
            Arc::new(LoadingUpload),
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

struct Loading;

#[async_trait]
impl Hooks for Loading {
    async fn before_write(
        &self,
        op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        // The kegs of the lines went to this customer.
        keep_posted(op, body, &["CARB_CLI_ID"]);
        Ok(())
    }

    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &Value) -> Result<()> {
        let client = caller.client_id;
        let emp = int(row, "CARB_EMP_ID")?;
        let id = int(row, "CARB_ID")?;
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

/// Deletes the keg movement a loading line wrote and puts the keg back.
async fn undo_line(tx: &mut Tx, client: i64, emp: i64, line: i64) -> Result<()> {
    let moved: Option<(i64, i64, String, Option<i64>)> = sqlx::query_as(
        "DELETE FROM stock.movimentacaobarril WHERE client_id = $1 AND movb_emp_id = $2 AND movb_carp_id = $3
         RETURNING movb_id, movb_bar_id, movb_tipo::text, movb_cli_id",
    )
    .bind(client)
    .bind(emp)
    .bind(line)
    .fetch_optional(&mut **tx)
    .await?;
    match moved {
        Some((id, keg, kind, customer)) => {
            undo_keg_move(tx, client, emp, id, keg, &kind, customer).await
        }
        None => Ok(()),
    }
}

/// `PUT /carregamentobarril/uploads/{CARB_ID}/{emp}` (multipart `file`): keeps the
/// stored file name on the loading; answers the loading.
struct LoadingUpload;

#[async_trait]
impl ActionHandler for LoadingUpload {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, emp, params, body } = call;
        let emp = company(emp)?;
        let id = id_param(params, "CARB_ID", "Carregamento")?;
        let (stored, original) = uploaded_file(&body)?;
        let done = sqlx::query(
            "UPDATE stock.carregamentobarril SET carb_anexo = $4, carb_anexo_nome = $5 WHERE client_id = $1 AND carb_emp_id = $2 AND carb_id = $3",
        )
        .bind(caller.client_id)
        .bind(emp)
        .bind(id)
        .bind(stored)
        .bind(original)
        .execute(&mut **tx)
        .await?
        .rows_affected();
        if done == 0 {
            return Err(Error::NotFound("Carregamento não encontrado.".into()));
        }
        query::get(tx, res, caller, Some(emp), &[id.to_string()]).await
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
        .hooks(Arc::new(LoadingLine))
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

struct LoadingLine;

#[async_trait]
impl Hooks for LoadingLine {
    async fn before_write(
        &self,
        op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        keep_posted(op, body, &["CARP_CARB_ID", "CARP_BAR_ID"]);
        Ok(())
    }

    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &Value) -> Result<()> {
        let client = caller.client_id;
        let emp = int(row, "CARP_EMP_ID")?;
        let id = int(row, "CARP_ID")?;
        match op {
            Op::Update => Ok(()),
            Op::Delete => undo_line(tx, client, emp, id).await,
            Op::Create => {
                let loading = int(row, "CARP_CARB_ID")?;
                let (customer, date): (i64, String) = sqlx::query_as(
                    "SELECT carb_cli_id, to_char(carb_data, 'YYYY-MM-DD') FROM stock.carregamentobarril
                     WHERE client_id = $1 AND carb_emp_id = $2 AND carb_id = $3",
                )
                .bind(client)
                .bind(emp)
                .bind(loading)
                .fetch_optional(&mut **tx)
                .await?
                .ok_or_else(|| Error::NotFound("Carregamento não encontrado.".into()))?;
                let body = json!({
                    "MOVB_BAR_ID": int(row, "CARP_BAR_ID")?,
                    "MOVB_TIPO": "S",
                    "MOVB_CLI_ID": customer,
                    "MOVB_DATA": date,
                    "MOVB_OBS": format!("Carregamento {loading}"),
                });
                let body = body.as_object().cloned().unwrap_or_default();
                let moved =
                    query::create(tx, &movimentacaobarril(), caller, Some(emp), &body).await?;
                sqlx::query("UPDATE stock.movimentacaobarril SET movb_carp_id = $4 WHERE client_id = $1 AND movb_emp_id = $2 AND movb_id = $3")
                    .bind(client)
                    .bind(emp)
                    .bind(int(&moved, "MOVB_ID")?)
                    .bind(id)
                    .execute(&mut **tx)
                    .await?;
                Ok(())
            }
        }
    }
}
