//! A product's information rows or size/colour grid copied to the same product in
//! the client's other companies, all or nothing:
//! - `GET /produtosinfreplicador/{PROD_ID}/{emp}` ([`ReplicateInfo`], declared on
//!   `produtosinf`);
//! - `GET /produtosgradereplicador/{PROD_ID}/{emp}` ([`ReplicateGrid`], declared
//!   on `produtosgrade`).
//!
//! Both answer, per company written, [`Replicated`]: the company, its product and
//! how many rows were created, changed and already equal.
//!
//! Decisions:
//! - The same product in another company: products are numbered per company, so
//!   their ids say nothing across companies. It is the product with the same
//!   barcode (`PROD_CBAR`, one product per barcode in a company) when the product
//!   has one, else the one with the same reference (`PROD_REFERENCIA`, trimmed,
//!   upper case; it must be one product). A product with neither cannot be found
//!   elsewhere and is refused.
//! - The other companies: every company of the client that has products in
//!   catalog, but `{emp}`, among the caller's companies (catalog keeps no list of
//!   companies; the caller's come with the call: a company the user does not have
//!   is left alone).
//! - If any of them lacks the product (or has it twice by reference), nothing is
//!   written and the refusal names the companies (409).
//! - Rows are merged, never deleted: an information row pairs with the target's
//!   row of the same title (the n-th of a title with the n-th), a variant with the
//!   target's variant of the same size — sizes are per company, so the target's
//!   size of the same description; a size the target lacks is refused — and
//!   colour (shared by the companies). Paired rows take the source's values; the
//!   others are created through the register (numbered in the target company,
//!   checked, its hooks run). Target rows the source lacks stay.
//! - One transaction: a row the register refuses in any company (a grid barcode
//!   already used there by another variant) leaves every company as it was, and
//!   the message names the company ('Empresa 3: Código de barras já cadastrado em
//!   outra variação da grade.').

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::call::{Ctx, Operation};
use erp_platform::resource::{query, record, Resource};
use erp_platform::{Error, Result};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::product::produtos;

pub const MISSING: &str = "Produto não encontrado.";
pub const NO_CODE: &str =
    "O produto não tem código de barras nem referência: não há como achá-lo nas outras empresas.";
pub const NO_COMPANIES: &str = "Não há outras empresas com produtos cadastrados para replicar.";
pub const NO_INFO: &str = "O produto não tem informações para replicar.";
pub const NO_GRID: &str = "O produto não tem grade para replicar.";

/// `GET /produtosinfreplicador/{PROD_ID}/{emp}` and
/// `GET /produtosgradereplicador/{PROD_ID}/{emp}`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct ReplicateIn {
    /// The product whose rows are replicated (path `{PROD_ID}`), of company `{emp}`.
    #[serde(rename = "PROD_ID")]
    pub product: i64,
}

/// What was replicated to one company.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Replicated {
    /// The company written.
    #[serde(rename = "EMP_ID")]
    pub company: i64,
    /// The same product there.
    #[serde(rename = "PROD_ID")]
    pub product: i64,
    /// Rows created.
    #[serde(rename = "INCLUIDOS")]
    pub created: u32,
    /// Rows that took the source's values.
    #[serde(rename = "ALTERADOS")]
    pub updated: u32,
    /// Rows already equal to the source's.
    #[serde(rename = "MANTIDOS")]
    pub kept: u32,
}

impl Replicated {
    fn new(company: i64, product: i64) -> Replicated {
        Replicated { company, product, created: 0, updated: 0, kept: 0 }
    }
}

/// What the rule reads of the product.
#[derive(Debug, Deserialize)]
struct Source {
    #[serde(rename = "PROD_CBAR")]
    barcode: Option<String>,
    #[serde(rename = "PROD_REFERENCIA")]
    reference: Option<String>,
}

/// How the same product is found in another company.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SameBy {
    Barcode(String),
    Reference(String),
}

