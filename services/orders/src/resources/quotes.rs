//! Quotes (`orcamento`, screen /orcamentos) with service lines (`orcamentoservico`)
//! and product lines (`orcamentoproduto`) — one document of the engine; totals
//! ORCA_VLR_OS (services), ORCA_VLR_PECAS (parts) and ORCA_VLR_TOT.
//!
//! Calls beyond the generic ones:
//! - `POST /orcamento/duplicar/{id}/{emp}/{user}`: a new open quote with the lines
//!   (`transitions::Duplicate`).
//! - `POST /orcamento/geraos/{id}/{emp}/{user}`, `POST
//!   /orcamento/gerapedidofat/{id}/{emp}/{serie}/{model}/{type}/{user}`, `POST
//!   /orcamento/gerarequisicao/{id}/{emp}/{user}`: the quote becomes a service
//!   order, a billing order or a stock requisition (`transitions::Convert`, see
//!   `conversions`).
//! - `POST /orcamento/gerapdv/...` and `/orcamento/gerapedidofab/...`: the point of
//!   sale and manufacturing do not exist yet; they answer so.
//! - `GET /orcamento/pdf/{ORCA_ID}/{emp}`: the quote's PDF, `orcamento_{id}.pdf`
//!   (`printed::QuotePdf`).
//! - `PUT /orcamentoproduto/agrupar/{ORCP_ORCA_ID}/{emp}/{ORCP_PROD_ID}`: merges the
//!   quote's lines of one product into the first (the engine's merge).
//!
//! A converted quote (situation C) refuses changes.

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::resource::call::{Ctx, Done, Operation};
use erp_platform::resource::document::ops;
use erp_platform::resource::{
    ActionPerm, Button, DbType, Document, Field, Kind, Lines, Resource, Role, Source, Total,
};
use erp_platform::{Error, Result};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::customer::{customer_body, CustomerCopy};
use super::printed::QuotePdf;
use super::transitions::{Convert, ConvertTo, Duplicate, QuoteKey};
use super::Nothing;
use crate::SCHEMA;

pub const ISSUED: &str = "Orçamento já convertido não pode ser alterado.";
pub const MISSING: &str = "Orçamento não encontrado.";
pub const NOT_AVAILABLE_PDV: &str =
    "Conversão para PDV não disponível: o ponto de venda ainda não faz parte deste sistema.";
pub const NOT_AVAILABLE_FAB: &str = "Conversão para pedido de fabricação não disponível: a produção ainda não faz parte deste sistema.";

/// The quote and its lines, as one document.
pub fn all() -> std::result::Result<Vec<Resource>, String> {
    Document::new(orcamento())
        .status("ORCA_SITUACAO", &["A"], ISSUED)
        .tones(&[("A", "open"), ("C", "done")])
        .missing(MISSING)
        .date("ORCA_DTA_EMIS")
        .items(Arc::new(crate::copies::CatalogItems))
        .line(
            orcamentoproduto(),
            Lines::products(&["ORCP_ORCA_ID"]).editable(&[Role::Quantity, Role::Discount]),
        )
        .line(
            orcamentoservico(),
            Lines::services(&["ORCI_ORCA_ID"]).editable(&[Role::Quantity, Role::Discount]),
        )
        .build()
}

customer_body!(QuoteCustomer, "ORCA_CLI_ID", "ORCA_CLI_DESC");

