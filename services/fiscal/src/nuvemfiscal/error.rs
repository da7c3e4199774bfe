//! What a call to the Nuvem Fiscal can end in, other than its answer.

use super::types::ErrorDetail;

/// Shown when the Nuvem Fiscal credentials are not configured
/// ([`super::Config::from_env`] answered `None`).
pub const MISSING_CREDENTIALS: &str =
    "Configure as credenciais da Nuvem Fiscal em Empresas › Serviços fiscais.";

pub type Result<T> = std::result::Result<T, Error>;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The request was refused before it was sent (a justification too short,
    /// a logo too large): the message is for the user, in pt-BR.
    #[error("{0}")]
    Invalid(String),
    /// The token endpoint refused the credentials or failed.
    #[error("A Nuvem Fiscal recusou as credenciais (HTTP {status}): {message}")]
    Auth { status: u16, message: String },
    /// The API answered with an error status. `code` and `message` come from
    /// the error body `{"error": {"code", "message", "errors"}}` when there is
    /// one; otherwise `message` holds the start of the body.
    #[error("Nuvem Fiscal (HTTP {status}): {message}")]
    Api {
        status: u16,
        code: String,
        message: String,
        errors: Vec<ErrorDetail>,
    },
    /// No answer: connection refused, reset or timed out (after the retries
    /// that were safe).
    #[error("Não foi possível falar com a Nuvem Fiscal: {0}")]
    Transport(#[from] reqwest::Error),
    /// An answer with a success status whose body is not what the spec says.
    #[error("Resposta inesperada da Nuvem Fiscal: {0}")]
    Decode(String),
}

impl Error {
    /// The HTTP status of an API or token error.
    pub fn status(&self) -> Option<u16> {
        match self {
            Error::Api { status, .. } | Error::Auth { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// Whether an emission that ended in this error may have created the
    /// document anyway (a 5xx, a timeout or a broken connection after the
    /// request was sent, or a success whose body could not be read): the
    /// caller then looks it up by `referencia` before emitting again.
    pub fn outcome_unknown(&self) -> bool {
        match self {
            Error::Api { status, .. } => *status >= 500,
            Error::Transport(e) => !e.is_connect() && !e.is_builder(),
            Error::Decode(_) => true,
            Error::Invalid(_) | Error::Auth { .. } => false,
        }
    }
}
