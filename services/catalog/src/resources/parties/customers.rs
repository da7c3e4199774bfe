//! Customers (`clientes`): the register, the document rules by person type, and the
//! calls of the customer screen (search by person type, the customer with contacts
//! and references). The picture upload is the platform's `ReplaceImage`. The credit
//! limit call (`/clientes/limitecredito`) is finance's: it knows the receivables.
//! Moving a customer to another company (`PUT /clientesTransf/{transferId}/{emp}`)
//! is `transfer`.

use std::sync::Arc;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::params::{company, id_param};
use erp_platform::resource::{
    query, ActionHandler, ActionPerm, Call, DbType, Field, Hooks, Kind, Op, Resource,
};
use erp_platform::validators::{self, Cnpj};
use erp_platform::{Error, Result};
use serde_json::{json, Map, Value};

use erp_platform::resource::images::ReplaceImage;

/// File types of the customer's picture.
pub(crate) const IMAGE_TYPES: [&str; 3] = ["png", "jpeg", "bmp"];
use super::sub_registers;
use crate::resources::checks::{cpf, normalise};
use crate::resources::rows::{children_filter, get_row};
use crate::SCHEMA;

/// The person types of the spec's list, in its order: the search call's numeric
/// filter is the position in this list (0 = all).
pub const PERSON_TYPES: [(&str, &str); 5] = [
    ("F", "Física"),
    ("J", "Jurídica"),
    ("E", "Exterior"),
    ("R", "Produtor Rural"),
    ("P", "Pré-cadastro"),
];

