//! Billing orders (`pedido`, screen /pedidos) keyed by id, company and serie, with
//! product lines (`pedidoproduto`) and service lines (`pedidoservico`) keyed by id,
//! company, serie and item — one document of the engine (totals, the open status,
//! the creating user, duplication); promotions (`promocao`).
//!
//! Calls beyond the generic ones:
//! - `PUT /pedidogenerator/{id}/{emp}/{serie}`: invoices the order (A -> F) once, in
//!   the transaction that writes `erp.orders.pedido.faturado` to the outbox
//!   ([`Invoice`]), after finance said the customer's credit allows it
//!   (`crate::credit`; a release is recorded in PEDF_LIBERACAO_*).
//! - `POST /pedidoduplicar/{id}/{emp}/{serie}/{userId}`: a new open order with the
//!   same customer and lines (`transitions::Duplicate`).
//! - `GET /pedido/pdf/{PEDF_ID}/{emp}/{PEDF_SERIE}`: the order's PDF,
//!   `pedido_{id}_{serie}.pdf` (`printed::OrderPdf`).
//! - `POST /clientesvendas/{cliId}/{cliEmp}` (+ `/produtos/`, `/servicos/`): the
//!   customer's invoiced orders and their lines.
//! - `POST /produtosgradevendas/{emp}` (`{"PROD_ID": 7}`, optional `LOCA_ID`): the
//!   product's size/colour grid as the sale sees it, each variant with its price
//!   and its stock (`super::sales_grid`).
//! - `GET /promocao/value/{prodId}/{qty}`: the unit price for a quantity today.
//!
//! A product line may name a variant of its product's grid (`PEDI_PRGR_ID`,
//! catalog's PRGR_ID): the line's hook ([`VariantLine`]) refuses a variant orders'
//! copy of the grid does not know or that belongs to another product, and a line
//! created without a unit price takes the variant's own price (when it has one;
//! else the product's, as any line). Invoicing carries the variant in the line's
//! `StockLine.variant_id`, and stock takes the quantity out of that variant too.

use std::marker::PhantomData;
use std::sync::Arc;

use async_trait::async_trait;
use chrono::NaiveDate;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::call::{Ctx, Date, Dec, Money, Operation};
use erp_platform::resource::document::arithmetic::{self, Line, Totals};
use erp_platform::resource::document::{ops, read, DocumentDef, ItemSource, LineKind};
use erp_platform::resource::{
    record, ActionPerm, Button, DbType, Document, Field, Kind, Lines, Op, RecordHooks, Resource,
    Role, Total,
};
use erp_platform::service::Peers;
use erp_platform::{Error, Result};
use erp_proto::orders::v1::{LineCharges, PedidoFaturado, SaleLine, StockLine};
use prost::Message as _;
use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use sqlx::postgres::PgRow;

use super::customer::{customer_body, CustomerCopy};
use super::printed::OrderPdf;
use super::sales_grid::SalesGrid;
use super::transitions::{Duplicate, OrderKey};
use crate::money::money_out;
use crate::SCHEMA;

pub const ALREADY_INVOICED: &str = "Pedido já faturado.";
pub const ISSUED: &str = "Pedido já faturado não pode ser alterado.";
pub const MISSING: &str = "Pedido não encontrado.";
pub const EMPTY_ORDER: &str = "Pedido sem itens não pode ser faturado.";

/// The billing order and its lines, as one document, without peers (invoicing
/// then cannot ask finance for the customer's credit: it says so on the order).
pub fn document() -> std::result::Result<Vec<Resource>, String> {
    document_with(Peers::default())
}

/// The billing order and its lines, as one document; `peers` reach finance for
/// the customer's credit when invoicing.
pub fn document_with(peers: Peers) -> std::result::Result<Vec<Resource>, String> {
    Document::new(pedido(peers))
        .status("PEDF_SITUACAO", &["A"], ISSUED)
        .tones(&[("A", "open"), ("F", "done")])
        .missing(MISSING)
        .date("PEDF_DTA_EMISSAO")
        .items(Arc::new(crate::copies::CatalogItems))
        .line(
            pedidoproduto(),
            Lines::products(&["PEDI_PEDF_ID", "PEDI_PEDF_SERIE_ID"])
                .editable(&[Role::Quantity, Role::Discount]),
        )
        .line(
            pedidoservico(),
            Lines::services(&["PFOS_PEDF_ID", "PFOS_PEDF_SERIE"]).editable(&[Role::Quantity]),
        )
        .build()
}

pub fn all(peers: Peers) -> std::result::Result<Vec<Resource>, String> {
    let mut out = document_with(peers)?;
    out.push(promocao());
    Ok(out)
}

customer_body!(
    OrderCustomer,
    "PEDF_CLI_ID",
    "PEDF_CLI_DESC",
    "PEDF_CLI_CIDADE"
);

