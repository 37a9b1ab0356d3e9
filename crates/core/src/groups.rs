//! Engines' answers grouped by agreement: the one judgement every leg's differential oracle
//! makes, whatever an answer is (rows, verdicts, a graph).

use crate::bag::Rows;
use serde::{Deserialize, Serialize};

/// One engine's answer to one query, for oracles that judge an error beside rows (a query
/// every engine should answer): the rows, or the engine's error message.
pub enum Ran {
    Rows(Rows),
    Error(String),
}

impl Ran {
    /// What the answer was, for a finding's summary: `3 row(s)`, `error MESSAGE`.
    pub fn describe(&self) -> String {
        match self {
            Ran::Rows(r) => format!("{} row(s)", r.len()),
            Ran::Error(m) => format!("error {m}"),
        }
    }
}

/// The engines that answered with an error, and a differential error finding's key naming
/// each with its message as `message_key` reads it: `differential:error:LABEL:KEY...`. An
/// error is its engines' messages alone: how the other engines' answers grouped, or the mode
/// they were compared in, says nothing of it (keyed by them, one GraphQLite error made three
/// bugs, and one store's different errors were one).
pub fn error_key(labels: &[String], answers: &[Ran], message_key: impl Fn(&str) -> String) -> (Vec<String>, String) {
    let erring: Vec<(&String, String)> = labels
        .iter()
        .zip(answers)
        .filter_map(|(l, r)| match r {
            Ran::Error(m) => Some((l, message_key(m))),
            Ran::Rows(_) => None,
        })
        .collect();
    let key = erring.iter().map(|(l, m)| format!(":error:{l}:{m}")).collect::<String>();
    (erring.into_iter().map(|(l, _)| l.clone()).collect(), format!("differential{key}"))
}

/// A finding's record of such an oracle: the texts run and each engine's answer, rendered.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Transcript {
    pub queries: Vec<String>,
    pub answers: Vec<(String, String)>,
}

/// Groups of answers that agree, each a list of indices into the answers, in order of first
/// appearance. An answer joins the first group whose first member it agrees with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Groups(pub Vec<Vec<usize>>);

impl Groups {
    pub fn of<T>(answers: &[T], same: impl Fn(&T, &T) -> bool) -> Groups {
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for (i, a) in answers.iter().enumerate() {
            match groups.iter_mut().find(|g| same(&answers[g[0]], a)) {
                Some(g) => g.push(i),
                None => groups.push(vec![i]),
            }
        }
        Groups(groups)
    }

    /// Whether every answer agrees (or there is none).
    pub fn agree(&self) -> bool {
        self.0.len() <= 1
    }

    /// The group larger than every other, if one is: the answer a finding may call expected.
    /// Without one (two engines, one each) no answer is more right than another.
    pub fn majority(&self) -> Option<usize> {
        let largest = self.0.iter().map(Vec::len).max()?;
        let mut at = self.0.iter().enumerate().filter(|(_, g)| g.len() == largest).map(|(i, _)| i);
        let first = at.next()?;
        at.next().is_none().then_some(first)
    }

