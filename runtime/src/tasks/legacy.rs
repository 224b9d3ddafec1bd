//! Protocol 2025-11-25's experimental tasks (SEP-1686) over stdio, which rmcp does not parse:
//! its `tools/call` carries `params.task`, which rmcp's `CallToolRequestParams` drops, and its
//! `tasks/get` and `tasks/cancel` answer shapes other than the extension's. [`rename`], applied
//! by the line transport (`wire/lines.rs`) to each line it reads, renames those requests to methods of toolwright's own (custom
//! requests, answered with the 2025-11-25 shapes in `toolbox/tasks.rs`); `tasks/result` and
//! `tasks/list` need no renaming (rmcp has no such methods). Only a line that mentions `task`
//! is parsed.
//!
//! [`LegacyOut`] publishes the tasks on the server's side: each task tool's
//! `execution.taskSupport` in `tools/list`, and the `tasks` capability in the `initialize`
//! result, which rmcp's types have no field for (protocol 2026-07-28 has neither). The
//! `initialize` result never carries the tasks *extension* (the handler leaves it out): on
//! 2025-11-25 a task exists only for a task-augmented request.

use std::pin::Pin;
use std::task::{Context, Poll};

use serde_json::Value;
use tokio::io::AsyncWrite;

/// What a renamed request's method starts with; the rest is its name on the wire.
const RENAMED: &str = "toolwright/2025-11-25/";
/// A task-augmented `tools/call` of protocol 2025-11-25.
pub(crate) const CALL_2025: &str = "toolwright/2025-11-25/tools/call";
/// `tasks/get` of protocol 2025-11-25.
pub(crate) const GET_2025: &str = "toolwright/2025-11-25/tasks/get";
/// `tasks/cancel` of protocol 2025-11-25.
pub(crate) const CANCEL_2025: &str = "toolwright/2025-11-25/tasks/cancel";

/// The method a request was sent as: a renamed one's name on the wire (`tasks/get` for
/// [`GET_2025`]), any other as it is.
pub(crate) fn wire_method(method: &str) -> &str {
    method.strip_prefix(RENAMED).unwrap_or(method)
}

/// The line with its request renamed, when it is one of protocol 2025-11-25's task requests.
pub(crate) fn rename(line: &[u8]) -> Option<Vec<u8>> {
    if !line.windows(4).any(|w| w == b"task") {
        return None;
    }
    let mut message: Value = serde_json::from_slice(line).ok()?;
    let method = message.get("method")?.as_str()?;
    let params = message.get("params");
    let renamed = match method {
        "tools/call"
            if params
                .and_then(|p| p.get("task"))
                .is_some_and(Value::is_object) =>
        {
            CALL_2025
        }
        "tasks/get" | "tasks/cancel" => {
            // Protocol 2026-07-28 names its version in every request's `_meta`.
            let on_2026 = params
                .and_then(|p| p.get("_meta"))
                .and_then(|m| m.get("io.modelcontextprotocol/protocolVersion"))
                .is_some();
            if on_2026 {
                return None;
            }
            if method == "tasks/get" {
                GET_2025
            } else {
                CANCEL_2025
            }
        }
        _ => return None,
    };
    message["method"] = Value::from(renamed);
    serde_json::to_vec(&message).ok()
}

/// The server's side of stdio, with protocol 2025-11-25's task declarations added.
pub(crate) struct LegacyOut<W> {
    inner: W,
    /// An incomplete line.
    line: Vec<u8>,
    /// Lines to write.
    out: Vec<u8>,
    /// How much of `out` was written.
    at: usize,
    /// Whether some tool may run as a task: the `initialize` result declares the `tasks`
    /// capability.
    tasks: bool,
}

impl<W> LegacyOut<W> {
    pub(crate) fn new(inner: W, tasks: bool) -> Self {
        LegacyOut {
            inner,
            line: Vec::new(),
            out: Vec::new(),
            at: 0,
            tasks,
        }
    }
}

impl<W: AsyncWrite + Unpin> LegacyOut<W> {
    /// Writes what is pending to the inner writer.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        while self.at < self.out.len() {
            match Pin::new(&mut self.inner).poll_write(cx, &self.out[self.at..]) {
                Poll::Ready(Ok(0)) => {
                    return Poll::Ready(Err(std::io::ErrorKind::WriteZero.into()));
                }
                Poll::Ready(Ok(n)) => self.at += n,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
        }
        self.out.clear();
        self.at = 0;
        Poll::Ready(Ok(()))
    }
}

impl<W: AsyncWrite + Unpin> AsyncWrite for LegacyOut<W> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let this = self.get_mut();
        // Bounded: past 1 MiB pending, wait for the reader.
        if this.out.len() - this.at > 1 << 20 {
            match this.drain(cx) {
                Poll::Ready(Ok(())) => {}
                other => return other.map(|r| r.map(|()| 0)),
            }
        }
        this.line.extend_from_slice(buf);
        while let Some(end) = this.line.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = this.line.drain(..=end).collect();
            match publish(&line, this.tasks) {
                Some(published) => {
                    this.out.extend_from_slice(&published);
                    this.out.push(b'\n');
                }
                None => this.out.extend_from_slice(&line),
            }
        }
        if let Poll::Ready(Err(e)) = this.drain(cx) {
            return Poll::Ready(Err(e));
        }
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        match this.drain(cx) {
            Poll::Ready(Ok(())) => Pin::new(&mut this.inner).poll_flush(cx),
            other => other,
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        if !this.line.is_empty() {
            let rest = std::mem::take(&mut this.line);
            this.out.extend_from_slice(&rest);
        }
        match this.drain(cx) {
            Poll::Ready(Ok(())) => Pin::new(&mut this.inner).poll_shutdown(cx),
            other => other,
        }
    }
}

