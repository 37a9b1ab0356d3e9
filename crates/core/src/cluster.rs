//! Clustered test execution (seed 004, chapter 5): tests that share a prefix of statements run
//! that prefix once; a depth-first walk of the test trie branches with an undo.
//!
//! Language-neutral: the trie's statements are text for one [`Engine`], and what an undo is
//! spelled as comes from the leg ([`UndoTexts`], one per dialect of the leg).
//!
//! # API (agreed with the summary enumerator; the shape of `/work/notes/cluster-api.md`)
//! - [`TestTree`]: the trie, produced lazily. [`TestTree::setup`] runs once on a fresh engine
//!   (the schema); [`TestTree::prefix`] is the root's own code segment, which every test of the
//!   seed's loop runs after the clear (Fig. 5.1's four `addToStudent` calls), run once here and
//!   never undone; [`TestTree::children`] gives each child with the [`Step`] that reaches it;
//!   [`TestTree::queries`] the pure statements of a node, which never branch the trie.
//! - [`Undo`]: how leaving a node undoes its step: [`Undo::Inverse`] (the step's own inverse
//!   statements, the seed's per-statement undo), [`Undo::Savepoint`] (a savepoint per node
//!   that has children, one rollback per node left), [`Undo::Reset`] (clear and replay the path
//!   from the root: the re-execution the seed compares against). [`UndoChoice`] adds `auto`,
//!   which the leg's [`UndoTexts::auto`] resolves per engine.
//! - [`execute`] walks the trie on one engine; [`execute_unclustered`] is the seed's per-query
//!   loop (clear, prefix, the node's whole path, the query, for every query of every node), for
//!   `--no-cluster` and the comparison. Both take [`Settings`], whose [`Part`] splits the trie
//!   among workers at the depth-1 subtrees (child `i` of the root goes to worker `i mod N`;
//!   worker 0 also runs the root's queries).
//! - Answers and failed steps go to an [`Observer`] (any `FnMut(u64, &Outcome)` is one).
//! - [`Counters`]: what the engine was asked. `calls` is every [`Engine::run`]; it splits into
//!   `statements` (setup, clear, prefix, steps), `queries`, `undos` (every call spent going
//!   back: inverse statements, rollbacks, a clear and its replay) and `marks` (what opens and
//!   ends a transaction, sets and releases a savepoint). The seed counts database calls without the savepoint marks
//!   (its `setSavepoint` sits in an undo object's constructor): [`Counters::seed_calls`].
//!   [`Engine::reset`] (a fresh database) is no statement: `resets` counts it apart.
//!   `per_query_loop_calls` is what [`execute_unclustered`] would send for the same part.
//!
//! - [`uniform::Uniform`]: a full trie of given shape (the seed's examples, tests, benchmark).
//!
//! After [`execute`] the engine is back at the root's state (every node left is undone; the
//! root is not, as the seed's prose says), outside any transaction.

pub mod uniform;

use crate::engine::{Engine, SetupError};
use crate::outcome::Outcome;
use serde::Serialize;
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// Statements that take the engine from a node's parent to the node, and back.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Step {
    pub apply: Vec<String>,
    /// Run in this order to undo `apply`; empty when the step leaves nothing on the engine to
    /// undo (a read, or state kept outside the engine).
    pub inverse: Vec<String>,
}

/// A test trie, produced lazily (the summary enumerator implements it over its orderly search).
pub trait TestTree {
    type Node;
    fn root(&mut self) -> Self::Node;
    /// Statements run once on the fresh engine before anything else (the schema); never
    /// undone, never repeated (the per-query loop clears data, not the schema).
    fn setup(&mut self) -> Vec<String>;
    /// The root's own statements: every test begins with them after the clear. Run once by
    /// [`execute`] and never undone; run before every query by [`execute_unclustered`].
    fn prefix(&mut self) -> Vec<String> {
        Vec::new()
    }
    /// The children of a node in search order, each with the step that reaches it.
    fn children(&mut self, node: &Self::Node) -> Vec<(Step, Self::Node)>;
    /// Pure statements (queries) run at this node; ids are the caller's (to judge the answer).
    fn queries(&mut self, node: &Self::Node) -> Vec<(u64, String)>;
}

/// How leaving a node undoes its step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Undo {
    Inverse,
    Savepoint,
    Reset,
}

