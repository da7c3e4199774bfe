//! The WhatsApp providers' webhooks: public routes (the caller is the provider,
//! not a user) handed whole to the messaging service, which finds the tenant from
//! the provider's number id or instance and checks the signature (Cloud API,
//! `X-Hub-Signature-256`) or the `apikey` (Evolution API) before anything changes.
//!
//! - `GET /whatsapp/webhook`: the Cloud API's subscription handshake.
//! - `POST /whatsapp/webhook`: Cloud API events (statuses of sent messages).
//! - `POST /whatsapp/webhook/evolution`: Evolution API v2 events.

use std::collections::HashMap;

use axum::body::{to_bytes, Body};
use axum::extract::Request;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::Response;
use erp_platform::Error;
use erp_proto::messaging::v1::WebhookRequest;

use crate::reply::ApiResult;
use crate::routes::{Params, Routes};
use crate::state::AppState;
use crate::upstream::call;

/// A provider's event is small; anything bigger is not one.
const MAX_WEBHOOK: usize = 1024 * 1024;

/// The headers providers sign or authenticate with.
const SIGNED: &[&str] = &["x-hub-signature-256", "apikey"];

async fn forward(st: &AppState, provider: &str, req: Request) -> ApiResult {
    let method = req.method().as_str().to_string();
    let query: HashMap<String, String> = req
        .uri()
        .query()
        .map(|q| form_urlencoded::parse(q.as_bytes()).into_owned().collect())
        .unwrap_or_default();
    let headers: HashMap<String, String> = SIGNED
        .iter()
        .filter_map(|h| {
            let v = req.headers().get(*h)?.to_str().ok()?;
            Some((h.to_string(), v.to_string()))
        })
        .collect();
    let body = to_bytes(req.into_body(), MAX_WEBHOOK)
        .await
        .map_err(|_| Error::validation("Corpo do webhook muito grande ou inválido."))?;
    let mut client = st.up.messaging()?;
    let mut request = tonic::Request::new(WebhookRequest {
        provider: provider.into(),
        method,
        query,
        headers,
        body: body.to_vec(),
    });
    request.set_timeout(crate::upstream::UPSTREAM_TIMEOUT);
    let reply = call(client.webhook(request)).await?;
    let status = u16::try_from(reply.status)
        .ok()
        .and_then(|s| StatusCode::from_u16(s).ok())
        .unwrap_or(StatusCode::OK);
    let content_type = if reply.content_type.is_empty() {
        "text/plain; charset=utf-8".to_string()
    } else {
        reply.content_type
    };
    let mut response = Response::new(Body::from(reply.body));
    *response.status_mut() = status;
    if let Ok(v) = HeaderValue::from_str(&content_type) {
        response.headers_mut().insert(header::CONTENT_TYPE, v);
    }
    Ok(response)
}

async fn cloud(st: AppState, _p: Params, req: Request) -> ApiResult {
    forward(&st, "cloud", req).await
}

async fn evolution(st: AppState, _p: Params, req: Request) -> ApiResult {
    forward(&st, "evolution", req).await
}

pub fn add(routes: &mut Routes) {
    routes.add_public(
        Method::GET,
        "/whatsapp/webhook",
        "WhatsApp Cloud API: verificação da assinatura do webhook (hub.challenge)",
        cloud,
    );
    routes.add_public(
        Method::POST,
        "/whatsapp/webhook",
        "WhatsApp Cloud API: eventos de status (X-Hub-Signature-256)",
        cloud,
    );
    routes.add_public(
        Method::POST,
        "/whatsapp/webhook/evolution",
        "Evolution API v2: eventos de status (apikey)",
        evolution,
    );
}
