//! What a running server tells its operator: log lines on stderr (`logs.rs`, installed by
//! the command line unless the program installed a subscriber of its own) and, with the `otel`
//! feature, OpenTelemetry spans and metrics named as OpenTelemetry's semantic conventions for
//! MCP say (`mcp.rs` the request spans and histograms, `otel.rs` the exporter and its
//! configuration).
//!
//! A leaf: it reads nothing of the toolbox (the toolbox hands it what a span needs as plain
//! values), so the layers above call it. Without the `otel` feature, or with it and nothing
//! exported nor propagated, [`mcp::active`] is false and no span is made: a call pays one
//! relaxed load.

#[cfg(feature = "cli")]
pub(crate) mod logs;
pub(crate) mod mcp;
#[cfg(feature = "otel")]
pub(crate) mod otel;
