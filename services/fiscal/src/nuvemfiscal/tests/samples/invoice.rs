//! NF-e requests: a normal-regime sale with every tax group, and a
//! Simples Nacional one.

use chrono::NaiveDate;

use super::{d, when, CNPJ};
use crate::nuvemfiscal::types::*;

fn item(n: i32, ncm: &str, cfop: &str, q: &str, unit: &str, total: &str) -> NfeSefazProd {
    NfeSefazProd {
        cProd: format!("P{n:03}"),
        cEAN: "SEM GTIN".into(),
        xProd: format!("Produto de teste {n}"),
        NCM: ncm.into(),
        CFOP: cfop.into(),
        uCom: "UN".into(),
        qCom: d(q),
        vUnCom: d(unit),
        vProd: d(total),
        cEANTrib: "SEM GTIN".into(),
        uTrib: "UN".into(),
        qTrib: d(q),
        vUnTrib: d(unit),
        indTot: 1,
        ..Default::default()
    }
}

fn pis_cofins_aliq(base: &str) -> (NfeSefazPIS, NfeSefazCOFINS) {
    (
        NfeSefazPIS {
            PISAliq: Some(NfeSefazPISAliq {
                CST: "01".into(),
                vBC: d(base),
                pPIS: d("1.65"),
                vPIS: d(base) * d("0.0165"),
            }),
            ..Default::default()
        },
        NfeSefazCOFINS {
            COFINSAliq: Some(NfeSefazCOFINSAliq {
                CST: "01".into(),
                vBC: d(base),
                pCOFINS: d("7.60"),
                vCOFINS: d(base) * d("0.076"),
            }),
            ..Default::default()
        },
    )
}

