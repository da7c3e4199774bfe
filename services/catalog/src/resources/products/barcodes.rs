//! Barcodes: a product's extra barcodes (`produtoscbar`: another packaging, a
//! supplier's code) and the sales screen's lookup of a scanned code, through the
//! product's own barcode, an extra barcode or a grid variant.

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::resource::{query, ActionHandler, ActionPerm, Call, Field, Kind, Resource};
use erp_platform::Result;
use serde_json::{json, Value};

use super::field_rules::{text_of, ProductRules};
use super::path_company::path_company;
use super::product::produtos;
use super::settings::QTY_SCALE;
use crate::SCHEMA;

/// Extra barcodes of a product (another packaging, a supplier's code). Each code
/// finds one product of the company.
pub fn produtoscbar() -> Resource {
    Resource::new("produtoscbar", "Códigos de Barras do Produto", SCHEMA, "produtoscbar", "produtos")
        .sample(json!({"PRCB_PROD_ID": 1, "PRCB_CODIGO": "7891234567895", "PRCB_DESCRICAO": "CAIXA COM 100", "PRCB_QTDE": "100"}))
        .key(&["PRCB_ID"])
        .constraint(
            "produtoscbar_codigo_key",
            "Código de barras já cadastrado em outra embalagem.",
        )
        .company("PRCB_EMP_ID")
        .label("PRCB_CODIGO")
        .order("PRCB_ID")
        .hooks(Arc::new(ProductRules {
            barcodes: &["PRCB_CODIGO"],
            ..ProductRules::default()
        }))
        .fields(vec![
            Field::id("PRCB_ID", "Código"),
            Field::int("PRCB_EMP_ID", "Empresa"),
            Field::reference("PRCB_PROD_ID", "Produto", "produtos", Kind::Autocomplete).required(),
            Field::text("PRCB_CODIGO", "Código de Barras (EAN)")
                .kind(Kind::Barcode)
                .required()
                .len(14)
                .searchable()
                .list()
                .width(4),
            Field::text("PRCB_DESCRICAO", "Embalagem").len(60).list().width(5),
            // A box's barcode sells its whole content at once.
            Field::decimal("PRCB_QTDE", "Quantidade na Embalagem")
                .scale(QTY_SCALE)
                .min("0.0001")
                .default(json!(1))
                .list()
                .width(3),
        ])
        .action(
            "POST",
            "/produtoscbar/vendas/{id}/{emp}",
            "vendas",
            ActionPerm::View,
            "Códigos de barras: localizar produto para venda",
            Arc::new(BarcodeLookup),
        )
}

/// POST /produtoscbar/vendas/{id}/{emp}: the active products a scanned code
/// names, through the product's own barcode, an extra barcode or a grid variant.
/// The code is the body's FILTRO (or PRCB_CODIGO), else the path's `{id}`; with
/// none the lookup does nothing (spec §5) and answers an empty list.
pub struct BarcodeLookup;

#[async_trait]
impl ActionHandler for BarcodeLookup {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { caller, emp, params, body, .. } = call;
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
