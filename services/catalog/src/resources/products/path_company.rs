//! The company of a product call, read from its path.

use std::collections::HashMap;

use erp_platform::resource::params::{company, id_param};
use erp_platform::{Error, Result};

/// The company named by the path. Web clients send `undefined` or `null` when
/// no company is selected yet: that is a missing company, not a bad number.
pub(crate) fn path_company(params: &HashMap<String, String>, emp: Option<i64>) -> Result<i64> {
    match params.get("emp").map(|s| s.trim()) {
        None | Some("" | "undefined" | "null") => company(None),
        Some(_) => {
            let named = id_param(params, "emp")?;
            // The gateway guarded `emp`; the path must not name another company.
            match emp {
                Some(e) if e != named => Err(Error::forbidden()),
                _ => Ok(named),
            }
        }
    }
}
