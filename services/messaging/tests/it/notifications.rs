//! The bell's notifications: a message that failed for good tells its sender
//! (or every user of its company), in the transaction that failed it and through
//! the outbox; facts of other services (an NF-e rejected, a slip paid) notify a
//! company's users once however often they are delivered; a new version is
//! announced once however many replicas start; and the calls answer each user
//! their own, never another tenant's.

use std::collections::HashMap;
use std::sync::Arc;

use chrono::Utc;
use erp_messaging::files::Kind;
use erp_messaging::notifications::{self, kind};
use erp_messaging::queue::{self, Channel, Key, NewMessage};
use erp_messaging::status::Status;
use erp_platform::bus::{consumer, Message, CLIENT_HEADER};
use erp_platform::db::Db;
use erp_platform::grpc::Caller;
use erp_platform::resource::grpc::ResourceGrpc;
use erp_proto::erp::v1::resource_service_server::ResourceService;
use erp_proto::erp::v1::{ActionRequest, Notification};
use prost::Message as _;
use serde_json::{json, Value};

use crate::*;

/// A tenant's notifications as stored: (user, company, kind, message, link).
async fn stored(db: &Db, c: i64) -> Vec<(i64, i64, String, String, Option<String>)> {
    let mut tx = db.begin_tenant(c).await.expect("tx");
    sqlx::query_as(
        "SELECT noti_usr_id, noti_emp_id, noti_tipo, noti_mensagem, noti_link
         FROM messaging.notificacoes WHERE client_id = $1 ORDER BY noti_id",
    )
    .bind(c)
    .fetch_all(&mut *tx)
    .await
    .expect("notificacoes")
}

/// The notifications client `c` wrote to the outbox (client 0: announcements).
async fn published(db: &Db, c: i64) -> Vec<Notification> {
    let rows: Vec<Vec<u8>> = sqlx::query_scalar(
        "SELECT payload FROM messaging.outbox WHERE subject = $1 AND client_id = $2 ORDER BY created_at, id",
    )
    .bind(notifications::SUBJECT)
    .bind(c)
    .fetch_all(&db.pool)
    .await
    .expect("outbox");
    rows.iter()
        .map(|p| Notification::decode(p.as_slice()).expect("notification"))
        .collect()
}

fn email(user: Option<i64>) -> NewMessage {
    NewMessage {
        channel: Channel::Email,
        user,
        to: "compras@cliente.com.br;fiscal@cliente.com.br".into(),
        bcc: None,
        subject: Some("Pedido".into()),
        text: "Segue o pedido".into(),
        at: Utc::now(),
        immediate: true,
        project: None,
        program: None,
        kind: Kind::Text,
        doc: None,
        template: None,
        files: Vec::new(),
    }
}

#[tokio::test]
async fn a_message_that_failed_for_good_tells_its_sender_through_the_outbox() {
    let db = db().await;
    let deps = deps();
    let c = client();
    // Sent by user 7 (the caller): the worker gives up on it.
    let id = id_of(
        &send(
            &db,
            &deps,
            c,
            json!({"MENS_DESCRICAO": "Seu pedido saiu", "MENS_DESTINATARIO": MOBILE}),
        )
        .await
        .expect("queued"),
    );
    let k = Key { client: c, emp: 1, id };
    let mut tx = db.begin_tenant(c).await.expect("tx");
    queue::failed(&mut tx, k, "Número não está no WhatsApp.")
        .await
        .expect("failed");
    // Nothing is published before the failure commits.
    assert!(published(&db, c).await.is_empty());
    tx.commit().await.expect("commit");
    let text = "WhatsApp para +55 (54) 99987-6543 não foi enviado: Número não está no WhatsApp.";
    assert_eq!(
        stored(&db, c).await,
        vec![(
            7,
            1,
            kind::MESSAGE.to_string(),
            text.to_string(),
            Some("/whatsapp".to_string())
        )]
    );
    let out = published(&db, c).await;
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!((out[0].client_id, out[0].user_id, out[0].emp_id), (c, 7, 1));
    assert_eq!(
        (
            out[0].kind.as_str(),
            out[0].message.as_str(),
            out[0].link.as_str()
        ),
        (kind::MESSAGE, text, "/whatsapp")
    );
    assert!(out[0].id.parse::<i64>().is_ok() && !out[0].created_at.is_empty());
    // Failing it again tells nobody again.
    let mut tx = db.begin_tenant(c).await.expect("tx");
    queue::failed(&mut tx, k, "De novo.").await.expect("failed");
    tx.commit().await.expect("commit");
    assert_eq!(stored(&db, c).await.len(), 1);

    // An e-mail without a sender, that the provider took and a webhook then
    // reported as failed: every user of its company hears it.
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let id = queue::enqueue(&mut tx, c, 1, &email(None))
        .await
        .expect("queued");
    let k = Key { client: c, emp: 1, id };
    queue::sent(&mut tx, k, "smtp-1").await.expect("sent");
    let had = queue::report(
        &mut tx,
        c,
        1,
        "smtp-1",
        Status::Failed,
        Some("Caixa postal cheia."),
    )
    .await
    .expect("report");
    assert!(had);
    // The same report again changes nothing and tells nobody again.
    queue::report(&mut tx, c, 1, "smtp-1", Status::Failed, Some("De novo."))
        .await
        .expect("report");
    tx.commit().await.expect("commit");
    let all = stored(&db, c).await;
    assert_eq!(all.len(), 2, "{all:?}");
    assert_eq!(
        all[1],
        (
            0,
            1,
            kind::MESSAGE.to_string(),
            "E-mail para compras@cliente.com.br, fiscal@cliente.com.br não foi enviado: Caixa postal cheia."
                .to_string(),
            Some("/whatsapp".to_string())
        )
    );
    assert_eq!(published(&db, c).await.len(), 2);
}

