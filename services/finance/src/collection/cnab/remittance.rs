//! Remittance (remessa) generator and parser for the CNAB 240 and CNAB 400 banks.
//!
//! One batch per CNAB 240 file with segments P, Q and R per slip; CNAB 400 files
//! have a header, one detail per slip and a trailer. Lines are exactly 240/400
//! characters and end in CRLF. Text is written in upper-case ASCII without
//! accents (what the banks accept); long names and addresses are truncated to
//! their fields, identifiers that do not fit are errors.
//!
//! Non-obvious choices:
//! - Interest (juros) and fines start the day after the due date; interest is a
//!   value per day (code 1), the fine a percentage (code 2), the discount a fixed
//!   value up to a date (code 1), protest in calendar days (code 1, else 3).
//! - CNAB 400 detail records of Banco do Brasil and Itaú have no room for a fine
//!   or a free message (they would need optional records), so slips carrying
//!   them are refused instead of silently losing the data; which layout has room
//!   is read from its table (a `multa` or `mensagem` field). Bradesco's detail
//!   has no district, city or state (the bank takes them from the CEP).
//! - Sicoob CNAB 400 takes interest as a monthly rate (4 decimals) and the
//!   protest as a number of days, 00 meaning the cooperative's default; it has
//!   no "do not protest" code.
//! - The check digit of Bradesco's nosso número (carteira + number) is written
//!   and verified on read; Sicoob's depends on the código do cliente of the
//!   header and is written, not verified.
//! - On parse, a discount or interest is taken as present when its amount is
//!   positive, whatever the code says: generators in the wild (the Santander
//!   fixture) write an amount with code 0, and reading it as "no discount" would
//!   hide money the bank will honour.

use chrono::{NaiveDate, NaiveDateTime, Timelike};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::super::barcode::{
    bradesco_nosso_numero_dv, santander_nosso_numero_dv, sicoob_nosso_numero_dv,
};
use super::layout::{
    check_date6, next_day, split_lines, write_record, Line, Record, RecordLayout, Value, Values,
};
use super::{tables240 as t240, tables400 as t400};
use super::{Beneficiary, CnabError, CnabLayout, Command, Discount, Payer, Slip};

/// How a layout stores the nosso número.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NossoNumero {
    /// As given (zero-padded in numeric fields).
    Plain,
    /// Santander: 12 digits followed by their mod-11 digit.
    SantanderWithDigit,
    /// Bradesco: the number, and in `nosso_numero_dv` its digit over carteira +
    /// number (mod 11 base 7, P for 10).
    BradescoDigit,
    /// Sicoob: the number, and in `nosso_numero_dv` its digit over agência +
    /// código do cliente + number.
    SicoobDigit,
}

/// How a CNAB 400 detail asks for a protest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Protest {
    /// This code in `instrucao_1`, the days in `prazo_protesto`.
    Instruction(u64),
    /// Only the days, in `prazo_protesto` (Sicoob).
    Days,
}

struct Profile240 {
    file_header: &'static RecordLayout,
    batch_header: &'static RecordLayout,
    p: &'static RecordLayout,
    q: &'static RecordLayout,
    r: &'static RecordLayout,
    batch_trailer: &'static RecordLayout,
    file_trailer: &'static RecordLayout,
    nosso_numero: NossoNumero,
}

struct Profile400 {
    header: &'static RecordLayout,
    detail: &'static RecordLayout,
    /// Record type of the detail line ('7' for BB's 7-digit convênio, '1' for the others).
    detail_type: char,
    protest: Protest,
    nosso_numero: NossoNumero,
}

enum Profile {
    Cnab240(Profile240),
    Cnab400(Profile400),
}

