// The README is the crate's root docs. Its links into the reference point at the source file
// on GitHub (its own link definitions, at its end); these come first, so rustdoc, which keeps
// the first definition of a label, links the rendered reference instead. `tests/tests/readme.rs`
// checks that every label the README defines is here and every section named exists.
//! [reference]: crate::reference
//! [ref-builder]: crate::reference#the-toolbox-builder
//! [ref-cli]: crate::reference#the-command-line
//! [ref-ends-early]: crate::reference#when-a-call-ends-early
//! [ref-envelopes]: crate::reference#envelopes
//! [ref-types]: crate::reference#types
//! [ref-tasks]: crate::reference#tasks
//! [ref-revisions]: crate::reference#both-protocol-revisions
//! [ref-exports]: crate::reference#exports-the-page-and-the-drift-gate
//! [ref-compiler]: crate::reference#what-the-compiler-checks
//! [ref-operating]: crate::reference#operating-a-server
//! [ref-deploying]: crate::reference#deploying-an-arm-safely
//! [ref-network]: crate::reference#serving-over-a-network
//! [ref-replicas]: crate::reference#replicas
//! [ref-robots]: crate::reference#robots-the-robot-feature
//! [ref-clients]: crate::reference#works-with
//! [audit]: crate::audit
//!
#![doc = include_str!("../README.md")]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(unreachable_pub)]

mod adapt;
pub mod audit;
pub mod bounds;
#[cfg(feature = "cli")]
mod cli;
mod content;
mod context;
mod contract;
mod echo;
mod envelope;
mod error;
mod exec;
pub mod export;
#[cfg(feature = "nalgebra")]
mod geometry;
#[cfg(feature = "http")]
mod http;
mod output;
mod probe;
#[cfg(feature = "uom")]
mod quantity;
mod rate;
pub mod reference;
#[cfg(feature = "robot")]
mod robot;
#[cfg(feature = "ros")]
mod ros;
mod schema;
mod tasks;
mod telemetry;
mod toolbox;
mod validate;
mod wire;

#[cfg(test)]
mod layering;

#[doc(hidden)]
#[path = "private.rs"]
pub mod __private;

pub use content::{Audio, Content, EmbeddedResource, Image, ResourceLink, WithContent};
pub use context::{
    CLIENT_ANSWER_LIMIT, CancelReason, ClientError, Context, DEFAULT_REQUEST_STATE_TTL,
    Elicitation, KeyError, LogLevel, RequestStateKeys,
};
pub use contract::{
    CHECK_META, CONFIRM_META, CONFIRM_NOT_NEEDED_META, CONTENT_META, ENVELOPE_META, RESOURCES_META,
    RESULT_ARGUMENTS_META, RETRY_AFTER_META, RETRYABLE_META, ROBOT_META, SCOPES_META,
    STOP_FOR_META, TRACE_ID_META, TRUNCATED_META, ToolDef, ToolSet, ToolboxDefaults,
};
pub use error::ToolError;
#[cfg(feature = "oauth")]
pub use http::OAuthConfig;
#[cfg(feature = "http")]
pub use http::{
    DEFAULT_CONFIRMATION_TIMEOUT, DEFAULT_RESUME_WINDOW, HttpOptions, HttpServer, MCP_PATH,
    STOP_RESERVE,
};
pub use rate::Rate;
#[cfg(feature = "robot")]
pub use robot::{Motion, Speed};
pub use schema::ToolSchema;
pub use tasks::{TASK_LEASE_META, TASK_SUPPORT_META, TaskLimits, TaskSupport};
#[cfg(feature = "otel")]
pub use telemetry::otel::Telemetry;
pub use toolbox::{
    BuildError, DEFAULT_MAX_ARGUMENT_BYTES, DESCRIBE_TOOL, ServeError, Toolbox, ToolboxBuilder,
    WithHandler, WithHandlerBuilder,
};
pub use toolwright_macros::{ToolSchema, tool, tool_defs, toolbox, tools};
