//! The fake's NF-e, CT-e and MDF-e routes: emission (`emission`), consult,
//! synchronisation, events (`events`), XML and PDF, and the list by
//! `cpf_cnpj`, `ambiente`, `referencia` or key.

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use chrono::Utc;
use serde::Deserialize;

use super::emission::emit;
use super::events::{cancel, carta_correcao, carta_correcao_cte, encerrar};
use super::sefaz::with_doc;
use super::state::{Kind, StoredDoc};
use super::{error, files, invalid, Body, FakeHandle};
use crate::nuvemfiscal::paths;
use crate::nuvemfiscal::types::{
    Ambiente, DfeListagem, DfeSincronizacao, DfeStatus, NfePedidoCancelamento, SincronizacaoStatus,
};

pub(super) fn routes() -> Router<FakeHandle> {
    let mut router = Router::new();
    for kind in [Kind::Nfe, Kind::Cte, Kind::Mdfe] {
        let p = kind.paths();
        router = router
            .route(
                p.root,
                get(
                    move |State(h): State<FakeHandle>, Query(q): Query<ListQuery>| async move {
                        list(kind, &h, q)
                    },
                )
                .post(move |State(h): State<FakeHandle>, body: Bytes| async move {
                    emit(kind, &h, &body)
                }),
            )
            .route(
                p.id,
                get(
                    move |State(h): State<FakeHandle>, Path(id): Path<String>| async move {
                        with_doc(kind, &h, &id, |_, doc| {
                            Json(doc.dfe.clone()).into_response()
                        })
                    },
                ),
            )
            .route(
                p.cancelamento,
                post(
                    move |State(h): State<FakeHandle>,
                          Path(id): Path<String>,
                          Body(pedido): Body<NfePedidoCancelamento>| async move {
                        cancel(kind, &h, &id, pedido.justificativa)
                    },
                ),
            )
            .route(
                p.sincronizar,
                post(
                    move |State(h): State<FakeHandle>, Path(id): Path<String>| async move {
                        with_doc(kind, &h, &id, |_, doc| Json(sync(doc)).into_response())
                    },
                ),
            )
            .route(
                p.xml,
                get(
                    move |State(h): State<FakeHandle>, Path(id): Path<String>| async move {
                        file(kind, &h, &id, "application/xml", |d| {
                            files::xml(d).into_bytes()
                        })
                    },
                ),
            )
            .route(
                p.pdf,
                get(
                    move |State(h): State<FakeHandle>, Path(id): Path<String>| async move {
                        file(kind, &h, &id, "application/pdf", files::pdf)
                    },
                ),
            );
    }
    router
        .route(paths::NFE_CARTA_CORRECAO, post(carta_correcao))
        .route(paths::CTE_CARTA_CORRECAO, post(carta_correcao_cte))
        .route(paths::MDFE_ENCERRAMENTO, post(encerrar))
}

fn sync(doc: &StoredDoc) -> DfeSincronizacao {
    let aut = doc.dfe.autorizacao.as_ref();
    let (codigo, motivo) = match doc.dfe.status {
        DfeStatus::Cancelado => (
            101,
            format!("Cancelamento de {} homologado", doc.kind.label()),
        ),
        DfeStatus::Encerrado => (132, "Encerramento de MDF-e homologado".to_string()),
        _ => (
            aut.and_then(|a| a.codigo_status).unwrap_or_default(),
            aut.and_then(|a| a.motivo_status.clone())
                .unwrap_or_default(),
        ),
    };
    DfeSincronizacao {
        status: Some(SincronizacaoStatus::Sincronizado),
        codigo_status: Some(codigo),
        motivo_status: Some(motivo),
        data_recebimento: Some(Utc::now().fixed_offset()),
        chave: doc.dfe.chave.clone(),
    }
}

fn file(
    kind: Kind,
    h: &FakeHandle,
    id: &str,
    content_type: &'static str,
    render: impl FnOnce(&StoredDoc) -> Vec<u8>,
) -> Response {
    with_doc(kind, h, id, |_, doc| {
        let ready = matches!(
            doc.dfe.status,
            DfeStatus::Autorizado | DfeStatus::Cancelado | DfeStatus::Encerrado
        );
        if !ready {
            return error(
                StatusCode::BAD_REQUEST,
                "InvalidStatus",
                &format!(
                    "Arquivo disponível apenas para documento autorizado (situação atual: {}).",
                    doc.dfe.status.as_str()
                ),
            );
        }
        ([(header::CONTENT_TYPE, content_type)], render(doc)).into_response()
    })
}

#[derive(Debug, Deserialize)]
pub(super) struct ListQuery {
    cpf_cnpj: Option<String>,
    ambiente: Option<Ambiente>,
    referencia: Option<String>,
    chave: Option<String>,
    #[serde(rename = "$top")]
    top: Option<usize>,
    #[serde(rename = "$skip")]
    skip: Option<usize>,
    #[serde(rename = "$inlinecount")]
    inlinecount: Option<bool>,
}

fn list(kind: Kind, h: &FakeHandle, q: ListQuery) -> Response {
    let (Some(cpf_cnpj), Some(ambiente)) = (q.cpf_cnpj, q.ambiente) else {
        return invalid("Os parâmetros cpf_cnpj e ambiente são obrigatórios.");
    };
    let s = h.lock();
    let mut docs: Vec<&StoredDoc> = s
        .docs
        .values()
        .filter(|d| d.kind == kind && d.cpf_cnpj == cpf_cnpj)
        .filter(|d| d.dfe.ambiente == Some(ambiente))
        .filter(|d| q.referencia.is_none() || d.dfe.referencia == q.referencia)
        .filter(|d| q.chave.is_none() || d.dfe.chave == q.chave)
        .collect();
    docs.sort_by_key(|d| std::cmp::Reverse(d.seq));
    let count = docs.len();
    let data = docs
        .into_iter()
        .skip(q.skip.unwrap_or(0))
        .take(q.top.unwrap_or(10).min(100))
        .map(|d| d.dfe.clone())
        .collect();
    Json(DfeListagem {
        count: q
            .inlinecount
            .unwrap_or(false)
            .then(|| i32::try_from(count).unwrap_or(i32::MAX)),
        data,
    })
    .into_response()
}
