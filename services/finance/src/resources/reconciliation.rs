//! Bank reconciliation (`conciliacaobancaria`, CONB_*, screen /conciliacaobancaria,
//! by history ascending) and daily movement (`movdiario`, MOVD_*, screen
//! /movimentodiario, by movement date ascending): their registers (read-only:
//! rows come from their calls) and calls. The work is in `crate::reconciliation`
//! and `crate::daily`.
//!
//! Reconciliation: `POST /conciliacaobancaria/ofx/{emp}` (multipart `file`,
//! `BCO_ID`), `POST /conciliacaobancaria/pendentes/{emp}` (`BCO_ID`, `SITUACAO`,
//! `DATA_INI`, `DATA_FIM`), `POST /conciliacaobancaria/conciliar/{emp}` (`CONB_ID`,
//! `MBCA_IDS`), `PUT /conciliacaobancaria/desfazer/{id}/{emp}`,
//! `POST /conciliacaobancaria/lancar/{emp}` (`CONB_ID`, `HISTORICO`, `HISP_ID`),
//! `POST /conciliacaobancaria/saldo/{emp}` (`BCO_ID`).
//! Daily movement: `POST /movdiario/dia/{emp}` (`DATA`, `BCO_ID`),
//! `POST /movdiario/fechar/{emp}` and `POST /movdiario/reabrir/{emp}` (`DATA`).

use std::path::PathBuf;
use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::resource::params::{body_map, company, id_param};
use erp_platform::resource::values::parse_date;
use erp_platform::resource::{
    query, uploaded_file, ActionHandler, ActionPerm, Call, DbType, Field, Kind, Resource,
};
use erp_platform::{Error, Result};
use serde_json::{json, Map, Value};

use super::collection::upload_bytes;
use crate::{daily, reconciliation};
use erp_platform::resource::ReadOnly;

const SCHEMA: &str = crate::SCHEMA;

pub const KINDS: [(&str, &str); 2] = [("C", "Crédito"), ("D", "Débito")];
pub const STATUS: [(&str, &str); 2] = [("P", "Pendente"), ("C", "Conciliado")];

pub fn all(uploads: PathBuf) -> Vec<Resource> {
    vec![conciliacaobancaria(uploads), movdiario()]
}

pub fn conciliacaobancaria(uploads: PathBuf) -> Resource {
    Resource::new(
        "conciliacaobancaria",
        "Conciliação Bancária",
        SCHEMA,
        "conciliacaobancaria",
        "conciliacaobancaria",
    )
    .screen("/conciliacaobancaria")
    .key(&["CONB_ID"])
    .company("CONB_EMP_ID")
    .label("CONB_HISTORICO")
    .order("CONB_HISTORICO")
    .hooks(Arc::new(ReadOnly(
        "Lançamentos do extrato vêm da importação do arquivo OFX.",
    )))
    .fields(vec![
        Field::id("CONB_ID", "Código"),
        Field::int("CONB_EMP_ID", "Empresa"),
        Field::reference("CONB_BCO_ID", "Conta", "banco", Kind::Combobox)
            .list()
            .width(4),
        Field::date("CONB_DTA", "Data").list(),
        Field::options("CONB_TIPO", "Tipo", DbType::Text, &KINDS)
            .list()
            .width(2),
        Field::money("CONB_VALOR", "Valor").list().width(3),
        Field::text("CONB_HISTORICO", "Histórico")
            .searchable()
            .list()
            .width(8),
        Field::text("CONB_DOCUMENTO", "Documento").searchable().width(3),
        Field::text("CONB_FITID", "Identificador no Banco").width(4),
        Field::options("CONB_SITUACAO", "Situação", DbType::Text, &STATUS)
            .list()
            .width(2),
    ])
    .upload_action(
        "POST",
        "/conciliacaobancaria/ofx/{emp}",
        "ofx",
        &["ofx"],
        "Conciliação Bancária: importar extrato OFX da conta (BCO_ID)",
        Arc::new(ImportOfx { uploads }),
    )
    .action(
        "POST",
        "/conciliacaobancaria/pendentes/{emp}",
        "pendentes",
        ActionPerm::View,
        "Conciliação Bancária: lançamentos do extrato com conciliações e sugestões (BCO_ID, SITUACAO, DATA_INI, DATA_FIM)",
        Arc::new(Lines),
    )
    .action(
        "POST",
        "/conciliacaobancaria/conciliar/{emp}",
        "conciliar",
        ActionPerm::Update,
        "Conciliação Bancária: conciliar um lançamento do extrato com movimentos (CONB_ID, MBCA_IDS)",
        Arc::new(Confirm),
    )
    .action(
        "PUT",
        "/conciliacaobancaria/desfazer/{id}/{emp}",
        "desfazer",
        ActionPerm::Update,
        "Conciliação Bancária: desfazer a conciliação de um lançamento do extrato",
        Arc::new(Undo),
    )
    .action(
        "POST",
        "/conciliacaobancaria/lancar/{emp}",
        "lancar",
        ActionPerm::Update,
        "Conciliação Bancária: lançar o movimento de um lançamento do extrato e conciliá-lo (CONB_ID, HISTORICO, HISP_ID)",
        Arc::new(Post),
    )
    .action(
        "POST",
        "/conciliacaobancaria/saldo/{emp}",
        "saldo",
        ActionPerm::View,
        "Conciliação Bancária: saldo do sistema contra o saldo do extrato (BCO_ID)",
        Arc::new(Balance),
    )
}

