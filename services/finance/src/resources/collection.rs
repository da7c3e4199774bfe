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
use erp_platform::resource::call::{Ctx, Date, Dec, File, Operation, Row, Upload};
use erp_platform::resource::{ActionPerm, DbType, Field, Kind, Resource};
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::items::IdOr;
use super::IdIn;
use crate::slips::files::ReturnOut;
use crate::slips::{self, SlipOut, SlipStatus};
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
        .call(
            "POST",
            "/boletos/gerar",
            "gerar",
            ActionPerm::Update,
            "Boletos: gerar os boletos de títulos a receber (EMP_ID, BCO_ID, TITULOS)",
            Generate,
        )
        .call(
            "POST",
            "/boletos/pdf",
            "pdf",
            ActionPerm::View,
            "Boletos: PDF dos boletos (EMP_ID, BOL_IDS ou CRCB_ID)",
            Pdf { uploads: uploads.clone() },
        )
        .call(
            "PATCH",
            "/boletos/baixa",
            "baixa",
            ActionPerm::Update,
            "Boletos: baixar um boleto (TIPO PAGO: liquida o título; BAIXA: retira da cobrança)",
            SettleOrWriteOff,
        )
        .call(
            "POST",
            "/boletos/verificar",
            "verificar",
            ActionPerm::View,
            "Boletos: situação de registro e pagamento de um boleto",
            Check,
        )
        .call(
            "POST",
            "/boletos/atualizar",
            "atualizar",
            ActionPerm::Update,
            "Boletos: alterar vencimento (DTA_VCTO) ou valor (VALOR) de um boleto",
            Change,
        )
        .call(
            "GET",
            "/boletos/titulo/{id}/{emp}",
            "titulo",
            ActionPerm::View,
            "Boletos: o boleto em cobrança de um título a receber",
            OfTitle,
        )
        .call(
            "GET",
            "/boletos/{bank}/{emp}/{day}",
            "dia",
            ActionPerm::View,
            "Boletos: os boletos de uma conta emitidos num dia (yyyy-MM-dd)",
            OfDay,
        )
        .call(
            "POST",
            "/boletos/remessa/{emp}",
            "remessa",
            ActionPerm::Update,
            "Boletos: arquivo de remessa CNAB da conta (BCO_ID)",
            RemittanceFile,
        )
        .upload_call(
            "POST",
            "/boletos/retorno/{emp}",
            "retorno",
            &["cnab"],
            "Boletos: processar o arquivo de retorno CNAB da conta (BCO_ID)",
            ReturnFile { uploads },
        )
}

fn required<T>(v: Option<T>, label: &str) -> Result<T> {
    v.ok_or_else(|| Error::validation(format!("{label} é obrigatório!")))
}

/// A slip's value or payment: above zero, in cents, below 10¹³.
fn money(v: Option<Dec>, label: &str) -> Result<Option<Decimal>> {
    let Some(d) = v.map(Dec::get) else {
        return Ok(None);
    };
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

/// A receivable of `TITULOS`, as an object.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct SlipTitleIn {
    #[serde(rename = "CRCB_ID", default)]
    #[schemars(title = "Título", extend("x-invalid" = "Título inválido."))]
    pub receivable: Option<i64>,
    #[serde(rename = "ID", default)]
    #[schemars(title = "Título", extend("x-invalid" = "Título inválido."))]
    pub id: Option<i64>,
    #[serde(rename = "BOL_CRCB_ID", default)]
    #[schemars(title = "Título", extend("x-invalid" = "Título inválido."))]
    pub slip_title: Option<i64>,
}

/// `POST /boletos/gerar`: the account and the receivables (`TITULOS`, or one
/// title in the body itself).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct GenerateIn {
    #[serde(rename = "BCO_ID", default)]
    #[schemars(title = "Conta bancária", extend("x-invalid" = "Conta bancária inválido."))]
    pub bank: Option<i64>,
    #[serde(rename = "BOL_BCO_ID", default)]
    #[schemars(title = "Conta bancária", extend("x-invalid" = "Conta bancária inválido."))]
    pub slip_bank: Option<i64>,
    /// Receivable ids or `{CRCB_ID}`.
    #[serde(rename = "TITULOS", default)]
    #[schemars(extend("x-invalid" = "TITULOS deve ser uma lista."))]
    pub titles: Option<Vec<IdOr<SlipTitleIn>>>,
    /// One receivable (no `TITULOS`).
    #[serde(rename = "CRCB_ID", default)]
    #[schemars(title = "Título", extend("x-invalid" = "Título inválido."))]
    pub receivable: Option<i64>,
    #[serde(rename = "ID", default)]
    #[schemars(title = "Título", extend("x-invalid" = "Título inválido."))]
    pub id: Option<i64>,
    #[serde(rename = "BOL_CRCB_ID", default)]
    #[schemars(title = "Título", extend("x-invalid" = "Título inválido."))]
    pub slip_title: Option<i64>,
}

