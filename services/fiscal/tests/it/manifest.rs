//! The NF-e manifest (`manifestonfe`) against a fake Nuvem Fiscal over real
//! HTTP: real NF-e from public test suites are issued against the company,
//! fetched by NSU, manifested, downloaded whole, uploaded; another client sees
//! none of it.

use erp_platform::db::Db;
use erp_platform::grpc::Caller;
use erp_platform::resource::FILE_REPLY;
use serde_json::{json, Value};

use super::env::{self, record};
use super::CTX;

const RES: &str = "manifestonfe";
const OWN_CNPJ: &str = "11222333000181";
const PROC: &str = include_str!("../fixtures/nfe/sped-nfe_nfe_layout4_com_prot.xml");
const PROC_KEY: &str = "43180906929383000163550010000000261000010301";
const BARE: &str =
    include_str!("../fixtures/nfe/oca_NFe35200159594315000157550010000000012062777161.xml");
const BARE_KEY: &str = "35200159594315000157550010000000012062777161";

/// The area's register in the shared environment.
struct Manifest;

impl env::Register for Manifest {
    const RES: &'static str = RES;
    const TAG: &'static str = "man";
}

type Env = env::On<Manifest>;

async fn env(with_provider: bool) -> Env {
    Env::new(with_provider).await
}

impl env::On<Manifest> {
    async fn distribute(&self, me: &Caller) -> erp_platform::Result<Value> {
        self.call(me, "distribuicao", &[("emp", "1")], json!({}))
            .await
    }

    async fn manifest(
        &self,
        me: &Caller,
        id: &Value,
        tipo: &str,
        just: Option<&str>,
    ) -> erp_platform::Result<Value> {
        let mut body = json!({"MAN_ID": id, "TIPO_EVENTO": tipo});
        if let Some(j) = just {
            body["JUSTIFICATIVA"] = json!(j);
        }
        self.call(me, "manifestar", &[], body).await
    }

    async fn rows(&self, me: &Caller) -> Vec<Value> {
        let res = self.reg.get(RES).expect("declared");
        CTX.list(&self.db, res, me, Some(1), &serde_json::Map::new())
            .await
            .expect("list")
    }

    async fn by_key(&self, me: &Caller, key: &str) -> Value {
        self.rows(me)
            .await
            .into_iter()
            .find(|r| r["MAN_CHAVE"] == key)
            .unwrap_or_else(|| panic!("no row of {key}"))
    }

    /// Leaves `bytes` where the gateway leaves an upload and names it.
    fn upload(&self, me: &Caller, bytes: &[u8]) -> String {
        let name = format!("{}.xml", uuid::Uuid::new_v4().simple());
        let dir = self
            .dir
            .join("uploads")
            .join(me.client_id.to_string())
            .join("1");
        std::fs::create_dir_all(&dir).expect("uploads dir");
        std::fs::write(dir.join(&name), bytes).expect("upload written");
        name
    }
}

async fn company(db: &Db, c: i64) {
    company_with(db, c, "11.222.333/0001-81").await;
}

async fn company_with(db: &Db, c: i64, cnpj: &str) {
    record(
        db,
        c,
        &erp_fiscal::copies::EMPRESAS,
        1,
        json!({"EMP_ID": 1, "EMP_DESCRICAO": "EMPRESA TESTE LTDA",
        "EMP_CGC": cnpj, "EMP_UF": "SP"}),
    )
    .await;
}

fn file_text(v: &Value) -> (String, String) {
    use base64::Engine;
    let f = &v[FILE_REPLY];
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(f["base64"].as_str().expect("base64"))
        .expect("decoded");
    (
        f["nome"].as_str().unwrap_or_default().to_string(),
        String::from_utf8(bytes).expect("utf-8"),
    )
}

