//! Arrays over the family's sorts (any index and value sort, nested arrays, bit-vector
//! indices): select, store and constant arrays `((as const (Array I V)) v)`.

use super::{Gen, Sort};
use rand::Rng;

impl<R: Rng> Gen<'_, R> {
    /// An array sort whose values are `value`, indexed by one of the family's sorts (Bool
    /// excepted, which makes arrays of two elements).
    fn index_sort(&mut self) -> Sort {
        let idx: Vec<Sort> = self.sorts.iter().filter(|s| **s != Sort::Bool).cloned().collect();
        if idx.is_empty() {
            return Sort::Bool;
        }
        self.pick(&idx).clone()
    }

    /// `(select a i)` of value sort `value`, from an array that may itself be selected from a
    /// nested array.
    pub(crate) fn select_of(&mut self, value: &Sort, depth: u32) -> String {
        let index = self.index_sort();
        let nested = self.chance(0.25);
        let arr_sort = Sort::Array(Box::new(index.clone()), Box::new(value.clone()));
        let arr = if nested && depth > 0 {
            let outer = self.index_sort();
            let i = self.term(&outer, depth - 1);
            let whole = Sort::Array(Box::new(outer), Box::new(arr_sort.clone()));
            format!("(select {} {i})", self.term(&whole, depth - 1))
        } else {
            self.term(&arr_sort, depth)
        };
        format!("(select {arr} {})", self.term(&index, depth))
    }

    /// A constant array: its element must be a value (cvc5 rejects a constant there), so
    /// the caller asks [`Gen::value`] first.
    pub(crate) fn const_array(&mut self, index: &Sort, value: &Sort) -> String {
        let v = self.value(value).unwrap_or_default();
        format!("((as const (Array {index} {value})) {v})")
    }

    /// A value (literal) of `sort`; none for uninterpreted sorts.
    pub(crate) fn value(&mut self, sort: &Sort) -> Option<String> {
        Some(match sort {
            Sort::Bool => self.pick(&["true", "false"]).to_string(),
            // cvc5 takes only a numeral or decimal there, not (- 3) or (/ 1.0 2.0).
            Sort::Int => self.rng.gen_range(0..40).to_string(),
            Sort::Real => format!("{}.{}", self.rng.gen_range(0..40), self.rng.gen_range(0..10)),
            Sort::Bv(w) => self.bv_lit(*w),
            Sort::Fp(e, s) => self.fp_value(*e, *s),
            Sort::Str => self.str_lit(),
            Sort::Array(i, v) => {
                if !self.const_arrays {
                    return None;
                }
                self.value(v)?;
                self.const_array(i, v)
            }
            Sort::Dt(i) => self.dt_term(*i, 0),
            Sort::RoundingMode => "RNE".to_string(),
            Sort::RegLan | Sort::Named(_) => return None,
        })
    }

    pub(crate) fn array_term(&mut self, index: &Sort, value: &Sort, depth: u32) -> String {
        let sort = Sort::Array(Box::new(index.clone()), Box::new(value.clone()));
        match self.below(4) {
            0 if self.const_arrays && self.value(value).is_some() => self.const_array(index, value),
            _ => {
                let a = self.term(&sort, depth);
                let (i, v) = (self.term(index, depth), self.term(value, depth));
                format!("(store {a} {i} {v})")
            }
        }
    }
}
