//! Receipts (recibos) as PDF, drawn by `erp_print::receipt`: the receipt of a
//! settlement (baixa) and the free-form one of the `/reciboavulso` screen.
//!
//! - **A settlement's receipt**: the value is what the settlement moved
//!   (`BAIX_TOTAL`: value + interest + fine − discount), the date its date, the
//!   place the company's city, and it refers to the title ('pagamento da parcela
//!   1/3 do pedido 55 série 1 (título nº 12, vencimento em 09/02/2026)', with the
//!   charges, the payment method, 'parcial' when it did not take the whole title,
//!   the advance it was offset from). A receivable's receipt is the company's:
//!   the customer paid, the company (name, CNPJ, address, reports' logo) received
//!   and signs. A payable's is the supplier's: the company paid, the supplier
//!   received and signs (no logo: it is not the supplier's). A reversed
//!   settlement, or one that moved no money (a discount alone), has none.
//! - **A free-form receipt** is validated at the edge ([`FreeReceipt::parse`],
//!   pt-BR messages), numbered per company and kept (`finance.recibos`), so it can
//!   be printed again; the company receives unless `RECEBEDOR` names someone else.
//! - **Names and documents** come from finance's copies (`copies`); a company
//!   whose fact has not arrived yet is named 'Empresa <id>' (logged), a person
//!   without a copy by the name the title holds.
//! - **The logo** is the company's `EMP_IMG_LOGO_REL`, read from where the gateway
//!   stores uploads (`<data dir>/uploads/<client>/<emp>/<name>`); a missing file
//!   or one that is not PNG or JPEG leaves the receipt without a logo.

use std::path::Path;

use chrono::NaiveDate;
use erp_platform::db::Tx;
use erp_platform::resource::call::Dec;
use erp_platform::validators::{self, CpfCnpj, ValidationError};
use erp_platform::{Error, Result};
use erp_print::{PrintError, Receipt};
use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::Deserialize;

use crate::copies::{self, Company, Party};
use crate::titles::{self, brl, Side, Title};

/// Largest logo read (the gateway accepts uploads of up to 10 MB).
const MAX_LOGO: u64 = 10 * 1024 * 1024;
/// Largest value a receipt takes (`numeric(15,2)`).
const MAX_VALUE: &str = "9999999999999.99";

fn print_error(e: PrintError) -> Error {
    match e {
        PrintError::NegativeValue(_) | PrintError::ValueTooLarge(_) => {
            Error::validation(e.to_string())
        }
        other => Error::internal(other.to_string()),
    }
}

/// A storage name the gateway generates: letters, digits, `.`, `_`, `-`.
fn stored_name(name: &str) -> Option<&str> {
    let ok = !name.is_empty()
        && name.len() < 200
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '_' || c == '-');
    ok.then_some(name)
}

/// The company's logo bytes, when its file is there.
pub(crate) async fn logo(
    uploads: &Path,
    client: i64,
    emp: i64,
    company: &Company,
) -> Option<Vec<u8>> {
    let name = company.logo.as_deref().map(str::trim).and_then(|n| {
        // The field may hold the URL the gateway answered ('/uploads/1/x.png').
        stored_name(n.rsplit('/').next().unwrap_or(n))
    })?;
    let path = uploads
        .join(client.to_string())
        .join(emp.to_string())
        .join(name);
    match tokio::fs::metadata(&path).await {
        Ok(m) if m.len() <= MAX_LOGO => tokio::fs::read(&path).await.ok(),
        Ok(_) => None,
        Err(e) => {
            tracing::debug!(error = %e, path = %path.display(), "company logo not found");
            None
        }
    }
}

/// The company `emp`, or a stand-in named 'Empresa <emp>' until its fact arrives.
pub(crate) async fn company(tx: &mut Tx, client: i64, emp: i64) -> Result<Company> {
    Ok(match copies::company(tx, client, emp).await? {
        Some(c) => c,
        None => {
            tracing::warn!(
                client,
                emp,
                "company not copied yet: receipt without its data"
            );
            Company { name: format!("Empresa {emp}"), ..Company::default() }
        }
    })
}

