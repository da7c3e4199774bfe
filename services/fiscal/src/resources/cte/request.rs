//! The `CtePedidoEmissao` built from a CT-e's [`Sources`], without a
//! database: every missing piece is a pt-BR message naming the field to
//! fill, before anything is numbered or sent.

use erp_platform::{Error, Result};
use rust_decimal::Decimal;

use super::parties::{ind_ie, place, receiver, recipient, sender, shipper, taker, Party};
use super::sources::{Header, Sources};
use crate::nuvemfiscal::types::*;
use crate::resources::dfe::numbering::Numbering;
use crate::resources::dfe::text::{blank, cut, digits, ie_of, need};
use crate::resources::taxes::codes::uf_code;

/// The company's CRT: the CT-e settings' regime, else its register's.
pub fn crt(s: &Sources) -> i32 {
    s.settings
        .regime
        .unwrap_or(match s.company.regime.as_deref() {
            Some("SIMPLES NACIONAL") => 1,
            Some("MEI") => 4,
            _ => 3,
        })
}
/// The ICMS group of the CST; the value is the typed one, else base × rate.
fn icms(h: &Header, crt: i32) -> Result<CteSefazImp> {
    if matches!(crt, 1 | 4) {
        return Ok(CteSefazImp {
            ICMSSN: Some(CteSefazICMSSN { CST: "90".into(), indSN: 1 }),
            ..Default::default()
        });
    }
    let cst = h.cte_cst.clone();
    let hundred = Decimal::ONE_HUNDRED;
    let base = |reduced: bool| -> Result<(Decimal, Decimal, Decimal)> {
        let full = h.cte_vlr_frete;
        let v_bc = match h.cte_vlr_bc_icms {
            Some(b) => b,
            None if reduced => (full * (hundred - h.cte_perc_red_bc) / hundred).round_dp(2),
            None => full,
        };
        if v_bc <= Decimal::ZERO || h.cte_aliq_icms <= Decimal::ZERO {
            return Err(Error::validation(format!(
                "Informe a base de cálculo e a alíquota do ICMS do CT-e (CST {cst})."
            )));
        }
        let v_icms = h
            .cte_vlr_icms
            .unwrap_or_else(|| (v_bc * h.cte_aliq_icms / hundred).round_dp(2));
        Ok((v_bc, h.cte_aliq_icms.normalize(), v_icms))
    };
    Ok(match cst.as_str() {
        "00" => {
            let (v_bc, p_icms, v_icms) = base(false)?;
            CteSefazImp {
                ICMS00: Some(CteSefazICMS00 {
                    CST: cst.clone(),
                    vBC: v_bc,
                    pICMS: p_icms,
                    vICMS: v_icms,
                }),
                ..Default::default()
            }
        }
        "20" => {
            if h.cte_perc_red_bc <= Decimal::ZERO {
                return Err(Error::validation(
                    "Informe o percentual de redução da base do ICMS do CT-e (CST 20).",
                ));
            }
            let (v_bc, p_icms, v_icms) = base(true)?;
            CteSefazImp {
                ICMS20: Some(CteSefazICMS20 {
                    CST: cst.clone(),
                    pRedBC: h.cte_perc_red_bc.normalize(),
                    vBC: v_bc,
                    pICMS: p_icms,
                    vICMS: v_icms,
                    ..Default::default()
                }),
                ..Default::default()
            }
        }
        "40" | "41" | "51" => CteSefazImp {
            ICMS45: Some(CteSefazICMS45 { CST: cst.clone(), ..Default::default() }),
            ..Default::default()
        },
        "60" => {
            let (v_bc, p_icms, v_icms) = base(false)?;
            CteSefazImp {
                ICMS60: Some(CteSefazICMS60 {
                    CST: cst.clone(),
                    vBCSTRet: v_bc,
                    vICMSSTRet: v_icms,
                    pICMSSTRet: p_icms,
                    ..Default::default()
                }),
                ..Default::default()
            }
        }
        "90" => {
            let (v_bc, p_icms, v_icms) = base(h.cte_perc_red_bc > Decimal::ZERO)?;
            CteSefazImp {
                ICMS90: Some(CteSefazICMS90 {
                    CST: cst.clone(),
                    pRedBC: (h.cte_perc_red_bc > Decimal::ZERO)
                        .then(|| h.cte_perc_red_bc.normalize()),
                    vBC: v_bc,
                    pICMS: p_icms,
                    vICMS: v_icms,
                    ..Default::default()
                }),
                ..Default::default()
            }
        }
        other => {
            return Err(Error::validation(format!(
                "CST do ICMS do CT-e inválido: {other}."
            )))
        }
    })
}

