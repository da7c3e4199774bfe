//! The product calls beyond the generic register ones (data-and-calls §7 "Products
//! and stock"). Each runs in the tenant transaction the service opened, after the
//! gateway checked the program's permission and the path's company.

use std::collections::HashMap;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::query::{self, MAX_LIMIT};
use erp_platform::resource::{ActionHandler, Resource};
use erp_platform::{Error, Result};
use serde_json::{json, Map, Value};

use super::rules::text_of;
use super::{produtos, sub, DEFAULT_UNIT, PRICE_SCALE, QTY_SCALE};

const NO_COMPANY_MSG: &str = "emp_id não informado.";
const COPY_SUFFIX: &str = " (CÓPIA)";

/// The company named by the path. Web clients send `undefined` or `null` when
/// no company is selected yet: that is a missing company, not a bad number.
fn path_company(params: &HashMap<String, String>, emp: Option<i64>) -> Result<i64> {
    match params.get("emp").map(|s| s.trim()) {
        None | Some("" | "undefined" | "null") => Err(Error::validation(NO_COMPANY_MSG)),
        Some(s) => {
            let named: i64 = s
                .parse()
                .map_err(|_| Error::validation("Parâmetro emp inválido."))?;
            // The gateway guarded `emp`; the path must not name another company.
            match emp {
                Some(e) if e != named => Err(Error::forbidden()),
                _ => Ok(named),
            }
        }
    }
}

fn param<'a>(params: &'a HashMap<String, String>, name: &str) -> Result<&'a str> {
    params
        .get(name)
        .map(|s| s.trim())
        .filter(|s| !s.is_empty())
        .ok_or_else(|| Error::validation(format!("Parâmetro {name} não informado.")))
}

/// GET /produtos/config/{emp}: how the company works with products. The optional
/// parts (grid, raw material, painting, ...) count as in use once the company has
/// registered any of them, so the product screen shows only the tabs it needs.
pub struct ProductSettings;

#[async_trait]
impl ActionHandler for ProductSettings {
    async fn run(
        &self,
        tx: &mut Tx,
        _res: &Resource,
        caller: &Caller,
        emp: Option<i64>,
        params: &HashMap<String, String>,
        _body: Value,
    ) -> Result<Value> {
        let emp = path_company(params, emp)?;
        let row: (Option<i64>, bool, bool, bool, bool, bool, bool, bool, bool) = sqlx::query_as(
            "SELECT
               (SELECT unid_id FROM catalog.unidade
                 WHERE client_id = $1 AND unid_emp_id = $2 AND unid_abreviada = $3 AND unid_situacao = 1
                 ORDER BY unid_id LIMIT 1),
               EXISTS (SELECT 1 FROM catalog.produtosgrade WHERE client_id = $1 AND prgr_emp_id = $2),
               EXISTS (SELECT 1 FROM catalog.tamanho WHERE client_id = $1 AND tam_emp_id = $2),
               EXISTS (SELECT 1 FROM catalog.cor WHERE client_id = $1),
               EXISTS (SELECT 1 FROM catalog.materiaprima WHERE client_id = $1 AND matp_emp_id = $2),
               EXISTS (SELECT 1 FROM catalog.produtopintura WHERE client_id = $1 AND prpt_emp_id = $2),
               EXISTS (SELECT 1 FROM catalog.produtoscbar WHERE client_id = $1 AND prcb_emp_id = $2),
               EXISTS (SELECT 1 FROM catalog.produtosfornecedor WHERE client_id = $1 AND prfr_emp_id = $2),
               EXISTS (SELECT 1 FROM catalog.produtosespeciais WHERE client_id = $1 AND pres_emp_id = $2)",
        )
        .bind(caller.client_id)
        .bind(emp)
        .bind(DEFAULT_UNIT)
        .fetch_one(&mut **tx)
        .await?;
        Ok(json!({
            "EMP_ID": emp,
            "CASAS_DECIMAIS_QUANTIDADE": QTY_SCALE,
            "CASAS_DECIMAIS_VALOR": PRICE_SCALE,
            "UNIDADE_PADRAO": DEFAULT_UNIT,
            "UNID_ID_PADRAO": row.0,
            "USA_GRADE": row.1,
            "USA_TAMANHO": row.2,
            "USA_COR": row.3,
            "USA_MATERIA_PRIMA": row.4,
            "USA_PINTURA": row.5,
            "USA_CODIGOS_BARRAS": row.6,
            "USA_FORNECEDORES": row.7,
            "USA_PRECO_ESPECIAL": row.8,
        }))
    }
}

/// The fields of `row` a create body may carry (not the key, the company or what
/// the server maintains).
fn copy_body(res: &Resource, row: &Value) -> Map<String, Value> {
    res.fields
        .iter()
        .filter(|f| !(f.read_only || res.is_company(&f.name) || res.is_key(&f.name)))
        .filter_map(|f| {
            row.get(&f.name)
                .filter(|v| !v.is_null())
                .map(|v| (f.name.clone(), v.clone()))
        })
        .collect()
}

