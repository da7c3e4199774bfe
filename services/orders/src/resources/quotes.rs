//! Quotes (`orcamento`, screen /orcamentos) with service lines (`orcamentoservico`)
//! and product lines (`orcamentoproduto`); totals ORCA_VLR_OS (services),
//! ORCA_VLR_PECAS (parts) and ORCA_VLR_TOT.
//!
//! Calls beyond the generic ones:
//! - `POST /orcamento/duplicar/{id}/{emp}/{user}`: a new open quote with the lines.
//! - `POST /orcamento/geraos/{id}/{emp}/{user}`: a service order from the quote.
//! - `POST /orcamento/gerapedidofat/{id}/{emp}/{serie}/{model}/{type}/{user}`: a
//!   billing order (serie, NF-e model and operation type) from the quote.
//! - `POST /orcamento/gerarequisicao/{id}/{emp}/{user}`: asks stock for a requisition
//!   of the quote's products (`erp.orders.orcamento.requisicao`), once.
//! - `POST /orcamento/gerapdv/...` and `/orcamento/gerapedidofab/...`: the point of
//!   sale and manufacturing do not exist yet; they answer so.
//! - `PUT /orcamentoproduto/agrupar/{ORCP_ORCA_ID}/{emp}/{ORCP_PROD_ID}`: merges the
//!   quote's lines of one product into the first.
//!
//! A converted quote (situation C) refuses changes.

use std::collections::HashMap;
use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::{query, ActionHandler, ActionPerm, DbType, Field, Kind, Resource};
use erp_platform::{Error, Result};
use prost::Message as _;
use rust_decimal::Decimal;
use serde_json::{json, Value};

use super::docs::{self, DocSpec, HeaderHooks, Item, LineHooks, LineSpec};
use crate::SCHEMA;

pub static SERVICES: LineSpec = LineSpec {
    table: "orcamentoservico",
    company: "orci_emp_id",
    parent: &["orci_orca_id"],
    seq: "orci_id",
    item: Item::Service,
    item_col: "orci_serv_id",
    desc_col: "orci_descricao",
    unit_name_col: None,
    qty: "orci_qtde",
    unit: "orci_vlr_unit",
    discount: Some("orci_vlr_desc"),
    surcharge: None,
    freight: None,
    total: "orci_vlr_total",
};

pub static PRODUCTS: LineSpec = LineSpec {
    table: "orcamentoproduto",
    company: "orcp_emp_id",
    parent: &["orcp_orca_id"],
    seq: "orcp_id",
    item: Item::Product,
    item_col: "orcp_prod_id",
    desc_col: "orcp_descricao",
    unit_name_col: Some("orcp_unidade"),
    qty: "orcp_qtde",
    unit: "orcp_vlr_unit",
    discount: Some("orcp_vlr_desc"),
    surcharge: None,
    freight: None,
    total: "orcp_vlr_total",
};

pub static QUOTE: DocSpec = DocSpec {
    title: "Orçamento",
    table: "orcamento",
    company: "orca_emp_id",
    key: &["orca_id"],
    status: "orca_situacao",
    open: &["A"],
    issued_msg: "Orçamento já convertido não pode ser alterado.",
    missing_msg: "Orçamento não encontrado.",
    customer: "orca_cli_id",
    customer_name: "orca_cli_desc",
    customer_city: None,
    products: Some(&PRODUCTS),
    services: Some(&SERVICES),
    tot_products: "orca_vlr_pecas",
    tot_services: "orca_vlr_os",
    tot_surcharge: Some("orca_vlr_acre"),
    tot_freight: None,
    tot_discount: Some("orca_vlr_desc"),
    total: "orca_vlr_tot",
    extra_surcharge: None,
};

pub const NOT_AVAILABLE_PDV: &str =
    "Conversão para PDV não disponível: o ponto de venda ainda não faz parte deste sistema.";
pub const NOT_AVAILABLE_FAB: &str = "Conversão para pedido de fabricação não disponível: a produção ainda não faz parte deste sistema.";

pub fn all() -> Vec<Resource> {
    vec![orcamento(), orcamentoservico(), orcamentoproduto()]
}

