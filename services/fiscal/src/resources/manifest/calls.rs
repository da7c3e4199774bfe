//! The declared calls of `manifestonfe`: distribution, manifestation, XML
//! download, supplier and purchase, upload.
//!
//! The distribution locks the company's NSU row for the whole call, so two
//! users pressing "Buscar NF-e" at once ask the SEFAZ once each in turn, and
//! the second finds nothing new. A manifestation locks its row while it asks
//! the provider: one event per NF-e at a time.

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::resource::params::{company, id_param};
use erp_platform::resource::{file_reply, query, ActionHandler, Call};
use erp_platform::{Error, Result};
use serde_json::{json, Value};

use super::events::{fetch_whole, register};
use super::store::{company_settings, upsert, whole, Incoming, DIST_WAIT};
use super::Ctx;
use crate::nfe_xml::{AccessKey, NfeHeader};
use crate::nuvemfiscal::types::{
    DistribuicaoNfePedido, DistribuicaoStatus, TipoConsultaDistribuicao, TipoManifestacao,
};
use crate::resources::call_body::{body_int, body_text};
use crate::resources::company::provider::{client, provider_error, provider_message};
use crate::resources::company::take_upload;

/// Requests per "Buscar NF-e" at most (50 documents each): a company far
/// behind catches up over a few presses instead of one endless call.
const DIST_ROUNDS: usize = 20;

const TYPES: &str =
    "Informe o tipo da manifestação (TIPO_EVENTO): 210210 ciência, 210200 confirmação, 210220 desconhecimento ou 210240 operação não realizada.";
const SHORT_JUSTIFICATION: &str =
    "A justificativa da manifestação deve ter entre 15 e 255 caracteres.";

fn company_of(call: &Call<'_>) -> Result<i64> {
    company(
        id_param(call.params, "emp")
            .ok()
            .or_else(|| body_int(&call.body, "MAN_EMP_ID"))
            .or(call.emp),
    )
}

fn man_id(call: &Call<'_>) -> Result<i64> {
    body_int(&call.body, "MAN_ID")
        .filter(|id| *id > 0)
        .ok_or_else(|| Error::validation("Informe a NF-e do manifesto (MAN_ID)."))
}

/// The row as the register reads it.
async fn row(tx: &mut Tx, call: &Call<'_>, emp: i64, id: i64) -> Result<Value> {
    query::get(tx, call.res, call.caller, Some(emp), &[id.to_string()]).await
}

/// `POST /manifestonfe/distribuicao/{emp}`.
pub struct Distribute(pub Arc<Ctx>);

#[async_trait]
impl ActionHandler for Distribute {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company_of(&call)?;
        let c = call.caller.client_id;
        let nf = client(&self.0)?;
        let company = company_settings(tx, c, emp).await?;
        sqlx::query(
            "INSERT INTO fiscal.manifestonfe_nsu (client_id, emp_id) VALUES ($1, $2) ON CONFLICT DO NOTHING",
        )
        .bind(c)
        .bind(emp)
        .execute(&mut **tx)
        .await?;
        let mut ultimo: i64 = sqlx::query_scalar(
            "SELECT ultimo_nsu FROM fiscal.manifestonfe_nsu WHERE client_id = $1 AND emp_id = $2 FOR UPDATE",
        )
        .bind(c)
        .bind(emp)
        .fetch_one(&mut **tx)
        .await?;
        let mut max = ultimo;
        let (mut novas, mut completas, mut recebidos) = (Vec::new(), 0, 0);
        let mut last_status = (137, String::new());
        for _ in 0..DIST_ROUNDS {
            let pedido = DistribuicaoNfePedido {
                cpf_cnpj: company.cnpj.clone(),
                ambiente: company.ambiente,
                uf_autor: company.uf.clone().filter(|u| u.len() == 2),
                tipo_consulta: TipoConsultaDistribuicao::DistNsu,
                dist_nsu: Some(ultimo),
                cons_nsu: None,
                cons_chave: None,
                ignorar_tempo_espera: None,
            };
            let answer = nf
                .distribuir_nfe_e_aguardar(&pedido, DIST_WAIT)
                .await
                .map_err(provider_error)?;
            match answer.status {
                DistribuicaoStatus::Concluido => {}
                DistribuicaoStatus::Processando => return Err(Error::Unavailable(
                    "A SEFAZ ainda está processando a consulta: tente novamente em alguns minutos."
                        .into(),
                )),
                DistribuicaoStatus::Erro => {
                    return Err(Error::Unavailable(format!(
                        "A SEFAZ não atendeu a consulta: {} - {}",
                        answer.codigo_status,
                        answer.motivo_status.unwrap_or_default()
                    )))
                }
            }
            last_status = (
                answer.codigo_status,
                answer.motivo_status.clone().unwrap_or_default(),
            );
            for doc in &answer.documentos {
                recebidos += 1;
                let Some(key) = doc.chave_acesso.as_deref().and_then(AccessKey::parse) else {
                    continue;
                };
                if doc.tipo_documento.as_deref() == Some("evento") {
                    continue;
                }
                let incoming = match whole(nf, doc).await? {
                    Some(i) => {
                        completas += 1;
                        i
                    }
                    None => Incoming::from_summary(doc, key),
                };
                if upsert(tx, c, emp, call.caller.user_id, &incoming).await? {
                    novas.push(incoming.key.key.clone());
                }
            }
            ultimo = answer.ultimo_nsu.max(ultimo);
            max = answer.max_nsu.max(ultimo);
            if answer.documentos.is_empty() || ultimo >= max {
                break;
            }
        }
        sqlx::query(
            "UPDATE fiscal.manifestonfe_nsu SET ultimo_nsu = $3, max_nsu = $4, dta_consulta = now()
             WHERE client_id = $1 AND emp_id = $2",
        )
        .bind(c)
        .bind(emp)
        .bind(ultimo)
        .bind(max)
        .execute(&mut **tx)
        .await?;
        let mut ciencias = 0;
        let mut avisos = Vec::new();
        if company.ciencia_aut {
            for key in &novas {
                match register(
                    nf,
                    &company,
                    tx,
                    c,
                    emp,
                    key,
                    TipoManifestacao::Ciencia,
                    None,
                )
                .await
                {
                    Ok(()) => ciencias += 1,
                    Err(e) => avisos.push(format!("{key}: {}", e.public_message())),
                }
            }
        }
        let msg = if novas.is_empty() && completas == 0 {
            "Nenhuma NF-e nova emitida contra a empresa.".to_string()
        } else {
            format!(
                "{} NF-e nova(s), {} com o XML completo.",
                novas.len(),
                completas
            )
        };
        Ok(json!({
            "NOVAS": novas.len(),
            "COMPLETAS": completas,
            "DOCUMENTOS": recebidos,
            "CIENCIAS": ciencias,
            "ULTIMO_NSU": ultimo,
            "MAX_NSU": max,
            "CSTAT": last_status.0,
            "MOTIVO": last_status.1,
            "AVISOS": avisos,
            "msg": msg,
        }))
    }
}

