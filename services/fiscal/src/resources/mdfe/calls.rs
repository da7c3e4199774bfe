//! The declared calls of the MDF-e: next number, emit, consult, cancel,
//! closing, the XML and DAMDFE downloads, duplicate and the destination
//! cities without documents.
//!
//! Cancel, closing and consult lock the row in the call's own transaction
//! while they ask the provider, so two of them on one MDF-e go one after the
//! other. The emission commits in steps (`emission`) through the service's
//! pool.

use std::sync::Arc;

use async_trait::async_trait;
use chrono::NaiveDate;
use erp_platform::db::Tx;
use erp_platform::resource::document::copy;
use erp_platform::resource::params::{company, id_param};
use erp_platform::resource::{file_reply, ActionHandler, Call};
use erp_platform::{Error, Result};
use serde_json::{json, Map, Value};

use super::rejections;
use super::store;
use super::{emission, sources, Ctx};
use crate::nuvemfiscal::types::{EventoStatus, MdfePedidoEncerramento};
use crate::resources::company::provider::{client, provider_error, provider_message};
use crate::resources::taxes::codes::uf_code;

pub const SHORT_JUSTIFICATION: &str =
    "A justificativa do cancelamento deve ter entre 15 e 255 caracteres.";
pub const NOT_AUTHORISED_CANCEL: &str = "Só é possível cancelar um MDF-e autorizado.";
pub const NOT_AUTHORISED_CLOSE: &str = "Só é possível encerrar um MDF-e autorizado.";

fn company_of(call: &Call<'_>) -> Result<i64> {
    company(
        call.emp
            .or_else(|| id_param(call.params, "emp").ok())
            .or_else(|| body_int(&call.body, "MDFE_EMP_ID")),
    )
}

fn body_int(body: &Value, key: &str) -> Option<i64> {
    match body.get(key)? {
        Value::String(s) => s.trim().parse().ok(),
        v => v.as_i64(),
    }
}

fn body_text(body: &Value, key: &str) -> Option<String> {
    match body.get(key)? {
        Value::String(s) => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
    .filter(|s| !s.is_empty())
}

/// `GET /mdfenumerosequencial/{emp}`: the series and number the next
/// emission takes.
pub struct NextNumber;

#[async_trait]
impl ActionHandler for NextNumber {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company_of(&call)?;
        let c = call.caller.client_id;
        let serie = emission::settings_serie(tx, c, emp).await?;
        let (_, serie, next) = emission::numbering(tx, c, emp, serie, false).await?;
        Ok(json!({"MDFE_SERIE": serie, "MDFE_NUMERO": next}))
    }
}

/// `GET /mdfe/emitirnota/{MDFE_ID}/{emp}`.
pub struct Emit(pub Arc<Ctx>);

#[async_trait]
impl ActionHandler for Emit {
    async fn run(&self, _tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company_of(&call)?;
        let id = id_param(call.params, "MDFE_ID")?;
        let nf = client(&self.0.company)?;
        let db = self.0.db()?;
        emission::emit(db, nf, call.res, call.caller, emp, id).await
    }
}

/// `GET /mdfe/consultar/{MDFE_ID}/{emp}`: synchronises with the SEFAZ and
/// waits for a final status; an emission whose answer was lost is found by
/// its reference first.
pub struct Consult(pub Arc<Ctx>);

#[async_trait]
impl ActionHandler for Consult {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company_of(&call)?;
        let id = id_param(call.params, "MDFE_ID")?;
        let c = call.caller.client_id;
        let doc = store::by_id(tx, c, emp, id, false).await?;
        let nf = client(&self.0.company)?;
        let db = self.0.db()?;
        let nuvem_id = match (&doc.mdfe_id_fiscal, doc.mdfe_situacao.as_str()) {
            (Some(n), _) => n.clone(),
            (None, "enviando") => {
                let cnpj: Option<String> = sqlx::query_scalar(
                    "SELECT cnpj FROM fiscal.empresas WHERE client_id = $1 AND emp_id = $2",
                )
                .bind(c)
                .bind(emp)
                .fetch_optional(&mut **tx)
                .await?
                .flatten();
                let cnpj = cnpj
                    .ok_or_else(|| Error::validation("Informe o CNPJ da empresa em Empresas."))?;
                let cnpj: String = cnpj.chars().filter(char::is_ascii_alphanumeric).collect();
                match emission::recover(db, nf, c, emp, &doc, &cnpj).await? {
                    Some(dfe) => dfe.id,
                    None => {
                        return Ok(store::answer(
                            store::row(tx, call.res, call.caller, emp, id).await?,
                            vec![],
                        ))
                    }
                }
            }
            (None, _) => {
                return Ok(store::answer(
                    store::row(tx, call.res, call.caller, emp, id).await?,
                    vec![],
                ))
            }
        };
        if let Err(e) = nf.sincronizar_mdfe(&nuvem_id).await {
            tracing::warn!(id, error = %e, "MDF-e synchronisation failed");
        }
        emission::follow(db, nf, call.res, call.caller, emp, &doc, &nuvem_id).await
    }
}

