//! What the purchase's registers do around the engine's document work: the header
//! keeps its supplier's name and document from orders' copy; an item takes its
//! product's description, unit and cost, says how it was matched, keeps the
//! header's addition totals current and records the supplier's code of a linked
//! product (so the next NF-e of that supplier matches it); the grid, the
//! apportionment and the instalments check themselves.

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::call::Dec;
use erp_platform::resource::{params, Op, RecordHooks};
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use serde::de::IgnoredAny;
use serde::{Deserialize, Deserializer, Serialize};

use super::super::NoBody;
use super::totals::header_components;
use crate::copies;

/// A body field the view tells apart when left out (`None`) from sent empty
/// (`Some(None)`: null or blank).
fn sent<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> std::result::Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
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

/// What the item's hook reads and writes of a body.
#[derive(Deserialize, Serialize)]
pub(super) struct ItemBody {
    /// Left out, sent empty (a new item to link later) or a product.
    #[serde(
        rename = "CMPP_PROD_ID",
        default,
        deserialize_with = "sent",
        skip_serializing
    )]
    product: Option<Option<i64>>,
    #[serde(
        rename = "CMPP_DESCRICAO",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    description: Option<String>,
    #[serde(
        rename = "CMPP_UNIDADE",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    unit: Option<String>,
    /// Whether the body names a price (a zero is a free item).
    #[serde(
        rename = "CMPP_VLR_UNIT",
        default,
        deserialize_with = "sent",
        skip_serializing
    )]
    price_sent: Option<Option<Dec>>,
    /// The product's cost, for a price left out.
    #[serde(
        rename = "CMPP_VLR_UNIT",
        skip_deserializing,
        skip_serializing_if = "Option::is_none"
    )]
    price: Option<Dec>,
    /// How the item was matched: `novo` (no product yet) or `manual`.
    #[serde(
        rename = "CMPP_VINCULO",
        skip_deserializing,
        skip_serializing_if = "Option::is_none"
    )]
    link: Option<&'static str>,
}

/// An item's row as its hook reads it.
#[derive(Deserialize)]
pub(super) struct ItemRow {
    #[serde(rename = "CMPP_EMP_ID")]
    emp: i64,
    #[serde(rename = "CMPP_COMP_ID")]
    purchase: i64,
    #[serde(rename = "CMPP_PROD_ID")]
    product: Option<i64>,
    /// The supplier's code of the item.
    #[serde(rename = "CMPP_COD_FORNECEDOR")]
    code: Option<String>,
    #[serde(rename = "CMPP_UNIDADE")]
    unit: Option<String>,
    #[serde(rename = "CMPP_FATOR")]
    factor: Option<Dec>,
}

pub(super) struct ItemHooks;

#[async_trait]
impl RecordHooks for ItemHooks {
    type Body = ItemBody;
    type Row = ItemRow;

    async fn prepare(
        &self,
        tx: &mut Tx,
        op: Op,
        caller: &Caller,
        emp: Option<i64>,
        body: &mut ItemBody,
    ) -> Result<()> {
        let link = match body.product {
            None if op == Op::Create => "novo",
            None => return Ok(()),
            Some(None) => "novo",
            Some(Some(id)) => {
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
                    if body.description.is_none() {
                        body.description = Some(description);
                    }
                    if body.unit.is_none() {
                        body.unit = unit;
                    }
                    // A price left out (not a zero: a free item) is the product's cost.
                    if body.price_sent.is_none() {
                        body.price = cost.map(Dec);
                    }
                }
                "manual"
            }
        };
        body.link = Some(link);
        Ok(())
    }

    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &ItemRow) -> Result<()> {
        let (emp, purchase) = (row.emp, row.purchase);
        header_components(tx, caller.client_id, emp, purchase).await?;
        if op == Op::Delete {
            return Ok(());
        }
        let Some(product) = row.product else {
            return Ok(());
        };
        let code = row.code.as_deref().unwrap_or_default().trim();
        if code.is_empty() {
            return Ok(());
        }
        let factor = row.factor.map(Dec::get).unwrap_or(Decimal::ONE);
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
        .bind(code)
        .bind(product)
        .bind(row.unit.as_deref())
        .bind(factor)
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}

