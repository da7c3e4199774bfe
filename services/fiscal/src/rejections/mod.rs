//! The SEFAZ answers (cStat/xMotivo) that most often stop an NF-e, explained
//! for the person who issues it: what went wrong in plain pt-BR, which field
//! to fix and the register screen that holds it.
//!
//! The Nuvem Fiscal passes the SEFAZ's code on in `autorizacao.codigo_status`
//! and its text in `motivo_status`; [`explain`] turns them into an
//! [`Explanation`]. A code not in the table still gets an explanation that
//! shows the code and the SEFAZ text as received.
//!
//! Layout: here the rows, the explanation and its lookup; `nfe`: the common
//! table (the NF-e's codes, which CT-e and MDF-e share); `cte` and `mdfe`:
//! the readings particular to those documents, looked up first.

use serde::Serialize;

mod cte;
mod mdfe;
mod nfe;

pub use cte::explain_cte;
pub use mdfe::explain_mdfe;
pub use nfe::REJECTIONS;

/// One row of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rejection {
    /// cStat.
    pub c_stat: &'static str,
    /// xMotivo as the SEFAZ writes it (the `[nItem:...]`-style details it
    /// appends vary and are left out).
    pub x_motivo: &'static str,
    /// What it means and what to do, for a small-business user.
    pub explanation: &'static str,
    /// The field to fix, in the user's words.
    pub field: Option<&'static str>,
    /// The screen that holds that field.
    pub route: Option<&'static str>,
}

/// What the user is shown for a SEFAZ answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Explanation {
    pub c_stat: String,
    /// The text received, or the table's when none came.
    pub x_motivo: String,
    pub explanation: String,
    pub field: Option<&'static str>,
    pub route: Option<&'static str>,
    /// Whether the code is in the table.
    pub known: bool,
}

/// The explanation of `c_stat` from the common table (the NF-e's, which
/// the CT-e and the MDF-e share); `x_motivo` is the text the SEFAZ sent.
pub fn explain(c_stat: &str, x_motivo: &str) -> Explanation {
    let c_stat = c_stat.trim();
    let received = x_motivo.trim();
    match lookup(c_stat) {
        Some(r) => Explanation::of(r, received),
        None => {
            let motivo = if received.is_empty() {
                "sem descrição"
            } else {
                received
            };
            Explanation {
                c_stat: c_stat.to_string(),
                x_motivo: received.to_string(),
                explanation: format!(
                    "A SEFAZ recusou o documento com o código {c_stat} ({motivo}). Confira os \
                     dados citados na mensagem, corrija o cadastro correspondente e envie de \
                     novo; se a mensagem não for clara, mostre-a ao seu contador."
                ),
                field: None,
                route: None,
                known: false,
            }
        }
    }
}

/// A document's own readings of `c_stat` first (`own`), then the common
/// table's.
pub fn explain_with(own: &[Rejection], c_stat: &str, x_motivo: &str) -> Explanation {
    match own.iter().find(|r| r.c_stat == c_stat.trim()) {
        Some(r) => Explanation::of(r, x_motivo.trim()),
        None => explain(c_stat, x_motivo),
    }
}

impl Explanation {
    /// Row `r` of a table, with the text received (the table's when none).
    fn of(r: &Rejection, received: &str) -> Explanation {
        Explanation {
            c_stat: r.c_stat.to_string(),
            x_motivo: if received.is_empty() {
                r.x_motivo.to_string()
            } else {
                received.to_string()
            },
            explanation: r.explanation.to_string(),
            field: r.field,
            route: r.route,
            known: true,
        }
    }
}

/// The row of `c_stat`, if the table has it.
pub fn lookup(c_stat: &str) -> Option<&'static Rejection> {
    let c_stat = c_stat.trim();
    REJECTIONS.iter().find(|r| r.c_stat == c_stat)
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn the_table_has_at_least_40_distinct_codes() {
        let codes: HashSet<&str> = REJECTIONS.iter().map(|r| r.c_stat).collect();
        assert_eq!(codes.len(), REJECTIONS.len(), "a code appears twice");
        assert!(codes.len() >= 40, "only {} codes", codes.len());
        for code in [
            "204", "539", "225", "778", "301", "302", "806", "213", "209", "210", "215", "228",
            "233", "234", "401", "402", "592", "611", "629", "694", "696", "697", "732", "733",
            "734", "805", "817", "882",
        ] {
            assert!(lookup(code).is_some(), "{code} missing");
        }
    }

    #[test]
    fn rows_are_complete_and_point_at_known_screens() {
        let screens = [
            "/clientes",
            "/produtos",
            "/empresas",
            "/naturezasoperacao",
            "/tributacoes",
            "/numeracoes",
            "/ncm",
        ];
        let mut previous = 0;
        for r in REJECTIONS {
            let code: u32 = r.c_stat.parse().expect("numeric cStat");
            assert!(code > previous, "{} out of order", r.c_stat);
            previous = code;
            assert!(!r.x_motivo.is_empty() && !r.explanation.is_empty());
            if let Some(route) = r.route {
                assert!(screens.contains(&route), "{}: {route}", r.c_stat);
                assert!(r.field.is_some(), "{}: a screen without a field", r.c_stat);
            }
        }
    }

    #[test]
    fn ncm_inexistente_points_at_the_ncm() {
        let e = explain("778", "Rejeição: Informado NCM inexistente [nItem:2]");
        assert!(e.known);
        assert_eq!(e.c_stat, "778");
        assert_eq!(e.x_motivo, "Rejeição: Informado NCM inexistente [nItem:2]");
        assert_eq!(e.field, Some("NCM do produto"));
        assert_eq!(e.route, Some("/ncm"));
        assert!(e.explanation.contains("NCM do produto não existe"));
    }

    #[test]
    fn duplicities_point_at_the_numbering() {
        for code in ["204", "539"] {
            let e = explain(code, "");
            assert_eq!(e.route, Some("/numeracoes"), "{code}");
            assert!(e.x_motivo.contains("Duplicidade de NF-e"), "{code}");
        }
    }

    #[test]
    fn denials_name_who_is_irregular() {
        let emitente = explain("301", "Uso Denegado: Irregularidade fiscal do emitente");
        assert_eq!(emitente.route, Some("/empresas"));
        let destinatario = explain(" 302 ", "");
        assert_eq!(destinatario.route, Some("/clientes"));
        assert!(destinatario.explanation.contains("cliente"));
    }

    #[test]
    fn cfop_and_destination_point_at_the_operation_nature() {
        for code in ["731", "732", "733"] {
            assert_eq!(explain(code, "").route, Some("/naturezasoperacao"));
        }
        assert_eq!(explain("806", "").route, Some("/produtos"));
        assert_eq!(explain("694", "").route, Some("/tributacoes"));
    }

    #[test]
    fn an_unknown_code_still_shows_code_and_text() {
        let e = explain("999", "Rejeição: Erro não catalogado");
        assert!(!e.known);
        assert_eq!(e.route, None);
        assert!(e.explanation.contains("999"));
        assert!(e.explanation.contains("Rejeição: Erro não catalogado"));
        let blank = explain("123", "  ");
        assert!(blank.explanation.contains("sem descrição"));
    }
}