fn profile(layout: CnabLayout) -> Result<Profile, CnabError> {
    let p240 = |file_header, batch_header, p, q, r, batch_trailer, file_trailer, nosso_numero| {
        Ok(Profile::Cnab240(Profile240 {
            file_header,
            batch_header,
            p,
            q,
            r,
            batch_trailer,
            file_trailer,
            nosso_numero,
        }))
    };
    match layout {
        CnabLayout::Santander240 => p240(
            &t240::SANTANDER_FILE_HEADER,
            &t240::SANTANDER_BATCH_HEADER,
            &t240::SANTANDER_P,
            &t240::SANTANDER_Q,
            &t240::SANTANDER_R,
            &t240::SANTANDER_BATCH_TRAILER,
            &t240::SANTANDER_FILE_TRAILER,
            NossoNumero::SantanderWithDigit,
        ),
        CnabLayout::Caixa240 => p240(
            &t240::CAIXA_FILE_HEADER,
            &t240::CAIXA_BATCH_HEADER,
            &t240::CAIXA_P,
            &t240::CAIXA_Q,
            &t240::CAIXA_R,
            &t240::CAIXA_BATCH_TRAILER,
            &t240::CAIXA_FILE_TRAILER,
            NossoNumero::Plain,
        ),
        CnabLayout::Sicredi240 => p240(
            &t240::SICREDI_FILE_HEADER,
            &t240::SICREDI_BATCH_HEADER,
            &t240::SICREDI_P,
            &t240::SICREDI_Q,
            &t240::SICREDI_R,
            &t240::SICREDI_BATCH_TRAILER,
            &t240::SICREDI_FILE_TRAILER,
            NossoNumero::Plain,
        ),
        CnabLayout::Ailos240 => p240(
            &t240::AILOS_FILE_HEADER,
            &t240::AILOS_BATCH_HEADER,
            &t240::AILOS_P,
            &t240::AILOS_Q,
            &t240::AILOS_R,
            &t240::AILOS_BATCH_TRAILER,
            &t240::AILOS_FILE_TRAILER,
            NossoNumero::Plain,
        ),
        CnabLayout::BancoDoBrasil400 => Ok(Profile::Cnab400(Profile400 {
            header: &t400::BB_HEADER,
            detail: &t400::BB_DETAIL,
            detail_type: '7',
            protest: Protest::Instruction(6),
            nosso_numero: NossoNumero::Plain,
        })),
        CnabLayout::Itau400 => Ok(Profile::Cnab400(Profile400 {
            header: &t400::ITAU_HEADER,
            detail: &t400::ITAU_DETAIL,
            detail_type: '1',
            protest: Protest::Instruction(9),
            nosso_numero: NossoNumero::Plain,
        })),
        CnabLayout::Bradesco400 => Ok(Profile::Cnab400(Profile400 {
            header: &t400::BRADESCO_HEADER,
            detail: &t400::BRADESCO_DETAIL,
            detail_type: '1',
            protest: Protest::Instruction(6),
            nosso_numero: NossoNumero::BradescoDigit,
        })),
        CnabLayout::Sicoob400 => Ok(Profile::Cnab400(Profile400 {
            header: &t400::SICOOB_HEADER,
            detail: &t400::SICOOB_DETAIL,
            detail_type: '1',
            protest: Protest::Days,
            nosso_numero: NossoNumero::SicoobDigit,
        })),
        CnabLayout::BancoDoBrasil240 | CnabLayout::Sicoob240 | CnabLayout::Unicred400 => {
            Err(CnabError::Unsupported { layout: layout.name(), what: "remessa" })
        }
    }
}

/// A parsed remittance file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Remittance {
    pub layout: CnabLayout,
    /// Bank code as written in the file header.
    pub bank_code: String,
    /// NSA, when the layout carries one in the header.
    pub file_sequence: Option<u64>,
    pub generated_on: Option<NaiveDate>,
    pub slips: Vec<Slip>,
}

fn doc_type(document: &str) -> u64 {
    if document.len() == 11 {
        1
    } else {
        2
    }
}

fn only_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

fn validate_beneficiary(layout: CnabLayout, b: &Beneficiary) -> Result<(), CnabError> {
    let err = |field, reason: &str| CnabError::Beneficiary { field, reason: reason.to_string() };
    if b.company_name.trim().is_empty() {
        return Err(err("nome da empresa", "obrigatório"));
    }
    // Bradesco's header identifies the company by this code, Sicoob's by the
    // código do cliente (also in the nosso número's digit).
    if matches!(layout, CnabLayout::Bradesco400 | CnabLayout::Sicoob400)
        && !only_digits(&b.agreement)
    {
        return Err(err(
            "código do beneficiário",
            "deve ser numérico e não vazio",
        ));
    }
    if !(only_digits(&b.document) && matches!(b.document.len(), 11 | 14)) {
        return Err(err("CPF/CNPJ", "deve ter 11 ou 14 dígitos"));
    }
    for (field, value) in [
        ("agência", &b.agency),
        ("conta", &b.account),
        ("carteira", &b.wallet),
    ] {
        if !only_digits(value) {
            return Err(err(field, "deve ser numérico e não vazio"));
        }
    }
    Ok(())
}

