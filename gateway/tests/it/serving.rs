//! Health, metrics, openapi, the web client's navigation, the upstream deadline
//! and the tenantless pool.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::json;

use crate::{admin, app, http, read};

#[tokio::test]
async fn health_readiness_metrics_and_openapi() {
    let base = &app().base;
    assert_eq!(
        http()
            .get(format!("{base}/healthz"))
            .send()
            .await
            .expect("healthz")
            .status()
            .as_u16(),
        200
    );
    assert_eq!(
        http()
            .get(format!("{base}/readyz"))
            .send()
            .await
            .expect("readyz")
            .status()
            .as_u16(),
        200
    );
    admin().await;
    let metrics = http()
        .get(format!("{base}/metrics"))
        .send()
        .await
        .expect("metrics")
        .text()
        .await
        .unwrap_or_default();
    assert!(metrics.contains("http_requests_total"), "{metrics}");
    assert!(metrics.contains("grpc_server_handled_total"));
    let (status, api) = read(
        http()
            .get(format!("{base}/openapi.json"))
            .send()
            .await
            .expect("openapi"),
    )
    .await;
    assert_eq!(status, 200);
    for p in [
        "/usuarios/sessions",
        "/programasusuario/montamenu/{user}",
        "/empresas/filtro",
        "/empresas/{EMP_ID}",
        "/usuarios/{USR_ID}/{emp}",
    ] {
        assert!(
            api["paths"].get(p).is_some(),
            "{p} missing from openapi.json"
        );
    }
    assert_eq!(
        api["paths"]["/usuarios/sessions"]["post"]["security"],
        json!([])
    );
    // Registers are typed from their descriptors: what a create takes (required
    // fields, lengths, enumerations), the row a list answers, the 204, the error.
    let schemas = &api["components"]["schemas"];
    let create = &schemas["area.create"];
    assert_eq!(create["required"], json!(["AREA_DESCRICAO"]));
    assert_eq!(
        create["properties"]["AREA_DESCRICAO"]["maxLength"],
        json!(100)
    );
    assert!(
        create["properties"].get("AREA_ID").is_none(),
        "generated key"
    );
    assert_eq!(
        schemas["area.row"]["properties"]["AREA_ID"]["type"],
        json!("integer")
    );
    let enums = &schemas["pedido.update"]["properties"];
    assert!(enums.get("PEDF_SITUACAO").is_none(), "read-only status");
    let list = &api["paths"]["/area/{emp}"]["post"];
    assert_eq!(
        list["requestBody"]["content"]["application/json"]["schema"],
        json!({"$ref": "#/components/schemas/ListBody"})
    );
    assert_eq!(
        list["responses"]["200"]["content"]["application/json"]["schema"],
        json!({"type": "array", "items": {"$ref": "#/components/schemas/area.row"}})
    );
    assert!(list["responses"].get("204").is_some());
    assert_eq!(
        list["parameters"][0]["schema"]["type"],
        json!("integer"),
        "the company is an integer"
    );
    assert_eq!(
        api["paths"]["/area"]["post"]["requestBody"]["content"]["application/json"]["schema"],
        json!({"$ref": "#/components/schemas/area.create"})
    );
    assert_eq!(
        api["components"]["responses"]["Erro"]["content"]["application/json"]["schema"],
        json!({"$ref": "#/components/schemas/Error"})
    );
    assert_eq!(
        api["components"]["securitySchemes"]["bearer"]["scheme"],
        json!("bearer")
    );
}

#[tokio::test]
async fn browser_navigation_gets_the_web_client_and_api_calls_get_json() {
    let base = &app().base;
    for path in ["/", "/clientes", "/empresas/alterar", "/login"] {
        let r = http()
            .get(format!("{base}{path}"))
            .header("accept", "text/html,application/xhtml+xml")
            .send()
            .await
            .expect("page");
        assert_eq!(r.status().as_u16(), 200, "{path}");
        assert!(r
            .text()
            .await
            .unwrap_or_default()
            .contains("<title>ERP</title>"));
    }
    let r = http()
        .get(format!("{base}/empresas/1"))
        .header("accept", "application/json")
        .send()
        .await
        .expect("api");
    assert_eq!(r.status().as_u16(), 401);
}
/// A service that never answers: the gateway gives up after 15 s with the legacy 408.
#[tokio::test]
async fn a_silent_upstream_becomes_408() {
    let stalled = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = stalled.local_addr().expect("addr");
    let hold = tokio::spawn(
        tonic::transport::Server::builder()
            .add_service(Stalled)
            .serve_with_incoming(tokio_stream::wrappers::TcpListenerStream::new(stalled)),
    );
    let cfg = Arc::new(app().cfg.clone());
    let urls = HashMap::from([(
        "identity".to_string(),
        erp_gateway::upstream::Target::Url(format!("http://{addr}")),
    )]);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let bus: Arc<dyn erp_platform::bus::Bus> = Arc::new(erp_platform::bus::MemoryBus::new());
    let cache: Arc<dyn erp_platform::cache::Cache> =
        Arc::new(erp_platform::cache::MemoryCache::new());
    let shutdown = erp_platform::shutdown::Shutdown::new();
    let (gw, _, task) =
        erp_gateway::roles::start_gateway(cfg, urls, bus, cache, listener, shutdown)
            .await
            .expect("gateway");
    let started = std::time::Instant::now();
    let r = http()
        .post(format!("http://{gw}/usuarios/sessions"))
        .json(&json!({"cpfcnpj": crate::DEMO, "usuario": "admin", "senha": "admin123"}))
        .send()
        .await
        .expect("send");
    let (status, body) = read(r).await;
    assert_eq!(status, 408, "{body} after {:?}", started.elapsed());
    assert_eq!(
        body,
        json!({"code": 408, "msg": "Tempo de Solicitação Esgotado"})
    );
    assert!(started.elapsed() >= std::time::Duration::from_secs(14));
    task.abort();
    hold.abort();
}

