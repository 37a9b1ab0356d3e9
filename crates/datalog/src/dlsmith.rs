//! DLSmith: the annotated precedence graph and its transformations (thesis Ch. 4).
//!
//! The graph is read off the program: one relational node per relation, one edge per body
//! atom (`number` = the rule, `sign` = positive or negated, `vars` = the atom's arguments),
//! one fact node per fact. Annotations: ancestry (+, −, ?, none) by backward propagation of
//! signs from the outputs, and strata through the stratification check. Transformations are
//! graph rewrites (add/delete nodes, edges, facts) printed back as programs, with the corrected
//! preconditions of the extraction: an added edge may close a cycle only through positive
//! edges (checked by re-stratifying), CON/EXP edge additions update the source's ancestry by
//! re-annotation after every step, and deletions never unground a rule.

use crate::analysis::{plan, validate, DepGraph};
use crate::ast::{Atom, Fact, Literal, Program, RelDecl, Rule, Term, Type, Val};
use crate::gen::{fresh_var, pool_name, Gen, GenConfig};
use crate::qf::{self, Expect};
use rand::seq::SliceRandom;
use rand::Rng;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// Ancestry of a relation with respect to the outputs (Def. 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Ancestry {
    Pos,
    Neg,
    Unknown,
    None,
}

/// Ancestry of every relation: the signs of all dataflow paths to an output. A negated atom
/// flips the sign; an aggregate can move its result either way, so it carries both signs.
pub fn ancestry(p: &Program) -> HashMap<String, Ancestry> {
    let g = DepGraph::new(p);
    // Edge signs per (src, dst): +1, -1, or 0 for "both".
    let mut signs: Vec<Vec<(usize, i8)>> = vec![Vec::new(); g.nodes.len()];
    for r in &p.rules {
        let Some(&h) = g.index.get(&r.head.rel) else { continue };
        for l in &r.body {
            let (rels, s): (Vec<&str>, i8) = match l {
                Literal::Pos(a) => (vec![&a.rel], 1),
                Literal::Neg(a) => (vec![&a.rel], -1),
                Literal::Agg { body, .. } => {
                    (body.iter().filter_map(Literal::atom).map(|a| a.rel.as_str()).collect(), 0)
                }
                Literal::Cmp(..) => (vec![], 1),
            };
            for rel in rels {
                if let Some(&s_i) = g.index.get(rel) {
                    signs[h].push((s_i, s));
                }
            }
        }
    }
    let mut seen = vec![[false; 2]; g.nodes.len()];
    let mut stack: Vec<(usize, usize)> = p.outputs.iter().filter_map(|o| g.index.get(o)).map(|&i| (i, 0)).collect();
    while let Some((v, s)) = stack.pop() {
        if std::mem::replace(&mut seen[v][s], true) {
            continue;
        }
        for &(src, e) in &signs[v] {
            match e {
                1 => stack.push((src, s)),
                -1 => stack.push((src, 1 - s)),
                _ => {
                    stack.push((src, 0));
                    stack.push((src, 1));
                }
            }
        }
    }
    g.nodes
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let a = match seen[i] {
                [true, false] => Ancestry::Pos,
                [false, true] => Ancestry::Neg,
                [true, true] => Ancestry::Unknown,
                [false, false] => Ancestry::None,
            };
            (n.clone(), a)
        })
        .collect()
}

/// The invariants every graph of a run keeps (checked after each step in debug builds):
/// a valid, stratified, safe and well-typed program, and no rule added to a seed relation.
pub fn invariants(p: &Program, seed_rules: usize) -> Result<(), String> {
    validate(p)?;
    let n = p.rules.iter().filter(|r| p.seed_rels.contains(&r.head.rel)).count();
    if n > seed_rules {
        return Err("a rule was added to a seed relation".into());
    }
    Ok(())
}

