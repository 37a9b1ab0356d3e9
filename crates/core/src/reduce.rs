//! Test-case reduction: a greedy fixpoint over the leg's shrink steps, keeping only candidates
//! for which the interestingness test (the finding's own oracle) still holds.

use std::ops::Range;
use std::time::Instant;

/// What a reduction did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ReduceStats {
    pub size_before: usize,
    pub size_after: usize,
    /// Candidates tried (each one an oracle re-check).
    pub tries: usize,
    /// Candidates accepted.
    pub steps: usize,
    /// The time bound cut the reduction short.
    pub timed_out: bool,
}

/// Shrinks `start` while `interesting` holds. Each round takes the first candidate of
/// `shrink` that is smaller and still interesting, and starts again from it; the reduction
/// ends at a fixpoint (no candidate is accepted) or at `deadline`. Candidates are drawn one at
/// a time, so a leg can make its costly late candidates only when the reducer reaches them.
pub fn reduce<C: Clone, I: IntoIterator<Item = C>>(
    start: C,
    shrink: impl Fn(&C) -> I,
    size: impl Fn(&C) -> usize,
    mut interesting: impl FnMut(&C) -> bool,
    deadline: Instant,
) -> (C, ReduceStats) {
    let mut cur = start;
    let mut stats = ReduceStats { size_before: size(&cur), ..ReduceStats::default() };
    let mut cur_size = stats.size_before;
    'rounds: loop {
        let mut accepted = false;
        for cand in shrink(&cur) {
            if Instant::now() >= deadline {
                stats.timed_out = true;
                break 'rounds;
            }
            let s = size(&cand);
            if s >= cur_size {
                continue;
            }
            stats.tries += 1;
            if interesting(&cand) {
                cur = cand;
                cur_size = s;
                stats.steps += 1;
                accepted = true;
                break;
            }
        }
        if !accepted {
            break;
        }
    }
    stats.size_after = cur_size;
    (cur, stats)
}

/// The ranges to cut from a list of `len` items, in delta-debugging order: halves first, then
/// quarters, down to single items.
pub fn cut_ranges(len: usize) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut chunk = len.div_ceil(2).max(1);
    loop {
        let mut start = 0;
        while start < len {
            out.push(start..(start + chunk).min(len));
            start += chunk;
        }
        if chunk == 1 {
            break;
        }
        chunk = chunk.div_ceil(2);
    }
    out
}

/// `items` without each of [`cut_ranges`], skipping cuts that would leave fewer than `keep_min`.
pub fn cuts<T: Clone>(items: &[T], keep_min: usize) -> Vec<Vec<T>> {
    cut_ranges(items.len())
        .into_iter()
        .filter(|r| items.len() - r.len() >= keep_min)
        .map(|r| items[..r.start].iter().chain(&items[r.end..]).cloned().collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn cut_ranges_halve_down_to_single_items() {
        assert_eq!(cut_ranges(4), vec![0..2, 2..4, 0..1, 1..2, 2..3, 3..4]);
        assert_eq!(cut_ranges(1), vec![0..1]);
        assert!(cut_ranges(0).is_empty());
    }

    #[test]
    fn reduces_a_list_to_the_two_culprits() {
        // Interesting iff both 3 and 7 are present: the reducer must end at exactly [3, 7].
        let start: Vec<u32> = (0..20).collect();
        let deadline = Instant::now() + Duration::from_secs(10);
        let (out, stats) = reduce(start, |v| cuts(v, 0), |v| v.len(), |v| v.contains(&3) && v.contains(&7), deadline);
        assert_eq!(out, vec![3, 7]);
        assert_eq!((stats.size_before, stats.size_after), (20, 2));
        assert!(!stats.timed_out);
    }
}