fn pedido(peers: Peers) -> Resource {
    Resource::new("pedido", "Pedidos de Venda", SCHEMA, "pedido", "pedidos")
        .screen("/pedidos")
        .key(&["PEDF_ID", "PEDF_SERIE"])
        .seq_key_on("PEDF_ID")
        .company("PEDF_EMP_ID")
        .label("PEDF_CLI_DESC")
        .label_len(20)
        .order("PEDF_ID DESC")
        .record_hooks(CustomerCopy::<OrderCustomer>::new())
        .sample(json!({"PEDF_SERIE": "1", "PEDF_CLI_ID": 1, "PEDF_DTA_EMISSAO": "2026-11-22", "PEDF_OBS": "Entrega pela manhã"}))
        .call("PUT", "/pedidogenerator/{PEDF_ID}/{emp}/{PEDF_SERIE}", "faturar", ActionPerm::Update, "Faturar o pedido (uma vez)", Invoice { peers: peers.clone() })
        .button(Button::new("Faturar").primary().open_when(&["A"]).confirm(
            "Faturar pedido",
            "Deseja faturar o pedido {PEDF_ID}? Após faturado, o pedido não poderá ser alterado.",
            "Faturar",
        ))
        .call("GET", "/pedido/pdf/{PEDF_ID}/{emp}/{PEDF_SERIE}", "pdf", ActionPerm::View, "O PDF do pedido", OrderPdf)
        .call("POST", "/pedidoduplicar/{PEDF_ID}/{emp}/{PEDF_SERIE}/{userId}", "duplicar", ActionPerm::Create, "Duplicar o pedido", Duplicate::<OrderKey>::new())
        .button(Button::new("Duplicar").opens("pedido"))
        .call("POST", "/clientesvendas/{cliId}/{emp}", "clientesvendas", ActionPerm::View, "Vendas faturadas do cliente", CustomerSales::<SoldOrder>::new())
        .call("POST", "/clientesvendas/produtos/{cliId}/{emp}", "clientesvendasprodutos", ActionPerm::View, "Produtos vendidos ao cliente", CustomerSales::<SoldProduct>::new())
        .call("POST", "/clientesvendas/servicos/{cliId}/{emp}", "clientesvendasservicos", ActionPerm::View, "Serviços vendidos ao cliente", CustomerSales::<SoldService>::new())
        .call("POST", "/produtosgradevendas/{emp}", "produtosgradevendas", ActionPerm::View, "Grade do produto para a venda: tamanhos e cores com preço e estoque", SalesGrid { peers })
        .fields(vec![
            Field::int("PEDF_ID", "Número").read_only().list().width(2),
            Field::int("PEDF_EMP_ID", "Empresa"),
            Field::text("PEDF_SERIE", "Série").len(3).required().list().width(1).default(json!("1")),
            Field::reference("PEDF_CLI_ID", "Cliente", "clientes", Kind::Autocomplete).required().width(6),
            Field::text("PEDF_CLI_DESC", "Cliente").server().searchable().list(),
            Field::text("PEDF_CLI_CIDADE", "Cidade").server().list().width(3),
            Field::reference("PEDF_COLA_ID", "Vendedor", "colaborador", Kind::Autocomplete).width(4),
            Field::reference("PEDF_CNDP_ID", "Condição de Pagamento", "condicaopagamento", Kind::Combobox).width(4),
            Field::reference("PEDF_FRMP_ID", "Forma de Pagamento", "formapagamento", Kind::Combobox).width(4),
            Field::options("PEDF_MODELO", "Modelo", DbType::Text, &[("55", "NF-e"), ("65", "NFC-e"), ("00", "Sem documento fiscal")]).default(json!("55")).width(3),
            Field::options("PEDF_TIPO", "Tipo", DbType::Text, &[("1", "Saída"), ("0", "Entrada")]).default(json!("1")).width(3),
            Field::date("PEDF_DTA_EMISSAO", "Emissão").required().list(),
            Field::date("PEDF_DTA_ENTRADA", "Entrega"),
            Field::text("PEDF_HORA_MOV", "Hora").len(8).width(2),
            Field::textarea("PEDF_OBS", "Observações").len(2000),
            Field::money("PEDF_TOT_PROD", "Total Produtos").total(Total::Products).width(2),
            Field::money("PEDF_TOT_SERV", "Total Serviços").total(Total::Services).width(2),
            Field::money("PEDF_VLR_ACRE", "Acréscimos").total(Total::Surcharges).width(2),
            Field::money("PEDF_VLR_FRETE", "Frete").total(Total::Freight).width(2),
            Field::money("PEDF_VLR_DESC", "Descontos").total(Total::Discounts).width(2),
            Field::money("PEDF_VLR_TOTAL", "Total").total(Total::Grand).list().width(2),
            Field::options("PEDF_SITUACAO", "Situação", DbType::Text, &[("A", "Aberto"), ("F", "Faturado")]).read_only().list().width(2),
            Field::timestamp("PEDF_DTA_FATURAMENTO", "Faturado em"),
            // The credit limit released at invoicing (`credit`): who, when and what
            // the limit, the open amount and the order were.
            Field::int("PEDF_LIBERACAO_USR_ID", "Crédito liberado por").read_only().width(2),
            Field::timestamp("PEDF_LIBERACAO_DTA", "Crédito liberado em"),
            Field::text("PEDF_LIBERACAO_OBS", "Liberação de crédito").len(300).read_only(),
            Field::int("PEDF_ORCA_ID", "Orçamento").read_only(),
            // Set by fiscal's facts: the access key of the order's authorised NF-e.
            Field::text("PEDF_NFE_XML", "Chave de Acesso da NF-e").len(44).read_only(),
            Field::int("PEDF_USR_ID", "Usuário").role(Role::CreatedBy),
            Field::timestamp("PEDF_DTA_CAD", "Cadastro"),
        ])
}

