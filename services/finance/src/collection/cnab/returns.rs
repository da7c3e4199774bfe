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
//!   A line longer than the record is such an unreadable line (nothing tells
//!   where the extra columns are); a shorter one is completed with blanks (what
//!   was cut is filler) and counted in [`ReturnFile::padded_lines`], which the
//!   answer to the user states ([`ReturnFile::notices`]).
//! - The file itself is refused when it is not a return of the layout: binary
//!   content, a first record that is not a header (or a CNAB 400 header that does
//!   not say `2RETORNO`), another bank's code, a remittance's segment P. Without
//!   that, another bank's titles would be matched against this account's slips.
//!   An unreadable generation date or sequence in the header is only an issue
//!   (the Sicoob fixture's header has lost positions and brcobranca never reads
//!   it).
//! - Occurrence and reason descriptions come from each bank's tables: FEBRABAN
//!   CNAB 240 (C044 occurrences, C047 rejection reasons) for every CNAB 240 bank,
//!   and the CNAB 400 tables of Itaú, Bradesco, Banco do Brasil (CBR643) and
//!   Unicred. Reason codes are described only for the occurrences whose reasons
//!   the table lists (the rejections), since the same codes mean other things
//!   (e.g. payment channel) for settlements.
//! - What was paid: the layouts' "valor pago"; Itaú reports only the amount
//!   credited ("valor principal", the fee already deducted), so a settlement's
//!   paid amount is that plus the fee, and the credit stays in `net_amount`.

use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::super::barcode::bradesco_nosso_numero_dv;
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
    /// As the bank returns it, without leading zeros (and without the check
    /// digit where the layout gives the digit its own field: Bradesco, Sicoob).
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
    /// Lines shorter than the record, read as if completed with blanks.
    pub padded_lines: usize,
}

impl ReturnFile {
    /// Titles the bank reports as paid.
    pub fn settled(&self) -> impl Iterator<Item = &ReturnTitle> {
        self.titles
            .iter()
            .filter(|t| t.occurrence.kind == OccurrenceKind::Settled)
    }