/// `detail` is the CNAB 400 detail table (what the record has room for).
fn validate_slip(
    layout: CnabLayout,
    detail: Option<&RecordLayout>,
    index: usize,
    slip: &Slip,
) -> Result<(), CnabError> {
    let err = |field, reason: String| CnabError::Slip {
        index,
        nosso_numero: slip.nosso_numero.clone(),
        field,
        reason,
    };
    if !only_digits(&slip.nosso_numero) {
        return Err(err("nosso número", "deve ser numérico e não vazio".into()));
    }
    if slip.document_number.trim().is_empty() {
        return Err(err("número do documento", "obrigatório".into()));
    }
    if slip.amount <= Decimal::ZERO {
        return Err(err("valor", format!("{} deve ser positivo", slip.amount)));
    }
    let payer = &slip.payer;
    if payer.name.trim().is_empty() {
        return Err(err("nome do pagador", "obrigatório".into()));
    }
    if !(only_digits(&payer.document) && matches!(payer.document.len(), 11 | 14)) {
        return Err(err(
            "CPF/CNPJ do pagador",
            "deve ter 11 ou 14 dígitos".into(),
        ));
    }
    if !(only_digits(&payer.cep) && payer.cep.len() == 8) {
        return Err(err("CEP", "deve ter 8 dígitos".into()));
    }
    if !(payer.uf.len() == 2 && payer.uf.bytes().all(|b| b.is_ascii_alphabetic())) {
        return Err(err("UF", "deve ter 2 letras".into()));
    }
    for rate in [slip.interest_per_day, slip.interest_percent_month]
        .into_iter()
        .flatten()
    {
        if rate <= Decimal::ZERO {
            return Err(err("juros", "deve ser positivo quando informado".into()));
        }
    }
    if let Some(fine) = slip.fine_percent {
        if fine <= Decimal::ZERO || fine > Decimal::ONE_HUNDRED {
            return Err(err("multa", "percentual deve estar entre 0 e 100".into()));
        }
    }
    if let Some(discount) = &slip.discount {
        if discount.amount <= Decimal::ZERO || discount.amount >= slip.amount {
            return Err(err(
                "desconto",
                "deve ser positivo e menor que o valor".into(),
            ));
        }
    }
    if let Some(detail) = detail {
        if slip.fine_percent.is_some() && detail.field("multa").is_none() {
            return Err(err(
                "multa",
                format!(
                    "o leiaute {} não tem campo de multa no registro de detalhe",
                    layout.name()
                ),
            ));
        }
        if slip.message.is_some() && detail.field("mensagem").is_none() {
            return Err(err(
                "mensagem",
                format!(
                    "o leiaute {} não tem campo de mensagem no registro de detalhe",
                    layout.name()
                ),
            ));
        }
        let mut dates = vec![("vencimento", slip.due_date), ("emissão", slip.issue_date)];
        if let Some(d) = &slip.discount {
            dates.push(("data do desconto", d.until));
        }
        for (field, date) in dates {
            check_date6(date).map_err(|reason| err(field, reason))?;
        }
    }
    Ok(())
}

fn text(s: &str) -> Value {
    Value::Text(s.to_string())
}

fn account_values(layout: CnabLayout, b: &Beneficiary) -> Values {
    vec![
        ("banco", text(layout.bank_code())),
        ("agencia", text(&b.agency)),
        ("agencia_dv", text(&b.agency_dv)),
        ("conta", text(&b.account)),
        ("conta_dv", text(&b.account_dv)),
        ("conta_cobranca", text(&b.account)),
        ("conta_cobranca_dv", text(&b.account_dv)),
        ("convenio", text(&b.agreement)),
        ("convenio_repetido", text(&b.agreement)),
        ("cooperativa_cobradora", text(&b.agency)),
        ("cooperativa_cobradora_dv", text(&b.agency_dv)),
        ("nome_empresa", text(&b.company_name)),
        ("tipo_inscricao", Value::Num(doc_type(&b.document))),
        ("inscricao", text(&b.document)),
        ("tipo_inscricao_empresa", Value::Num(doc_type(&b.document))),
        ("inscricao_empresa", text(&b.document)),
        ("carteira", text(&b.wallet)),
        (
            "variacao",
            text(b.wallet_variation.as_deref().unwrap_or("0")),
        ),
    ]
}

