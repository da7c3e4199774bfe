//! The notification bell's feed: a GraphQL subscription over WebSocket
//! (graphql-transport-ws) that delivers the notifications published on the bus for
//! the connected user — addressed to them, to every user of a company they may
//! use, or to everyone — and never another user's or another tenant's.

use std::time::Duration;

use erp_platform::bus::{Bus, Message, NatsBus};
use futures::{SinkExt, StreamExt};
use prost::Message as _;
use reqwest::Method;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message as Ws;

use crate::{admin, app, login, seller, OTHER, OTHER_CLIENT};

/// The demo client's tenant id.
const DEMO_CLIENT: i64 = 2;

fn notice(user_id: i64, message: &str) -> Message {
    notice_to(DEMO_CLIENT, user_id, 0, message)
}

/// A notification of client `client_id` to user `user_id` (0: every user of
/// company `emp_id`), as messaging publishes it.
fn notice_to(client_id: i64, user_id: i64, emp_id: i64, message: &str) -> Message {
    let id = uuid::Uuid::new_v4().to_string();
    let n = erp_proto::erp::v1::Notification {
        id: id.clone(),
        client_id,
        user_id,
        emp_id,
        message: message.into(),
        created_at: "2026-11-22T10:00:00Z".into(),
        kind: "nfe".into(),
        link: "/pedidos/alterar?id=9".into(),
    };
    Message::new(
        id,
        erp_proto::subjects::NOTIFICACAO_CRIADA,
        n.encode_to_vec().into(),
    )
}

pub(crate) type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

pub(crate) fn next_json(m: Ws) -> Option<Value> {
    match m {
        Ws::Text(t) => serde_json::from_str(t.as_str()).ok(),
        _ => None,
    }
}

/// A graphql-transport-ws socket, acknowledged, subscribed to `query`.
pub(crate) async fn subscribed(token: &str, query: &str) -> Socket {
    let url = format!("{}/graphql/ws", app().base.replacen("http://", "ws://", 1));
    let mut req = url.into_client_request().expect("request");
    req.headers_mut().insert(
        "Sec-WebSocket-Protocol",
        "graphql-transport-ws".parse().expect("header"),
    );
    let (mut ws, _) = tokio_tungstenite::connect_async(req)
        .await
        .expect("websocket");
    let init =
        json!({"type": "connection_init", "payload": {"authorization": format!("Bearer {token}")}});
    ws.send(Ws::Text(init.to_string().into()))
        .await
        .expect("init");
    let ack = tokio::time::timeout(Duration::from_secs(10), ws.next())
        .await
        .expect("ack in time");
    assert_eq!(
        ack.and_then(|m| m.ok())
            .and_then(next_json)
            .map(|v| v["type"].clone()),
        Some(json!("connection_ack"))
    );
    let sub = json!({"id": "1", "type": "subscribe", "payload": {"query": query}});
    ws.send(Ws::Text(sub.to_string().into()))
        .await
        .expect("subscribe");
    ws
}

/// The announcement of a new version the product made when it started (to
/// everyone): it may reach a socket at any time, so the tests look past it.
fn announced_version(data: &Value) -> bool {
    data["notifications"]["kind"] == json!("versao")
}

/// The subscription is ready when a message reaches it: until then `publish` the
/// messages again, once a second; answers the data of the first one delivered
/// (a version's announcement aside).
async fn first_delivered(ws: &mut Socket, messages: &[Message]) -> Value {
    let nats_url = app().cfg.nats_url.clone().expect("tests run with NATS");
    let bus = NatsBus::connect(&nats_url).await.expect("nats");
    tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            for m in messages {
                bus.publish(m.clone()).await.expect("publish");
            }
            let round = tokio::time::Instant::now() + Duration::from_secs(1);
            while let Ok(Some(Ok(m))) = tokio::time::timeout_at(round, ws.next()).await {
                if let Some(v) = next_json(m) {
                    if v["type"] == json!("next") && !announced_version(&v["payload"]["data"]) {
                        return v["payload"]["data"].clone();
                    }
                }
            }
        }
    })
    .await
    .expect("a message in time")
}

#[tokio::test]
async fn notifications_reach_only_their_users_websocket() {
    let u = admin().await;
    let mut ws = subscribed(
        &u.token,
        "subscription { notifications { id message kind } }",
    )
    .await;
    // Another user's first, then this user's: the first one the socket gets must
    // be this user's.
    let got = first_delivered(
        &mut ws,
        &[
            notice(2, "Para outro usuário"),
            notice(1, "Pedido 10 faturado"),
        ],
    )
    .await;
    assert_eq!(
        got["notifications"]["message"],
        json!("Pedido 10 faturado"),
        "the first notification delivered is the user's own"
    );
}