pub(crate) fn clientes() -> Resource {
    Resource::new("clientes", "Clientes", SCHEMA, "clientes", "clientes")
        .screen("/clientes")
        .sample(json!({
            "CLI_TIPO_PESSOA": "J", "CLI_DESCRICAO": "CLIENTE TESTE LTDA", "CLI_FANTASIA": "Cliente Teste",
            "CLI_CGC": "11.444.777/0001-61", "CLI_IND_IE": 9, "CLI_CEP": "01310-100",
            "CLI_ENDERECO": "Avenida Paulista", "CLI_NUMERO": "1000", "CLI_BAIRRO": "Bela Vista",
            "CLI_CIDADE": "São Paulo", "CLI_UF": "SP", "CLI_CID_IBGE": 3550308, "CLI_FONE": "(11) 98765-4321",
            "CLI_EMAIL": "compras@clienteteste.com.br", "CLI_LIMITE_CREDITO": "5000.00", "CLI_COLA_ID": 1
        }))
        .key(&["CLI_ID"])
        .company("CLI_EMP_ID")
        .label("CLI_DESCRICAO")
        .order("CLI_DESCRICAO")
        .events("cliente")
        .search_limit(20)
        .hooks(Arc::new(CustomerHooks))
        .constraint("clientes_cpf_key", "CPF já cadastrado para outro cliente.")
        .constraint("clientes_cgc_key", "CNPJ já cadastrado para outro cliente.")
        .fields(vec![
            Field::id("CLI_ID", "Código"),
            Field::int("CLI_EMP_ID", "Empresa"),
            Field::options("CLI_TIPO_PESSOA", "Tipo de Pessoa", DbType::Text, &PERSON_TYPES)
                .required()
                .default(json!("F"))
                .list()
                .width(3),
            Field::text("CLI_DESCRICAO", "Nome/Razão Social")
                .required()
                .len(150)
                .searchable()
                .list()
                .width(6),
            Field::text("CLI_FANTASIA", "Nome Fantasia").len(150).searchable().width(6),
            Field::cpf_cnpj("CLI_CPF", "CPF").len(14).list().width(3),
            Field::cpf_cnpj("CLI_CGC", "CNPJ").list().width(3),
            Field::text("CLI_DOC_ESTRANGEIRO", "Documento Estrangeiro").len(30).width(3),
            Field::options(
                "CLI_IND_IE",
                "Indicador da IE",
                DbType::Int,
                &[("1", "Contribuinte ICMS"), ("2", "Contribuinte isento"), ("9", "Não contribuinte")],
            )
            .required()
            .default(json!(9))
            .width(3),
            Field::text("CLI_IE", "Inscrição Estadual").len(20).width(3),
            Field::text("CLI_IM", "Inscrição Municipal").len(20).width(3),
            Field::text("CLI_RG", "RG").len(20).width(3),
            Field::date("CLI_DTA_NASC", "Data de Nascimento"),
            Field::cep("CLI_CEP", "CEP"),
            Field::text("CLI_ENDERECO", "Endereço").len(150),
            Field::text("CLI_NUMERO", "Número").len(20).width(2),
            Field::text("CLI_COMPLEMENTO", "Complemento").len(60).width(4),
            Field::text("CLI_BAIRRO", "Bairro").len(60),
            Field::reference("CLI_CID_IBGE", "Cidade (IBGE)", "cidades", Kind::Autocomplete),
            Field::text("CLI_CIDADE", "Cidade").len(60).list().width(4),
            Field::text("CLI_UF", "UF").len(2).list().width(2),
            Field::reference("CLI_PAIS_ID", "País", "paises", Kind::Autocomplete),
            Field::phones("CLI_FONE", "Telefones").list(),
            Field::email("CLI_EMAIL", "E-mail"),
            Field::email("CLI_EMAIL_NFE", "E-mail para NF-e"),
            Field::text("CLI_CONTATO", "Pessoa de Contato").len(60),
            Field::money("CLI_LIMITE_CREDITO", "Limite de Crédito").max("9999999999999.99").width(3),
            Field::reference("CLI_COLA_ID", "Vendedor", "colaborador", Kind::Autocomplete),
            Field::int("CLI_TABELA_PRECO", "Tabela de Preço").min("1").max("99").width(3),
            Field::reference("CLI_CNDP_ID", "Condição de Pagamento", "condicaopagamento", Kind::Combobox),
            Field::options("CLI_SITUACAO", "Situação", DbType::Int, &[("1", "Ativo"), ("2", "Bloqueado")])
                .kind(Kind::Situation)
                .required()
                .default(json!(1))
                .list()
                .width(3),
            Field::text("CLI_MOTIVO_BLOQUEIO", "Motivo do Bloqueio").len(200),
            Field::textarea("CLI_OBS", "Observações").len(2000),
            Field::upload("CLI_IMAGEM", "Imagem", &IMAGE_TYPES),
            Field::timestamp("CLI_DTA_CAD", "Data de Cadastro"),
        ])
        .group(
            Some("Identificação"),
            true,
            12,
            &[
                "CLI_ID",
                "CLI_TIPO_PESSOA",
                "CLI_SITUACAO",
                "CLI_DESCRICAO",
                "CLI_FANTASIA",
                "CLI_CPF",
                "CLI_CGC",
                "CLI_DOC_ESTRANGEIRO",
                "CLI_RG",
                "CLI_DTA_NASC",
                "CLI_DTA_CAD",
            ],
        )
        .group(
            Some("Dados Fiscais"),
            true,
            12,
            &["CLI_IND_IE", "CLI_IE", "CLI_IM"],
        )
        .group(
            Some("Endereço"),
            true,
            12,
            &[
                "CLI_CEP",
                "CLI_ENDERECO",
                "CLI_NUMERO",
                "CLI_COMPLEMENTO",
                "CLI_BAIRRO",
                "CLI_CID_IBGE",
                "CLI_CIDADE",
                "CLI_UF",
                "CLI_PAIS_ID",
            ],
        )
        .group(
            Some("Contato"),
            true,
            12,
            &["CLI_FONE", "CLI_EMAIL", "CLI_EMAIL_NFE", "CLI_CONTATO"],
        )
        .group(
            Some("Comercial"),
            true,
            12,
            &[
                "CLI_LIMITE_CREDITO",
                "CLI_COLA_ID",
                "CLI_TABELA_PRECO",
                "CLI_CNDP_ID",
                "CLI_MOTIVO_BLOQUEIO",
            ],
        )
        .group(Some("Observações"), true, 12, &["CLI_OBS", "CLI_IMAGEM"])
        .action(
            "GET",
            "/clientes/pesquisar/{filter}/{emp}/{personType}",
            "pesquisar_tipo",
            ActionPerm::View,
            "Clientes: pesquisar por nome ou documento e tipo de pessoa (0 = todos)",
            Arc::new(SearchByPersonType),
        )
        .action(
            "GET",
            "/clientes/visualizar/{id}/{emp}",
            "visualizar",
            ActionPerm::View,
            "Clientes: o cliente com seus contatos e referências",
            Arc::new(View {
                contacts: sub_registers::contatos(),
                references: sub_registers::referencias(),
            }),
        )
        .call(
            "PUT",
            "/clientesTransf/{transferId}/{emp}",
            "transferir",
            ActionPerm::Update,
            "Clientes: transferir o cliente, com seus contatos, referências, anexos, familiares, histórico, serviços e contratos, para outra empresa (corpo: DESTINO_EMP_ID)",
            super::transfer::Transfer,
        )
        .upload_action(
            "POST",
            "/clientes/imagem/{id}/{emp}",
            "imagem",
            &IMAGE_TYPES,
            "Clientes: enviar a imagem do cliente",
            // Answers the customer with the file it replaced (`anterior`).
            Arc::new(ReplaceImage {
                field: "CLI_IMAGEM",
                key_params: &["id"],
                missing: "Cliente não encontrado.",
            }),
        )
}