/// `POST /manifestonfe/manifestar/nfe` {MAN_ID, TIPO_EVENTO, JUSTIFICATIVA}.
pub struct Manifest(pub Arc<Ctx>);

#[async_trait]
impl ActionHandler for Manifest {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company_of(&call)?;
        let id = man_id(&call)?;
        let tipo = body_text(&call.body, "TIPO_EVENTO")
            .and_then(|t| TipoManifestacao::from_code(&t))
            .ok_or_else(|| Error::validation(TYPES))?;
        let justificativa = if tipo.needs_justification() {
            let j = body_text(&call.body, "JUSTIFICATIVA").unwrap_or_default();
            if !(15..=255).contains(&j.chars().count()) {
                return Err(Error::validation(SHORT_JUSTIFICATION));
            }
            Some(j)
        } else {
            None
        };
        let c = call.caller.client_id;
        let (key, status): (String, String) = sqlx::query_as(
            "SELECT man_chave, man_situacao FROM fiscal.manifestonfe
             WHERE client_id = $1 AND man_emp_id = $2 AND man_id = $3 FOR UPDATE",
        )
        .bind(c)
        .bind(emp)
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or_else(|| Error::NotFound("NF-e do manifesto não encontrada.".into()))?;
        match status.as_str() {
            "F" | "D" | "N" => {
                let text = super::STATUSES
                    .iter()
                    .find(|(k, _)| *k == status)
                    .map_or("", |(_, t)| *t);
                return Err(Error::Conflict(format!(
                    "Esta NF-e já tem manifestação conclusiva ({text}): não aceita outra."
                )));
            }
            "C" if tipo == TipoManifestacao::Ciencia => {
                return Err(Error::Conflict(
                    "A ciência da operação desta NF-e já foi registrada.".into(),
                ));
            }
            _ => {}
        }
        let nf = client(&self.0)?;
        let company = company_settings(tx, c, emp).await?;
        register(nf, &company, tx, c, emp, &key, tipo, justificativa).await?;
        let mut answer = row(tx, &call, emp, id).await?;
        if let Value::Object(m) = &mut answer {
            m.insert(
                "msg".into(),
                Value::from(format!("{} registrada na SEFAZ.", tipo.text())),
            );
        }
        Ok(answer)
    }
}

/// `POST /manifestonfe/download/doc` {MAN_ID}: the whole NF-e when it came,
/// else (asked once more to the distribution) the summary's XML.
pub struct Download(pub Arc<Ctx>);

