//! The fake's Distribuição de NF-e and manifestação do destinatário.
//!
//! [`FakeHandle::issue_against`] plays a supplier issuing an NF-e to a
//! company: the NF-e's XML (an `nfeProc` or a bare `NFe`) is read for its key,
//! number, series, emitter and total, and the Ambiente Nacional gives it the
//! company's next NSU as a summary (`resNFe`). A `dist-nsu` request returns the
//! documents after the NSU asked (up to 50, `codigo_status` 138, or 137 when
//! there is none); `cons-chave` the newest document of a key. A ciência or
//! confirmação makes the whole NF-e (`procNFe`) available under a new NSU, as
//! the SEFAZ does; a second event of the same type is refused with cStat 573,
//! an unknown key with 217. [`FakeHandle::distribute_processing`] makes the
//! next requests answer `processando` first.

use std::collections::{BTreeMap, HashMap};

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use chrono::{DateTime, FixedOffset, Utc};
use rust_decimal::Decimal;

use super::{not_found, parse, FakeHandle, Invalid};
use crate::nfe_xml::NfeHeader;
use crate::nuvemfiscal::paths::{
    DISTRIBUICAO_NFE, DISTRIBUICAO_NFE_DOCUMENTO_XML, DISTRIBUICAO_NFE_ID,
    DISTRIBUICAO_NFE_MANIFESTACOES,
};
use crate::nuvemfiscal::types::{
    DistribuicaoNfe, DistribuicaoNfeDocumento, DistribuicaoNfeEvento, DistribuicaoNfePedido,
    DistribuicaoNfePedidoManifestacao, DistribuicaoStatus, TipoConsultaDistribuicao,
    TipoManifestacao,
};

/// Documents returned by one `dist-nsu` request at most (the SEFAZ's 50).
const PAGE: usize = 50;

/// An NF-e issued against a company, as the Ambiente Nacional keeps it.
#[derive(Debug, Clone)]
struct Issued {
    chave: String,
    emitente_cnpj: String,
    emitente_nome: String,
    emitente_ie: String,
    valor: Decimal,
    emissao: Option<DateTime<FixedOffset>>,
    protocolo: String,
    xml: String,
    /// Manifestations registered, by type.
    events: Vec<TipoManifestacao>,
    /// Whether the whole NF-e was made available (after a ciência or confirmação).
    released: bool,
}

#[derive(Debug, Default)]
pub struct DistState {
    /// Per recipient CPF/CNPJ: its NF-e by key.
    issued: HashMap<String, BTreeMap<String, Issued>>,
    /// Per recipient: its documents by NSU (the NSU is per recipient).
    by_nsu: HashMap<String, BTreeMap<i64, DistribuicaoNfeDocumento>>,
    /// Document id -> (recipient, XML).
    xml: HashMap<String, String>,
    /// Distribution requests by id.
    requests: HashMap<String, DistribuicaoNfe>,
    /// Requests still to answer `processando` before `concluido`.
    processing: u32,
    /// Looks at a `processando` request before it is `concluido`.
    pending: HashMap<String, u32>,
    events: u64,
}

impl FakeHandle {
    /// A supplier issues `xml` (an NF-e) to `cpf_cnpj` (digits): it is
    /// distributed to that recipient under its next NSU as a summary. Returns
    /// the access key, or why the XML could not be read.
    pub fn issue_against(&self, cpf_cnpj: &str, xml: &str) -> Result<String, String> {
        let issued = read_nfe(xml)?;
        let chave = issued.chave.clone();
        let mut s = self.lock();
        let d = &mut s.dist;
        d.issued
            .entry(cpf_cnpj.to_string())
            .or_default()
            .insert(chave.clone(), issued.clone());
        let doc = summary_doc(&issued);
        let summary = summary_xml(&issued);
        add_doc(d, cpf_cnpj, doc, summary);
        Ok(chave)
    }

    /// The next `n` distribution requests answer `processando` first, then
    /// `concluido` on their first consult.
    pub fn distribute_processing(&self, n: u32) {
        self.lock().dist.processing = n;
    }
}

fn add_doc(d: &mut DistState, cpf_cnpj: &str, mut doc: DistribuicaoNfeDocumento, xml: String) {
    let docs = d.by_nsu.entry(cpf_cnpj.to_string()).or_default();
    let nsu = docs.keys().next_back().copied().unwrap_or(0) + 1;
    doc.nsu = Some(nsu);
    doc.id = format!("dfe_{}", uuid::Uuid::new_v4().simple());
    doc.created_at = Some(Utc::now().fixed_offset());
    d.xml.insert(doc.id.clone(), xml);
    docs.insert(nsu, doc);
}

pub(super) fn routes() -> Router<FakeHandle> {
    Router::new()
        .route(DISTRIBUICAO_NFE, post(distribuir))
        .route(DISTRIBUICAO_NFE_ID, get(consultar))
        .route(DISTRIBUICAO_NFE_DOCUMENTO_XML, get(xml))
        .route(DISTRIBUICAO_NFE_MANIFESTACOES, post(manifestar))
}

