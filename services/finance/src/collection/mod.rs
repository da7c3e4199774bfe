//! Banking side of collection (cobrança): boleto barcodes, PIX BR Codes, CNAB
//! remittance/return files and OFX bank statements. Pure code: no database, no
//! network; money is `rust_decimal::Decimal` and dates are `chrono::NaiveDate`.
//!
//! Layout:
//! - `barcode`: FEBRABAN barcode and linha digitável, due-date factor, per-bank
//!   free field and nosso número check digits.
//! - `pix`: static PIX BR Code generator, TLV parser and CRC16.
//! - `cnab`: CNAB 240/400 layouts as data, remittance generator/parser, return parser.
//! - `ofx`: OFX 1.x (SGML) and 2.x (XML) statement parser.

pub mod barcode;
pub mod cnab;
pub mod ofx;
pub mod pix;
