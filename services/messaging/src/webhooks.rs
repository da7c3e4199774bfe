//! The providers' webhooks (`messaging.v1.MessagingService`), which the gateway
//! hands over from its public routes `GET|POST /whatsapp/webhook` (Cloud API) and
//! `POST /whatsapp/webhook/evolution`.
//!
//! No caller comes with them: the tenant is the one whose route
//! (`messaging.rotas`) holds the number id or the instance the payload names,
//! and nothing changes unless the payload proves it comes from that tenant's
//! provider: the Cloud API's `X-Hub-Signature-256` (HMAC-SHA256 of the raw body
//! with the app secret) must match for every number the payload names, the
//! Evolution API's `apikey` must be the instance's; otherwise 401. The GET
//! handshake answers `hub.challenge` only to a known verify token.

use std::collections::BTreeMap;
use std::sync::Arc;

use erp_platform::db::Db;
use erp_platform::{Error, Result};
use erp_proto::messaging::v1::messaging_service_server::{
    MessagingService, MessagingServiceServer,
};
use erp_proto::messaging::v1::{WebhookReply, WebhookRequest};
use tonic::{Request, Response, Status};

use crate::providers::{cloud, evolution};
use crate::queue;
use crate::resources::settings::verify_hash;
use crate::settings;
use crate::Deps;

#[derive(Clone)]
pub struct Webhooks {
    db: Db,
    deps: Arc<Deps>,
}

fn reply(status: u32, body: &str) -> WebhookReply {
    WebhookReply {
        status,
        content_type: "text/plain; charset=utf-8".into(),
        body: body.as_bytes().to_vec(),
    }
}

const UNAUTHORIZED: &str = "Assinatura ou chave do webhook inválida.";

impl Webhooks {
    pub fn new(db: Db, deps: Arc<Deps>) -> Webhooks {
        Webhooks { db, deps }
    }

    pub fn server(self) -> MessagingServiceServer<Self> {
        MessagingServiceServer::new(self).max_decoding_message_size(8 * 1024 * 1024)
    }

    async fn route(&self, provider: &str, key: &str) -> Result<Option<(i64, i64)>> {
        Ok(sqlx::query_as(
            "SELECT client_id, emp_id FROM messaging.rotas WHERE provedor = $1 AND chave = $2",
        )
        .bind(provider)
        .bind(key)
        .fetch_optional(&self.db.pool)
        .await?)
    }

    /// The webhook secret of a tenant's company (the Cloud API app secret, the
    /// Evolution apikey).
    async fn secret(&self, client: i64, emp: i64) -> Result<Option<String>> {
        let mut tx = self.db.begin_tenant(client).await?;
        let s = settings::webhook_secret(&mut tx, &self.deps.sealer, client, emp).await?;
        tx.commit().await?;
        Ok(s)
    }

    /// Applies reported statuses to a tenant's company, in one transaction.
    async fn apply(
        &self,
        client: i64,
        emp: i64,
        reports: &[(String, crate::status::Status, Option<String>)],
    ) -> Result<()> {
        let mut tx = self.db.begin_tenant(client).await?;
        for (id, status, reason) in reports {
            queue::report(&mut tx, client, emp, id, *status, reason.as_deref()).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    pub async fn handle(&self, r: WebhookRequest) -> Result<WebhookReply> {
        match (r.provider.as_str(), r.method.as_str()) {
            ("cloud", "GET") => self.verify(&r).await,
            ("cloud", "POST") => self.cloud(&r).await,
            ("evolution", "POST") => self.evolution(&r).await,
            _ => Ok(reply(405, "Método não permitido.")),
        }
    }

    /// The Cloud API's subscription handshake.
    async fn verify(&self, r: &WebhookRequest) -> Result<WebhookReply> {
        let q = |k: &str| r.query.get(k).map(String::as_str).unwrap_or_default();
        let token = q("hub.verify_token");
        if q("hub.mode") != "subscribe" || token.trim().is_empty() {
            return Ok(reply(403, "Verificação inválida."));
        }
        let known: Option<i32> = sqlx::query_scalar(
            "SELECT 1 FROM messaging.rotas WHERE provedor = 'cloud' AND verify_hash = $1 LIMIT 1",
        )
        .bind(verify_hash(token))
        .fetch_optional(&self.db.pool)
        .await?;
        Ok(match known {
            Some(_) => reply(200, q("hub.challenge")),
            None => reply(403, "Token de verificação inválido."),
        })
    }

    async fn cloud(&self, r: &WebhookRequest) -> Result<WebhookReply> {
        let Ok(payload) = serde_json::from_slice::<cloud::WebhookPayload>(&r.body) else {
            return Ok(reply(400, "Corpo do webhook inválido."));
        };
        let signature = r.headers.get("x-hub-signature-256").map(String::as_str);
        let mut routes = BTreeMap::new();
        for number in cloud::number_ids(&payload) {
            if let Some(route) = self.route("cloud", &number).await? {
                routes.insert(number, route);
            }
        }
        // Every tenant the payload would touch must have signed it.
        for (client, emp) in routes.values() {
            let secret = self.secret(*client, *emp).await?;
            let ok = secret.is_some_and(|s| cloud::signature_ok(s.as_bytes(), &r.body, signature));
            if !ok {
                tracing::warn!(
                    client,
                    emp,
                    "messaging: Cloud API webhook with a bad signature"
                );
                return Ok(reply(401, UNAUTHORIZED));
            }
        }
        let mut by_route: BTreeMap<(i64, i64), Vec<_>> = BTreeMap::new();
        for rep in cloud::reports(&payload) {
            if let Some(route) = routes.get(&rep.number_id) {
                by_route
                    .entry(*route)
                    .or_default()
                    .push((rep.provider_id, rep.status, rep.reason));
            }
        }
        for ((client, emp), reports) in by_route {
            self.apply(client, emp, &reports).await?;
        }
        Ok(reply(200, "EVENT_RECEIVED"))
    }

    async fn evolution(&self, r: &WebhookRequest) -> Result<WebhookReply> {
        let Some(hook) = evolution::hook(&r.body) else {
            return Ok(reply(400, "Corpo do webhook inválido."));
        };
        let Some((client, emp)) = self.route("evolution", &hook.instance).await? else {
            return Ok(reply(401, UNAUTHORIZED));
        };
        let given = hook
            .apikey
            .as_deref()
            .or(r.headers.get("apikey").map(String::as_str));
        let stored = self.secret(client, emp).await?;
        let ok = matches!((given, stored.as_deref()), (Some(g), Some(s)) if evolution::same_secret(g.trim(), s));
        if !ok {
            tracing::warn!(
                client,
                emp,
                "messaging: Evolution webhook with a bad apikey"
            );
            return Ok(reply(401, UNAUTHORIZED));
        }
        let reports: Vec<_> = hook
            .reports
            .into_iter()
            .map(|(id, status)| {
                let reason = (status == crate::status::Status::Failed)
                    .then(|| "O WhatsApp não entregou a mensagem.".to_string());
                (id, status, reason)
            })
            .collect();
        self.apply(client, emp, &reports).await?;
        Ok(reply(200, "OK"))
    }
}

#[tonic::async_trait]
impl MessagingService for Webhooks {
    async fn webhook(
        &self,
        req: Request<WebhookRequest>,
    ) -> std::result::Result<Response<WebhookReply>, Status> {
        let r = self.handle(req.into_inner()).await.map_err(|e: Error| {
            tracing::warn!(error = %e, "messaging: webhook not applied");
            Status::from(e)
        })?;
        Ok(Response::new(r))
    }
}
