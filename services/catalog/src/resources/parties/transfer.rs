//! Moving a customer to another company of the same client:
//! `PUT /clientesTransf/{transferId}/{emp}` with body `{"DESTINO_EMP_ID": 2}`
//! ([`Transfer`]). `transferId` is the customer's `CLI_ID` in company `{emp}`.
//!
//! The customer and its sub-records — contacts (`clientescontato`), references
//! (`clientesc`), attachments (`clientesanexo`), family (`clientesfamiliar`),
//! history (`clienteshistorico`), services (`clientesserv`), contracts
//! (`contratocliente`) and the contracts' equipment (`contratoseqpt`) — are
//! created in the target company through their registers (numbered there: ids are
//! per company, so the customer and each row get new ids; their checks and hooks
//! run), keep what a body cannot write as it was stored (registration dates, who
//! created a row, the customer's picture and the attachments' file names), and
//! are then deleted from `{emp}`. One transaction: any refusal leaves everything as
//! it was. The answer is the customer's new row.
//!
//! Decisions:
//! - The target is the body's `DESTINO_EMP_ID`: its `_EMP_ID` suffix puts it
//!   under the tenant guard of every body (the gateway's and the engine's), so a
//!   company the user does not have is refused with 403 'Acesso negado à empresa
//!   N.' before this runs — and the user's companies are companies of the same
//!   client. Catalog keeps no list of companies to check more against.
//! - Refused with 409 when the target company already has a customer with the same
//!   CPF or CNPJ (one customer per document in a company).
//! - Registers of other screens that point at the customer in `{emp}` and are not
//!   its sub-records — vehicles (`veiculo`), equipment (`equipamento`), special
//!   product prices (`produtosespeciais`), works (`obras`) — do not move with it:
//!   while any exists the transfer is refused (409), naming them, rather than
//!   leaving them pointing at a customer that is gone.
//! - References to registers kept per company are looked up again in the target:
//!   the salesperson (`CLI_COLA_ID`) is the target's collaborator with the same CPF,
//!   else none; a service of `clientesserv` is the target's service with the same
//!   reference (`SERV_REFERENCIA`), else the same description, else the transfer is
//!   refused; a contract's equipment is the target's equipment with the same serial
//!   number (`EQPT_SERIE`), else refused. The payment condition (`CLI_CNDP_ID`,
//!   finance's, per company) cannot be checked here and is left empty.
//! - Files stay where they are stored: uploads live in
//!   `<data dir>/uploads/<client>/<emp>/` and are served as `/uploads/<emp>/<file>`,
//!   so the picture and the attachments keep their stored names and stay in the
//!   old company's folder (served under the old company's path, which the gateway
//!   lets only users of that company read). Moving them is the gateway's to do.
//! - The register facts say what happened: `erp.catalog.cliente.excluido` for the
//!   customer in `{emp}` (orders', finance's and fiscal's copies mark it deleted)
//!   and `erp.catalog.cliente.criado` (then `alterado`, with the stored columns
//!   kept) for the new customer in the target company.

use async_trait::async_trait;
use erp_platform::db::Tx;
use erp_platform::grpc::Caller;
use erp_platform::resource::call::{Ctx, Operation, Row};
use erp_platform::resource::{query, record, DbType, Op, Resource};
use erp_platform::{Error, Result};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use sqlx::Row as _;

use super::sub_registers;
use crate::resources::vehicles::contract_equipment::contratoseqpt;

pub const MISSING: &str = "Cliente não encontrado.";
pub const SAME_COMPANY: &str = "A empresa de destino deve ser outra que a do cliente.";

/// `PUT /clientesTransf/{transferId}/{emp}`.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct TransferIn {
    /// The customer to move: its `CLI_ID` in company `{emp}` (path `{transferId}`).
    #[serde(rename = "transferId")]
    pub customer: i64,
    /// The company it moves to, one of the user's.
    #[serde(rename = "DESTINO_EMP_ID")]
    #[schemars(
        title = "Empresa de destino",
        extend("x-missing" = "Informe a empresa de destino (DESTINO_EMP_ID).")
    )]
    pub target: i64,
}

