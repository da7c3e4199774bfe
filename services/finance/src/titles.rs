//! Titles over the database: the financial parameters, titles made from other
//! services' documents, settlement (baixa), its reversal (estorno), offsets
//! against a supplier's advance and the cancellation of a document's titles. The registers (`resources::titles`) and the
//! consumers (`events`) call these; the arithmetic is in `instalments` and
//! `charges`.
//!
//! Settlement, in one transaction: the titles are locked in key order
//! (`FOR UPDATE`), each checked against what is left of it now (a second settlement
//! of the same title waits for the first and then sees the balance it left: never
//! more than the balance is taken, and the second is refused with a pt-BR message;
//! the database also refuses a title paid beyond its value), the settlement and
//! movement ids reserved, the settlement rows written, the titles' paid value and
//! charges moved, then one bank movement written per settlement that moved money
//! under the account's lock (a receivable's is a credit, a payable's a debit; a
//! settlement by discount alone moves none). A list of titles is settled all or
//! nothing. Interest and fine not given are computed from the parameters
//! (`charges`) on the settlement date for the part settled. Locks are always taken
//! titles first, customers' balance rows next (several customers' receivables:
//! in key order, `credit::lock_customers`), id counters next, accounts last (see
//! `bank`).
//!
//! Reversal: the title (and the advance an offset took from), then the settlement
//! row, then the account are locked; the settlement is marked reversed (it stays),
//! the title gets back what it took, and the settlement's movement is undone by an
//! opposite movement dated the day of the reversal (origin `ESTORNO`), so the
//! account's history shows both.
//!
//! Advances (`tit_adiantamento` payables): [`offset`] settles payables of the
//! advance's supplier with what the advance paid and was not offset yet, at face
//! value, in settlements that name the advance (`baix_adto_id`) and move no money
//! (it left the account when the advance was paid, from the account those
//! settlements record); the advance's `tit_compensado` grows by what they took.
//! Reversing one gives it back; reversing the advance's own payment is refused
//! while what it would leave paid is less than what was offset from it (the
//! database's `contaspagar_compensado_check`).
//!
//! Facts: every settlement, offset and reversal writes `erp.finance.titulo.situacao`
//! (`TituloSituacao`: the title's origin document, instalment, worth, paid,
//! balance, status) through finance's outbox, in its transaction: a refused
//! settlement writes none.

use std::collections::{BTreeMap, HashSet};

use chrono::NaiveDate;
use erp_platform::db::Tx;
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use serde_json::{json, Value};

use crate::bank::{self, Direction, Movement};
use crate::charges::{late_charges, LateCharges, LateRules};
use crate::instalments::Terms;

/// Which titles: receivables (`contasreceber`, settled into an account) or payables
/// (`contaspagar`, paid from one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Receivable,
    Payable,
}

impl Side {
    pub fn table(self) -> &'static str {
        match self {
            Side::Receivable => "contasreceber",
            Side::Payable => "contaspagar",
        }
    }

    /// `baixas.baix_tipo`.
    pub fn code(self) -> &'static str {
        match self {
            Side::Receivable => "R",
            Side::Payable => "P",
        }
    }

    /// The title's key field (`CRCB_ID`, `CMPD_ID`).
    pub fn key(self) -> &'static str {
        match self {
            Side::Receivable => "CRCB_ID",
            Side::Payable => "CMPD_ID",
        }
    }

    /// How a settlement moves the account.
    pub fn direction(self) -> Direction {
        match self {
            Side::Receivable => Direction::Credit,
            Side::Payable => Direction::Debit,
        }
    }

    fn verb(self) -> &'static str {
        match self {
            Side::Receivable => "Recebimento",
            Side::Payable => "Pagamento",
        }
    }
}

/// The company's financial parameters (`parametrosfinanceiro`); all empty when the
/// company has none.
#[derive(Clone, Debug, Default)]
pub struct Parameters {
    pub late: LateRules,
    pub bank_receivable: Option<i64>,
    pub bank_payable: Option<i64>,
    pub method: Option<i64>,
    pub centre_receivable: Option<i64>,
    pub centre_payable: Option<i64>,
    pub condition: Option<i64>,
    pub due_condition: Option<i64>,
}

impl Parameters {
    pub fn bank(&self, side: Side) -> Option<i64> {
        match side {
            Side::Receivable => self.bank_receivable,
            Side::Payable => self.bank_payable,
        }
    }

    pub fn centre(&self, side: Side) -> Option<i64> {
        match side {
            Side::Receivable => self.centre_receivable,
            Side::Payable => self.centre_payable,
        }
    }
}

type ParamRow = (
    Decimal,
    Decimal,
    i32,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
);

pub async fn parameters(tx: &mut Tx, client: i64, emp: i64) -> Result<Parameters> {
    let row: Option<ParamRow> = sqlx::query_as(
        "SELECT parf_perc_juros_dia, parf_perc_multa, parf_dias_carencia, parf_bco_id_receber,
                parf_bco_id_pagar, parf_frmp_id, parf_hisp_id_receber, parf_hisp_id_pagar,
                parf_cndp_id, parf_cndv_id
         FROM finance.parametrosfinanceiro WHERE client_id = $1 AND parf_emp_id = $2",
    )
    .bind(client)
    .bind(emp)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(match row {
        None => Parameters::default(),
        Some(r) => Parameters {
            late: LateRules { daily_interest_pct: r.0, fine_pct: r.1, grace_days: i64::from(r.2) },
            bank_receivable: r.3,
            bank_payable: r.4,
            method: r.5,
            centre_receivable: r.6,
            centre_payable: r.7,
            condition: r.8,
            due_condition: r.9,
        },
    })
}