impl SameBy {
    /// The barcode when the product has one, else its reference.
    pub fn of(barcode: Option<&str>, reference: Option<&str>) -> Option<SameBy> {
        let given = |s: Option<&str>| s.map(str::trim).filter(|s| !s.is_empty()).map(String::from);
        given(barcode)
            .map(SameBy::Barcode)
            .or_else(|| given(reference).map(SameBy::Reference))
    }

    fn named(&self) -> String {
        match self {
            SameBy::Barcode(b) => format!("de código de barras {b}"),
            SameBy::Reference(r) => format!("de referência {r}"),
        }
    }
}

/// The companies other than `emp` where the client has products (catalog keeps
/// no list of the client's companies: a company where the client registered no
/// product has nothing to replicate into).
pub async fn companies(tx: &mut Tx, client: i64, emp: i64) -> Result<Vec<i64>> {
    Ok(sqlx::query_scalar(
        "SELECT DISTINCT prod_emp_id FROM catalog.produtos WHERE client_id = $1 AND prod_emp_id <> $2 ORDER BY 1",
    )
    .bind(client)
    .bind(emp)
    .fetch_all(&mut **tx)
    .await?)
}

/// The same product in each other company, as (company, product); refused when
/// one lacks it or has it twice.
async fn targets(
    tx: &mut Tx,
    caller: &Caller,
    emp: i64,
    product: i64,
    companies: Vec<i64>,
) -> Result<Vec<(i64, i64)>> {
    let source: Source = record::get(tx, &produtos(), caller, Some(emp), &[product.to_string()])
        .await
        .map_err(|e| match e {
            Error::NotFound(_) => Error::NotFound(MISSING.into()),
            other => other,
        })?;
    let same = SameBy::of(source.barcode.as_deref(), source.reference.as_deref())
        .ok_or_else(|| Error::validation(NO_CODE))?;
    let client = caller.client_id;
    if companies.is_empty() {
        return Err(Error::validation(NO_COMPANIES));
    }
    let mut found = Vec::new();
    let mut missing = Vec::new();
    for company in companies {
        let (sql, code) = match &same {
            SameBy::Barcode(b) => (
                "SELECT prod_id FROM catalog.produtos WHERE client_id = $1 AND prod_emp_id = $2 AND prod_cbar = $3 ORDER BY prod_id",
                b,
            ),
            SameBy::Reference(r) => (
                "SELECT prod_id FROM catalog.produtos WHERE client_id = $1 AND prod_emp_id = $2 \
                 AND upper(btrim(prod_referencia)) = upper(btrim($3)) ORDER BY prod_id",
                r,
            ),
        };
        let ids: Vec<i64> = sqlx::query_scalar(sql)
            .bind(client)
            .bind(company)
            .bind(code)
            .fetch_all(&mut **tx)
            .await?;
        match ids.as_slice() {
            [] => missing.push(company),
            [one] => found.push((company, *one)),
            many => {
                return Err(Error::Conflict(format!(
                    "A empresa {company} tem {} produtos {}: nada foi replicado.",
                    many.len(),
                    same.named()
                )))
            }
        }
    }
    match missing.as_slice() {
        [] => Ok(found),
        [one] => Err(Error::Conflict(format!(
            "O produto {} não está cadastrado na empresa {one}: nada foi replicado.",
            same.named()
        ))),
        many => {
            let list: Vec<String> = many.iter().map(i64::to_string).collect();
            Err(Error::Conflict(format!(
                "O produto {} não está cadastrado nas empresas {}: nada foi replicado.",
                same.named(),
                list.join(", ")
            )))
        }
    }
}

/// A refusal in `company`, named so ('Empresa 3: ...'), with its status.
fn in_company(company: i64, e: Error) -> Error {
    let msg = format!("Empresa {company}: {}", e.public_message());
    match e.http_status() {
        400 => Error::Validation(msg),
        403 => Error::Forbidden(msg),
        404 => Error::NotFound(msg),
        409 => Error::Conflict(msg),
        _ => e,
    }
}

