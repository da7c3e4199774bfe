//! When a failed send is tried again: exponential backoff with jitter.
//!
//! After the `n`-th failed attempt the message waits `base · 2^(n−1)`, capped at
//! `cap`, drawn uniformly from the upper half of that (half fixed, half random:
//! "equal jitter"), so replicas that failed together do not come back together,
//! and never less than the provider's own `Retry-After`. After `max_attempts`
//! attempts the message fails for good with the last reason.

use std::time::Duration;

use rand::Rng;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Backoff {
    pub base: Duration,
    pub cap: Duration,
    pub max_attempts: u32,
}

impl Default for Backoff {
    /// 30 s, 1 min, 2 min, 4 min, 8 min, then failed (6 attempts).
    fn default() -> Self {
        Backoff {
            base: Duration::from_secs(30),
            cap: Duration::from_secs(30 * 60),
            max_attempts: 6,
        }
    }
}

impl Backoff {
    /// The longest wait after `attempts` failed attempts (before jitter).
    pub fn ceiling(&self, attempts: u32) -> Duration {
        let exp = attempts.saturating_sub(1).min(30);
        self.base.saturating_mul(1u32 << exp).min(self.cap)
    }

    /// The wait after `attempts` failed attempts, between half the ceiling and the
    /// ceiling, and at least `retry_after`.
    pub fn delay(
        &self,
        attempts: u32,
        retry_after: Option<Duration>,
        rng: &mut impl Rng,
    ) -> Duration {
        let ceiling = self.ceiling(attempts);
        let half = ceiling / 2;
        let span = (ceiling - half).as_millis() as u64;
        let jitter = if span == 0 {
            0
        } else {
            rng.gen_range(0..=span)
        };
        let d = half + Duration::from_millis(jitter);
        retry_after.map_or(d, |r| d.max(r))
    }

    /// Whether `attempts` failed attempts are the last allowed.
    pub fn exhausted(&self, attempts: u32) -> bool {
        attempts >= self.max_attempts
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn the_ceiling_doubles_up_to_the_cap() {
        let b = Backoff::default();
        let secs: Vec<u64> = (1..=9).map(|n| b.ceiling(n).as_secs()).collect();
        assert_eq!(secs, vec![30, 60, 120, 240, 480, 960, 1800, 1800, 1800]);
        assert!(!b.exhausted(5));
        assert!(b.exhausted(6));
        // Absurd attempt counts do not overflow.
        assert_eq!(b.ceiling(u32::MAX), b.cap);
    }

    #[test]
    fn the_delay_is_in_the_upper_half_of_the_ceiling_and_varies() {
        let b = Backoff::default();
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for n in 1..=8 {
            let c = b.ceiling(n);
            let draws: Vec<Duration> = (0..200).map(|_| b.delay(n, None, &mut rng)).collect();
            assert!(draws.iter().all(|d| *d >= c / 2 && *d <= c), "attempt {n}");
            let distinct: std::collections::HashSet<_> = draws.iter().collect();
            assert!(
                distinct.len() > 50,
                "attempt {n}: jitter spreads the retries"
            );
        }
    }

    #[test]
    fn retry_after_is_a_floor() {
        let b = Backoff {
            base: Duration::from_millis(100),
            cap: Duration::from_secs(1),
            max_attempts: 3,
        };
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        let d = b.delay(1, Some(Duration::from_secs(5)), &mut rng);
        assert_eq!(d, Duration::from_secs(5));
        let d = b.delay(1, Some(Duration::from_millis(1)), &mut rng);
        assert!(d >= Duration::from_millis(50) && d <= Duration::from_millis(100));
    }
}
