//! The accounting export's register (`integracaodominio`, INTD_*, screen
//! /integracaodominio: one configuration row per company) and its calls, with the
//! long-timeout client of screens-and-rules.md §7.1:
//! `GET /integracaodominio/dadosempresa/{emp}` (the company and its configuration,
//! `CompanyDataOut`), `POST /integracaodominio/configuracao/{emp}` (saves the
//! configuration, `ConfigureIn`; answers its row),
//! `POST /integracaodominio/enviarnotas/{emp}` and
//! `POST /integracaodominio/baixaparcela/{emp}` (`DATA_INI`, `DATA_FIM`: the
//! file of the period's invoices or settlements, `crate::accounting`).

use async_trait::async_trait;
use erp_platform::resource::call::{Ctx, Date, File, Operation, Row};
use erp_platform::resource::{query, ActionPerm, Field, Resource};
use erp_platform::{Error, Result};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::Nothing;
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
    .call(
        "GET",
        "/integracaodominio/dadosempresa/{emp}",
        "dadosempresa",
        ActionPerm::View,
        "Integração Domínio: dados da empresa e configuração",
        CompanyData,
    )
    .call(
        "POST",
        "/integracaodominio/configuracao/{emp}",
        "configuracao",
        ActionPerm::Update,
        "Integração Domínio: salvar a configuração (código da empresa, contas, históricos)",
        Configure,
    )
    .call(
        "POST",
        "/integracaodominio/enviarnotas/{emp}",
        "enviarnotas",
        ActionPerm::View,
        "Integração Domínio: arquivo dos lançamentos das notas do período (DATA_INI, DATA_FIM)",
        Export { settlements: false },
    )
    .call(
        "POST",
        "/integracaodominio/baixaparcela/{emp}",
        "baixaparcela",
        ActionPerm::View,
        "Integração Domínio: arquivo dos lançamentos das baixas do período (DATA_INI, DATA_FIM)",
        Export { settlements: true },
    )
}

/// The company's configuration row, if it has one.
async fn config_row(cx: &mut Ctx<'_>, emp: i64) -> Result<Option<Row>> {
    let id: Option<i64> = sqlx::query_scalar(
        "SELECT intd_id FROM finance.integracaodominio WHERE client_id = $1 AND intd_emp_id = $2",
    )
    .bind(cx.client())
    .bind(emp)
    .fetch_optional(&mut **cx.tx)
    .await?;
    match id {
        Some(id) => {
            let row = query::get(cx.tx, cx.res, cx.caller, Some(emp), &[id.to_string()]).await?;
            Ok(Some(Row(row)))
        }
        None => Ok(None),
    }
}

/// The company as the export names it.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct CompanyOut {
    #[serde(rename = "EMP_ID")]
    pub id: i64,
    #[serde(rename = "EMP_DESCRICAO")]
    pub name: String,
    #[serde(rename = "EMP_CGC")]
    pub document: String,
    #[serde(rename = "ENDERECO")]
    pub address: String,
    #[serde(rename = "CIDADE")]
    pub city: String,
}

/// The company (null until identity's fact arrived) and its configuration (null
/// until saved).
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct CompanyDataOut {
    #[serde(rename = "EMPRESA")]
    pub company: Option<CompanyOut>,
    #[serde(rename = "CONFIGURACAO")]
    pub config: Option<Row>,
}

/// `GET /integracaodominio/dadosempresa/{emp}`.
struct CompanyData;

#[async_trait]
impl Operation for CompanyData {
    type In = Nothing;
    type Out = CompanyDataOut;
    async fn run(&self, cx: &mut Ctx<'_>, _: Nothing) -> Result<CompanyDataOut> {
        let emp = cx.emp()?;
        let c = crate::copies::company(cx.tx, cx.client(), emp).await?;
        let config = config_row(cx, emp).await?;
        Ok(CompanyDataOut {
            company: c.map(|c| CompanyOut {
                id: emp,
                name: c.name,
                document: c.document,
                address: c.address,
                city: c.city,
            }),
            config,
        })
    }
}

