//! Expressions for the query generator: RD²'s FILTER trees (a root type uniform over boolean,
//! numeric and string, operators of the required type down to a depth, leaves the query's
//! variables or graph constants), the built-ins and casts behind their capabilities, EXISTS,
//! and the values BIND and aggregates return, which must be defined to the last digit.

use crate::dialect::Cap;
use crate::gen::literal;
use crate::model::{AggFunc, ArithOp, CmpOp, Expr, Func, Lit, Node, XsdCast};
use crate::query::QueryGen;
use rand::seq::SliceRandom;
use rand::Rng;

/// The FILTER tree depth. RD²'s repository uses 5; trees that deep are mostly errors (a type
/// mismatch anywhere below a comparison), which says little, so the default is 3.
pub const MAX_DEPTH: u32 = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    Bool,
    Num,
    Str,
}

const CMP: [CmpOp; 6] = [CmpOp::Eq, CmpOp::Ne, CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge];

/// A numeric literal's value, if it is a finite number of a numeric XSD type.
fn number(l: &Lit) -> Option<f64> {
    let local = l.xsd()?;
    if crate::normalize::canonical(local, &l.lexical).is_none() || local == "boolean" {
        return None;
    }
    l.lexical.trim().parse::<f64>().ok().filter(|x| x.is_finite())
}

/// Whether `e` is a boolean operator's result: `&&`, `||`, `!`, a comparison or EXISTS
/// (`Cap::BoolOpOperand`).
pub fn boolean_op(e: &Expr) -> bool {
    matches!(e, Expr::And(..) | Expr::Or(..) | Expr::Not(..) | Expr::Cmp(..) | Expr::Exists(..))
}

/// Whether an expression can evaluate to a blank node: a variable (the generator calls no
/// function that returns one), or an IF or COALESCE over one.
fn may_be_blank(e: &Expr) -> bool {
    match e {
        Expr::Var(_) => true,
        Expr::Call(Func::If | Func::Coalesce, args) => args.iter().any(may_be_blank),
        _ => false,
    }
}

/// Whether an expression can evaluate to a language-tagged literal: a variable, or such a
/// constant (functions the generator calls on them return simple literals, or keep the tag
/// only on a string argument that is itself guarded where its EBV is taken).
fn may_be_lang(e: &Expr) -> bool {
    match e {
        Expr::Var(_) => true,
        Expr::Lit(l) => l.lang.is_some(),
        Expr::Call(Func::UCase | Func::LCase | Func::Coalesce, args) => args.iter().any(may_be_lang),
        _ => false,
    }
}