#[tokio::test]
async fn a_notification_to_a_companys_users_reaches_them_and_no_other_tenant() {
    let query = "subscription { notifications { id message kind link } }";
    // The seller may use company 1 of the demo client only; client B's admin,
    // company 1 of client B.
    let s = seller().await;
    let b = login(OTHER, "admin", "senhaB123").await;
    let mut seller_ws = subscribed(&s.token, query).await;
    let mut b_ws = subscribed(&b.token, query).await;
    // To every user of the demo's company 2 first (not the seller's), then of
    // its company 1: the first the seller gets is company 1's.
    let got = first_delivered(
        &mut seller_ws,
        &[
            notice_to(DEMO_CLIENT, 0, 2, "Para a empresa 2"),
            notice_to(
                DEMO_CLIENT,
                0,
                1,
                "NF-e do pedido 9/1 rejeitada: 539 Duplicidade de NF-e",
            ),
        ],
    )
    .await;
    assert_eq!(
        got["notifications"],
        json!({"id": got["notifications"]["id"], "message": "NF-e do pedido 9/1 rejeitada: 539 Duplicidade de NF-e",
               "kind": "nfe", "link": "/pedidos/alterar?id=9"})
    );
    // Client B's socket heard none of the demo's (its company 1 included): the
    // first it gets, with the demo's company 1 published again before it, is
    // its own company 1's.
    let got = first_delivered(
        &mut b_ws,
        &[
            notice_to(DEMO_CLIENT, 0, 1, "Para a empresa 1 do cliente demo"),
            notice_to(OTHER_CLIENT, 0, 1, "Para a empresa 1 do cliente B"),
        ],
    )
    .await;
    assert_eq!(
        got["notifications"]["message"],
        json!("Para a empresa 1 do cliente B"),
        "another tenant's company 1 is not this tenant's"
    );
}

/// The messages a bell lists (`GET /notificacoes`) with whether each is read,
/// without the announcement of the version the product started with.
fn listed(list: &Value) -> Vec<(String, bool)> {
    list["dados"]
        .as_array()
        .map(|d| {
            d.iter()
                .filter(|n| n["NOTI_TIPO"] != json!("versao"))
                .map(|n| {
                    (
                        n["NOTI_MENSAGEM"].as_str().unwrap_or_default().to_string(),
                        n["lida"] == json!(true),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn each_user_reads_their_own_bell_through_the_gateway() {
    let s = seller().await;
    let a = admin().await;
    let cfg = erp_platform::config::Config { db_max_connections: 1, ..app().cfg.clone() };
    let db = erp_platform::db::Db::connect(&cfg).await.expect("db");
    let text = format!("Só para o vendedor {}", uuid::Uuid::new_v4());
    let mut tx = db.begin_tenant(DEMO_CLIENT).await.expect("tx");
    erp_messaging::notifications::notify(
        &mut tx,
        DEMO_CLIENT,
        1,
        s.id(),
        "mensagem",
        &text,
        Some("/whatsapp"),
    )
    .await
    .expect("notify");
    tx.commit().await.expect("commit");
    // The seller has no program of it: the bell's calls are every user's.
    let (status, list) = s.call(Method::GET, "/notificacoes", None).await;
    assert_eq!(status, 200, "{list}");
    assert!(listed(&list).contains(&(text.clone(), false)), "{list}");
    assert!(list["naoLidas"].as_i64().is_some_and(|n| n >= 1), "{list}");
    let (status, list) = a.call(Method::GET, "/notificacoes", None).await;
    assert_eq!(status, 200, "{list}");
    assert!(
        !listed(&list).iter().any(|(m, _)| m == &text),
        "the admin's bell is not the seller's: {list}"
    );
    let (status, done) = s.call(Method::PUT, "/notificacoes/lidas", None).await;
    assert_eq!(
        (status, done["msg"].clone()),
        (200, json!("Notificações marcadas como lidas."))
    );
    let (_, list) = s.call(Method::GET, "/notificacoes", None).await;
    assert!(listed(&list).contains(&(text, true)), "{list}");
    // Its generic reads are no user's (they would show other users' notifications).
    let (status, body) = s
        .call(Method::POST, "/notificacoes/1", Some(json!({})))
        .await;
    assert_eq!(status, 403, "{body}");
}

fn figures(client_id: i64, emp_id: i64, widgets: &[&str]) -> Message {
    let c = erp_proto::erp::v1::DashboardChanged {
        client_id,
        emp_id,
        widgets: widgets.iter().map(|w| w.to_string()).collect(),
    };
    Message::new(
        uuid::Uuid::new_v4().to_string(),
        erp_proto::subjects::PAINEL_ALTERADO,
        c.encode_to_vec().into(),
    )
}

#[tokio::test]
async fn dashboard_changes_reach_only_their_companys_dashboard() {
    let u = admin().await;
    let mut ws = subscribed(&u.token, "subscription { dashboardChanged(emp: 1) }").await;
    // Another client's company 1 and this client's company 5 first: the first
    // change the socket gets must be this client's company 1.
    let got = first_delivered(
        &mut ws,
        &[
            figures(3, 1, &["contaspagar"]),
            figures(2, 5, &["vendassetor"]),
            figures(2, 1, &["vendasgrupo", "formaspagamentos"]),
        ],
    )
    .await;
    assert_eq!(
        got["dashboardChanged"],
        json!(["vendasgrupo", "formaspagamentos"])
    );
}

#[tokio::test]
async fn a_websocket_without_a_valid_token_is_refused() {
    let url = format!("{}/graphql/ws", app().base.replacen("http://", "ws://", 1));
    let mut req = url.into_client_request().expect("request");
    req.headers_mut().insert(
        "Sec-WebSocket-Protocol",
        "graphql-transport-ws".parse().expect("header"),
    );
    let (mut ws, _) = tokio_tungstenite::connect_async(req)
        .await
        .expect("websocket");
    let init =
        json!({"type": "connection_init", "payload": {"authorization": "Bearer abc.def.ghi"}});
    ws.send(Ws::Text(init.to_string().into()))
        .await
        .expect("init");
    let reply = tokio::time::timeout(Duration::from_secs(10), ws.next())
        .await
        .expect("reply in time");
    let acked = matches!(reply, Some(Ok(Ws::Text(ref t))) if t.as_str().contains("connection_ack"));
    assert!(
        !acked,
        "an invalid token must not be acknowledged: {reply:?}"
    );
}
