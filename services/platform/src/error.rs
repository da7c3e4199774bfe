//! The one error type. Every variant but `Internal` and `Db` carries a pt-BR text
//! that is safe to show; internals are logged where they are converted and the
//! caller only sees 'Erro interno do servidor.'. Conversions to `tonic::Status`
//! live here; the gateway turns a status into the legacy `{code, msg}` body.

use tonic::{Code, Status};

pub type Result<T, E = Error> = std::result::Result<T, E>;

pub const INTERNAL_MSG: &str = "Erro interno do servidor.";
pub const TIMEOUT_MSG: &str = "Tempo de Solicitação Esgotado";

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{0}")]
    Validation(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Forbidden(String),
    #[error("{0}")]
    Unauthenticated(String),
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    TooManyRequests(String),
    #[error("{0}")]
    Unavailable(String),
    #[error("{0}")]
    Timeout(String),
    #[error("database error: {0}")]
    Db(#[from] sqlx::Error),
    #[error("internal error: {0}")]
    Internal(String),
}

impl Error {
    pub fn validation(msg: impl Into<String>) -> Self {
        Error::Validation(msg.into())
    }
    pub fn not_found() -> Self {
        Error::NotFound("Registro não encontrado.".into())
    }
    pub fn forbidden() -> Self {
        Error::Forbidden("Acesso negado.".into())
    }
    pub fn internal(e: impl std::fmt::Display) -> Self {
        Error::Internal(e.to_string())
    }

    /// HTTP status of the legacy body.
    pub fn http_status(&self) -> u16 {
        match self {
            Error::Validation(_) => 400,
            Error::Unauthenticated(_) => 401,
            Error::Forbidden(_) => 403,
            Error::NotFound(_) => 404,
            Error::Timeout(_) => 408,
            Error::Conflict(_) => 409,
            Error::TooManyRequests(_) => 429,
            Error::Unavailable(_) => 503,
            Error::Db(e) => db_status(e).0,
            Error::Internal(_) => 500,
        }
    }

    /// The text a user may see.
    pub fn public_message(&self) -> String {
        match self {
            Error::Db(e) => db_status(e).1,
            Error::Internal(_) => INTERNAL_MSG.into(),
            other => other.to_string(),
        }
    }

    /// Maps a database error raised by one statement to a friendly message, looking
    /// the violated constraint up in `names` first.
    pub fn on_constraint(self, names: &[(&str, &str)]) -> Self {
        if let Error::Db(sqlx::Error::Database(db)) = &self {
            if let Some(c) = db.constraint() {
                if let Some((_, msg)) = names.iter().find(|(n, _)| *n == c) {
                    return Error::Conflict((*msg).to_string());
                }
            }
        }
        self
    }
}

/// Status and public text for a database error: constraint violations become a
/// clear message instead of a 500 with SQL text.
fn db_status(e: &sqlx::Error) -> (u16, String) {
    match e {
        sqlx::Error::RowNotFound => (404, "Registro não encontrado.".into()),
        sqlx::Error::Database(db) => match db.code().as_deref() {
            Some("23505") => (409, "Registro já cadastrado.".into()),
            Some("23503") => {
                // "update or delete on table ... violates foreign key": the row is in
                // use; "insert or update on table ...": what it points at is missing.
                let m = db.message();
                if m.starts_with("update or delete") || m.contains("atualização ou exclusão") {
                    (
                        409,
                        "Registro em uso por outros cadastros; não pode ser excluído.".into(),
                    )
                } else {
                    (409, "Registro relacionado não encontrado.".into())
                }
            }
            Some("23502") => (400, "Campo obrigatório não informado.".into()),
            Some("23514") => (400, "Valor não permitido para o campo.".into()),
            Some("22P02") | Some("22007") | Some("22008") => (400, "Valor inválido.".into()),
            Some("22003") => (400, "Valor fora do intervalo permitido.".into()),
            Some("22001") | Some("54000") => {
                (400, "Texto maior que o permitido para o campo.".into())
            }
            // NUL or a byte sequence the database encoding cannot hold.
            Some("22021") | Some("22P05") => (400, "Texto com caracteres inválidos.".into()),
            Some("57014") => (408, TIMEOUT_MSG.into()),
            Some("42501") => (403, "Acesso negado.".into()),
            // The connection was lost or ended by the server (a restart): another
            // attempt in a moment will find a new one.
            Some(c) if c.starts_with("08") || c.starts_with("57P") => {
                (503, "Serviço temporariamente indisponível.".into())
            }
            _ => (500, INTERNAL_MSG.into()),
        },
        sqlx::Error::PoolTimedOut | sqlx::Error::Io(_) => {
            (503, "Serviço temporariamente indisponível.".into())
        }
        _ => (500, INTERNAL_MSG.into()),
    }
}

impl From<Error> for Status {
    fn from(e: Error) -> Status {
        let status = e.http_status();
        if status >= 500 {
            tracing::error!(error = %e, "request failed");
        }
        let code = match status {
            400 => Code::InvalidArgument,
            401 => Code::Unauthenticated,
            403 => Code::PermissionDenied,
            404 => Code::NotFound,
            408 => Code::DeadlineExceeded,
            409 => Code::AlreadyExists,
            429 => Code::ResourceExhausted,
            503 => Code::Unavailable,
            _ => Code::Internal,
        };
        let mut st = Status::new(code, e.public_message());
        if code == Code::Unavailable {
            st.metadata_mut().insert(
                PUBLIC_UNAVAILABLE,
                tonic::metadata::MetadataValue::from_static("1"),
            );
        }
        st
    }
}

/// Marks an `Unavailable` status a service raised itself (its message is for the
/// user: 'Não foi possível consultar o limite de crédito…'), unlike one of the
/// transport (a connection refused), whose text is not.
const PUBLIC_UNAVAILABLE: &str = "x-erp-public";

/// An `Unavailable` status a service raised itself, its message for the user
/// (not a transport's).
pub(crate) fn is_public_unavailable(s: &Status) -> bool {
    s.code() == Code::Unavailable && s.metadata().contains_key(PUBLIC_UNAVAILABLE)
}

impl From<Status> for Error {
    fn from(s: Status) -> Error {
        let msg = s.message().to_string();
        match s.code() {
            Code::InvalidArgument | Code::OutOfRange => Error::Validation(msg),
            Code::Unauthenticated => Error::Unauthenticated(msg),
            Code::PermissionDenied => Error::Forbidden(msg),
            Code::NotFound => Error::NotFound(msg),
            // tonic reports its own deadline as Cancelled("Timeout expired").
            Code::DeadlineExceeded | Code::Cancelled => Error::Timeout(TIMEOUT_MSG.into()),
            Code::AlreadyExists | Code::FailedPrecondition | Code::Aborted => Error::Conflict(msg),
            Code::ResourceExhausted => Error::TooManyRequests(msg),
            Code::Unavailable if s.metadata().contains_key(PUBLIC_UNAVAILABLE) => {
                Error::Unavailable(msg)
            }
            Code::Unavailable => Error::Unavailable("Serviço temporariamente indisponível.".into()),
            _ => Error::Internal(format!("upstream {:?}: {msg}", s.code())),
        }
    }
}

impl From<serde_json::Error> for Error {
    fn from(e: serde_json::Error) -> Self {
        Error::Validation(format!("Corpo da requisição inválido: {e}"))
    }
}

impl From<async_nats::Error> for Error {
    fn from(e: async_nats::Error) -> Self {
        Error::Unavailable(format!("barramento indisponível: {e}"))
    }
}

impl From<redis::RedisError> for Error {
    fn from(e: redis::RedisError) -> Self {
        Error::Internal(format!("redis: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_details_never_reach_the_caller() {
        let s: Status = Error::internal("password=hunter2 at line 3").into();
        assert_eq!(s.code(), Code::Internal);
        assert_eq!(s.message(), INTERNAL_MSG);
    }

    #[test]
    fn status_round_trip_keeps_public_messages() {
        for (e, http) in [
            (Error::validation("Nome é obrigatório!"), 400),
            (Error::forbidden(), 403),
            (Error::not_found(), 404),
            (Error::Conflict("Registro já cadastrado.".into()), 409),
            (Error::TooManyRequests("Muitas tentativas.".into()), 429),
        ] {
            let msg = e.public_message();
            let back: Error = Status::from(e).into();
            assert_eq!(back.http_status(), http);
            assert_eq!(back.public_message(), msg);
        }
    }

    #[test]
    fn a_service_s_own_unavailable_text_survives_but_a_transport_s_does_not() {
        let own = "Não foi possível consultar o limite de crédito: financeiro indisponível.";
        let back: Error = Status::from(Error::Unavailable(own.into())).into();
        assert_eq!(
            (back.http_status(), back.public_message()),
            (503, own.to_string())
        );
        let transport: Error = Status::unavailable("tcp connect error: refused").into();
        assert_eq!(transport.http_status(), 503);
        assert_eq!(
            transport.public_message(),
            "Serviço temporariamente indisponível."
        );
    }

    #[test]
    fn deadline_becomes_the_legacy_timeout_text() {
        let e: Error = Status::deadline_exceeded("x").into();
        assert_eq!(e.http_status(), 408);
        assert_eq!(e.public_message(), TIMEOUT_MSG);
    }
}
