//! Bank slips (boletos) of receivables, over the database.
//!
//! - **Generation** (`generate`): for each open receivable, a slip of its balance
//!   due on its due date, on one account: the 'nosso número' is the account's next
//!   number, taken under the account's row lock and moved past in the same
//!   transaction (so never reused, also when slips are generated at once); the
//!   barcode and the linha digitável follow FEBRABAN (`collection::barcode`); an
//!   account with a Pix key also gets the static BR Code of the amount
//!   (`collection::pix`), txid `BOL<company>N<slip>`. A receivable has one slip in
//!   collection at most: asking again answers the one it has.
//! - **Paid** (`pay`): the receivable is settled through the title settlement
//!   (`titles::settle`) on the slip's account, so the settlement, its bank movement
//!   and its facts are the ones of any settlement. **Write-off** (`write_off`): the
//!   slip leaves collection (the receivable stays open); a slip the bank already
//!   has waits for the write-off command (02) of the next remittance.
//! - **Change** (`change`): a new due date recomputes the barcode (same nosso
//!   número) and, when the bank has the slip, queues command 06; a new value
//!   writes the slip off and generates another (a change of value is a new slip).
//! - Remittance and return files are in `files`, the PDF in `print`.
//!
//! Lock order, as in `bank`: titles, then the id counters, then the account.

pub mod account;
pub mod files;
pub mod print;

use chrono::NaiveDate;
use erp_platform::db::Tx;
use erp_platform::resource::call::{Dec, Row as CallRow};
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::Serialize;
use sqlx::Row;

use crate::collection::barcode::Barcode;
use crate::collection::pix::StaticPix;
use crate::titles::{self, SettleItem, Settlement, Side};
use account::Account;

pub const STATUS: [(&str, &str); 6] = [
    ("G", "Gerado"),
    ("E", "Enviado em remessa"),
    ("R", "Registrado"),
    ("X", "Recusado"),
    ("P", "Pago"),
    ("B", "Baixado"),
];

pub fn status_label(code: &str) -> &'static str {
    STATUS
        .iter()
        .find(|(c, _)| *c == code)
        .map(|(_, l)| *l)
        .unwrap_or("")
}

/// Columns of a slip as the register and the calls answer it.
pub const COLUMNS: &str = "bol_id AS \"BOL_ID\", bol_emp_id AS \"BOL_EMP_ID\", bol_bco_id AS \"BOL_BCO_ID\",
    bol_crcb_id AS \"BOL_CRCB_ID\", bol_cli_id AS \"BOL_CLI_ID\", bol_cli_nome AS \"BOL_CLI_NOME\",
    bol_nosso_numero AS \"BOL_NOSSO_NUMERO\", bol_documento AS \"BOL_DOCUMENTO\",
    to_char(bol_dta_emis, 'YYYY-MM-DD') AS \"BOL_DTA_EMIS\", to_char(bol_dta_vcto, 'YYYY-MM-DD') AS \"BOL_DTA_VCTO\",
    bol_valor AS \"BOL_VALOR\", bol_codigo_barras AS \"BOL_CODIGO_BARRAS\",
    bol_linha_digitavel AS \"BOL_LINHA_DIGITAVEL\", bol_pix_copia_cola AS \"BOL_PIX_COPIA_COLA\",
    bol_situacao AS \"BOL_SITUACAO\", bol_ocorrencia AS \"BOL_OCORRENCIA\", bol_instrucao AS \"BOL_INSTRUCAO\",
    bol_vlr_pago AS \"BOL_VLR_PAGO\", to_char(bol_dta_pag, 'YYYY-MM-DD') AS \"BOL_DTA_PAG\"";

/// One slip, as the calls see it.
#[derive(Clone, Debug)]
pub struct Slip {
    pub id: i64,
    pub bank: i64,
    pub title: i64,
    pub customer: Option<i64>,
    pub customer_name: String,
    pub seq: i64,
    pub nosso_numero: String,
    pub document: String,
    pub issued: NaiveDate,
    pub due: NaiveDate,
    pub value: Decimal,
    pub barcode: String,
    pub linha: String,
    pub pix: Option<String>,
    pub status: String,
    pub instruction: Option<String>,
}

