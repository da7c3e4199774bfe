//! The PDF of slips (`erp_print::slip`): one page per slip with the payer's
//! receipt, the compensation form, the Interleaved 2 of 5 barcode and, when the
//! slip has one, the Pix QR code.

use std::path::Path;

use erp_platform::db::Tx;
use erp_platform::{Error, Result};
use erp_print::slip::BankSlip;
use rust_decimal::Decimal;
use sqlx::Row;

use super::account::{self, Account};
use super::Slip;
use crate::collection::barcode::LinhaDigitavel;
use crate::copies::format_document;

/// Names of the banks whose slips are drawn, as printed in the header.
fn bank_name(compe: &str) -> &'static str {
    match compe {
        "001" => "Banco do Brasil",
        "033" => "Santander",
        "104" => "Caixa",
        "237" => "Bradesco",
        "341" => "Itaú",
        "756" => "Sicoob",
        _ => "Banco",
    }
}

/// The check digit the banks print beside their code ('001-9').
fn compe_dv(compe: &str) -> String {
    match compe {
        "001" => "9",
        "033" => "7",
        "104" => "0",
        "237" => "2",
        "341" => "7",
        "756" => "0",
        _ => "",
    }
    .to_string()
}

fn instructions(acc: &Account, value: Decimal) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(f) = acc.fine_percent.filter(|f| *f > Decimal::ZERO) {
        out.push(format!(
            "Após o vencimento cobrar multa de {}%.",
            f.normalize().to_string().replace('.', ",")
        ));
    }
    if let Some(p) = acc.interest_percent_month.filter(|p| *p > Decimal::ZERO) {
        let per_day = (value * p / Decimal::from(3000)).round_dp(2);
        out.push(format!(
            "Após o vencimento cobrar juros de {} por dia de atraso.",
            crate::titles::brl(per_day)
        ));
    }
    if let Some(d) = acc.protest_days.filter(|d| *d > 0) {
        out.push(format!("Protestar após {d} dias corridos do vencimento."));
    }
    if let Some(text) = acc.instructions.as_deref() {
        out.extend(
            text.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(String::from),
        );
    }
    out.truncate(6);
    out
}

/// The PDF of `slips` of the company (one page each).
pub async fn render(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    slips: &[Slip],
    uploads: &Path,
) -> Result<Vec<u8>> {
    if slips.is_empty() {
        return Err(Error::validation("Informe os boletos a imprimir."));
    }
    let company = crate::receipts::company(tx, client, emp).await?;
    let logo = crate::receipts::logo(uploads, client, emp, &company).await;
    let today = crate::titles::today(tx).await?;
    let mut pages = Vec::with_capacity(slips.len());
    for s in slips {
        let acc = account::load(tx, client, emp, s.bank, false).await?;
        let payer = sqlx::query(
            "SELECT coalesce(descricao, ''), coalesce(documento, ''), coalesce(endereco, ''), coalesce(numero, ''),
                    coalesce(bairro, ''), coalesce(cep, ''), coalesce(cidade, ''), coalesce(uf, '')
             FROM finance.clientes WHERE client_id = $1 AND emp_id = $2 AND cli_id = $3",
        )
        .bind(client)
        .bind(emp)
        .bind(s.customer.unwrap_or(0))
        .fetch_optional(&mut **tx)
        .await?;
        let (name, doc, address, city) = match payer {
            Some(r) => {
                let street: String = r.try_get(2)?;
                let number: String = r.try_get(3)?;
                let district: String = r.try_get(4)?;
                let cep: String = r
                    .try_get::<String, _>(5)?
                    .chars()
                    .filter(char::is_ascii_digit)
                    .collect();
                let address = [
                    [street, number]
                        .iter()
                        .filter(|p| !p.is_empty())
                        .cloned()
                        .collect::<Vec<_>>()
                        .join(", "),
                    district,
                ]
                .into_iter()
                .filter(|p| !p.is_empty())
                .collect::<Vec<_>>()
                .join(" - ");
                let cep = if cep.len() == 8 {
                    format!("CEP {}-{} ", &cep[..5], &cep[5..])
                } else {
                    String::new()
                };
                let city_name: String = r.try_get(6)?;
                let uf: String = r.try_get(7)?;
                let name: String = r.try_get(0)?;
                (
                    if name.is_empty() {
                        s.customer_name.clone()
                    } else {
                        name
                    },
                    format_document(&r.try_get::<String, _>(1)?),
                    address,
                    format!(
                        "{cep}{city_name}{}",
                        if uf.is_empty() {
                            String::new()
                        } else {
                            format!(" - {uf}")
                        }
                    ),
                )
            }
            None => (
                s.customer_name.clone(),
                String::new(),
                String::new(),
                String::new(),
            ),
        };
        let linha = LinhaDigitavel::parse(&s.linha)
            .map(|l| l.formatted())
            .unwrap_or_else(|_| s.linha.clone());
        pages.push(BankSlip {
            bank_code: acc.compe.clone(),
            bank_code_dv: compe_dv(&acc.compe),
            bank_name: bank_name(&acc.compe).to_string(),
            linha_digitavel: linha,
            barcode: s.barcode.clone(),
            place_of_payment: "Pagável em qualquer banco até o vencimento".into(),
            beneficiary_name: company.name.clone(),
            beneficiary_document: company.document.clone(),
            beneficiary_address: company.address.clone(),
            agency_code: acc.agency_code(),
            nosso_numero: s.nosso_numero.clone(),
            document_number: s.document.clone(),
            species_doc: "DM".into(),
            accept: "N".into(),
            wallet: acc.wallet.clone(),
            issue_date: s.issued,
            processing_date: today,
            due_date: s.due,
            amount: s.value,
            payer_name: name,
            payer_document: doc,
            payer_address: address,
            payer_city: city,
            instructions: instructions(&acc, s.value),
            pix_copia_cola: s.pix.clone(),
            logo: logo.clone(),
        });
    }
    erp_print::slip::render(&pages).map_err(|e| Error::internal(format!("boleto PDF: {e}")))
}