pub fn movdiario() -> Resource {
    Resource::new(
        "movdiario",
        "Movimento Diário",
        SCHEMA,
        "movdiario",
        "movimentodiario",
    )
    .screen("/movimentodiario")
    .key(&["MOVD_ID"])
    .company("MOVD_EMP_ID")
    .label("MOVD_DTA_MOV")
    .order("MOVD_DTA_MOV")
    .hooks(Arc::new(ReadOnly(
        "Dias são fechados e reabertos pelas ações do Movimento Diário.",
    )))
    .fields(vec![
        Field::id("MOVD_ID", "Código"),
        Field::int("MOVD_EMP_ID", "Empresa"),
        Field::date("MOVD_DTA_MOV", "Data").list(),
        Field::money("MOVD_SALDO_INICIAL", "Saldo Inicial")
            .list()
            .width(3),
        Field::money("MOVD_ENTRADAS", "Entradas").list().width(3),
        Field::money("MOVD_SAIDAS", "Saídas").list().width(3),
        Field::money("MOVD_SALDO_FINAL", "Saldo Final")
            .list()
            .width(3),
        Field::int("MOVD_USR_ID", "Usuário"),
        Field::timestamp("MOVD_DTA_CAD", "Fechado em"),
    ])
    .action(
        "POST",
        "/movdiario/dia/{emp}",
        "dia",
        ActionPerm::View,
        "Movimento Diário: o caixa do dia por forma de pagamento (DATA, BCO_ID)",
        Arc::new(Summary),
    )
    .action(
        "POST",
        "/movdiario/fechar/{emp}",
        "fechar",
        ActionPerm::Update,
        "Movimento Diário: fechar o dia (DATA)",
        Arc::new(Close),
    )
    .action(
        "POST",
        "/movdiario/reabrir/{emp}",
        "reabrir",
        ActionPerm::Update,
        "Movimento Diário: reabrir o último dia fechado (DATA)",
        Arc::new(Reopen),
    )
}

fn id_of(body: &Map<String, Value>, key: &str, label: &str) -> Result<Option<i64>> {
    match body.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
        Some(v) => v
            .as_i64()
            .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
            .map(Some)
            .ok_or_else(|| Error::validation(format!("{label} inválido."))),
    }
}

fn required(body: &Map<String, Value>, key: &str, label: &str) -> Result<i64> {
    id_of(body, key, label)?.ok_or_else(|| Error::validation(format!("{label} é obrigatório!")))
}

fn date_of(body: &Map<String, Value>, key: &str) -> Result<Option<chrono::NaiveDate>> {
    match body.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.trim().is_empty() => Ok(None),
        Some(Value::String(s)) => parse_date(s).map(Some),
        Some(_) => Err(Error::validation("Data inválida")),
    }
}

struct ImportOfx {
    uploads: PathBuf,
}

#[async_trait]
impl ActionHandler for ImportOfx {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp.or_else(|| id_param(call.params, "emp").ok()))?;
        let client = call.caller.client_id;
        let bank = required(&body_map(call.body.clone()), "BCO_ID", "Conta bancária")?;
        uploaded_file(&call.body)?;
        let bytes = upload_bytes(&self.uploads, client, emp, &call.body).await?;
        reconciliation::import(tx, client, emp, call.caller.user_id, bank, &bytes).await
    }
}

