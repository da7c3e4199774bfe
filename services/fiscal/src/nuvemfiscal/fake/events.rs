//! The fake's events on an authorised document: cancel, correction letter
//! (NF-e and CT-e) and closing (MDF-e), with their checks and the SEFAZ's
//! registration.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use chrono::{DateTime, FixedOffset, Utc};

use super::sefaz::{protocol, with_doc};
use super::state::{Kind, StoredDoc};
use super::{error, invalid, Body, FakeHandle, Invalid};
use crate::nuvemfiscal::types::{
    DfeAutorEvento, DfeCancelamento, DfeCartaCorrecao, DfeStatus, EventoStatus, MdfeEncerramento,
    MdfePedidoEncerramento, NfePedidoCartaCorrecao,
};

/// Event answer fields shared by cancel, correction letter and closing.
struct Event {
    id: String,
    protocolo: String,
    now: DateTime<FixedOffset>,
    motivo: String,
}

fn event(doc: &StoredDoc, seq: u64) -> Event {
    let vinculado = match doc.kind {
        Kind::Nfe => "a NF-e",
        Kind::Cte => "ao CT-e",
        Kind::Mdfe => "ao MDF-e",
    };
    Event {
        id: format!("evt_{}", uuid::Uuid::new_v4().simple()),
        protocolo: protocol(doc, seq),
        now: Utc::now().fixed_offset(),
        motivo: format!("Evento registrado e vinculado {vinculado}"),
    }
}

/// `None` when the document is authorised, else the provider's refusal.
fn not_authorized(doc: &StoredDoc, action: &str) -> Option<Response> {
    (doc.dfe.status != DfeStatus::Autorizado).then(|| {
        error(
            StatusCode::BAD_REQUEST,
            "InvalidStatus",
            &format!(
                "Só é possível {action} documento autorizado (situação atual: {}).",
                doc.dfe.status.as_str()
            ),
        )
    })
}

fn check_len(text: &str, min: usize, max: usize, message: &str) -> Result<(), Invalid> {
    let len = text.trim().chars().count();
    if len < min || len > max {
        return Err(Invalid(message.to_string()));
    }
    Ok(())
}

pub(super) fn cancel(
    kind: Kind,
    h: &FakeHandle,
    id: &str,
    justificativa: Option<String>,
) -> Response {
    // Like the provider: a blank justification is filled in.
    let justificativa = justificativa
        .filter(|j| !j.trim().is_empty())
        .unwrap_or_else(|| "Cancelamento solicitado pelo emitente.".to_string());
    if let Err(resp) = check_len(
        &justificativa,
        15,
        255,
        "A justificativa deve ter entre 15 e 255 caracteres.",
    ) {
        return resp.into_response();
    }
    with_doc(kind, h, id, |s, doc| {
        if let Some(resp) = not_authorized(doc, "cancelar") {
            return resp;
        }
        let e = event(doc, s.next_seq());
        doc.dfe.status = DfeStatus::Cancelado;
        Json(DfeCancelamento {
            justificativa: Some(justificativa),
            id: Some(e.id),
            ambiente: doc.dfe.ambiente,
            status: Some(EventoStatus::Registrado),
            autor: Some(DfeAutorEvento { cpf_cnpj: Some(doc.cpf_cnpj.clone()) }),
            chave_acesso: doc.dfe.chave.clone(),
            data_evento: Some(e.now),
            numero_sequencial: Some(1),
            data_recebimento: Some(e.now),
            codigo_status: Some(135),
            motivo_status: Some(e.motivo),
            numero_protocolo: Some(e.protocolo),
            tipo_evento: Some("110111".into()),
            ..DfeCancelamento::default()
        })
        .into_response()
    })
}

