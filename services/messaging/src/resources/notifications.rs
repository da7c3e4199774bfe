//! The bell's register (`notificacoes`, table `notificacoes`, the `NOTI_*`
//! columns) and its calls, each for the caller alone:
//!
//! - `GET /notificacoes`: the caller's last 50 notifications, newest first —
//!   those addressed to them, those to every user (user 0) of a company they
//!   may use, and the announcements to everyone (a new version) — each with
//!   `lida`, and how many are unread: `{dados, naoLidas}`.
//! - `PUT /notificacoes/lidas`: marks those read, for the caller only (a
//!   company's notification stays unread for its other users).
//!
//! No program guards the register (it has no screen: the bell is every user's):
//! its calls answer only the caller's own notifications, while its generic
//! reads stay for privileged users and its generic writes are refused
//! (notifications are written by the service alone, `crate::notifications`).

use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, SecondsFormat, Utc};
use erp_platform::resource::call::{Ctx, Done, Nothing, Operation};
use erp_platform::resource::{ActionPerm, Field, ReadOnly, Resource};
use erp_platform::{Error, Result};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub const NAME: &str = "notificacoes";
const SCHEMA: &str = crate::SCHEMA;
/// How many the bell lists (and marks read).
pub const LIMIT: i64 = 50;
pub const READ_ONLY: &str = "As notificações são geradas pelo sistema; somente para consulta.";
pub const MARKED: &str = "Notificações marcadas como lidas.";

pub fn notificacoes() -> Resource {
    Resource::new(NAME, "Notificações", SCHEMA, "notificacoes", "")
        .key(&["NOTI_ID"])
        .company("NOTI_EMP_ID")
        .label("NOTI_MENSAGEM")
        .order("NOTI_ID DESC")
        .fields(vec![
            Field::id("NOTI_ID", "Código").list(),
            Field::int("NOTI_EMP_ID", "Empresa"),
            Field::int("NOTI_USR_ID", "Usuário"),
            Field::text("NOTI_TIPO", "Tipo").list(),
            Field::text("NOTI_MENSAGEM", "Mensagem").searchable().list(),
            Field::text("NOTI_LINK", "Tela"),
            Field::timestamp("NOTI_DTA_CAD", "Criada em").list(),
        ])
        .hooks(Arc::new(ReadOnly(READ_ONLY)))
        .call(
            "GET",
            "/notificacoes",
            "listar",
            ActionPerm::View,
            "As últimas 50 notificações do usuário, as mais novas primeiro, com lida ({dados, naoLidas})",
            List,
        )
        .call(
            "PUT",
            "/notificacoes/lidas",
            "lidas",
            ActionPerm::View,
            "Marca como lidas, para o usuário, as notificações que ele vê",
            MarkRead,
        )
}

/// A notification as the bell lists it.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct Notificacao {
    #[serde(rename = "NOTI_ID")]
    pub id: i64,
    /// The company it is about (0: an announcement to everyone).
    #[serde(rename = "NOTI_EMP_ID")]
    pub emp: i64,
    /// 'mensagem', 'nfe', 'boleto' or 'versao'.
    #[serde(rename = "NOTI_TIPO")]
    pub kind: String,
    #[serde(rename = "NOTI_MENSAGEM")]
    pub message: String,
    /// The screen it leads to.
    #[serde(rename = "NOTI_LINK")]
    pub link: Option<String>,
    /// When (RFC 3339, UTC).
    #[serde(rename = "NOTI_DTA_CAD")]
    pub created_at: String,
    /// The caller read it.
    pub lida: bool,
}

/// The caller's notifications and how many of them are unread.
#[derive(Clone, Debug, Serialize, Deserialize, JsonSchema)]
pub struct Notificacoes {
    pub dados: Vec<Notificacao>,
    #[serde(rename = "naoLidas")]
    pub unread: i64,
}

