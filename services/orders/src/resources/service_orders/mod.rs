//! Service orders (`ordemservico`, screen /ordensdeservico) keyed by id and serie
//! (default `OS`) per company, with service lines (`ordemservicoservico`, ORDI_*),
//! product lines (`ordemservicoproduto`, ORDP_*), the sectors a service went through
//! (`ordemservicoservicosetor`), the order's readings
//! (`ordemservicoservicoleituras`, one row per order), its mechanics
//! (`ordemservicomecanico`, ORDM_*), optical prescriptions (`ordemservicooculista`,
//! ORDO_*) and images (`ordemservicoimagem`).
//!
//! Totals: ORDS_VLR_SERV (services, gross), ORDS_VLR_PECAS (parts, gross),
//! ORDS_VLR_ACRE (the lines' surcharges plus the document-level ORDS_ACRESCIMO),
//! ORDS_VLR_DESC (the lines' discounts) and ORDS_VLR_TOTAL; every change of a service
//! or product line recalculates them in the same transaction (the engine's document).
//!
//! Situation: A aberta, F finalizada, C cancelada; only an open order (and its
//! lines, sectors, readings, mechanics, prescriptions and images) accepts changes.
//! Once the stock was written off, the product lines cannot change and the order
//! can be neither cancelled nor deleted.
//!
//! Calls beyond the generic ones:
//! - `POST /ordemservicototalizacao/{ORDS_ID}/{emp}/{ORDS_SERIE}`: recalculates
//!   (when open) and answers the totals.
//! - `POST /ordemservicoacrescimo/{NROS}/{emp}/{SERIE}`: body `{"VALOR": "12.50"}` or
//!   `{"PERCENTUAL": "10"}` (of the lines' total: services + parts + line
//!   surcharges - discounts) sets ORDS_ACRESCIMO and answers the totals.
//! - `POST /ordemservicobaixarestoque` (body ORDS_ID, ORDS_EMP_ID, ORDS_SERIE): the
//!   parts leave stock once (`erp.orders.ordemservico.estoquebaixado`).
//! - `GET /ordemservico/consultakm/{vehicle}/{emp}/{odometer}`: the vehicle's
//!   highest odometer among its orders (cancelled ones aside) against the informed
//!   one (200 when the parameter is not a positive number).
//! - `PUT /ordemservico/finalizar/{ORDS_ID}/{emp}/{ORDS_SERIE}` (A -> F) and
//!   `PUT /ordemservico/cancelar/{ORDS_ID}/{emp}/{ORDS_SERIE}` (A -> C).
//! - `PUT /ordemservicoprodutoagrupar/{ORDP_ORDS_ID}/{emp}/{ORDP_SERIE}/{ORDP_PROD_ID}/{PROD_EMP_ID}`:
//!   merges the order's lines of one product into the first one.
//! - `PUT /ordemservico/uploads/{NROS}/{emp}/{SERIE}/{position}` (multipart: file,
//!   ORDS_COMP_DOC) keeps the stored file of a position (answers the replaced one
//!   as `anterior`, which the gateway deletes after the commit); `DELETE` the same
//!   path plus `/{image}` removes it, answers `{"arquivo": name}` and the gateway
//!   deletes the file.

use std::str::FromStr;
use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::call::input::Problem;
use erp_platform::resource::call::{Ctx, Dec, Operation, Row, Upload};
use erp_platform::resource::document::{ops, DocumentDef};
use erp_platform::resource::{
    query, ActionPerm, Button, DbType, Document, Field, Kind, Lines, Op, RecordHooks, Resource,
    Role, Source, Total,
};
use erp_platform::{Error, Result};
use prost::Message as _;
use rust_decimal::prelude::ToPrimitive;
use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{json, Value};

use super::customer::{copy_customer, customer_body};
use super::NoBody;
use crate::SCHEMA;

mod calls;
mod hooks;
mod images;

use calls::*;
pub use calls::{totals, write_off, OrderTotals, WrittenOff};
use hooks::*;
use images::*;

