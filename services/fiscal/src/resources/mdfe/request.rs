//! The MDF-e request (`MdfePedidoEmissao`, the provider's schema) built from
//! its [`Sources`] without a database, checked before anything is sent: what
//! is missing is a pt-BR message naming where to fill it in.

use chrono::{DateTime, FixedOffset, NaiveTime, TimeZone};
use erp_platform::{Error, Result};
use rust_decimal::Decimal;

use super::sources::{Contractor, Sources};
use crate::nuvemfiscal::types::*;
use crate::resources::dfe::numbering::Numbering;
use crate::resources::dfe::text::{blank, ie_of, need};
use crate::resources::taxes::codes::uf_code;

pub const NO_ORIGIN: &str =
    "Informe ao menos um município de carregamento (Municípios de Carregamento).";
pub const NO_DESTINATION: &str =
    "Informe ao menos um município de descarregamento (Municípios de Descarregamento).";
pub const NO_DOCUMENT: &str =
    "Informe ao menos um documento (NF-e ou CT-e) descarregado (Documentos Descarregados).";
pub const NO_VEHICLE: &str = "Informe o veículo de tração (Veículos, tipo Tração).";
pub const NO_DRIVER: &str = "Informe ao menos um motorista (Motoristas).";
const OWN_LOAD_CTE: &str =
    "Um MDF-e de carga própria (tipo de emitente 2) relaciona NF-e, não CT-e: \
     altere o tipo do emitente ou remova os CT-e.";
const NO_LOAD_VALUE: &str = "Informe o valor da carga (maior que zero).";
const NO_LOAD_WEIGHT: &str = "Informe o peso bruto da carga (maior que zero).";
const MAX_DRIVERS: usize = 10;

pub fn ambiente(s: &Sources) -> Ambiente {
    if s.settings.ambiente == 1 {
        Ambiente::Producao
    } else {
        Ambiente::Homologacao
    }
}

fn digits(s: &str) -> String {
    s.chars()
        .filter(char::is_ascii_alphanumeric)
        .collect::<String>()
        .to_uppercase()
}

/// CPF (11) or CNPJ (14) of a person or company.
fn cpf_cnpj(doc: &str) -> (Option<String>, Option<String>) {
    let d = digits(doc);
    if d.len() == 11 {
        (Some(d), None)
    } else {
        (None, Some(d))
    }
}

/// The trip's start in Brasília time, when its date is set.
fn trip_start(s: &Sources) -> Option<DateTime<FixedOffset>> {
    let date = s.head.mdfe_dta_viagem?;
    let time = s
        .head
        .mdfe_hora_viagem
        .as_deref()
        .and_then(|h| NaiveTime::parse_from_str(h, "%H:%M").ok())
        .unwrap_or_default();
    let brt = FixedOffset::west_opt(3 * 3600)?;
    brt.from_local_datetime(&date.and_time(time)).single()
}

