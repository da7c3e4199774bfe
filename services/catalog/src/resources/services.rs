//! Services (labour sold on orders and service orders) and what classifies them:
//! groups, types and sectors.
//!
//! Service groups and types have no company column in the spec (§3): the client's
//! companies share them. Groups follow the common path pattern, with `{emp}`
//! (`company_path`); types are called without it (/tiposervico filtro, registros,
//! pesquisar).

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::grpc::Caller;
use erp_platform::resource::{Field, Hooks, Kind, Op, Resource};
use erp_platform::{Error, Result};
use serde_json::{json, Map, Value};

use super::products::field_rules::text_of;
use crate::SCHEMA;

pub const LC116_MSG: &str = "Item da lista de serviços (LC 116) inválido.";

/// Registry order: what a sample references comes before it.
pub fn all() -> Vec<Resource> {
    vec![gruposervico(), tiposervico(), setorservico(), servico()]
}

pub fn gruposervico() -> Resource {
    Resource::new(
        "gruposervico",
        "Grupos de Serviços",
        SCHEMA,
        "gruposervico",
        "gruposservico",
    )
    .screen("/gruposservico")
    .sample(json!({"GRPS_DESCRICAO": "MECÂNICA GERAL"}))
    .key(&["GRPS_ID"])
    .company_path()
    .label("GRPS_DESCRICAO")
    // data-and-calls §9: service groups are listed by code.
    .order("GRPS_ID")
    .fields(vec![
        Field::id("GRPS_ID", "Código"),
        Field::text("GRPS_DESCRICAO", "Descrição")
            .required()
            .len(60)
            .searchable()
            .list()
            .width(7),
        Field::situation("GRPS_SITUACAO"),
    ])
}

pub fn tiposervico() -> Resource {
    Resource::new(
        "tiposervico",
        "Tipos de Serviço",
        SCHEMA,
        "tiposervico",
        "tiposservico",
    )
    .screen("/tiposservico")
    .sample(json!({"TIPS_DESCRICAO": "MANUTENÇÃO CORRETIVA"}))
    .key(&["TIPS_ID"])
    .label("TIPS_DESCRICAO")
    .order("TIPS_DESCRICAO")
    .fields(vec![
        Field::id("TIPS_ID", "Código"),
        Field::text("TIPS_DESCRICAO", "Descrição")
            .required()
            .len(60)
            .searchable()
            .list()
            .width(7),
        Field::situation("TIPS_SITUACAO"),
    ])
}

pub fn setorservico() -> Resource {
    Resource::new(
        "setorservico",
        "Setores de Serviço",
        SCHEMA,
        "setorservico",
        "setoresservico",
    )
    .screen("/setoresservico")
    .sample(json!({"SETS_DESCRICAO": "OFICINA"}))
    // The reports' service orders by sector name them.
    .events("setorservico")
    .key(&["SETS_ID"])
    .company("SETS_EMP_ID")
    .label("SETS_DESCRICAO")
    .order("SETS_DESCRICAO")
    .fields(vec![
        Field::id("SETS_ID", "Código"),
        Field::int("SETS_EMP_ID", "Empresa"),
        Field::text("SETS_DESCRICAO", "Descrição")
            .required()
            .len(60)
            .searchable()
            .list()
            .width(7),
        Field::situation("SETS_SITUACAO"),
    ])
}

