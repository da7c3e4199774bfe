//! Accounting export for the Domínio system (Thomson Reuters), the
//! `integracaodominio` calls: the period's invoices (`enviarnotas`) and
//! settlements (`baixaparcela`) as accounting entries for Domínio's import of
//! entries ("Importação de lançamentos").
//!
//! Decision on the layout: Domínio's own fixed-width layouts are published only
//! to its customers, so this export writes the delimited text layout that
//! Domínio's entry import is configured with ('Leiaute delimitado', separator
//! `;`), one entry per line, CRLF, Windows-1252 (what Domínio reads on Windows):
//!
//! | # | Field | Format |
//! |---|-------|--------|
//! | 1 | company code in Domínio (`INTD_COD_EMPRESA`) | text |
//! | 2 | entry date | dd/MM/yyyy |
//! | 3 | debit account | the chart of accounts' code |
//! | 4 | credit account | idem |
//! | 5 | value | `1234,56` (comma, no thousands separator) |
//! | 6 | standard history code (`INTD_HISTORICO_*`) | text, may be empty |
//! | 7 | history complement | text (`;` and line breaks removed) |
//! | 8 | document | text |
//! | 9 | participant's CNPJ/CPF | digits |
//!
//! Entries:
//! - an invoice (the instalments of an invoiced order or service order issued in
//!   the period, not cancelled): debit customers, credit revenue, its total;
//! - a receivable's settlement (not reversed): debit cash, credit customers (the
//!   value settled); interest and fine: debit cash, credit the interest account;
//!   a discount: debit the discounts account, credit cash;
//! - a payable's settlement: debit suppliers, credit cash; interest and fine:
//!   debit the interest account, credit cash; a discount: debit cash, credit the
//!   discounts account.
//!
//! The period is at most 366 days; the rows are read in one query per file, so a
//! year of a small company's settlements is written well inside the gateway's
//! deadline.

use chrono::NaiveDate;
use erp_platform::db::Tx;
use erp_platform::{Error, Result};
use rust_decimal::Decimal;
use sqlx::Row;

/// The configuration of a company's export.
#[derive(Clone, Debug, Default)]
pub struct Config {
    pub company_code: String,
    pub customers: String,
    pub suppliers: String,
    pub cash: String,
    pub revenue: String,
    pub interest: Option<String>,
    pub discounts: Option<String>,
    pub sale_history: Option<String>,
    pub receipt_history: Option<String>,
    pub payment_history: Option<String>,
}

pub const NOT_CONFIGURED: &str =
    "Configure a integração com o Domínio (código da empresa e contas) antes de exportar.";

pub async fn config(tx: &mut Tx, client: i64, emp: i64) -> Result<Config> {
    let r = sqlx::query(
        "SELECT intd_cod_empresa, intd_conta_clientes, intd_conta_fornecedores, intd_conta_caixa, intd_conta_receita,
                intd_conta_juros, intd_conta_descontos, intd_historico_venda, intd_historico_recebimento,
                intd_historico_pagamento
         FROM finance.integracaodominio WHERE client_id = $1 AND intd_emp_id = $2",
    )
    .bind(client)
    .bind(emp)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| Error::validation(NOT_CONFIGURED))?;
    let opt = |v: Option<String>| v.map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
    Ok(Config {
        company_code: r.try_get(0)?,
        customers: r.try_get(1)?,
        suppliers: r.try_get(2)?,
        cash: r.try_get(3)?,
        revenue: r.try_get(4)?,
        interest: opt(r.try_get(5)?),
        discounts: opt(r.try_get(6)?),
        sale_history: opt(r.try_get(7)?),
        receipt_history: opt(r.try_get(8)?),
        payment_history: opt(r.try_get(9)?),
    })
}

/// One accounting entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub date: NaiveDate,
    pub debit: String,
    pub credit: String,
    pub value: Decimal,
    pub history: Option<String>,
    pub complement: String,
    pub document: String,
    pub participant: String,
}

fn clean(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c == ';' || c == '\r' || c == '\n' {
                ' '
            } else {
                c
            }
        })
        .collect::<String>()
        .trim()
        .to_string()
}

