//! Which seed each round of the case stream visits. STORM gives one seed NM = 1000 instances
//! in a row, so a two-minute run met 3–6 seeds; here the rounds go round-robin over the
//! seeds' theories (a group per logic for seed files, per theory family for generated seeds),
//! and within a group over its seeds in a shuffled order, [`Params::mutants_per_seed`]
//! instances a visit. Every group is reached within its first `groups × mutants_per_seed`
//! cases. The schedule is a pure function of the generation seed and the round.
//!
//! [`Params::mutants_per_seed`]: crate::storm::Params::mutants_per_seed

use crate::generator::{supported_by_all, Seed};
use crate::script::Script;
use crate::seedgen::{self, Allow, Family};
use crate::solvers;
use crosscheck_core::EngineInfo;
use rand::seq::SliceRandom;
use std::collections::BTreeMap;

enum Source {
    Files(Vec<Seed>),
    Family(&'static Family),
}

struct Group {
    label: String,
    source: Source,
}

/// The groups a stream visits in turn.
pub struct Schedule {
    groups: Vec<Group>,
    /// What generated seeds may use besides their family's theories.
    allow: Allow,
}

/// The name of a generated seed: its family, the visit and the attempt.
pub fn generated_name(family: &str, visit: u64, attempt: u64) -> String {
    format!("gen-{family}-{visit}-{attempt}")
}

/// The theory family of a generated seed's name.
pub fn family_of(seed_name: &str) -> Option<&str> {
    let rest = seed_name.strip_prefix("gen-")?;
    let mut parts = rest.rsplitn(3, '-');
    let (_, _, family) = (parts.next()?, parts.next()?, parts.next()?);
    Some(family)
}

/// The counting label of a seed: its generated family, or the logic it sets (`-` for none).
pub fn label(seed_name: &str, logic: Option<&str>) -> String {
    family_of(seed_name).or(logic).unwrap_or("-").to_string()
}

/// Whether every engine can take `family`'s seeds: its logic's theories, its own extra
/// constructs, and uninterpreted sorts when it declares some.
pub fn family_supported(family: &Family, engines: &[EngineInfo]) -> bool {
    let mut caps = crate::generator::required_caps(family.logic);
    caps.extend(family.caps);
    if (family.sorts)().iter().any(|s| matches!(s, seedgen::Sort::Named(_))) {
        caps.push("theory:sorts");
    }
    engines.iter().all(|e| caps.iter().all(|c| solvers::has(e, c)))
}

impl Schedule {
    /// Seed files grouped by logic; those some engine cannot take are left out.
    pub fn files(seeds: Vec<Seed>, engines: &[EngineInfo]) -> Schedule {
        let mut by: BTreeMap<String, Vec<Seed>> = BTreeMap::new();
        for s in seeds.into_iter().filter(|s| supported_by_all(&s.script, engines)) {
            by.entry(label(&s.name, s.script.logic())).or_default().push(s);
        }
        let groups = by.into_iter().map(|(label, seeds)| Group { label, source: Source::Files(seeds) }).collect();
        Schedule { groups, allow: Allow::ALL }
    }

    /// Generated seeds of every family all engines take.
    pub fn generated(engines: &[EngineInfo]) -> Schedule {
        let groups = seedgen::FAMILIES
            .iter()
            .filter(|f| family_supported(f, engines))
            .map(|f| Group { label: f.name.to_string(), source: Source::Family(f) })
            .collect();
        let allow = Allow {
            const_arrays: engines.iter().all(|e| solvers::has(e, "const-arrays")),
            small_floats: engines.iter().all(|e| solvers::has(e, "fp-small")),
            wide_chars: engines.iter().all(|e| solvers::has(e, "unicode-strings") || !solvers::has(e, "theory:string")),
        };
        Schedule { groups, allow }
    }

    /// The labels of the groups, in visiting order.
    pub fn labels(&self) -> Vec<&str> {
        self.groups.iter().map(|g| g.label.as_str()).collect()
    }

    /// How many seeds a round may try before it gives up (a seed may yield no instance).
    pub fn tries(&self, gen_seed: u64, round: u64) -> u64 {
        let round = round.wrapping_add(gen_seed % self.groups.len().max(1) as u64);
        match self.group(round).map(|g| &g.source) {
            Some(Source::Files(seeds)) => seeds.len() as u64,
            Some(Source::Family(_)) => 8,
            None => 0,
        }
    }

    fn group(&self, round: u64) -> Option<&Group> {
        self.groups.get(crosscheck_core::position(round, self.groups.len()))
    }

    /// The seed round `round` tries at `attempt`; whether it is generated. Workers (each with
    /// its own generation seed) start at different groups, so that two workers do not spend
    /// the same minutes on the same slow theory.
    pub fn seed(&self, gen_seed: u64, round: u64, attempt: u64) -> Option<(Seed, bool)> {
        let round = round.wrapping_add(gen_seed % self.groups.len().max(1) as u64);
        let g = crosscheck_core::position(round, self.groups.len()) as u64;
        let visit = round / self.groups.len().max(1) as u64;
        match &self.group(round)?.source {
            Source::Files(seeds) => {
                // A fresh shuffle of the group for every pass over it.
                let n = seeds.len() as u64;
                let pass = visit / n;
                let mut order: Vec<usize> = (0..seeds.len()).collect();
                order.shuffle(&mut crosscheck_core::rng(gen_seed, 0xC0FF_EE00 ^ (g << 32) ^ pass));
                let at = order[crosscheck_core::position(visit % n + attempt, order.len())];
                Some((seeds[at].clone(), false))
            }
            Source::Family(f) => {
                let stream = 0x5eed_0000 ^ (g << 40) ^ visit.wrapping_mul(7919).wrapping_add(attempt);
                let mut rng = crosscheck_core::rng(gen_seed, stream);
                let text = seedgen::seed_of(&mut rng, f, self.allow);
                let script = Script::parse(&text, f.name).ok()?;
                Some((Seed { name: generated_name(f.name, visit, attempt), script }, true))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_names_give_their_family() {
        assert_eq!(family_of(&generated_name("INT_BV_2.7", 3, 0)), Some("INT_BV_2.7"));
        assert_eq!(family_of(&generated_name("QF_LIA", 0, 7)), Some("QF_LIA"));
        assert_eq!(family_of("lia_coins.smt2"), None);
        assert_eq!(label("gen-QF_S-1-0", Some("QF_S")), "QF_S");
        assert_eq!(label("x.smt2", None), "-");
    }

    /// Without engines every family is usable, and the first `families` rounds visit each once.
    #[test]
    fn every_family_is_reached_in_the_first_rounds() {
        let s = Schedule::generated(&[]);
        assert_eq!(s.labels().len(), seedgen::FAMILIES.len());
        let mut seen = std::collections::BTreeSet::new();
        for round in 0..seedgen::FAMILIES.len() as u64 {
            let (seed, generated) = s.seed(7, round, 0).expect("a seed");
            assert!(generated);
            seen.insert(family_of(&seed.name).expect("generated").to_string());
        }
        assert_eq!(seen.len(), seedgen::FAMILIES.len());
    }
}
