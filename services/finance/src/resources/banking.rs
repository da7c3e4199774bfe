//! Bank accounts (`banco`): the company's accounts and cashboxes, with what bank
//! slips and Pix need (COMPE code picked from catalog's `bancosbr`, agency, account,
//! wallet, agreement, Pix key) and the certificate and key files of the bank's API,
//! uploaded by `PUT /banco/uploads/{id}/{emp}` (multipart `file` plus a form field
//! `tipo` = CERTIFICATE or KEY naming which of the two it is; answers the
//! account's row). `BCO_SALDO` is the account's current balance: the initial
//! balance plus its movements.

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::call::{Ctx, Operation, Row, Upload};
use erp_platform::resource::{query, DbType, Field, Kind, Op, RecordHooks, Resource};
use erp_platform::{Error, Result};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::Loose;

const SCHEMA: &str = crate::SCHEMA;

pub const ACCOUNT_TYPES: [(&str, &str); 5] = [
    ("C", "Conta Corrente"),
    ("P", "Conta Poupança"),
    ("I", "Conta Investimento"),
    ("G", "Conta de Pagamento"),
    ("X", "Caixa Interno"),
];

pub const CNAB_LAYOUTS: [(&str, &str); 2] = [("240", "CNAB 240"), ("400", "CNAB 400")];

pub const PIX_KEY_TYPES: [(&str, &str); 5] = [
    ("CPF", "CPF"),
    ("CNPJ", "CNPJ"),
    ("EMAIL", "E-mail"),
    ("TELEFONE", "Telefone"),
    ("ALEATORIA", "Chave Aleatória"),
];

/// File types the bank's certificate and key may have (spec §5, certificate fields
/// plus pfx).
pub const CERTIFICATE_TYPES: [&str; 6] = ["pdf", "crt", "cer", "pem", "key", "pfx"];

pub fn all() -> Vec<Resource> {
    vec![banco()]
}

