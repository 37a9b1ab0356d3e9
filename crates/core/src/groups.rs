//! Engines' answers grouped by agreement: the one judgement every leg's differential oracle
//! makes, whatever an answer is (rows, verdicts, a graph).

use crate::bag::Rows;
use crate::kind::{Check, Detail, Evidence, FindingClass};
use crate::outcome::Outcome;
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

    /// The answer for people: [`Rows::render`], or `error: MESSAGE`.
    pub fn render(&self) -> String {
        match self {
            Ran::Rows(r) => r.render(),
            Ran::Error(m) => format!("error: {m}"),
        }
    }
}

impl Ran {
    /// `out`, what the engine `label` did with `text`, read by an oracle that expects an
    /// answer. `Err` is the check to return at once: a timeout or an error that `expected`
    /// says the engine raises by design (both skipped), or a crash (a finding).
    pub fn read(label: &str, text: &str, out: Outcome, expected: impl Fn(&str) -> bool) -> Result<Ran, Check> {
        match out {
            Outcome::Rows(r) => Ok(Ran::Rows(r)),
            Outcome::Error { message, .. } if expected(&message) => {
                Err(Check::Skip(format!("{label}: an error the engine raises by design: {message}")))
            }
            Outcome::Error { message, .. } => Ok(Ran::Error(message)),
            out @ Outcome::Crash { .. } => {
                let detail = Transcript { queries: vec![text.to_string()], answers: vec![] };
                Err(Check::finding(Evidence::crash(label, &out, Detail::of(&detail))))
            }
            Outcome::Timeout { .. } => Err(Check::Skip(format!("{label}: timeout"))),
            other => Ok(Ran::Error(format!("unexpected answer to a query: {other}"))),
        }
    }
}

/// An engine's error on a query it should answer, as a finding of class `error` keyed by
/// `message_key` of the message (one message, one key).
pub fn rejected(label: &str, message: &str, message_key: &str, detail: &Transcript) -> Check {
    Check::finding(Evidence {
        class: FindingClass::Error,
        engines: vec![label.to_string()],
        summary: format!("{label} rejects a valid query: {message}"),
        expected: "an answer".into(),
        actual: message.to_string(),
        key: format!("error:{message_key}"),
        detail: Detail::of(detail),
    })
}

/// One engine's answer to a query, `parts[0]`, beside its answers to the query's partitions,
/// `parts[1..]`, whose union should be that answer: a partitioning oracle's finding.
pub struct Partitioned<'a> {
    pub label: &'a str,
    /// What the query and each partition are called (`unpartitioned`, `p`, `NOT p` ...).
    pub names: &'a [&'a str],
    pub parts: &'a [Rows],
    pub union: &'a Rows,
    /// The partitions for people: `p, NOT p and p IS NULL`.
    pub by: &'a str,
    /// How the union relates to the whole (`subset`: rows missing).
    pub relation: &'a str,
    pub key: String,
    pub texts: Vec<String>,
}

impl Partitioned<'_> {
    pub fn finding(self) -> Check {
        let (label, whole) = (self.label, &self.parts[0]);
        let answers = self.names.iter().zip(self.parts).map(|(n, r)| (format!("{label} {n}"), r.render())).collect();
        Check::finding(Evidence {
            class: FindingClass::Logic,
            engines: vec![label.to_string()],
            summary: format!(
                "{label}: the partitions by {} hold {} row(s), the {} query {} ({})",
                self.by,
                self.union.len(),
                self.names[0],
                whole.len(),
                self.relation
            ),
            expected: whole.render(),
            actual: self.union.render(),
            key: self.key,
            detail: Detail::of(&Transcript { queries: self.texts, answers }),
        })
    }
}

/// One query's answers from several engines, judged by a differential oracle: they agree, or
/// they split into groups and make one finding.
pub struct Differential<'a> {
    pub labels: &'a [String],
    pub answers: &'a [Ran],
    /// The texts run: one, or one per dialect that spells the query its own way.
    pub queries: Vec<String>,
    /// What the leg calls one engine it asked (`engine`, `store`), for the summary.
    pub noun: &'a str,
    /// How the answers were compared (`bag`, `sequence` ...): part of a logic finding's key.
    pub mode: String,
}