impl<R: Rng> QueryGen<'_, R> {
    /// A FILTER: a tree whose root type is uniform over boolean, numeric and string (a
    /// non-boolean root is used through its effective boolean value), as in RD².
    pub(crate) fn filter(&mut self) -> Expr {
        let ty = *[Ty::Bool, Ty::Num, Ty::Str].choose(self.rng).unwrap_or(&Ty::Bool);
        let e = self.expr(ty, MAX_DEPTH);
        self.ebv(e)
    }

    /// RD²'s graph guidance carried into a FILTER: a comparison of a variable of the first
    /// basic graph pattern with a pool constant, true for the node the variable was drawn
    /// from, so the pivot's solution passes. `None` when no such variable stands for an IRI
    /// or a literal.
    pub(crate) fn guided(&mut self) -> Option<Expr> {
        let mut known: Vec<(u32, Node)> = self
            .vars
            .iter()
            .filter(|(n, &v)| v < self.pivot_scope && !matches!(n, Node::Blank(_)))
            .map(|(n, &v)| (v, n.clone()))
            .collect();
        // The map's order is the process's own: sorted, the draw is the seed's.
        known.sort();
        let (v, node) = known.choose(self.rng)?.clone();
        let (op, constant) = match node {
            Node::Lit(l) if number(&l).is_some() => {
                let (op, constant) = self.guided_number(l);
                return Some(self.compare(op, Expr::Var(v), constant, Ty::Num));
            }
            Node::Lit(l) => {
                // `!=` only where SPARQL's operator is defined for both (two strings, two
                // booleans); other literals that are not the same term compare as an error.
                let comparable = |o: &Lit| {
                    o.lang.is_none()
                        && l.lang.is_none()
                        && o.datatype == l.datatype
                        && matches!(o.xsd(), Some("string" | "boolean"))
                };
                let others = self.pools.literals.iter().filter(|o| comparable(o)).cloned().map(Expr::Lit).collect();
                self.guided_term(Expr::Lit(l), others)
            }
            Node::Iri(i) => {
                let others = self.pools.iris.iter().cloned().map(Expr::Iri).collect();
                self.guided_term(Expr::Iri(i), others)
            }
            Node::Blank(_) => return None,
        };
        Some(Expr::Cmp(op, Box::new(Expr::Var(v)), Box::new(constant)))
    }

    /// `=` with the node itself, or `!=` with another term of its pool.
    fn guided_term(&mut self, own: Expr, others: Vec<Expr>) -> (CmpOp, Expr) {
        match others.choose(self.rng).cloned() {
            Some(o) if o != own && self.rng.gen_bool(0.5) => (CmpOp::Ne, o),
            _ => (CmpOp::Eq, own),
        }
    }

    /// A comparison with a finite pool number that the node's value satisfies (numbers too
    /// close for a double to order are compared with the node itself).
    fn guided_number(&mut self, own: Lit) -> (CmpOp, Expr) {
        let x = number(&own).unwrap_or(0.0);
        let finite: Vec<&Lit> = self.pools.numbers.iter().filter(|l| number(l).is_some()).collect();
        let other = finite.choose(self.rng).map(|l| (*l).clone());
        let y = other.as_ref().and_then(number).unwrap_or(x);
        let apart = (x - y).abs() > 1e-6 * x.abs().max(y.abs()).max(1.0);
        let ops: &[CmpOp] = match (other, apart) {
            (Some(o), true) if x < y => {
                return (*[CmpOp::Lt, CmpOp::Le, CmpOp::Ne].choose(self.rng).unwrap_or(&CmpOp::Lt), Expr::Lit(o))
            }
            (Some(o), true) => {
                return (*[CmpOp::Gt, CmpOp::Ge, CmpOp::Ne].choose(self.rng).unwrap_or(&CmpOp::Gt), Expr::Lit(o))
            }
            _ => &[CmpOp::Eq, CmpOp::Le, CmpOp::Ge],
        };
        (*ops.choose(self.rng).unwrap_or(&CmpOp::Eq), Expr::Lit(own))
    }

    /// The partition oracle's predicate: a filter tree like any other.
    pub fn predicate(&mut self) -> Expr {
        self.filter()
    }

    /// `e` where its effective boolean value is taken. When the run's stores differ on the
    /// EBV of a language-tagged literal (SPARQL 1.1: an error; RDF 1.0-era stores: the
    /// string's), a term that may be one becomes `LANG(e) = "" && e`: false for a tagged
    /// literal everywhere (`false && error` is false), e's own EBV for every other term.
    fn ebv(&mut self, e: Expr) -> Expr {
        if !self.guard_ebv || !may_be_lang(&e) {
            return e;
        }
        let untagged = self.untagged(e.clone());
        Expr::And(Box::new(untagged), Box::new(e))
    }

    /// `LANG(e) = ""`, or `COALESCE(LANG(e), "") = ""` where a store of the run leaves LANG of
    /// an untagged constant unbound (`Cap::LangOfUntagged`): the same value on every store
    /// that has it, since LANG of a literal never errs.
    fn untagged(&self, e: Expr) -> Expr {
        let lang = if self.has(Cap::LangOfUntagged) { Expr::call(Func::Lang, vec![e]) } else { lang_or_empty(e) };
        Expr::Cmp(CmpOp::Eq, Box::new(lang), Box::new(empty_string()))
    }

    pub(crate) fn expr(&mut self, ty: Ty, depth: u32) -> Expr {
        if depth == 0 || self.rng.gen_bool(0.25) {
            return self.leaf(ty);
        }
        let d = depth - 1;
        match ty {
            Ty::Bool => self.bool_expr(d),
            Ty::Num => self.num_expr(d),
            Ty::Str => self.str_expr(d),
        }
    }

    fn num_expr(&mut self, d: u32) -> Expr {
        let funcs = self.has(Cap::Functions);
        match self.rng.gen_range(0..9) {
            0 | 1 if !self.has(Cap::ArithErrors) => self.num_const(),
            0 => Expr::Neg(Box::new(self.expr(Ty::Num, d))),
            1 => Expr::Plus(Box::new(self.expr(Ty::Num, d))),
            6 if funcs => {
                let f = *[Func::Abs, Func::Ceil, Func::Floor, Func::Round].choose(self.rng).unwrap_or(&Func::Abs);
                Expr::call(f, vec![self.expr(Ty::Num, d)])
            }
            7 if funcs => Expr::call(Func::StrLen, vec![self.expr(Ty::Str, d)]),
            8 if self.has(Cap::Casts) => {
                // A double cast to a decimal has as many digits as the store keeps (Oxigraph
                // 18, Comunica 16, Virtuoso 15): not a value to return.
                let tos: &[XsdCast] = if self.value_mode {
                    &[XsdCast::Integer, XsdCast::Double]
                } else {
                    &[XsdCast::Integer, XsdCast::Decimal, XsdCast::Double]
                };
                let to = *tos.choose(self.rng).unwrap_or(&XsdCast::Integer);
                Expr::call(Func::Cast(to), vec![self.any_leaf()])
            }
            k => {
                // A store that aborts the query on an arithmetic error (Virtuoso) gets only
                // operations that cannot err: no division, numeric constants for operands.
                let safe = !self.has(Cap::ArithErrors);
                let ops: &[ArithOp] = if self.value_mode || safe {
                    &[ArithOp::Add, ArithOp::Sub, ArithOp::Mul]
                } else {
                    &[ArithOp::Add, ArithOp::Sub, ArithOp::Mul, ArithOp::Div]
                };
                let op = ops[k % ops.len()];
                let operand = |g: &mut Self| if safe { g.num_const() } else { g.expr(Ty::Num, d) };
                let (a, b) = (operand(self), operand(self));
                Expr::Arith(op, Box::new(a), Box::new(b))
            }
        }
    }

    /// A finite number: from the graph's pool (INF and NaN left out) or a small integer.
    fn num_const(&mut self) -> Expr {
        let finite: Vec<&Lit> = self.pools.numbers.iter().filter(|l| !l.lexical.contains(['I', 'N'])).collect();
        match finite.choose(self.rng) {
            Some(l) if self.rng.gen_bool(0.5) => Expr::Lit((*l).clone()),
            _ => Expr::Lit(Lit::typed(self.rng.gen_range(-100..100).to_string(), "integer")),
        }
    }

    fn str_expr(&mut self, d: u32) -> Expr {
        match self.rng.gen_range(0..4) {
            0 | 1 if self.has(Cap::Builtins) => {
                let f = *[Func::Str, Func::Lang, Func::Datatype].choose(self.rng).unwrap_or(&Func::Str);
                let x = self.any_leaf();
                match f {
                    Func::Str if self.value_mode => self.text_of(x),
                    Func::Str => self.str_of(x),
                    Func::Lang if !self.has(Cap::LangOfUntagged) => lang_or_empty(x),
                    _ => Expr::call(f, vec![x]),
                }
            }
            2 if self.has(Cap::Functions) => {
                let f = if self.rng.gen_bool(0.5) { Func::UCase } else { Func::LCase };
                Expr::call(f, vec![self.expr(Ty::Str, d)])
            }
            3 if self.has(Cap::Casts) && self.value_mode => {
                let x = self.leaf(Ty::Str);
                self.text_of(x)
            }
            3 if self.has(Cap::Casts) => Expr::call(Func::Cast(XsdCast::String), vec![self.leaf(Ty::Str)]),
            _ => self.leaf(Ty::Str),
        }
    }

    fn bool_expr(&mut self, d: u32) -> Expr {
        match self.rng.gen_range(0..11) {
            0 => {
                let a = self.expr(Ty::Bool, d);
                Expr::negate(self.ebv(a))
            }
            1 | 2 => {
                let (a, b) = (self.expr(Ty::Bool, d), self.expr(Ty::Bool, d));
                let (a, b) = (Box::new(self.ebv(a)), Box::new(self.ebv(b)));
                if self.rng.gen_bool(0.5) {
                    Expr::And(a, b)
                } else {
                    Expr::Or(a, b)
                }
            }
            3 if self.next_var > 0 && self.rng.gen_bool(0.5) => Expr::Bound(self.rng.gen_range(0..self.next_var)),
            3 if self.has(Cap::Builtins) => {
                let f = *[Func::IsIri, Func::IsLiteral, Func::IsBlank].choose(self.rng).unwrap_or(&Func::IsIri);
                Expr::call(f, vec![self.any_leaf()])
            }
            4 if self.has(Cap::Functions) => self.string_test(d),
            5 if self.has(Cap::Functions) => {
                if self.rng.gen_bool(0.5) {
                    Expr::call(Func::IsNumeric, vec![self.any_leaf()])
                } else {
                    Expr::call(Func::SameTerm, vec![self.any_leaf(), self.any_leaf()])
                }
            }
            6 if self.has(Cap::Exists) && !self.value_mode => {
                let patterns = self.bgp(1);
                Expr::Exists(self.rng.gen_bool(0.5), patterns)
            }
            _ => {
                let op = *CMP.choose(self.rng).unwrap_or(&CmpOp::Eq);
                let ty = *[Ty::Num, Ty::Num, Ty::Str, Ty::Bool].choose(self.rng).unwrap_or(&Ty::Num);
                let (a, b) = (self.operand(ty, d), self.operand(ty, d));
                self.compare(op, a, b, ty)
            }
        }
    }

    /// A comparison's operand: no boolean operator at its top where a store of the run refuses
    /// one there (`Cap::BoolOpOperand`); a leaf of its type stands instead.
    fn operand(&mut self, ty: Ty, d: u32) -> Expr {
        let e = self.expr(ty, d);
        if !self.has(Cap::BoolOpOperand) && boolean_op(&e) {
            return self.leaf(ty);
        }
        e
    }

    /// CONTAINS, STRSTARTS, STRENDS or REGEX of a string and a piece of a graph string.
    fn string_test(&mut self, d: u32) -> Expr {
        let text = self.expr(Ty::Str, d);
        let piece = self.piece();
        match self.rng.gen_range(0..4) {
            0 => Expr::call(Func::Contains, vec![text, Expr::Lit(Lit::typed(piece, "string"))]),
            1 => Expr::call(Func::StrStarts, vec![text, Expr::Lit(Lit::typed(piece, "string"))]),
            2 => Expr::call(Func::StrEnds, vec![text, Expr::Lit(Lit::typed(piece, "string"))]),
            _ => {
                // Letters and digits only, with anchors: the part of regular-expression syntax
                // XPath, Python, JavaScript and PCRE read alike.
                let anchored = match self.rng.gen_range(0..3) {
                    0 => format!("^{piece}"),
                    1 => format!("{piece}$"),
                    _ => piece,
                };
                Expr::call(Func::Regex, vec![text, Expr::Lit(Lit::typed(anchored, "string"))])
            }
        }
    }

    /// A run of letters and digits from a graph string (often empty-free), for string tests.
    fn piece(&mut self) -> String {
        let from = self.pools.strings.choose(self.rng).map(|l| l.lexical.clone()).unwrap_or_default();
        let alnum: Vec<char> = from.chars().filter(char::is_ascii_alphanumeric).collect();
        if alnum.is_empty() {
            return ["a", "e", "1", "0"].choose(self.rng).copied().unwrap_or("a").to_string();
        }
        let start = self.rng.gen_range(0..alnum.len());
        let len = self.rng.gen_range(1..=(alnum.len() - start).min(3));
        alnum[start..start + len].iter().collect()
    }

    /// A variable of the query (RD²'s paper: leaves may be variables) or a constant.
    pub(crate) fn any_leaf(&mut self) -> Expr {
        if self.next_var > 0 && self.rng.gen_bool(0.7) {
            return Expr::Var(self.rng.gen_range(0..self.next_var));
        }
        match self.pools.iris.choose(self.rng) {
            Some(i) if self.rng.gen_bool(0.3) => Expr::Iri(i.clone()),
            _ => Expr::Lit(literal(self.rng)),
        }
    }

    pub(crate) fn any_var(&mut self) -> Expr {
        Expr::Var(self.rng.gen_range(0..self.next_var.max(1)))
    }

    /// A leaf of type `ty`: a variable (half the time), else a constant from the graph's pool
    /// of that type (half the time), else a fresh one.
    fn leaf(&mut self, ty: Ty) -> Expr {
        if self.next_var > 0 && self.rng.gen_bool(0.5) {
            return Expr::Var(self.rng.gen_range(0..self.next_var));
        }
        let pool = match ty {
            Ty::Bool => &self.pools.booleans,
            Ty::Num => &self.pools.numbers,
            Ty::Str => &self.pools.strings,
        };
        if let Some(l) = pool.choose(self.rng).filter(|_| self.rng.gen_bool(0.5)) {
            return Expr::Lit(l.clone());
        }
        Expr::Lit(match ty {
            Ty::Bool => Lit::typed(if self.rng.gen_bool(0.5) { "true" } else { "false" }, "boolean"),
            Ty::Num => Lit::typed(self.rng.gen_range(-100..100).to_string(), "integer"),
            Ty::Str => Lit::typed(crate::gen::integer(self.rng).to_string(), "string"),
        })
    }

    /// A value for BIND: numeric or string, boolean only where every store returns booleans
    /// as `xsd:boolean` (`Cap::BoolValues`); never a division, whose decimal digits past the
    /// standard's minimum are each store's own.
    pub(crate) fn value(&mut self) -> Expr {
        let mut tys = vec![Ty::Num, Ty::Str];
        if self.has(Cap::BoolValues) {
            tys.push(Ty::Bool);
        }
        let ty = *tys.choose(self.rng).unwrap_or(&Ty::Num);
        self.value_mode = true;
        let e = self.expr(ty, 2);
        self.value_mode = false;
        e
    }

    /// `a op b`, the operands of kind `ty`. Where a store of the run orders terms of different
    /// kinds (`Cap::TypedOrder`), an ordered comparison is written `COALESCE(K(x), false) && ...`
    /// for each operand x that may be of another kind (`typed_order`).
    pub(crate) fn compare(&self, op: CmpOp, a: Expr, b: Expr, ty: Ty) -> Expr {
        if self.has(Cap::TypedOrder) {
            return Expr::Cmp(op, Box::new(a), Box::new(b));
        }
        typed_order(op, a, b, ty)
    }

    /// `STR(x)` in a condition: where a store of the run answers STR of a blank node with its
    /// label (`Cap::BlankStrError`), a term that may be one is taken as
    /// `IF(isBLANK(x), "", STR(x))`, the same on every store; elsewhere the error is tested.
    fn str_of(&self, x: Expr) -> Expr {
        if self.has(Cap::BlankStrError) || !may_be_blank(&x) {
            return Expr::call(Func::Str, vec![x]);
        }
        let blank = Expr::call(Func::IsBlank, vec![x.clone()]);
        Expr::call(Func::If, vec![blank, Expr::Lit(Lit::typed("", "string")), Expr::call(Func::Str, vec![x])])
    }

    /// `STR(x)` as a value a store returns: "" for a blank node (STR of one is an error that
    /// rdflib and Virtuoso answer with a label) and, when a store of the run does not keep
    /// lexical forms (`Cap::LexicalForms`: Oxigraph writes a stored `"5.5E-3"^^xsd:double` back
    /// as `0.0055`), for a literal other than a string, whose STR would be that store's spelling.
    fn text_of(&mut self, x: Expr) -> Expr {
        let empty = || Expr::Lit(Lit::typed("", "string"));
        let mut skip = Expr::call(Func::IsBlank, vec![x.clone()]);
        if !self.has(Cap::LexicalForms) {
            let untagged = self.untagged(x.clone());
            let typed = Expr::Cmp(
                CmpOp::Ne,
                Box::new(Expr::call(Func::Datatype, vec![x.clone()])),
                Box::new(Expr::Iri(format!("{}string", crate::model::XSD))),
            );
            let literal = Expr::call(Func::IsLiteral, vec![x.clone()]);
            let number = Expr::And(Box::new(Expr::And(Box::new(literal), Box::new(untagged))), Box::new(typed));
            skip = Expr::Or(Box::new(skip), Box::new(number));
        }
        Expr::call(Func::If, vec![skip, empty(), Expr::call(Func::Str, vec![x])])
    }

    /// An aggregate's argument, of one type whatever a solution binds: a term's string (""
    /// for a blank node, which has none, and for an unbound variable) for MIN, MAX and
    /// GROUP_CONCAT, or its length for SUM, AVG, MIN and MAX.
    pub(crate) fn agg_arg(&mut self, f: AggFunc) -> Expr {
        let v = self.any_var();
        let text = Expr::call(Func::Coalesce, vec![self.text_of(v), Expr::Lit(Lit::typed("", "string"))]);
        let numeric =
            matches!(f, AggFunc::Sum | AggFunc::Avg) || !matches!(f, AggFunc::GroupConcat) && self.rng.gen_bool(0.5);
        if numeric {
            Expr::call(Func::StrLen, vec![text])
        } else {
            text
        }
    }
}