/// Renders `r`; a logo the PDF library cannot read is left out.
fn render(mut r: Receipt) -> Result<Vec<u8>> {
    match erp_print::receipt::render(&r) {
        Err(PrintError::Image(why)) => {
            tracing::warn!(why, "company logo is not a PNG or JPEG image: left out");
            r.logo = None;
            erp_print::receipt::render(&r).map_err(print_error)
        }
        other => other.map_err(print_error),
    }
}

// ---------------------------------------------------------------- settlements

/// A settlement as its receipt tells it.
#[derive(Clone, Debug)]
pub struct Paid {
    pub id: i64,
    pub date: NaiveDate,
    pub value: Decimal,
    pub interest: Decimal,
    pub fine: Decimal,
    pub discount: Decimal,
    pub total: Decimal,
    pub method: Option<String>,
    /// The advance it was offset from.
    pub advance: Option<i64>,
}

fn day(d: NaiveDate) -> String {
    d.format("%d/%m/%Y").to_string()
}

/// What a settlement's receipt refers to (after 'referente a').
pub fn reference(t: &Title, p: &Paid) -> String {
    let serie = t
        .origin_serie
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty());
    let document = t
        .document
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty());
    let of = match (t.origin.as_str(), t.origin_id) {
        ("PEDIDO", Some(id)) => match serie {
            Some(s) => format!(" do pedido {id} série {s}"),
            None => format!(" do pedido {id}"),
        },
        ("COMPRA", Some(id)) => format!(" da compra {id}"),
        ("ORDEMSERVICO", Some(id)) => format!(" da ordem de serviço {id}"),
        _ => document
            .map(|d| format!(" do documento {d}"))
            .unwrap_or_default(),
    };
    let what = if p.value < t.worth {
        "pagamento parcial da parcela"
    } else {
        "pagamento da parcela"
    };
    let mut out = format!(
        "{what} {}/{}{of} (título nº {}, vencimento em {})",
        t.seq,
        t.count,
        t.id,
        day(t.due)
    );
    let mut charges = Vec::new();
    if p.interest > Decimal::ZERO {
        charges.push(format!("juros de {}", brl(p.interest)));
    }
    if p.fine > Decimal::ZERO {
        charges.push(format!("multa de {}", brl(p.fine)));
    }
    if p.discount > Decimal::ZERO {
        charges.push(format!("desconto de {}", brl(p.discount)));
    }
    if let Some((last, rest)) = charges.split_last() {
        out.push_str(", com ");
        if !rest.is_empty() {
            out.push_str(&rest.join(", "));
            out.push_str(" e ");
        }
        out.push_str(last);
    }
    if let Some(a) = p.advance {
        out.push_str(&format!(", compensado com o adiantamento nº {a}"));
    } else if let Some(m) = p.method.as_deref().map(str::trim).filter(|m| !m.is_empty()) {
        out.push_str(&format!(", pago em {m}"));
    }
    out
}

type PaidRow = (
    i64,
    NaiveDate,
    Decimal,
    Decimal,
    Decimal,
    Decimal,
    Decimal,
    bool,
    Option<i64>,
    Option<String>,
);