#[tokio::test]
async fn a_message_sent_is_no_notification() {
    let db = db().await;
    let c = client();
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let id = queue::enqueue(&mut tx, c, 1, &email(Some(7)))
        .await
        .expect("queued");
    let k = Key { client: c, emp: 1, id };
    queue::sent(&mut tx, k, "smtp-ok").await.expect("sent");
    queue::report(&mut tx, c, 1, "smtp-ok", Status::Delivered, None)
        .await
        .expect("report");
    tx.commit().await.expect("commit");
    assert!(stored(&db, c).await.is_empty());
    assert!(published(&db, c).await.is_empty());
}

/// A fact as the bus delivers it: its id and its tenant's header.
fn fact(c: i64, subject: &str, payload: Vec<u8>) -> Message {
    let mut m = Message::new(uuid::Uuid::now_v7().to_string(), subject, payload.into());
    m.headers.push((CLIENT_HEADER.to_string(), c.to_string()));
    m.delivery = 1;
    m
}

/// Applies `msgs` as messaging's consumer of `subject` does (its inbox included).
async fn deliver(db: &Db, subject: &str, msgs: &[Message]) {
    let def = notifications::consumers()
        .into_iter()
        .find(|d| d.filter == subject)
        .unwrap_or_else(|| panic!("a consumer of {subject}"));
    let outcomes =
        consumer::apply_delivered(db, erp_messaging::SCHEMA, def.durable, &def.effect, msgs).await;
    assert!(
        outcomes
            .iter()
            .all(|o| *o == erp_platform::bus::Outcome::Ack),
        "{outcomes:?}"
    );
}

#[tokio::test]
async fn a_rejected_nfe_notifies_the_companys_users_once_however_often_it_is_delivered() {
    let db = db().await;
    let c = client();
    let ev = erp_proto::fiscal::v1::NfeRejeitada {
        client_id: c,
        emp_id: 1,
        pedido_id: 9,
        serie: "1".into(),
        cstat: 539,
        motivo: "Duplicidade de NF-e".into(),
        status: "rejeitado".into(),
    };
    let m = fact(c, erp_proto::subjects::NFE_REJEITADA, ev.encode_to_vec());
    deliver(
        &db,
        erp_proto::subjects::NFE_REJEITADA,
        std::slice::from_ref(&m),
    )
    .await;
    // Redelivered, alone and twice in one batch.
    deliver(
        &db,
        erp_proto::subjects::NFE_REJEITADA,
        std::slice::from_ref(&m),
    )
    .await;
    deliver(&db, erp_proto::subjects::NFE_REJEITADA, &[m.clone(), m]).await;
    assert_eq!(
        stored(&db, c).await,
        vec![(
            0,
            1,
            kind::NFE.to_string(),
            "NF-e do pedido 9/1 rejeitada: 539 Duplicidade de NF-e".to_string(),
            Some(
                "/pedidos/alterar?id=%7B%22PEDF_ID%22%3A9%2C%22PEDF_SERIE%22%3A%221%22%7D"
                    .to_string()
            )
        )]
    );
    assert_eq!(published(&db, c).await.len(), 1);
}

