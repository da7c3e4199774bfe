//! CT-e: the emission request, its identification and parties
//! (`CtePedidoEmissao` → `infCte` → `ide`, `emit`, `rem`, `exped`, `receb`,
//! `dest`).
//!
//! Written from the schemas of the Nuvem Fiscal OpenAPI 2.58: struct and field
//! names are the spec's (the MOC's tag names), so they are not snake case.

#![allow(non_snake_case)]

use chrono::{DateTime, FixedOffset};
use serde::{Deserialize, Serialize};

use super::cte_service::{
    CteSefazInfCTeNorm, CteSefazInfCTeSupl, CteSefazInfCte_Imp, CteSefazRespTec, CteSefazVPrest,
};
use super::Ambiente;

/// Pedido de emissão de CT-e (`POST /cte`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CtePedidoEmissao {
    pub infCte: CteSefazInfCte,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infCTeSupl: Option<CteSefazInfCTeSupl>,
    /// Identificação do Ambiente.
    pub ambiente: Ambiente,
    /// Seu identificador único para este documento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub referencia: Option<String>,
}

/// Informações do CT-e.
///
/// Groups of the schema not modelled here: `autXML`, `infSolicNFF`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazInfCte {
    /// Versão do leiaute. Ex: "4.00".
    pub versao: String,
    /// Identificador da tag a ser assinada.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub Id: Option<String>,
    pub ide: CteSefazIde,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compl: Option<CteSefazCompl>,
    pub emit: CteSefazEmit,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rem: Option<CteSefazRem>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exped: Option<CteSefazExped>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub receb: Option<CteSefazReceb>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dest: Option<CteSefazDest>,
    pub vPrest: CteSefazVPrest,
    pub imp: CteSefazInfCte_Imp,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infCTeNorm: Option<CteSefazInfCTeNorm>,
    /// Detalhamento do CT-e complementado (CT-e de complemento de valores).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub infCteComp: Vec<CteSefazInfCteComp>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub infRespTec: Option<CteSefazRespTec>,
}

/// Identificação do CT-e.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazIde {
    /// Código da UF do emitente do CT-e.
    pub cUF: i32,
    /// Código numérico que compõe a Chave de Acesso.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cCT: Option<String>,
    /// Código Fiscal de Operações e Prestações.
    pub CFOP: String,
    /// Natureza da Operação.
    pub natOp: String,
    /// Modelo do documento fiscal. Utilizar o código 57 para identificação do CT-e, emitido em…
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#mod: Option<i32>,
    /// Série do CT-e. Preencher com "0" no caso de série única.
    pub serie: i32,
    /// Número do CT-e.
    pub nCT: i32,
    /// Data e hora de emissão do CT-e. Formato AAAA-MM-DDTHH:MM:DD TZD.
    pub dhEmi: DateTime<FixedOffset>,
    /// Formato de impressão do DACTE.
    pub tpImp: i32,
    /// Forma de emissão do CT-e. Preencher com.
    pub tpEmis: i32,
    /// Digito Verificador da chave de acesso do CT-e.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cDV: Option<i32>,
    /// Tipo do Ambiente.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tpAmb: Option<i32>,
    /// Tipo do CT-e. Preencher com.
    pub tpCTe: i32,
    /// Identificador do processo de emissão do CT-e.
    pub procEmi: i32,
    /// Versão do processo de emissão. Iinformar a versão do aplicativo emissor de CT-e.
    pub verProc: String,
    /// Indicador de CT-e Globalizado. Informar valor 1 quando for Globalizado e não informar a tag…
    #[serde(skip_serializing_if = "Option::is_none")]
    pub indGlobalizado: Option<i32>,
    /// Código do Município de envio do CT-e (de onde o documento foi transmitido).
    pub cMunEnv: String,
    /// Nome do Município de envio do CT-e (de onde o documento foi transmitido).
    pub xMunEnv: String,
    /// Sigla da UF de envio do CT-e (de onde o documento foi transmitido).
    pub UFEnv: String,
    /// Modal. Preencher com.
    pub modal: String,
    /// Tipo do Serviço. Preencher com.
    pub tpServ: i32,
    /// Código do Município de início da prestação.
    pub cMunIni: String,
    /// Nome do Município do início da prestação.
    pub xMunIni: String,
    /// UF do início da prestação. Informar 'EX' para operações com o exterior.
    pub UFIni: String,
    /// Código do Município de término da prestação.
    pub cMunFim: String,
    /// Nome do Município do término da prestação.
    pub xMunFim: String,
    /// UF do término da prestação. Informar 'EX' para operações com o exterior.
    pub UFFim: String,
    /// Indicador se o Recebedor retira no Aeroporto, Filial, Porto ou Estação de Destino? Preencher…
    pub retira: i32,
    /// Detalhes do retira.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xDetRetira: Option<String>,
    /// Indicador do papel do tomador na prestação do serviço.
    pub indIEToma: i32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub toma3: Option<CteSefazToma3>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub toma4: Option<CteSefazToma4>,
    /// Data e Hora da entrada em contingência.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dhCont: Option<DateTime<FixedOffset>>,
    /// Justificativa da entrada em contingência.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xJust: Option<String>,
}

