//! Reading the protobuf facts other services publish: decoding with the tenant
//! check, the decimals and dates they carry as text, and the invoiced order
//! (`erp.orders.pedido.faturado`) that fiscal and reports both take in. What
//! cannot be read is refused for good (a validation error: 400, not retried).

use std::str::FromStr;

use chrono::NaiveDate;
use erp_proto::orders::v1::PedidoFaturado;
use rust_decimal::Decimal;

use super::Message;
use crate::db::Tx;
use crate::{Error, Result};

/// Decodes a fact and refuses another tenant's (`client_of` 0: the tenant of
/// the message).
pub fn decode<M: prost::Message + Default>(
    msg: &Message,
    client_id: i64,
    client_of: impl Fn(&M) -> i64,
) -> Result<M> {
    let ev = M::decode(msg.payload.as_ref())
        .map_err(|_| Error::validation(format!("Evento inválido: {}.", msg.subject)))?;
    let c = client_of(&ev);
    if c != 0 && c != client_id {
        return Err(Error::validation("Evento de outro cliente."));
    }
    Ok(ev)
}

/// A decimal of a fact (empty: zero).
pub fn dec(what: &str, s: &str) -> Result<Decimal> {
    let s = s.trim();
    if s.is_empty() {
        return Ok(Decimal::ZERO);
    }
    Decimal::from_str(s).map_err(|_| Error::validation(format!("{what} inválido: '{s}'.")))
}

/// A sale line's kind: `P` (product) or `S` (service), else refused.
pub fn line_kind(kind: &str) -> Result<String> {
    match kind.trim() {
        k @ ("P" | "S") => Ok(k.to_string()),
        other => Err(Error::validation(format!(
            "Tipo de item inválido: '{other}'."
        ))),
    }
}

/// A yyyy-MM-dd date of a fact.
pub fn date(what: &str, s: &str) -> Result<NaiveDate> {
    NaiveDate::parse_from_str(s.trim(), "%Y-%m-%d")
        .map_err(|_| Error::validation(format!("{what} inválida: '{s}'.")))
}

/// An invoiced order with its company and id, and its day of issue.
pub fn invoiced_order(msg: &Message, client_id: i64) -> Result<(PedidoFaturado, NaiveDate)> {
    let ev: PedidoFaturado = decode(msg, client_id, |e: &PedidoFaturado| e.client_id)?;
    if ev.emp_id <= 0 || ev.pedido_id <= 0 {
        return Err(Error::validation("Evento sem empresa ou pedido."));
    }
    let day = date("Data de emissão", &ev.issued_on)?;
    Ok((ev, day))
}

/// Records an invoiced order's header once in `table` (columns `client_id,
/// emp_id, pedf_id, serie, <day_column>, cli_id, cli_nome, total, tot_prod,
/// tot_serv, frmp_id, cndp_id, usr_id`, unique per order): `false` when it was
/// already there (a redelivered fact, which then changes nothing; logged).
pub async fn record_invoiced(
    tx: &mut Tx,
    table: &str,
    day_column: &str,
    client_id: i64,
    ev: &PedidoFaturado,
    day: NaiveDate,
) -> Result<bool> {
    let sql = format!(
        "INSERT INTO {table} (client_id, emp_id, pedf_id, serie, {day_column}, cli_id, cli_nome, total,
             tot_prod, tot_serv, frmp_id, cndp_id, usr_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
         ON CONFLICT DO NOTHING"
    );
    let positive = |id: i64| (id > 0).then_some(id);
    let done = sqlx::query(&sql)
        .bind(client_id)
        .bind(ev.emp_id)
        .bind(ev.pedido_id)
        .bind(ev.serie.trim())
        .bind(day)
        .bind(ev.customer_id)
        .bind(Some(ev.customer_name.trim()).filter(|s| !s.is_empty()))
        .bind(dec("Total", &ev.total)?)
        .bind(dec("Total dos produtos", &ev.products_total)?)
        .bind(dec("Total dos serviços", &ev.services_total)?)
        .bind(positive(ev.payment_method_id))
        .bind(positive(ev.payment_condition_id))
        .bind(positive(ev.user_id))
        .execute(&mut **tx)
        .await?;
    let new = done.rows_affected() == 1;
    if !new {
        tracing::info!(
            client_id,
            emp = ev.emp_id,
            pedido = ev.pedido_id,
            table,
            "order already recorded"
        );
    }
    Ok(new)
}

#[cfg(test)]
mod tests {
    use super::*;
    use prost::Message as _;

    fn msg(ev: &PedidoFaturado) -> Message {
        Message {
            subject: "erp.orders.pedido.faturado".into(),
            payload: ev.encode_to_vec().into(),
            ..Default::default()
        }
    }

    #[test]
    fn an_invoiced_order_is_read_or_refused_with_its_reason() {
        let ok = PedidoFaturado {
            client_id: 7,
            emp_id: 1,
            pedido_id: 3,
            issued_on: "2026-11-27".into(),
            ..Default::default()
        };
        let (ev, day) = invoiced_order(&msg(&ok), 7).expect("a valid fact");
        assert_eq!(
            (ev.pedido_id, day.to_string()),
            (3, "2026-11-27".to_string())
        );
        let other = invoiced_order(&msg(&ok), 8).expect_err("another tenant");
        assert_eq!(other.to_string(), "Evento de outro cliente.");
        let no_company = PedidoFaturado { emp_id: 0, ..ok.clone() };
        let e = invoiced_order(&msg(&no_company), 7).expect_err("no company");
        assert_eq!(e.to_string(), "Evento sem empresa ou pedido.");
        let bad_day = PedidoFaturado { issued_on: "27/11/2026".into(), ..ok };
        let e = invoiced_order(&msg(&bad_day), 7).expect_err("bad day");
        assert_eq!(e.to_string(), "Data de emissão inválida: '27/11/2026'.");
        assert_eq!(dec("Total", " ").ok(), Some(Decimal::ZERO));
        assert!(dec("Total", "1,5").is_err());
    }
}
