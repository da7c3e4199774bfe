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
use erp_platform::resource::call::{Ctx, Date, Done, Operation, Row, Upload};
use erp_platform::resource::{query, ActionPerm, DbType, Field, Kind, Resource};
use erp_platform::{Error, Result};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::collection::upload_bytes;
use super::IdIn;
use crate::reconciliation::{BalanceOut, Imported, LineOut};
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
    .upload_call(
        "POST",
        "/conciliacaobancaria/ofx/{emp}",
        "ofx",
        &["ofx"],
        "Conciliação Bancária: importar extrato OFX da conta (BCO_ID)",
        ImportOfx { uploads },
    )
    .call(
        "POST",
        "/conciliacaobancaria/pendentes/{emp}",
        "pendentes",
        ActionPerm::View,
        "Conciliação Bancária: lançamentos do extrato com conciliações e sugestões (BCO_ID, SITUACAO, DATA_INI, DATA_FIM)",
        Lines,
    )
    .call(
        "POST",
        "/conciliacaobancaria/conciliar/{emp}",
        "conciliar",
        ActionPerm::Update,
        "Conciliação Bancária: conciliar um lançamento do extrato com movimentos (CONB_ID, MBCA_IDS)",
        Confirm,
    )
    .call(
        "PUT",
        "/conciliacaobancaria/desfazer/{id}/{emp}",
        "desfazer",
        ActionPerm::Update,
        "Conciliação Bancária: desfazer a conciliação de um lançamento do extrato",
        Undo,
    )
    .call(
        "POST",
        "/conciliacaobancaria/lancar/{emp}",
        "lancar",
        ActionPerm::Update,
        "Conciliação Bancária: lançar o movimento de um lançamento do extrato e conciliá-lo (CONB_ID, HISTORICO, HISP_ID)",
        Post,
    )
    .call(
        "POST",
        "/conciliacaobancaria/saldo/{emp}",
        "saldo",
        ActionPerm::View,
        "Conciliação Bancária: saldo do sistema contra o saldo do extrato (BCO_ID)",
        Balance,
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
    .call(
        "POST",
        "/movdiario/dia/{emp}",
        "dia",
        ActionPerm::View,
        "Movimento Diário: o caixa do dia por forma de pagamento (DATA, BCO_ID)",
        DaySummary,
    )
    .call(
        "POST",
        "/movdiario/fechar/{emp}",
        "fechar",
        ActionPerm::Update,
        "Movimento Diário: fechar o dia (DATA)",
        Close,
    )
    .call(
        "POST",
        "/movdiario/reabrir/{emp}",
        "reabrir",
        ActionPerm::Update,
        "Movimento Diário: reabrir o último dia fechado (DATA)",
        Reopen,
    )
}

fn required<T>(v: Option<T>, label: &str) -> Result<T> {
    v.ok_or_else(|| Error::validation(format!("{label} é obrigatório!")))
}

/// `POST /conciliacaobancaria/ofx/{emp}` (multipart): the account and the file.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct ImportOfxIn {
    #[serde(rename = "BCO_ID", default)]
    #[schemars(title = "Conta bancária", extend("x-invalid" = "Conta bancária inválido."))]
    pub bank: Option<i64>,
    #[serde(default)]
    pub arquivo: Option<Upload>,
}

/// Imports the OFX statement into the account.
struct ImportOfx {
    uploads: PathBuf,
}

#[async_trait]
impl Operation for ImportOfx {
    type In = ImportOfxIn;
    type Out = Imported;
    async fn run(&self, cx: &mut Ctx<'_>, i: ImportOfxIn) -> Result<Imported> {
        let emp = cx.emp()?;
        let client = cx.client();
        let bank = required(i.bank, "Conta bancária")?;
        let bytes = upload_bytes(&self.uploads, client, emp, i.arquivo.as_ref()).await?;
        reconciliation::import(cx.tx, client, emp, cx.user(), bank, &bytes).await
    }
}