impl GenerateIn {
    fn titles(&self) -> Result<Vec<i64>> {
        match &self.titles {
            Some(list) => list
                .iter()
                .map(|e| match e {
                    IdOr::Id(id) => Ok(*id),
                    IdOr::Fields(t) => t
                        .receivable
                        .or(t.id)
                        .or(t.slip_title)
                        .ok_or_else(|| Error::validation("Título inválido.")),
                })
                .collect(),
            None => Ok(vec![required(
                self.receivable.or(self.id).or(self.slip_title),
                "Título",
            )?]),
        }
    }
}

/// `POST /boletos/gerar`: the slips of the receivables on the account.
struct Generate;

#[async_trait]
impl Operation for Generate {
    type In = GenerateIn;
    type Out = Vec<SlipOut>;
    async fn run(&self, cx: &mut Ctx<'_>, i: GenerateIn) -> Result<Vec<SlipOut>> {
        let emp = cx.emp()?;
        let bank = required(i.bank.or(i.slip_bank), "Conta bancária")?;
        let titles = i.titles()?;
        let done = slips::generate(cx.tx, cx.client(), emp, cx.user(), bank, &titles).await?;
        Ok(done.iter().map(SlipOut::of).collect())
    }
}

/// A slip of `BOL_IDS`, as an object.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct SlipIdIn {
    #[serde(rename = "BOL_ID", default)]
    #[schemars(title = "Boleto", extend("x-invalid" = "Boleto inválido."))]
    pub id: Option<i64>,
}

/// `POST /boletos/pdf`: the slips (`BOL_IDS` or `BOL_ID`), or the receivable
/// whose slip in collection (`CRCB_ID`).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct PdfIn {
    #[serde(rename = "BOL_IDS", default)]
    #[schemars(extend("x-invalid" = "BOL_IDS deve ser uma lista."))]
    pub slips: Option<Vec<IdOr<SlipIdIn>>>,
    #[serde(rename = "BOL_ID", default)]
    #[schemars(title = "Boleto", extend("x-invalid" = "Boleto inválido."))]
    pub slip: Option<i64>,
    #[serde(rename = "CRCB_ID", default)]
    #[schemars(title = "Boleto", extend("x-invalid" = "Boleto inválido."))]
    pub title: Option<i64>,
}

/// `POST /boletos/pdf`: the slips' PDF.
struct Pdf {
    uploads: PathBuf,
}

#[async_trait]
impl Operation for Pdf {
    type In = PdfIn;
    type Out = File;
    async fn run(&self, cx: &mut Ctx<'_>, i: PdfIn) -> Result<File> {
        let emp = cx.emp()?;
        let client = cx.client();
        let list = match (&i.slips, i.slip) {
            (Some(list), _) => {
                let ids = list
                    .iter()
                    .map(|e| match e {
                        IdOr::Id(id) => Ok(*id),
                        IdOr::Fields(s) => {
                            s.id.ok_or_else(|| Error::validation("Boleto inválido."))
                        }
                    })
                    .collect::<Result<Vec<_>>>()?;
                slips::load_many(cx.tx, client, emp, &ids).await?
            }
            (None, Some(id)) => slips::load_many(cx.tx, client, emp, &[id]).await?,
            (None, None) => {
                let title = required(i.title, "Boleto")?;
                vec![slips::of_title(cx.tx, client, emp, title)
                    .await?
                    .ok_or_else(|| {
                        Error::NotFound(format!("O título {title} não tem boleto em cobrança."))
                    })?]
            }
        };
        let bytes = slips::print::render(cx.tx, client, emp, &list, &self.uploads).await?;
        let name = match list.as_slice() {
            [one] => format!("boleto-{}.pdf", one.nosso_numero.replace(['/', ' '], "-")),
            _ => "boletos.pdf".to_string(),
        };
        Ok(File::new("application/pdf", &name, bytes))
    }
}