#[tokio::test]
async fn the_nfe_issued_against_the_company_arrive_once_newest_first() {
    let e = env(true).await;
    let c = CTX.client();
    let me = CTX.caller(c, 1);
    company(&e.db, c).await;
    e.fake().issue_against(OWN_CNPJ, PROC).expect("issued");
    e.fake().issue_against(OWN_CNPJ, BARE).expect("issued");
    // Another company's NF-e is not ours.
    e.fake()
        .issue_against("99888777000100", PROC)
        .expect("issued");

    let out = e.distribute(&me).await.expect("distribution");
    assert_eq!(
        (
            out["NOVAS"].as_i64(),
            out["ULTIMO_NSU"].as_i64(),
            out["CSTAT"].as_i64()
        ),
        (Some(2), Some(2), Some(138))
    );
    let rows = e.rows(&me).await;
    assert_eq!(rows.len(), 2);
    // Newest emission first: 2020 before 2018.
    assert_eq!(rows[0]["MAN_CHAVE"], BARE_KEY);
    assert_eq!(rows[1]["MAN_CHAVE"], PROC_KEY);
    let proc = &rows[1];
    assert_eq!(proc["MAN_NUMERO"], 26);
    assert_eq!(proc["MAN_SERIE"], 1);
    assert_eq!(proc["MAN_DATA"], "2018-09-25");
    assert_eq!(proc["MAN_EMIT_CNPJ"], "06929383000163");
    assert_eq!(proc["MAN_EMIT_NOME"], "UMA RAZAO SOCIAL DE TESTE QUALQUER");
    assert_eq!(proc["MAN_VALOR"].to_string(), "500");
    assert_eq!(proc["MAN_PROTOCOLO"], "143180006932433");
    assert_eq!(proc["MAN_SITUACAO"], "P");
    assert_eq!(proc["MAN_COMPLETA"], false);

    // Asked again: nothing new, from the last NSU on (the request says so).
    let again = e.distribute(&me).await.expect("again");
    assert_eq!(
        (again["NOVAS"].as_i64(), again["CSTAT"].as_i64()),
        (Some(0), Some(137))
    );
    assert_eq!(again["msg"], "Nenhuma NF-e nova emitida contra a empresa.");
    assert_eq!(e.rows(&me).await.len(), 2);
    assert_eq!(e.fake().requests("POST", "/distribuicao/nfe"), 2);
}

#[tokio::test]
async fn a_ciencia_brings_the_whole_nfe_and_a_conclusive_event_is_final() {
    let e = env(true).await;
    let c = CTX.client();
    let me = CTX.caller(c, 1);
    company(&e.db, c).await;
    e.fake().issue_against(OWN_CNPJ, PROC).expect("issued");
    e.distribute(&me).await.expect("distribution");
    let row = e.by_key(&me, PROC_KEY).await;

    // Before the ciência only the summary exists: the download says what to do.
    let early = e
        .call(&me, "download", &[], json!({"MAN_ID": row["MAN_ID"]}))
        .await;
    assert_eq!(
        early.expect_err("summary only").public_message(),
        "A SEFAZ só entrega o XML completo depois da ciência ou da confirmação da operação: registre a ciência e baixe de novo."
    );

    let after = e
        .manifest(&me, &row["MAN_ID"], "210210", None)
        .await
        .expect("ciência");
    assert_eq!(after["MAN_SITUACAO"], "C");
    assert_eq!(after["MAN_MANIFESTACAO"], "210210");
    assert_eq!(after["MAN_COMPLETA"], true);
    assert_eq!(after["msg"], "Ciência da Operação registrada na SEFAZ.");
    assert!(after["MAN_MANIF_PROTOCOLO"]
        .as_str()
        .is_some_and(|p| p.len() == 15));

    // The whole NF-e is the supplier's file, byte for byte.
    let (name, xml) = file_text(
        &e.call(&me, "download", &[], json!({"MAN_ID": row["MAN_ID"]}))
            .await
            .expect("xml"),
    );
    assert_eq!(name, format!("{PROC_KEY}-nfe.xml"));
    assert_eq!(xml, PROC);

    let twice = e.manifest(&me, &row["MAN_ID"], "210210", None).await;
    assert_eq!(
        twice.expect_err("twice").public_message(),
        "A ciência da operação desta NF-e já foi registrada."
    );

    // Desconhecimento needs a justification of 15 to 255 characters; nothing is sent without one.
    let sent = e.fake().requests("POST", "/distribuicao/nfe/manifestacoes");
    let short = e
        .manifest(&me, &row["MAN_ID"], "210220", Some("não sei"))
        .await;
    assert_eq!(
        short.expect_err("short").public_message(),
        "A justificativa da manifestação deve ter entre 15 e 255 caracteres."
    );
    assert_eq!(
        e.fake().requests("POST", "/distribuicao/nfe/manifestacoes"),
        sent
    );
    let bad = e.manifest(&me, &row["MAN_ID"], "210999", None).await;
    assert!(bad
        .expect_err("type")
        .public_message()
        .starts_with("Informe o tipo da manifestação"));

    let confirmed = e
        .manifest(&me, &row["MAN_ID"], "210200", None)
        .await
        .expect("confirmação");
    assert_eq!(confirmed["MAN_SITUACAO"], "F");
    let after_final = e
        .manifest(
            &me,
            &row["MAN_ID"],
            "210240",
            Some("Mercadoria nunca chegou ao depósito"),
        )
        .await;
    assert_eq!(
        after_final.expect_err("final").public_message(),
        "Esta NF-e já tem manifestação conclusiva (Operação confirmada): não aceita outra."
    );
    assert_eq!(e.by_key(&me, PROC_KEY).await["MAN_SITUACAO"], "F");
}

