//! The queue's SQL: queueing a message with its files and its dispatch row, the
//! workers' claims (FOR UPDATE SKIP LOCKED, a lease), and recording what
//! happened to a send or what a provider reported later.
//!
//! A message is a tenant row (`mensagens`, row-level security); its dispatch row
//! (`fila`) holds only ids and times, so the workers find due messages of every
//! tenant without seeing any content, then work on each one in a transaction
//! of its own tenant. The message row is always locked before its dispatch row.

use std::time::Duration;

use chrono::{DateTime, Utc};
use erp_platform::db::{Db, Tx};
use erp_platform::Result;
use uuid::Uuid;

use crate::files::Kind;
use crate::providers::Template;
use crate::status::Status;

/// A message by its tenant, company and id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Key {
    pub client: i64,
    pub emp: i64,
    pub id: i64,
}

/// 'W' WhatsApp or 'E' e-mail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    Whatsapp,
    Email,
}

impl Channel {
    pub fn code(self) -> &'static str {
        match self {
            Channel::Whatsapp => "W",
            Channel::Email => "E",
        }
    }
    pub fn parse(s: &str) -> Option<Channel> {
        match s.trim() {
            "W" => Some(Channel::Whatsapp),
            "E" => Some(Channel::Email),
            _ => None,
        }
    }
}

/// A file to keep with a message.
#[derive(Clone, Debug)]
pub struct NewFile {
    pub name: String,
    pub mime: String,
    pub bytes: Vec<u8>,
}

/// The document a message names, as recorded (`mens_doc_tipo`, `mens_doc_id`,
/// `mens_doc_ref`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocRecord {
    pub kind: String,
    pub id: Option<i64>,
    /// `MENS_DOC_REF`: a JSON object as compact text.
    pub reference: Option<String>,
}

/// A message to queue, checked.
#[derive(Clone, Debug)]
pub struct NewMessage {
    pub channel: Channel,
    pub user: Option<i64>,
    pub to: String,
    pub bcc: Option<String>,
    pub subject: Option<String>,
    pub text: String,
    /// When to send.
    pub at: DateTime<Utc>,
    /// Asked for now: sent whatever the sending hours.
    pub immediate: bool,
    pub project: Option<String>,
    pub program: Option<String>,
    pub kind: Kind,
    pub doc: Option<DocRecord>,
    pub template: Option<Template>,
    pub files: Vec<NewFile>,
}

/// The next message id of the company (the engine's per-company counter, so the
/// register and the calls number alike).
/// A new message's id (a sequence: no lock held until the caller commits).
async fn next_id(tx: &mut Tx) -> Result<i64> {
    Ok(
        sqlx::query_scalar("SELECT nextval('messaging.mensagens_id_seq')")
            .fetch_one(&mut **tx)
            .await?,
    )
}

/// Queues a message in the caller's transaction: it is sent once that commits.
pub async fn enqueue(tx: &mut Tx, client: i64, emp: i64, m: &NewMessage) -> Result<i64> {
    let id = next_id(tx).await?;
    let (template, language, parameters) = match &m.template {
        Some(t) => (
            Some(t.name.clone()),
            Some(t.language.clone()),
            Some(serde_json::json!(t.parameters)),
        ),
        None => (None, None, None),
    };
    sqlx::query(
        "INSERT INTO messaging.mensagens (client_id, mens_emp_id, mens_id, mens_usr_id, mens_canal,
            mens_destinatario, mens_destinatario_oculto, mens_assunto, mens_descricao, mens_datahora,
            mens_imediata, mens_projeto, mens_tipo, mens_programa, mens_anexo_nome, mens_doc_tipo,
            mens_doc_id, mens_doc_ref, mens_template, mens_template_idioma, mens_template_parametros)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20,
                 $21)",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(m.user)
    .bind(m.channel.code())
    .bind(&m.to)
    .bind(&m.bcc)
    .bind(&m.subject)
    .bind(&m.text)
    .bind(m.at)
    .bind(m.immediate)
    .bind(&m.project)
    .bind(m.kind.code())
    .bind(&m.program)
    .bind(m.files.first().map(|f| f.name.clone()))
    .bind(m.doc.as_ref().map(|d| d.kind.clone()))
    .bind(m.doc.as_ref().and_then(|d| d.id))
    .bind(m.doc.as_ref().and_then(|d| d.reference.clone()))
    .bind(template)
    .bind(language)
    .bind(parameters)
    .execute(&mut **tx)
    .await?;
    for (i, f) in m.files.iter().enumerate() {
        sqlx::query(
            "INSERT INTO messaging.mensagens_anexos
                (client_id, mens_emp_id, mens_id, anex_seq, anex_nome, anex_tipo, anex_conteudo)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(client)
        .bind(emp)
        .bind(id)
        .bind(i as i32 + 1)
        .bind(&f.name)
        .bind(&f.mime)
        .bind(&f.bytes)
        .execute(&mut **tx)
        .await?;
    }
    dispatch(tx, Key { client, emp, id }, m.channel, m.at).await?;
    Ok(id)
}