/// The terms of a payment condition or a due-date condition of the company (the
/// due-date condition wins when both are given); one instalment on the issue date
/// when neither is. Also answers the condition's payment method.
pub async fn terms(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    condition: Option<i64>,
    due_condition: Option<i64>,
) -> Result<(Terms, Option<i64>)> {
    if let Some(cndv) = due_condition {
        let days: Vec<(i32, i32)> = sqlx::query_as(
            "SELECT id_dias, id_mes FROM finance.condicaovencimentodias
             WHERE client_id = $1 AND cndv_emp_id = $2 AND cndv_id = $3 ORDER BY id_mes, id_dias",
        )
        .bind(client)
        .bind(emp)
        .bind(cndv)
        .fetch_all(&mut **tx)
        .await?;
        if days.is_empty() {
            return Err(Error::validation(format!(
                "Condição de vencimento {cndv} não encontrada ou sem dias de vencimento."
            )));
        }
        let entries = days
            .into_iter()
            .map(|(d, m)| (d.max(1) as u32, m.max(0) as u32))
            .collect();
        return Ok((Terms::DueDays(entries), None));
    }
    if let Some(cndp) = condition {
        let row: Option<(i32, i32, i32, Decimal, Option<i64>)> = sqlx::query_as(
            "SELECT cndp_parcelas, cndp_dias_primeira, cndp_intervalo, cndp_perc_entrada, cndp_frmp_id
             FROM finance.condicaopagamento WHERE client_id = $1 AND cndp_emp_id = $2 AND cndp_id = $3",
        )
        .bind(client)
        .bind(emp)
        .bind(cndp)
        .fetch_optional(&mut **tx)
        .await?;
        let (n, first, interval, entry, method) = row.ok_or_else(|| {
            Error::validation(format!("Condição de pagamento {cndp} não encontrada."))
        })?;
        return Ok((
            Terms::Condition {
                instalments: n.max(1) as u32,
                first_days: i64::from(first),
                interval_days: i64::from(interval),
                entry_pct: entry,
            },
            method,
        ));
    }
    Ok((Terms::Single { days: 0 }, None))
}

/// Today in Brasília (dates of settlements and reversals).
pub async fn today(tx: &mut Tx) -> Result<NaiveDate> {
    Ok(
        sqlx::query_scalar("SELECT (now() AT TIME ZONE 'America/Sao_Paulo')::date")
            .fetch_one(&mut **tx)
            .await?,
    )
}

// ---------------------------------------------------------------- origin documents

/// What a fact about an origin document finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// First fact about it: make its titles now.
    New,
    /// Its titles were made already (another event about the same document).
    Made,
    /// It was cancelled before its titles were made: make none.
    Cancelled,
}

/// An origin document: company, origin (`PEDIDO`, `COMPRA`), id, serie ('' when the
/// document has none).
#[derive(Clone, Debug)]
pub struct Origin<'a> {
    pub emp: i64,
    pub kind: &'a str,
    pub id: i64,
    pub serie: &'a str,
}

/// Claims `doc` for its titles (the row is then held until the transaction ends).
pub async fn claim(tx: &mut Tx, client: i64, doc: &Origin<'_>) -> Result<Claim> {
    let inserted: Option<i64> = sqlx::query_scalar(
        "INSERT INTO finance.documentos (client_id, doc_emp_id, doc_origem, doc_id, doc_serie, doc_situacao)
         VALUES ($1, $2, $3, $4, $5, 'F') ON CONFLICT DO NOTHING RETURNING doc_id",
    )
    .bind(client)
    .bind(doc.emp)
    .bind(doc.kind)
    .bind(doc.id)
    .bind(doc.serie)
    .fetch_optional(&mut **tx)
    .await?;
    if inserted.is_some() {
        return Ok(Claim::New);
    }
    let state: String = sqlx::query_scalar(
        "SELECT doc_situacao::text FROM finance.documentos
         WHERE client_id = $1 AND doc_emp_id = $2 AND doc_origem = $3 AND doc_id = $4 AND doc_serie = $5
         FOR UPDATE",
    )
    .bind(client)
    .bind(doc.emp)
    .bind(doc.kind)
    .bind(doc.id)
    .bind(doc.serie)
    .fetch_one(&mut **tx)
    .await?;
    Ok(if state == "C" {
        Claim::Cancelled
    } else {
        Claim::Made
    })
}

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

/// Records on the origin document what its titles add up to and how many there are.
pub async fn set_document_total(
    tx: &mut Tx,
    client: i64,
    doc: &Origin<'_>,
    total: Decimal,
    count: i32,
) -> Result<()> {
    sqlx::query(
        "UPDATE finance.documentos SET doc_total = $6, doc_parcelas = $7
         WHERE client_id = $1 AND doc_emp_id = $2 AND doc_origem = $3 AND doc_id = $4 AND doc_serie = $5",
    )
    .bind(client)
    .bind(doc.emp)
    .bind(doc.kind)
    .bind(doc.id)
    .bind(doc.serie)
    .bind(total)
    .bind(count)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

fn origin_name(kind: &str) -> &'static str {
    match kind {
        "PEDIDO" => "O pedido",
        "COMPRA" => "A compra",
        "ORDEMSERVICO" => "A ordem de serviço",
        _ => "O documento",
    }
}

/// Locks the titles of an origin document (key order); refuses when one of them was
/// settled (paid in part or in full): `action` says what was refused.
async fn lock_unsettled(
    tx: &mut Tx,
    client: i64,
    side: Side,
    doc: &Origin<'_>,
    action: &str,
) -> Result<Vec<(i64, bool)>> {
    let sql = format!(
        "SELECT tit_id, tit_pago, tit_cancelado FROM finance.{} WHERE client_id = $1 AND tit_emp_id = $2
           AND tit_origem = $3 AND tit_origem_id = $4 AND tit_origem_serie = $5
         ORDER BY tit_id FOR UPDATE",
        side.table()
    );
    let rows: Vec<(i64, Decimal, bool)> = sqlx::query_as(&sql)
        .bind(client)
        .bind(doc.emp)
        .bind(doc.kind)
        .bind(doc.id)
        .bind(doc.serie)
        .fetch_all(&mut **tx)
        .await?;
    let settled: Vec<String> = rows
        .iter()
        .filter(|(_, paid, _)| *paid > Decimal::ZERO)
        .map(|(id, _, _)| id.to_string())
        .collect();
    if !settled.is_empty() {
        return Err(Error::Conflict(format!(
            "{} {} tem parcela paga (título {}): estorne a baixa antes de {action}.",
            origin_name(doc.kind),
            doc.id,
            settled.join(", ")
        )));
    }
    Ok(rows.into_iter().map(|(id, _, c)| (id, c)).collect())
}

