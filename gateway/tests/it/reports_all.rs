//! Every report of the spec, to the cent, through the API. In company 1 and in
//! May 2024 (a month no other test of this binary dates anything in), over
//! HTTP: a representative, two customers, products in two groups, a service in
//! a sector, a vehicle, accounts, a cost centre; two invoiced billing orders of
//! two series, a finished service order, a conditional sale returned in part,
//! a finalized purchase in two instalments and a cancelled one, receivables and
//! payables settled (one settlement reversed), bank movements and a transfer,
//! a requisition with a line undone. Each report call (every path
//! `GET /relatorios/definicoes/1` lists) answers the totals computed here by
//! hand — in JSON, in the PDF's text and in the XLSX's totals row — and so does
//! each dashboard call. Then every fact in the stream is delivered to the read
//! model again, under its own id and under a new one: no figure moves. Another
//! client reaches none of it. Stock is stamped on the day it moves (today), so
//! the stock reports are asked for today and for this test's product.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use erp_platform::bus::consumer::apply_delivered;
use erp_platform::bus::{Message, Outcome};
use reqwest::Method;
use rust_decimal::Decimal;
use serde_json::{json, Value};

use crate::reports::{artifacts, create, d, dec, file, period, report, with};
use crate::{admin, app, login, serial, User, OTHER};

const MAY: (&str, &str) = ("2024-05-01", "2024-05-31");

/// One report call and what it must answer.
struct Check {
    path: &'static str,
    body: Value,
    /// The totals (`totais`), computed by hand.
    totals: Vec<(&'static str, &'static str)>,
    /// Fields of the last row: the closing balance of the running reports.
    last: Vec<(&'static str, &'static str)>,
}

fn check(path: &'static str, body: Value, totals: &[(&'static str, &'static str)]) -> Check {
    Check { path, body, totals: totals.to_vec(), last: Vec::new() }
}

fn id(v: &Value, k: &str) -> i64 {
    v[k].as_i64()
        .or_else(|| v[k].as_str().and_then(|s| s.parse().ok()))
        .unwrap_or_else(|| panic!("{k} in {v}"))
}

