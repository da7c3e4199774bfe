//! The taxes of one NF-e item from its tax rule (`tributacao`): the ICMS group
//! of its CST (regime normal) or CSOSN (Simples Nacional), with the ST of the
//! rule's MVA and rate; the IPI, PIS and COFINS of their CSTs and rates. Values
//! in decimals, rounded half away from zero to 2 places like the SEFAZ's.
//!
//! The bases: ICMS and ST over the item's value less its discount plus its
//! freight and other charges (and the IPI, for ST); IPI over the same value
//! without the discount's exclusion rules of the MOC's special cases; PIS and
//! COFINS over the item's value less its discount.

use erp_platform::{Error, Result};
use rust_decimal::{Decimal, RoundingStrategy};

use super::sources::TaxRule;
use crate::nuvemfiscal::types::*;

pub fn money(v: Decimal) -> Decimal {
    v.round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero)
}

fn pct(base: Decimal, rate: Decimal) -> Decimal {
    money(base * rate / Decimal::ONE_HUNDRED)
}

/// The values of an item that its taxes start from.
#[derive(Debug, Clone, Copy, Default)]
pub struct ItemValues {
    pub orig: i32,
    pub v_prod: Decimal,
    pub v_desc: Decimal,
    pub v_frete: Decimal,
    pub v_outro: Decimal,
}

/// An item's taxes and the amounts the totals add up.
#[derive(Debug, Clone, Default)]
pub struct ItemTaxes {
    pub imposto: NfeSefazImposto,
    pub v_bc: Decimal,
    pub v_icms: Decimal,
    pub v_fcp: Decimal,
    pub v_bc_st: Decimal,
    pub v_st: Decimal,
    pub v_ipi: Decimal,
    pub v_pis: Decimal,
    pub v_cofins: Decimal,
}

/// Whether the company's CRT takes a CSOSN (Simples Nacional and MEI).
pub fn uses_csosn(crt: i32) -> bool {
    matches!(crt, 1 | 4)
}

pub fn taxes(rule: &TaxRule, crt: i32, v: ItemValues) -> Result<ItemTaxes> {
    let mut t = ItemTaxes::default();
    let base = v.v_prod - v.v_desc + v.v_frete + v.v_outro;
    ipi(rule, base + v.v_desc, &mut t);
    t.imposto.ICMS = Some(if uses_csosn(crt) {
        simples(rule, v.orig, base, &mut t)?
    } else {
        normal(rule, v.orig, base, &mut t)?
    });
    let pis_base = v.v_prod - v.v_desc;
    let (pis, v_pis) = pis(rule, pis_base);
    let (cofins, v_cofins) = cofins(rule, pis_base);
    t.imposto.PIS = Some(pis);
    t.imposto.COFINS = Some(cofins);
    t.v_pis = v_pis;
    t.v_cofins = v_cofins;
    Ok(t)
}

/// ST over the operation: (base + IPI) × (1 + MVA) × (1 − reduction), less the
/// ICMS of the operation itself.
fn st(rule: &TaxRule, base: Decimal, own_icms: Decimal, t: &mut ItemTaxes) -> (Decimal, Decimal) {
    let hundred = Decimal::ONE_HUNDRED;
    let v_bc_st = money(
        (base + t.v_ipi) * (hundred + rule.ticm_perc_mva_st) / hundred
            * (hundred - rule.ticm_perc_reducao_st)
            / hundred,
    );
    let v_st = (pct(v_bc_st, rule.ticm_perc_icms_st) - own_icms).max(Decimal::ZERO);
    t.v_bc_st = v_bc_st;
    t.v_st = v_st;
    (v_bc_st, v_st)
}

fn opt(rate: Decimal) -> Option<Decimal> {
    (!rate.is_zero()).then_some(rate)
}

