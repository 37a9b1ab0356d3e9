//! A full test trie of given shape, for the chapter-5 examples, the undo tests and the
//! benchmark: every node at depth `d` has the same fan-out, statements and queries. Each
//! statement adds one row with its own number and its inverse removes it, so a node's state is
//! exactly the numbers on its path, which is what every query asks for.

use super::{Step, TestTree};
use std::collections::BTreeMap;
// Writing into a String cannot fail.
use std::fmt::Write as _;

/// One depth of the trie below the root.
#[derive(Clone, Copy, Debug)]
pub struct Level {
    pub fanout: usize,
    /// Statements in the step that reaches a node of this depth.
    pub statements: usize,
    /// Queries at a node of this depth.
    pub queries: usize,
}

/// How a language spells the trie's statements.
pub trait Writer {
    /// Run once on a fresh engine (the table).
    fn setup(&self) -> Vec<String>;
    /// Adds the row numbered `n`.
    fn add(&self, n: u64) -> String;
    /// Removes the row numbered `n`; `None` when the engine keeps nothing to undo.
    fn remove(&self, n: u64) -> Option<String>;
    /// Lists the numbers of every row, ascending.
    fn list(&self) -> String;
}

/// A node: its number and the row numbers on its path.
#[derive(Clone, Debug)]
pub struct Node {
    pub id: u64,
    pub depth: usize,
    pub rows: Vec<u64>,
}

/// The full trie with `prefix` statements at the root and `levels` below it.
pub struct Uniform<W: Writer> {
    pub prefix: usize,
    pub root_queries: usize,
    pub levels: Vec<Level>,
    pub writer: W,
    /// For each query id handed out, the row numbers its node holds, ascending: the answer.
    pub expected: BTreeMap<u64, Vec<u64>>,
}

impl<W: Writer> Uniform<W> {
    pub fn new(prefix: usize, levels: Vec<Level>, writer: W) -> Uniform<W> {
        Uniform { prefix, root_queries: 0, levels, writer, expected: BTreeMap::new() }
    }

    /// Statements of one node are numbered apart from every other node's.
    fn stride(&self) -> u64 {
        let most = self.levels.iter().map(|l| l.statements).chain([self.prefix]).max().unwrap_or(0);
        most as u64 + 1
    }

    fn widest(&self) -> u64 {
        self.levels.iter().map(|l| l.fanout).max().unwrap_or(0) as u64 + 1
    }

    /// Tests (leaves), nodes, and the per-level shape as `1-5-10-20`.
    pub fn shape(&self) -> (u64, u64, String) {
        let (mut width, mut nodes, mut text) = (1u64, 1u64, String::from("1"));
        for l in &self.levels {
            width *= l.fanout as u64;
            nodes += width;
            let _ = write!(text, "-{width}");
        }
        (width, nodes, text)
    }
}

impl<W: Writer> TestTree for Uniform<W> {
    type Node = Node;

    fn root(&mut self) -> Node {
        Node { id: 0, depth: 0, rows: (0..self.prefix as u64).collect() }
    }

    fn setup(&mut self) -> Vec<String> {
        self.writer.setup()
    }

    fn prefix(&mut self) -> Vec<String> {
        (0..self.prefix as u64).map(|n| self.writer.add(n)).collect()
    }

    fn children(&mut self, node: &Node) -> Vec<(Step, Node)> {
        let Some(level) = self.levels.get(node.depth).copied() else { return Vec::new() };
        let (stride, widest) = (self.stride(), self.widest());
        (0..level.fanout as u64)
            .map(|i| {
                let id = node.id * widest + i + 1;
                let numbers: Vec<u64> = (0..level.statements as u64).map(|k| id * stride + k).collect();
                let step = Step {
                    apply: numbers.iter().map(|&n| self.writer.add(n)).collect(),
                    inverse: numbers.iter().rev().filter_map(|&n| self.writer.remove(n)).collect(),
                };
                let mut rows = node.rows.clone();
                rows.extend(&numbers);
                (step, Node { id, depth: node.depth + 1, rows })
            })
            .collect()
    }

    fn queries(&mut self, node: &Node) -> Vec<(u64, String)> {
        let count = match node.depth {
            0 => self.root_queries,
            d => self.levels.get(d - 1).map_or(0, |l| l.queries),
        };
        let mut rows = node.rows.clone();
        rows.sort_unstable();
        let most = self.levels.iter().map(|l| l.queries).chain([self.root_queries]).max().unwrap_or(0);
        (0..count as u64)
            .map(|k| {
                let qid = node.id * (most as u64 + 1) + k;
                self.expected.insert(qid, rows.clone());
                (qid, self.writer.list())
            })
            .collect()
    }
}
