//! Support operators' calls: running a scheduled job by hand.
//!
//! `POST /jobs/{service}/{job}` publishes one run of a service's job (the same
//! message the scheduler publishes for a slot, with a `manual-…` slot), for a support
//! operator who needs it now (a prune after a load, a retry after an outage). Only
//! operators (companies 130, 9999, 9998 of the operator client) may call it.

use axum::extract::Request;
use axum::http::Method;
use erp_platform::bus::jobs;
use erp_platform::Error;
use serde_json::json;

use crate::access::{check_program, Perm};
use crate::auth::Auth;
use crate::reply::{ok_json, ApiResult};
use crate::routes::{Params, Routes};
use crate::state::AppState;

async fn run_job(st: AppState, auth: Auth, p: Params, _req: Request) -> ApiResult {
    check_program(&auth, "", "", Perm::Operator)?;
    let service = p.get("service")?;
    let job = p.get("job")?;
    if !crate::composition::services()
        .iter()
        .any(|s| s.name == service)
    {
        return Err(Error::NotFound(format!("Serviço '{service}' não encontrado.")).into());
    }
    if !jobs::platform_jobs().iter().any(|j| j.name == job) {
        return Err(Error::NotFound(format!("Tarefa '{job}' não encontrada.")).into());
    }
    let id = jobs::trigger(st.bus.as_ref(), service, job).await?;
    tracing::info!(operator = auth.caller.user_id, %id, "job triggered by hand");
    ok_json(json!({"code": 200, "msg": "Tarefa enviada para execução.", "id": id}))
}

pub fn add(routes: &mut Routes) {
    routes.add(
        Method::POST,
        "/jobs/{service}/{job}",
        "Executar uma tarefa agendada agora (somente operadores de suporte)",
        run_job,
    );
}
