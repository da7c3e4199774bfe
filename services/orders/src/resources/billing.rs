//! Billing orders (`pedido`, screen /pedidos) keyed by id, company and serie, with
//! product lines (`pedidoproduto`) and service lines (`pedidoservico`) keyed by id,
//! company, serie and item — one document of the engine (totals, the open status,
//! the creating user, duplication); promotions (`promocao`).
//!
//! Calls beyond the generic ones:
//! - `PUT /pedidogenerator/{id}/{emp}/{serie}`: invoices the order (A -> F) once, in
//!   the transaction that writes `erp.orders.pedido.faturado` to the outbox
//!   (`OrdersService.InvoiceOrder`), after finance said the customer's credit
//!   allows it (`crate::credit`; a release is recorded in PEDF_LIBERACAO_*).
//! - `POST /pedidoduplicar/{id}/{emp}/{serie}/{userId}`: a new open order with the
//!   same customer and lines (`OrdersService.Duplicate`).
//! - `POST /clientesvendas/{cliId}/{cliEmp}` (+ `/produtos/`, `/servicos/`): the
//!   customer's invoiced orders and their lines.
//! - `GET /promocao/value/{prodId}/{qty}`: the unit price for a quantity today.

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::document::{ItemSource, LineKind};
use erp_platform::resource::{
    params, ActionHandler, ActionPerm, Button, Call, DbType, Document, Field, Kind, Lines,
    Resource, Role, Total,
};
use erp_platform::{Error, Result};
use prost::Message as _;
use rust_decimal::Decimal;
use serde_json::{json, Value};

use super::customer::CustomerCopy;
use crate::SCHEMA;

pub const ALREADY_INVOICED: &str = "Pedido já faturado.";
pub const ISSUED: &str = "Pedido já faturado não pode ser alterado.";
pub const MISSING: &str = "Pedido não encontrado.";
pub const EMPTY_ORDER: &str = "Pedido sem itens não pode ser faturado.";

/// The billing order and its lines, as one document.
pub fn document() -> std::result::Result<Vec<Resource>, String> {
    Document::new(pedido())
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

pub fn all() -> std::result::Result<Vec<Resource>, String> {
    let mut out = document()?;
    out.push(promocao());
    Ok(out)
}

fn pedido() -> Resource {
    Resource::new("pedido", "Pedidos de Venda", SCHEMA, "pedido", "pedidos")
        .screen("/pedidos")
        .key(&["PEDF_ID", "PEDF_SERIE"])
        .seq_key_on("PEDF_ID")
        .company("PEDF_EMP_ID")
        .label("PEDF_CLI_DESC")
        .label_len(20)
        .order("PEDF_ID DESC")
        .hooks(Arc::new(CustomerCopy { customer: "PEDF_CLI_ID", name: "PEDF_CLI_DESC", city: Some("PEDF_CLI_CIDADE") }))
        .sample(json!({"PEDF_SERIE": "1", "PEDF_CLI_ID": 1, "PEDF_DTA_EMISSAO": "2026-11-22", "PEDF_OBS": "Entrega pela manhã"}))
        .transition("PUT", "/pedidogenerator/{PEDF_ID}/{emp}/{PEDF_SERIE}", "faturar", ActionPerm::Update, "Faturar o pedido (uma vez)")
        .button(Button::new("Faturar").primary().open_when(&["A"]).confirm(
            "Faturar pedido",
            "Deseja faturar o pedido {PEDF_ID}? Após faturado, o pedido não poderá ser alterado.",
            "Faturar",
        ))
        .transition("POST", "/pedidoduplicar/{PEDF_ID}/{emp}/{PEDF_SERIE}/{userId}", "duplicar", ActionPerm::Create, "Duplicar o pedido")
        .button(Button::new("Duplicar").opens("pedido"))
        .action("POST", "/clientesvendas/{cliId}/{emp}", "clientesvendas", ActionPerm::View, "Vendas faturadas do cliente", Arc::new(CustomerSales(Sales::Orders)))
        .action("POST", "/clientesvendas/produtos/{cliId}/{emp}", "clientesvendasprodutos", ActionPerm::View, "Produtos vendidos ao cliente", Arc::new(CustomerSales(Sales::Products)))
        .action("POST", "/clientesvendas/servicos/{cliId}/{emp}", "clientesvendasservicos", ActionPerm::View, "Serviços vendidos ao cliente", Arc::new(CustomerSales(Sales::Services)))
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
        ])
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
        .action("GET", "/promocao/value/{prodId}/{qty}", "valor", ActionPerm::View, "Preço unitário do produto para a quantidade, hoje", Arc::new(PromotionValue))
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

