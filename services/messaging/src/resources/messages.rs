//! The queue register (`whatsapp`, table `mensagens`, the `MENS_*` columns) and
//! its calls (data-and-calls.md §7 "Messaging"):
//!
//! - `POST /whatsapp/send` (multipart: `MENS_USR_ID`, `MENS_DESCRICAO`,
//!   `MENS_DESTINATARIO` = 55 + DDD + number, `MENS_DATAHORA`, `MENS_PROJETO`,
//!   `MENS_TIPO`, `MENS_STATUS`, `MENS_PROGRAMA`, optional `file`; optional
//!   `MENS_DOC_TIPO`/`MENS_DOC_ID`/`MENS_DOC_REF` and an approved template
//!   `MENS_TEMPLATE`, `MENS_TEMPLATE_IDIOMA`, `MENS_TEMPLATE_PARAMETROS` as a JSON
//!   list): `{"msg": "Whatsapp Agendado com sucesso!", "MENS_ID": n}` once the
//!   row is committed; the worker sends it (never this call). `MENS_STATUS` is
//!   the server's: a message always enters the queue as 'N'. A document named
//!   (`MENS_DOC_TIPO` `boleto`, `recibo`, `nfe`, `relatorio`, `orcamento` or
//!   `pedido`, 'Tipo de documento inválido.' otherwise; `MENS_DOC_REF` a JSON
//!   object as text, 'Referência do documento inválida.' otherwise) without a
//!   `file` is produced by its owner as the caller and sent as a document
//!   (`MENS_TIPO` D): see `crate::documents`; its owner's refusal is answered as
//!   it is (a 404 for a document it does not have), an owner out of reach is a
//!   503, and nothing is queued then.
//! - `GET /whatsapp/messages?DATA_INI&DATA_FIM&MENS_STATUS&MENS_DESTINATARIO&
//!   MENS_PROGRAMA&MENS_CANAL&LIMIT&PAGINATION`: `{dados, count}`.
//! - `GET /whatsapp/status/{id}`: a message's status and its label, or, for
//!   `conexao`, the company's number at its provider.
//! - `POST /whatsapp/auth`: pairs the number by QR code (Evolution API).
//! - `POST /whatsapp/reenviar/{id}`: a failed message back to the queue.
//! - `POST /email/send` (multipart: `MENS_USR_ID`, `MENS_EMP_ID`,
//!   `MENS_DESTINATARIO` and `MENS_DESTINATARIO_OCULTO` `;`-separated,
//!   `MENS_ASSUNTO`, `MENS_DESCRICAO`, one or more `file`, optional
//!   `MENS_DOC_TIPO`/`MENS_DOC_ID`/`MENS_DOC_REF`): queued like the WhatsApp
//!   messages (channel 'E'); a document named without any `file` is attached as
//!   produced by its owner (an NF-e: its DANFE and its XML).
//!
//! The register's generic reads list and get messages; its generic writes are
//! refused (messages are written only by these calls and the worker).

use std::borrow::Cow;
use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, NaiveDateTime, TimeZone, Utc};
use chrono_tz::America::Sao_Paulo;
use erp_platform::resource::call::input::Problem;
use erp_platform::resource::call::{Ctx, Date, Done, FormFile, Operation};
use erp_platform::resource::{ActionPerm, DbType, Field, ReadOnly, Resource};
use erp_platform::{Error, Result};
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Deserializer, Serialize};

use crate::documents::{self, Document, Owners, Produced};
use crate::files::{self, Kind};
use crate::mail;
use crate::numbers::WhatsappNumber;
use crate::providers::{SendError, Template};
use crate::queue::{self, Channel, NewFile, NewMessage};
use crate::settings;
use crate::status::{self, Status};
use crate::Deps;

pub const NAME: &str = "whatsapp";
const SCHEMA: &str = crate::SCHEMA;
pub const QUEUED: &str = "Whatsapp Agendado com sucesso!";
pub const EMAIL_QUEUED: &str = "E-mail agendado com sucesso!";
pub const READ_ONLY: &str =
    "As mensagens entram na fila pelo envio (/whatsapp/send, /email/send); a fila é somente para consulta.";
/// Longest text the Cloud API takes, and longest caption.
const MAX_TEXT: usize = 4096;
const MAX_CAPTION: usize = 1024;
/// Multipart limits of the calls (the files together).
const WHATSAPP_FORM: usize = files::MAX_DOCUMENT;
const EMAIL_FORM: usize = files::MAX_EMAIL;

