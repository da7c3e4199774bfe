//! Code tables of the NF-e layout used by the fiscal registers.

/// CST of ICMS (regime normal), NF-e table B.
pub const CST_ICMS: [(&str, &str); 15] = [
    ("00", "00 - Tributada integralmente"),
    (
        "02",
        "02 - Tributação monofásica própria sobre combustíveis",
    ),
    ("10", "10 - Tributada e com cobrança do ICMS por ST"),
    (
        "15",
        "15 - Monofásica própria e com responsabilidade pela retenção sobre combustíveis",
    ),
    ("20", "20 - Com redução de base de cálculo"),
    (
        "30",
        "30 - Isenta ou não tributada e com cobrança do ICMS por ST",
    ),
    ("40", "40 - Isenta"),
    ("41", "41 - Não tributada"),
    ("50", "50 - Suspensão"),
    ("51", "51 - Diferimento"),
    (
        "53",
        "53 - Tributação monofásica sobre combustíveis com recolhimento diferido",
    ),
    ("60", "60 - ICMS cobrado anteriormente por ST"),
    (
        "61",
        "61 - Tributação monofásica sobre combustíveis cobrada anteriormente",
    ),
    (
        "70",
        "70 - Com redução de base de cálculo e cobrança do ICMS por ST",
    ),
    ("90", "90 - Outras"),
];

/// CSOSN (Simples Nacional).
pub const CSOSN: [(&str, &str); 10] = [
    ("101", "101 - Tributada com permissão de crédito"),
    ("102", "102 - Tributada sem permissão de crédito"),
    ("103", "103 - Isenção do ICMS para faixa de receita bruta"),
    (
        "201",
        "201 - Tributada com permissão de crédito e com cobrança do ICMS por ST",
    ),
    (
        "202",
        "202 - Tributada sem permissão de crédito e com cobrança do ICMS por ST",
    ),
    (
        "203",
        "203 - Isenção para faixa de receita bruta e com cobrança do ICMS por ST",
    ),
    ("300", "300 - Imune"),
    ("400", "400 - Não tributada"),
    (
        "500",
        "500 - ICMS cobrado anteriormente por ST ou por antecipação",
    ),
    ("900", "900 - Outros"),
];

pub const CST_IPI: [(&str, &str); 14] = [
    ("00", "00 - Entrada com recuperação de crédito"),
    ("01", "01 - Entrada tributada com alíquota zero"),
    ("02", "02 - Entrada isenta"),
    ("03", "03 - Entrada não tributada"),
    ("04", "04 - Entrada imune"),
    ("05", "05 - Entrada com suspensão"),
    ("49", "49 - Outras entradas"),
    ("50", "50 - Saída tributada"),
    ("51", "51 - Saída tributada com alíquota zero"),
    ("52", "52 - Saída isenta"),
    ("53", "53 - Saída não tributada"),
    ("54", "54 - Saída imune"),
    ("55", "55 - Saída com suspensão"),
    ("99", "99 - Outras saídas"),
];

pub const CST_PIS_COFINS: [(&str, &str); 33] = [
    ("01", "01 - Operação tributável com alíquota básica"),
    ("02", "02 - Operação tributável com alíquota diferenciada"),
    (
        "03",
        "03 - Operação tributável com alíquota por unidade de medida",
    ),
    (
        "04",
        "04 - Operação tributável monofásica - revenda a alíquota zero",
    ),
    ("05", "05 - Operação tributável por substituição tributária"),
    ("06", "06 - Operação tributável a alíquota zero"),
    ("07", "07 - Operação isenta da contribuição"),
    ("08", "08 - Operação sem incidência da contribuição"),
    ("09", "09 - Operação com suspensão da contribuição"),
    ("49", "49 - Outras operações de saída"),
    (
        "50",
        "50 - Crédito vinculado exclusivamente a receita tributada no mercado interno",
    ),
    (
        "51",
        "51 - Crédito vinculado exclusivamente a receita não tributada no mercado interno",
    ),
    (
        "52",
        "52 - Crédito vinculado exclusivamente a receita de exportação",
    ),
    (
        "53",
        "53 - Crédito vinculado a receitas tributadas e não tributadas no mercado interno",
    ),
    (
        "54",
        "54 - Crédito vinculado a receitas tributadas no mercado interno e de exportação",
    ),
    (
        "55",
        "55 - Crédito vinculado a receitas não tributadas no mercado interno e de exportação",
    ),
    (
        "56",
        "56 - Crédito vinculado a receitas tributadas e não tributadas e de exportação",
    ),
    (
        "60",
        "60 - Crédito presumido - receita tributada no mercado interno",
    ),
    (
        "61",
        "61 - Crédito presumido - receita não tributada no mercado interno",
    ),
    ("62", "62 - Crédito presumido - receita de exportação"),
    (
        "63",
        "63 - Crédito presumido - receitas tributadas e não tributadas no mercado interno",
    ),
    (
        "64",
        "64 - Crédito presumido - receitas tributadas no mercado interno e de exportação",
    ),
    (
        "65",
        "65 - Crédito presumido - receitas não tributadas no mercado interno e de exportação",
    ),
    (
        "66",
        "66 - Crédito presumido - receitas tributadas e não tributadas e de exportação",
    ),
    ("67", "67 - Crédito presumido - outras operações"),
    ("70", "70 - Aquisição sem direito a crédito"),
    ("71", "71 - Aquisição com isenção"),
    ("72", "72 - Aquisição com suspensão"),
    ("73", "73 - Aquisição a alíquota zero"),
    ("74", "74 - Aquisição sem incidência da contribuição"),
    ("75", "75 - Aquisição por substituição tributária"),
    ("98", "98 - Outras operações de entrada"),
    ("99", "99 - Outras operações"),
];

