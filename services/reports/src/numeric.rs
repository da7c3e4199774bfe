//! PostgreSQL `numeric` read straight into a [`Decimal`], for the queries that
//! read tens of thousands of rollup rows (the ABC curves of a year).
//!
//! sqlx's own decoding first copies the value's base-10000 digits into a vector
//! and then builds the decimal digit by digit in 96-bit arithmetic: a large part
//! of a curve's time. [`Num`] reads the same binary format (`numeric_send`:
//! digit count, weight, sign, display scale, then the digits) in place into a
//! 128-bit integer. A value a `Decimal` cannot hold exactly (NaN, infinities,
//! more than 28 decimal places or 96 bits) is an error, as with sqlx's.

use rust_decimal::Decimal;
use sqlx::error::BoxDynError;
use sqlx::postgres::{PgTypeInfo, PgValueFormat, PgValueRef, Postgres};
use sqlx::{Decode, Type, ValueRef};
use std::str::FromStr;

/// A `numeric` column read as a [`Decimal`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Num(pub Decimal);

impl Type<Postgres> for Num {
    fn type_info() -> PgTypeInfo {
        <Decimal as Type<Postgres>>::type_info()
    }

    fn compatible(ty: &PgTypeInfo) -> bool {
        <Decimal as Type<Postgres>>::compatible(ty)
    }
}

impl<'r> Decode<'r, Postgres> for Num {
    fn decode(value: PgValueRef<'r>) -> Result<Self, BoxDynError> {
        if value.is_null() {
            return Err("numeric: null".into());
        }
        match value.format() {
            PgValueFormat::Binary => from_binary(value.as_bytes()?).map(Num),
            PgValueFormat::Text => Ok(Num(Decimal::from_str(value.as_str()?)?)),
        }
    }
}

const POSITIVE: u16 = 0x0000;
const NEGATIVE: u16 = 0x4000;

fn u16_at(b: &[u8], i: usize) -> Result<u16, BoxDynError> {
    match b.get(i..i + 2) {
        Some(&[hi, lo]) => Ok(u16::from_be_bytes([hi, lo])),
        _ => Err("numeric: short value".into()),
    }
}

/// The binary form of a `numeric`: the value is the sum of `digit[i] ×
/// 10000^(weight − i)`, shown with `dscale` decimal places.
pub fn from_binary(b: &[u8]) -> Result<Decimal, BoxDynError> {
    let ndigits = u16_at(b, 0)? as i16;
    let weight = u16_at(b, 2)? as i16;
    let sign = u16_at(b, 4)?;
    let dscale = u16_at(b, 6)?;
    if sign != POSITIVE && sign != NEGATIVE {
        return Err("numeric: NaN or infinity has no decimal".into());
    }
    if ndigits < 0 || b.len() != 8 + 2 * ndigits as usize {
        return Err("numeric: malformed value".into());
    }
    if ndigits == 0 {
        // Zero, whatever its display scale (as sqlx reads it).
        return Ok(Decimal::ZERO);
    }
    let mut m: i128 = 0;
    for i in 0..ndigits as usize {
        let digit = u16_at(b, 8 + 2 * i)? as i128;
        m = m
            .checked_mul(10_000)
            .and_then(|m| m.checked_add(digit))
            .ok_or("numeric: too large for a decimal")?;
    }
    // The last digit's power of 10000.
    let exp = i32::from(weight) - i32::from(ndigits) + 1;
    let (mut m, mut scale) = if exp >= 0 {
        let factor = 10_000i128
            .checked_pow(exp as u32)
            .ok_or("numeric: too large for a decimal")?;
        (
            m.checked_mul(factor)
                .ok_or("numeric: too large for a decimal")?,
            0u32,
        )
    } else {
        (m, (-exp * 4) as u32)
    };
    // Shown with its display scale: the base-10000 digits pad the last one with
    // zeros past it, or stop short of it (1.00 is the one digit 1).
    while scale > u32::from(dscale) && m % 10 == 0 {
        m /= 10;
        scale -= 1;
    }
    while scale < u32::from(dscale) && scale < 28 {
        m = m
            .checked_mul(10)
            .ok_or("numeric: too large for a decimal")?;
        scale += 1;
    }
    let mut d = Decimal::try_from_i128_with_scale(m, scale)?;
    if sign == NEGATIVE && m != 0 {
        d.set_sign_negative(true);
    }
    Ok(d)
}
