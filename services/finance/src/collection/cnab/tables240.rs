//! CNAB 240 field tables (FEBRABAN layout and the variants of Santander, Caixa
//! SIGCB, Sicredi and Ailos; the returns of these and of Banco do Brasil and
//! Sicoob), declared as data.
//!
//! The common FEBRABAN pieces are declared once and each bank replaces only the
//! regions its manual defines differently (the account block of the headers and
//! of segment P, collection agency and species, write-off and currency codes).
//! Constants carry the values the banks expect (modalidade `14` at Caixa, the
//! `REMESSA-PRODUCAO` marker, layout versions), taken from the banks' manuals as
//! reflected in the shared fixture files. Return segments T and U use the
//! FEBRABAN positions, which every bank here follows (Sicoob splits the nosso
//! número field); only the fields the parser reads are named, the rest are
//! fillers that are never interpreted.

use super::layout::{alpha, blank, date8, lit, money, num, text, zeros, Field, RecordLayout};

// ---- pieces shared by several banks -------------------------------------

const FILE_HEADER_START: &[Field] = &[
    num("banco", 1, 3),
    lit("lote", 4, 7, "0000"),
    lit("registro", 8, 8, "0"),
    blank(9, 17),
    num("tipo_inscricao", 18, 18),
    num("inscricao", 19, 32),
];

const BATCH_HEADER_START: &[Field] = &[
    num("banco", 1, 3),
    num("lote", 4, 7),
    lit("registro", 8, 8, "1"),
    lit("operacao", 9, 9, "R"),
    lit("servico", 10, 11, "01"),
];

const BATCH_HEADER_END: &[Field] = &[
    text("nome_empresa", 74, 103),
    text("mensagem_1", 104, 143),
    text("mensagem_2", 144, 183),
    num("numero_remessa", 184, 191),
    date8("data_gravacao", 192, 199),
    date8("data_credito", 200, 207),
    blank(208, 240),
];

const P_START: &[Field] = &[
    num("banco", 1, 3),
    num("lote", 4, 7),
    lit("registro", 8, 8, "3"),
    num("sequencial", 9, 13),
    lit("segmento", 14, 14, "P"),
    blank(15, 15),
    num("movimento", 16, 17),
];

const P_DUE: &[Field] = &[date8("vencimento", 78, 85), money("valor", 86, 100, 2)];

const P_CHARGES: &[Field] = &[
    lit("aceite", 109, 109, "N"),
    date8("emissao", 110, 117),
    num("codigo_juros", 118, 118),
    date8("data_juros", 119, 126),
    money("juros", 127, 141, 2),
    num("codigo_desconto", 142, 142),
    date8("data_desconto", 143, 150),
    money("desconto", 151, 165, 2),
    zeros(166, 180),
    zeros(181, 195),
    alpha("uso_empresa", 196, 220),
    num("codigo_protesto", 221, 221),
    num("prazo_protesto", 222, 223),
];

const Q_COMMON: &[Field] = &[
    num("banco", 1, 3),
    num("lote", 4, 7),
    lit("registro", 8, 8, "3"),
    num("sequencial", 9, 13),
    lit("segmento", 14, 14, "Q"),
    blank(15, 15),
    num("movimento", 16, 17),
    num("tipo_inscricao", 18, 18),
    num("inscricao", 19, 33),
    text("nome", 34, 73),
    text("endereco", 74, 113),
    text("bairro", 114, 128),
    num("cep", 129, 136),
    text("cidade", 137, 151),
    alpha("uf", 152, 153),
    lit("tipo_inscricao_avalista", 154, 154, "0"),
    zeros(155, 169),
    blank(170, 209),
];

const Q_END_FEBRABAN: &[Field] = &[
    lit("banco_correspondente", 210, 212, "000"),
    blank(213, 240),
];

