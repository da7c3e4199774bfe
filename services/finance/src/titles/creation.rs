//! Titles made from other services' facts (an invoiced order's instalments, a
//! finalized purchase's) or by a call: their rows, numbered under the company's
//! counter, and the references another service sent that finance checks it knows.

use chrono::NaiveDate;
use erp_platform::db::Tx;
use erp_platform::Result;
use rust_decimal::Decimal;

use super::Side;
use crate::bank;

/// A title made from a document (or a manual one made by a call).
#[derive(Clone, Debug)]
pub struct NewTitle {
    pub person: i64,
    pub person_name: Option<String>,
    pub document: Option<String>,
    pub origin: &'static str,
    pub origin_id: Option<i64>,
    pub origin_serie: Option<String>,
    pub seq: i32,
    pub count: i32,
    pub issued: NaiveDate,
    pub due: NaiveDate,
    pub value: Decimal,
    pub surcharge: Decimal,
    pub method: Option<i64>,
    pub bank: Option<i64>,
    pub centre: Option<i64>,
    pub remarks: Option<String>,
    pub user: i64,
}

/// Writes titles of one company; returns their ids. The origin document's row
/// keeps the sum of their values (the changes of a title keep it).
pub async fn insert(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    side: Side,
    titles: &[NewTitle],
) -> Result<Vec<i64>> {
    if titles.is_empty() {
        return Ok(Vec::new());
    }
    let table = side.table();
    let first = bank::next_ids(
        tx,
        client,
        emp,
        table,
        "tit_id",
        "tit_emp_id",
        titles.len() as i64,
    )
    .await?;
    let sql = format!(
        "INSERT INTO finance.{table} (client_id, tit_emp_id, tit_id, tit_pessoa_id, tit_pessoa_nome, tit_documento,
             tit_origem, tit_origem_id, tit_origem_serie, tit_parcela, tit_parcelas, tit_dta_emis, tit_dta_vcto,
             tit_valor, tit_acrescimo, tit_frmp_id, tit_bco_id, tit_hisp_id, tit_obs, tit_usr_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)"
    );
    let mut ids = Vec::with_capacity(titles.len());
    for (i, t) in titles.iter().enumerate() {
        let id = first + i as i64;
        sqlx::query(&sql)
            .bind(client)
            .bind(emp)
            .bind(id)
            .bind(t.person)
            .bind(&t.person_name)
            .bind(&t.document)
            .bind(t.origin)
            .bind(t.origin_id)
            .bind(&t.origin_serie)
            .bind(t.seq)
            .bind(t.count)
            .bind(t.issued)
            .bind(t.due)
            .bind(t.value)
            .bind(t.surcharge)
            .bind(t.method)
            .bind(t.bank)
            .bind(t.centre)
            .bind(&t.remarks)
            .bind((t.user > 0).then_some(t.user))
            .execute(&mut **tx)
            .await?;
        ids.push(id);
    }
    let user = titles.first().map(|t| t.user).unwrap_or(0);
    crate::facts::titles(tx, client, emp, side.code(), &ids, "criado", 0, user).await?;
    Ok(ids)
}

/// `bank` when the company has that account, else none (an id another service
/// sent that finance does not know is left out, logged).
pub async fn known_account(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    bank: Option<i64>,
) -> Result<Option<i64>> {
    known(tx, client, emp, bank, Known::Account).await
}

/// `centre` when the company has that cost centre, else none (logged).
pub async fn known_centre(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    centre: Option<i64>,
) -> Result<Option<i64>> {
    known(tx, client, emp, centre, Known::Centre).await
}

/// `method` when the client has that payment method (methods are per client),
/// else none (logged).
pub async fn known_method(tx: &mut Tx, client: i64, method: Option<i64>) -> Result<Option<i64>> {
    let Some(id) = method else { return Ok(None) };
    let found: Option<i64> = sqlx::query_scalar(
        "SELECT frmp_id FROM finance.formapagamento WHERE client_id = $1 AND frmp_id = $2",
    )
    .bind(client)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?;
    if found.is_none() {
        tracing::warn!(client, id, "unknown payment method left out of the title");
    }
    Ok(found)
}

#[derive(Clone, Copy)]
enum Known {
    Account,
    Centre,
}

async fn known(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    id: Option<i64>,
    what: Known,
) -> Result<Option<i64>> {
    let Some(id) = id else { return Ok(None) };
    let (sql, name) = match what {
        Known::Account => (
            "SELECT bco_id FROM finance.banco WHERE client_id = $1 AND bco_emp_id = $2 AND bco_id = $3",
            "bank account",
        ),
        Known::Centre => (
            "SELECT hisp_id FROM finance.historicopadrao WHERE client_id = $1 AND hisp_emp_id = $2 AND hisp_id = $3",
            "cost centre",
        ),
    };
    let found: Option<i64> = sqlx::query_scalar(sql)
        .bind(client)
        .bind(emp)
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?;
    if found.is_none() {
        tracing::warn!(client, emp, id, "unknown {name} left out of the title");
    }
    Ok(found)
}
