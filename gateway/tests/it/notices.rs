//! The notification bell's feed: a GraphQL subscription over WebSocket
//! (graphql-transport-ws) that delivers the notifications published on the bus for
//! the connected user, and only theirs.

use std::time::Duration;

use erp_platform::bus::{Bus, Message, NatsBus};
use futures::{SinkExt, StreamExt};
use prost::Message as _;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message as Ws;

use crate::{admin, app};

fn notice(user_id: i64, message: &str) -> Message {
    let id = uuid::Uuid::new_v4().to_string();
    let n = erp_proto::erp::v1::Notification {
        id: id.clone(),
        client_id: 2,
        user_id,
        message: message.into(),
        created_at: "2026-11-22T10:00:00Z".into(),
    };
    Message::new(
        id,
        "erp.messaging.notificacao.criada",
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

/// The subscription is ready when a message reaches it: until then `publish` the
/// messages again, once a second; answers the data of the first one delivered.
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
                    if v["type"] == json!("next") {
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
    let mut ws = subscribed(&u.token, "subscription { notifications { id message } }").await;
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
