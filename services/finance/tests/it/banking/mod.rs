//! Banking over the real database: bank slips (100 generated at once on one
//! account get 100 distinct 'nosso número'; barcode, linha digitável and Pix read
//! back to the title's amount and due date), the CNAB remittance re-parsed to the
//! slips it was made of, a return file that settles exactly its title (and
//! nothing the second time), the OFX statement imported once with its accents,
//! the reconciliation suggestion of that settlement confirmed and undone,
//! transfers, period balances, the daily closing, the accounting export, and
//! another tenant seeing none of it.
//!
//! Layout: `slips` (generation under concurrency, the PDF, changes and refusals),
//! `files` (remittance, return and the reconciliation of what they settled),
//! `returns400` (real Itaú and Bradesco CNAB 400 returns settling exactly their
//! paid titles, once), `cash` (transfers, balances, the daily closing, the
//! accounting export, a 10,000-line statement).

mod cash;
mod files;
mod returns400;
mod slips;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use chrono::NaiveDate;
use erp_platform::db::Db;
use serde_json::{json, Value};

use crate::create;

pub(crate) fn data_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("erp-finance-banking-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("data dir");
    dir
}

/// Runs declared call `action` of register `name` with uploads under `data_dir`.
pub(crate) async fn call(
    db: &Db,
    dir: &Path,
    c: i64,
    name: &str,
    action: &str,
    params: &[(&str, &str)],
    body: Value,
) -> erp_platform::Result<Value> {
    let reg = erp_finance::resources::registry_in(dir).expect("registry");
    let res = reg.get(name).expect("register").clone();
    let a = res
        .actions
        .iter()
        .find(|a| a.name == action)
        .expect("action declared")
        .clone();
    let params: HashMap<String, String> = params
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let mut tx = db.begin_tenant(c).await?;
    let out = a
        .run(&mut tx, &res, &crate::caller(c), Some(1), &params, body)
        .await?;
    tx.commit().await?;
    Ok(out)
}

/// Stores `bytes` where the gateway keeps client `c`'s uploads of company 1 and
/// answers the body an upload call receives.
pub(crate) fn upload(dir: &Path, c: i64, name: &str, bytes: &[u8], bank: i64) -> Value {
    let folder = dir.join("uploads").join(c.to_string()).join("1");
    std::fs::create_dir_all(&folder).expect("uploads");
    let stored = format!("{}-{name}", uuid_like());
    std::fs::write(folder.join(&stored), bytes).expect("write upload");
    json!({"arquivo": {"nome": stored, "original": name}, "BCO_ID": bank.to_string()})
}

fn uuid_like() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    format!("u{}", N.fetch_add(1, Ordering::Relaxed))
}

/// A Santander (033) account with CNAB 240, a Pix key, 2% fine and 1% a month.
pub(crate) async fn santander(db: &Db, c: i64) -> i64 {
    create(
        db,
        c,
        "banco",
        json!({"BCO_DESCRICAO": "SANTANDER COBRANÇA", "BCO_COMPE": "033", "BCO_AGENCIA": "3214",
               "BCO_CONTA": "13000123", "BCO_CONTA_DV": "4", "BCO_CARTEIRA": "101",
               "BCO_COD_BENEFICIARIO": "7070777", "BCO_CONVENIO": "321400000130001", "BCO_LAYOUT_CNAB": "240",
               "BCO_TIPO_CHAVE_PIX": "CNPJ", "BCO_CHAVE_PIX": "11444777000161",
               "BCO_PERC_MULTA": "2", "BCO_PERC_JUROS": "1", "BCO_SALDO_INICIAL": "0"}),
    )
    .await
    .expect("account")["BCO_ID"]
        .as_i64()
        .expect("BCO_ID")
}

/// Finance's copies of the company and of customer `id` (what catalog's and
/// identity's facts would have written).
pub(crate) async fn copies(db: &Db, c: i64, customer: i64) {
    let mut tx = db.begin_tenant(c).await.expect("tx");
    sqlx::query(
        "INSERT INTO finance.empresas (client_id, emp_id, descricao, documento, endereco, numero, bairro, cidade, uf, cep)
         VALUES ($1, 1, 'OFICINA MODELO LTDA', '11444777000161', 'Rua Sinimbu', '1234', 'Centro', 'Caxias do Sul', 'RS', '95020002')
         ON CONFLICT DO NOTHING",
    )
    .bind(c)
    .execute(&mut *tx)
    .await
    .expect("company");
    sqlx::query(
        "INSERT INTO finance.clientes (client_id, emp_id, cli_id, descricao, documento, endereco, numero, bairro, cep,
             cidade, uf, copiado)
         VALUES ($1, 1, $2, 'TRANSPORTES SÃO JOÃO LTDA', '11222333000181', 'Avenida Paulista', '1000', 'Bela Vista',
                 '01310100', 'São Paulo', 'SP', true)
         ON CONFLICT (client_id, emp_id, cli_id) DO UPDATE SET descricao = EXCLUDED.descricao,
             documento = EXCLUDED.documento, endereco = EXCLUDED.endereco, numero = EXCLUDED.numero,
             bairro = EXCLUDED.bairro, cep = EXCLUDED.cep, cidade = EXCLUDED.cidade, uf = EXCLUDED.uf, copiado = true",
    )
    .bind(c)
    .bind(customer)
    .execute(&mut *tx)
    .await
    .expect("customer");
    tx.commit().await.expect("commit");
}

pub(crate) async fn receivable(db: &Db, c: i64, customer: i64, due: &str, value: &str) -> i64 {
    create(
        db,
        c,
        "contasreceber",
        json!({"CRCB_CLI_ID": customer, "CLI_DESCRICAO": "TRANSPORTES SÃO JOÃO LTDA", "CRCB_DOCUMENTO": "NF 501",
               "CRCB_DTA_EMIS": "2026-11-20", "CRCB_DTA_VCTO": due, "CRCB_VLR_CTA": value}),
    )
    .await
    .expect("receivable")["CRCB_ID"]
        .as_i64()
        .expect("CRCB_ID")
}

pub(crate) fn date(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").expect("date")
}
