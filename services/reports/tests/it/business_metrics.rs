//! The business metrics (`erp_business_*` on /metrics): each fact counts once,
//! after its batch commits — not again when redelivered, not for a batch that
//! rolled back, not for a second fact about an order already recorded.

use std::sync::Arc;

use erp_platform::bus::consumer::apply_delivered;
use erp_platform::bus::{Effect, Message, Outcome};
use erp_platform::db::Db;
use erp_proto::finance::v1::{BoletoSituacao, Settlement, TituloSituacao};
use erp_proto::fiscal::v1::{NfeAutorizada, NfeCancelada, NfeRejeitada};
use prost::Message as _;

use crate::{invoice, line, message};

/// The value of `name{labels}` on /metrics (0 when the series is not there).
fn metric(name: &str, labels: &str) -> f64 {
    let prefix = format!("{name}{{{labels}}} ");
    erp_platform::telemetry::render_metrics()
        .lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .map_or(0.0, |v| v.trim().parse().expect("metric value"))
}

async fn deliver_all(db: &Db, consumer: &str, effect: &Arc<dyn Effect>, msgs: &[Message]) {
    let out = apply_delivered(db, "reports", consumer, effect, msgs).await;
    assert_eq!(out, vec![Outcome::Ack; msgs.len()], "{consumer}");
}

