//! Origin documents (`documentos`, one row per invoiced order or finalized
//! purchase): claiming one for its titles exactly once, recording what its titles
//! add up to, and cancelling or removing its titles while none was settled.

use erp_platform::db::Tx;
use erp_platform::{Error, Result};
use rust_decimal::Decimal;

use super::Side;

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
