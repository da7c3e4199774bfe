//! The reports' register: `vendas` (the sales facts, read-only) carries the calls
//! of every report (`POST <the report's path>`, body of filters and `FORMATO`),
//! the definitions the web client renders the report screens from
//! (`GET /relatorios/definicoes/{emp}`) and the dashboard
//! (`POST /dasboard/{nome}`, `crate::dashboard`).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::config::Config;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::params::{body_map, company};
use erp_platform::resource::{
    file_reply, ActionHandler, ActionPerm, Call, Field, ReadOnly, Registry, Resource,
};
use erp_platform::{Error, Result};
use serde_json::{Map, Value};

use crate::engine::{Header, Report};

const SCHEMA: &str = crate::SCHEMA;

pub fn registry() -> std::result::Result<Registry, String> {
    registry_in(&Config::from_env().data_dir)
}

/// `data_dir`: where the gateway keeps uploads (the company's logo).
pub fn registry_in(data_dir: &Path) -> std::result::Result<Registry, String> {
    Registry::new(vec![vendas(data_dir.join("uploads"))])
}

pub fn vendas(uploads: PathBuf) -> Resource {
    let reports = Arc::new(crate::reports());
    let mut res = Resource::new("vendas", "Vendas Faturadas", SCHEMA, "vendas", "relatoriodevendas")
        .key(&["PEDF_ID", "PEDF_SERIE"])
        .natural_key()
        .company("VEND_EMP_ID")
        .label("CLI_NOME")
        .order("VEND_DTA DESC")
        .hooks(Arc::new(ReadOnly("As vendas vêm do faturamento dos pedidos.")))
        .fields(vec![
            Field::int("PEDF_ID", "Pedido").column("pedf_id").list().width(2),
            Field::text("PEDF_SERIE", "Série").column("serie").list().width(2),
            Field::int("VEND_EMP_ID", "Empresa").column("emp_id"),
            Field::date("VEND_DTA", "Data").column("dta").list(),
            Field::int("CLI_ID", "Cliente").column("cli_id").width(2),
            Field::text("CLI_NOME", "Nome").column("cli_nome").searchable().list().width(6),
            Field::money("VEND_TOT_PROD", "Produtos").column("tot_prod").list().width(3),
            Field::money("VEND_TOT_SERV", "Serviços").column("tot_serv").list().width(3),
            Field::money("VEND_TOTAL", "Total").column("total").list().width(3),
        ])
        .action(
            "GET",
            "/relatorios/definicoes/{emp}",
            "definicoes",
            ActionPerm::View,
            "Relatórios: definições (filtros, colunas, rota) dos relatórios disponíveis",
            Arc::new(Definitions(reports.clone())),
        )
        .action(
            "POST",
            "/dasboard/{nome}",
            "dashboard",
            ActionPerm::View,
            "Dashboard: vendas por grupo, subgrupo e forma de pagamento no período (EMP_ID, DATA_INI, DATA_FIM)",
            Arc::new(crate::dashboard::Dashboard),
        );
    for (i, r) in reports.iter().enumerate() {
        res = res.action(
            "POST",
            r.path,
            &format!("relatorio_{}", r.name),
            ActionPerm::View,
            &format!(
                "{}: JSON, PDF ou XLSX (EMP_ID, DATA_INI, DATA_FIM, FORMATO e filtros)",
                r.title
            ),
            Arc::new(ReportCall { reports: reports.clone(), index: i, uploads: uploads.clone() }),
        );
    }
    res
}

struct Definitions(Arc<Vec<Report>>);

#[async_trait]
impl ActionHandler for Definitions {
    async fn run(&self, _tx: &mut Tx, _call: Call<'_>) -> Result<Value> {
        Ok(Value::Array(
            self.0.iter().map(Report::definition).collect(),
        ))
    }
}

struct ReportCall {
    reports: Arc<Vec<Report>>,
    index: usize,
    uploads: PathBuf,
}

