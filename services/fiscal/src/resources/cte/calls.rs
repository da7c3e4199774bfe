//! The declared calls of `cte`: next number, emit, consult, cancel,
//! correction letter, the XML and DACTE downloads, the provider's list, the
//! NF-e to carry, and duplicate.
//!
//! Cancel, correction letter and downloads lock the row in the call's own
//! transaction while they ask the provider; the emission commits in steps
//! (`emission`) through the service's pool. Every row is looked up with the
//! caller's client: another tenant's CT-e is "not found".

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::resource::document::copy;
use erp_platform::resource::params::{company, id_param, param};
use erp_platform::resource::{ActionHandler, Call};
use erp_platform::{Error, Result};
use serde_json::{json, Map, Value};

use super::emission::{self, Cte, KIND};
use super::{Ctx, MISSING};
use crate::nuvemfiscal::types::{Ambiente, CteInfCorrecao, CtePedidoCartaCorrecao};
use crate::resources::call_body::{body_int, body_text};
use crate::resources::company::provider::{client, provider_error};
use crate::resources::dfe::events::{self, len_between};
use crate::resources::dfe::{store, Issued};

const BAD_TYPE: &str = "Ambiente inválido: use 1 (produção) ou 2 (homologação).";
const NO_CORRECTION: &str =
    "Informe a correção: o grupo (até 20 caracteres, ex.: ide), o campo (até 20) e o valor correto (até 500).";

fn company_of(call: &Call<'_>) -> Result<i64> {
    company(
        call.emp
            .or_else(|| id_param(call.params, "emp").ok())
            .or_else(|| body_int(&call.body, "CTE_EMP_ID")),
    )
}

/// The CT-e of the path's `{id}` or the body's CTE_ID.
fn cte_id(call: &Call<'_>) -> Result<i64> {
    id_param(call.params, "id")
        .ok()
        .or_else(|| body_int(&call.body, "CTE_ID"))
        .filter(|id| *id > 0)
        .ok_or_else(|| Error::validation("Informe o CT-e (CTE_ID)."))
}

/// `type` of the path: 1 produção, 2 homologação.
fn environment(raw: &str) -> Result<i32> {
    match raw.trim().to_lowercase().as_str() {
        "1" | "producao" | "produção" => Ok(1),
        "2" | "homologacao" | "homologação" => Ok(2),
        _ => Err(Error::validation(BAD_TYPE)),
    }
}

/// `GET /ctenumerosequencial/{id}/{emp}`.
pub struct NextNumber;

#[async_trait]
impl ActionHandler for NextNumber {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company_of(&call)?;
        let id = cte_id(&call)?;
        let (serie, numero) = emission::next_number(tx, call.caller.client_id, emp, id).await?;
        Ok(json!({"CTE_ID": id, "CTE_SERIE": serie, "CTE_NUMERO": numero}))
    }
}

/// `GET /cte/emitirnota/{id}/{emp}/{type}`.
pub struct Emit(pub Arc<Ctx>);

#[async_trait]
impl ActionHandler for Emit {
    async fn run(&self, _tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company_of(&call)?;
        let id = cte_id(&call)?;
        let ambiente = environment(param(call.params, "type").unwrap_or("2"))?;
        let nf = client(&self.0.company)?;
        let db = self.0.db()?;
        emission::emit(db, nf, call.res, call.caller, emp, id, ambiente).await
    }
}

/// The company and the CT-e of a call.
pub(super) fn locate(call: &Call<'_>) -> Result<(i64, i64)> {
    Ok((company_of(call)?, cte_id(call)?))
}

/// `POST /cte/cancelar/{fiscalId}` {JUSTIFICATIVA}.
pub struct Cancel(pub Arc<Ctx>);

