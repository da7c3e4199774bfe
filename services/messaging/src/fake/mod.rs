//! Fake servers of the two WhatsApp providers, over real HTTP, for tests and
//! demos: the WhatsApp Cloud API under `/cloud` (base URL `…/cloud/v23.0`) and
//! the Evolution API v2 under `/evolution`, answering the endpoints the clients
//! use the way the providers document them, and recording every send.
//!
//! - Cloud API: `POST /{version}/{phone-number-id}/media` (multipart: stores the
//!   file, answers its id), `POST /{version}/{phone-number-id}/messages` (text,
//!   image, document by media id, template: answers `wamid.…`), `GET
//!   /{version}/{phone-number-id}` (the number's information). A token
//!   `expirado` answers the Graph error 190.
//! - Evolution API: `POST /message/sendText/{instance}`, `POST
//!   /message/sendMedia/{instance}` (answers the message key), `GET
//!   /instance/connect/{instance}` (a QR code while not connected), `GET
//!   /instance/connectionState/{instance}`. An apikey `errada` answers 401.
//! - Knobs ([`Fake`]): a script of answers for the next sends
//!   ([`Fake::script`]: 429 with `Retry-After`, a 5xx, a Graph error code,
//!   accepting and then not answering in time); [`Fake::refuse_first_attempt`]
//!   (every new message gets 429 once, then 200). Sends are recorded when
//!   accepted ([`Fake::sends`]), including those whose answer never came.

use std::collections::{HashMap, HashSet, VecDeque};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use axum::extract::{Multipart, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use base64::Engine;
use serde_json::{json, Value};

/// One send the fake accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Send {
    /// `cloud` or `evolution`.
    pub provider: &'static str,
    /// The Cloud API phone number id, or the Evolution instance.
    pub sender: String,
    pub to: String,
    /// `text`, `image`, `document` or `template`.
    pub kind: String,
    /// The text, caption or template name.
    pub text: String,
    /// The file sent, when it carried one.
    pub file: Option<Vec<u8>>,
    pub file_name: Option<String>,
    /// The id the fake gave it.
    pub id: String,
}

/// How the fake answers a send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Accepts (200).
    Ok,
    /// This HTTP status (429 with `Retry-After: 0`), nothing accepted.
    Status(u16),
    /// A Graph API error with this code, HTTP 400 (Cloud API only).
    GraphError(i64),
    /// Accepts and records the send, then does not answer for this long.
    AcceptThenHang(Duration),
}

#[derive(Default)]
struct Inner {
    sends: Vec<Send>,
    script: VecDeque<Answer>,
    refuse_first: bool,
    seen: HashSet<(String, String)>,
    media: HashMap<String, (Vec<u8>, String)>,
    requests: u64,
    next: u64,
    state: HashMap<String, String>,
}

/// A running fake. Clones share its state.
#[derive(Clone)]
pub struct Fake {
    pub addr: SocketAddr,
    inner: Arc<Mutex<Inner>>,
}

impl Fake {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Starts one on a free loopback port.
    pub async fn start() -> std::io::Result<Fake> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let fake = Fake { addr, inner: Arc::new(Mutex::new(Inner::default())) };
        let app = router(fake.clone());
        tokio::spawn(async move {
            if let Err(e) = axum::serve(listener, app).await {
                tracing::warn!(error = %e, "fake WhatsApp server stopped");
            }
        });
        Ok(fake)
    }

    /// The Cloud API base URL (`WCFG_URL` of a `cloud` company).
    pub fn cloud_url(&self) -> String {
        format!("http://{}/cloud/v23.0", self.addr)
    }

    /// The Evolution API base URL (`WCFG_URL` of an `evolution` company).
    pub fn evolution_url(&self) -> String {
        format!("http://{}/evolution", self.addr)
    }

    /// The answers of the next sends, in order (then 200 again).
    pub fn script(&self, answers: impl IntoIterator<Item = Answer>) {
        self.lock().script.extend(answers);
    }

    /// Every message's first send gets 429, its next ones 200.
    pub fn refuse_first_attempt(&self, on: bool) {
        self.lock().refuse_first = on;
    }

    /// An Evolution instance's connection state (`open`, `connecting`, `close`).
    pub fn set_state(&self, instance: &str, state: &str) {
        self.lock().state.insert(instance.into(), state.into());
    }

    /// Every send accepted so far.
    pub fn sends(&self) -> Vec<Send> {
        self.lock().sends.clone()
    }

    /// Requests to the send endpoints, accepted or not.
    pub fn requests(&self) -> u64 {
        self.lock().requests
    }

    /// What to answer a send of `text` to `to` (and counts the request).
    fn decide(&self, to: &str, text: &str) -> Answer {
        let mut s = self.lock();
        s.requests += 1;
        if let Some(a) = s.script.pop_front() {
            return a;
        }
        if s.refuse_first && s.seen.insert((to.to_string(), text.to_string())) {
            return Answer::Status(429);
        }
        Answer::Ok
    }

    fn record(&self, mut send: Send, prefix: &str) -> String {
        let mut s = self.lock();
        s.next += 1;
        let id = format!("{prefix}{:016X}", s.next);
        send.id = id.clone();
        s.sends.push(send);
        id
    }
}