/// Indicador do "papel" do tomador do serviço no CT-e.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazToma3 {
    /// Tomador do Serviço. Preencher com.
    pub toma: i32,
}

/// Indicador do "papel" do tomador do serviço no CT-e.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazToma4 {
    /// Tomador do Serviço. Preencher com.
    pub toma: i32,
    /// Número do CNPJ. Em caso de empresa não estabelecida no Brasil, será informado o CNPJ com…
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CNPJ: Option<String>,
    /// Número do CPF. Informar os zeros não significativos.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CPF: Option<String>,
    /// Inscrição Estadual. Informar a IE do tomador ou ISENTO se tomador é contribuinte do ICMS…
    #[serde(skip_serializing_if = "Option::is_none")]
    pub IE: Option<String>,
    /// Razão Social ou Nome.
    pub xNome: String,
    /// Nome Fantasia.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xFant: Option<String>,
    /// Telefone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fone: Option<String>,
    pub enderToma: CteSefazEndereco,
    /// Endereço de email.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
}

/// Dados complementares do CT-e para fins operacionais ou comerciais.
///
/// Groups of the schema not modelled here: `fluxo`, `Entrega`, `ObsFisco`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazCompl {
    /// Característica adicional do transporte.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xCaracAd: Option<String>,
    /// Característica adicional do serviço.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xCaracSer: Option<String>,
    /// Funcionário emissor do CTe.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xEmi: Option<String>,
    /// Município de origem para efeito de cálculo do frete.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub origCalc: Option<String>,
    /// Município de destino para efeito de cálculo do frete.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub destCalc: Option<String>,
    /// Observações Gerais.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xObs: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ObsCont: Vec<CteSefazObsCont>,
}

/// Campo de uso livre do contribuinte.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazObsCont {
    /// Identificação do campo.
    pub xCampo: String,
    /// Conteúdo do campo.
    pub xTexto: String,
}

/// Identificação do Emitente do CT-e.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazEmit {
    /// CNPJ do emitente. Informar zeros não significativos.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CNPJ: Option<String>,
    /// CPF do emitente. Informar zeros não significativos.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CPF: Option<String>,
    /// Inscrição Estadual do Emitente. A IE do emitente somente ficará sem informação para o caso do…
    #[serde(skip_serializing_if = "Option::is_none")]
    pub IE: Option<String>,
    /// Inscrição Estadual do Substituto Tributário.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub IEST: Option<String>,
    /// Razão social ou Nome do emitente.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xNome: Option<String>,
    /// Nome fantasia.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xFant: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enderEmit: Option<CteSefazEndeEmi>,
    /// Código do Regime Tributário. Informar.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CRT: Option<i32>,
}

/// Endereço do emitente.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazEndeEmi {
    /// Logradouro.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xLgr: Option<String>,
    /// Número.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nro: Option<String>,
    /// Complemento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xCpl: Option<String>,
    /// Bairro.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xBairro: Option<String>,
    /// Código do município (utilizar a tabela do IBGE).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cMun: Option<String>,
    /// Nome do município.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xMun: Option<String>,
    /// CEP. Informar zeros não significativos.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CEP: Option<String>,
    /// Sigla da UF.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub UF: Option<String>,
    /// Telefone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fone: Option<String>,
}

/// Informações do Remetente das mercadorias transportadas pelo CT-e.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazRem {
    /// Número do CNPJ. Em caso de empresa não estabelecida no Brasil, será informado o CNPJ com…
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CNPJ: Option<String>,
    /// Número do CPF. Informar os zeros não significativos.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CPF: Option<String>,
    /// Inscrição Estadual. Informar a IE do remetente ou ISENTO se remetente é contribuinte do ICMS…
    #[serde(skip_serializing_if = "Option::is_none")]
    pub IE: Option<String>,
    /// Razão social ou nome do remetente.
    pub xNome: String,
    /// Nome fantasia.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xFant: Option<String>,
    /// Telefone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fone: Option<String>,
    pub enderReme: CteSefazEndereco,
    /// Endereço de email.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
}

