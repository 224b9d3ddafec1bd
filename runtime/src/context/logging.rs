//! Log messages to the client (MCP `notifications/message`), at the level its session or its
//! request asked for, and to `tracing` always.

use std::fmt;

use serde_json::Value;

use super::Context;
use super::link::Link;

/// The severity of a log message ([`Context::log`]): the syslog levels (RFC 5424) MCP uses, from
/// least to most severe, so levels compare with `<` and `>=`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LogLevel {
    /// Detailed information for debugging.
    Debug,
    /// Normal progress of the work.
    Info,
    /// Normal but significant events.
    Notice,
    /// Something unexpected that the work survived.
    Warning,
    /// The work failed.
    Error,
    /// A component failed.
    Critical,
    /// Action must be taken immediately.
    Alert,
    /// The system is unusable.
    Emergency,
}

impl LogLevel {
    /// Every level, from least to most severe.
    pub const ALL: [LogLevel; 8] = [
        LogLevel::Debug,
        LogLevel::Info,
        LogLevel::Notice,
        LogLevel::Warning,
        LogLevel::Error,
        LogLevel::Critical,
        LogLevel::Alert,
        LogLevel::Emergency,
    ];

    /// The level as MCP writes it (`"debug"`, `"info"`, …, `"emergency"`).
    pub fn as_str(self) -> &'static str {
        match self {
            LogLevel::Debug => "debug",
            LogLevel::Info => "info",
            LogLevel::Notice => "notice",
            LogLevel::Warning => "warning",
            LogLevel::Error => "error",
            LogLevel::Critical => "critical",
            LogLevel::Alert => "alert",
            LogLevel::Emergency => "emergency",
        }
    }

    // rmcp's logging types are deprecated by SEP-2577 (logging becomes opt-in per request on
    // protocol 2026-07-28): toolwright still serves the clients that use them.
    #[allow(deprecated)]
    pub(crate) fn from_rmcp(level: rmcp::model::LoggingLevel) -> Self {
        use rmcp::model::LoggingLevel as L;
        match level {
            L::Debug => LogLevel::Debug,
            L::Info => LogLevel::Info,
            L::Notice => LogLevel::Notice,
            L::Warning => LogLevel::Warning,
            L::Error => LogLevel::Error,
            L::Critical => LogLevel::Critical,
            L::Alert => LogLevel::Alert,
            L::Emergency => LogLevel::Emergency,
        }
    }

    // See `from_rmcp`.
    #[allow(deprecated)]
    fn to_rmcp(self) -> rmcp::model::LoggingLevel {
        use rmcp::model::LoggingLevel as L;
        match self {
            LogLevel::Debug => L::Debug,
            LogLevel::Info => L::Info,
            LogLevel::Notice => L::Notice,
            LogLevel::Warning => L::Warning,
            LogLevel::Error => L::Error,
            LogLevel::Critical => L::Critical,
            LogLevel::Alert => L::Alert,
            LogLevel::Emergency => L::Emergency,
        }
    }
}

impl fmt::Display for LogLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The level a session logs at until its client sets one (legacy protocols).
const DEFAULT_LEVEL: LogLevel = LogLevel::Info;

impl Link {
    /// The least severe level sent to the client now; `None` when nothing is.
    ///
    /// The request's own level (`_meta["io.modelcontextprotocol/logLevel"]`) wins. Without it,
    /// from protocol 2026-07-28 on nothing is sent (logging is opt-in per request, and a
    /// server must not send `notifications/message` for a request that did not ask: a level a
    /// session set does not count there); before it, the level the session set
    /// (`logging/setLevel`), else `info`.
    fn log_threshold(&self) -> Option<LogLevel> {
        if let Some(level) = self.request_level {
            return Some(level);
        }
        if self.on_2026_protocol() {
            return None;
        }
        Some(
            self.session
                .as_ref()
                .and_then(|s| s.log_level())
                .unwrap_or(DEFAULT_LEVEL),
        )
    }
}

/// A log message's data as `tracing` shows it: a string as is, any other value as JSON.
struct Shown<'a>(&'a Value);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Value::String(s) => f.write_str(s),
            other => write!(f, "{other}"),
        }
    }
}

impl Context {
    /// Logs `message` at `level`: to the client as an MCP `notifications/message` (its `logger`
    /// is the tool's name) when the level is at or above the client's, and to `tracing` (at the
    /// matching level) always.
    ///
    /// The client's level is the one the request carries
    /// (`_meta["io.modelcontextprotocol/logLevel"]`), else, on protocols before 2026-07-28, the
    /// one its session set with `logging/setLevel`. Until a client sets one, messages at `info`
    /// and above are sent; on protocol 2026-07-28 logging is opt-in per request, so a request
    /// without a level gets none. A call made in-process
    /// ([`Context::detached`]) logs to `tracing` only. A message the client cannot be sent
    /// (it disconnected) is dropped.
    ///
    /// ```rust,no_run
    /// # use toolwright::{Context, LogLevel, ToolError, tool};
    /// /// Home the axes.
    /// #[tool]
    /// async fn home(ctx: Context) -> Result<String, ToolError> {
    ///     ctx.info("homing started").await;
    ///     ctx.log(LogLevel::Notice, "axis 1 at its limit switch").await;
    ///     ctx.debug("encoder offsets: 12, -3, 0").await;
    ///     Ok("homed".into())
    /// }
    /// ```
    pub async fn log(&self, level: LogLevel, message: impl Into<String>) {
        self.log_data(level, Value::String(message.into())).await;
    }