/// The kind of value `e` has whatever a solution binds (or an error), where the generator
/// knows it: a literal's by its datatype, an operator's or a built-in's by what it returns.
/// `None` for a variable, an IRI, DATATYPE (an IRI), COALESCE and language-tagged literals.
pub fn kind_of(e: &Expr) -> Option<Ty> {
    match e {
        Expr::Lit(l) if l.lang.is_some() => None,
        Expr::Lit(l) => match l.xsd()? {
            "string" => Some(Ty::Str),
            "boolean" => Some(Ty::Bool),
            local => crate::normalize::canonical(local, &l.lexical).map(|_| Ty::Num),
        },
        Expr::Neg(_) | Expr::Plus(_) | Expr::Arith(..) => Some(Ty::Num),
        Expr::Not(_) | Expr::And(..) | Expr::Or(..) | Expr::Cmp(..) | Expr::Bound(_) | Expr::Exists(..) => {
            Some(Ty::Bool)
        }
        Expr::Call(f, args) => match f {
            Func::Abs | Func::Ceil | Func::Floor | Func::Round | Func::StrLen => Some(Ty::Num),
            Func::Cast(XsdCast::Integer | XsdCast::Decimal | XsdCast::Double) => Some(Ty::Num),
            Func::Str | Func::Lang | Func::Cast(XsdCast::String) => Some(Ty::Str),
            Func::Cast(XsdCast::Boolean) => Some(Ty::Bool),
            // They keep a language tag.
            Func::UCase | Func::LCase => args.first().and_then(kind_of),
            Func::If => match args.as_slice() {
                [_, a, b] if kind_of(a) == kind_of(b) => kind_of(a),
                _ => None,
            },
            Func::IsIri | Func::IsLiteral | Func::IsBlank | Func::IsNumeric | Func::SameTerm => Some(Ty::Bool),
            Func::Contains | Func::StrStarts | Func::StrEnds | Func::Regex => Some(Ty::Bool),
            Func::Datatype | Func::Coalesce => None,
        },
        Expr::Agg(a) if a.func == AggFunc::Count => Some(Ty::Num),
        Expr::Var(_) | Expr::Iri(_) | Expr::Agg(_) => None,
    }
}

