//! Conditional sales (`condicional`, screen /condicional): goods (and services) that
//! go out to a customer on approval. Product lines `condicionalprod` (CNDP_*) carry
//! the quantity out and the quantity returned; service lines `condicionalserv`
//! (CNDI_*). Totals COND_VLR_PROD, COND_VLR_SERV, COND_VLR_DESC and COND_VLR_TOTAL
//! are the value that went out and follow the lines (the engine's document).
//!
//! Situation: A aberta, F encerrada; only an open conditional accepts changes.
//!
//! Calls beyond the generic ones:
//! - `PUT /condicional/devolucao/{COND_ID}/{emp}`: body
//!   `{"ITENS": [{"CNDP_ID": 1, "QTDE": "2"}], "ENCERRAR": false}` adds the returned
//!   quantities (never more than went out); the conditional closes when `ENCERRAR`
//!   is true or everything came back. Answers the header and its product lines.
//!
//! Every change of a conditional (its header, a product line, a return, the
//! closing, the removal) leaves its whole state in the outbox
//! (`erp.orders.condicional.situacao`, [`publish_state`]): the reports service
//! answers the open-goods report (`/condicional/reports`) from it.

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::call::{Ctx, Dec, Operation, Register, RowOf};
use erp_platform::resource::document::ops;
use erp_platform::resource::{
    query, ActionPerm, DbType, Document, Field, Kind, Lines, Op, RecordHooks, Resource, Role, Total,
};
use erp_platform::{Error, Result};
use erp_proto::orders::v1::{CondicionalSituacao, ConditionalLine};
use prost::Message as _;
use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use super::customer::{copy_customer, customer_body};
use super::NoBody;
use crate::SCHEMA;

pub const ISSUED: &str = "Condicional encerrada não pode ser alterada.";
pub const MISSING: &str = "Condicional não encontrada.";

pub const TOO_MUCH_BACK: &str =
    "A quantidade devolvida não pode ser maior que a quantidade que saiu.";

/// The conditional sale and its lines, as one document.
pub fn all() -> std::result::Result<Vec<Resource>, String> {
    Document::new(condicional())
        .status("COND_SITUACAO", &["A"], ISSUED)
        .tones(&[("A", "open"), ("F", "done")])
        .missing(MISSING)
        .date("COND_DTA_SAIDA")
        .items(Arc::new(crate::copies::CatalogItems))
        .line(
            condicionalprod(),
            Lines::products(&["CNDP_COND_ID"]).editable(&[Role::Quantity, Role::Discount]),
        )
        .line(
            condicionalserv(),
            Lines::services(&["CNDI_COND_ID"]).editable(&[Role::Quantity]),
        )
        .build()
}

fn condicional() -> Resource {
    Resource::new("condicional", "Condicionais", SCHEMA, "condicional", "condicional")
        .screen("/condicional")
        .key(&["COND_ID"])
        .company("COND_EMP_ID")
        .label("COND_CLI_DESC")
        .order("COND_ID DESC")
        .record_hooks(HeaderHooks)
        .sample(json!({"COND_CLI_ID": 1, "COND_DTA_SAIDA": "2026-11-22", "COND_DTA_RETORNO": "2026-11-29", "COND_OBS": "Cliente leva para provar"}))
        .call("PUT", "/condicional/devolucao/{COND_ID}/{emp}", "devolucao", ActionPerm::Update, "Registrar devoluções da condicional e/ou encerrá-la (corpo: ITENS [{CNDP_ID, QTDE}], ENCERRAR)", Return)
        .fields(vec![
            Field::id("COND_ID", "Número"),
            Field::int("COND_EMP_ID", "Empresa"),
            Field::reference("COND_CLI_ID", "Cliente", "clientes", Kind::Autocomplete).required().width(6),
            Field::text("COND_CLI_DESC", "Cliente").server().searchable().list(),
            Field::reference("COND_COLA_ID", "Vendedor", "colaborador", Kind::Autocomplete).width(3),
            Field::date("COND_DTA_SAIDA", "Saída").required().list(),
            Field::date("COND_DTA_RETORNO", "Retorno").list(),
            Field::textarea("COND_OBS", "Observações").len(2000),
            Field::money("COND_VLR_PROD", "Total Produtos").total(Total::Products).width(2),
            Field::money("COND_VLR_SERV", "Total Serviços").total(Total::Services).width(2),
            Field::money("COND_VLR_DESC", "Descontos").total(Total::Discounts).width(2),
            Field::money("COND_VLR_TOTAL", "Total").total(Total::Grand).list().width(2),
            Field::options("COND_SITUACAO", "Situação", DbType::Text, &[("A", "Aberta"), ("F", "Encerrada")]).read_only().list().width(2),
            Field::int("COND_USR_ID", "Usuário").role(Role::CreatedBy),
        ])
}

