//! The seed's cost (§5.4.2): `(unresolved + used/limit) / total`, infinite past the limit.
//! Since `used/limit <= 1` within the limit, one more resolved item always outweighs any saving
//! of time: the order is lexicographic, items first, time second.

use std::cmp::Ordering;
use std::time::Duration;

/// A recipe's cost; [`Cost::INFINITE`] for a recipe past its limit or an untrustworthy one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cost(pub f64);

impl Cost {
    pub const INFINITE: Cost = Cost(f64::INFINITY);

    /// The cost of leaving `unresolved` of `total` items after using `used` of `limit`.
    pub fn of(unresolved: usize, total: usize, used: Duration, limit: Duration) -> Cost {
        if used > limit || total == 0 || limit.is_zero() {
            return Cost::INFINITE;
        }
        let share = used.as_secs_f64() / limit.as_secs_f64();
        #[allow(clippy::cast_precision_loss)] // item counts are far below 2^52
        Cost((unresolved as f64 + share) / total as f64)
    }

    pub fn is_finite(self) -> bool {
        self.0.is_finite()
    }

    /// Strictly lower, with infinity equal to itself.
    pub fn lt(self, other: Cost) -> bool {
        self.0.partial_cmp(&other.0) == Some(Ordering::Less)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_first_time_second_infinite_past_the_limit() {
        let l = Duration::from_secs(10);
        let slow_more = Cost::of(3, 10, Duration::from_millis(9_999), l);
        let fast_fewer = Cost::of(4, 10, Duration::ZERO, l);
        assert!(slow_more.lt(fast_fewer), "one more resolved item beats any time");
        assert!(Cost::of(3, 10, Duration::from_secs(1), l).lt(slow_more), "ties go to time");
        assert!((Cost::of(3, 10, Duration::from_secs(5), l).0 - 0.35).abs() < 1e-12);
        assert_eq!(Cost::of(0, 10, Duration::from_millis(10_001), l), Cost::INFINITE);
        assert!(!Cost::INFINITE.lt(Cost::INFINITE));
    }
}