/// The checks that need only the rows, in the order a user fixes them: what
/// blocks the emission, or nothing.
pub fn check(s: &Sources) -> Result<()> {
    if s.origins.is_empty() {
        return Err(Error::validation(NO_ORIGIN));
    }
    if s.destinations.is_empty() {
        return Err(Error::validation(NO_DESTINATION));
    }
    if s.documents.is_empty() {
        return Err(Error::validation(NO_DOCUMENT));
    }
    let empty: Vec<&str> = s
        .destinations
        .iter()
        .filter(|c| !s.documents.iter().any(|d| d.mcid_id == c.id))
        .map(|c| c.cidade.as_str())
        .collect();
    if !empty.is_empty() {
        return Err(Error::validation(format!(
            "Município de descarregamento sem documento: {}. Inclua as NF-e/CT-e descarregadas nele ou remova-o.",
            empty.join(", ")
        )));
    }
    // An IBGE city code starts with its state's code.
    let in_uf = |ibge: &str, uf: &str| {
        uf_code(uf).is_some_and(|c| ibge.get(..2) == Some(c.to_string().as_str()))
    };
    let (ini, fim) = (s.head.mdfe_uf_ini.as_str(), s.head.mdfe_uf_fim.as_str());
    if let Some(c) = s.origins.iter().find(|c| !in_uf(&c.ibge, ini)) {
        return Err(Error::validation(format!(
            "O município de carregamento {} ({}) não é da UF de carregamento {ini}.",
            c.cidade, c.ibge
        )));
    }
    if let Some(c) = s.destinations.iter().find(|c| !in_uf(&c.ibge, fim)) {
        return Err(Error::validation(format!(
            "O município de descarregamento {} ({}) não é da UF de descarregamento {fim}.",
            c.cidade, c.ibge
        )));
    }
    if s.head.mdfe_tp_emit == 2 && s.documents.iter().any(|d| d.modelo == "57") {
        return Err(Error::validation(OWN_LOAD_CTE));
    }
    if !s.vehicles.iter().any(|v| v.tipo == "T") {
        return Err(Error::validation(NO_VEHICLE));
    }
    if s.vehicles.iter().filter(|v| v.tipo == "T").count() > 1 {
        return Err(Error::validation(
            "Informe um só veículo de tração; os demais são reboques.",
        ));
    }
    if s.drivers.is_empty() {
        return Err(Error::validation(NO_DRIVER));
    }
    if s.drivers.len() > MAX_DRIVERS {
        return Err(Error::validation("Informe no máximo 10 motoristas."));
    }
    if s.head.mdfe_vlr_carga <= Decimal::ZERO {
        return Err(Error::validation(NO_LOAD_VALUE));
    }
    if s.head.mdfe_q_carga <= Decimal::ZERO {
        return Err(Error::validation(NO_LOAD_WEIGHT));
    }
    if s.payments
        .iter()
        .any(|p| p.ind_pag == 1 && p.dta_vcto.is_none())
    {
        return Err(Error::validation(
            "Informe o vencimento do pagamento a prazo (Pagamentos do Frete).",
        ));
    }
    if blank(&s.head.mdfe_ciot).is_some() && blank(&s.head.mdfe_ciot_cpf_cnpj).is_none() {
        return Err(Error::validation(
            "Informe o CPF/CNPJ de quem gerou o CIOT (dados da viagem).",
        ));
    }
    if s.insurances
        .iter()
        .any(|i| i.resp == 2 && blank(&i.resp_doc).is_none())
    {
        return Err(Error::validation(
            "Informe o CPF/CNPJ do contratante responsável pelo seguro (Seguros da Carga).",
        ));
    }
    for p in &s.payments {
        if !s.components.iter().any(|c| c.mdpg_id == p.id) {
            return Err(Error::validation(format!(
                "O pagamento de {} não tem componentes: informe ao menos um (Componentes do Pagamento).",
                p.nome
            )));
        }
    }
    Ok(())
}

fn emitter(s: &Sources, uf: &str) -> Result<MdfeSefazEmit> {
    let c = &s.company;
    let cnpj = need(&c.cnpj, "Informe o CNPJ da empresa em Empresas.")?;
    Ok(MdfeSefazEmit {
        CNPJ: Some(digits(&cnpj)),
        CPF: None,
        IE: Some(ie_of(&c.ie).ok_or_else(|| {
            Error::validation("Informe a inscrição estadual da empresa em Empresas.")
        })?),
        xNome: Some(need(
            &c.descricao,
            "Informe a razão social da empresa em Empresas.",
        )?),
        xFant: blank(&c.fantasia),
        enderEmit: Some(MdfeSefazEndeEmi {
            xLgr: Some(need(
                &c.endereco,
                "Informe o endereço da empresa em Empresas.",
            )?),
            nro: Some(blank(&c.numero).unwrap_or_else(|| "S/N".into())),
            xCpl: blank(&c.complemento),
            xBairro: Some(need(&c.bairro, "Informe o bairro da empresa em Empresas.")?),
            cMun: Some(need(
                &c.cid_ibge,
                "Informe o código IBGE da cidade da empresa em Empresas.",
            )?),
            xMun: Some(need(&c.cidade, "Informe a cidade da empresa em Empresas.")?),
            CEP: blank(&c.cep).map(|c| digits(&c)),
            UF: Some(uf.to_string()),
            fone: blank(&c.fone)
                .map(|f| digits(&f))
                .filter(|f| (6..=14).contains(&f.len())),
            email: None,
        }),
    })
}