/// The file of `entries` for company code `code` (see the module's doc).
pub fn file(code: &str, entries: &[Entry]) -> Vec<u8> {
    let mut out = String::new();
    for e in entries {
        let value = format!("{:.2}", e.value.round_dp(2)).replace('.', ",");
        out.push_str(&format!(
            "{};{};{};{};{};{};{};{};{}\r\n",
            clean(code),
            e.date.format("%d/%m/%Y"),
            clean(&e.debit),
            clean(&e.credit),
            value,
            clean(e.history.as_deref().unwrap_or("")),
            clean(&e.complement),
            clean(&e.document),
            e.participant
                .chars()
                .filter(char::is_ascii_digit)
                .collect::<String>(),
        ));
    }
    let (bytes, _, _) = encoding_rs::WINDOWS_1252.encode(&out);
    bytes.into_owned()
}

pub fn check_period(from: NaiveDate, to: NaiveDate) -> Result<()> {
    if to < from {
        return Err(Error::validation(
            "A data final deve ser igual ou posterior à inicial.",
        ));
    }
    if (to - from).num_days() > 366 {
        return Err(Error::validation("Exporte no máximo um ano por vez."));
    }
    Ok(())
}

/// The invoices of the period as entries.
pub async fn invoices(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    c: &Config,
    from: NaiveDate,
    to: NaiveDate,
) -> Result<Vec<Entry>> {
    check_period(from, to)?;
    let rows = sqlx::query(
        "SELECT min(t.tit_dta_emis), t.tit_origem, t.tit_origem_id, coalesce(t.tit_origem_serie, ''),
                max(coalesce(t.tit_pessoa_nome, '')), max(coalesce(c.documento, '')), sum(t.tit_valor + t.tit_acrescimo),
                max(coalesce(t.tit_documento, ''))
         FROM finance.contasreceber t
         LEFT JOIN finance.clientes c ON c.client_id = t.client_id AND c.emp_id = t.tit_emp_id AND c.cli_id = t.tit_pessoa_id
         WHERE t.client_id = $1 AND t.tit_emp_id = $2 AND t.tit_origem IN ('PEDIDO', 'ORDEMSERVICO')
           AND NOT t.tit_cancelado AND t.tit_dta_emis BETWEEN $3 AND $4
         GROUP BY t.tit_origem, t.tit_origem_id, t.tit_origem_serie
         ORDER BY 1, 2, 3",
    )
    .bind(client)
    .bind(emp)
    .bind(from)
    .bind(to)
    .fetch_all(&mut **tx)
    .await?;
    rows.iter()
        .map(|r| {
            let origin: String = r.try_get(1)?;
            let id: Option<i64> = r.try_get(2)?;
            let serie: String = r.try_get(3)?;
            let what = if origin == "PEDIDO" { "Pedido" } else { "OS" };
            let number = match (id, serie.trim()) {
                (Some(i), "") => i.to_string(),
                (Some(i), s) => format!("{i}/{s}"),
                (None, _) => String::new(),
            };
            let name: String = r.try_get(4)?;
            let doc: String = r.try_get(7)?;
            Ok(Entry {
                date: r.try_get(0)?,
                debit: c.customers.clone(),
                credit: c.revenue.clone(),
                value: r.try_get(6)?,
                history: c.sale_history.clone(),
                complement: format!("Venda {what} {number} - {name}"),
                document: if doc.is_empty() { number } else { doc },
                participant: r.try_get(5)?,
            })
        })
        .collect()
}

