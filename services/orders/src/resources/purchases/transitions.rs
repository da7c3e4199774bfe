//! The purchase's transitions: finalizing (landed cost, the fact for stock and
//! finance), cancelling (the reversing fact) and the totals typed from the paper
//! invoice that finalizing then uses.

use std::borrow::Cow;
use std::collections::HashMap;

use async_trait::async_trait;
use base64::Engine as _;
use chrono::NaiveDate;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::call::input::Problem;
use erp_platform::resource::call::{Ctx, Dec, Money, Operation, Row};
use erp_platform::resource::document::arithmetic::money;
use erp_platform::resource::document::{ops, DocumentDef};
use erp_platform::resource::{query, Resource};
use erp_platform::{Error, Result};
use erp_proto::orders::v1::{
    CompraCancelada, CompraFinalizada, PurchaseApportionment, PurchaseInstalment, PurchaseItem,
    VariantQuantity,
};
use prost::Message as _;
use rust_decimal::Decimal;
use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use super::totals::header_components;
use super::{ISSUED, MISSING};
use crate::purchases::landed_cost::{self, HeaderExtras, ItemCost, Landed};
use crate::SCHEMA;

/// A purchase id of a path (or a body): the number, or the number base64-encoded
/// (spec §5: some legacy paths carry it so). A base64 text of digits never reads as
/// digits itself (its first character is M, N or O), so the two forms cannot be
/// confused. Anything else is refused ('Parâmetro COMP_ID inválido.').
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PurchaseId(pub i64);

impl PurchaseId {
    pub fn get(self) -> i64 {
        self.0
    }

    /// The id a text carries, plain or base64-encoded.
    pub fn decode(raw: &str) -> Option<i64> {
        let raw = raw.trim();
        if let Ok(n) = raw.parse::<i64>() {
            return Some(n);
        }
        use base64::engine::general_purpose::{
            STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD,
        };
        [STANDARD, URL_SAFE, STANDARD_NO_PAD, URL_SAFE_NO_PAD]
            .iter()
            .filter_map(|e| e.decode(raw).ok())
            .filter_map(|b| String::from_utf8(b).ok())
            .find_map(|s| s.trim().parse::<i64>().ok())
    }
}

impl<'de> Deserialize<'de> for PurchaseId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let text = match Value::deserialize(d)? {
            Value::String(s) => s,
            Value::Number(n) => n.to_string(),
            _ => return Err(Problem::Invalid.error()),
        };
        PurchaseId::decode(&text)
            .map(PurchaseId)
            .ok_or_else(|| Problem::Invalid.error())
    }
}

impl JsonSchema for PurchaseId {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        "PurchaseId".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({"type": "string", "description": "O código da compra, ou o código em base64."})
    }
}

/// A purchase's key as its calls' paths name it (`{COMP_ID}`).
#[derive(Deserialize, JsonSchema)]
pub struct PurchaseKey {
    #[serde(rename = "COMP_ID")]
    pub id: PurchaseId,
}

pub(super) fn def_of(res: &Resource) -> Result<std::sync::Arc<DocumentDef>> {
    res.document
        .as_ref()
        .map(|d| d.def.clone())
        .ok_or_else(|| Error::internal(format!("{} is not part of the purchase", res.name)))
}

/// Money as a Brazilian reads it in a message.
pub(super) fn brl(d: Decimal) -> String {
    money(d).to_string().replace('.', ",")
}

/// The header as the transitions need it.
#[derive(sqlx::FromRow)]
pub(super) struct Head {
    pub comp_forn_id: Option<i64>,
    pub comp_forn_desc: Option<String>,
    pub comp_numero: Option<i64>,
    pub comp_serie: Option<String>,
    pub comp_modelo: String,
    pub comp_chave: Option<String>,
    pub comp_dta_emissao: NaiveDate,
    pub comp_dta_entrada: NaiveDate,
    pub comp_loca_id: Option<i64>,
    pub comp_hisp_id: Option<i64>,
    pub comp_vlr_produtos: Decimal,
    pub comp_vlr_desconto: Decimal,
    pub comp_vlr_frete: Decimal,
    pub comp_vlr_seguro: Decimal,
    pub comp_vlr_outras: Decimal,
    pub comp_vlr_ipi: Decimal,
    pub comp_vlr_st: Decimal,
    pub comp_vlr_total: Decimal,
    pub comp_totalizador_manual: bool,
    pub comp_man_desconto: Option<Decimal>,
    pub comp_man_frete: Option<Decimal>,
    pub comp_man_seguro: Option<Decimal>,
    pub comp_man_outras: Option<Decimal>,
    pub comp_man_ipi: Option<Decimal>,
    pub comp_man_st: Option<Decimal>,
    pub comp_man_total: Option<Decimal>,
}

