//! What orders keeps of other services' rows, from their `RecordChanged` events: a
//! customer's name, city and document (documents copy them while open) and whether
//! it has a credit limit (invoicing then asks finance, `credit`), a product's
//! description, unit, price, cost and GTIN, a service's description and price, a
//! supplier's name and document, a product's size/colour grid (its variants, with
//! their barcode and price) and the sizes' and colours' names (catalog); a
//! company's document (identity). A deletion marks the copy; issued documents keep
//! what they copied. The copies are also the documents' item source
//! (`CatalogItems`), where a document finds its customer's name (`customer`), a
//! sale line its variant (`variant`), the sales grid its rows (`grid_of`), and
//! where an imported NF-e finds its supplier, its products by GTIN and the company
//! it was addressed to (`supplier_by_document`, `product_by_gtin`,
//! `company_document`).

use async_trait::async_trait;
use erp_platform::bus::copies::{
    company_fact, decode_record as decode, row_document as document, row_id as id,
    row_text as text, Copy, Kind,
};
use erp_platform::bus::{Effect, Message};
use erp_platform::db::Tx;
use erp_platform::resource::document::{ItemInfo, ItemSource, LineKind};
use erp_platform::Result;
use rust_decimal::Decimal;
use serde_json::Value;

pub fn digits(s: &str) -> String {
    s.chars().filter(char::is_ascii_digit).collect()
}

/// A GTIN worth matching on: 8, 12, 13 or 14 digits ("SEM GTIN" and blanks are not).
pub fn gtin(s: &str) -> Option<String> {
    let s = s.trim();
    let ok = matches!(s.len(), 8 | 12 | 13 | 14) && s.bytes().all(|b| b.is_ascii_digit());
    ok.then(|| s.to_string())
}

fn money(row: &Value, k: &str) -> Option<Decimal> {
    match &row[k] {
        Value::String(s) => s.parse().ok(),
        Value::Number(n) => n.to_string().parse().ok(),
        _ => None,
    }
}

pub struct Customers;

#[async_trait]
impl Effect for Customers {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let (ev, row) = decode(msg)?;
        sqlx::query(
            "INSERT INTO orders.clientes (client_id, emp_id, cli_id, descricao, cidade, uf, excluido, documento, limite)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
             ON CONFLICT (client_id, emp_id, cli_id) DO UPDATE
             SET descricao = EXCLUDED.descricao, cidade = EXCLUDED.cidade, uf = EXCLUDED.uf,
                 excluido = EXCLUDED.excluido, documento = EXCLUDED.documento, limite = EXCLUDED.limite",
        )
        .bind(client_id)
        .bind(ev.emp_id)
        .bind(id(&row, "CLI_ID")?)
        .bind(text(&row, "CLI_DESCRICAO").unwrap_or_default())
        .bind(text(&row, "CLI_CIDADE"))
        .bind(text(&row, "CLI_UF"))
        .bind(ev.op == "excluido")
        .bind(document(&row, &["CLI_CGC", "CLI_CPF"]))
        .bind(money(&row, "CLI_LIMITE_CREDITO"))
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}

pub struct Products;

#[async_trait]
impl Effect for Products {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let (ev, row) = decode(msg)?;
        sqlx::query(
            "INSERT INTO orders.produtos (client_id, emp_id, prod_id, descricao, unidade, valor, custo, excluido, gtin)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
             ON CONFLICT (client_id, emp_id, prod_id) DO UPDATE
             SET descricao = EXCLUDED.descricao, unidade = EXCLUDED.unidade, valor = EXCLUDED.valor,
                 custo = EXCLUDED.custo, excluido = EXCLUDED.excluido, gtin = EXCLUDED.gtin",
        )
        .bind(client_id)
        .bind(ev.emp_id)
        .bind(id(&row, "PROD_ID")?)
        .bind(text(&row, "PROD_DESCRICAO").unwrap_or_default())
        .bind(text(&row, "UNID_ABREVIADA"))
        .bind(money(&row, "PROD_VALOR"))
        .bind(money(&row, "PROD_CUSTO"))
        .bind(ev.op == "excluido")
        .bind(text(&row, "PROD_CBAR").and_then(|s| gtin(&s)))
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}

pub struct Services;

#[async_trait]
impl Effect for Services {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let (ev, row) = decode(msg)?;
        sqlx::query(
            "INSERT INTO orders.servicos (client_id, emp_id, serv_id, descricao, valor, excluido)
             VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (client_id, emp_id, serv_id) DO UPDATE
             SET descricao = EXCLUDED.descricao, valor = EXCLUDED.valor, excluido = EXCLUDED.excluido",
        )
        .bind(client_id)
        .bind(ev.emp_id)
        .bind(id(&row, "SERV_ID")?)
        .bind(text(&row, "SERV_DESCRICAO").unwrap_or_default())
        .bind(money(&row, "SERV_VLR_BASE"))
        .bind(ev.op == "excluido")
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}