fn event_refused(what: &str, c_stat: Option<i32>, motivo: Option<String>) -> Error {
    let c_stat = c_stat.map(|c| c.to_string()).unwrap_or_default();
    let e = rejections::explain(&c_stat, motivo.as_deref().unwrap_or_default());
    Error::validation(format!(
        "{what} foi rejeitado pela SEFAZ ({} - {}): {}",
        e.c_stat, e.x_motivo, e.explanation
    ))
}

/// The provider's XML after an event (it carries the event), stored.
async fn refresh_xml(
    tx: &mut Tx,
    nf: &crate::nuvemfiscal::NuvemFiscal,
    c: i64,
    emp: i64,
    id: i64,
    nuvem_id: &str,
) -> Result<()> {
    if let Ok(xml) = nf.baixar_xml_mdfe(nuvem_id).await {
        sqlx::query(
            "UPDATE fiscal.mdfe SET mdfe_xml = $4 WHERE client_id = $1 AND mdfe_emp_id = $2 AND mdfe_id = $3",
        )
        .bind(c)
        .bind(emp)
        .bind(id)
        .bind(xml)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// `POST /mdfe/cancelar/{MDFE_ID}/{emp}` {JUSTIFICATIVA}.
pub struct Cancel(pub Arc<Ctx>);

#[async_trait]
impl ActionHandler for Cancel {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company_of(&call)?;
        let id = id_param(call.params, "MDFE_ID")?;
        let c = call.caller.client_id;
        let doc = store::by_id(tx, c, emp, id, true).await?;
        let text = body_text(&call.body, "JUSTIFICATIVA").unwrap_or_default();
        if !(15..=255).contains(&text.chars().count()) {
            return Err(Error::validation(SHORT_JUSTIFICATION));
        }
        let nf = client(&self.0.company)?;
        let nuvem_id = match (doc.mdfe_situacao.as_str(), &doc.mdfe_id_fiscal) {
            ("autorizado", Some(n)) => n.clone(),
            _ => return Err(Error::Conflict(NOT_AUTHORISED_CANCEL.into())),
        };
        let ev = nf
            .cancelar_mdfe(&nuvem_id, &text)
            .await
            .map_err(provider_error)?;
        if ev.status != Some(EventoStatus::Registrado) {
            return Err(event_refused(
                "O cancelamento",
                ev.codigo_status,
                ev.motivo_status,
            ));
        }
        sqlx::query(
            "UPDATE fiscal.mdfe SET mdfe_situacao = 'cancelado', mdfe_cancel_justificativa = $4,
                 mdfe_cancel_protocolo = $5, mdfe_dta_cancelamento = now()
             WHERE client_id = $1 AND mdfe_emp_id = $2 AND mdfe_id = $3",
        )
        .bind(c)
        .bind(emp)
        .bind(id)
        .bind(&text)
        .bind(ev.numero_protocolo)
        .execute(&mut **tx)
        .await?;
        refresh_xml(tx, nf, c, emp, id, &nuvem_id).await?;
        Ok(store::answer(
            store::row(tx, call.res, call.caller, emp, id).await?,
            vec![],
        ))
    }
}

/// `POST /mdfe/encerramento/{emp}` {MDFE_ID, DATA_ENCERRAMENTO, UF,
/// CODIGO_MUNICIPIO}: only an authorised MDF-e; it becomes `encerrado`.
pub struct Close(pub Arc<Ctx>);

#[async_trait]
impl ActionHandler for Close {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company_of(&call)?;
        let b = &call.body;
        let id = body_int(b, "MDFE_ID")
            .filter(|id| *id > 0)
            .ok_or_else(|| Error::validation("Informe o MDF-e a encerrar (MDFE_ID)."))?;
        let date = match body_text(b, "DATA_ENCERRAMENTO") {
            Some(raw) => Some(NaiveDate::parse_from_str(&raw, "%Y-%m-%d").map_err(|_| {
                Error::validation(format!(
                    "Data de encerramento inválida: '{raw}' (use AAAA-MM-DD)."
                ))
            })?),
            None => None,
        };
        let uf = body_text(b, "UF")
            .map(|u| u.to_uppercase())
            .filter(|u| uf_code(u).is_some())
            .ok_or_else(|| Error::validation("Informe a UF de encerramento (ex.: MG)."))?;
        let mun = body_text(b, "CODIGO_MUNICIPIO")
            .filter(|m| m.len() == 7 && m.chars().all(|c| c.is_ascii_digit()))
            .ok_or_else(|| {
                Error::validation("Informe o código IBGE do município de encerramento (7 dígitos).")
            })?;
        if let Some(d) = date {
            let today = crate::resources::order_nfe::emission::now_brt().date_naive();
            if d > today {
                return Err(Error::validation(
                    "A data de encerramento não pode ser futura.",
                ));
            }
        }
        let c = call.caller.client_id;
        let doc = store::by_id(tx, c, emp, id, true).await?;
        let nuvem_id = match (doc.mdfe_situacao.as_str(), &doc.mdfe_id_fiscal) {
            ("autorizado", Some(n)) => n.clone(),
            _ => return Err(Error::Conflict(NOT_AUTHORISED_CLOSE.into())),
        };
        let nf = client(&self.0.company)?;
        let pedido = MdfePedidoEncerramento {
            data_encerramento: date,
            uf: uf.clone(),
            codigo_municipio: mun.clone(),
        };
        let ev = nf
            .encerrar_mdfe(&nuvem_id, &pedido)
            .await
            .map_err(provider_error)?;
        if ev.status != Some(EventoStatus::Registrado) {
            return Err(event_refused(
                "O encerramento",
                ev.codigo_status,
                ev.motivo_status,
            ));
        }
        sqlx::query(
            "UPDATE fiscal.mdfe SET mdfe_situacao = 'encerrado',
                 mdfe_dta_encerramento = coalesce($4, (now() AT TIME ZONE 'America/Sao_Paulo')::date),
                 mdfe_uf_encerramento = $5, mdfe_mun_encerramento = $6, mdfe_enc_protocolo = $7
             WHERE client_id = $1 AND mdfe_emp_id = $2 AND mdfe_id = $3",
        )
        .bind(c)
        .bind(emp)
        .bind(id)
        .bind(ev.data_encerramento.or(date))
        .bind(&uf)
        .bind(&mun)
        .bind(ev.numero_protocolo)
        .execute(&mut **tx)
        .await?;
        refresh_xml(tx, nf, c, emp, id, &nuvem_id).await?;
        Ok(store::answer(
            store::row(tx, call.res, call.caller, emp, id).await?,
            vec![],
        ))
    }
}