fn condicionalprod() -> Resource {
    Resource::new(
        "condicionalprod",
        "Produtos da Condicional",
        SCHEMA,
        "condicionalprod",
        "condicional",
    )
    .key(&["CNDP_COND_ID", "CNDP_ID"])
    .seq_key()
    .company("CNDP_EMP_ID")
    .label("CNDP_DESCRICAO")
    .order("CNDP_ID")
    .list_path("/condicionalprod/{CNDP_COND_ID}/{emp}")
    .record_hooks(ReturnedCheck)
    .sample(
        json!({"CNDP_COND_ID": 1, "CNDP_PROD_ID": 1, "CNDP_QTDE": "3", "CNDP_VLR_UNIT": "42.50"}),
    )
    .fields(vec![
        Field::int("CNDP_COND_ID", "Condicional").required(),
        Field::int("CNDP_EMP_ID", "Empresa"),
        Field::int("CNDP_ID", "Item").read_only().list().width(1),
        Field::reference("CNDP_PROD_ID", "Produto", "produtos", Kind::Autocomplete)
            .required()
            .list()
            .width(5)
            .role(Role::Item),
        Field::text("CNDP_DESCRICAO", "Descrição")
            .len(200)
            .searchable()
            .list()
            .role(Role::Description),
        Field::decimal("CNDP_QTDE", "Quantidade")
            .scale(4)
            .required()
            .min("0.0001")
            .list()
            .width(2)
            .role(Role::Quantity),
        Field::decimal("CNDP_QTDE_DEVOLVIDA", "Devolvida")
            .scale(4)
            .read_only()
            .list()
            .width(2),
        Field::money("CNDP_VLR_UNIT", "Valor Unitário")
            .scale(4)
            .list()
            .width(2)
            .role(Role::UnitPrice),
        Field::money("CNDP_VLR_DESC", "Desconto")
            .width(2)
            .role(Role::Discount),
        Field::money("CNDP_VLR_TOTAL", "Total")
            .list()
            .width(2)
            .role(Role::LineTotal),
    ])
}

fn condicionalserv() -> Resource {
    Resource::new(
        "condicionalserv",
        "Serviços da Condicional",
        SCHEMA,
        "condicionalserv",
        "condicional",
    )
    .key(&["CNDI_COND_ID", "CNDI_ID"])
    .seq_key()
    .company("CNDI_EMP_ID")
    .label("CNDI_DESCRICAO")
    .order("CNDI_ID")
    .list_path("/condicionalserv/{CNDI_COND_ID}/{emp}")
    .sample(json!({"CNDI_COND_ID": 1, "CNDI_SERV_ID": 1, "CNDI_QTDE": "1", "CNDI_VLR_UNIT": "150"}))
    .fields(vec![
        Field::int("CNDI_COND_ID", "Condicional").required(),
        Field::int("CNDI_EMP_ID", "Empresa"),
        Field::int("CNDI_ID", "Item").read_only().list().width(1),
        Field::reference("CNDI_SERV_ID", "Serviço", "servico", Kind::Autocomplete)
            .required()
            .list()
            .width(5)
            .role(Role::Item),
        Field::text("CNDI_DESCRICAO", "Descrição")
            .len(200)
            .searchable()
            .list()
            .role(Role::Description),
        Field::decimal("CNDI_QTDE", "Quantidade")
            .scale(4)
            .required()
            .min("0.0001")
            .list()
            .width(2)
            .role(Role::Quantity),
        Field::money("CNDI_VLR_UNIT", "Valor Unitário")
            .scale(4)
            .list()
            .width(2)
            .role(Role::UnitPrice),
        Field::money("CNDI_VLR_TOTAL", "Total")
            .list()
            .width(2)
            .role(Role::LineTotal),
    ])
}