const SLIP_SQL: &str = "SELECT bol_id, bol_bco_id, bol_crcb_id, bol_cli_id, coalesce(bol_cli_nome, ''), bol_sequencia,
        bol_nosso_numero, coalesce(bol_documento, ''), bol_dta_emis, bol_dta_vcto, bol_valor, bol_codigo_barras,
        bol_linha_digitavel, bol_pix_copia_cola, bol_situacao, bol_instrucao
    FROM finance.boletos";

fn slip_of(r: &sqlx::postgres::PgRow) -> Result<Slip> {
    Ok(Slip {
        id: r.try_get(0)?,
        bank: r.try_get(1)?,
        title: r.try_get(2)?,
        customer: r.try_get(3)?,
        customer_name: r.try_get(4)?,
        seq: r.try_get(5)?,
        nosso_numero: r.try_get(6)?,
        document: r.try_get(7)?,
        issued: r.try_get(8)?,
        due: r.try_get(9)?,
        value: r.try_get(10)?,
        barcode: r.try_get(11)?,
        linha: r.try_get(12)?,
        pix: r.try_get(13)?,
        status: r.try_get(14)?,
        instruction: r.try_get(15)?,
    })
}

/// Slip `id` of the company, locked when `lock`.
pub async fn load(tx: &mut Tx, client: i64, emp: i64, id: i64, lock: bool) -> Result<Slip> {
    let sql = format!(
        "{SLIP_SQL} WHERE client_id = $1 AND bol_emp_id = $2 AND bol_id = $3{}",
        if lock { " FOR UPDATE" } else { "" }
    );
    let r = sqlx::query(&sql)
        .bind(client)
        .bind(emp)
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or_else(|| Error::NotFound(format!("Boleto {id} não encontrado.")))?;
    slip_of(&r)
}

/// Slip `id` locked in the lock order: its receivable first, then the slip.
pub async fn lock(tx: &mut Tx, client: i64, emp: i64, id: i64) -> Result<Slip> {
    let s = load(tx, client, emp, id, false).await?;
    titles::load(tx, client, emp, Side::Receivable, &[s.title], true).await?;
    load(tx, client, emp, id, true).await
}

/// The slips of the company with these ids, in id order.
pub async fn load_many(tx: &mut Tx, client: i64, emp: i64, ids: &[i64]) -> Result<Vec<Slip>> {
    let sql = format!(
        "{SLIP_SQL} WHERE client_id = $1 AND bol_emp_id = $2 AND bol_id = ANY($3) ORDER BY bol_id"
    );
    let rows = sqlx::query(&sql)
        .bind(client)
        .bind(emp)
        .bind(ids)
        .fetch_all(&mut **tx)
        .await?;
    let found: Vec<Slip> = rows.iter().map(slip_of).collect::<Result<_>>()?;
    if let Some(missing) = ids.iter().find(|id| !found.iter().any(|s| s.id == **id)) {
        return Err(Error::NotFound(format!("Boleto {missing} não encontrado.")));
    }
    Ok(found)
}

/// The slip in collection (G, E, R) of receivable `title`, if any.
pub async fn of_title(tx: &mut Tx, client: i64, emp: i64, title: i64) -> Result<Option<Slip>> {
    let sql = format!(
        "{SLIP_SQL} WHERE client_id = $1 AND bol_emp_id = $2 AND bol_crcb_id = $3 AND bol_situacao IN ('G', 'E', 'R')"
    );
    let r = sqlx::query(&sql)
        .bind(client)
        .bind(emp)
        .bind(title)
        .fetch_optional(&mut **tx)
        .await?;
    r.as_ref().map(slip_of).transpose()
}

/// A slip's row as the register answers it.
pub async fn row(tx: &mut Tx, client: i64, emp: i64, id: i64) -> Result<CallRow> {
    let sql = format!(
        "SELECT to_jsonb(b) FROM (SELECT {COLUMNS} FROM finance.boletos
         WHERE client_id = $1 AND bol_emp_id = $2 AND bol_id = $3) b"
    );
    sqlx::query_scalar(&sql)
        .bind(client)
        .bind(emp)
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?
        .map(CallRow)
        .ok_or_else(|| Error::NotFound(format!("Boleto {id} não encontrado.")))
}