pub fn orcamento() -> Resource {
    Resource::new("orcamento", "Orçamentos", SCHEMA, "orcamento", "orcamentos")
        .screen("/orcamentos")
        .key(&["ORCA_ID"])
        .company("ORCA_EMP_ID")
        .label("ORCA_CLI_DESC")
        .order("ORCA_ID DESC")
        .hooks(Arc::new(HeaderHooks(&QUOTE)))
        .sample(json!({"ORCA_CLI_ID": 1, "ORCA_DTA_EMIS": "2026-11-22", "ORCA_OBS": "Revisão completa"}))
        .action("POST", "/orcamento/duplicar/{ORCA_ID}/{emp}/{user}", "duplicar", ActionPerm::Create, "Duplicar o orçamento", Arc::new(Convert::Duplicate))
        .action("POST", "/orcamento/geraos/{ORCA_ID}/{emp}/{user}", "geraos", ActionPerm::Update, "Gerar ordem de serviço do orçamento", Arc::new(Convert::ServiceOrder))
        .action("POST", "/orcamento/gerapedidofat/{ORCA_ID}/{emp}/{serie}/{model}/{type}/{user}", "gerapedidofat", ActionPerm::Update, "Gerar pedido de venda do orçamento", Arc::new(Convert::Order))
        .action("POST", "/orcamento/gerarequisicao/{ORCA_ID}/{emp}/{user}", "gerarequisicao", ActionPerm::Update, "Gerar requisição de estoque do orçamento", Arc::new(Convert::Requisition))
        .action("POST", "/orcamento/gerapdv/{ORCA_ID}/{emp}/{user}", "gerapdv", ActionPerm::Update, "Gerar venda no PDV (indisponível)", Arc::new(Convert::Unavailable(NOT_AVAILABLE_PDV)))
        .action("POST", "/orcamento/gerapedidofab/{ORCA_ID}/{emp}/{user}", "gerapedidofab", ActionPerm::Update, "Gerar pedido de fabricação (indisponível)", Arc::new(Convert::Unavailable(NOT_AVAILABLE_FAB)))
        .fields(vec![
            Field::id("ORCA_ID", "Número").list().width(2),
            Field::int("ORCA_EMP_ID", "Empresa"),
            Field::text("ORCA_SERIE", "Série").len(3).default(json!("ORC")).width(1),
            Field::reference("ORCA_CLI_ID", "Cliente", "clientes", Kind::Autocomplete).required().width(6),
            Field::text("ORCA_CLI_DESC", "Cliente").read_only().searchable().list(),
            Field::reference("ORCA_VEIC_ID", "Veículo", "veiculo", Kind::Autocomplete).width(3),
            Field::reference("ORCA_COLA_ID", "Vendedor", "colaborador", Kind::Autocomplete).width(3),
            Field::reference("ORCA_CNDP_ID", "Condição de Pagamento", "condicaopagamento", Kind::Combobox).width(3),
            Field::date("ORCA_DTA_EMIS", "Emissão").required().list(),
            Field::date("ORCA_DTA_SAIDA", "Saída"),
            Field::date("ORCA_VALIDADE", "Validade"),
            Field::textarea("ORCA_OBS", "Observações").len(2000),
            Field::money("ORCA_VLR_OS", "Total Serviços").read_only().width(2),
            Field::money("ORCA_VLR_PECAS", "Total Peças").read_only().width(2),
            Field::money("ORCA_VLR_ACRE", "Acréscimos").read_only().width(2),
            Field::money("ORCA_VLR_DESC", "Descontos").read_only().width(2),
            Field::money("ORCA_VLR_TOT", "Total").read_only().list().width(2),
            Field::options("ORCA_SITUACAO", "Situação", DbType::Text, &[("A", "Aberto"), ("C", "Convertido")]).read_only().list().width(2),
            Field::int("ORCA_ORDS_ID", "Ordem de Serviço").read_only(),
            Field::int("ORCA_PEDF_ID", "Pedido").read_only(),
            Field::text("ORCA_PEDF_SERIE", "Série do Pedido").read_only(),
            Field::boolean("ORCA_REQU_OK", "Requisição gerada").read_only(),
            Field::int("ORCA_USR_ID", "Usuário").read_only(),
            Field::timestamp("ORCA_DTA_CAD", "Cadastro"),
        ])
}

