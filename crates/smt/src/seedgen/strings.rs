//! Strings and regular expressions: the whole SMT-LIB `Strings` function set (str.++ to
//! str.replace_re_all, str.to_code, str.is_digit, str.< and str.<=) and every regular
//! expression constructor, with string literals that use `\u{..}` escapes and doubled quotes.

use super::{Gen, Sort};
use rand::Rng;

/// Characters literals draw from: ASCII letters and digits, a doubled quote, escapes for
/// a letter, a non-ASCII code point and the largest SMT-LIB code point.
const CHARS: &[&str] =
    &["a", "b", "c", "0", "7", "A", " ", "\"\"", "\\u{48}", "\\u{e9}", "\\u{1F600}", "\\u{2FFFF}", "\\u{0}"];

/// The escapes of `CHARS` above 0xFF, which need the `unicode-strings` capability.
pub(crate) const WIDE: &[&str] = &["\\u{1F600}", "\\u{2FFFF}"];

impl<R: Rng> Gen<'_, R> {
    pub(crate) fn str_lit(&mut self) -> String {
        let n = self.below(4);
        // A wide code point an engine cannot read becomes a narrow one, drawn alike so the
        // stream stays the same for every other run.
        let narrow = !self.wide_chars;
        let body: String = (0..n)
            .map(|_| *self.pick(CHARS))
            .map(|c| if narrow && WIDE.contains(&c) { "\\u{e9}" } else { c })
            .collect();
        format!("\"{body}\"")
    }

    /// A one-character literal (what `re.range` takes).
    fn char_lit(&mut self) -> String {
        format!("\"{}\"", self.pick(&CHARS[..7]).replace("\"\"", "a"))
    }

    fn int_arg(&mut self, depth: u32) -> String {
        if self.th.int {
            self.term(&Sort::Int, depth)
        } else {
            self.rng.gen_range(0..4).to_string()
        }
    }

    pub(crate) fn str_term(&mut self, depth: u32) -> String {
        let s = Sort::Str;
        let a = self.term(&s, depth);
        match self.below(11) {
            0 | 1 => format!("(str.++ {a} {})", self.term(&s, depth)),
            2 => format!("(str.at {a} {})", self.int_arg(depth)),
            3 => format!("(str.substr {a} {} {})", self.int_arg(depth), self.int_arg(depth)),
            4 => {
                let op = *self.pick(&["str.replace", "str.replace_all"]);
                format!("({op} {a} {} {})", self.term(&s, depth), self.term(&s, depth))
            }
            5 if self.th.int => {
                let op = *self.pick(&["str.replace_re", "str.replace_re_all"]);
                format!("({op} {a} {} {})", self.re_term(depth), self.term(&s, depth))
            }
            6 if self.th.int => format!("(str.from_int {})", self.term(&Sort::Int, depth)),
            7 if self.th.int => format!("(str.from_code {})", self.term(&Sort::Int, depth)),
            _ => a,
        }
    }

    /// Integer-valued string functions.
    pub(crate) fn str_int_term(&mut self, depth: u32) -> String {
        let a = self.term(&Sort::Str, depth);
        match self.below(4) {
            0 => format!("(str.indexof {a} {} {})", self.term(&Sort::Str, depth), self.term(&Sort::Int, depth)),
            1 => format!("(str.to_int {a})"),
            2 => format!("(str.to_code {a})"),
            _ => format!("(str.len {a})"),
        }
    }

    pub(crate) fn re_term(&mut self, depth: u32) -> String {
        if depth == 0 || self.chance(0.3) {
            return match self.below(6) {
                0 => "re.allchar".into(),
                1 => "re.all".into(),
                2 if self.chance(0.3) => "re.none".into(),
                3 => format!("(re.range {} {})", self.char_lit(), self.char_lit()),
                _ => format!("(str.to_re {})", self.str_lit()),
            };
        }
        let d = depth - 1;
        let r = self.re_term(d);
        match self.below(11) {
            0 => format!("(re.* {r})"),
            1 => format!("(re.+ {r})"),
            2 => format!("(re.opt {r})"),
            3 => format!("(re.comp {r})"),
            4 => format!("(re.++ {r} {})", self.re_term(d)),
            5 => format!("(re.union {r} {})", self.re_term(d)),
            6 => format!("(re.inter {r} {})", self.re_term(d)),
            7 => format!("(re.diff {r} {})", self.re_term(d)),
            8 => {
                let lo = self.below(3);
                format!("((_ re.loop {lo} {}) {r})", lo + self.below(3))
            }
            9 => format!("((_ re.^ {}) {r})", self.below(4)),
            _ => format!("(str.to_re {})", self.term(&Sort::Str, d)),
        }
    }

    pub(crate) fn str_atom(&mut self, depth: u32) -> String {
        let a = self.term(&Sort::Str, depth);
        match self.below(9) {
            0 | 1 => format!("(str.in_re {a} {})", self.re_term(depth + 1)),
            2 => format!("(str.prefixof {a} {})", self.term(&Sort::Str, depth)),
            3 => format!("(str.suffixof {a} {})", self.term(&Sort::Str, depth)),
            4 => format!("(str.contains {a} {})", self.term(&Sort::Str, depth)),
            5 => format!("(str.is_digit {a})"),
            6 => format!("({} {a} {})", self.pick(&["str.<", "str.<="]), self.term(&Sort::Str, depth)),
            7 if self.th.int => {
                let op = *self.pick(&["<", "<=", "=", ">="]);
                format!("({op} {} {})", self.str_int_term(depth), self.term(&Sort::Int, depth))
            }
            _ => format!("(= {a} {})", self.term(&Sort::Str, depth)),
        }
    }
}
