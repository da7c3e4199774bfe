//! Health, metrics, openapi, uploads, the web client's navigation and the upstream
//! deadline.

use std::collections::HashMap;
use std::sync::Arc;

use reqwest::Method;
use serde_json::{json, Value};

use crate::{admin, app, http, login, read, serial, OTHER};

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

fn png() -> Vec<u8> {
    // 1x1 transparent PNG.
    vec![
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44,
        0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F,
        0x15, 0xC4, 0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x00,
        0x01, 0x00, 0x00, 0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49,
        0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]
}

#[tokio::test]
async fn company_logo_upload_is_checked_stored_and_served_only_to_its_client() {
    let _turn = serial().await;
    let a = admin().await;
    let bad = reqwest::multipart::Form::new().part(
        "file",
        reqwest::multipart::Part::bytes(b"<svg onload=alert(1)>".to_vec()).file_name("logo.png"),
    );
    let (status, body) = read(
        a.req(Method::PUT, "/empresas/uploads/1/2")
            .multipart(bad)
            .send()
            .await
            .expect("upload"),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(body["msg"], json!("Permitidos apenas imagens e PDF!"));

    let form = reqwest::multipart::Form::new().part(
        "file",
        reqwest::multipart::Part::bytes(png()).file_name("logo.png"),
    );
    let (status, body) = read(
        a.req(Method::PUT, "/empresas/uploads/1/2")
            .multipart(form)
            .send()
            .await
            .expect("upload"),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let url = body["url"].as_str().expect("url").to_string();
    let name = body["EMP_IMG_LOGO_REL"]
        .as_str()
        .expect("stored name")
        .to_string();
    let r = a.req(Method::GET, &url).send().await.expect("get");
    assert_eq!(r.status().as_u16(), 200);
    assert_eq!(
        r.headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok()),
        Some("image/png")
    );
    assert_eq!(
        r.bytes().await.map(|b| b.to_vec()).unwrap_or_default(),
        png()
    );

    // The session cookie works for <img>; another client never gets the file.
    let jar = Arc::new(reqwest::cookie::Jar::default());
    let browser = reqwest::Client::builder()
        .cookie_provider(jar)
        .build()
        .expect("client");
    let login = browser
        .post(format!("{}/usuarios/sessions", app().base))
        .json(&json!({"cpfcnpj": crate::DEMO, "usuario": "admin", "senha": "admin123"}))
        .send()
        .await
        .expect("login");
    assert_eq!(login.status().as_u16(), 200);
    assert_eq!(
        browser
            .get(format!("{}{url}", app().base))
            .send()
            .await
            .expect("img")
            .status()
            .as_u16(),
        200
    );
    let b = login_b().await;
    let r = b.req(Method::GET, &url).send().await.expect("get");
    assert_eq!(
        r.status().as_u16(),
        404,
        "client B must not read client A's file"
    );

    let (status, _) = a
        .call(
            Method::DELETE,
            &format!("/empresas/uploads/1/2/{name}"),
            None,
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        a.req(Method::GET, &url)
            .send()
            .await
            .expect("get")
            .status()
            .as_u16(),
        404
    );
}

async fn login_b() -> crate::User {
    login(OTHER, "admin", "senhaB123").await
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
    let (gw, _, task) = erp_gateway::roles::start_gateway(cfg, urls, bus, cache, listener)
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

async fn graphql(u: &crate::User, query: &str) -> Value {
    let r = u
        .req(Method::POST, "/graphql")
        .json(&json!({ "query": query }))
        .send()
        .await
        .expect("send");
    crate::read(r).await.1
}

/// A query that aliases a service call hundreds of times is refused as a whole
/// before any call runs: none of its 300 creations exists afterwards. Within the
/// limits the same shape runs.
#[tokio::test]
async fn graphql_refuses_what_costs_too_much_before_calling_a_service() {
    let u = crate::login(crate::DEMO, "admin", "admin123").await;
    let creations: String = (0..300)
        .map(|i| {
            format!(
                "a{i}: resourceCreate(name: \"area\", emp: 1, data: {{AREA_DESCRICAO: \"LIMITE {i}\"}}) "
            )
        })
        .collect();
    let body = graphql(&u, &format!("mutation {{ {creations} }}")).await;
    assert!(body["data"].is_null(), "{body}");
    assert_eq!(
        body["errors"][0]["message"],
        json!("Consulta com apelidos demais: 300 (máximo 30).")
    );
    let (status, found) = u
        .call(Method::POST, "/area/1", Some(json!({"FILTRO": "LIMITE"})))
        .await;
    assert_eq!(status, 204, "{found}");

    // 21 service calls without aliases (through a fragment spread twice) are too many.
    let fields: String = (0..11)
        .map(|i| {
            format!("resourceMeta(name: \"area\") {{ name }} f{i}: me {{ user {{ login }} }} ")
        })
        .collect();
    let spread = format!(
        "query {{ ...F ...F }} fragment F on Query {{ {} }}",
        (0..11)
            .map(|_| "resourceList(name: \"area\", emp: 1) { total } ")
            .collect::<String>()
    );
    let body = graphql(&u, &spread).await;
    assert_eq!(
        body["errors"][0]["message"],
        json!("Consulta com chamadas demais: 22 (máximo 20).")
    );
    let ok: String = (0..5)
        .map(|i| {
            format!("l{i}: resourceList(name: \"area\", emp: 1, input: {{limit: 1}}) {{ total }} ")
        })
        .collect();
    let body = graphql(&u, &format!("{{ {ok} {fields} }}")).await;
    assert!(body["errors"].is_null(), "{body}");
    assert_eq!(body["data"]["l4"]["total"], body["data"]["l0"]["total"]);

    // Introspection is off unless configured (ERP_GRAPHQL_INTROSPECTION): the schema
    // and its types answer null.
    let body = graphql(
        &u,
        "{ __schema { types { name } } __type(name: \"Query\") { name } }",
    )
    .await;
    assert_eq!(
        body["data"],
        json!({"__schema": null, "__type": null}),
        "{body}"
    );
}