/// `--undo auto|inverse|savepoint|reset`: `auto` is the leg's choice per engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UndoChoice {
    Auto,
    Use(Undo),
}

impl UndoChoice {
    pub fn resolve(self, texts: &dyn UndoTexts) -> Undo {
        match self {
            UndoChoice::Auto => texts.auto(),
            UndoChoice::Use(u) => u,
        }
    }
}

impl FromStr for UndoChoice {
    type Err = String;
    fn from_str(s: &str) -> Result<UndoChoice, String> {
        Ok(match s {
            "auto" => UndoChoice::Auto,
            "inverse" => UndoChoice::Use(Undo::Inverse),
            "savepoint" => UndoChoice::Use(Undo::Savepoint),
            "reset" => UndoChoice::Use(Undo::Reset),
            other => return Err(format!("unknown undo \"{other}\": auto, inverse, savepoint or reset")),
        })
    }
}

impl fmt::Display for Undo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Undo::Inverse => "inverse",
            Undo::Savepoint => "savepoint",
            Undo::Reset => "reset",
        })
    }
}

/// What an undo needs from the leg's dialect.
pub trait UndoTexts {
    /// Opens the transaction savepoints live in, where the engine needs one (outside a
    /// transaction a savepoint may be an error, or end with the statement under autocommit).
    fn begin(&self) -> Option<String>;
    /// Ends what `begin` opened, keeping the root's state.
    fn commit(&self) -> Option<String>;
    /// `None`: the engine has no savepoints.
    fn savepoint(&self, depth: usize) -> Option<String>;
    fn rollback_to(&self, depth: usize) -> String;
    fn release(&self, depth: usize) -> String;
    /// The clear: statements that take the engine back to the state right after setup.
    fn reset(&self) -> Vec<String>;
    /// An error inside a transaction aborts it until a rollback, so with
    /// savepoints a node whose queries may fail needs one of its own.
    fn errors_abort(&self) -> bool {
        false
    }
    /// The cheapest correct undo on this engine, for `--undo auto`.
    fn auto(&self) -> Undo;
}

/// What one execution asked of its engine.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Counters {
    /// Every [`Engine::run`]: `statements + queries + undos + marks`.
    pub calls: u64,
    pub statements: u64,
    pub queries: u64,
    pub undos: u64,
    pub marks: u64,
    /// [`Engine::reset`]s (fresh databases), not among `calls`.
    pub resets: u64,
    /// Fresh databases and replays after a crash, a timeout or a failed undo.
    pub recoveries: u64,
    /// Steps the engine refused; their subtrees were skipped.
    pub failed_steps: u64,
    /// Nodes visited (the root included).
    pub nodes: u64,
    pub seconds: f64,
    /// The calls the seed's per-query loop would make for the same tests.
    pub per_query_loop_calls: u64,
}

impl Counters {
    /// Database calls as the seed counts them: savepoint marks are not calls there.
    pub fn seed_calls(&self) -> u64 {
        self.calls - self.marks
    }

    /// Adds another worker's counters (seconds add up as work, not wall time).
    pub fn add(&mut self, o: &Counters) {
        self.calls += o.calls;
        self.statements += o.statements;
        self.queries += o.queries;
        self.undos += o.undos;
        self.marks += o.marks;
        self.resets += o.resets;
        self.recoveries += o.recoveries;
        self.failed_steps += o.failed_steps;
        self.nodes += o.nodes;
        self.seconds += o.seconds;
        self.per_query_loop_calls += o.per_query_loop_calls;
    }
}

/// Which depth-1 subtrees one worker runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    pub worker: usize,
    pub workers: usize,
}

impl Part {
    pub const WHOLE: Part = Part { worker: 0, workers: 1 };

    fn takes(self, child: usize) -> bool {
        self.workers <= 1 || child % self.workers == self.worker
    }

    /// The queries of a node at `depth` this part runs: the root's are worker 0's.
    fn queries<T: TestTree>(self, tree: &mut T, node: &T::Node, depth: usize) -> Vec<(u64, String)> {
        if depth == 0 && self.worker != 0 {
            return Vec::new();
        }
        tree.queries(node)
    }
}

/// How to execute.
#[derive(Clone, Copy)]
pub struct Settings<'a> {
    pub undo: Undo,
    pub texts: &'a dyn UndoTexts,
    /// Per statement.
    pub limit: Duration,
    pub part: Part,
}

