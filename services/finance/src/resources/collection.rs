//! Bank slips (`boletos`, BOL_*): the register of the slips issued (read-only:
//! slips are written by their calls) and the calls of data-and-calls.md §7
//! "Finance" — `POST /boletos/gerar`, `POST /boletos/pdf`, `PATCH /boletos/baixa`,
//! `POST /boletos/verificar`, `POST /boletos/atualizar`,
//! `GET /boletos/{bank}/{emp}/{day}` — plus a receivable's slip
//! (`GET /boletos/titulo/{id}/{emp}`), the remittance file of an account
//! (`POST /boletos/remessa/{emp}`, body `{BCO_ID}`) and the processing of a return
//! file (`POST /boletos/retorno/{emp}`, multipart `file` and `BCO_ID`). The work is
//! in `crate::slips`.

use std::path::PathBuf;
use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::resource::params::{body_map, company, id_param, param};
use erp_platform::resource::values::{parse_date, parse_decimal};
use erp_platform::resource::{
    file_reply, uploaded_file, ActionHandler, ActionPerm, Call, DbType, Field, Kind, Resource,
};
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use serde_json::{Map, Value};

use crate::slips;
use erp_platform::resource::ReadOnly;

const SCHEMA: &str = crate::SCHEMA;

pub fn all(uploads: PathBuf) -> Vec<Resource> {
    vec![boletos(uploads)]
}

pub fn boletos(uploads: PathBuf) -> Resource {
    Resource::new("boletos", "Boletos", SCHEMA, "boletos", "contasareceber")
        .key(&["BOL_ID"])
        .company("BOL_EMP_ID")
        .label("BOL_NOSSO_NUMERO")
        .order("BOL_ID DESC")
        .hooks(Arc::new(ReadOnly(
            "Boletos são gerados, alterados e baixados pelas ações do boleto no Contas a Receber.",
        )))
        .fields(vec![
            Field::id("BOL_ID", "Código"),
            Field::int("BOL_EMP_ID", "Empresa"),
            Field::reference("BOL_BCO_ID", "Conta", "banco", Kind::Combobox)
                .list()
                .width(4),
            Field::int("BOL_CRCB_ID", "Título").list().width(2),
            Field::int("BOL_CLI_ID", "Cliente").width(2),
            Field::text("BOL_CLI_NOME", "Pagador")
                .searchable()
                .list()
                .width(6),
            Field::text("BOL_NOSSO_NUMERO", "Nosso Número")
                .searchable()
                .list()
                .width(4),
            Field::text("BOL_DOCUMENTO", "Documento")
                .searchable()
                .width(3),
            Field::date("BOL_DTA_EMIS", "Emissão").list(),
            Field::date("BOL_DTA_VCTO", "Vencimento").list(),
            Field::money("BOL_VALOR", "Valor").list().width(3),
            Field::text("BOL_CODIGO_BARRAS", "Código de Barras").width(8),
            Field::text("BOL_LINHA_DIGITAVEL", "Linha Digitável").width(8),
            Field::text("BOL_PIX_COPIA_COLA", "Pix Copia e Cola").width(12),
            Field::options("BOL_SITUACAO", "Situação", DbType::Text, &slips::STATUS)
                .list()
                .width(3),
            Field::text("BOL_OCORRENCIA", "Última Ocorrência").width(6),
            Field::text("BOL_INSTRUCAO", "Instrução Pendente").width(2),
            Field::money("BOL_VLR_PAGO", "Valor Pago").width(3),
            Field::date("BOL_DTA_PAG", "Data do Pagamento"),
        ])
        .action(
            "POST",
            "/boletos/gerar",
            "gerar",
            ActionPerm::Update,
            "Boletos: gerar os boletos de títulos a receber (EMP_ID, BCO_ID, TITULOS)",
            Arc::new(Generate),
        )
        .action(
            "POST",
            "/boletos/pdf",
            "pdf",
            ActionPerm::View,
            "Boletos: PDF dos boletos (EMP_ID, BOL_IDS ou CRCB_ID)",
            Arc::new(Pdf { uploads: uploads.clone() }),
        )
        .action(
            "PATCH",
            "/boletos/baixa",
            "baixa",
            ActionPerm::Update,
            "Boletos: baixar um boleto (TIPO PAGO: liquida o título; BAIXA: retira da cobrança)",
            Arc::new(SettleOrWriteOff),
        )
        .action(
            "POST",
            "/boletos/verificar",
            "verificar",
            ActionPerm::View,
            "Boletos: situação de registro e pagamento de um boleto",
            Arc::new(Check),
        )
        .action(
            "POST",
            "/boletos/atualizar",
            "atualizar",
            ActionPerm::Update,
            "Boletos: alterar vencimento (DTA_VCTO) ou valor (VALOR) de um boleto",
            Arc::new(Change),
        )
        .action(
            "GET",
            "/boletos/titulo/{id}/{emp}",
            "titulo",
            ActionPerm::View,
            "Boletos: o boleto em cobrança de um título a receber",
            Arc::new(OfTitle),
        )
        .action(
            "GET",
            "/boletos/{bank}/{emp}/{day}",
            "dia",
            ActionPerm::View,
            "Boletos: os boletos de uma conta emitidos num dia (yyyy-MM-dd)",
            Arc::new(OfDay),
        )
        .action(
            "POST",
            "/boletos/remessa/{emp}",
            "remessa",
            ActionPerm::Update,
            "Boletos: arquivo de remessa CNAB da conta (BCO_ID)",
            Arc::new(RemittanceFile),
        )
        .upload_action(
            "POST",
            "/boletos/retorno/{emp}",
            "retorno",
            &["cnab"],
            "Boletos: processar o arquivo de retorno CNAB da conta (BCO_ID)",
            Arc::new(ReturnFile { uploads }),
        )
}