impl Differential<'_> {
    /// The verdict under `same`. An error finding is keyed by its engines' messages as
    /// `message_key` reads them; a logic finding by the groups, the mode, and `relation` of
    /// the groups where the leg can tell one (`subset`: the second group misses rows).
    pub fn verdict(
        self,
        same: impl Fn(&Ran, &Ran) -> bool,
        message_key: impl Fn(&str) -> String,
        relation: impl FnOnce(&Groups) -> Option<&'static str>,
    ) -> Check {
        let (labels, answers) = (self.labels, self.answers);
        let groups = Groups::of(answers, same);
        if groups.agree() {
            return match answers.first() {
                Some(Ran::Error(m)) => Check::Skip(format!("every {} rejects the query: {m}", self.noun)),
                _ => Check::Pass { nonempty: answers.iter().any(|a| matches!(a, Ran::Rows(r) if !r.is_empty())) },
            };
        }
        let label = |i: usize| labels[i].as_str();
        let errs = groups.0.iter().any(|g| matches!(answers[g[0]], Ran::Error(_)));
        let summary = groups.summary(label, |i| answers[i].describe());
        // Only a majority's answer is called expected: the first engine is no more right.
        let (expected, actual) = groups.expected_actual(label, |i| answers[i].render());
        let (engines, key) = if errs {
            error_key(labels, answers, message_key)
        } else {
            let names = groups.sorted_names(label, ", ");
            let rel = relation(&groups).map(|r| format!(":{r}")).unwrap_or_default();
            let key = format!("differential:{}:{}", self.mode, names.join("|")).to_lowercase() + &rel;
            (names, key)
        };
        Check::finding(Evidence {
            class: if errs { FindingClass::Error } else { FindingClass::Logic },
            engines,
            summary: format!("{}s disagree: {summary}", self.noun),
            expected,
            actual,
            key,
            detail: Detail::of(&Transcript::of(self.queries, labels, answers)),
        })
    }
}