const R_COMMON: &[Field] = &[
    num("banco", 1, 3),
    num("lote", 4, 7),
    lit("registro", 8, 8, "3"),
    num("sequencial", 9, 13),
    lit("segmento", 14, 14, "R"),
    blank(15, 15),
    num("movimento", 16, 17),
    lit("codigo_desconto_2", 18, 18, "0"),
    zeros(19, 41),
    lit("codigo_desconto_3", 42, 42, "0"),
    zeros(43, 65),
    num("codigo_multa", 66, 66),
    date8("data_multa", 67, 74),
    money("multa", 75, 89, 2),
    blank(90, 99),
    text("mensagem_3", 100, 139),
    text("mensagem_4", 140, 179),
];

const BATCH_TRAILER_START: &[Field] = &[
    num("banco", 1, 3),
    num("lote", 4, 7),
    lit("registro", 8, 8, "5"),
    blank(9, 17),
    num("quantidade_registros", 18, 23),
];

const BATCH_TRAILER_TOTALS: &[Field] = &[
    num("quantidade_titulos", 24, 29),
    money("valor_titulos", 30, 46, 2),
];

const FILE_TRAILER_START: &[Field] = &[
    num("banco", 1, 3),
    lit("lote", 4, 7, "9999"),
    lit("registro", 8, 8, "9"),
    blank(9, 17),
    num("quantidade_lotes", 18, 23),
    num("quantidade_registros", 24, 29),
];

const BLANK_TO_END_30: &[Field] = &[blank(30, 240)];

// ---- Caixa (104), SIGCB ---------------------------------------------------

pub const CAIXA_FILE_HEADER: RecordLayout = RecordLayout {
    name: "Caixa 240 header de arquivo",
    len: 240,
    parts: &[
        FILE_HEADER_START,
        &[
            zeros(33, 52),
            num("agencia", 53, 57),
            alpha("agencia_dv", 58, 58),
            num("convenio", 59, 64),
            zeros(65, 72),
            text("nome_empresa", 73, 102),
            lit("nome_banco", 103, 132, "CAIXA ECONOMICA FEDERAL"),
            blank(133, 142),
            lit("codigo_arquivo", 143, 143, "1"),
            date8("data_geracao", 144, 151),
            num("hora_geracao", 152, 157),
            num("nsa", 158, 163),
            lit("versao", 164, 166, "050"),
            lit("densidade", 167, 171, "00000"),
            blank(172, 191),
            lit("situacao_arquivo", 192, 211, "REMESSA-PRODUCAO"),
            blank(212, 240),
        ],
    ],
};

pub const CAIXA_BATCH_HEADER: RecordLayout = RecordLayout {
    name: "Caixa 240 header de lote",
    len: 240,
    parts: &[
        BATCH_HEADER_START,
        &[
            lit("reservado", 12, 13, "00"),
            lit("versao", 14, 16, "030"),
            blank(17, 17),
            num("tipo_inscricao", 18, 18),
            num("inscricao", 19, 33),
            num("convenio", 34, 39),
            zeros(40, 53),
            num("agencia", 54, 58),
            alpha("agencia_dv", 59, 59),
            num("convenio_repetido", 60, 65),
            zeros(66, 73),
        ],
        BATCH_HEADER_END,
    ],
};

pub const CAIXA_P: RecordLayout = RecordLayout {
    name: "Caixa 240 segmento P",
    len: 240,
    parts: &[
        P_START,
        &[
            num("agencia", 18, 22),
            alpha("agencia_dv", 23, 23),
            num("convenio", 24, 29),
            zeros(30, 40),
            lit("modalidade", 41, 42, "14"),
            num("nosso_numero", 43, 57),
            num("carteira", 58, 58),
            lit("forma_cadastramento", 59, 59, "1"),
            lit("tipo_documento", 60, 60, "2"),
            lit("emissao_boleto", 61, 61, "2"),
            lit("distribuicao", 62, 62, "0"),
            alpha("numero_documento", 63, 73),
            blank(74, 77),
        ],
        P_DUE,
        &[zeros(101, 106), lit("especie", 107, 108, "02")],
        P_CHARGES,
        &[
            lit("baixa", 224, 227, "2000"),
            lit("moeda", 228, 229, "09"),
            zeros(230, 239),
            blank(240, 240),
        ],
    ],
};

pub const CAIXA_Q: RecordLayout = RecordLayout {
    name: "Caixa 240 segmento Q",
    len: 240,
    parts: &[Q_COMMON, Q_END_FEBRABAN],
};