#[async_trait]
impl ActionHandler for Download {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company_of(&call)?;
        let id = man_id(&call)?;
        let c = call.caller.client_id;
        let (key, xml, doc_id, status): (String, Option<Vec<u8>>, Option<String>, String) =
            sqlx::query_as(
                "SELECT man_chave, man_xml, man_doc_id, man_situacao FROM fiscal.manifestonfe
                 WHERE client_id = $1 AND man_emp_id = $2 AND man_id = $3 FOR UPDATE",
            )
            .bind(c)
            .bind(emp)
            .bind(id)
            .fetch_optional(&mut **tx)
            .await?
            .ok_or_else(|| Error::NotFound("NF-e do manifesto não encontrada.".into()))?;
        if let Some(xml) = xml {
            return Ok(file_reply(
                "application/xml",
                &format!("{key}-nfe.xml"),
                &xml,
            ));
        }
        let nf = client(&self.0)?;
        if matches!(status.as_str(), "C" | "F") {
            let company = company_settings(tx, c, emp).await?;
            if fetch_whole(nf, &company, tx, c, emp, &key).await? {
                let xml: Option<Vec<u8>> = sqlx::query_scalar(
                    "SELECT man_xml FROM fiscal.manifestonfe WHERE client_id = $1 AND man_emp_id = $2 AND man_id = $3",
                )
                .bind(c)
                .bind(emp)
                .bind(id)
                .fetch_one(&mut **tx)
                .await?;
                if let Some(xml) = xml {
                    return Ok(file_reply(
                        "application/xml",
                        &format!("{key}-nfe.xml"),
                        &xml,
                    ));
                }
            }
        }
        let Some(doc_id) = doc_id else {
            return Err(Error::Conflict(
                "O XML desta NF-e ainda não está disponível.".into(),
            ));
        };
        if status == "P" {
            // Only the summary exists before a ciência: say so rather than
            // hand a file the purchases import would refuse.
            return Err(Error::Conflict(
                "A SEFAZ só entrega o XML completo depois da ciência ou da confirmação da operação: registre a ciência e baixe de novo.".into(),
            ));
        }
        let summary = nf
            .baixar_xml_documento_distribuicao(&doc_id)
            .await
            .map_err(|e| Error::Unavailable(provider_message(&e)))?;
        Ok(file_reply(
            "application/xml",
            &format!("{key}-resumo.xml"),
            &summary,
        ))
    }
}

/// `POST /manifestonfe/updatefornecedor` {MAN_ID, FOR_ID, COMP_ID?}.
pub struct Supplier;

#[async_trait]
impl ActionHandler for Supplier {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company_of(&call)?;
        let id = man_id(&call)?;
        let supplier = body_int(&call.body, "FOR_ID")
            .filter(|v| *v > 0)
            .ok_or_else(|| Error::validation("Informe o fornecedor (FOR_ID)."))?;
        let purchase = match call.body.get("COMP_ID") {
            None | Some(Value::Null) => None,
            Some(_) => Some(
                body_int(&call.body, "COMP_ID")
                    .filter(|v| *v > 0)
                    .ok_or_else(|| Error::validation("Compra (COMP_ID) inválida."))?,
            ),
        };
        let done = sqlx::query(
            "UPDATE fiscal.manifestonfe SET man_for_id = $4, man_comp_id = coalesce($5, man_comp_id)
             WHERE client_id = $1 AND man_emp_id = $2 AND man_id = $3",
        )
        .bind(call.caller.client_id)
        .bind(emp)
        .bind(id)
        .bind(supplier)
        .bind(purchase)
        .execute(&mut **tx)
        .await?
        .rows_affected();
        if done == 0 {
            return Err(Error::NotFound("NF-e do manifesto não encontrada.".into()));
        }
        row(tx, &call, emp, id).await
    }
}

/// `POST /manifestonfe` (multipart `file`: an NF-e XML addressed to the company).
pub struct Upload(pub Arc<Ctx>);

#[async_trait]
impl ActionHandler for Upload {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company_of(&call)?;
        let c = call.caller.client_id;
        let bytes = take_upload(&self.0.uploads, call.caller, call.params, &call.body).await?;
        let h = NfeHeader::read(&bytes).map_err(Error::validation)?;
        let cnpj: Option<String> = sqlx::query_scalar(
            "SELECT cnpj FROM fiscal.empresas WHERE client_id = $1 AND emp_id = $2 AND NOT excluido",
        )
        .bind(c)
        .bind(emp)
        .fetch_optional(&mut **tx)
        .await?
        .flatten();
        let own: String = cnpj
            .unwrap_or_default()
            .chars()
            .filter(char::is_ascii_digit)
            .collect();
        if !own.is_empty() && !h.destinatario.is_empty() && h.destinatario != own {
            return Err(Error::validation(format!(
                "Esta NF-e não foi emitida contra a empresa: o destinatário é {}.",
                h.destinatario
            )));
        }
        let key = h.key.key.clone();
        let new = upsert(
            tx,
            c,
            emp,
            call.caller.user_id,
            &Incoming::from_xml(h, bytes, None, None, "UPLOAD"),
        )
        .await?;
        let id: i64 = sqlx::query_scalar(
            "SELECT man_id FROM fiscal.manifestonfe WHERE client_id = $1 AND man_emp_id = $2 AND man_chave = $3",
        )
        .bind(c)
        .bind(emp)
        .bind(&key)
        .fetch_one(&mut **tx)
        .await?;
        let mut answer = row(tx, &call, emp, id).await?;
        if let Value::Object(m) = &mut answer {
            let msg = if new {
                "NF-e incluída no manifesto."
            } else {
                "Esta NF-e já estava no manifesto: o XML completo foi guardado."
            };
            m.insert("msg".into(), Value::from(msg));
        }
        Ok(answer)
    }
}