/// The line with protocol 2025-11-25's task declarations added: `execution.taskSupport` on the
/// tools of a `tools/list` result whose `_meta` declares it, and (with `tasks`) the `tasks`
/// capability in an `initialize` result.
pub(crate) fn publish(line: &[u8], tasks: bool) -> Option<Vec<u8>> {
    const SUPPORT: &[u8] = super::TASK_SUPPORT_META.as_bytes();
    const INITIALIZE: &[u8] = b"\"protocolVersion\"";
    let has = |needle: &[u8]| line.windows(needle.len()).any(|w| w == needle);
    let tools = has(SUPPORT);
    if !(tools || tasks && has(INITIALIZE)) {
        return None;
    }
    let mut message: Value = serde_json::from_slice(line).ok()?;
    let result = message.get_mut("result")?.as_object_mut()?;
    let mut changed = false;
    // A result of protocol 2026-07-28 says so (`resultType`): there tasks are the extension's.
    let on_2026 = result.contains_key("resultType");
    if let Some(Value::Array(listed)) = result.get_mut("tools").filter(|_| !on_2026) {
        for tool in listed.iter_mut() {
            let support = tool
                .get("_meta")
                .and_then(|m| m.get(super::TASK_SUPPORT_META))
                .cloned();
            if let (Some(support), Some(tool)) = (support, tool.as_object_mut()) {
                tool.insert(
                    "execution".to_owned(),
                    serde_json::json!({ "taskSupport": support }),
                );
                changed = true;
            }
        }
    }
    // Only `initialize` answers a `protocolVersion` (2026-07-28's `server/discover` answers
    // `supportedVersions`), and only up to 2025-11-25.
    let initialize = result
        .get("protocolVersion")
        .and_then(Value::as_str)
        .is_some_and(|v| v < "2026-07-28");
    if tasks
        && initialize
        && let Some(capabilities) = result
            .get_mut("capabilities")
            .and_then(Value::as_object_mut)
    {
        capabilities.insert(
            "tasks".to_owned(),
            serde_json::json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}),
        );
        changed = true;
    }
    if !changed {
        return None;
    }
    serde_json::to_vec(&message).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_2025_task_requests_are_renamed() {
        let call = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"m","arguments":{},"task":{"ttl":60000}}}"#;
        let renamed: Value = serde_json::from_slice(&rename(call).unwrap()).unwrap();
        assert_eq!(renamed["method"], CALL_2025);
        assert_eq!(renamed["params"]["task"]["ttl"], 60000);
        let plain = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"task","arguments":{}}}"#;
        assert!(rename(plain).is_none());
        let get = br#"{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"x"}}"#;
        assert!(
            rename(get)
                .is_some_and(|l| l.windows(GET_2025.len()).any(|w| w == GET_2025.as_bytes()))
        );
        let get_2026 = br#"{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"x","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
        assert!(rename(get_2026).is_none());
        assert!(rename(b"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}").is_none());
    }

    #[test]
    fn a_renamed_request_is_named_as_it_was_sent() {
        // What its span is named, `mcp.method.name` included.
        assert_eq!(wire_method(CALL_2025), "tools/call");
        assert_eq!(wire_method(GET_2025), "tasks/get");
        assert_eq!(wire_method(CANCEL_2025), "tasks/cancel");
        assert_eq!(wire_method("tasks/result"), "tasks/result");
    }

    #[test]
    fn the_2025_declarations_are_added_to_tools_and_capabilities() {
        let list = br#"{"jsonrpc":"2.0","id":4,"result":{"tools":[{"name":"move","inputSchema":{},"_meta":{"io.toolwright/taskSupport":"optional"}},{"name":"read","inputSchema":{}}]}}"#;
        let listed: Value = serde_json::from_slice(&publish(list, true).unwrap()).unwrap();
        assert_eq!(
            listed["result"]["tools"][0]["execution"]["taskSupport"],
            "optional"
        );
        assert!(listed["result"]["tools"][1].get("execution").is_none());
        let init = br#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"a","version":"1"}}}"#;
        let published: Value = serde_json::from_slice(&publish(init, true).unwrap()).unwrap();
        assert_eq!(
            published["result"]["capabilities"]["tasks"]["requests"]["tools"]["call"],
            serde_json::json!({})
        );
        // A toolbox without task tools declares no `tasks` capability.
        assert!(publish(init, false).is_none());
        let discover = br#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2026-07-28","capabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}"#;
        assert!(publish(discover, true).is_none());
        assert!(publish(br#"{"jsonrpc":"2.0","id":5,"result":{"content":[]}}"#, true).is_none());
        let list_2026 = br#"{"jsonrpc":"2.0","id":4,"result":{"resultType":"complete","tools":[{"name":"move","inputSchema":{},"_meta":{"io.toolwright/taskSupport":"optional"}}],"ttlMs":0}}"#;
        assert!(publish(list_2026, true).is_none());
    }
}