pub const CAIXA_R: RecordLayout = RecordLayout {
    name: "Caixa 240 segmento R",
    len: 240,
    parts: &[R_COMMON, &[blank(180, 240)]],
};

pub const CAIXA_BATCH_TRAILER: RecordLayout = RecordLayout {
    name: "Caixa 240 trailer de lote",
    len: 240,
    parts: &[
        BATCH_TRAILER_START,
        BATCH_TRAILER_TOTALS,
        &[zeros(47, 92), blank(93, 240)],
    ],
};

pub const CAIXA_FILE_TRAILER: RecordLayout = RecordLayout {
    name: "Caixa 240 trailer de arquivo",
    len: 240,
    parts: &[FILE_TRAILER_START, BLANK_TO_END_30],
};

// ---- Santander (033) --------------------------------------------------------

pub const SANTANDER_FILE_HEADER: RecordLayout = RecordLayout {
    name: "Santander 240 header de arquivo",
    len: 240,
    parts: &[&[
        num("banco", 1, 3),
        lit("lote", 4, 7, "0000"),
        lit("registro", 8, 8, "0"),
        blank(9, 16),
        num("tipo_inscricao", 17, 17),
        num("inscricao", 18, 32),
        num("convenio", 33, 47),
        blank(48, 72),
        text("nome_empresa", 73, 102),
        lit("nome_banco", 103, 132, "BANCO SANTANDER"),
        blank(133, 142),
        lit("codigo_arquivo", 143, 143, "1"),
        date8("data_geracao", 144, 151),
        blank(152, 157),
        num("nsa", 158, 163),
        lit("versao", 164, 166, "040"),
        blank(167, 240),
    ]],
};

pub const SANTANDER_BATCH_HEADER: RecordLayout = RecordLayout {
    name: "Santander 240 header de lote",
    len: 240,
    parts: &[
        BATCH_HEADER_START,
        &[
            blank(12, 13),
            lit("versao", 14, 16, "030"),
            blank(17, 17),
            num("tipo_inscricao", 18, 18),
            num("inscricao", 19, 33),
            blank(34, 53),
            num("convenio", 54, 68),
            blank(69, 73),
        ],
        BATCH_HEADER_END,
    ],
};

pub const SANTANDER_P: RecordLayout = RecordLayout {
    name: "Santander 240 segmento P",
    len: 240,
    parts: &[
        P_START,
        &[
            num("agencia", 18, 21),
            num("agencia_dv", 22, 22),
            num("conta", 23, 31),
            num("conta_dv", 32, 32),
            num("conta_cobranca", 33, 41),
            num("conta_cobranca_dv", 42, 42),
            blank(43, 44),
            num("nosso_numero", 45, 57),
            num("carteira", 58, 58),
            lit("forma_cadastramento", 59, 59, "1"),
            lit("tipo_documento", 60, 60, "2"),
            blank(61, 62),
            alpha("numero_documento", 63, 77),
        ],
        P_DUE,
        &[
            zeros(101, 105),
            blank(106, 106),
            lit("especie", 107, 108, "02"),
        ],
        P_CHARGES,
        &[
            lit("baixa", 224, 227, "3000"),
            lit("moeda", 228, 229, "00"),
            blank(230, 240),
        ],
    ],
};

pub const SANTANDER_Q: RecordLayout = RecordLayout {
    name: "Santander 240 segmento Q",
    len: 240,
    parts: &[
        Q_COMMON,
        &[lit("carne", 210, 221, "000000000000"), blank(222, 240)],
    ],
};

pub const SANTANDER_R: RecordLayout = RecordLayout {
    name: "Santander 240 segmento R",
    len: 240,
    parts: &[R_COMMON, &[blank(180, 240)]],
};

pub const SANTANDER_BATCH_TRAILER: RecordLayout = RecordLayout {
    name: "Santander 240 trailer de lote",
    len: 240,
    parts: &[BATCH_TRAILER_START, &[blank(24, 240)]],
};

pub const SANTANDER_FILE_TRAILER: RecordLayout = RecordLayout {
    name: "Santander 240 trailer de arquivo",
    len: 240,
    parts: &[FILE_TRAILER_START, BLANK_TO_END_30],
};