/// Pairs each source row with the target row of the same key, the n-th of a key
/// with the n-th (`None`: none left to pair with).
pub fn pair<'a, T, K: PartialEq>(
    source: &'a [T],
    target: &'a [T],
    key: impl Fn(&T) -> K,
) -> Vec<(&'a T, Option<&'a T>)> {
    let mut taken = vec![false; target.len()];
    source
        .iter()
        .map(|s| {
            let k = key(s);
            let t = target
                .iter()
                .enumerate()
                .find(|(i, t)| !taken[*i] && key(t) == k)
                .map(|(i, t)| {
                    taken[i] = true;
                    t
                });
            (s, t)
        })
        .collect()
}

/// `body` as the engine's body map.
fn body_of<T: Serialize>(body: &T) -> Result<Map<String, Value>> {
    let mut map = Map::new();
    record::into_map(body, &mut map)?;
    Ok(map)
}

// ---- information rows ----

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
struct Info {
    proi_id: i64,
    proi_descricao: String,
    proi_informacao: Option<String>,
}

#[derive(Debug, Serialize)]
struct InfoBody<'a> {
    #[serde(rename = "PROI_PROD_ID")]
    product: i64,
    #[serde(rename = "PROI_DESCRICAO")]
    title: &'a str,
    #[serde(rename = "PROI_INFORMACAO")]
    text: Option<&'a str>,
}

async fn infos(tx: &mut Tx, client: i64, emp: i64, product: i64) -> Result<Vec<Info>> {
    Ok(sqlx::query_as(
        "SELECT proi_id, proi_descricao, proi_informacao FROM catalog.produtosinf
          WHERE client_id = $1 AND proi_emp_id = $2 AND proi_prod_id = $3 ORDER BY proi_id",
    )
    .bind(client)
    .bind(emp)
    .bind(product)
    .fetch_all(&mut **tx)
    .await?)
}

/// Replicates a product's information rows.
pub struct ReplicateInfo;

#[async_trait]
impl Operation for ReplicateInfo {
    type In = ReplicateIn;
    type Out = Vec<Replicated>;

    async fn run(&self, cx: &mut Ctx<'_>, i: ReplicateIn) -> Result<Vec<Replicated>> {
        let emp = cx.emp()?;
        let mut others = companies(cx.tx, cx.client(), emp).await?;
        others.retain(|c| cx.may_use_company(*c));
        let (res, caller) = (cx.res, cx.caller);
        let tx = &mut *cx.tx;
        let targets = targets(tx, caller, emp, i.product, others).await?;
        let rows = infos(tx, caller.client_id, emp, i.product).await?;
        if rows.is_empty() {
            return Err(Error::validation(NO_INFO));
        }
        let mut out = Vec::new();
        for (company, product) in targets {
            let done = info_to(tx, res, caller, &rows, company, product)
                .await
                .map_err(|e| in_company(company, e))?;
            out.push(done);
        }
        Ok(out)
    }
}

async fn info_to(
    tx: &mut Tx,
    res: &Resource,
    caller: &Caller,
    rows: &[Info],
    company: i64,
    product: i64,
) -> Result<Replicated> {
    let there = infos(tx, caller.client_id, company, product).await?;
    let title = |r: &Info| r.proi_descricao.trim().to_uppercase();
    let mut done = Replicated::new(company, product);
    for (s, t) in pair(rows, &there, title) {
        let body = body_of(&InfoBody {
            product,
            title: &s.proi_descricao,
            text: s.proi_informacao.as_deref(),
        })?;
        match t {
            None => {
                query::create(tx, res, caller, Some(company), &body).await?;
                done.created += 1;
            }
            Some(t)
                if t.proi_descricao == s.proi_descricao
                    && t.proi_informacao == s.proi_informacao =>
            {
                done.kept += 1
            }
            Some(t) => {
                query::update(
                    tx,
                    res,
                    caller,
                    Some(company),
                    &[t.proi_id.to_string()],
                    &body,
                )
                .await?;
                done.updated += 1;
            }
        }
    }
    Ok(done)
}