/// DLSmith's random layered graph (repository defaults, scaled so joins meet: a constant pool
/// of 10 per type instead of 100), printed as a program; seed relations feed the first layer.
pub fn generate<R: Rng>(rng: &mut R, cfg: &GenConfig, base: Option<&Program>) -> Program {
    let base_prog = base.cloned().unwrap_or_default();
    let seed_outputs = base_prog.outputs.clone();
    let seeds: Vec<String> = base_prog.decls.iter().map(|d| d.name.clone()).collect();
    let mut g = Gen::new(rng, cfg, base_prog);
    g.prog.outputs.clear();
    let types: Vec<Type> = if cfg.has("symbols") { vec![Type::Number, Type::Symbol] } else { vec![Type::Number] };
    let layer_nodes = layers(&mut g, &types);
    let all: Vec<String> = layer_nodes.iter().flatten().cloned().collect();
    let edges = edges(&mut g, &layer_nodes, &all, &seeds);
    facts(&mut g, &types, &all);
    rules(&mut g, edges);
    let last = layer_nodes.last().and_then(|l| l.choose(g.rng)).cloned().unwrap_or_default();
    g.prog.outputs.push(last);
    // The seed's own outputs stay outputs: the engine runs the user's program too.
    for o in seed_outputs.into_iter().take(2) {
        if !g.prog.outputs.contains(&o) {
            g.prog.outputs.push(o);
        }
    }
    let mut p = g.prog;
    // A generated graph that does not stratify (it cannot, by construction) or leaves a rule
    // unsafe is repaired by dropping the offending rules.
    p.rules.retain(|r| plan(r).is_ok());
    p
}

/// 1 to 10 layers of 1 to 3 relations each.
fn layers<R: Rng>(g: &mut Gen<R>, types: &[Type]) -> Vec<Vec<String>> {
    let layers = g.rng.gen_range(1..=10usize);
    let mut layer_nodes: Vec<Vec<String>> = Vec::new();
    for l in 0..layers {
        let mut nodes = Vec::new();
        for _ in 0..g.rng.gen_range(1..=3) {
            let name = g.new_name();
            // Types flow from parents: a node takes the types of an earlier node that will feed it.
            let parent_types: Vec<Type> = if l == 0 {
                types.to_vec()
            } else {
                let p = layer_nodes.iter().flatten().collect::<Vec<_>>().choose(g.rng).map(|s| s.to_string());
                p.map(|p| g.prog.cols(&p).to_vec()).unwrap_or_else(|| types.to_vec())
            };
            let arity = g.rng.gen_range(1..=3);
            let cols: Vec<Type> = (0..arity).filter_map(|_| parent_types.choose(g.rng).copied()).collect();
            g.prog.decls.push(RelDecl { name: name.clone(), cols });
            nodes.push(name);
        }
        layer_nodes.push(nodes);
    }
    layer_nodes
}

/// The edges `(src, dst, rule level)` of the graph.
fn edges<R: Rng>(
    g: &mut Gen<R>,
    layer_nodes: &[Vec<String>],
    all: &[String],
    seeds: &[String],
) -> Vec<(String, String, usize)> {
    let mut edges: Vec<(String, String, usize)> = Vec::new();
    // Level-1 edges from each node to 0..3 nodes of deeper layers.
    for (l, nodes) in layer_nodes.iter().enumerate() {
        let deeper: Vec<String> = layer_nodes[l + 1..].iter().flatten().cloned().collect();
        for n in nodes {
            for _ in 0..g.rng.gen_range(0..=3) {
                if let Some(d) = deeper.choose(g.rng) {
                    edges.push((n.clone(), d.clone(), 1));
                }
            }
        }
    }
    for s in seeds {
        if let Some(d) = all.choose(g.rng) {
            edges.push((s.clone(), d.clone(), 1));
        }
    }
    // Higher-level edges: new rules of deeper nodes, type-checked (every type of the target
    // occurs in the source).
    for _ in 0..20 {
        let (Some(a), Some(b)) = (all.choose(g.rng).cloned(), all.choose(g.rng).cloned()) else { break };
        let (la, lb) = (layer_of(layer_nodes, &a), layer_of(layer_nodes, &b));
        let (ta, tb) = (g.prog.cols(&a).to_vec(), g.prog.cols(&b).to_vec());
        if la >= lb || !tb.iter().all(|t| ta.contains(t)) {
            continue;
        }
        let max = edges.iter().filter(|e| e.1 == b).map(|e| e.2).max().unwrap_or(1);
        let at_max = edges.iter().filter(|e| e.1 == b && e.2 == max).count();
        let level = if at_max > 3 { (max + 1).min(10) } else { max };
        edges.push((a, b, level));
    }
    edges
}

