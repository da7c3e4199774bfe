//! Fields a stock document has already posted to the ledger: an edit cannot change
//! them (delete the document and post it again).

use erp_platform::resource::Op;
use serde_json::{Map, Value};

/// Drops the posted fields of an edit, keeping the rest of the body.
pub fn keep_posted(op: Op, body: &mut Map<String, Value>, posted: &[&str]) {
    if op == Op::Update {
        body.retain(|k, _| !posted.contains(&k.as_str()));
    }
}
