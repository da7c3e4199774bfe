//! The fake's `/empresas` routes: companies, their per-document settings,
//! certificate and logo.

use std::hash::{DefaultHasher, Hash, Hasher};

use axum::extract::{Multipart, Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use base64::Engine;
use chrono::{Duration, Utc};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::state::StoredEmpresa;
use super::{error, not_found, Body, FakeHandle};
use crate::nuvemfiscal::companies::{image_kind, LOGOTIPO_MAX_BYTES};
use crate::nuvemfiscal::paths;
use crate::nuvemfiscal::types::{
    Empresa, EmpresaCertificado, EmpresaListagem, EmpresaPedidoCadastroCertificado,
};

const NO_COMPANY: &str = "Empresa não encontrada.";

pub(super) fn routes() -> Router<FakeHandle> {
    Router::new()
        .route(paths::EMPRESAS, get(list).post(create))
        .route(paths::EMPRESA, get(read).put(update).delete(remove))
        .merge(setting(paths::EMPRESA_NFE, |e| &mut e.nfe))
        .merge(setting(paths::EMPRESA_NFCE, |e| &mut e.nfce))
        .merge(setting(paths::EMPRESA_CTE, |e| &mut e.cte))
        .merge(setting(paths::EMPRESA_MDFE, |e| &mut e.mdfe))
        .merge(setting(paths::EMPRESA_NFSE, |e| &mut e.nfse))
        .merge(setting(paths::EMPRESA_CTEOS, |e| &mut e.cteos))
        .merge(setting(paths::EMPRESA_DCE, |e| &mut e.dce))
        .merge(setting(paths::EMPRESA_DISTNFE, |e| &mut e.distnfe))
        .merge(setting(paths::EMPRESA_NFCOM, |e| &mut e.nfcom))
        .route(
            paths::EMPRESA_CERTIFICADO,
            get(read_certificate)
                .put(put_certificate)
                .delete(delete_certificate),
        )
        .route(
            paths::EMPRESA_LOGOTIPO,
            get(read_logo).put(put_logo).delete(delete_logo),
        )
}

fn digits_ok(cpf_cnpj: &str) -> bool {
    matches!(cpf_cnpj.len(), 11 | 14) && cpf_cnpj.bytes().all(|b| b.is_ascii_digit())
}

async fn create(State(h): State<FakeHandle>, Body(mut empresa): Body<Empresa>) -> Response {
    if !digits_ok(&empresa.cpf_cnpj) {
        return error(
            StatusCode::BAD_REQUEST,
            "ValidationFailed",
            "cpf_cnpj deve ter 11 ou 14 dígitos, sem máscara.",
        );
    }
    let mut s = h.lock();
    if s.empresas.contains_key(&empresa.cpf_cnpj) {
        return error(
            StatusCode::CONFLICT,
            "Conflict",
            "Já existe uma empresa com este CPF/CNPJ.",
        );
    }
    let now = Utc::now().fixed_offset();
    empresa.created_at = Some(now);
    empresa.updated_at = Some(now);
    s.empresas.insert(
        empresa.cpf_cnpj.clone(),
        StoredEmpresa { empresa: empresa.clone(), ..StoredEmpresa::default() },
    );
    Json(empresa).into_response()
}

#[derive(Debug, Deserialize)]
struct ListQuery {
    cpf_cnpj: Option<String>,
    #[serde(rename = "$top")]
    top: Option<usize>,
    #[serde(rename = "$skip")]
    skip: Option<usize>,
    #[serde(rename = "$inlinecount")]
    inlinecount: Option<bool>,
}

async fn list(State(h): State<FakeHandle>, Query(q): Query<ListQuery>) -> Response {
    let s = h.lock();
    let mut all: Vec<&Empresa> = s
        .empresas
        .values()
        .map(|e| &e.empresa)
        .filter(|e| q.cpf_cnpj.as_ref().is_none_or(|c| &e.cpf_cnpj == c))
        .collect();
    all.sort_by_key(|e| std::cmp::Reverse(e.created_at));
    let count = all.len();
    let data = all
        .into_iter()
        .skip(q.skip.unwrap_or(0))
        .take(q.top.unwrap_or(10).min(100))
        .cloned()
        .collect();
    Json(EmpresaListagem {
        count: q
            .inlinecount
            .unwrap_or(false)
            .then(|| i32::try_from(count).unwrap_or(i32::MAX)),
        data,
    })
    .into_response()
}

async fn read(State(h): State<FakeHandle>, Path(cpf_cnpj): Path<String>) -> Response {
    match h.lock().empresas.get(&cpf_cnpj) {
        Some(e) => Json(e.empresa.clone()).into_response(),
        None => not_found(NO_COMPANY),
    }
}

async fn update(
    State(h): State<FakeHandle>,
    Path(cpf_cnpj): Path<String>,
    Body(mut empresa): Body<Empresa>,
) -> Response {
    let mut s = h.lock();
    let Some(stored) = s.empresas.get_mut(&cpf_cnpj) else {
        return not_found(NO_COMPANY);
    };
    empresa.cpf_cnpj = cpf_cnpj;
    empresa.created_at = stored.empresa.created_at;
    empresa.updated_at = Some(Utc::now().fixed_offset());
    stored.empresa = empresa.clone();
    Json(empresa).into_response()
}

async fn remove(State(h): State<FakeHandle>, Path(cpf_cnpj): Path<String>) -> Response {
    match h.lock().empresas.remove(&cpf_cnpj) {
        Some(_) => StatusCode::NO_CONTENT.into_response(),
        None => not_found(NO_COMPANY),
    }
}

/// `GET` and `PUT` of one per-document setting, kept as sent.
fn setting<T>(
    path: &'static str,
    field: fn(&mut StoredEmpresa) -> &mut Option<T>,
) -> Router<FakeHandle>
where
    T: Serialize + DeserializeOwned + Clone + Send + 'static,
{
    Router::new().route(
        path,
        get(move |State(h): State<FakeHandle>, Path(c): Path<String>| async move {
            let mut s = h.lock();
            let Some(e) = s.empresas.get_mut(&c) else {
                return not_found(NO_COMPANY);
            };
            match field(e) {
                Some(config) => Json(config.clone()).into_response(),
                None => not_found("Configuração não encontrada."),
            }
        })
        .put(
            move |State(h): State<FakeHandle>, Path(c): Path<String>, Body(config): Body<T>| async move {
                let mut s = h.lock();
                let Some(e) = s.empresas.get_mut(&c) else {
                    return not_found(NO_COMPANY);
                };
                *field(e) = Some(config.clone());
                Json(config).into_response()
            },
        ),
    )
}

async fn put_certificate(
    State(h): State<FakeHandle>,
    Path(cpf_cnpj): Path<String>,
    Body(pedido): Body<EmpresaPedidoCadastroCertificado>,
) -> Response {
    let Ok(pfx) = base64::engine::general_purpose::STANDARD.decode(pedido.certificado.trim())
    else {
        return error(
            StatusCode::BAD_REQUEST,
            "ValidationFailed",
            "O certificado deve ser o arquivo .pfx codificado em base64.",
        );
    };
    if pfx.is_empty() || pedido.password.is_empty() {
        return error(
            StatusCode::BAD_REQUEST,
            "ValidationFailed",
            "Certificado ou senha inválidos.",
        );
    }
    let mut s = h.lock();
    let Some(e) = s.empresas.get_mut(&cpf_cnpj) else {
        return not_found(NO_COMPANY);
    };
    let mut hasher = DefaultHasher::new();
    pfx.hash(&mut hasher);
    let digest = hasher.finish();
    let now = Utc::now().fixed_offset();
    let nome = e.empresa.nome_razao_social.clone();
    let certificado = EmpresaCertificado {
        serial_number: Some(format!("{digest:016X}")),
        issuer_name: Some("CN=AC Simulada da Nuvem Fiscal".into()),
        not_valid_before: Some(now),
        not_valid_after: Some(now + Duration::days(365)),
        thumbprint: Some(format!("{digest:040X}")),
        subject_name: Some(format!("CN={nome}:{cpf_cnpj}")),
        cpf_cnpj: Some(cpf_cnpj),
        nome_razao_social: Some(nome),
    };
    e.certificado = Some(certificado.clone());
    Json(certificado).into_response()
}

async fn read_certificate(State(h): State<FakeHandle>, Path(c): Path<String>) -> Response {
    match h.lock().empresas.get(&c) {
        None => not_found(NO_COMPANY),
        Some(e) => match &e.certificado {
            Some(cert) => Json(cert.clone()).into_response(),
            None => not_found("Certificado não encontrado."),
        },
    }
}

async fn delete_certificate(State(h): State<FakeHandle>, Path(c): Path<String>) -> Response {
    match h.lock().empresas.get_mut(&c).map(|e| e.certificado.take()) {
        Some(Some(_)) => StatusCode::NO_CONTENT.into_response(),
        Some(None) => not_found("Certificado não encontrado."),
        None => not_found(NO_COMPANY),
    }
}

/// The spec's multipart body: the image in the part `Input`.
async fn put_logo(
    State(h): State<FakeHandle>,
    Path(c): Path<String>,
    mut form: Multipart,
) -> Response {
    let mut image = None;
    loop {
        match form.next_field().await {
            Ok(Some(field)) if field.name() == Some("Input") => match field.bytes().await {
                Ok(bytes) => image = Some(bytes.to_vec()),
                Err(e) => return e.into_response(),
            },
            Ok(Some(_)) => {}
            Ok(None) => break,
            Err(e) => return e.into_response(),
        }
    }
    let Some(image) = image else {
        return error(
            StatusCode::BAD_REQUEST,
            "ValidationFailed",
            "Envie a imagem no campo Input.",
        );
    };
    let Some((mime, _)) = image_kind(&image) else {
        return error(
            StatusCode::BAD_REQUEST,
            "ValidationFailed",
            "Tipos de mídia suportados: image/png e image/jpeg.",
        );
    };
    if image.len() > LOGOTIPO_MAX_BYTES {
        return error(
            StatusCode::BAD_REQUEST,
            "ValidationFailed",
            "Tamanho máximo do arquivo: 200 KB.",
        );
    }
    match h.lock().empresas.get_mut(&c) {
        Some(e) => {
            e.logotipo = Some((mime, image));
            StatusCode::NO_CONTENT.into_response()
        }
        None => not_found(NO_COMPANY),
    }
}

async fn read_logo(State(h): State<FakeHandle>, Path(c): Path<String>) -> Response {
    match h.lock().empresas.get(&c) {
        None => not_found(NO_COMPANY),
        Some(e) => match &e.logotipo {
            Some((mime, bytes)) => ([(header::CONTENT_TYPE, *mime)], bytes.clone()).into_response(),
            None => not_found("Logotipo não encontrado."),
        },
    }
}

async fn delete_logo(State(h): State<FakeHandle>, Path(c): Path<String>) -> Response {
    match h.lock().empresas.get_mut(&c).map(|e| e.logotipo.take()) {
        Some(Some(_)) => StatusCode::NO_CONTENT.into_response(),
        Some(None) => not_found("Logotipo não encontrado."),
        None => not_found(NO_COMPANY),
    }
}
