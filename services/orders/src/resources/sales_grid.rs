//! `POST /produtosgradevendas/{emp}` (declared on the billing order, `pedido`): a
//! product's size/colour grid as a sale sees it. Body `{"PROD_ID": 7}` and,
//! optionally, `"LOCA_ID": 2` (the stock of that location only). Answers the
//! product (`PROD_ID`, `PROD_DESCRICAO`, `UNID_ABREVIADA`, `PROD_VALOR`), `LOCA_ID`
//! as asked, and:
//! - `grade`: its active variants, by size, colour and id, each with `PRGR_ID`,
//!   the size (`TAM_ID`, `TAM_DESCRICAO`) and colour (`COR_ID`, `COR_DESCRICAO`),
//!   `PRGR_DESCRICAO`, `PRGR_CBAR`, the price a line of it takes (`PRGR_VALOR`:
//!   the variant's own, else the product's) and its stock (`QTD_ESTOQUE`, in the
//!   company or in `LOCA_ID`; 0 for a variant stock never moved);
//! - `tamanhos` and `cores`: the distinct sizes and colours of those variants (in
//!   the order they were registered), the rows and columns of a sizes × colours
//!   table. A variant without a size (or colour) has null there and adds none.
//!
//! A product orders' copy of the catalog does not know (removed, another
//! tenant's, another company's) is 'Produto não encontrado.' (404). A product
//! without a grid answers empty lists.
//!
//! Where the figures come from: the grid, prices and the sizes' and colours'
//! names from orders' copies of catalog's facts (`copies`: the same copy a sale
//! line's variant is checked and priced against); the stock from stock itself,
//! asked over gRPC while the user waits (stock's typed call
//! `POST /produtosgradeestoque/{emp}` through `PeerRegisters::action`). The
//! seller reads the grid to choose what to sell now, right after other sales were
//! invoiced: stock's ledger is the one place where the quantity per variant is
//! current, and a copy kept from stock's facts would lag behind the invoices just
//! made and duplicate the ledger's arithmetic in orders. As with finance's credit
//! and catalog's registers (see the crate's doc), the cost is that the call needs
//! stock up: without it, it answers 503 'O serviço de estoque (stock) não
//! respondeu…' rather than a grid with made-up quantities. Stock is not asked
//! when the product has no grid.

use std::collections::HashMap;

use async_trait::async_trait;
use erp_platform::resource::call::{Ctx, Dec, Operation};
use erp_platform::resource::document::{ItemSource, LineKind};
use erp_platform::service::Peers;
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::copies::{grid_of, CatalogItems, GridVariant};
use crate::peer_registers::PeerRegisters;

pub const PRODUCT_MISSING: &str = "Produto não encontrado.";

/// `POST /produtosgradevendas/{emp}`: the product and, optionally, a location.
#[derive(Deserialize, JsonSchema)]
pub struct SalesGridIn {
    #[serde(rename = "PROD_ID")]
    #[schemars(title = "Produto")]
    pub product: i64,
    /// The stock of this location only; absent: the company's.
    #[serde(rename = "LOCA_ID", default)]
    #[schemars(title = "Local de Estoque")]
    pub location: Option<i64>,
}

/// A variant of the grid as the sale sees it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SalesVariant {
    #[serde(rename = "PRGR_ID")]
    pub id: i64,
    #[serde(rename = "TAM_ID")]
    pub size: Option<i64>,
    #[serde(rename = "TAM_DESCRICAO")]
    pub size_name: Option<String>,
    #[serde(rename = "COR_ID")]
    pub colour: Option<i64>,
    #[serde(rename = "COR_DESCRICAO")]
    pub colour_name: Option<String>,
    #[serde(rename = "PRGR_DESCRICAO")]
    pub description: Option<String>,
    #[serde(rename = "PRGR_CBAR")]
    pub barcode: Option<String>,
    /// The unit price a line of the variant takes: its own, else the product's
    /// (null when neither has one).
    #[serde(rename = "PRGR_VALOR")]
    pub price: Option<Dec>,
    /// The variant's quantity in stock (the company's, or the location's).
    #[serde(rename = "QTD_ESTOQUE")]
    pub stock: Dec,
}

/// A size of the grid (a row of the sizes × colours table).
#[derive(Debug, Serialize, JsonSchema)]
pub struct GridSize {
    #[serde(rename = "TAM_ID")]
    pub id: i64,
    #[serde(rename = "TAM_DESCRICAO")]
    pub name: Option<String>,
}

/// A colour of the grid (a column of the sizes × colours table).
#[derive(Debug, Serialize, JsonSchema)]
pub struct GridColour {
    #[serde(rename = "COR_ID")]
    pub id: i64,
    #[serde(rename = "COR_DESCRICAO")]
    pub name: Option<String>,
}

/// What `POST /produtosgradevendas/{emp}` answers.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SalesGridOf {
    #[serde(rename = "PROD_ID")]
    pub product: i64,
    #[serde(rename = "PROD_DESCRICAO")]
    pub description: String,
    #[serde(rename = "UNID_ABREVIADA")]
    pub unit: Option<String>,
    /// The product's sale price.
    #[serde(rename = "PROD_VALOR")]
    pub price: Option<Dec>,
    /// The location whose stock `grade` shows; null: the company's.
    #[serde(rename = "LOCA_ID")]
    pub location: Option<i64>,
    #[serde(rename = "grade")]
    pub variants: Vec<SalesVariant>,
    #[serde(rename = "tamanhos")]
    pub sizes: Vec<GridSize>,
    #[serde(rename = "cores")]
    pub colours: Vec<GridColour>,
}