/// Which file a download call answers.
#[derive(Clone, Copy)]
pub enum File {
    Xml,
    Damdfe,
}

/// `POST /mdfe/xml/{MDFE_ID}/{emp}` and `/damdfe/...`: the stored file,
/// fetched from the provider (and stored) when it is not there yet.
pub struct Download(pub Arc<Ctx>, pub File);

#[async_trait]
impl ActionHandler for Download {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company_of(&call)?;
        let id = id_param(call.params, "MDFE_ID")?;
        let c = call.caller.client_id;
        let col = match self.1 {
            File::Xml => "mdfe_xml",
            File::Damdfe => "mdfe_pdf",
        };
        let (stored, status, chave, nuvem_id): (
            Option<Vec<u8>>,
            String,
            Option<String>,
            Option<String>,
        ) = sqlx::query_as(&format!(
            "SELECT {col}, mdfe_situacao, mdfe_chave, mdfe_id_fiscal FROM fiscal.mdfe
                 WHERE client_id = $1 AND mdfe_emp_id = $2 AND mdfe_id = $3 FOR UPDATE"
        ))
        .bind(c)
        .bind(emp)
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or_else(|| Error::NotFound(super::MISSING.into()))?;
        let bytes = match (stored, nuvem_id) {
            (Some(b), _) => b,
            (None, Some(n))
                if matches!(status.as_str(), "autorizado" | "cancelado" | "encerrado") =>
            {
                let nf = client(&self.0.company)?;
                let fetched = match self.1 {
                    File::Xml => nf.baixar_xml_mdfe(&n).await,
                    File::Damdfe => nf.baixar_pdf_mdfe(&n).await,
                }
                .map_err(|e| Error::Unavailable(provider_message(&e)))?;
                sqlx::query(&format!(
                    "UPDATE fiscal.mdfe SET {col} = $4 WHERE client_id = $1 AND mdfe_emp_id = $2 AND mdfe_id = $3"
                ))
                .bind(c)
                .bind(emp)
                .bind(id)
                .bind(&fetched)
                .execute(&mut **tx)
                .await?;
                fetched
            }
            _ => {
                return Err(Error::Conflict(
                    "Os arquivos existem apenas para MDF-e autorizado, cancelado ou encerrado."
                        .into(),
                ))
            }
        };
        let name = chave.unwrap_or_else(|| id.to_string());
        Ok(match self.1 {
            File::Xml => file_reply("application/xml", &format!("{name}-mdfe.xml"), &bytes),
            File::Damdfe => file_reply("application/pdf", &format!("{name}-damdfe.pdf"), &bytes),
        })
    }
}

