//! One quote's and one billing order's PDF, as the customer receives it (the
//! messaging service attaches it to e-mails and WhatsApp messages from the quote
//! and order screens), drawn by `erp_print::sale`:
//! - `GET /orcamento/pdf/{ORCA_ID}/{emp}` (`orcamento.pdf`): `orcamento_{id}.pdf`;
//! - `GET /pedido/pdf/{PEDF_ID}/{emp}/{PEDF_SERIE}` (`pedido.pdf`):
//!   `pedido_{id}_{serie}.pdf`.
//!
//! The rows are read in the call's tenant transaction, so another tenant's or
//! company's document is not found (404). The company is what orders' copy of
//! identity's companies holds: name, CNPJ, city/UF ('Empresa {emp}' until
//! identity's fact arrived); the customer's CPF/CNPJ and city come
//! from orders' copy of the customer, its name from the document.

use async_trait::async_trait;
use chrono::NaiveDate;
use erp_platform::db::Tx;
use erp_platform::resource::call::{Ctx, File, Operation};
use erp_platform::validators::CpfCnpj;
use erp_platform::{Error, Result};
use erp_print::sale::{SaleDocument, SaleLine};
use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::copies::company;

/// `GET /orcamento/pdf/{ORCA_ID}/{emp}`: the quote.
#[derive(Deserialize, JsonSchema)]
pub struct QuotePdfIn {
    #[serde(rename = "ORCA_ID")]
    pub id: i64,
}

/// `GET /pedido/pdf/{PEDF_ID}/{emp}/{PEDF_SERIE}`: the order and its serie.
#[derive(Deserialize, JsonSchema)]
pub struct OrderPdfIn {
    #[serde(rename = "PEDF_ID")]
    pub id: i64,
    #[serde(rename = "PEDF_SERIE")]
    pub serie: String,
}

/// A document's header as both queries read it.
#[derive(sqlx::FromRow)]
struct Head {
    date: NaiveDate,
    customer: String,
    document: Option<String>,
    city: Option<String>,
    uf: Option<String>,
    products: Decimal,
    services: Decimal,
    surcharges: Decimal,
    freight: Decimal,
    discounts: Decimal,
    total: Decimal,
    notes: Option<String>,
}

#[derive(sqlx::FromRow)]
struct LineRow {
    code: i64,
    description: String,
    unit: String,
    quantity: Decimal,
    unit_price: Decimal,
    discount: Decimal,
    total: Decimal,
}

impl From<LineRow> for SaleLine {
    fn from(l: LineRow) -> SaleLine {
        SaleLine {
            code: l.code.to_string(),
            description: l.description,
            unit: l.unit,
            quantity: l.quantity,
            unit_price: l.unit_price,
            discount: l.discount,
            total: l.total,
        }
    }
}

/// The customer of the document, from orders' copy (by company and id).
const CUSTOMER_JOIN: &str = "LEFT JOIN orders.clientes c
    ON c.client_id = d.client_id AND c.emp_id = $2 AND c.cli_id = d.cli";

/// `Caxias do Sul/RS`, the city alone, or nothing.
fn place(city: Option<&str>, uf: Option<&str>) -> String {
    let city = city.map(str::trim).unwrap_or_default();
    let uf = uf.map(str::trim).unwrap_or_default();
    match (city.is_empty(), uf.is_empty()) {
        (false, false) => format!("{city}/{uf}"),
        (false, true) => city.to_string(),
        _ => String::new(),
    }
}

/// A stored CPF/CNPJ the Brazilian way; anything else as it is.
fn formatted(doc: Option<&str>) -> String {
    let doc = doc.map(str::trim).unwrap_or_default();
    CpfCnpj::parse(doc)
        .map(|d| d.to_string())
        .unwrap_or_else(|_| doc.to_string())
}