/// Default serie of a service order.
pub const SERIE: &str = "OS";
/// The odometer taken when the informed one is not a positive number.
pub const ODOMETER_FALLBACK: i64 = 200;
pub const ALREADY_WRITTEN_OFF: &str = "O estoque desta ordem de serviço já foi baixado.";
pub const NO_PRODUCTS: &str = "Ordem de serviço sem produtos: não há estoque a baixar.";
pub const PARTS_LOCKED: &str =
    "O estoque desta ordem de serviço já foi baixado: os produtos não podem ser alterados.";
pub const NOT_FOUND: &str = "Ordem de serviço não encontrada.";

const IMAGES: [&str; 4] = ["png", "jpeg", "bmp", "pdf"];

pub const ISSUED: &str = "Ordem de serviço finalizada ou cancelada não pode ser alterada.";

/// The service order with its service and product lines, and the rows that belong
/// to it (sectors, readings, mechanics, prescriptions, images), as one document.
pub fn all() -> std::result::Result<Vec<Resource>, String> {
    Document::new(ordemservico())
        .status("ORDS_SITUACAO", &["A"], ISSUED)
        .tones(&[("A", "open"), ("F", "done"), ("C", "cancelled")])
        .missing(NOT_FOUND)
        .date("ORDS_DTA_ENTRADA")
        .breadcrumbs(&["Início", "Ordem de Serviço"])
        .items(Arc::new(crate::copies::CatalogItems))
        .line(
            ordemservicoservico(),
            Lines::services(&["ORDI_ORDS_ID", "ORDI_SERIE"])
                .editable(&[Role::Quantity, Role::Discount]),
        )
        .line(
            ordemservicoproduto(),
            Lines::products(&["ORDP_ORDS_ID", "ORDP_SERIE"])
                .editable(&[Role::Quantity, Role::Discount])
                .locked_by("ORDS_ESTOQUE_BAIXADO", PARTS_LOCKED),
        )
        .child(ordemservicoservicosetor(), &["NROS", "SERIE"])
        .child(ordemservicoservicoleituras(), &["NROS", "SERIE"])
        .child(ordemservicomecanico(), &["ORDM_ORDS_ID", "ORDM_SERIE"])
        .child(ordemservicooculista(), &["ORDO_ORDS_ID", "ORDO_SERIE"])
        .child(ordemservicoimagem(), &["NROS", "SERIE"])
        .build()
}

/// The document a service order's register is part of.
pub(super) fn def_of(res: &Resource) -> Result<Arc<DocumentDef>> {
    res.document
        .as_ref()
        .map(|d| d.def.clone())
        .ok_or_else(|| Error::internal(format!("{} is not part of the service order", res.name)))
}

fn situation(name: &str) -> Field {
    Field::options(
        name,
        "Situação",
        DbType::Text,
        &[("A", "Aberta"), ("F", "Finalizada"), ("C", "Cancelada")],
    )
    .read_only()
    .list()
    .width(2)
}

