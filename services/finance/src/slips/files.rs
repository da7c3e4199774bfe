//! The CNAB files of an account's slips.
//!
//! - **Remittance** (`remittance`): the slips generated and not yet sent (the
//!   entry command) and those waiting for a write-off or a new due date, in the
//!   account's layout (`collection::cnab`), numbered by the account's remittance
//!   sequence (taken under the account's lock). The file is kept (`remessas`) and
//!   its slips are marked sent.
//! - **Return** (`process_return`): every occurrence the bank reports is claimed
//!   once per (account, nosso número, code, date) in `boletoocorrencias` before it
//!   acts, so a file processed twice (or two files that repeat an occurrence)
//!   settles nothing twice. A payment settles the receivable through `super::pay`
//!   (what was paid beyond the balance is interest; less than the balance is a
//!   partial settlement), a confirmation marks the slip registered, a refusal
//!   refused with the bank's reasons, a write-off written off; a collection fee
//!   becomes a debit on the account. A title matches the slip of its nosso
//!   número; where the layout's number may carry a check digit or the convênio
//!   (`CnabLayout::returns_plain_nosso_numero` false) it is also tried without
//!   them. The answer lists the parser's issues and notices (e.g. lines
//!   completed with blanks) in `AVISOS`.

use chrono::NaiveDate;
use erp_platform::db::Tx;
use erp_platform::resource::call::Dec;
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::Serialize;
use sha2::{Digest, Sha256};
use sqlx::Row;

use super::account::{self, Account};
use crate::collection::cnab::{
    generate_remittance, parse_return, Command, OccurrenceKind, Payer, ReturnTitle, Slip,
};
use crate::titles;

/// A remittance file generated.
#[derive(Clone, Debug)]
pub struct Remittance {
    pub id: i64,
    pub name: String,
    pub content: String,
    pub count: usize,
}

fn digits(s: &str) -> String {
    s.chars().filter(char::is_ascii_digit).collect()
}

/// Text for a CNAB field: upper case, no accents (the layouts are ASCII).
fn plain(s: &str) -> String {
    crate::collection::pix::normalize_text("texto", s, true).unwrap_or_else(|_| {
        s.chars()
            .filter(char::is_ascii)
            .collect::<String>()
            .to_uppercase()
    })
}

struct Pending {
    id: i64,
    seq: i64,
    document: String,
    issued: NaiveDate,
    due: NaiveDate,
    value: Decimal,
    command: Option<String>,
    payer_name: String,
    payer_doc: Option<String>,
    street: Option<String>,
    number: Option<String>,
    district: Option<String>,
    cep: Option<String>,
    city: Option<String>,
    uf: Option<String>,
}

/// Interest in reais per day from the account's monthly rate.
fn interest_per_day(acc: &Account, value: Decimal) -> Option<Decimal> {
    acc.interest_percent_month
        .filter(|p| *p > Decimal::ZERO)
        .map(|p| (value * p / Decimal::from(3000)).round_dp(2))
        .filter(|d| *d > Decimal::ZERO)
}

