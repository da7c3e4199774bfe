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

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::str::FromStr;

use async_trait::async_trait;
use erp_platform::resource::call::{Ctx, Dec, Money, Operation};
use erp_platform::resource::document::arithmetic::money;
use erp_platform::resource::record;
use erp_platform::service::Peers;
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use super::transitions::{freight_documents, head, items, landed, PurchaseId};
use super::MISSING;
use crate::grants;
use crate::peer_registers::PeerRegisters;

pub(super) struct PriceUpdate {
    pub peers: Peers,
}

/// The largest margin the product register takes (PROD_MARGEM).
const MAX_MARGIN: &str = "999.9999";

/// A margin (%) as the body sends it: a number, or text with a comma or a point.
/// What is not a number is kept as such, refused by [`margin`] with the message of
/// whose margin it is ('Item 2: informe uma margem…').
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Margin(Option<Decimal>);

impl<'de> Deserialize<'de> for Margin {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        Ok(Margin(match Value::deserialize(d)? {
            Value::String(s) => Decimal::from_str(s.trim().replace(',', ".").as_str()).ok(),
            Value::Number(n) => Decimal::from_str(&n.to_string()).ok(),
            _ => None,
        }))
    }
}

impl JsonSchema for Margin {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "Margin".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "number", "minimum": 0, "maximum": 999.9999})
    }
}

/// A margin given (or none), within what the product register takes.
fn margin(m: Option<Margin>, what: &str) -> Result<Option<Decimal>> {
    let Some(Margin(m)) = m else {
        return Ok(None);
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

/// An item the update is limited to, with its own margin.
#[derive(Deserialize, JsonSchema)]
pub struct ChosenItem {
    #[serde(rename = "CMPP_ID")]
    #[schemars(extend(
        "x-missing" = "Informe o CMPP_ID de cada item.",
        "x-invalid" = "Informe o CMPP_ID de cada item."
    ))]
    pub id: i64,
    #[serde(rename = "MARGEM", default)]
    pub margin: Option<Margin>,
}