/// What the transfer reads of the customer.
#[derive(Debug, Deserialize)]
struct Customer {
    #[serde(rename = "CLI_CPF")]
    cpf: Option<String>,
    #[serde(rename = "CLI_CGC")]
    cgc: Option<String>,
    #[serde(rename = "CLI_COLA_ID")]
    seller: Option<i64>,
}

/// The customer's columns that are looked up again in the target company.
#[derive(Debug, Serialize)]
struct CustomerInTarget {
    #[serde(rename = "CLI_COLA_ID")]
    seller: Option<i64>,
    #[serde(rename = "CLI_CNDP_ID")]
    payment_terms: Option<i64>,
}

#[derive(Debug, Deserialize)]
struct ServiceLink {
    #[serde(rename = "CLIS_SERV_ID")]
    service: i64,
}

#[derive(Debug, Serialize)]
struct ServiceInTarget {
    #[serde(rename = "CLIS_SERV_ID")]
    service: i64,
}

#[derive(Debug, Deserialize)]
struct ContractKey {
    #[serde(rename = "CONT_ID")]
    id: i64,
}

#[derive(Debug, Deserialize)]
struct ContractItem {
    #[serde(rename = "CONTE_CONT_ID")]
    contract: i64,
    #[serde(rename = "CONTE_EQPT_ID")]
    equipment: i64,
}

#[derive(Debug, Serialize)]
struct ContractItemInTarget {
    #[serde(rename = "CONTE_CONT_ID")]
    contract: i64,
    #[serde(rename = "CONTE_EQPT_ID")]
    equipment: i64,
}

#[derive(Debug, sqlx::FromRow)]
struct Found {
    id: i64,
    name: String,
}

#[derive(Debug, sqlx::FromRow)]
struct LinkedService {
    id: i64,
    reference: Option<String>,
    name: Option<String>,
}

#[derive(Debug, sqlx::FromRow)]
struct LinkedEquipment {
    id: i64,
    serial: String,
}

/// Registers that point at the customer but do not move with it: table, company
/// column, customer column, what the message calls them.
const HOLDERS: [(&str, &str, &str, &str); 4] = [
    ("veiculo", "veic_emp_id", "veic_cli_id", "veículo(s)"),
    (
        "equipamento",
        "eqpt_emp_id",
        "eqpt_cli_id",
        "equipamento(s)",
    ),
    (
        "produtosespeciais",
        "pres_emp_id",
        "pres_cli_id",
        "preço(s) especial(is) de produto",
    ),
    ("obras", "obra_emp_id", "obra_cli_id", "obra(s)"),
];

/// "a, b e c".
fn enumerate(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} e {last}", rest.join(", ")),
    }
}

/// Moves a customer and its sub-records to another company of the client.
pub struct Transfer;

#[async_trait]
impl Operation for Transfer {
    type In = TransferIn;
    type Out = Row;

