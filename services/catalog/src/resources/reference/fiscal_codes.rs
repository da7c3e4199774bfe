//! Fiscal code tables shared by every client: NCM (with the legacy NCM search),
//! CNAE and cBenef.

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::resource::{query, ActionHandler, ActionPerm, Call, Field, Resource};
use erp_platform::Result;
use serde_json::{json, Value};

use super::normalize::{Normalize, Rule};

const SCHEMA: &str = crate::SCHEMA;

pub fn ncm() -> Resource {
    Resource::new("ncm", "NCM", SCHEMA, "ncm", "ncm")
        .global()
        .company_path()
        .natural_key()
        .screen("/ncm")
        .key(&["NCM_CODIGO"])
        .constraint("ncm_pkey", "NCM já cadastrado.")
        .label("NCM_DESCRICAO")
        .order("NCM_CODIGO")
        .search_limit(20)
        .action(
            "GET",
            "/ncm/pesquisar/{filter}",
            "pesquisar",
            ActionPerm::View,
            "NCM: pesquisar por código ou descrição",
            Arc::new(NcmSearch),
        )
        .hooks(Arc::new(Normalize {
            rules: &[Rule::Digits("NCM_CODIGO", "NCM", 8)],
            cnae: false,
        }))
        .sample(json!({"NCM_CODIGO": "9999.99.99", "NCM_DESCRICAO": "Mercadoria Teste ERP", "NCM_UNIDADE": "UN"}))
        .fields(vec![
            Field::text("NCM_CODIGO", "NCM")
                .required()
                .len(8)
                .min_len(8)
                .mask("####.##.##")
                .searchable()
                .list()
                .width(3),
            Field::textarea("NCM_DESCRICAO", "Descrição")
                .required()
                .len(1000)
                .searchable()
                .list(),
            Field::date("NCM_DATA_INICIO", "Vigência Inicial"),
            Field::date("NCM_DATA_FIM", "Vigência Final"),
            Field::text("NCM_ATO_LEGAL", "Ato Legal").len(60).width(4),
            Field::text("NCM_UNIDADE", "Unidade Tributável").len(6).width(2),
        ])
}

pub fn cnaes() -> Resource {
    Resource::new("cnaes", "CNAE", SCHEMA, "cnaes", "clientes")
        .global()
        .company_path()
        .natural_key()
        .key(&["CNAE_CODIGO"])
        .constraint("cnaes_pkey", "CNAE já cadastrado.")
        .label("CNAE_DESCRICAO")
        .order("CNAE_CODIGO")
        .search_limit(20)
        .hooks(Arc::new(Normalize {
            rules: &[Rule::Digits("CNAE_CODIGO", "CNAE", 7)],
            cnae: true,
        }))
        .sample(json!({"CNAE_CODIGO": "9999-9/99", "CNAE_DESCRICAO": "Atividade Teste ERP"}))
        .fields(vec![
            Field::text("CNAE_CODIGO", "CNAE")
                .required()
                .len(7)
                .min_len(7)
                .mask("####-#/##")
                .searchable()
                .list()
                .width(3),
            Field::text("CNAE_DESCRICAO", "Descrição")
                .required()
                .len(300)
                .searchable()
                .list()
                .width(9),
            Field::text("CNAE_SECAO", "Seção").len(1).list().width(2),
            Field::text("CNAE_DIVISAO", "Divisão").len(2).width(2),
            Field::text("CNAE_GRUPO", "Grupo").len(3).width(2),
            Field::text("CNAE_CLASSE", "Classe").len(5).width(2),
        ])
}

pub fn benef() -> Resource {
    Resource::new("benef", "Benefícios Fiscais (cBenef)", SCHEMA, "benef", "tributacoes")
        .global()
        .company_path()
        .natural_key()
        .key(&["BENEF_CODIGO"])
        .constraint("benef_pkey", "Código (cBenef) já cadastrado.")
        .label("BENEF_DESCRICAO")
        .order("BENEF_CODIGO")
        .search_limit(20)
        .hooks(Arc::new(Normalize {
            rules: &[Rule::Upper("BENEF_CODIGO"), Rule::Upper("BENEF_UF")],
            cnae: false,
        }))
        .sample(json!({"BENEF_CODIGO": "rs999999", "BENEF_DESCRICAO": "Benefício Teste ERP", "BENEF_UF": "RS", "BENEF_CST": "20;40"}))
        .fields(vec![
            Field::text("BENEF_CODIGO", "Código (cBenef)")
                .required()
                .len(10)
                .min_len(8)
                .searchable()
                .list()
                .width(3),
            Field::textarea("BENEF_DESCRICAO", "Descrição")
                .required()
                .len(2000)
                .searchable()
                .list(),
            Field::text("BENEF_UF", "UF")
                .required()
                .len(2)
                .min_len(2)
                .list()
                .width(2),
            Field::text("BENEF_CST", "CSTs Aplicáveis").len(60).width(4),
            Field::date("BENEF_DATA_INICIO", "Vigência Inicial"),
            Field::date("BENEF_DATA_FIM", "Vigência Final"),
        ])
}

/// `GET /ncm/pesquisar/{f}`: the legacy NCM search carries no company, unlike the
/// `/{filter}/{emp}` search the register gets from `.company_path()`. A code typed
/// with its dots (`0101.21`) is searched by its digits.
pub struct NcmSearch;

#[async_trait]
impl ActionHandler for NcmSearch {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, emp, params, .. } = call;
        let raw = params.get("filter").map(|s| s.trim()).unwrap_or_default();
        let looks_like_code =
            !raw.is_empty() && raw.chars().all(|c| c.is_ascii_digit() || c == '.');
        let filter = if looks_like_code {
            raw.replace('.', "")
        } else {
            raw.to_string()
        };
        Ok(Value::Array(
            query::search(tx, res, caller, emp, &filter, 0).await?,
        ))
    }
}
