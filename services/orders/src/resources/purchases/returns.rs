//! Returns of purchased items to the supplier (`compraprodutodevolucao`): rows of a
//! purchase that is not cancelled, never more of an item than was bought (in the
//! stock unit), frozen once in a billing order; `gerarpedido` turns the pending
//! returns of a finalized purchase into one billing order for the supplier (the
//! customer registered with the supplier's CPF/CNPJ), whose invoicing takes the
//! goods out of stock (`erp.orders.pedido.faturado`).

use async_trait::async_trait;
use chrono::NaiveDate;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::call::{Ctx, Date, Dec, Operation, RowOf};
use erp_platform::resource::{query, record, Op, RecordHooks};
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::super::transitions::Pedido;
use super::super::{register_body, NoBody};
use super::hooks::ITEM_MISSING;
use super::transitions::PurchaseId;
use super::MISSING;

/// A return's row as its check reads it.
#[derive(Deserialize)]
pub struct ReturnRow {
    #[serde(rename = "CMPR_EMP_ID")]
    emp: i64,
    #[serde(rename = "CMPR_COMP_ID")]
    purchase: i64,
    #[serde(rename = "CMPR_CMPP_ID")]
    item: i64,
    /// The billing order the return went into.
    #[serde(rename = "CMPR_PEDF_ID")]
    order: Option<i64>,
}

/// The returned item as the check reads it: the purchase's situation, what was
/// bought in the stock unit and what is returned of it so far.
#[derive(sqlx::FromRow)]
struct Returnable {
    status: String,
    bought: Decimal,
    returned: Decimal,
}

pub(super) struct ReturnCheck;

#[async_trait]
impl RecordHooks for ReturnCheck {
    type Body = NoBody;
    type Row = ReturnRow;

    async fn after_write(
        &self,
        tx: &mut Tx,
        op: Op,
        caller: &Caller,
        row: &ReturnRow,
    ) -> Result<()> {
        if let (false, Some(order)) = (op == Op::Create, row.order) {
            return Err(Error::Conflict(format!(
                "Devolução já está no pedido {order} e não pode ser alterada nem excluída."
            )));
        }
        if op == Op::Delete {
            return Ok(());
        }
        let item = row.item;
        let found: Option<Returnable> = sqlx::query_as(
            "SELECT c.comp_situacao AS status, p.cmpp_qtde * p.cmpp_fator AS bought,
                    (SELECT coalesce(sum(r.cmpr_qtde), 0) FROM orders.compra_devolucoes r
                     WHERE r.client_id = p.client_id AND r.cmpr_emp_id = p.cmpp_emp_id
                       AND r.cmpr_comp_id = p.cmpp_comp_id AND r.cmpr_cmpp_id = p.cmpp_id) AS returned
             FROM orders.compra_produtos p
             JOIN orders.compras c ON c.client_id = p.client_id AND c.comp_emp_id = p.cmpp_emp_id
                AND c.comp_id = p.cmpp_comp_id
             WHERE p.client_id = $1 AND p.cmpp_emp_id = $2 AND p.cmpp_comp_id = $3 AND p.cmpp_id = $4",
        )
        .bind(caller.client_id)
        .bind(row.emp)
        .bind(row.purchase)
        .bind(item)
        .fetch_optional(&mut **tx)
        .await?;
        let Returnable { status, bought, returned } =
            found.ok_or_else(|| Error::validation(ITEM_MISSING))?;
        if status == "C" {
            return Err(Error::validation("Compra cancelada não aceita devolução."));
        }
        if returned > bought {
            return Err(Error::validation(format!(
                "A quantidade devolvida do item {item} ({}) passa da quantidade comprada na unidade de estoque ({}).",
                returned.normalize(),
                bought.normalize()
            )));
        }
        Ok(())
    }
}

/// `POST /compraprodutodevolucao/gerarpedido/{CMPR_COMP_ID}/{emp}`: the purchase and
/// the billing order's serie (1 when left out).
#[derive(Deserialize, JsonSchema)]
pub struct ReturnOrderIn {
    #[serde(rename = "CMPR_COMP_ID")]
    pub purchase: PurchaseId,
    #[serde(rename = "PEDF_SERIE", default)]
    pub serie: Option<String>,
}

