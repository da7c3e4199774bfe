//! A message naming a document (`MENS_DOC_TIPO`, `MENS_DOC_ID`, `MENS_DOC_REF`)
//! without a file carries the document its owner produces, asked as the caller:
//! what the owner was asked and as whom, the files kept with the message and
//! delivered byte for byte (WhatsApp through the fake Cloud API, e-mail through
//! a real SMTP server), and the refusals (an unknown kind, a reference that is
//! not a JSON object, a report not in PDF or XLSX, an order without its series,
//! a user who may not consult the document's screen, an owner out of reach,
//! another tenant's document), after which nothing is queued.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use erp_messaging::fake::Fake;
use erp_messaging::Deps;
use erp_platform::db::Db;
use serde_json::{json, Value};

use crate::email::Smtpd;
use crate::owners::{Owners, Slip};
use crate::*;

const LINE: &str = "00190.00009 01234.567004 00000.123456 1 10010000012345";
const PIX: &str = "00020101021126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865406123.455802BR5913Oficina Demo6009Sao Paulo62070503***6304ABCD";
const XML: &[u8] = b"<?xml version=\"1.0\" encoding=\"UTF-8\"?><nfeProc versao=\"4.00\"><NFe><infNFe Id=\"NFe43260511222333000181550010000004561000004560\"/></NFe></nfeProc>";

/// Messaging's dependencies reaching `owners` as finance and fiscal.
fn deps_with(owners: &Owners) -> Arc<Deps> {
    let sealer = erp_platform::crypto::Sealer::from_var(&erp_messaging::settings::KEY, Some(KEY))
        .expect("key");
    Arc::new(
        Deps::new(sealer, None)
            .expect("deps")
            .with_peers(owners.peers()),
    )
}