fn pedidoproduto() -> Resource {
    Resource::new("pedidoproduto", "Produtos do Pedido", SCHEMA, "pedidoproduto", "pedidos")
        .key(&["PEDI_PEDF_ID", "PEDI_PEDF_SERIE_ID", "PEDI_PEDF_ITEM"])
        .seq_key()
        .company("PEDI_PEDF_EMP_ID")
        .label("PEDI_DESCRICAO")
        .order("PEDI_PEDF_ITEM")
        .list_path("/pedidoproduto/{PEDI_PEDF_ID}/{emp}/{PEDI_PEDF_SERIE_ID}")
        .count_path("/pedidoproduto/registros/{PEDI_PEDF_ID}/{emp}/{PEDI_PEDF_SERIE_ID}")
        .sample(json!({"PEDI_PEDF_ID": 1, "PEDI_PEDF_SERIE_ID": "1", "PEDI_PROD_ID": 1, "PEDI_QTDE": "2", "PEDI_VLR_UNITARIO": "10.50"}))
        .record_hooks(VariantLine)
        .fields(vec![
            Field::int("PEDI_PEDF_ID", "Pedido").required(),
            Field::int("PEDI_PEDF_EMP_ID", "Empresa"),
            Field::text("PEDI_PEDF_SERIE_ID", "Série").len(3).required(),
            Field::int("PEDI_PEDF_ITEM", "Item").read_only().list().width(1),
            Field::reference("PEDI_PROD_ID", "Produto", "produtos", Kind::Autocomplete).required().list().width(5).role(Role::Item),
            Field::text("PEDI_DESCRICAO", "Descrição").len(200).searchable().list().role(Role::Description),
            Field::text("PEDI_UNIDADE", "Un.").len(6).list().width(1).role(Role::UnitName),
            Field::decimal("PEDI_QTDE", "Quantidade").scale(4).required().min("0.0001").list().width(2).role(Role::Quantity),
            Field::money("PEDI_VLR_UNITARIO", "Valor Unitário").scale(4).list().width(2).role(Role::UnitPrice),
            Field::money("PEDI_VLR_DESCONTO", "Desconto").width(2).role(Role::Discount),
            Field::money("PEDI_VLR_ACRECIMO", "Acréscimo").width(2).role(Role::Surcharge),
            Field::money("PEDI_VLR_FRETE", "Frete").width(2).role(Role::Freight),
            Field::money("PEDI_VLR_TOTAL", "Total").list().width(2).role(Role::LineTotal),
            Field::decimal("PEDI_PERC_IPI", "IPI (%)").scale(4).min("0").max("100").width(2),
            Field::decimal("PEDI_PERC_ICMS", "ICMS (%)").scale(4).min("0").max("100").width(2),
            Field::decimal("PEDI_PERC_TICM", "Tributação ICMS (%)").scale(4).min("0").max("100").width(2),
            Field::money("PEDI_VLR_ICMS", "Valor ICMS").width(2),
            Field::reference("PEDI_LOCA_ID", "Local de Estoque", "localestoque", Kind::Combobox).width(3),
            // The variant of the product's grid the line sells (catalog's PRGR_ID).
            Field::reference("PEDI_PRGR_ID", "Variação (Tamanho/Cor)", "produtosgrade", Kind::Autocomplete).width(3),
        ])
}

/// What a product line's hook reads of the body: the product and variant (not
/// written back) and the unit price it may fill.
#[derive(Deserialize, Serialize)]
pub struct VariantLineBody {
    #[serde(rename = "PEDI_PROD_ID", default, skip_serializing)]
    product: Option<i64>,
    #[serde(rename = "PEDI_PRGR_ID", default, skip_serializing)]
    variant: Option<i64>,
    #[serde(
        rename = "PEDI_VLR_UNITARIO",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    unit: Option<Dec>,
}

/// A written product line as its hook checks it.
#[derive(Deserialize)]
pub struct VariantLineRow {
    #[serde(rename = "PEDI_PEDF_EMP_ID")]
    emp: i64,
    #[serde(rename = "PEDI_PROD_ID")]
    product: i64,
    #[serde(rename = "PEDI_PRGR_ID", default)]
    variant: Option<i64>,
}

/// A product line's variant: on create, a line left without a unit price (or 0)
/// takes the variant's own price, when it has one (the document then leaves it,
/// and the product's price fills a line whose variant has none); once written,
/// the variant must be one orders' copy of the grid knows, of the line's product.
pub struct VariantLine;

#[async_trait]
impl RecordHooks for VariantLine {
    type Body = VariantLineBody;
    type Row = VariantLineRow;

    async fn prepare(
        &self,
        tx: &mut Tx,
        op: Op,
        caller: &Caller,
        emp: Option<i64>,
        body: &mut VariantLineBody,
    ) -> Result<()> {
        let (Op::Create, Some(product), Some(variant)) = (op, body.product, body.variant) else {
            return Ok(());
        };
        if body.unit.is_some_and(|u| !u.get().is_zero()) {
            return Ok(());
        }
        let emp = emp.unwrap_or(caller.emp_id);
        let known = crate::copies::variant(tx, caller.client_id, emp, variant).await?;
        if let Some(price) = known
            .filter(|v| v.product == Some(product))
            .and_then(|v| v.price)
        {
            body.unit = Some(Dec(price));
        }
        Ok(())
    }

