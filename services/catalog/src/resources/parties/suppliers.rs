//! Suppliers (`fornecedor`), shared by the client's companies, with the supplier's
//! codes for our products (`fornecedorprod`) and the supplier calls: the customer
//! with the supplier's document, the search and the products of a supplier.

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::resource::params::id_param;
use erp_platform::resource::{query, ActionHandler, ActionPerm, Call, Field, Kind, Resource};
use erp_platform::{Error, Result};
use serde_json::{json, Value};

use super::customers::{clientes, search_text};
use crate::resources::rows::{children_filter, get_row};
use crate::SCHEMA;

pub(crate) fn fornecedor() -> Resource {
    Resource::new("fornecedor", "Fornecedores", SCHEMA, "fornecedor", "fornecedores")
        .screen("/fornecedores")
        .sample(json!({
            "FORN_DESCRICAO": "FORNECEDOR TESTE LTDA", "FORN_FANTASIA": "Fornecedor Teste",
            "FORN_CGC": "11.222.333/0001-81", "FORN_IE": "123456789", "FORN_CEP": "80010-000",
            "FORN_ENDERECO": "Rua XV de Novembro", "FORN_NUMERO": "50", "FORN_CIDADE": "Curitiba", "FORN_UF": "PR",
            "FORN_FONE": "41987654321", "FORN_EMAIL": "vendas@fornecedorteste.com.br", "FORN_PRAZO_ENTREGA": 5
        }))
        .key(&["FORN_ID"])
        .label("FORN_DESCRICAO")
        .order("FORN_DESCRICAO")
        // Purchases and payables keep the supplier's name.
        .events("fornecedor")
        .constraint("fornecedor_cgc_key", "CPF/CNPJ já cadastrado para outro fornecedor.")
        .search_limit(20)
        .fields(vec![
            Field::id("FORN_ID", "Código"),
            Field::text("FORN_DESCRICAO", "Razão Social")
                .required()
                .len(150)
                .searchable()
                .list()
                .width(6),
            Field::text("FORN_FANTASIA", "Nome Fantasia").len(150).searchable().list().width(6),
            Field::cpf_cnpj("FORN_CGC", "CPF/CNPJ").list().width(3),
            Field::text("FORN_IE", "Inscrição Estadual").len(20).width(3),
            Field::text("FORN_IM", "Inscrição Municipal").len(20).width(3),
            Field::cep("FORN_CEP", "CEP"),
            Field::text("FORN_ENDERECO", "Endereço").len(150),
            Field::text("FORN_NUMERO", "Número").len(20).width(2),
            Field::text("FORN_COMPLEMENTO", "Complemento").len(60).width(4),
            Field::text("FORN_BAIRRO", "Bairro").len(60),
            Field::reference("FORN_CID_IBGE", "Cidade (IBGE)", "cidades", Kind::Autocomplete),
            Field::text("FORN_CIDADE", "Cidade").len(60).list().width(4),
            Field::text("FORN_UF", "UF").len(2).list().width(2),
            Field::phones("FORN_FONE", "Telefones").list(),
            Field::email("FORN_EMAIL", "E-mail"),
            Field::text("FORN_SITE", "Site").len(150),
            Field::text("FORN_CONTATO", "Pessoa de Contato").len(60),
            Field::int("FORN_PRAZO_ENTREGA", "Prazo de Entrega (dias)").min("0").width(3),
            Field::reference("FORN_CNDP_ID", "Condição de Pagamento", "condicaopagamento", Kind::Combobox),
            Field::situation("FORN_SITUACAO"),
            Field::textarea("FORN_OBS", "Observações").len(2000),
            Field::timestamp("FORN_DTA_CAD", "Data de Cadastro"),
        ])
        .group(
            Some("Identificação"),
            true,
            12,
            &[
                "FORN_ID",
                "FORN_DESCRICAO",
                "FORN_FANTASIA",
                "FORN_CGC",
                "FORN_IE",
                "FORN_IM",
                "FORN_SITUACAO",
            ],
        )
        .group(
            Some("Endereço"),
            true,
            12,
            &[
                "FORN_CEP",
                "FORN_ENDERECO",
                "FORN_NUMERO",
                "FORN_COMPLEMENTO",
                "FORN_BAIRRO",
                "FORN_CID_IBGE",
                "FORN_CIDADE",
                "FORN_UF",
            ],
        )
        .group(
            Some("Contato e Compras"),
            true,
            12,
            &[
                "FORN_FONE",
                "FORN_EMAIL",
                "FORN_SITE",
                "FORN_CONTATO",
                "FORN_PRAZO_ENTREGA",
                "FORN_CNDP_ID",
            ],
        )
        .group(Some("Observações"), true, 12, &["FORN_OBS", "FORN_DTA_CAD"])
        .action(
            "GET",
            "/fornecedor/cliente/{id}/{emp}",
            "cliente",
            ActionPerm::View,
            "Fornecedores: o cliente da empresa {emp} com o mesmo CPF/CNPJ do fornecedor {id}",
            Arc::new(SupplierAsCustomer {
                customers: clientes(),
            }),
        )
        .action(
            "GET",
            "/fornecedor/pesquisar/{filter}",
            "pesquisar",
            ActionPerm::View,
            "Fornecedores: pesquisar (sem filtro, lista vazia)",
            Arc::new(SupplierSearch),
        )
}

