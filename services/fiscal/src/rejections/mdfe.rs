//! The SEFAZ answers particular to the MDF-e (an earlier manifest not
//! closed, the path states, a duplicate), explained in plain pt-BR; any other
//! code is explained by the common table.

use super::{explain_with, Explanation, Rejection};

const NOT_CLOSED: &str = "Há um MDF-e anterior deste veículo (mesma placa) ainda não encerrado. \
    Encerre o MDF-e da viagem já concluída (botão Encerrar) e emita este de novo.";

/// The MDF-e's own codes.
const MDFE_REJECTIONS: &[Rejection] = &[
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

/// The explanation of `c_stat` for an MDF-e: its own codes first, then the
/// common table; `x_motivo` is the text the SEFAZ sent.
pub fn explain_mdfe(c_stat: &str, x_motivo: &str) -> Explanation {
    explain_with(MDFE_REJECTIONS, c_stat, x_motivo)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_earlier_mdfe_not_closed_says_to_close_it() {
        for code in ["462", "610", "611"] {
            let e = explain_mdfe(code, "");
            assert!(e.known && e.explanation.contains("Encerre"), "{code}");
            assert!(e.x_motivo.starts_with("Rejeição"));
        }
        let dup = explain_mdfe("204", "Rejeição: Duplicidade de MDF-e [chMDFe:...]");
        assert!(dup.explanation.contains("MDF-e"));
        assert_eq!(dup.x_motivo, "Rejeição: Duplicidade de MDF-e [chMDFe:...]");
        // Any other code: the shared table's.
        assert_eq!(explain_mdfe("778", "x").c_stat, "778");
        assert!(!explain_mdfe("999", "x").known);
    }
}
