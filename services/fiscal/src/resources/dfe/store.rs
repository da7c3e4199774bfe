//! The provider-side columns of a document's row: reading them (locked when
//! a call changes the row), the provider's id stored before anything waits,
//! a refusal, the SEFAZ's answer settled with its files, and the answer of a
//! call (the row plus `msg`, and for a rejection `cStat`, `xMotivo`,
//! `explicacao`, `campo`, `tela`).

use erp_platform::db::Tx;
use erp_platform::{Error, Result};
use serde_json::{json, Value};

use super::{Doc, Issued, Kind};
use crate::nuvemfiscal::types::{Dfe, DfeStatus};

/// Document `id` of company `emp`, `FOR UPDATE` when `lock`.
pub async fn by_id(
    tx: &mut Tx,
    kind: &Kind,
    client: i64,
    emp: i64,
    id: i64,
    lock: bool,
) -> Result<Doc> {
    sqlx::query_as(&format!(
        "SELECT {cols} FROM {table} WHERE client_id = $1 AND {emp_col} = $2 AND {id_col} = $3{lock}",
        cols = kind.doc_cols(),
        table = kind.table,
        emp_col = kind.col("emp_id"),
        id_col = kind.col("id"),
        lock = if lock { " FOR UPDATE" } else { "" }
    ))
    .bind(client)
    .bind(emp)
    .bind(id)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| Error::NotFound(kind.missing.into()))
}

/// The row of a provider id (the client's only), locked.
pub async fn by_provider_id(
    tx: &mut Tx,
    kind: &Kind,
    client: i64,
    provider_id: &str,
) -> Result<Doc> {
    sqlx::query_as(&format!(
        "SELECT {cols} FROM {table} WHERE client_id = $1 AND {provider} = $2 FOR UPDATE",
        cols = kind.doc_cols(),
        table = kind.table,
        provider = kind.provider_id,
    ))
    .bind(client)
    .bind(provider_id)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| Error::NotFound(kind.missing.into()))
}

/// `WHERE` of one row: client `$1`, company `$2`, id `$3`.
fn one_row(kind: &Kind) -> String {
    format!(
        "client_id = $1 AND {} = $2 AND {} = $3",
        kind.col("emp_id"),
        kind.col("id")
    )
}