/// An open order, locked, read with its lines and its totals recomputed: what
/// invoicing writes once the credit check let it through.
pub struct OpenOrder {
    emp: i64,
    id: i64,
    serie: String,
    customer: i64,
    customer_name: Option<String>,
    issued: chrono::NaiveDate,
    condition: Option<i64>,
    method: Option<i64>,
    /// (item, product, quantity, location)
    stock_lines: Vec<(i64, i64, Decimal, Option<i64>)>,
    /// The sale lines of the invoice fact (products, then services).
    sale_lines: Vec<erp_proto::orders::v1::SaleLine>,
    /// The surcharge and freight of the product lines that have any.
    line_charges: Vec<erp_proto::orders::v1::LineCharges>,
    totals: erp_platform::resource::document::arithmetic::Totals,
}

impl OpenOrder {
    pub fn customer(&self) -> i64 {
        self.customer
    }

    /// The total the order will be invoiced at.
    pub fn total(&self) -> Decimal {
        erp_platform::resource::document::arithmetic::money(self.totals.total)
    }
}

/// Invoices an order without asking for the customer's credit (the typed
/// `OrdersService` checks it between `open_order` and `invoice_open`).
pub async fn invoice(
    tx: &mut Tx,
    caller: &Caller,
    emp: i64,
    id: i64,
    serie: &str,
) -> Result<erp_proto::orders::v1::InvoiceReply> {
    let order = open_order(tx, caller, emp, id, serie).await?;
    invoice_open(tx, caller, order, None).await
}

