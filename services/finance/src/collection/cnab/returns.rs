//! Return (retorno) parser: per title, the occurrence the bank reports (entry
//! confirmed, settlement, write-off, rejection with reasons…) and the amounts.
//!
//! CNAB 240 returns pair segment T (title, fee, reasons) with the following U
//! (amounts paid, dates); CNAB 400 returns have one detail per title.
//!
//! Non-obvious choices:
//! - Parsing does not stop at a bad title: a title whose lines cannot be read is
//!   reported in [`ReturnFile::issues`] with its line and field and left out of
//!   [`ReturnFile::titles`], because one corrupt line must not block settling the
//!   rest of a bank file; wrong trailer counts and sequence gaps are issues too.
//!   An unreadable file header is still an error: without it nothing is known.
//! - Occurrence and reason descriptions come from the FEBRABAN CNAB 240 tables
//!   (C044 occurrences, C047 rejection reasons) and, for Unicred, from its table;
//!   reason codes are described only for rejection occurrences, since the same
//!   codes mean other things (e.g. payment channel) for settlements.

use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::layout::{split_lines, Line, Record, RecordLayout};
use super::{tables240 as t240, tables400 as t400, CnabError, CnabLayout};

/// Broad meaning of an occurrence, for reconciliation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum OccurrenceKind {
    /// Entry (registration) confirmed.
    Registered,
    /// Entry or instruction rejected; see the reasons.
    Rejected,
    /// Paid (liquidação).
    Settled,
    /// Written off (baixa) without payment.
    WrittenOff,
    /// Protest related.
    Protest,
    /// Fees debited.
    Fee,
    Other,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Occurrence {
    pub code: String,
    pub description: String,
    pub kind: OccurrenceKind,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reason {
    pub code: String,
    pub description: Option<String>,
}

/// What the bank reports about one title.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReturnTitle {
    /// Line of the title's first record.
    pub line: usize,
    /// As the bank returns it, without leading zeros.
    pub nosso_numero: String,
    pub document_number: String,
    pub occurrence: Occurrence,
    pub reasons: Vec<Reason>,
    pub due_date: Option<NaiveDate>,
    pub face_value: Decimal,
    pub paid_amount: Decimal,
    /// Interest and fine paid (juros/multa).
    pub interest: Decimal,
    pub discount: Decimal,
    /// Abatimento.
    pub rebate: Decimal,
    /// Collection fee (tarifa).
    pub fee: Decimal,
    /// Net amount credited, when the layout reports it.
    pub net_amount: Option<Decimal>,
    pub occurrence_date: Option<NaiveDate>,
    pub credit_date: Option<NaiveDate>,
}

/// A parsed return file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReturnFile {
    pub layout: CnabLayout,
    /// Bank code as written in the file header.
    pub bank_code: String,
    pub generated_on: Option<NaiveDate>,
    pub file_sequence: Option<u64>,
    pub titles: Vec<ReturnTitle>,
    /// Problems that did not stop the parse (unreadable titles, wrong totals).
    pub issues: Vec<CnabError>,
}

impl ReturnFile {
    /// Titles the bank reports as paid.
    pub fn settled(&self) -> impl Iterator<Item = &ReturnTitle> {
        self.titles
            .iter()
            .filter(|t| t.occurrence.kind == OccurrenceKind::Settled)
    }
}

use OccurrenceKind::{Fee, Other, Protest, Registered, Rejected, Settled, WrittenOff};

