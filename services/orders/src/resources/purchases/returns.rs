//! Returns of purchased items to the supplier (`compraprodutodevolucao`): rows of a
//! purchase that is not cancelled, never more of an item than was bought (in the
//! stock unit), frozen once in a billing order; `gerarpedido` turns the pending
//! returns of a finalized purchase into one billing order for the supplier (the
//! customer registered with the supplier's CPF/CNPJ), whose invoicing takes the
//! goods out of stock (`erp.orders.pedido.faturado`).

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::{params, query, ActionHandler, Call, Hooks, Op};
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use serde_json::{json, Map, Value};

use super::hooks::ITEM_MISSING;
use super::transitions::purchase_id;
use super::MISSING;

pub(super) struct ReturnCheck;

#[async_trait]
impl Hooks for ReturnCheck {
    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &Value) -> Result<()> {
        if op != Op::Create && !row["CMPR_PEDF_ID"].is_null() {
            return Err(Error::Conflict(format!(
                "Devolução já está no pedido {} e não pode ser alterada nem excluída.",
                params::text(row, "CMPR_PEDF_ID")
            )));
        }
        if op == Op::Delete {
            return Ok(());
        }
        let (emp, purchase, item) = (
            params::int(row, "CMPR_EMP_ID")?,
            params::int(row, "CMPR_COMP_ID")?,
            params::int(row, "CMPR_CMPP_ID")?,
        );
        let found: Option<(String, Decimal, Decimal)> = sqlx::query_as(
            "SELECT c.comp_situacao, p.cmpp_qtde * p.cmpp_fator,
                    (SELECT coalesce(sum(r.cmpr_qtde), 0) FROM orders.compra_devolucoes r
                     WHERE r.client_id = p.client_id AND r.cmpr_emp_id = p.cmpp_emp_id
                       AND r.cmpr_comp_id = p.cmpp_comp_id AND r.cmpr_cmpp_id = p.cmpp_id)
             FROM orders.compra_produtos p
             JOIN orders.compras c ON c.client_id = p.client_id AND c.comp_emp_id = p.cmpp_emp_id
                AND c.comp_id = p.cmpp_comp_id
             WHERE p.client_id = $1 AND p.cmpp_emp_id = $2 AND p.cmpp_comp_id = $3 AND p.cmpp_id = $4",
        )
        .bind(caller.client_id)
        .bind(emp)
        .bind(purchase)
        .bind(item)
        .fetch_optional(&mut **tx)
        .await?;
        let (status, bought, returned) = found.ok_or_else(|| Error::validation(ITEM_MISSING))?;
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

/// `POST /compraprodutodevolucao/gerarpedido/{CMPR_COMP_ID}/{emp}` (body optional:
/// PEDF_SERIE, default 1): one open billing order with the purchase's pending
/// returns, each at the purchase's unit price in the stock unit; the returns name
/// it from then on. Answers the order.
pub(super) struct ReturnOrder;

#[async_trait]
impl ActionHandler for ReturnOrder {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { caller, emp, params: p, body, .. } = call;
        let emp = params::company(emp)?;
        let purchase = purchase_id(p, "CMPR_COMP_ID")?;
        let client = caller.client_id;
        type Head = (
            String,
            Option<String>,
            Option<i64>,
            Option<String>,
            Option<String>,
        );
        let head: Option<Head> = sqlx::query_as(
            "SELECT comp_situacao, comp_forn_cnpj, comp_numero, comp_serie, comp_chave FROM orders.compras
             WHERE client_id = $1 AND comp_emp_id = $2 AND comp_id = $3 FOR UPDATE",
        )
        .bind(client)
        .bind(emp)
        .bind(purchase)
        .fetch_optional(&mut **tx)
        .await?;
        let (status, supplier, number, serie, key) =
            head.ok_or_else(|| Error::NotFound(MISSING.into()))?;
        if status != "F" {
            return Err(Error::validation(
                "Só é possível gerar a devolução de uma compra finalizada.",
            ));
        }
        type Pending = (i64, Option<i64>, String, Decimal, Decimal);
        let pending: Vec<Pending> = sqlx::query_as(
            "SELECT r.cmpr_id, p.cmpp_prod_id, p.cmpp_descricao, r.cmpr_qtde, p.cmpp_vlr_unit / p.cmpp_fator
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
        let order_serie = body
            .get("PEDF_SERIE")
            .and_then(Value::as_str)
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
        let today: String =
            sqlx::query_scalar("SELECT ((now() AT TIME ZONE 'America/Sao_Paulo')::date)::text")
                .fetch_one(&mut **tx)
                .await?;
        let remark = format!(
            "Devolução de mercadorias da compra {purchase} (NF-e {}/{}{}).",
            serie.unwrap_or_default(),
            number.map(|n| n.to_string()).unwrap_or_default(),
            key.map(|k| format!(", chave {k}")).unwrap_or_default()
        );
        let mut order = Map::new();
        order.insert("PEDF_SERIE".into(), Value::String(order_serie.clone()));
        order.insert("PEDF_CLI_ID".into(), Value::from(customer));
        order.insert("PEDF_DTA_EMISSAO".into(), Value::String(today));
        order.insert("PEDF_MODELO".into(), json!("55"));
        order.insert("PEDF_TIPO".into(), json!("1"));
        order.insert("PEDF_OBS".into(), Value::String(remark));
        let header = query::create(tx, register("pedido")?, caller, Some(emp), &order).await?;
        let order_id = params::int(&header, "PEDF_ID")?;
        for (seq, product, description, quantity, unit) in &pending {
            let product = product.ok_or_else(|| {
                Error::validation(format!(
                    "A devolução {seq} é de um item sem produto vinculado."
                ))
            })?;
            let mut line = Map::new();
            line.insert("PEDI_PEDF_ID".into(), Value::from(order_id));
            line.insert(
                "PEDI_PEDF_SERIE_ID".into(),
                Value::String(order_serie.clone()),
            );
            line.insert("PEDI_PROD_ID".into(), Value::from(product));
            line.insert("PEDI_DESCRICAO".into(), Value::String(description.clone()));
            line.insert(
                "PEDI_QTDE".into(),
                Value::String(quantity.normalize().to_string()),
            );
            line.insert(
                "PEDI_VLR_UNITARIO".into(),
                Value::String(unit.round_dp(4).normalize().to_string()),
            );
            query::create(tx, register("pedidoproduto")?, caller, Some(emp), &line).await?;
        }
        let ids: Vec<i64> = pending.iter().map(|r| r.0).collect();
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
        query::get(
            tx,
            register("pedido")?,
            caller,
            Some(emp),
            &[order_id.to_string(), order_serie],
        )
        .await
    }
}