/// The settlements of the period as entries.
pub async fn settlements(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    c: &Config,
    from: NaiveDate,
    to: NaiveDate,
) -> Result<Vec<Entry>> {
    check_period(from, to)?;
    let rows = sqlx::query(
        "SELECT b.baix_dta, b.baix_tipo, b.baix_valor, b.baix_juros + b.baix_multa, b.baix_desconto,
                coalesce(t.tit_pessoa_nome, ''), coalesce(t.tit_documento, ''), t.tit_parcela, t.tit_parcelas,
                coalesce(CASE b.baix_tipo WHEN 'R' THEN c.documento ELSE f.documento END, '')
         FROM finance.baixas b
         LEFT JOIN finance.contasreceber t ON b.baix_tipo = 'R' AND t.client_id = b.client_id
              AND t.tit_emp_id = b.baix_emp_id AND t.tit_id = b.baix_tit_id
         LEFT JOIN finance.contaspagar p ON b.baix_tipo = 'P' AND p.client_id = b.client_id
              AND p.tit_emp_id = b.baix_emp_id AND p.tit_id = b.baix_tit_id
         LEFT JOIN finance.clientes c ON c.client_id = b.client_id AND c.emp_id = b.baix_emp_id AND c.cli_id = t.tit_pessoa_id
         LEFT JOIN finance.fornecedores f ON f.client_id = b.client_id AND f.forn_id = p.tit_pessoa_id
         WHERE b.client_id = $1 AND b.baix_emp_id = $2 AND NOT b.baix_estornada AND b.baix_dta BETWEEN $3 AND $4
           AND b.baix_adto_id IS NULL
         ORDER BY b.baix_dta, b.baix_id",
    )
    .bind(client)
    .bind(emp)
    .bind(from)
    .bind(to)
    .fetch_all(&mut **tx)
    .await?;
    let mut out = Vec::new();
    for r in &rows {
        let date: NaiveDate = r.try_get(0)?;
        let receivable = r.try_get::<String, _>(1)?.trim() == "R";
        let value: Decimal = r.try_get(2)?;
        let interest: Decimal = r.try_get(3)?;
        let discount: Decimal = r.try_get(4)?;
        let name: String = r.try_get(5)?;
        let doc: String = r.try_get(6)?;
        let seq: Option<i32> = r.try_get(7)?;
        let count: Option<i32> = r.try_get(8)?;
        let participant: String = r.try_get(9)?;
        let parcel = match (seq, count) {
            (Some(s), Some(n)) => format!(" parcela {s}/{n}"),
            _ => String::new(),
        };
        let (verb, history, person) = if receivable {
            (
                "Recebimento",
                c.receipt_history.clone(),
                c.customers.clone(),
            )
        } else {
            ("Pagamento", c.payment_history.clone(), c.suppliers.clone())
        };
        let complement = format!("{verb} {name}{parcel}");
        let entry = |debit: &str, credit: &str, v: Decimal, what: &str| Entry {
            date,
            debit: debit.to_string(),
            credit: credit.to_string(),
            value: v,
            history: history.clone(),
            complement: format!("{what}{complement}"),
            document: doc.clone(),
            participant: participant.clone(),
        };
        if receivable {
            out.push(entry(&c.cash, &person, value, ""));
        } else {
            out.push(entry(&person, &c.cash, value, ""));
        }
        if interest > Decimal::ZERO {
            let acc = c.interest.as_deref().ok_or_else(|| {
                Error::validation("Informe a conta de juros na configuração da integração: há baixas com juros no período.")
            })?;
            out.push(if receivable {
                entry(&c.cash, acc, interest, "Juros - ")
            } else {
                entry(acc, &c.cash, interest, "Juros - ")
            });
        }
        if discount > Decimal::ZERO {
            let acc = c.discounts.as_deref().ok_or_else(|| {
                Error::validation("Informe a conta de descontos na configuração da integração: há baixas com desconto no período.")
            })?;
            out.push(if receivable {
                entry(acc, &c.cash, discount, "Desconto - ")
            } else {
                entry(&c.cash, acc, discount, "Desconto - ")
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    #[test]
    fn the_file_is_delimited_windows_1252_with_comma_decimals() {
        let e = Entry {
            date: NaiveDate::from_ymd_opt(2026, 11, 5).unwrap(),
            debit: "1.1.01".into(),
            credit: "1.1.2.01".into(),
            value: Decimal::from_str("1234.5").unwrap(),
            history: Some("12".into()),
            complement: "Recebimento JOÃO; Ltda".into(),
            document: "NF 10".into(),
            participant: "11.444.777/0001-61".into(),
        };
        let bytes = file("77", &[e]);
        let (text, _, bad) = encoding_rs::WINDOWS_1252.decode(&bytes);
        assert!(!bad);
        assert_eq!(
            text,
            "77;05/11/2026;1.1.01;1.1.2.01;1234,50;12;Recebimento JOÃO  Ltda;NF 10;11444777000161\r\n"
        );
        // 'Ã' is one byte (0xC3) in Windows-1252.
        assert!(bytes.contains(&0xC3) && !bytes.windows(2).any(|w| w == [0xC3, 0x83]));
    }

    #[test]
    fn a_period_is_at_most_a_year() {
        let d = |m, day| NaiveDate::from_ymd_opt(2026, m, day).unwrap();
        assert!(check_period(d(1, 1), d(12, 31)).is_ok());
        assert!(check_period(d(2, 1), d(1, 1)).is_err());
        assert!(check_period(d(1, 1), NaiveDate::from_ymd_opt(2027, 6, 1).unwrap()).is_err());
    }
}
