//! The company's fiscal services (`empresasservicos`): settings through the
//! calls, the A1 certificate (a real PKCS#12 made here) sealed at rest and sent
//! to a fake Nuvem Fiscal started in-process, the settings per document type
//! at the provider, and what another client sees.

use std::path::Path;

use chrono::{Datelike, Utc};
use erp_fiscal::nuvemfiscal::NuvemFiscal;
use erp_platform::db::Db;
use erp_platform::grpc::Caller;
use p12_keystore::{Certificate, KeyStore, KeyStoreEntry, PrivateKey, PrivateKeyChain};
use serde_json::{json, Value};

use super::env;
use super::{db, CTX};

mod certificate;
mod provider;

const RES: &str = "empresasservicos";

/// The shared environment (`super::env`): a registry of fiscal over a fresh
/// data dir, with a client of a fake Nuvem Fiscal or none.
struct Env(env::Env);

impl std::ops::Deref for Env {
    type Target = env::Env;
    fn deref(&self) -> &env::Env {
        &self.0
    }
}

async fn env(with_provider: bool) -> Env {
    Env(env::env("it", with_provider).await)
}

impl Env {
    fn provider(&self) -> &NuvemFiscal {
        self.client.as_ref().expect("with a provider")
    }

    /// Runs declared call `action` in a tenant transaction, committed when it
    /// succeeds: for the company of the path's `emp`, else the caller's.
    async fn call(
        &self,
        db: &Db,
        me: &Caller,
        action: &str,
        params: &[(&str, &str)],
        body: Value,
    ) -> erp_platform::Result<Value> {
        let emp = params
            .iter()
            .find(|(k, _)| *k == "emp")
            .and_then(|(_, e)| e.parse().ok())
            .or(Some(me.emp_id));
        env::run(&self.reg, db, me, emp, RES, action, params, body).await
    }

    /// Leaves `bytes` where the gateway leaves an upload and names it.
    fn upload(&self, me: &Caller, emp: i64, ext: &str, bytes: &[u8]) -> String {
        let name = format!("{}.{ext}", uuid::Uuid::new_v4().simple());
        let dir = self
            .dir
            .join("uploads")
            .join(me.client_id.to_string())
            .join(emp.to_string());
        std::fs::create_dir_all(&dir).expect("uploads dir");
        std::fs::write(dir.join(&name), bytes).expect("upload written");
        name
    }

    fn uploaded(&self, me: &Caller, emp: i64, name: &str) -> bool {
        Path::new(&self.dir)
            .join("uploads")
            .join(me.client_id.to_string())
            .join(emp.to_string())
            .join(name)
            .exists()
    }

    /// `PUT /empresasservicos/certificado/uploads/{emp}` with this file.
    async fn send_certificate(
        &self,
        db: &Db,
        me: &Caller,
        pfx: &[u8],
        password: &str,
        cnpj: &str,
    ) -> (String, erp_platform::Result<Value>) {
        let name = self.upload(me, 1, "pfx", pfx);
        let body = json!({
            "arquivo": {"nome": name, "original": "certificado-a1.pfx"},
            "EMPS_EMP_ID": "1", "EMPS_USR_ID": "1", "SENHA": password, "CPF_CNPJ": cnpj
        });
        let r = self
            .call(db, me, "certificado", &[("emp", "1")], body)
            .await;
        (name, r)
    }

    async fn register_company(&self, db: &Db, me: &Caller, cnpj: &str) -> Value {
        let body = json!({
            "EMP_ID": 1, "EMP_CGC": cnpj, "EMP_DESCRICAO": "EMPRESA TESTE LTDA",
            "EMP_EMAIL": "fiscal@empresateste.com.br", "EMP_ENDERECO": "RUA DOS TESTES",
            "EMP_NUMERO": "100", "EMP_BAIRRO": "CENTRO", "EMP_CID_IBGE": "3106200",
            "EMP_CIDADE": "BELO HORIZONTE", "EMP_UF": "MG", "EMP_CEP": "30110-000"
        });
        self.call(db, me, "cadastrarnuvemfiscal", &[], body)
            .await
            .expect("company registered at the provider")
    }
}