/// Cancels the open titles of an origin document (a cancelled purchase), refusing
/// for good when one was settled. A cancellation that comes before the document's
/// titles records it, so they are never made. Returns how many were cancelled.
pub async fn cancel_document(
    tx: &mut Tx,
    client: i64,
    side: Side,
    doc: &Origin<'_>,
) -> Result<u64> {
    let first: Option<i64> = sqlx::query_scalar(
        "INSERT INTO finance.documentos (client_id, doc_emp_id, doc_origem, doc_id, doc_serie, doc_situacao, doc_cancelado)
         VALUES ($1, $2, $3, $4, $5, 'C', now()) ON CONFLICT DO NOTHING RETURNING doc_id",
    )
    .bind(client)
    .bind(doc.emp)
    .bind(doc.kind)
    .bind(doc.id)
    .bind(doc.serie)
    .fetch_optional(&mut **tx)
    .await?;
    if first.is_some() {
        tracing::warn!(
            client,
            emp = doc.emp,
            origin = doc.kind,
            id = doc.id,
            "cancellation before the document's titles: none will be made"
        );
        return Ok(0);
    }
    sqlx::query(
        "SELECT doc_id FROM finance.documentos
         WHERE client_id = $1 AND doc_emp_id = $2 AND doc_origem = $3 AND doc_id = $4 AND doc_serie = $5 FOR UPDATE",
    )
    .bind(client)
    .bind(doc.emp)
    .bind(doc.kind)
    .bind(doc.id)
    .bind(doc.serie)
    .fetch_one(&mut **tx)
    .await?;
    lock_unsettled(tx, client, side, doc, "cancelar").await?;
    let sql = format!(
        "UPDATE finance.{} SET tit_cancelado = true WHERE client_id = $1 AND tit_emp_id = $2
           AND tit_origem = $3 AND tit_origem_id = $4 AND tit_origem_serie = $5 AND NOT tit_cancelado
         RETURNING tit_id",
        side.table()
    );
    let cancelled: Vec<i64> = sqlx::query_scalar(&sql)
        .bind(client)
        .bind(doc.emp)
        .bind(doc.kind)
        .bind(doc.id)
        .bind(doc.serie)
        .fetch_all(&mut **tx)
        .await?;
    let n = cancelled.len() as u64;
    crate::facts::titles(
        tx,
        client,
        doc.emp,
        side.code(),
        &cancelled,
        "cancelado",
        0,
        0,
    )
    .await?;
    sqlx::query(
        "UPDATE finance.documentos SET doc_situacao = 'C', doc_cancelado = now()
         WHERE client_id = $1 AND doc_emp_id = $2 AND doc_origem = $3 AND doc_id = $4 AND doc_serie = $5",
    )
    .bind(client)
    .bind(doc.emp)
    .bind(doc.kind)
    .bind(doc.id)
    .bind(doc.serie)
    .execute(&mut **tx)
    .await?;
    Ok(n)
}

/// Removes the instalments of an origin document none of which was settled ever
/// (`DELETE /contasreceberparcelaspedidos`), so invoicing the document again makes
/// them anew. Returns how many were removed.
pub async fn remove_document(
    tx: &mut Tx,
    client: i64,
    side: Side,
    doc: &Origin<'_>,
) -> Result<u64> {
    sqlx::query(
        "SELECT doc_id FROM finance.documentos
         WHERE client_id = $1 AND doc_emp_id = $2 AND doc_origem = $3 AND doc_id = $4 AND doc_serie = $5 FOR UPDATE",
    )
    .bind(client)
    .bind(doc.emp)
    .bind(doc.kind)
    .bind(doc.id)
    .bind(doc.serie)
    .fetch_optional(&mut **tx)
    .await?;
    let titles = lock_unsettled(tx, client, side, doc, "excluir as parcelas").await?;
    let ids: Vec<i64> = titles.iter().map(|(id, _)| *id).collect();
    let reversed: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM finance.baixas WHERE client_id = $1 AND baix_emp_id = $2 AND baix_tipo = $3
           AND baix_tit_id = ANY($4)",
    )
    .bind(client)
    .bind(doc.emp)
    .bind(side.code())
    .bind(&ids)
    .fetch_one(&mut **tx)
    .await?;
    if reversed > 0 {
        return Err(Error::Conflict(format!(
            "{} {} tem parcela com baixa estornada: as parcelas não podem ser excluídas.",
            origin_name(doc.kind),
            doc.id
        )));
    }
    let sql = format!(
        "DELETE FROM finance.{} WHERE client_id = $1 AND tit_emp_id = $2 AND tit_id = ANY($3)",
        side.table()
    );
    let n = sqlx::query(&sql)
        .bind(client)
        .bind(doc.emp)
        .bind(&ids)
        .execute(&mut **tx)
        .await?
        .rows_affected();
    for id in &ids {
        crate::facts::title_removed(tx, client, doc.emp, side.code(), *id, 0).await?;
    }
    sqlx::query(
        "DELETE FROM finance.documentos
         WHERE client_id = $1 AND doc_emp_id = $2 AND doc_origem = $3 AND doc_id = $4 AND doc_serie = $5",
    )
    .bind(client)
    .bind(doc.emp)
    .bind(doc.kind)
    .bind(doc.id)
    .bind(doc.serie)
    .execute(&mut **tx)
    .await?;
    Ok(n)
}

