//! Duplicating a product (`POST /produtoduplicar/{prodId}/{emp}/{user}`) with its
//! information, suppliers and grid.

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::resource::params::id_param;
use erp_platform::resource::query::{self, MAX_LIMIT};
use erp_platform::resource::{ActionHandler, Call, Resource};
use erp_platform::Result;
use serde_json::{Map, Value};

use super::path_company::path_company;
use super::sub_registers;

const COPY_SUFFIX: &str = " (CÓPIA)";

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
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, emp, params, .. } = call;
        let emp = path_company(params, emp)?;
        let id = id_param(params, "prodId")?.to_string();
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
            (sub_registers::produtosinf(), "PROI_PROD_ID", None),
            (sub_registers::produtosfornecedor(), "PRFR_PROD_ID", None),
            (
                sub_registers::produtosgrade(),
                "PRGR_PROD_ID",
                Some("PRGR_CBAR"),
            ),
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
