//! `erp-proto`: the messages and gRPC stubs every role shares.
//!
//! Layout:
//! - `erp::v1`: the generic register service (rows travel as JSON with the legacy
//!   column names) and the event envelope.
//! - `identity::v1`: typed identity operations (login, principal, menu) and its facts.
//! - `orders::v1`, `stock::v1`: the facts of documents and of the stock ledger.

pub mod erp {
    pub mod v1 {
        tonic::include_proto!("erp.v1");
    }
}

pub mod identity {
    pub mod v1 {
        tonic::include_proto!("identity.v1");
    }
}

pub mod orders {
    pub mod v1 {
        tonic::include_proto!("orders.v1");
    }
}

pub mod stock {
    pub mod v1 {
        tonic::include_proto!("stock.v1");
    }
}
