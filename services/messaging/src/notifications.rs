//! The bell's notifications: what happened that a user should know, kept per
//! tenant (`notificacoes`) and published as an `erp.v1.Notification`
//! (`erp.messaging.notificacao.criada`) through the outbox, so the gateway pushes
//! it to the open bells only once it is committed.
//!
//! Who it is for: one user (`user`), every user who may use a company (user 0),
//! or everyone (client 0: an announcement, kept in `avisos`, such as a new
//! version). What each user read is theirs (`notificacoes_lidas`).
//!
//! Where they come from:
//! - a message that failed for good (`message_failed`, from the queue), to its
//!   sender, or to every user of its company when it names none;
//! - facts of other services, applied once each through messaging's inbox
//!   (`consumers`): an NF-e the SEFAZ rejected or denied (`NfeRejected`), a slip
//!   paid (`SlipPaid`), to every user of the company;
//! - a new version (`announce_version`): the service starting with a version
//!   other than the one it last recorded announces it to everyone, once
//!   however many replicas start.

use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, SecondsFormat, Utc};
use erp_platform::bus::facts::{dec, decode};
use erp_platform::bus::{outbox_insert, Effect, Message};
use erp_platform::db::{Db, Tx};
use erp_platform::service::ConsumerDef;
use erp_platform::{Error, Result};
use erp_proto::erp::v1::Notification;
use erp_proto::finance::v1::BoletoSituacao;
use erp_proto::fiscal::v1::NfeRejeitada;
use erp_proto::subjects;
use prost::Message as _;

use crate::queue::{Channel, Key};
use crate::status::Status;

/// The subject notifications are published on.
pub const SUBJECT: &str = subjects::NOTIFICACAO_CRIADA;
/// The client of an announcement to everyone (and the user of a notification
/// to every user of its company).
pub const EVERYONE: i64 = 0;
/// The announcement of a new version (the web client shows its banner on it).
pub const NEW_VERSION: &str = "Nova versão disponível atualize o sistema!";

/// What a notification is about (`kind`, `NOTI_TIPO`).
pub mod kind {
    /// A message that was not sent.
    pub const MESSAGE: &str = "mensagem";
    /// An NF-e the SEFAZ rejected or denied.
    pub const NFE: &str = "nfe";
    /// A bank slip paid.
    pub const SLIP: &str = "boleto";
    /// A new version of the system.
    pub const VERSION: &str = "versao";
}

/// The Mensagens screen (the queue).
pub const MESSAGES_SCREEN: &str = "/whatsapp";
/// The billing orders' screen (orders' `pedido` register), whose edit screen
/// shows the order's NF-e.
const ORDERS_SCREEN: &str = "/pedidos";
/// The receivables' screen (finance's `contasreceber` register).
const RECEIVABLES_SCREEN: &str = "/contasareceber";

/// Records a notification in the caller's transaction and writes it to the
/// outbox: it is published once that commits, and never if it rolls back.
/// `client` 0 is everyone (`emp` and `user` are then 0); `user` 0 is every user
/// of company `emp`. Answers its id.
pub async fn notify(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    user: i64,
    kind: &str,
    message: &str,
    link: Option<&str>,
) -> Result<i64> {
    if client < 0 || emp < 0 || user < 0 {
        return Err(Error::internal("notification to an invalid recipient"));
    }
    let link = link.map(str::trim).filter(|l| !l.is_empty());
    let (emp, user) = if client == EVERYONE {
        (0, 0)
    } else {
        (emp, user)
    };
    let (id, at): (i64, DateTime<Utc>) = if client == EVERYONE {
        sqlx::query_as(
            "INSERT INTO messaging.avisos (noti_tipo, noti_mensagem, noti_link) VALUES ($1, $2, $3)
             RETURNING noti_id, noti_dta_cad",
        )
        .bind(kind)
        .bind(message)
        .bind(link)
        .fetch_one(&mut **tx)
        .await?
    } else {
        sqlx::query_as(
            "INSERT INTO messaging.notificacoes (client_id, noti_emp_id, noti_usr_id, noti_tipo,
                noti_mensagem, noti_link)
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING noti_id, noti_dta_cad",
        )
        .bind(client)
        .bind(emp)
        .bind(user)
        .bind(kind)
        .bind(message)
        .bind(link)
        .fetch_one(&mut **tx)
        .await?
    };
    let n = Notification {
        id: id.to_string(),
        client_id: client,
        user_id: user,
        message: message.to_string(),
        created_at: at.to_rfc3339_opts(SecondsFormat::Millis, true),
        emp_id: emp,
        kind: kind.to_string(),
        link: link.unwrap_or_default().to_string(),
    };
    outbox_insert(tx, crate::SCHEMA, SUBJECT, client, &n.encode_to_vec()).await?;
    Ok(id)
}