pub fn banco() -> Resource {
    Resource::new("banco", "Bancos", SCHEMA, "banco", "bancos")
        .screen("/bancos")
        .key(&["BCO_ID"])
        .company("BCO_EMP_ID")
        .label("BCO_DESCRICAO")
        .order("BCO_DESCRICAO")
        .events("banco")
        .record_hooks(BankHooks)
        .upload_call(
            "PUT",
            "/banco/uploads/{id}/{emp}",
            "uploads",
            &CERTIFICATE_TYPES,
            "Bancos: enviar certificado (tipo=CERTIFICATE) ou chave (tipo=KEY)",
            UploadFile,
        )
        .sample(json!({
            "BCO_DESCRICAO": "BANCO DO BRASIL - CONTA MOVIMENTO", "BCO_COMPE": "001", "BCO_TIPO_CONTA": "C",
            "BCO_AGENCIA": "1234", "BCO_AGENCIA_DV": "5", "BCO_CONTA": "123456", "BCO_CONTA_DV": "7",
            "BCO_CARTEIRA": "17", "BCO_CONVENIO": "1234567", "BCO_TIPO_CHAVE_PIX": "EMAIL",
            "BCO_CHAVE_PIX": "financeiro@exemplo.com.br", "BCO_SALDO_INICIAL": "1500.00",
            "BCO_DTA_SALDO": "2026-01-01", "BCO_PERC_MULTA": "2", "BCO_PERC_JUROS": "1",
            "BCO_LAYOUT_CNAB": "400"
        }))
        .fields(vec![
            Field::id("BCO_ID", "Código"),
            Field::int("BCO_EMP_ID", "Empresa"),
            Field::text("BCO_DESCRICAO", "Descrição")
                .required()
                .len(100)
                .searchable()
                .list()
                .width(6),
            Field::text("BCO_COMPE", "Banco")
                .len(3)
                .min_len(3)
                .kind(Kind::Autocomplete)
                .reference_to("bancosbr")
                .list()
                .width(4),
            Field::options("BCO_TIPO_CONTA", "Tipo de Conta", DbType::Text, &ACCOUNT_TYPES)
                .required()
                .default("C".into())
                .list()
                .width(3),
            Field::text("BCO_AGENCIA", "Agência").len(10).list().width(2),
            Field::text("BCO_AGENCIA_DV", "Dígito").len(2).width(1),
            Field::text("BCO_CONTA", "Conta").len(20).list().width(3),
            Field::text("BCO_CONTA_DV", "Dígito").len(2).width(1),
            Field::text("BCO_CARTEIRA", "Carteira").len(10).width(2),
            Field::text("BCO_CONVENIO", "Convênio").len(20).width(3),
            Field::text("BCO_COD_BENEFICIARIO", "Código do Beneficiário").len(20).width(3),
            Field::text("BCO_VARIACAO_CARTEIRA", "Variação da Carteira").len(3).width(2),
            Field::text("BCO_MODALIDADE", "Modalidade / IOS").len(2).width(2),
            Field::options("BCO_LAYOUT_CNAB", "Leiaute CNAB", DbType::Text, &CNAB_LAYOUTS).width(2),
            Field::int("BCO_PROX_NOSSO_NUMERO", "Próximo Nosso Número")
                .min("1")
                .max("9999999999")
                .default(1.into())
                .width(3),
            Field::int("BCO_PROX_REMESSA", "Próxima Remessa")
                .min("1")
                .max("999999")
                .default(1.into())
                .width(2),
            Field::options("BCO_TIPO_CHAVE_PIX", "Tipo da Chave Pix", DbType::Text, &PIX_KEY_TYPES).width(3),
            Field::text("BCO_CHAVE_PIX", "Chave Pix").len(77).width(6),
            // An account may start overdrawn: no lower bound, unlike Field::money.
            Field::decimal("BCO_SALDO_INICIAL", "Saldo Inicial")
                .kind(Kind::Money)
                .scale(2)
                .default("0".into())
                .width(3),
            Field::date("BCO_DTA_SALDO", "Data do Saldo Inicial"),
            // The initial balance plus the account's movements (`bank`), kept by
            // the database as they are written.
            Field::decimal("BCO_SALDO", "Saldo Atual")
                .kind(Kind::Money)
                .scale(2)
                .read_only()
                .list()
                .width(3),
            Field::money("BCO_LIMITE", "Limite").width(3),
            Field::decimal("BCO_PERC_MULTA", "Multa (%)")
                .scale(4)
                .min("0")
                .max("100")
                .width(2),
            Field::decimal("BCO_PERC_JUROS", "Juros ao Mês (%)")
                .scale(4)
                .min("0")
                .max("100")
                .width(2),
            Field::int("BCO_DIAS_PROTESTO", "Dias para Protesto")
                .min("0")
                .max("999")
                .width(2),
            Field::textarea("BCO_INSTRUCOES", "Instruções do Boleto").len(1000),
            Field::upload("BCO_CERTIFICADO", "Certificado", &CERTIFICATE_TYPES),
            Field::upload("BCO_CHAVE", "Chave Privada", &CERTIFICATE_TYPES),
            Field::situation("BCO_SITUACAO"),
            Field::timestamp("BCO_DTA_CAD", "Data de Cadastro"),
        ])
        .group(
            Some("Conta"),
            true,
            12,
            &[
                "BCO_ID",
                "BCO_DESCRICAO",
                "BCO_COMPE",
                "BCO_TIPO_CONTA",
                "BCO_AGENCIA",
                "BCO_AGENCIA_DV",
                "BCO_CONTA",
                "BCO_CONTA_DV",
                "BCO_SITUACAO",
            ],
        )
        .group(
            Some("Saldo"),
            true,
            12,
            &["BCO_SALDO_INICIAL", "BCO_DTA_SALDO", "BCO_LIMITE", "BCO_SALDO"],
        )
        .group(
            Some("Cobrança"),
            true,
            12,
            &[
                "BCO_CARTEIRA",
                "BCO_VARIACAO_CARTEIRA",
                "BCO_CONVENIO",
                "BCO_COD_BENEFICIARIO",
                "BCO_MODALIDADE",
                "BCO_LAYOUT_CNAB",
                "BCO_PROX_NOSSO_NUMERO",
                "BCO_PROX_REMESSA",
                "BCO_PERC_MULTA",
                "BCO_PERC_JUROS",
                "BCO_DIAS_PROTESTO",
                "BCO_INSTRUCOES",
            ],
        )
        .group(
            Some("Pix e Integração"),
            true,
            12,
            &[
                "BCO_TIPO_CHAVE_PIX",
                "BCO_CHAVE_PIX",
                "BCO_CERTIFICADO",
                "BCO_CHAVE",
            ],
        )
}

/// The COMPE code and the agency are digits; a Pix key needs its type.
struct BankHooks;

/// What the account's hook reads of a body.
#[derive(Deserialize, Serialize)]
struct BankBody {
    #[serde(rename = "BCO_COMPE", default, skip_serializing)]
    compe: Loose<String>,
    #[serde(rename = "BCO_AGENCIA", default, skip_serializing)]
    agency: Loose<String>,
    #[serde(rename = "BCO_CHAVE_PIX", default, skip_serializing)]
    pix_key: Loose<String>,
    #[serde(rename = "BCO_TIPO_CHAVE_PIX", default, skip_serializing)]
    pix_key_type: Loose<String>,
}