fn ordemservico() -> Resource {
    Resource::new("ordemservico", "Ordens de Serviço", SCHEMA, "ordemservico", "ordensdeservico")
        .screen("/ordensdeservico")
        .key(&["ORDS_ID", "ORDS_SERIE"])
        .seq_key_on("ORDS_ID")
        .company("ORDS_EMP_ID")
        .label("ORDS_CLI_DESC")
        .order("ORDS_ID DESC")
        .record_hooks(OrderHooks)
        .sample(json!({"ORDS_CLI_ID": 1, "ORDS_VEIC_ID": 1, "ORDS_KM": 15000, "ORDS_DTA_ENTRADA": "2026-11-22", "ORDS_DEFEITO": "Barulho ao frear"}))
        .call("POST", "/ordemservicototalizacao/{ORDS_ID}/{emp}/{ORDS_SERIE}", "totalizacao", ActionPerm::Update, "Recalcular e mostrar os totais da ordem de serviço", Totalize)
        .button(Button::new("Totalizar"))
        .call("POST", "/ordemservicoacrescimo/{NROS}/{emp}/{SERIE}", "acrescimo", ActionPerm::Update, "Acréscimo da ordem de serviço (corpo: VALOR ou PERCENTUAL dos itens)", Surcharge)
        .button(Button::new("Acréscimo").open_when(&["A"]).dialog("surcharge", "Acréscimo da ordem de serviço")
            .param("NROS", Source::Field("ORDS_ID".into()))
            .param("SERIE", Source::Field("ORDS_SERIE".into())))
        .call("POST", "/ordemservicobaixarestoque", "baixarestoque", ActionPerm::Update, "Baixar o estoque das peças da ordem de serviço, uma vez (corpo: ORDS_ID, ORDS_EMP_ID, ORDS_SERIE)", WriteOff)
        .button(Button::new("Baixar Estoque").open_when(&["A", "F"]).unless("ORDS_ESTOQUE_BAIXADO")
            .confirm("Baixar estoque", "Deseja baixar do estoque os produtos desta ordem de serviço?", "Baixar")
            .body("ORDS_ID", Source::Field("ORDS_ID".into()))
            .body("ORDS_EMP_ID", Source::Field("ORDS_EMP_ID".into()))
            .body("ORDS_SERIE", Source::Field("ORDS_SERIE".into())))
        .call("GET", "/ordemservico/consultakm/{vehicle}/{emp}/{odometer}", "consultakm", ActionPerm::View, "Maior quilometragem anterior do veículo contra a informada", Odometer)
        .call("PUT", "/ordemservico/finalizar/{ORDS_ID}/{emp}/{ORDS_SERIE}", "finalizar", ActionPerm::Update, "Finalizar a ordem de serviço", Transition::Finish)
        .button(Button::new("Finalizar").primary().open_when(&["A"])
            .confirm("Finalizar ordem de serviço", "Deseja finalizar a ordem de serviço {ORDS_ID}? Depois de finalizada ela não poderá ser alterada.", "Finalizar"))
        .call("PUT", "/ordemservico/cancelar/{ORDS_ID}/{emp}/{ORDS_SERIE}", "cancelar", ActionPerm::Update, "Cancelar a ordem de serviço", Transition::Cancel)
        .button(Button::new("Cancelar OS").open_when(&["A"]).unless("ORDS_ESTOQUE_BAIXADO")
            .confirm("Cancelar ordem de serviço", "Deseja cancelar a ordem de serviço {ORDS_ID}?", "Cancelar OS"))
        .fields(vec![
            Field::int("ORDS_ID", "Número").read_only().list().width(2),
            Field::int("ORDS_EMP_ID", "Empresa"),
            Field::text("ORDS_SERIE", "Série").len(3).required().default(json!(SERIE)).list().width(1),
            Field::reference("ORDS_CLI_ID", "Cliente", "clientes", Kind::Autocomplete).required().width(6),
            Field::text("ORDS_CLI_DESC", "Cliente").server().searchable().list(),
            Field::text("ORDS_CLI_CIDADE", "Cidade").server().width(3),
            Field::reference("ORDS_VEIC_ID", "Veículo", "veiculo", Kind::Autocomplete).list().width(3),
            Field::reference("ORDS_EQPT_ID", "Equipamento", "equipamento", Kind::Autocomplete).width(3),
            Field::reference("ORDS_COLA_ID", "Responsável", "colaborador", Kind::Autocomplete).width(3),
            Field::int("ORDS_KM", "Km").min("0").width(2),
            Field::date("ORDS_DTA_ENTRADA", "Entrada").required().list(),
            Field::text("ORDS_HORA_ENTRADA", "Hora").len(8).width(2),
            Field::date("ORDS_DTA_PREVISAO", "Previsão"),
            Field::date("ORDS_DTA_SAIDA", "Saída").list(),
            Field::textarea("ORDS_DEFEITO", "Defeito Reclamado").len(2000).searchable(),
            Field::textarea("ORDS_DIAGNOSTICO", "Diagnóstico").len(2000),
            Field::textarea("ORDS_OBS", "Observações").len(2000),
            Field::money("ORDS_VLR_SERV", "Total Serviços").total(Total::Services).width(2),
            Field::money("ORDS_VLR_PECAS", "Total Peças").total(Total::Products).width(2),
            Field::money("ORDS_ACRESCIMO", "Acréscimo da Ordem").width(2).role(Role::ExtraSurcharge),
            Field::money("ORDS_VLR_ACRE", "Acréscimos").total(Total::Surcharges).width(2),
            Field::money("ORDS_VLR_DESC", "Descontos").total(Total::Discounts).width(2),
            Field::money("ORDS_VLR_TOTAL", "Total").total(Total::Grand).list().width(2),
            situation("ORDS_SITUACAO"),
            Field::boolean("ORDS_ESTOQUE_BAIXADO", "Estoque baixado").read_only(),
            Field::timestamp("ORDS_DTA_BAIXA", "Estoque baixado em"),
            Field::int("ORDS_ORCA_ID", "Orçamento").read_only(),
            Field::int("ORDS_USR_ID", "Usuário").role(Role::CreatedBy),
            Field::timestamp("ORDS_DTA_CAD", "Cadastro"),
        ])
}

