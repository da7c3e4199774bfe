//! The parties of a CT-e (sender, recipient, other taker) and the places of
//! its service, as the request takes them: each missing piece is a pt-BR
//! message naming the field to fill.

use erp_platform::{Error, Result};

use super::sources::Header;
use crate::nuvemfiscal::types::CteSefazEndereco;
use crate::resources::dfe::text::{blank, cut, digits, ie_of, need};
use crate::resources::taxes::codes::uf_code;

/// A party of the CT-e as the request's parts take it.
pub(super) struct Party {
    pub cnpj: Option<String>,
    pub cpf: Option<String>,
    pub ie: Option<String>,
    pub nome: String,
    pub ender: CteSefazEndereco,
}

#[allow(clippy::too_many_arguments)]
fn party(
    who: &str,
    doc: &Option<String>,
    nome: &Option<String>,
    ie: &Option<String>,
    endereco: &Option<String>,
    numero: &Option<String>,
    bairro: &Option<String>,
    mun_ibge: &Option<String>,
    municipio: &Option<String>,
    uf: &Option<String>,
    cep: &Option<String>,
) -> Result<Party> {
    let nome = need(
        nome,
        &format!("Informe o {who} do CT-e: escolha o cliente ou digite o nome e o endereço."),
    )?;
    let doc = digits(doc)
        .ok_or_else(|| Error::validation(format!("Informe o CPF ou o CNPJ do {who} do CT-e.")))?;
    let (cnpj, cpf) = match doc.len() {
        14 => (Some(doc), None),
        11 => (None, Some(doc)),
        _ => {
            return Err(Error::validation(format!(
                "CPF/CNPJ do {who} do CT-e inválido: {doc}."
            )))
        }
    };
    let c_mun = digits(mun_ibge).filter(|m| m.len() == 7).ok_or_else(|| {
        Error::validation(format!(
            "Informe o município (código IBGE) do {who} do CT-e."
        ))
    })?;
    let uf = blank(uf)
        .map(|u| u.to_uppercase())
        .filter(|u| uf_code(u).is_some())
        .ok_or_else(|| Error::validation(format!("Informe a UF do {who} do CT-e.")))?;
    Ok(Party {
        cnpj,
        cpf,
        ie: ie_of(ie),
        nome: cut(nome, 60),
        ender: CteSefazEndereco {
            xLgr: cut(
                need(endereco, &format!("Informe o endereço do {who} do CT-e."))?,
                255,
            ),
            nro: cut(blank(numero).unwrap_or_else(|| "S/N".into()), 60),
            xCpl: None,
            xBairro: cut(
                need(bairro, &format!("Informe o bairro do {who} do CT-e."))?,
                60,
            ),
            cMun: c_mun,
            xMun: cut(
                need(municipio, &format!("Informe o município do {who} do CT-e."))?,
                60,
            ),
            CEP: digits(cep).filter(|c| c.len() == 8),
            UF: uf,
            cPais: Some("1058".into()),
            xPais: Some("BRASIL".into()),
        },
    })
}

pub(super) fn sender(h: &Header) -> Result<Party> {
    party(
        "remetente",
        &h.cte_rem_cnpjcpf,
        &h.cte_rem_nome,
        &h.cte_rem_ie,
        &h.cte_rem_endereco,
        &h.cte_rem_numero,
        &h.cte_rem_bairro,
        &h.cte_rem_mun_ibge,
        &h.cte_rem_municipio,
        &h.cte_rem_uf,
        &h.cte_rem_cep,
    )
}

pub(super) fn recipient(h: &Header) -> Result<Party> {
    party(
        "destinatário",
        &h.cte_dest_cnpjcpf,
        &h.cte_dest_nome,
        &h.cte_dest_ie,
        &h.cte_dest_endereco,
        &h.cte_dest_numero,
        &h.cte_dest_bairro,
        &h.cte_dest_mun_ibge,
        &h.cte_dest_municipio,
        &h.cte_dest_uf,
        &h.cte_dest_cep,
    )
}

/// The shipper (expedidor), when the CT-e names one.
pub(super) fn shipper(h: &Header) -> Result<Option<Party>> {
    if blank(&h.cte_exped_nome).is_none() && blank(&h.cte_exped_cnpjcpf).is_none() {
        return Ok(None);
    }
    party(
        "expedidor",
        &h.cte_exped_cnpjcpf,
        &h.cte_exped_nome,
        &h.cte_exped_ie,
        &h.cte_exped_endereco,
        &h.cte_exped_numero,
        &h.cte_exped_bairro,
        &h.cte_exped_mun_ibge,
        &h.cte_exped_municipio,
        &h.cte_exped_uf,
        &h.cte_exped_cep,
    )
    .map(Some)
}

/// The receiver (recebedor), when the CT-e names one.
pub(super) fn receiver(h: &Header) -> Result<Option<Party>> {
    if blank(&h.cte_receb_nome).is_none() && blank(&h.cte_receb_cnpjcpf).is_none() {
        return Ok(None);
    }
    party(
        "recebedor",
        &h.cte_receb_cnpjcpf,
        &h.cte_receb_nome,
        &h.cte_receb_ie,
        &h.cte_receb_endereco,
        &h.cte_receb_numero,
        &h.cte_receb_bairro,
        &h.cte_receb_mun_ibge,
        &h.cte_receb_municipio,
        &h.cte_receb_uf,
        &h.cte_receb_cep,
    )
    .map(Some)
}

pub(super) fn taker(h: &Header) -> Result<Party> {
    party(
        "tomador",
        &h.cte_cnpjcpf,
        &h.cte_toma_nome,
        &h.cte_toma_ie,
        &h.cte_toma_endereco,
        &h.cte_toma_numero,
        &h.cte_toma_bairro,
        &h.cte_toma_mun_ibge,
        &h.cte_toma_municipio,
        &h.cte_toma_uf,
        &h.cte_toma_cep,
    )
}

/// A place of the service: IBGE code, name and state.
pub(super) fn place(
    ibge: &Option<String>,
    nome: &Option<String>,
    uf: &Option<String>,
    what: &str,
) -> Result<(String, String, String)> {
    let message = format!("Informe o município {what} do CT-e (código IBGE, nome e UF).");
    let ibge = digits(ibge)
        .filter(|m| m.len() == 7)
        .ok_or_else(|| Error::validation(message.clone()))?;
    let nome = need(nome, &message)?;
    let uf = blank(uf)
        .map(|u| u.to_uppercase())
        .filter(|u| uf_code(u).is_some())
        .ok_or_else(|| Error::validation(message))?;
    Ok((ibge, cut(nome, 60), uf))
}

/// indIEToma of a party: 1 with an IE, 2 exempt, 9 otherwise.
pub(super) fn ind_ie(p: &Party) -> i32 {
    match p.ie.as_deref() {
        Some("ISENTO") => 2,
        Some(_) => 1,
        None => 9,
    }
}