/// `desc` with the copy suffix, shortened so the result still fits `max` chars.
pub fn copy_description(desc: &str, max: Option<u32>) -> String {
    let keep = max
        .map(|m| (m as usize).saturating_sub(COPY_SUFFIX.chars().count()))
        .unwrap_or(usize::MAX);
    let base: String = desc.chars().take(keep).collect();
    format!("{}{COPY_SUFFIX}", base.trim_end())
}

/// POST /produtoduplicar/{prodId}/{emp}/{user}: a new product with the same data,
/// info, suppliers and grid. Barcodes are unique per company, so the copy gets
/// none (neither the product's, nor the grid's, nor the extra ones); the image
/// file stays the original's. The acting user is the token's; `{user}` is only
/// part of the legacy path.
pub struct Duplicate;

#[async_trait]
impl ActionHandler for Duplicate {
    async fn run(
        &self,
        tx: &mut Tx,
        res: &Resource,
        caller: &Caller,
        emp: Option<i64>,
        params: &HashMap<String, String>,
        _body: Value,
    ) -> Result<Value> {
        let emp = path_company(params, emp)?;
        let id = param(params, "prodId")?.to_string();
        let original = query::get(tx, res, caller, Some(emp), std::slice::from_ref(&id)).await?;
        let mut body = copy_body(res, &original);
        body.remove("PROD_CBAR");
        let desc = original["PROD_DESCRICAO"].as_str().unwrap_or_default();
        let max = res.field("PROD_DESCRICAO").and_then(|f| f.length);
        body.insert(
            "PROD_DESCRICAO".into(),
            Value::from(copy_description(desc, max)),
        );
        let copy = query::create(tx, res, caller, Some(emp), &body).await?;
        let new_id = copy["PROD_ID"].clone();

        for (sub_res, fk, cleared) in [
            (sub::produtosinf(), "PROI_PROD_ID", None),
            (sub::produtosfornecedor(), "PRFR_PROD_ID", None),
            (sub::produtosgrade(), "PRGR_PROD_ID", Some("PRGR_CBAR")),
        ] {
            let mut filter = Map::new();
            filter.insert(fk.into(), Value::from(id.clone()));
            filter.insert("LIMIT".into(), Value::from(MAX_LIMIT));
            for row in query::list(tx, &sub_res, caller, Some(emp), &filter).await? {
                let mut body = copy_body(&sub_res, &row);
                body.insert(fk.into(), new_id.clone());
                if let Some(c) = cleared {
                    body.remove(c);
                }
                query::create(tx, &sub_res, caller, Some(emp), &body).await?;
            }
        }
        Ok(copy)
    }
}

/// POST /produtos/imagem/{id}/{emp}: the gateway stored the file; the product
/// keeps its storage name. The answer names the file it replaced (`anterior`) so
/// the caller can remove it.
pub struct ImageUpload;

#[async_trait]
impl ActionHandler for ImageUpload {
    async fn run(
        &self,
        tx: &mut Tx,
        res: &Resource,
        caller: &Caller,
        emp: Option<i64>,
        params: &HashMap<String, String>,
        body: Value,
    ) -> Result<Value> {
        let emp = path_company(params, emp)?;
        let id = param(params, "id")?;
        let prod: i64 = id.parse().map_err(|_| Error::not_found())?;
        let name = text_of(body.get("arquivo").and_then(|a| a.get("nome")))
            .ok_or_else(|| Error::validation("Arquivo não informado."))?;
        let previous: Option<Option<String>> = sqlx::query_scalar(
            "UPDATE catalog.produtos p SET prod_imagem = $4
               FROM (SELECT prod_imagem FROM catalog.produtos
                      WHERE client_id = $1 AND prod_emp_id = $2 AND prod_id = $3 FOR UPDATE) old
              WHERE p.client_id = $1 AND p.prod_emp_id = $2 AND p.prod_id = $3
             RETURNING old.prod_imagem",
        )
        .bind(caller.client_id)
        .bind(emp)
        .bind(prod)
        .bind(&name)
        .fetch_optional(&mut **tx)
        .await?;
        let previous = previous.ok_or_else(Error::not_found)?;
        let mut row = query::get(tx, res, caller, Some(emp), &[id.to_string()]).await?;
        if let Value::Object(m) = &mut row {
            m.insert(
                "anterior".into(),
                previous.map(Value::from).unwrap_or(Value::Null),
            );
        }
        Ok(row)
    }
}

/// DELETE /produtos/imagem/{id}/{emp}/{name}: forgets the product's image when it
/// is the one named (a stale screen must not remove a newer image).
pub struct ImageDelete;

