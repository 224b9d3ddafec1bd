#![doc = include_str!("../../README.md")]

#[cfg(feature = "cli")]
pub mod cli;
pub mod context;
pub mod error;
mod exec;
pub mod export;
#[cfg(feature = "http")]
pub mod http;
pub mod output;
mod policy;
#[cfg(feature = "redis")]
mod redis;
pub mod reference;
pub mod schema;
pub mod toolbox;
pub mod validate;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use context::{CancelReason, Context};
pub use error::ToolError;
pub use exec::rate::Rate;
pub use toolbox::{BuildError, ServeError, ToolDef, ToolSet, Toolbox, ToolboxDefaults};
pub use toolwright_macros::{ToolSchema, tool, tool_defs, toolbox, tools};

/// A type usable as a tool parameter or output with everything toolwright checks: implemented by
/// `#[derive(ToolSchema)]`, which also implements [`schemars::JsonSchema`].
pub trait ToolSchema: schemars::JsonSchema {}