/// What a generated (or changed) slip answers.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct SlipOut {
    #[serde(rename = "BOL_ID")]
    pub id: i64,
    /// The receivable.
    #[serde(rename = "CRCB_ID")]
    pub title: i64,
    #[serde(rename = "NOSSO_NUMERO")]
    pub nosso_numero: String,
    #[serde(rename = "CODIGO_BARRAS")]
    pub barcode: String,
    #[serde(rename = "LINHA_DIGITAVEL")]
    pub linha: String,
    /// The static Pix BR Code (accounts with a Pix key).
    #[serde(rename = "PIX_COPIA_COLA")]
    pub pix: Option<String>,
    #[serde(rename = "VALOR")]
    pub value: Dec,
    #[serde(rename = "DTA_VCTO")]
    pub due: NaiveDate,
    #[serde(rename = "BOL_SITUACAO")]
    pub status: String,
}

impl SlipOut {
    pub fn of(s: &Slip) -> SlipOut {
        SlipOut {
            id: s.id,
            title: s.title,
            nosso_numero: s.nosso_numero.clone(),
            barcode: s.barcode.clone(),
            linha: s.linha.clone(),
            pix: s.pix.clone(),
            value: s.value.into(),
            due: s.due,
            status: s.status.clone(),
        }
    }
}

/// Barcode, linha digitável and Pix of slip `seq` of `acc` for `value` due `due`.
struct Codes {
    barcode: String,
    linha: String,
    pix: Option<String>,
}

fn codes(
    acc: &Account,
    company: &crate::copies::Company,
    emp: i64,
    id: i64,
    seq: i64,
    due: NaiveDate,
    value: Decimal,
) -> Result<Codes> {
    let input = acc.free_field(seq)?;
    let barcode = Barcode::from_slip(&input, Some(due), value)
        .map_err(|e| Error::validation(format!("Boleto: {e}")))?;
    let linha = barcode.to_linha().as_str().to_string();
    let pix = match &acc.pix_key {
        Some(key) => Some(
            StaticPix {
                key: key.trim().to_string(),
                description: None,
                merchant_name: if company.name.is_empty() {
                    acc.description.clone()
                } else {
                    company.name.clone()
                },
                merchant_city: if company.city.is_empty() {
                    "BRASIL".into()
                } else {
                    company.city.clone()
                },
                amount: Some(value),
                txid: Some(format!("BOL{emp}N{id}")),
                upper_case: true,
            }
            .payload()
            .map_err(|e| Error::validation(format!("Pix: {e}")))?,
        ),
        None => None,
    };
    Ok(Codes { barcode: barcode.as_str().to_string(), linha, pix })
}