pub fn orcamentoservico() -> Resource {
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
    .hooks(Arc::new(LineHooks {
        doc: &QUOTE,
        line: &SERVICES,
    }))
    .sample(json!({"ORCI_ORCA_ID": 1, "ORCI_SERV_ID": 1, "ORCI_QTDE": "1", "ORCI_VLR_UNIT": "120"}))
    .fields(vec![
        Field::int("ORCI_ORCA_ID", "Orçamento").required(),
        Field::int("ORCI_EMP_ID", "Empresa"),
        Field::int("ORCI_ID", "Item").read_only().list().width(1),
        Field::reference("ORCI_SERV_ID", "Serviço", "servico", Kind::Autocomplete)
            .required()
            .list()
            .width(5),
        Field::text("ORCI_DESCRICAO", "Descrição")
            .len(200)
            .searchable()
            .list(),
        Field::decimal("ORCI_QTDE", "Quantidade")
            .scale(4)
            .required()
            .min("0.0001")
            .list()
            .width(2),
        Field::money("ORCI_VLR_UNIT", "Valor Unitário")
            .scale(4)
            .list()
            .width(2),
        Field::money("ORCI_VLR_DESC", "Desconto").width(2),
        Field::money("ORCI_VLR_TOTAL", "Total")
            .read_only()
            .list()
            .width(2),
        Field::reference(
            "ORCI_COLA_ID",
            "Mecânico",
            "colaborador",
            Kind::Autocomplete,
        )
        .width(3),
    ])
}

pub fn orcamentoproduto() -> Resource {
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
    .hooks(Arc::new(LineHooks {
        doc: &QUOTE,
        line: &PRODUCTS,
    }))
    .sample(
        json!({"ORCP_ORCA_ID": 1, "ORCP_PROD_ID": 1, "ORCP_QTDE": "2", "ORCP_VLR_UNIT": "35.90"}),
    )
    .action(
        "PUT",
        "/orcamentoproduto/agrupar/{ORCP_ORCA_ID}/{emp}/{ORCP_PROD_ID}",
        "agrupar",
        ActionPerm::Update,
        "Agrupar as linhas de um produto",
        Arc::new(Group),
    )
    .fields(vec![
        Field::int("ORCP_ORCA_ID", "Orçamento").required(),
        Field::int("ORCP_EMP_ID", "Empresa"),
        Field::int("ORCP_ID", "Item").read_only().list().width(1),
        Field::reference("ORCP_PROD_ID", "Produto", "produtos", Kind::Autocomplete)
            .required()
            .list()
            .width(5),
        Field::text("ORCP_DESCRICAO", "Descrição")
            .len(200)
            .searchable()
            .list(),
        Field::text("ORCP_UNIDADE", "Un.").len(6).list().width(1),
        Field::decimal("ORCP_QTDE", "Quantidade")
            .scale(4)
            .required()
            .min("0.0001")
            .list()
            .width(2),
        Field::money("ORCP_VLR_UNIT", "Valor Unitário")
            .scale(4)
            .list()
            .width(2),
        Field::money("ORCP_VLR_DESC", "Desconto").width(2),
        Field::money("ORCP_VLR_TOTAL", "Total")
            .read_only()
            .list()
            .width(2),
    ])
}

/// One quote's lines as `(item id, description, unit name, qty, unit price, discount)`.
pub type QuoteLine = (
    i64,
    Option<String>,
    Option<String>,
    Decimal,
    Decimal,
    Decimal,
);

pub async fn quote_lines(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    id: i64,
    products: bool,
) -> Result<Vec<QuoteLine>> {
    let sql = if products {
        "SELECT orcp_prod_id, orcp_descricao, orcp_unidade, orcp_qtde, orcp_vlr_unit, orcp_vlr_desc FROM orders.orcamentoproduto
         WHERE client_id = $1 AND orcp_emp_id = $2 AND orcp_orca_id = $3 ORDER BY orcp_id"
    } else {
        "SELECT orci_serv_id, orci_descricao, NULL::text, orci_qtde, orci_vlr_unit, orci_vlr_desc FROM orders.orcamentoservico
         WHERE client_id = $1 AND orci_emp_id = $2 AND orci_orca_id = $3 ORDER BY orci_id"
    };
    Ok(sqlx::query_as(sql)
        .bind(client)
        .bind(emp)
        .bind(id)
        .fetch_all(&mut **tx)
        .await?)
}

