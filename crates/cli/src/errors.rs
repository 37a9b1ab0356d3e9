//! Exit codes and the one error type users see.

/// No finding; or the finding no longer reproduces.
pub const EXIT_OK: i32 = 0;
/// Findings; or the finding still reproduces.
pub const EXIT_FINDINGS: i32 = 1;
/// Usage, configuration or environment error.
pub const EXIT_USAGE: i32 = 2;

/// A user or environment mistake: printed as one line, exit code 2.
#[derive(Debug)]
pub struct UserError(pub String);

impl std::fmt::Display for UserError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

pub fn user(msg: impl Into<String>) -> UserError {
    UserError(msg.into())
}

impl From<crosscheck_core::store::StoreError> for UserError {
    fn from(e: crosscheck_core::store::StoreError) -> Self {
        UserError(e.to_string())
    }
}

impl From<crosscheck_core::runner::RunError> for UserError {
    fn from(e: crosscheck_core::runner::RunError) -> Self {
        UserError(e.to_string())
    }
}

pub type Result<T> = std::result::Result<T, UserError>;