    async fn run(&self, cx: &mut Ctx<'_>, i: TransferIn) -> Result<Row> {
        let from = cx.emp()?;
        let to = i.target;
        if to <= 0 {
            return Err(Error::validation("Valor inválido para Empresa de destino."));
        }
        if to == from {
            return Err(Error::validation(SAME_COMPANY));
        }
        let (res, caller) = (cx.res, cx.caller);
        let tx = &mut *cx.tx;
        let client = caller.client_id;
        let old_id = i.customer;

        // Locked first: two transfers of one customer do not both move it.
        let locked: Option<i64> = sqlx::query_scalar(
            "SELECT cli_id FROM catalog.clientes WHERE client_id = $1 AND cli_emp_id = $2 AND cli_id = $3 FOR UPDATE",
        )
        .bind(client)
        .bind(from)
        .bind(old_id)
        .fetch_optional(&mut **tx)
        .await?;
        if locked.is_none() {
            return Err(Error::NotFound(MISSING.into()));
        }
        let key = [old_id.to_string()];
        let row = query::get(tx, res, caller, Some(from), &key).await?;
        let customer: Customer = record::from_row(&row)?;

        same_document(tx, client, to, &customer).await?;
        holders(tx, client, from, old_id).await?;
        let seller = match customer.seller {
            Some(s) => seller_in(tx, client, from, s, to).await?,
            None => None,
        };
        let services = services_in(tx, client, from, old_id, to).await?;
        let equipment = equipment_in(tx, client, from, old_id, to).await?;

        // The customer, then its sub-records, in the target company.
        let mut body = create_body(res, &row);
        record::into_map(&CustomerInTarget { seller, payment_terms: None }, &mut body)?;
        let created = query::create(tx, res, caller, Some(to), &body).await?;
        let new_key = key_of(res, &created);
        copy_kept(tx, res, client, from, &key, to, &new_key).await?;
        let new_id: i64 = new_key
            .first()
            .and_then(|k| k.parse().ok())
            .ok_or_else(|| Error::internal("customer without id"))?;
        let moving = Moving { caller, from, to, old: old_id, new: new_id };

        for (sub, parent) in [
            (sub_registers::contatos(), "CONTATO_CLI_ID"),
            (sub_registers::referencias(), "REF_CLI_ID"),
            (sub_registers::anexos(), "CLIA_CLI_ID"),
            (sub_registers::familiares(), "CLIF_CLI_ID"),
            (sub_registers::historico(), "CLIH_CLI_ID"),
        ] {
            moving.rows(tx, &sub, parent, |_, _| Ok(())).await?;
        }
        moving
            .rows(
                tx,
                &sub_registers::servicos(),
                "CLIS_CLI_ID",
                |old, body| {
                    let link: ServiceLink = record::from_row(old)?;
                    let service = services
                        .iter()
                        .find(|(from, _)| *from == link.service)
                        .map(|(_, to)| *to)
                        .ok_or_else(|| Error::internal("service not mapped"))?;
                    record::into_map(&ServiceInTarget { service }, body)
                },
            )
            .await?;
        let contracts: Vec<(i64, i64)> = moving
            .rows(
                tx,
                &sub_registers::contratos(),
                "CONT_CLI_ID",
                |_, _| Ok(()),
            )
            .await?
            .iter()
            .map(|(old, new)| {
                let old: ContractKey = record::from_row(old)?;
                let new: ContractKey = record::from_row(new)?;
                Ok((old.id, new.id))
            })
            .collect::<Result<_>>()?;
        moving
            .rows(tx, &contratoseqpt(), "CONTE_CLI_ID", |old, body| {
                let item: ContractItem = record::from_row(old)?;
                let mapped = |pairs: &[(i64, i64)], id: i64| {
                    pairs
                        .iter()
                        .find(|(from, _)| *from == id)
                        .map(|(_, to)| *to)
                        .ok_or_else(|| Error::internal("contract item not mapped"))
                };
                let target = ContractItemInTarget {
                    contract: mapped(&contracts, item.contract)?,
                    equipment: mapped(&equipment, item.equipment)?,
                };
                record::into_map(&target, body)
            })
            .await?;

        // Out of the old company: the contracts (their equipment goes with them),
        // then the customer through its register (the rest cascades; its fact
        // says it left).
        sqlx::query(
            "DELETE FROM catalog.contratocliente WHERE client_id = $1 AND cont_emp_id = $2 AND cont_cli_id = $3",
        )
        .bind(client)
        .bind(from)
        .bind(old_id)
        .execute(&mut **tx)
        .await?;
        query::delete(tx, res, caller, Some(from), &key).await?;

        let moved = query::get(tx, res, caller, Some(to), &new_key).await?;
        query::publish(tx, res, caller, Some(to), Op::Update, &moved).await?;
        Ok(Row(moved))
    }
}

/// 409 when the target company has a customer with the same CPF or CNPJ.
async fn same_document(tx: &mut Tx, client: i64, to: i64, c: &Customer) -> Result<()> {
    if c.cpf.is_none() && c.cgc.is_none() {
        return Ok(());
    }
    let found: Option<Found> = sqlx::query_as(
        "SELECT cli_id AS id, cli_descricao AS name FROM catalog.clientes
          WHERE client_id = $1 AND cli_emp_id = $2
            AND ((cli_cpf IS NOT NULL AND cli_cpf = $3) OR (cli_cgc IS NOT NULL AND cli_cgc = $4))
          ORDER BY cli_id LIMIT 1",
    )
    .bind(client)
    .bind(to)
    .bind(&c.cpf)
    .bind(&c.cgc)
    .fetch_optional(&mut **tx)
    .await?;
    match found {
        Some(f) => Err(Error::Conflict(format!(
            "A empresa {to} já tem um cliente com o mesmo CPF/CNPJ ({} - {}): o cliente não foi transferido.",
            f.id, f.name
        ))),
        None => Ok(()),
    }
}

