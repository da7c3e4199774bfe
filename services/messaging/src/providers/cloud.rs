//! The Meta WhatsApp Cloud API (Graph API v23.0, `vendor-apis/whatsapp-business-
//! messaging-api_v23.0.yaml`): sending text, images, documents and templates
//! from the company's phone number id, its connection state, and reading its
//! webhooks (statuses, the `X-Hub-Signature-256` of the raw body, the GET
//! verification handshake).
//!
//! Media are uploaded first (`POST /{phone-number-id}/media`, multipart) and
//! sent by the id the upload answers: sending by link would need a public URL
//! of the file, which the ERP does not expose.

use std::time::Duration;

use async_trait::async_trait;
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha256;

use super::{
    retry_after, retryable, transport_error, Connection, Outgoing, Provider, SendError, Sent,
};
use crate::files::Kind;
use crate::status::Status;

/// The API root when the settings name none.
pub const DEFAULT_BASE: &str = "https://graph.facebook.com/v23.0";
const NAME: &str = "a API do WhatsApp (Cloud API)";

/// Error 131047: more than 24 hours since the customer last wrote.
pub const TEMPLATE_NEEDED: &str = "Mais de 24 horas desde a última mensagem do cliente: fora dessa janela o WhatsApp só entrega modelos (templates) aprovados. Envie a mensagem como um modelo aprovado.";
pub const TOKEN_INVALID: &str = "O token de acesso do WhatsApp (Cloud API) é inválido ou expirou: gere outro no Meta Business e salve-o nas configurações do WhatsApp.";
pub const NO_QR: &str = "A API oficial do WhatsApp (Cloud API) não usa QR code: o número é conectado pelo Meta Business.";

pub struct CloudApi {
    http: reqwest::Client,
    base: String,
    phone_id: String,
    token: String,
}

// --------------------------------------------------------------- request types
// The spec's `TextMessage`, `ImageMessage`, `DocumentMessage` and
// `TemplateMessage` (each `BaseMessageProperties` plus its own object).

#[derive(Debug, Serialize)]
pub struct MessageRequest<'a> {
    pub messaging_product: &'static str,
    pub recipient_type: &'static str,
    pub to: &'a str,
    #[serde(flatten)]
    pub content: Content<'a>,
}

#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Content<'a> {
    Text { text: TextObject<'a> },
    Image { image: MediaObject<'a> },
    Document { document: MediaObject<'a> },
    Template { template: TemplateObject<'a> },
}

#[derive(Debug, Serialize)]
pub struct TextObject<'a> {
    pub body: &'a str,
    pub preview_url: bool,
}

#[derive(Debug, Serialize)]
pub struct MediaObject<'a> {
    pub id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub caption: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filename: Option<&'a str>,
}

#[derive(Debug, Serialize)]
pub struct TemplateObject<'a> {
    pub name: &'a str,
    pub language: Language<'a>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub components: Vec<Component<'a>>,
}

#[derive(Debug, Serialize)]
pub struct Language<'a> {
    pub code: &'a str,
}

#[derive(Debug, Serialize)]
pub struct Component<'a> {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub parameters: Vec<Parameter<'a>>,
}

#[derive(Debug, Serialize)]
pub struct Parameter<'a> {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub text: &'a str,
}

// --------------------------------------------------------------- answer types

#[derive(Debug, Deserialize)]
struct SendAnswer {
    #[serde(default)]
    messages: Vec<MessageId>,
}

#[derive(Debug, Deserialize)]
struct MessageId {
    id: String,
}

#[derive(Debug, Deserialize)]
struct MediaAnswer {
    id: String,
}