pub(crate) struct CustomerHooks;

#[async_trait]
impl Hooks for CustomerHooks {
    async fn before_write(
        &self,
        _op: Op,
        _caller: &Caller,
        body: &mut Map<String, Value>,
    ) -> Result<()> {
        for f in ["CLI_TIPO_PESSOA", "CLI_UF"] {
            normalise(body, f, |s| Ok(s.to_uppercase()))?;
        }
        normalise(body, "CLI_CPF", cpf)?;
        normalise(body, "CLI_CGC", |s| {
            Cnpj::parse(s)
                .map(|c| c.as_str().to_string())
                .map_err(|e| Error::validation(e.to_string()))
        })?;
        Ok(())
    }

    /// The document a person type needs, on the written row: an edit that changes
    /// only the type is checked too.
    async fn after_write(&self, _tx: &mut Tx, op: Op, _caller: &Caller, row: &Value) -> Result<()> {
        if op == Op::Delete {
            return Ok(());
        }
        let has = |f: &str| {
            row.get(f)
                .and_then(Value::as_str)
                .is_some_and(|s| !s.is_empty())
        };
        let missing = match row.get("CLI_TIPO_PESSOA").and_then(Value::as_str) {
            Some("F") if !has("CLI_CPF") => Some("CPF"),
            Some("J") if !has("CLI_CGC") => Some("CNPJ"),
            Some("R") if !has("CLI_CPF") && !has("CLI_CGC") => Some("CPF/CNPJ"),
            _ => None,
        };
        match missing {
            Some(label) => Err(Error::validation(validators::required(label).to_string())),
            None => Ok(()),
        }
    }
}

/// The person-type filter of the search call: its position in the spec's list
/// (0 = all), or the code itself.
pub(crate) fn person_type(code: &str) -> Result<Option<&'static str>> {
    let code = code.trim().to_uppercase();
    if code.is_empty() || code == "0" {
        return Ok(None);
    }
    let by_index = code
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_sub(1))
        .and_then(|i| PERSON_TYPES.get(i));
    by_index
        .or_else(|| PERSON_TYPES.iter().find(|(c, _)| *c == code))
        .map(|(c, _)| Some(*c))
        .ok_or_else(|| Error::validation("Tipo de pessoa inválido."))
}

