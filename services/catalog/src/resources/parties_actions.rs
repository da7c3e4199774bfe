//! The customer hooks and the declared calls of customers, their attachments and
//! suppliers (data-and-calls.md §7 "Customers", "Supplier").

use std::collections::HashMap;

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::{query, ActionHandler, Hooks, Op, Resource};
use erp_platform::validators::{self, Cnpj};
use erp_platform::{Error, Result};
use serde_json::{json, Map, Value};

use super::support::{
    children_filter, company, cpf, get_row, int_param, normalise, param, text_of,
};
use super::PERSON_TYPES;

/// What a customer attachment may be: images and PDF (the spec's default upload types
/// plus bmp, as for images).
pub(crate) const ATTACHMENT_TYPES: [&str; 4] = ["png", "jpeg", "bmp", "pdf"];

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
    async fn run(
        &self,
        tx: &mut Tx,
        res: &Resource,
        caller: &Caller,
        emp: Option<i64>,
        params: &HashMap<String, String>,
        _body: Value,
    ) -> Result<Value> {
        let emp = company(emp)?;
        let mut filter = Map::new();
        filter.insert(
            "FILTRO".into(),
            Value::from(search_text(param(params, "filter")?)),
        );
        filter.insert("LIMIT".into(), Value::from(res.search_limit));
        if let Some(t) = person_type(param(params, "personType")?)? {
            filter.insert("CLI_TIPO_PESSOA".into(), Value::from(t));
        }
        Ok(Value::Array(
            query::list(tx, res, caller, Some(emp), &filter).await?,
        ))
    }
}

/// GET /clientes/limitecredito/{id}/{emp}.
pub(crate) struct CreditLimit;

