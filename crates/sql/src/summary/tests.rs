//! The seed's counts (query classes, Burnside's lemma for databases) and the evaluator on
//! hand-checked databases.

use super::data::{permutations, Universe};
use super::spec::Spec;
use super::Summary;

fn summary(text: &str) -> Summary {
    match Summary::parse(text) {
        Ok(s) => s,
        Err(e) => panic!("example spec does not parse: {e}"),
    }
}

const CASE1: &str = include_str!("../../summaries/case1.toml");
const CASE2: &str = include_str!("../../summaries/case2.toml");
const CASE3: &str = include_str!("../../summaries/case3.toml");
const NATURAL: &str = include_str!("../../summaries/natural-join.toml");

/// Queries over single tables and over all FROM sets.
fn one_and_all(s: &Summary) -> (usize, usize) {
    let one = s.groups.iter().filter(|g| g.from.len() == 1).map(|g| g.queries.len()).sum();
    (one, s.queries().len())
}

#[test]
fn case1_counts_66_and_186_with_76_mixed() {
    let s = summary(CASE1);
    assert_eq!(one_and_all(&s), (66, 186));
    assert_eq!(s.count_queries().mixed_without_group_by, 76);
    let one_table_mixed = s.groups.iter().filter(|g| g.from.len() == 1).flat_map(|g| &g.queries);
    assert_eq!(one_table_mixed.filter(|q| q.mixes_without_group_by()).count(), 26);
}

#[test]
fn case3_counts_26_and_76() {
    assert_eq!(one_and_all(&summary(CASE3)), (26, 76));
}

#[test]
fn natural_join_grammar_counts_57_by_from_set() {
    let s = summary(NATURAL);
    let per: Vec<usize> = s.groups.iter().map(|g| g.queries.len()).collect();
    // S, C, D, then S⋈C, S⋈D, C⋈D, then S⋈C⋈D: S⋈D shares both column names, so it has two.
    assert_eq!(per, vec![6, 6, 6, 11, 6, 11, 11]);
    assert_eq!(per.iter().sum::<usize>(), 57);
}

#[test]
fn case2_count_is_printed_not_forced() {
    let (one, all) = one_and_all(&summary(CASE2));
    // The seed's 3,456 / 27,081 rest on unstated scopes; this spec's (one where-term, five
    // operators, one value) give 2,445 / 17,445, which `crosscheck summary count` prints.
    assert_eq!((one, all), (2_445, 17_445));
}

/// Burnside's lemma: the number of orbits is the mean number of fixed points. Counted here
/// per table by brute force over every subset of the table's rows (an independent method:
/// no canonical form, no search), multiplied over tables (valid without foreign keys).
fn burnside_per_table(spec: &Spec) -> u64 {
    let k = spec.data.text_atoms;
    let perms = permutations(&(0..k).collect::<Vec<_>>());
    let mut total = 0u64;
    for p in &perms {
        let mut product = 1u64;
        for t in &spec.tables {
            // Rows of the table as atom tuples (all columns text in these schemas).
            let rows: Vec<Vec<usize>> = (0..k.pow(u32::try_from(t.columns.len()).unwrap_or(0)))
                .map(|mut n| {
                    (0..t.columns.len())
                        .map(|_| {
                            let d = n % k;
                            n /= k;
                            d
                        })
                        .collect()
                })
                .collect();
            let mut fixed = 0u64;
            for mask in 0u64..(1u64 << rows.len()) {
                let set: Vec<&Vec<usize>> =
                    rows.iter().enumerate().filter(|(i, _)| mask >> i & 1 == 1).map(|(_, r)| r).collect();
                let keyed = set
                    .iter()
                    .enumerate()
                    .all(|(i, a)| set[i + 1..].iter().all(|b| t.key.iter().any(|&c| a[c] != b[c])));
                let image_in = set.iter().all(|r| {
                    let img: Vec<usize> = r.iter().map(|&a| p[a]).collect();
                    set.contains(&&img)
                });
                if keyed && image_in {
                    fixed += 1;
                }
            }
            product *= fixed;
        }
        total += product;
    }
    total / perms.len() as u64
}

fn with_atoms(text: &str, k: usize) -> Summary {
    let mut s = summary(text);
    s.spec.data.text_atoms = k;
    s
}

#[test]
fn natural_join_databases_match_burnside_at_two_atoms() {
    let s = with_atoms(NATURAL, 2);
    assert_eq!(burnside_per_table(&s.spec), 378);
    assert_eq!(s.count_databases(&[]).map(|c| c.0), Ok(378));
}

