//! What a running server tells its operator: log lines on stderr (`logs.rs`, installed by
//! the command line unless the program installed a subscriber of its own).
//!
//! It sits at the top of the layers, beside `cli`: it reads nothing of the toolbox, and only the
//! command line calls it.

pub(crate) mod logs;