/// The request of CT-e `s` numbered `n`.
pub fn build(s: &Sources, n: &Numbering) -> Result<CtePedidoEmissao> {
    let h = &s.header;
    let kind = CteKind::of(h)?;
    let cfop = digits(&h.cte_cfop)
        .filter(|c| c.len() == 4)
        .ok_or_else(|| Error::validation("Informe o CFOP do CT-e."))?;
    let nat_op = need(&h.cte_natureza, "Informe a natureza da operação do CT-e.")?;
    let c = &s.company;
    let company_uf = need(&c.uf, "Informe a UF da empresa em Empresas.")?.to_uppercase();
    let c_uf = uf_code(&company_uf)
        .ok_or_else(|| Error::validation(format!("UF da empresa inválida: {company_uf}.")))?;
    let cnpj = digits(&c.cnpj)
        .filter(|d| d.len() == 14)
        .ok_or_else(|| Error::validation("Informe o CNPJ da empresa em Empresas."))?;
    let ie = ie_of(&c.ie)
        .filter(|ie| ie != "ISENTO")
        .ok_or_else(|| Error::validation("Informe a inscrição estadual da empresa em Empresas."))?;
    let env = place(
        &h.cte_mun_env_ibge,
        &h.cte_mun_env_nome,
        &h.cte_mun_env_uf,
        "de emissão",
    )?;
    let ini = place(
        &h.cte_mun_ini_ibge,
        &h.cte_mun_ini_nome,
        &h.cte_mun_ini_uf,
        "de início da prestação",
    )?;
    let fim = place(
        &h.cte_mun_fim_ibge,
        &h.cte_mun_fim_nome,
        &h.cte_mun_fim_uf,
        "de término da prestação",
    )?;
    let rem = sender(h)?;
    let dest = recipient(h)?;
    let exped = shipper(h)?;
    let receb = receiver(h)?;
    let named = |p: &Option<Party>, who: &str| {
        p.as_ref().map(ind_ie).ok_or_else(|| {
            Error::validation(format!(
                "O tomador do serviço é o {who}: informe o {who} do CT-e (cliente ou nome, CPF/CNPJ e endereço)."
            ))
        })
    };
    let (toma3, toma4, ind_ie_toma) = match h.cte_tomador {
        0 => (Some(CteSefazToma3 { toma: 0 }), None, ind_ie(&rem)),
        1 => (
            Some(CteSefazToma3 { toma: 1 }),
            None,
            named(&exped, "expedidor")?,
        ),
        2 => (
            Some(CteSefazToma3 { toma: 2 }),
            None,
            named(&receb, "recebedor")?,
        ),
        3 => (Some(CteSefazToma3 { toma: 3 }), None, ind_ie(&dest)),
        _ => {
            let t = taker(h)?;
            let ind = ind_ie(&t);
            (
                None,
                Some(CteSefazToma4 {
                    toma: 4,
                    CNPJ: t.cnpj,
                    CPF: t.cpf,
                    IE: t.ie,
                    xNome: t.nome,
                    enderToma: t.ender,
                    ..Default::default()
                }),
                ind,
            )
        }
    };
    if h.cte_vlr_frete <= Decimal::ZERO {
        return Err(Error::validation(
            "Informe o valor da prestação (frete) do CT-e.",
        ));
    }
    let v_rec = h.cte_vlr_receber.unwrap_or(h.cte_vlr_frete);
    if v_rec > h.cte_vlr_frete {
        return Err(Error::validation(
            "O valor a receber do CT-e não pode passar do valor da prestação.",
        ));
    }
    let crt = crt(s);
    let imp = icms(h, crt)?;
    let numero =
        i32::try_from(n.numero).map_err(|_| Error::validation("Número do CT-e fora do limite."))?;
    let ambiente = if h.cte_ambiente == 1 {
        Ambiente::Producao
    } else {
        Ambiente::Homologacao
    };
    let mut obs_cont = Vec::new();
    if !s.route.is_empty() {
        obs_cont.push(CteSefazObsCont {
            xCampo: "UFPercurso".into(),
            xTexto: cut(s.route.join("-"), 160),
        });
    }
    let compl = (blank(&h.cte_obs).is_some() || !obs_cont.is_empty()).then(|| CteSefazCompl {
        xObs: blank(&h.cte_obs).map(|o| cut(o, 2000)),
        ObsCont: obs_cont,
        ..Default::default()
    });
    Ok(CtePedidoEmissao {
        infCte: CteSefazInfCte {
            versao: "4.00".into(),
            ide: CteSefazIde {
                cUF: c_uf,
                CFOP: cfop,
                natOp: cut(nat_op, 60),
                r#mod: Some(57),
                serie: n.serie,
                nCT: numero,
                dhEmi: n.dh_emi,
                tpImp: 1,
                tpEmis: 1,
                tpAmb: Some(ambiente.tp_amb()),
                tpCTe: kind.tp_cte(),
                procEmi: 0,
                verProc: concat!("erp ", env!("CARGO_PKG_VERSION")).into(),
                cMunEnv: env.0,
                xMunEnv: env.1,
                UFEnv: env.2,
                modal: "01".into(),
                tpServ: h.cte_tipo_servico,
                cMunIni: ini.0,
                xMunIni: ini.1,
                UFIni: ini.2,
                cMunFim: fim.0,
                xMunFim: fim.1,
                UFFim: fim.2,
                retira: 1,
                indIEToma: ind_ie_toma,
                toma3,
                toma4,
                ..Default::default()
            },
            compl,
            emit: CteSefazEmit {
                CNPJ: Some(cnpj),
                IE: Some(ie),
                xNome: Some(cut(
                    need(
                        &c.descricao,
                        "Informe a razão social da empresa em Empresas.",
                    )?,
                    60,
                )),
                xFant: blank(&c.fantasia).map(|f| cut(f, 60)),
                enderEmit: Some(CteSefazEndeEmi {
                    xLgr: Some(need(
                        &c.endereco,
                        "Informe o endereço da empresa em Empresas.",
                    )?),
                    nro: Some(blank(&c.numero).unwrap_or_else(|| "S/N".into())),
                    xCpl: blank(&c.complemento),
                    xBairro: Some(need(&c.bairro, "Informe o bairro da empresa em Empresas.")?),
                    cMun: Some(
                        digits(&c.cid_ibge)
                            .filter(|m| m.len() == 7)
                            .ok_or_else(|| {
                                Error::validation("Informe a cidade (IBGE) da empresa em Empresas.")
                            })?,
                    ),
                    xMun: Some(need(&c.cidade, "Informe a cidade da empresa em Empresas.")?),
                    CEP: digits(&c.cep).filter(|c| c.len() == 8),
                    UF: Some(company_uf),
                    fone: digits(&c.fone).filter(|f| (7..=12).contains(&f.len())),
                }),
                CRT: Some(crt),
                ..Default::default()
            },
            rem: Some(CteSefazRem {
                CNPJ: rem.cnpj,
                CPF: rem.cpf,
                IE: rem.ie,
                xNome: rem.nome,
                enderReme: rem.ender,
                ..Default::default()
            }),
            dest: Some(CteSefazDest {
                CNPJ: dest.cnpj,
                CPF: dest.cpf,
                IE: dest.ie,
                xNome: dest.nome,
                enderDest: dest.ender,
                ..Default::default()
            }),
            vPrest: CteSefazVPrest {
                vTPrest: h.cte_vlr_frete,
                vRec: v_rec,
                Comp: vec![CteSefazComp { xNome: "FRETE VALOR".into(), vComp: h.cte_vlr_frete }],
            },
            imp: CteSefazInfCte_Imp { ICMS: imp, ..Default::default() },
            infCTeNorm: match &kind {
                CteKind::Complement(_) => None,
                CteKind::Normal => Some(norm(s, None)?),
                CteKind::Substitute(sub) => Some(norm(s, Some(sub.clone()))?),
            },
            infCteComp: match &kind {
                CteKind::Complement(key) => vec![CteSefazInfCteComp { chCTe: key.clone() }],
                _ => Vec::new(),
            },
            exped: exped.map(|p| CteSefazExped {
                CNPJ: p.cnpj,
                CPF: p.cpf,
                IE: p.ie,
                xNome: p.nome,
                enderExped: p.ender,
                ..Default::default()
            }),
            receb: receb.map(|p| CteSefazReceb {
                CNPJ: p.cnpj,
                CPF: p.cpf,
                IE: p.ie,
                xNome: p.nome,
                enderReceb: p.ender,
                ..Default::default()
            }),
            ..Default::default()
        },
        ambiente,
        referencia: Some(n.referencia.clone()),
        ..Default::default()
    })
}

