//! Every register through the legacy REST routes the gateway builds from its
//! descriptor: create (in registry order, so references hold), get, list with
//! ORDENACAO and FILTRO, count, search, update, delete — as client B — while client
//! A, numbering its own rows from 1 too, reaches none of them; hostile ORDENACAO
//! and filter keys get a quick 400; an empty list answers 204.

use std::time::{Duration, Instant};

use erp_platform::resource::{DbType, Kind};
use reqwest::Method;
use serde_json::{json, Value};

use crate::{admin, login, seller, serial, OTHER};

fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[tokio::test]
async fn every_register_round_trips_over_http_and_stays_inside_its_client() {
    let _turn = serial().await;
    let registry = erp_gateway::composition::registry().expect("registry");
    let a = admin().await;
    let b = login(OTHER, "admin", "senhaB123").await;
    let mut created = Vec::new();
    for res in registry.all().iter().filter(|r| r.tenant) {
        let name = &res.name;
        let company = res.company.is_some() || res.company_path;
        // Read-only registers (stock's views of the ledger) have no sample: their
        // refusals are tested in stock.
        let Some(sample) = res.sample.clone() else {
            continue;
        };
        let (status, row) = b
            .call(Method::POST, &format!("/{name}"), Some(sample.clone()))
            .await;
        assert_eq!(status, 200, "{name}: create: {row}");
        let key: Vec<String> = res.key.iter().map(|k| text(&row[k])).collect();
        let item = {
            let mut p = format!("/{name}/{}", key[0]);
            if company {
                p.push_str("/1");
            }
            for k in &key[1..] {
                p.push_str(&format!("/{k}"));
            }
            p
        };
        let (status, got) = b.call(Method::GET, &item, None).await;
        assert_eq!(status, 200, "{name}: get {item}: {got}");
        // Where the legacy contract gives this path shape to a list of its own
        // (GET /subgrupousuario/{emp}/{user}), the row is in that list.
        let got = match got {
            Value::Array(rows) => rows
                .into_iter()
                .find(|r| text(&r[&res.key[0]]) == key[0])
                .unwrap_or_default(),
            other => other,
        };
        for k in &res.key {
            assert_eq!(text(&got[k]), text(&row[k]), "{name}: get");
        }
        let list_path = if company {
            format!("/{name}/1")
        } else {
            format!("/{name}/filtro")
        };
        let (status, rows) = b
            .call(
                Method::POST,
                &list_path,
                Some(json!({"ORDENACAO": res.default_order, "LIMIT": 6000})),
            )
            .await;
        assert_eq!(status, 200, "{name}: list: {rows}");
        assert!(
            rows.as_array()
                .is_some_and(|r| r.iter().any(|r| text(&r[&res.key[0]]) == key[0])),
            "{name}: not listed"
        );
        let label = text(&row[&res.label]);
        let (status, rows) = b
            .call(Method::POST, &list_path, Some(json!({"FILTRO": label})))
            .await;
        assert_eq!(status, 200, "{name}: FILTRO '{label}': {rows}");
        let count_path = if company {
            format!("/{name}/registros/1")
        } else {
            format!("/{name}/registros")
        };
        let (status, count) = b.call(Method::POST, &count_path, Some(json!({}))).await;
        assert_eq!(status, 200, "{name}: count");
        assert!(
            count[0]["TOT_REGISTROS"].as_i64().unwrap_or(0) >= 1,
            "{name}: count {count}"
        );
        let search_path = if company {
            format!("/{name}/pesquisar/{}/1", urlencode(&label))
        } else {
            format!("/{name}/pesquisar/{}", urlencode(&label))
        };
        let (status, found) = b.call(Method::GET, &search_path, None).await;
        assert_eq!(status, 200, "{name}: search {search_path}: {found}");
        // The update marks client B's row with a label no other row has, where the
        // label is free text, so a leak would show.
        let mut changed = sample.clone();
        let mut free_text = res
            .field(&res.label)
            .is_some_and(|f| f.kind == Kind::Text && f.db == DbType::Text && f.options.is_empty());
        let marker = format!("B{}", &uuid::Uuid::new_v4().simple().to_string()[..8]);
        if free_text {
            changed[&res.label] = json!(marker);
        }
        let (mut status, mut upd) = b.call(Method::PUT, &item, Some(changed)).await;
        if status == 400 && free_text {
            // The label has rules of its own (a plate): update with the sample.
            free_text = false;
            (status, upd) = b.call(Method::PUT, &item, Some(sample.clone())).await;
        }
        assert_eq!(status, 200, "{name}: update: {upd}");

        // Client A, same path and id: its own row if it numbered one with that id
        // too, never client B's; where it has none, reading, changing and deleting
        // all find nothing.
        let (status, body) = a.call(Method::GET, &item, None).await;
        if status == 200 {
            if free_text {
                assert_ne!(
                    text(&body[&res.label]),
                    marker,
                    "{name}: client A read client B's row"
                );
            }
        } else {
            assert!(
                matches!(status, 204 | 403 | 404),
                "{name}: client A GET {item}: {status} {body}"
            );
            for m in [Method::PUT, Method::DELETE] {
                let (status, body) = a.call(m.clone(), &item, Some(sample.clone())).await;
                assert!(
                    status == 404 || status == 403,
                    "{name}: client A {m} {item}: {status} {body}"
                );
            }
        }
        let (_, after) = b.call(Method::GET, &item, None).await;
        let after = match after {
            Value::Array(rows) => rows
                .into_iter()
                .find(|r| text(&r[&res.key[0]]) == key[0])
                .unwrap_or_default(),
            other => other,
        };
        assert_eq!(
            text(&after[&res.label]),
            text(&upd[&res.label]),
            "{name}: changed by another client"
        );
        created.push((name.clone(), item));
    }
    for (name, item) in created.into_iter().rev() {
        let (status, body) = b.call(Method::DELETE, &item, None).await;
        assert_eq!(status, 200, "{name}: delete: {body}");
        let gone = b.call(Method::GET, &item, None).await.0;
        assert!(
            matches!(gone, 204 | 403 | 404),
            "{name}: still there ({gone})"
        );
    }
}

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[tokio::test]
async fn hostile_order_and_filter_keys_get_400_quickly_on_every_register() {
    let registry = erp_gateway::composition::registry().expect("registry");
    let a = admin().await;
    for res in registry.all() {
        let path = format!("/{}/filtro", res.name);
        // A register no program guards (the bell's notifications) has no generic
        // reads but for support operators: refused before its keys are read.
        let (refused, plain) = if res.program.is_empty() {
            (403, [403, 403])
        } else {
            (400, [200, 204])
        };
        for bad in [
            json!({"ORDENACAO": "1; DROP TABLE x"}),
            json!({"ORDENACAO": "pg_sleep(5)"}),
            json!({"ORDENACAO": "\"client_id\""}),
            json!({"1=1; --": 1}),
            json!({"client_id": 3}),
        ] {
            let started = Instant::now();
            let (status, body) = a.call(Method::POST, &path, Some(bad.clone())).await;
            assert_eq!(status, refused, "{path} {bad}: {body}");
            assert!(
                started.elapsed() < Duration::from_secs(2),
                "{path} {bad} was slow"
            );
        }
        let started = Instant::now();
        let (status, _) = a
            .call(
                Method::POST,
                &path,
                Some(json!({"FILTRO": "'; SELECT pg_sleep(5); --"})),
            )
            .await;
        assert!(
            plain.contains(&status),
            "{path}: a hostile FILTRO is only text"
        );
        assert!(started.elapsed() < Duration::from_secs(2));
    }
}