/// What the account's hook reads of a written account.
#[derive(Deserialize)]
struct BankRow {
    #[serde(rename = "BCO_ID")]
    id: i64,
    #[serde(rename = "BCO_EMP_ID")]
    emp: i64,
    #[serde(rename = "BCO_PROX_NOSSO_NUMERO", default)]
    next_nosso_numero: Option<i64>,
}

fn filled(v: &Loose<String>) -> bool {
    v.0.as_deref().is_some_and(|s| !s.trim().is_empty())
}

#[async_trait]
impl RecordHooks for BankHooks {
    type Body = BankBody;
    type Row = BankRow;

    async fn before_write(&self, _op: Op, _caller: &Caller, body: &mut BankBody) -> Result<()> {
        for (value, label) in [(&body.compe, "Banco"), (&body.agency, "Agência")] {
            if let Some(s) = value.0.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
                if !s.chars().all(|c| c.is_ascii_digit()) {
                    return Err(Error::validation(format!(
                        "{label}: informe apenas números."
                    )));
                }
            }
        }
        if filled(&body.pix_key) && !filled(&body.pix_key_type) {
            return Err(Error::validation("Tipo da Chave Pix é obrigatório!"));
        }
        Ok(())
    }

    /// A 'nosso número' is never issued twice: the next one stays above every
    /// slip the account has (users set it when they move from another system).
    async fn after_write(&self, tx: &mut Tx, op: Op, caller: &Caller, row: &BankRow) -> Result<()> {
        if op == Op::Delete {
            return Ok(());
        }
        let next = row.next_nosso_numero.unwrap_or(1);
        let used: Option<i64> = sqlx::query_scalar(
            "SELECT max(bol_sequencia) FROM finance.boletos WHERE client_id = $1 AND bol_emp_id = $2 AND bol_bco_id = $3",
        )
        .bind(caller.client_id)
        .bind(row.emp)
        .bind(row.id)
        .fetch_one(&mut **tx)
        .await?;
        match used {
            Some(last) if next <= last => Err(Error::validation(format!(
                "O nosso número {next} já foi usado nesta conta: o próximo deve ser maior que {last}."
            ))),
            _ => Ok(()),
        }
    }
}

/// `PUT /banco/uploads/{id}/{emp}`: the account, the stored file and which of the
/// two files it is.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct UploadIn {
    /// The account (`BCO_ID`).
    pub id: i64,
    #[serde(default)]
    pub arquivo: Option<Upload>,
    /// CERTIFICATE (or CERTIFICADO) or KEY (or CHAVE).
    #[serde(default, alias = "TIPO")]
    #[schemars(title = "Tipo")]
    pub tipo: Option<String>,
}

/// Stores the uploaded file's name in BCO_CERTIFICADO or BCO_CHAVE, by `tipo`;
/// answers the account's row.
pub struct UploadFile;

#[async_trait]
impl Operation for UploadFile {
    type In = UploadIn;
    type Out = Row;
    async fn run(&self, cx: &mut Ctx<'_>, i: UploadIn) -> Result<Row> {
        let emp = cx.emp()?;
        let tipo = i
            .tipo
            .map(|s| s.trim().to_ascii_uppercase())
            .unwrap_or_default();
        let field = match tipo.as_str() {
            "CERTIFICATE" | "CERTIFICADO" => "BCO_CERTIFICADO",
            "KEY" | "CHAVE" => "BCO_CHAVE",
            "" => return Err(Error::validation("Tipo é obrigatório!")),
            _ => {
                return Err(Error::validation(
                    "Tipo inválido: informe CERTIFICATE ou KEY.",
                ))
            }
        };
        let name = i
            .arquivo
            .as_ref()
            .map(|f| f.nome.trim())
            .filter(|n| !n.is_empty())
            .ok_or_else(|| Error::validation("Arquivo é obrigatório!"))?;
        // The upload fields are read-only for ordinary writes; this call is the one
        // place that sets them, so it updates the column directly.
        let col = cx
            .res
            .field(field)
            .map(|f| f.column.clone())
            .ok_or_else(|| Error::internal("upload field"))?;
        let sql = format!(
            "UPDATE {} SET {col} = $1 WHERE client_id = $2 AND bco_emp_id = $3 AND bco_id = $4",
            cx.res.qualified_table()
        );
        let done = sqlx::query(&sql)
            .bind(name)
            .bind(cx.client())
            .bind(emp)
            .bind(i.id)
            .execute(&mut **cx.tx)
            .await?;
        if done.rows_affected() == 0 {
            return Err(Error::not_found());
        }
        let row = query::get(cx.tx, cx.res, cx.caller, Some(emp), &[i.id.to_string()]).await?;
        Ok(Row(row))
    }
}