/// Documents are stored unmasked: a masked CPF or CNPJ typed in the search box is
/// unmasked too, so it finds the customer.
pub(crate) fn search_text(filter: &str) -> String {
    let f = filter.trim();
    let looks_like_document = f.chars().filter(char::is_ascii_digit).count() >= 3
        && f.contains(['.', '/', '-'])
        && f.chars()
            .all(|c| c.is_ascii_alphanumeric() || ".-/ ".contains(c));
    if looks_like_document {
        f.chars()
            .filter(char::is_ascii_alphanumeric)
            .collect::<String>()
            .to_uppercase()
    } else {
        f.to_string()
    }
}

/// GET /clientes/pesquisar/{filter}/{emp}/{personType}: by name, fantasy name,
/// document or code, of one person type or all.
pub(crate) struct SearchByPersonType;

#[async_trait]
impl ActionHandler for SearchByPersonType {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, emp, params, .. } = call;
        let emp = company(emp)?;
        // A blank filter lists the first customers and a blank type means all, so
        // neither is a missing parameter.
        let optional = |name: &str| params.get(name).map_or("", String::as_str);
        let mut filter = Map::new();
        filter.insert(
            "FILTRO".into(),
            Value::from(search_text(optional("filter"))),
        );
        filter.insert("LIMIT".into(), Value::from(res.search_limit));
        if let Some(t) = person_type(optional("personType"))? {
            filter.insert("CLI_TIPO_PESSOA".into(), Value::from(t));
        }
        Ok(Value::Array(
            query::list(tx, res, caller, Some(emp), &filter).await?,
        ))
    }
}

/// GET /clientes/visualizar/{id}/{emp}: the customer with `CONTATOS` and
/// `REFERENCIAS`.
pub(crate) struct View {
    pub contacts: Resource,
    pub references: Resource,
}

#[async_trait]
impl ActionHandler for View {
    async fn run(&self, tx: &mut Tx, call: Call<'_>) -> Result<Value> {
        let Call { res, caller, emp, params, .. } = call;
        let (emp, id) = (company(emp)?, id_param(params, "id")?);
        let mut row = get_row(tx, res, caller, Some(emp), id).await?;
        let all = json!({"LIMIT": query::MAX_LIMIT});
        let contacts = children_filter(&all, "CONTATO_CLI_ID", id);
        let contacts = query::list(tx, &self.contacts, caller, Some(emp), &contacts).await?;
        let references = children_filter(&all, "REF_CLI_ID", id);
        let references = query::list(tx, &self.references, caller, Some(emp), &references).await?;
        if let Value::Object(m) = &mut row {
            m.insert("CONTATOS".into(), Value::Array(contacts));
            m.insert("REFERENCIAS".into(), Value::Array(references));
        }
        Ok(row)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn person_type_accepts_the_list_position_or_the_code() {
        assert_eq!(person_type("0").ok(), Some(None));
        assert_eq!(person_type("1").ok(), Some(Some("F")));
        assert_eq!(person_type("2").ok(), Some(Some("J")));
        assert_eq!(person_type("5").ok(), Some(Some("P")));
        assert_eq!(person_type("r").ok(), Some(Some("R")));
        assert!(person_type("6").is_err());
        assert!(person_type("X").is_err());
    }

    #[test]
    fn masked_documents_are_searched_unmasked() {
        assert_eq!(search_text("529.982.247-25"), "52998224725");
        assert_eq!(search_text("12.abc.345/01de-35"), "12ABC34501DE35");
        assert_eq!(search_text("Oficina São João"), "Oficina São João");
        assert_eq!(search_text("Rua 7-A"), "Rua 7-A");
    }
}