fn orcamento() -> Resource {
    Resource::new("orcamento", "Orçamentos", SCHEMA, "orcamento", "orcamentos")
        .screen("/orcamentos")
        .key(&["ORCA_ID"])
        .company("ORCA_EMP_ID")
        .label("ORCA_CLI_DESC")
        .order("ORCA_ID DESC")
        .record_hooks(CustomerCopy::<QuoteCustomer>::new())
        .sample(json!({"ORCA_CLI_ID": 1, "ORCA_DTA_EMIS": "2026-11-22", "ORCA_OBS": "Revisão completa"}))
        .call("POST", "/orcamento/gerapedidofat/{ORCA_ID}/{emp}/{serie}/{model}/{type}/{user}", "gerapedidofat", ActionPerm::Update, "Gerar pedido de venda do orçamento", Convert(ConvertTo::BillingOrder))
        .button(Button::new("Gerar Pedido").primary().open_when(&["A"]).opens("pedido")
            .param("serie", Source::Const("1".into()))
            .param("model", Source::Const("55".into()))
            .param("type", Source::Const("1".into())))
        .call("POST", "/orcamento/geraos/{ORCA_ID}/{emp}/{user}", "geraos", ActionPerm::Update, "Gerar ordem de serviço do orçamento", Convert(ConvertTo::ServiceOrder))
        .button(Button::new("Gerar OS").open_when(&["A"]).opens("ordemservico"))
        .call("POST", "/orcamento/gerarequisicao/{ORCA_ID}/{emp}/{user}", "gerarequisicao", ActionPerm::Update, "Gerar requisição de estoque do orçamento", Convert(ConvertTo::Requisition))
        .button(Button::new("Gerar Requisição").open_when(&["A"]).unless("ORCA_REQU_OK"))
        .call("POST", "/orcamento/duplicar/{ORCA_ID}/{emp}/{user}", "duplicar", ActionPerm::Create, "Duplicar o orçamento", Duplicate::<QuoteKey>::new())
        .button(Button::new("Duplicar").opens("orcamento"))
        .call("GET", "/orcamento/pdf/{ORCA_ID}/{emp}", "pdf", ActionPerm::View, "O PDF do orçamento", QuotePdf)
        .call("POST", "/orcamento/gerapdv/{ORCA_ID}/{emp}/{user}", "gerapdv", ActionPerm::Update, "Gerar venda no PDV (indisponível)", Unavailable(NOT_AVAILABLE_PDV))
        .call("POST", "/orcamento/gerapedidofab/{ORCA_ID}/{emp}/{user}", "gerapedidofab", ActionPerm::Update, "Gerar pedido de fabricação (indisponível)", Unavailable(NOT_AVAILABLE_FAB))
        .fields(vec![
            Field::id("ORCA_ID", "Número").list().width(2),
            Field::int("ORCA_EMP_ID", "Empresa"),
            Field::text("ORCA_SERIE", "Série").len(3).default(json!("ORC")).width(1),
            Field::reference("ORCA_CLI_ID", "Cliente", "clientes", Kind::Autocomplete).required().width(6),
            Field::text("ORCA_CLI_DESC", "Cliente").server().searchable().list(),
            Field::reference("ORCA_VEIC_ID", "Veículo", "veiculo", Kind::Autocomplete).width(3),
            Field::reference("ORCA_COLA_ID", "Vendedor", "colaborador", Kind::Autocomplete).width(3),
            Field::reference("ORCA_CNDP_ID", "Condição de Pagamento", "condicaopagamento", Kind::Combobox).width(3),
            Field::date("ORCA_DTA_EMIS", "Emissão").required().list(),
            Field::date("ORCA_DTA_SAIDA", "Saída"),
            Field::date("ORCA_VALIDADE", "Validade"),
            Field::textarea("ORCA_OBS", "Observações").len(2000),
            Field::money("ORCA_VLR_OS", "Total Serviços").total(Total::Services).width(2),
            Field::money("ORCA_VLR_PECAS", "Total Peças").total(Total::Products).width(2),
            Field::money("ORCA_VLR_ACRE", "Acréscimos").total(Total::Surcharges).width(2),
            Field::money("ORCA_VLR_DESC", "Descontos").total(Total::Discounts).width(2),
            Field::money("ORCA_VLR_TOT", "Total").total(Total::Grand).list().width(2),
            Field::options("ORCA_SITUACAO", "Situação", DbType::Text, &[("A", "Aberto"), ("C", "Convertido")]).read_only().list().width(2),
            Field::int("ORCA_ORDS_ID", "Ordem de Serviço").read_only(),
            Field::int("ORCA_PEDF_ID", "Pedido").read_only(),
            Field::text("ORCA_PEDF_SERIE", "Série do Pedido").read_only(),
            Field::boolean("ORCA_REQU_OK", "Requisição gerada").read_only(),
            Field::int("ORCA_USR_ID", "Usuário").role(Role::CreatedBy),
            Field::timestamp("ORCA_DTA_CAD", "Cadastro"),
        ])
}

fn orcamentoservico() -> Resource {
    Resource::new(
        "orcamentoservico",
        "Serviços do Orçamento",
        SCHEMA,
        "orcamentoservico",
        "orcamentos",
    )
    .key(&["ORCI_ORCA_ID", "ORCI_ID"])
    .seq_key()
    .company("ORCI_EMP_ID")
    .label("ORCI_DESCRICAO")
    .order("ORCI_ID")
    .list_path("/orcamentoservico/{ORCI_ORCA_ID}/{emp}")
    .sample(json!({"ORCI_ORCA_ID": 1, "ORCI_SERV_ID": 1, "ORCI_QTDE": "1", "ORCI_VLR_UNIT": "120"}))
    .fields(vec![
        Field::int("ORCI_ORCA_ID", "Orçamento").required(),
        Field::int("ORCI_EMP_ID", "Empresa"),
        Field::int("ORCI_ID", "Item").read_only().list().width(1),
        Field::reference("ORCI_SERV_ID", "Serviço", "servico", Kind::Autocomplete)
            .required()
            .list()
            .width(5)
            .role(Role::Item),
        Field::text("ORCI_DESCRICAO", "Descrição")
            .len(200)
            .searchable()
            .list()
            .role(Role::Description),
        Field::decimal("ORCI_QTDE", "Quantidade")
            .scale(4)
            .required()
            .min("0.0001")
            .list()
            .width(2)
            .role(Role::Quantity),
        Field::money("ORCI_VLR_UNIT", "Valor Unitário")
            .scale(4)
            .list()
            .width(2)
            .role(Role::UnitPrice),
        Field::money("ORCI_VLR_DESC", "Desconto")
            .width(2)
            .role(Role::Discount),
        Field::money("ORCI_VLR_TOTAL", "Total")
            .list()
            .width(2)
            .role(Role::LineTotal),
        Field::reference(
            "ORCI_COLA_ID",
            "Mecânico",
            "colaborador",
            Kind::Autocomplete,
        )
        .width(3),
    ])
}