fn road(s: &Sources) -> Result<MdfeSefazRodo> {
    let tracao = s
        .vehicles
        .iter()
        .find(|v| v.tipo == "T")
        .ok_or_else(|| Error::validation(NO_VEHICLE))?;
    let tp_rod = tracao.tp_rod.clone().ok_or_else(|| {
        Error::validation("Informe o tipo de rodado do veículo de tração (Veículos).")
    })?;
    let condutor = s
        .drivers
        .iter()
        .map(|d| MdfeSefazCondutor { xNome: d.nome.trim().to_string(), CPF: digits(&d.doc) })
        .collect();
    let mut reboques = Vec::new();
    for r in s.vehicles.iter().filter(|v| v.tipo == "R") {
        reboques.push(MdfeSefazVeicReboque {
            cInt: None,
            placa: r.placa.clone(),
            RENAVAM: r.renavam.clone(),
            tara: r.tara,
            capKG: r.cap_kg.ok_or_else(|| {
                Error::validation(format!(
                    "Informe a capacidade em kg do reboque {}.",
                    r.placa
                ))
            })?,
            capM3: r.cap_m3,
            tpCar: r.tp_car.clone(),
            UF: r.uf.clone(),
        });
    }
    let contractors = s
        .contractors
        .iter()
        .map(|c: &Contractor| {
            let (cpf, cnpj) = cpf_cnpj(&c.doc);
            MdfeSefazInfContratante {
                xNome: Some(c.nome.trim().to_string()),
                CPF: cpf,
                CNPJ: cnpj,
                idEstrangeiro: None,
                infContrato: match (blank(&c.nro_contrato), c.vlr_contrato) {
                    (Some(n), Some(v)) => {
                        Some(MdfeSefazInfContrato { NroContrato: n, vContratoGlobal: v })
                    }
                    _ => None,
                },
            }
        })
        .collect();
    let payments = s
        .payments
        .iter()
        .map(|p| {
            let (cpf, cnpj) = cpf_cnpj(&p.doc);
            MdfeSefazInfPag {
                xNome: Some(p.nome.trim().to_string()),
                CPF: cpf,
                CNPJ: cnpj,
                idEstrangeiro: None,
                Comp: s
                    .components
                    .iter()
                    .filter(|c| c.mdpg_id == p.id)
                    .map(|c| MdfeSefazComp {
                        tpComp: c.tipo.clone(),
                        vComp: c.valor,
                        xComp: blank(&c.descricao),
                    })
                    .collect(),
                vContrato: p.vlr_contrato,
                indPag: p.ind_pag,
                vAdiant: p.vlr_adiant.filter(|v| *v > Decimal::ZERO),
                infPrazo: match (p.ind_pag, p.dta_vcto) {
                    (1, Some(d)) => vec![MdfeSefazInfPrazo {
                        nParcela: 1,
                        dVenc: d,
                        vParcela: p.vlr_contrato - p.vlr_adiant.unwrap_or_default(),
                    }],
                    _ => Vec::new(),
                },
                infBanc: MdfeSefazInfBanc {
                    codBanco: blank(&p.banco).filter(|_| blank(&p.pix).is_none()),
                    codAgencia: blank(&p.agencia).filter(|_| blank(&p.pix).is_none()),
                    CNPJIPEF: None,
                    PIX: blank(&p.pix),
                },
            }
        })
        .collect();
    let vale = (!s.tolls.is_empty()).then(|| MdfeSefazValePed {
        disp: s
            .tolls
            .iter()
            .map(|t| {
                let (cpf, cnpj) = t
                    .cpf_cnpj_pag
                    .as_deref()
                    .map(cpf_cnpj)
                    .unwrap_or((None, None));
                MdfeSefazDisp {
                    CNPJForn: digits(&t.cnpj_forn),
                    CNPJPg: cnpj,
                    CPFPg: cpf,
                    nCompra: blank(&t.n_compra),
                    vValePed: t.valor,
                    tpValePed: None,
                }
            })
            .collect(),
        categCombVeic: None,
    });
    let rntrc = blank(&s.head.mdfe_rntrc);
    let ciot: Vec<MdfeSefazInfCIOT> = blank(&s.head.mdfe_ciot)
        .map(|code| {
            let (cpf, cnpj) = s
                .head
                .mdfe_ciot_cpf_cnpj
                .as_deref()
                .map(cpf_cnpj)
                .unwrap_or((None, None));
            MdfeSefazInfCIOT { CIOT: code, CPF: cpf, CNPJ: cnpj }
        })
        .into_iter()
        .collect();
    let antt = (rntrc.is_some()
        || !ciot.is_empty()
        || !s.contractors.is_empty()
        || !s.payments.is_empty()
        || vale.is_some())
    .then_some(MdfeSefazInfANTT {
        RNTRC: rntrc,
        infCIOT: ciot,
        valePed: vale,
        infContratante: contractors,
        infPag: payments,
    });
    Ok(MdfeSefazRodo {
        infANTT: antt,
        veicTracao: MdfeSefazVeicTracao {
            cInt: None,
            placa: tracao.placa.clone(),
            RENAVAM: tracao.renavam.clone(),
            tara: tracao.tara,
            capKG: tracao.cap_kg,
            capM3: tracao.cap_m3,
            condutor,
            tpRod: tp_rod,
            tpCar: tracao.tp_car.clone(),
            UF: tracao.uf.clone(),
        },
        veicReboque: reboques,
        codAgPorto: None,
    })
}

