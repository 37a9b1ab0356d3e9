//! The SQL leg: a SQL syntax tree printed per dialect, a random database and query generator,
//! the TLP / NoREC / error oracles, and the SQL engines.

pub mod engines;
