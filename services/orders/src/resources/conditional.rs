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
use erp_platform::resource::document::ops;
use erp_platform::resource::{
    params, query, ActionHandler, ActionPerm, Call, DbType, Document, Field, Hooks, Kind, Lines,
    Op, Resource, Role, Total,
};
use erp_platform::{Error, Result};
use erp_proto::orders::v1::{CondicionalSituacao, ConditionalLine};
use prost::Message as _;
use rust_decimal::Decimal;
use serde_json::{json, Map, Value};
use sqlx::Row;

use super::customer::CustomerCopy;
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
        .hooks(Arc::new(HeaderHooks(CustomerCopy { customer: "COND_CLI_ID", name: "COND_CLI_DESC", city: None })))
        .sample(json!({"COND_CLI_ID": 1, "COND_DTA_SAIDA": "2026-11-22", "COND_DTA_RETORNO": "2026-11-29", "COND_OBS": "Cliente leva para provar"}))
        .action("PUT", "/condicional/devolucao/{COND_ID}/{emp}", "devolucao", ActionPerm::Update, "Registrar devoluções da condicional e/ou encerrá-la (corpo: ITENS [{CNDP_ID, QTDE}], ENCERRAR)", Arc::new(Return))
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
    .hooks(Arc::new(ReturnedCheck))
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

/// Product lines: the quantity out never below what already came back.
struct ReturnedCheck;

#[async_trait]
impl Hooks for ReturnedCheck {
    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &Value) -> Result<()> {
        if op == Op::Update
            && params::dec(&row["CNDP_QTDE_DEVOLVIDA"])? > params::dec(&row["CNDP_QTDE"])?
        {
            return Err(Error::validation(TOO_MUCH_BACK));
        }
        let (Some(emp), Some(id)) = (num(&row["CNDP_EMP_ID"]), num(&row["CNDP_COND_ID"])) else {
            return Err(Error::internal(
                "condicionalprod row without its conditional",
            ));
        };
        publish_state(tx, caller.client_id, emp, id).await
    }
}

/// The header's hooks: the customer's name from the copy, and the state published
/// after every write.
struct HeaderHooks(CustomerCopy);

#[async_trait]
impl Hooks for HeaderHooks {
    async fn prepare(
        &self,
        tx: &mut Tx,
        op: Op,
        caller: &Caller,
        emp: Option<i64>,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        self.0.prepare(tx, op, caller, emp, body).await
    }

    async fn after_write(&self, tx: &mut Tx, _op: Op, caller: &Caller, row: &Value) -> Result<()> {
        let (Some(emp), Some(id)) = (num(&row["COND_EMP_ID"]), num(&row["COND_ID"])) else {
            return Err(Error::internal("condicional row without its key"));
        };
        publish_state(tx, caller.client_id, emp, id).await
    }
}

/// Leaves the conditional's whole state in the outbox (`X` once it is gone).
pub async fn publish_state(tx: &mut Tx, client: i64, emp: i64, id: i64) -> Result<()> {
    let head = sqlx::query(
        "SELECT cond_cli_id, coalesce(cond_cli_desc, ''), cond_dta_saida::text, coalesce(cond_dta_retorno::text, ''),
                cond_situacao
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
            let lines = sqlx::query(
                "SELECT cndp_id, cndp_prod_id, coalesce(cndp_descricao, ''), cndp_qtde::text,
                        cndp_qtde_devolvida::text, cndp_vlr_unit::text
                 FROM orders.condicionalprod
                 WHERE client_id = $1 AND cndp_emp_id = $2 AND cndp_cond_id = $3 ORDER BY cndp_id",
            )
            .bind(client)
            .bind(emp)
            .bind(id)
            .fetch_all(&mut **tx)
            .await?
            .iter()
            .map(|r| {
                Ok(ConditionalLine {
                    item: r.try_get(0)?,
                    product_id: r.try_get(1)?,
                    description: r.try_get(2)?,
                    quantity: r.try_get(3)?,
                    returned: r.try_get(4)?,
                    unit_price: r.try_get(5)?,
                })
            })
            .collect::<std::result::Result<Vec<_>, sqlx::Error>>()?;
            CondicionalSituacao {
                client_id: client,
                emp_id: emp,
                cond_id: id,
                customer_id: h.try_get(0)?,
                customer_name: h.try_get(1)?,
                left_on: h.try_get(2)?,
                return_on: h.try_get(3)?,
                status: h.try_get(4)?,
                lines,
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

fn num(v: &Value) -> Option<i64> {
    match v {
        Value::String(s) => s.trim().parse().ok(),
        v => v.as_i64(),
    }
}

/// Registers returned quantities and/or closes the conditional.
struct Return;

#[async_trait]
impl ActionHandler for Return {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, emp, params: p, body } = call;
        let emp = params::company(emp)?;
        let id = params::id_param(p, "COND_ID")?;
        let client = caller.client_id;
        let def = res
            .document
            .as_ref()
            .map(|d| d.def.clone())
            .ok_or_else(|| Error::internal("condicional is a document"))?;
        ops::ensure_open(tx, &def, client, Some(emp), &[id.to_string()]).await?;
        let items = match body.get("ITENS") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(a)) => a.clone(),
            Some(_) => return Err(Error::validation("ITENS deve ser uma lista.")),
        };
        let close = matches!(body.get("ENCERRAR"), Some(Value::Bool(true)))
            || matches!(
                body.get("ENCERRAR").and_then(Value::as_str),
                Some("S" | "s" | "true" | "1")
            );
        if items.is_empty() && !close {
            return Err(Error::validation(
                "Informe os itens devolvidos ou o encerramento.",
            ));
        }
        for it in &items {
            let line = num(&it["CNDP_ID"]).ok_or_else(|| Error::validation("CNDP_ID inválido."))?;
            let qty = match &it["QTDE"] {
                Value::String(s) => params::dec(&Value::String(s.trim().replace(',', ".")))?,
                v => params::dec(v)?,
            };
            if qty <= Decimal::ZERO {
                return Err(Error::validation(
                    "A quantidade devolvida deve ser maior que zero.",
                ));
            }
            let row: Option<(Decimal, Decimal)> = sqlx::query_as(
                "SELECT cndp_qtde, cndp_qtde_devolvida FROM orders.condicionalprod
                 WHERE client_id = $1 AND cndp_emp_id = $2 AND cndp_cond_id = $3 AND cndp_id = $4 FOR UPDATE",
            )
            .bind(client)
            .bind(emp)
            .bind(id)
            .bind(line)
            .fetch_optional(&mut **tx)
            .await?;
            let (out, back) = row.ok_or_else(|| {
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
        let mut head = query::get(tx, res, caller, Some(emp), &[id.to_string()]).await?;
        let mut filter = Map::new();
        filter.insert("CNDP_COND_ID".into(), json!(id));
        filter.insert("LIMIT".into(), json!(6000));
        let lines = query::list(tx, &def.lines[0].plain, caller, Some(emp), &filter).await?;
        if let Value::Object(m) = &mut head {
            m.insert("ITENS".into(), Value::Array(lines));
        }
        Ok(head)
    }
}