/// 409 while registers that do not move with the customer point at it.
async fn holders(tx: &mut Tx, client: i64, from: i64, customer: i64) -> Result<()> {
    let mut found = Vec::new();
    for (table, company, column, what) in HOLDERS {
        let n: i64 = sqlx::query_scalar(&format!(
            "SELECT count(*) FROM catalog.{table} WHERE client_id = $1 AND {company} = $2 AND {column} = $3"
        ))
        .bind(client)
        .bind(from)
        .bind(customer)
        .fetch_one(&mut **tx)
        .await?;
        if n > 0 {
            found.push(format!("{n} {what}"));
        }
    }
    if found.is_empty() {
        return Ok(());
    }
    Err(Error::Conflict(format!(
        "O cliente não pode ser transferido: tem {} na empresa {from}, que não vão com ele. Desvincule-os do cliente antes.",
        enumerate(&found)
    )))
}

/// The target's collaborator with the salesperson's CPF, if any.
async fn seller_in(
    tx: &mut Tx,
    client: i64,
    from: i64,
    seller: i64,
    to: i64,
) -> Result<Option<i64>> {
    Ok(sqlx::query_scalar(
        "SELECT b.cola_id FROM catalog.colaborador a
           JOIN catalog.colaborador b
             ON b.client_id = a.client_id AND b.cola_emp_id = $4 AND b.cola_cpf = a.cola_cpf
          WHERE a.client_id = $1 AND a.cola_emp_id = $2 AND a.cola_id = $3
          ORDER BY b.cola_id LIMIT 1",
    )
    .bind(client)
    .bind(from)
    .bind(seller)
    .bind(to)
    .fetch_optional(&mut **tx)
    .await?)
}

/// Each service of the customer's services and the target's same service (same
/// reference, else same description); 409 naming one the target lacks.
async fn services_in(
    tx: &mut Tx,
    client: i64,
    from: i64,
    customer: i64,
    to: i64,
) -> Result<Vec<(i64, i64)>> {
    let linked: Vec<LinkedService> = sqlx::query_as(
        "SELECT DISTINCT s.clis_serv_id AS id, v.serv_referencia AS reference, v.serv_descricao AS name
           FROM catalog.clientesserv s
           LEFT JOIN catalog.servico v
             ON v.client_id = s.client_id AND v.serv_emp_id = s.clis_emp_id AND v.serv_id = s.clis_serv_id
          WHERE s.client_id = $1 AND s.clis_emp_id = $2 AND s.clis_cli_id = $3
          ORDER BY 1",
    )
    .bind(client)
    .bind(from)
    .bind(customer)
    .fetch_all(&mut **tx)
    .await?;
    let mut out = Vec::new();
    for s in linked {
        let blank = |t: &Option<String>| {
            t.as_deref()
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(String::from)
        };
        let (column, value) = match (blank(&s.reference), blank(&s.name)) {
            (Some(r), _) => ("serv_referencia", Some(r)),
            (None, Some(n)) => ("serv_descricao", Some(n)),
            (None, None) => ("serv_descricao", None),
        };
        let found: Option<i64> = match &value {
            Some(v) => sqlx::query_scalar(&format!(
                "SELECT serv_id FROM catalog.servico
                  WHERE client_id = $1 AND serv_emp_id = $2 AND upper(btrim({column})) = upper(btrim($3))
                  ORDER BY serv_id LIMIT 1"
            ))
            .bind(client)
            .bind(to)
            .bind(v)
            .fetch_optional(&mut **tx)
            .await?,
            None => None,
        };
        match found {
            Some(t) => out.push((s.id, t)),
            None => {
                let name = s.name.unwrap_or_else(|| s.id.to_string());
                return Err(Error::Conflict(format!(
                    "O serviço {name} do cliente não está cadastrado na empresa {to}: cadastre-o antes de transferir o cliente."
                )));
            }
        }
    }
    Ok(out)
}