/// `POST /integracaodominio/configuracao/{emp}`: the configuration's values (see
/// `COLUMNS`: the company's code and the four main accounts are required, each
/// at most 30 characters).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct ConfigureIn {
    #[serde(rename = "INTD_COD_EMPRESA", default)]
    pub company_code: Option<String>,
    #[serde(rename = "INTD_CONTA_CLIENTES", default)]
    pub customers: Option<String>,
    #[serde(rename = "INTD_CONTA_FORNECEDORES", default)]
    pub suppliers: Option<String>,
    #[serde(rename = "INTD_CONTA_CAIXA", default)]
    pub cash: Option<String>,
    #[serde(rename = "INTD_CONTA_RECEITA", default)]
    pub revenue: Option<String>,
    #[serde(rename = "INTD_CONTA_JUROS", default)]
    pub interest: Option<String>,
    #[serde(rename = "INTD_CONTA_DESCONTOS", default)]
    pub discounts: Option<String>,
    #[serde(rename = "INTD_HISTORICO_VENDA", default)]
    pub sale_history: Option<String>,
    #[serde(rename = "INTD_HISTORICO_RECEBIMENTO", default)]
    pub receipt_history: Option<String>,
    #[serde(rename = "INTD_HISTORICO_PAGAMENTO", default)]
    pub payment_history: Option<String>,
}

impl ConfigureIn {
    /// The values in `COLUMNS`' order.
    fn values(self) -> [Option<String>; 10] {
        [
            self.company_code,
            self.customers,
            self.suppliers,
            self.cash,
            self.revenue,
            self.interest,
            self.discounts,
            self.sale_history,
            self.receipt_history,
            self.payment_history,
        ]
    }
}

/// `POST /integracaodominio/configuracao/{emp}`: saves the company's one
/// configuration row; answers it.
struct Configure;

#[async_trait]
impl Operation for Configure {
    type In = ConfigureIn;
    type Out = Row;
    async fn run(&self, cx: &mut Ctx<'_>, i: ConfigureIn) -> Result<Row> {
        let emp = cx.emp()?;
        let client = cx.client();
        let mut values = Vec::with_capacity(COLUMNS.len());
        for (v, (_, label, required)) in i.values().into_iter().zip(COLUMNS) {
            let v = v.map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
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
            cx.tx,
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
        q.execute(&mut **cx.tx).await?;
        config_row(cx, emp).await?.ok_or_else(Error::not_found)
    }
}

/// `POST /integracaodominio/{enviarnotas|baixaparcela}/{emp}`: the period.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct ExportIn {
    #[serde(rename = "DATA_INI", default)]
    #[schemars(title = "Data inicial")]
    pub from: Option<Date>,
    #[serde(rename = "DATA_FIM", default)]
    #[schemars(title = "Data final")]
    pub to: Option<Date>,
}

fn required(d: Option<Date>, label: &str) -> Result<chrono::NaiveDate> {
    d.map(Date::get)
        .ok_or_else(|| Error::validation(format!("{label} é obrigatório!")))
}

/// The file of the period's invoices or settlements (`crate::accounting`).
struct Export {
    settlements: bool,
}

#[async_trait]
impl Operation for Export {
    type In = ExportIn;
    type Out = File;
    async fn run(&self, cx: &mut Ctx<'_>, i: ExportIn) -> Result<File> {
        let emp = cx.emp()?;
        let client = cx.client();
        let from = required(i.from, "Data inicial")?;
        let to = required(i.to, "Data final")?;
        let cfg = accounting::config(cx.tx, client, emp).await?;
        let entries = if self.settlements {
            accounting::settlements(cx.tx, client, emp, &cfg, from, to).await?
        } else {
            accounting::invoices(cx.tx, client, emp, &cfg, from, to).await?
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
        Ok(File::new(
            "text/plain; charset=windows-1252",
            &name,
            accounting::file(&cfg.company_code, &entries),
        ))
    }
}