/// Where answers and refused steps go.
pub trait Observer {
    fn answer(&mut self, query: u64, outcome: &Outcome);
    /// The engine refused `statement` of a step; the step's subtree is skipped.
    fn step_failed(&mut self, _statement: &str, _outcome: &Outcome) {}
}

impl<F: FnMut(u64, &Outcome)> Observer for F {
    fn answer(&mut self, query: u64, outcome: &Outcome) {
        self(query, outcome)
    }
}

/// Why an execution stopped.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    #[error("{0}")]
    Setup(#[from] SetupError),
    /// A statement the execution cannot go on without (setup, clear, prefix, a mark, a replay).
    #[error("{statement}: {outcome}")]
    Statement { statement: String, outcome: Outcome },
    #[error("{0} undo is not available on this engine")]
    Unsupported(Undo),
}

/// What a statement counts as.
#[derive(Clone, Copy)]
enum Tally {
    Statement,
    Query,
    Undo,
    Mark,
}

/// Whether an answer means the engine is fine, refused the statement, or may be gone.
fn health(o: &Outcome) -> Health {
    match o {
        Outcome::Done | Outcome::Rows(_) | Outcome::Verdicts { .. } => Health::Ok,
        Outcome::Error { .. } => Health::Refused,
        Outcome::Timeout { .. } | Outcome::Crash { .. } => Health::Lost,
    }
}

#[derive(PartialEq, Eq)]
enum Health {
    Ok,
    Refused,
    Lost,
}

/// The engine, the counters, and the statements every state is rebuilt from.
struct Session<'a> {
    engine: &'a mut dyn Engine,
    s: Settings<'a>,
    c: Counters,
    setup: Vec<String>,
    clear: Vec<String>,
    prefix: Vec<String>,
}

impl<'a> Session<'a> {
    fn open<T: TestTree>(tree: &mut T, engine: &'a mut dyn Engine, s: Settings<'a>) -> Session<'a> {
        let (setup, clear, prefix) = (tree.setup(), s.texts.reset(), tree.prefix());
        Session { engine, s, c: Counters::default(), setup, clear, prefix }
    }

    fn run(&mut self, text: &str, tally: Tally) -> Outcome {
        self.c.calls += 1;
        match tally {
            Tally::Statement => self.c.statements += 1,
            Tally::Query => self.c.queries += 1,
            Tally::Undo => self.c.undos += 1,
            Tally::Mark => self.c.marks += 1,
        }
        self.engine.run(text, self.s.limit)
    }

    /// Runs statements the execution needs to succeed.
    fn must(&mut self, texts: &[String], tally: Tally) -> Result<(), ClusterError> {
        for t in texts {
            let o = self.run(t, tally);
            if health(&o) != Health::Ok {
                return Err(ClusterError::Statement { statement: t.clone(), outcome: o });
            }
        }
        Ok(())
    }

    fn must_one(&mut self, text: Option<String>, tally: Tally) -> Result<(), ClusterError> {
        match text {
            Some(t) => self.must(&[t], tally),
            None => Ok(()),
        }
    }

    /// A fresh engine with the schema.
    fn fresh(&mut self, tally: Tally) -> Result<(), ClusterError> {
        self.engine.reset()?;
        self.c.resets += 1;
        let setup = std::mem::take(&mut self.setup);
        let r = self.must(&setup, tally);
        self.setup = setup;
        r
    }

    /// The clear and the root's own statements: the state every test starts from.
    fn root_state(&mut self, tally: Tally) -> Result<(), ClusterError> {
        let (clear, prefix) = (std::mem::take(&mut self.clear), std::mem::take(&mut self.prefix));
        let r = self.must(&clear, tally).and_then(|()| self.must(&prefix, tally));
        (self.clear, self.prefix) = (clear, prefix);
        r
    }

    /// What the per-query loop sends for one query whose path has `path_len` statements.
    fn loop_calls(&self, path_len: usize) -> u64 {
        (self.clear.len() + self.prefix.len() + path_len + 1) as u64
    }

    fn finish(mut self, start: Instant) -> Counters {
        self.c.seconds = start.elapsed().as_secs_f64();
        self.c.per_query_loop_calls += self.setup.len() as u64;
        self.c
    }
}

