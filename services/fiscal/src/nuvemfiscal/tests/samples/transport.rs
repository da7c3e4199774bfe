//! A CT-e (road freight with its ICMS) and an MDF-e (road trip with its
//! vehicle, driver, documents and payment).

use chrono::NaiveDate;

use super::{d, when, CNPJ};
use crate::nuvemfiscal::types::*;

pub fn cte(referencia: &str) -> CtePedidoEmissao {
    let endereco = CteSefazEndereco {
        xLgr: "Rua A".into(),
        nro: "1".into(),
        xBairro: "Centro".into(),
        cMun: "3550308".into(),
        xMun: "São Paulo".into(),
        UF: "SP".into(),
        ..Default::default()
    };
    CtePedidoEmissao {
        ambiente: Ambiente::Homologacao,
        referencia: Some(referencia.into()),
        infCTeSupl: None,
        infCte: CteSefazInfCte {
            versao: "4.00".into(),
            ide: CteSefazIde {
                cUF: 35,
                CFOP: "5353".into(),
                natOp: "Prestação de serviço de transporte".into(),
                r#mod: Some(57),
                serie: 1,
                nCT: 77,
                dhEmi: when(),
                tpImp: 1,
                tpEmis: 1,
                tpCTe: 0,
                procEmi: 0,
                verProc: "erp 4.0".into(),
                cMunEnv: "3550308".into(),
                xMunEnv: "São Paulo".into(),
                UFEnv: "SP".into(),
                modal: "01".into(),
                tpServ: 0,
                cMunIni: "3550308".into(),
                xMunIni: "São Paulo".into(),
                UFIni: "SP".into(),
                cMunFim: "3509502".into(),
                xMunFim: "Campinas".into(),
                UFFim: "SP".into(),
                retira: 1,
                indIEToma: 1,
                toma3: Some(CteSefazToma3 { toma: 0 }),
                ..Default::default()
            },
            emit: CteSefazEmit {
                CNPJ: Some(CNPJ.into()),
                IE: Some("111111111111".into()),
                CRT: Some(3),
                ..Default::default()
            },
            rem: Some(CteSefazRem {
                CNPJ: Some("11222333000181".into()),
                xNome: "Remetente SA".into(),
                enderReme: endereco.clone(),
                ..Default::default()
            }),
            dest: Some(CteSefazDest {
                CNPJ: Some("33444555000172".into()),
                xNome: "Destinatário SA".into(),
                enderDest: endereco,
                ..Default::default()
            }),
            vPrest: CteSefazVPrest {
                vTPrest: d("1500.75"),
                vRec: d("1500.75"),
                Comp: vec![CteSefazComp { xNome: "FRETE PESO".into(), vComp: d("1500.75") }],
            },
            imp: CteSefazInfCte_Imp {
                ICMS: CteSefazImp {
                    ICMS00: Some(CteSefazICMS00 {
                        CST: "00".into(),
                        vBC: d("1500.75"),
                        pICMS: d("12.00"),
                        vICMS: d("180.09"),
                    }),
                    ..Default::default()
                },
                vTotTrib: Some(d("180.09")),
                ..Default::default()
            },
            infCTeNorm: Some(CteSefazInfCTeNorm {
                infCarga: CteSefazInfCarga {
                    vCarga: Some(d("25000.00")),
                    proPred: "Eletrônicos".into(),
                    infQ: vec![CteSefazInfQ {
                        cUnid: "01".into(),
                        tpMed: "PESO BRUTO".into(),
                        qCarga: d("120.5000"),
                    }],
                    ..Default::default()
                },
                infDoc: Some(CteSefazInfDoc {
                    infNFe: vec![CteSefazInfNFe {
                        chave: "35250512345678000195550010000012341000012345".into(),
                        ..Default::default()
                    }],
                    ..Default::default()
                }),
                infModal: CteSefazInfModal {
                    versaoModal: "4.00".into(),
                    rodo: Some(CteSefazRodo { RNTRC: "12345678".into() }),
                },
                veicNovos: Vec::new(),
                infCteSub: None,
            }),
            ..Default::default()
        },
    }
}