    async fn after_write(
        &self,
        tx: &mut Tx,
        op: Op,
        caller: &Caller,
        row: &VariantLineRow,
    ) -> Result<()> {
        let (Op::Create | Op::Update, Some(variant)) = (op, row.variant) else {
            return Ok(());
        };
        match crate::copies::variant(tx, caller.client_id, row.emp, variant).await? {
            None => Err(Error::validation(format!(
                "Variação {variant} da grade não encontrada (se acabou de ser cadastrada, tente novamente em instantes)."
            ))),
            Some(v) if v.product != Some(row.product) => Err(Error::validation(format!(
                "A variação {variant} da grade não é do produto {}.",
                row.product
            ))),
            Some(_) => Ok(()),
        }
    }
}

fn pedidoservico() -> Resource {
    Resource::new("pedidoservico", "Serviços do Pedido", SCHEMA, "pedidoservico", "pedidos")
        .key(&["PFOS_PEDF_ID", "PFOS_PEDF_SERIE", "PFOS_ID"])
        .seq_key()
        .company("PFOS_PEDF_EMP_ID")
        .label("PFOS_DESCRICAO")
        .order("PFOS_ID")
        .list_path("/pedidoservico/{PFOS_PEDF_ID}/{emp}/{PFOS_PEDF_SERIE}")
        .count_path("/pedidoservico/registros/{PFOS_PEDF_ID}/{emp}/{PFOS_PEDF_SERIE}")
        .sample(json!({"PFOS_PEDF_ID": 1, "PFOS_PEDF_SERIE": "1", "PFOS_SERV_ID": 1, "PFOS_QTDE": "1", "PFOS_VLR_UNIT": "80"}))
        .fields(vec![
            Field::int("PFOS_PEDF_ID", "Pedido").required(),
            Field::int("PFOS_PEDF_EMP_ID", "Empresa"),
            Field::text("PFOS_PEDF_SERIE", "Série").len(3).required(),
            Field::int("PFOS_ID", "Item").read_only().list().width(1),
            Field::reference("PFOS_SERV_ID", "Serviço", "servico", Kind::Autocomplete).required().list().width(5).role(Role::Item),
            Field::text("PFOS_DESCRICAO", "Descrição").len(200).searchable().list().role(Role::Description),
            Field::decimal("PFOS_QTDE", "Quantidade").scale(4).required().min("0.0001").list().width(2).role(Role::Quantity),
            Field::money("PFOS_VLR_UNIT", "Valor Unitário").scale(4).list().width(2).role(Role::UnitPrice),
            Field::money("PFOS_VLR_SERV", "Total").list().width(2).role(Role::LineTotal),
        ])
}

pub fn promocao() -> Resource {
    Resource::new("promocao", "Promoções", SCHEMA, "promocao", "pedidos")
        .key(&["PROM_ID"])
        .company("PROM_EMP_ID")
        .label("PROM_DESCRICAO")
        .order("PROM_DTA_INI DESC, PROM_ID")
        .sample(json!({"PROM_DESCRICAO": "Leve 10, pague menos", "PROM_PROD_ID": 1, "PROM_QTDE_MIN": "10", "PROM_VLR_UNIT": "9.00", "PROM_DTA_INI": "2026-11-01", "PROM_DTA_FIM": "2026-12-31"}))
        .call("GET", "/promocao/value/{prodId}/{qty}", "valor", ActionPerm::View, "Preço unitário do produto para a quantidade, hoje", PromotionValue)
        .fields(vec![
            Field::id("PROM_ID", "Código"),
            Field::int("PROM_EMP_ID", "Empresa"),
            Field::text("PROM_DESCRICAO", "Descrição").required().len(100).searchable().list(),
            Field::reference("PROM_PROD_ID", "Produto", "produtos", Kind::Autocomplete).required().list(),
            Field::decimal("PROM_QTDE_MIN", "Quantidade Mínima").scale(4).min("0.0001").default(json!("1")).list().width(2),
            Field::money("PROM_VLR_UNIT", "Preço Promocional").scale(4).list().width(2),
            Field::decimal("PROM_PERC_DESC", "Desconto (%)").scale(4).min("0").max("100").width(2),
            Field::date("PROM_DTA_INI", "Início").required().list(),
            Field::date("PROM_DTA_FIM", "Fim").required().list(),
            Field::situation("PROM_SITUACAO"),
        ])
}

/// An order's header as invoicing reads it.
#[derive(Deserialize)]
struct OrderHead {
    #[serde(rename = "PEDF_CLI_ID")]
    customer: i64,
    #[serde(rename = "PEDF_CLI_DESC")]
    customer_name: Option<String>,
    #[serde(rename = "PEDF_DTA_EMISSAO")]
    issued: Date,
    #[serde(rename = "PEDF_CNDP_ID")]
    condition: Option<i64>,
    #[serde(rename = "PEDF_FRMP_ID")]
    method: Option<i64>,
}