/// Whether `x` is of kind `ty`, never an error for a bound term: numbers (`isNUMERIC`, which
/// Virtuoso also answers true for its booleans, hence the datatype), simple strings, or
/// booleans. Virtuoso has no language tag nor datatype for a string it computed (`STR(?x)`
/// bound by BIND): LANG and DATATYPE answer unbound there, so they default to a simple
/// string's; every other store answers both for every literal, and COALESCE changes nothing.
fn of_kind(x: &Expr, ty: Ty) -> Expr {
    let xsd = |local: &str| Expr::Iri(format!("{}{local}", crate::model::XSD));
    let call = |f: Func| Expr::call(f, vec![x.clone()]);
    let or_default = |e: Expr, d: Expr| Expr::call(Func::Coalesce, vec![e, d]);
    let eq = |a: Expr, b: Expr| Expr::Cmp(CmpOp::Eq, Box::new(a), Box::new(b));
    let and = |a: Expr, b: Expr| Expr::And(Box::new(a), Box::new(b));
    let datatype = || or_default(call(Func::Datatype), xsd("string"));
    match ty {
        Ty::Num => {
            and(call(Func::IsNumeric), Expr::Cmp(CmpOp::Ne, Box::new(call(Func::Datatype)), Box::new(xsd("boolean"))))
        }
        Ty::Str => {
            let untagged = eq(lang_or_empty(x.clone()), empty_string());
            and(and(call(Func::IsLiteral), untagged), eq(datatype(), xsd("string")))
        }
        Ty::Bool => and(call(Func::IsLiteral), eq(datatype(), xsd("boolean"))),
    }
}