/// What a CT-e is, by its type (CTE_TIPO_CTE: 1 normal, 2 complement of
/// values, 3 annulment, 4 substitute) and the CT-e it refers to.
enum CteKind {
    Normal,
    /// The key of the CT-e whose values it complements.
    Complement(String),
    Substitute(CteSefazInfCteSub),
}

impl CteKind {
    fn of(h: &Header) -> Result<CteKind> {
        let reference = |what: &str| {
            digits(&h.cte_chave_ref)
                .filter(|k| k.len() == 44)
                .ok_or_else(|| {
                    Error::validation(format!(
                        "Informe a chave do CT-e {what} (44 dígitos) em Chave do CT-e Complementado/Substituído."
                    ))
                })
        };
        match h.cte_tipo_cte {
            1 => Ok(CteKind::Normal),
            2 => Ok(CteKind::Complement(reference("complementado")?)),
            4 => Ok(CteKind::Substitute(CteSefazInfCteSub {
                chCte: reference("substituído")?,
                indAlteraToma: h.cte_altera_toma.then_some(1),
            })),
            3 => Err(Error::validation(
                "O CT-e de anulação não existe no leiaute 4.00 da SEFAZ: para desfazer uma prestação, \
                 o tomador registra o evento de prestação em desacordo e você emite um CT-e substituto \
                 (tipo 4) ou cancela o CT-e dentro do prazo.",
            )),
            other => Err(Error::validation(format!("Tipo de CT-e inválido: {other}."))),
        }
    }