/// The purchase as the return order reads it.
#[derive(sqlx::FromRow)]
struct Returned {
    status: String,
    supplier: Option<String>,
    number: Option<i64>,
    serie: Option<String>,
    access_key: Option<String>,
}

/// A return not yet in an order: the item's product, description, the quantity
/// and the unit price in the stock unit.
#[derive(sqlx::FromRow)]
struct Pending {
    seq: i64,
    product: Option<i64>,
    description: String,
    quantity: Decimal,
    unit: Decimal,
}

/// The return order's header, as a body of `pedido`.
#[derive(Serialize)]
struct ReturnOrderHead<'a> {
    #[serde(rename = "PEDF_SERIE")]
    serie: &'a str,
    #[serde(rename = "PEDF_CLI_ID")]
    customer: i64,
    #[serde(rename = "PEDF_DTA_EMISSAO")]
    issued: Date,
    #[serde(rename = "PEDF_MODELO")]
    model: &'static str,
    #[serde(rename = "PEDF_TIPO")]
    operation: &'static str,
    #[serde(rename = "PEDF_OBS")]
    remark: String,
}

/// A line of the return order, as a body of `pedidoproduto`.
#[derive(Serialize)]
struct ReturnOrderLine<'a> {
    #[serde(rename = "PEDI_PEDF_ID")]
    order: i64,
    #[serde(rename = "PEDI_PEDF_SERIE_ID")]
    serie: &'a str,
    #[serde(rename = "PEDI_PROD_ID")]
    product: i64,
    #[serde(rename = "PEDI_DESCRICAO")]
    description: &'a str,
    #[serde(rename = "PEDI_QTDE")]
    qty: Dec,
    #[serde(rename = "PEDI_VLR_UNITARIO")]
    unit: Dec,
}

/// The billing order the engine wrote.
#[derive(Deserialize)]
struct WrittenOrder {
    #[serde(rename = "PEDF_ID")]
    id: i64,
}

/// `POST /compraprodutodevolucao/gerarpedido/{CMPR_COMP_ID}/{emp}` (body optional:
/// PEDF_SERIE, default 1): one open billing order with the purchase's pending
/// returns, each at the purchase's unit price in the stock unit; the returns name
/// it from then on. Answers the order.
pub(super) struct ReturnOrder;