#[tokio::test]
async fn an_unknown_operation_is_recorded_with_its_justification() {
    let e = env(true).await;
    let c = CTX.client();
    let me = CTX.caller(c, 1);
    company(&e.db, c).await;
    e.fake().issue_against(OWN_CNPJ, BARE).expect("issued");
    e.fake().distribute_processing(1);
    let out = e
        .distribute(&me)
        .await
        .expect("distribution after processando");
    assert_eq!(out["NOVAS"], 1);
    let row = e.by_key(&me, BARE_KEY).await;
    let out = e
        .manifest(
            &me,
            &row["MAN_ID"],
            "210220",
            Some("Não compramos nada deste emitente"),
        )
        .await
        .expect("desconhecimento");
    assert_eq!(out["MAN_SITUACAO"], "D");
    assert_eq!(
        out["MAN_JUSTIFICATIVA"],
        "Não compramos nada deste emitente"
    );
    assert_eq!(out["MAN_COMPLETA"], false);
}

#[tokio::test]
async fn automatic_ciencia_and_upload_and_supplier() {
    let e = env(true).await;
    let c = CTX.client();
    let me = CTX.caller(c, 1);
    company(&e.db, c).await;
    let mut tx = e.db.begin_tenant(c).await.expect("tx");
    sqlx::query("INSERT INTO fiscal.empresas_servicos (client_id, emps_emp_id, emps_dist_ciencia_aut) VALUES ($1, 1, true)")
        .bind(c)
        .execute(&mut *tx)
        .await
        .expect("settings");
    tx.commit().await.expect("commit");
    e.fake().issue_against(OWN_CNPJ, PROC).expect("issued");
    let out = e.distribute(&me).await.expect("distribution");
    assert_eq!(out["CIENCIAS"], 1);
    let row = e.by_key(&me, PROC_KEY).await;
    assert_eq!(
        (row["MAN_SITUACAO"].as_str(), row["MAN_COMPLETA"].as_bool()),
        (Some("C"), Some(true))
    );

    // An NF-e addressed to someone else is refused, whoever uploads it.
    let name = e.upload(&me, BARE.as_bytes());
    let r = e
        .call(
            &me,
            "uploads",
            &[],
            json!({"arquivo": {"nome": name, "original": "nota.xml"}}),
        )
        .await;
    assert_eq!(
        r.expect_err("not ours").public_message(),
        "Esta NF-e não foi emitida contra a empresa: o destinatário é 81493979000189."
    );
    assert_eq!(e.rows(&me).await.len(), 1);
}

