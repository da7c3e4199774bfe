//! CNAB 400 field tables: Banco do Brasil (convênio of 7 digits, detail type 7)
//! and Itaú remittances, and the Unicred return, declared as data.
//!
//! Positions follow the banks' manuals; where a manual was not at hand the table
//! follows the field positions of open-source implementations that read the same
//! files (cited in the comments) and the shared fixture files. The Unicred return
//! is Banco do Brasil's CBR643 layout as Unicred sends it (the header even names
//! "001 BANCO DO BRASIL"), with the nosso número at 46–62 and the company's
//! document number at 280–305.

use super::layout::{alpha, blank, date6, lit, money, num, text, zeros, RecordLayout};

/// Remittance trailer, identical for both banks.
pub const TRAILER: RecordLayout = RecordLayout {
    name: "CNAB 400 trailer",
    len: 400,
    parts: &[&[
        lit("registro", 1, 1, "9"),
        blank(2, 394),
        num("sequencial", 395, 400),
    ]],
};

// ---- Banco do Brasil (001), CBR641, convênio of 7 digits ----------------------

pub const BB_HEADER: RecordLayout = RecordLayout {
    name: "Banco do Brasil 400 header",
    len: 400,
    parts: &[&[
        lit("registro", 1, 1, "0"),
        lit("operacao", 2, 2, "1"),
        lit("literal_remessa", 3, 9, "REMESSA"),
        lit("servico", 10, 11, "01"),
        lit("literal_servico", 12, 19, "COBRANCA"),
        blank(20, 26),
        num("agencia", 27, 30),
        alpha("agencia_dv", 31, 31),
        num("conta", 32, 39),
        alpha("conta_dv", 40, 40),
        zeros(41, 46),
        text("nome_empresa", 47, 76),
        lit("banco", 77, 79, "001"),
        lit("nome_banco", 80, 94, "BANCODOBRASIL"),
        date6("data_geracao", 95, 100),
        num("nsa", 101, 107),
        blank(108, 129),
        num("convenio", 130, 136),
        blank(137, 394),
        num("sequencial", 395, 400),
    ]],
};

pub const BB_DETAIL: RecordLayout = RecordLayout {
    name: "Banco do Brasil 400 detalhe (tipo 7)",
    len: 400,
    parts: &[&[
        lit("registro", 1, 1, "7"),
        num("tipo_inscricao_empresa", 2, 3),
        num("inscricao_empresa", 4, 17),
        num("agencia", 18, 21),
        alpha("agencia_dv", 22, 22),
        num("conta", 23, 30),
        alpha("conta_dv", 31, 31),
        num("convenio", 32, 38),
        alpha("uso_empresa", 39, 63),
        num("convenio_nosso_numero", 64, 70),
        num("nosso_numero", 71, 80),
        zeros(81, 84),
        blank(85, 91),
        num("variacao", 92, 94),
        zeros(95, 101),
        blank(102, 106),
        num("carteira", 107, 108),
        num("movimento", 109, 110),
        alpha("numero_documento", 111, 120),
        date6("vencimento", 121, 126),
        money("valor", 127, 139, 2),
        lit("banco", 140, 142, "001"),
        zeros(143, 146),
        blank(147, 147),
        lit("especie", 148, 149, "01"),
        lit("aceite", 150, 150, "N"),
        date6("emissao", 151, 156),
        num("instrucao_1", 157, 158),
        lit("instrucao_2", 159, 160, "00"),
        money("juros", 161, 173, 2),
        date6("data_desconto", 174, 179),
        money("desconto", 180, 192, 2),
        zeros(193, 205),
        zeros(206, 218),
        num("tipo_inscricao", 219, 220),
        num("inscricao", 221, 234),
        text("nome", 235, 271),
        blank(272, 274),
        text("endereco", 275, 314),
        text("bairro", 315, 326),
        num("cep", 327, 334),
        text("cidade", 335, 349),
        alpha("uf", 350, 351),
        blank(352, 391),
        num("prazo_protesto", 392, 393),
        blank(394, 394),
        num("sequencial", 395, 400),
    ]],
};

// ---- Itaú (341) ---------------------------------------------------------------------

pub const ITAU_HEADER: RecordLayout = RecordLayout {
    name: "Itaú 400 header",
    len: 400,
    parts: &[&[
        lit("registro", 1, 1, "0"),
        lit("operacao", 2, 2, "1"),
        lit("literal_remessa", 3, 9, "REMESSA"),
        lit("servico", 10, 11, "01"),
        lit("literal_servico", 12, 26, "COBRANCA"),
        num("agencia", 27, 30),
        zeros(31, 32),
        num("conta", 33, 37),
        alpha("conta_dv", 38, 38),
        blank(39, 46),
        text("nome_empresa", 47, 76),
        lit("banco", 77, 79, "341"),
        lit("nome_banco", 80, 94, "BANCO ITAU SA"),
        date6("data_geracao", 95, 100),
        blank(101, 394),
        num("sequencial", 395, 400),
    ]],
};

