//! Reading a fact's payload: the protobuf message, its tenant, its quantities
//! (what the ledger's consumers of orders' and purchases' facts share).

use std::str::FromStr;

use erp_platform::bus::Message;
use erp_platform::{Error, Result};
use rust_decimal::Decimal;

pub(crate) fn decode<M: prost::Message + Default>(msg: &Message) -> Result<M> {
    M::decode(msg.payload.as_ref())
        .map_err(|_| Error::validation(format!("Evento inválido: {}.", msg.subject)))
}

/// The payload's tenant must be the one the event was recorded for.
pub(crate) fn same_tenant(client_id: i64, payload_client: i64) -> Result<()> {
    if payload_client != 0 && payload_client != client_id {
        return Err(Error::validation("Evento de outro cliente."));
    }
    Ok(())
}

pub(crate) fn quantity(s: &str) -> Result<Decimal> {
    Decimal::from_str(s.trim())
        .map_err(|_| Error::validation(format!("Quantidade inválida: '{s}'.")))
}
