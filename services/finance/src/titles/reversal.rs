//! Reversal (estorno) of a settlement: the settlement stays, marked reversed; the
//! title gets back what it took, an offset gives its advance back, and money that
//! moved moves back by an opposite movement.

use erp_platform::db::Tx;
use erp_platform::{Error, Result};
use rust_decimal::Decimal;

use super::settlement::{history, publish_standing};
use super::{load, today, Side, Standing};
use crate::bank::{self, Movement};

/// What a reversal did: the settlement, its title, the opposite movement (none
/// when the settlement moved no money) and the title's balance after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reversed {
    pub settlement: i64,
    pub title: i64,
    pub movement: Option<i64>,
    pub balance: Decimal,
    pub status: String,
}

type SettlementRow = (
    i64,
    Decimal,
    Decimal,
    Decimal,
    Decimal,
    Decimal,
    i64,
    Option<i64>,
    bool,
);

/// Reverses a settlement (estorno): see the module's doc. The reversal of an
/// offset gives the advance back what it took (no money moved, none moves back);
/// the reversal of an advance's own payment is refused while what it would leave
/// paid is less than what was already offset from it.
pub async fn reverse(
    tx: &mut Tx,
    client: i64,
    emp: i64,
    side: Side,
    settlement: i64,
    user: i64,
) -> Result<Reversed> {
    let missing = || Error::NotFound(format!("Baixa {settlement} não encontrada."));
    let (title, advance): (i64, Option<i64>) = sqlx::query_as(
        "SELECT baix_tit_id, baix_adto_id FROM finance.baixas WHERE client_id = $1 AND baix_emp_id = $2
           AND baix_id = $3 AND baix_tipo = $4",
    )
    .bind(client)
    .bind(emp)
    .bind(settlement)
    .bind(side.code())
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(missing)?;
    // The title and the advance it was offset from, in key order.
    let ids: Vec<i64> = std::iter::once(title).chain(advance).collect();
    let titles = load(tx, client, emp, side, &ids, true).await?;
    let t = titles.get(&title).ok_or_else(missing)?;
    let row: SettlementRow = sqlx::query_as(
        "SELECT baix_tit_id, baix_valor, baix_juros, baix_multa, baix_desconto, baix_total, baix_bco_id,
                baix_frmp_id, baix_estornada
         FROM finance.baixas WHERE client_id = $1 AND baix_emp_id = $2 AND baix_id = $3 FOR UPDATE",
    )
    .bind(client)
    .bind(emp)
    .bind(settlement)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(missing)?;
    let (_, value, interest, fine, discount, total, account, method, reversed) = row;
    if reversed {
        return Err(Error::Conflict(format!(
            "Baixa {settlement} já foi estornada."
        )));
    }
    sqlx::query(
        "UPDATE finance.baixas SET baix_estornada = true, baix_dta_estorno = now(), baix_usr_estorno = $4
         WHERE client_id = $1 AND baix_emp_id = $2 AND baix_id = $3",
    )
    .bind(client)
    .bind(emp)
    .bind(settlement)
    .bind((user > 0).then_some(user))
    .execute(&mut **tx)
    .await?;
    let sql = format!(
        "UPDATE finance.{} SET tit_pago = tit_pago - $4, tit_juros = tit_juros - $5, tit_multa = tit_multa - $6,
             tit_desconto = tit_desconto - $7,
             tit_dta_pag = (SELECT max(baix_dta) FROM finance.baixas WHERE client_id = $1 AND baix_emp_id = $2
                              AND baix_tipo = $8 AND baix_tit_id = $3 AND NOT baix_estornada)
         WHERE client_id = $1 AND tit_emp_id = $2 AND tit_id = $3 RETURNING tit_pago, tit_saldo, tit_situacao",
        side.table()
    );
    let standing: Standing = sqlx::query_as(&sql)
        .bind(client)
        .bind(emp)
        .bind(title)
        .bind(value)
        .bind(interest)
        .bind(fine)
        .bind(discount)
        .bind(side.code())
        .fetch_one(&mut **tx)
        .await
        .map_err(|e| {
            let msg = format!(
                "O adiantamento {title} já foi compensado em outros títulos: estorne as compensações antes."
            );
            Error::from(e).on_constraint(&[("contaspagar_compensado_check", msg.as_str())])
        })?;
    publish_standing(tx, client, emp, side, t, settlement, "estorno", user).await?;
    let (_, balance, status) = standing;
    let mut movement = None;
    if let Some(advance) = advance {
        sqlx::query(
            "UPDATE finance.contaspagar SET tit_compensado = tit_compensado - $4
             WHERE client_id = $1 AND tit_emp_id = $2 AND tit_id = $3",
        )
        .bind(client)
        .bind(emp)
        .bind(advance)
        .bind(value)
        .execute(&mut **tx)
        .await?;
    } else if total > Decimal::ZERO {
        let id = bank::reserve(tx, client, emp, 1).await?;
        let date = today(tx).await?;
        let m = Movement {
            emp,
            bank: account,
            date,
            direction: side.direction().opposite(),
            value: total,
            history: format!("Estorno da baixa {settlement} - {}", history(side, t)),
            document: t.document.clone(),
            cost_centre: t.centre,
            method,
            origin: "ESTORNO",
            settlement: Some(settlement),
            user,
        };
        bank::record(tx, client, id, &m).await?;
        movement = Some(id);
    }
    Ok(Reversed { settlement, title, movement, balance, status })
}