// ---------------------------------------------------------------- settlement

/// A title as a settlement sees it.
#[derive(Clone, Debug)]
pub struct Title {
    pub id: i64,
    /// The customer or supplier.
    pub person: i64,
    pub person_name: Option<String>,
    pub document: Option<String>,
    pub seq: i32,
    pub count: i32,
    pub issued: NaiveDate,
    pub due: NaiveDate,
    /// What the title is worth: value plus surcharge.
    pub worth: Decimal,
    pub balance: Decimal,
    pub cancelled: bool,
    pub status: String,
    pub method: Option<i64>,
    pub bank: Option<i64>,
    pub centre: Option<i64>,
    /// `MANUAL`, `PEDIDO`, `COMPRA`, `ORDEMSERVICO`.
    pub origin: String,
    pub origin_id: Option<i64>,
    pub origin_serie: Option<String>,
    /// An advance to a supplier (payables only).
    pub advance: bool,
}

/// Reads titles of a company, locked (`FOR UPDATE`, in key order) when `lock`.
pub async fn load(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    side: Side,
    ids: &[i64],
    lock: bool,
) -> Result<BTreeMap<i64, Title>> {
    let advance = match side {
        Side::Receivable => "false",
        Side::Payable => "tit_adiantamento",
    };
    let sql = format!(
        "SELECT tit_id, tit_pessoa_id, tit_pessoa_nome, tit_documento, tit_parcela, tit_parcelas, tit_dta_emis,
                tit_dta_vcto, tit_valor + tit_acrescimo, tit_saldo, tit_cancelado, tit_situacao, tit_frmp_id,
                tit_bco_id, tit_hisp_id, tit_origem, tit_origem_id, tit_origem_serie, {advance}
         FROM finance.{} WHERE client_id = $1 AND tit_emp_id = $2 AND tit_id = ANY($3)
         ORDER BY tit_id{}",
        side.table(),
        if lock { " FOR UPDATE" } else { "" }
    );
    let rows: Vec<sqlx::postgres::PgRow> = sqlx::query(&sql)
        .bind(client)
        .bind(emp)
        .bind(ids)
        .fetch_all(&mut **tx)
        .await?;
    let mut found = BTreeMap::new();
    for r in rows {
        let t = title_of(&r)?;
        found.insert(t.id, t);
    }
    if let Some(missing) = ids.iter().find(|id| !found.contains_key(id)) {
        return Err(Error::NotFound(format!("Título {missing} não encontrado.")));
    }
    Ok(found)
}

fn title_of(r: &sqlx::postgres::PgRow) -> Result<Title> {
    use sqlx::Row;
    Ok(Title {
        id: r.try_get(0)?,
        person: r.try_get(1)?,
        person_name: r.try_get(2)?,
        document: r.try_get(3)?,
        seq: r.try_get(4)?,
        count: r.try_get(5)?,
        issued: r.try_get(6)?,
        due: r.try_get(7)?,
        worth: r.try_get(8)?,
        balance: r.try_get(9)?,
        cancelled: r.try_get(10)?,
        status: r.try_get(11)?,
        method: r.try_get(12)?,
        bank: r.try_get(13)?,
        centre: r.try_get(14)?,
        origin: r.try_get(15)?,
        origin_id: r.try_get(16)?,
        origin_serie: r.try_get(17)?,
        advance: r.try_get(18)?,
    })
}

/// Whether a title can be settled now: the message that refuses it, if any.
pub fn refusal(t: &Title) -> Option<String> {
    if t.cancelled {
        Some(format!(
            "Título {} está cancelado e não pode ser baixado.",
            t.id
        ))
    } else if t.balance <= Decimal::ZERO {
        Some(format!("Título {} já está pago.", t.id))
    } else {
        None
    }
}

/// One title of a settlement: how much of it (the whole balance when not given),
/// the charges (computed when not given) and the discount.
#[derive(Clone, Debug, Default)]
pub struct SettleItem {
    pub id: i64,
    pub value: Option<Decimal>,
    pub interest: Option<Decimal>,
    pub fine: Option<Decimal>,
    pub discount: Decimal,
}

/// A settlement of one or more titles of a company.
#[derive(Clone, Debug)]
pub struct Settlement {
    pub date: NaiveDate,
    pub bank: Option<i64>,
    pub method: Option<i64>,
    pub remarks: Option<String>,
    pub items: Vec<SettleItem>,
    pub user: i64,
}

/// What one title's settlement did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settled {
    pub settlement: i64,
    pub title: i64,
    pub value: Decimal,
    pub interest: Decimal,
    pub fine: Decimal,
    pub discount: Decimal,
    pub total: Decimal,
    pub movement: Option<i64>,
    pub balance: Decimal,
}

/// The charges of settling `value` of `t` on `date`.
pub fn charges_of(t: &Title, value: Decimal, date: NaiveDate, p: &Parameters) -> LateCharges {
    late_charges(value, t.due, date, &p.late)
}

/// Money as pt-BR text (`R$ 1.234,56`), for messages.
pub fn brl(d: Decimal) -> String {
    let d = crate::charges::money(d);
    let s = format!("{:.2}", d.abs());
    let (int, frac) = s.split_once('.').unwrap_or((s.as_str(), "00"));
    let mut grouped = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            grouped.push('.');
        }
        grouped.push(c);
    }
    let sign = if d < Decimal::ZERO { "-" } else { "" };
    format!("{sign}R$ {grouped},{frac}")
}