/// Catalog's grid (`erp.catalog.produtograde.*`, `produtosgrade`): each variant of
/// a product with its size, colour, description, barcode and price (blank: the
/// product's), in the variant's company.
pub const GRID: Copy = Copy {
    schema: "orders",
    table: "produtosgrade",
    emp_field: Some("PRGR_EMP_ID"),
    id: Some(("prgr_id", "PRGR_ID")),
    columns: &[
        ("prod_id", "PRGR_PROD_ID", Kind::Int),
        ("tam_id", "PRGR_TAM_ID", Kind::Int),
        ("cor_id", "PRGR_COR_ID", Kind::Int),
        ("descricao", "PRGR_DESCRICAO", Kind::Text),
        ("cbar", "PRGR_CBAR", Kind::Text),
        ("valor", "PRGR_VALOR", Kind::Decimal),
        ("situacao", "PRGR_SITUACAO", Kind::Int),
    ],
};

/// Catalog's sizes (`erp.catalog.tamanho.*`), per company.
pub const SIZES: Copy = Copy {
    schema: "orders",
    table: "tamanhos",
    emp_field: Some("TAM_EMP_ID"),
    id: Some(("tam_id", "TAM_ID")),
    columns: &[("descricao", "TAM_DESCRICAO", Kind::Text)],
};

/// Catalog's colours (`erp.catalog.cor.*`): the client's (the register has the
/// company in the path only), kept under company 0.
pub const COLOURS: Copy = Copy {
    schema: "orders",
    table: "cores",
    emp_field: None,
    id: Some(("cor_id", "COR_ID")),
    columns: &[("descricao", "COR_DESCRICAO", Kind::Text)],
};

/// A variant of orders' copy of the grid, as a sale line checks and prices it.
#[derive(sqlx::FromRow)]
pub struct VariantCopy {
    /// The product it is a variant of.
    pub product: Option<i64>,
    /// Its own price; `None`: the product's.
    pub price: Option<Decimal>,
}

