//! Declared transitions served by a service's typed API: a register declares the
//! call (path, name, permission, button) without a handler, and the gateway runs
//! it here through the owning service's typed gRPC client, answering what the
//! legacy call answers. The guard and the permission were checked by the caller
//! (`register_calls::action`).

use std::collections::HashMap;

use erp_platform::{Error, Result};
use erp_proto::orders::v1::{
    ConvertQuoteRequest, DocumentKind, DocumentReply, DuplicateRequest, InvoiceRequest, OrderKey,
    QuoteTarget,
};
use serde_json::{json, Value};

use crate::auth::Auth;
use crate::state::AppState;
use crate::upstream::{call, request};

fn int(params: &HashMap<String, String>, k: &str) -> Result<i64> {
    erp_platform::resource::params::id_param(params, k)
}

fn text<'a>(params: &'a HashMap<String, String>, k: &str) -> Result<&'a str> {
    erp_platform::resource::params::param(params, k)
}

fn row(r: DocumentReply) -> Result<Value> {
    Ok(serde_json::from_slice(&r.row_json)?)
}

/// Runs the transition `action` of register `resource` in company `emp`.
pub async fn run(
    st: &AppState,
    auth: &Auth,
    resource: &str,
    action: &str,
    emp: i64,
    params: &HashMap<String, String>,
    body: &Value,
) -> Result<Value> {
    let mut orders = st.up.orders()?;
    let convert = |target: QuoteTarget| -> Result<ConvertQuoteRequest> {
        Ok(ConvertQuoteRequest {
            emp,
            id: int(params, "ORCA_ID")?,
            target: target as i32,
            ..Default::default()
        })
    };
    match (resource, action) {
        ("pedido", "faturar") => {
            let key = OrderKey {
                emp,
                id: int(params, "PEDF_ID")?,
                serie: text(params, "PEDF_SERIE")?.into(),
            };
            // The user confirmed invoicing past the customer's credit limit
            // (orders checks the grant and records the release).
            let release_credit = match body.get("LIBERAR_LIMITE") {
                Some(Value::Bool(b)) => *b,
                Some(Value::String(v)) => matches!(v.trim(), "S" | "s" | "1" | "true"),
                _ => false,
            };
            let req = InvoiceRequest { key: Some(key), release_credit };
            let r = call(orders.invoice(request(&auth.caller, req))).await?;
            Ok(json!({
                "code": 200,
                "msg": r.message,
                "PEDF_ID": r.id,
                "PEDF_EMP_ID": r.emp,
                "PEDF_SERIE": r.serie,
                "PEDF_SITUACAO": r.status,
                "PEDF_VLR_TOTAL": r.total,
            }))
        }
        ("pedido", "duplicar") | ("orcamento", "duplicar") => {
            let (kind, id, serie) = if resource == "pedido" {
                (
                    DocumentKind::BillingOrder,
                    int(params, "PEDF_ID")?,
                    text(params, "PEDF_SERIE")?.to_string(),
                )
            } else {
                (DocumentKind::Quote, int(params, "ORCA_ID")?, String::new())
            };
            let req = DuplicateRequest { kind: kind as i32, emp, id, serie };
            row(call(orders.duplicate(request(&auth.caller, req))).await?)
        }
        ("orcamento", "geraos") => {
            let req = convert(QuoteTarget::ServiceOrder)?;
            row(call(orders.convert_quote(request(&auth.caller, req))).await?)
        }
        ("orcamento", "gerapedidofat") => {
            let mut req = convert(QuoteTarget::BillingOrder)?;
            req.serie = text(params, "serie")?.into();
            req.model = text(params, "model")?.into();
            req.operation = text(params, "type")?.into();
            row(call(orders.convert_quote(request(&auth.caller, req))).await?)
        }
        ("orcamento", "gerarequisicao") => {
            let req = convert(QuoteTarget::Requisition)?;
            let id = req.id;
            call(orders.convert_quote(request(&auth.caller, req))).await?;
            Ok(json!({"code": 200, "msg": "Requisição enviada ao estoque.", "ORCA_ID": id}))
        }
        _ => Err(Error::NotFound(format!("Ação '{action}' não encontrada."))),
    }
}
