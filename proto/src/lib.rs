//! `erp-proto`: the messages and gRPC stubs every role shares.
//!
//! Layout:
//! - `erp::v1`: the generic register service (rows travel as JSON with the legacy
//!   column names) and the event envelope.
//! - `identity::v1`: typed identity operations (login, principal, menu) and its facts.

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
