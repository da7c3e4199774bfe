//! The supplier of an imported NF-e that orders does not know is registered in
//! catalog's real supplier register from the file's `emit` (public fixtures of
//! OCA/l10n-brazil): created once, found in orders' copy by the next NF-e of the
//! same CNPJ, and found in catalog when orders' copy has not caught up.

use serde_json::json;

use super::*;
use crate::peers::{self, catalog_get};
use crate::{client, db};

/// Two invoices and a third of the same supplier, Empresa Lucro Presumido Ltda
/// (CNPJ 81.583.054/0001-29, São Paulo, IBGE 3550308).
const FIXTURES: [&str; 3] = [
    "oca_NFe35200159594315000157550010000000022062777169.xml",
    "oca_NFe35200159594315000157550010000000032062777166.xml",
    "oca_NFe35200181583054000129550010000000052062777166.xml",
];

async fn import_with(db: &Db, c: i64, peers: &Peers, file: &str) -> Value {
    let bytes = std::fs::read(shared_fixture_dir().join(file)).expect("fixture");
    let name = store(c, &bytes);
    call_as(
        db,
        &caller(c),
        registry_with(peers.clone()),
        "compra",
        "uploads",
        &[],
        json!({"arquivo": {"nome": name, "original": file}}),
    )
    .await
    .expect("import")
}

async fn suppliers_in_catalog(db: &Db, c: i64) -> i64 {
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let n: i64 = sqlx::query_scalar("SELECT count(*) FROM catalog.fornecedor WHERE client_id = $1")
        .bind(c)
        .fetch_one(&mut *tx)
        .await
        .expect("count");
    tx.commit().await.expect("commit");
    n
}

fn warnings(out: &Value) -> Vec<String> {
    out["avisos"]
        .as_array()
        .expect("avisos")
        .iter()
        .map(s)
        .collect()
}

#[tokio::test]
async fn an_unknown_supplier_is_created_in_catalog_from_the_nfe_emitter() {
    let db = db().await;
    let c = client();
    let peers = peers::peers(&db, None);

    let out = import_with(&db, c, &peers, FIXTURES[0]).await;
    let h = &out["compra"];
    let id = h["COMP_FORN_ID"]
        .as_i64()
        .expect("the purchase names the new supplier");
    assert!(
        warnings(&out).contains(&format!(
            "Fornecedor Empresa Lucro Presumido Ltda (CPF/CNPJ 81.583.054/0001-29) cadastrado a partir da NF-e (código {id}): confira o cadastro em Fornecedores."
        )),
        "{:?}",
        warnings(&out)
    );
    let f = catalog_get(&db, c, "fornecedor", &id.to_string()).await;
    let digits = |v: &Value| {
        s(v).chars()
            .filter(char::is_ascii_digit)
            .collect::<String>()
    };
    assert_eq!(
        (
            s(&f["FORN_DESCRICAO"]),
            s(&f["FORN_FANTASIA"]),
            digits(&f["FORN_CGC"]),
            s(&f["FORN_IE"]),
        ),
        (
            "Empresa Lucro Presumido Ltda".to_string(),
            "Empresa Lucro Presumido".to_string(),
            "81583054000129".to_string(),
            "078016350838".to_string(),
        )
    );
    assert_eq!(
        (
            digits(&f["FORN_CEP"]),
            s(&f["FORN_ENDERECO"]),
            s(&f["FORN_NUMERO"]),
            s(&f["FORN_BAIRRO"]),
        ),
        (
            "01311000".to_string(),
            "Avenida Paulista".to_string(),
            "1".to_string(),
            "Bela Vista".to_string()
        )
    );
    assert_eq!(
        (
            f["FORN_CID_IBGE"].as_i64(),
            s(&f["FORN_CIDADE"]),
            s(&f["FORN_UF"])
        ),
        (Some(3550308), "São Paulo".to_string(), "SP".to_string())
    );
    // A 12-digit phone does not fit the register's mobile numbers: kept in the notes.
    assert_eq!(f["FORN_FONE"], Value::Null);
    assert_eq!(
        s(&f["FORN_OBS"]),
        "Cadastrado pela importação da NF-e 35200159594315000157550010000000022062777169. Telefone: 551199999999."
    );
    assert_eq!(suppliers_in_catalog(&db, c).await, 1);

    // The next NF-e of the same CNPJ finds it in orders' copy: nothing new.
    let out = import_with(&db, c, &peers, FIXTURES[1]).await;
    assert_eq!(out["compra"]["COMP_FORN_ID"].as_i64(), Some(id));
    assert!(
        !warnings(&out).iter().any(|w| w.starts_with("Fornecedor")),
        "{:?}",
        warnings(&out)
    );
    assert_eq!(suppliers_in_catalog(&db, c).await, 1);

    // Orders' copy lost it (its event not there yet): catalog refuses the CNPJ
    // again and the import takes the one catalog has.
    let mut tx = db.begin_tenant(c).await.expect("tx");
    sqlx::query("DELETE FROM orders.fornecedores WHERE client_id = $1")
        .bind(c)
        .execute(&mut *tx)
        .await
        .expect("forget the copy");
    tx.commit().await.expect("commit");
    let out = import_with(&db, c, &peers, FIXTURES[2]).await;
    assert_eq!(
        out["compra"]["COMP_FORN_ID"].as_i64(),
        Some(id),
        "{:?}",
        warnings(&out)
    );
    assert!(
        warnings(&out).contains(&format!(
            "Fornecedor Empresa Lucro Presumido Ltda (CPF/CNPJ 81.583.054/0001-29) já estava no cadastro (código {id})."
        )),
        "{:?}",
        warnings(&out)
    );
    assert_eq!(suppliers_in_catalog(&db, c).await, 1);
}