fn router(fake: Fake) -> Router {
    Router::new()
        .route("/cloud/{version}/{phone}/messages", post(cloud_send))
        .route("/cloud/{version}/{phone}/media", post(cloud_media))
        .route("/cloud/{version}/{phone}", get(cloud_phone))
        .route(
            "/evolution/message/sendText/{instance}",
            post(evolution_text),
        )
        .route(
            "/evolution/message/sendMedia/{instance}",
            post(evolution_media),
        )
        .route(
            "/evolution/instance/connect/{instance}",
            get(evolution_connect),
        )
        .route(
            "/evolution/instance/connectionState/{instance}",
            get(evolution_state),
        )
        .with_state(fake)
}

fn graph_error(status: StatusCode, code: i64, message: &str) -> Response {
    let body = json!({"error": {"message": message, "type": "OAuthException", "code": code,
        "error_data": {"messaging_product": "whatsapp", "details": message}, "fbtrace_id": "Afake"}});
    (status, Json(body)).into_response()
}

/// The refusal of a request without a good bearer token, if it is one.
fn bearer_refusal(headers: &HeaderMap) -> Option<Response> {
    let auth = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    match auth.strip_prefix("Bearer ") {
        Some("expirado") => Some(graph_error(
            StatusCode::UNAUTHORIZED,
            190,
            "Error validating access token: Session has expired",
        )),
        Some(t) if !t.trim().is_empty() => None,
        _ => Some(graph_error(
            StatusCode::UNAUTHORIZED,
            190,
            "Invalid OAuth access token.",
        )),
    }
}

/// The scripted refusal of a send, if the answer is one (else it is accepted).
fn refusal(answer: &Answer, cloud: bool) -> Option<Response> {
    match answer {
        Answer::Ok | Answer::AcceptThenHang(_) => None,
        Answer::Status(s) => {
            let status = StatusCode::from_u16(*s).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            let mut resp = if cloud && *s == 429 {
                graph_error(status, 130429, "Rate limit hit")
            } else {
                (
                    status,
                    Json(json!({"status": s, "error": "fake", "response": {"message": ["fake"]}})),
                )
                    .into_response()
            };
            if *s == 429 {
                resp.headers_mut()
                    .insert("retry-after", axum::http::HeaderValue::from_static("0"));
            }
            Some(resp)
        }
        Answer::GraphError(code) => Some(graph_error(
            StatusCode::BAD_REQUEST,
            *code,
            "Fake Graph error",
        )),
    }
}

async fn hang_if(answer: &Answer) {
    if let Answer::AcceptThenHang(d) = answer {
        tokio::time::sleep(*d).await;
    }
}