// ---------------------------------------------------------------- messages

/// After a message's status moved from `before` to `after` in this transaction:
/// when it failed now (and had not), its sender hears why (no sender: every user
/// of its company), with a link to the Mensagens screen.
pub async fn message_failed(tx: &mut Tx, k: Key, before: Status, after: Status) -> Result<()> {
    if before == Status::Failed || after != Status::Failed {
        return Ok(());
    }
    // Its status, channel, recipient, reason and sender.
    type Failed = (String, String, String, Option<String>, Option<i64>);
    let row: Option<Failed> = sqlx::query_as(
        "SELECT mens_status, mens_canal, mens_destinatario, mens_erro, mens_usr_id
         FROM messaging.mensagens WHERE client_id = $1 AND mens_emp_id = $2 AND mens_id = $3",
    )
    .bind(k.client)
    .bind(k.emp)
    .bind(k.id)
    .fetch_optional(&mut **tx)
    .await?;
    let Some((status, channel, to, reason, user)) = row else {
        return Ok(());
    };
    if Status::parse(&status) != Some(Status::Failed) {
        return Ok(());
    }
    let text = failure_text(Channel::parse(&channel), &to, reason.as_deref());
    let user = user.filter(|u| *u > 0).unwrap_or(EVERYONE);
    notify(
        tx,
        k.client,
        k.emp,
        user,
        kind::MESSAGE,
        &text,
        Some(MESSAGES_SCREEN),
    )
    .await?;
    Ok(())
}

/// 'WhatsApp para +55 (54) 99987-6543 não foi enviado: <motivo>', 'E-mail para
/// a@b.com, c@d.com não foi enviado: <motivo>'.
pub fn failure_text(channel: Option<Channel>, to: &str, reason: Option<&str>) -> String {
    let reason = reason
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .unwrap_or("motivo não informado.");
    match channel {
        Some(Channel::Email) => {
            let to: Vec<&str> = to
                .split([';', ','])
                .map(str::trim)
                .filter(|a| !a.is_empty())
                .collect();
            format!("E-mail para {} não foi enviado: {reason}", to.join(", "))
        }
        _ => format!("WhatsApp para {} não foi enviado: {reason}", phone(to)),
    }
}

/// A queued number (55 + DDD + number) as people read it: `+55 (54) 99987-6543`,
/// `+55 (11) 3456-7890`; anything else as it is.
pub fn phone(digits: &str) -> String {
    let d = digits.trim();
    if !d.bytes().all(|b| b.is_ascii_digit()) || !d.starts_with("55") {
        return d.to_string();
    }
    let (ddd, number) = (&d[2..d.len().min(4)], d.get(4..).unwrap_or_default());
    let split = match number.len() {
        9 => 5,
        8 => 4,
        _ => return d.to_string(),
    };
    format!("+55 ({ddd}) {}-{}", &number[..split], &number[split..])
}

// ---------------------------------------------------------------- facts

/// The facts messaging turns into notifications, each applied once (the inbox
/// of messaging's schema: a redelivered fact notifies nobody again).
pub fn consumers() -> Vec<ConsumerDef> {
    vec![
        ConsumerDef {
            durable: "messaging-nfe-rejeitada",
            filter: subjects::NFE_REJEITADA,
            effect: Arc::new(NfeRejected),
        },
        ConsumerDef {
            durable: "messaging-boletos",
            filter: subjects::BOLETO_SITUACAO,
            effect: Arc::new(SlipPaid),
        },
    ]
}

