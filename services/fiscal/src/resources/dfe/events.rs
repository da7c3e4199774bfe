//! Events on an authorised document (cancel, correction letter, closing):
//! the checks every one makes before the provider is asked, the SEFAZ's
//! refusal explained, and the cancel itself with the XML that carries it.

use erp_platform::db::Tx;
use erp_platform::{Error, Result};

use super::{store, Doc, Issued, Kind};
use crate::nuvemfiscal::types::{DfeCancelamento, EventoStatus};
use crate::nuvemfiscal::NuvemFiscal;

pub const SHORT_JUSTIFICATION: &str =
    "A justificativa do cancelamento deve ter entre 15 e 255 caracteres.";

/// Whether `text` has `min` to `max` characters.
pub fn len_between(text: &str, min: usize, max: usize) -> bool {
    (min..=max).contains(&text.chars().count())
}

/// A cancel's justification: 15 to 255 characters.
pub fn justification(text: &str) -> Result<()> {
    if len_between(text, 15, 255) {
        Ok(())
    } else {
        Err(Error::validation(SHORT_JUSTIFICATION))
    }
}

/// The provider's id of an authorised document, else 409 "Só é possível
/// {what} um CT-e autorizado."
pub fn authorised(kind: &Kind, doc: &Doc, what: &str) -> Result<String> {
    match (doc.situacao.as_str(), &doc.provider_id) {
        ("autorizado", Some(n)) => Ok(n.clone()),
        _ => Err(Error::Conflict(format!(
            "Só é possível {what} {} {}.",
            kind.one(),
            kind.agree("autorizado")
        ))),
    }
}

/// Nothing when the SEFAZ registered the event (`status`), else its
/// refusal explained: "{what} foi rejeitado pela SEFAZ (cStat - xMotivo): ...".
pub fn registered(
    kind: &Kind,
    what: &str,
    status: Option<EventoStatus>,
    c_stat: Option<i32>,
    motivo: Option<&str>,
) -> Result<()> {
    if status == Some(EventoStatus::Registrado) {
        return Ok(());
    }
    let c_stat = c_stat.map(|c| c.to_string()).unwrap_or_default();
    let e = (kind.explain)(&c_stat, motivo.unwrap_or_default());
    Err(Error::validation(format!(
        "{what} foi rejeitado pela SEFAZ ({} - {}): {}",
        e.c_stat, e.x_motivo, e.explanation
    )))
}

/// The provider's answer to a cancel of `row`: registered, the row becomes
/// `cancelado` with its justification and protocol, the XML (now carrying
/// the event) replaces the authorised one, and the register writes what it
/// adds ([`Issued::cancelled`]).
#[allow(clippy::too_many_arguments)]
pub async fn cancelled(
    tx: &mut Tx,
    nf: &NuvemFiscal,
    doc: &dyn Issued,
    client: i64,
    row: &Doc,
    provider_id: &str,
    justificativa: &str,
    ev: DfeCancelamento,
) -> Result<()> {
    let kind = doc.kind();
    registered(
        kind,
        "O cancelamento",
        ev.status,
        ev.codigo_status,
        ev.motivo_status.as_deref(),
    )?;
    let p = kind.prefix;
    sqlx::query(&format!(
        "UPDATE {table} SET {p}_situacao = 'cancelado', {p}_cancel_justificativa = $4,
             {p}_cancel_protocolo = $5, {p}_dta_cancelamento = now()
         WHERE client_id = $1 AND {p}_emp_id = $2 AND {p}_id = $3",
        table = kind.table,
    ))
    .bind(client)
    .bind(row.emp)
    .bind(row.id)
    .bind(justificativa)
    .bind(ev.numero_protocolo)
    .execute(&mut **tx)
    .await?;
    doc.cancelled(tx, client, row.emp, row.id).await?;
    refresh_xml(tx, nf, kind, client, row, provider_id).await
}

/// The provider's XML after an event (it carries the event), stored; kept
/// as it was when the provider does not give it.
pub async fn refresh_xml(
    tx: &mut Tx,
    nf: &NuvemFiscal,
    kind: &Kind,
    client: i64,
    row: &Doc,
    provider_id: &str,
) -> Result<()> {
    if let Ok(xml) = nf.baixar_xml(kind.paths, provider_id).await {
        store::write_file(
            tx,
            kind,
            client,
            row.emp,
            row.id,
            kind.xml,
            kind.xml_is_text,
            xml,
        )
        .await?;
    }
    Ok(())
}