/// `POST /conciliacaobancaria/pendentes/{emp}`: the account, the status and the
/// period.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct LinesIn {
    #[serde(rename = "BCO_ID", default)]
    #[schemars(title = "Conta bancária", extend("x-invalid" = "Conta bancária inválido."))]
    pub bank: Option<i64>,
    /// P pending, C matched (default: both).
    #[serde(rename = "SITUACAO", default)]
    pub status: Option<String>,
    #[serde(rename = "DATA_INI", default)]
    #[schemars(title = "Data inicial")]
    pub from: Option<Date>,
    #[serde(rename = "DATA_FIM", default)]
    #[schemars(title = "Data final")]
    pub to: Option<Date>,
}

/// The account's statement lines with their matches and suggestions.
struct Lines;

#[async_trait]
impl Operation for Lines {
    type In = LinesIn;
    type Out = Vec<LineOut>;
    async fn run(&self, cx: &mut Ctx<'_>, i: LinesIn) -> Result<Vec<LineOut>> {
        let emp = cx.emp()?;
        let bank = required(i.bank, "Conta bancária")?;
        let status = match i.status.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(s @ ("P" | "C")) => Some(s),
            Some(_) => return Err(Error::validation("Situação inválida: informe P ou C.")),
        };
        reconciliation::lines(
            cx.tx,
            cx.client(),
            emp,
            bank,
            status,
            i.from.map(Date::get),
            i.to.map(Date::get),
        )
        .await
    }
}

/// A movement of a match.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema)]
#[serde(transparent)]
#[schemars(extend("x-invalid" = "Movimento inválido."))]
pub struct MovementId(pub i64);

/// `POST /conciliacaobancaria/conciliar/{emp}`: the line and its movements.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct ConfirmIn {
    #[serde(rename = "CONB_ID", default)]
    #[schemars(
        title = "Lançamento do extrato",
        extend("x-invalid" = "Lançamento do extrato inválido.")
    )]
    pub line: Option<i64>,
    #[serde(rename = "MBCA_IDS", default)]
    #[schemars(extend("x-invalid" = "Informe os movimentos a conciliar (MBCA_IDS)."))]
    pub movements: Option<Vec<MovementId>>,
}

/// What a call on a statement line answers.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct LineDone {
    pub code: u16,
    pub msg: String,
    #[serde(rename = "CONB_ID")]
    pub line: i64,
}

/// Matches a statement line with movements.
struct Confirm;

#[async_trait]
impl Operation for Confirm {
    type In = ConfirmIn;
    type Out = LineDone;
    async fn run(&self, cx: &mut Ctx<'_>, i: ConfirmIn) -> Result<LineDone> {
        let emp = cx.emp()?;
        let id = required(i.line, "Lançamento do extrato")?;
        let movements: Vec<i64> = i
            .movements
            .ok_or_else(|| Error::validation("Informe os movimentos a conciliar (MBCA_IDS)."))?
            .into_iter()
            .map(|m| m.0)
            .collect();
        reconciliation::confirm(cx.tx, cx.client(), emp, id, &movements).await?;
        Ok(LineDone { code: 200, msg: "Lançamento conciliado com sucesso.".into(), line: id })
    }
}

/// Undoes a statement line's match.
struct Undo;

#[async_trait]
impl Operation for Undo {
    type In = IdIn;
    type Out = LineDone;
    async fn run(&self, cx: &mut Ctx<'_>, i: IdIn) -> Result<LineDone> {
        let emp = cx.emp()?;
        reconciliation::undo(cx.tx, cx.client(), emp, i.id).await?;
        Ok(LineDone { code: 200, msg: "Conciliação desfeita.".into(), line: i.id })
    }
}

/// `POST /conciliacaobancaria/lancar/{emp}`: the line and the movement's history
/// and cost centre.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct PostIn {
    #[serde(rename = "CONB_ID", default)]
    #[schemars(
        title = "Lançamento do extrato",
        extend("x-invalid" = "Lançamento do extrato inválido.")
    )]
    pub line: Option<i64>,
    /// Default: the line's memo.
    #[serde(rename = "HISTORICO", default)]
    pub history: Option<String>,
    #[serde(rename = "HISP_ID", default)]
    #[schemars(title = "Centro de custo", extend("x-invalid" = "Centro de custo inválido."))]
    pub centre: Option<i64>,
}

