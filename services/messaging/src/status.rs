//! A message's status (`MENS_STATUS`) and its precedence: 'N' na fila → 'P'
//! enviando → 'E' enviada → 'T' entregue → 'L' lida, or 'F' falhou.
//!
//! Providers report statuses late, twice and out of order (a 'delivered' after a
//! 'read', a 'sent' after a 'delivered'), so a reported status only ever moves a
//! message forward ([`Status::advance`]). 'F' ranks above 'E' (a message the
//! provider accepted may still fail to reach the phone) and below 'T' and 'L' (a
//! message delivered or read was not lost, whatever a stray failure says). The
//! only ways back are explicit: resending a failed message puts it in the queue
//! again.

use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Status {
    Queued,
    Sending,
    Sent,
    Delivered,
    Read,
    Failed,
}

impl Status {
    pub const ALL: [Status; 6] = [
        Status::Queued,
        Status::Sending,
        Status::Sent,
        Status::Delivered,
        Status::Read,
        Status::Failed,
    ];

    /// The stored code.
    pub fn code(self) -> &'static str {
        match self {
            Status::Queued => "N",
            Status::Sending => "P",
            Status::Sent => "E",
            Status::Delivered => "T",
            Status::Read => "L",
            Status::Failed => "F",
        }
    }

    pub fn parse(code: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|s| s.code() == code.trim())
    }

    /// What the screen shows.
    pub fn label(self) -> &'static str {
        match self {
            Status::Queued => "Na fila",
            Status::Sending => "Enviando",
            Status::Sent => "Enviada",
            Status::Delivered => "Entregue",
            Status::Read => "Lida",
            Status::Failed => "Falhou",
        }
    }

    fn rank(self) -> u8 {
        match self {
            Status::Queued => 0,
            Status::Sending => 1,
            Status::Sent => 2,
            Status::Failed => 3,
            Status::Delivered => 4,
            Status::Read => 5,
        }
    }

    /// The status after `reported` arrives: it, when it ranks above the current
    /// one; the current one otherwise (never a downgrade).
    pub fn advance(self, reported: Status) -> Status {
        if reported.rank() > self.rank() {
            reported
        } else {
            self
        }
    }

    /// Whether the worker may still send it: queued, or claimed by a worker
    /// that did not finish.
    pub fn sendable(self) -> bool {
        matches!(self, Status::Queued | Status::Sending)
    }
}

/// The statuses and their labels, for the screens' filters.
pub fn labels() -> Vec<(&'static str, &'static str)> {
    Status::ALL.iter().map(|s| (s.code(), s.label())).collect()
}

#[cfg(test)]
mod tests {
    use super::Status::*;
    use super::*;

    #[test]
    fn codes_round_trip() {
        for s in Status::ALL {
            assert_eq!(Status::parse(s.code()), Some(s));
        }
        assert_eq!(Status::parse("X"), None);
        assert_eq!(Sent.label(), "Enviada");
    }

    #[test]
    fn a_status_is_never_downgraded() {
        // A late 'delivered' after 'read' changes nothing, nor a late 'sent'.
        assert_eq!(Read.advance(Delivered), Read);
        assert_eq!(Read.advance(Sent), Read);
        assert_eq!(Delivered.advance(Sent), Delivered);
        assert_eq!(Read.advance(Failed), Read);
        assert_eq!(Delivered.advance(Failed), Delivered);
        // Forward moves happen.
        assert_eq!(Queued.advance(Sending), Sending);
        assert_eq!(Sending.advance(Sent), Sent);
        assert_eq!(Sent.advance(Failed), Failed);
        assert_eq!(Failed.advance(Delivered), Delivered);
        assert_eq!(Sent.advance(Queued), Sent);
        assert_eq!(Sending.advance(Queued), Sending);
    }

    #[test]
    fn any_order_of_the_same_reports_ends_in_the_same_status() {
        let reports = [Sent, Delivered, Read];
        let mut orders = vec![];
        for a in 0..3 {
            for b in 0..3 {
                for c in 0..3 {
                    if a != b && b != c && a != c {
                        orders.push([reports[a], reports[b], reports[c]]);
                    }
                }
            }
        }
        assert_eq!(orders.len(), 6);
        for o in orders {
            let end = o.iter().fold(Sending, |s, r| s.advance(*r));
            assert_eq!(end, Read, "{o:?}");
        }
        // Replaying everything twice changes nothing either.
        let end = [Read, Sent, Delivered, Read, Sent]
            .iter()
            .fold(Queued, |s, r| s.advance(*r));
        assert_eq!(end, Read);
    }
}