// ---- Sicredi (748) ------------------------------------------------------------

pub const SICREDI_FILE_HEADER: RecordLayout = RecordLayout {
    name: "Sicredi 240 header de arquivo",
    len: 240,
    parts: &[
        FILE_HEADER_START,
        &[
            blank(33, 52),
            num("agencia", 53, 57),
            blank(58, 58),
            num("conta", 59, 70),
            alpha("conta_dv", 71, 71),
            blank(72, 72),
            text("nome_empresa", 73, 102),
            lit("nome_banco", 103, 132, "SICREDI"),
            blank(133, 142),
            lit("codigo_arquivo", 143, 143, "1"),
            date8("data_geracao", 144, 151),
            num("hora_geracao", 152, 157),
            num("nsa", 158, 163),
            lit("versao", 164, 166, "081"),
            lit("densidade", 167, 171, "01600"),
            blank(172, 240),
        ],
    ],
};

pub const SICREDI_BATCH_HEADER: RecordLayout = RecordLayout {
    name: "Sicredi 240 header de lote",
    len: 240,
    parts: &[
        BATCH_HEADER_START,
        &[
            blank(12, 13),
            lit("versao", 14, 16, "040"),
            blank(17, 17),
            num("tipo_inscricao", 18, 18),
            num("inscricao", 19, 33),
            blank(34, 53),
            num("agencia", 54, 58),
            blank(59, 59),
            num("conta", 60, 71),
            alpha("conta_dv", 72, 72),
            blank(73, 73),
        ],
        BATCH_HEADER_END,
    ],
};

pub const SICREDI_P: RecordLayout = RecordLayout {
    name: "Sicredi 240 segmento P",
    len: 240,
    parts: &[
        P_START,
        &[
            num("agencia", 18, 22),
            blank(23, 23),
            num("conta", 24, 35),
            alpha("conta_dv", 36, 36),
            blank(37, 37),
            alpha("nosso_numero", 38, 57),
            num("carteira", 58, 58),
            lit("forma_cadastramento", 59, 59, "1"),
            lit("tipo_documento", 60, 60, "1"),
            lit("emissao_boleto", 61, 61, "2"),
            lit("distribuicao", 62, 62, "2"),
            alpha("numero_documento", 63, 77),
        ],
        P_DUE,
        &[
            lit("agencia_cobradora", 101, 106, "00000"),
            lit("especie", 107, 108, "03"),
        ],
        P_CHARGES,
        &[
            lit("baixa", 224, 227, "1060"),
            lit("moeda", 228, 229, "09"),
            zeros(230, 239),
            blank(240, 240),
        ],
    ],
};

pub const SICREDI_Q: RecordLayout = RecordLayout {
    name: "Sicredi 240 segmento Q",
    len: 240,
    parts: &[Q_COMMON, Q_END_FEBRABAN],
};

pub const SICREDI_R: RecordLayout = RecordLayout {
    name: "Sicredi 240 segmento R",
    len: 240,
    parts: &[
        R_COMMON,
        &[
            blank(180, 199),
            lit(
                "debito_automatico",
                200,
                231,
                "0000000000000000 000000000000  0",
            ),
            blank(232, 240),
        ],
    ],
};

pub const SICREDI_BATCH_TRAILER: RecordLayout = RecordLayout {
    name: "Sicredi 240 trailer de lote",
    len: 240,
    parts: &[
        BATCH_TRAILER_START,
        BATCH_TRAILER_TOTALS,
        &[zeros(47, 115), blank(116, 240)],
    ],
};

pub const SICREDI_FILE_TRAILER: RecordLayout = RecordLayout {
    name: "Sicredi 240 trailer de arquivo",
    len: 240,
    parts: &[FILE_TRAILER_START, &[zeros(30, 35), blank(36, 240)]],
};

// ---- Ailos (085) ----------------------------------------------------------------

const AILOS_ACCOUNT_HEADER: &[Field] = &[
    num("agencia", 53, 57),
    alpha("agencia_dv", 58, 58),
    num("conta", 59, 70),
    alpha("conta_dv", 71, 71),
    blank(72, 72),
];

