//! The NF-e request (`NfePedidoEmissao`) of an invoiced order, built from its
//! [`Sources`] without a database: emitter from the company, recipient from the
//! customer, one item per product line with NCM, CFOP (the nature's, inside or
//! outside the state), CST/CSOSN and taxes (`item_taxes`), totals that add up
//! exactly, payment from the order's method. Services are not NF-e items (they
//! go on the NFS-e).

use erp_platform::{Error, Result};
use rust_decimal::Decimal;

use super::item_taxes::{money, taxes, ItemValues};
use super::sources::{Customer, Item, Sources};
use crate::nuvemfiscal::types::*;
use crate::resources::dfe::numbering::Numbering;
use crate::resources::dfe::text::{blank, ie_of, need};
use crate::resources::taxes::codes::uf_code;

/// In homologação the SEFAZ wants this as the recipient's name (rejection 598).
pub const HOMOLOGACAO_NOME: &str = "NF-E EMITIDA EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL";

/// The company's CRT: the NF-e settings' regime, else its register's.
pub fn crt(s: &Sources) -> i32 {
    s.settings
        .regime
        .unwrap_or(match s.company.regime.as_deref() {
            Some("SIMPLES NACIONAL") => 1,
            Some("MEI") => 4,
            _ => 3,
        })
}

pub fn ambiente(s: &Sources) -> Ambiente {
    if s.settings.ambiente == 1 {
        Ambiente::Producao
    } else {
        Ambiente::Homologacao
    }
}

fn gtin(v: &Option<String>) -> String {
    blank(v)
        .filter(|g| matches!(g.len(), 8 | 12 | 13 | 14))
        .unwrap_or_else(|| "SEM GTIN".into())
}

pub fn build(s: &Sources, n: &Numbering) -> Result<NfePedidoEmissao> {
    let company_uf = need(&s.company.uf, "Informe a UF da empresa em Empresas.")?;
    let c_uf = uf_code(&company_uf)
        .ok_or_else(|| Error::validation(format!("UF da empresa inválida: {company_uf}.")))?;
    let crt = crt(s);
    let ambiente = ambiente(s);
    let dest_uf = blank(&s.customer.uf).unwrap_or_default();
    let id_dest = if dest_uf == "EX" {
        3
    } else if dest_uf.is_empty() || dest_uf == company_uf {
        1
    } else {
        2
    };
    let nat = &s.nature;
    let cfop = match id_dest {
        1 => nat.nato_cfop_estadual.clone(),
        2 => nat.nato_cfop_interestadual.clone(),
        _ => nat.nato_cfop_exterior.clone(),
    }
    .or_else(|| s.rule.ticm_cfop.clone().filter(|_| id_dest == 1))
    .ok_or_else(|| {
        Error::validation(format!(
            "A natureza de operação '{}' não tem CFOP {}: informe-o em Naturezas de Operação.",
            nat.nato_descricao,
            match id_dest {
                1 => "dentro do estado",
                2 => "fora do estado",
                _ => "para o exterior",
            }
        ))
    })?;
    let mut det = Vec::with_capacity(s.items.len());
    let mut tot = NfeSefazICMSTot::default();
    for (i, item) in s.items.iter().enumerate() {
        let (d, t) = det_of(s, item, i, &cfop, crt)?;
        tot.vProd += d.prod.vProd;
        tot.vDesc += d.prod.vDesc.unwrap_or_default();
        tot.vFrete += d.prod.vFrete.unwrap_or_default();
        tot.vOutro += d.prod.vOutro.unwrap_or_default();
        tot.vBC += t.v_bc;
        tot.vICMS += t.v_icms;
        tot.vFCP += t.v_fcp;
        tot.vBCST += t.v_bc_st;
        tot.vST += t.v_st;
        tot.vIPI += t.v_ipi;
        tot.vPIS += t.v_pis;
        tot.vCOFINS += t.v_cofins;
        det.push(d);
    }
    tot.vNF = tot.vProd - tot.vDesc + tot.vST + tot.vFrete + tot.vOutro + tot.vIPI;
    let finalidade = nat.nato_finalidade;
    let v_nf = tot.vNF;
    Ok(NfePedidoEmissao {
        infNFe: NfeSefazInfNFe {
            versao: "4.00".into(),
            ide: NfeSefazIde {
                cUF: c_uf,
                natOp: nat.nato_descricao.chars().take(60).collect(),
                r#mod: Some(55),
                serie: n.serie,
                nNF: i32::try_from(n.numero)
                    .map_err(|_| Error::validation("Número da NF-e fora do limite."))?,
                dhEmi: n.dh_emi,
                dhSaiEnt: Some(n.dh_emi),
                tpNF: if nat.nato_tipo == "E" { 0 } else { 1 },
                idDest: id_dest,
                cMunFG: need(
                    &s.company.cid_ibge,
                    "Informe a cidade (IBGE) da empresa em Empresas.",
                )?,
                tpImp: 1,
                tpEmis: 1,
                tpAmb: Some(ambiente.tp_amb()),
                finNFe: finalidade,
                indFinal: i32::from(nat.nato_consumidor_final || is_person(&s.customer)),
                indPres: 9,
                procEmi: 0,
                verProc: concat!("erp ", env!("CARGO_PKG_VERSION")).into(),
                ..Default::default()
            },
            emit: emitter(s, crt, &company_uf)?,
            dest: Some(recipient(&s.customer, ambiente, &dest_uf)?),
            det,
            total: NfeSefazTotal { ICMSTot: tot },
            transp: NfeSefazTransp {
                modFrete: if s.items.iter().any(|i| !i.vlr_frete.is_zero()) {
                    0
                } else {
                    9
                },
                ..Default::default()
            },
            pag: payment(s, finalidade, v_nf),
            infAdic: Some(NfeSefazInfAdic {
                infCpl: Some(format!(
                    "Pedido {} série {}.",
                    s.order.pedf_id, s.order.serie
                )),
                ..Default::default()
            }),
            ..Default::default()
        },
        ambiente,
        referencia: Some(n.referencia.clone()),
        ..Default::default()
    })
}