/// `PATCH /boletos/baixa`: the slip, `TIPO` PAGO (`DATA`, `VALOR`, `JUROS`) or
/// BAIXA.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct SettleSlipIn {
    #[serde(rename = "BOL_ID", default)]
    #[schemars(title = "Boleto", extend("x-invalid" = "Boleto inválido."))]
    pub slip: Option<i64>,
    /// PAGO (or PAGAMENTO, LIQUIDACAO): paid, the receivable is settled; BAIXA
    /// (default): out of collection.
    #[serde(rename = "TIPO", default)]
    pub kind: Option<String>,
    /// The payment's date (default today).
    #[serde(rename = "DATA", default)]
    #[schemars(title = "Data")]
    pub date: Option<Date>,
    #[serde(rename = "BOL_DTA_PAG", default)]
    #[schemars(title = "Data")]
    pub paid_on: Option<Date>,
    /// What was paid (default the slip's value).
    #[serde(rename = "VALOR", default)]
    #[schemars(title = "Valor")]
    pub value: Option<Dec>,
    #[serde(rename = "BOL_VLR_PAGO", default)]
    #[schemars(title = "Valor")]
    pub paid: Option<Dec>,
    #[serde(rename = "JUROS", default)]
    #[schemars(title = "Juros")]
    pub interest: Option<Dec>,
}

/// `PATCH /boletos/baixa`: the slip paid or written off; answers its row.
struct SettleOrWriteOff;

#[async_trait]
impl Operation for SettleOrWriteOff {
    type In = SettleSlipIn;
    type Out = Row;
    async fn run(&self, cx: &mut Ctx<'_>, i: SettleSlipIn) -> Result<Row> {
        let emp = cx.emp()?;
        let client = cx.client();
        let id = required(i.slip, "Boleto")?;
        let kind = i
            .kind
            .map(|s| s.trim().to_uppercase())
            .unwrap_or_else(|| "BAIXA".into());
        let s = match kind.as_str() {
            "PAGO" | "PAGAMENTO" | "LIQUIDACAO" => {
                let date = match i.date.or(i.paid_on) {
                    Some(d) => d.get(),
                    None => crate::titles::today(cx.tx).await?,
                };
                let value = money(i.value.or(i.paid), "Valor")?;
                let interest = i
                    .interest
                    .map(|d| {
                        Some(d.get())
                            .filter(|d| {
                                *d >= Decimal::ZERO && *d < Decimal::from(10_000_000_000_000i64)
                            })
                            .filter(|d| d.normalize().scale() <= 2)
                            .ok_or_else(|| Error::validation("Valor inválido para Juros."))
                    })
                    .transpose()?;
                slips::pay(
                    cx.tx,
                    client,
                    emp,
                    cx.user(),
                    id,
                    &slips::Payment { date, value, interest },
                )
                .await?
            }
            "BAIXA" => slips::write_off(cx.tx, client, emp, id).await?,
            _ => return Err(Error::validation("Tipo inválido: informe PAGO ou BAIXA.")),
        };
        slips::row(cx.tx, client, emp, s.id).await
    }
}

/// `POST /boletos/verificar` and the other calls on one slip of the body.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct SlipIn {
    #[serde(rename = "BOL_ID", default)]
    #[schemars(title = "Boleto", extend("x-invalid" = "Boleto inválido."))]
    pub slip: Option<i64>,
}

/// `POST /boletos/verificar`: the slip's registration and payment.
struct Check;

#[async_trait]
impl Operation for Check {
    type In = SlipIn;
    type Out = SlipStatus;
    async fn run(&self, cx: &mut Ctx<'_>, i: SlipIn) -> Result<SlipStatus> {
        let emp = cx.emp()?;
        let id = required(i.slip, "Boleto")?;
        slips::check(cx.tx, cx.client(), emp, id).await
    }
}

/// `POST /boletos/atualizar`: the slip and its new due date or value.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct ChangeIn {
    #[serde(rename = "BOL_ID", default)]
    #[schemars(title = "Boleto", extend("x-invalid" = "Boleto inválido."))]
    pub slip: Option<i64>,
    #[serde(rename = "DTA_VCTO", default)]
    #[schemars(title = "Vencimento")]
    pub due: Option<Date>,
    #[serde(rename = "BOL_DTA_VCTO", default)]
    #[schemars(title = "Vencimento")]
    pub slip_due: Option<Date>,
    #[serde(rename = "VENCIMENTO", default)]
    #[schemars(title = "Vencimento")]
    pub due_date: Option<Date>,
    #[serde(rename = "VALOR", default)]
    #[schemars(title = "Valor")]
    pub value: Option<Dec>,
    #[serde(rename = "BOL_VALOR", default)]
    #[schemars(title = "Valor")]
    pub slip_value: Option<Dec>,
}

/// `POST /boletos/atualizar`: a new due date or value.
struct Change;

