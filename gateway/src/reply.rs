//! How the legacy API answers: errors as `{code, msg}` with the HTTP status in
//! `code`, an empty list as 204 with no body, counts as `[{"TOT_REGISTROS": n}]`,
//! rows as the service serialized them.

use axum::body::{to_bytes, Body};
use axum::extract::Request;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use bytes::Bytes;
use erp_platform::{Error, Result};
use erp_proto::erp::v1::{ActionReply, FileReply};
use serde_json::{json, Value};

pub const MAX_JSON_BODY: usize = 10 * 1024 * 1024;

/// An error as the legacy API answers it.
pub struct ApiError(pub Error);

impl From<Error> for ApiError {
    fn from(e: Error) -> Self {
        ApiError(e)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.0.http_status();
        if status >= 500 {
            tracing::error!(error = %self.0, "request failed");
        }
        let code = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        (
            code,
            Json(json!({"code": status, "msg": self.0.public_message()})),
        )
            .into_response()
    }
}

pub type ApiResult = std::result::Result<Response, ApiError>;

/// A request's body, at most `MAX_JSON_BODY` bytes.
pub async fn body_bytes(req: Request) -> Result<Bytes> {
    to_bytes(req.into_body(), MAX_JSON_BODY)
        .await
        .map_err(|_| Error::validation("Corpo da requisição muito grande ou inválido."))
}

pub fn ok_json(v: impl serde::Serialize) -> ApiResult {
    Ok(Json(v).into_response())
}

/// JSON a service already serialized, answered as it is.
pub fn json_bytes(bytes: Bytes) -> ApiResult {
    Ok((
        [(header::CONTENT_TYPE, "application/json")],
        Body::from(bytes),
    )
        .into_response())
}

/// A list as the legacy API answers it: 204 with no body when empty.
pub fn list_response(rows: Rows) -> ApiResult {
    if rows.is_empty() {
        Ok(StatusCode::NO_CONTENT.into_response())
    } else {
        json_bytes(rows.json)
    }
}

/// Rows a declared call answered (a JSON array): 204 when empty.
pub fn rows_response(rows: Vec<serde_json::Value>) -> ApiResult {
    if rows.is_empty() {
        Ok(StatusCode::NO_CONTENT.into_response())
    } else {
        ok_json(rows)
    }
}

/// A file a declared call answered: its bytes, type and download name.
pub fn file_response(file: FileReply) -> ApiResult {
    let kind = header::HeaderValue::from_str(&file.content_type).map_err(Error::internal)?;
    let name: String = file
        .name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
        .collect();
    let disposition = header::HeaderValue::from_str(&format!("inline; filename=\"{name}\""))
        .map_err(Error::internal)?;
    Ok((
        [
            (header::CONTENT_TYPE, kind),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        Body::from(file.bytes),
    )
        .into_response())
}

/// What a declared call answered, as the legacy API answers it: a file, 204 for
/// an empty list, or the JSON as the service wrote it.
pub fn action_response(reply: ActionReply) -> ApiResult {
    if let Some(f) = reply.file {
        return file_response(f);
    }
    if reply.empty {
        return Ok(StatusCode::NO_CONTENT.into_response());
    }
    json_bytes(reply.json)
}

pub fn count_response(total: i64) -> ApiResult {
    ok_json(json!([{ "TOT_REGISTROS": total }]))
}

/// Rows as the service serialized them (a JSON array), with the total when asked.
pub struct Rows {
    pub json: Bytes,
    pub total: Option<i64>,
}

impl Rows {
    pub fn is_empty(&self) -> bool {
        self.json.as_ref() == b"[]"
    }

    pub fn parse(&self) -> Result<Vec<Value>> {
        Ok(serde_json::from_slice(&self.json)?)
    }
}