fn history(side: Side, t: &Title) -> String {
    let mut h = format!(
        "{} {}",
        side.verb(),
        t.person_name.as_deref().unwrap_or("").trim()
    );
    if let Some(doc) = t.document.as_deref().filter(|d| !d.trim().is_empty()) {
        h.push_str(&format!(" - Doc. {}", doc.trim()));
    }
    h.push_str(&format!(" - Parcela {}/{}", t.seq, t.count));
    h.trim().to_string()
}

/// What a title's settlements add up to after a change: paid, balance, status.
pub type Standing = (Decimal, Decimal, String);

/// `erp.finance.titulo.situacao` of title `t` after settlement `settlement`
/// changed (`change`: "baixa" or "estorno"), in the transaction of the change.
#[allow(clippy::too_many_arguments)]
async fn publish_standing(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    side: Side,
    t: &Title,
    settlement: i64,
    change: &str,
    user: i64,
) -> Result<()> {
    crate::facts::titles(
        tx,
        client,
        emp,
        side.code(),
        &[t.id],
        change,
        settlement,
        user,
    )
    .await
}

/// Settles titles (all or nothing): see the module's doc.
pub async fn settle(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    side: Side,
    s: &Settlement,
) -> Result<Vec<Settled>> {
    if s.items.is_empty() {
        return Err(Error::validation("Informe os títulos a baixar."));
    }
    let mut seen = HashSet::new();
    if let Some(dup) = s.items.iter().find(|i| !seen.insert(i.id)) {
        return Err(Error::validation(format!(
            "Título {} informado mais de uma vez.",
            dup.id
        )));
    }
    let params = parameters(tx, client, emp).await?;
    let ids: Vec<i64> = s.items.iter().map(|i| i.id).collect();
    let titles = load(tx, client, emp, side, &ids, true).await?;
    if side == Side::Receivable {
        let people: Vec<i64> = titles.values().map(|t| t.person).collect();
        crate::credit::lock_customers(tx, client, emp, &people).await?;
    }
    let account = s.bank.or_else(|| params.bank(side)).ok_or_else(|| {
        Error::validation(
            "Informe a conta bancária da baixa (ou a conta padrão nos parâmetros financeiros).",
        )
    })?;
    // Every title checked before anything is written.
    let mut plan = Vec::with_capacity(s.items.len());
    for item in &s.items {
        let t = titles
            .get(&item.id)
            .ok_or_else(|| Error::NotFound(format!("Título {} não encontrado.", item.id)))?;
        if let Some(why) = refusal(t) {
            return Err(Error::Conflict(why));
        }
        let value = item.value.unwrap_or(t.balance);
        if value <= Decimal::ZERO {
            return Err(Error::validation(format!(
                "Informe o valor da baixa do título {}.",
                t.id
            )));
        }
        if value > t.balance {
            return Err(Error::Conflict(format!(
                "Valor da baixa do título {} ({}) maior que o saldo ({}).",
                t.id,
                brl(value),
                brl(t.balance)
            )));
        }
        let due = charges_of(t, value, s.date, &params);
        let interest = item.interest.unwrap_or(due.interest);
        let fine = item.fine.unwrap_or(due.fine);
        if item.discount > value + interest + fine {
            return Err(Error::validation(format!(
                "O desconto do título {} não pode ser maior que o valor da baixa.",
                t.id
            )));
        }
        plan.push((t, value, interest, fine, item.discount));
    }
    let first = bank::next_ids(
        tx,
        client,
        emp,
        "baixas",
        "baix_id",
        "baix_emp_id",
        plan.len() as i64,
    )
    .await?;
    let moving = plan
        .iter()
        .filter(|(_, v, i, f, d)| *v + *i + *f - *d > Decimal::ZERO)
        .count() as i64;
    let mut movement_id = if moving > 0 {
        bank::reserve(tx, client, emp, moving).await?
    } else {
        0
    };
    let table = side.table();
    let mut done = Vec::with_capacity(plan.len());
    for (i, (t, value, interest, fine, discount)) in plan.iter().enumerate() {
        let id = first + i as i64;
        let method = s.method.or(t.method).or(params.method);
        sqlx::query(
            "INSERT INTO finance.baixas (client_id, baix_emp_id, baix_id, baix_tipo, baix_tit_id, baix_dta, baix_valor,
                 baix_juros, baix_multa, baix_desconto, baix_bco_id, baix_frmp_id, baix_obs, baix_usr_id)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
        )
        .bind(client)
        .bind(emp)
        .bind(id)
        .bind(side.code())
        .bind(t.id)
        .bind(s.date)
        .bind(value)
        .bind(interest)
        .bind(fine)
        .bind(discount)
        .bind(account)
        .bind(method)
        .bind(&s.remarks)
        .bind((s.user > 0).then_some(s.user))
        .execute(&mut **tx)
        .await
        .map_err(|e| {
            Error::from(e).on_constraint(&[
                ("baixas_banco_fkey", bank::UNKNOWN_ACCOUNT),
                ("baixas_forma_fkey", "Forma de pagamento não encontrada."),
            ])
        })?;
        let sql = format!(
            "UPDATE finance.{table} SET tit_pago = tit_pago + $4, tit_juros = tit_juros + $5,
                 tit_multa = tit_multa + $6, tit_desconto = tit_desconto + $7,
                 tit_dta_pag = greatest(coalesce(tit_dta_pag, $8), $8)
             WHERE client_id = $1 AND tit_emp_id = $2 AND tit_id = $3 RETURNING tit_pago, tit_saldo, tit_situacao"
        );
        let standing: Standing = sqlx::query_as(&sql)
            .bind(client)
            .bind(emp)
            .bind(t.id)
            .bind(value)
            .bind(interest)
            .bind(fine)
            .bind(discount)
            .bind(s.date)
            .fetch_one(&mut **tx)
            .await?;
        publish_standing(tx, client, emp, side, t, id, "baixa", s.user).await?;
        let balance = standing.1;
        done.push(Settled {
            settlement: id,
            title: t.id,
            value: *value,
            interest: *interest,
            fine: *fine,
            discount: *discount,
            total: *value + *interest + *fine - *discount,
            movement: None,
            balance,
        });
    }
    for (d, (t, ..)) in done.iter_mut().zip(&plan) {
        if d.total <= Decimal::ZERO {
            // Settled by discount alone: no money moved.
            continue;
        }
        let m = Movement {
            emp,
            bank: account,
            date: s.date,
            direction: side.direction(),
            value: d.total,
            history: history(side, t),
            document: t.document.clone(),
            cost_centre: t.centre.or(params.centre(side)),
            method: s.method.or(t.method).or(params.method),
            origin: "BAIXA",
            settlement: Some(d.settlement),
            user: s.user,
        };
        bank::record(tx, client, movement_id, &m).await?;
        d.movement = Some(movement_id);
        movement_id += 1;
    }
    Ok(done)
}