#[async_trait]
impl ActionHandler for Cancel {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let fiscal_id = param(call.params, "fiscalId")?.trim().to_string();
        let text = body_text(&call.body, "JUSTIFICATIVA").unwrap_or_default();
        events::justification(&text)?;
        let c = call.caller.client_id;
        let doc = store::by_provider_id(tx, &KIND, c, &fiscal_id).await?;
        let emp = doc.emp;
        if call.emp.is_some_and(|e| e != emp) {
            return Err(Error::NotFound(MISSING.into()));
        }
        events::authorised(&KIND, &doc, "cancelar")?;
        let nf = client(&self.0.company)?;
        let ev = nf
            .cancelar_cte(&fiscal_id, &text)
            .await
            .map_err(provider_error)?;
        events::cancelled(tx, nf, &Cte, c, &doc, &fiscal_id, &text, ev).await?;
        let row = Cte.row(tx, call.res, call.caller, emp, doc.id).await?;
        Ok(store::answer(&KIND, row, vec![]))
    }
}

/// One correction of the body: GRUPO, CAMPO, VALOR, NUMERO_ITEM.
fn correction(v: &Value) -> Result<CteInfCorrecao> {
    let field = |k: &str, max: usize| {
        body_text(v, k)
            .filter(|t| len_between(t, 1, max))
            .ok_or_else(|| Error::validation(NO_CORRECTION))
    };
    Ok(CteInfCorrecao {
        grupo_alterado: field("GRUPO", 20)?,
        campo_alterado: field("CAMPO", 20)?,
        valor_alterado: field("VALOR", 500)?,
        numero_item_alterado: body_int(v, "NUMERO_ITEM")
            .filter(|n| *n > 0)
            .and_then(|n| i32::try_from(n).ok()),
    })
}

/// `POST /cte/cartacorrecao/{emp}` and `POST /ctecartacorrecao`
/// {CTE_ID, CORRECOES: [{GRUPO, CAMPO, VALOR, NUMERO_ITEM?}]} or one
/// correction at the top of the body.
pub struct Correct(pub Arc<Ctx>);

#[async_trait]
impl ActionHandler for Correct {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company_of(&call)?;
        let id = cte_id(&call)?;
        let correcoes = match call.body.get("CORRECOES") {
            Some(Value::Array(items)) if !items.is_empty() => {
                items.iter().map(correction).collect::<Result<Vec<_>>>()?
            }
            Some(_) => return Err(Error::validation(NO_CORRECTION)),
            None => vec![correction(&call.body)?],
        };
        if correcoes.len() > 20 {
            return Err(Error::validation(
                "Uma carta de correção leva até 20 correções.",
            ));
        }
        let c = call.caller.client_id;
        let doc = store::by_id(tx, &KIND, c, emp, id, true).await?;
        let fiscal_id = events::authorised(&KIND, &doc, "corrigir")?;
        let nf = client(&self.0.company)?;
        let pedido = CtePedidoCartaCorrecao { correcoes: correcoes.clone() };
        let ev = nf
            .carta_correcao_cte(&fiscal_id, &pedido)
            .await
            .map_err(provider_error)?;
        events::registered(
            &KIND,
            "A carta de correção",
            ev.status,
            ev.codigo_status,
            ev.motivo_status.as_deref(),
        )?;
        let seq: i32 = match ev.numero_sequencial {
            Some(s) => s,
            None => sqlx::query_scalar(
                "SELECT coalesce(max(ctecg_sequencia), 0) + 1 FROM fiscal.cte_carta_correcao_grupo
                 WHERE client_id = $1 AND ctecg_emp_id = $2 AND ctecg_cte_id = $3",
            )
            .bind(c)
            .bind(emp)
            .bind(id)
            .fetch_one(&mut **tx)
            .await?,
        };
        for k in &correcoes {
            sqlx::query(
                "INSERT INTO fiscal.cte_carta_correcao_grupo (client_id, ctecg_emp_id, ctecg_cte_id, ctecg_id,
                     ctecg_sequencia, ctecg_grupo, ctecg_campo, ctecg_valor, ctecg_numero_item, ctecg_protocolo,
                     ctecg_usr_id)
                 SELECT $1, $2, $3, coalesce(max(ctecg_id), 0) + 1, $4, $5, $6, $7, $8, $9, $10
                 FROM fiscal.cte_carta_correcao_grupo
                 WHERE client_id = $1 AND ctecg_emp_id = $2 AND ctecg_cte_id = $3",
            )
            .bind(c)
            .bind(emp)
            .bind(id)
            .bind(seq)
            .bind(&k.grupo_alterado)
            .bind(&k.campo_alterado)
            .bind(&k.valor_alterado)
            .bind(k.numero_item_alterado)
            .bind(ev.numero_protocolo.as_deref())
            .bind((call.caller.user_id > 0).then_some(call.caller.user_id))
            .execute(&mut **tx)
            .await?;
        }
        let mut row = Cte.row(tx, call.res, call.caller, emp, id).await?;
        if let Value::Object(m) = &mut row {
            m.insert("msg".into(), Value::from("Carta de correção registrada."));
            m.insert("CTECG_SEQUENCIA".into(), Value::from(seq));
            m.insert("CTECG_PROTOCOLO".into(), json!(ev.numero_protocolo));
        }
        Ok(row)
    }
}