/// `""`.
fn empty_string() -> Expr {
    Expr::Lit(Lit::typed("", "string"))
}

/// `COALESCE(LANG(e), "")`: LANG where a store leaves it unbound for an untagged literal
/// (`Cap::LangOfUntagged`, Virtuoso), with the value every other store gives.
fn lang_or_empty(e: Expr) -> Expr {
    Expr::call(Func::Coalesce, vec![Expr::call(Func::Lang, vec![e]), empty_string()])
}

/// `a op b` with the same value on every store, for operands meant to be of kind `ty`: an
/// ordered comparison gets `COALESCE(K(x), false) && ...` for each operand x whose kind the
/// generator does not know (`kind_of`). Where x is of the kind, that is `a op b`, defined
/// everywhere; where it is not, or x is an error (an unbound variable), it is false on every
/// store, where SPARQL's `a op b` is an error and Virtuoso's a value of its own order. `=` and
/// `!=` are SPARQL's RDFterm-equal for terms of different kinds and are left alone.
pub fn typed_order(op: CmpOp, a: Expr, b: Expr, ty: Ty) -> Expr {
    let ordered = matches!(op, CmpOp::Lt | CmpOp::Le | CmpOp::Gt | CmpOp::Ge);
    let guards: Vec<Expr> = [&a, &b]
        .into_iter()
        .filter(|x| ordered && kind_of(x) != Some(ty))
        .map(|x| Expr::call(Func::Coalesce, vec![of_kind(x, ty), Expr::Lit(Lit::typed("false", "boolean"))]))
        .collect();
    let cmp = Expr::Cmp(op, Box::new(a), Box::new(b));
    guards.into_iter().rev().fold(cmp, |rest, g| Expr::And(Box::new(g), Box::new(rest)))
}