/// An NF-e of a company in the regime normal: ICMS00 and ICMS20, PIS and
/// COFINS by rate, by "outras" and not taxed, IPI, freight, instalments, card
/// payment and a referenced NF-e. The first item carries `ncm`.
pub fn nfe(ncm: &str, referencia: &str) -> NfePedidoEmissao {
    let (pis1, cofins1) = pis_cofins_aliq("1234.56");
    let mut det = vec![
        NfeSefazDet {
            nItem: 1,
            prod: item(1, ncm, "5102", "1.5000", "823.04", "1234.56"),
            imposto: NfeSefazImposto {
                vTotTrib: Some(d("345.67")),
                ICMS: Some(NfeSefazICMS {
                    ICMS00: Some(NfeSefazICMS00 {
                        orig: 0,
                        CST: "00".into(),
                        modBC: 3,
                        vBC: d("1234.56"),
                        pICMS: d("18.00"),
                        vICMS: d("222.22"),
                        ..Default::default()
                    }),
                    ..Default::default()
                }),
                IPI: Some(NfeSefazIpi {
                    cEnq: "999".into(),
                    IPITrib: Some(NfeSefazIPITrib {
                        CST: "50".into(),
                        vBC: Some(d("1234.56")),
                        pIPI: Some(d("5.00")),
                        vIPI: d("61.73"),
                        ..Default::default()
                    }),
                    ..Default::default()
                }),
                PIS: Some(pis1),
                COFINS: Some(cofins1),
            },
            infAdProd: Some("Lote 42".into()),
        },
        NfeSefazDet {
            nItem: 2,
            // Ten decimal places in the unit price: what f64 would not keep.
            prod: item(
                2,
                "84713012",
                "5102",
                "3",
                "12345678901.1234567891",
                "37037036703.37",
            ),
            imposto: NfeSefazImposto {
                ICMS: Some(NfeSefazICMS {
                    ICMS20: Some(NfeSefazICMS20 {
                        orig: 0,
                        CST: "20".into(),
                        modBC: 3,
                        pRedBC: d("33.33"),
                        vBC: d("100.00"),
                        pICMS: d("12.00"),
                        vICMS: d("12.00"),
                        ..Default::default()
                    }),
                    ..Default::default()
                }),
                PIS: Some(NfeSefazPIS {
                    PISOutr: Some(NfeSefazPISOutr {
                        CST: "99".into(),
                        vBC: Some(d("0.00")),
                        pPIS: Some(d("0.00")),
                        vPIS: d("0.00"),
                        ..Default::default()
                    }),
                    ..Default::default()
                }),
                COFINS: Some(NfeSefazCOFINS {
                    COFINSNT: Some(NfeSefazCOFINSNT { CST: "06".into() }),
                    ..Default::default()
                }),
                ..Default::default()
            },
            infAdProd: None,
        },
    ];
    det[1].prod.vDesc = Some(d("10.00"));
    NfePedidoEmissao {
        ambiente: Ambiente::Homologacao,
        referencia: Some(referencia.into()),
        infNFeSupl: None,
        infNFe: NfeSefazInfNFe {
            versao: "4.00".into(),
            Id: None,
            ide: NfeSefazIde {
                cUF: 35,
                natOp: "Venda de mercadoria".into(),
                r#mod: Some(55),
                serie: 1,
                nNF: 1234,
                dhEmi: when(),
                tpNF: 1,
                idDest: 1,
                cMunFG: "3550308".into(),
                tpImp: 1,
                tpEmis: 1,
                finNFe: 1,
                indFinal: 0,
                indPres: 1,
                procEmi: 0,
                verProc: "erp 4.0".into(),
                NFref: vec![NfeSefazNFref {
                    refNFe: Some("35250512345678000195550010000012331000012344".into()),
                    ..Default::default()
                }],
                ..Default::default()
            },
            emit: NfeSefazEmit {
                CNPJ: Some(CNPJ.into()),
                xNome: Some("Empresa de Teste Ltda".into()),
                IE: Some("111111111111".into()),
                CRT: Some(3),
                enderEmit: Some(NfeSefazEnderEmi {
                    xLgr: Some("Rua das Flores".into()),
                    nro: Some("100".into()),
                    xBairro: Some("Centro".into()),
                    cMun: Some("3550308".into()),
                    xMun: Some("São Paulo".into()),
                    UF: Some("SP".into()),
                    CEP: Some("01001000".into()),
                    ..Default::default()
                }),
                ..Default::default()
            },
            dest: Some(NfeSefazDest {
                CNPJ: Some("11222333000181".into()),
                xNome: Some("Cliente & Filhos".into()),
                indIEDest: 1,
                IE: Some("222222222222".into()),
                email: Some("compras@cliente.com.br".into()),
                enderDest: Some(NfeSefazEndereco {
                    xLgr: "Av. Brasil".into(),
                    nro: "2000".into(),
                    xBairro: "Jardins".into(),
                    cMun: "3550308".into(),
                    xMun: "São Paulo".into(),
                    UF: "SP".into(),
                    CEP: Some("01430001".into()),
                    cPais: Some("1058".into()),
                    xPais: Some("Brasil".into()),
                    ..Default::default()
                }),
                ..Default::default()
            }),
            autXML: Vec::new(),
            det,
            total: NfeSefazTotal {
                ICMSTot: NfeSefazICMSTot {
                    vBC: d("1334.56"),
                    vICMS: d("234.22"),
                    vICMSDeson: d("0.00"),
                    vFCP: d("0.00"),
                    vBCST: d("0.00"),
                    vST: d("0.00"),
                    vFCPST: d("0.00"),
                    vFCPSTRet: d("0.00"),
                    vProd: d("37037037937.93"),
                    vFrete: d("50.00"),
                    vSeg: d("0.00"),
                    vDesc: d("10.00"),
                    vII: d("0.00"),
                    vIPI: d("61.73"),
                    vIPIDevol: d("0.00"),
                    vPIS: d("20.37"),
                    vCOFINS: d("93.83"),
                    vOutro: d("0.00"),
                    vNF: d("37037038039.66"),
                    vTotTrib: Some(d("345.67")),
                    ..Default::default()
                },
            },
            transp: NfeSefazTransp {
                modFrete: 0,
                transporta: Some(NfeSefazTransporta {
                    CNPJ: Some("33444555000172".into()),
                    xNome: Some("Transportes Rápidos".into()),
                    UF: Some("SP".into()),
                    ..Default::default()
                }),
                vol: vec![NfeSefazVol {
                    qVol: Some(2),
                    esp: Some("CAIXA".into()),
                    pesoL: Some(d("10.500")),
                    pesoB: Some(d("11.250")),
                    ..Default::default()
                }],
                ..Default::default()
            },
            cobr: Some(NfeSefazCobr {
                fat: Some(NfeSefazFat {
                    nFat: Some("1234".into()),
                    vOrig: Some(d("37037038039.66")),
                    vDesc: Some(d("0.00")),
                    vLiq: Some(d("37037038039.66")),
                }),
                dup: vec![NfeSefazDup {
                    nDup: Some("001".into()),
                    dVenc: Some(NaiveDate::from_ymd_opt(2025, 6, 13).expect("date")),
                    vDup: d("37037038039.66"),
                }],
            }),
            pag: NfeSefazPag {
                detPag: vec![NfeSefazDetPag {
                    indPag: Some(1),
                    tPag: "03".into(),
                    vPag: d("37037038039.66"),
                    card: Some(NfeSefazCard {
                        tpIntegra: 2,
                        tBand: Some("01".into()),
                        ..Default::default()
                    }),
                    ..Default::default()
                }],
                vTroco: None,
            },
            infAdic: Some(NfeSefazInfAdic {
                infCpl: Some("Pedido 987".into()),
                obsCont: vec![NfeSefazInfAdic_ObsCont {
                    xCampo: Some("pedido".into()),
                    xTexto: Some("987".into()),
                }],
                ..Default::default()
            }),
            infRespTec: Some(NfeSefazInfRespTec {
                CNPJ: CNPJ.into(),
                xContato: "Suporte".into(),
                email: "suporte@example.com".into(),
                fone: "11999999999".into(),
                ..Default::default()
            }),
        },
    }
}