/// Runs the trie depth-first on `engine`, starting from a fresh database; see the module doc.
pub fn execute<T: TestTree>(
    tree: &mut T,
    engine: &mut dyn Engine,
    settings: Settings<'_>,
    observer: &mut dyn Observer,
) -> Result<Counters, ClusterError> {
    let start = Instant::now();
    if settings.undo == Undo::Savepoint && settings.texts.savepoint(0).is_none() {
        return Err(ClusterError::Unsupported(Undo::Savepoint));
    }
    let mut w = Walk { s: Session::open(tree, engine, settings), path: Vec::new(), marked: Vec::new(), path_len: 0 };
    w.s.fresh(Tally::Statement)?;
    w.s.root_state(Tally::Statement)?;
    if settings.undo == Undo::Savepoint {
        w.s.must_one(settings.texts.begin(), Tally::Mark)?;
    }
    let root = tree.root();
    if w.visit(tree, &root, observer)? {
        let release = settings.texts.release(0);
        w.s.must(&[release], Tally::Mark)?;
    }
    if settings.undo == Undo::Savepoint {
        w.s.must_one(settings.texts.commit(), Tally::Mark)?;
    }
    Ok(w.s.finish(start))
}

/// The clustered walk: the session, the steps from the root to the current node, and which
/// nodes on that path hold a savepoint.
struct Walk<'a> {
    s: Session<'a>,
    path: Vec<Step>,
    /// `marked[d]`: the node at depth `d` on the path set savepoint `d`.
    marked: Vec<bool>,
    /// Statements in `path`'s applies.
    path_len: usize,
}

impl Walk<'_> {
    fn depth(&self) -> usize {
        self.path.len()
    }

    /// Runs a node's queries and subtrees; true if it set a savepoint.
    fn visit<T: TestTree>(
        &mut self,
        tree: &mut T,
        node: &T::Node,
        obs: &mut dyn Observer,
    ) -> Result<bool, ClusterError> {
        self.s.c.nodes += 1;
        let depth = self.depth();
        let part = self.s.s.part;
        let queries = part.queries(tree, node, depth);
        let children = tree.children(node);
        let texts = self.s.s.texts;
        let mark =
            self.s.s.undo == Undo::Savepoint && (!children.is_empty() || (!queries.is_empty() && texts.errors_abort()));
        if mark {
            self.s.must_one(texts.savepoint(depth), Tally::Mark)?;
        }
        self.marked.push(mark);
        for (id, q) in &queries {
            self.s.c.per_query_loop_calls += self.s.loop_calls(self.path_len);
            let o = self.s.run(q, Tally::Query);
            obs.answer(*id, &o);
            match health(&o) {
                Health::Ok => {}
                // The transaction is aborted until a rollback to this node's savepoint.
                Health::Refused if mark && texts.errors_abort() => {
                    self.s.must(&[texts.rollback_to(depth)], Tally::Undo)?;
                }
                Health::Refused => {}
                Health::Lost => self.recover()?,
            }
        }
        for (i, (step, child)) in children.into_iter().enumerate() {
            if depth == 0 && !part.takes(i) {
                continue;
            }
            if self.enter(step, obs)? {
                self.visit(tree, &child, obs)?;
                self.leave()?;
            }
        }
        self.marked.pop();
        Ok(mark)
    }

    /// Applies `step`; false (with the state back at the current node) if the engine refused it.
    fn enter(&mut self, step: Step, obs: &mut dyn Observer) -> Result<bool, ClusterError> {
        for (k, t) in step.apply.iter().enumerate() {
            let o = self.s.run(t, Tally::Statement);
            let h = health(&o);
            if h == Health::Ok {
                continue;
            }
            obs.step_failed(t, &o);
            self.s.c.failed_steps += 1;
            let depth = self.depth();
            if h == Health::Lost || (k > 0 && self.s.s.undo != Undo::Savepoint) {
                // Part of the step took effect (or the engine is gone): rebuild this node.
                self.recover()?;
            } else if self.s.s.undo == Undo::Savepoint {
                self.s.must(&[self.s.s.texts.rollback_to(depth)], Tally::Undo)?;
            }
            return Ok(false);
        }
        self.path_len += step.apply.len();
        self.path.push(step);
        Ok(true)
    }

    /// Leaves the current node for its parent.
    fn leave(&mut self) -> Result<(), ClusterError> {
        let Some(step) = self.path.pop() else { return Ok(()) };
        self.path_len -= step.apply.len();
        let parent = self.depth();
        match self.s.s.undo {
            Undo::Inverse => {
                for t in &step.inverse {
                    let o = self.s.run(t, Tally::Undo);
                    if health(&o) != Health::Ok {
                        return self.recover();
                    }
                }
                Ok(())
            }
            Undo::Savepoint => {
                let o = self.s.run(&self.s.s.texts.rollback_to(parent), Tally::Undo);
                if health(&o) != Health::Ok {
                    return self.recover();
                }
                Ok(())
            }
            Undo::Reset => {
                self.s.root_state(Tally::Undo)?;
                self.replay(Tally::Undo)
            }
        }
    }

    /// Applies the path's steps again, setting the savepoints the path holds.
    fn replay(&mut self, tally: Tally) -> Result<(), ClusterError> {
        let texts = self.s.s.texts;
        for d in 0..self.marked.len() {
            if self.marked[d] {
                self.s.must_one(texts.savepoint(d), Tally::Mark)?;
            }
            if let Some(step) = self.path.get(d) {
                let apply = step.apply.clone();
                self.s.must(&apply, tally)?;
            }
        }
        Ok(())
    }

    /// A fresh engine brought back to the current node.
    fn recover(&mut self) -> Result<(), ClusterError> {
        self.s.c.recoveries += 1;
        self.s.fresh(Tally::Undo)?;
        self.s.root_state(Tally::Undo)?;
        if self.s.s.undo == Undo::Savepoint {
            self.s.must_one(self.s.s.texts.begin(), Tally::Mark)?;
        }
        self.replay(Tally::Undo)
    }
}

