//! GraphQL bounded: depth, complexity, aliases and upstream calls per request.

use reqwest::Method;
use serde_json::{json, Value};

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