/// A product line's row as its hook reads it.
#[derive(Deserialize)]
pub struct ProductLineRow {
    #[serde(rename = "CNDP_EMP_ID")]
    emp: i64,
    #[serde(rename = "CNDP_COND_ID")]
    conditional: i64,
    #[serde(rename = "CNDP_QTDE")]
    qty: Option<Dec>,
    #[serde(rename = "CNDP_QTDE_DEVOLVIDA")]
    returned: Option<Dec>,
}

/// Product lines: the quantity out never below what already came back.
struct ReturnedCheck;

#[async_trait]
impl RecordHooks for ReturnedCheck {
    type Body = NoBody;
    type Row = ProductLineRow;

    async fn after_write(
        &self,
        tx: &mut Tx,
        op: Op,
        caller: &Caller,
        row: &ProductLineRow,
    ) -> Result<()> {
        let d = |v: Option<Dec>| v.map(Dec::get).unwrap_or_default();
        if op == Op::Update && d(row.returned) > d(row.qty) {
            return Err(Error::validation(TOO_MUCH_BACK));
        }
        publish_state(tx, caller.client_id, row.emp, row.conditional).await
    }
}

customer_body!(ConditionalCustomer, "COND_CLI_ID", "COND_CLI_DESC");

/// The header's key, as its hook reads the written row.
#[derive(Deserialize)]
pub struct HeaderRow {
    #[serde(rename = "COND_EMP_ID")]
    emp: i64,
    #[serde(rename = "COND_ID")]
    id: i64,
}

/// The header's hooks: the customer's name from the copy, and the state published
/// after every write.
struct HeaderHooks;

#[async_trait]
impl RecordHooks for HeaderHooks {
    type Body = ConditionalCustomer;
    type Row = HeaderRow;

    async fn prepare(
        &self,
        tx: &mut Tx,
        _op: Op,
        caller: &Caller,
        emp: Option<i64>,
        body: &mut ConditionalCustomer,
    ) -> Result<()> {
        copy_customer(tx, caller, emp, body).await
    }

    async fn after_write(
        &self,
        tx: &mut Tx,
        _op: Op,
        caller: &Caller,
        row: &HeaderRow,
    ) -> Result<()> {
        publish_state(tx, caller.client_id, row.emp, row.id).await
    }
}

/// A conditional's header as its state carries it.
#[derive(sqlx::FromRow)]
struct StateHead {
    customer_id: i64,
    customer_name: String,
    left_on: String,
    return_on: String,
    status: String,
}

/// A product line as the state carries it.
#[derive(sqlx::FromRow)]
struct StateLine {
    item: i64,
    product_id: i64,
    description: String,
    quantity: String,
    returned: String,
    unit_price: String,
}