#[tokio::test]
async fn a_paid_slip_notifies_the_companys_users_with_the_amount_in_reais() {
    let db = db().await;
    let c = client();
    let slip = |change: &str, value: &str| erp_proto::finance::v1::BoletoSituacao {
        client_id: c,
        emp_id: 1,
        boleto_id: 31,
        title_id: 12,
        change: change.into(),
        value: value.into(),
    };
    let s = erp_proto::subjects::BOLETO_SITUACAO;
    deliver(
        &db,
        s,
        &[
            fact(c, s, slip("gerado", "1234.50").encode_to_vec()),
            fact(c, s, slip("pago", "1234.5").encode_to_vec()),
            fact(c, s, slip("baixado", "0").encode_to_vec()),
        ],
    )
    .await;
    assert_eq!(
        stored(&db, c).await,
        vec![(
            0,
            1,
            kind::SLIP.to_string(),
            "Boleto nº 31 pago: R$ 1.234,50".to_string(),
            Some("/contasareceber/alterar?id=12".to_string())
        )]
    );
    // Another tenant's fact under this tenant's header is refused, not applied.
    let other =
        erp_proto::finance::v1::BoletoSituacao { client_id: c + 100_000, ..slip("pago", "1") };
    deliver(&db, s, &[fact(c, s, other.encode_to_vec())]).await;
    assert_eq!(stored(&db, c).await.len(), 1);
}

#[tokio::test]
async fn a_new_version_is_announced_once_however_many_replicas_start() {
    let db = db().await;
    let announced = |db: Db| async move {
        let n: i64 =
            sqlx::query_scalar("SELECT count(*) FROM messaging.avisos WHERE noti_tipo = 'versao'")
                .fetch_one(&db.pool)
                .await
                .expect("count");
        n
    };
    let before = announced(db.clone()).await;
    // Two replicas start together with version A, then one starts again.
    let (x, y) = tokio::join!(
        notifications::announce_version(&db, "teste-a"),
        notifications::announce_version(&db, "teste-a")
    );
    let (x, y) = (x.expect("start"), y.expect("start"));
    assert!(x != y, "exactly one of them announces it: {x} {y}");
    assert!(!notifications::announce_version(&db, "teste-a")
        .await
        .expect("restart"));
    assert_eq!(announced(db.clone()).await, before + 1);
    let stored: String = sqlx::query_scalar("SELECT versao FROM messaging.versao")
        .fetch_one(&db.pool)
        .await
        .expect("versao");
    assert_eq!(stored, "teste-a");
    let out = published(&db, 0).await;
    let last = out.last().expect("announcement published");
    assert_eq!(
        (
            last.client_id,
            last.user_id,
            last.emp_id,
            last.kind.as_str(),
            last.message.as_str()
        ),
        (0, 0, 0, kind::VERSION, notifications::NEW_VERSION)
    );
    // Version B: announced again, once.
    assert!(notifications::announce_version(&db, "teste-b")
        .await
        .expect("b"));
    assert!(!notifications::announce_version(&db, "teste-b")
        .await
        .expect("b again"));
    assert_eq!(announced(db.clone()).await, before + 2);
}

/// A declared call of `notificacoes` as the gateway makes it: as `caller`, who
/// may use `companies`, through the service's gRPC edge.
async fn bell(db: &Db, caller: &Caller, companies: &[i64], action: &str) -> Value {
    let grpc = ResourceGrpc::new(db.clone(), Arc::new(registry(&deps())));
    let mut r = tonic::Request::new(ActionRequest {
        resource: "notificacoes".into(),
        action: action.into(),
        params: HashMap::new(),
        body_json: b"{}".to_vec().into(),
        companies: companies.to_vec(),
    });
    caller.attach(&mut r);
    let reply = grpc.action(r).await.expect("call");
    serde_json::from_slice(&reply.into_inner().json).expect("json")
}

/// The messages a bell lists, without the announcements to everyone (other
/// tests of the binary may announce versions at any time).
fn own(list: &Value) -> Vec<(String, bool)> {
    list["dados"]
        .as_array()
        .expect("dados")
        .iter()
        .filter(|n| n["NOTI_TIPO"] != kind::VERSION)
        .map(|n| {
            (
                n["NOTI_MENSAGEM"].as_str().unwrap_or_default().to_string(),
                n["lida"].as_bool().expect("lida"),
            )
        })
        .collect()
}