fn params(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// The message's files as stored: (name, type, bytes) in order.
async fn stored_files(db: &Db, c: i64, id: i64) -> Vec<(String, String, Vec<u8>)> {
    let mut tx = db.begin_tenant(c).await.expect("tx");
    sqlx::query_as(
        "SELECT anex_nome, anex_tipo, anex_conteudo FROM messaging.mensagens_anexos
         WHERE client_id = $1 AND mens_emp_id = 1 AND mens_id = $2 ORDER BY anex_seq",
    )
    .bind(c)
    .bind(id)
    .fetch_all(&mut *tx)
    .await
    .expect("files")
}

/// Client `c`'s messages (its own, under row-level security) and dispatch rows.
async fn queued(db: &Db, c: i64) -> (i64, i64) {
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let messages: i64 =
        sqlx::query_scalar("SELECT count(*) FROM messaging.mensagens WHERE client_id = $1")
            .bind(c)
            .fetch_one(&mut *tx)
            .await
            .expect("mensagens");
    let due: i64 = sqlx::query_scalar("SELECT count(*) FROM messaging.fila WHERE client_id = $1")
        .bind(c)
        .fetch_one(&db.pool)
        .await
        .expect("fila");
    (messages, due)
}

#[tokio::test]
async fn a_slip_is_asked_of_finance_as_the_caller_and_reaches_whatsapp_byte_for_byte() {
    let db = db().await;
    let owners = Owners::default();
    let deps = deps_with(&owners);
    let c = client();
    let fake = Fake::start().await.expect("fake");
    cloud_company(&db, &deps, c, &fake, "8001").await;
    let (pdf, _, _) = report_files();
    owners.slip(
        c,
        123,
        Slip {
            id: 900,
            line: Some(LINE.into()),
            pix: Some(PIX.into()),
            pdf: pdf.clone(),
        },
    );

    let v = send(
        &db,
        &deps,
        c,
        json!({"MENS_DESCRICAO": "Segue o boleto da sua compra.", "MENS_DESTINATARIO": MOBILE, "MENS_TIPO": "T",
               "MENS_DOC_TIPO": "boleto", "MENS_DOC_ID": "123", "MENS_PROJETO": "contasareceber"}),
    )
    .await
    .expect("queued");
    let id = id_of(&v);

    // Finance was asked for the title's slip, then for that slip's PDF, as the
    // caller (client, user, company in the metadata) and in the message's company.
    let asked = owners.asked();
    assert_eq!(
        asked.iter().map(|a| a.call()).collect::<Vec<_>>(),
        vec![
            (
                "finance boletos.titulo".to_string(),
                params(&[("id", "123"), ("emp", "1")])
            ),
            ("finance boletos.pdf".to_string(), params(&[("emp", "1")])),
        ]
    );
    assert_eq!(asked[1].body, json!({"EMP_ID": 1, "BOL_ID": 900}));
    for a in &asked {
        assert_eq!(a.caller, caller(c), "as the caller");
        assert_eq!(a.companies, vec![1]);
    }
    // Identity was asked whether the caller may consult the slips' screen.
    assert_eq!(
        owners
            .principals()
            .into_iter()
            .map(|(who, r)| (who, r.client_id, r.user_id, r.company_id))
            .collect::<Vec<_>>(),
        vec![(caller(c), c, 7, 1)]
    );

    let r = row(&db, c, id).await;
    assert_eq!(r["mens_tipo"], "D", "a document kind is a document");
    assert_eq!(r["mens_doc_tipo"], "boleto");
    assert_eq!(r["mens_doc_id"], 123);
    assert_eq!(r["mens_anexo_nome"], "boleto_123.pdf");
    assert_eq!(
        stored_files(&db, c, id).await,
        vec![(
            "boleto_123.pdf".into(),
            "application/pdf".into(),
            pdf.clone()
        )]
    );

    drain(
        &worker(&db, &deps, test_config(c)),
        &db,
        c,
        Duration::from_secs(20),
    )
    .await;
    assert_eq!(row(&db, c, id).await["mens_status"], "E");
    let sends = fake.sends();
    assert_eq!(sends.len(), 1, "{sends:?}");
    let s = &sends[0];
    assert_eq!(
        (s.kind.as_str(), s.file_name.as_deref()),
        ("document", Some("boleto_123.pdf"))
    );
    assert_eq!(
        s.file.as_deref(),
        Some(pdf.as_slice()),
        "the slip byte for byte"
    );
    assert_eq!(
        s.text,
        format!(
            "Segue o boleto da sua compra.\n\nLinha digitável: {LINE}\nPix copia e cola: {PIX}"
        )
    );
}

#[tokio::test]
async fn a_receipt_is_the_last_payments_and_an_nfe_on_whatsapp_is_its_danfe() {
    let db = db().await;
    let owners = Owners::default();
    let deps = deps_with(&owners);
    let c = client();
    let receipt = b"%PDF-1.7\n% recibo da baixa 31\n".to_vec();
    let (_, danfe, _) = report_files();
    owners.settlements(
        c,
        40,
        vec![
            json!({"BAIX_ID": 33, "BAIX_TIT_ID": 40, "BAIX_TOTAL": 50, "BAIX_ESTORNADA": true}),
            json!({"BAIX_ID": 32, "BAIX_TIT_ID": 40, "BAIX_TOTAL": 0, "BAIX_ESTORNADA": false}),
            json!({"BAIX_ID": 31, "BAIX_TIT_ID": 40, "BAIX_TOTAL": 120.5, "BAIX_ESTORNADA": false}),
            json!({"BAIX_ID": 30, "BAIX_TIT_ID": 40, "BAIX_TOTAL": 10, "BAIX_ESTORNADA": false}),
        ],
    );
    owners.receipt(c, 31, &receipt);
    owners.nfe(c, 456, &danfe, XML);

    // A receipt adds nothing to the text: without one it is the document alone.
    let r = send(
        &db,
        &deps,
        c,
        json!({"MENS_DESTINATARIO": MOBILE, "MENS_DOC_TIPO": "RECIBO", "MENS_DOC_ID": 40}),
    )
    .await
    .expect("receipt");
    let receipt_id = id_of(&r);
    let n = send(&db, &deps, c, json!({"MENS_DESCRICAO": "Sua nota fiscal", "MENS_DESTINATARIO": MOBILE, "MENS_DOC_TIPO": "nfe", "MENS_DOC_ID": 456}))
        .await
        .expect("nfe");
    let nfe_id = id_of(&n);

    assert_eq!(
        owners.asked().iter().map(|a| a.call()).collect::<Vec<_>>(),
        vec![
            (
                "finance contasreceber.baixas".to_string(),
                params(&[("id", "40"), ("emp", "1")])
            ),
            // The latest settlement not reversed that moved money.
            (
                "finance contasreceber.recibo".to_string(),
                params(&[("id", "31"), ("emp", "1")])
            ),
            // WhatsApp takes the DANFE only.
            (
                "fiscal pedidofatxml.danfe".to_string(),
                params(&[("PEXM_ID", "456"), ("emp", "1")])
            ),
        ]
    );
    assert_eq!(
        stored_files(&db, c, receipt_id).await,
        vec![("recibo_40.pdf".into(), "application/pdf".into(), receipt)]
    );
    assert_eq!(row(&db, c, receipt_id).await["mens_doc_tipo"], "recibo");
    assert_eq!(
        stored_files(&db, c, nfe_id).await,
        vec![("danfe_456.pdf".into(), "application/pdf".into(), danfe)]
    );

    // A title without a settlement that has a receipt: refused, nothing queued.
    owners.settlements(
        c,
        41,
        vec![json!({"BAIX_ID": 34, "BAIX_TOTAL": 5, "BAIX_ESTORNADA": true})],
    );
    let e = send(
        &db,
        &deps,
        c,
        json!({"MENS_DESTINATARIO": MOBILE, "MENS_DOC_TIPO": "recibo", "MENS_DOC_ID": 41}),
    )
    .await
    .err()
    .map(|e| e.http_status());
    assert_eq!(e, Some(409));
    assert_eq!(queued(&db, c).await, (2, 2));
}

#[tokio::test]
async fn an_uploaded_file_is_kept_and_no_owner_is_asked() {
    let db = db().await;
    let owners = Owners::default();
    let deps = deps_with(&owners);
    let c = client();
    let v = send(
        &db,
        &deps,
        c,
        json!({"MENS_DESCRICAO": "Segue", "MENS_DESTINATARIO": MOBILE, "MENS_TIPO": "D", "MENS_DOC_TIPO": "boleto",
               "MENS_DOC_ID": 5, "arquivos": [file("boleto da tela.pdf", b"%PDF-1.4 da tela")]}),
    )
    .await
    .expect("queued");
    assert!(owners.asked().is_empty());
    assert_eq!(
        stored_files(&db, c, id_of(&v)).await,
        vec![(
            "boleto_da_tela.pdf".into(),
            "application/pdf".into(),
            b"%PDF-1.4 da tela".to_vec()
        )]
    );
}

#[tokio::test]
async fn an_nfe_by_email_carries_its_danfe_and_xml_and_a_slip_its_line_and_pix() {
    let smtpd = Smtpd::start();
    let db = db().await;
    let owners = Owners::default();
    let deps = deps_with(&owners);
    let c = client();
    configure(
        &db,
        &deps,
        c,
        "emailconfig",
        json!({"EMCF_HOST": "127.0.0.1", "EMCF_PORTA": smtpd.port, "EMCF_SEGURANCA": "nenhuma",
               "EMCF_USUARIO": "erp@demo.com.br", "EMCF_SENHA": "senha smtp", "EMCF_REMETENTE": "erp@demo.com.br"}),
    )
    .await;
    let (danfe, slip_pdf, _) = report_files();
    owners.nfe(c, 456, &danfe, XML);
    owners.slip(
        c,
        77,
        Slip { id: 901, line: Some(LINE.into()), pix: None, pdf: slip_pdf.clone() },
    );
    let email = |subject: &str, kind: &str, doc: i64, text: &str| {
        json!({"MENS_EMP_ID": 1, "MENS_DESTINATARIO": "cliente@exemplo.com.br", "MENS_ASSUNTO": subject,
               "MENS_DESCRICAO": text, "MENS_DOC_TIPO": kind, "MENS_DOC_ID": doc})
    };
    let n = call(
        &db,
        &deps,
        c,
        "whatsapp",
        "email",
        &[],
        email("NF-e 456", "nfe", 456, "Segue a nota fiscal."),
    )
    .await
    .expect("nfe");
    let b = call(
        &db,
        &deps,
        c,
        "whatsapp",
        "email",
        &[],
        email("Boleto", "boleto", 77, "<p>Segue o <b>boleto</b>.</p>"),
    )
    .await
    .expect("slip");
    assert_eq!(
        owners.asked().iter().map(|a| a.call()).collect::<Vec<_>>(),
        vec![
            (
                "fiscal pedidofatxml.danfe".to_string(),
                params(&[("PEXM_ID", "456"), ("emp", "1")])
            ),
            (
                "fiscal pedidofatxml.xml".to_string(),
                params(&[("PEXM_ID", "456"), ("emp", "1")])
            ),
            (
                "finance boletos.titulo".to_string(),
                params(&[("id", "77"), ("emp", "1")])
            ),
            ("finance boletos.pdf".to_string(), params(&[("emp", "1")])),
        ]
    );
    assert!(owners.asked().iter().all(|a| a.caller == caller(c)));
    assert_eq!(
        stored_files(&db, c, id_of(&n)).await,
        vec![
            (
                "danfe_456.pdf".into(),
                "application/pdf".into(),
                danfe.clone()
            ),
            ("nfe_456.xml".into(), "application/xml".into(), XML.to_vec()),
        ]
    );

    drain(
        &worker(&db, &deps, test_config(c)),
        &db,
        c,
        Duration::from_secs(20),
    )
    .await;
    for id in [id_of(&n), id_of(&b)] {
        assert_eq!(row(&db, c, id).await["mens_status"], "E");
    }
    let got = smtpd.messages();
    assert_eq!(got.len(), 2);
    let by_subject = |s: &str| {
        got.iter()
            .map(|(m, _)| m)
            .find(|m| m["subject"] == s)
            .cloned()
            .unwrap_or_else(|| panic!("{s}: {got:?}"))
    };
    let b64 = |b: &[u8]| base64::engine::general_purpose::STANDARD.encode(b);
    let attachments = |m: &Value| -> Vec<(String, String, String)> {
        m["attachments"]
            .as_array()
            .expect("attachments")
            .iter()
            .map(|a| {
                let s = |k: &str| a[k].as_str().unwrap_or_default().to_string();
                (s("name"), s("type"), s("base64"))
            })
            .collect()
    };
    let nfe = by_subject("NF-e 456");
    assert_eq!(
        attachments(&nfe),
        vec![
            (
                "danfe_456.pdf".into(),
                "application/pdf".into(),
                b64(&danfe)
            ),
            ("nfe_456.xml".into(), "application/xml".into(), b64(XML)),
        ],
        "the DANFE and the XML byte for byte"
    );
    assert_eq!(
        nfe["text"].as_str().map(str::trim),
        Some("Segue a nota fiscal.")
    );
    let slip = by_subject("Boleto");
    assert_eq!(
        attachments(&slip),
        vec![(
            "boleto_77.pdf".into(),
            "application/pdf".into(),
            b64(&slip_pdf)
        )]
    );
    let text = slip["text"].as_str().map(|t| t.replace("\r\n", "\n"));
    assert_eq!(
        text.as_deref().map(str::trim),
        Some(format!("Segue o boleto.\nLinha digitável: {LINE}").as_str()),
        "the line (no Pix on this slip) after the HTML body"
    );
}

#[tokio::test]
async fn an_unknown_kind_is_refused_and_nothing_is_queued() {
    let db = db().await;
    let owners = Owners::default();
    let deps = deps_with(&owners);
    let c = client();
    for kind in ["ordemservico", "danfe", "contrato"] {
        let r = send(&db, &deps, c, json!({"MENS_DESCRICAO": "x", "MENS_DESTINATARIO": MOBILE, "MENS_DOC_TIPO": kind, "MENS_DOC_ID": 1})).await;
        assert_eq!(
            r.as_ref()
                .err()
                .map(|e| (e.http_status(), e.public_message())),
            Some((400, "Tipo de documento inválido.".to_string())),
            "{kind}"
        );
        let r = call(
            &db,
            &deps,
            c,
            "whatsapp",
            "email",
            &[],
            json!({"MENS_EMP_ID": 1, "MENS_DESTINATARIO": "a@exemplo.com.br",
                "MENS_ASSUNTO": "x", "MENS_DOC_TIPO": kind, "MENS_DOC_ID": 1}),
        )
        .await;
        assert_eq!(msg(r), Some("Tipo de documento inválido.".into()), "{kind}");
    }
    let r = send(
        &db,
        &deps,
        c,
        json!({"MENS_DESTINATARIO": MOBILE, "MENS_DOC_TIPO": "boleto"}),
    )
    .await;
    assert_eq!(msg(r), Some("Nº do documento é obrigatório!".into()));
    assert!(owners.asked().is_empty());
    assert_eq!(queued(&db, c).await, (0, 0));
}

#[tokio::test]
async fn an_owner_out_of_reach_is_503_and_nothing_is_queued() {
    let db = db().await;
    let c = client();
    let slip = json!({"MENS_DESCRICAO": "x", "MENS_DESTINATARIO": MOBILE, "MENS_DOC_TIPO": "boleto", "MENS_DOC_ID": 1});
    let answer =
        |r: erp_platform::Result<Value>| r.err().map(|e| (e.http_status(), e.public_message()));
    let finance_down = Some((
        503,
        "O serviço de finanças (finance) não respondeu. Tente novamente em instantes.".to_string(),
    ));

    // No peers at all (`Deps::new`): not even the grants can be read.
    assert_eq!(
        answer(send(&db, &deps(), c, slip.clone()).await),
        Some((
            503,
            "O serviço de usuários (identity) não respondeu. Tente novamente em instantes."
                .to_string()
        ))
    );

    // Fiscal at an address where nothing listens.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("free port")
        .port();
    let closed = tonic::transport::Endpoint::from_shared(format!("http://127.0.0.1:{port}"))
        .expect("url")
        .connect_timeout(Duration::from_secs(2))
        .connect_lazy();
    let peers = erp_platform::service::Peers::new(std::collections::HashMap::from([
        (
            "fiscal".to_string(),
            erp_platform::transport::link_channel(closed),
        ),
        ("identity".to_string(), Owners::default().identity()),
    ]));
    let sealer = erp_platform::crypto::Sealer::from_var(&erp_messaging::settings::KEY, Some(KEY))
        .expect("key");
    let down = Arc::new(Deps::new(sealer, None).expect("deps").with_peers(peers));
    let r = call(
        &db,
        &down,
        c,
        "whatsapp",
        "email",
        &[],
        json!({"MENS_EMP_ID": 1, "MENS_DESTINATARIO": "a@exemplo.com.br",
            "MENS_ASSUNTO": "NF-e", "MENS_DOC_TIPO": "nfe", "MENS_DOC_ID": 9}),
    )
    .await;
    assert_eq!(
        answer(r),
        Some((
            503,
            "O serviço de documentos fiscais (fiscal) não respondeu. Tente novamente em instantes."
                .to_string()
        ))
    );

    // Finance that does not answer within the limit.
    let owners = Owners::default();
    owners.hang(Duration::from_secs(30));
    let sealer = erp_platform::crypto::Sealer::from_var(&erp_messaging::settings::KEY, Some(KEY))
        .expect("key");
    let mut slow = Deps::new(sealer, None)
        .expect("deps")
        .with_peers(owners.peers());
    slow.peer_timeout = Duration::from_millis(300);
    let started = std::time::Instant::now();
    assert_eq!(
        answer(send(&db, &Arc::new(slow), c, slip).await),
        finance_down
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(owners.asked().len(), 1, "it was asked");

    assert_eq!(queued(&db, c).await, (0, 0));
}

#[tokio::test]
async fn a_user_who_may_not_consult_the_documents_screen_is_refused() {
    let db = db().await;
    let owners = Owners::default();
    let deps = deps_with(&owners);
    let c = client();
    let (pdf, _, _) = report_files();
    owners.slip(
        c,
        123,
        Slip { id: 900, line: None, pix: None, pdf: pdf.clone() },
    );
    owners.nfe(c, 456, &pdf, XML);
    owners.deny(c, "contasareceber");
    for kind in ["boleto", "recibo"] {
        let r = send(
            &db,
            &deps,
            c,
            json!({"MENS_DESTINATARIO": MOBILE, "MENS_DOC_TIPO": kind, "MENS_DOC_ID": 123}),
        )
        .await;
        assert_eq!(
            r.err().map(|e| (e.http_status(), e.public_message())),
            Some((
                403,
                "Usuário sem permissão para consultar em Contas a Receber.".to_string()
            )),
            "{kind}"
        );
    }
    assert!(owners.asked().is_empty(), "finance was not asked");
    assert_eq!(queued(&db, c).await, (0, 0));
    // The NF-e is another screen's, which the user may consult.
    send(
        &db,
        &deps,
        c,
        json!({"MENS_DESTINATARIO": MOBILE, "MENS_DOC_TIPO": "nfe", "MENS_DOC_ID": 456}),
    )
    .await
    .expect("nfe");
    assert_eq!(owners.asked().len(), 1);
}

#[tokio::test]
async fn another_tenants_document_is_not_found() {
    let db = db().await;
    let owners = Owners::default();
    let deps = deps_with(&owners);
    let (a, b) = (client(), client());
    let (pdf, _, _) = report_files();
    owners.slip(
        a,
        123,
        Slip { id: 900, line: Some(LINE.into()), pix: None, pdf: pdf.clone() },
    );
    owners.nfe(a, 456, &pdf, XML);
    owners.settlements(
        a,
        40,
        vec![json!({"BAIX_ID": 31, "BAIX_TOTAL": 10, "BAIX_ESTORNADA": false})],
    );
    owners.receipt(a, 31, &pdf);

    for (kind, id, message) in [
        ("boleto", 123, "O título 123 não tem boleto em cobrança."),
        ("nfe", 456, "NF-e não encontrada."),
        ("recibo", 40, "Título 40 não encontrado."),
    ] {
        let r = send(
            &db,
            &deps,
            b,
            json!({"MENS_DESTINATARIO": MOBILE, "MENS_DOC_TIPO": kind, "MENS_DOC_ID": id}),
        )
        .await;
        assert_eq!(
            r.err().map(|e| (e.http_status(), e.public_message())),
            Some((404, message.to_string())),
            "{kind}"
        );
    }
    let asked = owners.asked();
    assert_eq!(asked.len(), 3);
    assert!(
        asked.iter().all(|x| x.caller.client_id == b),
        "asked as the tenant that called: {asked:?}"
    );
    assert_eq!(queued(&db, b).await, (0, 0));
    // The owner's tenant gets it.
    send(
        &db,
        &deps,
        a,
        json!({"MENS_DESTINATARIO": MOBILE, "MENS_DOC_TIPO": "boleto", "MENS_DOC_ID": 123}),
    )
    .await
    .expect("the owner's tenant");
}

/// Client `c`'s company 1 sending e-mail through `smtpd`.
async fn smtp_company(db: &Db, deps: &Arc<Deps>, c: i64, smtpd: &Smtpd) {
    configure(
        db,
        deps,
        c,
        "emailconfig",
        json!({"EMCF_HOST": "127.0.0.1", "EMCF_PORTA": smtpd.port, "EMCF_SEGURANCA": "nenhuma",
               "EMCF_USUARIO": "erp@demo.com.br", "EMCF_SENHA": "senha smtp", "EMCF_REMETENTE": "erp@demo.com.br"}),
    )
    .await;
}

const XLSX_TYPE: &str = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

#[tokio::test]
async fn a_report_in_pdf_and_in_xlsx_is_asked_of_reports_and_reaches_smtp_byte_for_byte() {
    let smtpd = Smtpd::start();
    let db = db().await;
    let owners = Owners::default();
    let deps = deps_with(&owners);
    let c = client();
    smtp_company(&db, &deps, c, &smtpd).await;
    let (sales_pdf, receipts_pdf, xlsx) = report_files();
    owners.report(c, "vendas", Some((&sales_pdf, &xlsx)));
    owners.report(c, "recebimentos", Some((&receipts_pdf, &xlsx)));

    let email = |subject: &str, reference: Value| {
        json!({"MENS_EMP_ID": 1, "MENS_DESTINATARIO": "gerente@exemplo.com.br", "MENS_ASSUNTO": subject,
               "MENS_DESCRICAO": "Segue o relatório.", "MENS_DOC_TIPO": "relatorio",
               "MENS_DOC_REF": reference.to_string()})
    };
    // The report's company is the message's, whatever the reference says.
    let pdf_ref = json!({"relatorio": "vendas", "FORMATO": "PDF", "DATA_INI": "2026-06-01",
                         "DATA_FIM": "2026-06-30", "CLI_ID": 5, "EMP_ID": 2});
    let p = call(
        &db,
        &deps,
        c,
        "whatsapp",
        "email",
        &[],
        email("Vendas", pdf_ref),
    )
    .await
    .expect("pdf");
    let xlsx_ref = json!({"relatorio": "recebimentos", "FORMATO": "xlsx",
                          "DATA_INI": "2026-06-01", "DATA_FIM": "2026-06-30"});
    let x = call(
        &db,
        &deps,
        c,
        "whatsapp",
        "email",
        &[],
        email("Recebimentos", xlsx_ref.clone()),
    )
    .await
    .expect("xlsx");

    let asked = owners.asked();
    assert_eq!(
        asked.iter().map(|a| a.call()).collect::<Vec<_>>(),
        vec![
            (
                "reports vendas.relatorio_vendas".to_string(),
                params(&[("emp", "1")])
            ),
            (
                "reports vendas.relatorio_recebimentos".to_string(),
                params(&[("emp", "1")])
            ),
        ]
    );
    assert_eq!(
        asked[0].body,
        json!({"FORMATO": "pdf", "DATA_INI": "2026-06-01", "DATA_FIM": "2026-06-30", "CLI_ID": 5, "EMP_ID": 1}),
        "the filters, the format and the message's company"
    );
    assert_eq!(
        asked[1].body,
        json!({"FORMATO": "xlsx", "DATA_INI": "2026-06-01", "DATA_FIM": "2026-06-30", "EMP_ID": 1})
    );
    for a in &asked {
        assert_eq!(a.caller, caller(c), "as the caller");
        assert_eq!(a.companies, vec![1]);
    }

    // Kept with its reference; a report has no id.
    let r = row(&db, c, id_of(&x)).await;
    assert_eq!(r["mens_doc_tipo"], "relatorio");
    assert_eq!(r["mens_doc_id"], Value::Null);
    assert_eq!(r["mens_anexo_nome"], "relatorio_recebimentos.xlsx");
    let kept: Value =
        serde_json::from_str(r["mens_doc_ref"].as_str().expect("mens_doc_ref")).expect("json");
    assert_eq!(kept, xlsx_ref);
    let list = call(&db, &deps, c, "whatsapp", "messages", &[], json!({}))
        .await
        .expect("messages");
    let listed = list["dados"]
        .as_array()
        .expect("dados")
        .iter()
        .find(|m| m["MENS_ID"] == id_of(&x))
        .cloned()
        .expect("listed");
    assert_eq!(listed["MENS_DOC_TIPO"], "relatorio");
    assert_eq!(listed["MENS_DOC_REF"], r["mens_doc_ref"]);
    assert_eq!(
        stored_files(&db, c, id_of(&p)).await,
        vec![(
            "relatorio_vendas.pdf".into(),
            "application/pdf".into(),
            sales_pdf.clone()
        )]
    );

    drain(
        &worker(&db, &deps, test_config(c)),
        &db,
        c,
        Duration::from_secs(20),
    )
    .await;
    for id in [id_of(&p), id_of(&x)] {
        assert_eq!(row(&db, c, id).await["mens_status"], "E");
    }
    let got = smtpd.messages();
    let attachments = |subject: &str| -> Vec<(String, String, String)> {
        let m = got
            .iter()
            .map(|(m, _)| m)
            .find(|m| m["subject"] == subject)
            .unwrap_or_else(|| panic!("{subject}: {got:?}"));
        m["attachments"]
            .as_array()
            .expect("attachments")
            .iter()
            .map(|a| {
                let s = |k: &str| a[k].as_str().unwrap_or_default().to_string();
                (s("name"), s("type"), s("base64"))
            })
            .collect()
    };
    let b64 = |b: &[u8]| base64::engine::general_purpose::STANDARD.encode(b);
    assert_eq!(
        attachments("Vendas"),
        vec![(
            "relatorio_vendas.pdf".into(),
            "application/pdf".into(),
            b64(&sales_pdf)
        )]
    );
    assert_eq!(
        attachments("Recebimentos"),
        vec![(
            "relatorio_recebimentos.xlsx".into(),
            XLSX_TYPE.into(),
            b64(&xlsx)
        )],
        "the XLSX byte for byte"
    );
}

#[tokio::test]
async fn a_quote_reaches_whatsapp_and_an_order_carries_its_series() {
    let db = db().await;
    let owners = Owners::default();
    let deps = deps_with(&owners);
    let c = client();
    let fake = Fake::start().await.expect("fake");
    cloud_company(&db, &deps, c, &fake, "8002").await;
    let (quote_pdf, order_pdf, _) = report_files();
    owners.quote(c, 12, &quote_pdf);
    owners.order(c, 10, "1", &order_pdf);

    let q = send(
        &db,
        &deps,
        c,
        json!({"MENS_DESCRICAO": "Segue o orçamento.", "MENS_DESTINATARIO": MOBILE, "MENS_TIPO": "T",
               "MENS_DOC_TIPO": "orcamento", "MENS_DOC_ID": "12", "MENS_PROJETO": "orcamentos"}),
    )
    .await
    .expect("quote");
    let o = send(
        &db,
        &deps,
        c,
        json!({"MENS_DESCRICAO": "Segue o pedido.", "MENS_DESTINATARIO": MOBILE,
               "MENS_DOC_TIPO": "pedido", "MENS_DOC_ID": 10, "MENS_DOC_REF": "{\"PEDF_SERIE\":\"1\"}"}),
    )
    .await
    .expect("order");

    let asked = owners.asked();
    assert_eq!(
        asked.iter().map(|a| a.call()).collect::<Vec<_>>(),
        vec![
            (
                "orders orcamento.pdf".to_string(),
                params(&[("ORCA_ID", "12"), ("emp", "1")])
            ),
            (
                "orders pedido.pdf".to_string(),
                params(&[("PEDF_ID", "10"), ("emp", "1"), ("PEDF_SERIE", "1")])
            ),
        ]
    );
    for a in &asked {
        assert_eq!(a.caller, caller(c), "as the caller");
        assert_eq!(a.companies, vec![1]);
        assert_eq!(a.body, json!({}));
    }
    let r = row(&db, c, id_of(&q)).await;
    assert_eq!(
        (&r["mens_tipo"], &r["mens_doc_tipo"], &r["mens_doc_id"]),
        (&json!("D"), &json!("orcamento"), &json!(12))
    );
    let r = row(&db, c, id_of(&o)).await;
    assert_eq!(r["mens_doc_ref"], r#"{"PEDF_SERIE":"1"}"#);
    assert_eq!(
        stored_files(&db, c, id_of(&o)).await,
        vec![(
            "pedido_10_1.pdf".into(),
            "application/pdf".into(),
            order_pdf.clone()
        )]
    );

    drain(
        &worker(&db, &deps, test_config(c)),
        &db,
        c,
        Duration::from_secs(20),
    )
    .await;
    assert_eq!(row(&db, c, id_of(&q)).await["mens_status"], "E");
    let sends = fake.sends();
    let quote = sends
        .iter()
        .find(|s| s.text == "Segue o orçamento.")
        .unwrap_or_else(|| panic!("{sends:?}"));
    assert_eq!(
        (quote.kind.as_str(), quote.file_name.as_deref()),
        ("document", Some("orcamento_12.pdf"))
    );
    assert_eq!(
        quote.file.as_deref(),
        Some(quote_pdf.as_slice()),
        "the quote byte for byte"
    );
}

#[tokio::test]
async fn references_a_kind_needs_are_checked_before_any_owner_is_asked() {
    let db = db().await;
    let owners = Owners::default();
    let deps = deps_with(&owners);
    let c = client();
    let (pdf, _, xlsx) = report_files();
    owners.report(c, "vendas", Some((&pdf, &xlsx)));
    owners.order(c, 10, "1", &pdf);
    let answer =
        |r: erp_platform::Result<Value>| r.err().map(|e| (e.http_status(), e.public_message()));
    let message = |kind: &str, id: Value, reference: &str| json!({"MENS_DESTINATARIO": MOBILE, "MENS_DOC_TIPO": kind, "MENS_DOC_ID": id, "MENS_DOC_REF": reference});
    let refused = [
        (
            message("pedido", json!(10), ""),
            "Série do pedido é obrigatória (MENS_DOC_REF com \"PEDF_SERIE\").",
        ),
        (
            message("pedido", json!(10), r#"{"PEDF_SERIE": " "}"#),
            "Série do pedido é obrigatória (MENS_DOC_REF com \"PEDF_SERIE\").",
        ),
        (
            message(
                "relatorio",
                Value::Null,
                r#"{"relatorio": "vendas", "FORMATO": "json"}"#,
            ),
            "Formato do relatório inválido: use pdf ou xlsx.",
        ),
        (
            message("relatorio", Value::Null, r#"{"relatorio": "vendas"}"#),
            "Formato do relatório inválido: use pdf ou xlsx.",
        ),
        (
            message("relatorio", Value::Null, "{\"relatorio\": \"vendas\""),
            "Referência do documento inválida.",
        ),
        (
            message("relatorio", Value::Null, r#"["vendas"]"#),
            "Referência do documento inválida.",
        ),
    ];
    for (body, expected) in refused {
        assert_eq!(
            answer(send(&db, &deps, c, body.clone()).await),
            Some((400, expected.to_string())),
            "{body}"
        );
        let mut email = body.clone();
        email["MENS_DESTINATARIO"] = json!("a@exemplo.com.br");
        email["MENS_ASSUNTO"] = json!("x");
        email["MENS_EMP_ID"] = json!(1);
        assert_eq!(
            answer(call(&db, &deps, c, "whatsapp", "email", &[], email).await),
            Some((400, expected.to_string())),
            "e-mail: {body}"
        );
    }
    assert!(owners.asked().is_empty(), "no owner was asked");
    assert!(owners.principals().is_empty(), "nor identity");

    // A report the reports service does not have is its 404; a report without
    // rows in the period is nothing to send.
    owners.report(c, "compras", None);
    let report = |name: &str| {
        message(
            "relatorio",
            Value::Null,
            &json!({"relatorio": name, "FORMATO": "pdf", "DATA_INI": "2026-06-01", "DATA_FIM": "2026-06-30"})
                .to_string(),
        )
    };
    assert_eq!(
        answer(send(&db, &deps, c, report("inexistente")).await),
        Some((
            404,
            "Ação 'relatorio_inexistente' não encontrada.".to_string()
        ))
    );
    assert_eq!(
        answer(send(&db, &deps, c, report("compras")).await),
        Some((404, "O relatório não tem dados para enviar.".to_string()))
    );
    // An order of another series is the owner's 404.
    assert_eq!(
        answer(
            send(
                &db,
                &deps,
                c,
                message("pedido", json!(10), r#"{"PEDF_SERIE": 2}"#)
            )
            .await
        ),
        Some((404, "Pedido não encontrado.".to_string()))
    );
    // Who may not consult the reports' screen or the quotes' is refused first.
    owners.deny(c, "relatoriodevendas");
    owners.deny(c, "orcamentos");
    let before = owners.asked().len();
    assert_eq!(
        answer(send(&db, &deps, c, report("vendas")).await),
        Some((
            403,
            "Usuário sem permissão para consultar em Relatório de Vendas.".to_string()
        ))
    );
    assert_eq!(
        answer(send(&db, &deps, c, message("orcamento", json!(12), "")).await),
        Some((
            403,
            "Usuário sem permissão para consultar em Orçamentos.".to_string()
        ))
    );
    assert_eq!(owners.asked().len(), before, "the owners were not asked");
    assert_eq!(queued(&db, c).await, (0, 0));
}
