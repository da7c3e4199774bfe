//! (filled by the registers work)

use erp_platform::resource::Resource;

pub fn all() -> Vec<Resource> {
    Vec::new()
}