fn slip_values(slip: &Slip) -> Values {
    let payer = &slip.payer;
    let mut v: Values = vec![
        ("numero_documento", text(&slip.document_number)),
        ("vencimento", Value::Date(Some(slip.due_date))),
        ("valor", Value::Money(slip.amount)),
        ("emissao", Value::Date(Some(slip.issue_date))),
        ("tipo_inscricao", Value::Num(doc_type(&payer.document))),
        ("inscricao", text(&payer.document)),
        ("nome", text(&payer.name)),
        ("endereco", text(&payer.address)),
        ("bairro", text(&payer.district)),
        ("cep", text(&payer.cep)),
        ("cidade", text(&payer.city)),
        ("uf", text(&payer.uf)),
        ("mensagem_3", text(slip.message.as_deref().unwrap_or(""))),
        ("mensagem", text(slip.message.as_deref().unwrap_or(""))),
        ("movimento", Value::Num(slip.command.code())),
    ];
    let after_due = Some(next_day(slip.due_date));
    match slip.interest_per_day {
        Some(rate) => v.extend([
            ("codigo_juros", Value::Num(1)),
            ("data_juros", Value::Date(after_due)),
            ("juros", Value::Money(rate)),
        ]),
        None => v.extend([
            ("codigo_juros", Value::Num(3)),
            ("juros", Value::Money(Decimal::ZERO)),
        ]),
    }
    v.push((
        "taxa_juros_mes",
        Value::Money(monthly_rate(slip).unwrap_or(Decimal::ZERO)),
    ));
    match &slip.discount {
        Some(d) => v.extend([
            ("codigo_desconto", Value::Num(1)),
            ("data_desconto", Value::Date(Some(d.until))),
            ("desconto", Value::Money(d.amount)),
        ]),
        None => v.extend([
            ("codigo_desconto", Value::Num(0)),
            ("desconto", Value::Money(Decimal::ZERO)),
        ]),
    }
    match slip.fine_percent {
        Some(p) => v.extend([
            ("codigo_multa", Value::Num(2)),
            ("data_multa", Value::Date(after_due)),
            ("multa", Value::Money(p)),
        ]),
        None => v.extend([
            ("codigo_multa", Value::Num(0)),
            ("multa", Value::Money(Decimal::ZERO)),
        ]),
    }
    match slip.protest_days {
        Some(days) => v.extend([
            ("codigo_protesto", Value::Num(1)),
            ("prazo_protesto", Value::Num(u64::from(days))),
        ]),
        None => v.extend([
            ("codigo_protesto", Value::Num(3)),
            ("prazo_protesto", Value::Num(0)),
        ]),
    }
    v
}

/// The slip's interest as a percentage a month (4 decimals): as given, else from
/// the value per day over a 30-day month.
fn monthly_rate(slip: &Slip) -> Option<Decimal> {
    slip.interest_percent_month
        .or_else(|| {
            slip.interest_per_day
                .map(|day| day * Decimal::from(3000) / slip.amount)
        })
        .map(|rate| rate.round_dp(4))
}

/// The value per day of a monthly rate, as the account's settings derive it.
fn daily_interest(amount: Decimal, rate: Decimal) -> Decimal {
    (amount * rate / Decimal::from(3000)).round_dp(2)
}

/// The nosso número's check digit where the layout gives it a field of its own.
fn nosso_numero_digit(
    style: NossoNumero,
    beneficiary: &Beneficiary,
    index: usize,
    slip: &Slip,
) -> Result<Option<String>, CnabError> {
    let err = |e: super::super::barcode::BarcodeError| CnabError::Slip {
        index,
        nosso_numero: slip.nosso_numero.clone(),
        field: "nosso número",
        reason: e.to_string(),
    };
    match style {
        NossoNumero::Plain | NossoNumero::SantanderWithDigit => Ok(None),
        NossoNumero::BradescoDigit => {
            bradesco_nosso_numero_dv(&bradesco_wallet(&beneficiary.wallet), &slip.nosso_numero)
                .map(|dv| Some(dv.to_string()))
                .map_err(err)
        }
        NossoNumero::SicoobDigit => sicoob_nosso_numero_dv(
            &beneficiary.agency,
            &beneficiary.agreement,
            &slip.nosso_numero,
        )
        .map(|dv| Some(dv.to_string()))
        .map_err(err),
    }
}

/// Bradesco's digit takes the carteira in two digits ("009" and "9" are 09).
fn bradesco_wallet(wallet: &str) -> String {
    format!("{:0>2}", wallet.trim().trim_start_matches('0'))
}

fn nosso_numero_value(style: NossoNumero, index: usize, slip: &Slip) -> Result<Value, CnabError> {
    match style {
        NossoNumero::Plain | NossoNumero::BradescoDigit | NossoNumero::SicoobDigit => {
            Ok(text(&slip.nosso_numero))
        }
        NossoNumero::SantanderWithDigit => {
            let dv =
                santander_nosso_numero_dv(&slip.nosso_numero).map_err(|e| CnabError::Slip {
                    index,
                    nosso_numero: slip.nosso_numero.clone(),
                    field: "nosso número",
                    reason: e.to_string(),
                })?;
            Ok(Value::Text(format!("{:0>12}{dv}", slip.nosso_numero)))
        }
    }
}