/// What posting a line answers: the line and the movement made of it.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct PostedOut {
    pub code: u16,
    pub msg: String,
    #[serde(rename = "CONB_ID")]
    pub line: i64,
    #[serde(rename = "MBCA_ID")]
    pub movement: i64,
}

/// Turns a statement line into a movement and matches them.
struct Post;

#[async_trait]
impl Operation for Post {
    type In = PostIn;
    type Out = PostedOut;
    async fn run(&self, cx: &mut Ctx<'_>, i: PostIn) -> Result<PostedOut> {
        let emp = cx.emp()?;
        let id = required(i.line, "Lançamento do extrato")?;
        let mid = reconciliation::post(cx.tx, cx.client(), emp, cx.user(), id, i.history, i.centre)
            .await?;
        Ok(PostedOut {
            code: 200,
            msg: "Movimento lançado e conciliado.".into(),
            line: id,
            movement: mid,
        })
    }
}

/// `POST /conciliacaobancaria/saldo/{emp}`: the account.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct BankIn {
    #[serde(rename = "BCO_ID", default)]
    #[schemars(title = "Conta bancária", extend("x-invalid" = "Conta bancária inválido."))]
    pub bank: Option<i64>,
}

/// The system's balance against the statement's.
struct Balance;

#[async_trait]
impl Operation for Balance {
    type In = BankIn;
    type Out = BalanceOut;
    async fn run(&self, cx: &mut Ctx<'_>, i: BankIn) -> Result<BalanceOut> {
        let emp = cx.emp()?;
        let bank = required(i.bank, "Conta bancária")?;
        reconciliation::balance(cx.tx, cx.client(), emp, bank).await
    }
}

/// `POST /movdiario/dia/{emp}`: the day (default today) and the account
/// (default every account).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct DayIn {
    #[serde(rename = "DATA", default)]
    #[schemars(title = "Data")]
    pub date: Option<Date>,
    #[serde(rename = "BCO_ID", default)]
    #[schemars(title = "Conta bancária", extend("x-invalid" = "Conta bancária inválido."))]
    pub bank: Option<i64>,
}

/// The day's cash.
struct DaySummary;

#[async_trait]
impl Operation for DaySummary {
    type In = DayIn;
    type Out = daily::Summary;
    async fn run(&self, cx: &mut Ctx<'_>, i: DayIn) -> Result<daily::Summary> {
        let emp = cx.emp()?;
        let date = match i.date {
            Some(d) => d.get(),
            None => crate::titles::today(cx.tx).await?,
        };
        daily::summary(cx.tx, cx.client(), emp, date, i.bank).await
    }
}

/// `POST /movdiario/{fechar|reabrir}/{emp}`: the day.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct DateIn {
    #[serde(rename = "DATA", default)]
    #[schemars(title = "Data")]
    pub date: Option<Date>,
}

/// Closes the day; answers its row.
struct Close;

#[async_trait]
impl Operation for Close {
    type In = DateIn;
    type Out = Row;
    async fn run(&self, cx: &mut Ctx<'_>, i: DateIn) -> Result<Row> {
        let emp = cx.emp()?;
        let date = required(i.date, "Data")?.get();
        let id = daily::close(cx.tx, cx.client(), emp, cx.user(), date).await?;
        let row = query::get(cx.tx, cx.res, cx.caller, Some(emp), &[id.to_string()]).await?;
        Ok(Row(row))
    }
}

/// Reopens the last closed day.
struct Reopen;

#[async_trait]
impl Operation for Reopen {
    type In = DateIn;
    type Out = Done;
    async fn run(&self, cx: &mut Ctx<'_>, i: DateIn) -> Result<Done> {
        let emp = cx.emp()?;
        let date = required(i.date, "Data")?.get();
        daily::reopen(cx.tx, cx.client(), emp, date).await?;
        Ok(Done::ok(format!(
            "Dia {} reaberto.",
            date.format("%d/%m/%Y")
        )))
    }
}