/// Leaves the conditional's whole state in the outbox (`X` once it is gone).
pub async fn publish_state(tx: &mut Tx, client: i64, emp: i64, id: i64) -> Result<()> {
    let head: Option<StateHead> = sqlx::query_as(
        "SELECT cond_cli_id AS customer_id, coalesce(cond_cli_desc, '') AS customer_name,
                cond_dta_saida::text AS left_on, coalesce(cond_dta_retorno::text, '') AS return_on,
                cond_situacao AS status
         FROM orders.condicional WHERE client_id = $1 AND cond_emp_id = $2 AND cond_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?;
    let version: i64 =
        sqlx::query_scalar("SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint")
            .fetch_one(&mut **tx)
            .await?;
    let state = match head {
        None => CondicionalSituacao {
            client_id: client,
            emp_id: emp,
            cond_id: id,
            status: "X".into(),
            version,
            ..Default::default()
        },
        Some(h) => {
            let lines: Vec<StateLine> = sqlx::query_as(
                "SELECT cndp_id AS item, cndp_prod_id AS product_id, coalesce(cndp_descricao, '') AS description,
                        cndp_qtde::text AS quantity, cndp_qtde_devolvida::text AS returned,
                        cndp_vlr_unit::text AS unit_price
                 FROM orders.condicionalprod
                 WHERE client_id = $1 AND cndp_emp_id = $2 AND cndp_cond_id = $3 ORDER BY cndp_id",
            )
            .bind(client)
            .bind(emp)
            .bind(id)
            .fetch_all(&mut **tx)
            .await?;
            CondicionalSituacao {
                client_id: client,
                emp_id: emp,
                cond_id: id,
                customer_id: h.customer_id,
                customer_name: h.customer_name,
                left_on: h.left_on,
                return_on: h.return_on,
                status: h.status,
                lines: lines
                    .into_iter()
                    .map(|l| ConditionalLine {
                        item: l.item,
                        product_id: l.product_id,
                        description: l.description,
                        quantity: l.quantity,
                        returned: l.returned,
                        unit_price: l.unit_price,
                    })
                    .collect(),
                version,
            }
        }
    };
    erp_platform::bus::outbox_insert(
        tx,
        SCHEMA,
        erp_proto::subjects::CONDICIONAL_SITUACAO,
        client,
        &state.encode_to_vec(),
    )
    .await?;
    Ok(())
}

/// A returned quantity of a product line.
#[derive(Deserialize, JsonSchema)]
pub struct ReturnedItem {
    #[serde(rename = "CNDP_ID")]
    #[schemars(extend("x-invalid" = "CNDP_ID inválido.", "x-missing" = "CNDP_ID inválido."))]
    pub line: i64,
    /// Missing or zero is refused ('A quantidade devolvida deve ser maior que zero.').
    #[serde(rename = "QTDE", default)]
    #[schemars(title = "Quantidade devolvida")]
    pub qty: Option<Dec>,
}

/// `PUT /condicional/devolucao/{COND_ID}/{emp}`.
#[derive(Deserialize, JsonSchema)]
pub struct ReturnIn {
    #[serde(rename = "COND_ID")]
    pub id: i64,
    #[serde(rename = "ITENS", default)]
    #[schemars(extend("x-invalid" = "ITENS deve ser uma lista."))]
    pub items: Option<Vec<ReturnedItem>>,
    /// Closes the conditional whatever is still out.
    #[serde(rename = "ENCERRAR", default)]
    #[schemars(title = "Encerrar")]
    pub close: Option<bool>,
}

/// The product line register, named in answers.
pub enum CondicionalProd {}
impl Register for CondicionalProd {
    const NAME: &'static str = "condicionalprod";
}

/// The conditional register, named in answers.
pub enum Condicional {}
impl Register for Condicional {
    const NAME: &'static str = "condicional";
}

/// What a return answers: the header's row and its product lines.
#[derive(Serialize, JsonSchema)]
pub struct ReturnAnswer {
    #[serde(flatten)]
    pub head: RowOf<Condicional>,
    #[serde(rename = "ITENS")]
    pub items: Vec<RowOf<CondicionalProd>>,
}

/// Registers returned quantities and/or closes the conditional.
struct Return;

#[async_trait]
impl Operation for Return {
    type In = ReturnIn;
    type Out = ReturnAnswer;
    async fn run(&self, cx: &mut Ctx<'_>, i: ReturnIn) -> Result<ReturnAnswer> {
        let emp = cx.emp()?;
        let id = i.id;
        let client = cx.client();
        let def = cx
            .res
            .document
            .as_ref()
            .map(|d| d.def.clone())
            .ok_or_else(|| Error::internal("condicional is a document"))?;
        let tx = &mut *cx.tx;
        ops::ensure_open(tx, &def, client, Some(emp), &[id.to_string()]).await?;
        let items = i.items.unwrap_or_default();
        let close = i.close.unwrap_or(false);
        if items.is_empty() && !close {
            return Err(Error::validation(
                "Informe os itens devolvidos ou o encerramento.",
            ));
        }
        for it in &items {
            let line = it.line;
            let qty = it.qty.map(Dec::get).unwrap_or_default();
            if qty <= Decimal::ZERO {
                return Err(Error::validation(
                    "A quantidade devolvida deve ser maior que zero.",
                ));
            }
            let row: Option<OutAndBack> = sqlx::query_as(
                "SELECT cndp_qtde AS went_out, cndp_qtde_devolvida AS came_back FROM orders.condicionalprod
                 WHERE client_id = $1 AND cndp_emp_id = $2 AND cndp_cond_id = $3 AND cndp_id = $4 FOR UPDATE",
            )
            .bind(client)
            .bind(emp)
            .bind(id)
            .bind(line)
            .fetch_optional(&mut **tx)
            .await?;
            let OutAndBack { went_out: out, came_back: back } = row.ok_or_else(|| {
                Error::NotFound(format!("Item {line} não encontrado na condicional."))
            })?;
            if back + qty > out {
                return Err(Error::validation(TOO_MUCH_BACK));
            }
            sqlx::query(
                "UPDATE orders.condicionalprod SET cndp_qtde_devolvida = cndp_qtde_devolvida + $5
                 WHERE client_id = $1 AND cndp_emp_id = $2 AND cndp_cond_id = $3 AND cndp_id = $4",
            )
            .bind(client)
            .bind(emp)
            .bind(id)
            .bind(line)
            .bind(qty)
            .execute(&mut **tx)
            .await?;
        }
        let pending: Decimal = sqlx::query_scalar(
            "SELECT coalesce(sum(cndp_qtde - cndp_qtde_devolvida), 0) FROM orders.condicionalprod
             WHERE client_id = $1 AND cndp_emp_id = $2 AND cndp_cond_id = $3",
        )
        .bind(client)
        .bind(emp)
        .bind(id)
        .fetch_one(&mut **tx)
        .await?;
        let has_products: bool = sqlx::query_scalar(
            "SELECT EXISTS (SELECT 1 FROM orders.condicionalprod WHERE client_id = $1 AND cndp_emp_id = $2 AND cndp_cond_id = $3)",
        )
        .bind(client)
        .bind(emp)
        .bind(id)
        .fetch_one(&mut **tx)
        .await?;
        if close || (has_products && pending.is_zero()) {
            sqlx::query(
                "UPDATE orders.condicional SET cond_situacao = 'F', cond_dta_retorno = current_date
                 WHERE client_id = $1 AND cond_emp_id = $2 AND cond_id = $3",
            )
            .bind(client)
            .bind(emp)
            .bind(id)
            .execute(&mut **tx)
            .await?;
        }
        publish_state(tx, client, emp, id).await?;
        let head = query::get(tx, cx.res, cx.caller, Some(emp), &[id.to_string()]).await?;
        // The engine's list of the product lines (a list filter, as a screen sends it).
        let filter = Map::from_iter([
            ("CNDP_COND_ID".to_string(), Value::from(id)),
            ("LIMIT".to_string(), Value::from(6000)),
        ]);
        let lines = query::list(tx, &def.lines[0].plain, cx.caller, Some(emp), &filter).await?;
        Ok(ReturnAnswer {
            head: RowOf::new(head),
            items: lines.into_iter().map(RowOf::new).collect(),
        })
    }
}

/// What went out of a product line and what came back.
#[derive(sqlx::FromRow)]
struct OutAndBack {
    went_out: Decimal,
    came_back: Decimal,
}