/// A product line as invoicing reads it.
#[derive(Deserialize)]
struct ProductLine {
    #[serde(rename = "PEDI_PEDF_ITEM")]
    item: i64,
    #[serde(rename = "PEDI_PROD_ID")]
    product: i64,
    #[serde(rename = "PEDI_QTDE")]
    qty: Dec,
    #[serde(rename = "PEDI_VLR_UNITARIO")]
    unit: Option<Dec>,
    #[serde(rename = "PEDI_VLR_DESCONTO")]
    discount: Option<Dec>,
    #[serde(rename = "PEDI_VLR_ACRECIMO")]
    surcharge: Option<Dec>,
    #[serde(rename = "PEDI_VLR_FRETE")]
    freight: Option<Dec>,
    #[serde(rename = "PEDI_LOCA_ID")]
    location: Option<i64>,
    #[serde(rename = "PEDI_PRGR_ID", default)]
    variant: Option<i64>,
}

impl ProductLine {
    fn arithmetic(&self) -> Line {
        let d = |v: Option<Dec>| v.map(Dec::get).unwrap_or_default();
        Line {
            qty: self.qty.get(),
            unit: d(self.unit),
            discount: d(self.discount),
            surcharge: d(self.surcharge),
            freight: d(self.freight),
        }
    }
}

/// A service line as invoicing reads it.
#[derive(Deserialize)]
struct ServiceLine {
    #[serde(rename = "PFOS_ID")]
    item: i64,
    #[serde(rename = "PFOS_SERV_ID")]
    service: i64,
    #[serde(rename = "PFOS_QTDE")]
    qty: Dec,
    #[serde(rename = "PFOS_VLR_UNIT")]
    unit: Option<Dec>,
}

/// An open order, locked, read with its lines and its totals recomputed by the
/// document engine: what invoicing writes once the credit check let it through.
pub struct OpenOrder {
    emp: i64,
    id: i64,
    serie: String,
    head: OrderHead,
    products: Vec<ProductLine>,
    services: Vec<ServiceLine>,
    totals: Totals,
}

impl OpenOrder {
    pub fn customer(&self) -> i64 {
        self.head.customer
    }

    /// The total the order will be invoiced at.
    pub fn total(&self) -> Decimal {
        arithmetic::money(self.totals.total)
    }
}

/// The billing order's document definition (from its register).
fn definition(res: &Resource) -> Result<Arc<DocumentDef>> {
    res.document
        .as_ref()
        .map(|d| d.def.clone())
        .ok_or_else(|| Error::internal("pedido is a document"))
}

/// Invoices an order without asking for the customer's credit (events tests).
pub async fn invoice(
    tx: &mut Tx,
    caller: &Caller,
    emp: i64,
    id: i64,
    serie: &str,
) -> Result<Invoiced> {
    let docs = document().map_err(Error::internal)?;
    let res = docs
        .iter()
        .find(|r| r.name == "pedido")
        .ok_or_else(|| Error::internal("pedido not declared"))?;
    let order = open_order(tx, res, caller, emp, id, serie).await?;
    invoice_open(tx, caller, order, None).await
}

/// Locks an open order and reads it for invoicing: the state change happens once
/// (the header is locked by the engine and must be open), the header and each
/// kind of line are read once as structs, the totals are recomputed (and written)
/// by the engine from the lines.
pub async fn open_order(
    tx: &mut Tx,
    res: &Resource,
    caller: &Caller,
    emp: i64,
    id: i64,
    serie: &str,
) -> Result<OpenOrder> {
    let def = definition(res)?;
    let client = caller.client_id;
    let key = [id.to_string(), serie.to_string()];
    let status = ops::lock(tx, &def, client, Some(emp), &key).await?;
    if status != "A" {
        return Err(Error::Conflict(ALREADY_INVOICED.into()));
    }
    let head: OrderHead = record::get(tx, res, caller, Some(emp), &key).await?;
    let products: Vec<ProductLine> =
        read::lines(tx, &def, LineKind::Product, client, Some(emp), &key).await?;
    let services: Vec<ServiceLine> =
        read::lines(tx, &def, LineKind::Service, client, Some(emp), &key).await?;
    if products.is_empty() && services.is_empty() {
        return Err(Error::validation(EMPTY_ORDER));
    }
    let totals = ops::recalc(tx, &def, client, Some(emp), &key)
        .await?
        .ok_or_else(|| Error::internal("pedido has totals"))?;
    Ok(OpenOrder { emp, id, serie: serie.to_string(), head, products, services, totals })
}