/// Informações do Expedidor da Carga.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazExped {
    /// Número do CNPJ. Em caso de empresa não estabelecida no Brasil, será informado o CNPJ com…
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CNPJ: Option<String>,
    /// Número do CPF. Informar os zeros não significativos.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CPF: Option<String>,
    /// Inscrição Estadual. Informar a IE do expedidor ou ISENTO se expedidor é contribuinte do ICMS…
    #[serde(skip_serializing_if = "Option::is_none")]
    pub IE: Option<String>,
    /// Razão Social ou Nome.
    pub xNome: String,
    /// Telefone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fone: Option<String>,
    pub enderExped: CteSefazEndereco,
    /// Endereço de email.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
}

/// Informações do Recebedor da Carga.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazReceb {
    /// Número do CNPJ. Em caso de empresa não estabelecida no Brasil, será informado o CNPJ com…
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CNPJ: Option<String>,
    /// Número do CPF. Informar os zeros não significativos.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CPF: Option<String>,
    /// Inscrição Estadual. Informar a IE do recebedor ou ISENTO se recebedor é contribuinte do ICMS…
    #[serde(skip_serializing_if = "Option::is_none")]
    pub IE: Option<String>,
    /// Razão Social ou Nome.
    pub xNome: String,
    /// Telefone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fone: Option<String>,
    pub enderReceb: CteSefazEndereco,
    /// Endereço de email.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
}

/// Informações do Destinatário do CT-e.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazDest {
    /// Número do CNPJ. Em caso de empresa não estabelecida no Brasil, será informado o CNPJ com…
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CNPJ: Option<String>,
    /// Número do CPF. Informar os zeros não significativos.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CPF: Option<String>,
    /// Inscrição Estadual. Informar a IE do destinatário ou ISENTO se destinatário é contribuinte do…
    #[serde(skip_serializing_if = "Option::is_none")]
    pub IE: Option<String>,
    /// Razão Social ou Nome do destinatário.
    pub xNome: String,
    /// Telefone.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fone: Option<String>,
    /// Inscrição na SUFRAMA. (Obrigatório nas operações com as áreas com benefícios de incentivos…
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ISUF: Option<String>,
    pub enderDest: CteSefazEndereco,
    /// Endereço de email.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
}

/// Dados do endereço.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazEndereco {
    /// Logradouro.
    pub xLgr: String,
    /// Número.
    pub nro: String,
    /// Complemento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xCpl: Option<String>,
    /// Bairro.
    pub xBairro: String,
    /// Código do município (utilizar a tabela do IBGE).
    pub cMun: String,
    /// Nome do município. Informar EXTERIOR para operações com o exterior.
    pub xMun: String,
    /// CEP. Informar os zeros não significativos.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub CEP: Option<String>,
    /// Sigla da UF. Informar EX para operações com o exterior.
    pub UF: String,
    /// Código do país. Utilizar a tabela do BACEN.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cPais: Option<String>,
    /// Nome do país.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xPais: Option<String>,
}

/// Pedido de cancelamento de CT-e.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CtePedidoCancelamento {
    /// Justificativa para o cancelamento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub justificativa: Option<String>,
}

/// Pedido de carta de correção de CT-e (`POST /cte/{id}/carta-correcao`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CtePedidoCartaCorrecao {
    /// Grupo de Informações de Correção (ao menos uma).
    pub correcoes: Vec<CteInfCorrecao>,
}

/// Uma correção: o grupo e o campo do CT-e e o valor correto.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteInfCorrecao {
    /// Grupo de informações do campo alterado. Ex: ide.
    pub grupo_alterado: String,
    /// Nome do campo modificado do CT-e Original.
    pub campo_alterado: String,
    /// Valor correspondente à alteração.
    pub valor_alterado: String,
    /// Número do item alterado, quando o campo se repete.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub numero_item_alterado: Option<i32>,
}

/// Evento de carta de correção de CT-e.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteCartaCorrecao {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub correcoes: Vec<CteInfCorrecao>,
    /// ID único gerado pela Nuvem Fiscal para este evento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ambiente: Option<Ambiente>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<super::EventoStatus>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub autor: Option<super::DfeAutorEvento>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chave_acesso: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_evento: Option<DateTime<FixedOffset>>,
    /// Sequencial do evento para o mesmo tipo de evento.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub numero_sequencial: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data_recebimento: Option<DateTime<FixedOffset>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub codigo_status: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub motivo_status: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub numero_protocolo: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub codigo_mensagem: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mensagem: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tipo_evento: Option<String>,
}

/// Detalhamento do CT-e complementado.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CteSefazInfCteComp {
    /// Chave do CT-e complementado.
    pub chCTe: String,
}