/// The engines that answered with an error, and a differential error finding's key naming
/// each with its message as `message_key` reads it: `differential:error:LABEL:KEY...`. An
/// error is its engines' messages alone: how the other engines' answers grouped, or the mode
/// they were compared in, says nothing of it (keyed by them, one GraphQLite error made three
/// bugs, and one store's different errors were one).
fn error_key(labels: &[String], answers: &[Ran], message_key: impl Fn(&str) -> String) -> (Vec<String>, String) {
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

impl Transcript {
    /// The texts run and each answer rendered, headed by its label.
    pub fn of(queries: Vec<String>, labels: &[String], answers: &[Ran]) -> Transcript {
        Transcript { queries, answers: labels.iter().cloned().zip(answers.iter().map(Ran::render)).collect() }
    }
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

    fn verdict(answers: &[Ran], relation: Option<&'static str>) -> Check {
        let labels: Vec<String> =
            ["kuzu", "falkordb", "neo"].iter().take(answers.len()).map(|l| l.to_string()).collect();
        let d =
            Differential { labels: &labels, answers, queries: vec!["q".into()], noun: "engine", mode: "Bag".into() };
        let same = |a: &Ran, b: &Ran| match (a, b) {
            (Ran::Rows(x), Ran::Rows(y)) => x == y,
            (Ran::Error(_), Ran::Error(_)) => true,
            _ => false,
        };
        d.verdict(same, |m| crate::mask_numbers(m, 60), |_| relation)
    }

    /// The shared differential verdict: a pass says whether rows came back, errors everywhere
    /// skip, a split is one finding keyed by mode, sorted groups and relation.
    #[test]
    fn a_differential_verdict_keys_a_split_by_its_groups() {
        let rows = |n: usize| Ran::Rows(crate::Rows::new(vec!["a".into()], vec![vec![crate::Value::Int(1)]; n]));
        assert_eq!(verdict(&[rows(0), rows(0)], None), Check::Pass { nonempty: false });
        assert_eq!(verdict(&[rows(2), rows(2)], None), Check::Pass { nonempty: true });
        let skip = verdict(&[Ran::Error("no".into()), Ran::Error("no".into())], None);
        assert_eq!(skip, Check::Skip("every engine rejects the query: no".into()));
        let Check::Finding(e) = verdict(&[rows(1), rows(2), rows(1)], Some("superset")) else { panic!("a split") };
        assert_eq!(e.key, "differential:bag:falkordb|kuzu, neo:superset");
        assert_eq!(e.class, FindingClass::Logic);
        assert_eq!(e.summary, "engines disagree: {kuzu, neo}: 1 row(s); {falkordb}: 2 row(s)");
        assert_eq!(e.expected, "kuzu, neo (the majority):\n1 row(s)\n  1");
        let Check::Finding(e) = verdict(&[rows(1), Ran::Error("bad 7".into())], Some("subset")) else { panic!() };
        assert_eq!((e.key.as_str(), e.class), ("differential:error:falkordb:bad #", FindingClass::Error));
    }

    /// What an oracle does with each outcome: rows and errors are answers, an error the engine
    /// raises by design and a timeout skip, a crash is a finding at once.
    #[test]
    fn an_outcome_reads_as_an_answer_a_skip_or_a_crash() {
        let expected = |m: &str| m.starts_with("by design");
        let read = |out: Outcome| Ran::read("kuzu", "RETURN 1", out, expected);
        assert!(matches!(read(Outcome::Rows(crate::Rows::default())), Ok(Ran::Rows(_))));
        assert!(matches!(read(Outcome::error("boom")), Ok(Ran::Error(m)) if m == "boom"));
        let skip = read(Outcome::error("by design, no")).err();
        assert_eq!(skip, Some(Check::Skip("kuzu: an error the engine raises by design: by design, no".into())));
        assert_eq!(read(Outcome::Timeout { after_ms: 5 }).err(), Some(Check::Skip("kuzu: timeout".into())));
        let crash = Outcome::Crash { signal: Some(11), code: None, stderr_tail: "segfault".into() };
        let Err(Check::Finding(e)) = read(crash) else { panic!("a crash is a finding") };
        assert_eq!((e.class, e.key.as_str()), (FindingClass::Crash, "signal 11"));
        assert!(matches!(read(Outcome::Done), Ok(Ran::Error(_))), "a query answers rows");
    }

    #[test]
    fn a_partition_finding_names_the_parts_and_how_they_fall_short() {
        let rows = |n: i64| crate::Rows::new(vec!["a".into()], (0..n).map(|i| vec![crate::Value::Int(i)]).collect());
        let parts = [rows(3), rows(1), rows(1)];
        let union = crate::bag::union_all(&parts[1..]);
        let p = Partitioned {
            label: "kuzu",
            names: &["unpartitioned", "p", "NOT p"],
            parts: &parts,
            union: &union,
            by: "p and NOT p",
            relation: "subset",
            key: "partition:subset".into(),
            texts: vec!["q".into(), "q p".into(), "q not p".into()],
        };
        let Check::Finding(e) = p.finding() else { panic!("a finding") };
        assert_eq!(e.summary, "kuzu: the partitions by p and NOT p hold 2 row(s), the unpartitioned query 3 (subset)");
        assert_eq!((e.expected.lines().next(), e.actual.lines().next()), (Some("3 row(s)"), Some("2 row(s)")));
        let t: Transcript = e.detail.read();
        let names: Vec<&str> = t.answers.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["kuzu unpartitioned", "kuzu p", "kuzu NOT p"]);
    }

    #[test]
    fn rows_render_at_most_twenty() {
        let rows = crate::Rows::new(vec!["a".into()], (0..25).map(|i| vec![crate::Value::Int(i)]).collect());
        let text = rows.render();
        assert!(text.starts_with("25 row(s)\n  0\n  1"), "{text}");
        assert_eq!(text.lines().count(), 22, "the count, 20 rows and an ellipsis");
        assert_eq!(Ran::Error("boom".into()).render(), "error: boom");
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