/// Generates a remittance file (CRLF line ends) for `slips` of `beneficiary`.
/// `generated_at` is written as the file's generation date and time.
pub fn generate_remittance(
    layout: CnabLayout,
    beneficiary: &Beneficiary,
    slips: &[Slip],
    generated_at: NaiveDateTime,
) -> Result<String, CnabError> {
    let profile = profile(layout)?;
    validate_beneficiary(layout, beneficiary)?;
    if slips.is_empty() {
        return Err(CnabError::Structure { line: 0, reason: "remessa sem títulos".into() });
    }
    let detail = match &profile {
        Profile::Cnab240(_) => None,
        Profile::Cnab400(p) => Some(p.detail),
    };
    for (i, slip) in slips.iter().enumerate() {
        validate_slip(layout, detail, i + 1, slip)?;
    }
    let account = account_values(layout, beneficiary);
    let today = Value::Date(Some(generated_at.date()));
    let mut lines: Vec<String> = Vec::new();
    let with = |extra: Values| -> Values {
        let mut v = extra;
        v.extend(account.iter().cloned());
        v
    };

    match profile {
        Profile::Cnab240(p) => {
            let time = generated_at.time();
            let hhmmss = u64::from(time.hour() * 10_000 + time.minute() * 100 + time.second());
            lines.push(write_record(
                p.file_header,
                1,
                &with(vec![
                    ("data_geracao", today.clone()),
                    ("hora_geracao", Value::Num(hhmmss)),
                    ("nsa", Value::Num(beneficiary.file_sequence)),
                ]),
            )?);
            lines.push(write_record(
                p.batch_header,
                2,
                &with(vec![
                    ("lote", Value::Num(1)),
                    ("numero_remessa", Value::Num(beneficiary.file_sequence)),
                    ("data_gravacao", today.clone()),
                    ("data_credito", Value::Date(None)),
                ]),
            )?);
            let mut sequence = 0u64;
            for (i, slip) in slips.iter().enumerate() {
                let nn = nosso_numero_value(p.nosso_numero, i + 1, slip)?;
                for segment in [p.p, p.q, p.r] {
                    sequence += 1;
                    // Slip values first: they win over the beneficiary's for shared
                    // names such as `tipo_inscricao` (payer's in segment Q).
                    let mut values = slip_values(slip);
                    values.extend([
                        ("lote", Value::Num(1)),
                        ("sequencial", Value::Num(sequence)),
                        ("nosso_numero", nn.clone()),
                    ]);
                    values.extend(account.iter().cloned());
                    lines.push(write_record(segment, lines.len() + 1, &values)?);
                }
            }
            let total: Decimal = slips.iter().map(|s| s.amount).sum();
            lines.push(write_record(
                p.batch_trailer,
                lines.len() + 1,
                &with(vec![
                    ("lote", Value::Num(1)),
                    ("quantidade_registros", Value::Num(sequence + 2)),
                    ("quantidade_titulos", Value::Num(slips.len() as u64)),
                    ("valor_titulos", Value::Money(total)),
                ]),
            )?);
            let count = lines.len() as u64 + 1;
            lines.push(write_record(
                p.file_trailer,
                lines.len() + 1,
                &with(vec![
                    ("quantidade_lotes", Value::Num(1)),
                    ("quantidade_registros", Value::Num(count)),
                ]),
            )?);
        }
        Profile::Cnab400(p) => {
            lines.push(write_record(
                p.header,
                1,
                &with(vec![
                    ("data_geracao", today),
                    ("nsa", Value::Num(beneficiary.file_sequence)),
                    ("sequencial", Value::Num(1)),
                ]),
            )?);
            for (i, slip) in slips.iter().enumerate() {
                let mut values = slip_values(slip);
                let instruction = match (p.protest, slip.protest_days) {
                    (Protest::Instruction(code), Some(_)) => code,
                    _ => 0,
                };
                values.extend([
                    ("instrucao_1", Value::Num(instruction)),
                    (
                        "nosso_numero",
                        nosso_numero_value(p.nosso_numero, i + 1, slip)?,
                    ),
                    ("convenio_nosso_numero", text(&beneficiary.agreement)),
                    ("sequencial", Value::Num(lines.len() as u64 + 1)),
                ]);
                if let Some(dv) = nosso_numero_digit(p.nosso_numero, beneficiary, i + 1, slip)? {
                    values.push(("nosso_numero_dv", Value::Text(dv)));
                }
                values.extend(account.iter().cloned());
                let line =
                    write_record(p.detail, lines.len() + 1, &values).map_err(|e| match e {
                        CnabError::Field { field, reason, .. } => CnabError::Slip {
                            index: i + 1,
                            nosso_numero: slip.nosso_numero.clone(),
                            field,
                            reason,
                        },
                        other => other,
                    })?;
                lines.push(line);
            }
            lines.push(write_record(
                &t400::TRAILER,
                lines.len() + 1,
                &vec![("sequencial", Value::Num(lines.len() as u64 + 1))],
            )?);
        }
    }
    let mut out = lines.join("\r\n");
    out.push_str("\r\n");
    Ok(out)
}