/// (Re)creates the message's dispatch row, due at `at` (its screens hear of it).
pub async fn dispatch(tx: &mut Tx, k: Key, channel: Channel, at: DateTime<Utc>) -> Result<()> {
    sqlx::query(
        "INSERT INTO messaging.fila (client_id, emp_id, mens_id, canal, due_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (client_id, emp_id, mens_id)
         DO UPDATE SET due_at = EXCLUDED.due_at, lease_until = NULL, lease_owner = NULL, vez = NULL",
    )
    .bind(k.client)
    .bind(k.emp)
    .bind(k.id)
    .bind(channel.code())
    .bind(at)
    .execute(&mut **tx)
    .await?;
    crate::live::queue_moved(tx, k.client, k.emp).await
}

/// A dispatch row a worker holds.
#[derive(Clone, Copy, Debug)]
pub struct Claim {
    pub key: Key,
    pub channel: Channel,
}

/// Takes up to `batch` due messages for `lease`, of every tenant or of the
/// `clients` given: rows another worker holds are skipped, not waited for; a
/// lease that ran out (a worker that died) is taken over.
pub async fn claim(
    db: &Db,
    owner: Uuid,
    batch: i64,
    lease: Duration,
    clients: Option<&[i64]>,
) -> Result<Vec<Claim>> {
    let rows: Vec<(i64, i64, i64, String)> = sqlx::query_as(
        "UPDATE messaging.fila f
         SET lease_until = now() + make_interval(secs => $3), lease_owner = $2
         FROM (SELECT client_id, emp_id, mens_id FROM messaging.fila
               WHERE due_at <= now() AND (lease_until IS NULL OR lease_until <= now())
                 AND ($4::bigint[] IS NULL OR client_id = ANY($4))
               ORDER BY due_at
               LIMIT $1
               FOR UPDATE SKIP LOCKED) due
         WHERE f.client_id = due.client_id AND f.emp_id = due.emp_id AND f.mens_id = due.mens_id
         RETURNING f.client_id, f.emp_id, f.mens_id, f.canal",
    )
    .bind(batch)
    .bind(owner)
    .bind(lease.as_secs_f64())
    .bind(clients)
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .into_iter()
        .filter_map(|(client, emp, id, canal)| {
            Some(Claim { key: Key { client, emp, id }, channel: Channel::parse(&canal)? })
        })
        .collect())
}