/// Facts for every node, from a small per-program constant pool.
fn facts<R: Rng>(g: &mut Gen<R>, types: &[Type], all: &[String]) {
    let pool: BTreeMap<Type, Vec<Val>> = types.iter().map(|t| (*t, (0..10).map(|_| g.value(*t)).collect())).collect();
    for n in all {
        let cols = g.prog.cols(n).to_vec();
        for _ in 0..g.rng.gen_range(1..=5) {
            let vals: Vec<Val> =
                cols.iter().filter_map(|t| pool.get(t).and_then(|p| p.choose(g.rng)).cloned()).collect();
            let f = Fact { rel: n.clone(), vals };
            if !g.prog.facts.contains(&f) {
                g.prog.facts_mut().push(f);
            }
        }
    }
}

/// One rule per (node, level): its incoming edges are the body atoms.
fn rules<R: Rng>(g: &mut Gen<R>, edges: Vec<(String, String, usize)>) {
    let mut by_rule: BTreeMap<(String, usize), Vec<String>> = BTreeMap::new();
    for (s, d, l) in edges {
        by_rule.entry((d, l)).or_default().push(s);
    }
    for ((head, _), srcs) in by_rule {
        let atoms = g.body(&[], &srcs);
        let mut body: Vec<Literal> = atoms.into_iter().map(Literal::Pos).collect();
        let Some(h) = g.head(&body, Some(&head)) else { continue };
        // Up to 10 attempts to make an edge negative, keeping the rule safe.
        if g.cfg.has("negation") {
            for _ in 0..10 {
                let i = g.rng.gen_range(0..body.len());
                if let Literal::Pos(a) = &body[i] {
                    let mut trial = body.clone();
                    trial[i] = Literal::Neg(a.clone());
                    if trial.iter().any(|l| matches!(l, Literal::Pos(_)))
                        && plan(&Rule { head: h.clone(), body: trial.clone() }).is_ok()
                        && g.rng.gen_bool(0.3)
                    {
                        body = trial;
                    }
                }
            }
        }
        g.prog.rules.push(Rule { head: h, body });
    }
}

fn layer_of(layers: &[Vec<String>], n: &str) -> usize {
    layers.iter().position(|l| l.iter().any(|x| x == n)).unwrap_or(0)
}

/// A DLSmith transformation of a program.
pub struct DlTransformed {
    pub program: Program,
    pub expect: Expect,
    pub steps: Vec<String>,
    pub inline: Vec<String>,
}

const EQU_STEPS: &[&str] = &[
    "EQU-ADDRELNODE",
    "EQU-ADDFACT",
    "EQU-DELFACT",
    "EQU-DELRELNODE",
    "EQU-DELRELEDGE",
    "EQU-ADDRELEDGE",
    "EQU-ADDRELEDGES",
    "EQU-ADDSELFEDGE",
    "EQU-FACTINLINE",
    "ADDEQU",
    "REMEQU",
    "MODEQU",
];
const CON_STEPS: &[&str] = &["CON-ADDFACT", "CON-DELFACT", "CON-DELRELEDGES", "CON-ADDRELEDGE", "MODCON", "ADDCON"];
const EXP_STEPS: &[&str] = &["EXP-ADDFACT", "EXP-DELFACT", "EXP-DELRELEDGE", "EXP-ADDRELEDGE", "MODEXP", "REMEXP"];

pub fn pool(e: Expect) -> Vec<&'static str> {
    let mut v: Vec<&str> = EQU_STEPS.to_vec();
    match e {
        Expect::Equal => {}
        Expect::Contract => v.extend_from_slice(CON_STEPS),
        Expect::Expand => v.extend_from_slice(EXP_STEPS),
    }
    v
}

