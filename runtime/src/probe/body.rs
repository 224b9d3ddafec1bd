//! The bodies generated code hands the runtime: a tool's (async or on the blocking pool) and a
//! safe stop's, whatever it returns.

use std::future::Future;

use serde_json::Value;

use crate::contract::{Body, CallError, SafeStopResult};

/// The body of an async tool (or of a sync one declared `blocking = false`): polled on the async
/// runtime.
pub fn run_async<F>(future: F) -> Body
where
    F: Future<Output = Result<Value, CallError>> + Send + 'static,
{
    Body::Async(Box::pin(future))
}

/// The body of a sync tool: run on tokio's blocking pool.
pub fn run_blocking<F>(body: F) -> Body
where
    F: FnOnce() -> Result<Value, CallError> + Send + 'static,
{
    Body::Blocking(Box::new(body))
}

/// What a safe stop may return: `()`, what it did as text (`String`, `&'static str`), or a
/// `Result` of those whose error says why it failed.
#[diagnostic::on_unimplemented(
    message = "a safe stop cannot return `{Self}`",
    label = "this method's return type is not a safe stop's",
    note = "return `()`, a `String` saying what it did (\"halted at (400, 0, 200) mm\"), or a `Result` of those whose error implements `Display`"
)]
pub trait SafeStopOutput {
    /// What the runtime reports.
    fn report(self) -> SafeStopResult;
}

#[diagnostic::do_not_recommend]
impl SafeStopOutput for () {
    fn report(self) -> SafeStopResult {
        Ok(None)
    }
}

#[diagnostic::do_not_recommend]
impl SafeStopOutput for String {
    fn report(self) -> SafeStopResult {
        Ok(Some(self))
    }
}

#[diagnostic::do_not_recommend]
impl SafeStopOutput for &'static str {
    fn report(self) -> SafeStopResult {
        Ok(Some(self.to_owned()))
    }
}

#[diagnostic::do_not_recommend]
impl<T: SafeStopOutput, E: std::fmt::Display> SafeStopOutput for Result<T, E> {
    fn report(self) -> SafeStopResult {
        self.map_err(|e| e.to_string()).and_then(T::report)
    }
}

/// An async safe stop; generated code reports what it returned through
/// `<_ as SafeStopOutput>::report`, a bound reported at the method's return type.
pub fn safe_stop_async<F>(future: F) -> Body<SafeStopResult>
where
    F: Future<Output = SafeStopResult> + Send + 'static,
{
    Body::Async(Box::pin(future))
}

/// A sync safe stop: run on tokio's blocking pool.
pub fn safe_stop_blocking<F>(stop: F) -> Body<SafeStopResult>
where
    F: FnOnce() -> SafeStopResult + Send + 'static,
{
    Body::Blocking(Box::new(stop))
}
