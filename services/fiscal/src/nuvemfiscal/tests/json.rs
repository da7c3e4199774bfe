//! Money in the JSON bodies: numbers with the decimal's exact digits, read
//! back to the same value.

use serde::{Deserialize, Serialize};

use super::samples::{self, d};
use crate::nuvemfiscal::number as num;
use crate::nuvemfiscal::types::{Dfe, DfeStatus, NfePedidoEmissao};

#[test]
fn amounts_are_json_numbers_with_their_exact_digits() {
    let body = serde_json::to_string(&samples::nfe("84713012", "r")).expect("json");
    for expected in [
        r#""vProd":1234.56"#,
        r#""qCom":1.5000"#,
        // 21 significant digits: an f64 would have written 12345678901.123457.
        r#""vUnCom":12345678901.1234567891"#,
        r#""vNF":37037038039.66"#,
        r#""pICMS":18.00"#,
        r#""vDesc":10.00"#,
        r#""pesoB":11.250"#,
    ] {
        assert!(body.contains(expected), "{expected} not in {body}");
    }
    assert!(
        !body.contains(r#""vProd":"1234.56""#),
        "amounts must not be strings"
    );
}

#[test]
fn a_request_reads_back_to_the_same_values() {
    let pedido = samples::nfe_simples("r");
    let body = serde_json::to_string(&pedido).expect("json");
    let back: NfePedidoEmissao = serde_json::from_str(&body).expect("parse");
    assert_eq!(back, pedido);
    let prod = &back.infNFe.det[1].prod;
    assert_eq!(prod.vUnCom.to_string(), "12345678901.1234567891");
    assert_eq!(prod.qCom.to_string(), "3");
    assert_eq!(back.infNFe.det[0].prod.qCom.to_string(), "1.5000");
    assert_eq!(serde_json::to_string(&back).expect("json"), body);
}

#[test]
fn an_answer_with_a_large_total_keeps_its_cents() {
    let text = r#"{"id":"nfe_1","status":"autorizado","valor_total":98765432109876.54,
        "numero":12,"autorizacao":{"codigo_status":100,"motivo_status":"Autorizado o uso da NF-e"}}"#;
    let dfe: Dfe = serde_json::from_str(text).expect("parse");
    assert_eq!(dfe.status, DfeStatus::Autorizado);
    assert_eq!(dfe.valor_total, Some(d("98765432109876.54")));
    assert_eq!(dfe.autorizacao.and_then(|a| a.codigo_status), Some(100));
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Amounts {
    #[serde(with = "num")]
    required: rust_decimal::Decimal,
    #[serde(default, skip_serializing_if = "Option::is_none", with = "num::opt")]
    optional: Option<rust_decimal::Decimal>,
}

#[test]
fn numbers_strings_nulls_and_absence() {
    let a: Amounts =
        serde_json::from_str(r#"{"required":"12.30","optional":null}"#).expect("parse");
    assert_eq!(a.required.to_string(), "12.30");
    assert_eq!(a.optional, None);
    assert_eq!(
        serde_json::to_string(&a).expect("json"),
        r#"{"required":12.30}"#
    );
    let b: Amounts = serde_json::from_str(r#"{"required":-0.5,"optional":1E+3}"#).expect("parse");
    assert_eq!(b.required, d("-0.5"));
    assert_eq!(b.optional, Some(d("1000")));
    assert!(serde_json::from_str::<Amounts>(r#"{"required":true}"#).is_err());
    assert!(serde_json::from_str::<Amounts>(r#"{"required":"doze"}"#).is_err());
}