/// The cargo insurance groups (`seg`), each averbação of a row apart.
fn insurance(s: &Sources) -> Vec<MdfeSefazSeg> {
    s.insurances
        .iter()
        .map(|i| {
            let (cpf, cnpj) = i.resp_doc.as_deref().map(cpf_cnpj).unwrap_or((None, None));
            MdfeSefazSeg {
                infResp: MdfeSefazInfResp { respSeg: i.resp, CNPJ: cnpj, CPF: cpf },
                infSeg: Some(MdfeSefazInfSeg {
                    xSeg: i.seguradora.trim().chars().take(30).collect(),
                    CNPJ: digits(&i.seguradora_cnpj),
                }),
                nApol: blank(&i.apolice),
                nAver: i
                    .averbacoes
                    .as_deref()
                    .unwrap_or_default()
                    .split([',', ';', '\n'])
                    .map(str::trim)
                    .filter(|a| !a.is_empty())
                    .map(String::from)
                    .collect(),
            }
        })
        .collect()
}

/// The checked request of an MDF-e with its number.
pub fn build(s: &Sources, n: &Numbering) -> Result<MdfePedidoEmissao> {
    check(s)?;
    let company_uf = need(&s.company.uf, "Informe a UF da empresa em Empresas.")?.to_uppercase();
    let c_uf = uf_code(&company_uf)
        .ok_or_else(|| Error::validation(format!("UF da empresa inválida: {company_uf}.")))?;
    let ambiente = ambiente(s);
    let numero = i32::try_from(n.numero)
        .ok()
        .filter(|n| (1..=999_999_999).contains(n))
        .ok_or_else(|| {
            Error::validation("Número do MDF-e fora de 1 a 999999999: confira a numeração.")
        })?;
    let h = &s.head;
    let municipios = s
        .destinations
        .iter()
        .map(|c| {
            let docs = s.documents.iter().filter(|d| d.mcid_id == c.id);
            MdfeSefazInfMunDescarga {
                cMunDescarga: c.ibge.clone(),
                xMunDescarga: c.cidade.clone(),
                infCTe: docs
                    .clone()
                    .filter(|d| d.modelo == "57")
                    .map(|d| MdfeSefazInfCTe { chCTe: d.chave.clone(), ..Default::default() })
                    .collect(),
                infNFe: docs
                    .filter(|d| d.modelo == "55")
                    .map(|d| MdfeSefazInfNFe { chNFe: d.chave.clone(), ..Default::default() })
                    .collect(),
            }
        })
        .collect();
    let count = |m: &str| {
        let n = s.documents.iter().filter(|d| d.modelo == m).count();
        (n > 0).then(|| i32::try_from(n).unwrap_or(i32::MAX))
    };
    let prod = match (blank(&h.mdfe_prod_descricao), blank(&h.mdfe_prod_tp_carga)) {
        (Some(x), Some(tp)) => Some(MdfeSefazProdPred {
            tpCarga: tp,
            xProd: x,
            cEAN: blank(&h.mdfe_prod_ean),
            NCM: blank(&h.mdfe_prod_ncm),
        }),
        (Some(_), None) => {
            return Err(Error::validation(
                "Informe o tipo de carga do produto predominante.",
            ))
        }
        _ => None,
    };
    let inf_adic =
        (blank(&h.mdfe_obs).is_some() || blank(&h.mdfe_obs_fisco).is_some()).then(|| {
            MdfeSefazInfAdic { infAdFisco: blank(&h.mdfe_obs_fisco), infCpl: blank(&h.mdfe_obs) }
        });
    Ok(MdfePedidoEmissao {
        infMDFe: MdfeSefazInfMDFe {
            versao: "3.00".into(),
            Id: None,
            ide: MdfeSefazIde {
                cUF: c_uf,
                tpAmb: Some(if ambiente == Ambiente::Producao { 1 } else { 2 }),
                tpEmit: h.mdfe_tp_emit,
                tpTransp: h.mdfe_tp_transp,
                r#mod: Some(58),
                serie: n.serie,
                nMDF: numero,
                cMDF: None,
                cDV: None,
                modal: h.mdfe_modal,
                dhEmi: n.dh_emi,
                tpEmis: 1,
                procEmi: "0".into(),
                verProc: concat!("erp ", env!("CARGO_PKG_VERSION")).into(),
                UFIni: h.mdfe_uf_ini.clone(),
                UFFim: h.mdfe_uf_fim.clone(),
                infMunCarrega: s
                    .origins
                    .iter()
                    .map(|c| MdfeSefazInfMunCarrega {
                        cMunCarrega: c.ibge.clone(),
                        xMunCarrega: c.cidade.clone(),
                    })
                    .collect(),
                infPercurso: s
                    .path_states
                    .iter()
                    .map(|uf| MdfeSefazInfPercurso { UFPer: uf.clone() })
                    .collect(),
                dhIniViagem: trip_start(s),
                indCanalVerde: None,
                indCarregaPosterior: None,
            },
            emit: emitter(s, &company_uf)?,
            infModal: MdfeSefazInfModal { versaoModal: "3.00".into(), rodo: Some(road(s)?) },
            infDoc: MdfeSefazInfDoc { infMunDescarga: municipios },
            seg: insurance(s),
            prodPred: prod,
            tot: MdfeSefazTot {
                qCTe: count("57"),
                qNFe: count("55"),
                qMDFe: None,
                vCarga: h.mdfe_vlr_carga,
                cUnid: h.mdfe_c_unid.clone(),
                qCarga: h.mdfe_q_carga,
            },
            lacres: s
                .seals
                .iter()
                .map(|l| MdfeSefazLacres { nLacre: l.clone() })
                .collect(),
            infAdic: inf_adic,
            infRespTec: None,
        },
        infMDFeSupl: None,
        ambiente,
        referencia: Some(n.referencia.clone()),
    })
}