async fn cloud_send(
    State(fake): State<Fake>,
    Path((_v, phone)): Path<(String, String)>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    if let Some(r) = bearer_refusal(&headers) {
        return r;
    }
    let to = body["to"].as_str().unwrap_or_default().to_string();
    let kind = body["type"].as_str().unwrap_or_default().to_string();
    if body["messaging_product"] != "whatsapp" || to.is_empty() {
        return graph_error(StatusCode::BAD_REQUEST, 100, "Invalid parameter");
    }
    let (text, media_id, file_name) = match kind.as_str() {
        "text" => (
            body["text"]["body"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
            None,
            None,
        ),
        "image" | "document" => {
            let o = &body[kind.as_str()];
            (
                o["caption"].as_str().unwrap_or_default().to_string(),
                o["id"].as_str().map(String::from),
                o["filename"].as_str().map(String::from),
            )
        }
        "template" => (
            body["template"]["name"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
            None,
            None,
        ),
        _ => return graph_error(StatusCode::BAD_REQUEST, 131051, "Unsupported message type"),
    };
    let file = match &media_id {
        Some(id) => match fake.lock().media.get(id) {
            Some((bytes, _)) => Some(bytes.clone()),
            None => return graph_error(StatusCode::BAD_REQUEST, 131053, "Media upload error"),
        },
        None => None,
    };
    let answer = fake.decide(&to, &text);
    if let Some(r) = refusal(&answer, true) {
        return r;
    }
    let id = fake.record(
        Send {
            provider: "cloud",
            sender: phone,
            to: to.clone(),
            kind,
            text,
            file,
            file_name,
            id: String::new(),
        },
        "wamid.FAKE",
    );
    hang_if(&answer).await;
    Json(json!({"messaging_product": "whatsapp", "contacts": [{"input": to, "wa_id": to}], "messages": [{"id": id}]})).into_response()
}

async fn cloud_media(
    State(fake): State<Fake>,
    headers: HeaderMap,
    mut form: Multipart,
) -> Response {
    if let Some(r) = bearer_refusal(&headers) {
        return r;
    }
    let mut file: Option<(Vec<u8>, String)> = None;
    let mut product = String::new();
    while let Ok(Some(field)) = form.next_field().await {
        match field.name().unwrap_or_default() {
            "file" => {
                let mime = field
                    .content_type()
                    .unwrap_or("application/octet-stream")
                    .to_string();
                if let Ok(b) = field.bytes().await {
                    file = Some((b.to_vec(), mime));
                }
            }
            "messaging_product" => product = field.text().await.unwrap_or_default(),
            _ => {}
        }
    }
    let Some(file) = file.filter(|_| product == "whatsapp") else {
        return graph_error(StatusCode::BAD_REQUEST, 100, "Invalid parameter");
    };
    let mut s = fake.lock();
    s.next += 1;
    let id = format!("{}", 4_490_709_327_384_000u64 + s.next);
    s.media.insert(id.clone(), file);
    Json(json!({"id": id})).into_response()
}

async fn cloud_phone(headers: HeaderMap, Path((_v, phone)): Path<(String, String)>) -> Response {
    if let Some(r) = bearer_refusal(&headers) {
        return r;
    }
    Json(json!({"id": phone, "display_phone_number": "+55 54 3333-0000", "verified_name": "Empresa Demo", "quality_rating": "GREEN"})).into_response()
}

/// The refusal of a request without a good apikey, if it is one.
fn apikey_refusal(headers: &HeaderMap) -> Option<Response> {
    match headers.get("apikey").and_then(|v| v.to_str().ok()) {
        Some(k) if !k.trim().is_empty() && k != "errada" => None,
        _ => Some((StatusCode::UNAUTHORIZED, Json(json!({"status": 401, "error": "Unauthorized", "response": {"message": "Unauthorized"}}))).into_response()),
    }
}

async fn evolution_send(fake: Fake, instance: String, headers: HeaderMap, send: Send) -> Response {
    if let Some(r) = apikey_refusal(&headers) {
        return r;
    }
    if send.to.len() < 12 || !send.to.chars().all(|c| c.is_ascii_digit()) {
        return (StatusCode::BAD_REQUEST, Json(json!({"status": 400, "error": "Bad Request",
            "response": {"message": [{"exists": false, "jid": format!("{}@s.whatsapp.net", send.to), "number": send.to}]}}))).into_response();
    }
    let answer = fake.decide(&send.to, &send.text);
    if let Some(r) = refusal(&answer, false) {
        return r;
    }
    let to = send.to.clone();
    let id = fake.record(Send { sender: instance, ..send }, "3EB0");
    hang_if(&answer).await;
    (
        StatusCode::CREATED,
        Json(
            json!({"key": {"remoteJid": format!("{to}@s.whatsapp.net"), "fromMe": true, "id": id},
        "message": {}, "messageTimestamp": "1750000000", "status": "PENDING"}),
        ),
    )
        .into_response()
}

async fn evolution_text(
    State(fake): State<Fake>,
    Path(instance): Path<String>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    let send = Send {
        provider: "evolution",
        sender: String::new(),
        to: body["number"].as_str().unwrap_or_default().into(),
        kind: "text".into(),
        text: body["text"].as_str().unwrap_or_default().into(),
        file: None,
        file_name: None,
        id: String::new(),
    };
    evolution_send(fake, instance, headers, send).await
}

async fn evolution_media(
    State(fake): State<Fake>,
    Path(instance): Path<String>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    let Ok(bytes) = base64::engine::general_purpose::STANDARD
        .decode(body["media"].as_str().unwrap_or_default())
    else {
        return (StatusCode::BAD_REQUEST, Json(json!({"status": 400, "response": {"message": ["Owned media must be a url or base64"]}}))).into_response();
    };
    let send = Send {
        provider: "evolution",
        sender: String::new(),
        to: body["number"].as_str().unwrap_or_default().into(),
        kind: body["mediatype"].as_str().unwrap_or_default().into(),
        text: body["caption"].as_str().unwrap_or_default().into(),
        file: Some(bytes),
        file_name: body["fileName"].as_str().map(String::from),
        id: String::new(),
    };
    evolution_send(fake, instance, headers, send).await
}

async fn evolution_connect(
    State(fake): State<Fake>,
    Path(instance): Path<String>,
    headers: HeaderMap,
) -> Response {
    if let Some(r) = apikey_refusal(&headers) {
        return r;
    }
    let state = fake
        .lock()
        .state
        .get(&instance)
        .cloned()
        .unwrap_or_else(|| "close".into());
    if state == "open" {
        return Json(json!({"instance": {"instanceName": instance, "state": "open"}}))
            .into_response();
    }
    fake.set_state(&instance, "connecting");
    // A 1×1 PNG stands for the QR code.
    let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    Json(json!({"pairingCode": null, "code": "2@fake-qr", "base64": format!("data:image/png;base64,{png}"), "count": 1})).into_response()
}

async fn evolution_state(
    State(fake): State<Fake>,
    Path(instance): Path<String>,
    headers: HeaderMap,
) -> Response {
    if let Some(r) = apikey_refusal(&headers) {
        return r;
    }
    let state = fake
        .lock()
        .state
        .get(&instance)
        .cloned()
        .unwrap_or_else(|| "close".into());
    Json(json!({"instance": {"instanceName": instance, "state": state}})).into_response()
}

/// A Cloud API status webhook body for `phone_id` (the fields the spec's
/// `StatusMessageValue` has).
pub fn cloud_statuses(phone_id: &str, statuses: &[(&str, &str)]) -> Vec<u8> {
    let statuses: Vec<Value> = statuses
        .iter()
        .enumerate()
        .map(|(i, (id, status))| {
            let mut s = json!({"id": id, "status": status, "timestamp": format!("{}", 1_750_000_000 + i), "recipient_id": "5554999876543"});
            if *status == "failed" {
                s["errors"] = json!([{"code": 131047, "title": "Re-engagement message", "message": "Re-engagement message",
                    "error_data": {"details": "Message failed to send because more than 24 hours have passed since the customer last replied to this number."}}]);
            }
            s
        })
        .collect();
    serde_json::to_vec(&json!({"object": "whatsapp_business_account", "entry": [{"id": "102290129340398", "changes": [{"field": "messages", "value": {
        "messaging_product": "whatsapp",
        "metadata": {"display_phone_number": "555433330000", "phone_number_id": phone_id},
        "statuses": statuses}}]}]}))
    .unwrap_or_default()
}

/// An Evolution `messages.update` webhook body.
pub fn evolution_update(instance: &str, apikey: &str, key_id: &str, status: &str) -> Vec<u8> {
    serde_json::to_vec(&json!({"event": "messages.update", "instance": instance, "apikey": apikey,
        "date_time": "2026-06-10T10:00:00.000Z", "server_url": "http://evolution",
        "data": {"keyId": key_id, "remoteJid": "5554999876543@s.whatsapp.net", "fromMe": true, "status": status}}))
    .unwrap_or_default()
}