#[tokio::test]
async fn each_user_lists_their_own_and_their_companies_and_marks_them_read_alone() {
    let db = db().await;
    let (a, b) = (client(), client());
    let mut tx = db.begin_tenant(a).await.expect("tx");
    for (emp, user, text) in [
        (1, 7, "Para o usuário 7"),
        (1, 8, "Para o usuário 8"),
        (1, 0, "Para a empresa 1"),
        (2, 0, "Para a empresa 2"),
    ] {
        notifications::notify(
            &mut tx,
            a,
            emp,
            user,
            kind::MESSAGE,
            text,
            Some("/whatsapp"),
        )
        .await
        .expect("notify");
    }
    tx.commit().await.expect("commit");
    let seven = Caller { client_id: a, user_id: 7, emp_id: 1, privileged: false };
    let eight = Caller { client_id: a, user_id: 8, emp_id: 2, privileged: false };

    // User 7 of company 1: theirs and company 1's, newest first, unread.
    let list = bell(&db, &seven, &[1], "listar").await;
    assert_eq!(
        own(&list),
        vec![
            ("Para a empresa 1".to_string(), false),
            ("Para o usuário 7".to_string(), false)
        ]
    );
    assert!(list["naoLidas"].as_i64().expect("naoLidas") >= 2);
    let first = &list["dados"].as_array().expect("dados")[0];
    assert!(first["NOTI_ID"].is_i64() && first["NOTI_DTA_CAD"].is_string());
    // User 8 of company 2 only: theirs and company 2's.
    assert_eq!(
        own(&bell(&db, &eight, &[2], "listar").await),
        vec![
            ("Para a empresa 2".to_string(), false),
            ("Para o usuário 8".to_string(), false)
        ]
    );

    // User 7 reads theirs: read for them, still unread for user 8.
    let done = bell(&db, &seven, &[1], "lidas").await;
    assert_eq!(done["msg"], "Notificações marcadas como lidas.");
    let list = bell(&db, &seven, &[1], "listar").await;
    assert!(own(&list).iter().all(|(_, read)| *read), "{list}");
    let unread = list["dados"]
        .as_array()
        .expect("dados")
        .iter()
        .filter(|n| n["lida"] == false)
        .count();
    assert_eq!(list["naoLidas"], json!(unread), "{list}");
    let with_company_1 = bell(&db, &eight, &[1, 2], "listar").await;
    assert!(
        own(&with_company_1).contains(&("Para a empresa 1".to_string(), false)),
        "company 1's notification is unread for user 8: {with_company_1}"
    );

    // Another tenant's user 7 of company 1 sees none of them.
    let other = Caller { client_id: b, ..seven };
    let list = bell(&db, &other, &[1, 2], "listar").await;
    assert!(own(&list).is_empty(), "{list}");
    // Nor can its raw SQL.
    let mut tx = db.begin_tenant(b).await.expect("tx");
    for table in ["notificacoes", "notificacoes_lidas"] {
        let n: i64 = sqlx::query_scalar(&format!(
            "SELECT count(*) FROM messaging.{table} WHERE client_id = $1"
        ))
        .bind(a)
        .fetch_one(&mut *tx)
        .await
        .expect("count");
        assert_eq!(n, 0, "{table}");
    }
}

#[tokio::test]
async fn the_calls_through_the_register_answer_the_callers_own_and_refuse_generic_writes() {
    let db = db().await;
    let deps = deps();
    let (a, b) = (client(), client());
    let mut tx = db.begin_tenant(a).await.expect("tx");
    notifications::notify(&mut tx, a, 1, 7, kind::NFE, "Só de A", None)
        .await
        .expect("notify");
    tx.commit().await.expect("commit");
    let mine = call(&db, &deps, a, "notificacoes", "listar", &[], json!({}))
        .await
        .expect("listar");
    assert_eq!(own(&mine), vec![("Só de A".to_string(), false)]);
    assert_eq!(mine["dados"][0]["NOTI_LINK"], Value::Null);
    let theirs = call(&db, &deps, b, "notificacoes", "listar", &[], json!({}))
        .await
        .expect("listar");
    assert!(own(&theirs).is_empty(), "{theirs}");
    call(&db, &deps, b, "notificacoes", "lidas", &[], json!({}))
        .await
        .expect("lidas");
    let mine = call(&db, &deps, a, "notificacoes", "listar", &[], json!({}))
        .await
        .expect("listar");
    assert_eq!(
        own(&mine),
        vec![("Só de A".to_string(), false)],
        "B's read marks are B's"
    );
    let created = CTX
        .create(
            &db,
            &res(&deps, "notificacoes"),
            &caller(a),
            Some(1),
            &body(json!({"NOTI_TIPO": "x", "NOTI_MENSAGEM": "forjada"})),
        )
        .await;
    assert_eq!(
        msg(created),
        Some(erp_messaging::resources::notifications::READ_ONLY.into())
    );
}