/// `POST /compraproduto/atualizacaogeral` (see the module's documentation).
#[derive(Deserialize, JsonSchema)]
pub struct PriceUpdateIn {
    /// The purchase (plain or base64).
    #[serde(rename = "CMPP_COMP_ID", default)]
    #[schemars(extend("x-invalid" = "Parâmetro CMPP_COMP_ID inválido."))]
    pub purchase: Option<PurchaseId>,
    /// The purchase, by the header's name.
    #[serde(rename = "COMP_ID", default)]
    #[schemars(extend("x-invalid" = "Parâmetro CMPP_COMP_ID inválido."))]
    pub purchase_header: Option<PurchaseId>,
    /// The margin of every item without its own.
    #[serde(rename = "MARGEM", default)]
    pub margin: Option<Margin>,
    /// false: the cost only.
    #[serde(rename = "ATUALIZAR_PRECO", default)]
    #[schemars(extend("x-invalid" = "ATUALIZAR_PRECO inválido."))]
    pub with_price: Option<bool>,
    /// Only these items (each with its margin).
    #[serde(rename = "itens", default)]
    #[schemars(extend("x-invalid" = "itens deve ser uma lista."))]
    pub items: Option<Vec<ChosenItem>>,
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

/// A product of catalog as the update reads it.
#[derive(Deserialize)]
struct CatalogProduct {
    #[serde(rename = "PROD_DESCRICAO")]
    description: Option<String>,
    #[serde(rename = "PROD_CUSTO")]
    cost: Option<Dec>,
    #[serde(rename = "PROD_MARGEM")]
    margin: Option<Dec>,
    #[serde(rename = "PROD_VALOR")]
    price: Option<Dec>,
}

/// What the update writes of a product, as a body of catalog's `produtos`.
#[derive(Serialize)]
struct NewPrices {
    #[serde(rename = "PROD_CUSTO")]
    cost: Money,
    #[serde(rename = "PROD_MARGEM", skip_serializing_if = "Option::is_none")]
    margin: Option<Dec>,
    #[serde(rename = "PROD_VALOR", skip_serializing_if = "Option::is_none")]
    price: Option<Money>,
}

/// A product updated: its cost and price before and after.
#[derive(Serialize, JsonSchema)]
pub struct Repriced {
    #[serde(rename = "PROD_ID")]
    pub product: i64,
    #[serde(rename = "PROD_DESCRICAO")]
    pub description: Option<String>,
    /// The purchase's items of the product.
    #[serde(rename = "CMPP_IDS")]
    pub items: Vec<i64>,
    #[serde(rename = "PROD_CUSTO_ANTERIOR")]
    pub cost_before: Option<Dec>,
    #[serde(rename = "PROD_CUSTO")]
    pub cost: Option<Dec>,
    #[serde(rename = "PROD_MARGEM")]
    pub margin: Option<Dec>,
    #[serde(rename = "PROD_VALOR_ANTERIOR")]
    pub price_before: Option<Dec>,
    #[serde(rename = "PROD_VALOR")]
    pub price: Option<Dec>,
}

/// An item left out, and why.
#[derive(Serialize, JsonSchema)]
pub struct Skipped {
    #[serde(rename = "CMPP_ID")]
    pub item: i64,
    /// The item's description (for an item without a product).
    #[serde(rename = "CMPP_DESCRICAO", skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(rename = "motivo")]
    pub reason: String,
}

/// A product catalog refused to update, and its message.
#[derive(Serialize, JsonSchema)]
pub struct Refused {
    #[serde(rename = "PROD_ID")]
    pub product: i64,
    pub msg: String,
}

/// What the update answers, product by product.
#[derive(Serialize, JsonSchema)]
pub struct PricesUpdated {
    pub code: u16,
    pub msg: String,
    #[serde(rename = "CMPP_COMP_ID")]
    pub purchase: i64,
    pub produtos: Vec<Repriced>,
    pub ignorados: Vec<Skipped>,
    pub erros: Vec<Refused>,
}

#[async_trait]
impl Operation for PriceUpdate {
    type In = PriceUpdateIn;
    type Out = PricesUpdated;
    async fn run(&self, cx: &mut Ctx<'_>, i: PriceUpdateIn) -> Result<PricesUpdated> {
        let emp = cx.emp()?;
        let caller = cx.caller;
        let tx = &mut *cx.tx;
        let client = caller.client_id;
        let id = i
            .purchase
            .or(i.purchase_header)
            .ok_or_else(|| Error::validation("Informe a compra (CMPP_COMP_ID)."))?
            .get();
        let general = margin(i.margin, "MARGEM")?;
        let with_price = i.with_price.unwrap_or(true);
        // Only the items named, each with its own margin (when the body names any).
        let chosen: Option<HashMap<i64, Option<Decimal>>> = match i.items {
            None => None,
            Some(list) => {
                let mut m = HashMap::new();
                for it in list {
                    let own = margin(it.margin, &format!("Item {}", it.id))?;
                    m.insert(it.id, own);
                }
                Some(m)
            }
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
        let mut skipped: Vec<Skipped> = Vec::new();
        for (item, (value, quantity)) in all.iter().zip(costs) {
            let own = match &chosen {
                Some(c) => match c.get(&item.cmpp_id) {
                    Some(m) => *m,
                    None => continue,
                },
                None => None,
            };
            let Some(product) = item.cmpp_prod_id else {
                skipped.push(Skipped {
                    item: item.cmpp_id,
                    description: Some(item.cmpp_descricao.clone()),
                    reason: "Item sem produto vinculado.".into(),
                });
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
        let mut changed: Vec<Repriced> = Vec::new();
        let mut refused: Vec<(i64, Error)> = Vec::new();
        for (product, share) in &shares {
            if share.quantity <= Decimal::ZERO {
                skipped.extend(share.items.iter().map(|i| Skipped {
                    item: *i,
                    description: None,
                    reason: "Item sem quantidade.".into(),
                }));
                continue;
            }
            let key = [product.to_string()];
            let before: CatalogProduct = match catalog.get("produtos", Some(emp), &key).await {
                Ok(row) => record::from_row(&row)?,
                Err(e) => {
                    refused.push((*product, e));
                    continue;
                }
            };
            let cost = money(share.landed / share.quantity);
            let margin = share.margin.or(before.margin.map(Dec::get));
            let price = margin.filter(|_| with_price).map(|m| price_at(cost, m));
            let prices = NewPrices {
                cost: Money(cost),
                margin: share.margin.map(|m| Dec(m.normalize())),
                price: price.map(Money),
            };
            let mut update = Map::new();
            record::into_map(&prices, &mut update)?;
            match catalog.update("produtos", Some(emp), &key, &update).await {
                Ok(after) => {
                    let after: CatalogProduct = record::from_row(&after)?;
                    changed.push(Repriced {
                        product: *product,
                        description: after.description,
                        items: share.items.clone(),
                        cost_before: before.cost,
                        cost: after.cost,
                        margin: after.margin,
                        price_before: before.price,
                        price: after.price,
                    })
                }
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
        let erros = refused
            .iter()
            .map(|(p, e)| Refused { product: *p, msg: e.public_message() })
            .collect();
        Ok(PricesUpdated {
            code: 200,
            msg,
            purchase: id,
            produtos: changed,
            ignorados: skipped,
            erros,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use erp_platform::resource::call::input;
    use serde_json::json;

    /// A margin of a body, read as the call's input reads it.
    fn margin(v: &Value, what: &str) -> Result<Option<Decimal>> {
        let m: Option<Margin> = serde_json::from_value(v.clone()).map_err(Error::internal)?;
        super::margin(m, what)
    }

    /// ATUALIZAR_PRECO of a body (left out: `default`), read as the call's input
    /// reads it.
    fn flag(v: Option<&Value>, default: bool) -> Result<bool> {
        let body = match v {
            Some(v) => json!({ "ATUALIZAR_PRECO": v }),
            None => json!({}),
        };
        input::parse::<PriceUpdateIn>(&HashMap::new(), &body, &Value::Null)
            .map(|i| i.with_price.unwrap_or(default))
    }

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