/// A gRPC identity service that accepts every call and never answers.
#[derive(Clone)]
struct Stalled;

impl tonic::server::NamedService for Stalled {
    const NAME: &'static str = "identity.v1.IdentityService";
}

impl<B> tower::Service<http::Request<B>> for Stalled {
    type Response = http::Response<tonic::body::Body>;
    type Error = std::convert::Infallible;
    type Future = futures::future::Pending<Result<Self::Response, Self::Error>>;

    fn poll_ready(
        &mut self,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Result<(), Self::Error>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn call(&mut self, _: http::Request<B>) -> Self::Future {
        futures::future::pending()
    }
}

#[tokio::test]
async fn the_app_pool_sees_nothing_without_a_tenant() {
    let db = erp_platform::db::Db::connect(&app().cfg).await.expect("db");
    for t in ["empresas", "usuarios", "programas_usuario"] {
        let n: i64 = sqlx::query_scalar(&format!("SELECT count(*) FROM identity.{t}"))
            .fetch_one(&db.pool)
            .await
            .expect("count");
        assert_eq!(n, 0, "{t} visible without a tenant");
    }
}

/// Every route of openapi.json answers 401 to a call without a token, except the
/// routes declared public (login): authentication is the route table's, not each
/// handler's, so no route is public by omission.
#[tokio::test]
async fn every_route_without_a_token_is_refused_unless_declared_public() {
    let base = &app().base;
    let (_, api) = read(
        http()
            .get(format!("{base}/openapi.json"))
            .send()
            .await
            .expect("openapi"),
    )
    .await;
    let paths = api["paths"].as_object().expect("paths");
    let (mut checked, mut public) = (0, Vec::new());
    for (path, ops) in paths {
        let concrete: String = path
            .split('/')
            .map(|s| if s.starts_with('{') { "1" } else { s })
            .collect::<Vec<_>>()
            .join("/");
        for (method, op) in ops.as_object().expect("operations") {
            let m = reqwest::Method::from_bytes(method.to_ascii_uppercase().as_bytes())
                .expect("method");
            if op["security"] == json!([]) {
                public.push(format!("{method} {path}"));
                continue;
            }
            let r = http()
                .request(m, format!("{base}{concrete}"))
                .header("content-type", "application/json")
                .body("{}")
                .send()
                .await
                .expect("call");
            assert_eq!(r.status().as_u16(), 401, "{method} {path} without a token");
            checked += 1;
        }
    }
    public.sort();
    // The login, and the WhatsApp providers' webhooks (signed by the provider,
    // checked by messaging before anything changes).
    assert_eq!(
        public,
        vec![
            "get /whatsapp/webhook".to_string(),
            "post /usuarios/sessions".to_string(),
            "post /whatsapp/webhook".to_string(),
            "post /whatsapp/webhook/evolution".to_string(),
        ]
    );
    assert!(checked > 1000, "{checked} routes checked");
}

/// A new connection costs what the operating system's handshake costs, not a
/// rebuild of the route table (`axum::serve` of a bare `Router` rebuilt ~1,400
/// routes per connection: ~7 ms against 0.05 ms kept alive). Timed from outside
/// over loopback, median of 200 each, against the kept-alive request in the same
/// run; the bound is wide (the machine may be busy), the old cost was 150×.
#[tokio::test]
async fn a_fresh_connection_costs_about_what_a_kept_alive_request_does() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = app().base.trim_start_matches("http://").to_string();
    const REQUEST: &[u8] = b"GET /healthz HTTP/1.1\r\nhost: erp\r\n\r\n";
    async fn answer(s: &mut tokio::net::TcpStream) {
        let mut buf = [0u8; 512];
        let mut got = Vec::new();
        while !got.windows(2).any(|w| w == b"ok") {
            let n = s.read(&mut buf).await.expect("read");
            assert!(n > 0, "closed early");
            got.extend_from_slice(&buf[..n]);
        }
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(|a, b| a.total_cmp(b));
        v[v.len() / 2]
    };
    let mut kept = tokio::net::TcpStream::connect(&addr)
        .await
        .expect("connect");
    let mut warm = Vec::new();
    for _ in 0..200 {
        let t = std::time::Instant::now();
        kept.write_all(REQUEST).await.expect("write");
        answer(&mut kept).await;
        warm.push(t.elapsed().as_secs_f64());
    }
    let mut fresh = Vec::new();
    for _ in 0..200 {
        let t = std::time::Instant::now();
        let mut s = tokio::net::TcpStream::connect(&addr)
            .await
            .expect("connect");
        s.write_all(REQUEST).await.expect("write");
        answer(&mut s).await;
        fresh.push(t.elapsed().as_secs_f64());
    }
    let (warm, fresh) = (median(warm), median(fresh));
    assert!(
        fresh < 30.0 * warm + 0.001,
        "fresh connection p50 {:.3} ms against kept-alive {:.3} ms",
        fresh * 1000.0,
        warm * 1000.0
    );
}