#[async_trait]
impl Operation for ReturnOrder {
    type In = ReturnOrderIn;
    type Out = RowOf<Pedido>;
    async fn run(&self, cx: &mut Ctx<'_>, i: ReturnOrderIn) -> Result<RowOf<Pedido>> {
        let emp = cx.emp()?;
        let purchase = i.purchase.get();
        let caller = cx.caller;
        let tx = &mut *cx.tx;
        let client = caller.client_id;
        let head: Option<Returned> = sqlx::query_as(
            "SELECT comp_situacao AS status, comp_forn_cnpj AS supplier, comp_numero AS number,
                    comp_serie AS serie, comp_chave AS access_key
             FROM orders.compras
             WHERE client_id = $1 AND comp_emp_id = $2 AND comp_id = $3 FOR UPDATE",
        )
        .bind(client)
        .bind(emp)
        .bind(purchase)
        .fetch_optional(&mut **tx)
        .await?;
        let Returned { status, supplier, number, serie, access_key: key } =
            head.ok_or_else(|| Error::NotFound(MISSING.into()))?;
        if status != "F" {
            return Err(Error::validation(
                "Só é possível gerar a devolução de uma compra finalizada.",
            ));
        }
        let pending: Vec<Pending> = sqlx::query_as(
            "SELECT r.cmpr_id AS seq, p.cmpp_prod_id AS product, p.cmpp_descricao AS description,
                    r.cmpr_qtde AS quantity, p.cmpp_vlr_unit / p.cmpp_fator AS unit
             FROM orders.compra_devolucoes r
             JOIN orders.compra_produtos p ON p.client_id = r.client_id AND p.cmpp_emp_id = r.cmpr_emp_id
                AND p.cmpp_comp_id = r.cmpr_comp_id AND p.cmpp_id = r.cmpr_cmpp_id
             WHERE r.client_id = $1 AND r.cmpr_emp_id = $2 AND r.cmpr_comp_id = $3 AND r.cmpr_pedf_id IS NULL
             ORDER BY r.cmpr_id FOR UPDATE OF r",
        )
        .bind(client)
        .bind(emp)
        .bind(purchase)
        .fetch_all(&mut **tx)
        .await?;
        if pending.is_empty() {
            return Err(Error::validation(
                "Nenhuma devolução pendente nesta compra.",
            ));
        }
        let document = crate::copies::digits(supplier.as_deref().unwrap_or_default());
        let customer: Option<i64> = sqlx::query_scalar(
            "SELECT cli_id FROM orders.clientes
             WHERE client_id = $1 AND emp_id = $2 AND documento = $3 AND NOT excluido ORDER BY cli_id LIMIT 1",
        )
        .bind(client)
        .bind(emp)
        .bind(&document)
        .fetch_optional(&mut **tx)
        .await?;
        let customer = customer.filter(|_| !document.is_empty()).ok_or_else(|| {
            Error::validation(
                "Cadastre o fornecedor como cliente (mesmo CPF/CNPJ) para gerar o pedido de devolução.",
            )
        })?;
        let order_serie = i
            .serie
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .unwrap_or("1")
            .to_string();
        let billing = super::super::billing::document().map_err(Error::internal)?;
        let register = |name: &str| {
            billing
                .iter()
                .find(|r| r.name == name)
                .ok_or_else(|| Error::internal(format!("{name} not declared")))
        };
        let today: NaiveDate =
            sqlx::query_scalar("SELECT (now() AT TIME ZONE 'America/Sao_Paulo')::date")
                .fetch_one(&mut **tx)
                .await?;
        let remark = format!(
            "Devolução de mercadorias da compra {purchase} (NF-e {}/{}{}).",
            serie.unwrap_or_default(),
            number.map(|n| n.to_string()).unwrap_or_default(),
            key.map(|k| format!(", chave {k}")).unwrap_or_default()
        );
        let order = ReturnOrderHead {
            serie: &order_serie,
            customer,
            issued: Date(today),
            model: "55",
            operation: "1",
            remark,
        };
        let header = query::create(
            tx,
            register("pedido")?,
            caller,
            Some(emp),
            &register_body(&order)?,
        )
        .await?;
        let order_id = record::from_row::<WrittenOrder>(&header)?.id;
        for r in &pending {
            let product = r.product.ok_or_else(|| {
                Error::validation(format!(
                    "A devolução {} é de um item sem produto vinculado.",
                    r.seq
                ))
            })?;
            let line = ReturnOrderLine {
                order: order_id,
                serie: &order_serie,
                product,
                description: &r.description,
                qty: Dec(r.quantity),
                unit: Dec(r.unit.round_dp(4)),
            };
            query::create(
                tx,
                register("pedidoproduto")?,
                caller,
                Some(emp),
                &register_body(&line)?,
            )
            .await?;
        }
        let ids: Vec<i64> = pending.iter().map(|r| r.seq).collect();
        sqlx::query(
            "UPDATE orders.compra_devolucoes SET cmpr_pedf_id = $4, cmpr_pedf_serie = $5
             WHERE client_id = $1 AND cmpr_emp_id = $2 AND cmpr_comp_id = $3 AND cmpr_id = ANY($6)",
        )
        .bind(client)
        .bind(emp)
        .bind(purchase)
        .bind(order_id)
        .bind(&order_serie)
        .bind(&ids)
        .execute(&mut **tx)
        .await?;
        let row = query::get(
            tx,
            register("pedido")?,
            caller,
            Some(emp),
            &[order_id.to_string(), order_serie],
        )
        .await?;
        Ok(RowOf::new(row))
    }
}
