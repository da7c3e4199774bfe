//! `POST /compraproduto/atualizacaogeral`: the purchase's landed cost becomes its
//! products' cost and, by margin, their sale price.
//!
//! Body: `CMPP_COMP_ID` (or `COMP_ID`; plain or base64) and `CMPP_EMP_ID` (the
//! company, else the user's current one); optional `MARGEM` (%, for every item
//! without its own), `ATUALIZAR_PRECO` (false: the cost only) and `itens`
//! (`[{"CMPP_ID": 1, "MARGEM": "80"}]`: only those items, each with its margin).
//!
//! Each product's cost is the landed cost per stock unit of its items in the
//! purchase (their landed value over their quantity in the stock unit, to the
//! cent): the stored one of a finalized purchase, computed as finalizing would for
//! an open one; a cancelled purchase is refused. Its sale price is cost × (1 +
//! margin / 100) to the cent, the margin being the item's, the body's or the
//! product's own (PROD_MARGEM; a margin given is also stored on the product); a
//! product without any keeps its price.
//!
//! The products are catalog's: each is read and updated through catalog's product
//! register (`PeerRegisters`), with its checks and events, so orders' and stock's
//! copies follow. The user needs ALTERACAO on Produtos as well (asked of identity,
//! `crate::grants`), since the call changes them. Products are updated one by one:
//! one catalog refuses is reported in `erros` and the others go on; when none could
//! be updated the call answers the first refusal.
//!
//! Answer: `{"code": 200, "msg", "CMPP_COMP_ID", "produtos": [{"PROD_ID",
//! "PROD_DESCRICAO", "CMPP_IDS", "PROD_CUSTO_ANTERIOR", "PROD_CUSTO", "PROD_MARGEM",
//! "PROD_VALOR_ANTERIOR", "PROD_VALOR"}], "ignorados": [{"CMPP_ID", "CMPP_DESCRICAO",
//! "motivo"}], "erros": [{"PROD_ID", "msg"}]}`.

use std::collections::{BTreeMap, HashMap};
use std::str::FromStr;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::resource::document::arithmetic::money;
use erp_platform::resource::{params, ActionHandler, Call};
use erp_platform::service::Peers;
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use serde_json::{json, Value};

use super::hooks::int_of;
use super::transitions::{freight_documents, head, items, landed, purchase_id};
use super::MISSING;
use crate::grants;
use crate::peer_registers::PeerRegisters;

pub(super) struct PriceUpdate {
    pub peers: Peers,
}

/// The largest margin the product register takes (PROD_MARGEM).
const MAX_MARGIN: &str = "999.9999";

fn margin(v: &Value, what: &str) -> Result<Option<Decimal>> {
    let m = match v {
        Value::Null => return Ok(None),
        Value::String(s) if s.trim().is_empty() => return Ok(None),
        Value::String(s) => Decimal::from_str(s.trim().replace(',', ".").as_str()).ok(),
        Value::Number(n) => Decimal::from_str(&n.to_string()).ok(),
        _ => None,
    };
    let max = Decimal::new(9_999_999, 4);
    match m {
        Some(m) if m >= Decimal::ZERO && m <= max => Ok(Some(m)),
        _ => Err(Error::validation(format!(
            "{what}: informe uma margem entre 0 e {}%.",
            MAX_MARGIN.replace('.', ",")
        ))),
    }
}

fn flag(v: Option<&Value>, default: bool) -> Result<bool> {
    match v {
        None | Some(Value::Null) => Ok(default),
        Some(Value::Bool(b)) => Ok(*b),
        Some(Value::String(s)) => match s.trim().to_ascii_uppercase().as_str() {
            "S" | "SIM" | "1" | "TRUE" => Ok(true),
            "N" | "NAO" | "NÃO" | "0" | "FALSE" => Ok(false),
            _ => Err(Error::validation("ATUALIZAR_PRECO inválido.")),
        },
        Some(Value::Number(n)) => Ok(n.as_i64() != Some(0)),
        Some(_) => Err(Error::validation("ATUALIZAR_PRECO inválido.")),
    }
}

/// What the purchase brings of one product.
#[derive(Default)]
struct ProductShare {
    items: Vec<i64>,
    landed: Decimal,
    quantity: Decimal,
    margin: Option<Decimal>,
}