#[tokio::test]
async fn register_routes_refuse_other_companies_and_answer_204_when_empty() {
    let registry = erp_gateway::composition::registry().expect("registry");
    let s = seller().await;
    let a = admin().await;
    for res in registry.all().iter().filter(|r| r.company.is_some()) {
        let name = &res.name;
        let key = "1".to_string();
        let mut item = format!("/{name}/{key}/2");
        for _ in &res.key[1..] {
            item.push_str("/1");
        }
        for (m, p, body) in [
            (Method::POST, format!("/{name}/2"), Some(json!({}))),
            (
                Method::POST,
                format!("/{name}/registros/2"),
                Some(json!({})),
            ),
            (Method::GET, format!("/{name}/pesquisar/a/2"), None),
            (Method::GET, item.clone(), None),
            (Method::PUT, item.clone(), Some(json!({}))),
            (Method::DELETE, item.clone(), None),
            (
                Method::POST,
                format!("/{name}"),
                Some(json!({res.company.clone().unwrap_or_default(): 2})),
            ),
            (
                Method::POST,
                format!("/{name}/filtro"),
                Some(json!({"EMP_ID": 99})),
            ),
        ] {
            let (status, body_out) = s.call(m.clone(), &p, body).await;
            // A register whose create is a multipart upload (POST /manifestonfe:
            // an NF-e XML) stores it in the session's company, never one named in
            // a body: a JSON body is refused as such, before any company.
            let upload_create = m == Method::POST
                && p == format!("/{name}")
                && res
                    .actions
                    .iter()
                    .any(|a| a.upload.is_some() && a.method == "POST" && a.path == p);
            if upload_create {
                assert_eq!(status, 400, "{m} {p}: {body_out}");
                assert_eq!(body_out["msg"], "Envie o arquivo como multipart/form-data.");
                continue;
            }
            assert_eq!(status, 403, "{m} {p}: {body_out}");
        }
        // Company 2 of the demo client has no rows of these registers.
        let (status, body) = a
            .call(
                Method::POST,
                &format!("/{name}/2"),
                Some(json!({"LIMIT": 20})),
            )
            .await;
        // A register no program guards lists nothing to anyone but operators.
        let empty = if res.program.is_empty() { 403 } else { 204 };
        assert_eq!(status, empty, "{name}: {body}");
    }
}