// ---- the size/colour grid ----

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
struct Variant {
    prgr_id: i64,
    prgr_tam_id: Option<i64>,
    tam_descricao: Option<String>,
    prgr_cor_id: Option<i64>,
    prgr_descricao: Option<String>,
    prgr_referencia: Option<String>,
    prgr_cbar: Option<String>,
    /// As stored text (`0.80`), compared and sent as the register takes it.
    prgr_valor: Option<String>,
    prgr_situacao: i32,
}

impl Variant {
    /// The values a replication writes, equal or not.
    fn values(
        &self,
    ) -> (
        &Option<String>,
        &Option<String>,
        &Option<String>,
        &Option<String>,
        i32,
    ) {
        (
            &self.prgr_descricao,
            &self.prgr_referencia,
            &self.prgr_cbar,
            &self.prgr_valor,
            self.prgr_situacao,
        )
    }
}

#[derive(Debug, Serialize)]
struct VariantBody<'a> {
    #[serde(rename = "PRGR_PROD_ID")]
    product: i64,
    #[serde(rename = "PRGR_TAM_ID")]
    size: Option<i64>,
    #[serde(rename = "PRGR_COR_ID")]
    colour: Option<i64>,
    #[serde(rename = "PRGR_DESCRICAO")]
    name: Option<&'a str>,
    #[serde(rename = "PRGR_REFERENCIA")]
    reference: Option<&'a str>,
    #[serde(rename = "PRGR_CBAR")]
    barcode: Option<&'a str>,
    #[serde(rename = "PRGR_VALOR")]
    price: Option<&'a str>,
    #[serde(rename = "PRGR_SITUACAO")]
    situation: i32,
}

async fn variants(tx: &mut Tx, client: i64, emp: i64, product: i64) -> Result<Vec<Variant>> {
    Ok(sqlx::query_as(
        "SELECT g.prgr_id, g.prgr_tam_id, t.tam_descricao, g.prgr_cor_id, g.prgr_descricao,
                g.prgr_referencia, g.prgr_cbar, g.prgr_valor::text AS prgr_valor, g.prgr_situacao
           FROM catalog.produtosgrade g
           LEFT JOIN catalog.tamanho t
             ON t.client_id = g.client_id AND t.tam_emp_id = g.prgr_emp_id AND t.tam_id = g.prgr_tam_id
          WHERE g.client_id = $1 AND g.prgr_emp_id = $2 AND g.prgr_prod_id = $3
          ORDER BY g.prgr_id",
    )
    .bind(client)
    .bind(emp)
    .bind(product)
    .fetch_all(&mut **tx)
    .await?)
}

/// The target company's size of the same description.
async fn size_in(tx: &mut Tx, client: i64, company: i64, name: &str) -> Result<i64> {
    let found: Option<i64> = sqlx::query_scalar(
        "SELECT tam_id FROM catalog.tamanho
          WHERE client_id = $1 AND tam_emp_id = $2 AND upper(btrim(tam_descricao)) = upper(btrim($3))
          ORDER BY tam_id LIMIT 1",
    )
    .bind(client)
    .bind(company)
    .bind(name)
    .fetch_optional(&mut **tx)
    .await?;
    found.ok_or_else(|| {
        Error::Conflict(format!(
            "o tamanho {} não está cadastrado: nada foi replicado.",
            name.trim()
        ))
    })
}

/// Replicates a product's size/colour grid.
pub struct ReplicateGrid;

#[async_trait]
impl Operation for ReplicateGrid {
    type In = ReplicateIn;
    type Out = Vec<Replicated>;