/// The PDF receipt of settlement `id` of `side` in company `emp`.
pub async fn settlement(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    side: Side,
    id: i64,
    uploads: &Path,
) -> Result<Vec<u8>> {
    let row: PaidRow = sqlx::query_as(
        "SELECT x.baix_tit_id, x.baix_dta, x.baix_valor, x.baix_juros, x.baix_multa, x.baix_desconto,
                x.baix_total, x.baix_estornada, x.baix_adto_id, f.frmp_descricao
         FROM finance.baixas x
         LEFT JOIN finance.formapagamento f ON f.client_id = x.client_id AND f.frmp_id = x.baix_frmp_id
         WHERE x.client_id = $1 AND x.baix_emp_id = $2 AND x.baix_id = $3 AND x.baix_tipo = $4",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(side.code())
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| Error::NotFound(format!("Baixa {id} não encontrada.")))?;
    let (title, date, value, interest, fine, discount, total, reversed, advance, method) = row;
    if reversed {
        return Err(Error::Conflict(format!(
            "Baixa {id} foi estornada: não há recibo."
        )));
    }
    if total <= Decimal::ZERO {
        return Err(Error::Conflict(format!(
            "Baixa {id} não movimentou valor: não há recibo."
        )));
    }
    let paid = Paid { id, date, value, interest, fine, discount, total, method, advance };
    let found = titles::load(tx, client, emp, side, &[title], false).await?;
    let t = found
        .get(&title)
        .ok_or_else(|| Error::NotFound(format!("Título {title} não encontrado.")))?;
    let firm = company(tx, client, emp).await?;
    let person = match side {
        Side::Receivable => copies::customer(tx, client, emp, t.person).await?,
        Side::Payable => copies::supplier(tx, client, t.person).await?,
    };
    let person = person
        .filter(|p| !p.name.trim().is_empty())
        .unwrap_or_else(|| Party {
            name: t
                .person_name
                .clone()
                .filter(|n| !n.trim().is_empty())
                .unwrap_or_else(|| match side {
                    Side::Receivable => format!("Cliente {}", t.person),
                    Side::Payable => format!("Fornecedor {}", t.person),
                }),
            document: String::new(),
        });
    let place = firm.city.clone();
    let company_party = Party { name: firm.name.clone(), document: firm.document.clone() };
    let (payer, payee, address, logo_bytes) = match side {
        Side::Receivable => {
            let bytes = logo(uploads, client, emp, &firm).await;
            (person, company_party, firm.address.clone(), bytes)
        }
        Side::Payable => (company_party, person, String::new(), None),
    };
    render(Receipt {
        number: id.to_string(),
        value: paid.total,
        payer_name: payer.name,
        payer_document: payer.document,
        payee_name: payee.name,
        payee_cnpj: payee.document,
        payee_address: address,
        logo: logo_bytes,
        reference: reference(t, &paid),
        place,
        date: paid.date,
    })
}

// ---------------------------------------------------------------- free-form

/// A free-form receipt (`POST /reciboavulso/{emp}`), parsed at the edge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FreeReceipt {
    pub value: Decimal,
    pub payer: String,
    /// Digits (CPF or CNPJ), checked; empty when not given.
    pub payer_document: String,
    /// None: the company received.
    pub payee: Option<String>,
    pub payee_document: String,
    pub reference: String,
    pub city: String,
    pub date: NaiveDate,
}

/// The body of `POST /reciboavulso/{emp}` as it arrives: every value optional,
/// so that [`FreeReceipt::parse`] answers the first one missing or wrong in the
/// spec's words.
#[derive(Clone, Debug, Default, Deserialize, JsonSchema)]
pub struct FreeReceiptIn {
    #[serde(rename = "VALOR", default)]
    #[schemars(title = "Valor", extend("x-invalid" = "Valor inválido."))]
    pub value: Option<Dec>,
    #[serde(rename = "PAGADOR", default)]
    #[schemars(title = "Pagador")]
    pub payer: Option<String>,
    #[serde(rename = "PAGADOR_DOC", default)]
    #[schemars(title = "CPF/CNPJ do pagador")]
    pub payer_document: Option<String>,
    /// None: the company received.
    #[serde(rename = "RECEBEDOR", default)]
    #[schemars(title = "Recebedor")]
    pub payee: Option<String>,
    #[serde(rename = "RECEBEDOR_DOC", default)]
    #[schemars(title = "CPF/CNPJ do recebedor")]
    pub payee_document: Option<String>,
    #[serde(rename = "REFERENTE", default)]
    #[schemars(title = "Referente")]
    pub reference: Option<String>,
    #[serde(rename = "CIDADE", default)]
    #[schemars(title = "Cidade")]
    pub city: Option<String>,
    /// yyyy-MM-dd only (the spec's form: '24/11/2026' is 'Data inválida'), so
    /// read as text.
    #[serde(rename = "DATA", default)]
    #[schemars(title = "Data")]
    pub date: Option<String>,
}

