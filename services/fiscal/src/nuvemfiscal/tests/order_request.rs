//! The NF-e request of an invoiced order (`resources::order_nfe::request`)
//! against the spec's `NfePedidoEmissao`, for the Simples Nacional (CSOSN with
//! ST) and the regime normal (CST 00 with IPI, PIS and COFINS taxed), and its
//! totals adding up.

use super::samples::d;
use super::spec::assert_matches;
use crate::resources::dfe::numbering::Numbering;
use crate::resources::order_nfe::request::build;
use crate::resources::order_nfe::sources::*;

fn text(s: &str) -> Option<String> {
    Some(s.to_string())
}

fn sources(regime: i32) -> Sources {
    Sources {
        company: Company {
            descricao: text("EMPRESA TESTE LTDA"),
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
        settings: Settings { ambiente: 2, regime: Some(regime), serie: Some(1) },
        customer: Customer {
            descricao: text("CLIENTE"),
            cpf: text("12345678909"),
            endereco: text("Rua B"),
            bairro: text("Bairro"),
            cid_ibge: text("3304557"),
            cidade: text("Rio de Janeiro"),
            uf: text("RJ"),
            ..Default::default()
        },
        order: Order { pedf_id: 1, serie: "1".into(), cli_id: 7, ..Default::default() },
        items: vec![Item {
            item: 1,
            prod_id: 1,
            qtde: d("3"),
            vlr_unit: d("33.3333"),
            vlr_desconto: d("1.50"),
            vlr_frete: d("4.00"),
            descricao: text("PARAFUSO"),
            ncm: text("73181500"),
            unidade: text("UN"),
            ..Default::default()
        }],
        nature: Nature {
            nato_descricao: "VENDA".into(),
            nato_tipo: "S".into(),
            nato_finalidade: 1,
            nato_cfop_interestadual: text("6102"),
            ..Default::default()
        },
        rule: TaxRule {
            ticm_descricao: "REGRA".into(),
            ticm_cst: text("00"),
            ticm_csosn: text("201"),
            ticm_perc_icms: d("12"),
            ticm_perc_mva_st: d("40"),
            ticm_perc_icms_st: d("18"),
            ticm_cst_ipi: text("50"),
            ticm_perc_ipi: d("5"),
            ticm_cst_pis: text("01"),
            ticm_perc_pis: d("1.65"),
            ticm_cst_cofins: text("01"),
            ticm_perc_cofins: d("7.6"),
            ..Default::default()
        },
        payment: None,
    }
}

fn numbering() -> Numbering {
    Numbering {
        serie: 1,
        numero: 7,
        referencia: "r".into(),
        dh_emi: super::samples::when(),
    }
}

#[test]
fn the_order_request_follows_the_spec_and_adds_up() {
    for regime in [1, 3] {
        let pedido = build(&sources(regime), &numbering()).expect("built");
        assert_matches("NfePedidoEmissao", &pedido);
        let inf = &pedido.infNFe;
        assert_eq!((inf.ide.idDest, inf.det[0].prod.CFOP.as_str()), (2, "6102"));
        let t = &inf.total.ICMSTot;
        // 3 × 33.3333 = 99.9999 → 100.00; base 100 − 1.50 + 4 = 102.50.
        assert_eq!(t.vProd, d("100.00"));
        assert_eq!(t.vIPI, d("5.20"), "IPI over 104.00");
        assert_eq!(
            t.vNF,
            t.vProd - t.vDesc + t.vST + t.vFrete + t.vOutro + t.vIPI
        );
        if regime == 3 {
            assert_eq!((t.vBC, t.vICMS), (d("102.50"), d("12.30")));
            assert_eq!((t.vPIS, t.vCOFINS), (d("1.63"), d("7.49")));
        } else {
            // ST: (102.50 + 5.20) × 1.40 = 150.78; 18% = 27.14, less 12.30.
            assert_eq!((t.vBCST, t.vST), (d("150.78"), d("14.84")));
        }
    }
}