/// FEBRABAN CNAB 240, table C044 (códigos de movimento para retorno).
const FEBRABAN_OCCURRENCES: &[(&str, &str, OccurrenceKind)] = &[
    ("02", "Entrada confirmada", Registered),
    ("03", "Entrada rejeitada", Rejected),
    ("04", "Transferência de carteira/entrada", Other),
    ("05", "Transferência de carteira/baixa", Other),
    ("06", "Liquidação", Settled),
    (
        "07",
        "Confirmação do recebimento da instrução de desconto",
        Other,
    ),
    (
        "08",
        "Confirmação do recebimento do cancelamento do desconto",
        Other,
    ),
    ("09", "Baixa", WrittenOff),
    ("11", "Títulos em carteira (em ser)", Other),
    (
        "12",
        "Confirmação recebimento instrução de abatimento",
        Other,
    ),
    (
        "13",
        "Confirmação recebimento instrução de cancelamento abatimento",
        Other,
    ),
    (
        "14",
        "Confirmação recebimento instrução alteração de vencimento",
        Other,
    ),
    ("15", "Franco de pagamento", Other),
    (
        "17",
        "Liquidação após baixa ou liquidação título não registrado",
        Settled,
    ),
    (
        "19",
        "Confirmação recebimento instrução de protesto",
        Protest,
    ),
    (
        "20",
        "Confirmação recebimento instrução de sustação/cancelamento de protesto",
        Protest,
    ),
    ("23", "Remessa a cartório (aponte em cartório)", Protest),
    (
        "24",
        "Retirada de cartório e manutenção em carteira",
        Protest,
    ),
    (
        "25",
        "Protestado e baixado (baixa por ter sido protestado)",
        WrittenOff,
    ),
    ("26", "Instrução rejeitada", Rejected),
    (
        "27",
        "Confirmação do pedido de alteração de outros dados",
        Other,
    ),
    ("28", "Débito de tarifas/custas", Fee),
    ("29", "Ocorrências do pagador", Other),
    ("30", "Alteração de dados rejeitada", Rejected),
    ("44", "Título pago com cheque devolvido", Other),
    ("45", "Título pago com cheque compensado", Settled),
    ("46", "Instrução para cancelar protesto confirmada", Protest),
];

/// Unicred CNAB 400 occurrences (as listed by eduardokum/laravel-boleto,
/// src/Cnab/Retorno/Cnab400/Banco/Unicred.php).
const UNICRED_OCCURRENCES: &[(&str, &str, OccurrenceKind)] = &[
    ("01", "Pago (título protestado pago em cartório)", Settled),
    ("02", "Instrução confirmada", Registered),
    ("03", "Instrução rejeitada", Rejected),
    ("04", "Sustado judicial", Protest),
    ("06", "Liquidação normal", Settled),
    ("07", "Liquidação em condicional", Settled),
    ("08", "Sustado definitivo", Protest),
    ("09", "Liquidação de título descontado", Settled),
    ("10", "Protesto solicitado", Protest),
    ("11", "Protesto em cartório", Protest),
    ("12", "Sustação solicitada", Protest),
    ("13", "Título descontado", Other),
    ("14", "Título descontável", Other),
];

