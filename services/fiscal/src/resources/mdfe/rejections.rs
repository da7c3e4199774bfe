//! The SEFAZ answers particular to the MDF-e (an earlier manifest not
//! closed, the path states, a duplicate), explained in plain pt-BR; any other
//! code is explained by the shared table (`crate::rejections`).

use crate::rejections::{self, Explanation, Rejection};

const NOT_CLOSED: &str = "Há um MDF-e anterior deste veículo (mesma placa) ainda não encerrado. \
    Encerre o MDF-e da viagem já concluída (botão Encerrar) e emita este de novo.";

/// The MDF-e's own codes.
pub const MDFE_REJECTIONS: &[Rejection] = &[
    Rejection {
        c_stat: "204",
        x_motivo: "Rejeição: Duplicidade de MDF-e",
        explanation: "Já existe um MDF-e autorizado com este número e série. Consulte-o (botão Consultar) \
            antes de emitir de novo; se o número for de outro manifesto, ajuste a próxima numeração do modelo 58.",
        field: Some("Número e série do MDF-e"),
        route: Some("/numeracoes"),
    },
    Rejection {
        c_stat: "462",
        x_motivo: "Rejeição: Existe MDF-e não encerrado há mais de 5 dias para placa com até 2 UF de percurso informadas",
        explanation: NOT_CLOSED,
        field: Some("Placa do veículo"),
        route: Some("/mdfe"),
    },
    Rejection {
        c_stat: "610",
        x_motivo: "Rejeição: Existe MDF-e não encerrado para esta placa, UF de carregamento e UF de descarregamento em data de emissão diferente",
        explanation: NOT_CLOSED,
        field: Some("Placa do veículo"),
        route: Some("/mdfe"),
    },
    Rejection {
        c_stat: "611",
        x_motivo: "Rejeição: Existe MDF-e não encerrado para esta placa, tipo de emitente e UF de descarregamento",
        explanation: NOT_CLOSED,
        field: Some("Placa do veículo"),
        route: Some("/mdfe"),
    },
    Rejection {
        c_stat: "663",
        x_motivo: "Rejeição: Percurso informado inválido",
        explanation: "Os estados do percurso não levam da UF de carregamento à de descarregamento. \
            Informe, em ordem, os estados por onde o veículo passa (UF de Percurso); entre estados \
            vizinhos não informe nenhum.",
        field: Some("UF de Percurso"),
        route: Some("/mdfe"),
    },
    Rejection {
        c_stat: "686",
        x_motivo: "Rejeição: Existe MDF-e não encerrado há mais de 30 dias para o emitente",
        explanation: "Sua empresa tem MDF-e autorizado há mais de 30 dias sem encerramento. Encerre os \
            MDF-e das viagens já concluídas (botão Encerrar) e emita este de novo.",
        field: None,
        route: Some("/mdfe"),
    },
];

/// The explanation of `c_stat` for an MDF-e; `x_motivo` is the text the
/// SEFAZ sent.
pub fn explain(c_stat: &str, x_motivo: &str) -> Explanation {
    let code = c_stat.trim();
    match MDFE_REJECTIONS.iter().find(|r| r.c_stat == code) {
        Some(r) => {
            let received = x_motivo.trim();
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
        None => rejections::explain(code, x_motivo),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_earlier_mdfe_not_closed_says_to_close_it() {
        for code in ["462", "610", "611"] {
            let e = explain(code, "");
            assert!(e.known && e.explanation.contains("Encerre"), "{code}");
            assert!(e.x_motivo.starts_with("Rejeição"));
        }
        let dup = explain("204", "Rejeição: Duplicidade de MDF-e [chMDFe:...]");
        assert!(dup.explanation.contains("MDF-e"));
        assert_eq!(dup.x_motivo, "Rejeição: Duplicidade de MDF-e [chMDFe:...]");
        // Any other code: the shared table's.
        assert_eq!(explain("778", "x").c_stat, "778");
        assert!(!explain("999", "x").known);
    }
}