/// Invoices an order `open_order` locked: the header's status is written once
/// (with the credit release, when there was one) and the fact goes to the outbox
/// in the same transaction.
pub async fn invoice_open(
    tx: &mut Tx,
    caller: &Caller,
    order: OpenOrder,
    release: Option<&crate::credit::Release>,
) -> Result<Invoiced> {
    let client = caller.client_id;
    let (emp, id) = (order.emp, order.id);
    sqlx::query(
        "UPDATE orders.pedido SET pedf_situacao = 'F', pedf_dta_faturamento = now(),
             pedf_liberacao_usr_id = $5, pedf_liberacao_dta = CASE WHEN $5::bigint IS NULL THEN NULL ELSE now() END,
             pedf_liberacao_obs = $6
         WHERE client_id = $1 AND pedf_emp_id = $2 AND pedf_id = $3 AND pedf_serie = $4",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(&order.serie)
    .bind(release.map(|r| r.user_id))
    .bind(release.map(|r| r.note.as_str()))
    .execute(&mut **tx)
    .await?;
    let t = &order.totals;
    let sale = |kind: &str, item: i64, id: i64, l: &Line| SaleLine {
        kind: kind.into(),
        item,
        item_id: id,
        quantity: l.qty.normalize().to_string(),
        unit_price: l.unit.normalize().to_string(),
        discount: l.discount.normalize().to_string(),
        total: l.net().to_string(),
    };
    let product_lines: Vec<Line> = order.products.iter().map(ProductLine::arithmetic).collect();
    let sale_lines = order
        .products
        .iter()
        .zip(&product_lines)
        .map(|(p, l)| sale("P", p.item, p.product, l))
        .chain(order.services.iter().map(|s| {
            let unit = s.unit.map(Dec::get).unwrap_or_default();
            sale("S", s.item, s.service, &Line::new(s.qty.get(), unit))
        }))
        .collect();
    let line_charges = order
        .products
        .iter()
        .zip(&product_lines)
        .filter(|(_, l)| !l.surcharge.is_zero() || !l.freight.is_zero())
        .map(|(p, l)| LineCharges {
            kind: "P".into(),
            item: p.item,
            surcharge: l.surcharge.normalize().to_string(),
            freight: l.freight.normalize().to_string(),
        })
        .collect();
    let event = PedidoFaturado {
        client_id: client,
        emp_id: emp,
        pedido_id: id,
        serie: order.serie.clone(),
        customer_id: order.head.customer,
        customer_name: order.head.customer_name.clone().unwrap_or_default(),
        total: t.total.to_string(),
        products_total: t.products.to_string(),
        services_total: t.services.to_string(),
        issued_on: order.head.issued.get().format("%Y-%m-%d").to_string(),
        user_id: caller.user_id,
        lines: order
            .products
            .iter()
            .map(|p| StockLine {
                product_id: p.product,
                product_emp_id: emp,
                quantity: p.qty.get().normalize().to_string(),
                item: p.item,
                location_id: p.location.unwrap_or(0),
                variant_id: p.variant.unwrap_or(0),
            })
            .collect(),
        payment_condition_id: order.head.condition.unwrap_or(0),
        payment_method_id: order.head.method.unwrap_or(0),
        sale_lines,
        line_charges,
    };
    erp_platform::bus::outbox_insert(
        tx,
        SCHEMA,
        erp_proto::subjects::PEDIDO_FATURADO,
        client,
        &event.encode_to_vec(),
    )
    .await?;
    Ok(Invoiced {
        code: 200,
        msg: "Pedido faturado com sucesso.".into(),
        id,
        emp,
        serie: order.serie.clone(),
        status: "F".into(),
        total: Money(order.total()),
    })
}

/// What invoicing answers.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Invoiced {
    pub code: u16,
    pub msg: String,
    #[serde(rename = "PEDF_ID")]
    pub id: i64,
    #[serde(rename = "PEDF_EMP_ID")]
    pub emp: i64,
    #[serde(rename = "PEDF_SERIE")]
    pub serie: String,
    /// The order's situation after the call (F).
    #[serde(rename = "PEDF_SITUACAO")]
    pub status: String,
    /// The invoiced total.
    #[serde(rename = "PEDF_VLR_TOTAL")]
    pub total: Money,
}

/// `PUT /pedidogenerator/{PEDF_ID}/{emp}/{PEDF_SERIE}`: invoices the order once.
#[derive(Deserialize, JsonSchema)]
pub struct InvoiceIn {
    #[serde(rename = "PEDF_ID")]
    pub id: i64,
    #[serde(rename = "PEDF_SERIE")]
    pub serie: String,
    /// The user confirmed invoicing past the customer's credit limit (orders
    /// checks the grant and records the release).
    #[serde(rename = "LIBERAR_LIMITE", default)]
    #[schemars(title = "Liberar limite de crédito")]
    pub release_credit: bool,
}

/// Invoicing, after finance said the customer's credit allows it.
pub struct Invoice {
    pub peers: Peers,
}

#[async_trait]
impl Operation for Invoice {
    type In = InvoiceIn;
    type Out = Invoiced;
    async fn run(&self, cx: &mut Ctx<'_>, i: InvoiceIn) -> Result<Invoiced> {
        let emp = cx.emp()?;
        let order = open_order(cx.tx, cx.res, cx.caller, emp, i.id, &i.serie).await?;
        let release = crate::credit::check(
            cx.tx,
            &self.peers,
            cx.caller,
            emp,
            order.customer(),
            order.total(),
            i.release_credit,
        )
        .await?;
        invoice_open(cx.tx, cx.caller, order, release.as_ref()).await
    }
}

/// `POST /clientesvendas/…/{cliId}/{emp}`: the customer.
#[derive(Deserialize, JsonSchema)]
pub struct CustomerSalesIn {
    #[serde(rename = "cliId")]
    pub customer: i64,
}

