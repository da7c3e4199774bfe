//! The fake SEFAZ: a pending document gets its answer (authorised with its
//! protocol, or rejected) the first time it is looked at after its pending
//! consults, and the document a route is about is found by its id and type.

use axum::response::Response;
use chrono::Utc;

use super::state::{Kind, Outcome, State as FakeState, StoredDoc};
use super::{not_found, FakeHandle};
use crate::nuvemfiscal::types::{DfeAutorEvento, DfeAutorizacao, DfeStatus, EventoStatus};

/// Runs `f` on the document `id` of this type after the SEFAZ has answered
/// it (a pending document is settled first).
pub(super) fn with_doc(
    kind: Kind,
    h: &FakeHandle,
    id: &str,
    f: impl FnOnce(&mut FakeState, &mut StoredDoc) -> Response,
) -> Response {
    let mut s = h.lock();
    let seq = s.next_seq();
    let Some(mut doc) = s.docs.remove(id).filter(|d| d.kind == kind) else {
        let message = match kind {
            Kind::Nfe => "NF-e não encontrada.",
            Kind::Cte => "CT-e não encontrado.",
            Kind::Mdfe => "MDF-e não encontrado.",
        };
        return not_found(message);
    };
    if doc.pending_looks > 0 {
        doc.pending_looks -= 1;
    } else {
        settle(&mut doc, seq);
    }
    let resp = f(&mut s, &mut doc);
    s.docs.insert(id.to_string(), doc);
    resp
}

/// Gives a pending document the SEFAZ's answer.
pub(super) fn settle(doc: &mut StoredDoc, seq: u64) {
    if doc.dfe.status != DfeStatus::Pendente {
        return;
    }
    let now = Utc::now().fixed_offset();
    let mut aut = DfeAutorizacao {
        id: Some(format!("evt_{}", uuid::Uuid::new_v4().simple())),
        ambiente: doc.dfe.ambiente,
        autor: Some(DfeAutorEvento { cpf_cnpj: Some(doc.cpf_cnpj.clone()) }),
        chave_acesso: doc.dfe.chave.clone(),
        data_evento: Some(now),
        data_recebimento: Some(now),
        ..DfeAutorizacao::default()
    };
    match &doc.outcome {
        Outcome::Authorize => {
            doc.dfe.status = DfeStatus::Autorizado;
            aut.status = Some(EventoStatus::Registrado);
            aut.codigo_status = Some(100);
            aut.motivo_status = Some(match doc.kind {
                Kind::Nfe => "Autorizado o uso da NF-e".into(),
                Kind::Cte => "Autorizado o uso do CT-e".into(),
                Kind::Mdfe => "Autorizado o uso do MDF-e".into(),
            });
            aut.numero_protocolo = Some(protocol(doc, seq));
        }
        Outcome::Reject { c_stat, x_motivo } => {
            doc.dfe.status = DfeStatus::Rejeitado;
            aut.status = Some(EventoStatus::Rejeitado);
            aut.codigo_status = Some(*c_stat);
            aut.motivo_status = Some(x_motivo.clone());
        }
    }
    doc.dfe.autorizacao = Some(aut);
}

/// 15 digits like the SEFAZ's: 1, cUF, year, and a 10-digit sequence.
pub(super) fn protocol(doc: &StoredDoc, seq: u64) -> String {
    let c_uf = doc
        .dfe
        .chave
        .as_deref()
        .and_then(|c| c.get(..2))
        .unwrap_or("35");
    format!(
        "1{c_uf}{}{:010}",
        Utc::now().format("%y"),
        seq % 10_000_000_000
    )
}