fn orcamentoproduto() -> Resource {
    Resource::new(
        "orcamentoproduto",
        "Produtos do Orçamento",
        SCHEMA,
        "orcamentoproduto",
        "orcamentos",
    )
    .key(&["ORCP_ORCA_ID", "ORCP_ID"])
    .seq_key()
    .company("ORCP_EMP_ID")
    .label("ORCP_DESCRICAO")
    .order("ORCP_ID")
    .list_path("/orcamentoproduto/{ORCP_ORCA_ID}/{emp}")
    .sample(
        json!({"ORCP_ORCA_ID": 1, "ORCP_PROD_ID": 1, "ORCP_QTDE": "2", "ORCP_VLR_UNIT": "35.90"}),
    )
    .call(
        "PUT",
        "/orcamentoproduto/agrupar/{ORCP_ORCA_ID}/{emp}/{ORCP_PROD_ID}",
        "agrupar",
        ActionPerm::Update,
        "Agrupar as linhas de um produto",
        Group,
    )
    .fields(vec![
        Field::int("ORCP_ORCA_ID", "Orçamento").required(),
        Field::int("ORCP_EMP_ID", "Empresa"),
        Field::int("ORCP_ID", "Item").read_only().list().width(1),
        Field::reference("ORCP_PROD_ID", "Produto", "produtos", Kind::Autocomplete)
            .required()
            .list()
            .width(5)
            .role(Role::Item),
        Field::text("ORCP_DESCRICAO", "Descrição")
            .len(200)
            .searchable()
            .list()
            .role(Role::Description),
        Field::text("ORCP_UNIDADE", "Un.")
            .len(6)
            .list()
            .width(1)
            .role(Role::UnitName),
        Field::decimal("ORCP_QTDE", "Quantidade")
            .scale(4)
            .required()
            .min("0.0001")
            .list()
            .width(2)
            .role(Role::Quantity),
        Field::money("ORCP_VLR_UNIT", "Valor Unitário")
            .scale(4)
            .list()
            .width(2)
            .role(Role::UnitPrice),
        Field::money("ORCP_VLR_DESC", "Desconto")
            .width(2)
            .role(Role::Discount),
        Field::money("ORCP_VLR_TOTAL", "Total")
            .list()
            .width(2)
            .role(Role::LineTotal),
    ])
}

/// A call of an area the product does not have yet: it says so (it never answers
/// `Done`).
struct Unavailable(&'static str);

#[async_trait]
impl Operation for Unavailable {
    type In = Nothing;
    type Out = Done;
    async fn run(&self, _cx: &mut Ctx<'_>, _i: Nothing) -> Result<Done> {
        Err(Error::validation(self.0))
    }
}

/// `PUT /orcamentoproduto/agrupar/{ORCP_ORCA_ID}/{emp}/{ORCP_PROD_ID}`: the quote
/// and the product.
#[derive(Deserialize, JsonSchema)]
pub struct GroupIn {
    #[serde(rename = "ORCP_ORCA_ID")]
    pub quote: i64,
    #[serde(rename = "ORCP_PROD_ID")]
    pub product: i64,
}

/// What merging a quote's lines answers.
#[derive(Serialize, JsonSchema)]
pub struct Grouped {
    pub code: u16,
    pub msg: String,
    /// How many lines the product had (now one).
    #[serde(rename = "LINHAS_AGRUPADAS")]
    pub merged: usize,
}

/// Merges the quote's lines of one product into the first one (quantities and
/// discounts summed, the first line's price).
struct Group;

#[async_trait]
impl Operation for Group {
    type In = GroupIn;
    type Out = Grouped;
    async fn run(&self, cx: &mut Ctx<'_>, i: GroupIn) -> Result<Grouped> {
        let doc = cx
            .res
            .document
            .as_ref()
            .ok_or_else(|| Error::internal("orcamentoproduto is a line"))?;
        let emp = cx.emp()?;
        let (merged, _) = ops::merge(
            cx.tx,
            &doc.def,
            0,
            cx.caller,
            Some(emp),
            &[i.quote.to_string()],
            (i.product, "Produto não encontrado no orçamento."),
        )
        .await?;
        Ok(Grouped { code: 200, msg: "Itens agrupados.".into(), merged })
    }
}