fn is_person(c: &Customer) -> bool {
    c.cnpj.is_none() && (c.cpf.is_some() || c.tipo_pessoa.as_deref() == Some("F"))
}

fn emitter(s: &Sources, crt: i32, uf: &str) -> Result<NfeSefazEmit> {
    let c = &s.company;
    let cnpj = need(&c.cnpj, "Informe o CNPJ da empresa em Empresas.")?;
    Ok(NfeSefazEmit {
        CNPJ: Some(cnpj),
        xNome: Some(need(
            &c.descricao,
            "Informe a razão social da empresa em Empresas.",
        )?),
        xFant: blank(&c.fantasia),
        enderEmit: Some(NfeSefazEnderEmi {
            xLgr: Some(need(
                &c.endereco,
                "Informe o endereço da empresa em Empresas.",
            )?),
            nro: Some(blank(&c.numero).unwrap_or_else(|| "S/N".into())),
            xCpl: blank(&c.complemento),
            xBairro: Some(need(&c.bairro, "Informe o bairro da empresa em Empresas.")?),
            cMun: blank(&c.cid_ibge),
            xMun: Some(need(&c.cidade, "Informe a cidade da empresa em Empresas.")?),
            UF: Some(uf.to_string()),
            CEP: blank(&c.cep),
            cPais: Some("1058".into()),
            xPais: Some("BRASIL".into()),
            fone: blank(&c.fone),
        }),
        IE: Some(ie_of(&c.ie).ok_or_else(|| {
            Error::validation("Informe a inscrição estadual da empresa em Empresas.")
        })?),
        IM: blank(&c.im).filter(|_| blank(&c.cnae).is_some()),
        CNAE: blank(&c.im).and(blank(&c.cnae)),
        CRT: Some(crt),
        ..Default::default()
    })
}

fn recipient(c: &Customer, ambiente: Ambiente, uf: &str) -> Result<NfeSefazDest> {
    let name = need(&c.descricao, "Informe o nome do cliente em Clientes.")?;
    let exterior = uf == "EX";
    let (cnpj, cpf, estrangeiro) = if exterior {
        (
            None,
            None,
            Some(blank(&c.doc_estrangeiro).unwrap_or_default()),
        )
    } else if let Some(cnpj) = blank(&c.cnpj) {
        (Some(cnpj), None, None)
    } else if let Some(cpf) = blank(&c.cpf) {
        (None, Some(cpf), None)
    } else {
        return Err(Error::validation(
            "Informe o CPF ou o CNPJ do cliente em Clientes.",
        ));
    };
    let ie = ie_of(&c.ie).filter(|ie| ie != "ISENTO");
    let ind_ie = match c.ind_ie {
        Some(i @ (1 | 2 | 9)) => i as i32,
        _ if ie.is_some() => 1,
        _ => 9,
    };
    let c_mun = if exterior {
        "9999999".to_string()
    } else {
        blank(&c.cid_ibge)
            .filter(|m| m.len() == 7)
            .ok_or_else(|| Error::validation("Informe a cidade (IBGE) do cliente em Clientes."))?
    };
    Ok(NfeSefazDest {
        CNPJ: cnpj,
        CPF: cpf,
        idEstrangeiro: estrangeiro,
        xNome: Some(match ambiente {
            Ambiente::Homologacao => HOMOLOGACAO_NOME.into(),
            Ambiente::Producao => name,
        }),
        enderDest: Some(NfeSefazEndereco {
            xLgr: need(&c.endereco, "Informe o endereço do cliente em Clientes.")?,
            nro: blank(&c.numero).unwrap_or_else(|| "S/N".into()),
            xCpl: blank(&c.complemento),
            xBairro: need(&c.bairro, "Informe o bairro do cliente em Clientes.")?,
            cMun: c_mun,
            xMun: if exterior {
                "EXTERIOR".into()
            } else {
                need(&c.cidade, "Informe a cidade do cliente em Clientes.")?
            },
            UF: if uf.is_empty() {
                return Err(Error::validation("Informe a UF do cliente em Clientes."));
            } else {
                uf.to_string()
            },
            CEP: blank(&c.cep).filter(|_| !exterior),
            cPais: (!exterior).then(|| "1058".into()),
            xPais: (!exterior).then(|| "BRASIL".into()),
            fone: blank(&c.fone),
        }),
        indIEDest: ind_ie,
        IE: ie.filter(|_| ind_ie == 1),
        IM: blank(&c.im),
        email: blank(&c.email_nfe).or_else(|| blank(&c.email)),
        ..Default::default()
    })
}

