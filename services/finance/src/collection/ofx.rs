//! OFX bank statement parser: OFX 1.x (SGML header, leaf tags left unclosed) and
//! OFX 2.x (XML), as Brazilian banks export them.
//!
//! One tokenizer serves both versions: a leaf element ends at the next tag
//! whether or not it is closed (`<TRNAMT>-10,00` and `<TRNAMT>-10,00</TRNAMT>`
//! read the same), while aggregates must be closed, so a missing `</STMTTRN>` is
//! an error instead of a silently merged transaction. Every statement in the file
//! (bank `STMTRS` and credit-card `CCSTMTRS`, any number of accounts) is returned.
//!
//! Non-obvious choices:
//! - Encoding: Brazilian files say `ENCODING:USASCII` with `CHARSET:1252` and
//!   then write accented memos in Windows-1252, so anything not declared UTF-8 is
//!   decoded as Windows-1252 ("CRÉDITO" survives). A file declared UTF-8 that is
//!   not valid UTF-8 is also read as Windows-1252, which is what such files are.
//! - Dates keep the calendar day as written; the `[-03:EST]` offset is validated
//!   but not applied, because converting to UTC would move late-evening postings
//!   to the next day and break reconciliation with the bank's own statement.
//! - Amounts accept a decimal comma or point; when both appear, the last one is
//!   the decimal separator and the other groups thousands.

use std::str::FromStr;

use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// Errors of OFX parsing.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum OfxError {
    #[error("Arquivo OFX vazio ou sem o elemento <OFX>.")]
    Empty,
    #[error("OFX inválido na linha {line}: {reason}.")]
    Syntax { line: usize, reason: String },
    #[error(
        "OFX inválido: elemento <{element}> obrigatório ausente em <{parent}> (linha {line})."
    )]
    Missing {
        element: &'static str,
        parent: String,
        line: usize,
    },
    #[error("OFX inválido na linha {line}: <{element}> com valor '{value}' inválido ({reason}).")]
    Value {
        element: String,
        value: String,
        line: usize,
        reason: String,
    },
}

type Result<T> = std::result::Result<T, OfxError>;

/// One statement (one account) of an OFX file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Statement {
    pub bank_id: Option<String>,
    pub branch_id: Option<String>,
    pub account_id: String,
    pub account_type: Option<String>,
    pub currency: Option<String>,
    pub start: Option<NaiveDate>,
    pub end: Option<NaiveDate>,
    pub ledger_balance: Option<Decimal>,
    pub ledger_balance_date: Option<NaiveDate>,
    pub transactions: Vec<Transaction>,
}

/// One statement transaction (`STMTTRN`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Transaction {
    pub fit_id: Option<String>,
    /// TRNTYPE (CREDIT, DEBIT, PAYMENT, …).
    pub kind: String,
    pub posted: NaiveDate,
    /// Signed: negative for debits.
    pub amount: Decimal,
    pub memo: Option<String>,
    pub name: Option<String>,
    pub check_number: Option<String>,
    pub reference: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Element {
    name: String,
    line: usize,
    text: Option<String>,
    children: Vec<Element>,
}

impl Element {
    fn child(&self, name: &str) -> Option<&Element> {
        self.children.iter().find(|c| c.name == name)
    }

    fn value(&self, name: &str) -> Option<&str> {
        self.child(name)
            .and_then(|c| c.text.as_deref())
            .map(str::trim)
            .filter(|v| !v.is_empty())
    }

    fn required(&self, name: &'static str) -> Result<&str> {
        self.value(name).ok_or_else(|| OfxError::Missing {
            element: name,
            parent: self.name.clone(),
            line: self.line,
        })
    }

    fn line_of(&self, name: &str) -> usize {
        self.child(name).map_or(self.line, |c| c.line)
    }

    fn collect<'a>(&'a self, name: &str, out: &mut Vec<&'a Element>) {
        for child in &self.children {
            if child.name == name {
                out.push(child);
            } else {
                child.collect(name, out);
            }
        }
    }
}