pub(super) async fn carta_correcao(
    State(h): State<FakeHandle>,
    Path(id): Path<String>,
    Body(pedido): Body<NfePedidoCartaCorrecao>,
) -> Response {
    let correcao = pedido.correcao.unwrap_or_default();
    if let Err(resp) = check_len(
        &correcao,
        15,
        1000,
        "A correção deve ter entre 15 e 1000 caracteres.",
    ) {
        return resp.into_response();
    }
    with_doc(Kind::Nfe, &h, &id, |s, doc| {
        if let Some(resp) = not_authorized(doc, "corrigir") {
            return resp;
        }
        let e = event(doc, s.next_seq());
        doc.cartas += 1;
        Json(DfeCartaCorrecao {
            correcao: Some(correcao),
            id: Some(e.id),
            ambiente: doc.dfe.ambiente,
            status: Some(EventoStatus::Registrado),
            autor: Some(DfeAutorEvento { cpf_cnpj: Some(doc.cpf_cnpj.clone()) }),
            chave_acesso: doc.dfe.chave.clone(),
            data_evento: Some(e.now),
            numero_sequencial: Some(doc.cartas),
            data_recebimento: Some(e.now),
            codigo_status: Some(135),
            motivo_status: Some(e.motivo),
            numero_protocolo: Some(e.protocolo),
            tipo_evento: Some("110110".into()),
            ..DfeCartaCorrecao::default()
        })
        .into_response()
    })
}

pub(super) async fn encerrar(
    State(h): State<FakeHandle>,
    Path(id): Path<String>,
    Body(pedido): Body<MdfePedidoEncerramento>,
) -> Response {
    with_doc(Kind::Mdfe, &h, &id, |s, doc| {
        if let Some(resp) = not_authorized(doc, "encerrar") {
            return resp;
        }
        let e = event(doc, s.next_seq());
        doc.dfe.status = DfeStatus::Encerrado;
        Json(MdfeEncerramento {
            data_encerramento: Some(
                pedido
                    .data_encerramento
                    .unwrap_or_else(|| e.now.date_naive()),
            ),
            uf: Some(pedido.uf),
            codigo_municipio: Some(pedido.codigo_municipio),
            id: Some(e.id),
            ambiente: doc.dfe.ambiente,
            status: Some(EventoStatus::Registrado),
            autor: Some(DfeAutorEvento { cpf_cnpj: Some(doc.cpf_cnpj.clone()) }),
            chave_acesso: doc.dfe.chave.clone(),
            data_evento: Some(e.now),
            numero_sequencial: Some(1),
            data_recebimento: Some(e.now),
            codigo_status: Some(135),
            motivo_status: Some(e.motivo),
            numero_protocolo: Some(e.protocolo),
            tipo_evento: Some("110112".into()),
            ..MdfeEncerramento::default()
        })
        .into_response()
    })
}

pub(super) async fn carta_correcao_cte(
    State(h): State<FakeHandle>,
    Path(id): Path<String>,
    Body(pedido): Body<crate::nuvemfiscal::types::CtePedidoCartaCorrecao>,
) -> Response {
    if pedido.correcoes.is_empty() {
        return invalid("Informe ao menos uma correção.");
    }
    for c in &pedido.correcoes {
        let sizes = [
            (&c.grupo_alterado, 20, "grupo_alterado"),
            (&c.campo_alterado, 20, "campo_alterado"),
            (&c.valor_alterado, 500, "valor_alterado"),
        ];
        for (text, max, name) in sizes {
            let msg = format!("{name} deve ter entre 1 e {max} caracteres.");
            if let Err(resp) = check_len(text, 1, max, &msg) {
                return resp.into_response();
            }
        }
    }
    with_doc(Kind::Cte, &h, &id, |s, doc| {
        if let Some(resp) = not_authorized(doc, "corrigir") {
            return resp;
        }
        let e = event(doc, s.next_seq());
        doc.cartas += 1;
        Json(crate::nuvemfiscal::types::CteCartaCorrecao {
            correcoes: pedido.correcoes,
            id: Some(e.id),
            ambiente: doc.dfe.ambiente,
            status: Some(EventoStatus::Registrado),
            autor: Some(DfeAutorEvento { cpf_cnpj: Some(doc.cpf_cnpj.clone()) }),
            chave_acesso: doc.dfe.chave.clone(),
            data_evento: Some(e.now),
            numero_sequencial: Some(doc.cartas),
            data_recebimento: Some(e.now),
            codigo_status: Some(135),
            motivo_status: Some(e.motivo),
            numero_protocolo: Some(e.protocolo),
            tipo_evento: Some("110110".into()),
            ..Default::default()
        })
        .into_response()
    })
}