/// `GET /cte/listarcte/{cnpjcpf}/{key}/{skip}/{type}`: a page of the CT-e of
/// one of the caller's companies at the provider (`key` 0: any).
pub struct ProviderList(pub Arc<Ctx>);

#[async_trait]
impl ActionHandler for ProviderList {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let doc: String = param(call.params, "cnpjcpf")?
            .chars()
            .filter(char::is_ascii_digit)
            .collect();
        if !matches!(doc.len(), 11 | 14) {
            return Err(Error::validation("Informe o CPF ou o CNPJ da empresa."));
        }
        let key: String = param(call.params, "key")
            .unwrap_or("0")
            .chars()
            .filter(char::is_ascii_digit)
            .collect();
        let key = match key.trim_start_matches('0') {
            "" => None,
            _ if key.len() == 44 => Some(key),
            _ => {
                return Err(Error::validation(
                    "Chave de acesso inválida: informe os 44 dígitos, ou 0 para todas.",
                ))
            }
        };
        let skip: u32 = param(call.params, "skip")
            .unwrap_or("0")
            .trim()
            .parse()
            .map_err(|_| Error::validation("skip: informe quantos CT-e pular (0 ou mais)."))?;
        let ambiente = match environment(param(call.params, "type").unwrap_or("2"))? {
            1 => Ambiente::Producao,
            _ => Ambiente::Homologacao,
        };
        // The provider account is shared: only a CPF/CNPJ of the caller's own
        // companies is listed.
        let mine: Option<i64> = sqlx::query_scalar(
            "SELECT emp_id FROM fiscal.empresas WHERE client_id = $1 AND cnpj = $2 AND NOT excluido
             UNION SELECT emps_emp_id FROM fiscal.empresas_servicos WHERE client_id = $1 AND emps_cpf_cnpj = $2
             LIMIT 1",
        )
        .bind(call.caller.client_id)
        .bind(&doc)
        .fetch_optional(&mut **tx)
        .await?;
        if mine.is_none() {
            return Err(Error::NotFound(
                "Empresa não encontrada com este CPF/CNPJ.".into(),
            ));
        }
        let nf = client(&self.0.company)?;
        let page = nf
            .listar_cte_pagina(&doc, ambiente, key.as_deref(), 50, skip)
            .await
            .map_err(provider_error)?;
        let dados: Vec<Value> = page
            .data
            .iter()
            .map(|d| {
                json!({
                    "CTE_ID_FISCAL": d.id, "CTE_SITUACAO": d.status.as_str(), "CTE_CHAVE": d.chave,
                    "CTE_SERIE": d.serie, "CTE_NUMERO": d.numero, "CTE_REFERENCIA": d.referencia,
                    "CTE_VLR_FRETE": d.valor_total.map(|v| v.to_string()),
                    "CTE_DH_EMISSAO": d.data_emissao,
                })
            })
            .collect();
        Ok(json!({"dados": dados, "count": page.count}))
    }
}

/// `GET /cte/carregaxml/{emp}`: the company's authorised NF-e, newest first,
/// for the notes of a CT-e.
pub struct CarriedNfe;