/// What stock is asked (its `POST /produtosgradeestoque/{emp}`).
#[derive(Serialize)]
struct StockAsked {
    #[serde(rename = "PROD_ID")]
    product: i64,
    #[serde(rename = "LOCA_ID", skip_serializing_if = "Option::is_none")]
    location: Option<i64>,
}

/// A row of stock's answer: a variant's quantity.
#[derive(Deserialize)]
struct VariantStock {
    #[serde(rename = "PRGR_ID")]
    variant: i64,
    #[serde(rename = "SALDO_FISICO")]
    qty: Dec,
}

/// The distinct sizes and colours of `variants`, each in id order.
fn axes(variants: &[SalesVariant]) -> (Vec<GridSize>, Vec<GridColour>) {
    let mut sizes: Vec<GridSize> = Vec::new();
    let mut colours: Vec<GridColour> = Vec::new();
    for v in variants {
        if let Some(id) = v.size.filter(|id| !sizes.iter().any(|s| s.id == *id)) {
            sizes.push(GridSize { id, name: v.size_name.clone() });
        }
        if let Some(id) = v.colour.filter(|id| !colours.iter().any(|c| c.id == *id)) {
            colours.push(GridColour { id, name: v.colour_name.clone() });
        }
    }
    sizes.sort_by_key(|s| s.id);
    colours.sort_by_key(|c| c.id);
    (sizes, colours)
}

/// The grid's active variants with their sale price and stock.
fn sales_variants(
    grid: Vec<GridVariant>,
    product_price: Option<Decimal>,
    stock: &HashMap<i64, Decimal>,
) -> Vec<SalesVariant> {
    grid.into_iter()
        .filter(|v| v.situation != Some(0))
        .map(|v| SalesVariant {
            id: v.id,
            size: v.size,
            size_name: v.size_name,
            colour: v.colour,
            colour_name: v.colour_name,
            description: v.description,
            barcode: v.barcode,
            price: v.price.or(product_price).map(Dec),
            stock: Dec(stock.get(&v.id).copied().unwrap_or_default()),
        })
        .collect()
}

/// `POST /produtosgradevendas/{emp}`; `peers` reach stock.
pub struct SalesGrid {
    pub peers: Peers,
}

#[async_trait]
impl Operation for SalesGrid {
    type In = SalesGridIn;
    type Out = SalesGridOf;
    async fn run(&self, cx: &mut Ctx<'_>, i: SalesGridIn) -> Result<SalesGridOf> {
        let emp = cx.emp()?;
        let client = cx.client();
        let item = CatalogItems
            .item(cx.tx, LineKind::Product, client, emp, i.product)
            .await?
            .ok_or_else(|| Error::NotFound(PRODUCT_MISSING.into()))?;
        let grid = grid_of(cx.tx, client, emp, i.product).await?;
        let stock: HashMap<i64, Decimal> = if grid.is_empty() {
            HashMap::new()
        } else {
            PeerRegisters::of(&self.peers, "stock", cx.caller)?
                .action::<Vec<VariantStock>>(
                    "consultaprodutos",
                    "gradeestoque",
                    emp,
                    &StockAsked { product: i.product, location: i.location },
                )
                .await?
                .into_iter()
                .map(|s| (s.variant, s.qty.get()))
                .collect()
        };
        let variants = sales_variants(grid, item.price, &stock);
        let (sizes, colours) = axes(&variants);
        Ok(SalesGridOf {
            product: i.product,
            description: item.description,
            unit: item.unit_name,
            price: item.price.map(Dec),
            location: i.location,
            variants,
            sizes,
            colours,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn d(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap_or_default()
    }

    fn variant(
        id: i64,
        size: Option<i64>,
        colour: Option<i64>,
        price: Option<&str>,
    ) -> GridVariant {
        GridVariant {
            id,
            size,
            size_name: size.map(|s| format!("T{s}")),
            colour,
            colour_name: colour.map(|c| format!("C{c}")),
            description: None,
            barcode: None,
            price: price.map(d),
            situation: Some(1),
        }
    }

    #[test]
    fn variants_take_their_price_or_the_products_and_their_stock_or_zero() {
        let mut inactive = variant(4, Some(1), Some(9), None);
        inactive.situation = Some(0);
        let grid = vec![
            variant(1, Some(2), Some(8), Some("59.90")),
            variant(2, Some(1), Some(8), None),
            variant(3, None, Some(7), None),
            inactive,
        ];
        let stock = HashMap::from([(1, d("3")), (3, d("-1"))]);
        let got = sales_variants(grid, Some(d("49.9")), &stock);
        let seen: Vec<(i64, Option<Decimal>, Decimal)> = got
            .iter()
            .map(|v| (v.id, v.price.map(Dec::get), v.stock.get()))
            .collect();
        assert_eq!(
            seen,
            [
                (1, Some(d("59.90")), d("3")),
                (2, Some(d("49.9")), d("0")),
                (3, Some(d("49.9")), d("-1")),
            ]
        );
        let (sizes, colours) = axes(&got);
        assert_eq!(sizes.iter().map(|s| s.id).collect::<Vec<_>>(), [1, 2]);
        assert_eq!(
            colours
                .iter()
                .map(|c| (c.id, c.name.as_deref()))
                .collect::<Vec<_>>(),
            [(7, Some("C7")), (8, Some("C8"))]
        );
    }
}