fn get<'a>(body: &'a Map<String, Value>, keys: &[&str]) -> Option<&'a Value> {
    keys.iter().filter_map(|k| body.get(*k)).find(|v| {
        !matches!(v, Value::Null) && !matches!(v, Value::String(s) if s.trim().is_empty())
    })
}

fn int_of(v: &Value) -> Option<i64> {
    v.as_i64()
        .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
}

fn required_int(body: &Map<String, Value>, keys: &[&str], label: &str) -> Result<i64> {
    match get(body, keys) {
        None => Err(Error::validation(format!("{label} é obrigatório!"))),
        Some(v) => int_of(v).ok_or_else(|| Error::validation(format!("{label} inválido."))),
    }
}

fn ids(body: &Map<String, Value>, list: &str, one: &[&str], label: &str) -> Result<Vec<i64>> {
    match body.get(list) {
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| {
                let v = match v {
                    Value::Object(m) => one
                        .iter()
                        .find_map(|k| m.get(*k))
                        .cloned()
                        .unwrap_or(Value::Null),
                    other => other.clone(),
                };
                int_of(&v).ok_or_else(|| Error::validation(format!("{label} inválido.")))
            })
            .collect(),
        Some(Value::Null) | None => Ok(vec![required_int(body, one, label)?]),
        Some(_) => Err(Error::validation(format!("{list} deve ser uma lista."))),
    }
}

fn date_of(body: &Map<String, Value>, keys: &[&str]) -> Result<Option<chrono::NaiveDate>> {
    match get(body, keys) {
        None => Ok(None),
        Some(Value::String(s)) => parse_date(s).map(Some),
        Some(_) => Err(Error::validation("Data inválida")),
    }
}