/// Gives a claimed row back untouched (a worker stopping before it started it).
pub async fn release(db: &Db, k: Key, owner: Uuid) -> Result<()> {
    sqlx::query(
        "UPDATE messaging.fila SET lease_until = NULL, lease_owner = NULL
         WHERE client_id = $1 AND emp_id = $2 AND mens_id = $3 AND lease_owner = $4",
    )
    .bind(k.client)
    .bind(k.emp)
    .bind(k.id)
    .bind(owner)
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// Due again at `at` (a retry, the sending hours, the rate, no provider yet).
pub async fn reschedule(tx: &mut Tx, k: Key, at: DateTime<Utc>) -> Result<()> {
    sqlx::query(
        "UPDATE messaging.fila SET due_at = $4, lease_until = NULL, lease_owner = NULL
         WHERE client_id = $1 AND emp_id = $2 AND mens_id = $3",
    )
    .bind(k.client)
    .bind(k.emp)
    .bind(k.id)
    .bind(at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// No more to do for the message (sent or failed for good).
pub async fn finish(tx: &mut Tx, k: Key) -> Result<()> {
    sqlx::query("DELETE FROM messaging.fila WHERE client_id = $1 AND emp_id = $2 AND mens_id = $3")
        .bind(k.client)
        .bind(k.emp)
        .bind(k.id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Messages of a company that wait for something other than time (a provider
/// being configured): due now.
pub async fn wake_company(tx: &mut Tx, client: i64, emp: i64, channel: Channel) -> Result<u64> {
    Ok(sqlx::query(
        "UPDATE messaging.fila SET due_at = now()
         WHERE client_id = $1 AND emp_id = $2 AND canal = $3 AND lease_until IS NULL AND due_at > now()
           AND (client_id, emp_id, mens_id) IN (
               SELECT client_id, mens_emp_id, mens_id FROM messaging.mensagens
               WHERE client_id = $1 AND mens_emp_id = $2 AND mens_status = 'N' AND mens_erro IS NOT NULL)",
    )
    .bind(client)
    .bind(emp)
    .bind(channel.code())
    .execute(&mut **tx)
    .await?
    .rows_affected())
}

/// A message as the worker sends it.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct Pending {
    pub mens_status: String,
    pub mens_canal: String,
    pub mens_destinatario: String,
    pub mens_destinatario_oculto: Option<String>,
    pub mens_assunto: Option<String>,
    pub mens_descricao: Option<String>,
    pub mens_tipo: String,
    pub mens_imediata: bool,
    pub mens_tentativas: i32,
    pub mens_provedor_id: Option<String>,
    pub mens_template: Option<String>,
    pub mens_template_idioma: Option<String>,
    pub mens_template_parametros: Option<serde_json::Value>,
}

impl Pending {
    pub fn status(&self) -> Status {
        Status::parse(&self.mens_status).unwrap_or(Status::Queued)
    }

    pub fn template(&self) -> Option<Template> {
        let name = self
            .mens_template
            .clone()
            .filter(|n| !n.trim().is_empty())?;
        let parameters = self
            .mens_template_parametros
            .as_ref()
            .and_then(|v| serde_json::from_value(v.clone()).ok())
            .unwrap_or_default();
        Some(Template {
            name,
            language: self
                .mens_template_idioma
                .clone()
                .unwrap_or_else(|| "pt_BR".into()),
            parameters,
        })
    }
}

/// The message, locked for this transaction.
pub async fn lock(tx: &mut Tx, k: Key) -> Result<Option<Pending>> {
    Ok(sqlx::query_as(
        "SELECT mens_status, mens_canal, mens_destinatario, mens_destinatario_oculto, mens_assunto,
                mens_descricao, mens_tipo, mens_imediata, mens_tentativas, mens_provedor_id,
                mens_template, mens_template_idioma, mens_template_parametros
         FROM messaging.mensagens WHERE client_id = $1 AND mens_emp_id = $2 AND mens_id = $3
         FOR UPDATE",
    )
    .bind(k.client)
    .bind(k.emp)
    .bind(k.id)
    .fetch_optional(&mut **tx)
    .await?)
}

/// The message's files, in order: (name, content type, bytes).
pub async fn files(tx: &mut Tx, k: Key) -> Result<Vec<(String, String, Vec<u8>)>> {
    Ok(sqlx::query_as(
        "SELECT anex_nome, anex_tipo, anex_conteudo FROM messaging.mensagens_anexos
         WHERE client_id = $1 AND mens_emp_id = $2 AND mens_id = $3 ORDER BY anex_seq",
    )
    .bind(k.client)
    .bind(k.emp)
    .bind(k.id)
    .fetch_all(&mut **tx)
    .await?)
}

/// A note on a message that is still queued (why it waits).
pub async fn note(tx: &mut Tx, k: Key, text: &str) -> Result<()> {
    let changed = sqlx::query(
        "UPDATE messaging.mensagens SET mens_erro = $4, mens_dta_alt = now()
         WHERE client_id = $1 AND mens_emp_id = $2 AND mens_id = $3
           AND mens_erro IS DISTINCT FROM $4",
    )
    .bind(k.client)
    .bind(k.emp)
    .bind(k.id)
    .bind(text)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    if changed > 0 {
        crate::live::queue_moved(tx, k.client, k.emp).await?;
    }
    Ok(())
}

/// The worker starts an attempt: 'P', one more attempt, by which provider.
pub async fn start_attempt(tx: &mut Tx, k: Key, current: Status, provider: &str) -> Result<i32> {
    crate::live::queue_moved(tx, k.client, k.emp).await?;
    Ok(sqlx::query_scalar(
        "UPDATE messaging.mensagens SET mens_status = $4, mens_tentativas = mens_tentativas + 1,
                mens_provedor = $5, mens_dta_alt = now()
         WHERE client_id = $1 AND mens_emp_id = $2 AND mens_id = $3
         RETURNING mens_tentativas",
    )
    .bind(k.client)
    .bind(k.emp)
    .bind(k.id)
    .bind(current.advance(Status::Sending).code())
    .bind(provider)
    .fetch_one(&mut **tx)
    .await?)
}

async fn set_status(tx: &mut Tx, k: Key, status: Status, error: Option<&str>) -> Result<()> {
    sqlx::query(
        "UPDATE messaging.mensagens SET mens_status = $4, mens_erro = $5, mens_dta_alt = now()
         WHERE client_id = $1 AND mens_emp_id = $2 AND mens_id = $3",
    )
    .bind(k.client)
    .bind(k.emp)
    .bind(k.id)
    .bind(status.code())
    .bind(error)
    .execute(&mut **tx)
    .await?;
    crate::live::queue_moved(tx, k.client, k.emp).await
}

/// The provider took the message: 'E' (or what its webhooks already said), its
/// id kept, statuses reported meanwhile applied, nothing left to dispatch.
pub async fn sent(tx: &mut Tx, k: Key, provider_id: &str) -> Result<Status> {
    let Some(m) = lock(tx, k).await? else {
        finish(tx, k).await?;
        return Ok(Status::Sent);
    };
    let mut status = m.status().advance(Status::Sent);
    let mut error: Option<String> = None;
    let early: Vec<(String, Option<String>)> = sqlx::query_as(
        "DELETE FROM messaging.status_pendentes WHERE client_id = $1 AND emp_id = $2 AND provedor_id = $3
         RETURNING status, erro",
    )
    .bind(k.client)
    .bind(k.emp)
    .bind(provider_id)
    .fetch_all(&mut **tx)
    .await?;
    for (s, e) in early {
        if let Some(s) = Status::parse(&s) {
            let next = status.advance(s);
            if next != status && next == Status::Failed {
                error = e;
            }
            status = next;
        }
    }
    sqlx::query(
        "UPDATE messaging.mensagens SET mens_status = $4, mens_provedor_id = $5, mens_erro = $6,
                mens_dta_envio = now(), mens_dta_alt = now()
         WHERE client_id = $1 AND mens_emp_id = $2 AND mens_id = $3",
    )
    .bind(k.client)
    .bind(k.emp)
    .bind(k.id)
    .bind(status.code())
    .bind(provider_id)
    .bind(error)
    .execute(&mut **tx)
    .await?;
    crate::notifications::message_failed(tx, k, m.status(), status).await?;
    finish(tx, k).await?;
    crate::live::queue_moved(tx, k.client, k.emp).await?;
    Ok(status)
}

/// The attempt failed but may succeed later: the reason noted, due again at `at`.
pub async fn retry(tx: &mut Tx, k: Key, reason: &str, at: DateTime<Utc>) -> Result<()> {
    note(tx, k, reason).await?;
    reschedule(tx, k, at).await
}

/// The message failed for good.
pub async fn failed(tx: &mut Tx, k: Key, reason: &str) -> Result<()> {
    let current = lock(tx, k)
        .await?
        .map(|m| m.status())
        .unwrap_or(Status::Sending);
    set_status(tx, k, current.advance(Status::Failed), Some(reason)).await?;
    crate::notifications::message_failed(tx, k, current, current.advance(Status::Failed)).await?;
    finish(tx, k).await
}

/// A status a provider reported of the message it knows as `provider_id`:
/// applied by precedence (never a downgrade); kept for later when the worker
/// has not recorded that id yet. Answers whether a message had it.
pub async fn report(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    provider_id: &str,
    reported: Status,
    reason: Option<&str>,
) -> Result<bool> {
    let row: Option<(i64, String, Option<String>)> = sqlx::query_as(
        "SELECT mens_id, mens_status, mens_erro FROM messaging.mensagens
         WHERE client_id = $1 AND mens_emp_id = $2 AND mens_provedor_id = $3
         FOR UPDATE",
    )
    .bind(client)
    .bind(emp)
    .bind(provider_id)
    .fetch_optional(&mut **tx)
    .await?;
    let Some((id, status, error)) = row else {
        sqlx::query(
            "INSERT INTO messaging.status_pendentes (client_id, emp_id, provedor_id, status, erro)
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
        )
        .bind(client)
        .bind(emp)
        .bind(provider_id)
        .bind(reported.code())
        .bind(reason)
        .execute(&mut **tx)
        .await?;
        return Ok(false);
    };
    let current = Status::parse(&status).unwrap_or(Status::Sent);
    let next = current.advance(reported);
    if next != current {
        let error = if next == Status::Failed {
            reason.map(String::from)
        } else {
            error
        };
        set_status(tx, Key { client, emp, id }, next, error.as_deref()).await?;
        crate::notifications::message_failed(tx, Key { client, emp, id }, current, next).await?;
    }
    Ok(true)
}

/// When a message may go out under its company's pace of `per_minute` sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pace {
    /// Its slot is now.
    Now,
    /// Its slot is then: it waits (due again at that instant, the slot kept).
    At(DateTime<Utc>),
}

/// A slot this close ahead is taken as now (the poll would only add to it).
const SLOT_SLACK_MS: i64 = 50;

/// Takes the message's slot in its company's pace: the slot it was given
/// before, else the next free one, 60/`per_minute` seconds after the last
/// (`compasso`). A slot is used once: a retry takes a new one.
pub async fn pace(tx: &mut Tx, k: Key, per_minute: i32) -> Result<Pace> {
    let slack = chrono::Duration::milliseconds(SLOT_SLACK_MS);
    let (held, now): (Option<DateTime<Utc>>, DateTime<Utc>) = sqlx::query_as(
        "SELECT vez, clock_timestamp() FROM messaging.fila
         WHERE client_id = $1 AND emp_id = $2 AND mens_id = $3",
    )
    .bind(k.client)
    .bind(k.emp)
    .bind(k.id)
    .fetch_optional(&mut **tx)
    .await?
    .unwrap_or((None, Utc::now()));
    if let Some(slot) = held {
        if slot > now + slack {
            return Ok(Pace::At(slot));
        }
        hold(tx, k, None).await?;
        return Ok(Pace::Now);
    }
    let every = 60.0 / f64::from(per_minute.max(1));
    let (slot, now): (DateTime<Utc>, DateTime<Utc>) = sqlx::query_as(
        "INSERT INTO messaging.compasso (client_id, emp_id, proximo)
         VALUES ($1, $2, clock_timestamp() + make_interval(secs => $3))
         ON CONFLICT (client_id, emp_id) DO UPDATE
         SET proximo = greatest(messaging.compasso.proximo, clock_timestamp()) + make_interval(secs => $3)
         RETURNING proximo - make_interval(secs => $3), clock_timestamp()",
    )
    .bind(k.client)
    .bind(k.emp)
    .bind(every)
    .fetch_one(&mut **tx)
    .await?;
    if slot <= now + slack {
        return Ok(Pace::Now);
    }
    hold(tx, k, Some(slot)).await?;
    Ok(Pace::At(slot))
}

/// Keeps (or gives up) the message's slot.
async fn hold(tx: &mut Tx, k: Key, slot: Option<DateTime<Utc>>) -> Result<()> {
    sqlx::query(
        "UPDATE messaging.fila SET vez = $4 WHERE client_id = $1 AND emp_id = $2 AND mens_id = $3",
    )
    .bind(k.client)
    .bind(k.emp)
    .bind(k.id)
    .bind(slot)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
