//! What the purchase's registers do around the engine's document work: the header
//! keeps its supplier's name and document from orders' copy; an item takes its
//! product's description, unit and cost, says how it was matched, keeps the
//! header's addition totals current and records the supplier's code of a linked
//! product (so the next NF-e of that supplier matches it); the grid, the
//! apportionment and the instalments check themselves.

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::{params, Hooks, Op, RecordHooks};
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::totals::header_components;
use crate::copies;

/// An integer of a body value (number or numeric text).
pub(super) fn int_of(v: Option<&Value>) -> Option<i64> {
    match v? {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

fn blank(v: Option<&Value>) -> bool {
    v.is_none_or(|v| v.is_null() || v.as_str().is_some_and(|s| s.trim().is_empty()))
}

pub(super) struct PurchaseHooks;

/// What the purchase's header hook reads and writes of a body.
#[derive(Deserialize, Serialize)]
pub(super) struct PurchaseBody {
    #[serde(rename = "COMP_FORN_ID", default, skip_serializing)]
    supplier: Option<i64>,
    #[serde(
        rename = "COMP_FORN_DESC",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    supplier_name: Option<String>,
    #[serde(
        rename = "COMP_FORN_CNPJ",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    supplier_document: Option<String>,
}

#[async_trait]
impl RecordHooks for PurchaseHooks {
    type Body = PurchaseBody;
    type Row = IgnoredAny;

    async fn prepare(
        &self,
        tx: &mut Tx,
        _op: Op,
        caller: &Caller,
        _emp: Option<i64>,
        body: &mut PurchaseBody,
    ) -> Result<()> {
        // The supplier's name and document as catalog has them; a supplier orders
        // does not know yet keeps what the body (or the NF-e) says.
        let Some(id) = body.supplier else {
            return Ok(());
        };
        if let Some((_, name, document)) = copies::supplier(tx, caller.client_id, id).await? {
            body.supplier_name = Some(name);
            if document.is_some() {
                body.supplier_document = document;
            }
        }
        Ok(())
    }
}

pub(super) struct ItemHooks;

#[async_trait]
impl Hooks for ItemHooks {
    async fn prepare(
        &self,
        tx: &mut Tx,
        op: Op,
        caller: &Caller,
        emp: Option<i64>,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        let link = match body.get("CMPP_PROD_ID").cloned() {
            None if op == Op::Create => "novo",
            None => return Ok(()),
            Some(v) if blank(Some(&v)) => "novo",
            Some(v) => {
                let id = int_of(Some(&v)).ok_or_else(|| Error::validation("Produto inválido."))?;
                let emp = params::company(emp)?;
                if id <= 0 {
                    return Err(Error::validation("Produto inválido."));
                }
                // Linking an imported item to a product created a moment ago: the
                // product may not have reached orders' copy of the catalog yet (it
                // travels by event), so the link is kept and finalizing checks that
                // every linked product is known by then. A new item must name a
                // known product (it takes its description, unit and cost).
                let known = copies::product_for_purchase(tx, caller.client_id, emp, id).await?;
                if op == Op::Create {
                    let (description, unit, cost) =
                        known.ok_or_else(|| Error::validation("Produto não encontrado."))?;
                    if blank(body.get("CMPP_DESCRICAO")) {
                        body.insert("CMPP_DESCRICAO".into(), Value::String(description));
                    }
                    if let (true, Some(u)) = (blank(body.get("CMPP_UNIDADE")), unit) {
                        body.insert("CMPP_UNIDADE".into(), Value::String(u));
                    }
                    // A price left out (not a zero: a free item) is the product's cost.
                    if let (false, Some(c)) = (body.contains_key("CMPP_VLR_UNIT"), cost) {
                        body.insert("CMPP_VLR_UNIT".into(), Value::String(c.to_string()));
                    }
                }
                "manual"
            }
        };
        body.insert("CMPP_VINCULO".into(), Value::String(link.into()));
        Ok(())
    }

    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &Value) -> Result<()> {
        let emp = params::int(row, "CMPP_EMP_ID")?;
        let purchase = params::int(row, "CMPP_COMP_ID")?;
        header_components(tx, caller.client_id, emp, purchase).await?;
        if op == Op::Delete {
            return Ok(());
        }
        let code = params::text(row, "CMPP_COD_FORNECEDOR");
        let Some(product) = row["CMPP_PROD_ID"].as_i64() else {
            return Ok(());
        };
        if code.trim().is_empty() {
            return Ok(());
        }
        let factor = params::opt_dec(row, "CMPP_FATOR")?.unwrap_or(Decimal::ONE);
        sqlx::query(
            "INSERT INTO orders.compra_vinculos (client_id, emp_id, forn_documento, cod_fornecedor, prod_id, unidade, fator)
             SELECT c.client_id, c.comp_emp_id, regexp_replace(c.comp_forn_cnpj, '\\D', '', 'g'), $4, $5, $6, $7
             FROM orders.compras c
             WHERE c.client_id = $1 AND c.comp_emp_id = $2 AND c.comp_id = $3
               AND regexp_replace(coalesce(c.comp_forn_cnpj, ''), '\\D', '', 'g') <> ''
             ON CONFLICT (client_id, emp_id, forn_documento, cod_fornecedor) DO UPDATE
             SET prod_id = EXCLUDED.prod_id, unidade = EXCLUDED.unidade, fator = EXCLUDED.fator, dta_alteracao = now()",
        )
        .bind(caller.client_id)
        .bind(emp)
        .bind(purchase)
        .bind(code.trim())
        .bind(product)
        .bind(row["CMPP_UNIDADE"].as_str())
        .bind(factor)
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}

/// A grid row names an item of its purchase, and the item's grid does not add up
/// to more than the item's quantity in the stock unit.
pub(super) struct GridCheck;

#[async_trait]
impl Hooks for GridCheck {
    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &Value) -> Result<()> {
        if op == Op::Delete {
            return Ok(());
        }
        let (emp, purchase, item) = (
            params::int(row, "CMPG_EMP_ID")?,
            params::int(row, "CMPG_COMP_ID")?,
            params::int(row, "CMPG_CMPP_ID")?,
        );
        let sums: Option<(Decimal, Decimal)> = sqlx::query_as(
            "SELECT p.cmpp_qtde * p.cmpp_fator,
                    (SELECT coalesce(sum(g.cmpg_qtde), 0) FROM orders.compra_produtos_grade g
                     WHERE g.client_id = p.client_id AND g.cmpg_emp_id = p.cmpp_emp_id
                       AND g.cmpg_comp_id = p.cmpp_comp_id AND g.cmpg_cmpp_id = p.cmpp_id)
             FROM orders.compra_produtos p
             WHERE p.client_id = $1 AND p.cmpp_emp_id = $2 AND p.cmpp_comp_id = $3 AND p.cmpp_id = $4",
        )
        .bind(caller.client_id)
        .bind(emp)
        .bind(purchase)
        .bind(item)
        .fetch_optional(&mut **tx)
        .await?;
        let (quantity, grid) = sums.ok_or_else(|| Error::validation(ITEM_MISSING))?;
        if grid > quantity {
            return Err(Error::validation(format!(
                "A grade do item {item} soma {}, mais que a quantidade do item na unidade de estoque ({}).",
                grid.normalize(),
                quantity.normalize()
            )));
        }
        Ok(())
    }
}

pub(super) const ITEM_MISSING: &str = "Item da compra não encontrado.";

/// A row of the apportionment names a location or a cost centre and a percentage
/// or a value (the other is derived from the purchase's total), and the rows never
/// add up to more than 100% (finalizing requires exactly 100% when there are rows).
pub(super) struct ApportionmentCheck;

#[async_trait]
impl Hooks for ApportionmentCheck {
    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &Value) -> Result<()> {
        if op == Op::Delete {
            return Ok(());
        }
        let client = caller.client_id;
        let (emp, purchase, seq) = (
            params::int(row, "CMPE_EMP_ID")?,
            params::int(row, "CMPE_COMP_ID")?,
            params::int(row, "CMPE_ID")?,
        );
        if row["CMPE_LOCA_ID"].is_null() && row["CMPE_HISP_ID"].is_null() {
            return Err(Error::validation(
                "Informe o local de estoque ou o centro de custo do rateio.",
            ));
        }
        let total = super::totals::invoice_total(tx, client, emp, purchase).await?;
        let perc = params::opt_dec(row, "CMPE_PERC")?;
        let value = params::opt_dec(row, "CMPE_VALOR")?;
        let hundred = Decimal::ONE_HUNDRED;
        let (perc, value) = match (perc, value) {
            (Some(p), _) => (
                p,
                erp_platform::resource::document::arithmetic::money(total * p / hundred),
            ),
            (None, Some(v)) if total > Decimal::ZERO => ((v * hundred / total).round_dp(4), v),
            (None, Some(_)) => {
                return Err(Error::validation(
                    "A compra ainda não tem total: informe o percentual do rateio.",
                ))
            }
            (None, None) => {
                return Err(Error::validation(
                    "Informe o percentual ou o valor do rateio.",
                ))
            }
        };
        let sum: Decimal = sqlx::query_scalar(
            "WITH upd AS (
                UPDATE orders.compra_estatisticas SET cmpe_perc = $4, cmpe_valor = $5
                WHERE client_id = $1 AND cmpe_emp_id = $2 AND cmpe_comp_id = $3 AND cmpe_id = $6
                RETURNING cmpe_perc)
             SELECT (SELECT cmpe_perc FROM upd) + coalesce((SELECT sum(cmpe_perc) FROM orders.compra_estatisticas
                 WHERE client_id = $1 AND cmpe_emp_id = $2 AND cmpe_comp_id = $3 AND cmpe_id <> $6), 0)",
        )
        .bind(client)
        .bind(emp)
        .bind(purchase)
        .bind(perc)
        .bind(value)
        .bind(seq)
        .fetch_one(&mut **tx)
        .await?;
        if sum > hundred {
            return Err(Error::validation(format!(
                "O rateio da compra passa de 100% ({}%).",
                sum.normalize()
            )));
        }
        Ok(())
    }
}

/// A settled instalment (finance paid it) is neither changed nor deleted.
pub(super) struct InstalmentCheck;

#[async_trait]
impl Hooks for InstalmentCheck {
    async fn after_write(&self, _tx: &mut Tx, op: Op, _caller: &Caller, row: &Value) -> Result<()> {
        if op != Op::Create && row["CMPD_BAIXADO"].as_bool() == Some(true) {
            return Err(Error::Conflict(
                "Parcela paga não pode ser alterada nem excluída.".into(),
            ));
        }
        Ok(())
    }
}