async fn distribuir(State(h): State<FakeHandle>, body: Bytes) -> Response {
    let pedido: DistribuicaoNfePedido = match parse(&body) {
        Ok(p) => p,
        Err(e) => return e.into_response(),
    };
    if pedido.cpf_cnpj.is_empty() || !pedido.cpf_cnpj.bytes().all(|b| b.is_ascii_digit()) {
        return Invalid("cpf_cnpj deve ter somente dígitos.".into()).into_response();
    }
    let mut s = h.lock();
    let d = &mut s.dist;
    let docs = d.by_nsu.get(&pedido.cpf_cnpj);
    let max_nsu = docs
        .and_then(|m| m.keys().next_back().copied())
        .unwrap_or(0);
    let (found, ultimo) = match pedido.tipo_consulta {
        TipoConsultaDistribuicao::DistNsu => {
            let from = pedido.dist_nsu.unwrap_or(0);
            let found: Vec<DistribuicaoNfeDocumento> = docs
                .map(|m| {
                    m.range(from + 1..)
                        .take(PAGE)
                        .map(|(_, d)| d.clone())
                        .collect()
                })
                .unwrap_or_default();
            let ultimo = found.last().and_then(|d| d.nsu).unwrap_or(from.max(0));
            (found, ultimo)
        }
        TipoConsultaDistribuicao::ConsNsu => {
            let Some(nsu) = pedido.cons_nsu else {
                return Invalid("cons_nsu é obrigatório em cons-nsu.".into()).into_response();
            };
            let found: Vec<_> = docs
                .and_then(|m| m.get(&nsu))
                .cloned()
                .into_iter()
                .collect();
            (found, max_nsu)
        }
        TipoConsultaDistribuicao::ConsChave => {
            let Some(chave) = pedido.cons_chave.as_deref() else {
                return Invalid("cons_chave é obrigatório em cons-chave.".into()).into_response();
            };
            let found: Vec<_> = docs
                .and_then(|m| {
                    m.values()
                        .rev()
                        .find(|d| d.chave_acesso.as_deref() == Some(chave))
                })
                .cloned()
                .into_iter()
                .collect();
            (found, max_nsu)
        }
    };
    let processing = d.processing > 0;
    if processing {
        d.processing -= 1;
    }
    let (codigo, motivo) = if found.is_empty() {
        (137, "Nenhum documento localizado para o Destinatário")
    } else {
        (138, "Documento(s) localizado(s)")
    };
    let answer = DistribuicaoNfe {
        id: format!("dist_{}", uuid::Uuid::new_v4().simple()),
        created_at: Some(Utc::now().fixed_offset()),
        status: DistribuicaoStatus::Concluido,
        ambiente: pedido.ambiente,
        uf_autor: pedido.uf_autor.clone(),
        tipo_consulta: pedido.tipo_consulta,
        dist_nsu: pedido.dist_nsu,
        cons_nsu: pedido.cons_nsu,
        cons_chave: pedido.cons_chave.clone(),
        codigo_status: codigo,
        motivo_status: Some(motivo.into()),
        data_hora_resposta: Utc::now().fixed_offset(),
        ultimo_nsu: ultimo,
        max_nsu,
        documentos: found,
    };
    d.requests.insert(answer.id.clone(), answer.clone());
    if processing {
        d.pending.insert(answer.id.clone(), 1);
        let shown = DistribuicaoNfe {
            status: DistribuicaoStatus::Processando,
            documentos: Vec::new(),
            ..answer
        };
        return Json(shown).into_response();
    }
    Json(answer).into_response()
}

async fn consultar(State(h): State<FakeHandle>, Path(id): Path<String>) -> Response {
    let mut s = h.lock();
    let d = &mut s.dist;
    let Some(answer) = d.requests.get(&id).cloned() else {
        return not_found("Distribuição não encontrada.");
    };
    if let Some(left) = d.pending.get_mut(&id) {
        if *left > 0 {
            *left -= 1;
            return Json(DistribuicaoNfe {
                status: DistribuicaoStatus::Processando,
                documentos: Vec::new(),
                ..answer
            })
            .into_response();
        }
    }
    Json(answer).into_response()
}

async fn xml(State(h): State<FakeHandle>, Path(id): Path<String>) -> Response {
    let s = h.lock();
    match s.dist.xml.get(&id) {
        Some(x) => ([(header::CONTENT_TYPE, "application/xml")], x.clone()).into_response(),
        None => not_found("Documento não encontrado."),
    }
}