fn required_text(v: Option<String>, label: &str, max: usize) -> Result<String> {
    match v {
        None => Err(Error::validation(validators::required(label).to_string())),
        Some(s) => limited(&s, label, max),
    }
}

fn optional_text(v: Option<String>, label: &str, max: usize) -> Result<Option<String>> {
    v.map(|s| limited(&s, label, max)).transpose()
}

fn limited(s: &str, label: &str, max: usize) -> Result<String> {
    let s = s.trim();
    if s.chars().count() > max {
        return Err(Error::validation(format!(
            "O campo {label} deve ter no máximo {max} caracteres."
        )));
    }
    Ok(s.to_string())
}

fn document(v: Option<String>) -> Result<String> {
    match optional_text(v, "CPF/CNPJ", 20)? {
        None => Ok(String::new()),
        Some(d) => CpfCnpj::parse(&d)
            .map(|d| d.as_str().to_string())
            .map_err(|e| Error::validation(e.to_string())),
    }
}

impl FreeReceipt {
    /// The receipt of a body `{VALOR, PAGADOR, PAGADOR_DOC?, RECEBEDOR?,
    /// RECEBEDOR_DOC?, REFERENTE, CIDADE, DATA (yyyy-MM-dd)}`; the first problem
    /// found is the answer, in the spec's words ('Valor é obrigatório!', 'O campo
    /// Valor deve ser maior ou igual a 0,01 ', 'CPF/CNPJ inválido.', 'Data
    /// inválida').
    pub fn parse(body: FreeReceiptIn) -> Result<FreeReceipt> {
        let value = body
            .value
            .map(Dec::get)
            .ok_or_else(|| Error::validation(validators::required("Valor").to_string()))?;
        if value < Decimal::new(1, 2) {
            return Err(Error::validation(
                validators::min("Valor", "0,01").to_string(),
            ));
        }
        if value.normalize().scale() > 2 {
            return Err(Error::validation(
                "Valor aceita no máximo 2 casas decimais.",
            ));
        }
        let max: Decimal = MAX_VALUE.parse().map_err(Error::internal)?;
        if value > max {
            return Err(Error::validation(
                validators::max("9.999.999.999.999,99", "").to_string(),
            ));
        }
        let payer = required_text(body.payer, "Pagador", 150)?;
        let payer_document = document(body.payer_document)?;
        let payee = optional_text(body.payee, "Recebedor", 150)?;
        let payee_document = document(body.payee_document)?;
        let reference = required_text(body.reference, "Referente", 500)?;
        let city = required_text(body.city, "Cidade", 60)?;
        let date = match body.date {
            None => return Err(Error::validation(validators::required("Data").to_string())),
            Some(s) => NaiveDate::parse_from_str(s.trim(), "%Y-%m-%d")
                .map_err(|_| Error::validation(ValidationError::Date.to_string()))?,
        };
        Ok(FreeReceipt {
            value,
            payer,
            payer_document,
            payee,
            payee_document,
            reference,
            city,
            date,
        })
    }
}