fn det_of(
    s: &Sources,
    item: &Item,
    i: usize,
    cfop: &str,
    crt: i32,
) -> Result<(NfeSefazDet, super::item_taxes::ItemTaxes)> {
    let name = blank(&item.descricao).unwrap_or_else(|| format!("produto {}", item.prod_id));
    if item.sem_cadastro {
        return Err(Error::validation(format!(
            "O produto {} do pedido não está disponível no fiscal: salve-o em Produtos e tente de novo.",
            item.prod_id
        )));
    }
    let ncm = blank(&item.ncm).filter(|n| n.len() == 8).ok_or_else(|| {
        Error::validation(format!(
            "O produto '{name}' não tem NCM: informe-o em Produtos."
        ))
    })?;
    let unit = blank(&item.unidade).unwrap_or_else(|| "UN".into());
    let v_prod = money(item.qtde * item.vlr_unit);
    let positive = |v: Decimal| (v > Decimal::ZERO).then_some(v);
    let values = ItemValues {
        orig: item.origem.unwrap_or(0) as i32,
        v_prod,
        v_desc: item.vlr_desconto,
        v_frete: item.vlr_frete,
        v_outro: item.vlr_acrescimo,
    };
    let t = taxes(&s.rule, crt, values)?;
    let ean = gtin(&item.gtin);
    let qty = item.qtde.normalize();
    let unit_price = item.vlr_unit.normalize();
    let det = NfeSefazDet {
        nItem: i32::try_from(i + 1).unwrap_or(i32::MAX),
        prod: NfeSefazProd {
            cProd: item.prod_id.to_string(),
            cEAN: ean.clone(),
            xProd: name.chars().take(120).collect(),
            NCM: ncm,
            CEST: blank(&item.cest).filter(|c| c.len() == 7),
            cBenef: blank(&s.rule.ticm_cbenef),
            CFOP: cfop.to_string(),
            uCom: unit.clone(),
            qCom: qty,
            vUnCom: unit_price,
            vProd: v_prod,
            cEANTrib: ean,
            uTrib: unit,
            qTrib: qty,
            vUnTrib: unit_price,
            vFrete: positive(item.vlr_frete),
            vDesc: positive(item.vlr_desconto),
            vOutro: positive(item.vlr_acrescimo),
            indTot: 1,
            xPed: Some(s.order.pedf_id.to_string()),
            nItemPed: i32::try_from(item.item).ok(),
            ..Default::default()
        },
        imposto: t.imposto.clone(),
        ..Default::default()
    };
    Ok((det, t))
}

/// One payment of the whole value with the order's method (`FRMP_TIPO` is
/// the NF-e's `tPag`); none for adjustments and returns (finNFe 3 and 4).
fn payment(s: &Sources, finalidade: i32, v_nf: Decimal) -> NfeSefazPag {
    let pag = if matches!(finalidade, 3 | 4) {
        NfeSefazDetPag { tPag: "90".into(), vPag: Decimal::ZERO, ..Default::default() }
    } else {
        let tipo = s
            .payment
            .as_ref()
            .and_then(|p| blank(&p.tipo))
            .unwrap_or_else(|| "99".into());
        let x_pag = (tipo == "99").then(|| {
            s.payment
                .as_ref()
                .and_then(|p| blank(&p.descricao))
                .unwrap_or_else(|| "Outros".into())
        });
        NfeSefazDetPag { tPag: tipo, xPag: x_pag, vPag: v_nf, ..Default::default() }
    };
    NfeSefazPag { detPag: vec![pag], vTroco: None }
}