async fn lines(
    tx: &mut Tx,
    sql: &str,
    client: i64,
    emp: i64,
    id: i64,
    serie: Option<&str>,
) -> Result<Vec<SaleLine>> {
    let mut q = sqlx::query_as::<_, LineRow>(sql)
        .bind(client)
        .bind(emp)
        .bind(id);
    if let Some(serie) = serie {
        q = q.bind(serie);
    }
    Ok(q.fetch_all(&mut **tx)
        .await?
        .into_iter()
        .map(SaleLine::from)
        .collect())
}

/// The page of a document from its header and lines.
async fn render(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    title: String,
    head: Head,
    products: Vec<SaleLine>,
    services: Vec<SaleLine>,
) -> Result<Vec<u8>> {
    let company = company(tx, client, emp).await?.unwrap_or_default();
    let company_name = company
        .nome
        .as_deref()
        .or(company.fantasia.as_deref())
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map_or_else(|| format!("Empresa {emp}"), str::to_string);
    let mut subtotals = vec![
        ("Produtos".to_string(), head.products),
        ("Serviços".to_string(), head.services),
    ];
    for (label, value) in [("Acréscimos", head.surcharges), ("Frete", head.freight)] {
        if !value.is_zero() {
            subtotals.push((label.to_string(), value));
        }
    }
    subtotals.push(("Descontos".to_string(), head.discounts));
    let doc = SaleDocument {
        title,
        company_name,
        company_document: formatted(company.documento.as_deref()),
        company_place: place(company.cidade.as_deref(), company.uf.as_deref()),
        date: head.date,
        customer_name: head.customer.trim().to_string(),
        customer_document: formatted(head.document.as_deref()),
        customer_place: place(head.city.as_deref(), head.uf.as_deref()),
        products,
        services,
        subtotals,
        total: head.total,
        notes: head.notes.unwrap_or_default(),
    };
    erp_print::sale::render(&doc).map_err(|e| Error::internal(format!("PDF: {e}")))
}

/// The quote's PDF.
pub struct QuotePdf;

#[async_trait]
impl Operation for QuotePdf {
    type In = QuotePdfIn;
    type Out = File;
    async fn run(&self, cx: &mut Ctx<'_>, i: QuotePdfIn) -> Result<File> {
        let (client, emp) = (cx.client(), cx.emp()?);
        let sql = format!(
            "SELECT d.orca_dta_emis AS date, coalesce(d.orca_cli_desc, c.descricao, '') AS customer,
                    c.documento AS document, c.cidade AS city, c.uf,
                    d.orca_vlr_pecas AS products, d.orca_vlr_os AS services,
                    d.orca_vlr_acre AS surcharges, 0::numeric AS freight,
                    d.orca_vlr_desc AS discounts, d.orca_vlr_tot AS total, d.orca_obs AS notes
             FROM (SELECT *, orca_cli_id AS cli FROM orders.orcamento) d {CUSTOMER_JOIN}
             WHERE d.client_id = $1 AND d.orca_emp_id = $2 AND d.orca_id = $3"
        );
        let head = sqlx::query_as::<_, Head>(&sql)
            .bind(client)
            .bind(emp)
            .bind(i.id)
            .fetch_optional(&mut **cx.tx)
            .await?
            .ok_or_else(|| Error::NotFound(super::quotes::MISSING.into()))?;
        let products = lines(
            cx.tx,
            "SELECT orcp_prod_id AS code, coalesce(orcp_descricao, '') AS description,
                    coalesce(orcp_unidade, '') AS unit, orcp_qtde AS quantity,
                    orcp_vlr_unit AS unit_price, orcp_vlr_desc AS discount, orcp_vlr_total AS total
             FROM orders.orcamentoproduto
             WHERE client_id = $1 AND orcp_emp_id = $2 AND orcp_orca_id = $3 ORDER BY orcp_id",
            client,
            emp,
            i.id,
            None,
        )
        .await?;
        let services = lines(
            cx.tx,
            "SELECT orci_serv_id AS code, coalesce(orci_descricao, '') AS description,
                    '' AS unit, orci_qtde AS quantity,
                    orci_vlr_unit AS unit_price, orci_vlr_desc AS discount, orci_vlr_total AS total
             FROM orders.orcamentoservico
             WHERE client_id = $1 AND orci_emp_id = $2 AND orci_orca_id = $3 ORDER BY orci_id",
            client,
            emp,
            i.id,
            None,
        )
        .await?;
        let title = format!("Orçamento nº {}", i.id);
        let bytes = render(cx.tx, client, emp, title, head, products, services).await?;
        Ok(File::new(
            "application/pdf",
            &format!("orcamento_{}.pdf", i.id),
            bytes,
        ))
    }
}