/// Numbers and keeps a free-form receipt of company `emp`; returns its number.
pub async fn issue(tx: &mut Tx, client: i64, emp: i64, user: i64, r: &FreeReceipt) -> Result<i64> {
    let id = crate::bank::next_ids(tx, client, emp, "recibos", "rec_id", "rec_emp_id", 1).await?;
    sqlx::query(
        "INSERT INTO finance.recibos (client_id, rec_emp_id, rec_id, rec_valor, rec_pagador, rec_pagador_doc,
             rec_recebedor, rec_recebedor_doc, rec_referente, rec_cidade, rec_data, rec_usr_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(r.value)
    .bind(&r.payer)
    .bind(Some(&r.payer_document).filter(|d| !d.is_empty()))
    .bind(&r.payee)
    .bind(Some(&r.payee_document).filter(|d| !d.is_empty()))
    .bind(&r.reference)
    .bind(&r.city)
    .bind(r.date)
    .bind((user > 0).then_some(user))
    .execute(&mut **tx)
    .await?;
    Ok(id)
}

type FreeRow = (
    Decimal,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
    String,
    String,
    NaiveDate,
);

/// Free-form receipt `id` of company `emp`, as issued.
pub async fn issued(tx: &mut Tx, client: i64, emp: i64, id: i64) -> Result<FreeReceipt> {
    let r: FreeRow = sqlx::query_as(
        "SELECT rec_valor, rec_pagador, rec_pagador_doc, rec_recebedor, rec_recebedor_doc, rec_referente,
                rec_cidade, rec_data
         FROM finance.recibos WHERE client_id = $1 AND rec_emp_id = $2 AND rec_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| Error::NotFound(format!("Recibo {id} não encontrado.")))?;
    Ok(FreeReceipt {
        value: r.0,
        payer: r.1,
        payer_document: r.2.unwrap_or_default(),
        payee: r.3,
        payee_document: r.4.unwrap_or_default(),
        reference: r.5,
        city: r.6,
        date: r.7,
    })
}

/// The PDF of free-form receipt number `id`.
pub async fn free(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    id: i64,
    r: &FreeReceipt,
    uploads: &Path,
) -> Result<Vec<u8>> {
    let fmt = |d: &str| {
        if d.is_empty() {
            String::new()
        } else {
            copies::format_document(d)
        }
    };
    let (payee, payee_document, address, logo_bytes) = match &r.payee {
        Some(name) => (name.clone(), fmt(&r.payee_document), String::new(), None),
        None => {
            let firm = company(tx, client, emp).await?;
            let bytes = logo(uploads, client, emp, &firm).await;
            (firm.name, firm.document, firm.address, bytes)
        }
    };
    render(Receipt {
        number: id.to_string(),
        value: r.value,
        payer_name: r.payer.clone(),
        payer_document: fmt(&r.payer_document),
        payee_name: payee,
        payee_cnpj: payee_document,
        payee_address: address,
        logo: logo_bytes,
        reference: r.reference.clone(),
        place: r.city.clone(),
        date: r.date,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    fn title(origin: &str, origin_id: Option<i64>, serie: Option<&str>) -> Title {
        Title {
            id: 12,
            person: 9,
            person_name: Some("BAR DO ZÉ".into()),
            document: Some("55/1".into()),
            seq: 1,
            count: 3,
            issued: NaiveDate::from_ymd_opt(2026, 1, 10).unwrap_or_default(),
            due: NaiveDate::from_ymd_opt(2026, 2, 9).unwrap_or_default(),
            worth: Decimal::new(3334, 2),
            balance: Decimal::ZERO,
            cancelled: false,
            status: "Q".into(),
            method: None,
            bank: None,
            centre: None,
            origin: origin.into(),
            origin_id,
            origin_serie: serie.map(String::from),
            advance: false,
        }
    }

    fn paid(value: i64, interest: i64, fine: i64, discount: i64) -> Paid {
        Paid {
            id: 3,
            date: NaiveDate::from_ymd_opt(2026, 3, 1).unwrap_or_default(),
            value: Decimal::new(value, 2),
            interest: Decimal::new(interest, 2),
            fine: Decimal::new(fine, 2),
            discount: Decimal::new(discount, 2),
            total: Decimal::new(value + interest + fine - discount, 2),
            method: Some("PIX".into()),
            advance: None,
        }
    }

    #[test]
    fn a_settlement_refers_to_its_title() {
        assert_eq!(
            reference(&title("PEDIDO", Some(55), Some("1")), &paid(3334, 0, 0, 0)),
            "pagamento da parcela 1/3 do pedido 55 série 1 (título nº 12, vencimento em 09/02/2026), pago em PIX"
        );
        assert_eq!(
            reference(&title("PEDIDO", Some(55), Some("1")), &paid(1000, 133, 2000, 0)),
            "pagamento parcial da parcela 1/3 do pedido 55 série 1 (título nº 12, vencimento em 09/02/2026), \
             com juros de R$ 1,33 e multa de R$ 20,00, pago em PIX"
        );
        let mut p = paid(3334, 100, 0, 50);
        p.method = None;
        assert_eq!(
            reference(&title("MANUAL", None, None), &p),
            "pagamento da parcela 1/3 do documento 55/1 (título nº 12, vencimento em 09/02/2026), \
             com juros de R$ 1,00 e desconto de R$ 0,50"
        );
        let mut p = paid(3334, 0, 0, 0);
        p.advance = Some(4);
        assert_eq!(
            reference(&title("COMPRA", Some(77), Some("")), &p),
            "pagamento da parcela 1/3 da compra 77 (título nº 12, vencimento em 09/02/2026), \
             compensado com o adiantamento nº 4"
        );
    }

    /// The body read as the call reads it (the engine's input parser), then checked.
    fn parse(v: Value) -> std::result::Result<FreeReceipt, String> {
        let schema = serde_json::to_value(
            erp_platform::resource::call::schema_generator()
                .into_root_schema_for::<FreeReceiptIn>(),
        )
        .unwrap_or_default();
        erp_platform::resource::call::input::parse::<FreeReceiptIn>(
            &Default::default(),
            &v,
            &schema,
        )
        .and_then(FreeReceipt::parse)
        .map_err(|e| e.public_message())
    }

    #[test]
    fn a_free_receipt_is_checked_in_pt_br() {
        let ok = json!({"VALOR": "1234.56", "PAGADOR": "José", "PAGADOR_DOC": "123.456.789-09",
                        "REFERENTE": "aluguel", "CIDADE": "Caxias do Sul", "DATA": "2026-11-24"});
        let r = parse(ok.clone()).expect("valid");
        assert_eq!(r.value, Decimal::new(123_456, 2));
        assert_eq!(r.payer_document, "12345678909");
        assert_eq!(r.payee, None);
        let with = |k: &str, v: Value| {
            let mut b = ok.clone();
            b[k] = v;
            parse(b)
        };
        let without = |k: &str| {
            let mut b = ok.clone();
            if let Some(m) = b.as_object_mut() {
                m.remove(k);
            }
            parse(b)
        };
        let table: [(std::result::Result<FreeReceipt, String>, &str); 11] = [
            (without("VALOR"), "Valor é obrigatório!"),
            (with("VALOR", json!("")), "Valor é obrigatório!"),
            (with("VALOR", json!("abc")), "Valor inválido."),
            (
                with("VALOR", json!("0")),
                "O campo Valor deve ser maior ou igual a 0,01 ",
            ),
            (
                with("VALOR", json!("-5")),
                "O campo Valor deve ser maior ou igual a 0,01 ",
            ),
            (
                with("VALOR", json!("1.005")),
                "Valor aceita no máximo 2 casas decimais.",
            ),
            (without("PAGADOR"), "Pagador é obrigatório!"),
            (
                with("PAGADOR_DOC", json!("123.456.789-00")),
                "CPF inválido.",
            ),
            (without("REFERENTE"), "Referente é obrigatório!"),
            (without("CIDADE"), "Cidade é obrigatório!"),
            (with("DATA", json!("24/11/2026")), "Data inválida"),
        ];
        for (got, want) in table {
            assert_eq!(got.err().as_deref(), Some(want));
        }
        assert_eq!(
            without("DATA").err().as_deref(),
            Some("Data é obrigatório!")
        );
        assert_eq!(
            with("VALOR", json!("10000000000000")).err().as_deref(),
            Some("Valor Máximo permitido para o campo: 9.999.999.999.999,99")
        );
        // pt-BR numbers are accepted too.
        assert_eq!(
            with("VALOR", json!("1.234,56")).map(|r| r.value),
            Ok(Decimal::new(123_456, 2))
        );
    }
}