fn ordemservicoservico() -> Resource {
    Resource::new(
        "ordemservicoservico",
        "Serviços da Ordem de Serviço",
        SCHEMA,
        "ordemservicoservico",
        "ordensdeservico",
    )
    .key(&["ORDI_ORDS_ID", "ORDI_SERIE", "ORDI_ID"])
    .seq_key()
    .company("ORDI_ORDS_EMP_ID")
    .label("ORDI_DESCRICAO")
    .order("ORDI_ID")
    .list_path("/ordemservicoservico/{ORDI_ORDS_ID}/{emp}/{ORDI_SERIE}")
    .sample(json!({"ORDI_ORDS_ID": 1, "ORDI_SERV_ID": 1, "ORDI_QTDE": "1", "ORDI_VLR_UNIT": "80"}))
    .fields(vec![
        Field::int("ORDI_ORDS_ID", "Ordem de Serviço").required(),
        Field::int("ORDI_ORDS_EMP_ID", "Empresa"),
        Field::text("ORDI_SERIE", "Série")
            .len(3)
            .required()
            .default(json!(SERIE)),
        Field::int("ORDI_ID", "Item").read_only().list().width(1),
        Field::reference("ORDI_SERV_ID", "Serviço", "servico", Kind::Autocomplete)
            .required()
            .list()
            .width(5)
            .role(Role::Item),
        Field::text("ORDI_DESCRICAO", "Descrição")
            .len(200)
            .searchable()
            .list()
            .role(Role::Description),
        Field::decimal("ORDI_QTDE", "Quantidade")
            .scale(4)
            .required()
            .min("0.0001")
            .list()
            .width(2)
            .role(Role::Quantity),
        Field::money("ORDI_VLR_UNIT", "Valor Unitário")
            .scale(4)
            .list()
            .width(2)
            .role(Role::UnitPrice),
        Field::money("ORDI_VLR_DESC", "Desconto")
            .width(2)
            .role(Role::Discount),
        Field::money("ORDI_VLR_ACRE", "Acréscimo")
            .width(2)
            .role(Role::Surcharge),
        Field::money("ORDI_VLR_TOTAL", "Total")
            .list()
            .width(2)
            .role(Role::LineTotal),
        Field::reference(
            "ORDI_COLA_ID",
            "Mecânico",
            "colaborador",
            Kind::Autocomplete,
        )
        .list()
        .width(3),
        Field::textarea("ORDI_OBS", "Observações").len(1000),
    ])
}