/// A row of what was sold to a customer, read by its query (`$1` client, `$2`
/// company, `$3` customer; invoiced orders only).
pub trait Sold:
    for<'r> sqlx::FromRow<'r, PgRow> + Serialize + JsonSchema + Send + Unpin + 'static
{
    const SQL: &'static str;
}

/// An invoiced order of the customer.
#[derive(sqlx::FromRow, Serialize, JsonSchema)]
pub struct SoldOrder {
    #[serde(rename = "PEDF_ID")]
    pub id: i64,
    #[serde(rename = "PEDF_SERIE")]
    pub serie: String,
    #[serde(rename = "PEDF_EMP_ID")]
    pub emp: i64,
    #[serde(rename = "PEDF_DTA_EMISSAO")]
    #[sqlx(try_from = "NaiveDate")]
    pub issued: Date,
    #[serde(rename = "PEDF_CLI_DESC")]
    pub customer_name: Option<String>,
    #[serde(rename = "PEDF_TOT_PROD", serialize_with = "money_out")]
    #[schemars(with = "Money")]
    pub products: Decimal,
    #[serde(rename = "PEDF_TOT_SERV", serialize_with = "money_out")]
    #[schemars(with = "Money")]
    pub services: Decimal,
    #[serde(rename = "PEDF_VLR_DESC", serialize_with = "money_out")]
    #[schemars(with = "Money")]
    pub discounts: Decimal,
    #[serde(rename = "PEDF_VLR_TOTAL", serialize_with = "money_out")]
    #[schemars(with = "Money")]
    pub total: Decimal,
}

impl Sold for SoldOrder {
    const SQL: &'static str = "SELECT pedf_id AS id, pedf_serie AS serie, pedf_emp_id AS emp, pedf_dta_emissao AS issued,
            pedf_cli_desc AS customer_name, pedf_tot_prod AS products, pedf_tot_serv AS services,
            pedf_vlr_desc AS discounts, pedf_vlr_total AS total
         FROM orders.pedido WHERE client_id = $1 AND pedf_emp_id = $2 AND pedf_cli_id = $3 AND pedf_situacao = 'F'
         ORDER BY pedf_dta_emissao DESC, pedf_id DESC";
}

/// A product line of an invoiced order of the customer.
#[derive(sqlx::FromRow, Serialize, JsonSchema)]
pub struct SoldProduct {
    #[serde(rename = "PEDF_ID")]
    pub id: i64,
    #[serde(rename = "PEDF_SERIE")]
    pub serie: String,
    #[serde(rename = "PEDF_DTA_EMISSAO")]
    #[sqlx(try_from = "NaiveDate")]
    pub issued: Date,
    #[serde(rename = "PEDI_PEDF_ITEM")]
    pub item: i64,
    #[serde(rename = "PEDI_PROD_ID")]
    pub product: i64,
    #[serde(rename = "PEDI_DESCRICAO")]
    pub description: Option<String>,
    #[serde(rename = "PEDI_QTDE")]
    #[sqlx(try_from = "Decimal")]
    pub qty: Dec,
    #[serde(rename = "PEDI_VLR_UNITARIO")]
    #[sqlx(try_from = "Decimal")]
    pub unit: Dec,
    #[serde(rename = "PEDI_VLR_TOTAL", serialize_with = "money_out")]
    #[schemars(with = "Money")]
    pub total: Decimal,
}

impl Sold for SoldProduct {
    const SQL: &'static str = "SELECT p.pedf_id AS id, p.pedf_serie AS serie, p.pedf_dta_emissao AS issued,
            i.pedi_pedf_item AS item, i.pedi_prod_id AS product, i.pedi_descricao AS description,
            i.pedi_qtde AS qty, i.pedi_vlr_unitario AS unit, i.pedi_vlr_total AS total
         FROM orders.pedido p JOIN orders.pedidoproduto i ON i.client_id = p.client_id
            AND i.pedi_pedf_emp_id = p.pedf_emp_id AND i.pedi_pedf_id = p.pedf_id AND i.pedi_pedf_serie_id = p.pedf_serie
         WHERE p.client_id = $1 AND p.pedf_emp_id = $2 AND p.pedf_cli_id = $3 AND p.pedf_situacao = 'F'
         ORDER BY p.pedf_dta_emissao DESC, p.pedf_id DESC, i.pedi_pedf_item";
}

/// A service line of an invoiced order of the customer.
#[derive(sqlx::FromRow, Serialize, JsonSchema)]
pub struct SoldService {
    #[serde(rename = "PEDF_ID")]
    pub id: i64,
    #[serde(rename = "PEDF_SERIE")]
    pub serie: String,
    #[serde(rename = "PEDF_DTA_EMISSAO")]
    #[sqlx(try_from = "NaiveDate")]
    pub issued: Date,
    #[serde(rename = "PFOS_ID")]
    pub item: i64,
    #[serde(rename = "PFOS_SERV_ID")]
    pub service: i64,
    #[serde(rename = "PFOS_DESCRICAO")]
    pub description: Option<String>,
    #[serde(rename = "PFOS_QTDE")]
    #[sqlx(try_from = "Decimal")]
    pub qty: Dec,
    #[serde(rename = "PFOS_VLR_UNIT")]
    #[sqlx(try_from = "Decimal")]
    pub unit: Dec,
    #[serde(rename = "PFOS_VLR_SERV", serialize_with = "money_out")]
    #[schemars(with = "Money")]
    pub total: Decimal,
}