    /// The SEFAZ's tpCTe: 0 normal, 1 complement, 3 substitute.
    fn tp_cte(&self) -> i32 {
        match self {
            CteKind::Normal => 0,
            CteKind::Complement(_) => 1,
            CteKind::Substitute(_) => 3,
        }
    }
}

/// The group of a normal or substitute CT-e: the cargo, the NF-e carried,
/// the road modal and the new vehicles, and what it replaces.
fn norm(s: &Sources, sub: Option<CteSefazInfCteSub>) -> Result<CteSefazInfCTeNorm> {
    let h = &s.header;
    let pro_pred = need(
        &h.cte_produto_predominante,
        "Informe o produto predominante da carga do CT-e.",
    )?;
    let q_carga = h
        .cte_qtde
        .filter(|q| *q > Decimal::ZERO)
        .ok_or_else(|| Error::validation("Informe a quantidade da carga do CT-e."))?;
    let v_carga = h
        .cte_vlr_carga
        .filter(|v| *v > Decimal::ZERO)
        .ok_or_else(|| Error::validation("Informe o valor da carga do CT-e."))?;
    let rntrc = digits(&h.cte_rntrc)
        .filter(|r| r.len() == 8)
        .ok_or_else(|| Error::validation("Informe o RNTRC da empresa no CT-e (8 dígitos)."))?;
    if s.notes.is_empty() {
        return Err(Error::validation(
            "Informe ao menos uma NF-e transportada (chave de acesso) nas notas do CT-e.",
        ));
    }
    Ok(CteSefazInfCTeNorm {
        infCarga: CteSefazInfCarga {
            vCarga: Some(v_carga),
            proPred: cut(pro_pred, 60),
            xOutCat: blank(&h.cte_outras_caracteristicas).map(|x| cut(x, 30)),
            infQ: vec![CteSefazInfQ {
                cUnid: h.cte_unidade.clone(),
                tpMed: cut(
                    blank(&h.cte_tipo_medida).unwrap_or_else(|| "PESO BRUTO".into()),
                    20,
                ),
                qCarga: q_carga.normalize(),
            }],
            ..Default::default()
        },
        infDoc: Some(CteSefazInfDoc {
            infNFe: s
                .notes
                .iter()
                .map(|nt| CteSefazInfNFe {
                    chave: nt.cten_chave.clone(),
                    PIN: blank(&nt.cten_pin),
                    dPrev: nt.cten_dta_prevista,
                })
                .collect(),
            ..Default::default()
        }),
        infModal: CteSefazInfModal {
            versaoModal: "4.00".into(),
            rodo: Some(CteSefazRodo { RNTRC: rntrc }),
        },
        veicNovos: s
            .vehicles
            .iter()
            .map(|v| CteSefazVeicNovos {
                chassi: v.ctvn_chassi.clone(),
                cCor: v.ctvn_cor.clone(),
                xCor: v.ctvn_desc_cor.clone(),
                cMod: v.ctvn_modelo.clone(),
                vUnit: v.ctvn_vlr_unit,
                vFrete: v.ctvn_vlr_frete,
            })
            .collect(),
        infCteSub: sub,
    })
}