/// Locks an open order and reads it for invoicing: the state change happens once
/// (the row is locked and must be open), the totals are recomputed from the lines.
/// The header is read and locked once, each kind of line read once.
pub async fn open_order(
    tx: &mut Tx,
    caller: &Caller,
    emp: i64,
    id: i64,
    serie: &str,
) -> Result<OpenOrder> {
    let client = caller.client_id;
    type Head = (
        String,
        i64,
        Option<String>,
        chrono::NaiveDate,
        Option<i64>,
        Option<i64>,
    );
    let head: Option<Head> = sqlx::query_as(
        "SELECT pedf_situacao, pedf_cli_id, pedf_cli_desc, pedf_dta_emissao, pedf_cndp_id, pedf_frmp_id FROM orders.pedido
         WHERE client_id = $1 AND pedf_emp_id = $2 AND pedf_id = $3 AND pedf_serie = $4 FOR UPDATE",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(serie)
    .fetch_optional(&mut **tx)
    .await?;
    let (status, customer, customer_name, issued, condition, method) =
        head.ok_or_else(|| Error::NotFound(MISSING.into()))?;
    if status != "A" {
        return Err(Error::Conflict(ALREADY_INVOICED.into()));
    }
    type ProductLine = (
        i64,
        i64,
        Decimal,
        Decimal,
        Decimal,
        Decimal,
        Decimal,
        Option<i64>,
    );
    let products: Vec<ProductLine> = sqlx::query_as(
        "SELECT pedi_pedf_item, pedi_prod_id, pedi_qtde, pedi_vlr_unitario, coalesce(pedi_vlr_desconto, 0),
                coalesce(pedi_vlr_acrecimo, 0), coalesce(pedi_vlr_frete, 0), pedi_loca_id
         FROM orders.pedidoproduto
         WHERE client_id = $1 AND pedi_pedf_emp_id = $2 AND pedi_pedf_id = $3 AND pedi_pedf_serie_id = $4
         ORDER BY pedi_pedf_item",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(serie)
    .fetch_all(&mut **tx)
    .await?;
    let services: Vec<(Decimal, Decimal, i64, i64)> = sqlx::query_as(
        "SELECT pfos_qtde, pfos_vlr_unit, pfos_id, pfos_serv_id FROM orders.pedidoservico
         WHERE client_id = $1 AND pfos_pedf_emp_id = $2 AND pfos_pedf_id = $3 AND pfos_pedf_serie = $4
         ORDER BY pfos_id",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(serie)
    .fetch_all(&mut **tx)
    .await?;
    if products.is_empty() && services.is_empty() {
        return Err(Error::validation(EMPTY_ORDER));
    }
    let product_lines: Vec<erp_platform::resource::document::arithmetic::Line> = products
        .iter()
        .map(|p| erp_platform::resource::document::arithmetic::Line {
            qty: p.2,
            unit: p.3,
            discount: p.4,
            surcharge: p.5,
            freight: p.6,
        })
        .collect();
    let service_lines: Vec<erp_platform::resource::document::arithmetic::Line> = services
        .iter()
        .map(|(q, u, _, _)| erp_platform::resource::document::arithmetic::Line::new(*q, *u))
        .collect();
    let sale =
        |kind: &str, item: i64, id: i64, l: &erp_platform::resource::document::arithmetic::Line| {
            erp_proto::orders::v1::SaleLine {
                kind: kind.into(),
                item,
                item_id: id,
                quantity: l.qty.normalize().to_string(),
                unit_price: l.unit.normalize().to_string(),
                discount: l.discount.normalize().to_string(),
                total: l.net().to_string(),
            }
        };
    let sale_lines = products
        .iter()
        .zip(&product_lines)
        .map(|(p, l)| sale("P", p.0, p.1, l))
        .chain(
            services
                .iter()
                .zip(&service_lines)
                .map(|(s, l)| sale("S", s.2, s.3, l)),
        )
        .collect();
    let line_charges = products
        .iter()
        .zip(&product_lines)
        .filter(|(_, l)| !l.surcharge.is_zero() || !l.freight.is_zero())
        .map(|(p, l)| erp_proto::orders::v1::LineCharges {
            kind: "P".into(),
            item: p.0,
            surcharge: l.surcharge.normalize().to_string(),
            freight: l.freight.normalize().to_string(),
        })
        .collect();
    let totals = erp_platform::resource::document::arithmetic::document(
        &product_lines,
        &service_lines,
        Decimal::ZERO,
        Decimal::ZERO,
    );
    Ok(OpenOrder {
        emp,
        id,
        serie: serie.to_string(),
        customer,
        customer_name,
        issued,
        condition,
        method,
        stock_lines: products.iter().map(|p| (p.0, p.1, p.2, p.7)).collect(),
        sale_lines,
        line_charges,
        totals,
    })
}

/// Invoices an order `open_order` locked: the header is written once (with the
/// credit release, when there was one) and the fact goes to the outbox in the same
/// transaction.
pub async fn invoice_open(
    tx: &mut Tx,
    caller: &Caller,
    order: OpenOrder,
    release: Option<&crate::credit::Release>,
) -> Result<erp_proto::orders::v1::InvoiceReply> {
    let client = caller.client_id;
    let OpenOrder { emp, id, serie, totals: t, .. } = &order;
    let (emp, id) = (*emp, *id);
    sqlx::query(
        "UPDATE orders.pedido SET pedf_tot_prod = $5, pedf_tot_serv = $6, pedf_vlr_acre = $7, pedf_vlr_frete = $8,
             pedf_vlr_desc = $9, pedf_vlr_total = $10, pedf_situacao = 'F', pedf_dta_faturamento = now(),
             pedf_liberacao_usr_id = $11, pedf_liberacao_dta = CASE WHEN $11::bigint IS NULL THEN NULL ELSE now() END,
             pedf_liberacao_obs = $12
         WHERE client_id = $1 AND pedf_emp_id = $2 AND pedf_id = $3 AND pedf_serie = $4",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(serie)
    .bind(t.products)
    .bind(t.services)
    .bind(t.surcharge)
    .bind(t.freight)
    .bind(t.discount)
    .bind(t.total)
    .bind(release.map(|r| r.user_id))
    .bind(release.map(|r| r.note.as_str()))
    .execute(&mut **tx)
    .await?;
    let event = erp_proto::orders::v1::PedidoFaturado {
        client_id: client,
        emp_id: emp,
        pedido_id: id,
        serie: serie.clone(),
        customer_id: order.customer,
        customer_name: order.customer_name.clone().unwrap_or_default(),
        total: t.total.to_string(),
        products_total: t.products.to_string(),
        services_total: t.services.to_string(),
        issued_on: order.issued.format("%Y-%m-%d").to_string(),
        user_id: caller.user_id,
        lines: order
            .stock_lines
            .iter()
            .map(
                |(item, product, quantity, location)| erp_proto::orders::v1::StockLine {
                    product_id: *product,
                    product_emp_id: emp,
                    quantity: quantity.normalize().to_string(),
                    item: *item,
                    location_id: location.unwrap_or(0),
                },
            )
            .collect(),
        payment_condition_id: order.condition.unwrap_or(0),
        payment_method_id: order.method.unwrap_or(0),
        sale_lines: order.sale_lines.clone(),
        line_charges: order.line_charges.clone(),
    };
    erp_platform::bus::outbox_insert(
        tx,
        SCHEMA,
        erp_proto::subjects::PEDIDO_FATURADO,
        client,
        &event.encode_to_vec(),
    )
    .await?;
    Ok(erp_proto::orders::v1::InvoiceReply {
        emp,
        id,
        serie: serie.clone(),
        status: "F".into(),
        total: order.total().to_string(),
        message: "Pedido faturado com sucesso.".into(),
    })
}

enum Sales {
    Orders,
    Products,
    Services,
}

struct CustomerSales(Sales);

#[async_trait]
impl ActionHandler for CustomerSales {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { caller, emp, params: p, .. } = call;
        let emp = params::company(emp)?;
        let cli = params::id_param(p, "cliId")?;
        let sql = match self.0 {
            Sales::Orders => {
                "SELECT coalesce(jsonb_agg(jsonb_build_object(
                    'PEDF_ID', pedf_id, 'PEDF_SERIE', pedf_serie, 'PEDF_EMP_ID', pedf_emp_id,
                    'PEDF_DTA_EMISSAO', to_char(pedf_dta_emissao, 'YYYY-MM-DD'), 'PEDF_CLI_DESC', pedf_cli_desc,
                    'PEDF_TOT_PROD', pedf_tot_prod::text, 'PEDF_TOT_SERV', pedf_tot_serv::text,
                    'PEDF_VLR_DESC', pedf_vlr_desc::text, 'PEDF_VLR_TOTAL', pedf_vlr_total::text)
                    ORDER BY pedf_dta_emissao DESC, pedf_id DESC), '[]'::jsonb)
                 FROM orders.pedido WHERE client_id = $1 AND pedf_emp_id = $2 AND pedf_cli_id = $3 AND pedf_situacao = 'F'"
            }
            Sales::Products => {
                "SELECT coalesce(jsonb_agg(jsonb_build_object(
                    'PEDF_ID', p.pedf_id, 'PEDF_SERIE', p.pedf_serie, 'PEDF_DTA_EMISSAO', to_char(p.pedf_dta_emissao, 'YYYY-MM-DD'),
                    'PEDI_PEDF_ITEM', i.pedi_pedf_item, 'PEDI_PROD_ID', i.pedi_prod_id, 'PEDI_DESCRICAO', i.pedi_descricao,
                    'PEDI_QTDE', i.pedi_qtde::text, 'PEDI_VLR_UNITARIO', i.pedi_vlr_unitario::text, 'PEDI_VLR_TOTAL', i.pedi_vlr_total::text)
                    ORDER BY p.pedf_dta_emissao DESC, p.pedf_id DESC, i.pedi_pedf_item), '[]'::jsonb)
                 FROM orders.pedido p JOIN orders.pedidoproduto i ON i.client_id = p.client_id
                    AND i.pedi_pedf_emp_id = p.pedf_emp_id AND i.pedi_pedf_id = p.pedf_id AND i.pedi_pedf_serie_id = p.pedf_serie
                 WHERE p.client_id = $1 AND p.pedf_emp_id = $2 AND p.pedf_cli_id = $3 AND p.pedf_situacao = 'F'"
            }
            Sales::Services => {
                "SELECT coalesce(jsonb_agg(jsonb_build_object(
                    'PEDF_ID', p.pedf_id, 'PEDF_SERIE', p.pedf_serie, 'PEDF_DTA_EMISSAO', to_char(p.pedf_dta_emissao, 'YYYY-MM-DD'),
                    'PFOS_ID', s.pfos_id, 'PFOS_SERV_ID', s.pfos_serv_id, 'PFOS_DESCRICAO', s.pfos_descricao,
                    'PFOS_QTDE', s.pfos_qtde::text, 'PFOS_VLR_UNIT', s.pfos_vlr_unit::text, 'PFOS_VLR_SERV', s.pfos_vlr_serv::text)
                    ORDER BY p.pedf_dta_emissao DESC, p.pedf_id DESC, s.pfos_id), '[]'::jsonb)
                 FROM orders.pedido p JOIN orders.pedidoservico s ON s.client_id = p.client_id
                    AND s.pfos_pedf_emp_id = p.pedf_emp_id AND s.pfos_pedf_id = p.pedf_id AND s.pfos_pedf_serie = p.pedf_serie
                 WHERE p.client_id = $1 AND p.pedf_emp_id = $2 AND p.pedf_cli_id = $3 AND p.pedf_situacao = 'F'"
            }
        };
        let rows: Value = sqlx::query_scalar(sql)
            .bind(caller.client_id)
            .bind(emp)
            .bind(cli)
            .fetch_one(&mut **tx)
            .await?;
        Ok(rows)
    }
}