struct Lines;

#[async_trait]
impl ActionHandler for Lines {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp)?;
        let body = body_map(call.body);
        let bank = required(&body, "BCO_ID", "Conta bancária")?;
        let situation = match body.get("SITUACAO").and_then(Value::as_str).map(str::trim) {
            None | Some("") => None,
            Some(s @ ("P" | "C")) => Some(s.to_string()),
            Some(_) => return Err(Error::validation("Situação inválida: informe P ou C.")),
        };
        let rows = reconciliation::lines(
            tx,
            call.caller.client_id,
            emp,
            bank,
            situation.as_deref(),
            date_of(&body, "DATA_INI")?,
            date_of(&body, "DATA_FIM")?,
        )
        .await?;
        Ok(Value::Array(rows))
    }
}

struct Confirm;

#[async_trait]
impl ActionHandler for Confirm {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp)?;
        let body = body_map(call.body);
        let id = required(&body, "CONB_ID", "Lançamento do extrato")?;
        let movements: Vec<i64> = match body.get("MBCA_IDS") {
            Some(Value::Array(items)) => items
                .iter()
                .map(|v| {
                    v.as_i64()
                        .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
                        .ok_or_else(|| Error::validation("Movimento inválido."))
                })
                .collect::<Result<_>>()?,
            _ => {
                return Err(Error::validation(
                    "Informe os movimentos a conciliar (MBCA_IDS).",
                ))
            }
        };
        reconciliation::confirm(tx, call.caller.client_id, emp, id, &movements).await?;
        Ok(json!({"code": 200, "msg": "Lançamento conciliado com sucesso.", "CONB_ID": id}))
    }
}

struct Undo;

#[async_trait]
impl ActionHandler for Undo {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp)?;
        let id = id_param(call.params, "id")?;
        reconciliation::undo(tx, call.caller.client_id, emp, id).await?;
        Ok(json!({"code": 200, "msg": "Conciliação desfeita.", "CONB_ID": id}))
    }
}

struct Post;

#[async_trait]
impl ActionHandler for Post {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp)?;
        let body = body_map(call.body);
        let id = required(&body, "CONB_ID", "Lançamento do extrato")?;
        let history = body
            .get("HISTORICO")
            .and_then(Value::as_str)
            .map(String::from);
        let centre = id_of(&body, "HISP_ID", "Centro de custo")?;
        let mid = reconciliation::post(
            tx,
            call.caller.client_id,
            emp,
            call.caller.user_id,
            id,
            history,
            centre,
        )
        .await?;
        Ok(
            json!({"code": 200, "msg": "Movimento lançado e conciliado.", "CONB_ID": id, "MBCA_ID": mid}),
        )
    }
}

struct Balance;

#[async_trait]
impl ActionHandler for Balance {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp)?;
        let body = body_map(call.body);
        let bank = required(&body, "BCO_ID", "Conta bancária")?;
        reconciliation::balance(tx, call.caller.client_id, emp, bank).await
    }
}

struct Summary;

#[async_trait]
impl ActionHandler for Summary {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp)?;
        let body = body_map(call.body);
        let date = match date_of(&body, "DATA")? {
            Some(d) => d,
            None => crate::titles::today(tx).await?,
        };
        let bank = id_of(&body, "BCO_ID", "Conta bancária")?;
        daily::summary(tx, call.caller.client_id, emp, date, bank).await
    }
}

struct Close;

#[async_trait]
impl ActionHandler for Close {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp)?;
        let body = body_map(call.body);
        let date =
            date_of(&body, "DATA")?.ok_or_else(|| Error::validation("Data é obrigatório!"))?;
        let id = daily::close(tx, call.caller.client_id, emp, call.caller.user_id, date).await?;
        query::get(tx, call.res, call.caller, Some(emp), &[id.to_string()]).await
    }
}

struct Reopen;

#[async_trait]
impl ActionHandler for Reopen {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp)?;
        let body = body_map(call.body);
        let date =
            date_of(&body, "DATA")?.ok_or_else(|| Error::validation("Data é obrigatório!"))?;
        daily::reopen(tx, call.caller.client_id, emp, date).await?;
        Ok(json!({"code": 200, "msg": format!("Dia {} reaberto.", date.format("%d/%m/%Y"))}))
    }
}