/// Each equipment of the customer's contracts and the target's equipment with the
/// same serial number; 409 naming one the target lacks or has twice.
async fn equipment_in(
    tx: &mut Tx,
    client: i64,
    from: i64,
    customer: i64,
    to: i64,
) -> Result<Vec<(i64, i64)>> {
    let linked: Vec<LinkedEquipment> = sqlx::query_as(
        "SELECT DISTINCT c.conte_eqpt_id AS id, e.eqpt_serie AS serial
           FROM catalog.contratoseqpt c
           JOIN catalog.equipamento e
             ON e.client_id = c.client_id AND e.eqpt_emp_id = c.conte_emp_id AND e.eqpt_id = c.conte_eqpt_id
          WHERE c.client_id = $1 AND c.conte_emp_id = $2 AND c.conte_cli_id = $3
          ORDER BY 1",
    )
    .bind(client)
    .bind(from)
    .bind(customer)
    .fetch_all(&mut **tx)
    .await?;
    let mut out = Vec::new();
    for e in linked {
        let found: Vec<i64> = sqlx::query_scalar(
            "SELECT eqpt_id FROM catalog.equipamento
              WHERE client_id = $1 AND eqpt_emp_id = $2 AND upper(btrim(eqpt_serie)) = upper(btrim($3))
              ORDER BY eqpt_id",
        )
        .bind(client)
        .bind(to)
        .bind(&e.serial)
        .fetch_all(&mut **tx)
        .await?;
        match found.as_slice() {
            [one] => out.push((e.id, *one)),
            [] => {
                return Err(Error::Conflict(format!(
                    "O equipamento de série {} dos contratos do cliente não está cadastrado na empresa {to}: cadastre-o antes de transferir o cliente.",
                    e.serial
                )))
            }
            many => {
                return Err(Error::Conflict(format!(
                    "A empresa {to} tem {} equipamentos com a série {}: o cliente não foi transferido.",
                    many.len(),
                    e.serial
                )))
            }
        }
    }
    Ok(out)
}

/// The values of `row` a create body of `res` may carry: what a client writes, not
/// the numbered key, the company or what the server keeps.
fn create_body(res: &Resource, row: &Value) -> Map<String, Value> {
    res.fields
        .iter()
        .filter(|f| {
            !(f.read_only
                || f.server
                || res.is_company(&f.name)
                || res.generated_column() == Some(f.name.as_str()))
        })
        .filter_map(|f| {
            row.get(&f.name)
                .filter(|v| !v.is_null())
                .map(|v| (f.name.clone(), v.clone()))
        })
        .collect()
}

/// The key of a row of `res`, as the engine takes keys.
fn key_of(res: &Resource, row: &Value) -> Vec<String> {
    res.key
        .iter()
        .map(|k| match row.get(k) {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Null) | None => String::new(),
            Some(v) => v.to_string(),
        })
        .collect()
}

/// What a body cannot write (files, registration dates, who created the row),
/// copied as stored from the row at `old` in company `from` to the row at `new` in
/// company `to`.
async fn copy_kept(
    tx: &mut Tx,
    res: &Resource,
    client: i64,
    from: i64,
    old: &[String],
    to: i64,
    new: &[String],
) -> Result<()> {
    let kept: Vec<&str> = res
        .fields
        .iter()
        .filter(|f| (f.read_only || f.server) && !res.is_key(&f.name) && !res.is_company(&f.name))
        .map(|f| f.column.as_str())
        .collect();
    let company = res
        .company
        .as_deref()
        .and_then(|c| res.field(c))
        .ok_or_else(|| Error::internal(format!("{}: no company", res.name)))?;
    if kept.is_empty() {
        return Ok(());
    }
    let sets: Vec<String> = kept.iter().map(|c| format!("{c} = o.{c}")).collect();
    let mut sql = format!(
        "UPDATE {t} AS n SET {sets} FROM {t} AS o
          WHERE o.client_id = $1 AND n.client_id = $1 AND o.{c} = $2 AND n.{c} = $3",
        t = res.qualified_table(),
        sets = sets.join(", "),
        c = company.column
    );
    let keys: Vec<_> = res.key.iter().filter_map(|k| res.field(k)).collect();
    for (i, f) in keys.iter().enumerate() {
        sql.push_str(&format!(
            " AND o.{c} = ${a} AND n.{c} = ${b}",
            c = f.column,
            a = 4 + 2 * i,
            b = 5 + 2 * i
        ));
    }
    let mut q = sqlx::query(&sql).bind(client).bind(from).bind(to);
    for ((f, o), n) in keys.iter().zip(old).zip(new) {
        q = match f.db {
            DbType::Int => {
                let parse = |s: &String| {
                    s.parse::<i64>()
                        .map_err(|_| Error::internal(format!("{}: key {s}", res.name)))
                };
                q.bind(parse(o)?).bind(parse(n)?)
            }
            _ => q.bind(o.clone()).bind(n.clone()),
        };
    }
    q.execute(&mut **tx).await?;
    Ok(())
}

