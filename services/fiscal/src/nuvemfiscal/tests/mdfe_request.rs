//! The MDF-e request (`resources::mdfe::request`) against the spec's
//! `MdfePedidoEmissao`: every group it fills (road modal with trailer,
//! drivers, contractor, payment with components and instalment, toll
//! vouchers, seals, predominant product, path states), and the checks that
//! stop an incomplete MDF-e before anything is sent.

use chrono::NaiveDate;

use super::samples::{d, when};
use super::spec::assert_matches;
use crate::resources::dfe::numbering::Numbering;
use crate::resources::mdfe::request::{self, build};
use crate::resources::mdfe::sources::*;
use crate::resources::order_nfe::sources::Company;

fn text(s: &str) -> Option<String> {
    Some(s.to_string())
}

fn sources() -> Sources {
    Sources {
        head: Head {
            mdfe_id: 1,
            mdfe_tp_emit: 2,
            mdfe_modal: 1,
            mdfe_uf_ini: "SP".into(),
            mdfe_uf_fim: "MG".into(),
            mdfe_dta_viagem: NaiveDate::from_ymd_opt(2026, 12, 16),
            mdfe_hora_viagem: text("08:30"),
            mdfe_rntrc: text("12345678"),
            mdfe_vlr_carga: d("25000.00"),
            mdfe_c_unid: "01".into(),
            mdfe_q_carga: d("1200.5000"),
            mdfe_prod_tp_carga: text("05"),
            mdfe_prod_descricao: text("PARAFUSOS"),
            mdfe_prod_ncm: text("73181500"),
            mdfe_obs: text("Entrega agendada"),
            mdfe_ciot: text("123456789012"),
            mdfe_ciot_cpf_cnpj: text("11444777000161"),
            ..Default::default()
        },
        company: Company {
            descricao: text("TRANSPORTES TESTE LTDA"),
            cnpj: text("11222333000181"),
            ie: text("123456789110"),
            endereco: text("Rua A"),
            bairro: text("Centro"),
            cid_ibge: text("3550308"),
            cidade: text("São Paulo"),
            uf: text("SP"),
            cep: text("01001000"),
            ..Default::default()
        },
        settings: Settings { ambiente: 2, serie: Some(1) },
        origins: vec![City { id: 1, ibge: "3550308".into(), cidade: "São Paulo".into() }],
        destinations: vec![City { id: 1, ibge: "3106200".into(), cidade: "Belo Horizonte".into() }],
        documents: vec![UnloadedDoc {
            mcid_id: 1,
            modelo: "55".into(),
            chave: "35261111222333000181550010000012341000012345".into(),
        }],
        path_states: vec!["RJ".into()],
        vehicles: vec![
            Vehicle {
                tipo: "T".into(),
                placa: "ABC1D23".into(),
                renavam: text("12345678901"),
                tara: 8000,
                cap_kg: Some(15000),
                tp_rod: text("03"),
                tp_car: "02".into(),
                uf: text("SP"),
                ..Default::default()
            },
            Vehicle {
                tipo: "R".into(),
                placa: "XYZ9876".into(),
                tara: 5000,
                cap_kg: Some(25000),
                tp_car: "01".into(),
                uf: text("SP"),
                ..Default::default()
            },
        ],
        drivers: vec![Person { nome: "JOSE DA SILVA".into(), doc: "52998224725".into() }],
        seals: vec!["LC-000123".into()],
        contractors: vec![Contractor {
            nome: "INDUSTRIA LTDA".into(),
            doc: "11444777000161".into(),
            nro_contrato: text("CT-2026/015"),
            vlr_contrato: Some(d("120000.00")),
        }],
        insurances: vec![Insurance {
            resp: 2,
            resp_doc: text("11444777000161"),
            seguradora: "SEGURADORA TESTE SA".into(),
            seguradora_cnpj: "11222333000181".into(),
            apolice: text("AP-778899"),
            averbacoes: text("000123, 000124"),
        }],
        payments: vec![Payment {
            id: 1,
            nome: "INDUSTRIA LTDA".into(),
            doc: "11444777000161".into(),
            vlr_contrato: d("1500.00"),
            ind_pag: 1,
            dta_vcto: NaiveDate::from_ymd_opt(2026, 12, 30),
            vlr_adiant: Some(d("500.00")),
            pix: text("financeiro@example.com"),
            ..Default::default()
        }],
        components: vec![Component {
            mdpg_id: 1,
            tipo: "04".into(),
            valor: d("1500.00"),
            descricao: text("Frete peso"),
        }],
        tolls: vec![Toll {
            cnpj_forn: "11222333000181".into(),
            cpf_cnpj_pag: None,
            n_compra: text("998877"),
            valor: d("35.40"),
        }],
    }
}

fn numbering() -> Numbering {
    Numbering {
        serie: 1,
        numero: 7,
        referencia: "erp-1-1-mdfe-1-1".into(),
        dh_emi: when(),
    }
}