pub const ITAU_DETAIL: RecordLayout = RecordLayout {
    name: "Itaú 400 detalhe",
    len: 400,
    parts: &[&[
        lit("registro", 1, 1, "1"),
        num("tipo_inscricao_empresa", 2, 3),
        num("inscricao_empresa", 4, 17),
        num("agencia", 18, 21),
        zeros(22, 23),
        num("conta", 24, 28),
        alpha("conta_dv", 29, 29),
        blank(30, 33),
        lit("instrucao_alegacao", 34, 37, "0000"),
        alpha("uso_empresa", 38, 62),
        num("nosso_numero", 63, 70),
        zeros(71, 83),
        num("carteira", 84, 86),
        blank(87, 107),
        lit("codigo_carteira", 108, 108, "I"),
        num("movimento", 109, 110),
        alpha("numero_documento", 111, 120),
        date6("vencimento", 121, 126),
        money("valor", 127, 139, 2),
        lit("banco", 140, 142, "341"),
        zeros(143, 147),
        lit("especie", 148, 149, "01"),
        lit("aceite", 150, 150, "N"),
        date6("emissao", 151, 156),
        num("instrucao_1", 157, 158),
        lit("instrucao_2", 159, 160, "00"),
        money("juros", 161, 173, 2),
        date6("data_desconto", 174, 179),
        money("desconto", 180, 192, 2),
        zeros(193, 205),
        zeros(206, 218),
        num("tipo_inscricao", 219, 220),
        num("inscricao", 221, 234),
        text("nome", 235, 264),
        blank(265, 274),
        text("endereco", 275, 314),
        text("bairro", 315, 326),
        num("cep", 327, 334),
        text("cidade", 335, 349),
        alpha("uf", 350, 351),
        blank(352, 385),
        zeros(386, 391),
        num("prazo_protesto", 392, 393),
        blank(394, 394),
        num("sequencial", 395, 400),
    ]],
};

// ---- returns ---------------------------------------------------------------------------

/// Return header: only identification fields are typed.
pub const RETURN_HEADER: RecordLayout = RecordLayout {
    name: "CNAB 400 header (retorno)",
    len: 400,
    parts: &[&[
        alpha("registro", 1, 1),
        alpha("operacao", 2, 2),
        alpha("literal", 3, 76),
        alpha("banco", 77, 79),
        alpha("nome_banco", 80, 94),
        date6("data_geracao", 95, 100),
        alpha("resto", 101, 394),
        num("sequencial", 395, 400),
    ]],
};

/// Return trailer: totals are bank-specific and not interpreted.
pub const RETURN_TRAILER: RecordLayout = RecordLayout {
    name: "CNAB 400 trailer (retorno)",
    len: 400,
    parts: &[&[
        alpha("registro", 1, 1),
        alpha("totais", 2, 394),
        num("sequencial", 395, 400),
    ]],
};

/// Unicred detail; positions as read by eduardokum/laravel-boleto
/// (src/Cnab/Retorno/Cnab400/Banco/Unicred.php) and kivanio/brcobranca
/// (lib/brcobranca/retorno/cnab400/banco_brasil.rb, CBR643) for the amounts.
pub const UNICRED_RETURN_DETAIL: RecordLayout = RecordLayout {
    name: "Unicred 400 detalhe (retorno)",
    len: 400,
    parts: &[&[
        lit("registro", 1, 1, "1"),
        alpha("tipo_inscricao_empresa", 2, 3),
        alpha("inscricao_empresa", 4, 17),
        alpha("agencia", 18, 21),
        alpha("agencia_dv", 22, 22),
        alpha("conta", 23, 30),
        alpha("conta_dv", 31, 31),
        alpha("uso_banco", 32, 45),
        alpha("nosso_numero", 46, 62),
        alpha("uso_banco_2", 63, 106),
        alpha("carteira", 107, 108),
        alpha("movimento", 109, 110),
        date6("data_ocorrencia", 111, 116),
        alpha("brancos_117", 117, 146),
        date6("vencimento", 147, 152),
        money("valor", 153, 165, 2),
        alpha("banco_cobrador", 166, 168),
        alpha("agencia_cobradora", 169, 173),
        alpha("especie", 174, 175),
        date6("data_credito", 176, 181),
        money("tarifa", 182, 188, 2),
        money("outras_despesas", 189, 201, 2),
        alpha("juros_desconto", 202, 214),
        money("iof", 215, 227, 2),
        money("abatimento", 228, 240, 2),
        money("desconto", 241, 253, 2),
        money("valor_pago", 254, 266, 2),
        money("juros", 267, 279, 2),
        alpha("numero_documento", 280, 305),
        alpha("uso_banco_3", 306, 318),
        alpha("motivos", 319, 326),
        alpha("brancos_327", 327, 394),
        num("sequencial", 395, 400),
    ]],
};