pub const AILOS_FILE_HEADER: RecordLayout = RecordLayout {
    name: "Ailos 240 header de arquivo",
    len: 240,
    parts: &[
        FILE_HEADER_START,
        &[alpha("convenio", 33, 52)],
        AILOS_ACCOUNT_HEADER,
        &[
            text("nome_empresa", 73, 102),
            lit("nome_banco", 103, 132, "AILOS"),
            blank(133, 142),
            lit("codigo_arquivo", 143, 143, "1"),
            date8("data_geracao", 144, 151),
            num("hora_geracao", 152, 157),
            num("nsa", 158, 163),
            lit("versao", 164, 166, "087"),
            lit("densidade", 167, 171, "00000"),
            blank(172, 240),
        ],
    ],
};

pub const AILOS_BATCH_HEADER: RecordLayout = RecordLayout {
    name: "Ailos 240 header de lote",
    len: 240,
    parts: &[
        BATCH_HEADER_START,
        &[
            blank(12, 13),
            lit("versao", 14, 16, "045"),
            blank(17, 17),
            num("tipo_inscricao", 18, 18),
            num("inscricao", 19, 33),
            alpha("convenio", 34, 53),
            num("agencia", 54, 58),
            alpha("agencia_dv", 59, 59),
            num("conta", 60, 71),
            alpha("conta_dv", 72, 72),
            blank(73, 73),
        ],
        BATCH_HEADER_END,
    ],
};

pub const AILOS_P: RecordLayout = RecordLayout {
    name: "Ailos 240 segmento P",
    len: 240,
    parts: &[
        P_START,
        &[
            num("agencia", 18, 22),
            alpha("agencia_dv", 23, 23),
            num("conta", 24, 35),
            alpha("conta_dv", 36, 36),
            blank(37, 37),
            alpha("nosso_numero", 38, 57),
            num("carteira", 58, 58),
            lit("forma_cadastramento", 59, 59, "0"),
            lit("tipo_documento", 60, 60, "1"),
            lit("emissao_boleto", 61, 61, "2"),
            lit("distribuicao", 62, 62, "2"),
            alpha("numero_documento", 63, 77),
        ],
        P_DUE,
        &[zeros(101, 106), lit("especie", 107, 108, "02")],
        P_CHARGES,
        &[
            lit("baixa", 224, 227, "2"),
            lit("moeda", 228, 229, "09"),
            zeros(230, 239),
            blank(240, 240),
        ],
    ],
};

pub const AILOS_Q: RecordLayout = RecordLayout {
    name: "Ailos 240 segmento Q",
    len: 240,
    parts: &[Q_COMMON, Q_END_FEBRABAN],
};

pub const AILOS_R: RecordLayout = RecordLayout {
    name: "Ailos 240 segmento R",
    len: 240,
    parts: &[R_COMMON, &[blank(180, 240)]],
};

pub const AILOS_BATCH_TRAILER: RecordLayout = RecordLayout {
    name: "Ailos 240 trailer de lote",
    len: 240,
    parts: &[
        BATCH_TRAILER_START,
        BATCH_TRAILER_TOTALS,
        &[zeros(47, 115), blank(116, 240)],
    ],
};

pub const AILOS_FILE_TRAILER: RecordLayout = RecordLayout {
    name: "Ailos 240 trailer de arquivo",
    len: 240,
    parts: &[FILE_TRAILER_START, BLANK_TO_END_30],
};

// ---- return records (FEBRABAN positions, every CNAB 240 bank) -------------------

/// File header as read from a return: only identification fields are typed.
pub const RETURN_FILE_HEADER: RecordLayout = RecordLayout {
    name: "CNAB 240 header de arquivo (retorno)",
    len: 240,
    parts: &[&[
        alpha("banco", 1, 3),
        alpha("lote", 4, 7),
        alpha("registro", 8, 8),
        blank(9, 17),
        alpha("tipo_inscricao", 18, 18),
        alpha("inscricao", 19, 32),
        alpha("conteudo", 33, 142),
        alpha("codigo_arquivo", 143, 143),
        date8("data_geracao", 144, 151),
        alpha("hora_geracao", 152, 157),
        num("nsa", 158, 163),
        alpha("reservado", 164, 240),
    ]],
};