/// `erp.fiscal.nfe.rejeitada`: every user of the company hears that the NF-e of
/// the order was rejected (or denied), with the SEFAZ's code and reason and a
/// link to the order, whose screen shows its NF-e.
pub struct NfeRejected;

#[async_trait]
impl Effect for NfeRejected {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let ev: NfeRejeitada = decode(msg, client_id, |e: &NfeRejeitada| e.client_id)?;
        if ev.emp_id <= 0 || ev.pedido_id <= 0 {
            return Err(Error::validation("Evento sem empresa ou pedido."));
        }
        let link = order_link(ev.pedido_id, ev.serie.trim());
        notify(
            tx,
            client_id,
            ev.emp_id,
            EVERYONE,
            kind::NFE,
            &nfe_text(&ev),
            Some(&link),
        )
        .await?;
        Ok(())
    }
}

/// 'NF-e do pedido 9/1 rejeitada: 539 Duplicidade de NF-e' ('denegada' for a
/// denial).
pub fn nfe_text(ev: &NfeRejeitada) -> String {
    let what = if ev.status.trim().eq_ignore_ascii_case("denegado") {
        "denegada"
    } else {
        "rejeitada"
    };
    let serie = ev.serie.trim();
    let order = if serie.is_empty() {
        ev.pedido_id.to_string()
    } else {
        format!("{}/{serie}", ev.pedido_id)
    };
    let reason = [
        (ev.cstat > 0).then(|| ev.cstat.to_string()),
        Some(ev.motivo.trim().to_string()).filter(|m| !m.is_empty()),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(" ");
    if reason.is_empty() {
        format!("NF-e do pedido {order} {what}.")
    } else {
        format!("NF-e do pedido {order} {what}: {reason}")
    }
}

/// The order's edit screen, as the web client addresses a record:
/// `/pedidos/alterar?id=<its key as JSON, URI-encoded>`.
pub fn order_link(pedido: i64, serie: &str) -> String {
    let id = serde_json::json!({"PEDF_ID": pedido, "PEDF_SERIE": serie});
    format!(
        "{ORDERS_SCREEN}/alterar?id={}",
        uri_component(&id.to_string())
    )
}

/// `encodeURIComponent`.
fn uri_component(s: &str) -> String {
    let mut out = String::with_capacity(s.len() * 3);
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `erp.finance.boleto.situacao` of a slip paid: every user of the company hears
/// it, with what was paid, and a link to its receivable. Other changes
/// (generated, written off) notify nobody.
pub struct SlipPaid;

#[async_trait]
impl Effect for SlipPaid {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let ev: BoletoSituacao = decode(msg, client_id, |e: &BoletoSituacao| e.client_id)?;
        if !ev.change.trim().eq_ignore_ascii_case("pago") {
            return Ok(());
        }
        if ev.emp_id <= 0 || ev.boleto_id <= 0 {
            return Err(Error::validation("Evento sem empresa ou boleto."));
        }
        let value = dec("Valor", &ev.value)?;
        let text = format!("Boleto nº {} pago: {}", ev.boleto_id, brl(value));
        let link =
            (ev.title_id > 0).then(|| format!("{RECEIVABLES_SCREEN}/alterar?id={}", ev.title_id));
        notify(
            tx,
            client_id,
            ev.emp_id,
            EVERYONE,
            kind::SLIP,
            &text,
            link.as_deref(),
        )
        .await?;
        Ok(())
    }
}

pub use erp_platform::resource::document::arithmetic::brl;

// ---------------------------------------------------------------- versions

/// Records `version` as the one the service runs and, when it differs from the
/// one last recorded (or none was), announces it to everyone, in one
/// transaction: the row is written with `ON CONFLICT DO UPDATE … WHERE` the
/// version differs, which locks it, so of replicas starting together exactly
/// one records the version and announces it. Answers whether this call did.
pub async fn announce_version(db: &Db, version: &str) -> Result<bool> {
    let mut tx = db.begin().await?;
    let recorded: Option<String> = sqlx::query_scalar(
        "INSERT INTO messaging.versao (unica, versao) VALUES (true, $1)
         ON CONFLICT (unica) DO UPDATE SET versao = EXCLUDED.versao, registrada_em = now()
         WHERE messaging.versao.versao IS DISTINCT FROM EXCLUDED.versao
         RETURNING versao",
    )
    .bind(version)
    .fetch_optional(&mut *tx)
    .await?;
    if recorded.is_none() {
        tx.rollback().await?;
        return Ok(false);
    }
    notify(
        &mut tx,
        EVERYONE,
        0,
        EVERYONE,
        kind::VERSION,
        NEW_VERSION,
        None,
    )
    .await?;
    tx.commit().await?;
    Ok(true)
}

/// `announce_version` of the running build, as the service starts: a failure is
/// logged (the next start announces it), never stops the service.
pub async fn announce(db: &Db) {
    match announce_version(db, erp_platform::VERSION).await {
        Ok(true) => tracing::info!(
            version = erp_platform::VERSION,
            "messaging: new version announced"
        ),
        Ok(false) => {}
        Err(e) => tracing::warn!(error = %e, "messaging: the new version was not announced"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    #[test]
    fn numbers_read_as_in_brazil() {
        assert_eq!(phone("5554999876543"), "+55 (54) 99987-6543");
        assert_eq!(phone("551134567890"), "+55 (11) 3456-7890");
        assert_eq!(phone("12345"), "12345");
        assert_eq!(phone("+55 54"), "+55 54");
    }

    #[test]
    fn failures_name_the_channel_the_recipient_and_the_reason() {
        assert_eq!(
            failure_text(
                Some(Channel::Whatsapp),
                "5554999876543",
                Some("Número não está no WhatsApp.")
            ),
            "WhatsApp para +55 (54) 99987-6543 não foi enviado: Número não está no WhatsApp."
        );
        assert_eq!(
            failure_text(
                Some(Channel::Email),
                "a@b.com;c@d.com",
                Some(" Caixa cheia. ")
            ),
            "E-mail para a@b.com, c@d.com não foi enviado: Caixa cheia."
        );
        assert_eq!(
            failure_text(Some(Channel::Email), "a@b.com", None),
            "E-mail para a@b.com não foi enviado: motivo não informado."
        );
    }

    #[test]
    fn money_reads_as_in_brazil() {
        let b = |s: &str| brl(rust_decimal::Decimal::from_str(s).expect("decimal"));
        assert_eq!(b("0"), "R$ 0,00");
        assert_eq!(b("150.5"), "R$ 150,50");
        assert_eq!(b("1234.56"), "R$ 1.234,56");
        assert_eq!(b("1234567.891"), "R$ 1.234.567,89");
        assert_eq!(b("0.005"), "R$ 0,01");
        assert_eq!(b("-200"), "-R$ 200,00");
    }

    #[test]
    fn a_rejected_nfe_names_its_order_code_and_reason_and_links_to_the_order() {
        let ev = NfeRejeitada {
            client_id: 1,
            emp_id: 1,
            pedido_id: 9,
            serie: "1".into(),
            cstat: 539,
            motivo: "Duplicidade de NF-e".into(),
            status: "rejeitado".into(),
        };
        assert_eq!(
            nfe_text(&ev),
            "NF-e do pedido 9/1 rejeitada: 539 Duplicidade de NF-e"
        );
        let denied =
            NfeRejeitada { status: "denegado".into(), cstat: 0, motivo: String::new(), ..ev };
        assert_eq!(nfe_text(&denied), "NF-e do pedido 9/1 denegada.");
        assert_eq!(
            order_link(9, "1"),
            "/pedidos/alterar?id=%7B%22PEDF_ID%22%3A9%2C%22PEDF_SERIE%22%3A%221%22%7D"
        );
    }
}