/// A sequence of 1..=`max_seq` oracle-compatible steps; failed preconditions are no-ops.
pub fn transform<R: Rng>(rng: &mut R, p: &Program, cfg: &GenConfig, max_seq: usize) -> Option<DlTransformed> {
    let expect = *[Expect::Equal, Expect::Expand, Expect::Contract].choose(rng)?;
    transform_with(rng, p, cfg, max_seq, expect)
}

pub fn transform_with<R: Rng>(
    rng: &mut R,
    p: &Program,
    cfg: &GenConfig,
    max_seq: usize,
    expect: Expect,
) -> Option<DlTransformed> {
    let seed_rules = p.rules.iter().filter(|r| p.seed_rels.contains(&r.head.rel)).count();
    let n = rng.gen_range(1..=max_seq.max(1));
    let mut cur = p.clone();
    let mut steps = Vec::new();
    let mut inline: Vec<String> = Vec::new();
    let steps_pool = pool(expect);
    for i in 0..n {
        let name = *steps_pool.choose(rng)?;
        if name == "EQU-FACTINLINE" && i > 0 {
            continue;
        }
        let mut frozen: BTreeSet<String> = cur.seed_rels.clone();
        frozen.extend(inline.iter().cloned());
        let Some((next, what)) = step(rng, &cur, cfg, name, &frozen) else { continue };
        // One dependency graph serves validation and the features.
        let Ok(g) = crate::analysis::validate_graph(&next) else { continue };
        if !crate::analysis::features_with(&next, &g).iter().all(|f| cfg.caps.contains(*f)) {
            continue;
        }
        debug_assert!(
            invariants(&next, seed_rules).is_ok(),
            "{name} broke an invariant: {:?}",
            invariants(&next, seed_rules)
        );
        if name == "EQU-FACTINLINE" {
            inline.push(what.clone());
        }
        steps.push(format!("{name} {what}"));
        cur = next;
    }
    if steps.is_empty() {
        return None;
    }
    Some(DlTransformed { program: cur, expect, steps, inline })
}

fn nodes_with(anc: &HashMap<String, Ancestry>, p: &Program, a: Ancestry, frozen: &BTreeSet<String>) -> Vec<String> {
    p.decls
        .iter()
        .filter(|d| anc.get(&d.name) == Some(&a) && !frozen.contains(&d.name))
        .map(|d| d.name.clone())
        .collect()
}

fn new_fact<R: Rng>(rng: &mut R, p: &Program, rel: &str, cfg: &GenConfig) -> Option<Fact> {
    // Values seen in the program, so the fact can join; else a fresh one.
    let cols = p.cols(rel).to_vec();
    let mut seen: BTreeMap<Type, Vec<Val>> = BTreeMap::new();
    for f in p.facts.iter() {
        for v in &f.vals {
            seen.entry(v.ty()).or_default().push(v.clone());
        }
    }
    let vals: Vec<Val> = cols
        .iter()
        .map(|t| {
            seen.get(t).and_then(|v| v.choose(rng)).cloned().unwrap_or_else(|| match t {
                Type::Number => Val::Num(rng.gen_range(if cfg.has("negative") { -10 } else { 0 }..=10)),
                Type::Symbol => Val::Sym("a".into()),
            })
        })
        .collect();
    let f = Fact { rel: rel.to_string(), vals };
    (!p.facts.contains(&f)).then_some(f)
}

fn del_fact<R: Rng>(rng: &mut R, p: &Program, rels: &[String]) -> Option<(Program, String)> {
    let idx: Vec<usize> = p.facts.iter().enumerate().filter(|(_, f)| rels.contains(&f.rel)).map(|(i, _)| i).collect();
    let &i = idx.choose(rng)?;
    let mut q = p.clone();
    let f = q.facts_mut().remove(i);
    Some((q, f.rel))
}

