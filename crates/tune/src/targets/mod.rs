//! The tools crosscheck tunes, each one file behind [`crate::Target`].