async fn header(tx: &mut Tx, uploads: &Path, caller: &Caller, emp: i64) -> Result<Header> {
    let row: Option<(Option<String>, Option<String>)> = sqlx::query_as(
        "SELECT descricao, logo FROM reports.empresas WHERE client_id = $1 AND emp_id = $2 AND empresa_id = $2",
    )
    .bind(caller.client_id)
    .bind(emp)
    .fetch_optional(&mut **tx)
    .await?;
    let (name, logo) = row.unwrap_or((None, None));
    let logo = match logo.as_deref().map(str::trim).filter(|l| !l.is_empty()) {
        Some(l) => {
            let file = l.rsplit('/').next().unwrap_or(l);
            let safe = !file.starts_with('.')
                && file
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
            let path = uploads
                .join(caller.client_id.to_string())
                .join(emp.to_string())
                .join(file);
            if safe {
                tokio::fs::read(&path)
                    .await
                    .ok()
                    .filter(|b| b.len() <= 2 * 1024 * 1024)
            } else {
                None
            }
        }
        None => None,
    };
    let user: Option<String> = sqlx::query_scalar(
        "SELECT coalesce(nome, usuario) FROM reports.usuarios
         WHERE client_id = $1 AND usr_id = $2 AND NOT excluido LIMIT 1",
    )
    .bind(caller.client_id)
    .bind(caller.user_id)
    .fetch_optional(&mut **tx)
    .await?
    .flatten();
    let at: chrono::NaiveDateTime =
        sqlx::query_scalar("SELECT (now() AT TIME ZONE 'America/Sao_Paulo')::timestamp")
            .fetch_one(&mut **tx)
            .await?;
    Ok(Header {
        company: name.unwrap_or_else(|| format!("Empresa {emp}")),
        user: user.unwrap_or_else(|| format!("Usuário {}", caller.user_id)),
        at,
        logo,
    })
}

#[async_trait]
impl ActionHandler for ReportCall {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let report = self
            .reports
            .get(self.index)
            .ok_or_else(|| Error::internal("report index"))?;
        let emp = company(call.emp)?;
        let body = body_map(call.body);
        let format = match body
            .get("FORMATO")
            .and_then(Value::as_str)
            .map(|s| s.trim().to_lowercase())
        {
            None => "json".to_string(),
            Some(f) if f.is_empty() => "json".to_string(),
            Some(f) if matches!(f.as_str(), "json" | "pdf" | "xlsx") => f,
            Some(_) => {
                return Err(Error::validation(
                    "Formato inválido: use json, pdf ou xlsx.",
                ))
            }
        };
        let params = report.params(&body)?;
        let (rows, totals) = report
            .source
            .rows_and_totals(tx, call.caller.client_id, emp, &params)
            .await?;
        if rows.is_empty() {
            // The engine answers an empty list with 204.
            return Ok(Value::Array(Vec::new()));
        }
        let file_name = |ext: &str| {
            format!(
                "{}-{}-{}.{ext}",
                report.name,
                params.from.format("%Y%m%d"),
                params.to.format("%Y%m%d")
            )
        };
        match format.as_str() {
            "pdf" => {
                let head = header(tx, &self.uploads, call.caller, emp).await?;
                let bytes = erp_print::table::render_pdf(&report.printable(&rows, head, true))
                    .map_err(|e| Error::internal(format!("report PDF: {e}")))?;
                Ok(file_reply("application/pdf", &file_name("pdf"), &bytes))
            }
            "xlsx" => {
                let head = header(tx, &self.uploads, call.caller, emp).await?;
                let bytes = erp_print::xlsx::render_xlsx(&report.printable(&rows, head, false))
                    .map_err(|e| Error::internal(format!("report XLSX: {e}")))?;
                Ok(file_reply(
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                    &file_name("xlsx"),
                    &bytes,
                ))
            }
            _ => {
                let mut filters = Map::new();
                filters.insert("EMP_ID".into(), Value::from(emp));
                filters.insert(
                    "DATA_INI".into(),
                    Value::from(params.from.format("%Y-%m-%d").to_string()),
                );
                filters.insert(
                    "DATA_FIM".into(),
                    Value::from(params.to.format("%Y-%m-%d").to_string()),
                );
                for f in &report.filters {
                    if let Some(v) = body.get(f.field).filter(|v| !v.is_null()) {
                        filters.insert(f.field.into(), v.clone());
                    }
                }
                // The rows move into the answer (a `json!` of them would copy each).
                let totals = totals.unwrap_or_else(|| report.totals(&rows));
                let mut answer = Map::new();
                answer.insert(
                    "dados".into(),
                    Value::Array(rows.into_iter().map(Value::Object).collect()),
                );
                answer.insert("totais".into(), Value::Object(totals));
                answer.insert("filtros".into(), Value::Object(filters));
                Ok(Value::Object(answer))
            }
        }
    }
}
