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
use erp_platform::resource::{ActionHandler, Call};
use erp_platform::{Error, Result};
use serde_json::{json, Map, Value};

use super::emission::{self, Mdfe, KIND};
use super::{sources, Ctx};
use crate::nuvemfiscal::types::MdfePedidoEncerramento;
use crate::resources::call_body::{body_int, body_text};
use crate::resources::company::provider::{client, provider_error};
use crate::resources::dfe::emission::now_brt;
use crate::resources::dfe::events;
use crate::resources::dfe::{store, Issued};
use crate::resources::taxes::codes::uf_code;

fn company_of(call: &Call<'_>) -> Result<i64> {
    company(
        call.emp
            .or_else(|| id_param(call.params, "emp").ok())
            .or_else(|| body_int(&call.body, "MDFE_EMP_ID")),
    )
}

/// `GET /mdfenumerosequencial/{emp}`: the series and number the next
/// emission takes.
pub struct NextNumber;

#[async_trait]
impl ActionHandler for NextNumber {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company_of(&call)?;
        let c = call.caller.client_id;
        let (serie, next) = emission::next_number(tx, c, emp).await?;
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

/// The company and the MDF-e of a call (`{MDFE_ID}/{emp}` paths).
pub(super) fn locate(call: &Call<'_>) -> Result<(i64, i64)> {
    Ok((company_of(call)?, id_param(call.params, "MDFE_ID")?))
}

/// `POST /mdfe/cancelar/{MDFE_ID}/{emp}` {JUSTIFICATIVA}.
pub struct Cancel(pub Arc<Ctx>);

#[async_trait]
impl ActionHandler for Cancel {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company_of(&call)?;
        let id = id_param(call.params, "MDFE_ID")?;
        let c = call.caller.client_id;
        let doc = store::by_id(tx, &KIND, c, emp, id, true).await?;
        let text = body_text(&call.body, "JUSTIFICATIVA").unwrap_or_default();
        events::justification(&text)?;
        let nf = client(&self.0.company)?;
        let nuvem_id = events::authorised(&KIND, &doc, "cancelar")?;
        let ev = nf
            .cancelar_mdfe(&nuvem_id, &text)
            .await
            .map_err(provider_error)?;
        events::cancelled(tx, nf, &Mdfe, c, &doc, &nuvem_id, &text, ev).await?;
        answer(tx, &call, emp, id).await
    }
}

/// The row as a call answers it.
async fn answer(tx: &mut Tx, call: &Call<'_>, emp: i64, id: i64) -> Result<Value> {
    let row = Mdfe.row(tx, call.res, call.caller, emp, id).await?;
    Ok(store::answer(&KIND, row, vec![]))
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
            let today = now_brt().date_naive();
            if d > today {
                return Err(Error::validation(
                    "A data de encerramento não pode ser futura.",
                ));
            }
        }
        let c = call.caller.client_id;
        let doc = store::by_id(tx, &KIND, c, emp, id, true).await?;
        let nuvem_id = events::authorised(&KIND, &doc, "encerrar")?;
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
        events::registered(
            &KIND,
            "O encerramento",
            ev.status,
            ev.codigo_status,
            ev.motivo_status.as_deref(),
        )?;
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
        events::refresh_xml(tx, nf, &KIND, c, &doc, &nuvem_id).await?;
        answer(tx, &call, emp, id).await
    }
}

/// The rows of the MDF-e copied by a duplicate, parents before the rows that
/// name them (a payment before its components, a city before its
/// documents): (table, column prefix).
const ROWS: [(&str, &str); 12] = [
    ("mdfe_cidades_origem", "mcio"),
    ("mdfe_cidades_destino", "mcid"),
    ("mdfe_notas_cidade_destino", "mdnc"),
    ("mdfe_uf_percurso", "mufp"),
    ("mdfe_veiculos", "veic"),
    ("mdfe_motoristas", "mdmo"),
    ("mdfe_lacres", "lacre"),
    ("mdfe_contratantes", "mdco"),
    ("mdfe_seguros", "mseg"),
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
        store::by_id(tx, &KIND, c, emp, id, false).await?;
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