/// The company's variant `id` (not removed), if orders knows it.
pub async fn variant(tx: &mut Tx, client: i64, emp: i64, id: i64) -> Result<Option<VariantCopy>> {
    Ok(sqlx::query_as(
        "SELECT prod_id AS product, valor AS price FROM orders.produtosgrade
         WHERE client_id = $1 AND emp_id = $2 AND prgr_id = $3 AND NOT excluido",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?)
}

/// A variant of a product's grid as the sales grid lists it: its size and colour
/// with their names, description, barcode, own price and situation.
#[derive(sqlx::FromRow)]
pub struct GridVariant {
    pub id: i64,
    pub size: Option<i64>,
    pub size_name: Option<String>,
    pub colour: Option<i64>,
    pub colour_name: Option<String>,
    pub description: Option<String>,
    pub barcode: Option<String>,
    pub price: Option<Decimal>,
    pub situation: Option<i32>,
}

/// The company's variants of `product` (not removed), by size, colour and id
/// (sizes and colours in the order they were registered: P, M, G rather than
/// alphabetical).
pub async fn grid_of(tx: &mut Tx, client: i64, emp: i64, product: i64) -> Result<Vec<GridVariant>> {
    Ok(sqlx::query_as(
        "SELECT g.prgr_id AS id, g.tam_id AS size, btrim(t.descricao) AS size_name,
                g.cor_id AS colour, btrim(c.descricao) AS colour_name, btrim(g.descricao) AS description,
                g.cbar AS barcode, g.valor AS price, g.situacao::int AS situation
         FROM orders.produtosgrade g
         LEFT JOIN orders.tamanhos t ON t.client_id = g.client_id AND t.emp_id = g.emp_id
              AND t.tam_id = g.tam_id AND NOT t.excluido
         LEFT JOIN orders.cores c ON c.client_id = g.client_id AND c.emp_id = 0
              AND c.cor_id = g.cor_id AND NOT c.excluido
         WHERE g.client_id = $1 AND g.emp_id = $2 AND g.prod_id = $3 AND NOT g.excluido
         ORDER BY g.tam_id NULLS FIRST, g.cor_id NULLS FIRST, g.prgr_id",
    )
    .bind(client)
    .bind(emp)
    .bind(product)
    .fetch_all(&mut **tx)
    .await?)
}

/// Identity's companies: the document an NF-e is addressed to.
pub struct Companies;

#[async_trait]
impl Effect for Companies {
    async fn apply(&self, tx: &mut Tx, client_id: i64, msg: &Message) -> Result<()> {
        let Some((emp, row)) = company_fact(tx, "orders", client_id, msg).await? else {
            return Ok(());
        };
        sqlx::query(
            "INSERT INTO orders.empresas (client_id, emp_id, documento, nome, fantasia, cidade, uf)
             VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (client_id, emp_id) DO UPDATE SET documento = EXCLUDED.documento,
                 nome = EXCLUDED.nome, fantasia = EXCLUDED.fantasia,
                 cidade = EXCLUDED.cidade, uf = EXCLUDED.uf",
        )
        .bind(client_id)
        .bind(emp)
        .bind(document(&row, &["EMP_CGC"]))
        .bind(text(&row, "EMP_DESCRICAO"))
        .bind(text(&row, "EMP_FANTASIA"))
        .bind(text(&row, "EMP_CIDADE"))
        .bind(text(&row, "EMP_UF"))
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}

/// A supplier of orders' copy: id, name and document (digits).
pub type SupplierCopy = (i64, String, Option<String>);

/// The supplier with this CPF/CNPJ (digits), if orders knows one.
pub async fn supplier_by_document(
    tx: &mut Tx,
    client: i64,
    document: &str,
) -> Result<Option<SupplierCopy>> {
    Ok(sqlx::query_as(
        "SELECT forn_id, btrim(descricao), documento FROM orders.fornecedores
         WHERE client_id = $1 AND documento = $2 AND NOT excluido ORDER BY forn_id LIMIT 1",
    )
    .bind(client)
    .bind(document)
    .fetch_optional(&mut **tx)
    .await?)
}

/// A supplier by id, if orders knows it.
pub async fn supplier(tx: &mut Tx, client: i64, id: i64) -> Result<Option<SupplierCopy>> {
    Ok(sqlx::query_as(
        "SELECT forn_id, btrim(descricao), documento FROM orders.fornecedores
         WHERE client_id = $1 AND forn_id = $2 AND NOT excluido",
    )
    .bind(client)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?)
}

/// The company's CPF/CNPJ (digits), when orders knows it.
pub async fn company_document(tx: &mut Tx, client: i64, emp: i64) -> Result<Option<String>> {
    Ok(sqlx::query_scalar::<_, Option<String>>(
        "SELECT documento FROM orders.empresas WHERE client_id = $1 AND emp_id = $2",
    )
    .bind(client)
    .bind(emp)
    .fetch_optional(&mut **tx)
    .await?
    .flatten())
}

/// What a printed document shows of its company: name (the trade name when it
/// has no name), document (digits), city and state; none until identity's fact
/// reached orders.
#[derive(Debug, Default, sqlx::FromRow)]
pub struct CompanyCopy {
    pub nome: Option<String>,
    pub fantasia: Option<String>,
    pub documento: Option<String>,
    pub cidade: Option<String>,
    pub uf: Option<String>,
}

pub async fn company(tx: &mut Tx, client: i64, emp: i64) -> Result<Option<CompanyCopy>> {
    Ok(sqlx::query_as(
        "SELECT nome, fantasia, documento, cidade, uf FROM orders.empresas
         WHERE client_id = $1 AND emp_id = $2",
    )
    .bind(client)
    .bind(emp)
    .fetch_optional(&mut **tx)
    .await?)
}

/// The company's product with this GTIN, if exactly one has it.
pub async fn product_by_gtin(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    gtin: &str,
) -> Result<Option<i64>> {
    let ids: Vec<i64> = sqlx::query_scalar(
        "SELECT prod_id FROM orders.produtos
         WHERE client_id = $1 AND emp_id = $2 AND gtin = $3 AND NOT excluido ORDER BY prod_id LIMIT 2",
    )
    .bind(client)
    .bind(emp)
    .bind(gtin)
    .fetch_all(&mut **tx)
    .await?;
    Ok(match ids.as_slice() {
        [one] => Some(*one),
        _ => None,
    })
}

/// A product of orders' copy as a purchase line takes it: description, unit, cost.
pub async fn product_for_purchase(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    id: i64,
) -> Result<Option<(String, Option<String>, Option<Decimal>)>> {
    Ok(sqlx::query_as(
        "SELECT btrim(descricao), unidade, custo FROM orders.produtos
         WHERE client_id = $1 AND emp_id = $2 AND prod_id = $3 AND NOT excluido",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?)
}

/// Orders' copy of the catalog as the documents' item source: a line left without
/// description, unit or price takes them from here.
pub struct CatalogItems;

#[async_trait]
impl ItemSource for CatalogItems {
    async fn item(
        &self,
        tx: &mut Tx,
        kind: LineKind,
        client: i64,
        emp: i64,
        id: i64,
    ) -> Result<Option<ItemInfo>> {
        let sql = match kind {
            LineKind::Product => {
                "SELECT btrim(descricao), unidade, valor FROM orders.produtos
                 WHERE client_id = $1 AND emp_id = $2 AND prod_id = $3 AND NOT excluido"
            }
            LineKind::Service => {
                "SELECT btrim(descricao), NULL::text, valor FROM orders.servicos
                 WHERE client_id = $1 AND emp_id = $2 AND serv_id = $3 AND NOT excluido"
            }
        };
        let row: Option<(String, Option<String>, Option<Decimal>)> = sqlx::query_as(sql)
            .bind(client)
            .bind(emp)
            .bind(id)
            .fetch_optional(&mut **tx)
            .await?;
        Ok(row.map(|(description, unit_name, price)| ItemInfo { description, unit_name, price }))
    }
}

/// A customer's current name and city from orders' copy (trimmed).
pub async fn customer(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    id: i64,
) -> Result<Option<(String, Option<String>)>> {
    Ok(sqlx::query_as(
        "SELECT btrim(descricao), nullif(btrim(coalesce(cidade, '')), '') FROM orders.clientes
         WHERE client_id = $1 AND emp_id = $2 AND cli_id = $3 AND NOT excluido",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?)
}
