//! The Evolution API v2 (a self-hosted WhatsApp Web gateway): the instance's
//! QR-code pairing (`/instance/connect/{instance}`), its connection state, sending
//! text (`/message/sendText/{instance}`) and media as base64
//! (`/message/sendMedia/{instance}`), with the instance's `apikey` header; and its
//! webhook (`messages.update` events), which carries the instance's name and
//! `apikey`.

use std::time::Duration;

use async_trait::async_trait;
use base64::Engine;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{
    retry_after, retryable, transport_error, Connection, Outgoing, Provider, SendError, Sent,
};
use crate::files::Kind;
use crate::status::Status;

const NAME: &str = "a Evolution API";
pub const NO_TEMPLATES: &str =
    "A Evolution API não envia modelos (templates) do WhatsApp: envie a mensagem como texto.";
pub const NO_WHATSAPP: &str = "O número não tem WhatsApp.";

pub struct Evolution {
    http: reqwest::Client,
    base: String,
    instance: String,
    apikey: String,
}

#[derive(Debug, Serialize)]
pub struct TextRequest<'a> {
    pub number: &'a str,
    pub text: &'a str,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MediaRequest<'a> {
    pub number: &'a str,
    pub mediatype: &'static str,
    pub mimetype: &'a str,
    pub caption: &'a str,
    /// The file as plain base64 (no `data:` prefix).
    pub media: String,
    pub file_name: &'a str,
}

#[derive(Debug, Deserialize)]
struct SendAnswer {
    key: Key,
}

#[derive(Debug, Deserialize)]
struct Key {
    id: String,
}

#[derive(Debug, Deserialize)]
struct StateAnswer {
    instance: InstanceState,
}

#[derive(Debug, Deserialize)]
struct InstanceState {
    state: String,
}

#[derive(Debug, Default, Deserialize)]
struct ConnectAnswer {
    #[serde(default)]
    base64: Option<String>,
    #[serde(default)]
    code: Option<String>,
    #[serde(default)]
    instance: Option<InstanceState>,
}

impl Evolution {
    pub fn new(http: reqwest::Client, base: &str, instance: &str, apikey: &str) -> Evolution {
        Evolution {
            http,
            base: base.trim().trim_end_matches('/').to_string(),
            instance: instance.trim().to_string(),
            apikey: apikey.into(),
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}/{path}/{}", self.base, self.instance)
    }

    async fn failure(&self, resp: reqwest::Response) -> SendError {
        let status = resp.status();
        let after = retry_after(resp.headers());
        let body: Value = resp.json().await.unwrap_or(Value::Null);
        if retryable(status) {
            return SendError::Retry {
                reason: format!(
                    "A Evolution API respondeu {}; nova tentativa em instantes.",
                    status.as_u16()
                ),
                after,
            };
        }
        let messages = body.pointer("/response/message");
        let no_whatsapp = messages.and_then(Value::as_array).is_some_and(|a| {
            a.iter()
                .any(|m| m.get("exists") == Some(&Value::Bool(false)))
        });
        if no_whatsapp {
            return SendError::fail(NO_WHATSAPP);
        }
        match status.as_u16() {
            401 | 403 => SendError::fail("A chave (apikey) da Evolution API foi recusada: confira as configurações do WhatsApp."),
            404 => SendError::fail(format!(
                "Instância '{}' não encontrada na Evolution API.",
                self.instance
            )),
            s => {
                let text = messages
                    .map(|m| match m {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    })
                    .unwrap_or_default();
                SendError::fail(format!("A Evolution API recusou a mensagem ({s}): {text}").trim_end_matches(": ").to_string())
            }
        }
    }

    async fn post<T: Serialize>(&self, path: &str, body: &T) -> Result<Sent, SendError> {
        let resp = self
            .http
            .post(self.url(path))
            .header("apikey", &self.apikey)
            .json(body)
            .send()
            .await
            .map_err(|e| transport_error(NAME, &e))?;
        if !resp.status().is_success() {
            return Err(self.failure(resp).await);
        }
        let a: SendAnswer = resp
            .json()
            .await
            .map_err(|_| SendError::retry("Resposta inesperada da Evolution API."))?;
        Ok(Sent { provider_id: a.key.id })
    }

    async fn get<T: for<'de> Deserialize<'de> + Default>(
        &self,
        path: &str,
    ) -> Result<T, SendError> {
        let resp = self
            .http
            .get(self.url(path))
            .header("apikey", &self.apikey)
            .timeout(Duration::from_secs(10))
            .send()
            .await
            .map_err(|e| transport_error(NAME, &e))?;
        if !resp.status().is_success() {
            return Err(self.failure(resp).await);
        }
        resp.json()
            .await
            .map_err(|_| SendError::retry("Resposta inesperada da Evolution API."))
    }
}

impl Default for StateAnswer {
    fn default() -> Self {
        StateAnswer { instance: InstanceState { state: "close".into() } }
    }
}