struct PromotionValue;

#[async_trait]
impl ActionHandler for PromotionValue {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { caller, emp, params: p, .. } = call;
        let emp = emp.unwrap_or(caller.emp_id);
        let prod = params::id_param(p, "prodId")?;
        let qty = params::dec(&Value::String(params::param(p, "qty")?.replace(',', ".")))?;
        if qty <= Decimal::ZERO {
            return Err(Error::validation("A quantidade deve ser maior que zero."));
        }
        let base = crate::copies::CatalogItems
            .item(tx, LineKind::Product, caller.client_id, emp, prod)
            .await?
            .and_then(|i| i.price)
            .unwrap_or_default();
        let promo: Option<(i64, String, Option<Decimal>, Option<Decimal>)> = sqlx::query_as(
            "SELECT prom_id, prom_descricao, prom_vlr_unit, prom_perc_desc FROM orders.promocao
             WHERE client_id = $1 AND prom_emp_id = $2 AND prom_prod_id = $3 AND prom_situacao = 1
               AND prom_qtde_min <= $4 AND current_date BETWEEN prom_dta_ini AND prom_dta_fim
             ORDER BY prom_qtde_min DESC, prom_id DESC LIMIT 1",
        )
        .bind(caller.client_id)
        .bind(emp)
        .bind(prod)
        .bind(qty)
        .fetch_optional(&mut **tx)
        .await?;
        let (value, prom) = match promo {
            Some((id, desc, Some(unit), _)) => (unit, Some((id, desc))),
            Some((id, desc, None, Some(perc))) => (
                (base * (Decimal::ONE_HUNDRED - perc) / Decimal::ONE_HUNDRED).round_dp(4),
                Some((id, desc)),
            ),
            _ => (base, None),
        };
        Ok(json!({
            "PROD_ID": prod,
            "QTDE": qty.normalize().to_string(),
            "VALOR_UNITARIO": value.normalize().to_string(),
            "VALOR_TOTAL": erp_platform::resource::document::arithmetic::money(value * qty).to_string(),
            "PROM_ID": prom.as_ref().map(|p| p.0),
            "PROM_DESCRICAO": prom.map(|p| p.1),
        }))
    }
}