/// FEBRABAN CNAB 240, table C047 (motivos de rejeição, occurrences 03, 26, 30).
const REJECTION_REASONS: &[(&str, &str)] = &[
    ("01", "Código do banco inválido"),
    ("02", "Código do registro detalhe inválido"),
    ("03", "Código do segmento inválido"),
    ("04", "Código de movimento não permitido para a carteira"),
    ("05", "Código de movimento inválido"),
    ("06", "Tipo/número de inscrição do beneficiário inválidos"),
    ("07", "Agência/conta/DV inválido"),
    ("08", "Nosso número inválido"),
    ("09", "Nosso número duplicado"),
    ("10", "Carteira inválida"),
    ("11", "Forma de cadastramento do título inválida"),
    ("12", "Tipo de documento inválido"),
    ("13", "Identificação da emissão do boleto inválida"),
    ("14", "Identificação da distribuição do boleto inválida"),
    ("15", "Características da cobrança incompatíveis"),
    ("16", "Data de vencimento inválida"),
    ("17", "Data de vencimento anterior à data de emissão"),
    ("18", "Vencimento fora do prazo de operação"),
    ("20", "Valor do título inválido"),
    ("21", "Espécie do título inválida"),
    ("22", "Espécie não permitida para a carteira"),
    ("23", "Aceite inválido"),
    ("24", "Data da emissão inválida"),
    ("25", "Data da emissão posterior à data de entrada"),
    ("26", "Código de juros de mora inválido"),
    ("27", "Valor/taxa de juros de mora inválido"),
    ("28", "Código do desconto inválido"),
    ("29", "Valor do desconto maior ou igual ao valor do título"),
    ("30", "Desconto a conceder não confere"),
    ("32", "Valor do IOF inválido"),
    ("33", "Valor do abatimento inválido"),
    (
        "34",
        "Valor do abatimento maior ou igual ao valor do título",
    ),
    ("37", "Código para protesto inválido"),
    ("38", "Prazo para protesto inválido"),
    ("39", "Pedido de protesto não permitido para o título"),
    ("40", "Título com ordem de protesto emitida"),
    (
        "41",
        "Pedido de cancelamento/sustação para títulos sem instrução de protesto",
    ),
    ("42", "Código para baixa/devolução inválido"),
    ("43", "Prazo para baixa/devolução inválido"),
    ("44", "Código da moeda inválido"),
    ("45", "Nome do pagador não informado"),
    ("46", "Tipo/número de inscrição do pagador inválidos"),
    ("47", "Endereço do pagador não informado"),
    ("48", "CEP inválido"),
    ("52", "Unidade da federação inválida"),
    ("57", "Código da multa inválido"),
    ("58", "Data da multa inválida"),
    ("59", "Valor/percentual da multa inválido"),
    ("60", "Movimento para título não cadastrado"),
    ("63", "Entrada para título já cadastrado"),
];

fn occurrence(table: &[(&str, &str, OccurrenceKind)], code: &str) -> Occurrence {
    match table.iter().find(|(c, _, _)| *c == code) {
        Some((c, description, kind)) => Occurrence {
            code: (*c).to_string(),
            description: (*description).to_string(),
            kind: *kind,
        },
        None => Occurrence {
            code: code.to_string(),
            description: format!("Ocorrência {code} não catalogada"),
            kind: Other,
        },
    }
}

/// Splits a reasons field into 2-character codes, dropping blanks and "00".
fn reasons(raw: &str, occurrence: &Occurrence) -> Vec<Reason> {
    let chars: Vec<char> = raw.chars().collect();
    chars
        .chunks(2)
        .map(|c| c.iter().collect::<String>())
        .filter(|c| {
            let t = c.trim();
            !t.is_empty() && t != "00"
        })
        .map(|code| {
            let description = (occurrence.kind == Rejected)
                .then(|| {
                    REJECTION_REASONS
                        .iter()
                        .find(|(c, _)| *c == code)
                        .map(|(_, d)| (*d).to_string())
                })
                .flatten();
            Reason { code, description }
        })
        .collect()
}

fn strip_zeros(s: &str) -> String {
    s.trim().trim_start_matches('0').to_string()
}

fn bank_mismatch(line: usize, found: &str, layout: CnabLayout) -> CnabError {
    CnabError::Structure {
        line,
        reason: format!(
            "header informa o banco {found}, diferente do banco {} do leiaute {}",
            layout.bank_code(),
            layout.name()
        ),
    }
}

fn count_issue(line: usize, what: &str, declared: u64, actual: u64) -> CnabError {
    CnabError::Structure {
        line,
        reason: format!("{what} informa {declared}, mas o arquivo tem {actual}"),
    }
}

/// Parses a return file of `layout`. See the module notes for what becomes an
/// issue and what an error.
pub fn parse_return(layout: CnabLayout, content: &[u8]) -> Result<ReturnFile, CnabError> {
    let lines = split_lines(content);
    let first = lines.first().ok_or(CnabError::Empty)?;
    match layout {
        CnabLayout::Santander240
        | CnabLayout::Caixa240
        | CnabLayout::Sicredi240
        | CnabLayout::Ailos240 => parse_240(layout, &lines, first),
        CnabLayout::Unicred400 => parse_400(layout, &t400::UNICRED_RETURN_DETAIL, &lines, first),
        CnabLayout::BancoDoBrasil400 | CnabLayout::Itau400 => {
            Err(CnabError::Unsupported { layout: layout.name(), what: "retorno" })
        }
    }
}

