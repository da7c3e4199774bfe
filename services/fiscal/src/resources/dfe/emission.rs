//! The steps of an emission after its row and request are committed
//! (`enviando`, each register's step 1), each committing on its own so that
//! what the provider was told is never forgotten:
//!
//! 2. The request goes to the provider once; its id is committed
//!    (`pendente`) before anything waits. A refusal by the provider marks the
//!    row `erro`; an answer lost on the way leaves it `enviando`, and the
//!    consult finds the document by its `referencia` ([`recover`]).
//! 3. The document is consulted until its status is final (or the wait runs
//!    out: it stays `pendente`), the XML and the PDF are fetched, and the
//!    answer is committed ([`follow`]).

use std::time::Duration;

use chrono::{FixedOffset, Timelike, Utc};
use erp_platform::db::{Db, Tx};
use erp_platform::grpc::Caller;
use erp_platform::resource::Resource;
use erp_platform::{Error, Result};
use serde::Serialize;
use serde_json::Value;

use super::{company_cnpj, store, Doc, Issued, Kind};
use crate::nuvemfiscal::types::{Ambiente, Dfe};
use crate::nuvemfiscal::NuvemFiscal;
use crate::resources::company::provider::{provider_error, provider_message};

/// How long a call waits for the SEFAZ before answering `pendente` (the
/// gateway gives a call 15 s).
pub const MAX_WAIT: Duration = Duration::from_secs(10);

/// Now in Brasília time (UTC-3, no daylight saving since 2019), whole seconds.
pub fn now_brt() -> chrono::DateTime<FixedOffset> {
    let now = Utc::now().fixed_offset();
    let brt = FixedOffset::west_opt(3 * 3600).unwrap_or(*now.offset());
    let t = now.with_timezone(&brt);
    t.with_nanosecond(0).unwrap_or(t)
}

/// A reference unique across clients (the provider account is shared):
/// `erp-{client}-{emp}-{tag}-{id}-{attempt}`.
pub fn referencia(tag: &str, client: i64, emp: i64, id: i64, attempt: i32) -> String {
    format!("erp-{client}-{emp}-{tag}-{id}-{attempt}")
}

/// Steps 2 and 3 for row `id`, committed `enviando` with its `pedido`.
#[allow(clippy::too_many_arguments)]
pub async fn send<T: Serialize + Sync>(
    db: &Db,
    nf: &NuvemFiscal,
    doc: &dyn Issued,
    res: &Resource,
    caller: &Caller,
    emp: i64,
    id: i64,
    pedido: &T,
) -> Result<Value> {
    let kind = doc.kind();
    let client = caller.client_id;
    let dfe = match nf.emitir(kind.paths, pedido).await {
        Ok(dfe) => dfe,
        Err(e) if e.outcome_unknown() => {
            tracing::warn!(client, emp, id, error = %e, "{} emission: answer lost", kind.name);
            return Err(Error::Unavailable(format!(
                "A Nuvem Fiscal não confirmou o recebimento {}: {} antes de emitir de novo.",
                kind.of_the(),
                kind.consult_it()
            )));
        }
        Err(e) => {
            let mut tx = db.begin_tenant(client).await?;
            store::failed(&mut tx, kind, client, emp, id, &provider_message(&e)).await?;
            tx.commit().await?;
            return Err(provider_error(e));
        }
    };
    let mut tx = db.begin_tenant(client).await?;
    store::sent(&mut tx, kind, client, emp, id, &dfe).await?;
    tx.commit().await?;
    follow(db, nf, doc, res, caller, emp, id, &dfe.id).await
}