pub const OPERATION_TYPES: [(&str, &str); 2] = [("E", "Entrada"), ("S", "Saída")];

/// finNFe.
pub const PURPOSES: [(&str, &str); 4] = [
    ("1", "1 - NF-e normal"),
    ("2", "2 - NF-e complementar"),
    ("3", "3 - NF-e de ajuste"),
    ("4", "4 - Devolução de mercadoria"),
];

/// Fiscal document models (mod) numbered per series.
pub const DOCUMENT_MODELS: [(&str, &str); 8] = [
    ("55", "NF-e"),
    ("65", "NFC-e"),
    ("57", "CT-e"),
    ("67", "CT-e OS"),
    ("58", "MDF-e"),
    ("62", "NFCom"),
    ("66", "NF3e"),
    ("99", "NFS-e"),
];

/// tpAmb.
pub const ENVIRONMENTS: [(&str, &str); 2] = [("1", "1 - Produção"), ("2", "2 - Homologação")];

/// The short name of a document model (`NF-e` for 55).
pub fn model_name(code: &str) -> Option<&'static str> {
    DOCUMENT_MODELS
        .iter()
        .find(|(c, _)| *c == code)
        .map(|(_, n)| *n)
}

/// IBGE codes of the states (cUF).
const UF_CODES: [(&str, i32); 27] = [
    ("RO", 11),
    ("AC", 12),
    ("AM", 13),
    ("RR", 14),
    ("PA", 15),
    ("AP", 16),
    ("TO", 17),
    ("MA", 21),
    ("PI", 22),
    ("CE", 23),
    ("RN", 24),
    ("PB", 25),
    ("PE", 26),
    ("AL", 27),
    ("SE", 28),
    ("BA", 29),
    ("MG", 31),
    ("ES", 32),
    ("RJ", 33),
    ("SP", 35),
    ("PR", 41),
    ("SC", 42),
    ("RS", 43),
    ("MS", 50),
    ("MT", 51),
    ("GO", 52),
    ("DF", 53),
];

pub fn uf_code(uf: &str) -> Option<i32> {
    UF_CODES.iter().find(|(u, _)| *u == uf).map(|(_, c)| *c)
}

/// CT-e type (CTE_TIPO_CTE); the SEFAZ's tpCTe is the code less one.
pub const CTE_TYPES: [(&str, &str); 4] = [
    ("1", "Normal"),
    ("2", "Complemento de valores"),
    ("3", "Anulação"),
    ("4", "Substituto"),
];

/// CT-e service type (CTE_TIPO_SERVICO, the SEFAZ's tpServ).
pub const CTE_SERVICE_TYPES: [(&str, &str); 8] = [
    ("0", "Normal"),
    ("1", "Subcontratação"),
    ("2", "Redespacho"),
    ("3", "Redespacho intermediário"),
    ("4", "Serviço vinculado a multimodal"),
    ("6", "Transporte de pessoas"),
    ("7", "Transporte de valores"),
    ("8", "Excesso de bagagem"),
];

/// CST of the CT-e's ICMS (CTE_CST).
pub const CTE_CST: [(&str, &str); 7] = [
    ("00", "00 - Tributação normal"),
    ("20", "20 - Base de cálculo reduzida"),
    ("40", "40 - Isenta"),
    ("41", "41 - Não tributada"),
    ("51", "51 - Diferimento"),
    ("60", "60 - ICMS cobrado anteriormente por ST"),
    ("90", "90 - Outros"),
];

/// Freight payment (CTE_FRMP_ID).
pub const CTE_FREIGHT_PAYERS: [(&str, &str); 3] =
    [("1", "Pago"), ("2", "A pagar"), ("3", "Outros")];

/// Who takes the service (toma3 0 to 3 the parties of the CT-e, toma4 4).
pub const CTE_TAKERS: [(&str, &str); 5] = [
    ("0", "Remetente"),
    ("1", "Expedidor"),
    ("2", "Recebedor"),
    ("3", "Destinatário"),
    ("4", "Outros"),
];

/// Unit of the cargo's quantity (cUnid).
pub const CTE_UNITS: [(&str, &str); 6] = [
    ("00", "M3"),
    ("01", "KG"),
    ("02", "TON"),
    ("03", "UNIDADE"),
    ("04", "LITROS"),
    ("05", "MMBTU"),
];

/// Modal of the CT-e (only the road one is issued).
pub const CTE_MODALS: [(&str, &str); 1] = [("01", "Rodoviário")];

/// The states' abbreviations (UF).
pub fn is_uf(uf: &str) -> bool {
    uf_code(uf).is_some()
}