fn strip_zeros(s: &str) -> String {
    let t = s.trim().trim_start_matches('0');
    if t.is_empty() && !s.trim().is_empty() {
        "0".to_string()
    } else {
        t.to_string()
    }
}

fn required_date(rec: &Record, name: &str) -> Result<NaiveDate, CnabError> {
    rec.date(name)?.ok_or_else(|| {
        let field = rec.layout.field(name);
        CnabError::Field {
            line: rec.line.number,
            field: field.map_or("data", |f| f.name),
            start: field.map_or(0, |f| f.start),
            end: field.map_or(0, |f| f.end),
            reason: "data obrigatória não informada".into(),
        }
    })
}

/// Text of a field the layout may not declare (Bradesco has no city): empty.
fn optional_text(rec: &Record, name: &str) -> Result<String, CnabError> {
    match rec.layout.field(name) {
        Some(_) => rec.text(name),
        None => Ok(String::new()),
    }
}

/// Amount of a field the layout may not declare.
fn optional_money(rec: &Record, name: &str) -> Result<Option<Decimal>, CnabError> {
    match rec.layout.field(name) {
        Some(_) => rec.money(name).map(Some),
        None => Ok(None),
    }
}

fn payer_from(rec: &Record) -> Result<Payer, CnabError> {
    let raw = rec.text("inscricao")?;
    let keep = if rec.num("tipo_inscricao")? == 1 {
        11
    } else {
        14
    };
    let document = raw[raw.len().saturating_sub(keep)..].to_string();
    Ok(Payer {
        name: rec.text("nome")?,
        document,
        address: rec.text("endereco")?,
        district: optional_text(rec, "bairro")?,
        cep: rec.text("cep")?,
        city: optional_text(rec, "cidade")?,
        uf: optional_text(rec, "uf")?,
    })
}

fn nosso_numero_from(rec: &Record, style: NossoNumero) -> Result<String, CnabError> {
    let raw = rec.text("nosso_numero")?;
    match style {
        NossoNumero::Plain | NossoNumero::SicoobDigit => Ok(strip_zeros(&raw)),
        NossoNumero::BradescoDigit => {
            let wallet = bradesco_wallet(&rec.text("carteira")?);
            let found = rec.text("nosso_numero_dv")?;
            let field = rec.layout.field("nosso_numero_dv");
            let bad = |reason: String| CnabError::Field {
                line: rec.line.number,
                field: "nosso_numero_dv",
                start: field.map_or(0, |f| f.start),
                end: field.map_or(0, |f| f.end),
                reason,
            };
            let expected =
                bradesco_nosso_numero_dv(&wallet, &raw).map_err(|e| bad(e.to_string()))?;
            if found != expected.to_string() {
                return Err(bad(format!(
                    "dígito do nosso número {raw}-{found} não confere com a carteira {wallet} (esperado {expected})"
                )));
            }
            Ok(strip_zeros(&raw))
        }
        NossoNumero::SantanderWithDigit => {
            let field = rec.layout.field("nosso_numero");
            let bad = |reason: String| CnabError::Field {
                line: rec.line.number,
                field: "nosso_numero",
                start: field.map_or(0, |f| f.start),
                end: field.map_or(0, |f| f.end),
                reason,
            };
            if raw.len() < 2 {
                return Err(bad(format!("nosso número '{raw}' sem dígito")));
            }
            let (number, digit) = raw.split_at(raw.len() - 1);
            let expected = santander_nosso_numero_dv(number).map_err(|e| bad(e.to_string()))?;
            if digit != expected.to_string() {
                return Err(bad(format!(
                    "dígito do nosso número {number}-{digit} não confere (esperado {expected})"
                )));
            }
            Ok(strip_zeros(number))
        }
    }
}

/// Fields common to segment P and CNAB 400 details. Interest is the value per
/// day, or (Sicoob) a monthly rate from which the value per day is derived.
fn slip_from(rec: &Record, nosso_numero: String, payer: Payer) -> Result<Slip, CnabError> {
    let amount = rec.money("valor")?;
    let rate = optional_money(rec, "taxa_juros_mes")?.filter(|r| *r > Decimal::ZERO);
    let interest = match rate {
        Some(rate) => daily_interest(amount, rate),
        None => optional_money(rec, "juros")?.unwrap_or_default(),
    };
    let discount = rec.money("desconto")?;
    Ok(Slip {
        nosso_numero,
        document_number: rec.text("numero_documento")?,
        issue_date: required_date(rec, "emissao")?,
        due_date: required_date(rec, "vencimento")?,
        amount,
        payer,
        interest_per_day: (interest > Decimal::ZERO).then_some(interest),
        interest_percent_month: rate,
        fine_percent: None,
        discount: if discount > Decimal::ZERO {
            Some(Discount { until: required_date(rec, "data_desconto")?, amount: discount })
        } else {
            None
        },
        protest_days: None,
        message: None,
        command: Command::from_code(rec.num("movimento")?).ok_or_else(|| CnabError::Structure {
            line: rec.line.number,
            reason: "código de movimento desconhecido".into(),
        })?,
    })
}