    /// What the user is told about how the file was read (pt-BR), e.g. that
    /// lines were completed with blanks.
    pub fn notices(&self) -> Vec<String> {
        let len = self.layout.record_len();
        match self.padded_lines {
            0 => Vec::new(),
            1 => vec![format!(
                "1 linha completada com brancos até {len} posições."
            )],
            n => vec![format!(
                "{n} linhas completadas com brancos até {len} posições."
            )],
        }
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

/// Itaú CNAB 400 occurrences (as listed by eduardokum/laravel-boleto,
/// src/Cnab/Retorno/Cnab400/Banco/Itau.php, from Itaú's manual). 10 and 59 are
/// write-offs because the title was paid, so they settle like 06.
const ITAU_OCCURRENCES: &[(&str, &str, OccurrenceKind)] = &[
    ("02", "Entrada confirmada", Registered),
    ("03", "Entrada rejeitada", Rejected),
    ("04", "Alteração de dados - nova entrada", Other),
    ("05", "Alteração de dados - baixa", Other),
    ("06", "Liquidação normal", Settled),
    ("07", "Liquidação parcial", Settled),
    ("08", "Liquidação em cartório", Settled),
    ("09", "Baixa simples", WrittenOff),
    ("10", "Baixa por ter sido liquidado", Settled),
    ("11", "Em ser", Other),
    ("12", "Abatimento concedido", Other),
    ("13", "Abatimento cancelado", Other),
    ("14", "Vencimento alterado", Other),
    ("15", "Baixa rejeitada", Rejected),
    ("16", "Instrução rejeitada", Rejected),
    ("17", "Alteração de dados rejeitada", Rejected),
    (
        "18",
        "Cobrança contratual - instrução/alteração rejeitada ou pendente",
        Rejected,
    ),
    (
        "19",
        "Confirmação de recebimento de instrução de protesto",
        Protest,
    ),
    (
        "20",
        "Confirmação de recebimento de instrução de sustação de protesto",
        Protest,
    ),
    (
        "21",
        "Confirmação de recebimento de instrução de não protestar",
        Protest,
    ),
    ("23", "Título enviado a cartório", Protest),
    (
        "24",
        "Instrução de protesto rejeitada, sustada ou pendente",
        Protest,
    ),
    ("25", "Alegações do pagador", Other),
    ("26", "Tarifa de aviso de cobrança", Fee),
    ("27", "Tarifa de extrato de posição", Fee),
    ("28", "Tarifa de relação das liquidações", Fee),
    ("29", "Tarifa de manutenção de títulos vencidos", Fee),
    ("30", "Débito mensal de tarifas", Fee),
    ("32", "Baixa por ter sido protestado", WrittenOff),
    ("33", "Custas de protesto", Fee),
    ("34", "Custas de sustação", Fee),
    ("35", "Custas de cartório distribuidor", Fee),
    ("36", "Custas de edital", Fee),
    ("37", "Tarifa de emissão de boleto", Fee),
    ("38", "Tarifa de instrução", Fee),
    ("39", "Tarifa de ocorrências", Fee),
    ("40", "Tarifa mensal de emissão de boleto", Fee),
    ("41", "Débito mensal de tarifas - extrato de posição", Fee),
    ("42", "Débito mensal de tarifas - outras instruções", Fee),
    (
        "43",
        "Débito mensal de tarifas - manutenção de títulos vencidos",
        Fee,
    ),
    ("44", "Débito mensal de tarifas - outras ocorrências", Fee),
    ("45", "Débito mensal de tarifas - protesto", Fee),
    ("46", "Débito mensal de tarifas - sustação de protesto", Fee),
    ("47", "Baixa com transferência para desconto", WrittenOff),
    ("48", "Custas de sustação judicial", Fee),
    ("57", "Instrução cancelada", Other),
    (
        "59",
        "Baixa por crédito em conta corrente através do SISPAG",
        Settled,
    ),
    ("60", "Entrada rejeitada (carnê)", Rejected),
    ("63", "Título sustado judicialmente", Protest),
    ("64", "Entrada confirmada com rateio de crédito", Registered),
    ("65", "Pagamento com cheque - aguardando compensação", Other),
    ("69", "Cheque devolvido", Other),
    ("71", "Entrada registrada, aguardando avaliação", Registered),
    (
        "72",
        "Baixa por crédito em conta corrente através do SISPAG sem título correspondente",
        WrittenOff,
    ),
    (
        "73",
        "Confirmação de entrada na cobrança simples",
        Registered,
    ),
    (
        "74",
        "Instrução de negativação expressa rejeitada",
        Rejected,
    ),
    ("76", "Cheque compensado", Other),
];

/// Itaú CNAB 400 reasons of a rejected entry (03), positions 378–385 (the
/// manual's table 1, as listed by eduardokum/laravel-boleto).
const ITAU_REJECTIONS: &[(&str, &str)] = &[
    (
        "03",
        "Agência cobradora: CEP sem atendimento de protesto no momento",
    ),
    ("04", "Sigla do estado inválida"),
    (
        "05",
        "Prazo da operação menor que o mínimo ou maior que o máximo",
    ),
    ("07", "Valor do título maior que 10.000.000,00"),
    ("08", "Nome do pagador não informado ou deslocado"),
    ("09", "Agência encerrada"),
    ("10", "Logradouro não informado ou deslocado"),
    ("11", "CEP não numérico ou inválido"),
    ("12", "Nome do sacador/avalista não informado ou deslocado"),
    ("13", "CEP incompatível com a sigla do estado"),
    (
        "14",
        "Nosso número já registrado no cadastro do banco ou fora da faixa",
    ),
    ("15", "Nosso número em duplicidade no mesmo movimento"),
    (
        "18",
        "Data de entrada inválida para operar com esta carteira",
    ),
    ("19", "Ocorrência inválida"),
    ("22", "Carteira não permitida"),
    ("26", "Agência/conta não liberada para operar com cobrança"),
    ("27", "CNPJ do beneficiário inapto"),
    ("29", "Categoria da conta inválida"),
    ("30", "Entradas bloqueadas, conta suspensa em cobrança"),
    ("31", "Conta não tem permissão para protestar"),
    ("35", "IOF maior que 5%"),
    (
        "36",
        "Quantidade de moeda incompatível com o valor do título",
    ),
    ("37", "CNPJ/CPF do pagador não numérico ou igual a zeros"),
    ("42", "Nosso número fora da faixa"),
    ("60", "Valor do abatimento inválido"),
    ("61", "Juros de mora maior que o permitido"),
    ("62", "Valor do desconto maior que o valor do título"),
    ("64", "Data de emissão do título inválida"),
    (
        "66",
        "Data de vencimento inválida ou fora do prazo de operação",
    ),
    ("67", "Valor do título ou quantidade de moeda inválido"),
    ("68", "Carteira inválida ou não cadastrada"),
];

/// Bradesco CNAB 400 occurrences (as listed by eduardokum/laravel-boleto,
/// src/Cnab/Retorno/Cnab400/Banco/Bradesco.php, from Bradesco's manual). A check
/// payment (16) settles nothing until the bank liquidates the title.
const BRADESCO_OCCURRENCES: &[(&str, &str, OccurrenceKind)] = &[
    ("02", "Entrada confirmada", Registered),
    ("03", "Entrada rejeitada", Rejected),
    ("06", "Liquidação normal", Settled),
    ("09", "Baixado automaticamente via arquivo", WrittenOff),
    ("10", "Baixado conforme instruções da agência", WrittenOff),
    ("11", "Em ser - arquivo de títulos pendentes", Other),
    ("12", "Abatimento concedido", Other),
    ("13", "Abatimento cancelado", Other),
    ("14", "Vencimento alterado", Other),
    ("15", "Liquidação em cartório", Settled),
    ("16", "Título pago em cheque - vinculado", Other),
    (
        "17",
        "Liquidação após baixa ou título não registrado",
        Settled,
    ),
    ("18", "Acerto de depositária", Other),
    (
        "19",
        "Confirmação de recebimento de instrução de protesto",
        Protest,
    ),
    (
        "20",
        "Confirmação de recebimento de instrução de sustação de protesto",
        Protest,
    ),
    ("21", "Acerto do controle do participante", Other),
    ("22", "Título com pagamento cancelado", Other),
    ("23", "Entrada do título em cartório", Protest),
    ("24", "Entrada rejeitada por CEP irregular", Rejected),
    (
        "25",
        "Confirmação de recebimento de instrução de protesto falimentar",
        Protest,
    ),
    ("27", "Baixa rejeitada", Rejected),
    ("28", "Débito de tarifas/custas", Fee),
    ("29", "Ocorrências do pagador", Other),
    ("30", "Alteração de outros dados rejeitada", Rejected),
    ("32", "Instrução rejeitada", Rejected),
    (
        "33",
        "Confirmação do pedido de alteração de outros dados",
        Other,
    ),
    (
        "34",
        "Retirado de cartório e manutenção em carteira",
        Protest,
    ),
    ("35", "Desagendamento do débito automático", Other),
    ("40", "Estorno de pagamento", Other),
    ("55", "Sustado judicial", Protest),
    ("68", "Acerto dos dados do rateio de crédito", Other),
    ("69", "Cancelamento dos dados do rateio", Other),
];

/// Bradesco CNAB 400 reasons of a rejected entry (03), positions 319–328 (as
/// listed by eduardokum/laravel-boleto).
const BRADESCO_REJECTIONS: &[(&str, &str)] = &[
    ("02", "Código do registro detalhe inválido"),
    ("03", "Código da ocorrência inválido"),
    ("04", "Código de ocorrência não permitido para a carteira"),
    ("05", "Código de ocorrência não numérico"),
    ("07", "Agência/conta/dígito inválido"),
    ("08", "Nosso número inválido"),
    ("09", "Nosso número duplicado"),
    ("10", "Carteira inválida"),
    ("13", "Identificação da emissão do boleto inválida"),
    ("16", "Data de vencimento inválida"),
    ("18", "Vencimento fora do prazo de operação"),
    ("20", "Valor do título inválido"),
    ("21", "Espécie do título inválida"),
    ("22", "Espécie não permitida para a carteira"),
    ("24", "Data de emissão inválida"),
    ("28", "Código do desconto inválido"),
    ("38", "Prazo para protesto inválido"),
    ("44", "Agência do beneficiário não prevista"),
    ("45", "Nome do pagador não informado"),
    ("46", "Tipo/número de inscrição do pagador inválidos"),
    ("47", "Endereço do pagador não informado"),
    ("48", "CEP inválido"),
    ("50", "CEP irregular - banco correspondente"),
    ("63", "Entrada para título já cadastrado"),
    ("65", "Limite excedido"),
    ("66", "Número de autorização inexistente"),
];

/// Banco do Brasil CBR643 occurrences (comandos; as listed by
/// eduardokum/laravel-boleto, src/Cnab/Retorno/Cnab400/Banco/Bb.php). 07 and 08
/// are a partial payment and the payment of the rest.
const BB_OCCURRENCES: &[(&str, &str, OccurrenceKind)] = &[
    ("02", "Confirmação de entrada de título", Registered),
    ("03", "Comando recusado", Rejected),
    ("05", "Liquidado sem registro", Settled),
    ("06", "Liquidação normal", Settled),
    ("07", "Liquidação por conta", Settled),
    ("08", "Liquidação por saldo", Settled),
    ("09", "Baixa de título", WrittenOff),
    ("10", "Baixa solicitada", WrittenOff),
    ("11", "Títulos em ser", Other),
    ("12", "Abatimento concedido", Other),
    ("13", "Abatimento cancelado", Other),
    ("14", "Alteração de vencimento do título", Other),
    ("15", "Liquidação em cartório", Settled),
    ("16", "Confirmação de alteração de juros de mora", Other),
    (
        "19",
        "Confirmação de recebimento de instruções para protesto",
        Protest,
    ),
    ("20", "Débito em conta", Other),
    ("21", "Alteração do nome do pagador", Other),
    ("22", "Alteração do endereço do pagador", Other),
    ("23", "Indicação de encaminhamento a cartório", Protest),
    ("24", "Sustar protesto", Protest),
    ("25", "Dispensar juros de mora", Other),
    ("26", "Alteração do seu número", Other),
    ("28", "Manutenção de título vencido", Fee),
    ("31", "Conceder desconto", Other),
    ("32", "Não conceder desconto", Other),
    ("33", "Retificar desconto", Other),
    ("34", "Alterar data para desconto", Other),
    ("35", "Cobrar multa", Other),
    ("36", "Dispensar multa", Other),
    (
        "41",
        "Alteração do número de controle do participante",
        Other,
    ),
    ("42", "Alteração do CPF/CNPJ do pagador", Other),
    ("44", "Título pago com cheque devolvido", Other),
    (
        "46",
        "Título pago com cheque, aguardando compensação",
        Other,
    ),
    ("72", "Alteração de tipo de cobrança", Other),
    ("96", "Despesas de protesto", Fee),
    ("97", "Despesas de sustação de protesto", Fee),
    ("98", "Débito de custas antecipadas", Fee),
];

/// Banco do Brasil CBR643 reasons of a refused command (03), positions 87–88
/// (as listed by eduardokum/laravel-boleto).
const BB_REJECTIONS: &[(&str, &str)] = &[
    ("01", "Identificação inválida"),
    ("02", "Variação da carteira inválida"),
    ("03", "Valor dos juros por um dia inválido"),
    ("04", "Valor do desconto inválido"),
    ("05", "Espécie de título inválida para carteira/variação"),
    ("07", "Prefixo da agência usuária inválido"),
    ("08", "Valor do título inválido"),
    ("09", "Data de vencimento inválida"),
    ("10", "Fora do prazo"),
    ("18", "Endereço do pagador não localizado ou incompleto"),
    ("19", "Código do beneficiário inválido"),
    ("21", "Carteira inválida"),
    ("23", "Faixa de nosso número excedida"),
    ("24", "Valor do abatimento inválido"),
    ("27", "Nome do pagador/beneficiário inválido"),
    ("28", "Data do novo vencimento inválida"),
    ("29", "Endereço não informado"),
    ("33", "Nosso número já existente"),
    ("37", "Data de emissão do título inválida"),
    ("38", "Data do vencimento anterior à data da emissão"),
    ("42", "CEP/UF inválidos ou não compatíveis"),
    ("46", "Convênio encerrado"),
    ("52", "Abatimento igual ou maior que o valor do título"),
    ("53", "Título já se encontra na situação pretendida"),
    ("63", "DV do nosso número inválido"),
    ("66", "CPF/CNPJ do pagador inválido"),
    ("68", "Código/data/percentual de multa inválido"),
    ("69", "Valor/percentual de juros inválido"),
    ("80", "Nosso número inválido"),
    ("82", "CEP do pagador inválido"),
    ("99", "Outros motivos"),
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

/// A bank's occurrence and reason tables.
struct Codes {
    occurrences: &'static [(&'static str, &'static str, OccurrenceKind)],
    reasons: &'static [(&'static str, &'static str)],
    /// Occurrences whose reason codes `reasons` describes.
    described: &'static [&'static str],
}

const FEBRABAN: Codes = Codes {
    occurrences: FEBRABAN_OCCURRENCES,
    reasons: REJECTION_REASONS,
    described: &["03", "26", "30"],
};
const UNICRED: Codes = Codes {
    occurrences: UNICRED_OCCURRENCES,
    reasons: REJECTION_REASONS,
    described: &["03"],
};
const ITAU: Codes = Codes {
    occurrences: ITAU_OCCURRENCES,
    reasons: ITAU_REJECTIONS,
    described: &["03"],
};
const BRADESCO: Codes = Codes {
    occurrences: BRADESCO_OCCURRENCES,
    reasons: BRADESCO_REJECTIONS,
    described: &["03"],
};
const BB: Codes = Codes { occurrences: BB_OCCURRENCES, reasons: BB_REJECTIONS, described: &["03"] };

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
fn reasons(raw: &str, occurrence: &Occurrence, codes: &Codes) -> Vec<Reason> {
    let described = codes.described.contains(&occurrence.code.as_str());
    let chars: Vec<char> = raw.chars().collect();
    chars
        .chunks(2)
        .map(|c| c.iter().collect::<String>())
        .filter(|c| {
            let t = c.trim();
            !t.is_empty() && t != "00"
        })
        .map(|code| {
            let description = described
                .then(|| {
                    codes
                        .reasons
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

/// A value of the header that the parse can do without: an error becomes an
/// issue and the value `None`.
fn lenient<T>(issues: &mut Vec<CnabError>, value: Result<T, CnabError>) -> Option<T> {
    value.map_err(|e| issues.push(e)).ok()
}

/// Refuses content that is not text: a CNAB file is printable characters in
/// lines (Windows-1252), so a control character means a binary file.
fn refuse_binary(lines: &[Line]) -> Result<(), CnabError> {
    for line in lines {
        if let Some((i, c)) = line.chars.iter().enumerate().find(|(_, c)| c.is_control()) {
            return Err(CnabError::Structure {
                line: line.number,
                reason: format!(
                    "caractere de controle U+{:04X} na posição {}: conteúdo binário, não é um arquivo CNAB",
                    u32::from(*c),
                    i + 1
                ),
            });
        }
    }
    Ok(())
}

/// How a CNAB 400 return is read.
struct Return400 {
    detail: &'static RecordLayout,
    /// Record type of the detail lines ('1', Banco do Brasil's '7').
    detail_type: char,
    codes: &'static Codes,
    /// Bank codes the header may carry.
    banks: &'static [&'static str],
    /// Whether the nosso número's check digit (`nosso_numero_dv`) is Bradesco's,
    /// verified against the carteira.
    bradesco_digit: bool,
}

fn profile_400(layout: CnabLayout) -> Option<Return400> {
    let p = |detail, detail_type, codes, banks| Return400 {
        detail,
        detail_type,
        codes,
        banks,
        bradesco_digit: false,
    };
    match layout {
        CnabLayout::Itau400 => Some(p(&t400::ITAU_RETURN_DETAIL, '1', &ITAU, &["341"])),
        CnabLayout::BancoDoBrasil400 => Some(p(&t400::BB_RETURN_DETAIL, '7', &BB, &["001"])),
        CnabLayout::Bradesco400 => Some(Return400 {
            bradesco_digit: true,
            ..p(&t400::BRADESCO_RETURN_DETAIL, '1', &BRADESCO, &["237"])
        }),
        // Unicred's files carry Banco do Brasil's code.
        CnabLayout::Unicred400 => Some(p(
            &t400::UNICRED_RETURN_DETAIL,
            '1',
            &UNICRED,
            &["136", "001"],
        )),
        _ => None,
    }
}

/// Parses a return file of `layout`. See the module notes for what becomes an
/// issue and what an error.
pub fn parse_return(layout: CnabLayout, content: &[u8]) -> Result<ReturnFile, CnabError> {
    let lines = split_lines(content);
    let first = lines.first().ok_or(CnabError::Empty)?;
    refuse_binary(&lines)?;
    let padded_lines = lines
        .iter()
        .filter(|l| !l.chars.is_empty() && l.chars.len() < layout.record_len())
        .count();
    let mut file = match layout {
        CnabLayout::Santander240
        | CnabLayout::Caixa240
        | CnabLayout::Sicredi240
        | CnabLayout::Ailos240
        | CnabLayout::BancoDoBrasil240 => parse_240(layout, &t240::T, &lines, first)?,
        CnabLayout::Sicoob240 => parse_240(layout, &t240::SICOOB_T, &lines, first)?,
        CnabLayout::Sicoob400 => {
            return Err(CnabError::Unsupported { layout: layout.name(), what: "retorno" })
        }
        _ => match profile_400(layout) {
            Some(p) => parse_400(layout, &p, &lines, first)?,
            None => return Err(CnabError::Unsupported { layout: layout.name(), what: "retorno" }),
        },
    };
    file.padded_lines = padded_lines;
    Ok(file)
}

fn parse_240(
    layout: CnabLayout,
    t: &'static RecordLayout,
    lines: &[Line],
    first: &Line,
) -> Result<ReturnFile, CnabError> {
    if first.at(8) != '0' {
        return Err(CnabError::Structure {
            line: 1,
            reason: "o arquivo não começa pelo header de arquivo (registro 0)".into(),
        });
    }
    let header = Record::new(&t240::RETURN_FILE_HEADER, first)?;
    let bank_code = header.text("banco")?;
    if bank_code != layout.bank_code() {
        return Err(bank_mismatch(1, &bank_code, layout));
    }
    if let Some(p) = lines.iter().find(|l| l.at(8) == '3' && l.at(14) == 'P') {
        return Err(CnabError::Structure {
            line: p.number,
            reason: "segmento P é de remessa: o arquivo não é um retorno".into(),
        });
    }
    let mut issues = Vec::new();
    let generated_on = lenient(&mut issues, header.date("data_geracao")).flatten();
    let file_sequence = lenient(&mut issues, header.num("nsa"));
    let mut file = ReturnFile {
        layout,
        bank_code,
        generated_on,
        file_sequence,
        titles: Vec::new(),
        issues,
        padded_lines: 0,
    };
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
                match read_t(t, line) {
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

fn read_t(t: &'static RecordLayout, line: &Line) -> Result<ReturnTitle, CnabError> {
    let rec = Record::new(t, line)?;
    let occurrence = occurrence(FEBRABAN.occurrences, &rec.text("movimento")?);
    Ok(ReturnTitle {
        line: line.number,
        nosso_numero: strip_zeros(&rec.text("nosso_numero")?),
        document_number: rec.text("numero_documento")?,
        reasons: reasons(&rec.raw_text("motivos")?, &occurrence, &FEBRABAN),
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
    p: &Return400,
    lines: &[Line],
    first: &Line,
) -> Result<ReturnFile, CnabError> {
    if first.at(1) != '0' {
        return Err(CnabError::Structure {
            line: 1,
            reason: "o arquivo não começa pelo header (registro 0)".into(),
        });
    }
    let identification = first.slice(2, 9);
    if identification != "2RETORNO" {
        return Err(CnabError::Structure {
            line: 1,
            reason: format!(
                "o header não identifica um retorno (posições 2-9: '{identification}', esperado '2RETORNO')"
            ),
        });
    }
    let header = Record::new(&t400::RETURN_HEADER, first)?;
    let bank_code = header.text("banco")?;
    if !p.banks.contains(&bank_code.as_str()) {
        return Err(bank_mismatch(1, &bank_code, layout));
    }
    let mut issues = Vec::new();
    let generated_on = lenient(&mut issues, header.date("data_geracao")).flatten();
    let mut file = ReturnFile {
        layout,
        bank_code,
        generated_on,
        file_sequence: None,
        titles: Vec::new(),
        issues,
        padded_lines: 0,
    };
    for line in lines {
        let record_layout = match line.at(1) {
            '0' if line.number == 1 => &t400::RETURN_HEADER,
            c if c == p.detail_type => p.detail,
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
            if line.at(1) == p.detail_type {
                let (title, digit_issue) = read_400(&rec, p)?;
                file.titles.push(title);
                file.issues.extend(digit_issue);
            }
            Ok(())
        });
        if let Err(e) = result {
            file.issues.push(e);
        }
    }
    Ok(file)
}

/// An amount the layout may not declare.
fn optional_money(rec: &Record, name: &str) -> Result<Option<Decimal>, CnabError> {
    match rec.layout.field(name) {
        Some(_) => rec.money(name).map(Some),
        None => Ok(None),
    }
}

/// One CNAB 400 detail; the second value is a wrong check digit, reported but
/// not fatal (the eleven digits identify the title).
fn read_400(rec: &Record, p: &Return400) -> Result<(ReturnTitle, Option<CnabError>), CnabError> {
    let occurrence = occurrence(p.codes.occurrences, &rec.text("movimento")?);
    let fee = rec.money("tarifa")?;
    let net_amount = optional_money(rec, "valor_liquido")?;
    let paid_amount = match optional_money(rec, "valor_pago")? {
        Some(paid) => paid,
        // Itaú: only the credit is reported; the payer paid it and the fee.
        None if occurrence.kind == Settled => net_amount.unwrap_or_default() + fee,
        None => Decimal::ZERO,
    };
    let nosso_numero = rec.text("nosso_numero")?;
    let digit_issue = if p.bradesco_digit {
        bradesco_digit_issue(rec, &nosso_numero)?
    } else {
        None
    };
    let title = ReturnTitle {
        line: rec.line.number,
        nosso_numero: strip_zeros(&nosso_numero),
        document_number: rec.text("numero_documento")?,
        reasons: reasons(&rec.raw_text("motivos")?, &occurrence, p.codes),
        occurrence,
        due_date: rec.date("vencimento")?,
        face_value: rec.money("valor")?,
        paid_amount,
        interest: rec.money("juros")?,
        discount: rec.money("desconto")?,
        rebate: rec.money("abatimento")?,
        fee,
        net_amount,
        occurrence_date: rec.date("data_ocorrencia")?,
        credit_date: rec.date("data_credito")?,
    };
    Ok((title, digit_issue))
}

/// Bradesco's check digit (carteira + nosso número, mod 11 base 7) of a detail.
fn bradesco_digit_issue(rec: &Record, nosso_numero: &str) -> Result<Option<CnabError>, CnabError> {
    let wallet = rec.num("carteira")? % 100;
    let found = rec.text("nosso_numero_dv")?;
    let field = rec.layout.field("nosso_numero_dv");
    let issue = |reason: String| CnabError::Field {
        line: rec.line.number,
        field: "nosso_numero_dv",
        start: field.map_or(0, |f| f.start),
        end: field.map_or(0, |f| f.end),
        reason,
    };
    Ok(
        match bradesco_nosso_numero_dv(&format!("{wallet:02}"), nosso_numero) {
            Ok(expected) if found == expected.to_string() => None,
            Ok(expected) => Some(issue(format!(
                "dígito do nosso número {nosso_numero}-{found} não confere com a carteira {wallet:02} (esperado {expected}); título lido pelo número"
            ))),
            Err(e) => Some(issue(e.to_string())),
        },
    )
}
