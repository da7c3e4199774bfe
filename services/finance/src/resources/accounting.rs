//! The accounting export's register (`integracaodominio`, INTD_*, screen
//! /integracaodominio: one configuration row per company) and its calls, with the
//! long-timeout client of screens-and-rules.md §7.1:
//! `GET /integracaodominio/dadosempresa/{id}` (the company and its configuration),
//! `POST /integracaodominio/configuracao/{EMP_ID}` (saves the configuration),
//! `POST /integracaodominio/enviarnotas/{EMP_ID}` and
//! `POST /integracaodominio/baixaparcela/{EMP_ID}` (`DATA_INI`, `DATA_FIM`: the
//! file of the period's invoices or settlements, `crate::accounting`).

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::resource::params::{body_map, company, id_param};
use erp_platform::resource::values::parse_date;
use erp_platform::resource::{file_reply, query, ActionHandler, ActionPerm, Call, Field, Resource};
use erp_platform::{Error, Result};
use serde_json::{json, Map, Value};

use crate::accounting;

const SCHEMA: &str = crate::SCHEMA;

pub fn all() -> Vec<Resource> {
    vec![integracaodominio()]
}

const COLUMNS: [(&str, &str, bool); 10] = [
    ("INTD_COD_EMPRESA", "Código da Empresa no Domínio", true),
    ("INTD_CONTA_CLIENTES", "Conta de Clientes", true),
    ("INTD_CONTA_FORNECEDORES", "Conta de Fornecedores", true),
    ("INTD_CONTA_CAIXA", "Conta de Caixa/Bancos", true),
    ("INTD_CONTA_RECEITA", "Conta de Receita de Vendas", true),
    ("INTD_CONTA_JUROS", "Conta de Juros", false),
    ("INTD_CONTA_DESCONTOS", "Conta de Descontos", false),
    ("INTD_HISTORICO_VENDA", "Histórico Padrão de Vendas", false),
    (
        "INTD_HISTORICO_RECEBIMENTO",
        "Histórico Padrão de Recebimentos",
        false,
    ),
    (
        "INTD_HISTORICO_PAGAMENTO",
        "Histórico Padrão de Pagamentos",
        false,
    ),
];

pub fn integracaodominio() -> Resource {
    let mut fields = vec![
        Field::id("INTD_ID", "Código"),
        Field::int("INTD_EMP_ID", "Empresa"),
    ];
    for (name, label, required) in COLUMNS {
        let f = Field::text(name, label).len(30).width(4).list();
        fields.push(if required { f.required() } else { f });
    }
    Resource::new(
        "integracaodominio",
        "Integração Domínio",
        SCHEMA,
        "integracaodominio",
        "integracaodominio",
    )
    .screen("/integracaodominio")
    .key(&["INTD_ID"])
    .company("INTD_EMP_ID")
    .label("INTD_COD_EMPRESA")
    .order("INTD_ID")
    .constraint(
        "integracaodominio_empresa_key",
        "A integração desta empresa já está configurada.",
    )
    .sample(json!({
        "INTD_COD_EMPRESA": "77", "INTD_CONTA_CLIENTES": "1.1.2.01", "INTD_CONTA_FORNECEDORES": "2.1.1.01",
        "INTD_CONTA_CAIXA": "1.1.1.01", "INTD_CONTA_RECEITA": "3.1.1.01"
    }))
    .fields(fields)
    .action(
        "GET",
        "/integracaodominio/dadosempresa/{emp}",
        "dadosempresa",
        ActionPerm::View,
        "Integração Domínio: dados da empresa e configuração",
        Arc::new(CompanyData),
    )
    .action(
        "POST",
        "/integracaodominio/configuracao/{emp}",
        "configuracao",
        ActionPerm::Update,
        "Integração Domínio: salvar a configuração (código da empresa, contas, históricos)",
        Arc::new(Configure),
    )
    .action(
        "POST",
        "/integracaodominio/enviarnotas/{emp}",
        "enviarnotas",
        ActionPerm::View,
        "Integração Domínio: arquivo dos lançamentos das notas do período (DATA_INI, DATA_FIM)",
        Arc::new(Export { settlements: false }),
    )
    .action(
        "POST",
        "/integracaodominio/baixaparcela/{emp}",
        "baixaparcela",
        ActionPerm::View,
        "Integração Domínio: arquivo dos lançamentos das baixas do período (DATA_INI, DATA_FIM)",
        Arc::new(Export { settlements: true }),
    )
}