#[cfg(test)]
mod tests {
    use super::{typed_order, Ty};
    use crate::model::{CmpOp, Expr, Func, Lit};

    fn int(v: &str) -> Expr {
        Expr::Lit(Lit::typed(v, "integer"))
    }

    /// Only the operands of unknown kind are tested, only for an ordered comparison, and the
    /// reducer keeps the test with its comparison.
    #[test]
    fn a_kind_test_guards_each_operand_of_unknown_kind() {
        let bare = typed_order(CmpOp::Lt, int("1"), int("2"), Ty::Num);
        assert_eq!(bare, Expr::Cmp(CmpOp::Lt, Box::new(int("1")), Box::new(int("2"))));
        assert!(matches!(typed_order(CmpOp::Ne, Expr::Var(0), int("2"), Ty::Num), Expr::Cmp(..)));
        let one = typed_order(CmpOp::Gt, Expr::Var(0), int("2"), Ty::Num);
        let Expr::And(test, rest) = &one else { panic!("{one:?}") };
        assert!(matches!(&**test, Expr::Call(Func::Coalesce, _)) && matches!(&**rest, Expr::Cmp(CmpOp::Gt, ..)));
        assert!(one.is_guard());
        let two = typed_order(CmpOp::Le, Expr::Var(0), Expr::Var(1), Ty::Str);
        let Expr::And(_, rest) = &two else { panic!("{two:?}") };
        assert!(matches!(&**rest, Expr::And(_, c) if matches!(**c, Expr::Cmp(CmpOp::Le, ..))));
        // A string constant compared as a number is of another kind: tested too.
        let s = Expr::Lit(Lit::typed("a", "string"));
        assert!(matches!(typed_order(CmpOp::Lt, s, int("1"), Ty::Num), Expr::And(..)));
    }
}