#[derive(Debug, Deserialize)]
struct PhoneNumberInfo {
    display_phone_number: Option<String>,
    verified_name: Option<String>,
    quality_rating: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
struct ErrorAnswer {
    error: Option<GraphError>,
}

/// The Graph API's error object (and a webhook status's `errors[]` item).
#[derive(Debug, Default, Deserialize)]
pub struct GraphError {
    #[serde(default)]
    pub code: i64,
    #[serde(default)]
    pub message: String,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub error_data: Option<ErrorData>,
}

#[derive(Debug, Default, Deserialize)]
pub struct ErrorData {
    #[serde(default)]
    pub details: Option<String>,
}

/// What an error code means for the message, in pt-BR: whether to try again,
/// and the reason a user reads.
pub fn explain(code: i64, details: &str) -> SendError {
    let detail = |base: &str| {
        if details.trim().is_empty() {
            base.to_string()
        } else {
            format!("{base} ({})", details.trim())
        }
    };
    match code {
        131047 | 470 => SendError::fail(TEMPLATE_NEEDED),
        190 | 0 => SendError::fail(TOKEN_INVALID),
        3 | 10 | 200 => SendError::fail(
            "O token do WhatsApp não tem permissão para enviar por este número (whatsapp_business_messaging).",
        ),
        4 | 80007 | 130429 => SendError::retry("Limite de envios do WhatsApp atingido; nova tentativa em instantes."),
        131056 => SendError::retry("Muitas mensagens para o mesmo número em pouco tempo; nova tentativa em instantes."),
        131048 => SendError::retry("O WhatsApp limitou os envios deste número por denúncias de spam; nova tentativa mais tarde."),
        131000 | 131016 | 1 | 2 => SendError::retry("O WhatsApp está instável; nova tentativa em instantes."),
        368 | 131031 => SendError::fail("O número da empresa está bloqueado no WhatsApp por violação de política."),
        131026 => SendError::fail(
            "Não foi possível entregar: o número não tem WhatsApp ou não aceitou a mensagem.",
        ),
        131021 => SendError::fail("O destinatário é o próprio número da empresa."),
        131051 => SendError::fail("O WhatsApp não aceita este tipo de mensagem."),
        131053 => SendError::fail(detail("O WhatsApp recusou o arquivo (formato ou tamanho)")),
        133010 => SendError::fail("O número da empresa não está registrado na Cloud API."),
        132001 => SendError::fail("Modelo (template) não encontrado ou não aprovado neste idioma."),
        132000 => SendError::fail("O número de parâmetros não confere com o modelo (template)."),
        132005 | 132007 | 132012 | 132015 | 132016 => {
            SendError::fail(detail("O WhatsApp recusou o modelo (template)"))
        }
        100 | 131008 | 131009 => SendError::fail(detail("Parâmetro inválido na mensagem")),
        _ => SendError::fail(detail(&format!("O WhatsApp recusou a mensagem (código {code})"))),
    }
}

impl CloudApi {
    /// `base`: the API root (`DEFAULT_BASE` when blank).
    pub fn new(http: reqwest::Client, base: Option<&str>, phone_id: &str, token: &str) -> CloudApi {
        let base = base
            .map(str::trim)
            .filter(|b| !b.is_empty())
            .unwrap_or(DEFAULT_BASE)
            .trim_end_matches('/')
            .to_string();
        CloudApi { http, base, phone_id: phone_id.trim().into(), token: token.into() }
    }

    fn url(&self, tail: &str) -> String {
        if tail.is_empty() {
            format!("{}/{}", self.base, self.phone_id)
        } else {
            format!("{}/{}/{tail}", self.base, self.phone_id)
        }
    }

    /// A refusal or a failure as the message's outcome.
    async fn failure(resp: reqwest::Response) -> SendError {
        let status = resp.status();
        let after = retry_after(resp.headers());
        let body: ErrorAnswer = resp.json().await.unwrap_or_default();
        let err = body.error.unwrap_or_default();
        let details = err
            .error_data
            .as_ref()
            .and_then(|d| d.details.clone())
            .unwrap_or_else(|| err.message.clone());
        if retryable(status) && err.code == 0 {
            return SendError::Retry {
                reason: format!(
                    "O WhatsApp respondeu {}; nova tentativa em instantes.",
                    status.as_u16()
                ),
                after,
            };
        }
        match explain(err.code, &details) {
            SendError::Retry { reason, .. } => SendError::Retry { reason, after },
            fail if retryable(status) => {
                SendError::Retry { reason: fail.reason().to_string(), after }
            }
            fail => fail,
        }
    }