/// An NF-e of a Simples Nacional company: CSOSN 101, 102 and 500, PIS and
/// COFINS not taxed.
pub fn nfe_simples(referencia: &str) -> NfePedidoEmissao {
    let mut pedido = nfe("84713012", referencia);
    pedido.infNFe.emit.CRT = Some(1);
    let sn = |icms: NfeSefazICMS| NfeSefazImposto {
        ICMS: Some(icms),
        PIS: Some(NfeSefazPIS {
            PISNT: Some(NfeSefazPISNT { CST: "07".into() }),
            ..Default::default()
        }),
        COFINS: Some(NfeSefazCOFINS {
            COFINSOutr: Some(NfeSefazCOFINSOutr {
                CST: "99".into(),
                qBCProd: Some(d("3.0000")),
                vAliqProd: Some(d("0.1000")),
                vCOFINS: d("0.30"),
                ..Default::default()
            }),
            ..Default::default()
        }),
        ..Default::default()
    };
    pedido.infNFe.det[0].imposto = sn(NfeSefazICMS {
        ICMSSN101: Some(NfeSefazICMSSN101 {
            orig: 0,
            CSOSN: "101".into(),
            pCredSN: d("1.25"),
            vCredICMSSN: d("15.43"),
        }),
        ..Default::default()
    });
    pedido.infNFe.det[1].imposto = sn(NfeSefazICMS {
        ICMSSN102: Some(NfeSefazICMSSN102 { orig: 0, CSOSN: "102".into() }),
        ..Default::default()
    });
    let mut third = pedido.infNFe.det[0].clone();
    third.nItem = 3;
    third.prod.CFOP = "5405".into();
    third.prod.CEST = Some("2105900".into());
    third.imposto = sn(NfeSefazICMS {
        ICMSSN500: Some(NfeSefazICMSSN500 {
            orig: 0,
            CSOSN: "500".into(),
            vBCSTRet: Some(d("100.00")),
            pST: Some(d("18.00")),
            vICMSSTRet: Some(d("18.00")),
            ..Default::default()
        }),
        ..Default::default()
    });
    pedido.infNFe.det.push(third);
    pedido
}