#[tokio::test]
async fn an_nfe_received_by_email_is_uploaded_whole_and_linked_to_its_purchase() {
    let e = env(true).await;
    let c = CTX.client();
    let me = CTX.caller(c, 1);
    // The fixture's recipient.
    company_with(&e.db, c, "81.493.979/0001-89").await;
    let name = e.upload(&me, BARE.as_bytes());
    let up = e
        .call(
            &me,
            "uploads",
            &[],
            json!({"arquivo": {"nome": name, "original": "nota.xml"}}),
        )
        .await
        .expect("upload");
    assert_eq!(up["MAN_CHAVE"], BARE_KEY);
    assert_eq!(up["MAN_ORIGEM"], "UPLOAD");
    assert_eq!(up["MAN_COMPLETA"], true);
    assert_eq!(up["MAN_VALOR"].to_string(), "14");
    assert_eq!(up["msg"], "NF-e incluída no manifesto.");
    let (_, xml) = file_text(
        &e.call(&me, "download", &[], json!({"MAN_ID": up["MAN_ID"]}))
            .await
            .expect("xml"),
    );
    assert_eq!(xml, BARE);
    let again = e.upload(&me, BARE.as_bytes());
    let up2 = e
        .call(&me, "uploads", &[], json!({"arquivo": {"nome": again}}))
        .await
        .expect("again");
    assert_eq!(up2["MAN_ID"], up["MAN_ID"]);
    let not_nfe = e.upload(&me, b"<nota>qualquer</nota>");
    let r = e
        .call(&me, "uploads", &[], json!({"arquivo": {"nome": not_nfe}}))
        .await;
    assert_eq!(
        r.expect_err("not an NF-e").public_message(),
        "O XML não é de uma NF-e (sem infNFe)."
    );
    assert_eq!(e.rows(&me).await.len(), 1);

    let linked = e
        .call(
            &me,
            "updatefornecedor",
            &[],
            json!({"MAN_ID": up["MAN_ID"], "FOR_ID": 5, "COMP_ID": 12}),
        )
        .await
        .expect("supplier");
    assert_eq!(
        (
            linked["MAN_FOR_ID"].as_i64(),
            linked["MAN_COMP_ID"].as_i64()
        ),
        (Some(5), Some(12))
    );
    let r = e
        .call(
            &me,
            "updatefornecedor",
            &[],
            json!({"MAN_ID": up["MAN_ID"], "FOR_ID": 0}),
        )
        .await;
    assert_eq!(
        r.expect_err("no supplier").public_message(),
        "Informe o fornecedor (FOR_ID)."
    );
}

#[tokio::test]
async fn rows_are_written_by_the_calls_and_other_clients_see_nothing() {
    let e = env(true).await;
    let (a, b) = (CTX.client(), CTX.client());
    let (me, other) = (CTX.caller(a, 1), CTX.caller(b, 1));
    company(&e.db, a).await;
    company(&e.db, b).await;
    e.fake().issue_against(OWN_CNPJ, PROC).expect("issued");
    e.distribute(&me).await.expect("distribution");
    let row = e.by_key(&me, PROC_KEY).await;

    let res = e.reg.get(RES).expect("declared");
    let body = json!({"MAN_CHAVE": PROC_KEY})
        .as_object()
        .cloned()
        .unwrap_or_default();
    let r = CTX.create(&e.db, res, &me, Some(1), &body).await;
    assert!(r
        .expect_err("generic create")
        .public_message()
        .starts_with("As NF-e do manifesto vêm da SEFAZ"));

    // Client b has no rows, cannot manifest, download or link a's.
    assert!(e.rows(&other).await.is_empty());
    for r in [
        e.manifest(&other, &row["MAN_ID"], "210210", None).await,
        e.call(&other, "download", &[], json!({"MAN_ID": row["MAN_ID"]}))
            .await,
        e.call(
            &other,
            "updatefornecedor",
            &[],
            json!({"MAN_ID": row["MAN_ID"], "FOR_ID": 1}),
        )
        .await,
    ] {
        assert_eq!(
            r.expect_err("other client").public_message(),
            "NF-e do manifesto não encontrada."
        );
    }
    assert_eq!(e.by_key(&me, PROC_KEY).await["MAN_SITUACAO"], "P");
}

#[tokio::test]
async fn without_credentials_the_calls_say_what_to_configure() {
    let e = env(false).await;
    let c = CTX.client();
    let me = CTX.caller(c, 1);
    company(&e.db, c).await;
    let r = e.distribute(&me).await;
    assert_eq!(
        r.expect_err("no provider").public_message(),
        "Configure as credenciais da Nuvem Fiscal em Empresas › Serviços fiscais."
    );
}