fn normal(rule: &TaxRule, orig: i32, base: Decimal, t: &mut ItemTaxes) -> Result<NfeSefazICMS> {
    let cst = rule.ticm_cst.clone().ok_or_else(|| {
        Error::validation(format!(
            "A tributação '{}' não tem CST ICMS, exigido para empresas do regime normal: informe-o em Tributação ICMS.",
            rule.ticm_descricao
        ))
    })?;
    let hundred = Decimal::ONE_HUNDRED;
    let reduced = money(base * (hundred - rule.ticm_perc_reducao_bc) / hundred);
    let v_icms = pct(reduced, rule.ticm_perc_icms);
    let v_fcp = pct(reduced, rule.ticm_perc_fcp);
    let fcp = opt(rule.ticm_perc_fcp);
    let mut icms = NfeSefazICMS::default();
    let own = |t: &mut ItemTaxes| {
        t.v_bc = reduced;
        t.v_icms = v_icms;
        t.v_fcp = if fcp.is_some() { v_fcp } else { Decimal::ZERO };
    };
    match cst.as_str() {
        "00" => {
            own(t);
            icms.ICMS00 = Some(NfeSefazICMS00 {
                orig,
                CST: cst,
                modBC: 3,
                vBC: reduced,
                pICMS: rule.ticm_perc_icms,
                vICMS: v_icms,
                pFCP: fcp,
                vFCP: fcp.map(|_| v_fcp),
            });
        }
        "10" => {
            own(t);
            let (v_bc_st, v_st) = st(rule, base, v_icms, t);
            icms.ICMS10 = Some(NfeSefazICMS10 {
                orig,
                CST: cst,
                modBC: 3,
                vBC: reduced,
                pICMS: rule.ticm_perc_icms,
                vICMS: v_icms,
                modBCST: 4,
                pMVAST: opt(rule.ticm_perc_mva_st),
                pRedBCST: opt(rule.ticm_perc_reducao_st),
                vBCST: v_bc_st,
                pICMSST: rule.ticm_perc_icms_st,
                vICMSST: v_st,
                ..Default::default()
            });
        }
        "20" => {
            own(t);
            icms.ICMS20 = Some(NfeSefazICMS20 {
                orig,
                CST: cst,
                modBC: 3,
                pRedBC: rule.ticm_perc_reducao_bc,
                vBC: reduced,
                pICMS: rule.ticm_perc_icms,
                vICMS: v_icms,
                pFCP: fcp,
                vFCP: fcp.map(|_| v_fcp),
                vBCFCP: fcp.map(|_| reduced),
                ..Default::default()
            });
        }
        "40" | "41" | "50" => {
            icms.ICMS40 = Some(NfeSefazICMS40 { orig, CST: cst, ..Default::default() });
        }
        "60" => {
            icms.ICMS60 = Some(NfeSefazICMS60 { orig, CST: cst, ..Default::default() });
        }
        "90" => {
            own(t);
            icms.ICMS90 = Some(NfeSefazICMS90 {
                orig,
                CST: cst,
                modBC: Some(3),
                vBC: Some(reduced),
                pRedBC: opt(rule.ticm_perc_reducao_bc),
                pICMS: Some(rule.ticm_perc_icms),
                vICMS: Some(v_icms),
                ..Default::default()
            });
        }
        other => {
            return Err(Error::validation(format!(
                "O CST ICMS {other} da tributação '{}' ainda não é emitido pelo sistema: use 00, 10, 20, 40, 41, 50, 60 ou 90.",
                rule.ticm_descricao
            )))
        }
    }
    Ok(icms)
}

fn simples(rule: &TaxRule, orig: i32, base: Decimal, t: &mut ItemTaxes) -> Result<NfeSefazICMS> {
    let csosn = rule.ticm_csosn.clone().ok_or_else(|| {
        Error::validation(format!(
            "A tributação '{}' não tem CSOSN, exigido para empresas do Simples Nacional: informe-o em Tributação ICMS.",
            rule.ticm_descricao
        ))
    })?;
    let mut icms = NfeSefazICMS::default();
    // The ICMS the ST deducts: the operation's own at the rule's rate.
    let own = pct(base, rule.ticm_perc_icms);
    match csosn.as_str() {
        "101" => {
            icms.ICMSSN101 = Some(NfeSefazICMSSN101 {
                orig,
                CSOSN: csosn,
                pCredSN: rule.ticm_perc_icms,
                vCredICMSSN: pct(base, rule.ticm_perc_icms),
            });
        }
        "102" | "103" | "300" | "400" => {
            icms.ICMSSN102 = Some(NfeSefazICMSSN102 { orig, CSOSN: csosn });
        }
        "201" => {
            let (v_bc_st, v_st) = st(rule, base, own, t);
            icms.ICMSSN201 = Some(NfeSefazICMSSN201 {
                orig,
                CSOSN: csosn,
                modBCST: 4,
                pMVAST: opt(rule.ticm_perc_mva_st),
                pRedBCST: opt(rule.ticm_perc_reducao_st),
                vBCST: v_bc_st,
                pICMSST: rule.ticm_perc_icms_st,
                vICMSST: v_st,
                pCredSN: rule.ticm_perc_icms,
                vCredICMSSN: own,
                ..Default::default()
            });
        }
        "202" | "203" => {
            let (v_bc_st, v_st) = st(rule, base, own, t);
            icms.ICMSSN202 = Some(NfeSefazICMSSN202 {
                orig,
                CSOSN: csosn,
                modBCST: 4,
                pMVAST: opt(rule.ticm_perc_mva_st),
                pRedBCST: opt(rule.ticm_perc_reducao_st),
                vBCST: v_bc_st,
                pICMSST: rule.ticm_perc_icms_st,
                vICMSST: v_st,
                ..Default::default()
            });
        }
        "500" => {
            icms.ICMSSN500 = Some(NfeSefazICMSSN500 { orig, CSOSN: csosn, ..Default::default() });
        }
        "900" => {
            t.v_bc = base;
            t.v_icms = own;
            icms.ICMSSN900 = Some(NfeSefazICMSSN900 {
                orig,
                CSOSN: csosn,
                modBC: Some(3),
                vBC: Some(base),
                pICMS: Some(rule.ticm_perc_icms),
                vICMS: Some(own),
                ..Default::default()
            });
        }
        other => {
            return Err(Error::validation(format!(
                "CSOSN {other} inválido na tributação '{}'.",
                rule.ticm_descricao
            )))
        }
    }
    Ok(icms)
}