fn record_type_error(line: &Line, expected: &'static str) -> CnabError {
    CnabError::Structure {
        line: line.number,
        reason: format!(
            "tipo de registro '{}' inesperado (esperado {expected})",
            line.at(8)
        ),
    }
}

fn count_error(line: usize, field: &'static str, found: u64, expected: u64) -> CnabError {
    CnabError::Structure {
        line,
        reason: format!("{field} informa {found}, mas o arquivo tem {expected}"),
    }
}

fn check_bank(rec: &Record, layout: CnabLayout) -> Result<String, CnabError> {
    let bank = rec.text("banco")?;
    if bank != layout.bank_code() {
        return Err(CnabError::Structure {
            line: rec.line.number,
            reason: format!(
                "banco {bank} no header não corresponde ao leiaute {}",
                layout.name()
            ),
        });
    }
    Ok(bank)
}

/// Parses a remittance file strictly: the first problem is returned as an error.
pub fn parse_remittance(layout: CnabLayout, content: &[u8]) -> Result<Remittance, CnabError> {
    let profile = profile(layout)?;
    let lines = split_lines(content);
    let first = lines.first().ok_or(CnabError::Empty)?;
    match profile {
        Profile::Cnab240(p) => parse_240(layout, &p, &lines, first),
        Profile::Cnab400(p) => parse_400(layout, &p, &lines, first),
    }
}

fn parse_240(
    layout: CnabLayout,
    p: &Profile240,
    lines: &[Line],
    first: &Line,
) -> Result<Remittance, CnabError> {
    if first.at(8) != '0' {
        return Err(record_type_error(first, "0, header de arquivo"));
    }
    let header = Record::new(p.file_header, first)?;
    let bank_code = check_bank(&header, layout)?;
    let mut slips: Vec<Slip> = Vec::new();
    let mut pending: Option<(usize, Slip)> = None;
    let mut has_payer = false;
    let mut batch_lines = 0u64;
    let mut batches = 0u64;
    let mut finished = false;
    let mut flush =
        |pending: &mut Option<(usize, Slip)>, has_payer: bool| -> Result<(), CnabError> {
            if let Some((line, slip)) = pending.take() {
                if !has_payer {
                    return Err(CnabError::Structure {
                        line,
                        reason: "segmento P sem o segmento Q do pagador".into(),
                    });
                }
                slips.push(slip);
            }
            Ok(())
        };
    for line in &lines[1..] {
        if finished {
            return Err(CnabError::Structure {
                line: line.number,
                reason: "registro após o trailer de arquivo".into(),
            });
        }
        match line.at(8) {
            '1' => {
                Record::new(p.batch_header, line)?;
                batches += 1;
                batch_lines = 1;
            }
            '3' => {
                batch_lines += 1;
                match line.at(14) {
                    'P' => {
                        flush(&mut pending, has_payer)?;
                        let rec = Record::new(p.p, line)?;
                        let nosso_numero = nosso_numero_from(&rec, p.nosso_numero)?;
                        let placeholder = Payer {
                            name: String::new(),
                            document: String::new(),
                            address: String::new(),
                            district: String::new(),
                            cep: String::new(),
                            city: String::new(),
                            uf: String::new(),
                        };
                        let mut slip = slip_from(&rec, nosso_numero, placeholder)?;
                        if matches!(rec.num("codigo_protesto")?, 1 | 2) {
                            slip.protest_days = Some(rec.num("prazo_protesto")? as u8);
                        }
                        pending = Some((line.number, slip));
                        has_payer = false;
                    }
                    'Q' => {
                        let rec = Record::new(p.q, line)?;
                        let (_, slip) = pending.as_mut().ok_or_else(|| CnabError::Structure {
                            line: line.number,
                            reason: "segmento Q sem segmento P anterior".into(),
                        })?;
                        slip.payer = payer_from(&rec)?;
                        has_payer = true;
                    }
                    'R' => {
                        let rec = Record::new(p.r, line)?;
                        let (_, slip) = pending.as_mut().ok_or_else(|| CnabError::Structure {
                            line: line.number,
                            reason: "segmento R sem segmento P anterior".into(),
                        })?;
                        if rec.num("codigo_multa")? == 2 {
                            slip.fine_percent = Some(rec.money("multa")?);
                        }
                        let message = rec.text("mensagem_3")?;
                        slip.message = (!message.is_empty()).then_some(message);
                    }
                    other => {
                        return Err(CnabError::Structure {
                            line: line.number,
                            reason: format!("segmento '{other}' inesperado em remessa"),
                        })
                    }
                }
            }
            '5' => {
                flush(&mut pending, has_payer)?;
                let rec = Record::new(p.batch_trailer, line)?;
                batch_lines += 1;
                let declared = rec.num("quantidade_registros")?;
                if declared != batch_lines {
                    return Err(count_error(
                        line.number,
                        "quantidade de registros do lote",
                        declared,
                        batch_lines,
                    ));
                }
            }
            '9' => {
                flush(&mut pending, has_payer)?;
                let rec = Record::new(p.file_trailer, line)?;
                let declared = rec.num("quantidade_lotes")?;
                if declared != batches {
                    return Err(count_error(
                        line.number,
                        "quantidade de lotes",
                        declared,
                        batches,
                    ));
                }
                let declared = rec.num("quantidade_registros")?;
                if declared != lines.len() as u64 {
                    return Err(count_error(
                        line.number,
                        "quantidade de registros do arquivo",
                        declared,
                        lines.len() as u64,
                    ));
                }
                finished = true;
            }
            _ => return Err(record_type_error(line, "1, 3, 5 ou 9")),
        }
    }
    if !finished {
        let last = lines.last().map_or(1, |l| l.number);
        return Err(CnabError::Structure {
            line: last,
            reason: "arquivo sem trailer de arquivo (registro 9)".into(),
        });
    }
    Ok(Remittance {
        layout,
        bank_code,
        file_sequence: Some(header.num("nsa")?),
        generated_on: header.date("data_geracao")?,
        slips,
    })
}