    async fn upload(&self, a: &super::Attachment) -> Result<String, SendError> {
        let part = reqwest::multipart::Part::bytes(a.bytes.clone())
            .file_name(a.name.clone())
            .mime_str(&a.mime)
            .map_err(|_| SendError::fail("Tipo de arquivo inválido."))?;
        let form = reqwest::multipart::Form::new()
            .text("messaging_product", "whatsapp")
            .text("type", a.mime.clone())
            .part("file", part);
        let resp = self
            .http
            .post(self.url("media"))
            .bearer_auth(&self.token)
            .multipart(form)
            .send()
            .await
            .map_err(|e| transport_error(NAME, &e))?;
        if !resp.status().is_success() {
            return Err(Self::failure(resp).await);
        }
        let m: MediaAnswer = resp.json().await.map_err(|_| {
            SendError::retry("Resposta inesperada do WhatsApp ao enviar o arquivo.")
        })?;
        Ok(m.id)
    }
}

/// The request body of a message (after its media, if any, was uploaded).
pub fn request<'a>(
    m: &'a Outgoing,
    media_id: Option<&'a str>,
) -> Result<MessageRequest<'a>, SendError> {
    let caption = Some(m.text.as_str()).filter(|t| !t.trim().is_empty());
    let content = match (&m.template, m.kind, media_id) {
        (Some(t), _, _) => Content::Template {
            template: TemplateObject {
                name: &t.name,
                language: Language { code: &t.language },
                components: if t.parameters.is_empty() {
                    Vec::new()
                } else {
                    vec![Component {
                        kind: "body",
                        parameters: t
                            .parameters
                            .iter()
                            .map(|p| Parameter { kind: "text", text: p })
                            .collect(),
                    }]
                },
            },
        },
        (None, Kind::Text, _) => {
            Content::Text { text: TextObject { body: &m.text, preview_url: false } }
        }
        (None, Kind::Image, Some(id)) => {
            Content::Image { image: MediaObject { id, caption, filename: None } }
        }
        (None, Kind::Document, Some(id)) => Content::Document {
            document: MediaObject {
                id,
                caption,
                filename: m.attachment.as_ref().map(|a| a.name.as_str()),
            },
        },
        (None, _, None) => {
            return Err(SendError::fail(
                "Mensagem sem o arquivo que o seu tipo pede.",
            ))
        }
    };
    Ok(MessageRequest {
        messaging_product: "whatsapp",
        recipient_type: "individual",
        to: &m.to,
        content,
    })
}

#[async_trait]
impl Provider for CloudApi {
    async fn send(&self, m: &Outgoing) -> Result<Sent, SendError> {
        let media = match (&m.template, m.kind, &m.attachment) {
            (None, Kind::Image | Kind::Document, Some(a)) => Some(self.upload(a).await?),
            _ => None,
        };
        let body = request(m, media.as_deref())?;
        let resp = self
            .http
            .post(self.url("messages"))
            .bearer_auth(&self.token)
            .json(&body)
            .send()
            .await
            .map_err(|e| transport_error(NAME, &e))?;
        if !resp.status().is_success() {
            return Err(Self::failure(resp).await);
        }
        let a: SendAnswer = resp
            .json()
            .await
            .map_err(|_| SendError::retry("Resposta inesperada do WhatsApp."))?;
        a.messages
            .into_iter()
            .next()
            .map(|m| Sent { provider_id: m.id })
            .ok_or_else(|| SendError::retry("O WhatsApp não devolveu o id da mensagem."))
    }

    async fn connection(&self) -> Result<Connection, SendError> {
        let resp = self
            .http
            .get(self.url(""))
            .bearer_auth(&self.token)
            .timeout(Duration::from_secs(10))
            .send()
            .await
            .map_err(|e| transport_error(NAME, &e))?;
        if !resp.status().is_success() {
            return Err(Self::failure(resp).await);
        }
        let info: PhoneNumberInfo = resp
            .json()
            .await
            .map_err(|_| SendError::retry("Resposta inesperada do WhatsApp."))?;
        let mut c = Connection::state("open");
        c.numero = info.display_phone_number;
        c.nome = info.verified_name;
        c.qualidade = info.quality_rating;
        Ok(c)
    }