/// Arguments for a new atom over `u` in `rule`: same-typed positive variables of the rule, or
/// fresh variables where it has none of that type.
fn atom_args<R: Rng>(rng: &mut R, p: &Program, rule: &Rule, u: &str) -> Vec<Term> {
    let types = p.var_types(rule);
    let mut by_type: BTreeMap<Type, Vec<String>> = BTreeMap::new();
    for l in &rule.body {
        if let Literal::Pos(a) = l {
            for t in &a.args {
                if let (Term::Var(v), Some(ty)) = (
                    t,
                    types.get(match t {
                        Term::Var(v) => v.as_str(),
                        _ => "",
                    }),
                ) {
                    by_type.entry(*ty).or_default().push(v.clone());
                }
            }
        }
    }
    let mut used: BTreeSet<String> = rule.vars().into_iter().collect();
    p.cols(u)
        .to_vec()
        .iter()
        .map(|ty| match by_type.get(ty).and_then(|v| v.choose(rng)) {
            Some(v) if rng.gen_bool(0.8) => Term::Var(v.clone()),
            _ => {
                let v = fresh_var(&used);
                used.insert(v.clone());
                Term::Var(v)
            }
        })
        .collect()
}

/// A new rule for `v` whose body is one atom over `u` binding every head variable (types
/// permitting): `v(X..) :- u(..)`.
fn rule_from<R: Rng>(rng: &mut R, p: &Program, v: &str, u: &str) -> Option<(Rule, Atom)> {
    let ucols = p.cols(u).to_vec();
    let args: Vec<Term> = (0..ucols.len()).map(|i| Term::Var(pool_name(i))).collect();
    let mut head = Vec::new();
    for t in p.cols(v) {
        let choices: Vec<usize> = (0..ucols.len()).filter(|i| ucols[*i] == *t).collect();
        head.push(Term::Var(pool_name(*choices.choose(rng)?)));
    }
    let a = Atom { rel: u.to_string(), args };
    Some((Rule { head: Atom { rel: v.to_string(), args: head }, body: vec![Literal::Pos(a.clone())] }, a))
}

/// Applies one named step; `None` when its precondition finds nothing.
fn step<R: Rng>(
    rng: &mut R,
    p: &Program,
    cfg: &GenConfig,
    name: &str,
    frozen: &BTreeSet<String>,
) -> Option<(Program, String)> {
    let anc = ancestry(p);
    let free: Vec<String> = p.decls.iter().map(|d| d.name.clone()).filter(|n| !frozen.contains(n)).collect();
    let st = Step { p, cfg, name, frozen, anc, free };
    // The ancestry the changed relation must have: outputs that do not depend on it stay
    // equal; a change that derives more for it (a fact added, a body atom removed) can only
    // expand them under positive ancestry and contract them under negative, one that derives
    // less the reverse.
    match name {
        "EQU-ADDRELNODE" => st.add_rel_node(rng),
        "EQU-ADDFACT" => st.add_fact(rng, Ancestry::None),
        "CON-ADDFACT" => st.add_fact(rng, Ancestry::Neg),
        "EXP-ADDFACT" => st.add_fact(rng, Ancestry::Pos),
        "EQU-DELFACT" => st.del_facts(rng, Ancestry::None),
        "CON-DELFACT" => st.del_facts(rng, Ancestry::Pos),
        "EXP-DELFACT" => st.del_facts(rng, Ancestry::Neg),
        "EQU-DELRELNODE" => st.del_rel_node(rng),
        "EQU-DELRELEDGE" => st.del_rel_edge(rng, Ancestry::None),
        "EXP-DELRELEDGE" => st.del_rel_edge(rng, Ancestry::Pos),
        "CON-DELRELEDGES" => st.del_rel_edges(rng),
        "EQU-ADDRELEDGE" => st.add_rel_edge(rng, Ancestry::None),
        "CON-ADDRELEDGE" => st.add_rel_edge(rng, Ancestry::Pos),
        "EXP-ADDRELEDGE" => st.add_pos_rule(rng),
        "EQU-ADDRELEDGES" => st.add_neg_rule(rng),
        "EQU-ADDSELFEDGE" => st.add_self_edge(rng),
        "EQU-FACTINLINE" => st.fact_inline(rng),
        "ADDEQU" | "REMEQU" | "MODEQU" | "MODCON" | "ADDCON" | "MODEXP" | "REMEXP" => st.rule_step(rng),
        _ => None,
    }
}