#[async_trait]
impl ActionHandler for CarriedNfe {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company_of(&call)?;
        let rows: Vec<Value> = sqlx::query_scalar(
            "SELECT jsonb_build_object('CTEN_CHAVE', x.pexm_chave, 'NUMERO', x.pexm_numero, 'SERIE', x.pexm_nfe_serie,
                 'PEDIDO', x.pexm_pedf_id, 'VALOR', x.pexm_valor::text,
                 'EMISSAO', to_char(x.pexm_dta_emissao AT TIME ZONE 'America/Sao_Paulo', 'YYYY-MM-DD'),
                 'CLIENTE', p.cli_nome)
             FROM fiscal.pedidofatxml x
             LEFT JOIN fiscal.pedidos p ON p.client_id = x.client_id AND p.emp_id = x.pexm_emp_id
                  AND p.pedf_id = x.pexm_pedf_id AND p.serie = x.pexm_serie
             WHERE x.client_id = $1 AND x.pexm_emp_id = $2 AND x.pexm_situacao = 'autorizado'
               AND x.pexm_chave IS NOT NULL
             ORDER BY x.pexm_dta_emissao DESC LIMIT 200",
        )
        .bind(call.caller.client_id)
        .bind(emp)
        .fetch_all(&mut **tx)
        .await?;
        Ok(Value::Array(rows))
    }
}

/// `POST /cteduplicar/{id}/{emp}`: a new CT-e in `aberto` with what the user
/// typed and its notes, route and vehicles; no number, key or provider data.
pub struct Duplicate;

#[async_trait]
impl ActionHandler for Duplicate {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company_of(&call)?;
        let id = cte_id(&call)?;
        let c = call.caller.client_id;
        let copy = copy::duplicate(
            tx,
            call.res,
            call.caller,
            Some(emp),
            &[id.to_string()],
            Map::new(),
        )
        .await
        .map_err(|e| match e {
            Error::NotFound(_) => Error::NotFound(MISSING.into()),
            other => other,
        })?;
        let new_id = copy["CTE_ID"]
            .as_i64()
            .ok_or_else(|| Error::internal("cte: the copy has no CTE_ID"))?;
        for sql in [
            "INSERT INTO fiscal.cte_notas (client_id, cten_emp_id, cten_cte_id, cten_id, cten_chave, cten_pin,
                 cten_dta_prevista)
             SELECT client_id, cten_emp_id, $4, cten_id, cten_chave, cten_pin, cten_dta_prevista
             FROM fiscal.cte_notas WHERE client_id = $1 AND cten_emp_id = $2 AND cten_cte_id = $3",
            "INSERT INTO fiscal.cte_uf_percursos (client_id, cufp_emp_id, cufp_cte_id, cufp_id, cufp_uf)
             SELECT client_id, cufp_emp_id, $4, cufp_id, cufp_uf
             FROM fiscal.cte_uf_percursos WHERE client_id = $1 AND cufp_emp_id = $2 AND cufp_cte_id = $3",
            "INSERT INTO fiscal.cte_veiculos_novos (client_id, ctvn_emp_id, ctvn_cte_id, ctvn_id, ctvn_chassi,
                 ctvn_cor, ctvn_desc_cor, ctvn_modelo, ctvn_vlr_unit, ctvn_vlr_frete)
             SELECT client_id, ctvn_emp_id, $4, ctvn_id, ctvn_chassi, ctvn_cor, ctvn_desc_cor, ctvn_modelo,
                    ctvn_vlr_unit, ctvn_vlr_frete
             FROM fiscal.cte_veiculos_novos WHERE client_id = $1 AND ctvn_emp_id = $2 AND ctvn_cte_id = $3",
        ] {
            sqlx::query(sql)
                .bind(c)
                .bind(emp)
                .bind(id)
                .bind(new_id)
                .execute(&mut **tx)
                .await?;
        }
        let mut row = Cte.row(tx, call.res, call.caller, emp, new_id).await?;
        if let Value::Object(m) = &mut row {
            m.insert(
                "msg".into(),
                Value::from(format!(
                    "CT-e {id} duplicado: novo CT-e {new_id} em digitação."
                )),
            );
        }
        Ok(row)
    }
}