    async fn connect(&self) -> Result<Connection, SendError> {
        Err(SendError::fail(NO_QR))
    }
}

// --------------------------------------------------------------- webhooks

/// `X-Hub-Signature-256`: `sha256=` and the hex HMAC-SHA256 of the raw body with
/// the app secret. Compared in constant time.
pub fn signature_ok(app_secret: &[u8], body: &[u8], header: Option<&str>) -> bool {
    let Some(hex) = header.and_then(|h| h.trim().strip_prefix("sha256=")) else {
        return false;
    };
    let Some(expected) = decode_hex(hex) else {
        return false;
    };
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(app_secret) else {
        return false;
    };
    mac.update(body);
    mac.verify_slice(&expected).is_ok()
}

/// The header value a body signed with `app_secret` carries (the fake and the
/// tests sign with it).
pub fn sign(app_secret: &[u8], body: &[u8]) -> String {
    let mut mac = match Hmac::<Sha256>::new_from_slice(app_secret) {
        Ok(m) => m,
        Err(_) => return String::new(),
    };
    mac.update(body);
    let bytes = mac.finalize().into_bytes();
    format!(
        "sha256={}",
        bytes.iter().map(|b| format!("{b:02x}")).collect::<String>()
    )
}

fn decode_hex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

#[derive(Debug, Deserialize)]
pub struct WebhookPayload {
    #[serde(default)]
    pub entry: Vec<Entry>,
}

#[derive(Debug, Deserialize)]
pub struct Entry {
    #[serde(default)]
    pub changes: Vec<Change>,
}

#[derive(Debug, Deserialize)]
pub struct Change {
    pub value: ChangeValue,
}

#[derive(Debug, Deserialize)]
pub struct ChangeValue {
    pub metadata: Option<Metadata>,
    #[serde(default)]
    pub statuses: Vec<StatusItem>,
}

#[derive(Debug, Deserialize)]
pub struct Metadata {
    pub phone_number_id: String,
}

#[derive(Debug, Deserialize)]
pub struct StatusItem {
    pub id: String,
    pub status: String,
    #[serde(default)]
    pub errors: Vec<GraphError>,
}

/// A status a webhook reports of one message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Which of the company's numbers (the route to the tenant).
    pub number_id: String,
    pub provider_id: String,
    pub status: Status,
    /// Why it failed, in pt-BR.
    pub reason: Option<String>,
}

/// The phone number ids a payload names (each must be a known route and its
/// signature right before anything changes).
pub fn number_ids(p: &WebhookPayload) -> Vec<String> {
    let mut ids: Vec<String> = p
        .entry
        .iter()
        .flat_map(|e| &e.changes)
        .filter_map(|c| c.value.metadata.as_ref().map(|m| m.phone_number_id.clone()))
        .collect();
    ids.sort();
    ids.dedup();
    ids
}