#[async_trait]
impl Operation for Change {
    type In = ChangeIn;
    type Out = SlipOut;
    async fn run(&self, cx: &mut Ctx<'_>, i: ChangeIn) -> Result<SlipOut> {
        let emp = cx.emp()?;
        let id = required(i.slip, "Boleto")?;
        let due = i.due.or(i.slip_due).or(i.due_date).map(Date::get);
        let value = money(i.value.or(i.slip_value), "Valor")?;
        let s = slips::change(cx.tx, cx.client(), emp, cx.user(), id, due, value).await?;
        Ok(SlipOut::of(&s))
    }
}

/// The receivable's slip in collection, or null.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum MaybeSlip {
    Slip(Row),
    None(()),
}

/// `GET /boletos/titulo/{id}/{emp}`: the receivable's slip in collection, or null.
struct OfTitle;

#[async_trait]
impl Operation for OfTitle {
    type In = IdIn;
    type Out = MaybeSlip;
    async fn run(&self, cx: &mut Ctx<'_>, i: IdIn) -> Result<MaybeSlip> {
        let emp = cx.emp()?;
        let client = cx.client();
        match slips::of_title(cx.tx, client, emp, i.id).await? {
            Some(s) => Ok(MaybeSlip::Slip(slips::row(cx.tx, client, emp, s.id).await?)),
            None => Ok(MaybeSlip::None(())),
        }
    }
}

/// `GET /boletos/{bank}/{emp}/{day}`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct OfDayIn {
    pub bank: i64,
    pub day: Date,
}

/// `GET /boletos/{bank}/{emp}/{day}`: the account's slips issued that day.
struct OfDay;

#[async_trait]
impl Operation for OfDay {
    type In = OfDayIn;
    type Out = Vec<Row>;
    async fn run(&self, cx: &mut Ctx<'_>, i: OfDayIn) -> Result<Vec<Row>> {
        let emp = cx.emp()?;
        slips::of_day(cx.tx, cx.client(), emp, i.bank, i.day.get()).await
    }
}

/// `POST /boletos/remessa/{emp}` and `/boletos/retorno/{emp}`: the account (and,
/// for a return, the file).
#[derive(Clone, Debug, Deserialize, JsonSchema)]
pub struct AccountFileIn {
    #[serde(rename = "BCO_ID", default)]
    #[schemars(title = "Conta bancária", extend("x-invalid" = "Conta bancária inválido."))]
    pub bank: Option<i64>,
    /// The return file (multipart `file`).
    #[serde(default)]
    pub arquivo: Option<Upload>,
}

/// `POST /boletos/remessa/{emp}`: the file itself.
struct RemittanceFile;

#[async_trait]
impl Operation for RemittanceFile {
    type In = AccountFileIn;
    type Out = File;
    async fn run(&self, cx: &mut Ctx<'_>, i: AccountFileIn) -> Result<File> {
        let emp = cx.emp()?;
        let bank = required(i.bank, "Conta bancária")?;
        let r = slips::files::remittance(cx.tx, cx.client(), emp, cx.user(), bank).await?;
        Ok(File::new(
            "text/plain; charset=us-ascii",
            &r.name,
            r.content.into_bytes(),
        ))
    }
}

/// `POST /boletos/retorno/{emp}` (multipart `file`, `BCO_ID`).
pub struct ReturnFile {
    uploads: PathBuf,
}

/// The bytes of an uploaded file the gateway stored for this call ('Arquivo é
/// obrigatório!' without one).
pub async fn upload_bytes(
    uploads: &std::path::Path,
    client: i64,
    emp: i64,
    file: Option<&Upload>,
) -> Result<Vec<u8>> {
    let name = file
        .map(|f| f.nome.as_str())
        .filter(|n| !n.is_empty())
        .ok_or_else(|| Error::validation("Arquivo é obrigatório!"))?;
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
impl Operation for ReturnFile {
    type In = AccountFileIn;
    type Out = ReturnOut;
    async fn run(&self, cx: &mut Ctx<'_>, i: AccountFileIn) -> Result<ReturnOut> {
        let emp = cx.emp()?;
        let client = cx.client();
        let bank = required(i.bank, "Conta bancária")?;
        let bytes = upload_bytes(&self.uploads, client, emp, i.arquivo.as_ref()).await?;
        let name = i
            .arquivo
            .and_then(|f| f.original)
            .unwrap_or_else(|| "retorno".into());
        slips::files::process_return(cx.tx, client, emp, cx.user(), bank, &name, &bytes).await
    }
}