/// A valid CNPJ from its first 12 digits.
fn cnpj(base: &str) -> String {
    let mut d: Vec<u32> = base.chars().filter_map(|c| c.to_digit(10)).collect();
    for weights in [
        &[5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2][..],
        &[6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2],
    ] {
        let sum: u32 = d.iter().zip(weights).map(|(a, b)| a * b).sum();
        let r = sum % 11;
        d.push(if r < 2 { 0 } else { 11 - r });
    }
    d.iter().map(|n| n.to_string()).collect()
}

/// An A1-like PKCS#12: a self-signed certificate with this CN, validity and
/// serial, with its private key, under `password`.
fn pfx(
    cn: &str,
    from: (i32, u8, u8),
    until: (i32, u8, u8),
    serial: &[u8],
    password: &str,
) -> Vec<u8> {
    let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).expect("params");
    params.distinguished_name = rcgen::DistinguishedName::new();
    params
        .distinguished_name
        .push(rcgen::DnType::CommonName, cn);
    params
        .distinguished_name
        .push(rcgen::DnType::OrganizationName, "ICP-Brasil");
    // At noon UTC: the same day in Brasília, where the screen shows it.
    let noon = |(y, m, d): (i32, u8, u8)| {
        rcgen::date_time_ymd(y, m, d)
            .replace_hour(12)
            .expect("noon")
    };
    params.not_before = noon(from);
    params.not_after = noon(until);
    params.serial_number = Some(rcgen::SerialNumber::from_slice(serial));
    let key = rcgen::KeyPair::generate().expect("key pair");
    let cert = params.self_signed(&key).expect("certificate");
    let chain = PrivateKeyChain::new(
        b"a1".as_slice(),
        PrivateKey::from_der(&key.serialize_der()).expect("private key"),
        [Certificate::from_der(cert.der()).expect("certificate der")],
    );
    let mut store = KeyStore::new();
    store.add_entry("certificado", KeyStoreEntry::PrivateKeyChain(chain));
    store.writer(password).write().expect("pkcs12")
}