    /// Each group's members named by `label` and joined by `sep`: `sqlite, duckdb`.
    pub fn names<'a>(&self, label: impl Fn(usize) -> &'a str, sep: &str) -> Vec<String> {
        self.0.iter().map(|g| g.iter().map(|&i| label(i)).collect::<Vec<_>>().join(sep)).collect()
    }

    /// One part per group, `{sqlite, duckdb}: 0 row(s)`, from `what` of the group's first
    /// answer, joined by `; `: how a differential finding says who answered what.
    pub fn summary<'a>(&self, label: impl Fn(usize) -> &'a str, what: impl Fn(usize) -> String) -> String {
        let parts: Vec<String> = self
            .names(label, ", ")
            .iter()
            .zip(&self.0)
            .map(|(names, g)| format!("{{{names}}}: {}", what(g[0])))
            .collect();
        parts.join("; ")
    }

    /// A finding's expected and actual texts, from `render` of a group's first answer: the
    /// majority's answer as expected and every other group's as actual; without a majority,
    /// no answer is called expected (the first engine is no more right than another) and
    /// every group is shown as actual. Each answer is headed by its group's engines.
    pub fn expected_actual<'a>(
        &self,
        label: impl Fn(usize) -> &'a str,
        render: impl Fn(usize) -> String,
    ) -> (String, String) {
        let names = self.names(label, ", ");
        let answer = |g: usize, note: &str| format!("{}{note}:\n{}", names[g], render(self.0[g][0]));
        match self.majority() {
            Some(m) => {
                let others: Vec<String> = (0..self.0.len()).filter(|&g| g != m).map(|g| answer(g, "")).collect();
                (answer(m, " (the majority)"), others.join("\n"))
            }
            None => {
                let all: Vec<String> = (0..self.0.len()).map(|g| answer(g, "")).collect();
                ("no majority: each answer is below".into(), all.join("\n"))
            }
        }
    }

    /// [`Groups::names`] sorted: a finding's engines and key, the same for the same split
    /// whichever engine answered first.
    pub fn sorted_names<'a>(&self, label: impl Fn(usize) -> &'a str, sep: &str) -> Vec<String> {
        let mut names = self.names(label, sep);
        names.sort();
        names
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An error finding names the erring engines and their messages, not how the others grouped.
    #[test]
    fn an_error_key_is_the_erring_engines_messages() {
        let labels: Vec<String> = ["kuzu", "falkordb", "graphqlite"].map(String::from).to_vec();
        let rows = |n: usize| Ran::Rows(crate::Rows::new(vec!["a".into()], vec![vec![crate::Value::Int(1)]; n]));
        let err = || Ran::Error("duplicate WITH table name: _varlen_path_1".into());
        let mask = |m: &str| crate::mask_numbers(m, 60);
        let agreeing = error_key(&labels, &[rows(1), rows(1), err()], mask);
        let split = error_key(&labels, &[rows(0), rows(1), err()], mask);
        assert_eq!(agreeing, split);
        assert_eq!(agreeing.0, vec!["graphqlite".to_string()]);
        assert_eq!(agreeing.1, "differential:error:graphqlite:duplicate WITH table name: _varlen_path_#");
    }

    #[test]
    fn a_summary_names_each_group_with_its_first_answer() {
        let answers = ["0 rows", "1 row", "0 rows"];
        let g = Groups::of(&answers, |a, b| a == b);
        let names = ["sqlite", "duckdb", "postgres"];
        assert_eq!(g.summary(|i| names[i], |i| answers[i].to_string()), "{sqlite, postgres}: 0 rows; {duckdb}: 1 row");
    }

    #[test]
    fn only_a_majority_is_called_expected() {
        let names = ["sqlite", "duckdb", "postgres"];
        let three = Groups::of(&[0, 1, 0], |a, b| a == b);
        let (expected, actual) = three.expected_actual(|i| names[i], |i| format!("answer {i}"));
        assert_eq!(expected, "sqlite, postgres (the majority):\nanswer 0");
        assert_eq!(actual, "duckdb:\nanswer 1");
        let two = Groups::of(&[0, 1], |a, b| a == b);
        let (expected, actual) = two.expected_actual(|i| names[i], |i| format!("answer {i}"));
        assert_eq!(expected, "no majority: each answer is below");
        assert_eq!(actual, "sqlite:\nanswer 0\nduckdb:\nanswer 1");
    }

    #[test]
    fn answers_join_the_first_group_they_agree_with() {
        let answers = [3, 1, 3, 2, 1];
        let g = Groups::of(&answers, |a, b| a == b);
        assert_eq!(g.0, vec![vec![0, 2], vec![1, 4], vec![3]]);
        assert!(!g.agree());
        let labels = ["a", "b", "c", "d", "e"];
        assert_eq!(g.names(|i| labels[i], ", "), vec!["a, c", "b, e", "d"]);
        let g = Groups::of(&[(labels[1], 0), (labels[0], 1)], |x, y| x.1 == y.1);
        assert_eq!(g.sorted_names(|i| [labels[1], labels[0]][i], ","), vec!["a", "b"]);
        assert_eq!(g.majority(), None, "two groups of two");
        assert_eq!(Groups::of(&[1, 2, 2], |a, b| a == b).majority(), Some(1));
        assert_eq!(Groups::of(&[1, 2], |a, b| a == b).majority(), None);
        assert!(Groups::of(&[7, 7], |a, b| a == b).agree());
        assert!(Groups::of::<u8>(&[], |a, b| a == b).agree());
    }
}