fn ordemservicoproduto() -> Resource {
    Resource::new("ordemservicoproduto", "Produtos da Ordem de Serviço", SCHEMA, "ordemservicoproduto", "ordensdeservico")
        .key(&["ORDP_ORDS_ID", "ORDP_SERIE", "ORDP_SEQ"])
        .seq_key()
        .company("ORDP_ORDS_EMP_ID")
        .label("ORDP_DESCRICAO")
        .order("ORDP_SEQ")
        .list_path("/ordemservicoproduto/{ORDP_ORDS_ID}/{emp}/{ORDP_SERIE}")
        .sample(json!({"ORDP_ORDS_ID": 1, "ORDP_PROD_ID": 1, "ORDP_QTDE": "2", "ORDP_VLR_UNIT": "35.90"}))
        .call("PUT", "/ordemservicoprodutoagrupar/{ORDP_ORDS_ID}/{emp}/{ORDP_SERIE}/{ORDP_PROD_ID}/{PROD_EMP_ID}", "agrupar", ActionPerm::Update, "Agrupar as linhas de um produto da ordem de serviço", Group)
        .fields(vec![
            Field::int("ORDP_ORDS_ID", "Ordem de Serviço").required(),
            Field::int("ORDP_ORDS_EMP_ID", "Empresa"),
            Field::text("ORDP_SERIE", "Série").len(3).required().default(json!(SERIE)),
            Field::int("ORDP_SEQ", "Item").read_only().list().width(1),
            Field::reference("ORDP_PROD_ID", "Produto", "produtos", Kind::Autocomplete).required().list().width(5).role(Role::Item),
            Field::text("ORDP_DESCRICAO", "Descrição").len(200).searchable().list().role(Role::Description),
            Field::text("ORDP_UNIDADE", "Un.").len(6).list().width(1).role(Role::UnitName),
            Field::decimal("ORDP_QTDE", "Quantidade").scale(4).required().min("0.0001").list().width(2).role(Role::Quantity),
            Field::money("ORDP_VLR_UNIT", "Valor Unitário").scale(4).list().width(2).role(Role::UnitPrice),
            Field::money("ORDP_VLR_DESC", "Desconto").width(2).role(Role::Discount),
            Field::money("ORDP_VLR_ACRE", "Acréscimo").width(2).role(Role::Surcharge),
            Field::money("ORDP_VLR_TOTAL", "Total").list().width(2).role(Role::LineTotal),
            Field::reference("ORDP_LOCA_ID", "Local de Estoque", "localestoque", Kind::Combobox).width(3),
        ])
}

fn ordemservicoservicosetor() -> Resource {
    Resource::new(
        "ordemservicoservicosetor",
        "Setores do Serviço da Ordem",
        SCHEMA,
        "ordemservicoservicosetor",
        "ordensdeservico",
    )
    .key(&["NROS", "SERIE", "ID_SERV", "ID_SETOR"])
    .natural_key()
    .company("EMP_ID")
    .label("OBSERVACAO")
    .order("ID_SETOR")
    .list_path("/ordemservicoservicosetor/{NROS}/{emp}/{SERIE}/{ID_SERV}")
    .sample(json!({"NROS": 1, "ID_SERV": 1, "ID_SETOR": 1, "OBSERVACAO": "Setor de mecânica"}))
    .fields(vec![
        Field::int("NROS", "Ordem de Serviço").required(),
        Field::int("EMP_ID", "Empresa"),
        Field::text("SERIE", "Série")
            .len(3)
            .required()
            .default(json!(SERIE)),
        Field::reference("ID_SERV", "Serviço", "servico", Kind::Autocomplete)
            .required()
            .list()
            .width(4),
        Field::reference("ID_SETOR", "Setor", "setorservico", Kind::Combobox)
            .required()
            .list()
            .width(4),
        Field::text("OBSERVACAO", "Observação")
            .len(500)
            .searchable()
            .list(),
        Field::timestamp("DTA_CAD", "Cadastro"),
    ])
}