/// Text encoding declared by the header (SGML `CHARSET`/`ENCODING` or the XML
/// declaration), looked up in the ASCII part before the first element.
fn declared_utf8(bytes: &[u8]) -> bool {
    let head_end = bytes
        .windows(4)
        .position(|w| w.eq_ignore_ascii_case(b"<OFX"))
        .unwrap_or(bytes.len());
    let head = String::from_utf8_lossy(&bytes[..head_end]).to_ascii_uppercase();
    head.contains("ENCODING:UTF-8")
        || head.contains("ENCODING=\"UTF-8\"")
        || head.contains("ENCODING='UTF-8'")
        || (head.contains("<?XML") && !head.contains("ENCODING="))
}

fn decode(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if declared_utf8(bytes) {
        if let Ok(text) = std::str::from_utf8(bytes) {
            return text.to_string();
        }
    }
    encoding_rs::WINDOWS_1252
        .decode_without_bom_handling(bytes)
        .0
        .into_owned()
}

fn decode_entities(text: &str) -> String {
    if !text.contains('&') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(pos) = rest.find('&') {
        out.push_str(&rest[..pos]);
        let tail = &rest[pos..];
        let decoded = tail.find(';').and_then(|end| {
            let entity = &tail[1..end];
            let ch = match entity {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" => Some('\''),
                e if e.starts_with("#x") || e.starts_with("#X") => u32::from_str_radix(&e[2..], 16)
                    .ok()
                    .and_then(char::from_u32),
                e if e.starts_with('#') => e[1..].parse().ok().and_then(char::from_u32),
                _ => None,
            };
            ch.map(|c| (c, end))
        });
        match decoded {
            Some((c, end)) => {
                out.push(c);
                rest = &tail[end + 1..];
            }
            // A bare '&' (common in SGML memos such as "M&M") stays as written.
            None => {
                out.push('&');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

fn parse_tree(text: &str) -> Result<Element> {
    let start = text
        .find("<OFX>")
        .or_else(|| text.find("<OFX "))
        .ok_or(OfxError::Empty)?;
    let mut line = 1 + text[..start].matches('\n').count();
    let mut stack: Vec<Element> =
        vec![Element { name: "#documento".into(), line, text: None, children: Vec::new() }];
    // Closes the top element into its parent.
    fn close(stack: &mut Vec<Element>) {
        if stack.len() > 1 {
            if let Some(done) = stack.pop() {
                if let Some(parent) = stack.last_mut() {
                    parent.children.push(done);
                }
            }
        }
    }
    let is_open_leaf =
        |stack: &[Element]| stack.len() > 1 && stack.last().is_some_and(|e| e.text.is_some());

    let bytes = text.as_bytes();
    let mut pos = start;
    while pos < text.len() {
        if bytes[pos] == b'<' {
            let end = text[pos..]
                .find('>')
                .map(|e| pos + e)
                .ok_or_else(|| OfxError::Syntax { line, reason: "tag sem '>'".into() })?;
            let tag = &text[pos + 1..end];
            line += tag.matches('\n').count();
            pos = end + 1;
            if tag.starts_with('?') || tag.starts_with('!') {
                continue;
            }
            if let Some(name) = tag.strip_prefix('/') {
                let name = name.trim();
                while let Some(top) = stack.last() {
                    if stack.len() == 1 {
                        return Err(OfxError::Syntax {
                            line,
                            reason: format!("</{name}> sem <{name}> aberto"),
                        });
                    }
                    if top.name == name {
                        close(&mut stack);
                        break;
                    }
                    if top.text.is_some() {
                        close(&mut stack);
                        continue;
                    }
                    return Err(OfxError::Syntax {
                        line,
                        reason: format!(
                            "</{name}> encontrado, mas <{}> (linha {}) não foi fechado",
                            top.name, top.line
                        ),
                    });
                }
            } else {
                let name = tag
                    .split_whitespace()
                    .next()
                    .unwrap_or("")
                    .trim_end_matches('/');
                if name.is_empty() {
                    return Err(OfxError::Syntax { line, reason: "tag vazia".into() });
                }
                if is_open_leaf(&stack) {
                    close(&mut stack);
                }
                stack.push(Element {
                    name: name.to_string(),
                    line,
                    text: None,
                    children: Vec::new(),
                });
                if tag.ends_with('/') {
                    close(&mut stack);
                }
            }
        } else {
            let end = text[pos..].find('<').map_or(text.len(), |e| pos + e);
            let raw = &text[pos..end];
            let value = raw.trim();
            if !value.is_empty() {
                let depth = stack.len();
                match stack.last_mut() {
                    Some(top) if depth > 1 && top.children.is_empty() => {
                        top.text = Some(decode_entities(value));
                    }
                    _ => {
                        return Err(OfxError::Syntax {
                            line,
                            reason: format!("texto '{value}' fora de um elemento simples"),
                        })
                    }
                }
            }
            line += raw.matches('\n').count();
            pos = end;
        }
    }
    while is_open_leaf(&stack) {
        close(&mut stack);
    }
    if stack.len() > 1 {
        let open = &stack[stack.len() - 1];
        return Err(OfxError::Syntax {
            line,
            reason: format!(
                "elemento <{}> aberto na linha {} não foi fechado",
                open.name, open.line
            ),
        });
    }
    stack.pop().ok_or(OfxError::Empty)
}

fn value_error(element: &str, value: &str, line: usize, reason: &str) -> OfxError {
    OfxError::Value {
        element: element.to_string(),
        value: value.to_string(),
        line,
        reason: reason.to_string(),
    }
}

/// Parses an OFX date (`YYYYMMDD`, optionally `HHMMSS`, `.XXX` and `[±HH:TZ]`)
/// into its calendar date, validating the time and offset parts.
pub fn parse_ofx_date(value: &str) -> std::result::Result<NaiveDate, String> {
    let value = value.trim();
    let (stamp, zone) = match value.find('[') {
        Some(i) => (&value[..i], Some(&value[i..])),
        None => (value, None),
    };
    if let Some(zone) = zone {
        let inner = zone
            .strip_prefix('[')
            .and_then(|z| z.strip_suffix(']'))
            .ok_or("fuso horário sem ']'")?;
        let offset = inner.split(':').next().unwrap_or("");
        let number = offset.strip_prefix(['-', '+']).unwrap_or(offset);
        let ok = number
            .split('.')
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
            && number
                .split('.')
                .next()
                .and_then(|h| h.parse::<u32>().ok())
                .is_some_and(|h| h <= 14);
        if !ok {
            return Err(format!("deslocamento de fuso '{inner}' inválido"));
        }
    }
    let (main, fraction) = match stamp.find('.') {
        Some(i) => (&stamp[..i], Some(&stamp[i + 1..])),
        None => (stamp, None),
    };
    if !main.bytes().all(|b| b.is_ascii_digit()) || !matches!(main.len(), 8 | 12 | 14) {
        return Err("esperado AAAAMMDD[HHMMSS]".into());
    }
    if fraction.is_some_and(|f| f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit())) {
        return Err("fração de segundo inválida".into());
    }
    let n = |r: std::ops::Range<usize>| main[r].parse::<u32>().unwrap_or(u32::MAX);
    let date =
        NaiveDate::from_ymd_opt(n(0..4) as i32, n(4..6), n(6..8)).ok_or("data inexistente")?;
    if main.len() >= 12 && (n(8..10) > 23 || n(10..12) > 59 || (main.len() == 14 && n(12..14) > 60))
    {
        return Err("hora inválida".into());
    }
    Ok(date)
}

/// Parses an OFX amount with a decimal comma or point (see module notes).
pub fn parse_ofx_amount(value: &str) -> std::result::Result<Decimal, String> {
    let v = value.trim().replace(' ', "");
    let (last_comma, last_point) = (v.rfind(','), v.rfind('.'));
    let normalized = match (last_comma, last_point) {
        (Some(c), Some(p)) if c > p => v.replace('.', "").replace(',', "."),
        (Some(_), Some(_)) => v.replace(',', ""),
        (Some(_), None) => v.replace(',', "."),
        _ => v.clone(),
    };
    let normalized = normalized.strip_prefix('+').unwrap_or(&normalized);
    if normalized.is_empty()
        || !normalized
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'.' || b == b'-')
    {
        return Err("número inválido".into());
    }
    Decimal::from_str(normalized).map_err(|_| "número inválido".to_string())
}

fn date_of(element: &Element, name: &'static str) -> Result<Option<NaiveDate>> {
    element
        .value(name)
        .map(|v| parse_ofx_date(v).map_err(|r| value_error(name, v, element.line_of(name), &r)))
        .transpose()
}

fn amount_of(element: &Element, name: &'static str) -> Result<Option<Decimal>> {
    element
        .value(name)
        .map(|v| parse_ofx_amount(v).map_err(|r| value_error(name, v, element.line_of(name), &r)))
        .transpose()
}

fn transaction(trn: &Element) -> Result<Transaction> {
    let posted_text = trn.required("DTPOSTED")?;
    let amount_text = trn.required("TRNAMT")?;
    let owned = |name: &str| trn.value(name).map(str::to_string);
    Ok(Transaction {
        fit_id: owned("FITID"),
        kind: trn.required("TRNTYPE")?.to_string(),
        posted: parse_ofx_date(posted_text)
            .map_err(|r| value_error("DTPOSTED", posted_text, trn.line_of("DTPOSTED"), &r))?,
        amount: parse_ofx_amount(amount_text)
            .map_err(|r| value_error("TRNAMT", amount_text, trn.line_of("TRNAMT"), &r))?,
        memo: owned("MEMO"),
        name: owned("NAME"),
        check_number: owned("CHECKNUM"),
        reference: owned("REFNUM"),
    })
}

fn statement(stmt: &Element) -> Result<Statement> {
    let account = stmt
        .child("BANKACCTFROM")
        .or_else(|| stmt.child("CCACCTFROM"))
        .ok_or_else(|| OfxError::Missing {
            element: "BANKACCTFROM",
            parent: stmt.name.clone(),
            line: stmt.line,
        })?;
    let list = stmt.child("BANKTRANLIST");
    let mut transactions = Vec::new();
    if let Some(list) = list {
        for trn in list.children.iter().filter(|c| c.name == "STMTTRN") {
            transactions.push(transaction(trn)?);
        }
    }
    let ledger = stmt.child("LEDGERBAL");
    Ok(Statement {
        bank_id: account.value("BANKID").map(str::to_string),
        branch_id: account.value("BRANCHID").map(str::to_string),
        account_id: account.required("ACCTID")?.to_string(),
        account_type: account.value("ACCTTYPE").map(str::to_string),
        currency: stmt.value("CURDEF").map(str::to_string),
        start: list.map(|l| date_of(l, "DTSTART")).transpose()?.flatten(),
        end: list.map(|l| date_of(l, "DTEND")).transpose()?.flatten(),
        ledger_balance: ledger
            .map(|l| amount_of(l, "BALAMT"))
            .transpose()?
            .flatten(),
        ledger_balance_date: ledger.map(|l| date_of(l, "DTASOF")).transpose()?.flatten(),
        transactions,
    })
}

/// Parses an OFX 1.x or 2.x file into its statements.
pub fn parse_ofx(bytes: &[u8]) -> Result<Vec<Statement>> {
    let text = decode(bytes);
    let root = parse_tree(&text)?;
    let mut statements = Vec::new();
    root.collect("STMTRS", &mut statements);
    root.collect("CCSTMTRS", &mut statements);
    statements.sort_by_key(|s| s.line);
    statements.into_iter().map(statement).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(s: &str) -> Decimal {
        Decimal::from_str(s).unwrap()
    }

    fn date(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    /// OFX 1.02 as Brazilian banks export it: SGML header, CP-1252 memo bytes
    /// (0xC9 = É, 0xC1 = Á), decimal commas, offsets, two accounts.
    fn sgml_two_accounts() -> Vec<u8> {
        let mut bytes = b"OFXHEADER:100\r\nDATA:OFXSGML\r\nVERSION:102\r\nSECURITY:NONE\r\nENCODING:USASCII\r\nCHARSET:1252\r\nCOMPRESSION:NONE\r\nOLDFILEUID:NONE\r\nNEWFILEUID:NONE\r\n\r\n".to_vec();
        bytes.extend_from_slice(
            b"<OFX>\r\n<SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20261115120000[-03:EST]<LANGUAGE>POR</SONRS></SIGNONMSGSRSV1>\r\n\
<BANKMSGSRSV1>\r\n<STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS>\r\n<STMTRS><CURDEF>BRL\r\n\
<BANKACCTFROM><BANKID>0341<BRANCHID>0293<ACCTID>01328-0<ACCTTYPE>CHECKING</BANKACCTFROM>\r\n\
<BANKTRANLIST><DTSTART>20261101<DTEND>20261115235959[-03:EST]\r\n\
<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20261103100000[-03:EST]<TRNAMT>1.500,00<FITID>2026110301<CHECKNUM>000123<REFNUM>REF1<MEMO>",
        );
        bytes.extend_from_slice(b"CR\xC9DITO SAL\xC1RIO");
        bytes.extend_from_slice(
            b"\r\n</STMTTRN>\r\n\
<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20261115230000[-3:BRT]<TRNAMT>-150,25<FITID>2026111501<NAME>PADARIA &amp; CIA<MEMO>M&M DOCES\r\n</STMTTRN>\r\n\
</BANKTRANLIST>\r\n<LEDGERBAL><BALAMT>1349,75<DTASOF>20261115</LEDGERBAL>\r\n</STMTRS></STMTTRNRS>\r\n\
<STMTTRNRS><TRNUID>2<STMTRS><CURDEF>BRL<BANKACCTFROM><BANKID>0341<BRANCHID>0293<ACCTID>99999-9<ACCTTYPE>SAVINGS</BANKACCTFROM>\r\n\
<BANKTRANLIST><DTSTART>20261101<DTEND>20261115\r\n\
<STMTTRN><TRNTYPE>INT<DTPOSTED>20261110<TRNAMT>12.34<FITID>S1</STMTTRN>\r\n\
</BANKTRANLIST><LEDGERBAL><BALAMT>10.012,34<DTASOF>20261115000000</LEDGERBAL></STMTRS></STMTTRNRS>\r\n\
</BANKMSGSRSV1>\r\n</OFX>\r\n",
        );
        bytes
    }

    #[test]
    fn sgml_cp1252_two_statements() {
        let statements = parse_ofx(&sgml_two_accounts()).unwrap();
        assert_eq!(statements.len(), 2);
        let s = &statements[0];
        assert_eq!(s.bank_id.as_deref(), Some("0341"));
        assert_eq!(s.branch_id.as_deref(), Some("0293"));
        assert_eq!(s.account_id, "01328-0");
        assert_eq!(s.account_type.as_deref(), Some("CHECKING"));
        assert_eq!(s.currency.as_deref(), Some("BRL"));
        assert_eq!(s.start, Some(date(2026, 11, 1)));
        assert_eq!(s.end, Some(date(2026, 11, 15)));
        assert_eq!(s.ledger_balance, Some(dec("1349.75")));
        assert_eq!(s.ledger_balance_date, Some(date(2026, 11, 15)));
        assert_eq!(s.transactions.len(), 2);
        let credit = &s.transactions[0];
        assert_eq!(credit.memo.as_deref(), Some("CRÉDITO SALÁRIO"));
        assert_eq!(credit.amount, dec("1500.00"));
        assert_eq!(credit.kind, "CREDIT");
        assert_eq!(credit.fit_id.as_deref(), Some("2026110301"));
        assert_eq!(credit.check_number.as_deref(), Some("000123"));
        assert_eq!(credit.reference.as_deref(), Some("REF1"));
        assert_eq!(credit.posted, date(2026, 11, 3));
        let debit = &s.transactions[1];
        assert_eq!(debit.amount, dec("-150.25"));
        // 23:00 at -03:00 is still the 15th where the bank is.
        assert_eq!(debit.posted, date(2026, 11, 15));
        assert_eq!(debit.name.as_deref(), Some("PADARIA & CIA"));
        assert_eq!(debit.memo.as_deref(), Some("M&M DOCES"));

        let savings = &statements[1];
        assert_eq!(savings.account_id, "99999-9");
        assert_eq!(savings.ledger_balance, Some(dec("10012.34")));
        assert_eq!(savings.transactions[0].amount, dec("12.34"));
        assert_eq!(savings.transactions[0].memo, None);
    }

    #[test]
    fn xml_version_2() {
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n\
<?OFX OFXHEADER=\"200\" VERSION=\"211\" SECURITY=\"NONE\" OLDFILEUID=\"NONE\" NEWFILEUID=\"NONE\"?>\n\
<OFX>\n  <BANKMSGSRSV1>\n    <STMTTRNRS>\n      <TRNUID>1</TRNUID>\n      <STMTRS>\n        <CURDEF>BRL</CURDEF>\n\
        <BANKACCTFROM>\n          <BANKID>001</BANKID>\n          <BRANCHID>1234-5</BRANCHID>\n          <ACCTID>55555-1</ACCTID>\n          <ACCTTYPE>CHECKING</ACCTTYPE>\n        </BANKACCTFROM>\n\
        <BANKTRANLIST>\n          <DTSTART>20261101000000.000[-3:BRT]</DTSTART>\n          <DTEND>20261130</DTEND>\n\
          <STMTTRN>\n            <TRNTYPE>PAYMENT</TRNTYPE>\n            <DTPOSTED>20261115120000.123[-03:EST]</DTPOSTED>\n            <TRNAMT>-1234.56</TRNAMT>\n            <FITID>X-1</FITID>\n            <MEMO>PAGAMENTO DE TÍTULO &lt;BOLETO&gt;</MEMO>\n          </STMTTRN>\n\
        </BANKTRANLIST>\n        <LEDGERBAL>\n          <BALAMT>+100.00</BALAMT>\n          <DTASOF>20261130</DTASOF>\n        </LEDGERBAL>\n      </STMTRS>\n    </STMTTRNRS>\n  </BANKMSGSRSV1>\n</OFX>\n";
        let statements = parse_ofx(xml.as_bytes()).unwrap();
        assert_eq!(statements.len(), 1);
        let s = &statements[0];
        assert_eq!(s.bank_id.as_deref(), Some("001"));
        assert_eq!(s.start, Some(date(2026, 11, 1)));
        assert_eq!(s.ledger_balance, Some(dec("100.00")));
        let t = &s.transactions[0];
        assert_eq!(t.posted, date(2026, 11, 15));
        assert_eq!(t.amount, dec("-1234.56"));
        assert_eq!(t.memo.as_deref(), Some("PAGAMENTO DE TÍTULO <BOLETO>"));
        assert_eq!(t.fit_id.as_deref(), Some("X-1"));
    }

    #[test]
    fn credit_card_statement_and_empty_list() {
        let ofx = b"OFXHEADER:100\nDATA:OFXSGML\n\n<OFX><CREDITCARDMSGSRSV1><CCSTMTTRNRS><CCSTMTRS><CURDEF>BRL<CCACCTFROM><ACCTID>4111XXXX1111</CCACCTFROM><BANKTRANLIST><DTSTART>20261101<DTEND>20261130</BANKTRANLIST></CCSTMTRS></CCSTMTTRNRS></CREDITCARDMSGSRSV1></OFX>";
        let statements = parse_ofx(ofx).unwrap();
        assert_eq!(statements[0].account_id, "4111XXXX1111");
        assert_eq!(statements[0].bank_id, None);
        assert!(statements[0].transactions.is_empty());
    }

    #[test]
    fn malformed_files_give_pt_br_errors() {
        // </STMTTRN> missing: the transaction would swallow the next one.
        let broken = b"OFXHEADER:100\n\n<OFX>\n<BANKMSGSRSV1><STMTTRNRS><STMTRS><BANKACCTFROM><ACCTID>1</BANKACCTFROM>\n<BANKTRANLIST>\n<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20261101<TRNAMT>-1,00\n</BANKTRANLIST>\n</STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>";
        let err = parse_ofx(broken).unwrap_err();
        assert_eq!(
            err.to_string(),
            "OFX inválido na linha 7: </BANKTRANLIST> encontrado, mas <STMTTRN> (linha 6) não foi fechado."
        );
        let bad_amount = b"<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><BANKACCTFROM><ACCTID>1</BANKACCTFROM><BANKTRANLIST>\n<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20261101<TRNAMT>-1,0A</STMTTRN></BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>";
        assert_eq!(
            parse_ofx(bad_amount).unwrap_err().to_string(),
            "OFX inválido na linha 2: <TRNAMT> com valor '-1,0A' inválido (número inválido)."
        );
        let bad_date = b"<OFX><STMTRS><BANKACCTFROM><ACCTID>1</BANKACCTFROM><BANKTRANLIST><STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20261131<TRNAMT>1</STMTTRN></BANKTRANLIST></STMTRS></OFX>";
        assert!(matches!(
            parse_ofx(bad_date),
            Err(OfxError::Value { ref element, ref reason, .. }) if element == "DTPOSTED" && reason == "data inexistente"
        ));
        let no_amount = b"<OFX><STMTRS><BANKACCTFROM><ACCTID>1</BANKACCTFROM><BANKTRANLIST><STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20261101</STMTTRN></BANKTRANLIST></STMTRS></OFX>";
        assert!(matches!(
            parse_ofx(no_amount),
            Err(OfxError::Missing { element: "TRNAMT", .. })
        ));
        assert_eq!(parse_ofx(b"not an ofx file"), Err(OfxError::Empty));
        let unclosed = b"<OFX><STMTRS><BANKACCTFROM><ACCTID>1</BANKACCTFROM>";
        assert!(parse_ofx(unclosed)
            .unwrap_err()
            .to_string()
            .contains("não foi fechado"));
    }

    #[test]
    fn dates_and_amounts() {
        assert_eq!(parse_ofx_date("20261115"), Ok(date(2026, 11, 15)));
        assert_eq!(parse_ofx_date("202611151200"), Ok(date(2026, 11, 15)));
        assert_eq!(parse_ofx_date("20261115120000.000"), Ok(date(2026, 11, 15)));
        assert_eq!(
            parse_ofx_date("20261115120000[-03:EST]"),
            Ok(date(2026, 11, 15))
        );
        assert_eq!(
            parse_ofx_date("20261115120000[+5.30:IST]"),
            Ok(date(2026, 11, 15))
        );
        assert_eq!(parse_ofx_date("20261115120000[0]"), Ok(date(2026, 11, 15)));
        assert!(parse_ofx_date("20261115250000").is_err());
        assert!(parse_ofx_date("2026111").is_err());
        assert!(parse_ofx_date("20261115[-03:EST").is_err());
        assert!(parse_ofx_date("20261115[XX:EST]").is_err());
        assert_eq!(parse_ofx_amount("1.234,56"), Ok(dec("1234.56")));
        assert_eq!(parse_ofx_amount("1,234.56"), Ok(dec("1234.56")));
        assert_eq!(parse_ofx_amount("-0,01"), Ok(dec("-0.01")));
        assert_eq!(parse_ofx_amount("+7"), Ok(dec("7")));
        assert!(parse_ofx_amount("").is_err());
        assert!(parse_ofx_amount("1e5").is_err());
    }

    #[test]
    fn ten_thousand_transactions() {
        let mut ofx = String::from("OFXHEADER:100\nDATA:OFXSGML\nCHARSET:1252\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>BRL<BANKACCTFROM><BANKID>0001<ACCTID>123</BANKACCTFROM><BANKTRANLIST><DTSTART>20260101<DTEND>20261231\n");
        for i in 0..10_000 {
            ofx.push_str(&format!(
                "<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20260{}15[-03:EST]<TRNAMT>-{},{:02}<FITID>{i}<MEMO>PAGAMENTO {i}\n</STMTTRN>\n",
                1 + i % 9,
                i,
                i % 100
            ));
        }
        ofx.push_str("</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n");
        let started = std::time::Instant::now();
        let statements = parse_ofx(ofx.as_bytes()).unwrap();
        let elapsed = started.elapsed();
        let transactions = &statements[0].transactions;
        assert_eq!(transactions.len(), 10_000);
        assert_eq!(transactions[9_999].amount, dec("-9999.99"));
        assert_eq!(transactions[9_999].fit_id.as_deref(), Some("9999"));
        let total: Decimal = transactions.iter().map(|t| t.amount).sum();
        assert_eq!(total, dec("-49999950"));
        // Generous bound: debug builds on a loaded 2-core machine.
        assert!(elapsed.as_secs_f64() < 2.0, "took {elapsed:?}");
    }
}