    /// Logs any JSON value at `level` (MCP allows structured log data), like [`Context::log`].
    pub async fn log_data(&self, level: LogLevel, data: Value) {
        self.trace(level, &data);
        let Some(link) = &self.inner.link else {
            return;
        };
        if link
            .log_threshold()
            .is_none_or(|threshold| level < threshold)
        {
            return;
        }
        // Deprecated by SEP-2577 in rmcp (see `LogLevel::from_rmcp`).
        #[allow(deprecated)]
        let sent = {
            let param = rmcp::model::LoggingMessageNotificationParam::new(level.to_rmcp(), data)
                .with_logger(self.tool_name());
            link.peer.notify_logging_message(param).await
        };
        if let Err(e) = sent {
            tracing::debug!(error = %e, "log message not delivered");
        }
    }

    /// Logs at [`LogLevel::Debug`] (see [`Context::log`]): not sent until the client asks for
    /// `debug`.
    pub async fn debug(&self, message: impl Into<String>) {
        self.log(LogLevel::Debug, message).await;
    }

    /// Logs at [`LogLevel::Info`] (see [`Context::log`]).
    pub async fn info(&self, message: impl Into<String>) {
        self.log(LogLevel::Info, message).await;
    }

    /// Logs at [`LogLevel::Warning`] (see [`Context::log`]).
    pub async fn warning(&self, message: impl Into<String>) {
        self.log(LogLevel::Warning, message).await;
    }

    /// Logs at [`LogLevel::Error`] (see [`Context::log`]).
    pub async fn error(&self, message: impl Into<String>) {
        self.log(LogLevel::Error, message).await;
    }

    /// The least severe level that reaches the client now (see [`Context::log`]); `None` when
    /// no message does (in-process, or on protocol 2026-07-28 without a requested level). Check
    /// it to skip building costly messages nobody receives.
    pub fn client_log_level(&self) -> Option<LogLevel> {
        self.inner.link.as_ref().and_then(Link::log_threshold)
    }

    /// The `tracing` event of a log message.
    fn trace(&self, level: LogLevel, data: &Value) {
        let tool = self.tool_name();
        let shown = Shown(data);
        match level {
            LogLevel::Debug => tracing::debug!(tool, level = level.as_str(), "{shown}"),
            LogLevel::Info | LogLevel::Notice => {
                tracing::info!(tool, level = level.as_str(), "{shown}");
            }
            LogLevel::Warning => tracing::warn!(tool, level = level.as_str(), "{shown}"),
            LogLevel::Error | LogLevel::Critical | LogLevel::Alert | LogLevel::Emergency => {
                tracing::error!(tool, level = level.as_str(), "{shown}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_ordered_by_severity_and_match_rmcp() {
        for pair in LogLevel::ALL.windows(2) {
            assert!(pair[0] < pair[1], "{} < {}", pair[0], pair[1]);
        }
        for level in LogLevel::ALL {
            assert_eq!(LogLevel::from_rmcp(level.to_rmcp()), level);
            assert_eq!(
                serde_json::to_value(level.to_rmcp()).unwrap(),
                Value::from(level.as_str())
            );
        }
    }

    /// Records the level and message of every `tracing` event.
    struct Events(std::sync::Arc<std::sync::Mutex<Vec<(tracing::Level, String)>>>);

    impl tracing::Subscriber for Events {
        fn enabled(&self, _: &tracing::Metadata<'_>) -> bool {
            true
        }
        fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
            tracing::span::Id::from_u64(1)
        }
        fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
        fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
        fn event(&self, event: &tracing::Event<'_>) {
            struct Message(String);
            impl tracing::field::Visit for Message {
                fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn fmt::Debug) {
                    if field.name() == "message" {
                        self.0 = format!("{value:?}");
                    }
                }
            }
            let mut message = Message(String::new());
            event.record(&mut message);
            self.0
                .lock()
                .unwrap()
                .push((*event.metadata().level(), message.0));
        }
        fn enter(&self, _: &tracing::span::Id) {}
        fn exit(&self, _: &tracing::span::Id) {}
    }

    #[test]
    fn a_detached_context_logs_to_tracing_at_the_matching_level() {
        let events = std::sync::Arc::default();
        let ctx = Context::detached("t");
        tracing::subscriber::with_default(Events(std::sync::Arc::clone(&events)), || {
            futures::executor::block_on(async {
                ctx.debug("d").await;
                ctx.info("i").await;
                ctx.log(LogLevel::Notice, "n").await;
                ctx.warning("w").await;
                ctx.error("e").await;
                ctx.log_data(LogLevel::Alert, serde_json::json!({"a": 1}))
                    .await;
            });
        });
        use tracing::Level;
        assert_eq!(
            *events.lock().unwrap(),
            [
                (Level::DEBUG, "d".to_owned()),
                (Level::INFO, "i".to_owned()),
                (Level::INFO, "n".to_owned()),
                (Level::WARN, "w".to_owned()),
                (Level::ERROR, "e".to_owned()),
                (Level::ERROR, r#"{"a":1}"#.to_owned()),
            ]
        );
        assert_eq!(ctx.client_log_level(), None);
    }

    #[test]
    fn a_string_is_shown_as_is_and_other_data_as_json() {
        assert_eq!(Shown(&Value::from("moved")).to_string(), "moved");
        assert_eq!(
            Shown(&serde_json::json!({"x": 1})).to_string(),
            r#"{"x":1}"#
        );
    }
}