pub fn mdfe(referencia: &str) -> MdfePedidoEmissao {
    MdfePedidoEmissao {
        ambiente: Ambiente::Homologacao,
        referencia: Some(referencia.into()),
        infMDFeSupl: None,
        infMDFe: MdfeSefazInfMDFe {
            versao: "3.00".into(),
            ide: MdfeSefazIde {
                cUF: 35,
                tpEmit: 2,
                r#mod: Some(58),
                serie: 1,
                nMDF: 9,
                modal: 1,
                dhEmi: when(),
                tpEmis: 1,
                procEmi: "0".into(),
                verProc: "erp 4.0".into(),
                UFIni: "SP".into(),
                UFFim: "MG".into(),
                infMunCarrega: vec![MdfeSefazInfMunCarrega {
                    cMunCarrega: "3550308".into(),
                    xMunCarrega: "São Paulo".into(),
                }],
                ..Default::default()
            },
            emit: MdfeSefazEmit {
                CNPJ: Some(CNPJ.into()),
                IE: Some("111111111111".into()),
                ..Default::default()
            },
            infModal: MdfeSefazInfModal {
                versaoModal: "3.00".into(),
                rodo: Some(MdfeSefazRodo {
                    veicTracao: MdfeSefazVeicTracao {
                        placa: "ABC1D23".into(),
                        tara: 8000,
                        tpRod: "03".into(),
                        tpCar: "02".into(),
                        UF: Some("SP".into()),
                        condutor: vec![MdfeSefazCondutor {
                            xNome: "Motorista de Teste".into(),
                            CPF: "52998224725".into(),
                        }],
                        ..Default::default()
                    },
                    infANTT: Some(MdfeSefazInfANTT {
                        RNTRC: Some("12345678".into()),
                        infCIOT: vec![MdfeSefazInfCIOT {
                            CIOT: "123456789012".into(),
                            CPF: None,
                            CNPJ: Some(CNPJ.into()),
                        }],
                        valePed: Some(MdfeSefazValePed {
                            disp: vec![MdfeSefazDisp {
                                CNPJForn: CNPJ.into(),
                                nCompra: Some("998877".into()),
                                vValePed: d("35.40"),
                                ..Default::default()
                            }],
                            categCombVeic: None,
                        }),
                        infContratante: vec![MdfeSefazInfContratante {
                            xNome: Some("Contratante de Teste".into()),
                            CNPJ: Some(CNPJ.into()),
                            infContrato: Some(MdfeSefazInfContrato {
                                NroContrato: "CT-2026/015".into(),
                                vContratoGlobal: d("120000.00"),
                            }),
                            ..Default::default()
                        }],
                        infPag: vec![MdfeSefazInfPag {
                            xNome: Some("Contratante de Teste".into()),
                            CNPJ: Some(CNPJ.into()),
                            Comp: vec![MdfeSefazComp {
                                tpComp: "04".into(),
                                vComp: d("1500.00"),
                                xComp: None,
                            }],
                            vContrato: d("1500.00"),
                            indPag: 1,
                            infPrazo: vec![MdfeSefazInfPrazo {
                                nParcela: 1,
                                dVenc: NaiveDate::from_ymd_opt(2026, 12, 30).unwrap_or_default(),
                                vParcela: d("1500.00"),
                            }],
                            infBanc: MdfeSefazInfBanc {
                                PIX: Some("fiscal@example.com".into()),
                                ..Default::default()
                            },
                            ..Default::default()
                        }],
                    }),
                    ..Default::default()
                }),
            },
            infDoc: MdfeSefazInfDoc {
                infMunDescarga: vec![MdfeSefazInfMunDescarga {
                    cMunDescarga: "3106200".into(),
                    xMunDescarga: "Belo Horizonte".into(),
                    infNFe: vec![MdfeSefazInfNFe {
                        chNFe: "35250512345678000195550010000012341000012345".into(),
                        ..Default::default()
                    }],
                    ..Default::default()
                }],
            },
            tot: MdfeSefazTot {
                qNFe: Some(1),
                vCarga: d("25000.00"),
                cUnid: "01".into(),
                qCarga: d("120.5000"),
                ..Default::default()
            },
            prodPred: Some(MdfeSefazProdPred {
                tpCarga: "05".into(),
                xProd: "Eletrônicos".into(),
                ..Default::default()
            }),
            ..Default::default()
        },
    }
}
