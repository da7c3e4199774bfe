//! The domain of purchases that needs no database: reading a supplier's NF-e XML and
//! the landed cost of each item. The purchase document, its calls and the import
//! that write them are in `resources::purchases`.
//!
//! Layout:
//! - `nfe_xml`: the hardened NF-e parser (size limit, no DTD/entities, access key
//!   check digit) into a typed `NfeDocument`.
//! - `landed_cost`: each item's landed cost, per-item values first, the rest
//!   apportioned by value with the remainder cent on the last item.
//! - `apportionment`: the shares of the invoice total by stock location and cost
//!   centre, to the cent.

pub mod apportionment;
pub mod landed_cost;
pub mod nfe_xml;