/// The sale price of `cost` at `margin` %, to the cent.
pub fn price_at(cost: Decimal, margin: Decimal) -> Decimal {
    money(cost * (Decimal::ONE_HUNDRED + margin) / Decimal::ONE_HUNDRED)
}

#[async_trait]
impl ActionHandler for PriceUpdate {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { caller, emp, body, .. } = call;
        let emp = params::company(emp)?;
        let client = caller.client_id;
        let raw_id = ["CMPP_COMP_ID", "COMP_ID"]
            .iter()
            .find_map(|k| match body.get(*k) {
                Some(Value::Number(n)) => Some(n.to_string()),
                Some(Value::String(s)) if !s.trim().is_empty() => Some(s.trim().to_string()),
                _ => None,
            })
            .ok_or_else(|| Error::validation("Informe a compra (CMPP_COMP_ID)."))?;
        let id = purchase_id(
            &HashMap::from([("CMPP_COMP_ID".to_string(), raw_id)]),
            "CMPP_COMP_ID",
        )?;
        let general = margin(body.get("MARGEM").unwrap_or(&Value::Null), "MARGEM")?;
        let with_price = flag(body.get("ATUALIZAR_PRECO"), true)?;
        // Only the items named, each with its own margin (when the body names any).
        let chosen: Option<HashMap<i64, Option<Decimal>>> = match body.get("itens") {
            None | Some(Value::Null) => None,
            Some(Value::Array(list)) => {
                let mut m = HashMap::new();
                for it in list {
                    let n = int_of(it.get("CMPP_ID"))
                        .ok_or_else(|| Error::validation("Informe o CMPP_ID de cada item."))?;
                    let what = format!("Item {n}");
                    let own = margin(it.get("MARGEM").unwrap_or(&Value::Null), &what)?;
                    m.insert(n, own);
                }
                Some(m)
            }
            Some(_) => return Err(Error::validation("itens deve ser uma lista.")),
        };

        let status: Option<String> = sqlx::query_scalar(
            "SELECT comp_situacao FROM orders.compras WHERE client_id = $1 AND comp_emp_id = $2 AND comp_id = $3",
        )
        .bind(client)
        .bind(emp)
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?;
        let status = status.ok_or_else(|| Error::NotFound(MISSING.into()))?;
        if status == "C" {
            return Err(Error::Conflict(
                "Compra cancelada: custos e preços não são atualizados por ela.".into(),
            ));
        }
        let all = items(tx, client, emp, id).await?;
        if let Some(chosen) = &chosen {
            if let Some(n) = chosen
                .keys()
                .find(|n| !all.iter().any(|i| i.cmpp_id == **n))
            {
                return Err(Error::validation(format!(
                    "Item {n} não pertence à compra {id}."
                )));
            }
        }
        // Landed value and stock quantity of each item: stored once finalized,
        // computed as finalizing would while open.
        let costs: Vec<(Decimal, Decimal)> = if status == "F" {
            all.iter()
                .map(|i| {
                    (
                        i.cmpp_custo_total.unwrap_or_default(),
                        i.cmpp_qtde * i.cmpp_fator,
                    )
                })
                .collect()
        } else if all.is_empty() {
            Vec::new()
        } else {
            let head = head(tx, client, emp, id).await?;
            let freight = freight_documents(tx, client, emp, id).await?;
            landed(&head, &all, freight)?
                .into_iter()
                .map(|l| (l.total, l.stock_quantity))
                .collect()
        };
        let mut shares: BTreeMap<i64, ProductShare> = BTreeMap::new();
        let mut skipped: Vec<Value> = Vec::new();
        for (item, (value, quantity)) in all.iter().zip(costs) {
            let own = match &chosen {
                Some(c) => match c.get(&item.cmpp_id) {
                    Some(m) => *m,
                    None => continue,
                },
                None => None,
            };
            let Some(product) = item.cmpp_prod_id else {
                skipped.push(json!({"CMPP_ID": item.cmpp_id, "CMPP_DESCRICAO": item.cmpp_descricao, "motivo": "Item sem produto vinculado."}));
                continue;
            };
            let share = shares.entry(product).or_default();
            share.items.push(item.cmpp_id);
            share.landed += value;
            share.quantity += quantity;
            share.margin = share.margin.or(own).or(general);
        }
        if shares.is_empty() {
            return Err(Error::validation(
                "Nenhum item da compra tem produto vinculado: nada a atualizar.",
            ));
        }
        if !grants::may_update(&self.peers, caller, emp, grants::PRODUCTS).await? {
            return Err(Error::Forbidden(
                "Usuário sem permissão para alterar Produtos: custos e preços não foram atualizados."
                    .into(),
            ));
        }

