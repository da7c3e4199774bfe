//! The WhatsApp providers: what the worker and the calls ask of them
//! ([`Provider`]), and the two real HTTP clients behind it, the Meta WhatsApp
//! Cloud API (`cloud`) and the Evolution API v2 (`evolution`).
//!
//! A send either succeeds with the provider's message id (what its webhooks
//! name later), or fails in one of two ways the worker treats differently:
//! [`SendError::Retry`] (429, 5xx, a timeout, a connection refused: the same
//! request may succeed later) and [`SendError::Fail`] (the provider said no for
//! a reason that will not change: a bad number, an expired token, the 24-hour
//! window). Reasons are pt-BR texts a user can act on (`MENS_ERRO`).

pub mod cloud;
pub mod evolution;

use std::time::Duration;

use async_trait::async_trait;
use serde::Serialize;

use crate::files::Kind;

/// A message as a provider sends it.
#[derive(Clone, Debug)]
pub struct Outgoing {
    /// The recipient's digits (55 + DDD + number).
    pub to: String,
    pub kind: Kind,
    /// The text, or the caption of an image or a document.
    pub text: String,
    pub attachment: Option<Attachment>,
    /// An approved template to send instead of free text (outside the 24-hour
    /// customer service window the Cloud API takes nothing else).
    pub template: Option<Template>,
}

#[derive(Clone, Debug)]
pub struct Attachment {
    pub name: String,
    pub mime: String,
    pub bytes: Vec<u8>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    pub name: String,
    /// Language code of the approved translation (`pt_BR`).
    pub language: String,
    /// The body's `{{1}}`, `{{2}}`... in order.
    pub parameters: Vec<String>,
}

/// A send the provider accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sent {
    /// The provider's id of the message (Cloud API `wamid.…`, Evolution's key id).
    pub provider_id: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SendError {
    /// May succeed later: try again after the backoff (and at least `after`, the
    /// provider's `Retry-After`).
    Retry {
        reason: String,
        after: Option<Duration>,
    },
    /// Will not succeed as it is: the message fails with `reason`.
    Fail { reason: String },
}

impl SendError {
    pub fn retry(reason: impl Into<String>) -> SendError {
        SendError::Retry { reason: reason.into(), after: None }
    }
    pub fn fail(reason: impl Into<String>) -> SendError {
        SendError::Fail { reason: reason.into() }
    }
    pub fn reason(&self) -> &str {
        match self {
            SendError::Retry { reason, .. } | SendError::Fail { reason } => reason,
        }
    }
}

/// The company's number at the provider, as `GET /whatsapp/status/conexao` and
/// `POST /whatsapp/auth` answer it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Connection {
    /// `open` (connected), `connecting` (waiting for the QR code to be read),
    /// `close` (disconnected).
    pub state: String,
    /// The state in words.
    pub msg: String,
    /// The QR code to read with the phone (a PNG as a `data:` URI), while
    /// connecting through the Evolution API.
    pub qrcode: Option<String>,
    /// The number as the provider shows it, when it says.
    pub numero: Option<String>,
    /// The business name the provider verified (Cloud API).
    pub nome: Option<String>,
    /// The number's quality rating (Cloud API: GREEN, YELLOW, RED).
    pub qualidade: Option<String>,
}

impl Connection {
    pub fn state(state: &str) -> Connection {
        let msg = match state {
            "open" => "Conectado.",
            "connecting" => "Aguardando a leitura do QR code no WhatsApp do celular.",
            _ => "Desconectado.",
        };
        Connection {
            state: state.into(),
            msg: msg.into(),
            qrcode: None,
            numero: None,
            nome: None,
            qualidade: None,
        }
    }
}

/// What the queue and the calls ask of a WhatsApp provider.
#[async_trait]
pub trait Provider: Send + Sync {
    async fn send(&self, msg: &Outgoing) -> Result<Sent, SendError>;
    /// The number's connection state.
    async fn connection(&self) -> Result<Connection, SendError>;
    /// Starts pairing the number (a QR code to read), when the provider pairs so.
    async fn connect(&self) -> Result<Connection, SendError>;
}

/// An HTTP failure that never reached an answer: a timeout or a refused
/// connection may succeed later.
pub(crate) fn transport_error(provider: &str, e: &reqwest::Error) -> SendError {
    if e.is_timeout() {
        SendError::retry(format!("{provider} não respondeu a tempo."))
    } else if e.is_connect() {
        SendError::retry(format!("Sem conexão com {provider}."))
    } else {
        SendError::retry(format!("Falha de comunicação com {provider}."))
    }
}

/// The `Retry-After` of an answer, in seconds, when it has one.
pub(crate) fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<Duration> {
    headers
        .get(reqwest::header::RETRY_AFTER)?
        .to_str()
        .ok()?
        .trim()
        .parse::<u64>()
        .ok()
        .map(|s| Duration::from_secs(s.min(3600)))
}

/// Whether an HTTP status means the same request may succeed later.
pub(crate) fn retryable(status: reqwest::StatusCode) -> bool {
    status == reqwest::StatusCode::TOO_MANY_REQUESTS
        || status == reqwest::StatusCode::REQUEST_TIMEOUT
        || status.is_server_error()
}