#[tokio::test]
async fn business_metrics_count_each_fact_once_after_commit() {
    erp_platform::telemetry::metrics_handle();
    let _turn = crate::ONE_AT_A_TIME.lock().await;
    let db = crate::CTX.db().await;
    let c = crate::CTX.client();
    let company = format!("client=\"{c}\",emp=\"1\"");

    // Invoiced orders: two orders and a second fact about the first; the
    // batch redelivered whole.
    let orders: Arc<dyn Effect> = Arc::new(erp_reports::facts::InvoicedOrder);
    let fact = |id: &str, pedido: i64| {
        let ev = invoice(
            c,
            pedido,
            7,
            "2026-10-01",
            4,
            vec![line("P", 1, 1, "2", "30", "60.00")],
        );
        message(
            c,
            &format!("{id}-{c}"),
            "erp.orders.pedido.faturado",
            ev.encode_to_vec(),
        )
    };
    let batch = vec![fact("m1", 901), fact("m2", 902), fact("m1-again", 901)];
    deliver_all(&db, "reports-pedido-faturado", &orders, &batch).await;
    deliver_all(&db, "reports-pedido-faturado", &orders, &batch).await;
    assert_eq!(metric("erp_business_invoices_total", &company), 2.0);
    assert_eq!(metric("erp_business_sales_cents_total", &company), 12_000.0);

    // A batch that fails on an undecodable fact rolls back and is applied one
    // fact at a time: its good order counts once, the bad fact is refused.
    let bad = message(
        c,
        &format!("m-bad-{c}"),
        "erp.orders.pedido.faturado",
        vec![0xff; 3],
    );
    deliver_all(
        &db,
        "reports-pedido-faturado",
        &orders,
        &[fact("m3", 903), bad],
    )
    .await;
    assert_eq!(metric("erp_business_invoices_total", &company), 3.0);
    assert_eq!(metric("erp_business_sales_cents_total", &company), 18_000.0);

    // Finance's titles: a receivable created, settled with interest, the
    // settlement reversed; a payable counts nothing. Redelivered: nothing more.
    let titles: Arc<dyn Effect> = Arc::new(erp_reports::facts::finance::TitleStanding);
    let title = |kind: &str, id: i64, change: &str, paid: &str| TituloSituacao {
        client_id: c,
        emp_id: 1,
        kind: kind.into(),
        title_id: id,
        origin: "manual".into(),
        instalment: 1,
        instalments: 1,
        value: "100.00".into(),
        paid: paid.into(),
        balance: if paid == "0" { "100.00" } else { "0.00" }.into(),
        status: if paid == "0" { "A" } else { "Q" }.into(),
        change: change.into(),
        person_id: 7,
        person_name: "PESSOA 7".into(),
        document: format!("DOC-{id}"),
        issued_on: "2026-10-01".into(),
        due_on: "2026-10-31".into(),
        ..Default::default()
    };
    let settlement = Settlement {
        settled_on: "2026-10-20".into(),
        value: "100.00".into(),
        interest: "2.50".into(),
        fine: "0".into(),
        discount: "0".into(),
        total: "102.50".into(),
        bank_id: 1,
        ..Default::default()
    };
    let settled = |change: &str| TituloSituacao {
        settlement_id: 1,
        settlement: Some(settlement.clone()),
        ..title(
            "R",
            1,
            change,
            if change == "baixa" { "100.00" } else { "0" },
        )
    };
    let standing = |id: &str, t: TituloSituacao| {
        message(
            c,
            &format!("{id}-{c}"),
            "erp.finance.titulo.situacao",
            t.encode_to_vec(),
        )
    };
    let batch = vec![
        standing("t1", title("R", 1, "criado", "0")),
        standing("t2", title("P", 2, "criado", "0")),
        standing("t3", settled("baixa")),
        standing("t4", settled("estorno")),
    ];
    deliver_all(&db, "reports-titulos", &titles, &batch).await;
    deliver_all(&db, "reports-titulos", &titles, &batch).await;
    assert_eq!(
        metric("erp_business_receivables_issued_cents_total", &company),
        10_000.0
    );
    assert_eq!(
        metric("erp_business_receipts_cents_total", &company),
        10_250.0
    );
    assert_eq!(
        metric("erp_business_receipts_reversed_cents_total", &company),
        10_250.0
    );

    // NF-e authorised and cancelled, each delivered twice.
    let issued: Arc<dyn Effect> = Arc::new(erp_reports::facts::fiscal::NfeIssued);
    let voided: Arc<dyn Effect> = Arc::new(erp_reports::facts::fiscal::NfeVoided);
    let authorised = NfeAutorizada {
        client_id: c,
        emp_id: 1,
        pedido_id: 901,
        serie: "1".into(),
        chave: "41261011222333000181550010000000011000000901".into(),
        protocolo: "141260000000001".into(),
        numero: 1,
        nfe_serie: 1,
        authorised_at: "2026-10-01T10:00:00-03:00".into(),
    };
    let cancelled = NfeCancelada {
        client_id: c,
        emp_id: 1,
        pedido_id: 901,
        serie: "1".into(),
        ..Default::default()
    };
    for _ in 0..2 {
        let m = message(
            c,
            &format!("n1-{c}"),
            "erp.fiscal.nfe.autorizada",
            authorised.encode_to_vec(),
        );
        deliver_all(&db, "reports-nfe-autorizada", &issued, &[m]).await;
        let m = message(
            c,
            &format!("n2-{c}"),
            "erp.fiscal.nfe.cancelada",
            cancelled.encode_to_vec(),
        );
        deliver_all(&db, "reports-nfe-cancelada", &voided, &[m]).await;
    }
    let nfe = |status: &str| format!("{company},kind=\"nfe\",status=\"{status}\"");
    assert_eq!(
        metric("erp_business_fiscal_documents_total", &nfe("autorizada")),
        1.0
    );
    assert_eq!(
        metric("erp_business_fiscal_documents_total", &nfe("cancelada")),
        1.0
    );

    // An NF-e rejected, its fact delivered twice: one.
    let refused: Arc<dyn Effect> = Arc::new(erp_reports::facts::fiscal::NfeRefused);
    let rejected = NfeRejeitada {
        client_id: c,
        emp_id: 1,
        pedido_id: 902,
        serie: "1".into(),
        cstat: 539,
        motivo: "Rejeição: Duplicidade de NF-e".into(),
        status: "rejeitado".into(),
    };
    for _ in 0..2 {
        let m = message(
            c,
            &format!("n3-{c}"),
            "erp.fiscal.nfe.rejeitada",
            rejected.encode_to_vec(),
        );
        deliver_all(&db, "reports-nfe-rejeitada", &refused, &[m]).await;
    }
    assert_eq!(
        metric("erp_business_fiscal_documents_total", &nfe("rejeitada")),
        1.0
    );

    // Slips: two generated, one paid with interest, one written off; the batch
    // redelivered whole counts nothing more.
    let slips: Arc<dyn Effect> = Arc::new(erp_reports::facts::finance::SlipState);
    let slip = |id: &str, boleto: i64, change: &str, value: &str| {
        let ev = BoletoSituacao {
            client_id: c,
            emp_id: 1,
            boleto_id: boleto,
            title_id: boleto + 100,
            change: change.into(),
            value: value.into(),
        };
        message(
            c,
            &format!("{id}-{c}"),
            "erp.finance.boleto.situacao",
            ev.encode_to_vec(),
        )
    };
    let batch = vec![
        slip("b1", 1, "gerado", "100.00"),
        slip("b2", 2, "gerado", "250.50"),
        slip("b3", 1, "pago", "101.50"),
        slip("b4", 2, "baixado", "250.50"),
    ];
    deliver_all(&db, "reports-boletos", &slips, &batch).await;
    deliver_all(&db, "reports-boletos", &slips, &batch).await;
    assert_eq!(metric("erp_business_slips_generated_total", &company), 2.0);
    assert_eq!(metric("erp_business_slips_paid_total", &company), 1.0);
    assert_eq!(
        metric("erp_business_slips_paid_cents_total", &company),
        10_150.0
    );
    assert_eq!(
        metric("erp_business_slips_written_off_total", &company),
        1.0
    );
}