fn parse_240(layout: CnabLayout, lines: &[Line], first: &Line) -> Result<ReturnFile, CnabError> {
    if first.at(8) != '0' {
        return Err(CnabError::Structure {
            line: 1,
            reason: "o arquivo não começa pelo header de arquivo (registro 0)".into(),
        });
    }
    let header = Record::new(&t240::RETURN_FILE_HEADER, first)?;
    let mut file = ReturnFile {
        layout,
        bank_code: header.text("banco")?,
        generated_on: header.date("data_geracao")?,
        file_sequence: Some(header.num("nsa")?),
        titles: Vec::new(),
        issues: Vec::new(),
    };
    if file.bank_code != layout.bank_code() {
        file.issues.push(bank_mismatch(1, &file.bank_code, layout));
    }
    // A T waiting for its U; `None` inside means the T itself was unreadable.
    let mut pending: Option<Option<ReturnTitle>> = None;
    let mut batch_lines = 0u64;
    for line in &lines[1..] {
        let kind = line.at(8);
        if kind == '3' || kind == '1' || kind == '5' {
            batch_lines += 1;
        }
        let result = match (kind, line.at(14)) {
            ('1', _) => {
                batch_lines = 1;
                Record::new(&t240::RETURN_OTHER, line).map(|_| ())
            }
            ('3', 'T') => {
                if let Some(Some(orphan)) = pending.take() {
                    file.issues.push(CnabError::Structure {
                        line: orphan.line,
                        reason: "segmento T sem o segmento U correspondente".into(),
                    });
                }
                match read_t(line) {
                    Ok(title) => {
                        pending = Some(Some(title));
                        Ok(())
                    }
                    Err(e) => {
                        pending = Some(None);
                        Err(e)
                    }
                }
            }
            ('3', 'U') => match pending.take() {
                Some(Some(title)) => read_u(line, title).map(|t| file.titles.push(t)),
                // The T was already reported; its U adds nothing readable.
                Some(None) => Ok(()),
                None => Err(CnabError::Structure {
                    line: line.number,
                    reason: "segmento U sem segmento T anterior".into(),
                }),
            },
            ('3', _) => Record::new(&t240::RETURN_OTHER, line).map(|_| ()),
            ('5', _) => Record::new(&t240::RETURN_BATCH_TRAILER, line)
                .and_then(|rec| rec.num("quantidade_registros"))
                .map(|declared| {
                    if declared != batch_lines {
                        file.issues.push(count_issue(
                            line.number,
                            "quantidade de registros do lote",
                            declared,
                            batch_lines,
                        ));
                    }
                }),
            ('9', _) => Record::new(&t240::RETURN_FILE_TRAILER, line)
                .and_then(|rec| rec.num("quantidade_registros"))
                .map(|declared| {
                    if declared != lines.len() as u64 {
                        file.issues.push(count_issue(
                            line.number,
                            "quantidade de registros do arquivo",
                            declared,
                            lines.len() as u64,
                        ));
                    }
                }),
            (other, _) => Err(CnabError::Structure {
                line: line.number,
                reason: format!("tipo de registro '{other}' inesperado"),
            }),
        };
        if let Err(e) = result {
            file.issues.push(e);
        }
    }
    if let Some(Some(orphan)) = pending {
        file.issues.push(CnabError::Structure {
            line: orphan.line,
            reason: "segmento T sem o segmento U correspondente".into(),
        });
    }
    Ok(file)
}