/// Generates the slips of receivables `ids` on account `bank` (see the module's
/// doc); answers them in the order asked.
pub async fn generate(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    user: i64,
    bank: i64,
    ids: &[i64],
) -> Result<Vec<Slip>> {
    if ids.is_empty() {
        return Err(Error::validation("Informe os títulos dos boletos."));
    }
    let titles = titles::load(tx, client, emp, Side::Receivable, ids, true).await?;
    let mut existing = Vec::new();
    let mut new = Vec::new();
    for id in ids {
        let t = titles
            .get(id)
            .ok_or_else(|| Error::NotFound(format!("Título {id} não encontrado.")))?;
        if let Some(s) = of_title(tx, client, emp, t.id).await? {
            existing.push(s);
            continue;
        }
        if let Some(why) = titles::refusal(t) {
            return Err(Error::Conflict(why));
        }
        if !new.iter().any(|n: &&titles::Title| n.id == t.id) {
            new.push(t);
        }
    }
    let mut out = existing;
    if !new.is_empty() {
        let first_id = crate::bank::next_ids(
            tx,
            client,
            emp,
            "boletos",
            "bol_id",
            "bol_emp_id",
            new.len() as i64,
        )
        .await?;
        let acc = account::load(tx, client, emp, bank, true).await?;
        let first_seq: i64 = sqlx::query_scalar(
            "UPDATE finance.banco SET bco_prox_nosso_numero = bco_prox_nosso_numero + $4
             WHERE client_id = $1 AND bco_emp_id = $2 AND bco_id = $3
             RETURNING bco_prox_nosso_numero - $4",
        )
        .bind(client)
        .bind(emp)
        .bind(bank)
        .bind(new.len() as i64)
        .fetch_one(&mut **tx)
        .await?;
        let company = crate::copies::company(tx, client, emp)
            .await?
            .unwrap_or_default();
        let today = titles::today(tx).await?;
        for (i, t) in new.iter().enumerate() {
            let id = first_id + i as i64;
            let seq = first_seq + i as i64;
            let c = codes(&acc, &company, emp, id, seq, t.due, t.balance)?;
            let nosso = acc.printed_nosso_numero(seq)?;
            let document = match t.document.as_deref().filter(|d| !d.trim().is_empty()) {
                Some(d) => d.trim().to_string(),
                None => format!("{}/{}", t.id, t.seq),
            };
            sqlx::query(
                "INSERT INTO finance.boletos (client_id, bol_emp_id, bol_id, bol_bco_id, bol_crcb_id, bol_cli_id,
                     bol_cli_nome, bol_sequencia, bol_nosso_numero, bol_documento, bol_dta_emis, bol_dta_vcto,
                     bol_valor, bol_codigo_barras, bol_linha_digitavel, bol_pix_copia_cola, bol_usr_id)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)",
            )
            .bind(client)
            .bind(emp)
            .bind(id)
            .bind(bank)
            .bind(t.id)
            .bind(t.person)
            .bind(&t.person_name)
            .bind(seq)
            .bind(&nosso)
            .bind(&document)
            .bind(today)
            .bind(t.due)
            .bind(t.balance)
            .bind(&c.barcode)
            .bind(&c.linha)
            .bind(&c.pix)
            .bind((user > 0).then_some(user))
            .execute(&mut **tx)
            .await?;
            crate::facts::slip_changed(tx, client, emp, id, t.id, "gerado", t.balance).await?;
            out.push(load(tx, client, emp, id, false).await?);
        }
    }
    out.sort_by_key(|s| ids.iter().position(|i| *i == s.title));
    Ok(out)
}

/// A payment of a slip: its date, the value taken from the balance (all of it
/// when none) and the interest (the late charges of the parameters when none).
#[derive(Clone, Debug)]
pub struct Payment {
    pub date: NaiveDate,
    pub value: Option<Decimal>,
    pub interest: Option<Decimal>,
}

