//! ICMS tax rules (`tributacao`, screen /tributacoes 'Tributação ICMS'), with the
//! IPI, PIS and COFINS situation of the same item: a rule has a CST or a CSOSN.

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::grpc::Caller;
use erp_platform::resource::{DbType, Field, Hooks, Kind, Op, Resource};
use erp_platform::{Error, Result};
use serde_json::{json, Map, Value};

use super::body::blank;
use super::cfop::{cfop, normalise_cfop};
use super::codes::{CSOSN, CST_ICMS, CST_IPI, CST_PIS_COFINS};

const SCHEMA: &str = crate::SCHEMA;

fn percent(name: &str, label: &str) -> Field {
    Field::decimal(name, label)
        .scale(4)
        .min("0")
        .max("100")
        .default(0.into())
        .width(3)
}

pub fn tributacao() -> Resource {
    Resource::new("tributacao", "Tributação ICMS", SCHEMA, "tributacao", "tributacoes")
        .screen("/tributacoes")
        .key(&["TICM_ID"])
        .company("TICM_EMP_ID")
        .label("TICM_DESCRICAO")
        .order("TICM_DESCRICAO")
        .hooks(Arc::new(TaxRuleHooks))
        .sample(json!({
            "TICM_DESCRICAO": "SIMPLES NACIONAL - SEM CRÉDITO", "TICM_CSOSN": "102", "TICM_CFOP": "5.102",
            "TICM_CST_IPI": "99", "TICM_CST_PIS": "49", "TICM_CST_COFINS": "49"
        }))
        .fields(vec![
            Field::id("TICM_ID", "Código"),
            Field::int("TICM_EMP_ID", "Empresa"),
            Field::text("TICM_DESCRICAO", "Descrição")
                .required()
                .len(100)
                .searchable()
                .list()
                .width(6),
            Field::options("TICM_CST", "CST ICMS", DbType::Text, &CST_ICMS)
                .list()
                .width(6),
            Field::options("TICM_CSOSN", "CSOSN", DbType::Text, &CSOSN)
                .list()
                .width(6),
            cfop("TICM_CFOP", "CFOP").list(),
            percent("TICM_PERC_ICMS", "Alíquota ICMS (%)").list(),
            percent("TICM_PERC_REDUCAO_BC", "Redução da Base (%)"),
            percent("TICM_PERC_DIFERIMENTO", "Diferimento (%)"),
            percent("TICM_PERC_FCP", "FCP (%)"),
            percent("TICM_PERC_MVA_ST", "MVA ST (%)"),
            percent("TICM_PERC_ICMS_ST", "Alíquota ICMS ST (%)"),
            percent("TICM_PERC_REDUCAO_ST", "Redução da Base ST (%)"),
            Field::text("TICM_CBENEF", "Benefício Fiscal (cBenef)")
                .len(10)
                .kind(Kind::Autocomplete)
                .reference_to("benef")
                .width(4),
            Field::options("TICM_CST_IPI", "CST IPI", DbType::Text, &CST_IPI).width(6),
            percent("TICM_PERC_IPI", "Alíquota IPI (%)"),
            Field::options("TICM_CST_PIS", "CST PIS", DbType::Text, &CST_PIS_COFINS).width(6),
            percent("TICM_PERC_PIS", "Alíquota PIS (%)"),
            Field::options("TICM_CST_COFINS", "CST COFINS", DbType::Text, &CST_PIS_COFINS).width(6),
            percent("TICM_PERC_COFINS", "Alíquota COFINS (%)"),
            Field::situation("TICM_SITUACAO"),
            Field::textarea("TICM_OBS", "Observação").len(1000),
        ])
        .group(
            Some("Identificação"),
            true,
            12,
            &["TICM_ID", "TICM_DESCRICAO", "TICM_CFOP", "TICM_SITUACAO"],
        )
        .group(
            Some("ICMS"),
            true,
            12,
            &[
                "TICM_CST",
                "TICM_CSOSN",
                "TICM_PERC_ICMS",
                "TICM_PERC_REDUCAO_BC",
                "TICM_PERC_DIFERIMENTO",
                "TICM_PERC_FCP",
                "TICM_CBENEF",
            ],
        )
        .group(
            Some("Substituição Tributária"),
            true,
            12,
            &["TICM_PERC_MVA_ST", "TICM_PERC_ICMS_ST", "TICM_PERC_REDUCAO_ST"],
        )
        .group(
            Some("IPI, PIS e COFINS"),
            true,
            12,
            &[
                "TICM_CST_IPI",
                "TICM_PERC_IPI",
                "TICM_CST_PIS",
                "TICM_PERC_PIS",
                "TICM_CST_COFINS",
                "TICM_PERC_COFINS",
            ],
        )
        .group(Some("Observação"), true, 12, &["TICM_OBS"])
}

pub struct TaxRuleHooks;

#[async_trait]
impl Hooks for TaxRuleHooks {
    async fn before_write(
        &self,
        op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        normalise_cfop(body, "TICM_CFOP", "CFOP")?;
        // On an update only a body that names both and clears both is refused; the
        // table's check covers the rest.
        let names_both =
            op == Op::Create || (body.contains_key("TICM_CST") && body.contains_key("TICM_CSOSN"));
        if names_both && blank(body, "TICM_CST") && blank(body, "TICM_CSOSN") {
            return Err(Error::validation("Informe o CST ou o CSOSN."));
        }
        Ok(())
    }
}