/// A grid row's key as its check reads it.
#[derive(Deserialize)]
pub(super) struct GridRow {
    #[serde(rename = "CMPG_EMP_ID")]
    emp: i64,
    #[serde(rename = "CMPG_COMP_ID")]
    purchase: i64,
    #[serde(rename = "CMPG_CMPP_ID")]
    item: i64,
}

/// An item's quantity in the stock unit and what its grid adds up to.
#[derive(sqlx::FromRow)]
struct GridSums {
    quantity: Decimal,
    grid: Decimal,
}

/// A grid row names an item of its purchase, and the item's grid does not add up
/// to more than the item's quantity in the stock unit.
pub(super) struct GridCheck;

#[async_trait]
impl RecordHooks for GridCheck {
    type Body = NoBody;
    type Row = GridRow;

    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &GridRow) -> Result<()> {
        if op == Op::Delete {
            return Ok(());
        }
        let (emp, purchase, item) = (row.emp, row.purchase, row.item);
        let sums: Option<GridSums> = sqlx::query_as(
            "SELECT p.cmpp_qtde * p.cmpp_fator AS quantity,
                    (SELECT coalesce(sum(g.cmpg_qtde), 0) FROM orders.compra_produtos_grade g
                     WHERE g.client_id = p.client_id AND g.cmpg_emp_id = p.cmpp_emp_id
                       AND g.cmpg_comp_id = p.cmpp_comp_id AND g.cmpg_cmpp_id = p.cmpp_id) AS grid
             FROM orders.compra_produtos p
             WHERE p.client_id = $1 AND p.cmpp_emp_id = $2 AND p.cmpp_comp_id = $3 AND p.cmpp_id = $4",
        )
        .bind(caller.client_id)
        .bind(emp)
        .bind(purchase)
        .bind(item)
        .fetch_optional(&mut **tx)
        .await?;
        let GridSums { quantity, grid } = sums.ok_or_else(|| Error::validation(ITEM_MISSING))?;
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

/// A row of the apportionment as its check reads it.
#[derive(Deserialize)]
pub(super) struct ApportionmentRow {
    #[serde(rename = "CMPE_EMP_ID")]
    emp: i64,
    #[serde(rename = "CMPE_COMP_ID")]
    purchase: i64,
    #[serde(rename = "CMPE_ID")]
    seq: i64,
    #[serde(rename = "CMPE_LOCA_ID")]
    location: Option<i64>,
    #[serde(rename = "CMPE_HISP_ID")]
    centre: Option<i64>,
    #[serde(rename = "CMPE_PERC")]
    percent: Option<Dec>,
    #[serde(rename = "CMPE_VALOR")]
    value: Option<Dec>,
}

#[async_trait]
impl RecordHooks for ApportionmentCheck {
    type Body = NoBody;
    type Row = ApportionmentRow;

    async fn after_write(
        &self,
        tx: &mut Tx,
        op: Op,
        caller: &Caller,
        row: &ApportionmentRow,
    ) -> Result<()> {
        if op == Op::Delete {
            return Ok(());
        }
        let client = caller.client_id;
        let (emp, purchase, seq) = (row.emp, row.purchase, row.seq);
        if row.location.is_none() && row.centre.is_none() {
            return Err(Error::validation(
                "Informe o local de estoque ou o centro de custo do rateio.",
            ));
        }
        let total = super::totals::invoice_total(tx, client, emp, purchase).await?;
        let perc = row.percent.map(Dec::get);
        let value = row.value.map(Dec::get);
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

/// An instalment's row as its check reads it.
#[derive(Deserialize)]
pub(super) struct InstalmentRow {
    /// Finance paid it.
    #[serde(rename = "CMPD_BAIXADO")]
    settled: Option<bool>,
}

#[async_trait]
impl RecordHooks for InstalmentCheck {
    type Body = NoBody;
    type Row = InstalmentRow;

    async fn after_write(
        &self,
        _tx: &mut Tx,
        op: Op,
        _caller: &Caller,
        row: &InstalmentRow,
    ) -> Result<()> {
        if op != Op::Create && row.settled == Some(true) {
            return Err(Error::Conflict(
                "Parcela paga não pode ser alterada nem excluída.".into(),
            ));
        }
        Ok(())
    }
}
