//! GDsmith's feedback (extraction §2.6–2.7): a pool of the queries that returned rows on the
//! current graph, the three structural mutations that derive new queries from them, and the
//! frequency list of property keys. A mutation re-uses the context the seed query was
//! generated in, so the mutant meets the same semantic requirements as a fresh query.

use crate::model::{Clause, Expr, Item, Query, Return, Ty};
use crate::query::{self, Context, Fact, Freq, QueryGen, Var};
use rand::Rng;

/// A retained query has at most this many clauses, its RETURN included: a mutant of a longer
/// one takes long to run (GDsmith's repository bound).
pub const MAX_SEED_LEN: usize = 8;

/// A query that returned rows, with where its generation stood.
#[derive(Clone, Debug)]
pub struct Seed {
    pub query: Query,
    pub ctx: Context,
    /// Made for a row-wise oracle (no aggregate, DISTINCT, ORDER BY or LIMIT).
    pub rowwise: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mutation {
    /// The RETURN becomes a WITH, and new clauses and a RETURN follow, generated from the
    /// context at the end of the seed.
    DelayReturn,
    /// A WITH (not the first clause) becomes the RETURN, without its WHERE; later clauses go.
    AdvanceReturn,
    /// The WHERE of one MATCH, OPTIONAL MATCH or WITH goes.
    RemoveCondition,
}

impl Mutation {
    pub const ALL: [Mutation; 3] = [Mutation::DelayReturn, Mutation::AdvanceReturn, Mutation::RemoveCondition];

