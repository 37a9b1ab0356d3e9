//! Ingredients, recipes and the configuration space they are drawn from, and the recipe file
//! (by names, so that it replays on another workload and survives a reordered space).

use crate::Poset;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The shares of the per-item limit a stage of a [`crate::Sharing::PerItem`] recipe may take
/// (the last stage takes what is left).
pub const SLICES: [f64; 4] = [0.1, 0.25, 0.5, 0.75];

/// A setting other than the domain, with the values the search may give it.
#[derive(Clone, Debug)]
pub struct Knob {
    pub name: String,
    pub values: Vec<String>,
    /// Index of the tool's default value.
    pub default: usize,
    /// A fixpoint knob (an analyzer's state and unrolling limits, widening): the random
    /// samplers draw it with the domain in phase 1, as the TAILOR repository's DARS draws
    /// CRAB's widening knobs, because it moves precision as much as a domain does. The others
    /// stay at their defaults until phase 2.
    pub fixpoint: bool,
}

impl Knob {
    pub fn new(name: &str, values: &[&str], default: usize) -> Knob {
        Knob {
            name: name.to_string(),
            values: values.iter().map(|v| v.to_string()).collect(),
            default,
            fixpoint: false,
        }
    }
}

/// What a target may be configured with.
#[derive(Clone, Debug)]
pub struct Space {
    pub domains: Poset,
    pub knobs: Vec<Knob>,
    /// The tool's default configuration: the initial recipe of every search.
    pub default: Recipe,
    /// Stages take slices of a per-item limit ([`crate::Sharing::PerItem`]); otherwise a
    /// stage's slice means nothing and is neither searched nor shown.
    pub slices: bool,
}

impl Space {
    /// An ingredient of domain `d` with every knob at its default and half the limit as its slice.
    pub fn plain(&self, d: usize) -> Ingredient {
        Ingredient { domain: d, knobs: self.knobs.iter().map(|k| k.default).collect(), slice: 2 }
    }

    /// An ingredient of domain `d` with each fixpoint knob drawn uniformly among its values
    /// (its default included) and every other knob at its default.
    pub fn sampled(&self, d: usize, rng: &mut impl rand::Rng) -> Ingredient {
        let mut ing = self.plain(d);
        for (k, knob) in self.knobs.iter().enumerate().filter(|(_, k)| k.fixpoint) {
            ing.knobs[k] = rng.gen_range(0..knob.values.len());
        }
        ing
    }

    /// The knob value of `ing` for the knob named `name`.
    pub fn value<'a>(&'a self, ing: &Ingredient, name: &str) -> Option<&'a str> {
        let k = self.knobs.iter().position(|k| k.name == name)?;
        self.knobs[k].values.get(*ing.knobs.get(k)?).map(String::as_str)
    }

    /// The knobs of `ing` that differ from their defaults, as `name=value`.
    pub fn changed(&self, ing: &Ingredient) -> Vec<(String, String)> {
        self.knobs
            .iter()
            .zip(&ing.knobs)
            .filter(|(k, v)| **v != k.default)
            .map(|(k, v)| (k.name.clone(), k.values[*v].clone()))
            .collect()
    }

    pub fn describe(&self, r: &Recipe) -> String {
        let mut f = RecipeFile::of(self, r);
        if !self.slices {
            f.stages.iter_mut().for_each(|s| s.slice = f64::NAN);
        }
        f.to_string()
    }
}

/// One configuration of the tool: a domain, its knobs (value indices), and its slice of the
/// per-item limit (an index into [`SLICES`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ingredient {
    pub domain: usize,
    pub knobs: Vec<usize>,
    pub slice: usize,
}

/// Ingredients run in sequence, each on what the earlier ones left unresolved.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Recipe(pub Vec<Ingredient>);

impl Recipe {
    pub fn domains(&self) -> Vec<usize> {
        self.0.iter().map(|i| i.domain).collect()
    }
}

/// A recipe by names: what `crosscheck tune` writes and `tune eval` reads.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecipeFile {
    pub target: String,
    pub stages: Vec<StageFile>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StageFile {
    pub domain: String,
    /// Knobs away from their defaults.
    #[serde(default)]
    pub settings: Vec<(String, String)>,
    /// Share of the per-item limit (ignored on the last stage and for one-run targets).
    pub slice: f64,
}

impl RecipeFile {
    pub fn of(space: &Space, r: &Recipe) -> RecipeFile {
        RecipeFile {
            target: String::new(),
            stages: r
                .0
                .iter()
                .map(|i| StageFile {
                    domain: space.domains.name(i.domain).to_string(),
                    settings: space.changed(i),
                    slice: SLICES[i.slice],
                })
                .collect(),
        }
    }

    /// The recipe in `space`, or a message naming what does not exist there.
    pub fn resolve(&self, space: &Space) -> Result<Recipe, String> {
        if self.stages.is_empty() {
            return Err("the recipe has no stage".into());
        }
        let mut out = Vec::new();
        for s in &self.stages {
            let d = space.domains.index(&s.domain).ok_or_else(|| format!("unknown domain {:?}", s.domain))?;
            let mut ing = space.plain(d);
            for (name, value) in &s.settings {
                let k = space
                    .knobs
                    .iter()
                    .position(|k| &k.name == name)
                    .ok_or_else(|| format!("unknown setting {name:?}"))?;
                let v = space.knobs[k]
                    .values
                    .iter()
                    .position(|x| x == value)
                    .ok_or_else(|| format!("setting {name}: unknown value {value:?}"))?;
                ing.knobs[k] = v;
            }
            ing.slice = SLICES
                .iter()
                .position(|x| (x - s.slice).abs() < 1e-9)
                .ok_or_else(|| format!("slice {} is not one of {SLICES:?}", s.slice))?;
            out.push(ing);
        }
        Ok(Recipe(out))
    }
}

impl fmt::Display for RecipeFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.stages.iter().enumerate() {
            if i > 0 {
                f.write_str(" ; ")?;
            }
            f.write_str(&s.domain)?;
            for (k, v) in &s.settings {
                write!(f, " {k}={v}")?;
            }
            if self.stages.len() > 1 && i + 1 < self.stages.len() && !s.slice.is_nan() {
                write!(f, " @{}", s.slice)?;
            }
        }
        Ok(())
    }
}