/// The billing order's PDF.
pub struct OrderPdf;

#[async_trait]
impl Operation for OrderPdf {
    type In = OrderPdfIn;
    type Out = File;
    async fn run(&self, cx: &mut Ctx<'_>, i: OrderPdfIn) -> Result<File> {
        let (client, emp) = (cx.client(), cx.emp()?);
        let sql = format!(
            "SELECT d.pedf_dta_emissao AS date, coalesce(d.pedf_cli_desc, c.descricao, '') AS customer,
                    c.documento AS document, coalesce(d.pedf_cli_cidade, c.cidade) AS city, c.uf,
                    d.pedf_tot_prod AS products, d.pedf_tot_serv AS services,
                    d.pedf_vlr_acre AS surcharges, d.pedf_vlr_frete AS freight,
                    d.pedf_vlr_desc AS discounts, d.pedf_vlr_total AS total, d.pedf_obs AS notes
             FROM (SELECT *, pedf_cli_id AS cli FROM orders.pedido) d {CUSTOMER_JOIN}
             WHERE d.client_id = $1 AND d.pedf_emp_id = $2 AND d.pedf_id = $3 AND d.pedf_serie = $4"
        );
        let head = sqlx::query_as::<_, Head>(&sql)
            .bind(client)
            .bind(emp)
            .bind(i.id)
            .bind(&i.serie)
            .fetch_optional(&mut **cx.tx)
            .await?
            .ok_or_else(|| Error::NotFound(super::billing::MISSING.into()))?;
        let products = lines(
            cx.tx,
            "SELECT pedi_prod_id AS code, coalesce(pedi_descricao, '') AS description,
                    coalesce(pedi_unidade, '') AS unit, pedi_qtde AS quantity,
                    pedi_vlr_unitario AS unit_price, pedi_vlr_desconto AS discount,
                    pedi_vlr_total AS total
             FROM orders.pedidoproduto
             WHERE client_id = $1 AND pedi_pedf_emp_id = $2 AND pedi_pedf_id = $3
               AND pedi_pedf_serie_id = $4 ORDER BY pedi_pedf_item",
            client,
            emp,
            i.id,
            Some(&i.serie),
        )
        .await?;
        let services = lines(
            cx.tx,
            "SELECT pfos_serv_id AS code, coalesce(pfos_descricao, '') AS description,
                    '' AS unit, pfos_qtde AS quantity, pfos_vlr_unit AS unit_price,
                    0::numeric AS discount, pfos_vlr_serv AS total
             FROM orders.pedidoservico
             WHERE client_id = $1 AND pfos_pedf_emp_id = $2 AND pfos_pedf_id = $3
               AND pfos_pedf_serie = $4 ORDER BY pfos_id",
            client,
            emp,
            i.id,
            Some(&i.serie),
        )
        .await?;
        let title = format!("Pedido nº {}/{}", i.id, i.serie);
        let bytes = render(cx.tx, client, emp, title, head, products, services).await?;
        let name = format!("pedido_{}_{}.pdf", i.id, i.serie);
        Ok(File::new("application/pdf", &name, bytes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_and_documents_read_as_in_brazil() {
        assert_eq!(place(Some(" Porto Alegre "), Some("RS")), "Porto Alegre/RS");
        assert_eq!(place(Some("Canoas"), None), "Canoas");
        assert_eq!(place(None, Some("RS")), "");
        assert_eq!(formatted(Some("11222333000181")), "11.222.333/0001-81");
        assert_eq!(formatted(None), "");
    }
}