/// The quote's customer, locked and open.
async fn open_quote(tx: &mut Tx, caller: &Caller, emp: i64, id: i64) -> Result<i64> {
    docs::ensure_open(tx, &QUOTE, caller.client_id, emp, &[id.to_string()]).await?;
    let cli: i64 = sqlx::query_scalar(
        "SELECT orca_cli_id FROM orders.orcamento WHERE client_id = $1 AND orca_emp_id = $2 AND orca_id = $3",
    )
    .bind(caller.client_id)
    .bind(emp)
    .bind(id)
    .fetch_one(&mut **tx)
    .await?;
    let lines = quote_lines(tx, caller.client_id, emp, id, true)
        .await?
        .len()
        + quote_lines(tx, caller.client_id, emp, id, false)
            .await?
            .len();
    if lines == 0 {
        return Err(Error::validation(
            "Orçamento sem itens não pode ser convertido.",
        ));
    }
    Ok(cli)
}

enum Convert {
    Duplicate,
    ServiceOrder,
    Order,
    Requisition,
    Unavailable(&'static str),
}

#[async_trait]
impl ActionHandler for Convert {
    async fn run(
        &self,
        tx: &mut Tx,
        _res: &Resource,
        caller: &Caller,
        emp: Option<i64>,
        params: &HashMap<String, String>,
        _body: Value,
    ) -> Result<Value> {
        if let Convert::Unavailable(msg) = self {
            return Err(Error::validation(*msg));
        }
        let emp = emp.ok_or_else(|| Error::validation("emp_id não informado."))?;
        let id = docs::id_param(params, "ORCA_ID")?;
        let client = caller.client_id;
        match self {
            Convert::Duplicate => {
                let src =
                    query::get(tx, &orcamento(), caller, Some(emp), &[id.to_string()]).await?;
                let mut head = serde_json::Map::new();
                for k in [
                    "ORCA_SERIE",
                    "ORCA_CLI_ID",
                    "ORCA_VEIC_ID",
                    "ORCA_COLA_ID",
                    "ORCA_CNDP_ID",
                    "ORCA_OBS",
                ] {
                    head.insert(k.into(), src[k].clone());
                }
                head.insert(
                    "ORCA_DTA_EMIS".into(),
                    json!(chrono::Local::now()
                        .date_naive()
                        .format("%Y-%m-%d")
                        .to_string()),
                );
                let new = query::create(tx, &orcamento(), caller, Some(emp), &head).await?;
                let new_id = docs::int(&new, "ORCA_ID")?;
                for (item, desc, _unit, qty, price, disc) in
                    quote_lines(tx, client, emp, id, true).await?
                {
                    query::create(tx, &orcamentoproduto(), caller, Some(emp), &docs::body_map(json!({
                        "ORCP_ORCA_ID": new_id, "ORCP_PROD_ID": item, "ORCP_DESCRICAO": desc,
                        "ORCP_QTDE": qty.to_string(), "ORCP_VLR_UNIT": price.to_string(), "ORCP_VLR_DESC": disc.to_string()
                    }))).await?;
                }
                for (item, desc, _unit, qty, price, disc) in
                    quote_lines(tx, client, emp, id, false).await?
                {
                    query::create(tx, &orcamentoservico(), caller, Some(emp), &docs::body_map(json!({
                        "ORCI_ORCA_ID": new_id, "ORCI_SERV_ID": item, "ORCI_DESCRICAO": desc,
                        "ORCI_QTDE": qty.to_string(), "ORCI_VLR_UNIT": price.to_string(), "ORCI_VLR_DESC": disc.to_string()
                    }))).await?;
                }
                query::get(tx, &orcamento(), caller, Some(emp), &[new_id.to_string()]).await
            }
            Convert::Order => {
                let cli = open_quote(tx, caller, emp, id).await?;
                let serie = docs::param(params, "serie")?;
                let model = docs::param(params, "model")?;
                let kind = docs::param(params, "type")?;
                let src =
                    query::get(tx, &orcamento(), caller, Some(emp), &[id.to_string()]).await?;
                let head = query::create(tx, &super::billing::pedido(), caller, Some(emp), &docs::body_map(json!({
                    "PEDF_SERIE": serie, "PEDF_CLI_ID": cli, "PEDF_MODELO": model, "PEDF_TIPO": kind,
                    "PEDF_COLA_ID": src["ORCA_COLA_ID"], "PEDF_CNDP_ID": src["ORCA_CNDP_ID"], "PEDF_OBS": src["ORCA_OBS"],
                    "PEDF_DTA_EMISSAO": chrono::Local::now().date_naive().format("%Y-%m-%d").to_string(),
                }))).await?;
                let pedf = docs::int(&head, "PEDF_ID")?;
                for (item, desc, unit, qty, price, disc) in
                    quote_lines(tx, client, emp, id, true).await?
                {
                    query::create(tx, &super::billing::pedidoproduto(), caller, Some(emp), &docs::body_map(json!({
                        "PEDI_PEDF_ID": pedf, "PEDI_PEDF_SERIE_ID": serie, "PEDI_PROD_ID": item, "PEDI_DESCRICAO": desc,
                        "PEDI_UNIDADE": unit, "PEDI_QTDE": qty.to_string(), "PEDI_VLR_UNITARIO": price.to_string(),
                        "PEDI_VLR_DESCONTO": disc.to_string()
                    }))).await?;
                }
                for (item, desc, _unit, qty, price, disc) in
                    quote_lines(tx, client, emp, id, false).await?
                {
                    // Service lines of an order carry no discount: the net price goes.
                    let unit_net = if qty.is_zero() {
                        price
                    } else {
                        ((qty * price - disc) / qty).round_dp(4)
                    };
                    query::create(tx, &super::billing::pedidoservico(), caller, Some(emp), &docs::body_map(json!({
                        "PFOS_PEDF_ID": pedf, "PFOS_PEDF_SERIE": serie, "PFOS_SERV_ID": item, "PFOS_DESCRICAO": desc,
                        "PFOS_QTDE": qty.to_string(), "PFOS_VLR_UNIT": unit_net.to_string()
                    }))).await?;
                }
                sqlx::query("UPDATE orders.pedido SET pedf_orca_id = $4 WHERE client_id = $1 AND pedf_emp_id = $2 AND pedf_id = $3 AND pedf_serie = $5")
                    .bind(client).bind(emp).bind(pedf).bind(id).bind(serie)
                    .execute(&mut **tx).await?;
                sqlx::query("UPDATE orders.orcamento SET orca_situacao = 'C', orca_pedf_id = $4, orca_pedf_serie = $5 WHERE client_id = $1 AND orca_emp_id = $2 AND orca_id = $3")
                    .bind(client).bind(emp).bind(id).bind(pedf).bind(serie)
                    .execute(&mut **tx).await?;
                super::billing::order_row(tx, caller, emp, pedf, serie).await
            }
            Convert::ServiceOrder => {
                let cli = open_quote(tx, caller, emp, id).await?;
                let os = super::service_orders::from_quote(tx, caller, emp, id, cli).await?;
                let ords = docs::int(&os, "ORDS_ID")?;
                sqlx::query("UPDATE orders.orcamento SET orca_situacao = 'C', orca_ords_id = $4 WHERE client_id = $1 AND orca_emp_id = $2 AND orca_id = $3")
                    .bind(client).bind(emp).bind(id).bind(ords)
                    .execute(&mut **tx).await?;
                Ok(os)
            }
            Convert::Requisition => {
                let cli = open_quote(tx, caller, emp, id).await?;
                let done: bool = sqlx::query_scalar(
                    "UPDATE orders.orcamento o SET orca_requ_ok = true
                     FROM (SELECT orca_requ_ok AS before FROM orders.orcamento WHERE client_id = $1 AND orca_emp_id = $2 AND orca_id = $3) b
                     WHERE o.client_id = $1 AND o.orca_emp_id = $2 AND o.orca_id = $3 RETURNING b.before",
                )
                .bind(client)
                .bind(emp)
                .bind(id)
                .fetch_one(&mut **tx)
                .await?;
                if done {
                    return Err(Error::Conflict(
                        "A requisição deste orçamento já foi gerada.".into(),
                    ));
                }
                let lines: Vec<erp_proto::orders::v1::StockLine> =
                    quote_lines(tx, client, emp, id, true)
                        .await?
                        .into_iter()
                        .enumerate()
                        .map(
                            |(i, (item, _, _, qty, _, _))| erp_proto::orders::v1::StockLine {
                                product_id: item,
                                product_emp_id: emp,
                                quantity: qty.normalize().to_string(),
                                item: i as i64 + 1,
                                location_id: 0,
                            },
                        )
                        .collect();
                if lines.is_empty() {
                    return Err(Error::validation(
                        "Orçamento sem produtos não gera requisição.",
                    ));
                }
                let event = erp_proto::orders::v1::RequisicaoSolicitada {
                    client_id: client,
                    emp_id: emp,
                    orcamento_id: id,
                    serie: "ORC".into(),
                    user_id: caller.user_id,
                    customer_id: cli,
                    lines,
                };
                erp_platform::bus::outbox_insert(
                    tx,
                    SCHEMA,
                    crate::events::REQUISICAO_SOLICITADA,
                    client,
                    &event.encode_to_vec(),
                )
                .await?;
                Ok(json!({"code": 200, "msg": "Requisição enviada ao estoque.", "ORCA_ID": id}))
            }
            Convert::Unavailable(_) => Err(Error::internal("unreachable")),
        }
    }
}

/// Merges the quote's lines of one product into the first one (quantities and
/// discounts summed, the first line's price).
struct Group;

#[async_trait]
impl ActionHandler for Group {
    async fn run(
        &self,
        tx: &mut Tx,
        _res: &Resource,
        caller: &Caller,
        emp: Option<i64>,
        params: &HashMap<String, String>,
        _body: Value,
    ) -> Result<Value> {
        let emp = emp.ok_or_else(|| Error::validation("emp_id não informado."))?;
        let id = docs::id_param(params, "ORCP_ORCA_ID")?;
        let prod = docs::id_param(params, "ORCP_PROD_ID")?;
        docs::ensure_open(tx, &QUOTE, caller.client_id, emp, &[id.to_string()]).await?;
        let merged = merge_lines(tx, caller.client_id, emp, id, prod).await?;
        docs::recalc(tx, &QUOTE, caller.client_id, emp, &[id.to_string()]).await?;
        Ok(json!({"code": 200, "msg": "Itens agrupados.", "LINHAS_AGRUPADAS": merged}))
    }
}

async fn merge_lines(tx: &mut Tx, client: i64, emp: i64, id: i64, prod: i64) -> Result<i64> {
    let rows: Vec<(i64, Decimal, Decimal, Decimal)> = sqlx::query_as(
        "SELECT orcp_id, orcp_qtde, orcp_vlr_desc, orcp_vlr_unit FROM orders.orcamentoproduto
         WHERE client_id = $1 AND orcp_emp_id = $2 AND orcp_orca_id = $3 AND orcp_prod_id = $4 ORDER BY orcp_id FOR UPDATE",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(prod)
    .fetch_all(&mut **tx)
    .await?;
    let Some((first, _, _, unit)) = rows.first().copied() else {
        return Err(Error::NotFound(
            "Produto não encontrado no orçamento.".into(),
        ));
    };
    let qty: Decimal = rows.iter().map(|r| r.1).sum();
    let disc: Decimal = rows.iter().map(|r| r.2).sum();
    let line = crate::totals::Line {
        qty,
        unit,
        discount: disc,
        ..Default::default()
    };
    sqlx::query(
        "UPDATE orders.orcamentoproduto SET orcp_qtde = $5, orcp_vlr_desc = $6, orcp_vlr_total = $7
         WHERE client_id = $1 AND orcp_emp_id = $2 AND orcp_orca_id = $3 AND orcp_id = $4",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(first)
    .bind(qty)
    .bind(disc)
    .bind(line.net())
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "DELETE FROM orders.orcamentoproduto WHERE client_id = $1 AND orcp_emp_id = $2 AND orcp_orca_id = $3
         AND orcp_prod_id = $4 AND orcp_id <> $5",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(prod)
    .bind(first)
    .execute(&mut **tx)
    .await?;
    Ok(rows.len() as i64)
}