impl Head {
    /// The invoice's total: the typed one when the totals were typed.
    pub fn invoice_total(&self) -> Decimal {
        match (self.comp_totalizador_manual, self.comp_man_total) {
            (true, Some(t)) => t,
            _ => self.comp_vlr_total,
        }
    }

    /// The invoice-level amounts the apportionment starts from: the typed totals, or
    /// none (only the items' own values count).
    fn extras(&self) -> HeaderExtras {
        if !self.comp_totalizador_manual {
            return HeaderExtras::default();
        }
        HeaderExtras {
            discount: self.comp_man_desconto,
            freight: self.comp_man_frete,
            insurance: self.comp_man_seguro,
            other: self.comp_man_outras,
            ipi: self.comp_man_ipi,
            st: self.comp_man_st,
        }
    }
}

pub(super) async fn head(tx: &mut Tx, client: i64, emp: i64, id: i64) -> Result<Head> {
    sqlx::query_as(
        "SELECT comp_forn_id, comp_forn_desc, comp_numero, comp_serie, comp_modelo, comp_chave,
                comp_dta_emissao, comp_dta_entrada, comp_loca_id, comp_hisp_id, comp_vlr_produtos,
                comp_vlr_desconto, comp_vlr_frete, comp_vlr_seguro, comp_vlr_outras, comp_vlr_ipi,
                comp_vlr_st, comp_vlr_total, comp_totalizador_manual, comp_man_desconto, comp_man_frete,
                comp_man_seguro, comp_man_outras, comp_man_ipi, comp_man_st, comp_man_total
         FROM orders.compras WHERE client_id = $1 AND comp_emp_id = $2 AND comp_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| Error::NotFound(MISSING.into()))
}

/// An item as the transitions need it.
#[derive(sqlx::FromRow)]
pub(super) struct ItemRow {
    pub cmpp_id: i64,
    pub cmpp_prod_id: Option<i64>,
    pub cmpp_descricao: String,
    pub cmpp_qtde: Decimal,
    pub cmpp_vlr_unit: Decimal,
    pub cmpp_fator: Decimal,
    pub desconto: Decimal,
    pub frete: Decimal,
    pub seguro: Decimal,
    pub outras: Decimal,
    pub ipi: Decimal,
    pub st: Decimal,
    pub cmpp_loca_id: Option<i64>,
    pub cmpp_custo_total: Option<Decimal>,
    pub cmpp_custo_unit: Option<Decimal>,
}

impl ItemRow {
    fn cost(&self) -> ItemCost {
        ItemCost {
            value: money(self.cmpp_qtde * self.cmpp_vlr_unit),
            discount: Some(self.desconto),
            freight: Some(self.frete),
            insurance: Some(self.seguro),
            other: Some(self.outras),
            ipi: Some(self.ipi),
            st: Some(self.st),
            quantity: self.cmpp_qtde,
            factor: self.cmpp_fator,
        }
    }
}

