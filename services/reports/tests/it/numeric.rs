//! `erp_reports::numeric::Num` reads every `numeric` PostgreSQL sends as sqlx's
//! own decoding does: the same value and the same scale.

use erp_reports::numeric::Num;
use rust_decimal::Decimal;
use sqlx::Row;

use crate::CTX;

#[tokio::test]
async fn numeric_reads_as_sqlx_reads_it() {
    let db = CTX.db().await;
    let c = CTX.client();
    let mut values: Vec<String> = [
        "0",
        "0.00",
        "0.0001",
        "-0.0001",
        "1",
        "-1",
        "10000",
        "99999999",
        "100000000",
        "12345678.9",
        "1234.5678",
        "-98765.4321",
        "0.5",
        "123456789012345.67",
        "99999999999999.9999",
        "-99999999999999.99",
        "1e20",
        "0.000000001",
        "5.10",
        "7.000",
        "1000000000000000000000000000",
        "0.1234567890123456789012345678",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    // Money and quantities as the rollups hold them: numeric(18,2) and (18,4).
    for i in 0..400i64 {
        let x = i * 7_919 * 104_729 % 1_000_000_000_007;
        values.push(format!("{}.{:02}", x / 100, x % 100));
        values.push(format!("-{}.{:04}", x / 7, x % 10_000));
    }
    let mut tx = db.begin_tenant(c).await.expect("tx");
    let rows = sqlx::query(
        "SELECT v::numeric, v::numeric(18,2), v::numeric(30,4)
         FROM unnest($1::text[]) AS v WHERE abs(v::numeric) < 1e13",
    )
    .bind(&values)
    .fetch_all(&mut *tx)
    .await
    .expect("values");
    assert!(rows.len() > 800, "{} values", rows.len());
    for r in &rows {
        for i in 0..3 {
            let theirs: Decimal = r.try_get(i).expect("sqlx");
            let Num(mine) = r.try_get(i).expect("mine");
            assert_eq!(mine, theirs, "column {i}");
            assert_eq!(mine.to_string(), theirs.to_string(), "column {i}: scale");
        }
    }
    // Beyond 1e13 the plain numeric only (the others would overflow).
    let rows = sqlx::query("SELECT v::numeric FROM unnest($1::text[]) AS v")
        .bind(&values)
        .fetch_all(&mut *tx)
        .await
        .expect("values");
    for r in &rows {
        let theirs: Decimal = r.try_get(0).expect("sqlx");
        let Num(mine) = r.try_get(0).expect("mine");
        assert_eq!(mine.to_string(), theirs.to_string());
    }
    // NaN has no decimal.
    let nan = sqlx::query("SELECT 'NaN'::numeric")
        .fetch_one(&mut *tx)
        .await
        .expect("nan");
    assert!(nan.try_get::<Num, _>(0).is_err());
}