/// What a reversal did: the settlement, its title, the opposite movement (none
/// when the settlement moved no money) and the title's balance after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reversed {
    pub settlement: i64,
    pub title: i64,
    pub movement: Option<i64>,
    pub balance: Decimal,
    pub status: String,
}

type SettlementRow = (
    i64,
    Decimal,
    Decimal,
    Decimal,
    Decimal,
    Decimal,
    i64,
    Option<i64>,
    bool,
);

/// Reverses a settlement (estorno): see the module's doc. The reversal of an
/// offset gives the advance back what it took (no money moved, none moves back);
/// the reversal of an advance's own payment is refused while what it would leave
/// paid is less than what was already offset from it.
pub async fn reverse(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    side: Side,
    settlement: i64,
    user: i64,
) -> Result<Reversed> {
    let missing = || Error::NotFound(format!("Baixa {settlement} não encontrada."));
    let (title, advance): (i64, Option<i64>) = sqlx::query_as(
        "SELECT baix_tit_id, baix_adto_id FROM finance.baixas WHERE client_id = $1 AND baix_emp_id = $2
           AND baix_id = $3 AND baix_tipo = $4",
    )
    .bind(client)
    .bind(emp)
    .bind(settlement)
    .bind(side.code())
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(missing)?;
    // The title and the advance it was offset from, in key order.
    let ids: Vec<i64> = std::iter::once(title).chain(advance).collect();
    let titles = load(tx, client, emp, side, &ids, true).await?;
    let t = titles.get(&title).ok_or_else(missing)?;
    let row: SettlementRow = sqlx::query_as(
        "SELECT baix_tit_id, baix_valor, baix_juros, baix_multa, baix_desconto, baix_total, baix_bco_id,
                baix_frmp_id, baix_estornada
         FROM finance.baixas WHERE client_id = $1 AND baix_emp_id = $2 AND baix_id = $3 FOR UPDATE",
    )
    .bind(client)
    .bind(emp)
    .bind(settlement)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(missing)?;
    let (_, value, interest, fine, discount, total, account, method, reversed) = row;
    if reversed {
        return Err(Error::Conflict(format!(
            "Baixa {settlement} já foi estornada."
        )));
    }
    sqlx::query(
        "UPDATE finance.baixas SET baix_estornada = true, baix_dta_estorno = now(), baix_usr_estorno = $4
         WHERE client_id = $1 AND baix_emp_id = $2 AND baix_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(settlement)
    .bind((user > 0).then_some(user))
    .execute(&mut **tx)
    .await?;
    let sql = format!(
        "UPDATE finance.{} SET tit_pago = tit_pago - $4, tit_juros = tit_juros - $5, tit_multa = tit_multa - $6,
             tit_desconto = tit_desconto - $7,
             tit_dta_pag = (SELECT max(baix_dta) FROM finance.baixas WHERE client_id = $1 AND baix_emp_id = $2
                              AND baix_tipo = $8 AND baix_tit_id = $3 AND NOT baix_estornada)
         WHERE client_id = $1 AND tit_emp_id = $2 AND tit_id = $3 RETURNING tit_pago, tit_saldo, tit_situacao",
        side.table()
    );
    let standing: Standing = sqlx::query_as(&sql)
        .bind(client)
        .bind(emp)
        .bind(title)
        .bind(value)
        .bind(interest)
        .bind(fine)
        .bind(discount)
        .bind(side.code())
        .fetch_one(&mut **tx)
        .await
        .map_err(|e| {
            let msg = format!(
                "O adiantamento {title} já foi compensado em outros títulos: estorne as compensações antes."
            );
            Error::from(e).on_constraint(&[("contaspagar_compensado_check", msg.as_str())])
        })?;
    publish_standing(tx, client, emp, side, t, settlement, "estorno", user).await?;
    let (_, balance, status) = standing;
    let mut movement = None;
    if let Some(advance) = advance {
        sqlx::query(
            "UPDATE finance.contaspagar SET tit_compensado = tit_compensado - $4
             WHERE client_id = $1 AND tit_emp_id = $2 AND tit_id = $3",
        )
        .bind(client)
        .bind(emp)
        .bind(advance)
        .bind(value)
        .execute(&mut **tx)
        .await?;
    } else if total > Decimal::ZERO {
        let id = bank::reserve(tx, client, emp, 1).await?;
        let date = today(tx).await?;
        let m = Movement {
            emp,
            bank: account,
            date,
            direction: side.direction().opposite(),
            value: total,
            history: format!("Estorno da baixa {settlement} - {}", history(side, t)),
            document: t.document.clone(),
            cost_centre: t.centre,
            method,
            origin: "ESTORNO",
            settlement: Some(settlement),
            user,
        };
        bank::record(tx, client, id, &m).await?;
        movement = Some(id);
    }
    Ok(Reversed { settlement, title, movement, balance, status })
}

// ---------------------------------------------------------------- advances

/// An offset of payables against a supplier's advance: the advance, the date, and
/// each payable with how much of it (its whole balance when not given).
#[derive(Clone, Debug)]
pub struct Offset {
    pub advance: i64,
    pub date: NaiveDate,
    pub remarks: Option<String>,
    pub items: Vec<(i64, Option<Decimal>)>,
    pub user: i64,
}

/// The account an advance was paid from: the account of its latest settlement
/// still standing.
async fn advance_account(tx: &mut Tx, client: i64, emp: i64, advance: i64) -> Result<Option<i64>> {
    Ok(sqlx::query_scalar(
        "SELECT baix_bco_id FROM finance.baixas WHERE client_id = $1 AND baix_emp_id = $2 AND baix_tipo = 'P'
           AND baix_tit_id = $3 AND NOT baix_estornada ORDER BY baix_dta DESC, baix_id DESC LIMIT 1",
    )
    .bind(client)
    .bind(emp)
    .bind(advance)
    .fetch_optional(&mut **tx)
    .await?)
}

/// Settles payables of the advance's supplier with what the advance paid and was
/// not offset yet (all or nothing). The titles (advance included) are locked in key
/// order; each payable gets a settlement that names the advance, at face value (no
/// interest, fine or discount), moving no money: the money left the account when
/// the advance was paid.
pub async fn offset(tx: &mut Tx, client: i64, emp: i64, o: &Offset) -> Result<Vec<Settled>> {
    if o.items.is_empty() {
        return Err(Error::validation("Informe os títulos a compensar."));
    }
    let mut seen = HashSet::new();
    if let Some((dup, _)) = o.items.iter().find(|(id, _)| !seen.insert(*id)) {
        return Err(Error::validation(format!(
            "Título {dup} informado mais de uma vez."
        )));
    }
    if seen.contains(&o.advance) {
        return Err(Error::validation(
            "O adiantamento não pode compensar a si mesmo.",
        ));
    }
    let side = Side::Payable;
    let ids: Vec<i64> = std::iter::once(o.advance)
        .chain(o.items.iter().map(|(id, _)| *id))
        .collect();
    let titles = load(tx, client, emp, side, &ids, true).await?;
    let a = titles
        .get(&o.advance)
        .ok_or_else(|| Error::NotFound(format!("Título {} não encontrado.", o.advance)))?;
    if !a.advance {
        return Err(Error::validation(format!(
            "Título {} não é um adiantamento.",
            a.id
        )));
    }
    if a.cancelled {
        return Err(Error::Conflict(format!(
            "Adiantamento {} está cancelado.",
            a.id
        )));
    }
    let (paid, offset_before): (Decimal, Decimal) = sqlx::query_as(
        "SELECT tit_pago, tit_compensado FROM finance.contaspagar
         WHERE client_id = $1 AND tit_emp_id = $2 AND tit_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(a.id)
    .fetch_one(&mut **tx)
    .await?;
    let available = paid - offset_before;
    let account = advance_account(tx, client, emp, a.id).await?;
    let account = match account {
        Some(acc) if available > Decimal::ZERO => acc,
        _ => {
            return Err(Error::Conflict(format!(
                "Adiantamento {} não tem saldo a compensar.",
                a.id
            )))
        }
    };
    let mut plan = Vec::with_capacity(o.items.len());
    for (id, value) in &o.items {
        let t = titles
            .get(id)
            .ok_or_else(|| Error::NotFound(format!("Título {id} não encontrado.")))?;
        if t.advance {
            return Err(Error::validation(format!(
                "Título {id} é um adiantamento e não pode ser compensado."
            )));
        }
        if t.person != a.person {
            return Err(Error::validation(format!(
                "Título {id} é de outro fornecedor: o adiantamento compensa apenas títulos do seu fornecedor."
            )));
        }
        if let Some(why) = refusal(t) {
            return Err(Error::Conflict(why));
        }
        let value = value.unwrap_or(t.balance);
        if value <= Decimal::ZERO {
            return Err(Error::validation(format!(
                "Informe o valor a compensar do título {id}."
            )));
        }
        if value > t.balance {
            return Err(Error::Conflict(format!(
                "Valor a compensar do título {id} ({}) maior que o saldo ({}).",
                brl(value),
                brl(t.balance)
            )));
        }
        plan.push((t, value));
    }
    let sum: Decimal = plan.iter().map(|(_, v)| *v).sum();
    if sum > available {
        return Err(Error::Conflict(format!(
            "Valor a compensar ({}) maior que o saldo do adiantamento {} ({}).",
            brl(sum),
            a.id,
            brl(available)
        )));
    }
    let first = bank::next_ids(
        tx,
        client,
        emp,
        "baixas",
        "baix_id",
        "baix_emp_id",
        plan.len() as i64,
    )
    .await?;
    let remarks = o
        .remarks
        .clone()
        .unwrap_or_else(|| format!("Compensação do adiantamento {}", a.id));
    let mut done = Vec::with_capacity(plan.len());
    for (i, (t, value)) in plan.iter().enumerate() {
        let id = first + i as i64;
        sqlx::query(
            "INSERT INTO finance.baixas (client_id, baix_emp_id, baix_id, baix_tipo, baix_tit_id, baix_dta, baix_valor,
                 baix_bco_id, baix_obs, baix_usr_id, baix_adto_id)
             VALUES ($1, $2, $3, 'P', $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(client)
        .bind(emp)
        .bind(id)
        .bind(t.id)
        .bind(o.date)
        .bind(value)
        .bind(account)
        .bind(&remarks)
        .bind((o.user > 0).then_some(o.user))
        .bind(a.id)
        .execute(&mut **tx)
        .await?;
        let standing: Standing = sqlx::query_as(
            "UPDATE finance.contaspagar SET tit_pago = tit_pago + $4,
                 tit_dta_pag = greatest(coalesce(tit_dta_pag, $5), $5)
             WHERE client_id = $1 AND tit_emp_id = $2 AND tit_id = $3
             RETURNING tit_pago, tit_saldo, tit_situacao",
        )
        .bind(client)
        .bind(emp)
        .bind(t.id)
        .bind(value)
        .bind(o.date)
        .fetch_one(&mut **tx)
        .await?;
        publish_standing(tx, client, emp, side, t, id, "baixa", o.user).await?;
        done.push(Settled {
            settlement: id,
            title: t.id,
            value: *value,
            interest: Decimal::ZERO,
            fine: Decimal::ZERO,
            discount: Decimal::ZERO,
            total: *value,
            movement: None,
            balance: standing.1,
        });
    }
    sqlx::query(
        "UPDATE finance.contaspagar SET tit_compensado = tit_compensado + $4
         WHERE client_id = $1 AND tit_emp_id = $2 AND tit_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(a.id)
    .bind(sum)
    .execute(&mut **tx)
    .await?;
    Ok(done)
}

/// The supplier's advances with something left to offset, paid from account
/// `bank` (any account when none), oldest first, as rows for the purchase screen.
pub async fn advances(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    supplier: i64,
    bank: Option<i64>,
) -> Result<Vec<Value>> {
    Ok(sqlx::query_scalar(
        "SELECT json_build_object(
             'CMPD_ID', t.tit_id, 'CMPD_EMP_ID', t.tit_emp_id, 'CMPD_COMP_FORN_ID', t.tit_pessoa_id,
             'FORN_DESCRICAO', t.tit_pessoa_nome, 'CMPD_DOCUMENTO', t.tit_documento,
             'CMPD_DTA_EMIS', t.tit_dta_emis, 'CMPD_DTA_MOV', t.tit_dta_pag,
             'CMPD_VLR_TITULO', t.tit_valor + t.tit_acrescimo, 'CMPD_VLR_PAGO', t.tit_pago,
             'CMPD_VLR_COMPENSADO', t.tit_compensado, 'SALDO', t.tit_pago - t.tit_compensado,
             'BCO_ID', b.bco_id, 'BCO_DESCRICAO', b.bco_descricao, 'CMPD_OBS', t.tit_obs)
         FROM finance.contaspagar t
         CROSS JOIN LATERAL (
             SELECT x.baix_bco_id FROM finance.baixas x
             WHERE x.client_id = t.client_id AND x.baix_emp_id = t.tit_emp_id AND x.baix_tipo = 'P'
               AND x.baix_tit_id = t.tit_id AND NOT x.baix_estornada
             ORDER BY x.baix_dta DESC, x.baix_id DESC LIMIT 1) paid
         LEFT JOIN finance.banco b ON b.client_id = t.client_id AND b.bco_emp_id = t.tit_emp_id
                                  AND b.bco_id = paid.baix_bco_id
         WHERE t.client_id = $1 AND t.tit_emp_id = $2 AND t.tit_pessoa_id = $3 AND t.tit_adiantamento
           AND NOT t.tit_cancelado AND t.tit_pago > t.tit_compensado
           AND ($4::bigint IS NULL OR paid.baix_bco_id = $4)
         ORDER BY t.tit_dta_emis, t.tit_id",
    )
    .bind(client)
    .bind(emp)
    .bind(supplier)
    .bind(bank)
    .fetch_all(&mut **tx)
    .await?)
}

/// The settlements of a title, newest first, as rows for the screens.
pub async fn settlements_of(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    side: Side,
    title: i64,
) -> Result<Vec<Value>> {
    let rows: Vec<Value> = sqlx::query_scalar(
        "SELECT json_build_object(
             'BAIX_ID', x.baix_id, 'BAIX_TIT_ID', x.baix_tit_id, 'BAIX_DTA', x.baix_dta, 'BAIX_VALOR', x.baix_valor,
             'BAIX_JUROS', x.baix_juros, 'BAIX_MULTA', x.baix_multa, 'BAIX_DESCONTO', x.baix_desconto,
             'BAIX_TOTAL', x.baix_total, 'BAIX_BCO_ID', x.baix_bco_id, 'BCO_DESCRICAO', b.bco_descricao,
             'BAIX_FRMP_ID', x.baix_frmp_id, 'FRMP_DESCRICAO', f.frmp_descricao, 'BAIX_OBS', x.baix_obs,
             'BAIX_USR_ID', x.baix_usr_id, 'BAIX_ESTORNADA', x.baix_estornada,
             'BAIX_DTA_ESTORNO', x.baix_dta_estorno)
         FROM finance.baixas x
         LEFT JOIN finance.banco b ON b.client_id = x.client_id AND b.bco_emp_id = x.baix_emp_id AND b.bco_id = x.baix_bco_id
         LEFT JOIN finance.formapagamento f ON f.client_id = x.client_id AND f.frmp_id = x.baix_frmp_id
         WHERE x.client_id = $1 AND x.baix_emp_id = $2 AND x.baix_tipo = $3 AND x.baix_tit_id = $4
         ORDER BY x.baix_dta DESC, x.baix_id DESC",
    )
    .bind(client)
    .bind(emp)
    .bind(side.code())
    .bind(title)
    .fetch_all(&mut **tx)
    .await?;
    Ok(rows)
}

/// A settlement's answer row.
pub fn settled_json(side: Side, s: &Settled) -> Value {
    let mut row = json!({
        "BAIX_ID": s.settlement,
        "BAIX_VALOR": crate::num(s.value),
        "BAIX_JUROS": crate::num(s.interest),
        "BAIX_MULTA": crate::num(s.fine),
        "BAIX_DESCONTO": crate::num(s.discount),
        "BAIX_TOTAL": crate::num(s.total),
        "MBCA_ID": s.movement,
        "SALDO": crate::num(s.balance),
    });
    if let Value::Object(m) = &mut row {
        m.insert(side.key().into(), Value::from(s.title));
    }
    row
}