fn read_t(line: &Line) -> Result<ReturnTitle, CnabError> {
    let rec = Record::new(&t240::T, line)?;
    let occurrence = occurrence(FEBRABAN_OCCURRENCES, &rec.text("movimento")?);
    Ok(ReturnTitle {
        line: line.number,
        nosso_numero: strip_zeros(&rec.text("nosso_numero")?),
        document_number: rec.text("numero_documento")?,
        reasons: reasons(&rec.raw_text("motivos")?, &occurrence),
        occurrence,
        due_date: rec.date("vencimento")?,
        face_value: rec.money("valor")?,
        fee: rec.money("tarifa")?,
        paid_amount: Decimal::ZERO,
        interest: Decimal::ZERO,
        discount: Decimal::ZERO,
        rebate: Decimal::ZERO,
        net_amount: None,
        occurrence_date: None,
        credit_date: None,
    })
}

fn read_u(line: &Line, title: ReturnTitle) -> Result<ReturnTitle, CnabError> {
    let rec = Record::new(&t240::U, line)?;
    Ok(ReturnTitle {
        paid_amount: rec.money("valor_pago")?,
        interest: rec.money("juros")?,
        discount: rec.money("desconto")?,
        rebate: rec.money("abatimento")?,
        net_amount: Some(rec.money("valor_liquido")?),
        occurrence_date: rec.date("data_ocorrencia")?,
        credit_date: rec.date("data_credito")?,
        ..title
    })
}

fn parse_400(
    layout: CnabLayout,
    detail: &'static RecordLayout,
    lines: &[Line],
    first: &Line,
) -> Result<ReturnFile, CnabError> {
    if first.at(1) != '0' {
        return Err(CnabError::Structure {
            line: 1,
            reason: "o arquivo não começa pelo header (registro 0)".into(),
        });
    }
    let header = Record::new(&t400::RETURN_HEADER, first)?;
    let mut file = ReturnFile {
        layout,
        bank_code: header.text("banco")?,
        generated_on: header.date("data_geracao")?,
        file_sequence: None,
        titles: Vec::new(),
        issues: Vec::new(),
    };
    // Unicred's files carry Banco do Brasil's code; only flag other banks.
    let expected_codes: &[&str] = match layout {
        CnabLayout::Unicred400 => &["136", "001"],
        _ => &[],
    };
    if !expected_codes.contains(&file.bank_code.as_str()) {
        file.issues.push(bank_mismatch(1, &file.bank_code, layout));
    }
    for line in lines {
        let record_layout = match line.at(1) {
            '0' if line.number == 1 => &t400::RETURN_HEADER,
            '1' => detail,
            '9' => &t400::RETURN_TRAILER,
            other => {
                file.issues.push(CnabError::Structure {
                    line: line.number,
                    reason: format!("tipo de registro '{other}' inesperado"),
                });
                continue;
            }
        };
        let result = Record::new(record_layout, line).and_then(|rec| {
            let sequence = rec.num("sequencial")?;
            if sequence != line.number as u64 {
                file.issues.push(count_issue(
                    line.number,
                    "número sequencial do registro",
                    sequence,
                    line.number as u64,
                ));
            }
            if line.at(1) == '1' {
                file.titles.push(read_unicred(&rec)?);
            }
            Ok(())
        });
        if let Err(e) = result {
            file.issues.push(e);
        }
    }
    Ok(file)
}

fn read_unicred(rec: &Record) -> Result<ReturnTitle, CnabError> {
    let occurrence = occurrence(UNICRED_OCCURRENCES, &rec.text("movimento")?);
    Ok(ReturnTitle {
        line: rec.line.number,
        nosso_numero: strip_zeros(&rec.text("nosso_numero")?),
        document_number: rec.text("numero_documento")?,
        reasons: reasons(&rec.raw_text("motivos")?, &occurrence),
        occurrence,
        due_date: rec.date("vencimento")?,
        face_value: rec.money("valor")?,
        paid_amount: rec.money("valor_pago")?,
        interest: rec.money("juros")?,
        discount: rec.money("desconto")?,
        rebate: rec.money("abatimento")?,
        fee: rec.money("tarifa")?,
        net_amount: None,
        occurrence_date: rec.date("data_ocorrencia")?,
        credit_date: rec.date("data_credito")?,
    })
}
