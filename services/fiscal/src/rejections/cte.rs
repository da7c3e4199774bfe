//! The CT-e's own readings of codes whose NF-e text would mislead.

use super::{explain_with, Explanation, Rejection};

/// The CT-e's own readings of codes whose NF-e text would mislead (the same
/// cStat, the CT-e's fields and screen).
const CTE_REJECTIONS: &[Rejection] = &[
    Rejection {
        c_stat: "528",
        x_motivo: "Rejeição: Valor do ICMS difere do produto BC e Alíquota",
        explanation: "O valor do ICMS do CT-e não bate com a base de cálculo vezes a alíquota. Confira a base, a alíquota e o valor do ICMS no CT-e (deixe o valor em branco para que ele seja calculado) e emita de novo.",
        field: Some("Valor do ICMS"),
        route: Some("/cte"),
    },
    Rejection {
        c_stat: "539",
        x_motivo: "Rejeição: Duplicidade de CT-e com diferença na Chave de Acesso",
        explanation: "Já existe na SEFAZ um CT-e com esta série e este número. Confira a numeração do CT-e (modelo 57) em Numeração de Documentos: o próximo número deve ser posterior ao último emitido.",
        field: Some("Próximo número"),
        route: Some("/numeracoes"),
    },
];

/// [`super::explain`] for a CT-e: its own readings first, then the common
/// table.
pub fn explain_cte(c_stat: &str, x_motivo: &str) -> Explanation {
    explain_with(CTE_REJECTIONS, c_stat, x_motivo)
}
