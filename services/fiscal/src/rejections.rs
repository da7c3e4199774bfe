//! The SEFAZ answers (cStat/xMotivo) that most often stop an NF-e, explained
//! for the person who issues it: what went wrong in plain pt-BR, which field
//! to fix and the register screen that holds it.
//!
//! The Nuvem Fiscal passes the SEFAZ's code on in `autorizacao.codigo_status`
//! and its text in `motivo_status`; [`explain`] turns them into an
//! [`Explanation`]. A code not in the table still gets an explanation that
//! shows the code and the SEFAZ text as received.

use serde::Serialize;

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

/// The explanation of `c_stat`; `x_motivo` is the text the SEFAZ sent.
pub fn explain(c_stat: &str, x_motivo: &str) -> Explanation {
    let c_stat = c_stat.trim();
    let received = x_motivo.trim();
    match lookup(c_stat) {
        Some(r) => Explanation {
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
        },
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

/// The row of `c_stat`, if the table has it.
pub fn lookup(c_stat: &str) -> Option<&'static Rejection> {
    let c_stat = c_stat.trim();
    REJECTIONS.iter().find(|r| r.c_stat == c_stat)
}

/// The table, by code.
pub const REJECTIONS: &[Rejection] = &[
    Rejection {
        c_stat: "108",
        x_motivo: "Serviço Paralisado Momentaneamente (curto prazo)",
        explanation: "O serviço da SEFAZ do seu estado está fora do ar por alguns minutos. Nada precisa ser corrigido: aguarde e envie o documento de novo.",
        field: None,
        route: None,
    },
    Rejection {
        c_stat: "109",
        x_motivo: "Serviço Paralisado sem Previsão",
        explanation: "O serviço da SEFAZ do seu estado está parado sem previsão de volta. Aguarde e tente de novo mais tarde; se for urgente, fale com o seu contador sobre a emissão em contingência.",
        field: None,
        route: None,
    },
    Rejection {
        c_stat: "203",
        x_motivo: "Rejeição: Emissor não habilitado para emissão da NF-e",
        explanation: "Sua empresa ainda não está credenciada na SEFAZ para emitir NF-e (ou o credenciamento é de outro ambiente). Peça ao seu contador para fazer o credenciamento e confira a inscrição estadual cadastrada.",
        field: Some("Inscrição estadual da empresa"),
        route: Some("/empresas"),
    },
    Rejection {
        c_stat: "204",
        x_motivo: "Rejeição: Duplicidade de NF-e",
        explanation: "Já existe uma NF-e autorizada com este mesmo número e série. Consulte a nota já autorizada em vez de emitir de novo, ou ajuste a próxima numeração da série.",
        field: Some("Número e série da nota"),
        route: Some("/numeracoes"),
    },
    Rejection {
        c_stat: "205",
        x_motivo: "Rejeição: NF-e está denegada na base de dados da SEFAZ",
        explanation: "Este número de nota já foi usado numa NF-e denegada e não pode ser reaproveitado. Emita com o próximo número da série.",
        field: Some("Número da nota"),
        route: Some("/numeracoes"),
    },
    Rejection {
        c_stat: "206",
        x_motivo: "Rejeição: NF-e já está inutilizada na Base de dados da SEFAZ",
        explanation: "Este número de nota foi inutilizado na SEFAZ e não pode mais ser usado. Ajuste a numeração para o próximo número livre.",
        field: Some("Número da nota"),
        route: Some("/numeracoes"),
    },
    Rejection {
        c_stat: "207",
        x_motivo: "Rejeição: CNPJ do emitente inválido",
        explanation: "O CNPJ da sua empresa está com dígitos errados. Corrija o CNPJ no cadastro da empresa.",
        field: Some("CNPJ da empresa"),
        route: Some("/empresas"),
    },
    Rejection {
        c_stat: "208",
        x_motivo: "Rejeição: CNPJ do destinatário inválido",
        explanation: "O CNPJ do cliente está com dígitos errados. Corrija o CNPJ no cadastro do cliente.",
        field: Some("CNPJ do cliente"),
        route: Some("/clientes"),
    },
    Rejection {
        c_stat: "209",
        x_motivo: "Rejeição: IE do emitente inválida",
        explanation: "A inscrição estadual da sua empresa não é válida para o estado informado. Confira os números e a UF no cadastro da empresa.",
        field: Some("Inscrição estadual da empresa"),
        route: Some("/empresas"),
    },
    Rejection {
        c_stat: "210",
        x_motivo: "Rejeição: IE do destinatário inválida",
        explanation: "A inscrição estadual do cliente não é válida para o estado dele. Corrija a IE (ou marque o cliente como não contribuinte, se ele não tiver IE).",
        field: Some("Inscrição estadual do cliente"),
        route: Some("/clientes"),
    },
    Rejection {
        c_stat: "211",
        x_motivo: "Rejeição: IE do substituto inválida",
        explanation: "A inscrição estadual de substituto tributário (IE ST) da sua empresa está errada para a UF de destino. Corrija-a no cadastro da empresa.",
        field: Some("IE do substituto tributário"),
        route: Some("/empresas"),
    },
    Rejection {
        c_stat: "213",
        x_motivo: "Rejeição: CNPJ-Base do Emitente difere do CNPJ-Base do Certificado Digital",
        explanation: "O certificado digital cadastrado é de outra empresa (a raiz do CNPJ não confere). Envie o certificado A1 da própria empresa emitente.",
        field: Some("Certificado digital da empresa"),
        route: Some("/empresas"),
    },
    Rejection {
        c_stat: "215",
        x_motivo: "Rejeição: Falha no schema XML",
        explanation: "Algum campo da nota foi enviado em formato que a SEFAZ não aceita (tamanho, caracteres ou campo obrigatório vazio). Revise os dados da nota, dos itens e do cliente; se persistir, fale com o suporte.",
        field: Some("Dados da nota"),
        route: None,
    },
    Rejection {
        c_stat: "217",
        x_motivo: "Rejeição: NF-e não consta na base de dados da SEFAZ",
        explanation: "A SEFAZ não encontrou esta NF-e (por exemplo, ao cancelar uma nota que não foi autorizada). Confira a situação da nota antes de repetir a operação.",
        field: Some("Situação da nota"),
        route: None,
    },
    Rejection {
        c_stat: "218",
        x_motivo: "Rejeição: NF-e já está cancelada na base de dados da SEFAZ",
        explanation: "Esta NF-e já foi cancelada. Nada mais precisa ser feito com ela.",
        field: Some("Situação da nota"),
        route: None,
    },
    Rejection {
        c_stat: "221",
        x_motivo: "Rejeição: Confirmado o recebimento da NF-e pelo destinatário",
        explanation: "O cliente já confirmou o recebimento desta NF-e, então ela não pode mais ser cancelada. Para desfazer a venda, emita uma nota de devolução.",
        field: Some("Natureza de operação de devolução"),
        route: Some("/naturezasoperacao"),
    },
    Rejection {
        c_stat: "225",
        x_motivo: "Rejeição: Falha no Schema XML da NFe",
        explanation: "A estrutura da nota tem algum campo fora do padrão da SEFAZ (tamanho, formato ou campo obrigatório vazio). Revise os dados do cliente, dos produtos e da natureza de operação.",
        field: Some("Dados da nota"),
        route: None,
    },
    Rejection {
        c_stat: "228",
        x_motivo: "Rejeição: Data de Emissão muito atrasada",
        explanation: "A data de emissão é antiga demais (mais de 30 dias). Emita a nota com a data de hoje.",
        field: Some("Data de emissão"),
        route: None,
    },
    Rejection {
        c_stat: "232",
        x_motivo: "Rejeição: IE do destinatário não informada",
        explanation: "O cliente é contribuinte do ICMS e a inscrição estadual dele não foi informada. Preencha a IE no cadastro do cliente.",
        field: Some("Inscrição estadual do cliente"),
        route: Some("/clientes"),
    },
    Rejection {
        c_stat: "233",
        x_motivo: "Rejeição: IE do destinatário não cadastrada",
        explanation: "A inscrição estadual do cliente não existe no cadastro da SEFAZ do estado dele. Confira a IE com o cliente.",
        field: Some("Inscrição estadual do cliente"),
        route: Some("/clientes"),
    },
    Rejection {
        c_stat: "234",
        x_motivo: "Rejeição: IE do destinatário não vinculada ao CNPJ",
        explanation: "A inscrição estadual informada pertence a outro CNPJ. Confira a IE e o CNPJ no cadastro do cliente.",
        field: Some("Inscrição estadual do cliente"),
        route: Some("/clientes"),
    },
    Rejection {
        c_stat: "236",
        x_motivo: "Rejeição: Chave de Acesso com dígito verificador inválido",
        explanation: "A chave de acesso informada (por exemplo, numa nota referenciada) está com um dígito errado. Copie a chave de novo, sem espaços.",
        field: Some("Chave de acesso da nota referenciada"),
        route: None,
    },
    Rejection {
        c_stat: "237",
        x_motivo: "Rejeição: CPF do destinatário inválido",
        explanation: "O CPF do cliente está com dígitos errados. Corrija o CPF no cadastro do cliente.",
        field: Some("CPF do cliente"),
        route: Some("/clientes"),
    },
    Rejection {
        c_stat: "240",
        x_motivo: "Rejeição: Cancelamento/Inutilização - Irregularidade Fiscal do Emitente",
        explanation: "A SEFAZ aponta pendência fiscal da sua empresa e não aceita cancelar ou inutilizar. Fale com o seu contador para regularizar a situação.",
        field: Some("Situação fiscal da empresa"),
        route: Some("/empresas"),
    },
    Rejection {
        c_stat: "241",
        x_motivo: "Rejeição: Um número da faixa já foi utilizado",
        explanation: "Algum número da faixa que você quer inutilizar já foi usado numa nota. Inutilize só os números que realmente ficaram sem nota.",
        field: Some("Faixa de numeração"),
        route: Some("/numeracoes"),
    },
    Rejection {
        c_stat: "245",
        x_motivo: "Rejeição: CNPJ Emitente não cadastrado",
        explanation: "O CNPJ da sua empresa não consta no cadastro de contribuintes da SEFAZ. Confira o CNPJ e a UF da empresa e fale com o seu contador.",
        field: Some("CNPJ da empresa"),
        route: Some("/empresas"),
    },
    Rejection {
        c_stat: "252",
        x_motivo: "Rejeição: Ambiente informado diverge do Ambiente de recebimento",
        explanation: "A nota foi montada para um ambiente (produção ou homologação) diferente do configurado. Confira o ambiente em Empresas › Serviços fiscais.",
        field: Some("Ambiente de emissão"),
        route: Some("/empresas"),
    },
    Rejection {
        c_stat: "280",
        x_motivo: "Rejeição: Certificado Transmissor inválido",
        explanation: "O certificado digital da empresa não foi aceito. Envie novamente o arquivo .pfx com a senha correta.",
        field: Some("Certificado digital da empresa"),
        route: Some("/empresas"),
    },
    Rejection {
        c_stat: "281",
        x_motivo: "Rejeição: Certificado Transmissor Data Validade",
        explanation: "O certificado digital da empresa está vencido. Renove o certificado A1 e envie o novo arquivo.",
        field: Some("Certificado digital da empresa"),
        route: Some("/empresas"),
    },
    Rejection {
        c_stat: "291",
        x_motivo: "Rejeição: Certificado Assinatura Data Validade",
        explanation: "O certificado usado para assinar a nota está vencido. Renove o certificado A1 e envie o novo arquivo.",
        field: Some("Certificado digital da empresa"),
        route: Some("/empresas"),
    },
    Rejection {
        c_stat: "301",
        x_motivo: "Uso Denegado: Irregularidade fiscal do emitente",
        explanation: "A SEFAZ negou a nota porque a sua empresa tem pendência fiscal no estado. O número desta nota fica usado; fale com o seu contador para regularizar antes de emitir de novo.",
        field: Some("Situação fiscal da empresa"),
        route: Some("/empresas"),
    },
    Rejection {
        c_stat: "302",
        x_motivo: "Uso Denegado: Irregularidade fiscal do destinatário",
        explanation: "A SEFAZ negou a nota porque o cliente está com a inscrição estadual irregular. O número desta nota fica usado; confirme a situação do cliente antes de vender para ele com nota.",
        field: Some("Inscrição estadual do cliente"),
        route: Some("/clientes"),
    },
    Rejection {
        c_stat: "303",
        x_motivo: "Uso Denegado: Destinatário não habilitado a operar na UF",
        explanation: "O cliente não está habilitado a operar no estado dele. Confirme com o cliente a inscrição estadual e a UF do endereço.",
        field: Some("Inscrição estadual e UF do cliente"),
        route: Some("/clientes"),
    },
    Rejection {
        c_stat: "321",
        x_motivo: "Rejeição: NF-e de devolução de mercadoria não possui documento fiscal referenciado",
        explanation: "Uma nota de devolução precisa indicar a nota original. Informe a chave de acesso da nota que está sendo devolvida.",
        field: Some("Nota referenciada"),
        route: None,
    },
    Rejection {
        c_stat: "327",
        x_motivo: "Rejeição: CFOP inválido para NF-e com finalidade de devolução",
        explanation: "A nota é de devolução, mas o CFOP usado não é de devolução. Use uma natureza de operação de devolução (CFOP 1.2xx, 2.2xx, 5.2xx, 6.2xx...).",
        field: Some("CFOP da natureza de operação"),
        route: Some("/naturezasoperacao"),
    },
    Rejection {
        c_stat: "386",
        x_motivo: "Rejeição: CFOP não permitido para o CSOSN informado",
        explanation: "A combinação do CFOP com o CSOSN do item não é aceita. Revise a tributação do produto ou a natureza de operação.",
        field: Some("CSOSN da tributação"),
        route: Some("/tributacoes"),
    },
    Rejection {
        c_stat: "401",
        x_motivo: "Rejeição: CPF do remetente inválido",
        explanation: "O CPF da empresa emitente (pessoa física) está com dígitos errados. Corrija o CPF no cadastro da empresa.",
        field: Some("CPF da empresa"),
        route: Some("/empresas"),
    },
    Rejection {
        c_stat: "402",
        x_motivo: "Rejeição: XML da área de dados com codificação diferente de UTF-8",
        explanation: "A nota foi enviada com caracteres em codificação diferente de UTF-8. Retire símbolos incomuns dos textos (descrições, observações) e envie de novo.",
        field: Some("Textos da nota"),
        route: None,
    },
    Rejection {
        c_stat: "481",
        x_motivo: "Rejeição: Código Regime Tributário do emitente diverge do cadastro na SEFAZ",
        explanation: "O regime tributário (Simples Nacional ou regime normal) cadastrado na empresa não é o que a SEFAZ tem. Corrija o CRT no cadastro da empresa.",
        field: Some("Regime tributário (CRT) da empresa"),
        route: Some("/empresas"),
    },
    Rejection {
        c_stat: "501",
        x_motivo: "Rejeição: Prazo de cancelamento superior ao previsto na Legislação",
        explanation: "O prazo para cancelar esta NF-e (em geral 24 horas) já passou. Para desfazer a operação, emita uma nota de devolução ou de estorno.",
        field: Some("Natureza de operação de devolução"),
        route: Some("/naturezasoperacao"),
    },
    Rejection {
        c_stat: "528",
        x_motivo: "Rejeição: Valor do ICMS difere do produto BC e Alíquota",
        explanation: "O valor do ICMS do item não bate com a base de cálculo vezes a alíquota. Revise a alíquota e a redução de base da tributação do produto.",
        field: Some("Alíquota do ICMS"),
        route: Some("/tributacoes"),
    },
    Rejection {
        c_stat: "539",
        x_motivo: "Rejeição: Duplicidade de NF-e com diferença na Chave de Acesso",
        explanation: "Já existe uma NF-e autorizada com este número e série, mas com outra chave de acesso (por exemplo, reenviada com outra data). Consulte a nota já autorizada ou use o próximo número.",
        field: Some("Número e série da nota"),
        route: Some("/numeracoes"),
    },
    Rejection {
        c_stat: "573",
        x_motivo: "Rejeição: Duplicidade de Evento",
        explanation: "Este evento (cancelamento ou carta de correção) já foi registrado para esta nota. Consulte a nota para ver o evento existente.",
        field: Some("Evento da nota"),
        route: None,
    },
    Rejection {
        c_stat: "590",
        x_motivo: "Rejeição: Informado CST para emissor do Simples Nacional (CRT=1)",
        explanation: "Sua empresa é do Simples Nacional, mas o item foi tributado com CST do regime normal. Use CSOSN na tributação do produto, ou corrija o regime da empresa.",
        field: Some("CSOSN da tributação"),
        route: Some("/tributacoes"),
    },
    Rejection {
        c_stat: "591",
        x_motivo: "Rejeição: Informado CSOSN para emissor que não é do Simples Nacional (CRT diferente de 1)",
        explanation: "Sua empresa não é do Simples Nacional, mas o item foi tributado com CSOSN. Use CST do regime normal na tributação, ou corrija o regime da empresa.",
        field: Some("CST da tributação"),
        route: Some("/tributacoes"),
    },
    Rejection {
        c_stat: "592",
        x_motivo: "Rejeição: A NF-e deve ter pelo menos um item de produto sujeito ao ICMS",
        explanation: "A nota só tem serviços. Inclua ao menos um produto, ou emita uma nota de serviço (NFS-e).",
        field: Some("Itens da nota"),
        route: Some("/produtos"),
    },
    Rejection {
        c_stat: "600",
        x_motivo: "Rejeição: CSOSN incompatível na operação com Não Contribuinte",
        explanation: "O CSOSN do item não pode ser usado em venda para quem não é contribuinte do ICMS. Revise a tributação do produto para consumidor final.",
        field: Some("CSOSN da tributação"),
        route: Some("/tributacoes"),
    },
    Rejection {
        c_stat: "610",
        x_motivo: "Rejeição: Total da NF difere do somatório dos Valores compõe o valor Total da NF",
        explanation: "O total da nota não fecha com a soma dos produtos, frete, seguro, outras despesas, IPI e ST menos os descontos. Recalcule os totais da nota.",
        field: Some("Totais da nota"),
        route: None,
    },
    Rejection {
        c_stat: "611",
        x_motivo: "Rejeição: GTIN (cEAN) inválido",
        explanation: "O código de barras (GTIN/EAN) do produto está errado. Corrija o código de barras no cadastro do produto, ou deixe-o em branco se o produto não tiver.",
        field: Some("Código de barras (GTIN) do produto"),
        route: Some("/produtos"),
    },
    Rejection {
        c_stat: "629",
        x_motivo: "Rejeição: Valor do Produto difere do produto Valor Unitário de Comercialização e Quantidade Comercial",
        explanation: "O valor total do item não é igual ao preço unitário vezes a quantidade. Ajuste o preço ou a quantidade do item para que a conta feche.",
        field: Some("Preço e quantidade do item"),
        route: None,
    },
    Rejection {
        c_stat: "656",
        x_motivo: "Rejeição: Consumo Indevido",
        explanation: "A SEFAZ bloqueou temporariamente por excesso de consultas repetidas. Aguarde cerca de uma hora antes de tentar de novo.",
        field: None,
        route: None,
    },
    Rejection {
        c_stat: "694",
        x_motivo: "Rejeição: Não informado o grupo de ICMS para a UF de destino",
        explanation: "Venda para consumidor final de outro estado exige o cálculo do DIFAL (ICMS da UF de destino). Configure a partilha do ICMS na tributação usada para essa operação.",
        field: Some("ICMS da UF de destino (DIFAL)"),
        route: Some("/tributacoes"),
    },
    Rejection {
        c_stat: "695",
        x_motivo: "Rejeição: Informado indevidamente o grupo de ICMS para a UF de destino",
        explanation: "O DIFAL (ICMS da UF de destino) só vale para venda interestadual a consumidor final não contribuinte. Retire a partilha do ICMS da tributação usada nesta operação.",
        field: Some("ICMS da UF de destino (DIFAL)"),
        route: Some("/tributacoes"),
    },
    Rejection {
        c_stat: "696",
        x_motivo: "Rejeição: Operação com não contribuinte deve indicar operação com consumidor final",
        explanation: "O cliente não é contribuinte do ICMS, então a venda precisa ser marcada como para consumidor final. Ajuste a natureza de operação (ou o indicador de IE do cliente).",
        field: Some("Consumidor final na natureza de operação"),
        route: Some("/naturezasoperacao"),
    },
    Rejection {
        c_stat: "697",
        x_motivo: "Rejeição: Alíquota interestadual do ICMS com origem diferente do previsto",
        explanation: "A alíquota interestadual não combina com a origem do produto: importados (origem 1, 2, 3 ou 8) usam 4%; nacionais usam 7% ou 12%. Corrija a origem no produto ou a alíquota na tributação.",
        field: Some("Origem do produto / alíquota interestadual"),
        route: Some("/produtos"),
    },
    Rejection {
        c_stat: "731",
        x_motivo: "Rejeição: CFOP de operação com Exterior e idDest <> 3",
        explanation: "O CFOP é de exportação (7.xxx), mas o cliente não está marcado como do exterior. Confira o país do cliente ou a natureza de operação.",
        field: Some("CFOP da natureza de operação"),
        route: Some("/naturezasoperacao"),
    },
    Rejection {
        c_stat: "732",
        x_motivo: "Rejeição: CFOP de operação interestadual e idDest <> 2",
        explanation: "O CFOP é de venda para outro estado (6.xxx), mas o cliente é do mesmo estado da sua empresa. Use a natureza de operação interna (5.xxx) ou corrija a UF do cliente.",
        field: Some("CFOP da natureza de operação"),
        route: Some("/naturezasoperacao"),
    },
    Rejection {
        c_stat: "733",
        x_motivo: "Rejeição: CFOP de operação interna e idDest <> 1",
        explanation: "O CFOP é de venda dentro do estado (5.xxx), mas o cliente é de outro estado. Use a natureza de operação interestadual (6.xxx) ou corrija a UF do cliente.",
        field: Some("CFOP da natureza de operação"),
        route: Some("/naturezasoperacao"),
    },
    Rejection {
        c_stat: "734",
        x_motivo: "Rejeição: NFC-e com Unidade de Comercialização inválida",
        explanation: "A unidade do produto (UN, KG, LT...) não é aceita na NFC-e. Use uma unidade padrão no cadastro do produto.",
        field: Some("Unidade do produto"),
        route: Some("/produtos"),
    },
    Rejection {
        c_stat: "777",
        x_motivo: "Rejeição: Obrigatória a informação do NCM completo",
        explanation: "O NCM do produto precisa ter os 8 dígitos. Complete o NCM no cadastro do produto.",
        field: Some("NCM do produto"),
        route: Some("/produtos"),
    },
    Rejection {
        c_stat: "778",
        x_motivo: "Rejeição: Informado NCM inexistente",
        explanation: "O NCM do produto não existe na tabela oficial (pode ter sido digitado errado ou extinto). Corrija o NCM no cadastro do produto; a tela de NCM mostra os códigos válidos.",
        field: Some("NCM do produto"),
        route: Some("/ncm"),
    },
    Rejection {
        c_stat: "805",
        x_motivo: "Rejeição: A SEFAZ do destinatário não permite Contribuinte Isento de Inscrição Estadual",
        explanation: "O estado do cliente não aceita o indicador \"contribuinte isento\". Marque o cliente como não contribuinte ou informe a inscrição estadual dele.",
        field: Some("Indicador de IE do cliente"),
        route: Some("/clientes"),
    },
    Rejection {
        c_stat: "806",
        x_motivo: "Rejeição: Operação com ICMS-ST sem informação do CEST",
        explanation: "Produto com substituição tributária precisa do código CEST. Preencha o CEST no cadastro do produto.",
        field: Some("CEST do produto"),
        route: Some("/produtos"),
    },
    Rejection {
        c_stat: "817",
        x_motivo: "Rejeição: Unidade Tributável incompatível com o NCM informado na operação com Comércio Exterior",
        explanation: "Na exportação, a unidade tributável precisa ser a unidade estatística do NCM. Ajuste a unidade tributável do produto.",
        field: Some("Unidade tributável do produto"),
        route: Some("/produtos"),
    },
    Rejection {
        c_stat: "866",
        x_motivo: "Rejeição: Ausência de troco quando o valor dos pagamentos informados for maior que o total da nota",
        explanation: "Os pagamentos somam mais que o total da nota e o troco não foi informado. Informe o troco ou ajuste os valores pagos.",
        field: Some("Formas de pagamento"),
        route: None,
    },
    Rejection {
        c_stat: "869",
        x_motivo: "Rejeição: Valor do troco incorreto",
        explanation: "O troco não é igual ao total pago menos o total da nota. Confira os valores das formas de pagamento.",
        field: Some("Formas de pagamento"),
        route: None,
    },
    Rejection {
        c_stat: "882",
        x_motivo: "Rejeição: GTIN (cEAN) com prefixo inválido",
        explanation: "O código de barras do produto começa com um prefixo que não existe na tabela GS1. Corrija o código de barras ou deixe-o em branco se o produto não tiver.",
        field: Some("Código de barras (GTIN) do produto"),
        route: Some("/produtos"),
    },
    Rejection {
        c_stat: "884",
        x_motivo: "Rejeição: GTIN da unidade tributável (cEANTrib) com prefixo inválido",
        explanation: "O código de barras da unidade tributável começa com um prefixo que não existe na tabela GS1. Corrija-o no cadastro do produto.",
        field: Some("Código de barras tributável do produto"),
        route: Some("/produtos"),
    },];

/// The CT-e's own readings of codes whose NF-e text would mislead (the same
/// cStat, the CT-e's fields and screen).
pub const CTE_REJECTIONS: &[Rejection] = &[
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

/// [`explain`] for a CT-e: its own readings first, then the common table.
pub fn explain_cte(c_stat: &str, x_motivo: &str) -> Explanation {
    let code = c_stat.trim();
    match CTE_REJECTIONS.iter().find(|r| r.c_stat == code) {
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
        None => explain(c_stat, x_motivo),
    }
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