/// The provider took the emission: its id, before anything waits on it.
pub async fn sent(
    tx: &mut Tx,
    kind: &Kind,
    client: i64,
    emp: i64,
    id: i64,
    dfe: &Dfe,
) -> Result<()> {
    let (s, chave) = (kind.col("situacao"), kind.col("chave"));
    sqlx::query(&format!(
        "UPDATE {table} SET {provider} = $4, {s} = 'pendente', {chave} = coalesce($5, {chave}) WHERE {w}",
        table = kind.table,
        provider = kind.provider_id,
        w = one_row(kind),
    ))
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(&dfe.id)
    .bind(dfe.chave.as_deref())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The emission never reached the SEFAZ (refused by the provider, or the
/// provider said it has no document of this reference).
pub async fn failed(
    tx: &mut Tx,
    kind: &Kind,
    client: i64,
    emp: i64,
    id: i64,
    message: &str,
) -> Result<()> {
    sqlx::query(&format!(
        "UPDATE {table} SET {s} = 'erro', {motivo} = $4, {cstat} = NULL, {expl} = NULL WHERE {w}",
        table = kind.table,
        s = kind.col("situacao"),
        motivo = kind.col("motivo"),
        cstat = kind.col("cstat"),
        expl = kind.col("explicacao"),
        w = one_row(kind),
    ))
    .bind(client)
    .bind(emp)
    .bind(id)
    .bind(message)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Stores a file in `column` of the row: as text (lossy UTF-8) when
/// `as_text`, else as bytes.
#[allow(clippy::too_many_arguments)]
pub async fn write_file(
    tx: &mut Tx,
    kind: &Kind,
    client: i64,
    emp: i64,
    id: i64,
    column: &str,
    as_text: bool,
    bytes: Vec<u8>,
) -> Result<()> {
    let sql = format!(
        "UPDATE {} SET {column} = $4 WHERE {}",
        kind.table,
        one_row(kind)
    );
    let q = sqlx::query(&sql).bind(client).bind(emp).bind(id);
    let q = if as_text {
        q.bind(String::from_utf8_lossy(&bytes).into_owned())
    } else {
        q.bind(bytes)
    };
    q.execute(&mut **tx).await?;
    Ok(())
}

/// Writes the SEFAZ's final answer and the files fetched (XML, PDF), then
/// what the register writes besides ([`Issued::settled`]), in `tx`.
pub async fn settle(
    tx: &mut Tx,
    doc: &dyn Issued,
    client: i64,
    emp: i64,
    id: i64,
    dfe: &Dfe,
    files: (Option<Vec<u8>>, Option<Vec<u8>>),
) -> Result<()> {
    let kind = doc.kind();
    let aut = dfe.autorizacao.as_ref();
    let c_stat = aut.and_then(|a| a.codigo_status);
    let motivo = aut.and_then(|a| a.motivo_status.clone());
    let explicacao = match dfe.status {
        DfeStatus::Rejeitado | DfeStatus::Denegado | DfeStatus::Erro => Some(
            (kind.explain)(
                &c_stat.map(|c| c.to_string()).unwrap_or_default(),
                motivo.as_deref().unwrap_or_default(),
            )
            .explanation,
        ),
        _ => None,
    };
    // Only a document closed by an event of its own keeps `encerrado`.
    let status = match dfe.status {
        DfeStatus::Encerrado if !kind.closes => "autorizado",
        s => s.as_str(),
    };
    let authorised_like = if kind.closes {
        "'autorizado', 'encerrado', 'cancelado'"
    } else {
        "'autorizado'"
    };
    let p = kind.prefix;
    let sql = format!(
        "UPDATE {table} d SET {p}_situacao = $4, {p}_cstat = $5, {p}_motivo = $6, {p}_explicacao = $7,
             {p}_protocolo = coalesce($8, d.{p}_protocolo), {p}_chave = coalesce($9, d.{p}_chave),
             {p}_dta_autorizacao = CASE WHEN $4 IN ({authorised_like}) THEN coalesce(d.{p}_dta_autorizacao, now())
                                        ELSE d.{p}_dta_autorizacao END,
             {xml} = coalesce($10, d.{xml}), {p}_pdf = coalesce($11, d.{p}_pdf)
         FROM (SELECT {p}_situacao AS antes FROM {table} WHERE {w} FOR UPDATE) a
         WHERE d.client_id = $1 AND d.{p}_emp_id = $2 AND d.{p}_id = $3
         RETURNING a.antes IS DISTINCT FROM $4",
        table = kind.table,
        xml = kind.xml,
        w = one_row(kind),
    );
    let q = sqlx::query_scalar::<_, bool>(&sql);
    let q = q
        .bind(client)
        .bind(emp)
        .bind(id)
        .bind(status)
        .bind(c_stat)
        .bind(motivo)
        .bind(explicacao)
        .bind(aut.and_then(|a| a.numero_protocolo.clone()))
        .bind(dfe.chave.as_deref());
    let q = if kind.xml_is_text {
        q.bind(files.0.map(|b| String::from_utf8_lossy(&b).into_owned()))
    } else {
        q.bind(files.0)
    };
    let moved = q.bind(files.1).fetch_optional(&mut **tx).await?;
    let moved_to = (moved == Some(true)).then_some(status);
    doc.settled(tx, client, emp, id, dfe, moved_to).await
}

/// The answer of a call on a row: the row with `msg` after its status, and
/// for a rejected or denied one the SEFAZ's code and text with the plain
/// explanation (`cStat`, `xMotivo`, `explicacao`, `campo`, `tela`);
/// `notices` go in `aviso`.
pub fn answer(kind: &Kind, mut row: Value, notices: Vec<String>) -> Value {
    let status = row[kind.field("SITUACAO")]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let Value::Object(m) = &mut row else {
        return row;
    };
    let name = kind.name;
    let msg = match status.as_str() {
        "rejeitado" | "denegado" => {
            let c_stat = m
                .get(&kind.field("CSTAT"))
                .filter(|v| !v.is_null())
                .map(|v| v.to_string())
                .unwrap_or_default();
            let x_motivo = m
                .get(&kind.field("MOTIVO"))
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            let e = (kind.explain)(&c_stat, &x_motivo);
            let msg = format!(
                "{name} {status} pela SEFAZ ({}): {}",
                e.c_stat, e.explanation
            );
            m.insert("cStat".into(), Value::from(e.c_stat));
            m.insert("xMotivo".into(), Value::from(e.x_motivo));
            m.insert("explicacao".into(), Value::from(e.explanation));
            m.insert("campo".into(), json!(e.field));
            m.insert("tela".into(), json!(e.route));
            Some(msg)
        }
        "autorizado" | "cancelado" | "encerrado" => {
            Some(format!("{name} {}.", kind.agree(&status)))
        }
        "pendente" | "enviando" => Some(format!(
            "{name} {}: a SEFAZ ainda não respondeu. {} em instantes.",
            kind.agree("enviado"),
            capitalised(kind.consult_it()),
        )),
        "erro" => m
            .get(&kind.field("MOTIVO"))
            .and_then(Value::as_str)
            .map(|t| format!("{} não chegou à SEFAZ: {t}", capitalised(&kind.the()))),
        _ => None,
    };
    if let Some(msg) = msg {
        m.insert("msg".into(), Value::from(msg));
    }
    if !notices.is_empty() {
        m.insert("aviso".into(), Value::from(notices.join(" ")));
    }
    row
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