/// The payer paid slip `id`: the receivable is settled on the slip's account.
pub async fn pay(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    user: i64,
    id: i64,
    p: &Payment,
) -> Result<Slip> {
    let Payment { date, value, interest } = p.clone();
    let s = lock(tx, client, emp, id).await?;
    if !matches!(s.status.as_str(), "G" | "E" | "R") {
        return Err(Error::Conflict(format!(
            "Boleto {} está {} e não pode ser baixado.",
            s.nosso_numero,
            status_label(&s.status).to_lowercase()
        )));
    }
    let done = titles::settle(
        tx,
        client,
        emp,
        Side::Receivable,
        &Settlement {
            date,
            bank: Some(s.bank),
            method: None,
            remarks: Some(format!("Boleto nosso número {}", s.nosso_numero)),
            items: vec![SettleItem {
                id: s.title,
                value,
                interest,
                fine: interest.map(|_| Decimal::ZERO),
                discount: Decimal::ZERO,
            }],
            user,
        },
    )
    .await?;
    let paid: Decimal = done.iter().map(|d| d.total).sum();
    sqlx::query(
        "UPDATE finance.boletos SET bol_situacao = 'P', bol_vlr_pago = $4, bol_dta_pag = $5, bol_baix_id = $6,
             bol_instrucao = NULL
         WHERE client_id = $1 AND bol_emp_id = $2 AND bol_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(paid)
    .bind(date)
    .bind(done.first().map(|d| d.settlement))
    .execute(&mut **tx)
    .await?;
    crate::facts::slip_changed(tx, client, emp, id, s.title, "pago", paid).await?;
    load(tx, client, emp, id, false).await
}

/// Slip `id` leaves collection; the bank is told by the next remittance when it
/// has the slip.
pub async fn write_off(tx: &mut Tx, client: i64, emp: i64, id: i64) -> Result<Slip> {
    let s = lock(tx, client, emp, id).await?;
    if !matches!(s.status.as_str(), "G" | "E" | "R") {
        return Err(Error::Conflict(format!(
            "Boleto {} está {} e não pode ser baixado.",
            s.nosso_numero,
            status_label(&s.status).to_lowercase()
        )));
    }
    let command = (s.status != "G").then_some("02");
    sqlx::query(
        "UPDATE finance.boletos SET bol_situacao = 'B', bol_instrucao = $4,
             bol_ocorrencia = 'Baixa solicitada pelo usuário'
         WHERE client_id = $1 AND bol_emp_id = $2 AND bol_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(command)
    .execute(&mut **tx)
    .await?;
    crate::facts::slip_changed(tx, client, emp, id, s.title, "baixado", s.value).await?;
    load(tx, client, emp, id, false).await
}

/// A new due date and/or value of slip `id` (see the module's doc); answers the
/// slip now in collection.
pub async fn change(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    user: i64,
    id: i64,
    due: Option<NaiveDate>,
    value: Option<Decimal>,
) -> Result<Slip> {
    if due.is_none() && value.is_none() {
        return Err(Error::validation(
            "Informe o novo vencimento ou o novo valor do boleto.",
        ));
    }
    let s = lock(tx, client, emp, id).await?;
    let titles = titles::load(tx, client, emp, Side::Receivable, &[s.title], false).await?;
    let t = titles
        .get(&s.title)
        .ok_or_else(|| Error::NotFound(format!("Título {} não encontrado.", s.title)))?;
    if !matches!(s.status.as_str(), "G" | "E" | "R") {
        return Err(Error::Conflict(format!(
            "Boleto {} está {} e não pode ser alterado.",
            s.nosso_numero,
            status_label(&s.status).to_lowercase()
        )));
    }
    let today = titles::today(tx).await?;
    let due = due.unwrap_or(s.due);
    if due < today {
        return Err(Error::validation(
            "O novo vencimento não pode ser anterior a hoje.",
        ));
    }
    if due != s.due {
        sqlx::query(
            "UPDATE finance.contasreceber SET tit_dta_vcto = $4 WHERE client_id = $1 AND tit_emp_id = $2 AND tit_id = $3",
        )
        .bind(client)
        .bind(emp)
        .bind(s.title)
        .bind(due)
        .execute(&mut **tx)
        .await?;
    }
    let new_value = value.filter(|v| *v != s.value);
    if let Some(v) = new_value {
        if v <= Decimal::ZERO {
            return Err(Error::validation(
                "O valor do boleto deve ser maior que zero.",
            ));
        }
        if v > t.balance {
            return Err(Error::validation(format!(
                "O valor do boleto ({}) não pode passar do saldo do título ({}).",
                titles::brl(v),
                titles::brl(t.balance)
            )));
        }
    }
    let acc = account::load(tx, client, emp, s.bank, false).await?;
    let company = crate::copies::company(tx, client, emp)
        .await?
        .unwrap_or_default();
    match new_value {
        Some(v) if s.status != "G" => {
            // The bank has the slip: write it off and issue another.
            write_off(tx, client, emp, id).await?;
            let created = generate(tx, client, emp, user, s.bank, &[s.title]).await?;
            let new = created
                .into_iter()
                .next()
                .ok_or_else(|| Error::internal("slip not generated"))?;
            recompute(tx, client, emp, &acc, &company, &new, due, v, None).await
        }
        _ => {
            let v = new_value.unwrap_or(s.value);
            let command = (s.status != "G" && due != s.due)
                .then_some("06")
                .or(s.instruction.as_deref());
            recompute(tx, client, emp, &acc, &company, &s, due, v, command).await
        }
    }
}

#[allow(clippy::too_many_arguments)]
async fn recompute(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    acc: &Account,
    company: &crate::copies::Company,
    s: &Slip,
    due: NaiveDate,
    value: Decimal,
    command: Option<&str>,
) -> Result<Slip> {
    let c = codes(acc, company, emp, s.id, s.seq, due, value)?;
    sqlx::query(
        "UPDATE finance.boletos SET bol_dta_vcto = $4, bol_valor = $5, bol_codigo_barras = $6,
             bol_linha_digitavel = $7, bol_pix_copia_cola = $8, bol_instrucao = $9
         WHERE client_id = $1 AND bol_emp_id = $2 AND bol_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(s.id)
    .bind(due)
    .bind(value)
    .bind(&c.barcode)
    .bind(&c.linha)
    .bind(&c.pix)
    .bind(command)
    .execute(&mut **tx)
    .await?;
    load(tx, client, emp, s.id, false).await
}

/// An occurrence of a slip in the return files processed.
#[derive(Clone, Debug, Serialize, JsonSchema, sqlx::FromRow)]
pub struct OccurrenceOut {
    /// yyyy-MM-dd.
    #[serde(rename = "DATA")]
    pub date: String,
    #[serde(rename = "CODIGO")]
    pub code: String,
    #[serde(rename = "DESCRICAO")]
    pub description: String,
    #[serde(rename = "MOTIVOS")]
    pub reasons: String,
    /// What processing it did ('Registrado', 'Liquidado…').
    #[serde(rename = "RESULTADO")]
    pub result: String,
}

/// A slip's registration and payment status.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct SlipStatus {
    #[serde(rename = "BOL_ID")]
    pub id: i64,
    #[serde(rename = "NOSSO_NUMERO")]
    pub nosso_numero: String,
    #[serde(rename = "BOL_SITUACAO")]
    pub status: String,
    #[serde(rename = "SITUACAO_DESCRICAO")]
    pub status_label: String,
    #[serde(rename = "REGISTRADO")]
    pub registered: bool,
    #[serde(rename = "PAGO")]
    pub paid: bool,
    #[serde(rename = "OCORRENCIAS")]
    pub occurrences: Vec<OccurrenceOut>,
}

/// Registration and payment status of slip `id` from the bank's occurrences of
/// the return files processed.
pub async fn check(tx: &mut Tx, client: i64, emp: i64, id: i64) -> Result<SlipStatus> {
    let s = load(tx, client, emp, id, false).await?;
    let occurrences: Vec<OccurrenceOut> = sqlx::query_as(
        "SELECT to_char(boco_data, 'YYYY-MM-DD') AS date, boco_codigo AS code, boco_descricao AS description,
                coalesce(boco_motivos, '') AS reasons, boco_resultado AS result
         FROM finance.boletoocorrencias
         WHERE client_id = $1 AND boco_emp_id = $2 AND boco_bol_id = $3 ORDER BY boco_data, boco_codigo",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_all(&mut **tx)
    .await?;
    Ok(SlipStatus {
        id: s.id,
        nosso_numero: s.nosso_numero,
        status_label: status_label(&s.status).into(),
        registered: matches!(s.status.as_str(), "R" | "P")
            || occurrences.iter().any(|o| o.result == "Registrado"),
        paid: s.status == "P",
        status: s.status,
        occurrences,
    })
}

/// The slips of account `bank` issued on `day`, as the register's rows.
pub async fn of_day(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    bank: i64,
    day: NaiveDate,
) -> Result<Vec<CallRow>> {
    let sql = format!(
        "SELECT to_jsonb(b) FROM (SELECT {COLUMNS}
         FROM finance.boletos WHERE client_id = $1 AND bol_emp_id = $2 AND bol_bco_id = $3 AND bol_dta_emis = $4) b
         ORDER BY b.\"BOL_ID\""
    );
    let rows: Vec<serde_json::Value> = sqlx::query_scalar(&sql)
        .bind(client)
        .bind(emp)
        .bind(bank)
        .bind(day)
        .fetch_all(&mut **tx)
        .await?;
    Ok(rows.into_iter().map(CallRow).collect())
}
