//! crosscheck's language-neutral core.
//!
//! Architecture invariant: nothing here names a query language or a particular engine. Legs
//! (`crosscheck-sql`, `crosscheck-smt`, ...) implement [`kind::Kind`] and their engines
//! implement [`engine::Engine`]; this crate runs campaigns over them, stores findings, reduces
//! and deduplicates them.

pub mod bag;
pub mod board;
pub mod books;
pub mod cluster;
pub mod dedup;
pub mod engine;
pub mod groups;
pub mod kind;
pub mod notes;
pub mod outcome;
pub mod process;
pub mod reduce;
pub mod runner;
pub mod store;
pub mod timed;
pub mod value;
pub mod worker;

pub use bag::{Diff, Relation, Rows};
pub use engine::{Availability, Engine, EngineFactory, EngineInfo, EngineOption, EngineSpec, OptionDomain, SetupError};
pub use groups::Groups;
pub use kind::{
    oracle_names, parse_oracles, Check, CheckOptions, Detail, Evidence, FindingClass, GenOptions, Generator, Helpers,
    Kind, KindInfo, Oracle, Shape,
};
pub use outcome::{ErrorClass, Outcome, Verdict};
pub use value::{Canon, CompareOptions, Value};

/// crosscheck's version, written into every finding.
pub const TOOL_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The first `limit` characters of an engine's message with each run of digits as one `#` and
/// ordinals ("1st", "22nd") as numbers: one message, one deduplication key, whatever names and
/// values the query gave it.
pub fn mask_numbers(message: &str, limit: usize) -> String {
    let mut key = String::new();
    // Enough of a long message for `limit` characters once its digit runs are one `#` each.
    for c in message.chars().take(limit.saturating_mul(8)) {
        if !c.is_ascii_digit() {
            key.push(c);
        } else if !key.ends_with('#') {
            key.push('#');
        }
    }
    for suffix in ["#st", "#nd", "#rd", "#th"] {
        key = key.replace(suffix, "#");
    }
    // Cut after masking: cut before, `alias_3.id","code"` and `alias_11.id","code"` kept
    // different tails of one message.
    key.chars().take(limit).collect()
}

/// A deterministic child seed: the same `(seed, stream)` always gives the same value, and
/// nearby inputs give unrelated outputs (SplitMix64 finalizer).
pub fn derive_seed(seed: u64, stream: u64) -> u64 {
    let mut z = seed ^ stream.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(0x6A09_E667_F3BC_C909);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `d` in whole nanoseconds. `Duration::as_nanos` is a `u128`; a `u64` of nanoseconds lasts
/// 584 years, so saturating instead of failing only matters for a corrupt clock.
pub fn nanos(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

/// `d` in whole milliseconds, saturating like [`nanos`]: timeouts and budgets are stored and
/// printed as `u64` milliseconds.
pub fn millis(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// Which of `len` places the number `n` falls on, going round: `n % len`, or 0 when there is
/// nothing to go round. Case indexes pick their oracle this way and hashes their row, so the
/// `u64` is meant to fold; the remainder is below `len` and so always fits a `usize`.
pub fn position(n: u64, len: usize) -> usize {
    if len == 0 {
        return 0;
    }
    usize::try_from(n % len as u64).unwrap_or(0)
}

/// A seeded generator for `(seed, stream)`.
pub fn rng(seed: u64, stream: u64) -> rand_chacha::ChaCha8Rng {
    use rand::SeedableRng;
    rand_chacha::ChaCha8Rng::seed_from_u64(derive_seed(seed, stream))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_seeds_are_stable_and_spread() {
        assert_eq!(derive_seed(7, 0), derive_seed(7, 0));
        assert_ne!(derive_seed(7, 0), derive_seed(7, 1));
        assert_ne!(derive_seed(7, 0), derive_seed(8, 0));
    }

    #[test]
    fn durations_convert_and_saturate() {
        use std::time::Duration;
        assert_eq!(nanos(Duration::from_millis(3)), 3_000_000);
        assert_eq!(millis(Duration::from_micros(2_500)), 2);
        assert_eq!(nanos(Duration::MAX), u64::MAX);
        assert_eq!(millis(Duration::MAX), u64::MAX);
    }

    #[test]
    fn positions_go_round() {
        assert_eq!(position(7, 3), 1);
        assert_eq!(position(u64::MAX, 10), 5);
        assert_eq!(position(7, 0), 0);
    }

    #[test]
    fn a_message_key_masks_numbers_and_ordinals() {
        let key = |m: &str| mask_numbers(m, 60);
        assert_eq!(key("1st GROUP BY term out of range"), key("22nd GROUP BY term out of range"));
        assert_eq!(key("no such column: _with_0.n12.id"), "no such column: _with_#.n#.id");
        // Numbers of different widths near the cut.
        let long = |n: &str| {
            format!("{{\"error\":\"no such column: _gql_default_alias_{n}.id\",\"code\":\"EXECUTION_ERROR\"}}")
        };
        assert_eq!(key(&long("3")), key(&long("11")));
    }
}