        let catalog = PeerRegisters::of(&self.peers, "catalog", caller)?;
        let mut changed: Vec<Value> = Vec::new();
        let mut refused: Vec<(i64, Error)> = Vec::new();
        for (product, share) in &shares {
            if share.quantity <= Decimal::ZERO {
                skipped.extend(
                    share
                        .items
                        .iter()
                        .map(|i| json!({"CMPP_ID": i, "motivo": "Item sem quantidade."})),
                );
                continue;
            }
            let key = [product.to_string()];
            let before = match catalog.get("produtos", Some(emp), &key).await {
                Ok(row) => row,
                Err(e) => {
                    refused.push((*product, e));
                    continue;
                }
            };
            let cost = money(share.landed / share.quantity);
            let margin = share.margin.or(params::opt_dec(&before, "PROD_MARGEM")?);
            let price = margin.filter(|_| with_price).map(|m| price_at(cost, m));
            let mut update = serde_json::Map::new();
            update.insert("PROD_CUSTO".into(), json!(format!("{cost:.2}")));
            if let Some(m) = share.margin {
                update.insert("PROD_MARGEM".into(), json!(m.normalize().to_string()));
            }
            if let Some(p) = price {
                update.insert("PROD_VALOR".into(), json!(format!("{p:.2}")));
            }
            match catalog.update("produtos", Some(emp), &key, &update).await {
                Ok(after) => changed.push(json!({
                    "PROD_ID": product,
                    "PROD_DESCRICAO": after["PROD_DESCRICAO"],
                    "CMPP_IDS": share.items,
                    "PROD_CUSTO_ANTERIOR": before["PROD_CUSTO"],
                    "PROD_CUSTO": after["PROD_CUSTO"],
                    "PROD_MARGEM": after["PROD_MARGEM"],
                    "PROD_VALOR_ANTERIOR": before["PROD_VALOR"],
                    "PROD_VALOR": after["PROD_VALOR"],
                })),
                Err(e) => refused.push((*product, e)),
            }
        }
        if changed.is_empty() && !refused.is_empty() {
            let (_, first) = refused.swap_remove(0);
            return Err(first);
        }
        let n = changed.len();
        let msg = if with_price {
            format!("Custo e preço de venda atualizados em {n} produto(s).")
        } else {
            format!("Custo atualizado em {n} produto(s).")
        };
        let erros: Vec<Value> = refused
            .iter()
            .map(|(p, e)| json!({"PROD_ID": p, "msg": e.public_message()}))
            .collect();
        Ok(json!({
            "code": 200,
            "msg": msg,
            "CMPP_COMP_ID": id,
            "produtos": changed,
            "ignorados": skipped,
            "erros": erros,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> Decimal {
        Decimal::from_str(s).expect("decimal")
    }

    #[test]
    fn the_price_is_the_cost_plus_the_margin_to_the_cent() {
        assert_eq!(price_at(d("0.42"), d("80")), d("0.76"));
        assert_eq!(price_at(d("10.00"), d("0")), d("10.00"));
        assert_eq!(price_at(d("3.33"), d("33.3333")), d("4.44"));
        assert_eq!(price_at(d("12.99"), d("150")), d("32.48"));
    }

    #[test]
    fn margins_and_flags_are_read_from_the_body() {
        assert_eq!(margin(&json!("35,5"), "MARGEM").ok(), Some(Some(d("35.5"))));
        assert_eq!(margin(&json!(80), "MARGEM").ok(), Some(Some(d("80"))));
        assert_eq!(margin(&Value::Null, "MARGEM").ok(), Some(None));
        assert_eq!(
            margin(&json!("-1"), "MARGEM").err().map(|e| e.to_string()),
            Some("MARGEM: informe uma margem entre 0 e 999,9999%.".into())
        );
        assert!(margin(&json!("1000"), "MARGEM").is_err());
        assert_eq!(flag(None, true).ok(), Some(true));
        assert_eq!(flag(Some(&json!("N")), true).ok(), Some(false));
        assert_eq!(flag(Some(&json!(false)), true).ok(), Some(false));
        assert!(flag(Some(&json!("talvez")), true).is_err());
    }
}