/// One customer's move: who moves it, from and to which company, its old and new
/// id.
struct Moving<'a> {
    caller: &'a Caller,
    from: i64,
    to: i64,
    old: i64,
    new: i64,
}

impl Moving<'_> {
    /// The rows of `res` whose `parent` column names the customer, each created in
    /// the target company under the new customer (`fix` changes the body from the
    /// old row: references looked up again) with its kept columns. Answers the old
    /// and the new rows; the old ones are deleted with the customer.
    async fn rows<F>(
        &self,
        tx: &mut Tx,
        res: &Resource,
        parent: &str,
        mut fix: F,
    ) -> Result<Vec<(Value, Value)>>
    where
        F: FnMut(&Value, &mut Map<String, Value>) -> Result<()> + Send,
    {
        let client = self.caller.client_id;
        let column = |name: &str| {
            res.field(name)
                .map(|f| f.column.clone())
                .ok_or_else(|| Error::internal(format!("{}: no field {name}", res.name)))
        };
        let company = column(res.company.as_deref().unwrap_or_default())?;
        let keys: Vec<String> = res
            .key
            .iter()
            .map(|k| column(k).map(|c| format!("{c}::text")))
            .collect::<Result<_>>()?;
        let sql = format!(
            "SELECT {k} FROM {t} WHERE client_id = $1 AND {company} = $2 AND {p} = $3 ORDER BY {k}",
            k = keys.join(", "),
            t = res.qualified_table(),
            p = column(parent)?
        );
        let found = sqlx::query(&sql)
            .bind(client)
            .bind(self.from)
            .bind(self.old)
            .fetch_all(&mut **tx)
            .await?;
        let mut moved = Vec::with_capacity(found.len());
        for r in found {
            let key: Vec<String> = (0..keys.len())
                .map(|i| r.try_get::<String, _>(i))
                .collect::<std::result::Result<_, _>>()?;
            let old = query::get(tx, res, self.caller, Some(self.from), &key).await?;
            let mut body = create_body(res, &old);
            body.insert(parent.into(), Value::from(self.new));
            fix(&old, &mut body)?;
            let new = query::create(tx, res, self.caller, Some(self.to), &body).await?;
            let new_key = key_of(res, &new);
            copy_kept(tx, res, client, self.from, &key, self.to, &new_key).await?;
            moved.push((old, new));
        }
        Ok(moved)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_read_as_pt_br() {
        assert_eq!(enumerate(&[]), "");
        assert_eq!(enumerate(&["1 veículo(s)".into()]), "1 veículo(s)");
        assert_eq!(
            enumerate(&["1 a".into(), "2 b".into(), "3 c".into()]),
            "1 a, 2 b e 3 c"
        );
    }

    #[test]
    fn the_create_body_leaves_out_what_the_server_numbers_or_keeps() {
        let res = sub_registers::anexos();
        let row = serde_json::json!({"CLIA_ID": 3, "CLIA_FIL_ID": 1, "CLIA_CLI_ID": 7,
            "CLIA_DESCRICAO": "Contrato", "CLIA_ANEXO": "a.pdf", "CLIA_USR_ID": 2, "CLIA_DTA_CAD": "2026-01-01"});
        let body = create_body(&res, &row);
        let mut names: Vec<&str> = body.keys().map(String::as_str).collect();
        names.sort_unstable();
        assert_eq!(names, ["CLIA_CLI_ID", "CLIA_DESCRICAO"]);
        assert_eq!(key_of(&res, &row), ["3"]);
    }
}