/// The statuses of a payload (incoming messages and other fields are ignored).
pub fn reports(p: &WebhookPayload) -> Vec<Report> {
    let mut out = Vec::new();
    for change in p.entry.iter().flat_map(|e| &e.changes) {
        let Some(meta) = &change.value.metadata else {
            continue;
        };
        for s in &change.value.statuses {
            let status = match s.status.as_str() {
                "sent" => Status::Sent,
                "delivered" => Status::Delivered,
                "read" => Status::Read,
                "failed" => Status::Failed,
                _ => continue,
            };
            let reason = (status == Status::Failed).then(|| {
                s.errors
                    .first()
                    .map(|e| {
                        let details = e
                            .error_data
                            .as_ref()
                            .and_then(|d| d.details.clone())
                            .or_else(|| e.title.clone())
                            .unwrap_or_else(|| e.message.clone());
                        explain(e.code, &details).reason().to_string()
                    })
                    .unwrap_or_else(|| "O WhatsApp não entregou a mensagem.".into())
            });
            out.push(Report {
                number_id: meta.phone_number_id.clone(),
                provider_id: s.id.clone(),
                status,
                reason,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_signature_is_the_hmac_sha256_of_the_raw_body() {
        // RFC 4231, test case 2: HMAC-SHA256 with key "Jefe".
        let body = b"what do ya want for nothing?";
        let header = "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843";
        assert!(signature_ok(b"Jefe", body, Some(header)));
        assert_eq!(sign(b"Jefe", body), header);
        // Upper-case hex is the same digest.
        assert!(signature_ok(
            b"Jefe",
            body,
            Some(&header.to_uppercase().replace("SHA256=", "sha256="))
        ));
        // Another secret, another body, no prefix, garbage: refused.
        assert!(!signature_ok(b"jefe", body, Some(header)));
        assert!(!signature_ok(
            b"Jefe",
            b"what do ya want for nothing!",
            Some(header)
        ));
        assert!(!signature_ok(b"Jefe", body, Some(&header[7..])));
        assert!(!signature_ok(b"Jefe", body, Some("sha256=zz")));
        assert!(!signature_ok(b"Jefe", body, None));
    }

    #[test]
    fn error_131047_asks_for_a_template() {
        assert_eq!(
            explain(131047, "Re-engagement message"),
            SendError::fail(TEMPLATE_NEEDED)
        );
        assert!(matches!(explain(130429, ""), SendError::Retry { .. }));
        assert_eq!(explain(190, "").reason(), TOKEN_INVALID);
        assert_eq!(
            explain(999_999, "x").reason(),
            "O WhatsApp recusou a mensagem (código 999999) (x)"
        );
    }

    #[test]
    fn requests_follow_the_specs_message_objects() {
        let m = Outgoing {
            to: "5554999876543".into(),
            kind: Kind::Document,
            text: "Segue a nota".into(),
            attachment: Some(super::super::Attachment {
                name: "nota.pdf".into(),
                mime: "application/pdf".into(),
                bytes: vec![],
            }),
            template: None,
        };
        let v = serde_json::to_value(request(&m, Some("MEDIA1")).expect("request")).expect("json");
        assert_eq!(
            v,
            serde_json::json!({"messaging_product": "whatsapp", "recipient_type": "individual",
                "to": "5554999876543", "type": "document",
                "document": {"id": "MEDIA1", "caption": "Segue a nota", "filename": "nota.pdf"}})
        );
        let t = Outgoing {
            kind: Kind::Text,
            attachment: None,
            template: Some(super::super::Template {
                name: "pedido_pronto".into(),
                language: "pt_BR".into(),
                parameters: vec!["123".into()],
            }),
            ..m
        };
        let v = serde_json::to_value(request(&t, None).expect("request")).expect("json");
        assert_eq!(v["type"], "template");
        assert_eq!(v["template"]["language"]["code"], "pt_BR");
        assert_eq!(
            v["template"]["components"][0]["parameters"][0]["text"],
            "123"
        );
    }

    #[test]
    fn status_webhooks_become_reports() {
        let p: WebhookPayload = serde_json::from_value(serde_json::json!({
            "object": "whatsapp_business_account",
            "entry": [{"id": "1", "changes": [{"field": "messages", "value": {
                "messaging_product": "whatsapp",
                "metadata": {"display_phone_number": "15550783881", "phone_number_id": "106540352242922"},
                "statuses": [
                    {"id": "wamid.A", "status": "delivered", "timestamp": "1", "recipient_id": "5554"},
                    {"id": "wamid.B", "status": "failed", "timestamp": "2", "recipient_id": "5554",
                     "errors": [{"code": 131047, "title": "Re-engagement message"}]},
                    {"id": "wamid.C", "status": "deleted", "timestamp": "3", "recipient_id": "5554"}
                ]}}]}]
        }))
        .expect("payload");
        assert_eq!(number_ids(&p), vec!["106540352242922".to_string()]);
        let r = reports(&p);
        assert_eq!(r.len(), 2);
        assert_eq!(
            (r[0].provider_id.as_str(), r[0].status),
            ("wamid.A", Status::Delivered)
        );
        assert_eq!(r[1].status, Status::Failed);
        assert_eq!(r[1].reason.as_deref(), Some(TEMPLATE_NEEDED));
    }
}