fn ordemservicoservicoleituras() -> Resource {
    Resource::new("ordemservicoservicoleituras", "Leituras da Ordem de Serviço", SCHEMA, "ordemservicoservicoleituras", "ordensdeservico")
        .key(&["NROS", "SERIE"])
        .natural_key()
        .company("EMP_ID")
        .label("OBSERVACAO")
        .order("NROS DESC")
        .list_path("/ordemservicoservicoleituras/{NROS}/{emp}/{SERIE}")
        .record_hooks(ReadingsCheck)
        .sample(json!({"NROS": 1, "KM_ENTRADA": 15000, "KM_SAIDA": 15012, "HORIMETRO_ENTRADA": "1200.5", "COMBUSTIVEL": "1/2", "OBSERVACAO": "Leitura na entrada"}))
        .fields(vec![
            Field::int("NROS", "Ordem de Serviço").required(),
            Field::int("EMP_ID", "Empresa"),
            Field::text("SERIE", "Série").len(3).required().default(json!(SERIE)),
            Field::int("KM_ENTRADA", "Km Entrada").min("0").list().width(3),
            Field::int("KM_SAIDA", "Km Saída").min("0").list().width(3),
            Field::decimal("HORIMETRO_ENTRADA", "Horímetro Entrada").scale(1).min("0").width(3),
            Field::decimal("HORIMETRO_SAIDA", "Horímetro Saída").scale(1).min("0").width(3),
            Field::options("COMBUSTIVEL", "Combustível", DbType::Text, &[("0", "Vazio"), ("1/4", "1/4"), ("1/2", "1/2"), ("3/4", "3/4"), ("1", "Cheio")]).list().width(3),
            Field::textarea("OBSERVACAO", "Observações").len(1000).searchable(),
            Field::timestamp("DTA_CAD", "Cadastro"),
        ])
}

fn ordemservicomecanico() -> Resource {
    Resource::new("ordemservicomecanico", "Mecânicos da Ordem de Serviço", SCHEMA, "ordemservicomecanico", "ordensdeservico")
        .key(&["ORDM_ORDS_ID", "ORDM_SERIE", "ORDM_ID"])
        .seq_key()
        .company("ORDM_EMP_ID")
        .label("ORDM_NOME")
        .order("ORDM_ID")
        .list_path("/ordemservicomecanico/{ORDM_ORDS_ID}/{emp}/{ORDM_SERIE}")
        .sample(json!({"ORDM_ORDS_ID": 1, "ORDM_COLA_ID": 1, "ORDM_NOME": "João Mecânico", "ORDM_HORAS": "2.5", "ORDM_PERC_COMISSAO": "10"}))
        .fields(vec![
            Field::int("ORDM_ORDS_ID", "Ordem de Serviço").required(),
            Field::int("ORDM_EMP_ID", "Empresa"),
            Field::text("ORDM_SERIE", "Série").len(3).required().default(json!(SERIE)),
            Field::int("ORDM_ID", "Item").read_only().list().width(1),
            Field::reference("ORDM_COLA_ID", "Mecânico", "colaborador", Kind::Autocomplete).required().width(4),
            Field::text("ORDM_NOME", "Nome").len(150).searchable().list(),
            Field::decimal("ORDM_HORAS", "Horas").scale(2).min("0").list().width(2),
            Field::decimal("ORDM_PERC_COMISSAO", "Comissão (%)").scale(4).min("0").max("100").list().width(2),
            Field::date("ORDM_DTA_INICIO", "Início"),
            Field::date("ORDM_DTA_FIM", "Fim"),
            Field::textarea("ORDM_OBS", "Observações").len(1000),
        ])
}