fn parse_400(
    layout: CnabLayout,
    p: &Profile400,
    lines: &[Line],
    first: &Line,
) -> Result<Remittance, CnabError> {
    if first.at(1) != '0' {
        return Err(CnabError::Structure {
            line: 1,
            reason: format!(
                "tipo de registro '{}' inesperado (esperado 0, header)",
                first.at(1)
            ),
        });
    }
    let header = Record::new(p.header, first)?;
    let bank_code = check_bank(&header, layout)?;
    let mut slips = Vec::new();
    let mut finished = false;
    for line in lines {
        let layout_of_line = match line.at(1) {
            '0' if line.number == 1 => p.header,
            c if c == p.detail_type => p.detail,
            '9' => &t400::TRAILER,
            c => {
                return Err(CnabError::Structure {
                    line: line.number,
                    reason: format!("tipo de registro '{c}' inesperado"),
                })
            }
        };
        if finished {
            return Err(CnabError::Structure {
                line: line.number,
                reason: "registro após o trailer".into(),
            });
        }
        let rec = Record::new(layout_of_line, line)?;
        let sequence = rec.num("sequencial")?;
        if sequence != line.number as u64 {
            return Err(count_error(
                line.number,
                "número sequencial do registro",
                sequence,
                line.number as u64,
            ));
        }
        if line.at(1) == '9' {
            finished = true;
        } else if line.number > 1 {
            let mut slip = slip_from(
                &rec,
                nosso_numero_from(&rec, p.nosso_numero)?,
                payer_from(&rec)?,
            )?;
            let days = rec.num("prazo_protesto")?;
            slip.protest_days = match p.protest {
                Protest::Instruction(code) => (rec.num("instrucao_1")? == code).then_some(days),
                Protest::Days => (days > 0).then_some(days),
            }
            .map(|d| d as u8);
            // A fine: Bradesco's code 2 with its percentage, Sicoob's percentage.
            if let Some(fine) = optional_money(&rec, "multa")?.filter(|f| *f > Decimal::ZERO) {
                let coded = match rec.layout.field("codigo_multa") {
                    Some(_) => rec.num("codigo_multa")? == 2,
                    None => true,
                };
                if coded {
                    slip.fine_percent = Some(fine);
                }
            }
            let message = optional_text(&rec, "mensagem")?;
            slip.message = (!message.is_empty()).then_some(message);
            slips.push(slip);
        }
    }
    if !finished {
        return Err(CnabError::Structure {
            line: lines.len(),
            reason: "arquivo sem trailer (registro 9)".into(),
        });
    }
    Ok(Remittance {
        layout,
        bank_code,
        file_sequence: header
            .layout
            .field("nsa")
            .map(|_| header.num("nsa"))
            .transpose()?,
        generated_on: header.date("data_geracao")?,
        slips,
    })
}