#[test]
fn natural_join_databases_match_burnside_at_three_atoms() {
    let s = with_atoms(NATURAL, 3);
    assert_eq!(burnside_per_table(&s.spec), 43_968);
    assert_eq!(s.count_databases(&[]).map(|c| c.0), Ok(43_968));
}

#[test]
fn one_keyed_text_table_gives_6_16_45_121() {
    let text = "[[table]]\nname = \"t\"\ncolumns = [{ name = \"k\", type = \"text\" }, { name = \"v\", type = \"text\" }]\nkey = [\"k\"]\n[query]\n";
    for (k, want) in [(2, 6), (3, 16), (4, 45), (5, 121)] {
        let s = with_atoms(text, k);
        if k <= 3 {
            assert_eq!(burnside_per_table(&s.spec), want);
        }
        assert_eq!(s.count_databases(&[]).map(|c| c.0), Ok(want), "k = {k}");
    }
}

#[test]
fn a_fixed_atom_breaks_symmetry() {
    // With v0 named by a query, permutations only move v1: more classes than with both free.
    let s = with_atoms(NATURAL, 2);
    let free = s.count_databases(&[]).map(|c| c.0);
    let fixed = s.count_databases(&[Spec::atom(0)]).map(|c| c.0);
    assert_eq!(free, Ok(378));
    // Nothing moves at all: every database is its own class, (1 + 2)^2 per table.
    assert_eq!(fixed, Ok(9 * 9 * 9));
}

#[test]
fn foreign_keys_prune_and_keep_orbits() {
    let text = "[[table]]\nname = \"p\"\ncolumns = [{ name = \"id\", type = \"text\" }]\nkey = [\"id\"]\n\
                [[table]]\nname = \"c\"\ncolumns = [{ name = \"id\", type = \"text\" }, { name = \"pid\", type = \"text\" }]\nkey = [\"id\"]\n\
                foreign = [{ columns = [\"pid\"], references = \"p\", to = [\"id\"] }]\n[query]\n[data]\ntext_atoms = 2\n";
    let s = summary(text);
    // Brute force over all subsets of the 2 + 4 rows, keys and the FK checked, orbits by
    // Burnside under the swap of the two atoms.
    let u = match Universe::new(&s.spec, &[]) {
        Ok(u) => u,
        Err(e) => panic!("{e}"),
    };
    let n = u.rows.len();
    let ok = |set: &[usize]| {
        let rows: Vec<_> = set.iter().map(|&i| &u.rows[i]).collect();
        let keyed = rows
            .iter()
            .enumerate()
            .all(|(i, a)| rows[i + 1..].iter().all(|b| a.table != b.table || a.values[0] != b.values[0]));
        let fk = rows
            .iter()
            .filter(|r| r.table == 1)
            .all(|c| rows.iter().any(|p| p.table == 0 && p.values[0] == c.values[1]));
        keyed && fk
    };
    let swap = |r: &super::data::Row| super::data::Row {
        table: r.table,
        values: r
            .values
            .iter()
            .map(|v| match v {
                super::data::Val::Atom(a) => super::data::Val::Atom(1 - a),
                o => *o,
            })
            .collect(),
    };
    let (mut id, mut fixed) = (0u64, 0u64);
    for mask in 0u64..(1 << n) {
        let set: Vec<usize> = (0..n).filter(|i| mask >> i & 1 == 1).collect();
        if ok(&set) {
            id += 1;
            if set.iter().all(|&i| {
                let img = swap(&u.rows[i]);
                set.iter().any(|&j| u.rows[j] == img)
            }) {
                fixed += 1;
            }
        }
    }
    assert_eq!(s.count_databases(&[]).map(|c| c.0), Ok((id + fixed) / 2));
}

const MIXED: &str = include_str!("../../summaries/mixed.toml");

#[test]
fn a_check_prunes_and_keeps_exactly_the_classes_it_accepts() {
    for k in [2, 3] {
        let s = with_atoms(MIXED, k);
        let (n, pruned) = match s.count_databases(&[]) {
            Ok(c) => c,
            Err(e) => panic!("{e}"),
        };
        assert!(pruned.by_check > 0, "the check prunes subtrees at k = {k}");
        // Independently: every class of the unconstrained schema, filtered by the predicate.
        let free = with_atoms(NATURAL, k);
        let check = s.spec.steps.iter().find_map(|st| match st {
            super::mixed::Step::Check { check, .. } => Some(check.clone()),
            _ => None,
        });
        let Some(check) = check else { panic!("the example has a check") };
        let u = match Universe::new(&free.spec, &[]) {
            Ok(u) => u,
            Err(e) => panic!("{e}"),
        };
        let mut want = 0u64;
        u.for_each(&mut |db| want += u64::from(check.holds(&u.tables(db))));
        assert_eq!(n, want, "k = {k}");
    }
}