pub fn whatsapp(deps: Arc<Deps>) -> Resource {
    let status_options = status::labels();
    Resource::new(NAME, "WhatsApp", SCHEMA, "mensagens", "whatsapp")
        .key(&["MENS_ID"])
        .company("MENS_EMP_ID")
        .label("MENS_DESTINATARIO")
        .order("MENS_ID DESC")
        .screen("whatsapp")
        .fields(vec![
            Field::id("MENS_ID", "Código").list(),
            Field::int("MENS_EMP_ID", "Empresa"),
            Field::int("MENS_USR_ID", "Usuário"),
            Field::options(
                "MENS_CANAL",
                "Canal",
                DbType::Text,
                &[("W", "WhatsApp"), ("E", "E-mail")],
            )
            .list(),
            Field::text("MENS_DESTINATARIO", "Destinatário")
                .searchable()
                .list(),
            Field::text("MENS_DESTINATARIO_OCULTO", "Destinatário oculto"),
            Field::text("MENS_ASSUNTO", "Assunto").searchable(),
            Field::textarea("MENS_DESCRICAO", "Mensagem")
                .searchable()
                .list(),
            Field::timestamp("MENS_DATAHORA", "Enviar em").list(),
            Field::boolean("MENS_IMEDIATA", "Envio imediato"),
            Field::text("MENS_PROJETO", "Tela"),
            Field::options(
                "MENS_TIPO",
                "Tipo",
                DbType::Text,
                &[("T", "Texto"), ("I", "Imagem"), ("D", "Documento")],
            )
            .list(),
            Field::options("MENS_STATUS", "Situação", DbType::Text, &status_options).list(),
            Field::text("MENS_PROGRAMA", "Programa"),
            Field::text("MENS_ERRO", "Motivo").list(),
            Field::int("MENS_TENTATIVAS", "Tentativas"),
            Field::text("MENS_PROVEDOR", "Provedor"),
            Field::text("MENS_PROVEDOR_ID", "Id no provedor"),
            Field::text("MENS_ANEXO_NOME", "Anexo"),
            Field::text("MENS_DOC_TIPO", "Documento"),
            Field::int("MENS_DOC_ID", "Nº do documento"),
            Field::text("MENS_DOC_REF", "Referência do documento"),
            Field::text("MENS_TEMPLATE", "Modelo (template)"),
            Field::timestamp("MENS_DTA_CAD", "Incluída em"),
            Field::timestamp("MENS_DTA_ENVIO", "Enviada em").list(),
            Field::timestamp("MENS_DTA_ALT", "Alterada em"),
        ])
        .hooks(Arc::new(ReadOnly(READ_ONLY)))
        .form_call(
            "POST",
            "/whatsapp/send",
            "send",
            ActionPerm::Create,
            WHATSAPP_FORM,
            "Coloca uma mensagem de WhatsApp na fila (multipart: campos MENS_* e file opcional)",
            SendWhatsapp(deps.clone()),
        )
        .call(
            "GET",
            "/whatsapp/messages",
            "messages",
            ActionPerm::View,
            "Mensagens da fila por período, situação, destinatário e programa ({dados, count})",
            Messages,
        )
        .call(
            "GET",
            "/whatsapp/status/{id}",
            "status",
            ActionPerm::View,
            "Situação de uma mensagem, ou da conexão do número da empresa (id = conexao)",
            StatusOf(deps.clone()),
        )
        .call(
            "POST",
            "/whatsapp/auth",
            "auth",
            ActionPerm::Update,
            "Conecta o número da empresa por QR code (Evolution API): {state, qrcode}",
            Pair(deps.clone()),
        )
        .call(
            "POST",
            "/whatsapp/reenviar/{id}",
            "reenviar",
            ActionPerm::Update,
            "Coloca de novo na fila uma mensagem que falhou",
            Resend(deps.clone()),
        )
        .form_call(
            "POST",
            "/email/send",
            "email",
            ActionPerm::Create,
            EMAIL_FORM,
            "Coloca um e-mail na fila (multipart: campos MENS_* e um ou mais file)",
            SendEmail(deps),
        )
}

// ---------------------------------------------------------------- input types

/// When to send (`MENS_DATAHORA`): RFC 3339, or a Brasília wall-clock time
/// (`yyyy-MM-dd HH:mm[:ss]`, `yyyy-MM-ddTHH:mm[:ss]`, `dd/MM/yyyy HH:mm[:ss]`), or
/// a date alone (its start). A blank is now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct When(pub DateTime<Utc>);

pub const BAD_WHEN: &str = "Data e hora de envio inválidas (use yyyy-MM-dd HH:mm ou RFC 3339).";

impl When {
    pub fn parse(s: &str) -> Option<When> {
        let s = s.trim();
        if let Ok(t) = DateTime::parse_from_rfc3339(s) {
            return Some(When(t.with_timezone(&Utc)));
        }
        let local = [
            "%Y-%m-%d %H:%M:%S",
            "%Y-%m-%d %H:%M",
            "%Y-%m-%dT%H:%M:%S",
            "%Y-%m-%dT%H:%M",
            "%d/%m/%Y %H:%M:%S",
            "%d/%m/%Y %H:%M",
        ]
        .iter()
        .find_map(|f| NaiveDateTime::parse_from_str(s, f).ok())
        .or_else(|| {
            ["%Y-%m-%d", "%d/%m/%Y"]
                .iter()
                .find_map(|f| NaiveDate::parse_from_str(s, f).ok())
                .and_then(|d| d.and_hms_opt(0, 0, 0))
        })?;
        Sao_Paulo
            .from_local_datetime(&local)
            .earliest()
            .map(|t| When(t.with_timezone(&Utc)))
    }
}

impl<'de> Deserialize<'de> for When {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        When::parse(&s).ok_or_else(|| Problem::Says(BAD_WHEN.into()).error())
    }
}

impl JsonSchema for When {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "DataHora".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "string", "format": "date-time"})
    }
}

