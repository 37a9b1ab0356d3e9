//! Where engines that run outside crosscheck live: child processes spoken to in lines
//! (`process`), the JSON-lines protocol of Python-hosted engines (`bridge`), and private
//! throwaway servers with their statement watchdogs (`server`).

pub mod bridge;
pub mod process;
pub mod replay;
pub mod server;

pub use process::{binary_at, crash_from, find_tool, run_once, LineProcess, ReadError, RunOnce};
pub use server::{free_port, wait_for_port};