pub(crate) fn fornecedor_prod() -> Resource {
    Resource::new(
        "fornecedorprod",
        "Produtos do Fornecedor",
        SCHEMA,
        "fornecedorprod",
        "fornecedores",
    )
    .sample(json!({
        "FOPR_FORN_ID": 1, "FOPR_PROD_ID": 1, "FOPR_CODIGO": "ABC-123", "FOPR_DESCRICAO": "Parafuso sextavado",
        "FOPR_UNIDADE": "CX", "FOPR_FATOR_CONVERSAO": "100", "FOPR_VLR_ULTIMA_COMPRA": "45.9",
        "FOPR_DTA_ULTIMA_COMPRA": "2026-10-01"
    }))
    .natural_key()
    .key(&["FOPR_FORN_ID", "FOPR_PROD_ID"])
    .constraint("fornecedorprod_pkey", "Produto já cadastrado para este fornecedor.")
    .label("FOPR_CODIGO")
    .order("FOPR_CODIGO")
    .fields(vec![
        Field::reference("FOPR_FORN_ID", "Fornecedor", "fornecedor", Kind::Autocomplete)
            .required()
            .list(),
        // Products are declared by another module: a plain column.
        Field::reference("FOPR_PROD_ID", "Produto", "produtos", Kind::Autocomplete)
            .required()
            .list(),
        Field::text("FOPR_CODIGO", "Código no Fornecedor")
            .required()
            .len(60)
            .searchable()
            .list()
            .width(3),
        Field::text("FOPR_DESCRICAO", "Descrição no Fornecedor")
            .len(150)
            .searchable()
            .list(),
        Field::text("FOPR_UNIDADE", "Unidade").len(6).width(2),
        Field::decimal("FOPR_FATOR_CONVERSAO", "Fator de Conversão")
            .scale(4)
            .min("0.0001")
            .width(3),
        Field::money("FOPR_VLR_ULTIMA_COMPRA", "Último Preço")
            .scale(4)
            .max("99999999999.9999")
            .list()
            .width(3),
        Field::date("FOPR_DTA_ULTIMA_COMPRA", "Data da Última Compra").list(),
    ])
    .action(
        "POST",
        "/fornecedorprod/{id}",
        "do_fornecedor",
        ActionPerm::View,
        "Produtos do fornecedor {id} (corpo: ORDENACAO, FILTRO, LIMIT, PAGINATION)",
        Arc::new(SupplierProducts),
    )
}

/// GET /fornecedor/cliente/{id}/{emp}: the customer of company {emp} registered with
/// the supplier's document (a supplier that also buys from us).
pub(crate) struct SupplierAsCustomer {
    pub customers: Resource,
}

#[async_trait]
impl ActionHandler for SupplierAsCustomer {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { caller, params, .. } = call;
        // Suppliers are not per company, so the engine passes no company: the path's
        // {emp} (checked by the gateway's guard) is the customers' company.
        let (id, emp) = (id_param(params, "id")?, id_param(params, "emp")?);
        let not_found = || Error::NotFound("Cliente não encontrado.".into());
        let document: Option<String> = sqlx::query_scalar(
            "SELECT forn_cgc FROM catalog.fornecedor WHERE client_id = $1 AND forn_id = $2",
        )
        .bind(caller.client_id)
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or_else(|| Error::NotFound("Fornecedor não encontrado.".into()))?;
        let document = document.ok_or_else(not_found)?;
        let customer: i64 = sqlx::query_scalar(
            "SELECT cli_id FROM catalog.clientes WHERE client_id = $1 AND cli_emp_id = $2 \
             AND (cli_cpf = $3 OR cli_cgc = $3) ORDER BY cli_id LIMIT 1",
        )
        .bind(caller.client_id)
        .bind(emp)
        .bind(&document)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or_else(not_found)?;
        get_row(tx, &self.customers, caller, Some(emp), customer).await
    }
}

/// GET /fornecedor/pesquisar/{filter}: as the generic search, but a blank filter
/// finds nothing (data-and-calls §5) instead of the first suppliers.
pub(crate) struct SupplierSearch;

#[async_trait]
impl ActionHandler for SupplierSearch {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, params, .. } = call;
        // Unlike a missing parameter, a blank filter is a search that finds nothing.
        let filter = search_text(params.get("filter").map_or("", String::as_str));
        if filter.is_empty() {
            return Ok(json!([]));
        }
        Ok(Value::Array(
            query::search(tx, res, caller, None, &filter, 0).await?,
        ))
    }
}

/// POST /fornecedorprod/{id}: the products of supplier {id}.
pub(crate) struct SupplierProducts;

#[async_trait]
impl ActionHandler for SupplierProducts {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, params, body, .. } = call;
        let filter = children_filter(&body, "FOPR_FORN_ID", id_param(params, "id")?);
        Ok(Value::Array(
            query::list(tx, res, caller, None, &filter).await?,
        ))
    }
}
