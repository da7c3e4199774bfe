//! The fake's NF-e, CT-e and MDF-e routes.

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use chrono::{DateTime, FixedOffset, Utc};
use rust_decimal::Decimal;
use serde::Deserialize;

use super::access_key::{self, KeyParts};
use super::state::{Kind, Outcome, State as FakeState, StoredDoc};
use super::{error, errors, files, not_found, parse, Body, FakeHandle, Invalid};
use crate::nuvemfiscal::paths;
use crate::nuvemfiscal::types::{
    Ambiente, CtePedidoEmissao, Dfe, DfeAutorEvento, DfeAutorizacao, DfeCancelamento,
    DfeCartaCorrecao, DfeListagem, DfeSincronizacao, DfeStatus, ErrorDetail, EventoStatus,
    MdfeEncerramento, MdfePedidoEmissao, MdfePedidoEncerramento, NfePedidoCancelamento,
    NfePedidoCartaCorrecao, NfePedidoEmissao, SincronizacaoStatus,
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

/// What every emission needs, whatever its type.
struct NewDoc {
    ambiente: Ambiente,
    referencia: Option<String>,
    cpf_cnpj: Option<String>,
    c_uf: i32,
    dh_emi: DateTime<FixedOffset>,
    modelo: Option<i32>,
    serie: i32,
    numero: i32,
    tp_emis: i32,
    codigo: Option<String>,
    valor_total: Decimal,
    ncms: Vec<String>,
    /// The SEFAZ's rejection this document gets whatever its items (CT-e).
    rejection: Option<Outcome>,
}

fn emit(kind: Kind, h: &FakeHandle, body: &[u8]) -> Response {
    let value: serde_json::Value = match parse(body) {
        Ok(v) => v,
        Err(invalid) => return invalid.into_response(),
    };
    let missing = missing_parts(kind, &value);
    if let Some(first) = missing.first().and_then(|e| e.message.clone()) {
        // The provider's shape: the first problem in `message`, all in `errors`.
        return errors(
            StatusCode::BAD_REQUEST,
            "ValidationFailed",
            &format!("Validation failed: {first}"),
            missing,
        );
    }
    let new = match kind {
        Kind::Nfe => parse::<NfePedidoEmissao>(body).map(|p| {
            let inf = p.infNFe;
            NewDoc {
                ambiente: p.ambiente,
                referencia: p.referencia,
                cpf_cnpj: inf.emit.CNPJ.or(inf.emit.CPF),
                c_uf: inf.ide.cUF,
                dh_emi: inf.ide.dhEmi,
                modelo: inf.ide.r#mod,
                serie: inf.ide.serie,
                numero: inf.ide.nNF,
                tp_emis: inf.ide.tpEmis,
                codigo: inf.ide.cNF,
                valor_total: inf.total.ICMSTot.vNF,
                ncms: inf.det.into_iter().map(|d| d.prod.NCM).collect(),
                rejection: None,
            }
        }),
        Kind::Cte => parse::<CtePedidoEmissao>(body).map(|p| {
            let rejection = cte_rejection(&p);
            let inf = p.infCte;
            NewDoc {
                rejection,
                ambiente: p.ambiente,
                referencia: p.referencia,
                cpf_cnpj: inf.emit.CNPJ.or(inf.emit.CPF),
                c_uf: inf.ide.cUF,
                dh_emi: inf.ide.dhEmi,
                modelo: inf.ide.r#mod,
                serie: inf.ide.serie,
                numero: inf.ide.nCT,
                tp_emis: inf.ide.tpEmis,
                codigo: inf.ide.cCT,
                valor_total: inf.vPrest.vTPrest,
                ncms: Vec::new(),
            }
        }),
        Kind::Mdfe => parse::<MdfePedidoEmissao>(body).map(|p| {
            let inf = p.infMDFe;
            NewDoc {
                ambiente: p.ambiente,
                referencia: p.referencia,
                cpf_cnpj: inf.emit.CNPJ.or(inf.emit.CPF),
                c_uf: inf.ide.cUF,
                dh_emi: inf.ide.dhEmi,
                modelo: inf.ide.r#mod,
                serie: inf.ide.serie,
                numero: inf.ide.nMDF,
                tp_emis: inf.ide.tpEmis,
                codigo: inf.ide.cMDF,
                valor_total: inf.tot.vCarga,
                // The predominant product's NCM, so a rule rejects an MDF-e too.
                ncms: inf.prodPred.and_then(|p| p.NCM).into_iter().collect(),
                rejection: None,
            }
        }),
    };
    match new {
        Ok(new) => create(kind, h, new),
        Err(invalid) => invalid.into_response(),
    }
}

/// The parts the provider refuses to go without, with its kind of message.
fn missing_parts(kind: Kind, v: &serde_json::Value) -> Vec<ErrorDetail> {
    let (root, required): (&str, &[&str]) = match kind {
        Kind::Nfe => ("infNFe", &["emit", "det"]),
        Kind::Cte => ("infCte", &["emit"]),
        Kind::Mdfe => ("infMDFe", &["emit"]),
    };
    let missing = |field: String| ErrorDetail {
        code: Some("Required".into()),
        message: Some(format!("O campo '{field}' é obrigatório.")),
    };
    let Some(inf) = v.get(root).filter(|i| i.is_object()) else {
        return vec![missing(root.to_string())];
    };
    let mut out = Vec::new();
    for field in required {
        let present = match inf.get(*field) {
            Some(serde_json::Value::Array(items)) => !items.is_empty(),
            Some(serde_json::Value::Null) | None => false,
            Some(_) => true,
        };
        if !present {
            out.push(missing(format!("{root}.{field}")));
        }
    }
    // An NF-e (model 55) has a recipient; only the NFC-e (65) may go without.
    if kind == Kind::Nfe {
        let modelo = inf.pointer("/ide/mod").and_then(serde_json::Value::as_i64);
        let has_dest = inf.get("dest").is_some_and(|d| !d.is_null());
        if modelo.unwrap_or(55) == 55 && !has_dest {
            out.push(missing(format!("{root}.dest")));
        }
    }
    out
}

fn invalid(message: &str) -> Response {
    Invalid(message.to_string()).into_response()
}

fn create(kind: Kind, h: &FakeHandle, new: NewDoc) -> Response {
    let Some(cpf_cnpj) = new.cpf_cnpj.filter(|c| !c.is_empty()) else {
        return invalid("Informe o CNPJ ou o CPF do emitente (emit.CNPJ ou emit.CPF).");
    };
    let modelo = new.modelo.unwrap_or(kind.modelo() as i32);
    let (Ok(c_uf), Ok(serie), Ok(numero), Ok(tp_emis), Ok(modelo_u)) = (
        u32::try_from(new.c_uf),
        u32::try_from(new.serie),
        u32::try_from(new.numero),
        u32::try_from(new.tp_emis),
        u32::try_from(modelo),
    ) else {
        return invalid("cUF, mod, serie, número e tpEmis não podem ser negativos.");
    };
    let mut s = h.lock();
    let seq = s.next_seq();
    let codigo = match new.codigo.as_deref().map(str::parse::<u32>) {
        Some(Ok(c)) => c,
        Some(Err(_)) => return invalid("O código numérico da chave deve ter 8 dígitos."),
        // Like an emitter: random-looking, and never equal to the number.
        None => {
            let c = ((seq * 48_271 + 12_345_678) % 100_000_000) as u32;
            if c == numero {
                (c + 1) % 100_000_000
            } else {
                c
            }
        }
    };
    let aamm = new.dh_emi.format("%y%m").to_string();
    let Some(chave) = access_key::build(&KeyParts {
        c_uf,
        aamm: &aamm,
        cpf_cnpj: &cpf_cnpj,
        modelo: modelo_u,
        serie,
        numero,
        tp_emis,
        codigo,
    }) else {
        return invalid("Os dados da chave de acesso (cUF, CNPJ, série, número, código) não cabem nos seus tamanhos.");
    };
    let outcome = new.rejection.unwrap_or_else(|| {
        s.ncm_rejections
            .iter()
            .find(|rule| new.ncms.contains(&rule.ncm))
            .map_or(Outcome::Authorize, |rule| Outcome::Reject {
                c_stat: rule.c_stat,
                x_motivo: rule.x_motivo.clone(),
            })
    });
    let dfe = Dfe {
        id: format!("{}_{}", kind.prefix(), uuid::Uuid::new_v4().simple()),
        ambiente: Some(new.ambiente),
        created_at: Some(Utc::now().fixed_offset()),
        status: DfeStatus::Pendente,
        referencia: new.referencia,
        data_emissao: Some(new.dh_emi),
        modelo: Some(modelo),
        serie: Some(new.serie),
        numero: Some(new.numero),
        tipo_emissao: Some(new.tp_emis),
        valor_total: Some(new.valor_total),
        chave: Some(chave),
        autorizacao: None,
    };
    let pending_looks = s.pending_looks;
    s.docs.insert(
        dfe.id.clone(),
        StoredDoc {
            kind,
            cpf_cnpj: cpf_cnpj.chars().filter(char::is_ascii_digit).collect(),
            dfe: dfe.clone(),
            outcome,
            seq,
            cartas: 0,
            pending_looks,
        },
    );
    Json(dfe).into_response()
}

/// Runs `f` on the document `id` of this type after the SEFAZ has answered
/// it (a pending document is settled first).
fn with_doc(
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
fn settle(doc: &mut StoredDoc, seq: u64) {
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
fn protocol(doc: &StoredDoc, seq: u64) -> String {
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

fn cancel(kind: Kind, h: &FakeHandle, id: &str, justificativa: Option<String>) -> Response {
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

async fn carta_correcao(
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

async fn encerrar(
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

/// The SEFAZ's check of a CT-e's ICMS: the value must be the base times the
/// rate (to the cent), else cStat 528.
fn cte_rejection(p: &CtePedidoEmissao) -> Option<Outcome> {
    let icms = &p.infCte.imp.ICMS;
    let (bc, rate, value) = if let Some(i) = &icms.ICMS00 {
        (i.vBC, i.pICMS, i.vICMS)
    } else if let Some(i) = &icms.ICMS20 {
        (i.vBC, i.pICMS, i.vICMS)
    } else if let Some(i) = &icms.ICMS90 {
        (i.vBC, i.pICMS, i.vICMS)
    } else {
        return None;
    };
    let expected = (bc * rate / Decimal::ONE_HUNDRED).round_dp(2);
    ((expected - value).abs() > Decimal::new(1, 2)).then(|| Outcome::Reject {
        c_stat: 528,
        x_motivo: "Rejeição: Valor do ICMS difere do produto BC e Alíquota".into(),
    })
}

async fn carta_correcao_cte(
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