    /// The mutant of `seed` and its context, or `None` where the mutation does not apply.
    pub fn apply<R: Rng>(self, seed: &Seed, qg: &mut QueryGen<'_, R>) -> Option<(Query, Context)> {
        match self {
            Mutation::DelayReturn => {
                let mut clauses = seed.query.clauses.clone();
                let r = &seed.query.ret;
                clauses.push(Clause::With { distinct: r.distinct, items: r.items.clone(), filter: None });
                let n = 1 + qg.pick(2);
                let q = qg.resume(&seed.ctx, clauses, n);
                Some((q, qg.context()))
            }
            Mutation::AdvanceReturn => advance_return(seed, qg),
            Mutation::RemoveCondition => remove_condition(seed, qg),
        }
    }
}

fn advance_return<R: Rng>(seed: &Seed, qg: &mut QueryGen<'_, R>) -> Option<(Query, Context)> {
    let withs: Vec<usize> =
        (1..seed.query.clauses.len()).filter(|i| matches!(seed.query.clauses[*i], Clause::With { .. })).collect();
    let at = *withs.get(qg.pick(withs.len()))?;
    let Clause::With { distinct, items, .. } = &seed.query.clauses[at] else { return None };
    let env = seed.ctx.envs.get(at)?;
    let entity = |alias: &str| {
        env.iter().find(|v| v.name == alias).is_some_and(|v| matches!(v.fact, Fact::Node(_) | Fact::Rel(_)))
    };
    let mut ret_env = Vec::new();
    // A node or relationship passed on is returned by its `id`: whole entities are never
    // returned (their form differs between engines).
    let items: Vec<Item> = items
        .iter()
        .map(|it| match &it.expr {
            Expr::Var(v) if entity(&it.alias) => {
                ret_env.push(Var { name: it.alias.clone(), fact: Fact::Val(Ty::Int) });
                Item { expr: query::id_of(v), alias: it.alias.clone() }
            }
            _ => {
                ret_env.extend(env.iter().find(|v| v.name == it.alias).cloned());
                it.clone()
            }
        })
        .collect();
    let query = Query {
        clauses: seed.query.clauses[..at].to_vec(),
        ret: Return { distinct: *distinct, items, order: false, limit: None },
    };
    let ctx = Context { envs: seed.ctx.envs[..at].to_vec(), ret_env, ..seed.ctx.clone() };
    Some((query, ctx))
}

fn remove_condition<R: Rng>(seed: &Seed, qg: &mut QueryGen<'_, R>) -> Option<(Query, Context)> {
    // A MATCH keeps the conjuncts that keep its relationships distinct: without them the
    // engines' pattern semantics differ.
    let bare = |c: &Clause| match c {
        Clause::Match { patterns, filter: Some(f), .. } => Some(f) != query::trail(patterns).as_ref(),
        Clause::With { filter: Some(_), .. } => true,
        _ => false,
    };
    let conditioned: Vec<usize> = (0..seed.query.clauses.len()).filter(|i| bare(&seed.query.clauses[*i])).collect();
    let at = *conditioned.get(qg.pick(conditioned.len()))?;
    let mut query = seed.query.clone();
    match &mut query.clauses[at] {
        Clause::Match { patterns, filter, .. } => *filter = query::trail(patterns),
        Clause::With { filter, .. } => *filter = None,
        Clause::Unwind { .. } => return None,
    }
    Some((query, seed.ctx.clone()))
}

/// Adds the property keys `q` reads to the frequency list (each occurrence once; `id` is no
/// schema key).
pub fn count_keys(q: &Query, freq: &mut Freq) {
    fn walk(e: &Expr, freq: &mut Freq) {
        match e {
            Expr::Prop(_, k) if k != "id" => *freq.entry(k.clone()).or_insert(0) += 1,
            e => e.children().into_iter().for_each(|c| walk(c, freq)),
        }
    }
    for c in &q.clauses {
        match c {
            Clause::Match { patterns, filter, .. } => {
                for p in patterns {
                    let inline =
                        p.start.props.iter().chain(p.hops.iter().flat_map(|(r, n)| r.props.iter().chain(&n.props)));
                    inline.for_each(|(k, _)| *freq.entry(k.clone()).or_insert(0) += 1);
                }
                filter.iter().for_each(|f| walk(f, freq));
            }
            Clause::With { items, filter, .. } => {
                items.iter().for_each(|i| walk(&i.expr, freq));
                filter.iter().for_each(|f| walk(f, freq));
            }
            Clause::Unwind { list, .. } => list.iter().for_each(|e| walk(e, freq)),
        }
    }
    q.ret.items.iter().for_each(|i| walk(&i.expr, freq));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Case;

    /// Each mutation of 300 generated queries on their graphs: its structural promise, a
    /// context that matches the mutant, and the generator's scope and type rules kept.
    #[test]
    fn mutants_keep_their_promise_and_the_generators_rules() {
        let caps = |_| true;
        let mut applied = [0u32; 3];
        for i in 0..300u64 {
            let mut rng = crosscheck_core::rng(11, i);
            let (graph, pools) = crate::gen::graph(&mut rng, i, true, false);
            let rowwise = i % 2 == 0;
            let mut qg = QueryGen::new(&mut rng, &graph, &pools, &caps, rowwise);
            let seed = Seed { query: qg.query(), ctx: qg.context(), rowwise };
            assert_eq!(seed.ctx.envs.len(), seed.query.clauses.len());
            for (k, m) in Mutation::ALL.into_iter().enumerate() {
                let Some((q, ctx)) = m.apply(&seed, &mut qg) else { continue };
                applied[k] += 1;
                assert_eq!(ctx.envs.len(), q.clauses.len(), "{m:?}");
                let (old, new) = (&seed.query.clauses, &q.clauses);
                match m {
                    Mutation::DelayReturn => {
                        assert_eq!(&new[..old.len()], &old[..]);
                        let Clause::With { items, .. } = &new[old.len()] else { panic!("{m:?}: no WITH") };
                        assert_eq!(items, &seed.query.ret.items);
                    }
                    Mutation::AdvanceReturn => {
                        assert!(new.len() < old.len() && new[..] == old[..new.len()]);
                        assert!(matches!(old[new.len()], Clause::With { .. }));
                        assert!(!q.ret.order && q.ret.limit.is_none());
                    }
                    Mutation::RemoveCondition => {
                        assert_eq!(new.len(), old.len());
                        let changed: Vec<usize> = (0..old.len()).filter(|j| old[*j] != new[*j]).collect();
                        assert_eq!(changed.len(), 1, "{m:?}");
                        match &new[changed[0]] {
                            Clause::Match { patterns, filter, .. } => assert_eq!(filter, &query::trail(patterns)),
                            Clause::With { filter, .. } => assert_eq!(filter, &None),
                            Clause::Unwind { .. } => panic!("an UNWIND has no WHERE"),
                        }
                    }
                }
                let case = Case { index: i, graph: graph.clone(), query: q, split: None, transform: None };
                assert!(crate::reduce::valid(&case), "{m:?} of {}", crate::print::query(&seed.query));
            }
        }
        // Each mutation applies to a fair share of queries.
        assert!(applied.iter().all(|n| *n > 50), "{applied:?}");
    }
}