/// A validity that holds today: from last year to two years ahead.
fn valid() -> ((i32, u8, u8), (i32, u8, u8)) {
    let y = Utc::now().year();
    ((y - 1, 1, 1), (y + 2, 6, 30))
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

fn msg(r: erp_platform::Result<Value>) -> (u16, String) {
    match r {
        Ok(v) => (200, format!("unexpected success: {v}")),
        Err(e) => (e.http_status(), e.public_message()),
    }
}

/// The sealed file and password of company 1's certificate.
type Sealed = (Option<Vec<u8>>, Option<Vec<u8>>);

async fn stored_certificate(db: &Db, client: i64) -> Sealed {
    let mut tx = db.begin_tenant(client).await.expect("tx");
    let row: Option<Sealed> = sqlx::query_as(
        "SELECT emps_cert_pfx, emps_cert_senha FROM fiscal.empresas_servicos WHERE emps_emp_id = 1",
    )
    .fetch_optional(&mut *tx)
    .await
    .expect("select");
    row.unwrap_or_default()
}

#[tokio::test]
async fn settings_are_created_read_and_changed_through_the_calls_and_only_by_their_client() {
    let db = db().await;
    let e = env(false).await;
    let me = CTX.caller(CTX.client(), 7);
    let doc = cnpj("210000000001");
    let rows = e
        .call(&db, &me, "filtro", &[("emp", "1")], json!({}))
        .await
        .expect("filtro");
    assert_eq!(rows, json!([]), "no settings yet");
    let res = e.reg.get(RES).expect("declared");
    let body = json!({
        "EMPS_EMP_ID": 1, "EMPS_CPF_CNPJ": doc, "EMPS_NFE_AMBIENTE": "1", "EMPS_NFE_REGIME": 3,
        "EMPS_NFE_SERIE": 1, "EMPS_NFCE_IDCSC": 2, "EMPS_NFCE_CSC": "CSC-SECRETO-123",
        "EMPS_NFSE_SENHA": "senha-da-prefeitura", "EMPS_DIST_AUTOMATICA": true
    });
    let row = CTX
        .create(&db, res, &me, Some(1), body.as_object().expect("object"))
        .await
        .expect("POST /empresasservicos");
    assert_eq!(
        (
            row["EMPS_EMP_ID"].as_i64(),
            row["EMPS_NFE_AMBIENTE"].as_i64(),
            row["EMPS_USR_ID"].as_i64()
        ),
        (Some(1), Some(1), Some(7))
    );
    assert_eq!(
        row["EMPS_NFCE_AMBIENTE"].as_i64(),
        Some(2),
        "homologação by default"
    );
    let text = row.to_string();
    assert!(!text.contains("EMPS_NFCE_CSC") && !text.contains("CSC-SECRETO-123"));
    assert!(!text.contains("senha-da-prefeitura"));
    let again = CTX
        .create(&db, res, &me, Some(1), body.as_object().expect("object"))
        .await;
    assert_eq!(
        msg(again),
        (
            409,
            "As configurações fiscais desta empresa já estão cadastradas: altere-as.".into()
        )
    );

    let sealed = |db: Db, c: i64| async move {
        let mut tx = db.begin_tenant(c).await.expect("tx");
        let v: (Option<String>, Option<String>) = sqlx::query_as(
            "SELECT emps_nfce_csc, emps_nfse_senha FROM fiscal.empresas_servicos WHERE emps_emp_id = 1",
        )
        .fetch_one(&mut *tx)
        .await
        .expect("row");
        v
    };
    let (csc, senha) = sealed(db.clone(), me.client_id).await;
    let csc = csc.expect("csc stored");
    assert!(!csc.contains("CSC-SECRETO") && !senha.unwrap_or_default().contains("senha-da"));

    let rows = e
        .call(&db, &me, "filtro", &[("emp", "1")], json!({}))
        .await
        .expect("filtro");
    assert_eq!(rows.as_array().map(Vec::len), Some(1));
    assert_eq!(
        (
            rows[0]["EMPS_NFE_SERIE"].as_i64(),
            rows[0]["EMPS_CPF_CNPJ"].as_str()
        ),
        (Some(1), Some(doc.as_str()))
    );

    // PUT /empresasservicos/{emp}: a blank secret keeps the stored one.
    let changed = e
        .call(
            &db,
            &me,
            "salvar",
            &[("emp", "1")],
            json!({"EMPS_NFE_SERIE": 3, "EMPS_NFCE_CSC": ""}),
        )
        .await
        .expect("PUT /empresasservicos/1");
    assert_eq!(
        (
            changed["EMPS_NFE_SERIE"].as_i64(),
            changed["EMPS_NFE_REGIME"].as_i64()
        ),
        (Some(3), Some(3))
    );
    assert_eq!(
        sealed(db.clone(), me.client_id).await.0.as_deref(),
        Some(csc.as_str())
    );
    let r = e
        .call(
            &db,
            &me,
            "salvar",
            &[("emp", "1")],
            json!({"EMPS_NFE_AMBIENTE": 3}),
        )
        .await;
    assert_eq!(
        msg(r),
        (400, "Valor inválido para o campo Ambiente.".into())
    );
    // A company without settings gets them on its first PUT.
    let created = e
        .call(
            &db,
            &me,
            "salvar",
            &[("emp", "2")],
            json!({"EMPS_CTE_SERIE": 5}),
        )
        .await
        .expect("PUT /empresasservicos/2");
    assert_eq!(
        (
            created["EMPS_EMP_ID"].as_i64(),
            created["EMPS_CTE_SERIE"].as_i64()
        ),
        (Some(2), Some(5))
    );

    // Another client sees nothing of it and cannot take its CNPJ.
    let other = CTX.caller(CTX.client(), 1);
    let rows = e
        .call(&db, &other, "filtro", &[("emp", "1")], json!({}))
        .await
        .expect("filtro");
    assert_eq!(rows, json!([]));
    assert!(CTX
        .get(&db, res, &other, Some(1), &["1".into()])
        .await
        .is_err());
    let r = e
        .call(
            &db,
            &other,
            "salvar",
            &[("emp", "1")],
            json!({"EMPS_CPF_CNPJ": doc}),
        )
        .await;
    assert_eq!(
        msg(r),
        (
            409,
            "Este CPF/CNPJ já está nas configurações fiscais de outra empresa.".into()
        )
    );
}