/// IPI only when the rule names its CST: taxed CSTs (00, 49, 50, 99) carry the
/// rate, the others are not taxed (IPINT). `cEnq` 999: no special framing.
fn ipi(rule: &TaxRule, base: Decimal, t: &mut ItemTaxes) {
    let Some(cst) = rule.ticm_cst_ipi.clone() else {
        return;
    };
    let mut ipi = NfeSefazIpi { cEnq: "999".into(), ..Default::default() };
    if matches!(cst.as_str(), "00" | "49" | "50" | "99") {
        let v_ipi = pct(base, rule.ticm_perc_ipi);
        t.v_ipi = v_ipi;
        ipi.IPITrib = Some(NfeSefazIPITrib {
            CST: cst,
            vBC: Some(base),
            pIPI: Some(rule.ticm_perc_ipi),
            vIPI: v_ipi,
            ..Default::default()
        });
    } else {
        ipi.IPINT = Some(NfeSefazIPINT { CST: cst });
    }
    t.imposto.IPI = Some(ipi);
}

/// What a PIS/COFINS CST asks for: a rate (01, 02), nothing (04 to 09), or
/// the other group (the rest; 49 "outras operações de saída" when the rule
/// names none).
enum Group {
    Aliq,
    NotTaxed,
    Other,
}

fn group(cst: &str) -> Group {
    match cst {
        "01" | "02" => Group::Aliq,
        "04" | "05" | "06" | "07" | "08" | "09" => Group::NotTaxed,
        _ => Group::Other,
    }
}

fn pis(rule: &TaxRule, base: Decimal) -> (NfeSefazPIS, Decimal) {
    let cst = rule.ticm_cst_pis.clone().unwrap_or_else(|| "49".into());
    let rate = rule.ticm_perc_pis;
    let v = pct(base, rate);
    let mut p = NfeSefazPIS::default();
    match group(&cst) {
        Group::Aliq => {
            p.PISAliq = Some(NfeSefazPISAliq { CST: cst, vBC: base, pPIS: rate, vPIS: v })
        }
        Group::NotTaxed => {
            p.PISNT = Some(NfeSefazPISNT { CST: cst });
            return (p, Decimal::ZERO);
        }
        Group::Other => {
            p.PISOutr = Some(NfeSefazPISOutr {
                CST: cst,
                vBC: Some(base),
                pPIS: Some(rate),
                vPIS: v,
                ..Default::default()
            })
        }
    }
    (p, v)
}

fn cofins(rule: &TaxRule, base: Decimal) -> (NfeSefazCOFINS, Decimal) {
    let cst = rule.ticm_cst_cofins.clone().unwrap_or_else(|| "49".into());
    let rate = rule.ticm_perc_cofins;
    let v = pct(base, rate);
    let mut c = NfeSefazCOFINS::default();
    match group(&cst) {
        Group::Aliq => {
            c.COFINSAliq =
                Some(NfeSefazCOFINSAliq { CST: cst, vBC: base, pCOFINS: rate, vCOFINS: v })
        }
        Group::NotTaxed => {
            c.COFINSNT = Some(NfeSefazCOFINSNT { CST: cst });
            return (c, Decimal::ZERO);
        }
        Group::Other => {
            c.COFINSOutr = Some(NfeSefazCOFINSOutr {
                CST: cst,
                vBC: Some(base),
                pCOFINS: Some(rate),
                vCOFINS: v,
                ..Default::default()
            })
        }
    }
    (c, v)
}