#[async_trait]
impl Provider for Evolution {
    async fn send(&self, m: &Outgoing) -> Result<Sent, SendError> {
        if m.template.is_some() {
            return Err(SendError::fail(NO_TEMPLATES));
        }
        match (m.kind, &m.attachment) {
            (Kind::Text, _) => {
                self.post(
                    "message/sendText",
                    &TextRequest { number: &m.to, text: &m.text },
                )
                .await
            }
            (kind, Some(a)) => {
                let req = MediaRequest {
                    number: &m.to,
                    mediatype: if kind == Kind::Image {
                        "image"
                    } else {
                        "document"
                    },
                    mimetype: &a.mime,
                    caption: &m.text,
                    media: base64::engine::general_purpose::STANDARD.encode(&a.bytes),
                    file_name: &a.name,
                };
                self.post("message/sendMedia", &req).await
            }
            (_, None) => Err(SendError::fail(
                "Mensagem sem o arquivo que o seu tipo pede.",
            )),
        }
    }

    async fn connection(&self) -> Result<Connection, SendError> {
        let a: StateAnswer = self.get("instance/connectionState").await?;
        Ok(Connection::state(&a.instance.state))
    }

    async fn connect(&self) -> Result<Connection, SendError> {
        let a: ConnectAnswer = self.get("instance/connect").await?;
        if let Some(i) = a.instance.filter(|i| i.state == "open") {
            return Ok(Connection::state(&i.state));
        }
        let mut c = Connection::state("connecting");
        c.qrcode = a.base64.filter(|b| !b.is_empty()).map(|b| {
            if b.starts_with("data:") {
                b
            } else {
                format!("data:image/png;base64,{b}")
            }
        });
        if c.qrcode.is_none() && a.code.is_none() {
            c.msg =
                "A Evolution API ainda não gerou o QR code; tente novamente em instantes.".into();
        }
        Ok(c)
    }
}

// --------------------------------------------------------------- webhooks

/// A webhook call of an instance: who sent it and the statuses it reports.
#[derive(Debug, PartialEq, Eq)]
pub struct Hook {
    pub instance: String,
    pub apikey: Option<String>,
    /// (the message's key id, its status).
    pub reports: Vec<(String, Status)>,
}

fn status_of(v: &Value) -> Option<Status> {
    let code = match v {
        Value::String(s) => s.to_ascii_uppercase(),
        Value::Number(n) => match n.as_i64()? {
            0 => "ERROR".into(),
            2 => "SERVER_ACK".into(),
            3 => "DELIVERY_ACK".into(),
            4 => "READ".into(),
            5 => "PLAYED".into(),
            _ => return None,
        },
        _ => return None,
    };
    match code.as_str() {
        "SERVER_ACK" => Some(Status::Sent),
        "DELIVERY_ACK" => Some(Status::Delivered),
        "READ" | "PLAYED" => Some(Status::Read),
        "ERROR" => Some(Status::Failed),
        _ => None,
    }
}

/// Reads a webhook body; `None` when it is not an Evolution event.
pub fn hook(body: &[u8]) -> Option<Hook> {
    let v: Value = serde_json::from_slice(body).ok()?;
    let instance = v.get("instance")?.as_str()?.to_string();
    let apikey = v.get("apikey").and_then(Value::as_str).map(String::from);
    let event = v
        .get("event")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_ascii_lowercase()
        .replace('_', ".");
    let mut reports = Vec::new();
    if event == "messages.update" {
        let items: Vec<&Value> = match v.get("data") {
            Some(Value::Array(a)) => a.iter().collect(),
            Some(d @ Value::Object(_)) => vec![d],
            _ => Vec::new(),
        };
        for d in items {
            let id = d
                .get("keyId")
                .or_else(|| d.pointer("/key/id"))
                .and_then(Value::as_str);
            let status = d
                .get("status")
                .or_else(|| d.pointer("/update/status"))
                .and_then(status_of);
            if let (Some(id), Some(status)) = (id, status) {
                reports.push((id.to_string(), status));
            }
        }
    }
    Some(Hook { instance, apikey, reports })
}

/// Compares two secrets in time that depends only on their lengths.
pub fn same_secret(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_updates_become_statuses() {
        let body = serde_json::json!({
            "event": "messages.update", "instance": "loja1", "apikey": "K",
            "data": {"keyId": "3EB0A", "remoteJid": "5554999876543@s.whatsapp.net", "fromMe": true, "status": "DELIVERY_ACK"}
        });
        let h = hook(body.to_string().as_bytes()).expect("hook");
        assert_eq!(h.instance, "loja1");
        assert_eq!(h.apikey.as_deref(), Some("K"));
        assert_eq!(h.reports, vec![("3EB0A".to_string(), Status::Delivered)]);
        let body = serde_json::json!({"event": "MESSAGES_UPDATE", "instance": "loja1",
            "data": [{"key": {"id": "X"}, "status": 4}, {"keyId": "Y", "status": "PLAYED"}, {"keyId": "Z", "status": "PENDING"}]});
        let h = hook(body.to_string().as_bytes()).expect("hook");
        assert_eq!(
            h.reports,
            vec![("X".into(), Status::Read), ("Y".into(), Status::Read)]
        );
        let other = serde_json::json!({"event": "connection.update", "instance": "loja1", "data": {"state": "open"}});
        assert_eq!(
            hook(other.to_string().as_bytes()).map(|h| h.reports.len()),
            Some(0)
        );
        assert!(hook(b"not json").is_none());
    }

    #[test]
    fn secrets_compare_whole() {
        assert!(same_secret("abc", "abc"));
        assert!(!same_secret("abc", "abd"));
        assert!(!same_secret("abc", "abcd"));
        assert!(!same_secret("", "a"));
    }
}
