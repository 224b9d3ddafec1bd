//! Errors a tool returns to the model.

use std::fmt;

/// An error returned by a tool body, shown to the model as an `isError` result.
///
/// Write the message for the model: say what went wrong in terms of the tool's arguments, and use
/// [`ToolError::with_hint`] to say what to do instead. Both end up in the result text:
///
/// ```text
/// target (900, 0, 300) mm is out of reach: it is 948 mm from the base, the arm reaches 850 mm
/// Hint: choose a point closer to the base, or move the object first
/// ```
///
/// Tools return it as `Result<T, ToolError>`; `?` works on any error that converts into it
/// (`String`, `&str`, or anything through [`ToolError::from_error`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError {
    message: String,
    hint: Option<String>,
    retryable: bool,
}

impl ToolError {
    /// An error with a message for the model.
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            hint: None,
            retryable: false,
        }
    }

    /// Builds an error from any [`std::error::Error`], keeping its chain of sources in the message.
    pub fn from_error(error: &(dyn std::error::Error + 'static)) -> Self {
        let mut message = error.to_string();
        let mut source = error.source();
        while let Some(cause) = source {
            message.push_str(": ");
            message.push_str(&cause.to_string());
            source = cause.source();
        }
        Self::new(message)
    }

    /// Adds a hint: what the model should do instead.
    #[must_use]
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Marks the error as transient: calling again with the same arguments may succeed.
    #[must_use]
    pub fn retryable(mut self) -> Self {
        self.retryable = true;
        self
    }

    /// The message for the model.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The hint, if any.
    pub fn hint(&self) -> Option<&str> {
        self.hint.as_deref()
    }

    /// Whether calling again may succeed.
    pub fn is_retryable(&self) -> bool {
        self.retryable
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if let Some(hint) = &self.hint {
            write!(f, "\nHint: {hint}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ToolError {}

impl From<String> for ToolError {
    fn from(message: String) -> Self {
        Self::new(message)
    }
}

impl From<&str> for ToolError {
    fn from(message: &str) -> Self {
        Self::new(message)
    }
}

/// A boxed error, as `Result<T, Box<dyn Error + Send + Sync>>` tools return: its message and
/// its sources' (as [`ToolError::from_error`]).
impl From<Box<dyn std::error::Error + Send + Sync>> for ToolError {
    fn from(error: Box<dyn std::error::Error + Send + Sync>) -> Self {
        Self::from_error(&*error)
    }
}

/// A boxed error that is not `Send`: its message and its sources'.
impl From<Box<dyn std::error::Error>> for ToolError {
    fn from(error: Box<dyn std::error::Error>) -> Self {
        Self::from_error(&*error)
    }
}

impl From<std::io::Error> for ToolError {
    fn from(error: std::io::Error) -> Self {
        Self::from_error(&error)
    }
}

impl From<serde_json::Error> for ToolError {
    fn from(error: serde_json::Error) -> Self {
        Self::from_error(&error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_joins_message_and_hint() {
        let e =
            ToolError::new("gripper is empty").with_hint("call grasp_object_force_control first");
        assert_eq!(
            e.to_string(),
            "gripper is empty\nHint: call grasp_object_force_control first"
        );
        assert!(!e.is_retryable());
        assert!(ToolError::from("busy").retryable().is_retryable());
    }

    #[test]
    fn from_error_keeps_the_source_chain() {
        let io = std::io::Error::other(ToolError::new("inner cause"));
        let e = ToolError::from(io);
        assert_eq!(e.message(), "inner cause");
    }
}
