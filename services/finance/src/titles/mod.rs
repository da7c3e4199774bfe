//! Titles over the database: the financial parameters, titles made from other
//! services' documents, settlement (baixa), its reversal (estorno), offsets
//! against a supplier's advance and the cancellation of a document's titles. The
//! registers (`resources::titles`) and the consumers (`events`) call these; the
//! arithmetic is in `instalments` and `charges`.
//!
//! Settlement, in one transaction: the titles are locked in key order
//! (`FOR UPDATE`), each checked against what is left of it now (a second settlement
//! of the same title waits for the first and then sees the balance it left: never
//! more than the balance is taken, and the second is refused with a pt-BR message;
//! the database also refuses a title paid beyond its value), the settlement and
//! movement ids reserved, the settlement rows written, the titles' paid value and
//! charges moved, then one bank movement written per settlement that moved money
//! under the account's lock (a receivable's is a credit, a payable's a debit; a
//! settlement by discount alone moves none). A list of titles is settled all or
//! nothing. Interest and fine not given are computed from the parameters
//! (`charges`) on the settlement date for the part settled. Locks are always taken
//! titles first, customers' balance rows next (several customers' receivables:
//! in key order, `credit::lock_customers`), id counters next, accounts last (see
//! `bank`).
//!
//! Reversal: the title (and the advance an offset took from), then the settlement
//! row, then the account are locked; the settlement is marked reversed (it stays),
//! the title gets back what it took, and the settlement's movement is undone by an
//! opposite movement dated the day of the reversal (origin `ESTORNO`), so the
//! account's history shows both.
//!
//! Advances (`tit_adiantamento` payables): [`offset`] settles payables of the
//! advance's supplier with what the advance paid and was not offset yet, at face
//! value, in settlements that name the advance (`baix_adto_id`) and move no money
//! (it left the account when the advance was paid, from the account those
//! settlements record); the advance's `tit_compensado` grows by what they took.
//! Reversing one gives it back; reversing the advance's own payment is refused
//! while what it would leave paid is less than what was offset from it (the
//! database's `contaspagar_compensado_check`).
//!
//! Facts: every settlement, offset and reversal writes `erp.finance.titulo.situacao`
//! (`TituloSituacao`: the title's origin document, instalment, worth, paid,
//! balance, status) through finance's outbox, in its transaction: a refused
//! settlement writes none.
//!
//! Layout:
//! - `side`: [`Side`], receivables or payables (table, settlement code, key field,
//!   direction of the money).
//! - `parameters`: the company's financial [`Parameters`], the [`terms`] of a
//!   condition and [`today`] in Brasília.
//! - `documents`: origin documents — [`claim`] one for its titles once, record
//!   their total, [`cancel_document`] and [`remove_document`].
//! - `creation`: titles made from facts or calls ([`NewTitle`], [`insert`]) and
//!   the checks of the references they carry (`known_*`).
//! - `title`: [`Title`] as a settlement sees it, [`load`] (locked), [`refusal`],
//!   [`Standing`] and [`brl`] for messages.
//! - `settlement`: [`settle`] (baixa), its items and result, and the movement
//!   history and the fact every settlement change writes.
//! - `reversal`: [`reverse`] (estorno).
//! - `advances`: [`offset`] against a supplier's advance and the [`advances`]
//!   open to offset ([`AdvanceRow`]).
//! - `queries`: [`settlements_of`] a title ([`SettlementRow`]), for the screens.

mod advances;
mod creation;
mod documents;
mod parameters;
mod queries;
mod reversal;
mod settlement;
mod side;
mod title;

pub use advances::{advances, offset, AdvanceRow, Offset};
pub use creation::{insert, known_account, known_centre, known_method, NewTitle};
pub use documents::{cancel_document, claim, remove_document, set_document_total, Claim, Origin};
pub use parameters::{parameters, terms, today, Parameters};
pub use queries::{settlements_of, SettlementRow};
pub use reversal::{reverse, Reversed};
pub use settlement::{charges_of, settle, SettleItem, Settled, Settlement};
pub use side::Side;
pub use title::{brl, load, refusal, Standing, Title};