#[async_trait]
impl ActionHandler for CreditLimit {
    async fn run(
        &self,
        tx: &mut Tx,
        res: &Resource,
        caller: &Caller,
        emp: Option<i64>,
        params: &HashMap<String, String>,
        _body: Value,
    ) -> Result<Value> {
        let id = int_param(params, "id")?;
        let row = get_row(tx, res, caller, Some(company(emp)?), id).await?;
        let limit = match row.get("CLI_LIMITE_CREDITO") {
            Some(Value::Number(n)) => Value::Number(n.clone()),
            _ => Value::from(0),
        };
        // The used amount is what the customer owes in open receivables. Receivables
        // belong to finance and catalog keeps no copy of them yet, so nothing counts
        // as used and the balance is the whole limit; when finance publishes its
        // receivable events, this reads the balance kept from them.
        Ok(json!({
            "CLI_ID": id,
            "CLI_DESCRICAO": row.get("CLI_DESCRICAO"),
            "CLI_SITUACAO": row.get("CLI_SITUACAO"),
            "CLI_LIMITE_CREDITO": limit.clone(),
            "VALOR_UTILIZADO": 0,
            "SALDO": limit,
        }))
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
    async fn run(
        &self,
        tx: &mut Tx,
        res: &Resource,
        caller: &Caller,
        emp: Option<i64>,
        params: &HashMap<String, String>,
        _body: Value,
    ) -> Result<Value> {
        let (emp, id) = (company(emp)?, int_param(params, "id")?);
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

fn url(body: &Value) -> Value {
    body.get("arquivo")
        .and_then(|f| f.get("url"))
        .cloned()
        .unwrap_or(Value::Null)
}

/// POST /clientes/imagem/{id}/{emp} (multipart): the customer's picture. Answers the
/// previous file name in `anterior` so the caller can remove it.
pub(crate) struct Image;

#[async_trait]
impl ActionHandler for Image {
    async fn run(
        &self,
        tx: &mut Tx,
        _res: &Resource,
        caller: &Caller,
        emp: Option<i64>,
        params: &HashMap<String, String>,
        body: Value,
    ) -> Result<Value> {
        let (emp, id) = (company(emp)?, int_param(params, "id")?);
        let (name, _) = erp_platform::resource::uploaded_file(&body)?;
        let previous: Option<String> = sqlx::query_scalar(
            "SELECT cli_imagem FROM catalog.clientes WHERE client_id = $1 AND cli_emp_id = $2 AND cli_id = $3 FOR UPDATE",
        )
        .bind(caller.client_id)
        .bind(emp)
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or_else(|| Error::NotFound("Cliente não encontrado.".into()))?;
        sqlx::query("UPDATE catalog.clientes SET cli_imagem = $4 WHERE client_id = $1 AND cli_emp_id = $2 AND cli_id = $3")
            .bind(caller.client_id)
            .bind(emp)
            .bind(id)
            .bind(name)
            .execute(&mut **tx)
            .await?;
        Ok(json!({"CLI_ID": id, "CLI_IMAGEM": name, "url": url(&body), "anterior": previous}))
    }
}

/// POST /clientesanexo/{id}/{emp} (multipart): a new attachment of customer {id};
/// `CLIA_DESCRICAO` defaults to the original file name.
pub(crate) struct AttachmentUpload;

#[async_trait]
impl ActionHandler for AttachmentUpload {
    async fn run(
        &self,
        tx: &mut Tx,
        res: &Resource,
        caller: &Caller,
        emp: Option<i64>,
        params: &HashMap<String, String>,
        body: Value,
    ) -> Result<Value> {
        let (emp, customer) = (company(emp)?, int_param(params, "id")?);
        let (name, original) = erp_platform::resource::uploaded_file(&body)?;
        let description = body
            .as_object()
            .and_then(|m| text_of(m, "CLIA_DESCRICAO"))
            .or(original)
            .unwrap_or(name);
        let mut row = Map::new();
        row.insert("CLIA_CLI_ID".into(), Value::from(customer));
        row.insert(
            "CLIA_DESCRICAO".into(),
            Value::from(description.chars().take(150).collect::<String>()),
        );
        let created = query::create(tx, res, caller, Some(emp), &row).await?;
        let id = created
            .get("CLIA_ID")
            .and_then(Value::as_i64)
            .ok_or_else(|| Error::internal("attachment without id"))?;
        sqlx::query(
            "UPDATE catalog.clientesanexo SET clia_anexo = $4 WHERE client_id = $1 AND clia_fil_id = $2 AND clia_id = $3",
        )
        .bind(caller.client_id)
        .bind(emp)
        .bind(id)
        .bind(name)
        .execute(&mut **tx)
        .await?;
        let mut row = get_row(tx, res, caller, Some(emp), id).await?;
        if let Value::Object(m) = &mut row {
            m.insert("url".into(), url(&body));
        }
        Ok(row)
    }
}

/// The file name of an attachment path. The legacy system kept attachments in a
/// `Clientes` folder and sends that prefix when removing one (data-and-calls §5).
pub(crate) fn attachment_file(path: &str) -> &str {
    let p = path.trim().trim_start_matches(['/', '\\']);
    let in_folder = p
        .get(..8)
        .is_some_and(|h| h.eq_ignore_ascii_case("clientes"));
    match (in_folder, p.get(8..9)) {
        (true, Some("/" | "\\")) => &p[9..],
        _ => p,
    }
}

/// DELETE /clientesanexo/{id}/{emp}/{anexo}: removes attachment {id} when {anexo}
/// names its file; answers the file name so the caller can remove the file.
pub(crate) struct AttachmentDelete;

#[async_trait]
impl ActionHandler for AttachmentDelete {
    async fn run(
        &self,
        tx: &mut Tx,
        res: &Resource,
        caller: &Caller,
        emp: Option<i64>,
        params: &HashMap<String, String>,
        _body: Value,
    ) -> Result<Value> {
        let (emp, id) = (company(emp)?, int_param(params, "id")?);
        let wanted = attachment_file(param(params, "anexo")?);
        let row = get_row(tx, res, caller, Some(emp), id).await?;
        let stored = row
            .get("CLIA_ANEXO")
            .and_then(Value::as_str)
            .map(attachment_file);
        if wanted.is_empty() || stored != Some(wanted) {
            return Err(Error::NotFound("Anexo não encontrado.".into()));
        }
        query::delete(tx, res, caller, Some(emp), &[id.to_string()]).await?;
        Ok(json!({"code": 200, "msg": "Registro excluído com sucesso.", "arquivo": wanted}))
    }
}

/// GET /fornecedor/cliente/{id}/{emp}: the customer of company {emp} registered with
/// the supplier's document (a supplier that also buys from us).
pub(crate) struct SupplierAsCustomer {
    pub customers: Resource,
}

#[async_trait]
impl ActionHandler for SupplierAsCustomer {
    async fn run(
        &self,
        tx: &mut Tx,
        _res: &Resource,
        caller: &Caller,
        _emp: Option<i64>,
        params: &HashMap<String, String>,
        _body: Value,
    ) -> Result<Value> {
        // Suppliers are not per company, so the engine passes no company: the path's
        // {emp} (checked by the gateway's guard) is the customers' company.
        let (id, emp) = (int_param(params, "id")?, int_param(params, "emp")?);
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
    async fn run(
        &self,
        tx: &mut Tx,
        res: &Resource,
        caller: &Caller,
        _emp: Option<i64>,
        params: &HashMap<String, String>,
        _body: Value,
    ) -> Result<Value> {
        let filter = search_text(param(params, "filter")?);
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
    async fn run(
        &self,
        tx: &mut Tx,
        res: &Resource,
        caller: &Caller,
        _emp: Option<i64>,
        params: &HashMap<String, String>,
        body: Value,
    ) -> Result<Value> {
        let filter = children_filter(&body, "FOPR_FORN_ID", int_param(params, "id")?);
        Ok(Value::Array(
            query::list(tx, res, caller, None, &filter).await?,
        ))
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

    #[test]
    fn attachment_paths_lose_the_legacy_folder() {
        assert_eq!(attachment_file("Clientes/contrato.pdf"), "contrato.pdf");
        assert_eq!(attachment_file("/clientes\\foto.png"), "foto.png");
        assert_eq!(attachment_file("0190a.pdf"), "0190a.pdf");
        assert_eq!(attachment_file("ClientesVip.pdf"), "ClientesVip.pdf");
    }
}