pub(super) async fn items(tx: &mut Tx, client: i64, emp: i64, id: i64) -> Result<Vec<ItemRow>> {
    Ok(sqlx::query_as(
        "SELECT cmpp_id, cmpp_prod_id, cmpp_descricao, cmpp_qtde, cmpp_vlr_unit, cmpp_fator,
                coalesce(cmpp_vlr_desc, 0) AS desconto, coalesce(cmpp_vlr_frete, 0) AS frete,
                coalesce(cmpp_vlr_seguro, 0) AS seguro, coalesce(cmpp_vlr_outras, 0) AS outras,
                coalesce(cmpp_vlr_ipi, 0) AS ipi, coalesce(cmpp_vlr_st, 0) AS st,
                cmpp_loca_id, cmpp_custo_total, cmpp_custo_unit
         FROM orders.compra_produtos
         WHERE client_id = $1 AND cmpp_emp_id = $2 AND cmpp_comp_id = $3 ORDER BY cmpp_id",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_all(&mut **tx)
    .await?)
}

/// Freight documents to apportion into the items' cost.
pub(super) async fn freight_documents(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    id: i64,
) -> Result<Decimal> {
    Ok(sqlx::query_scalar(
        "SELECT coalesce(sum(cmpf_valor), 0) FROM orders.compra_fretes
         WHERE client_id = $1 AND cmpf_emp_id = $2 AND cmpf_comp_id = $3 AND cmpf_ratear",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_one(&mut **tx)
    .await?)
}

/// Each item's landed cost: its own values, plus its share of what the typed totals
/// exceed the items by and of the freight documents to apportion.
pub(super) fn landed(head: &Head, items: &[ItemRow], freight_docs: Decimal) -> Result<Vec<Landed>> {
    let mut extras = head.extras();
    if freight_docs > Decimal::ZERO {
        let base = extras
            .freight
            .unwrap_or_else(|| items.iter().map(|i| i.frete).sum());
        extras.freight = Some(base + freight_docs);
    }
    let costs: Vec<ItemCost> = items.iter().map(ItemRow::cost).collect();
    landed_cost::apportion(&costs, &extras).map_err(|e| Error::validation(e.to_string()))
}

fn stock_location(head: &Head, item: &ItemRow) -> i64 {
    item.cmpp_loca_id.or(head.comp_loca_id).unwrap_or(0)
}

/// A row of the purchase's apportionment.
#[derive(sqlx::FromRow)]
struct Share {
    seq: i64,
    location: Option<i64>,
    centre: Option<i64>,
    percent: Option<Decimal>,
}

/// An item the finalizing names (no product, or one the copy does not know).
#[derive(sqlx::FromRow)]
struct Named {
    id: i64,
    description: String,
}

/// An instalment as the fact carries it.
#[derive(sqlx::FromRow)]
struct Instalment {
    seq: i64,
    due: NaiveDate,
    amount: Decimal,
    interest: Decimal,
    bank: Option<i64>,
    number: Option<String>,
}

/// An item's landed cost, as finalizing answers it.
#[derive(Serialize, JsonSchema)]
pub struct LandedItem {
    #[serde(rename = "CMPP_ID")]
    pub id: i64,
    #[serde(rename = "CMPP_PROD_ID")]
    pub product: Option<i64>,
    /// The quantity in the stock unit.
    #[serde(rename = "QTDE_ESTOQUE")]
    pub stock_quantity: Dec,
    #[serde(rename = "CMPP_CUSTO_UNIT")]
    pub unit_cost: Dec,
    #[serde(rename = "CMPP_CUSTO_TOTAL")]
    pub total: Money,
}

/// What finalizing answers: the purchase's row, the message and each item's landed
/// cost.
#[derive(Serialize, JsonSchema)]
pub struct Finalized {
    #[serde(flatten)]
    pub row: Row,
    pub code: u16,
    pub msg: String,
    pub itens: Vec<LandedItem>,
}

/// The purchase's row with the message of what was done to it.
#[derive(Serialize, JsonSchema)]
pub struct RowSaid {
    #[serde(flatten)]
    pub row: Row,
    pub code: u16,
    pub msg: String,
}

/// The purchase's apportionment to stock locations and cost centres, checked (its
/// percentages add up to exactly 100%) and valued on the invoice total — the values
/// written back (CMPE_VALOR), adding up to the total to the cent — as the fact
/// carries it. Empty when the purchase has none.
async fn apportionment(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    id: i64,
    total: Decimal,
) -> Result<Vec<PurchaseApportionment>> {
    let rows: Vec<Share> = sqlx::query_as(
        "SELECT cmpe_id AS seq, cmpe_loca_id AS location, cmpe_hisp_id AS centre, cmpe_perc AS percent
         FROM orders.compra_estatisticas
         WHERE client_id = $1 AND cmpe_emp_id = $2 AND cmpe_comp_id = $3 ORDER BY cmpe_id",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_all(&mut **tx)
    .await?;
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let percents: Vec<Decimal> = rows.iter().map(|r| r.percent.unwrap_or_default()).collect();
    let percent: Decimal = percents.iter().sum();
    if percent != Decimal::ONE_HUNDRED {
        return Err(Error::validation(format!(
            "O rateio por local de estoque e centro de custo deve somar 100% (soma atual: {}%).",
            percent.normalize()
        )));
    }
    let values = crate::purchases::apportionment::values(total, &percents);
    let mut out = Vec::with_capacity(rows.len());
    for (row, (perc, value)) in rows.iter().zip(percents.iter().zip(values)) {
        sqlx::query(
            "UPDATE orders.compra_estatisticas SET cmpe_valor = $5
             WHERE client_id = $1 AND cmpe_emp_id = $2 AND cmpe_comp_id = $3 AND cmpe_id = $4",
        )
        .bind(client)
        .bind(emp)
        .bind(id)
        .bind(row.seq)
        .bind(value)
        .execute(&mut **tx)
        .await?;
        out.push(PurchaseApportionment {
            seq: row.seq,
            location_id: row.location.unwrap_or(0),
            cost_centre_id: row.centre.unwrap_or(0),
            percent: format!("{:.4}", perc),
            value: format!("{value:.2}"),
        });
    }
    Ok(out)
}

/// A purchase grid's quantity of one size and colour of an item, and the variant
/// of the item's product it is in catalog's grid (orders' copy), if any.
#[derive(sqlx::FromRow)]
struct GridQuantity {
    item: i64,
    size: Option<i64>,
    colour: Option<i64>,
    variant: Option<i64>,
    qty: Decimal,
}

/// The purchase's grid (`compraprodutograde`, in the stock unit) as each item's
/// quantities per variant of its product: the size and colour of a grid row name
/// the product's variant in orders' copy of catalog's grid. Answers them by item,
/// and apart the grid rows that name no variant of the product.
async fn grid_variants(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    id: i64,
) -> Result<(HashMap<i64, Vec<VariantQuantity>>, Vec<GridQuantity>)> {
    let rows: Vec<GridQuantity> = sqlx::query_as(
        "SELECT g.cmpg_cmpp_id AS item, g.cmpg_tam_id AS size, g.cmpg_cor_id AS colour,
                v.prgr_id AS variant, sum(g.cmpg_qtde) AS qty
         FROM orders.compra_produtos_grade g
         JOIN orders.compra_produtos p ON p.client_id = g.client_id AND p.cmpp_emp_id = g.cmpg_emp_id
              AND p.cmpp_comp_id = g.cmpg_comp_id AND p.cmpp_id = g.cmpg_cmpp_id
         LEFT JOIN orders.produtosgrade v ON v.client_id = p.client_id AND v.emp_id = p.cmpp_emp_id
              AND v.prod_id = p.cmpp_prod_id AND NOT v.excluido
              AND v.tam_id IS NOT DISTINCT FROM g.cmpg_tam_id AND v.cor_id IS NOT DISTINCT FROM g.cmpg_cor_id
         WHERE g.client_id = $1 AND g.cmpg_emp_id = $2 AND g.cmpg_comp_id = $3
         GROUP BY g.cmpg_cmpp_id, g.cmpg_tam_id, g.cmpg_cor_id, v.prgr_id
         ORDER BY g.cmpg_cmpp_id, v.prgr_id, g.cmpg_tam_id, g.cmpg_cor_id",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_all(&mut **tx)
    .await?;
    let mut by_item: HashMap<i64, Vec<VariantQuantity>> = HashMap::new();
    let mut unmatched = Vec::new();
    for r in rows {
        match r.variant {
            Some(variant) => by_item.entry(r.item).or_default().push(VariantQuantity {
                variant_id: variant,
                quantity: r.qty.normalize().to_string(),
            }),
            None => unmatched.push(r),
        }
    }
    Ok((by_item, unmatched))
}

/// Finalizes a purchase once: the header is locked and must be open; every item
/// names a product and the purchase a supplier; the instalments add up to the
/// invoice total and the apportionment to 100%; each item's landed cost is stored
/// and `erp.orders.compra.finalizada` goes to the outbox in the same transaction.
pub async fn finalize(
    tx: &mut Tx,
    res: &Resource,
    caller: &Caller,
    emp: i64,
    id: i64,
) -> Result<Finalized> {
    let client = caller.client_id;
    let def = def_of(res)?;
    let key = [id.to_string()];
    match ops::lock(tx, &def, client, Some(emp), &key).await?.as_str() {
        "A" => {}
        "F" => return Err(Error::Conflict(ISSUED.into())),
        _ => {
            return Err(Error::Conflict(
                "Compra cancelada não pode ser finalizada.".into(),
            ))
        }
    }
    ops::recalc(tx, &def, client, Some(emp), &key).await?;
    header_components(tx, client, emp, id).await?;
    let head = head(tx, client, emp, id).await?;
    let items = items(tx, client, emp, id).await?;
    if items.is_empty() {
        return Err(Error::validation(
            "Compra sem itens não pode ser finalizada.",
        ));
    }
    let unlinked: Vec<String> = items
        .iter()
        .filter(|i| i.cmpp_prod_id.is_none())
        .map(|i| format!("{} - {}", i.cmpp_id, i.cmpp_descricao))
        .collect();
    if !unlinked.is_empty() {
        return Err(Error::validation(format!(
            "Vincule os itens a um produto antes de finalizar: {}.",
            unlinked.join("; ")
        )));
    }
    // Linked products orders' copy of the catalog does not (yet) know: a product
    // created a moment ago travels by event; an id that names nothing never arrives.
    let unknown: Vec<Named> = sqlx::query_as(
        "SELECT i.cmpp_id AS id, i.cmpp_descricao AS description FROM orders.compra_produtos i
         WHERE i.client_id = $1 AND i.cmpp_emp_id = $2 AND i.cmpp_comp_id = $3
           AND NOT EXISTS (SELECT 1 FROM orders.produtos p WHERE p.client_id = i.client_id
                           AND p.emp_id = i.cmpp_emp_id AND p.prod_id = i.cmpp_prod_id
                           AND NOT p.excluido)
         ORDER BY i.cmpp_id",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_all(&mut **tx)
    .await?;
    if !unknown.is_empty() {
        let names: Vec<String> = unknown
            .iter()
            .map(|n| format!("{} - {}", n.id, n.description))
            .collect();
        return Err(Error::validation(format!(
            "Produto vinculado não encontrado no cadastro (se acabou de ser cadastrado, tente novamente em instantes): {}.",
            names.join("; ")
        )));
    }
    // The grid enters stock per variant: each of its sizes and colours must be a
    // variant of the item's product in catalog's grid.
    let (grids, unmatched) = grid_variants(tx, client, emp, id).await?;
    if !unmatched.is_empty() {
        let dash = |v: Option<i64>| v.map_or_else(|| "-".to_string(), |v| v.to_string());
        let rows: Vec<String> = unmatched
            .iter()
            .map(|g| {
                format!(
                    "item {} (tamanho {}, cor {})",
                    g.item,
                    dash(g.size),
                    dash(g.colour)
                )
            })
            .collect();
        return Err(Error::validation(format!(
            "Grade sem variação correspondente na grade do produto (cadastre-a no produto; se acabou de ser cadastrada, tente novamente em instantes): {}.",
            rows.join("; ")
        )));
    }
    let supplier = head.comp_forn_id.ok_or_else(|| {
        Error::validation("Informe o fornecedor cadastrado da compra antes de finalizar.")
    })?;
    let landed = landed(&head, &items, freight_documents(tx, client, emp, id).await?)?;
    let total = head.invoice_total();
    let instalments: Vec<Instalment> = sqlx::query_as(
        "SELECT cmpd_id AS seq, cmpd_dta_vcto AS due, cmpd_vlr_titulo AS amount, cmpd_vlr_juros AS interest,
                cmpd_bco_id AS bank, cmpd_numero AS number
         FROM orders.compra_pagamentos
         WHERE client_id = $1 AND cmpd_emp_id = $2 AND cmpd_comp_id = $3 ORDER BY cmpd_dta_vcto, cmpd_id",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_all(&mut **tx)
    .await?;
    let instalments_sum: Decimal = instalments.iter().map(|i| i.amount).sum();
    if !instalments.is_empty() && instalments_sum != total {
        return Err(Error::validation(format!(
            "A soma das parcelas (R$ {}) difere do total da nota (R$ {}).",
            brl(instalments_sum),
            brl(total)
        )));
    }
    let shares = apportionment(tx, client, emp, id, total).await?;
    for (item, l) in items.iter().zip(&landed) {
        sqlx::query(
            "UPDATE orders.compra_produtos SET cmpp_custo_total = $5, cmpp_custo_unit = $6
             WHERE client_id = $1 AND cmpp_emp_id = $2 AND cmpp_comp_id = $3 AND cmpp_id = $4",
        )
        .bind(client)
        .bind(emp)
        .bind(id)
        .bind(item.cmpp_id)
        .bind(l.total)
        .bind(l.unit_cost)
        .execute(&mut **tx)
        .await?;
    }
    sqlx::query(
        "UPDATE orders.compras SET comp_situacao = 'F', comp_usr_finalizacao = $4, comp_dta_finalizacao = now()
         WHERE client_id = $1 AND comp_emp_id = $2 AND comp_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(caller.user_id)
    .execute(&mut **tx)
    .await?;
    let fact_items: Vec<PurchaseItem> = items
        .iter()
        .zip(&landed)
        .map(|(item, l)| PurchaseItem {
            product_id: item.cmpp_prod_id.unwrap_or_default(),
            product_emp_id: emp,
            quantity: l.stock_quantity.normalize().to_string(),
            unit_cost: l.unit_cost.to_string(),
            landed_total: l.total.to_string(),
            item: item.cmpp_id,
            location_id: stock_location(&head, item),
            variants: grids.get(&item.cmpp_id).cloned().unwrap_or_default(),
        })
        .collect();
    let event = CompraFinalizada {
        client_id: client,
        emp_id: emp,
        compra_id: id,
        supplier_id: supplier,
        supplier_name: head.comp_forn_desc.clone().unwrap_or_default(),
        number: head.comp_numero.map(|n| n.to_string()).unwrap_or_default(),
        serie: head.comp_serie.clone().unwrap_or_default(),
        model: head.comp_modelo.clone(),
        access_key: head.comp_chave.clone().unwrap_or_default(),
        issued_on: head.comp_dta_emissao.format("%Y-%m-%d").to_string(),
        entered_on: head.comp_dta_entrada.format("%Y-%m-%d").to_string(),
        total: money(total).to_string(),
        user_id: caller.user_id,
        cost_centre_id: head.comp_hisp_id.unwrap_or(0),
        items: fact_items,
        instalments: instalments
            .iter()
            .map(|i| PurchaseInstalment {
                seq: i.seq,
                due_on: i.due.format("%Y-%m-%d").to_string(),
                amount: money(i.amount).to_string(),
                interest: money(i.interest).to_string(),
                bank_id: i.bank.unwrap_or(0),
                number: i.number.clone().unwrap_or_default(),
            })
            .collect(),
        apportionment: shares,
    };
    erp_platform::bus::outbox_insert(
        tx,
        SCHEMA,
        erp_proto::subjects::COMPRA_FINALIZADA,
        client,
        &event.encode_to_vec(),
    )
    .await?;
    let itens: Vec<LandedItem> = items
        .iter()
        .zip(&landed)
        .map(|(item, l)| LandedItem {
            id: item.cmpp_id,
            product: item.cmpp_prod_id,
            stock_quantity: Dec(l.stock_quantity),
            unit_cost: Dec(l.unit_cost),
            total: Money(l.total),
        })
        .collect();
    let row = query::get(tx, res, caller, Some(emp), &key).await?;
    Ok(Finalized {
        row: Row(row),
        code: 200,
        msg: "Compra finalizada com sucesso.".into(),
        itens,
    })
}

pub(super) struct Finalize;

#[async_trait]
impl Operation for Finalize {
    type In = PurchaseKey;
    type Out = Finalized;
    async fn run(&self, cx: &mut Ctx<'_>, k: PurchaseKey) -> Result<Finalized> {
        let emp = cx.emp()?;
        finalize(cx.tx, cx.res, cx.caller, emp, k.id.get()).await
    }
}

/// The refusal of cancelling a purchase of which finance paid something: its
/// settled instalments (CMPD_BAIXADO) by number, or its payables' standing when
/// the purchase has no instalment rows (`crate::payables`).
async fn settled_refusal(tx: &mut Tx, client: i64, emp: i64, id: i64) -> Result<Option<Error>> {
    let (instalments, titles): (Option<String>, bool) = sqlx::query_as(
        "SELECT (SELECT string_agg(coalesce(nullif(btrim(cmpd_numero), ''), cmpd_id::text), ', ' ORDER BY cmpd_id)
                 FROM orders.compra_pagamentos
                 WHERE client_id = $1 AND cmpd_emp_id = $2 AND cmpd_comp_id = $3 AND cmpd_baixado),
                EXISTS (SELECT 1 FROM orders.compra_titulos
                        WHERE client_id = $1 AND emp_id = $2 AND comp_id = $3 AND vlr_pago > 0)",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_one(&mut **tx)
    .await?;
    let undo = "Estorne o pagamento no financeiro antes de cancelar a compra.";
    Ok(match (instalments, titles) {
        (Some(numbers), _) => Some(Error::Conflict(format!(
            "Compra com parcela paga não pode ser cancelada (paga: {numbers}). {undo}"
        ))),
        (None, true) => Some(Error::Conflict(format!(
            "Compra com parcela paga não pode ser cancelada. {undo}"
        ))),
        (None, false) => None,
    })
}

/// Cancels a purchase: a finalized one gives its stock entries back through
/// `erp.orders.compra.cancelada` (the items as they entered), an open one just
/// closes. Refused once an instalment was paid or a return became a billing order.
pub(super) struct Cancel;

#[async_trait]
impl Operation for Cancel {
    type In = PurchaseKey;
    type Out = RowSaid;
    async fn run(&self, cx: &mut Ctx<'_>, k: PurchaseKey) -> Result<RowSaid> {
        let emp = cx.emp()?;
        let id = k.id.get();
        let (res, caller) = (cx.res, cx.caller);
        let tx = &mut *cx.tx;
        let client = caller.client_id;
        let def = def_of(res)?;
        let key = [id.to_string()];
        let was = ops::lock(tx, &def, client, Some(emp), &key).await?;
        if was == "C" {
            return Err(Error::Conflict("Compra já cancelada.".into()));
        }
        let ordered: bool = sqlx::query_scalar(
            "SELECT EXISTS (SELECT 1 FROM orders.compra_devolucoes
                            WHERE client_id = $1 AND cmpr_emp_id = $2 AND cmpr_comp_id = $3 AND cmpr_pedf_id IS NOT NULL)",
        )
        .bind(client)
        .bind(emp)
        .bind(id)
        .fetch_one(&mut **tx)
        .await?;
        if let Some(refusal) = settled_refusal(tx, client, emp, id).await? {
            return Err(refusal);
        }
        if ordered {
            return Err(Error::Conflict(
                "Compra com devolução já em pedido não pode ser cancelada.".into(),
            ));
        }
        sqlx::query(
            "UPDATE orders.compras SET comp_situacao = 'C', comp_usr_cancelamento = $4, comp_dta_cancelamento = now()
             WHERE client_id = $1 AND comp_emp_id = $2 AND comp_id = $3",
        )
        .bind(client)
        .bind(emp)
        .bind(id)
        .bind(caller.user_id)
        .execute(&mut **tx)
        .await?;
        if was == "F" {
            let head = head(tx, client, emp, id).await?;
            let items = items(tx, client, emp, id).await?;
            // As they entered (stock undoes its own movements, variants included).
            let (grids, _) = grid_variants(tx, client, emp, id).await?;
            let event = CompraCancelada {
                client_id: client,
                emp_id: emp,
                compra_id: id,
                user_id: caller.user_id,
                items: items
                    .iter()
                    .map(|i| PurchaseItem {
                        product_id: i.cmpp_prod_id.unwrap_or_default(),
                        product_emp_id: emp,
                        quantity: (i.cmpp_qtde * i.cmpp_fator).normalize().to_string(),
                        unit_cost: i.cmpp_custo_unit.unwrap_or_default().to_string(),
                        landed_total: i.cmpp_custo_total.unwrap_or_default().to_string(),
                        item: i.cmpp_id,
                        location_id: stock_location(&head, i),
                        variants: grids.get(&i.cmpp_id).cloned().unwrap_or_default(),
                    })
                    .collect(),
            };
            erp_platform::bus::outbox_insert(
                tx,
                SCHEMA,
                erp_proto::subjects::COMPRA_CANCELADA,
                client,
                &event.encode_to_vec(),
            )
            .await?;
        }
        let row = query::get(tx, res, caller, Some(emp), &key).await?;
        Ok(RowSaid { row: Row(row), code: 200, msg: "Compra cancelada.".into() })
    }
}

/// `POST /compra/totalizadoresmanual/{COMP_ID}/{emp}`: the totals typed from the
/// paper invoice (each in cents, not negative; one left out is the items' sum).
#[derive(Deserialize, JsonSchema)]
pub struct ManualTotalsIn {
    #[serde(rename = "COMP_ID")]
    pub id: PurchaseId,
    /// `false` turns the typed totals off.
    #[serde(rename = "COMP_TOTALIZADOR_MANUAL", default)]
    pub on: Option<bool>,
    #[serde(rename = "COMP_MAN_DESCONTO", default)]
    #[schemars(extend("x-invalid" = "Valor inválido em COMP_MAN_DESCONTO."))]
    pub discount: Option<Dec>,
    #[serde(rename = "COMP_MAN_FRETE", default)]
    #[schemars(extend("x-invalid" = "Valor inválido em COMP_MAN_FRETE."))]
    pub freight: Option<Dec>,
    #[serde(rename = "COMP_MAN_SEGURO", default)]
    #[schemars(extend("x-invalid" = "Valor inválido em COMP_MAN_SEGURO."))]
    pub insurance: Option<Dec>,
    #[serde(rename = "COMP_MAN_OUTRAS", default)]
    #[schemars(extend("x-invalid" = "Valor inválido em COMP_MAN_OUTRAS."))]
    pub other: Option<Dec>,
    #[serde(rename = "COMP_MAN_IPI", default)]
    #[schemars(extend("x-invalid" = "Valor inválido em COMP_MAN_IPI."))]
    pub ipi: Option<Dec>,
    #[serde(rename = "COMP_MAN_ST", default)]
    #[schemars(extend("x-invalid" = "Valor inválido em COMP_MAN_ST."))]
    pub st: Option<Dec>,
    #[serde(rename = "COMP_MAN_TOTAL", default)]
    #[schemars(extend("x-invalid" = "Valor inválido em COMP_MAN_TOTAL."))]
    pub total: Option<Dec>,
}

/// A typed total, or the items' value when left out: never negative, in cents.
fn typed_total(field: &str, typed: Option<Dec>, items: Decimal) -> Result<Decimal> {
    let Some(v) = typed.map(Dec::get) else {
        return Ok(items);
    };
    if v < Decimal::ZERO || v.round_dp(2) != v {
        return Err(Error::validation(format!(
            "{field}: informe um valor não negativo, em centavos."
        )));
    }
    Ok(v)
}

/// The invoice's totals typed from paper (`COMP_MAN_DESCONTO`, `_FRETE`, `_SEGURO`,
/// `_OUTRAS`, `_IPI`, `_ST`, `_TOTAL`; a component left out is the items' sum, the
/// total left out is products − discount + the additions). They are checked against
/// the items at once (a typed total below what the items carry is refused with the
/// apportionment's message); `{"COMP_TOTALIZADOR_MANUAL": false}` turns them off.
/// Answers the purchase's row.
pub(super) struct ManualTotals;

#[async_trait]
impl Operation for ManualTotals {
    type In = ManualTotalsIn;
    type Out = Row;
    async fn run(&self, cx: &mut Ctx<'_>, i: ManualTotalsIn) -> Result<Row> {
        let emp = cx.emp()?;
        let id = i.id.get();
        let (res, caller) = (cx.res, cx.caller);
        let tx = &mut *cx.tx;
        let client = caller.client_id;
        let def = def_of(res)?;
        let key = [id.to_string()];
        ops::ensure_open(tx, &def, client, Some(emp), &key).await?;
        ops::recalc(tx, &def, client, Some(emp), &key).await?;
        header_components(tx, client, emp, id).await?;
        if i.on == Some(false) {
            sqlx::query(
                "UPDATE orders.compras SET comp_totalizador_manual = false, comp_man_desconto = NULL,
                        comp_man_frete = NULL, comp_man_seguro = NULL, comp_man_outras = NULL, comp_man_ipi = NULL,
                        comp_man_st = NULL, comp_man_total = NULL, comp_vlr_diferenca = 0
                 WHERE client_id = $1 AND comp_emp_id = $2 AND comp_id = $3",
            )
            .bind(client)
            .bind(emp)
            .bind(id)
            .execute(&mut **tx)
            .await?;
            return Ok(Row(query::get(tx, res, caller, Some(emp), &key).await?));
        }
        let mut head = head(tx, client, emp, id).await?;
        let discount = typed_total("COMP_MAN_DESCONTO", i.discount, head.comp_vlr_desconto)?;
        let freight = typed_total("COMP_MAN_FRETE", i.freight, head.comp_vlr_frete)?;
        let insurance = typed_total("COMP_MAN_SEGURO", i.insurance, head.comp_vlr_seguro)?;
        let other = typed_total("COMP_MAN_OUTRAS", i.other, head.comp_vlr_outras)?;
        let ipi = typed_total("COMP_MAN_IPI", i.ipi, head.comp_vlr_ipi)?;
        let st = typed_total("COMP_MAN_ST", i.st, head.comp_vlr_st)?;
        let computed = head.comp_vlr_produtos - discount + freight + insurance + other + ipi + st;
        let total = typed_total("COMP_MAN_TOTAL", i.total, computed)?;
        head.comp_totalizador_manual = true;
        head.comp_man_desconto = Some(discount);
        head.comp_man_frete = Some(freight);
        head.comp_man_seguro = Some(insurance);
        head.comp_man_outras = Some(other);
        head.comp_man_ipi = Some(ipi);
        head.comp_man_st = Some(st);
        head.comp_man_total = Some(total);
        let items = items(tx, client, emp, id).await?;
        if !items.is_empty() {
            landed(&head, &items, Decimal::ZERO)?;
        }
        sqlx::query(
            "UPDATE orders.compras SET comp_totalizador_manual = true, comp_man_desconto = $4,
                    comp_man_frete = $5, comp_man_seguro = $6, comp_man_outras = $7, comp_man_ipi = $8,
                    comp_man_st = $9, comp_man_total = $10, comp_vlr_diferenca = $10 - comp_vlr_total
             WHERE client_id = $1 AND comp_emp_id = $2 AND comp_id = $3",
        )
        .bind(client)
        .bind(emp)
        .bind(id)
        .bind(discount)
        .bind(freight)
        .bind(insurance)
        .bind(other)
        .bind(ipi)
        .bind(st)
        .bind(total)
        .execute(&mut **tx)
        .await?;
        Ok(Row(query::get(tx, res, caller, Some(emp), &key).await?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// A purchase id of a path, read as a call's input reads it.
    fn purchase_id(params: &HashMap<String, String>, _name: &str) -> Result<i64> {
        erp_platform::resource::call::input::parse::<PurchaseKey>(
            params,
            &Value::Null,
            &Value::Null,
        )
        .map(|k| k.id.get())
    }

    #[test]
    fn purchase_ids_come_plain_or_base64() {
        let p = |v: &str| -> HashMap<String, String> {
            [("COMP_ID".to_string(), v.to_string())]
                .into_iter()
                .collect()
        };
        assert_eq!(purchase_id(&p("42"), "COMP_ID").ok(), Some(42));
        // "42" and "1234" base64-encoded, with and without padding, URL-safe alike.
        assert_eq!(purchase_id(&p("NDI="), "COMP_ID").ok(), Some(42));
        assert_eq!(purchase_id(&p("NDI"), "COMP_ID").ok(), Some(42));
        assert_eq!(purchase_id(&p("MTIzNA=="), "COMP_ID").ok(), Some(1234));
        assert_eq!(
            purchase_id(&p("abc!"), "COMP_ID")
                .err()
                .map(|e| e.to_string()),
            Some("Parâmetro COMP_ID inválido.".into())
        );
        assert_eq!(
            purchase_id(&p("YWJj"), "COMP_ID")
                .err()
                .map(|e| e.to_string()),
            Some("Parâmetro COMP_ID inválido.".into())
        );
    }
}