    async fn run(&self, cx: &mut Ctx<'_>, i: ReplicateIn) -> Result<Vec<Replicated>> {
        let emp = cx.emp()?;
        let mut others = companies(cx.tx, cx.client(), emp).await?;
        others.retain(|c| cx.may_use_company(*c));
        let (res, caller) = (cx.res, cx.caller);
        let tx = &mut *cx.tx;
        let targets = targets(tx, caller, emp, i.product, others).await?;
        let rows = variants(tx, caller.client_id, emp, i.product).await?;
        if rows.is_empty() {
            return Err(Error::validation(NO_GRID));
        }
        let mut out = Vec::new();
        for (company, product) in targets {
            let done = grid_to(tx, res, caller, &rows, company, product)
                .await
                .map_err(|e| in_company(company, e))?;
            out.push(done);
        }
        Ok(out)
    }
}

async fn grid_to(
    tx: &mut Tx,
    res: &Resource,
    caller: &Caller,
    rows: &[Variant],
    company: i64,
    product: i64,
) -> Result<Replicated> {
    let client = caller.client_id;
    // The source's variants with the target's size ids, checked before writing.
    let mut sized = Vec::with_capacity(rows.len());
    for v in rows {
        let size = match (&v.prgr_tam_id, &v.tam_descricao) {
            (None, _) => None,
            (Some(_), Some(name)) => Some(size_in(tx, client, company, name).await?),
            (Some(id), None) => return Err(Error::internal(format!("size {id} without a row"))),
        };
        sized.push(Variant { prgr_tam_id: size, ..v.clone() });
    }
    let there = variants(tx, client, company, product).await?;
    let mut done = Replicated::new(company, product);
    for (s, t) in pair(&sized, &there, |v| (v.prgr_tam_id, v.prgr_cor_id)) {
        let body = body_of(&VariantBody {
            product,
            size: s.prgr_tam_id,
            colour: s.prgr_cor_id,
            name: s.prgr_descricao.as_deref(),
            reference: s.prgr_referencia.as_deref(),
            barcode: s.prgr_cbar.as_deref(),
            price: s.prgr_valor.as_deref(),
            situation: s.prgr_situacao,
        })?;
        match t {
            None => {
                query::create(tx, res, caller, Some(company), &body).await?;
                done.created += 1;
            }
            Some(t) if t.values() == s.values() => done.kept += 1,
            Some(t) => {
                query::update(
                    tx,
                    res,
                    caller,
                    Some(company),
                    &[t.prgr_id.to_string()],
                    &body,
                )
                .await?;
                done.updated += 1;
            }
        }
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_product_is_found_by_barcode_else_reference() {
        assert_eq!(
            SameBy::of(Some("7891000315507"), Some("PAR")),
            Some(SameBy::Barcode("7891000315507".into()))
        );
        assert_eq!(
            SameBy::of(Some("  "), Some(" PAR-14 ")),
            Some(SameBy::Reference("PAR-14".into()))
        );
        assert_eq!(SameBy::of(None, Some("")), None);
    }

    #[test]
    fn rows_pair_by_key_in_order() {
        let source = ["A", "B", "A", "C"];
        let target = ["A", "C", "A", "D"];
        // Which target row (by position) each source row pairs with.
        let got: Vec<Option<usize>> = pair(&source, &target, |s| *s)
            .into_iter()
            .map(|(_, t)| t.and_then(|t| target.iter().position(|x| std::ptr::eq(x, t))))
            .collect();
        assert_eq!(got, [Some(0), None, Some(2), Some(1)]);
    }

    #[test]
    fn refusals_name_the_company_and_keep_their_status() {
        let e = in_company(3, Error::Conflict("Código repetido.".into()));
        assert_eq!(
            (e.http_status(), e.to_string()),
            (409, "Empresa 3: Código repetido.".into())
        );
        let e = in_company(2, Error::validation("Informe o título."));
        assert_eq!(e.http_status(), 400);
    }
}