/// The seed's per-query loop: for every query of every node, the clear, the prefix, the
/// node's whole path, the query. The schema is set up once.
pub fn execute_unclustered<T: TestTree>(
    tree: &mut T,
    engine: &mut dyn Engine,
    settings: Settings<'_>,
    observer: &mut dyn Observer,
) -> Result<Counters, ClusterError> {
    let start = Instant::now();
    let mut l = Loop { s: Session::open(tree, engine, settings), path: Vec::new() };
    l.s.fresh(Tally::Statement)?;
    let root = tree.root();
    l.visit(tree, &root, observer)?;
    Ok(l.s.finish(start))
}

struct Loop<'a> {
    s: Session<'a>,
    /// The applies of the steps from the root to the current node.
    path: Vec<Vec<String>>,
}

impl Loop<'_> {
    fn visit<T: TestTree>(&mut self, tree: &mut T, node: &T::Node, obs: &mut dyn Observer) -> Result<(), ClusterError> {
        self.s.c.nodes += 1;
        let depth = self.path.len();
        let part = self.s.s.part;
        let queries = part.queries(tree, node, depth);
        for (id, q) in &queries {
            let path_len: usize = self.path.iter().map(Vec::len).sum();
            self.s.c.per_query_loop_calls += self.s.loop_calls(path_len);
            if !self.build(obs)? {
                // The engine refused a step of this path: the subtree is skipped, as clustered.
                return Ok(());
            }
            let o = self.s.run(q, Tally::Query);
            obs.answer(*id, &o);
            if health(&o) == Health::Lost {
                self.s.c.recoveries += 1;
                self.s.fresh(Tally::Statement)?;
            }
        }
        for (i, (step, child)) in tree.children(node).into_iter().enumerate() {
            if depth == 0 && !part.takes(i) {
                continue;
            }
            self.path.push(step.apply);
            self.visit(tree, &child, obs)?;
            self.path.pop();
        }
        Ok(())
    }

    /// The clear, the prefix and the path; false if the engine refused a step.
    fn build(&mut self, obs: &mut dyn Observer) -> Result<bool, ClusterError> {
        self.s.root_state(Tally::Statement)?;
        for apply in &self.path {
            for t in apply {
                let o = self.s.run(t, Tally::Statement);
                match health(&o) {
                    Health::Ok => {}
                    h => {
                        obs.step_failed(t, &o);
                        self.s.c.failed_steps += 1;
                        if h == Health::Lost {
                            self.s.c.recoveries += 1;
                            self.s.fresh(Tally::Statement)?;
                        }
                        return Ok(false);
                    }
                }
            }
        }
        Ok(true)
    }
}