fn money_of(body: &Map<String, Value>, keys: &[&str], label: &str) -> Result<Option<Decimal>> {
    let Some(v) = get(body, keys) else {
        return Ok(None);
    };
    let d = parse_decimal(v)
        .ok_or_else(|| Error::validation(format!("Valor inválido para {label}.")))?;
    if d <= Decimal::ZERO {
        return Err(Error::validation(format!(
            "{label} deve ser maior que zero."
        )));
    }
    if d.normalize().scale() > 2 {
        return Err(Error::validation(format!(
            "{label} aceita no máximo 2 casas decimais."
        )));
    }
    if d >= Decimal::from(10_000_000_000_000i64) {
        return Err(Error::validation(format!("{label} muito grande.")));
    }
    Ok(Some(d))
}

/// `POST /boletos/gerar`.
struct Generate;

#[async_trait]
impl ActionHandler for Generate {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp)?;
        let body = body_map(call.body);
        let bank = required_int(&body, &["BCO_ID", "BOL_BCO_ID"], "Conta bancária")?;
        let titles = ids(
            &body,
            "TITULOS",
            &["CRCB_ID", "ID", "BOL_CRCB_ID"],
            "Título",
        )?;
        let done = slips::generate(
            tx,
            call.caller.client_id,
            emp,
            call.caller.user_id,
            bank,
            &titles,
        )
        .await?;
        Ok(Value::Array(done.iter().map(slips::answer).collect()))
    }
}

/// `POST /boletos/pdf`.
struct Pdf {
    uploads: PathBuf,
}

#[async_trait]
impl ActionHandler for Pdf {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp)?;
        let client = call.caller.client_id;
        let body = body_map(call.body);
        let list = if body.contains_key("BOL_IDS") || get(&body, &["BOL_ID"]).is_some() {
            slips::load_many(
                tx,
                client,
                emp,
                &ids(&body, "BOL_IDS", &["BOL_ID"], "Boleto")?,
            )
            .await?
        } else {
            let title = required_int(&body, &["CRCB_ID"], "Boleto")?;
            vec![slips::of_title(tx, client, emp, title)
                .await?
                .ok_or_else(|| {
                    Error::NotFound(format!("O título {title} não tem boleto em cobrança."))
                })?]
        };
        let bytes = slips::print::render(tx, client, emp, &list, &self.uploads).await?;
        let name = match list.as_slice() {
            [one] => format!("boleto-{}.pdf", one.nosso_numero.replace(['/', ' '], "-")),
            _ => "boletos.pdf".to_string(),
        };
        Ok(file_reply("application/pdf", &name, &bytes))
    }
}

/// `PATCH /boletos/baixa`: `TIPO` PAGO (`DATA`, `VALOR`, `JUROS`) or BAIXA.
struct SettleOrWriteOff;

#[async_trait]
impl ActionHandler for SettleOrWriteOff {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp)?;
        let client = call.caller.client_id;
        let body = body_map(call.body);
        let id = required_int(&body, &["BOL_ID"], "Boleto")?;
        let kind = get(&body, &["TIPO"])
            .and_then(Value::as_str)
            .map(|s| s.trim().to_uppercase())
            .unwrap_or_else(|| "BAIXA".into());
        let s = match kind.as_str() {
            "PAGO" | "PAGAMENTO" | "LIQUIDACAO" => {
                let date = match date_of(&body, &["DATA", "BOL_DTA_PAG"])? {
                    Some(d) => d,
                    None => crate::titles::today(tx).await?,
                };
                let value = money_of(&body, &["VALOR", "BOL_VLR_PAGO"], "Valor")?;
                let interest = match get(&body, &["JUROS"]) {
                    None => None,
                    Some(v) => Some(
                        parse_decimal(v)
                            .filter(|d| {
                                *d >= Decimal::ZERO && *d < Decimal::from(10_000_000_000_000i64)
                            })
                            .filter(|d| d.normalize().scale() <= 2)
                            .ok_or_else(|| Error::validation("Valor inválido para Juros."))?,
                    ),
                };
                slips::pay(
                    tx,
                    client,
                    emp,
                    call.caller.user_id,
                    id,
                    &slips::Payment { date, value, interest },
                )
                .await?
            }
            "BAIXA" => slips::write_off(tx, client, emp, id).await?,
            _ => return Err(Error::validation("Tipo inválido: informe PAGO ou BAIXA.")),
        };
        slips::row(tx, client, emp, s.id).await
    }
}

