//! test package