pub fn servico() -> Resource {
    Resource::new("servico", "Serviços", SCHEMA, "servico", "servicos")
        .screen("/servicos")
        .sample(json!({
            "SERV_DESCRICAO": "TROCA DE ÓLEO E FILTRO",
            "SERV_REFERENCIA": "MEC-001",
            "SERV_VLR_BASE": "80.00",
            "SERV_GRPS_ID": 1,
            "SERV_TIPS_ID": 1,
            "SERV_SETS_ID": 1,
            "SERV_TEMPO_ESTIMADO": "0.75",
            "SERV_PERC_COMISSAO": "10",
            "SERV_CODIGO_LC116": "1401",
            "SERV_CNAE": "4520-0/01",
            "SERV_PERC_ISS": "5"
        }))
        .key(&["SERV_ID"])
        .company("SERV_EMP_ID")
        .label("SERV_DESCRICAO")
        .order("SERV_DESCRICAO")
        // data-and-calls §9: GET /servico/pesquisar answers 20 rows.
        .search_limit(20)
        .events("servico")
        .hooks(Arc::new(ServiceRules))
        .fields(vec![
            Field::id("SERV_ID", "Código"),
            Field::int("SERV_EMP_ID", "Empresa"),
            Field::text("SERV_DESCRICAO", "Descrição")
                .required()
                .len(120)
                .searchable()
                .list()
                .width(8),
            Field::text("SERV_REFERENCIA", "Código Interno")
                .len(30)
                .searchable()
                .list()
                .width(4),
            Field::money("SERV_VLR_BASE", "Valor Base").list().width(3),
            Field::reference("SERV_GRPS_ID", "Grupo", "gruposervico", Kind::Combobox)
                .list()
                .width(3),
            Field::reference("SERV_TIPS_ID", "Tipo", "tiposervico", Kind::Combobox).width(3),
            Field::reference("SERV_SETS_ID", "Setor", "setorservico", Kind::Combobox).width(3),
            // Hours, the way workshops quote labour (0,75 = 45 minutes).
            Field::decimal("SERV_TEMPO_ESTIMADO", "Tempo Estimado (horas)")
                .scale(2)
                .min("0")
                .width(3),
            Field::decimal("SERV_PERC_COMISSAO", "Comissão (%)")
                .scale(4)
                .min("0")
                .max("100")
                .width(3),
            // Item of the list annexed to Lei Complementar 116/2003, which every
            // NFS-e names (cTribNac / ItemListaServico).
            Field::text("SERV_CODIGO_LC116", "Item da Lista de Serviços (LC 116)")
                .len(5)
                .mask("##.##")
                .width(3),
            Field::text("SERV_CODIGO_MUNICIPAL", "Código de Tributação Municipal")
                .len(20)
                .width(3),
            Field::text("SERV_CNAE", "CNAE")
                .reference_to("cnaes")
                .kind(Kind::Autocomplete)
                .len(7)
                .mask("####-#/##")
                .width(3),
            Field::decimal("SERV_PERC_ISS", "Alíquota do ISS (%)")
                .scale(4)
                .min("0")
                .max("100")
                .width(3),
            Field::situation("SERV_SITUACAO"),
            Field::textarea("SERV_OBS", "Observações").len(2000),
            Field::timestamp("SERV_DTA_CAD", "Data de Cadastro").width(3),
        ])
        .group(
            Some("Identificação"),
            true,
            12,
            &[
                "SERV_ID",
                "SERV_DESCRICAO",
                "SERV_REFERENCIA",
                "SERV_GRPS_ID",
                "SERV_TIPS_ID",
                "SERV_SETS_ID",
                "SERV_SITUACAO",
                "SERV_DTA_CAD",
            ],
        )
        .group(
            Some("Valores"),
            true,
            12,
            &["SERV_VLR_BASE", "SERV_TEMPO_ESTIMADO", "SERV_PERC_COMISSAO"],
        )
        .group(
            Some("Fiscal (NFS-e)"),
            true,
            12,
            &[
                "SERV_CODIGO_LC116",
                "SERV_CODIGO_MUNICIPAL",
                "SERV_CNAE",
                "SERV_PERC_ISS",
            ],
        )
        .group(Some("Observações"), true, 12, &["SERV_OBS"])
}

/// `14.01` from `1401` or `14.01`: items of the LC 116 list are a two-digit
/// group and a two-digit item.
pub fn lc116_item(s: &str) -> Option<String> {
    let digits: String = s.chars().filter(|c| *c != '.').collect();
    (digits.len() == 4 && digits.chars().all(|c| c.is_ascii_digit()))
        .then(|| format!("{}.{}", &digits[..2], &digits[2..]))
}

/// CNAE subclasses are seven digits, usually typed as `4520-0/01`.
fn cnae_digits(s: &str) -> Option<String> {
    let digits: String = s
        .chars()
        .filter(|c| !matches!(c, '.' | '-' | '/' | ' '))
        .collect();
    (digits.len() == 7 && digits.chars().all(|c| c.is_ascii_digit())).then_some(digits)
}

struct ServiceRules;

#[async_trait]
impl Hooks for ServiceRules {
    async fn before_write(
        &self,
        _op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        if let Some(s) = text_of(body.get("SERV_CODIGO_LC116")) {
            let item = lc116_item(&s).ok_or_else(|| Error::validation(LC116_MSG))?;
            body.insert("SERV_CODIGO_LC116".into(), Value::from(item));
        }
        if let Some(s) = text_of(body.get("SERV_CNAE")) {
            let cnae = cnae_digits(&s).ok_or_else(|| Error::validation("CNAE inválido."))?;
            body.insert("SERV_CNAE".into(), Value::from(cnae));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lc116_items_are_group_dot_item() {
        assert_eq!(lc116_item("1401").as_deref(), Some("14.01"));
        assert_eq!(lc116_item("14.01").as_deref(), Some("14.01"));
        assert_eq!(lc116_item("140").as_deref(), None);
        assert_eq!(lc116_item("14.0a").as_deref(), None);
        assert_eq!(cnae_digits("4520-0/01").as_deref(), Some("4520001"));
        assert_eq!(cnae_digits("4520-0/0").as_deref(), None);
    }
}