/// `POST /boletos/verificar`.
struct Check;

#[async_trait]
impl ActionHandler for Check {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp)?;
        let body = body_map(call.body);
        let id = required_int(&body, &["BOL_ID"], "Boleto")?;
        slips::check(tx, call.caller.client_id, emp, id).await
    }
}

/// `POST /boletos/atualizar`.
struct Change;

#[async_trait]
impl ActionHandler for Change {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp)?;
        let body = body_map(call.body);
        let id = required_int(&body, &["BOL_ID"], "Boleto")?;
        let due = date_of(&body, &["DTA_VCTO", "BOL_DTA_VCTO", "VENCIMENTO"])?;
        let value = money_of(&body, &["VALOR", "BOL_VALOR"], "Valor")?;
        let s = slips::change(
            tx,
            call.caller.client_id,
            emp,
            call.caller.user_id,
            id,
            due,
            value,
        )
        .await?;
        Ok(slips::answer(&s))
    }
}

/// `GET /boletos/titulo/{id}/{emp}`: the receivable's slip in collection, or null.
struct OfTitle;

#[async_trait]
impl ActionHandler for OfTitle {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp)?;
        let title = id_param(call.params, "id")?;
        let client = call.caller.client_id;
        match slips::of_title(tx, client, emp, title).await? {
            Some(s) => slips::row(tx, client, emp, s.id).await,
            None => Ok(Value::Null),
        }
    }
}

/// `GET /boletos/{bank}/{emp}/{day}`.
struct OfDay;

#[async_trait]
impl ActionHandler for OfDay {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp)?;
        let bank = id_param(call.params, "bank")?;
        let day = parse_date(param(call.params, "day")?)?;
        slips::of_day(tx, call.caller.client_id, emp, bank, day).await
    }
}

/// `POST /boletos/remessa/{emp}`: the file itself.
struct RemittanceFile;

#[async_trait]
impl ActionHandler for RemittanceFile {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp)?;
        let body = body_map(call.body);
        let bank = required_int(&body, &["BCO_ID"], "Conta bancária")?;
        let r = slips::files::remittance(tx, call.caller.client_id, emp, call.caller.user_id, bank)
            .await?;
        Ok(file_reply(
            "text/plain; charset=us-ascii",
            &r.name,
            r.content.as_bytes(),
        ))
    }
}

/// `POST /boletos/retorno/{emp}` (multipart `file`, `BCO_ID`).
pub struct ReturnFile {
    uploads: PathBuf,
}

/// The bytes of an uploaded file the gateway stored for this call.
pub async fn upload_bytes(
    uploads: &std::path::Path,
    client: i64,
    emp: i64,
    body: &Value,
) -> Result<Vec<u8>> {
    let (name, _) = uploaded_file(body)?;
    if name.contains(['/', '\\']) || name.starts_with('.') {
        return Err(Error::validation("Arquivo inválido."));
    }
    let path = uploads
        .join(client.to_string())
        .join(emp.to_string())
        .join(name);
    tokio::fs::read(&path)
        .await
        .map_err(|e| Error::internal(format!("uploaded file {}: {e}", path.display())))
}

#[async_trait]
impl ActionHandler for ReturnFile {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let emp = company(call.emp.or_else(|| id_param(call.params, "emp").ok()))?;
        let client = call.caller.client_id;
        let bank = required_int(&body_map(call.body.clone()), &["BCO_ID"], "Conta bancária")?;
        let bytes = upload_bytes(&self.uploads, client, emp, &call.body).await?;
        let (_, original) = uploaded_file(&call.body)?;
        let name = original.unwrap_or("retorno").to_string();
        slips::files::process_return(tx, client, emp, call.caller.user_id, bank, &name, &bytes)
            .await
    }
}