async fn manifestar(State(h): State<FakeHandle>, body: Bytes) -> Response {
    let pedido: DistribuicaoNfePedidoManifestacao = match parse(&body) {
        Ok(p) => p,
        Err(e) => return e.into_response(),
    };
    if pedido.chave_acesso.len() != 44 || !pedido.chave_acesso.bytes().all(|b| b.is_ascii_digit()) {
        return Invalid("chave_acesso deve ter 44 dígitos.".into()).into_response();
    }
    if pedido.tipo_evento.needs_justification() {
        let len = pedido
            .justificativa
            .as_deref()
            .map_or(0, |j| j.trim().chars().count());
        if !(15..=255).contains(&len) {
            return Invalid("justificativa deve ter entre 15 e 255 caracteres.".into())
                .into_response();
        }
    }
    let mut s = h.lock();
    let d = &mut s.dist;
    d.events += 1;
    let seq = d.events;
    let now = Utc::now().fixed_offset();
    let mut event = DistribuicaoNfeEvento {
        id: Some(format!("evt_{}", uuid::Uuid::new_v4().simple())),
        created_at: Some(now),
        ambiente: Some(pedido.ambiente),
        cpf_cnpj_autor: Some(pedido.cpf_cnpj.clone()),
        chave_acesso: Some(pedido.chave_acesso.clone()),
        tipo_evento: Some(pedido.tipo_evento.code().into()),
        data_evento: Some(now),
        numero_sequencial: Some(1),
        justificativa: pedido.justificativa.clone(),
        ..Default::default()
    };
    let issued = d
        .issued
        .get_mut(&pedido.cpf_cnpj)
        .and_then(|m| m.get_mut(&pedido.chave_acesso));
    let Some(issued) = issued else {
        event.status = Some("rejeitado".into());
        event.codigo_status = Some(217);
        event.motivo_status = Some("Rejeição: NF-e não consta na base de dados da SEFAZ".into());
        return (StatusCode::OK, Json(event)).into_response();
    };
    if issued.events.contains(&pedido.tipo_evento) {
        event.status = Some("rejeitado".into());
        event.codigo_status = Some(573);
        event.motivo_status = Some("Rejeição: Duplicidade de evento".into());
        return Json(event).into_response();
    }
    issued.events.push(pedido.tipo_evento);
    event.status = Some("registrado".into());
    event.codigo_status = Some(135);
    event.motivo_status = Some("Evento registrado e vinculado a NF-e".into());
    event.data_registro = Some(now);
    event.numero_protocolo = Some(format!("9{:014}", seq));
    let release = matches!(
        pedido.tipo_evento,
        TipoManifestacao::Ciencia | TipoManifestacao::Confirmacao
    ) && !issued.released;
    if release {
        issued.released = true;
        let issued = issued.clone();
        let doc = DistribuicaoNfeDocumento {
            schema: "procNFe_v4.00.xsd".into(),
            resumo: Some(false),
            ..summary_doc(&issued)
        };
        add_doc(d, &pedido.cpf_cnpj, doc, issued.xml.clone());
    }
    Json(event).into_response()
}

fn summary_doc(i: &Issued) -> DistribuicaoNfeDocumento {
    DistribuicaoNfeDocumento {
        schema: "resNFe_v1.01.xsd".into(),
        tipo_documento: Some("nota".into()),
        chave_acesso: Some(i.chave.clone()),
        resumo: Some(true),
        data_evento: i.emissao,
        data_recebimento: i.emissao,
        numero_protocolo: Some(i.protocolo.clone()),
        tipo_nfe: Some(1),
        valor_nfe: Some(i.valor),
        emitente_cpf_cnpj: Some(i.emitente_cnpj.clone()),
        emitente_nome_razao_social: Some(i.emitente_nome.clone()),
        emitente_inscricao_estadual: Some(i.emitente_ie.clone()),
        ..Default::default()
    }
}

/// The `resNFe` the Ambiente Nacional distributes before a manifestation.
fn summary_xml(i: &Issued) -> String {
    let emissao = i.emissao.map(|d| d.to_rfc3339()).unwrap_or_default();
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\
<resNFe xmlns=\"http://www.portalfiscal.inf.br/nfe\" versao=\"1.01\">\
<chNFe>{}</chNFe><CNPJ>{}</CNPJ><xNome>{}</xNome><IE>{}</IE><dhEmi>{}</dhEmi>\
<tpNF>1</tpNF><vNF>{}</vNF><dhRecbto>{}</dhRecbto><nProt>{}</nProt><cSitNFe>1</cSitNFe></resNFe>",
        i.chave,
        i.emitente_cnpj,
        escape(&i.emitente_nome),
        i.emitente_ie,
        emissao,
        i.valor,
        emissao,
        i.protocolo
    )
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// What the Ambiente Nacional keeps of an NF-e XML.
fn read_nfe(xml: &str) -> Result<Issued, String> {
    let h = NfeHeader::read(xml.as_bytes())?;
    Ok(Issued {
        protocolo: h
            .protocolo
            .unwrap_or_else(|| format!("1{}", &h.key.key[..14])),
        emitente_cnpj: h.emitente_cnpj,
        emitente_nome: h.emitente_nome,
        emitente_ie: h.emitente_ie,
        valor: h.valor,
        emissao: h.emissao,
        xml: xml.to_string(),
        events: Vec::new(),
        released: false,
        chave: h.key.key,
    })
}