/// The caller's notifications (at most `LIMIT`, newest first), from `$1` client,
/// `$2` user (0: none of their own), `$3` the companies whose notifications to
/// every user they see.
const VISIBLE: &str = "
    (SELECT noti_id, noti_emp_id, noti_tipo, noti_mensagem, noti_link, noti_dta_cad
     FROM messaging.notificacoes
     WHERE client_id = $1 AND $2 > 0 AND noti_usr_id = $2
     ORDER BY noti_id DESC LIMIT 50)
    UNION ALL
    (SELECT noti_id, noti_emp_id, noti_tipo, noti_mensagem, noti_link, noti_dta_cad
     FROM messaging.notificacoes
     WHERE client_id = $1 AND noti_usr_id = 0 AND noti_emp_id = ANY($3)
     ORDER BY noti_id DESC LIMIT 50)
    UNION ALL
    (SELECT noti_id, 0::bigint, noti_tipo, noti_mensagem, noti_link, noti_dta_cad
     FROM messaging.avisos
     ORDER BY noti_id DESC LIMIT 50)
    ORDER BY noti_id DESC LIMIT 50";

/// The companies of the tenant with notifications to every user that the caller
/// may use (the distinct companies walked by the index, one step each).
async fn companies(cx: &mut Ctx<'_>) -> Result<Vec<i64>> {
    let all: Vec<i64> = sqlx::query_scalar(
        "WITH RECURSIVE e(emp) AS (
             SELECT min(noti_emp_id) FROM messaging.notificacoes WHERE client_id = $1 AND noti_usr_id = 0
             UNION ALL
             SELECT (SELECT min(n.noti_emp_id) FROM messaging.notificacoes n
                     WHERE n.client_id = $1 AND n.noti_usr_id = 0 AND n.noti_emp_id > e.emp)
             FROM e WHERE e.emp IS NOT NULL)
         SELECT emp FROM e WHERE emp IS NOT NULL",
    )
    .bind(cx.client())
    .fetch_all(&mut **cx.tx)
    .await?;
    Ok(all.into_iter().filter(|e| cx.may_use_company(*e)).collect())
}

pub struct List;

#[async_trait]
impl Operation for List {
    type In = Nothing;
    type Out = Notificacoes;

    async fn run(&self, cx: &mut Ctx<'_>, _: Nothing) -> Result<Notificacoes> {
        let emps = companies(cx).await?;
        let sql = format!(
            "SELECT v.noti_id, v.noti_emp_id, v.noti_tipo, v.noti_mensagem, v.noti_link, v.noti_dta_cad,
                    EXISTS (SELECT 1 FROM messaging.notificacoes_lidas l
                            WHERE l.client_id = $1 AND l.usr_id = $2 AND l.noti_id = v.noti_id) AS lida
             FROM ({VISIBLE}) v
             ORDER BY v.noti_id DESC"
        );
        type Row = (
            i64,
            i64,
            String,
            String,
            Option<String>,
            DateTime<Utc>,
            bool,
        );
        let rows: Vec<Row> = sqlx::query_as(&sql)
            .bind(cx.client())
            .bind(cx.user().max(0))
            .bind(&emps)
            .fetch_all(&mut **cx.tx)
            .await?;
        let dados: Vec<Notificacao> = rows
            .into_iter()
            .map(|(id, emp, kind, message, link, at, lida)| Notificacao {
                id,
                emp,
                kind,
                message,
                link,
                created_at: at.to_rfc3339_opts(SecondsFormat::Millis, true),
                lida,
            })
            .collect();
        let unread = dados.iter().filter(|n| !n.lida).count() as i64;
        Ok(Notificacoes { dados, unread })
    }
}

pub struct MarkRead;

#[async_trait]
impl Operation for MarkRead {
    type In = Nothing;
    type Out = Done;

    async fn run(&self, cx: &mut Ctx<'_>, _: Nothing) -> Result<Done> {
        if cx.user() <= 0 {
            return Err(Error::validation("Usuário não informado."));
        }
        let emps = companies(cx).await?;
        let sql = format!(
            "INSERT INTO messaging.notificacoes_lidas (client_id, usr_id, noti_id)
             SELECT $1, $2, v.noti_id FROM ({VISIBLE}) v
             ON CONFLICT DO NOTHING"
        );
        sqlx::query(&sql)
            .bind(cx.client())
            .bind(cx.user())
            .bind(&emps)
            .execute(&mut **cx.tx)
            .await?;
        Ok(Done::ok(MARKED))
    }
}