impl Sold for SoldService {
    const SQL: &'static str = "SELECT p.pedf_id AS id, p.pedf_serie AS serie, p.pedf_dta_emissao AS issued,
            s.pfos_id AS item, s.pfos_serv_id AS service, s.pfos_descricao AS description,
            s.pfos_qtde AS qty, s.pfos_vlr_unit AS unit, s.pfos_vlr_serv AS total
         FROM orders.pedido p JOIN orders.pedidoservico s ON s.client_id = p.client_id
            AND s.pfos_pedf_emp_id = p.pedf_emp_id AND s.pfos_pedf_id = p.pedf_id AND s.pfos_pedf_serie = p.pedf_serie
         WHERE p.client_id = $1 AND p.pedf_emp_id = $2 AND p.pedf_cli_id = $3 AND p.pedf_situacao = 'F'
         ORDER BY p.pedf_dta_emissao DESC, p.pedf_id DESC, s.pfos_id";
}

/// The customer's invoiced orders, or their product or service lines.
struct CustomerSales<T>(PhantomData<fn() -> T>);

impl<T> CustomerSales<T> {
    fn new() -> Self {
        CustomerSales(PhantomData)
    }
}

#[async_trait]
impl<T: Sold> Operation for CustomerSales<T> {
    type In = CustomerSalesIn;
    type Out = Vec<T>;
    async fn run(&self, cx: &mut Ctx<'_>, i: CustomerSalesIn) -> Result<Vec<T>> {
        let emp = cx.emp()?;
        Ok(sqlx::query_as(T::SQL)
            .bind(cx.client())
            .bind(emp)
            .bind(i.customer)
            .fetch_all(&mut **cx.tx)
            .await?)
    }
}

/// `GET /promocao/value/{prodId}/{qty}`: the product and the quantity (`1,5` or
/// `1.5`).
#[derive(Deserialize, JsonSchema)]
pub struct PromotionValueIn {
    #[serde(rename = "prodId")]
    pub product: i64,
    pub qty: Dec,
}

/// The promotion that prices a quantity.
#[derive(sqlx::FromRow)]
struct Promotion {
    id: i64,
    description: String,
    unit: Option<Decimal>,
    discount: Option<Decimal>,
}

/// The unit price of a product for a quantity, today.
#[derive(Serialize, JsonSchema)]
pub struct PromotionPrice {
    #[serde(rename = "PROD_ID")]
    pub product: i64,
    #[serde(rename = "QTDE")]
    pub qty: Dec,
    #[serde(rename = "VALOR_UNITARIO")]
    pub unit: Dec,
    #[serde(rename = "VALOR_TOTAL")]
    pub total: Money,
    /// The promotion that gave the price; null for the product's own.
    #[serde(rename = "PROM_ID")]
    pub promotion: Option<i64>,
    #[serde(rename = "PROM_DESCRICAO")]
    pub promotion_name: Option<String>,
}

struct PromotionValue;

#[async_trait]
impl Operation for PromotionValue {
    type In = PromotionValueIn;
    type Out = PromotionPrice;
    async fn run(&self, cx: &mut Ctx<'_>, i: PromotionValueIn) -> Result<PromotionPrice> {
        let emp = cx.emp()?;
        let client = cx.client();
        let (prod, qty) = (i.product, i.qty.get());
        if qty <= Decimal::ZERO {
            return Err(Error::validation("A quantidade deve ser maior que zero."));
        }
        let base = crate::copies::CatalogItems
            .item(cx.tx, LineKind::Product, client, emp, prod)
            .await?
            .and_then(|i| i.price)
            .unwrap_or_default();
        let promo: Option<Promotion> = sqlx::query_as(
            "SELECT prom_id AS id, prom_descricao AS description, prom_vlr_unit AS unit, prom_perc_desc AS discount
             FROM orders.promocao
             WHERE client_id = $1 AND prom_emp_id = $2 AND prom_prod_id = $3 AND prom_situacao = 1
               AND prom_qtde_min <= $4 AND current_date BETWEEN prom_dta_ini AND prom_dta_fim
             ORDER BY prom_qtde_min DESC, prom_id DESC LIMIT 1",
        )
        .bind(client)
        .bind(emp)
        .bind(prod)
        .bind(qty)
        .fetch_optional(&mut **cx.tx)
        .await?;
        let (value, promotion) = match promo {
            Some(p @ Promotion { unit: Some(unit), .. }) => (unit, Some(p)),
            Some(p @ Promotion { unit: None, discount: Some(perc), .. }) => (
                (base * (Decimal::ONE_HUNDRED - perc) / Decimal::ONE_HUNDRED).round_dp(4),
                Some(p),
            ),
            _ => (base, None),
        };
        Ok(PromotionPrice {
            product: prod,
            qty: Dec(qty),
            unit: Dec(value),
            total: Money(arithmetic::money(value * qty)),
            promotion: promotion.as_ref().map(|p| p.id),
            promotion_name: promotion.map(|p| p.description),
        })
    }
}