async fn config_row(tx: &mut Tx, call: &Call<'_>, emp: i64) -> Result<Value> {
    let id: Option<i64> = sqlx::query_scalar(
        "SELECT intd_id FROM finance.integracaodominio WHERE client_id = $1 AND intd_emp_id = $2",
    )
    .bind(call.caller.client_id)
    .bind(emp)
    .fetch_optional(&mut **tx)
    .await?;
    match id {
        Some(id) => query::get(tx, call.res, call.caller, Some(emp), &[id.to_string()]).await,
        None => Ok(Value::Null),
    }
}

struct CompanyData;

#[async_trait]
impl ActionHandler for CompanyData {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp.or_else(|| id_param(call.params, "emp").ok()))?;
        let c = crate::copies::company(tx, call.caller.client_id, emp).await?;
        let cfg = config_row(tx, &call, emp).await?;
        Ok(json!({
            "EMPRESA": c.map(|c| json!({
                "EMP_ID": emp, "EMP_DESCRICAO": c.name, "EMP_CGC": c.document,
                "ENDERECO": c.address, "CIDADE": c.city,
            })),
            "CONFIGURACAO": cfg,
        }))
    }
}

struct Configure;

#[async_trait]
impl ActionHandler for Configure {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp)?;
        let client = call.caller.client_id;
        let body = body_map(call.body.clone());
        let mut values = Vec::with_capacity(COLUMNS.len());
        for (name, label, required) in COLUMNS {
            let v = body
                .get(name)
                .and_then(|v| match v {
                    Value::String(s) => Some(s.trim().to_string()),
                    Value::Number(n) => Some(n.to_string()),
                    _ => None,
                })
                .filter(|s| !s.is_empty());
            if required && v.is_none() {
                return Err(Error::validation(format!("{label} é obrigatório!")));
            }
            if v.as_deref().is_some_and(|s| s.chars().count() > 30) {
                return Err(Error::validation(format!(
                    "{label}: máximo de 30 caracteres."
                )));
            }
            values.push(v);
        }
        let id = crate::bank::next_ids(
            tx,
            client,
            emp,
            "integracaodominio",
            "intd_id",
            "intd_emp_id",
            1,
        )
        .await?;
        let mut q = sqlx::query(
            "INSERT INTO finance.integracaodominio (client_id, intd_emp_id, intd_id, intd_cod_empresa, intd_conta_clientes,
                 intd_conta_fornecedores, intd_conta_caixa, intd_conta_receita, intd_conta_juros, intd_conta_descontos,
                 intd_historico_venda, intd_historico_recebimento, intd_historico_pagamento)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
             ON CONFLICT (client_id, intd_emp_id) DO UPDATE SET intd_cod_empresa = EXCLUDED.intd_cod_empresa,
                 intd_conta_clientes = EXCLUDED.intd_conta_clientes, intd_conta_fornecedores = EXCLUDED.intd_conta_fornecedores,
                 intd_conta_caixa = EXCLUDED.intd_conta_caixa, intd_conta_receita = EXCLUDED.intd_conta_receita,
                 intd_conta_juros = EXCLUDED.intd_conta_juros, intd_conta_descontos = EXCLUDED.intd_conta_descontos,
                 intd_historico_venda = EXCLUDED.intd_historico_venda,
                 intd_historico_recebimento = EXCLUDED.intd_historico_recebimento,
                 intd_historico_pagamento = EXCLUDED.intd_historico_pagamento",
        )
        .bind(client)
        .bind(emp)
        .bind(id);
        for v in &values {
            q = q.bind(v);
        }
        q.execute(&mut **tx).await?;
        config_row(tx, &call, emp).await
    }
}

fn date_of(body: &Map<String, Value>, key: &str, label: &str) -> Result<chrono::NaiveDate> {
    match body.get(key) {
        Some(Value::String(s)) if !s.trim().is_empty() => parse_date(s),
        _ => Err(Error::validation(format!("{label} é obrigatório!"))),
    }
}

struct Export {
    settlements: bool,
}

#[async_trait]
impl ActionHandler for Export {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp)?;
        let client = call.caller.client_id;
        let body = body_map(call.body);
        let from = date_of(&body, "DATA_INI", "Data inicial")?;
        let to = date_of(&body, "DATA_FIM", "Data final")?;
        let cfg = accounting::config(tx, client, emp).await?;
        let entries = if self.settlements {
            accounting::settlements(tx, client, emp, &cfg, from, to).await?
        } else {
            accounting::invoices(tx, client, emp, &cfg, from, to).await?
        };
        if entries.is_empty() {
            return Err(Error::validation("Nenhum lançamento no período."));
        }
        let name = format!(
            "dominio-{}-{}-{}.txt",
            if self.settlements { "baixas" } else { "notas" },
            from.format("%Y%m%d"),
            to.format("%Y%m%d")
        );
        Ok(file_reply(
            "text/plain; charset=windows-1252",
            &name,
            &accounting::file(&cfg.company_code, &entries),
        ))
    }
}