/// Step 3 (also the consult's): waits for a final status and writes it; the
/// answer of the call.
#[allow(clippy::too_many_arguments)]
pub async fn follow(
    db: &Db,
    nf: &NuvemFiscal,
    doc: &dyn Issued,
    res: &Resource,
    caller: &Caller,
    emp: i64,
    id: i64,
    provider_id: &str,
) -> Result<Value> {
    let kind = doc.kind();
    let client = caller.client_id;
    let mut notices = Vec::new();
    match nf.aguardar(kind.paths, provider_id, MAX_WAIT).await {
        Ok(dfe) => {
            let files = if kind.fetches_files(dfe.status) {
                fetch_files(nf, kind, provider_id, &mut notices).await
            } else {
                (None, None)
            };
            if dfe.status.is_final() {
                let mut tx = db.begin_tenant(client).await?;
                store::settle(&mut tx, doc, client, emp, id, &dfe, files).await?;
                tx.commit().await?;
            }
        }
        Err(e) => notices.push(format!(
            "A consulta à Nuvem Fiscal falhou ({}): consulte {} de novo.",
            provider_message(&e),
            kind.the()
        )),
    }
    let mut tx = db.begin_tenant(client).await?;
    let row = doc.row(&mut tx, res, caller, emp, id).await?;
    tx.commit().await?;
    Ok(store::answer(kind, row, notices))
}

/// The XML and the PDF of a document; what fails is a notice (the download
/// calls fetch it again).
pub async fn fetch_files(
    nf: &NuvemFiscal,
    kind: &Kind,
    provider_id: &str,
    notices: &mut Vec<String>,
) -> (Option<Vec<u8>>, Option<Vec<u8>>) {
    let xml = match nf.baixar_xml(kind.paths, provider_id).await {
        Ok(b) => Some(b),
        Err(e) => {
            notices.push(format!("XML não obtido: {}.", provider_message(&e)));
            None
        }
    };
    let pdf = match nf.baixar_pdf(kind.paths, provider_id).await {
        Ok(b) => Some(b),
        Err(e) => {
            notices.push(format!(
                "{} não obtido: {}.",
                kind.pdf_name,
                provider_message(&e)
            ));
            None
        }
    };
    (xml, pdf)
}

/// A document whose emission answer was lost: the provider's by its
/// `referencia`, or the row marked `erro` when the provider has none.
pub async fn recover(
    db: &Db,
    nf: &NuvemFiscal,
    kind: &Kind,
    client: i64,
    doc: &Doc,
    cnpj: &str,
) -> Result<Option<Dfe>> {
    let ambiente = if doc.ambiente == Some(1) {
        Ambiente::Producao
    } else {
        Ambiente::Homologacao
    };
    let found = match &doc.referencia {
        Some(r) => nf
            .listar(kind.paths, cnpj, ambiente, Some(r))
            .await
            .map_err(provider_error)?
            .data
            .into_iter()
            .next(),
        None => None,
    };
    let mut tx = db.begin_tenant(client).await?;
    match &found {
        Some(dfe) => store::sent(&mut tx, kind, client, doc.emp, doc.id, dfe).await?,
        None => {
            let lost = format!("A Nuvem Fiscal não recebeu {}: emita de novo.", kind.the());
            store::failed(&mut tx, kind, client, doc.emp, doc.id, &lost).await?
        }
    }
    tx.commit().await?;
    Ok(found)
}

/// The consult of row `id`: synchronises with the SEFAZ and waits for a final
/// status; an emission whose answer was lost is found by its reference first;
/// a row never sent answers as it is.
#[allow(clippy::too_many_arguments)]
pub async fn consult(
    tx: &mut Tx,
    db: &Db,
    nf: &NuvemFiscal,
    doc: &dyn Issued,
    res: &Resource,
    caller: &Caller,
    emp: i64,
    id: i64,
) -> Result<Value> {
    let kind = doc.kind();
    let client = caller.client_id;
    let row = store::by_id(tx, kind, client, emp, id, false).await?;
    let found = match (&row.provider_id, row.situacao.as_str()) {
        (Some(n), _) => Some(n.clone()),
        (None, "enviando") => {
            let cnpj = company_cnpj(tx, client, emp).await?;
            recover(db, nf, kind, client, &row, &cnpj)
                .await?
                .map(|dfe| dfe.id)
        }
        (None, _) => None,
    };
    let Some(provider_id) = found else {
        let row = doc.row(tx, res, caller, emp, id).await?;
        return Ok(store::answer(kind, row, vec![]));
    };
    if let Err(e) = nf.sincronizar(kind.paths, &provider_id).await {
        tracing::warn!(id, error = %e, "{} synchronisation failed", kind.name);
    }
    follow(db, nf, doc, res, caller, emp, id, &provider_id).await
}