/// The rows of the MDF-e copied by a duplicate, parents before the rows that
/// name them (a payment before its components, a city before its
/// documents): (table, column prefix).
const ROWS: [(&str, &str); 11] = [
    ("mdfe_cidades_origem", "mcio"),
    ("mdfe_cidades_destino", "mcid"),
    ("mdfe_notas_cidade_destino", "mdnc"),
    ("mdfe_uf_percurso", "mufp"),
    ("mdfe_veiculos", "veic"),
    ("mdfe_motoristas", "mdmo"),
    ("mdfe_lacres", "lacre"),
    ("mdfe_contratantes", "mdco"),
    ("mdfe_pagamentos", "mdpg"),
    ("mdfe_componentes", "mdpc"),
    ("mdfe_vale_pedagio", "mdvp"),
];

/// `POST /mdfeduplicar/{MDFE_ID}/{emp}`: a new open MDF-e with what the user
/// typed on the header (through the register's create path: no number, key,
/// protocol or status) and a copy of every row, keeping their sequences.
pub struct Duplicate;

#[async_trait]
impl ActionHandler for Duplicate {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company_of(&call)?;
        let id = id_param(call.params, "MDFE_ID")?;
        let c = call.caller.client_id;
        let copy = copy::duplicate(
            tx,
            call.res,
            call.caller,
            Some(emp),
            &[id.to_string()],
            Map::new(),
        )
        .await?;
        let new_id = copy
            .get("MDFE_ID")
            .and_then(Value::as_i64)
            .ok_or_else(|| Error::internal("mdfe: the copy has no MDFE_ID"))?;
        for (table, p) in ROWS {
            let cols: Vec<String> = sqlx::query_scalar(
                "SELECT column_name::text FROM information_schema.columns
                 WHERE table_schema = 'fiscal' AND table_name = $1 AND column_name <> $2
                 ORDER BY ordinal_position",
            )
            .bind(table)
            .bind(format!("{p}_mdfe_id"))
            .fetch_all(&mut **tx)
            .await?;
            let list = cols.join(", ");
            sqlx::query(&format!(
                "INSERT INTO fiscal.{table} ({list}, {p}_mdfe_id)
                 SELECT {list}, $4 FROM fiscal.{table}
                 WHERE client_id = $1 AND {p}_emp_id = $2 AND {p}_mdfe_id = $3"
            ))
            .bind(c)
            .bind(emp)
            .bind(id)
            .bind(new_id)
            .execute(&mut **tx)
            .await?;
        }
        let mut row = copy;
        if let Value::Object(m) = &mut row {
            m.insert(
                "msg".into(),
                Value::from(format!("MDF-e {new_id} criado a partir do MDF-e {id}.")),
            );
        }
        Ok(row)
    }
}

/// `GET /mdfecidadedestino_semdoc/{id}/{emp}`: the destination cities of the
/// MDF-e without any document (an empty list: none).
pub struct CitiesWithoutDocuments;

#[async_trait]
impl ActionHandler for CitiesWithoutDocuments {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company_of(&call)?;
        let id = id_param(call.params, "id")?;
        let c = call.caller.client_id;
        store::by_id(tx, c, emp, id, false).await?;
        let cities = sources::cities_without_documents(tx, c, emp, id).await?;
        Ok(Value::Array(
            cities
                .into_iter()
                .map(|city| {
                    json!({"MCID_MDFE_ID": id, "MCID_EMP_ID": emp, "MCID_ID": city.id,
                           "MCID_CID_IBGE": city.ibge, "MCID_CIDADE": city.cidade})
                })
                .collect(),
        ))
    }
}