/// What one step of a sequence looks at: the program, its ancestry and its free relations.
struct Step<'a> {
    p: &'a Program,
    cfg: &'a GenConfig,
    name: &'a str,
    frozen: &'a BTreeSet<String>,
    anc: HashMap<String, Ancestry>,
    free: Vec<String>,
}

impl Step<'_> {
    fn rules_of(&self, pred: &dyn Fn(&str) -> bool) -> Vec<usize> {
        self.p
            .rules
            .iter()
            .enumerate()
            .filter(|(_, r)| pred(&r.head.rel) && !self.frozen.contains(&r.head.rel))
            .map(|(i, _)| i)
            .collect()
    }

    fn a_of(&self, n: &str) -> Ancestry {
        self.anc.get(n).copied().unwrap_or(Ancestry::None)
    }

    /// The copy is made only once a step's precondition found something: most draws of a
    /// long sequence do not apply, and copying the program was most of their cost.
    fn copy(&self) -> Program {
        self.p.clone()
    }

    fn add_rel_node<R: Rng>(&self, rng: &mut R) -> Option<(Program, String)> {
        let mut names: BTreeSet<String> = self.p.decls.iter().map(|d| d.name.clone()).collect();
        let n = (0..).map(|i| format!("node{i}")).find(|n| names.insert(n.clone()))?;
        let cols = (0..rng.gen_range(1..=3))
            .map(|_| if self.cfg.has("symbols") && rng.gen_bool(0.3) { Type::Symbol } else { Type::Number })
            .collect();
        let mut q = self.copy();
        q.decls.push(RelDecl { name: n.clone(), cols });
        Some((q, n))
    }

    fn add_fact<R: Rng>(&self, rng: &mut R, want: Ancestry) -> Option<(Program, String)> {
        let v = nodes_with(&self.anc, self.p, want, self.frozen).choose(rng)?.clone();
        let f = new_fact(rng, self.p, &v, self.cfg)?;
        let mut q = self.copy();
        q.facts_mut().push(f);
        Some((q, v))
    }

    fn del_facts<R: Rng>(&self, rng: &mut R, want: Ancestry) -> Option<(Program, String)> {
        del_fact(rng, self.p, &nodes_with(&self.anc, self.p, want, self.frozen))
    }

    fn del_rel_node<R: Rng>(&self, rng: &mut R) -> Option<(Program, String)> {
        let v = nodes_with(&self.anc, self.p, Ancestry::None, self.frozen).choose(rng)?.clone();
        if self.p.outputs.contains(&v) {
            return None;
        }
        let mut q = self.copy();
        q.decls.retain(|d| d.name != v);
        q.facts_mut().retain(|f| f.rel != v);
        q.rules.retain(|r| r.head.rel != v);
        for r in q.rules.iter_mut() {
            r.body.retain(|l| l.atom().is_none_or(|a| a.rel != v));
        }
        // Must not unground a child's rule (its children are outside the ancestry too).
        q.rules.iter().all(|r| plan(r).is_ok() && r.body.iter().any(|l| matches!(l, Literal::Pos(_)))).then_some((q, v))
    }

    fn del_rel_edge<R: Rng>(&self, rng: &mut R, want: Ancestry) -> Option<(Program, String)> {
        let &ri = self.rules_of(&|h| self.a_of(h) == want).choose(rng)?;
        let k = rng.gen_range(0..self.p.rules[ri].body.len());
        if matches!(self.p.rules[ri].body[k], Literal::Agg { .. }) {
            return None;
        }
        let mut q = self.copy();
        q.rules[ri].body.remove(k);
        let r = &q.rules[ri];
        let head = r.head.rel.clone();
        (plan(r).is_ok() && r.body.iter().any(|l| matches!(l, Literal::Pos(_)))).then_some((q, head))
    }

    fn del_rel_edges<R: Rng>(&self, rng: &mut R) -> Option<(Program, String)> {
        let v = nodes_with(&self.anc, self.p, Ancestry::Pos, self.frozen).choose(rng)?.clone();
        if !self.p.rules.iter().any(|r| r.head.rel == v) {
            return None;
        }
        let mut q = self.copy();
        q.rules.retain(|r| r.head.rel != v);
        Some((q, v))
    }

    fn add_rel_edge<R: Rng>(&self, rng: &mut R, want: Ancestry) -> Option<(Program, String)> {
        let &ri = self.rules_of(&|h| self.a_of(h) == want).choose(rng)?;
        if self.p.rules[ri].has_agg() {
            return None;
        }
        let u = self.p.decls.choose(rng)?.name.clone();
        let args = atom_args(rng, self.p, &self.p.rules[ri], &u);
        let mut q = self.copy();
        q.rules[ri].body.push(Literal::Pos(Atom { rel: u.clone(), args }));
        Some((q, format!("{u}->{}", self.p.rules[ri].head.rel)))
    }

    fn add_pos_rule<R: Rng>(&self, rng: &mut R) -> Option<(Program, String)> {
        let v = nodes_with(&self.anc, self.p, Ancestry::Pos, self.frozen).choose(rng)?.clone();
        let u = self.p.decls.choose(rng)?.name.clone();
        let (r, _) = rule_from(rng, self.p, &v, &u)?;
        let mut q = self.copy();
        q.rules.push(r);
        Some((q, format!("{u}->{v}")))
    }

    fn add_neg_rule<R: Rng>(&self, rng: &mut R) -> Option<(Program, String)> {
        if !self.cfg.has("negation") {
            return None;
        }
        let v = self.free.choose(rng)?.clone();
        // u must not be a descendant of v: the negative edge would close a cycle.
        let g = DepGraph::new(self.p);
        let down = g.downstream(*g.index.get(&v)?);
        let cands: Vec<&String> =
            self.p.decls.iter().map(|d| &d.name).filter(|u| g.index.get(*u).is_some_and(|&i| !down[i])).collect();
        let u = (*cands.choose(rng)?).clone();
        let (mut r, a) = rule_from(rng, self.p, &v, &u)?;
        r.body.push(Literal::Neg(a));
        let mut q = self.copy();
        q.rules.push(r);
        Some((q, format!("{u}->{v}")))
    }

    fn add_self_edge<R: Rng>(&self, rng: &mut R) -> Option<(Program, String)> {
        let v = self.free.choose(rng)?.clone();
        let args: Vec<Term> = (0..self.p.cols(&v).len()).map(|i| Term::Var(pool_name(i))).collect();
        let a = Atom { rel: v.clone(), args };
        let mut q = self.copy();
        q.rules.push(Rule { head: a.clone(), body: vec![Literal::Pos(a)] });
        Some((q, v))
    }

    fn fact_inline<R: Rng>(&self, rng: &mut R) -> Option<(Program, String)> {
        let with_rules: Vec<String> =
            self.free.iter().filter(|v| self.p.rules.iter().any(|r| r.head.rel == **v)).cloned().collect();
        let v = with_rules.choose(rng)?.clone();
        let mut q = self.copy();
        q.rules.retain(|r| r.head.rel != v);
        Some((q, v))
    }

    fn rule_step<R: Rng>(&self, rng: &mut R) -> Option<(Program, String)> {
        // queryFuzz's rule transformations, now in any stratum: EQU anywhere, CON and EXP
        // on rules of positive-ancestry relations.
        let want_pos = matches!(self.name, "MODCON" | "ADDCON" | "MODEXP" | "REMEXP");
        let cands = self.rules_of(&|h| !want_pos || self.a_of(h) == Ancestry::Pos);
        let &ri = cands.choose(rng)?;
        let r = &self.p.rules[ri];
        if r.has_agg() {
            return None;
        }
        let nr = match self.name {
            "ADDEQU" => qf::add_eq(rng, r),
            "REMEQU" => qf::rem_eq(rng, r),
            "MODEQU" => qf::mod_eq(rng, r),
            "MODCON" => qf::mod_con(rng, self.p, r),
            "ADDCON" => qf::add_con(rng, self.p, r),
            "MODEXP" => qf::mod_exp(rng, r),
            _ => qf::rem_exp(rng, r),
        }?;
        if plan(&nr).is_err() {
            return None;
        }
        let head = nr.head.rel.clone();
        let mut q = self.copy();
        q.rules[ri] = nr;
        Some((q, head))
    }
}