fn ordemservicooculista() -> Resource {
    let lens = |name: &str, label: &str, min: &str, max: &str| {
        Field::decimal(name, label)
            .scale(2)
            .min(min)
            .max(max)
            .width(2)
    };
    Resource::new("ordemservicooculista", "Receita (Oculista) da Ordem de Serviço", SCHEMA, "ordemservicooculista", "ordensdeservico")
        .key(&["ORDO_ORDS_ID", "ORDO_SERIE", "ORDO_ID"])
        .seq_key()
        .company("ORDO_EMP_ID")
        .label("ORDO_PROFISSIONAL")
        .order("ORDO_ID")
        .list_path("/ordemservicooculista/{ORDO_ORDS_ID}/{emp}/{ORDO_SERIE}")
        .sample(json!({
            "ORDO_ORDS_ID": 1, "ORDO_TIPO": "L", "ORDO_PROFISSIONAL": "Dra. Ana Souza", "ORDO_DTA_RECEITA": "2026-11-20",
            "ORDO_OD_ESFERICO": "-1.25", "ORDO_OD_CILINDRICO": "-0.50", "ORDO_OD_EIXO": 180, "ORDO_OD_DNP": "31.5",
            "ORDO_OE_ESFERICO": "-1.00", "ORDO_OE_CILINDRICO": "-0.75", "ORDO_OE_EIXO": 175, "ORDO_OE_DNP": "32"
        }))
        .fields(vec![
            Field::int("ORDO_ORDS_ID", "Ordem de Serviço").required(),
            Field::int("ORDO_EMP_ID", "Empresa"),
            Field::text("ORDO_SERIE", "Série").len(3).required().default(json!(SERIE)),
            Field::int("ORDO_ID", "Item").read_only().list().width(1),
            Field::options("ORDO_TIPO", "Tipo", DbType::Text, &[("L", "Longe"), ("P", "Perto")]).default(json!("L")).list().width(2),
            Field::text("ORDO_PROFISSIONAL", "Profissional").len(150).searchable().list(),
            Field::date("ORDO_DTA_RECEITA", "Data da Receita"),
            lens("ORDO_OD_ESFERICO", "OD Esférico", "-30", "30"),
            lens("ORDO_OD_CILINDRICO", "OD Cilíndrico", "-15", "15"),
            Field::int("ORDO_OD_EIXO", "OD Eixo").min("0").max("180").width(2),
            lens("ORDO_OD_DNP", "OD DNP", "0", "50"),
            lens("ORDO_OD_ADICAO", "OD Adição", "0", "5"),
            lens("ORDO_OE_ESFERICO", "OE Esférico", "-30", "30"),
            lens("ORDO_OE_CILINDRICO", "OE Cilíndrico", "-15", "15"),
            Field::int("ORDO_OE_EIXO", "OE Eixo").min("0").max("180").width(2),
            lens("ORDO_OE_DNP", "OE DNP", "0", "50"),
            lens("ORDO_OE_ADICAO", "OE Adição", "0", "5"),
            Field::textarea("ORDO_OBS", "Observações").len(1000),
        ])
}

fn ordemservicoimagem() -> Resource {
    Resource::new(
        "ordemservicoimagem",
        "Imagens da Ordem de Serviço",
        SCHEMA,
        "ordemservicoimagem",
        "ordensdeservico",
    )
    .key(&["NROS", "SERIE", "POSICAO"])
    .natural_key()
    .company("EMP_ID")
    .label("ORDS_COMP_DOC")
    .order("POSICAO")
    .list_path("/ordemservicoimagem/{NROS}/{emp}/{SERIE}")
    .sample(json!({"NROS": 1, "POSICAO": 1, "ORDS_COMP_DOC": "Foto do painel"}))
    .upload_call(
        "PUT",
        "/ordemservico/uploads/{NROS}/{emp}/{SERIE}/{position}",
        "enviar",
        &IMAGES,
        "Imagem da ordem de serviço na posição (multipart: file, ORDS_COMP_DOC)",
        ImageUpload,
    )
    .call(
        "DELETE",
        "/ordemservico/uploads/{NROS}/{emp}/{SERIE}/{position}/{image}",
        "excluir_imagem",
        ActionPerm::Update,
        "Excluir a imagem da posição da ordem de serviço",
        ImageDelete,
    )
    .fields(vec![
        Field::int("NROS", "Ordem de Serviço").required(),
        Field::int("EMP_ID", "Empresa"),
        Field::text("SERIE", "Série")
            .len(3)
            .required()
            .default(json!(SERIE)),
        Field::int("POSICAO", "Posição")
            .required()
            .min("1")
            .max("99")
            .list()
            .width(1),
        Field::upload("ARQUIVO", "Imagem", &IMAGES).list(),
        Field::text("NOME_ORIGINAL", "Nome original").read_only(),
        Field::text("ORDS_COMP_DOC", "Descrição")
            .len(200)
            .searchable()
            .list(),
        Field::int("USR_ID", "Usuário").read_only(),
        Field::timestamp("DTA_CAD", "Cadastro"),
    ])
}