#[async_trait]
impl ActionHandler for ImageDelete {
    async fn run(
        &self,
        tx: &mut Tx,
        res: &Resource,
        caller: &Caller,
        emp: Option<i64>,
        params: &HashMap<String, String>,
        _body: Value,
    ) -> Result<Value> {
        let emp = path_company(params, emp)?;
        let id = param(params, "id")?;
        let prod: i64 = id.parse().map_err(|_| Error::not_found())?;
        let name = param(params, "name")?;
        let done = sqlx::query(
            "UPDATE catalog.produtos SET prod_imagem = NULL
              WHERE client_id = $1 AND prod_emp_id = $2 AND prod_id = $3 AND prod_imagem = $4",
        )
        .bind(caller.client_id)
        .bind(emp)
        .bind(prod)
        .bind(name)
        .execute(&mut **tx)
        .await?;
        if done.rows_affected() == 0 {
            return Err(Error::NotFound("Imagem não encontrada.".into()));
        }
        query::get(tx, res, caller, Some(emp), &[id.to_string()]).await
    }
}

/// POST /produtoscbar/vendas/{id}/{emp}: the active products a scanned code
/// names, through the product's own barcode, an extra barcode or a grid variant.
/// The code is the body's FILTRO (or PRCB_CODIGO), else the path's `{id}`; with
/// none the lookup does nothing (spec §5) and answers an empty list.
pub struct BarcodeLookup;

#[async_trait]
impl ActionHandler for BarcodeLookup {
    async fn run(
        &self,
        tx: &mut Tx,
        _res: &Resource,
        caller: &Caller,
        emp: Option<i64>,
        params: &HashMap<String, String>,
        body: Value,
    ) -> Result<Value> {
        let emp = path_company(params, emp)?;
        let code = text_of(body.get("FILTRO"))
            .or_else(|| text_of(body.get("PRCB_CODIGO")))
            .or_else(|| {
                params
                    .get("id")
                    .and_then(|s| text_of(Some(&Value::from(s.as_str()))))
            })
            .filter(|c| !matches!(c.as_str(), "undefined" | "null"));
        let Some(code) = code else {
            return Ok(Value::Array(Vec::new()));
        };
        let hits: Vec<(i64, Option<i64>, Option<String>)> = sqlx::query_as(
            "SELECT prod_id, NULL::bigint, NULL::numeric::text FROM catalog.produtos
              WHERE client_id = $1 AND prod_emp_id = $2 AND prod_cbar = $3
             UNION
             SELECT prcb_prod_id, NULL, trim_scale(prcb_qtde)::text FROM catalog.produtoscbar
              WHERE client_id = $1 AND prcb_emp_id = $2 AND prcb_codigo = $3
             UNION
             SELECT prgr_prod_id, prgr_id, NULL FROM catalog.produtosgrade
              WHERE client_id = $1 AND prgr_emp_id = $2 AND prgr_cbar = $3 AND prgr_situacao = 1
             ORDER BY 1, 2",
        )
        .bind(caller.client_id)
        .bind(emp)
        .bind(&code)
        .fetch_all(&mut **tx)
        .await?;
        let prod_res = produtos();
        let mut rows = Vec::new();
        for (prod, variant, qty) in hits {
            let row = query::get(tx, &prod_res, caller, Some(emp), &[prod.to_string()]).await?;
            if row["PROD_SITUACAO"].as_i64() != Some(1) {
                continue;
            }
            let mut row = row;
            if let Value::Object(m) = &mut row {
                m.insert("PRCB_CODIGO".into(), Value::from(code.clone()));
                m.insert(
                    "PRGR_ID".into(),
                    variant.map(Value::from).unwrap_or(Value::Null),
                );
                // A packaging barcode sells its whole content (a box of 12).
                let qty = qty
                    .and_then(|q| serde_json::from_str::<Value>(&q).ok())
                    .unwrap_or(json!(1));
                m.insert("PRCB_QTDE".into(), qty);
            }
            rows.push(row);
        }
        query::decorate(&prod_res, &mut rows);
        Ok(Value::Array(rows))
    }
}

/// POST /materiaprima/{prod}/{emp}: the raw material of one product, with the
/// list body's ordering and paging.
pub struct RawMaterialOf;

#[async_trait]
impl ActionHandler for RawMaterialOf {
    async fn run(
        &self,
        tx: &mut Tx,
        res: &Resource,
        caller: &Caller,
        emp: Option<i64>,
        params: &HashMap<String, String>,
        body: Value,
    ) -> Result<Value> {
        let emp = path_company(params, emp)?;
        let prod = param(params, "prod")?;
        let mut filter = match body {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        filter.insert("MATP_PROD_ID".into(), Value::from(prod));
        Ok(Value::Array(
            query::list(tx, res, caller, Some(emp), &filter).await?,
        ))
    }
}
