//! Countries, states and cities: public facts shared by every client.

use std::sync::Arc;

use erp_platform::resource::{DbType, Field, Resource};
use serde_json::json;

use super::normalize::{Normalize, Rule};

const SCHEMA: &str = crate::SCHEMA;

pub const REGIONS: [(&str, &str); 5] = [
    ("Norte", "Norte"),
    ("Nordeste", "Nordeste"),
    ("Sudeste", "Sudeste"),
    ("Sul", "Sul"),
    ("Centro-Oeste", "Centro-Oeste"),
];

pub fn paises() -> Resource {
    Resource::new("paises", "Países", SCHEMA, "paises", "paises")
        .global()
        .company_path()
        .natural_key()
        .screen("/paises")
        .key(&["PAIS_ID"])
        .constraint("paises_pkey", "Código (ISO) já cadastrado para outro país.")
        .constraint("paises_sigla_key", "Sigla já cadastrada para outro país.")
        .constraint("paises_cod_bacen_key", "Código BACEN já cadastrado para outro país.")
        .label("PAIS_DESCRICAO")
        .order("PAIS_DESCRICAO")
        .search_limit(20)
        .hooks(Arc::new(Normalize {
            rules: &[Rule::Upper("PAIS_SIGLA"), Rule::Upper("PAIS_SIGLA3")],
            cnae: false,
        }))
        .sample(json!({"PAIS_ID": 999, "PAIS_DESCRICAO": "País Teste ERP", "PAIS_SIGLA": "XT", "PAIS_SIGLA3": "XTE", "PAIS_COD_BACEN": 9999, "PAIS_DDI": "999"}))
        .fields(vec![
            Field::int("PAIS_ID", "Código (ISO)")
                .required()
                .min("1")
                .max("999")
                .list()
                .width(2),
            Field::text("PAIS_DESCRICAO", "Nome")
                .required()
                .len(100)
                .searchable()
                .list()
                .width(6),
            Field::text("PAIS_SIGLA", "Sigla")
                .len(2)
                .min_len(2)
                .searchable()
                .list()
                .width(2),
            Field::text("PAIS_SIGLA3", "Sigla (3 letras)").len(3).min_len(3).width(2),
            Field::int("PAIS_COD_BACEN", "Código BACEN")
                .min("1")
                .max("9999")
                .list()
                .width(3),
            Field::text("PAIS_DDI", "DDI").len(5).width(2),
        ])
}

pub fn estados() -> Resource {
    Resource::new("estados", "Estados", SCHEMA, "estados", "estados")
        .global()
        .company_path()
        .natural_key()
        .screen("/estados")
        .key(&["EST_ID"])
        .constraint("estados_pkey", "Código IBGE já cadastrado para outro estado.")
        .constraint("estados_sigla_key", "UF já cadastrada para outro estado.")
        .label("EST_DESCRICAO")
        .order("EST_DESCRICAO")
        .search_limit(27)
        .hooks(Arc::new(Normalize {
            rules: &[Rule::Upper("EST_SIGLA")],
            cnae: false,
        }))
        .sample(json!({"EST_ID": 99, "EST_SIGLA": "EX", "EST_DESCRICAO": "Estado Teste ERP", "EST_REGIAO": "Sul"}))
        .fields(vec![
            Field::int("EST_ID", "Código IBGE")
                .required()
                .min("1")
                .max("99")
                .list()
                .width(2),
            Field::text("EST_SIGLA", "UF")
                .required()
                .len(2)
                .min_len(2)
                .searchable()
                .list()
                .width(2),
            Field::text("EST_DESCRICAO", "Nome")
                .required()
                .len(60)
                .searchable()
                .list()
                .width(5),
            Field::options("EST_REGIAO", "Região", DbType::Text, &REGIONS)
                .list()
                .width(3),
        ])
}

pub fn cidades() -> Resource {
    Resource::new("cidades", "Cidades", SCHEMA, "cidades", "cidades")
        .global()
        .company_path()
        .natural_key()
        .screen("/cidades")
        .key(&["CID_ID"])
        .constraint("cidades_pkey", "Código IBGE já cadastrado para outra cidade.")
        .label("CID_DESCRICAO")
        .order("CID_DESCRICAO")
        .search_limit(20)
        .hooks(Arc::new(Normalize {
            rules: &[Rule::Upper("EST_SIGLA")],
            cnae: false,
        }))
        .sample(json!({"CID_ID": 9999999, "CID_DESCRICAO": "Cidade Teste ERP", "EST_SIGLA": "RS", "CID_DDD": "51"}))
        .fields(vec![
            Field::int("CID_ID", "Código IBGE")
                .required()
                .min("1000000")
                .max("9999999")
                .list()
                .width(3),
            Field::text("CID_DESCRICAO", "Nome")
                .required()
                .len(100)
                .searchable()
                .list()
                .width(6),
            Field::text("EST_SIGLA", "UF")
                .required()
                .len(2)
                .min_len(2)
                .list()
                .width(2),
            Field::text("CID_COD_SIAFI", "Código SIAFI").len(4).width(3),
            Field::text("CID_DDD", "DDD").len(2).min_len(2).width(2),
        ])
}