const T_START: &[Field] = &[
    alpha("banco", 1, 3),
    alpha("lote", 4, 7),
    alpha("registro", 8, 8),
    alpha("sequencial", 9, 13),
    alpha("segmento", 14, 14),
    blank(15, 15),
    alpha("movimento", 16, 17),
    alpha("conta_empresa", 18, 37),
];

const T_END: &[Field] = &[
    alpha("carteira", 58, 58),
    alpha("numero_documento", 59, 73),
    date8("vencimento", 74, 81),
    money("valor", 82, 96, 2),
    alpha("banco_cobrador", 97, 99),
    alpha("agencia_cobradora", 100, 105),
    alpha("uso_empresa", 106, 130),
    alpha("moeda", 131, 132),
    alpha("tipo_inscricao", 133, 133),
    alpha("inscricao", 134, 148),
    alpha("nome", 149, 188),
    alpha("contrato", 189, 198),
    money("tarifa", 199, 213, 2),
    alpha("motivos", 214, 223),
    blank(224, 240),
];

pub const T: RecordLayout = RecordLayout {
    name: "CNAB 240 segmento T",
    len: 240,
    parts: &[T_START, &[alpha("nosso_numero", 38, 57)], T_END],
};

/// Sicoob's segment T: the nosso número field holds the number (9 digits, the
/// first two zeros), its check digit, the instalment, the modality and the form
/// type (Sicoob's CNAB 240 manual as read by kivanio/brcobranca,
/// lib/brcobranca/retorno/cnab240/sicoob.rb, and eduardokum/laravel-boleto,
/// src/Cnab/Retorno/Cnab240/Banco/Bancoob.php).
pub const SICOOB_T: RecordLayout = RecordLayout {
    name: "Sicoob 240 segmento T",
    len: 240,
    parts: &[
        T_START,
        &[
            alpha("nosso_numero", 38, 46),
            alpha("nosso_numero_dv", 47, 47),
            alpha("parcela", 48, 49),
            alpha("modalidade", 50, 51),
            alpha("tipo_formulario", 52, 52),
            blank(53, 57),
        ],
        T_END,
    ],
};

pub const U: RecordLayout = RecordLayout {
    name: "CNAB 240 segmento U",
    len: 240,
    parts: &[&[
        alpha("banco", 1, 3),
        alpha("lote", 4, 7),
        alpha("registro", 8, 8),
        alpha("sequencial", 9, 13),
        alpha("segmento", 14, 14),
        blank(15, 15),
        alpha("movimento", 16, 17),
        money("juros", 18, 32, 2),
        money("desconto", 33, 47, 2),
        money("abatimento", 48, 62, 2),
        money("iof", 63, 77, 2),
        money("valor_pago", 78, 92, 2),
        money("valor_liquido", 93, 107, 2),
        money("outras_despesas", 108, 122, 2),
        money("outros_creditos", 123, 137, 2),
        date8("data_ocorrencia", 138, 145),
        date8("data_credito", 146, 153),
        alpha("ocorrencia_pagador", 154, 240),
    ]],
};

/// Any other 240 record of a return (batch header, other segments): only the
/// control fields are read.
pub const RETURN_OTHER: RecordLayout = RecordLayout {
    name: "CNAB 240 registro de controle (retorno)",
    len: 240,
    parts: &[&[
        alpha("banco", 1, 3),
        alpha("lote", 4, 7),
        alpha("registro", 8, 8),
        alpha("conteudo", 9, 240),
    ]],
};

pub const RETURN_BATCH_TRAILER: RecordLayout = RecordLayout {
    name: "CNAB 240 trailer de lote (retorno)",
    len: 240,
    parts: &[BATCH_TRAILER_START, &[alpha("totais", 24, 240)]],
};

pub const RETURN_FILE_TRAILER: RecordLayout = RecordLayout {
    name: "CNAB 240 trailer de arquivo (retorno)",
    len: 240,
    parts: &[FILE_TRAILER_START, &[alpha("resto", 30, 240)]],
};