/// `POST path` until the copies the call needs have arrived (a register made a
/// moment ago reaches the documents' service by NATS).
async fn post_ready(a: &User, path: &str, body: Value) -> Value {
    let start = Instant::now();
    loop {
        let (status, got) = a.call(Method::POST, path, Some(body.clone())).await;
        if status == 200 {
            return got;
        }
        let msg = got["msg"].as_str().unwrap_or_default();
        let waiting = (400..=422).contains(&status) && msg.contains("não encontrad");
        if !waiting || start.elapsed() > Duration::from_secs(30) {
            panic!("{path}: {status} {got}");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A document row (the register's sample merged with `body`), made when its
/// references have arrived.
async fn make(a: &User, name: &str, body: Value) -> Value {
    let registry = erp_gateway::composition::registry().expect("registry");
    let mut row = registry
        .get(name)
        .and_then(|r| r.sample.clone())
        .unwrap_or_else(|| json!({}));
    if let (Some(row), Some(extra)) = (row.as_object_mut(), body.as_object()) {
        row.extend(extra.clone());
    }
    post_ready(a, &format!("/{name}"), row).await
}

async fn put(a: &User, path: &str, body: Option<Value>) -> Value {
    let (status, got) = a.call(Method::PUT, path, body).await;
    assert_eq!(status, 200, "{path}: {got}");
    got
}

/// The rows of a register's list call (`POST /{name}/1`, filters in the body)
/// once there are `n`.
async fn rows_when(a: &User, name: &str, filter: Value, n: usize) -> Vec<Value> {
    let start = Instant::now();
    loop {
        let (status, got) = a
            .call(Method::POST, &format!("/{name}/1"), Some(filter.clone()))
            .await;
        let rows = got.as_array().cloned().unwrap_or_default();
        if status == 200 && rows.len() == n {
            return rows;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{name} {filter}: {status} {got}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn settle(a: &User, side: &str, day: &str, bank: i64, method: i64, title: Value) -> i64 {
    let got = post_ready(
        a,
        &format!("/{side}/baixa/1"),
        json!({"DATA": day, "BCO_ID": bank, "FRMP_ID": method, "TITULOS": [title]}),
    )
    .await;
    id(&got["baixas"][0], "BAIX_ID")
}

fn title(id: i64, value: &str, interest: &str, fine: &str, discount: &str) -> Value {
    json!({"ID": id, "VALOR": value, "JUROS": interest, "MULTA": fine, "DESCONTO": discount})
}

/// Whether `body`'s totals and last row are what `c` wants.
fn matches(c: &Check, body: &Value) -> bool {
    c.totals
        .iter()
        .all(|(k, want)| body["totais"].get(*k).is_some_and(|v| dec(v) == d(want)))
        && c.last.iter().all(|(k, want)| {
            body["dados"]
                .as_array()
                .and_then(|r| r.last())
                .and_then(|r| r.get(*k))
                .is_some_and(|v| dec(v) == d(want))
        })
}

/// Polls the report until the facts behind it have arrived, then asserts it.
async fn settled(a: &User, c: &Check) -> Value {
    let start = Instant::now();
    loop {
        let (status, body) = report(a, c.path, c.body.clone()).await;
        if status == 200 && matches(c, &body) {
            return body;
        }
        if start.elapsed() > Duration::from_secs(30) {
            panic!(
                "{} {}: {status}, wanted totals {:?} and last row {:?}, got totais {} and last row {}",
                c.path,
                c.body,
                c.totals,
                c.last,
                body["totais"],
                body["dados"].as_array().and_then(|r| r.last()).unwrap_or(&Value::Null)
            );
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The PDF's text and the XLSX's totals row carry the report's totals.
async fn formats(a: &User, c: &Check, kinds: &BTreeMap<(String, String), String>, n: usize) {
    let stem = format!(
        "todos-{n:02}-{}",
        c.path.trim_start_matches('/').replace('/', "-")
    );
    let (kind, pdf) = file(a, c.path, with(c.body.clone(), "FORMATO", json!("pdf"))).await;
    assert_eq!(kind, "application/pdf", "{}", c.path);
    let path = artifacts().join(format!("{stem}.pdf"));
    std::fs::write(&path, &pdf).expect("write pdf");
    let out = std::process::Command::new("pdftotext")
        .arg("-layout")
        .arg(&path)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils)");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Pág: 1 de "), "{}: no page footer", c.path);
    for (field, want) in c.totals.iter().chain(&c.last) {
        let places = match kinds.get(&(c.path.to_string(), field.to_string())) {
            Some(k) if k == "quantidade" => 4,
            Some(k) if k == "inteiro" => 0,
            _ => 2,
        };
        let shown = erp_print::table::format_decimal(d(want), places);
        assert!(
            text.contains(&shown),
            "{} PDF without {field} = {shown}:\n{text}",
            c.path
        );
    }
    let _ = std::process::Command::new("pdftoppm")
        .args(["-png", "-r", "50", "-l", "1"])
        .arg(&path)
        .arg(artifacts().join(&stem))
        .status();

    let (kind, xlsx) = file(a, c.path, with(c.body.clone(), "FORMATO", json!("xlsx"))).await;
    assert!(kind.contains("spreadsheetml"), "{}: {kind}", c.path);
    let path = artifacts().join(format!("{stem}.xlsx"));
    std::fs::write(&path, &xlsx).expect("write xlsx");
    use calamine::Reader as _;
    let mut book: calamine::Xlsx<_> = calamine::open_workbook(&path).expect("workbook");
    let sheet = book.worksheet_range("Sheet1").expect("Sheet1");
    let last: Vec<Decimal> = sheet
        .rows()
        .next_back()
        .expect("a totals row")
        .iter()
        .filter_map(|cell| cell.to_string().parse::<Decimal>().ok())
        .collect();
    for (field, want) in &c.totals {
        assert!(
            last.contains(&d(want)),
            "{} XLSX totals row without {field} = {want}: {last:?}",
            c.path
        );
    }
}

/// Every fact the stream holds, delivered to the read model's consumers again:
/// as a redelivery (the same event id) and as a publisher's second publication
/// (a new id). Answers how many facts went through twice.
async fn redeliver_every_fact() -> usize {
    let cfg = &app().cfg;
    let url = cfg.nats_url.clone().expect("NATS_URL");
    let nats = async_nats::connect(url).await.expect("nats");
    let js = async_nats::jetstream::new(nats);
    let mut stream = js
        .get_stream(erp_platform::bus::STREAM)
        .await
        .expect("stream");
    let (first, last) = {
        let info = stream.info().await.expect("stream info");
        (info.state.first_sequence, info.state.last_sequence)
    };
    let consumers = erp_reports::consumers();
    let mut per: Vec<Vec<Message>> = vec![Vec::new(); consumers.len()];
    for seq in first..=last {
        let Ok(m) = stream.get_raw_message(seq).await else {
            continue;
        };
        let Some(i) = consumers
            .iter()
            .position(|c| c.filter == m.subject.as_str())
        else {
            continue;
        };
        let headers: Vec<(String, String)> = m
            .headers
            .iter()
            .flat_map(|(k, vs)| vs.iter().map(move |v| (k.to_string(), v.to_string())))
            .collect();
        let id = headers
            .iter()
            .find(|(k, _)| k == "Nats-Msg-Id")
            .map(|(_, v)| v.clone())
            .unwrap_or_default();
        per[i].push(Message {
            id,
            subject: m.subject.to_string(),
            headers,
            payload: m.payload.clone(),
            delivery: 2,
        });
    }
    let db = erp_platform::db::Db::connect(cfg).await.expect("db");
    let mut n = 0;
    for (c, msgs) in consumers.iter().zip(per) {
        if msgs.is_empty() {
            continue;
        }
        n += msgs.len();
        let again: Vec<Message> = msgs
            .iter()
            .map(|m| {
                let mut m = m.clone();
                m.id = format!("{}:outra-publicacao", m.id);
                for (k, v) in &mut m.headers {
                    if k == "Nats-Msg-Id" {
                        *v = m.id.clone();
                    }
                }
                m
            })
            .collect();
        for batch in [msgs, again] {
            let out = apply_delivered(&db, erp_reports::SCHEMA, c.durable, &c.effect, &batch).await;
            assert!(
                out.iter().all(|o| *o == Outcome::Ack),
                "{}: {out:?}",
                c.durable
            );
        }
    }
    n
}

#[tokio::test]
async fn every_report_and_dashboard_call_answers_the_hand_computed_totals() {
    let _turn = serial().await;
    let a = admin().await;
    let today = chrono::Utc::now()
        .with_timezone(&chrono_tz::America::Sao_Paulo)
        .date_naive();
    let today_s = today.format("%Y-%m-%d").to_string();

    // Registers.
    let rep = create(
        &a,
        "colaborador",
        json!({"COLA_EMP_ID": 1, "COLA_NOME": "REPRESENTANTE DE MAIO", "COLA_CPF": "371.845.210-30",
               "COLA_PERC_COMISSAO": "5"}),
    )
    .await;
    let rep = id(&rep, "COLA_ID");
    let mut customers = Vec::new();
    for (name, cgc) in [
        ("AUTO PEÇAS MAIO LTDA", "27.014.492/0001-20"),
        ("TRANSPORTES MAIO LTDA", "27.014.493/0001-75"),
    ] {
        let c = create(
            &a,
            "clientes",
            json!({"CLI_EMP_ID": 1, "CLI_DESCRICAO": name, "CLI_CGC": cgc, "CLI_COLA_ID": rep, "CLI_UF": "SC",
                   "CLI_LIMITE_CREDITO": "100000"}),
        )
        .await;
        customers.push(id(&c, "CLI_ID"));
    }
    let (c1, c2) = (customers[0], customers[1]);
    let g1 = id(
        &create(&a, "grupo", json!({"GRUP_DESCRICAO": "FILTROS DE MAIO"})).await,
        "GRUP_ID",
    );
    let g2 = id(
        &create(&a, "grupo", json!({"GRUP_DESCRICAO": "ÓLEOS DE MAIO"})).await,
        "GRUP_ID",
    );
    let sg1 = id(
        &make(
            &a,
            "subgrupo",
            json!({"GSUB_EMP_ID": 1, "GSUB_DESCRICAO": "FILTROS DE AR DE MAIO", "GSUB_GRUP_ID": g1}),
        )
        .await,
        "GSUB_ID",
    );
    let unit = id(
        &create(
            &a,
            "unidade",
            json!({"UNID_EMP_ID": 1, "UNID_DESCRICAO": "UNIDADE DE MAIO", "UNID_ABREVIADA": "um"}),
        )
        .await,
        "UNID_ID",
    );
    let p1 = id(
        &make(
            &a,
            "produtos",
            json!({"PROD_EMP_ID": 1, "PROD_DESCRICAO": "FILTRO DE AR MAIO", "PROD_GRUP_ID": g1, "PROD_GSUB_ID": sg1,
                   "PROD_CBAR": null, "PROD_UNID_ID": unit, "PROD_CUSTO": "20", "PROD_VALOR": "50",
                   "PROD_ESTOQUE_MIN": "2"}),
        )
        .await,
        "PROD_ID",
    );
    let p2 = id(
        &make(
            &a,
            "produtos",
            json!({"PROD_EMP_ID": 1, "PROD_DESCRICAO": "ÓLEO 5W30 MAIO", "PROD_GRUP_ID": g2, "PROD_GSUB_ID": null,
                   "PROD_CBAR": null, "PROD_UNID_ID": unit, "PROD_CUSTO": "4", "PROD_VALOR": "10",
                   "PROD_ESTOQUE_MIN": "0"}),
        )
        .await,
        "PROD_ID",
    );
    let sector = id(
        &create(
            &a,
            "setorservico",
            json!({"SETS_EMP_ID": 1, "SETS_DESCRICAO": "SETOR DE MAIO"}),
        )
        .await,
        "SETS_ID",
    );
    let serv = id(
        &create(
            &a,
            "servico",
            json!({"SERV_EMP_ID": 1, "SERV_DESCRICAO": "ALINHAMENTO DE MAIO", "SERV_GRPS_ID": null,
                   "SERV_TIPS_ID": null, "SERV_SETS_ID": sector}),
        )
        .await,
        "SERV_ID",
    );
    let vehicle = id(
        &make(
            &a,
            "veiculo",
            json!({"VEIC_EMP_ID": 1, "VEIC_PLACA1": "MAI5A24", "VEIC_CLI_ID": c1, "VEIC_CHASSI": null,
                   "VEIC_RENAVAM": null}),
        )
        .await,
        "VEIC_ID",
    );
    let b1 = id(
        &make(
            &a,
            "banco",
            json!({"BCO_EMP_ID": 1, "BCO_DESCRICAO": "BANCO DE MAIO", "BCO_SALDO_INICIAL": "1000.00"}),
        )
        .await,
        "BCO_ID",
    );
    let b2 = id(
        &make(
            &a,
            "banco",
            json!({"BCO_EMP_ID": 1, "BCO_DESCRICAO": "CAIXA DE MAIO", "BCO_SALDO_INICIAL": "0"}),
        )
        .await,
        "BCO_ID",
    );
    let grhp = id(
        &make(
            &a,
            "grupohistoricopadrao",
            json!({"GRHP_DESCRICAO": "DESPESAS DE MAIO", "GRHP_TIPO": "D"}),
        )
        .await,
        "GRHP_ID",
    );
    let hisp = id(
        &make(
            &a,
            "historicopadrao",
            json!({"HISP_EMP_ID": 1, "HISP_DESCRICAO": "ALUGUEL DE MAIO", "HISP_TIPO": "D", "HISP_GRHP_ID": grhp}),
        )
        .await,
        "HISP_ID",
    );
    let pix = id(
        &make(
            &a,
            "formapagamento",
            json!({"FRMP_DESCRICAO": "PIX DE MAIO"}),
        )
        .await,
        "FRMP_ID",
    );
    let forn = id(
        &create(
            &a,
            "fornecedor",
            json!({"FORN_DESCRICAO": "DISTRIBUIDORA MAIO LTDA", "FORN_CGC": "27.014.494/0001-10", "FORN_UF": "PR"}),
        )
        .await,
        "FORN_ID",
    );

    // Stock at a constant average cost: P1 8 at 20.00, P2 20 at 4.00.
    for (prod, qty, cost) in [(p1, "8", "20.00"), (p2, "20", "4.00")] {
        make(
            &a,
            "saldoestoque",
            json!({"SALD_EMP_ID": 1, "SALD_PROD_ID": prod, "SALD_TIPO": "E", "SALD_QTDE": qty,
                   "SALD_CUSTO_UNIT": cost, "SALD_DATA": today_s}),
        )
        .await;
    }

    // Billing orders. A (series 1, 10/05, C1): P1 2 × 50.00 = 100.00; P2 5 × 10.00
    // − 2.00 = 48.00; the service 1 × 120.00 → products 150.00 before discounts,
    // 148.00 after, total 268.00. B (series 2, 20/05, C2): P1 1 × 50.00 = 50.00.
    let mut orders = Vec::new();
    for (serie, cli, day, lines, services) in [
        (
            "1",
            c1,
            "2024-05-10",
            vec![(p1, "2", "50.00", "0"), (p2, "5", "10.00", "2.00")],
            vec![(serv, "1", "120.00")],
        ),
        ("2", c2, "2024-05-20", vec![(p1, "1", "50.00", "0")], vec![]),
    ] {
        let order = make(
            &a,
            "pedido",
            json!({"PEDF_EMP_ID": 1, "PEDF_SERIE": serie, "PEDF_CLI_ID": cli, "PEDF_DTA_EMISSAO": day,
                   "PEDF_FRMP_ID": pix}),
        )
        .await;
        let pedf = id(&order, "PEDF_ID");
        for (prod, qty, unit, disc) in lines {
            make(
                &a,
                "pedidoproduto",
                json!({"PEDI_PEDF_ID": pedf, "PEDI_PEDF_EMP_ID": 1, "PEDI_PEDF_SERIE_ID": serie, "PEDI_PROD_ID": prod,
                       "PEDI_QTDE": qty, "PEDI_VLR_UNITARIO": unit, "PEDI_VLR_DESCONTO": disc}),
            )
            .await;
        }
        for (s, qty, unit) in services {
            make(
                &a,
                "pedidoservico",
                json!({"PFOS_PEDF_ID": pedf, "PFOS_PEDF_EMP_ID": 1, "PFOS_PEDF_SERIE": serie, "PFOS_SERV_ID": s,
                       "PFOS_QTDE": qty, "PFOS_VLR_UNIT": unit}),
            )
            .await;
        }
        put(&a, &format!("/pedidogenerator/{pedf}/1/{serie}"), None).await;
        orders.push((pedf, serie));
    }

    // A service order (C1, the vehicle, out on 09/05): the service 2 × 80.00 − 5.00
    // = 155.00 in the sector, P2 2 × 35.90 = 71.80, a surcharge of 10.00 →
    // services 160.00, parts 71.80, surcharge 10.00, discounts 5.00, total 236.80.
    let os = make(
        &a,
        "ordemservico",
        json!({"ORDS_EMP_ID": 1, "ORDS_SERIE": "OS", "ORDS_CLI_ID": c1, "ORDS_VEIC_ID": vehicle, "ORDS_KM": 15000,
               "ORDS_DTA_ENTRADA": "2024-05-08", "ORDS_DTA_SAIDA": "2024-05-09"}),
    )
    .await;
    let os = id(&os, "ORDS_ID");
    make(
        &a,
        "ordemservicoservico",
        json!({"ORDI_ORDS_ID": os, "ORDI_ORDS_EMP_ID": 1, "ORDI_SERIE": "OS", "ORDI_SERV_ID": serv,
               "ORDI_QTDE": "2", "ORDI_VLR_UNIT": "80", "ORDI_VLR_DESC": "5", "ORDI_COLA_ID": rep}),
    )
    .await;
    make(
        &a,
        "ordemservicoproduto",
        json!({"ORDP_ORDS_ID": os, "ORDP_ORDS_EMP_ID": 1, "ORDP_SERIE": "OS", "ORDP_PROD_ID": p2,
               "ORDP_QTDE": "2", "ORDP_VLR_UNIT": "35.90"}),
    )
    .await;
    post_ready(
        &a,
        "/ordemservicoservicosetor",
        json!({"NROS": os, "EMP_ID": 1, "SERIE": "OS", "ID_SERV": serv, "ID_SETOR": sector}),
    )
    .await;
    post_ready(
        &a,
        &format!("/ordemservicoacrescimo/{os}/1/OS"),
        json!({"VALOR": "10.00"}),
    )
    .await;
    put(&a, &format!("/ordemservico/finalizar/{os}/1/OS"), None).await;

    // A conditional sale (C1, 12/05): P2 3 × 42.50, one returned.
    let cond = make(
        &a,
        "condicional",
        json!({"COND_EMP_ID": 1, "COND_CLI_ID": c1, "COND_DTA_SAIDA": "2024-05-12", "COND_DTA_RETORNO": "2024-05-19"}),
    )
    .await;
    let cond = id(&cond, "COND_ID");
    let item = make(
        &a,
        "condicionalprod",
        json!({"CNDP_COND_ID": cond, "CNDP_EMP_ID": 1, "CNDP_PROD_ID": p2, "CNDP_QTDE": "3", "CNDP_VLR_UNIT": "42.50"}),
    )
    .await;
    put(
        &a,
        &format!("/condicional/devolucao/{cond}/1"),
        Some(json!({"ITENS": [{"CNDP_ID": id(&item, "CNDP_ID"), "QTDE": "1"}], "ENCERRAR": false})),
    )
    .await;

    // Purchases: 981 (in on 06/05) P1 10 × 20.00 = 200.00 in two instalments of
    // 100.00 (20/05 and 20/06), finalized; 982 P1 3 × 20.00 = 60.00, finalized
    // and cancelled.
    let mut purchases = Vec::new();
    for (number, qty, instalments) in [
        (
            981,
            "10",
            vec![
                ("981/1", "2024-05-20", "100.00"),
                ("981/2", "2024-06-20", "100.00"),
            ],
        ),
        (982, "3", vec![("982/1", "2024-05-25", "60.00")]),
    ] {
        let got = post_ready(
            &a,
            "/compra/completa",
            json!({"compra": {"COMP_EMP_ID": 1, "COMP_FORN_ID": forn, "COMP_SERIE": "1", "COMP_NUMERO": number,
                              "COMP_MODELO": "01", "COMP_DTA_EMISSAO": "2024-05-05", "COMP_DTA_ENTRADA": "2024-05-06",
                              "COMP_HISP_ID": hisp},
                   "itens": [{"CMPP_PROD_ID": p1, "CMPP_QTDE": qty, "CMPP_VLR_UNIT": "20.00"}],
                   "pagamentos": instalments.iter().map(|(n, due, v)| json!({"CMPD_NUMERO": n, "CMPD_DTA_VCTO": due,
                                                                            "CMPD_VLR_TITULO": v})).collect::<Vec<_>>()}),
        )
        .await;
        let comp = id(&got["compra"], "COMP_ID");
        post_ready(&a, &format!("/compra/finalizar/{comp}/1"), json!({})).await;
        purchases.push(comp);
    }
    let payables = rows_when(&a, "contaspagar", json!({"CMPD_COMP_ID": purchases[0]}), 2).await;
    let first_instalment = payables
        .iter()
        .find(|t| {
            t["CMPD_DTA_VCTO"]
                .as_str()
                .is_some_and(|s| s.starts_with("2024-05-20"))
        })
        .map(|t| id(t, "CMPD_ID"))
        .unwrap_or_else(|| panic!("instalment due 20/05: {payables:?}"));
    rows_when(&a, "contaspagar", json!({"CMPD_COMP_ID": purchases[1]}), 1).await;
    post_ready(
        &a,
        &format!("/compra/cancelar/{}/1", purchases[1]),
        json!({}),
    )
    .await;

    // Receivables: the orders' (268.00 due 10/05, 50.00 due 20/05, made by finance
    // from the invoices), 80.00 of C2 due 25/05 and 40.00 of C2 due 28/05.
    let ra = rows_when(
        &a,
        "contasreceber",
        json!({"CRCB_PEDF_ID": orders[0].0, "CRCB_PEDF_SERIE": orders[0].1}),
        1,
    )
    .await;
    let ra = id(&ra[0], "CRCB_ID");
    rows_when(
        &a,
        "contasreceber",
        json!({"CRCB_PEDF_ID": orders[1].0, "CRCB_PEDF_SERIE": orders[1].1}),
        1,
    )
    .await;
    let mut manual = Vec::new();
    for (doc, due, value) in [
        ("REC-MAIO-1", "2024-05-25", "80.00"),
        ("REC-MAIO-2", "2024-05-28", "40.00"),
    ] {
        let t = post_ready(
            &a,
            "/contasreceber",
            json!({"CRCB_EMP_ID": 1, "CRCB_CLI_ID": c2, "CRCB_DOCUMENTO": doc, "CRCB_DTA_EMIS": "2024-05-02",
                   "CRCB_DTA_VCTO": due, "CRCB_VLR_CTA": value, "CRCB_HISP_ID": null}),
        )
        .await;
        manual.push(id(&t, "CRCB_ID"));
    }
    // Received: 100.00 of A on 12/05; the 80.00 on 26/05 with 2.00 interest, a
    // 1.00 fine and a 0.50 discount (82.50); the 40.00 on 28/05, reversed.
    settle(
        &a,
        "contasreceber",
        "2024-05-12",
        b1,
        pix,
        title(ra, "100.00", "0", "0", "0"),
    )
    .await;
    settle(
        &a,
        "contasreceber",
        "2024-05-26",
        b1,
        pix,
        title(manual[0], "80.00", "2.00", "1.00", "0.50"),
    )
    .await;
    let reversed = settle(
        &a,
        "contasreceber",
        "2024-05-28",
        b1,
        pix,
        title(manual[1], "40.00", "0", "0", "0"),
    )
    .await;
    put(&a, &format!("/contasreceber/estorno/{reversed}/1"), None).await;

    // Payables: the rent 75.50 due 15/05 paid on 16/05; purchase 981's first
    // instalment paid on 21/05. Both in the cost centre.
    let rent = post_ready(
        &a,
        "/contaspagar",
        json!({"CMPD_EMP_ID": 1, "CMPD_COMP_FORN_ID": forn, "CMPD_DOCUMENTO": "DESP-MAIO", "CMPD_DTA_EMIS": "2024-05-02",
               "CMPD_DTA_VCTO": "2024-05-15", "CMPD_VLR_TITULO": "75.50", "CMPD_HISP_ID": hisp}),
    )
    .await;
    settle(
        &a,
        "contaspagar",
        "2024-05-16",
        b1,
        pix,
        title(id(&rent, "CMPD_ID"), "75.50", "0", "0", "0"),
    )
    .await;
    settle(
        &a,
        "contaspagar",
        "2024-05-21",
        b1,
        pix,
        title(first_instalment, "100.00", "0", "0", "0"),
    )
    .await;

    // Bank: 250.00 in on 03/05, 50.00 to the cash account on 04/05.
    make(
        &a,
        "movimentacaobancaria",
        json!({"MBCA_EMP_ID": 1, "MBCA_BCO_ID": b1, "MBCA_DTA_MOV": "2024-05-03", "MBCA_TIPO": "C",
               "MBCA_VALOR": "250.00", "MBCA_HISTORICO": "DEPÓSITO DE MAIO", "MBCA_DOCUMENTO": "DEP-1"}),
    )
    .await;
    post_ready(
        &a,
        "/movimentacaobancaria/transferencia/1",
        json!({"BCO_ID_ORIGEM": b1, "BCO_ID_DESTINO": b2, "DATA": "2024-05-04", "VALOR": "50.00",
               "HISTORICO": "TROCO DO CAIXA"}),
    )
    .await;

    // A requisition (today): P1 3 at the average cost 20.00; P2 2, undone.
    let requ = make(
        &a,
        "requisicao",
        json!({"REQU_EMP_ID": 1, "REQU_DESCRICAO": "OFICINA DE MAIO", "REQU_DATA": today_s}),
    )
    .await;
    let requ = id(&requ, "REQU_ID");
    make(
        &a,
        "requisicaoproduto",
        json!({"REQP_REQU_ID": requ, "REQP_EMP_ID": 1, "REQP_PROD_ID": p1, "REQP_QTDE": "3"}),
    )
    .await;
    let undone = make(
        &a,
        "requisicaoproduto",
        json!({"REQP_REQU_ID": requ, "REQP_EMP_ID": 1, "REQP_PROD_ID": p2, "REQP_QTDE": "2"}),
    )
    .await;
    let (status, got) = a
        .call(
            Method::DELETE,
            &format!("/requisicaoproduto/{}/1", id(&undone, "REQP_ID")),
            None,
        )
        .await;
    assert_eq!(status, 200, "{got}");

    // What every report must answer, computed by hand.
    let may = period(MAY.0, MAY.1);
    let on_today = period(&today_s, &today_s);
    let month_of = |k: &str, v: Value| with(may.clone(), k, v);
    let mut bank = check(
        "/movimentacaobancaria/reports",
        month_of("BCO_ID", json!(b1)),
        // In: 250.00 + 100.00 + 82.50 + 40.00 (its reversal goes out today, the
        // day it was reversed); out: 50.00 + 75.50 + 100.00; from 1,000.00 to
        // 1,247.00.
        &[("CREDITO", "472.50"), ("DEBITO", "225.50")],
    );
    bank.last = vec![("SALDO", "1247.00")];
    let mut ledger = check(
        "/razaofornecedor/reports",
        month_of("FORN_ID", json!(forn)),
        &[("COMPRAS", "200.00"), ("PAGAMENTOS", "175.50")],
    );
    ledger.last = vec![("SALDO", "24.50")];
    let checks = vec![
        check(
            "/vendas/reports",
            may.clone(),
            &[
                ("VALOR_PRODUTOS", "200.00"),
                ("VALOR_SERVICOS", "120.00"),
                ("VALOR_TOTAL", "318.00"),
            ],
        ),
        check(
            "/relatoriovendasprodutos",
            may.clone(),
            &[("QTDE", "8"), ("VALOR", "198.00")],
        ),
        check(
            "/relatoriovendasservico",
            may.clone(),
            &[("QTDE", "1"), ("VALOR", "120.00")],
        ),
        check(
            "/curvaprodutos/reports",
            may.clone(),
            &[("VALOR", "198.00"), ("M5", "198.00")],
        ),
        check(
            "/curvaClientes/reports",
            month_of("COLA_ID", json!(rep)),
            &[("VALOR", "318.00"), ("M5", "318.00")],
        ),
        check(
            "/curvaGrupoProdutos/reports",
            may.clone(),
            &[("VALOR", "198.00"), ("M5", "198.00")],
        ),
        check(
            "/curvaRepresentantes/reports",
            may.clone(),
            &[("VALOR", "318.00"), ("M5", "318.00")],
        ),
        // 5 % of 318.00.
        check(
            "/comissao/reports",
            month_of("COLA_ID", json!(rep)),
            &[("VALOR_VENDAS", "318.00"), ("VALOR_COMISSAO", "15.90")],
        ),
        check(
            "/seriesdocumento",
            may.clone(),
            &[
                ("PRODUTOS", "200.00"),
                ("SERVICOS", "120.00"),
                ("TOTAL", "318.00"),
            ],
        ),
        check(
            "/faturamentocontabil/reports",
            may.clone(),
            &[
                ("PRODUTOS", "200.00"),
                ("SERVICOS", "120.00"),
                ("TOTAL", "318.00"),
            ],
        ),
        check(
            "/formaspagamento/reports",
            month_of("FRMP_ID", json!(pix)),
            &[("TOTAL", "318.00")],
        ),
        // Bought 318.00; open: A's 168.00, B's 50.00 and the reversed 40.00.
        check(
            "/clientes/reports",
            month_of("COLA_ID", json!(rep)),
            &[("VALOR_COMPRAS", "318.00"), ("SALDO_RECEBER", "258.00")],
        ),
        // P1: 8 + 10 + 3 in, 2 + 1 sold, 3 back to the supplier, 3 requisitioned:
        // 12 at 20.00.
        check(
            "/produtos/reports",
            month_of("GRUP_ID", json!(g1)),
            &[
                ("ESTOQUE", "12"),
                ("VALOR_ESTOQUE", "240.00"),
                ("QTDE_VENDIDA", "3"),
                ("VALOR_VENDIDO", "150.00"),
            ],
        ),
        check(
            "/ordemservico/reports",
            month_of("CLI_ID", json!(c1)),
            &[
                ("SERVICOS", "160.00"),
                ("PECAS", "71.80"),
                ("ACRESCIMOS", "10.00"),
                ("DESCONTOS", "5.00"),
                ("TOTAL", "236.80"),
            ],
        ),
        check(
            "/ordemservicosetor/reports",
            month_of("SETS_ID", json!(sector)),
            &[("QUANTIDADE", "2"), ("TOTAL", "155.00")],
        ),
        check(
            "/ordemservicohistorico/reports",
            month_of("VEIC_ID", json!(vehicle)),
            &[("QUANTIDADE", "4"), ("TOTAL", "226.80")],
        ),
        check(
            "/condicional/reports",
            month_of("CLI_ID", json!(c1)),
            &[
                ("QTDE_SAIDA", "3"),
                ("QTDE_DEVOLVIDA", "1"),
                ("QTDE_PENDENTE", "2"),
                ("VLR_DEVOLVIDO", "42.50"),
                ("VLR_PENDENTE", "85.00"),
            ],
        ),
        check(
            "/compras/reports",
            month_of("FORN_ID", json!(forn)),
            &[("TOTAL", "200.00")],
        ),
        check(
            "/compras/reports",
            with(month_of("FORN_ID", json!(forn)), "CANCELADAS", json!("T")),
            &[("TOTAL", "260.00")],
        ),
        ledger,
        check(
            "/fornecedores/reports",
            month_of("FORN_ID", json!(forn)),
            &[("VALOR_COMPRAS", "200.00"), ("SALDO_PAGAR", "100.00")],
        ),
        // Due in May, all of them: A 268.00 (100.00 in), B 50.00, 80.00 (in),
        // 40.00 (reversed).
        check(
            "/contasReceber/reports",
            month_of("SITUACAO", json!("T")),
            &[("VALOR", "438.00"), ("PAGO", "180.00"), ("SALDO", "258.00")],
        ),
        // Open ones of C2: B's 50.00 and the reversed 40.00.
        check(
            "/contasReceber/reports",
            month_of("CLI_ID", json!(c2)),
            &[("VALOR", "90.00"), ("PAGO", "0"), ("SALDO", "90.00")],
        ),
        check(
            "/recebimentos/reports",
            may.clone(),
            &[
                ("VALOR", "180.00"),
                ("ACRESCIMOS", "3.00"),
                ("DESCONTO", "0.50"),
                ("TOTAL", "182.50"),
            ],
        ),
        // Due in May: the rent and 981/1, both paid (982/1 was cancelled).
        check(
            "/pagamentos/reports",
            with(month_of("FORN_ID", json!(forn)), "SITUACAO", json!("T")),
            &[("VALOR", "175.50"), ("PAGO", "175.50"), ("SALDO", "0")],
        ),
        bank,
        check(
            "/movimentacaoestoque/reports",
            with(on_today.clone(), "PROD_ID", json!(p1)),
            &[("ENTRADA", "21"), ("SAIDA", "9")],
        ),
        check(
            "/estimativaestoque/reports",
            json!({"EMP_ID": 1, "DATA_INI": today_s, "DATA_FIM": today_s, "DIAS": 30, "PROD_ID": p1}),
            &[("ESTOQUE", "12"), ("SAIDAS", "9")],
        ),
        // P1 3 × 20.00; P2 2 × 4.00 out and back.
        check(
            "/requisicao/reports",
            with(on_today.clone(), "REQU_ID", json!(requ)),
            &[("QUANTIDADE", "3"), ("VALOR", "60.00")],
        ),
    ];
    let dashboards: Vec<(&str, &str)> = vec![
        ("vendasgrupo", "198.00"),
        ("vendassubgrupo", "198.00"),
        ("formaspagamentos", "318.00"),
        ("vendassetor", "155.00"),
        // Received 180.00, overdue 258.00.
        ("contasreceber", "438.00"),
        ("contaspagar", "175.50"),
        ("despesacentrocusto", "175.50"),
        ("despesagrupocentrocusto", "175.50"),
    ];

    // Every report the web lists is checked here.
    let (status, defs) = a.call(Method::GET, "/relatorios/definicoes/1", None).await;
    assert_eq!(status, 200, "{defs}");
    let defs = defs
        .as_array()
        .or_else(|| defs["dados"].as_array())
        .cloned()
        .unwrap_or_default();
    let mut kinds = BTreeMap::new();
    for def in &defs {
        let path = def["CAMINHO"].as_str().unwrap_or_default().to_string();
        assert!(
            checks.iter().any(|c| c.path == path),
            "{path} is not checked"
        );
        for col in def["COLUNAS"].as_array().into_iter().flatten() {
            kinds.insert(
                (
                    path.clone(),
                    col["CAMPO"].as_str().unwrap_or_default().to_string(),
                ),
                col["TIPO"].as_str().unwrap_or_default().to_string(),
            );
        }
    }
    assert_eq!(defs.len(), 27, "{defs:?}");

    let mut answers = Vec::new();
    for c in &checks {
        answers.push(settled(&a, c).await);
    }
    // A title written without its person's name takes it from the register: the
    // settlement's bank history names the customer.
    let movements = checks
        .iter()
        .zip(&answers)
        .find(|(c, _)| c.path == "/movimentacaobancaria/reports")
        .map(|(_, body)| body["dados"].clone())
        .unwrap_or_default();
    assert!(
        movements
            .as_array()
            .into_iter()
            .flatten()
            .any(|r| r["HISTORICO"]
                == "Recebimento TRANSPORTES MAIO LTDA - Doc. REC-MAIO-1 - Parcela 1/1"),
        "{movements}"
    );
    let mut boards = Vec::new();
    for (name, total) in &dashboards {
        let path = format!("/dasboard/{name}");
        let start = Instant::now();
        let body = loop {
            let (status, body) = report(&a, &path, may.clone()).await;
            if status == 200 && dec(&body["TOTAL"]) == d(total) {
                break body;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "{path}: {status} {body}, wanted TOTAL {total}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        boards.push(body);
    }
    let labelled = |body: &Value, label: &str| {
        body["dados"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|r| r["ROTULO"] == label)
            .map(|r| dec(&r["VALOR"]))
    };
    assert_eq!(
        labelled(&boards[4], "Recebido"),
        Some(d("180.00")),
        "{}",
        boards[4]
    );
    assert_eq!(
        labelled(&boards[4], "Vencido"),
        Some(d("258.00")),
        "{}",
        boards[4]
    );
    assert_eq!(
        labelled(&boards[5], "Pago"),
        Some(d("175.50")),
        "{}",
        boards[5]
    );
    assert_eq!(labelled(&boards[6], "ALUGUEL DE MAIO"), Some(d("175.50")));
    assert_eq!(labelled(&boards[7], "DESPESAS DE MAIO"), Some(d("175.50")));
    assert_eq!(labelled(&boards[3], "SETOR DE MAIO"), Some(d("155.00")));
    assert_eq!(labelled(&boards[0], "FILTROS DE MAIO"), Some(d("150.00")));

    for (n, c) in checks.iter().enumerate() {
        formats(&a, c, &kinds, n).await;
    }

    // Bad input is refused in pt-BR and answers nothing.
    let (status, body) = report(
        &a,
        "/vendas/reports",
        with(may.clone(), "DATA_INI", json!("01/05/2024")),
    )
    .await;
    assert_eq!(
        (status, body["msg"].as_str()),
        (
            400,
            Some("Data inicial inválida: use o formato yyyy-MM-dd.")
        ),
        "{body}"
    );

    // A second finish is refused; every fact delivered again moves nothing.
    let (status, body) = a
        .call(
            Method::PUT,
            &format!("/ordemservico/finalizar/{os}/1/OS"),
            None,
        )
        .await;
    assert_eq!(status, 409, "{body}");
    let again = redeliver_every_fact().await;
    assert!(again >= 20, "only {again} facts in the stream");
    for (c, before) in checks.iter().zip(&answers) {
        let (status, now) = report(&a, c.path, c.body.clone()).await;
        assert_eq!(status, 200, "{}", c.path);
        assert_eq!(&now, before, "{} moved after the facts came again", c.path);
    }
    for ((name, _), before) in dashboards.iter().zip(&boards) {
        let (_, now) = report(&a, &format!("/dasboard/{name}"), may.clone()).await;
        assert_eq!(
            &now, before,
            "/dasboard/{name} moved after the facts came again"
        );
    }

    // Another client: not this company of its own, nothing of this client's.
    let b = login(OTHER, "admin", "senhaB123").await;
    for c in &checks {
        let (status, body) = report(&b, c.path, with(c.body.clone(), "EMP_ID", json!(2))).await;
        assert_eq!(status, 403, "{}: {body}", c.path);
        let (status, body) = report(&b, c.path, c.body.clone()).await;
        assert_eq!(status, 204, "{}: {body}", c.path);
    }
    for (name, _) in &dashboards {
        let (status, body) = report(&b, &format!("/dasboard/{name}"), may.clone()).await;
        assert_eq!(status, 200, "{name}: {body}");
        assert_eq!(dec(&body["TOTAL"]), Decimal::ZERO, "{name}: {body}");
    }
}