/// Generates the remittance of account `bank` (see the module's doc).
pub async fn remittance(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    user: i64,
    bank: i64,
) -> Result<Remittance> {
    let acc = account::load(tx, client, emp, bank, true).await?;
    let layout = acc.cnab_layout()?;
    let rows = sqlx::query(
        "SELECT b.bol_id, b.bol_sequencia, coalesce(b.bol_documento, ''), b.bol_dta_emis, b.bol_dta_vcto, b.bol_valor,
                b.bol_situacao, b.bol_instrucao, coalesce(c.descricao, b.bol_cli_nome, ''), c.documento, c.endereco,
                c.numero, c.bairro, c.cep, c.cidade, c.uf
         FROM finance.boletos b
         LEFT JOIN finance.clientes c ON c.client_id = b.client_id AND c.emp_id = b.bol_emp_id AND c.cli_id = b.bol_cli_id
         WHERE b.client_id = $1 AND b.bol_emp_id = $2 AND b.bol_bco_id = $3
           AND (b.bol_situacao = 'G' OR b.bol_instrucao IS NOT NULL)
         ORDER BY b.bol_id FOR UPDATE OF b",
    )
    .bind(client)
    .bind(emp)
    .bind(bank)
    .fetch_all(&mut **tx)
    .await?;
    if rows.is_empty() {
        return Err(Error::validation("Nenhum boleto a enviar para esta conta."));
    }
    let pending: Vec<Pending> = rows
        .iter()
        .map(|r| -> Result<Pending> {
            Ok(Pending {
                id: r.try_get(0)?,
                seq: r.try_get(1)?,
                document: r.try_get(2)?,
                issued: r.try_get(3)?,
                due: r.try_get(4)?,
                value: r.try_get(5)?,
                command: r.try_get(7)?,
                payer_name: r.try_get(8)?,
                payer_doc: r.try_get(9)?,
                street: r.try_get(10)?,
                number: r.try_get(11)?,
                district: r.try_get(12)?,
                cep: r.try_get(13)?,
                city: r.try_get(14)?,
                uf: r.try_get(15)?,
            })
        })
        .collect::<Result<_>>()?;
    let company = crate::copies::company(tx, client, emp)
        .await?
        .filter(|c| !c.document.is_empty())
        .ok_or_else(|| {
            Error::validation(
                "O CNPJ da empresa ainda não chegou ao financeiro: confira o cadastro da empresa e tente de novo.",
            )
        })?;
    let mut slips = Vec::with_capacity(pending.len());
    for p in &pending {
        let doc = p.payer_doc.as_deref().map(digits).unwrap_or_default();
        if doc.len() != 11 && doc.len() != 14 {
            return Err(Error::validation(format!(
                "Cliente '{}' sem CPF/CNPJ: o banco não registra boleto sem o documento do pagador.",
                p.payer_name
            )));
        }
        let cep = p.cep.as_deref().map(digits).unwrap_or_default();
        if cep.len() != 8 {
            return Err(Error::validation(format!(
                "Cliente '{}' sem CEP: o banco não registra boleto sem o endereço do pagador.",
                p.payer_name
            )));
        }
        let address = match (&p.street, &p.number) {
            (Some(s), Some(n)) if !n.trim().is_empty() => format!("{s} {n}"),
            (Some(s), _) => s.clone(),
            _ => String::new(),
        };
        let command = match p.command.as_deref() {
            Some("02") => Command::WriteOff,
            Some("06") => Command::ChangeDueDate,
            _ => Command::Entry,
        };
        slips.push(Slip {
            nosso_numero: p.seq.to_string(),
            document_number: plain(&p.document).chars().take(10).collect(),
            issue_date: p.issued,
            due_date: p.due,
            amount: p.value,
            payer: Payer {
                name: plain(&p.payer_name),
                document: doc,
                address: plain(&address),
                district: plain(p.district.as_deref().unwrap_or("")),
                cep,
                city: plain(p.city.as_deref().unwrap_or("")),
                uf: plain(p.uf.as_deref().unwrap_or("")),
            },
            interest_per_day: interest_per_day(&acc, p.value),
            interest_percent_month: acc.interest_percent_month.filter(|r| *r > Decimal::ZERO),
            fine_percent: acc.fine_percent.filter(|f| *f > Decimal::ZERO),
            discount: None,
            protest_days: acc
                .protest_days
                .filter(|d| *d > 0)
                .and_then(|d| u8::try_from(d).ok()),
            message: None,
            command,
        });
    }
    let seq: i64 = sqlx::query_scalar(
        "UPDATE finance.banco SET bco_prox_remessa = bco_prox_remessa + 1
         WHERE client_id = $1 AND bco_emp_id = $2 AND bco_id = $3 RETURNING bco_prox_remessa - 1",
    )
    .bind(client)
    .bind(emp)
    .bind(bank)
    .fetch_one(&mut **tx)
    .await?;
    let beneficiary = acc.beneficiary_of(&plain(&company.name), &company.document, seq as u64);
    let now: chrono::NaiveDateTime =
        sqlx::query_scalar("SELECT (now() AT TIME ZONE 'America/Sao_Paulo')::timestamp")
            .fetch_one(&mut **tx)
            .await?;
    let content = generate_remittance(layout, &beneficiary, &slips, now)
        .map_err(|e| Error::validation(format!("Remessa: {e}")))?;
    let id = crate::bank::next_ids(tx, client, emp, "remessas", "rem_id", "rem_emp_id", 1).await?;
    let name = format!("REM{}_{:06}.REM", acc.compe, seq);
    let total: Decimal = pending.iter().map(|p| p.value).sum();
    sqlx::query(
        "INSERT INTO finance.remessas (client_id, rem_emp_id, rem_id, rem_bco_id, rem_sequencia, rem_leiaute, rem_nome,
             rem_arquivo, rem_qtd, rem_valor, rem_usr_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(bank)
    .bind(seq)
    .bind(layout.name())
    .bind(&name)
    .bind(&content)
    .bind(pending.len() as i32)
    .bind(total)
    .bind((user > 0).then_some(user))
    .execute(&mut **tx)
    .await?;
    let ids: Vec<i64> = pending.iter().map(|p| p.id).collect();
    sqlx::query(
        "UPDATE finance.boletos SET bol_situacao = CASE bol_situacao WHEN 'G' THEN 'E' ELSE bol_situacao END,
             bol_instrucao = NULL, bol_rem_id = $4
         WHERE client_id = $1 AND bol_emp_id = $2 AND bol_id = ANY($3)",
    )
    .bind(client)
    .bind(emp)
    .bind(&ids)
    .bind(id)
    .execute(&mut **tx)
    .await?;
    Ok(Remittance { id, name, content, count: pending.len() })
}

/// The numbers a bank may return for a slip: as sent, without the check digit,
/// or the last ten digits (Banco do Brasil prefixes its convênio).
fn candidates(returned: &str) -> Vec<i64> {
    let d = digits(returned);
    let mut out = Vec::new();
    let mut push = |s: &str| {
        if let Ok(n) = s.trim_start_matches('0').parse::<i64>() {
            if !out.contains(&n) {
                out.push(n);
            }
        }
    };
    push(&d);
    if d.len() > 1 {
        push(&d[..d.len() - 1]);
    }
    if d.len() > 10 {
        push(&d[d.len() - 10..]);
        push(&d[d.len() - 11..d.len() - 1]);
    }
    out
}

/// The slip of a returned nosso número: exactly that number when the layout
/// returns the slip's own number (`exact`), else any of its `candidates`.
async fn find_slip(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    bank: i64,
    returned: &str,
    exact: bool,
) -> Result<Option<i64>> {
    let numbers = if exact {
        digits(returned)
            .trim_start_matches('0')
            .parse::<i64>()
            .ok()
            .into_iter()
            .collect()
    } else {
        candidates(returned)
    };
    for seq in numbers {
        let id: Option<i64> = sqlx::query_scalar(
            "SELECT bol_id FROM finance.boletos
             WHERE client_id = $1 AND bol_emp_id = $2 AND bol_bco_id = $3 AND bol_sequencia = $4",
        )
        .bind(client)
        .bind(emp)
        .bind(bank)
        .bind(seq)
        .fetch_optional(&mut **tx)
        .await?;
        if id.is_some() {
            return Ok(id);
        }
    }
    Ok(None)
}

fn reasons(t: &ReturnTitle) -> String {
    t.reasons
        .iter()
        .map(|r| match &r.description {
            Some(d) => format!("{} - {d}", r.code),
            None => r.code.clone(),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// What one occurrence did to its slip.
#[allow(clippy::too_many_arguments)]
async fn apply(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    user: i64,
    acc: &Account,
    slip: Option<i64>,
    t: &ReturnTitle,
    date: NaiveDate,
) -> Result<String> {
    let Some(id) = slip else {
        return Ok("Boleto não encontrado nesta conta".into());
    };
    let s = super::lock(tx, client, emp, id).await?;
    let note = format!("{} - {}", t.occurrence.code, t.occurrence.description);
    let set = |status: &'static str| {
        sqlx::query(
            "UPDATE finance.boletos SET bol_situacao = $4, bol_ocorrencia = $5
             WHERE client_id = $1 AND bol_emp_id = $2 AND bol_id = $3",
        )
        .bind(client)
        .bind(emp)
        .bind(id)
        .bind(status)
        .bind(note.clone())
    };
    let result = match t.occurrence.kind {
        OccurrenceKind::Registered => {
            if matches!(s.status.as_str(), "G" | "E" | "X") {
                set("R").execute(&mut **tx).await?;
            }
            "Registrado".to_string()
        }
        OccurrenceKind::Rejected => {
            if matches!(s.status.as_str(), "G" | "E") {
                set("X").execute(&mut **tx).await?;
            }
            let why = reasons(t);
            if why.is_empty() {
                "Recusado".to_string()
            } else {
                format!("Recusado: {why}")
            }
        }
        OccurrenceKind::Settled => {
            if !matches!(s.status.as_str(), "G" | "E" | "R") {
                format!(
                    "Não liquidado: boleto {}",
                    super::status_label(&s.status).to_lowercase()
                )
            } else {
                let titles =
                    titles::load(tx, client, emp, titles::Side::Receivable, &[s.title], false)
                        .await?;
                let balance = titles.get(&s.title).map(|t| t.balance).unwrap_or_default();
                let paid = if t.paid_amount > Decimal::ZERO {
                    t.paid_amount
                } else {
                    t.face_value
                };
                if balance <= Decimal::ZERO {
                    format!("Não liquidado: título {} já está pago", s.title)
                } else {
                    let principal = (paid - t.interest).max(Decimal::ZERO).min(balance);
                    let interest = paid - principal;
                    if principal <= Decimal::ZERO {
                        "Não liquidado: valor pago zerado".to_string()
                    } else {
                        super::pay(
                            tx,
                            client,
                            emp,
                            user,
                            id,
                            &super::Payment {
                                date,
                                value: Some(principal),
                                interest: Some(interest),
                            },
                        )
                        .await?;
                        set("P").execute(&mut **tx).await?;
                        format!("Liquidado ({})", titles::brl(paid))
                    }
                }
            }
        }
        OccurrenceKind::WrittenOff => {
            if s.status != "P" {
                set("B").execute(&mut **tx).await?;
            }
            if !matches!(s.status.as_str(), "P" | "B") {
                crate::facts::slip_changed(tx, client, emp, id, s.title, "baixado", s.value)
                    .await?;
            }
            "Baixado".to_string()
        }
        OccurrenceKind::Protest | OccurrenceKind::Fee | OccurrenceKind::Other => {
            sqlx::query(
                "UPDATE finance.boletos SET bol_ocorrencia = $4 WHERE client_id = $1 AND bol_emp_id = $2 AND bol_id = $3",
            )
            .bind(client)
            .bind(emp)
            .bind(id)
            .bind(&note)
            .execute(&mut **tx)
            .await?;
            "Informativo".to_string()
        }
    };
    if t.fee > Decimal::ZERO {
        let mid = crate::bank::reserve(tx, client, emp, 1).await?;
        crate::bank::record(
            tx,
            client,
            mid,
            &crate::bank::Movement {
                emp,
                bank: acc.id,
                date,
                direction: crate::bank::Direction::Debit,
                value: t.fee,
                history: format!("Tarifa de cobrança - boleto {}", s.nosso_numero),
                document: Some(s.nosso_numero.clone()),
                cost_centre: None,
                method: None,
                origin: "MANUAL",
                settlement: None,
                user,
            },
        )
        .await?;
    }
    Ok(result)
}

/// A title of a return file and what processing it did.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct ReturnLine {
    #[serde(rename = "NOSSO_NUMERO")]
    pub nosso_numero: String,
    /// The slip it matched, if any.
    #[serde(rename = "BOL_ID")]
    pub slip: Option<i64>,
    /// The slip's receivable.
    #[serde(rename = "CRCB_ID")]
    pub title: Option<i64>,
    #[serde(rename = "OCORRENCIA")]
    pub occurrence: String,
    #[serde(rename = "DESCRICAO")]
    pub description: String,
    #[serde(rename = "MOTIVOS")]
    pub reasons: String,
    #[serde(rename = "VALOR_PAGO")]
    pub paid: Dec,
    #[serde(rename = "JUROS")]
    pub interest: Dec,
    #[serde(rename = "TARIFA")]
    pub fee: Dec,
    #[serde(rename = "RESULTADO")]
    pub result: String,
}

/// What processing a return file did (also kept in `retornos.ret_resultado`).
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct ReturnOut {
    #[serde(rename = "ARQUIVO")]
    pub file: String,
    #[serde(rename = "LEIAUTE")]
    pub layout: String,
    /// The same file (by its hash) was processed before.
    #[serde(rename = "JA_PROCESSADO")]
    pub processed_before: bool,
    #[serde(rename = "LIQUIDADOS")]
    pub settled: usize,
    #[serde(rename = "REGISTRADOS")]
    pub registered: usize,
    #[serde(rename = "RECUSADOS")]
    pub refused: usize,
    #[serde(rename = "BAIXADOS")]
    pub written_off: usize,
    #[serde(rename = "IGNORADOS")]
    pub ignored: usize,
    /// The parser's notices and issues.
    #[serde(rename = "AVISOS")]
    pub notices: Vec<String>,
    /// Records the file had cut short and the parser completed with blanks.
    #[serde(rename = "LINHAS_COMPLETADAS")]
    pub padded_lines: usize,
    #[serde(rename = "TITULOS")]
    pub titles: Vec<ReturnLine>,
}

/// Processes return file `name` of account `bank` (see the module's doc).
pub async fn process_return(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    user: i64,
    bank: i64,
    name: &str,
    bytes: &[u8],
) -> Result<ReturnOut> {
    let acc = account::load(tx, client, emp, bank, false).await?;
    let layout = acc.cnab_layout()?;
    let parsed =
        parse_return(layout, bytes).map_err(|e| Error::validation(format!("Retorno: {e}")))?;
    let hash = format!("{:x}", Sha256::digest(bytes));
    let before: Option<i64> = sqlx::query_scalar(
        "SELECT ret_id FROM finance.retornos WHERE client_id = $1 AND ret_emp_id = $2 AND ret_bco_id = $3 AND ret_hash = $4",
    )
    .bind(client)
    .bind(emp)
    .bind(bank)
    .bind(&hash)
    .fetch_optional(&mut **tx)
    .await?;
    let ret_id =
        crate::bank::next_ids(tx, client, emp, "retornos", "ret_id", "ret_emp_id", 1).await?;
    let today = titles::today(tx).await?;
    let (mut settled, mut registered, mut refused, mut written_off, mut ignored) =
        (0usize, 0usize, 0usize, 0usize, 0usize);
    let mut lines = Vec::with_capacity(parsed.titles.len());
    for t in &parsed.titles {
        let date = t
            .credit_date
            .or(t.occurrence_date)
            .or(parsed.generated_on)
            .unwrap_or(today);
        let slip = find_slip(
            tx,
            client,
            emp,
            bank,
            &t.nosso_numero,
            layout.returns_plain_nosso_numero(),
        )
        .await?;
        let claimed = sqlx::query(
            "INSERT INTO finance.boletoocorrencias (client_id, boco_emp_id, boco_bco_id, boco_nosso_numero, boco_codigo,
                 boco_data, boco_bol_id, boco_ret_id, boco_descricao, boco_motivos, boco_vlr_pago, boco_juros,
                 boco_tarifa, boco_resultado)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, '')
             ON CONFLICT DO NOTHING",
        )
        .bind(client)
        .bind(emp)
        .bind(bank)
        .bind(&t.nosso_numero)
        .bind(&t.occurrence.code)
        .bind(t.occurrence_date.unwrap_or(date))
        .bind(slip)
        .bind(ret_id)
        .bind(&t.occurrence.description)
        .bind(reasons(t))
        .bind(t.paid_amount)
        .bind(t.interest)
        .bind(t.fee)
        .execute(&mut **tx)
        .await?
        .rows_affected()
            == 1;
        let result = if claimed {
            let r = apply(tx, client, emp, user, &acc, slip, t, date).await?;
            sqlx::query(
                "UPDATE finance.boletoocorrencias SET boco_resultado = $6
                 WHERE client_id = $1 AND boco_emp_id = $2 AND boco_bco_id = $3 AND boco_nosso_numero = $4
                   AND boco_codigo = $5 AND boco_data = $7",
            )
            .bind(client)
            .bind(emp)
            .bind(bank)
            .bind(&t.nosso_numero)
            .bind(&t.occurrence.code)
            .bind(&r)
            .bind(t.occurrence_date.unwrap_or(date))
            .execute(&mut **tx)
            .await?;
            r
        } else {
            "Já processado".to_string()
        };
        match (claimed && slip.is_some(), t.occurrence.kind) {
            (true, OccurrenceKind::Settled) if result.starts_with("Liquidado") => settled += 1,
            (true, OccurrenceKind::Registered) => registered += 1,
            (true, OccurrenceKind::Rejected) => refused += 1,
            (true, OccurrenceKind::WrittenOff) => written_off += 1,
            _ => ignored += 1,
        }
        let title: Option<i64> = match slip {
            Some(id) => Some(super::load(tx, client, emp, id, false).await?.title),
            None => None,
        };
        lines.push(ReturnLine {
            nosso_numero: t.nosso_numero.clone(),
            slip,
            title,
            occurrence: t.occurrence.code.clone(),
            description: t.occurrence.description.clone(),
            reasons: reasons(t),
            paid: t.paid_amount.into(),
            interest: t.interest.into(),
            fee: t.fee.into(),
            result,
        });
    }
    let answer = ReturnOut {
        file: name.to_string(),
        layout: layout.name().to_string(),
        processed_before: before.is_some(),
        settled,
        registered,
        refused,
        written_off,
        ignored,
        notices: parsed
            .notices()
            .into_iter()
            .chain(parsed.issues.iter().map(|e| e.to_string()))
            .collect(),
        padded_lines: parsed.padded_lines,
        titles: lines,
    };
    sqlx::query(
        "INSERT INTO finance.retornos (client_id, ret_emp_id, ret_id, ret_bco_id, ret_nome, ret_hash, ret_leiaute,
             ret_resultado, ret_usr_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING",
    )
    .bind(client)
    .bind(emp)
    .bind(ret_id)
    .bind(bank)
    .bind(name)
    .bind(&hash)
    .bind(layout.name())
    .bind(sqlx::types::Json(&answer))
    .bind((user > 0).then_some(user))
    .execute(&mut **tx)
    .await?;
    Ok(answer)
}

#[cfg(test)]
mod tests {
    use super::candidates;

    #[test]
    fn returned_numbers_match_with_or_without_digit_or_prefix() {
        assert_eq!(candidates("0000000123"), vec![123, 12]);
        // Santander returns the 13 digits with the check digit.
        assert!(candidates("0000012345679").contains(&1234567));
        // Banco do Brasil: convênio 1234567 + 10 digits.
        assert!(candidates("12345670000000042").contains(&42));
    }
}
