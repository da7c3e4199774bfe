//! The fake's emission of an NF-e, CT-e or MDF-e: the request read with the
//! spec's types, the parts the provider refuses to go without, the access
//! key, and the SEFAZ's answer to come (authorised, or rejected by a rule).

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use chrono::{DateTime, FixedOffset, Utc};
use rust_decimal::Decimal;

use super::access_key::{self, KeyParts};
use super::state::{Kind, Outcome, StoredDoc};
use super::{errors, invalid, parse, FakeHandle};
use crate::nuvemfiscal::types::{
    Ambiente, CtePedidoEmissao, Dfe, DfeStatus, ErrorDetail, MdfePedidoEmissao, NfePedidoEmissao,
};

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

pub(super) fn emit(kind: Kind, h: &FakeHandle, body: &[u8]) -> Response {
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