#[test]
fn def_use_errors_on_a_broken_chain_and_warns_on_undeclared_reads() {
    let head = "[[table]]\nname = \"a\"\ncolumns = [{ name = \"x\", type = \"text\" }]\n\
                [[table]]\nname = \"b\"\ncolumns = [{ name = \"y\", type = \"text\" }]\n[query]\n";
    let broken = format!("{head}[[constraint]]\ngenerate = [\"a\"]\n[[constraint]]\nuses = [\"b\"]\ncheck = \"COUNT(b) > 0\"\n[[constraint]]\ngenerate = [\"b\"]\n");
    let e = Summary::parse(&broken).err().map(|e| e.0).unwrap_or_default();
    assert!(e.contains("def-use chain broken"), "{e}");
    let undeclared = format!(
        "{head}[[constraint]]\ngenerate = []\n[[constraint]]\nuses = [\"a\"]\ncheck = \"COUNT(a) <= COUNT(b)\"\n"
    );
    let s = summary(&undeclared);
    assert!(s.spec.warnings.iter().any(|w| w.contains("reads b not in its uses")), "{:?}", s.spec.warnings);
    let twice = format!("{head}[[constraint]]\ngenerate = [\"a\", \"b\"]\n[[constraint]]\ngenerate = [\"a\"]\n");
    let s = summary(&twice);
    assert!(s.spec.warnings.iter().any(|w| w.contains("multiple generation of a")), "{:?}", s.spec.warnings);
    let never = format!("{head}[[constraint]]\ngenerate = [\"a\"]\n");
    let e = Summary::parse(&never).err().map(|e| e.0).unwrap_or_default();
    assert!(e.contains("no constraint generates b"), "{e}");
}

/// Every test of a spec read back from the leg's case (what the store keeps and the reducer
/// shrinks): the same query, the same expected answer; a case outside the fragment is refused.
#[test]
fn a_test_read_back_from_its_case_has_the_same_expected_answer() {
    use super::case::{read, to_case};
    use super::tree::schema;
    let where_ = include_str!("../../summaries/where.toml");
    for text in [CASE1, CASE2, CASE3, NATURAL, where_] {
        let s = summary(text);
        let queries = s.queries();
        let mut checked = 0;
        for class in s.classes() {
            let u = Universe::new(&s.spec, &class.fixed).unwrap_or_else(|e| panic!("{e}"));
            let mut dbs = Vec::new();
            u.for_each(&mut |db| {
                if dbs.len() < 12 {
                    dbs.push(db.to_vec());
                }
            });
            for db in &dbs {
                let tables = u.tables(db);
                for &qi in &class.queries {
                    let q = queries[qi];
                    let mut setup = schema(&s);
                    setup.extend(db.iter().map(|&r| u.insert(r)));
                    let case = to_case(setup, q.to_select(&s.spec), s.spec.output.bag);
                    let test = read(&case, s.spec.output.bag).unwrap_or_else(|e| panic!("q{qi}: {e}"));
                    // The same SQL (a flag no term prints, DISTINCT beside COUNT(*) alone, may
                    // differ), and the same answer.
                    assert_eq!(test.query.to_select(&s.spec), q.to_select(&s.spec), "q{qi}");
                    let want = super::eval::evaluate(&s.spec, q, &tables).ok();
                    assert_eq!(test.expected().ok().map(|e| e.0), want, "q{qi}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 0);
    }
    // Out of the fragment: a NULL where the schema refuses one, a text that names no atom.
    let s = summary(NATURAL);
    let mut setup = schema(&s);
    setup.push(crate::ast::Stmt::Insert {
        table: s.spec.tables[0].name.clone(),
        columns: s.spec.tables[0].columns.iter().map(|c| c.name.clone()).collect(),
        values: s.spec.tables[0]
            .columns
            .iter()
            .map(|_| crate::ast::Expr::Lit(crate::ast::Lit::Text("x".into())))
            .collect(),
    });
    let case = to_case(setup, s.queries()[0].to_select(&s.spec), false);
    assert!(read(&case, false).is_err());
}