#[test]
fn the_mdfe_request_follows_the_spec() {
    let pedido = build(&sources(), &numbering()).expect("built");
    let visited = assert_matches("MdfePedidoEmissao", &pedido).visited;
    for schema in [
        "MdfeSefazIde",
        "MdfeSefazInfMunCarrega",
        "MdfeSefazInfPercurso",
        "MdfeSefazEmit",
        "MdfeSefazRodo",
        "MdfeSefazInfANTT",
        "MdfeSefazInfContratante",
        "MdfeSefazInfPag",
        "MdfeSefazComp",
        "MdfeSefazInfPrazo",
        "MdfeSefazInfBanc",
        "MdfeSefazValePed",
        "MdfeSefazDisp",
        "MdfeSefazVeicTracao",
        "MdfeSefazVeicReboque",
        "MdfeSefazCondutor",
        "MdfeSefazInfMunDescarga",
        "MdfeSefazInfNFe",
        "MdfeSefazProdPred",
        "MdfeSefazTot",
        "MdfeSefazLacres",
        "MdfeSefazInfAdic",
        "MdfeSefazInfCIOT",
        "MdfeSefazInfContrato",
        "MdfeSefazSeg",
        "MdfeSefazInfResp",
        "MdfeSefazInfSeg",
    ] {
        assert!(visited.contains(schema), "{schema} was not reached");
    }
    let inf = &pedido.infMDFe;
    assert_eq!(
        (inf.ide.r#mod, inf.ide.nMDF, inf.ide.serie),
        (Some(58), 7, 1)
    );
    assert_eq!(inf.tot.qNFe, Some(1));
    assert_eq!(inf.tot.qCTe, None);
    assert_eq!(
        inf.ide.dhIniViagem.map(|t| t.to_rfc3339()),
        Some("2026-12-16T08:30:00-03:00".to_string())
    );
    let pag = &inf
        .infModal
        .rodo
        .as_ref()
        .expect("rodo")
        .infANTT
        .as_ref()
        .expect("antt")
        .infPag[0];
    assert_eq!(pag.infPrazo[0].vParcela, d("1000.00"));
    // The trip's CIOT, the contractor's contract and the cargo insurance with
    // each averbação apart.
    let antt = inf
        .infModal
        .rodo
        .as_ref()
        .and_then(|r| r.infANTT.as_ref())
        .expect("antt");
    assert_eq!(antt.infCIOT[0].CIOT, "123456789012");
    assert_eq!(antt.infCIOT[0].CNPJ.as_deref(), Some("11444777000161"));
    let contrato = antt.infContratante[0]
        .infContrato
        .as_ref()
        .expect("contract");
    assert_eq!(
        (contrato.NroContrato.as_str(), contrato.vContratoGlobal),
        ("CT-2026/015", d("120000.00"))
    );
    let seg = &inf.seg[0];
    assert_eq!(
        (seg.infResp.respSeg, seg.infResp.CNPJ.as_deref()),
        (2, Some("11444777000161"))
    );
    assert_eq!(seg.nAver, ["000123", "000124"]);
}

/// A change that leaves the MDF-e incomplete.
type Change = fn(&mut Sources);

#[test]
fn an_incomplete_mdfe_is_refused_before_sending() {
    let cases: [(Change, &str); 8] = [
        (|s| s.origins.clear(), request::NO_ORIGIN),
        (|s| s.destinations.clear(), request::NO_DESTINATION),
        (|s| s.documents.clear(), request::NO_DOCUMENT),
        (|s| s.vehicles.retain(|v| v.tipo != "T"), request::NO_VEHICLE),
        (|s| s.drivers.clear(), request::NO_DRIVER),
        (
            |s| s.documents[0].modelo = "57".into(),
            "Um MDF-e de carga própria (tipo de emitente 2) relaciona NF-e, não CT-e: altere o tipo do emitente ou remova os CT-e.",
        ),
        (
            |s| s.head.mdfe_ciot_cpf_cnpj = None,
            "Informe o CPF/CNPJ de quem gerou o CIOT (dados da viagem).",
        ),
        (
            |s| s.insurances[0].resp_doc = None,
            "Informe o CPF/CNPJ do contratante responsável pelo seguro (Seguros da Carga).",
        ),
    ];
    for (change, expected) in cases {
        let mut s = sources();
        change(&mut s);
        let e = build(&s, &numbering()).expect_err(expected);
        assert_eq!(e.public_message(), expected);
    }
    // The cities must be of the states of loading and unloading.
    let mut s = sources();
    s.destinations[0].ibge = "3304557".into();
    s.destinations[0].cidade = "Rio de Janeiro".into();
    let e = build(&s, &numbering()).expect_err("city of another state");
    assert_eq!(
        e.public_message(),
        "O município de descarregamento Rio de Janeiro (3304557) não é da UF de descarregamento MG."
    );
    let mut s = sources();
    s.head.mdfe_uf_ini = "PR".into();
    let e = build(&s, &numbering()).expect_err("origin of another state");
    assert_eq!(
        e.public_message(),
        "O município de carregamento São Paulo (3550308) não é da UF de carregamento PR."
    );
    // A carrier (tipo 1) lists the CT-e.
    let mut s = sources();
    s.head.mdfe_tp_emit = 1;
    s.documents[0].modelo = "57".into();
    let pedido = build(&s, &numbering()).expect("carrier");
    assert_eq!(pedido.infMDFe.tot.qCTe, Some(1));
    assert_matches("MdfePedidoEmissao", &pedido);
}