/// A blank text is none.
fn given(s: &Option<String>) -> Option<&str> {
    s.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

fn chars(s: &str) -> usize {
    s.chars().count()
}

// ---------------------------------------------------------------- send

#[derive(Debug, Deserialize, JsonSchema)]
pub struct SendIn {
    /// Who asks (the token's user is recorded; kept for the old screens).
    #[serde(rename = "MENS_USR_ID", default)]
    #[schemars(title = "Usuário")]
    pub user: Option<i64>,
    #[serde(rename = "MENS_DESCRICAO", default)]
    #[schemars(title = "Mensagem")]
    pub text: Option<String>,
    #[serde(rename = "MENS_DESTINATARIO")]
    #[schemars(title = "Destinatário", extend("x-missing" = "Número Inválido ou não encontrado!"))]
    pub to: String,
    #[serde(rename = "MENS_DATAHORA", default)]
    #[schemars(title = "Data e hora de envio")]
    pub at: Option<When>,
    #[serde(rename = "MENS_PROJETO", default)]
    #[schemars(title = "Tela")]
    pub project: Option<String>,
    #[serde(rename = "MENS_TIPO", default)]
    #[schemars(title = "Tipo", extend("x-invalid" = "Tipo de mensagem inválido (T texto, I imagem, D documento)."))]
    pub kind: Option<String>,
    /// Always 'N': the server owns the status.
    #[serde(rename = "MENS_STATUS", default)]
    #[schemars(title = "Situação")]
    pub status: Option<String>,
    #[serde(rename = "MENS_PROGRAMA", default)]
    #[schemars(title = "Programa")]
    pub program: Option<String>,
    /// `boleto` or `recibo` (`MENS_DOC_ID`: a receivable title), `nfe` (an
    /// order's NF-e, `PEXM_ID`), `relatorio` (no id; `MENS_DOC_REF`), `orcamento`
    /// (`ORCA_ID`) or `pedido` (`PEDF_ID`; `MENS_DOC_REF` with `PEDF_SERIE`):
    /// attached as its owner produces it when no file is sent
    /// (`crate::documents`).
    #[serde(rename = "MENS_DOC_TIPO", default)]
    #[schemars(title = "Documento")]
    pub doc_type: Option<String>,
    #[serde(rename = "MENS_DOC_ID", default)]
    #[schemars(title = "Nº do documento")]
    pub doc_id: Option<i64>,
    /// The document's reference, a JSON object as text: a report's
    /// `{"relatorio": "vendas", "FORMATO": "pdf", "DATA_INI": …, "DATA_FIM": …}`,
    /// an order's `{"PEDF_SERIE": "1"}`.
    #[serde(rename = "MENS_DOC_REF", default)]
    #[schemars(title = "Referência do documento")]
    pub doc_ref: Option<String>,
    #[serde(rename = "MENS_TEMPLATE", default)]
    #[schemars(title = "Modelo (template)")]
    pub template: Option<String>,
    #[serde(rename = "MENS_TEMPLATE_IDIOMA", default)]
    #[schemars(title = "Idioma do modelo")]
    pub template_language: Option<String>,
    /// The template's body parameters as a JSON list of texts (`["123", "Ana"]`).
    #[serde(rename = "MENS_TEMPLATE_PARAMETROS", default)]
    #[schemars(title = "Parâmetros do modelo")]
    pub template_parameters: Option<String>,
    /// The `file` part, when the message carries one.
    #[serde(default)]
    pub arquivos: Vec<FormFile>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct Queued {
    pub msg: String,
    #[serde(rename = "MENS_ID")]
    pub id: i64,
    /// Why the message will wait in the queue: the company has no provider (or
    /// SMTP server) configured; it goes out once one is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aviso: Option<String>,
}

const WAITS: &str = "A mensagem fica na fila e será enviada quando a configuração for feita.";

/// The warning of a queued message whose channel the company has not configured.
async fn unconfigured(
    cx: &mut Ctx<'_>,
    emp: i64,
    channel: Channel,
    deps: &Deps,
) -> Result<Option<String>> {
    let (sql, missing) = match channel {
        Channel::Whatsapp => (
            "SELECT EXISTS (SELECT 1 FROM messaging.whatsapp_config WHERE client_id = $1 AND wcfg_emp_id = $2)",
            settings::NO_WHATSAPP,
        ),
        Channel::Email if deps.smtp.is_some() => return Ok(None),
        Channel::Email => (
            "SELECT EXISTS (SELECT 1 FROM messaging.email_config WHERE client_id = $1 AND emcf_emp_id = $2)",
            settings::NO_SMTP,
        ),
    };
    let configured: bool = sqlx::query_scalar(sql)
        .bind(cx.client())
        .bind(emp)
        .fetch_one(&mut **cx.tx)
        .await?;
    Ok((!configured).then(|| format!("{missing} {WAITS}")))
}

fn template(i: &SendIn) -> Result<Option<Template>> {
    let Some(name) = given(&i.template) else {
        return Ok(None);
    };
    if !name
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
    {
        return Err(Error::validation(
            "Nome de modelo (template) inválido: use letras minúsculas, números e _.",
        ));
    }
    let parameters: Vec<String> = match given(&i.template_parameters) {
        Some(p) => serde_json::from_str(p).map_err(|_| {
            Error::validation("Parâmetros do modelo inválidos: envie uma lista JSON de textos.")
        })?,
        None => Vec::new(),
    };
    Ok(Some(Template {
        name: name.to_string(),
        language: given(&i.template_language).unwrap_or("pt_BR").to_string(),
        parameters,
    }))
}

/// The document a message names (`MENS_DOC_TIPO`, `MENS_DOC_ID`,
/// `MENS_DOC_REF`), if any.
fn document(
    doc_type: &Option<String>,
    doc_id: Option<i64>,
    doc_ref: &Option<String>,
) -> Result<Option<Document>> {
    Document::parse(doc_type.as_deref(), doc_id, doc_ref.as_deref()).map_err(Error::validation)
}

/// The owners of documents, asked as the call's caller in company `emp`.
fn owners<'a>(deps: &'a Deps, caller: &'a erp_platform::grpc::Caller, emp: i64) -> Owners<'a> {
    Owners { peers: &deps.peers, caller, emp, timeout: deps.peer_timeout }
}

/// A file an owner produced, checked as an upload is (its type from its bytes,
/// the size limit) and named safely.
fn produced(p: Produced) -> Result<NewFile> {
    let name = files::safe_name(&p.name);
    let checked = files::check(Kind::Document, Some((&name, &p.bytes)))
        .map_err(Error::validation)?
        .ok_or_else(|| Error::validation(files::NOT_DOCUMENT))?;
    Ok(NewFile { name, mime: checked.mime.to_string(), bytes: p.bytes })
}

/// When to send and whether it was asked for now (no time, or a time passed).
fn schedule(at: Option<When>) -> (DateTime<Utc>, bool) {
    let now = Utc::now();
    match at {
        Some(When(t)) if t > now => (t, false),
        _ => (now, true),
    }
}

pub struct SendWhatsapp(pub Arc<Deps>);

#[async_trait]
impl Operation for SendWhatsapp {
    type In = SendIn;
    type Out = Queued;

    async fn run(&self, cx: &mut Ctx<'_>, i: SendIn) -> Result<Queued> {
        let emp = cx.emp()?;
        let to = WhatsappNumber::parse(&i.to).map_err(Error::validation)?;
        let kind = Kind::parse(i.kind.as_deref().unwrap_or_default()).ok_or_else(|| {
            Error::validation("Tipo de mensagem inválido (T texto, I imagem, D documento).")
        })?;
        if i.arquivos.len() > 1 {
            return Err(Error::validation(
                "Envie um arquivo por mensagem de WhatsApp.",
            ));
        }
        let file = i.arquivos.first();
        let doc = document(&i.doc_type, i.doc_id, &i.doc_ref)?;
        // A document named without its file: its owner produces it, a document.
        let produce = doc.as_ref().filter(|_| file.is_none());
        let kind = if produce.is_some() {
            Kind::Document
        } else {
            kind
        };
        let checked = match produce {
            Some(_) => None,
            None => files::check(kind, file.map(|f| (f.nome.as_str(), f.conteudo.as_slice())))
                .map_err(Error::validation)?,
        };
        let template = template(&i)?;
        let mut text = i.text.clone().unwrap_or_default();
        if kind == Kind::Text && template.is_none() && text.trim().is_empty() {
            return Err(Error::validation("Mensagem é obrigatório!"));
        }
        let limit = if kind == Kind::Text {
            MAX_TEXT
        } else {
            MAX_CAPTION
        };
        if chars(&text) > limit {
            return Err(Error::validation(format!(
                "A mensagem deve ter no máximo {limit} caracteres."
            )));
        }
        let mut files = match (file, checked) {
            (Some(f), Some(c)) => vec![NewFile {
                name: files::safe_name(&f.nome),
                mime: c.mime.to_string(),
                bytes: f.conteudo.clone(),
            }],
            _ => Vec::new(),
        };
        if let Some(d) = produce {
            let carried = owners(&self.0, cx.caller, emp)
                .produce(d, Channel::Whatsapp)
                .await?;
            files = carried
                .files
                .into_iter()
                .map(produced)
                .collect::<Result<_>>()?;
            text = documents::with_lines(&text, &carried.lines);
            if chars(&text) > limit {
                return Err(Error::validation(format!(
                    "A mensagem, com a linha digitável e o Pix do boleto, deve ter no máximo {limit} caracteres."
                )));
            }
        }
        let (at, immediate) = schedule(i.at);
        let m = NewMessage {
            channel: Channel::Whatsapp,
            user: Some(cx.user()).filter(|u| *u > 0).or(i.user),
            to: to.to_string(),
            bcc: None,
            subject: None,
            text,
            at,
            immediate,
            project: given(&i.project).map(String::from),
            program: given(&i.program).map(String::from),
            kind,
            doc: doc.as_ref().map(Document::recorded),
            template,
            files,
        };
        let id = queue::enqueue(cx.tx, cx.client(), emp, &m).await?;
        // A worker of this process looks at once (it finds the row once this
        // call's transaction committed; other replicas poll).
        self.0.wake.notify_one();
        let aviso = unconfigured(cx, emp, Channel::Whatsapp, &self.0).await?;
        Ok(Queued { msg: QUEUED.into(), id, aviso })
    }
}

// ---------------------------------------------------------------- e-mail

#[derive(Debug, Deserialize, JsonSchema)]
pub struct EmailIn {
    #[serde(rename = "MENS_USR_ID", default)]
    #[schemars(title = "Usuário")]
    pub user: Option<i64>,
    /// The company (one of the caller's).
    #[serde(rename = "MENS_EMP_ID", default)]
    #[schemars(title = "Empresa")]
    pub emp: Option<i64>,
    #[serde(rename = "MENS_DESTINATARIO", default)]
    #[schemars(title = "Destinatário")]
    pub to: Option<String>,
    #[serde(rename = "MENS_DESTINATARIO_OCULTO", default)]
    #[schemars(title = "Destinatário oculto")]
    pub bcc: Option<String>,
    #[serde(rename = "MENS_ASSUNTO", default)]
    #[schemars(title = "Assunto")]
    pub subject: Option<String>,
    #[serde(rename = "MENS_DESCRICAO", default)]
    #[schemars(title = "Mensagem")]
    pub text: Option<String>,
    #[serde(rename = "MENS_DATAHORA", default)]
    #[schemars(title = "Data e hora de envio")]
    pub at: Option<When>,
    #[serde(rename = "MENS_PROJETO", default)]
    #[schemars(title = "Tela")]
    pub project: Option<String>,
    #[serde(rename = "MENS_PROGRAMA", default)]
    #[schemars(title = "Programa")]
    pub program: Option<String>,
    /// `boleto` or `recibo` (`MENS_DOC_ID`: a receivable title), `nfe` (an
    /// order's NF-e, `PEXM_ID`), `relatorio` (no id; `MENS_DOC_REF`), `orcamento`
    /// (`ORCA_ID`) or `pedido` (`PEDF_ID`; `MENS_DOC_REF` with `PEDF_SERIE`):
    /// attached as its owner produces it when no file is sent
    /// (`crate::documents`).
    #[serde(rename = "MENS_DOC_TIPO", default)]
    #[schemars(title = "Documento")]
    pub doc_type: Option<String>,
    #[serde(rename = "MENS_DOC_ID", default)]
    #[schemars(title = "Nº do documento")]
    pub doc_id: Option<i64>,
    /// The document's reference, a JSON object as text: a report's
    /// `{"relatorio": "vendas", "FORMATO": "pdf", "DATA_INI": …, "DATA_FIM": …}`,
    /// an order's `{"PEDF_SERIE": "1"}`.
    #[serde(rename = "MENS_DOC_REF", default)]
    #[schemars(title = "Referência do documento")]
    pub doc_ref: Option<String>,
    /// The `file` parts.
    #[serde(default)]
    pub arquivos: Vec<FormFile>,
}

pub struct SendEmail(pub Arc<Deps>);

#[async_trait]
impl Operation for SendEmail {
    type In = EmailIn;
    type Out = Queued;

    async fn run(&self, cx: &mut Ctx<'_>, i: EmailIn) -> Result<Queued> {
        let emp = cx.emp()?;
        let to = mail::addresses("Destinatário", i.to.as_deref().unwrap_or_default())?;
        if to.is_empty() {
            return Err(Error::validation(mail::NO_RECIPIENT));
        }
        let bcc = mail::addresses("Destinatário oculto", i.bcc.as_deref().unwrap_or_default())?;
        let subject = i.subject.clone().unwrap_or_default();
        mail::one_line("Assunto", &subject)?;
        if subject.trim().is_empty() {
            return Err(Error::validation(mail::NO_SUBJECT));
        }
        if chars(&subject) > 255 {
            return Err(Error::validation(
                "O assunto deve ter no máximo 255 caracteres.",
            ));
        }
        let total: usize = i.arquivos.iter().map(|f| f.conteudo.len()).sum();
        if total > files::MAX_EMAIL {
            return Err(Error::validation(files::EMAIL_TOO_BIG));
        }
        let doc = document(&i.doc_type, i.doc_id, &i.doc_ref)?;
        let mut text = i.text.clone().unwrap_or_default();
        let mut files: Vec<NewFile> = i
            .arquivos
            .iter()
            .map(|f| NewFile {
                name: files::safe_name(&f.nome),
                mime: files::mail_type(&f.nome, &f.conteudo).to_string(),
                bytes: f.conteudo.clone(),
            })
            .collect();
        // A document named without any file: attached as its owner produces it.
        if let Some(d) = doc.as_ref().filter(|_| files.is_empty()) {
            let carried = owners(&self.0, cx.caller, emp)
                .produce(d, Channel::Email)
                .await?;
            files = carried
                .files
                .into_iter()
                .map(produced)
                .collect::<Result<_>>()?;
            if files.iter().map(|f| f.bytes.len()).sum::<usize>() > files::MAX_EMAIL {
                return Err(Error::validation(files::EMAIL_TOO_BIG));
            }
            text = mail::with_lines(&text, &carried.lines);
        }
        let join = |v: &[lettre::Address]| {
            v.iter()
                .map(|a| a.to_string())
                .collect::<Vec<_>>()
                .join(";")
        };
        let (at, immediate) = schedule(i.at);
        let m = NewMessage {
            channel: Channel::Email,
            user: Some(cx.user()).filter(|u| *u > 0).or(i.user),
            to: join(&to),
            bcc: Some(join(&bcc)).filter(|b| !b.is_empty()),
            subject: Some(subject.trim().to_string()),
            text,
            at,
            immediate,
            project: given(&i.project).map(String::from),
            program: given(&i.program).map(String::from),
            kind: if files.is_empty() {
                Kind::Text
            } else {
                Kind::Document
            },
            doc: doc.as_ref().map(Document::recorded),
            template: None,
            files,
        };
        let id = queue::enqueue(cx.tx, cx.client(), emp, &m).await?;
        self.0.wake.notify_one();
        let aviso = unconfigured(cx, emp, Channel::Email, &self.0).await?;
        Ok(Queued { msg: EMAIL_QUEUED.into(), id, aviso })
    }
}

// ---------------------------------------------------------------- reads

#[derive(Debug, Deserialize, JsonSchema)]
pub struct MessagesIn {
    #[serde(rename = "DATA_INI", default)]
    #[schemars(title = "Data inicial")]
    pub from: Option<Date>,
    #[serde(rename = "DATA_FIM", default)]
    #[schemars(title = "Data final")]
    pub until: Option<Date>,
    #[serde(rename = "MENS_STATUS", default)]
    #[schemars(title = "Situação")]
    pub status: Option<String>,
    #[serde(rename = "MENS_DESTINATARIO", default)]
    #[schemars(title = "Destinatário")]
    pub to: Option<String>,
    #[serde(rename = "MENS_PROGRAMA", default)]
    #[schemars(title = "Programa")]
    pub program: Option<String>,
    #[serde(rename = "MENS_CANAL", default)]
    #[schemars(title = "Canal")]
    pub channel: Option<String>,
    #[serde(rename = "LIMIT", default)]
    #[schemars(title = "Limite")]
    pub limit: Option<i64>,
    #[serde(rename = "PAGINATION", default)]
    #[schemars(title = "Página")]
    pub page: Option<i64>,
    #[serde(rename = "OFFSET", default)]
    #[schemars(title = "Deslocamento")]
    pub offset: Option<i64>,
}

/// A message as the queue's screen lists it.
#[derive(Debug, Serialize, Deserialize, JsonSchema, sqlx::FromRow)]
pub struct MessageRow {
    #[serde(rename = "MENS_ID")]
    pub mens_id: i64,
    #[serde(rename = "MENS_EMP_ID")]
    pub mens_emp_id: i64,
    #[serde(rename = "MENS_USR_ID")]
    pub mens_usr_id: Option<i64>,
    #[serde(rename = "MENS_CANAL")]
    pub mens_canal: String,
    #[serde(rename = "MENS_DESTINATARIO")]
    pub mens_destinatario: String,
    #[serde(rename = "MENS_ASSUNTO")]
    pub mens_assunto: Option<String>,
    #[serde(rename = "MENS_DESCRICAO")]
    pub mens_descricao: Option<String>,
    #[serde(rename = "MENS_DATAHORA")]
    pub mens_datahora: DateTime<Utc>,
    #[serde(rename = "MENS_PROJETO")]
    pub mens_projeto: Option<String>,
    #[serde(rename = "MENS_TIPO")]
    pub mens_tipo: String,
    #[serde(rename = "MENS_STATUS")]
    pub mens_status: String,
    /// The status in words.
    #[serde(rename = "MENS_STATUS_DESCRICAO")]
    #[sqlx(skip)]
    pub status_label: String,
    #[serde(rename = "MENS_PROGRAMA")]
    pub mens_programa: Option<String>,
    #[serde(rename = "MENS_ERRO")]
    pub mens_erro: Option<String>,
    #[serde(rename = "MENS_TENTATIVAS")]
    pub mens_tentativas: i32,
    #[serde(rename = "MENS_PROVEDOR")]
    pub mens_provedor: Option<String>,
    #[serde(rename = "MENS_PROVEDOR_ID")]
    pub mens_provedor_id: Option<String>,
    #[serde(rename = "MENS_ANEXO_NOME")]
    pub mens_anexo_nome: Option<String>,
    #[serde(rename = "MENS_DOC_TIPO")]
    pub mens_doc_tipo: Option<String>,
    #[serde(rename = "MENS_DOC_ID")]
    pub mens_doc_id: Option<i64>,
    /// The document's reference (a JSON object as text).
    #[serde(rename = "MENS_DOC_REF")]
    pub mens_doc_ref: Option<String>,
    #[serde(rename = "MENS_DTA_CAD")]
    pub mens_dta_cad: DateTime<Utc>,
    #[serde(rename = "MENS_DTA_ENVIO")]
    pub mens_dta_envio: Option<DateTime<Utc>>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct MessagesOut {
    pub dados: Vec<MessageRow>,
    pub count: i64,
}

/// The day bounds of a period in Brasília, as instants.
fn day_start(d: NaiveDate) -> Option<DateTime<Utc>> {
    Sao_Paulo
        .from_local_datetime(&d.and_hms_opt(0, 0, 0)?)
        .earliest()
        .map(|t| t.with_timezone(&Utc))
}

pub struct Messages;

#[async_trait]
impl Operation for Messages {
    type In = MessagesIn;
    type Out = MessagesOut;

    async fn run(&self, cx: &mut Ctx<'_>, i: MessagesIn) -> Result<MessagesOut> {
        let emp = cx.emp()?;
        let from = i.from.and_then(|d| day_start(d.get()));
        let until = i.until.and_then(|d| d.get().succ_opt()).and_then(day_start);
        if let (Some(a), Some(b)) = (from, until) {
            if a >= b {
                return Err(Error::validation(
                    "A data final deve ser igual ou posterior à inicial.",
                ));
            }
        }
        let status = match given(&i.status) {
            Some(s) => Some(
                Status::parse(s)
                    .ok_or_else(|| Error::validation("Situação inválida (N, P, E, T, L ou F)."))?
                    .code(),
            ),
            None => None,
        };
        let channel = match given(&i.channel) {
            Some(c) => Some(
                Channel::parse(&c.to_ascii_uppercase())
                    .ok_or_else(|| Error::validation("Canal inválido (W ou E)."))?
                    .code(),
            ),
            None => None,
        };
        // A number is looked for by its digits (as typed with its mask).
        let to = given(&i.to).map(|t| {
            let digits: String = t.chars().filter(char::is_ascii_digit).collect();
            if digits.len() >= 4 && !t.contains('@') {
                format!("%{digits}%")
            } else {
                format!("%{}%", t.replace(['%', '_'], ""))
            }
        });
        let limit = i.limit.unwrap_or(100);
        if !(1..=6000).contains(&limit) {
            return Err(Error::validation("LIMIT deve estar entre 1 e 6000."));
        }
        let offset = match (i.offset, i.page) {
            (Some(o), _) if o >= 0 => o,
            (None, Some(p)) if p >= 0 => p.saturating_mul(limit),
            (None, None) => 0,
            _ => return Err(Error::validation("Página inválida.")),
        };
        let filter = "FROM messaging.mensagens
             WHERE client_id = $1 AND mens_emp_id = $2
               AND ($3::timestamptz IS NULL OR mens_datahora >= $3)
               AND ($4::timestamptz IS NULL OR mens_datahora < $4)
               AND ($5::text IS NULL OR mens_status = $5)
               AND ($6::text IS NULL OR mens_destinatario ILIKE $6)
               AND ($7::text IS NULL OR mens_programa = $7)
               AND ($8::text IS NULL OR mens_canal = $8)";
        let count: i64 = sqlx::query_scalar(&format!("SELECT count(*) {filter}"))
            .bind(cx.client())
            .bind(emp)
            .bind(from)
            .bind(until)
            .bind(status)
            .bind(&to)
            .bind(given(&i.program))
            .bind(channel)
            .fetch_one(&mut **cx.tx)
            .await?;
        let mut dados: Vec<MessageRow> = sqlx::query_as(&format!(
            "SELECT mens_id, mens_emp_id, mens_usr_id, mens_canal, mens_destinatario, mens_assunto,
                    mens_descricao, mens_datahora, mens_projeto, mens_tipo, mens_status, mens_programa,
                    mens_erro, mens_tentativas, mens_provedor, mens_provedor_id, mens_anexo_nome,
                    mens_doc_tipo, mens_doc_id, mens_doc_ref, mens_dta_cad, mens_dta_envio
             {filter} ORDER BY mens_datahora DESC, mens_id DESC LIMIT $9 OFFSET $10"
        ))
        .bind(cx.client())
        .bind(emp)
        .bind(from)
        .bind(until)
        .bind(status)
        .bind(&to)
        .bind(given(&i.program))
        .bind(channel)
        .bind(limit)
        .bind(offset)
        .fetch_all(&mut **cx.tx)
        .await?;
        for r in dados.iter_mut() {
            r.status_label = Status::parse(&r.mens_status)
                .map(Status::label)
                .unwrap_or_default()
                .into();
        }
        Ok(MessagesOut { dados, count })
    }
}

#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(rename = "MessageIdIn")]
pub struct IdIn {
    /// A message's id, or `conexao`.
    pub id: String,
}

/// A message's status.
#[derive(Debug, Serialize, Deserialize, JsonSchema, sqlx::FromRow)]
pub struct MessageStatus {
    #[serde(rename = "MENS_ID")]
    pub mens_id: i64,
    #[serde(rename = "MENS_STATUS")]
    pub mens_status: String,
    #[serde(rename = "MENS_STATUS_DESCRICAO")]
    #[sqlx(skip)]
    pub label: String,
    #[serde(rename = "MENS_ERRO")]
    pub mens_erro: Option<String>,
    #[serde(rename = "MENS_TENTATIVAS")]
    pub mens_tentativas: i32,
    #[serde(rename = "MENS_PROVEDOR_ID")]
    pub mens_provedor_id: Option<String>,
    #[serde(rename = "MENS_DTA_ENVIO")]
    pub mens_dta_envio: Option<DateTime<Utc>>,
}

#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum StatusOut {
    Message(MessageStatus),
    Connection(crate::providers::Connection),
}

fn message_id(id: &str) -> Result<i64> {
    id.trim()
        .parse::<i64>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| Error::validation("Mensagem inválida."))
}

/// A provider's refusal as the call's answer: what may pass is 503, the rest 400.
fn provider_error(e: SendError) -> Error {
    match e {
        SendError::Retry { reason, .. } => Error::Unavailable(reason),
        SendError::Fail { reason } => Error::Validation(reason),
    }
}

async fn provider(cx: &mut Ctx<'_>, deps: &Deps) -> Result<Box<dyn crate::providers::Provider>> {
    let emp = cx.emp()?;
    let cfg = settings::whatsapp(cx.tx, &deps.sealer, cx.client(), emp)
        .await?
        .ok_or_else(|| Error::validation(settings::NO_WHATSAPP))?;
    cfg.provider(&deps.http)
}

pub struct StatusOf(pub Arc<Deps>);

#[async_trait]
impl Operation for StatusOf {
    type In = IdIn;
    type Out = StatusOut;

    async fn run(&self, cx: &mut Ctx<'_>, i: IdIn) -> Result<StatusOut> {
        if i.id.trim().eq_ignore_ascii_case("conexao") {
            let p = provider(cx, &self.0).await?;
            return p
                .connection()
                .await
                .map(StatusOut::Connection)
                .map_err(provider_error);
        }
        let id = message_id(&i.id)?;
        let emp = cx.emp()?;
        let mut row: MessageStatus = sqlx::query_as(
            "SELECT mens_id, mens_status, mens_erro, mens_tentativas, mens_provedor_id, mens_dta_envio
             FROM messaging.mensagens WHERE client_id = $1 AND mens_emp_id = $2 AND mens_id = $3",
        )
        .bind(cx.client())
        .bind(emp)
        .bind(id)
        .fetch_optional(&mut **cx.tx)
        .await?
        .ok_or_else(|| Error::NotFound("Mensagem não encontrada.".into()))?;
        row.label = Status::parse(&row.mens_status)
            .map(Status::label)
            .unwrap_or_default()
            .into();
        Ok(StatusOut::Message(row))
    }
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct PairIn {}

pub struct Pair(pub Arc<Deps>);

#[async_trait]
impl Operation for Pair {
    type In = PairIn;
    type Out = crate::providers::Connection;

    async fn run(&self, cx: &mut Ctx<'_>, _: PairIn) -> Result<crate::providers::Connection> {
        let p = provider(cx, &self.0).await?;
        p.connect().await.map_err(provider_error)
    }
}

pub struct Resend(pub Arc<Deps>);

#[async_trait]
impl Operation for Resend {
    type In = IdIn;
    type Out = Done;

    async fn run(&self, cx: &mut Ctx<'_>, i: IdIn) -> Result<Done> {
        let id = message_id(&i.id)?;
        let emp = cx.emp()?;
        let row: Option<(String, String)> = sqlx::query_as(
            "SELECT mens_status, mens_canal FROM messaging.mensagens
             WHERE client_id = $1 AND mens_emp_id = $2 AND mens_id = $3 FOR UPDATE",
        )
        .bind(cx.client())
        .bind(emp)
        .bind(id)
        .fetch_optional(&mut **cx.tx)
        .await?;
        let (status, channel) =
            row.ok_or_else(|| Error::NotFound("Mensagem não encontrada.".into()))?;
        if Status::parse(&status) != Some(Status::Failed) {
            return Err(Error::validation(
                "Só mensagens que falharam podem ser reenviadas.",
            ));
        }
        // The one way back in the status order: an explicit resend.
        sqlx::query(
            "UPDATE messaging.mensagens SET mens_status = 'N', mens_erro = NULL, mens_tentativas = 0,
                    mens_provedor_id = NULL, mens_datahora = now(), mens_imediata = true, mens_dta_alt = now()
             WHERE client_id = $1 AND mens_emp_id = $2 AND mens_id = $3",
        )
        .bind(cx.client())
        .bind(emp)
        .bind(id)
        .execute(&mut **cx.tx)
        .await?;
        let channel = Channel::parse(&channel).unwrap_or(Channel::Whatsapp);
        let key = queue::Key { client: cx.client(), emp, id };
        queue::dispatch(cx.tx, key, channel, Utc::now()).await?;
        self.0.wake.notify_one();
        Ok(Done::ok("Mensagem colocada de novo na fila."))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn send_times_read_rfc3339_and_brasilia_wall_clock() {
        let utc = |s: &str| {
            DateTime::parse_from_rfc3339(s)
                .expect("t")
                .with_timezone(&Utc)
        };
        assert_eq!(
            When::parse("2026-06-10T12:00:00Z"),
            Some(When(utc("2026-06-10T12:00:00Z")))
        );
        assert_eq!(
            When::parse("2026-06-10 09:00"),
            Some(When(utc("2026-06-10T12:00:00Z")))
        );
        assert_eq!(
            When::parse("10/06/2026 09:00:30"),
            Some(When(utc("2026-06-10T12:00:30Z")))
        );
        assert_eq!(
            When::parse("2026-06-10"),
            Some(When(utc("2026-06-10T03:00:00Z")))
        );
        assert_eq!(When::parse("amanhã"), None);
        assert_eq!(When::parse("2026-02-30 10:00"), None);
    }

    #[test]
    fn a_past_or_missing_time_is_now_and_immediate() {
        let (_, now) = schedule(None);
        assert!(now);
        let (_, past) = schedule(When::parse("2020-01-01 10:00"));
        assert!(past);
        let future = When::parse("2999-01-01 10:00");
        let (at, immediate) = schedule(future);
        assert!(!immediate);
        assert_eq!(Some(When(at)), future);
    }
}
