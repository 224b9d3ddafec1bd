//! The line transport toolwright serves stdio with (and any reader and writer pair,
//! [`Toolbox::serve_lines`](crate::Toolbox::serve_lines)): newline-delimited JSON-RPC, as
//! rmcp's `AsyncRwTransport` reads it, with three differences:
//!
//! - every line rmcp's parser refuses is answered (`super::classify`; never a response or a
//!   notification, and within a rate, [`Budget`]): the parse is rmcp's own, once, and only a
//!   line it refused is looked at again;
//! - a line longer than the size limit (the toolbox's argument limit plus the envelope's room,
//!   the same as an HTTP body's) is refused as it streams in: its bytes are scanned for its id
//!   and dropped, never held whole, so a 20 MB line costs the memory of the limit, not 20 MB;
//! - protocol 2025-11-25's task requests are renamed as they are read (`tasks/legacy.rs`);
//! - a request on a connection that began with `initialize` (a session of protocol 2025-11-25 or
//!   earlier: 2026-07-28 has no handshake) is served by its session's rules whatever its `_meta`
//!   says: the per-request revision and capabilities of 2026-07-28 are taken out of its `_meta`
//!   (and logged), so it cannot bring 2026-07-28's rounds, answers or tasks into the session.

use std::io;
use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::io::{AsyncBufReadExt as _, AsyncRead, AsyncWrite, AsyncWriteExt as _, BufReader};

use super::{Budget, Refusal, Scan};

/// Newline-delimited JSON-RPC on a reader and a writer, every bad line answered.
pub(crate) struct Lines<R, W> {
    read: BufReader<R>,
    /// The line being read (at most `limit` bytes).
    line: Vec<u8>,
    limit: usize,
    /// A line over the limit, being dropped as it arrives: its top level scanned so far. On
    /// the struct, not in a local: `receive` is polled in a `select!` and may be dropped
    /// between two reads.
    discarding: Option<Box<Scan>>,
    write: Arc<tokio::sync::Mutex<Option<W>>>,
    budget: Budget,
    /// Whether the connection began with `initialize`: its requests follow the session's
    /// revision ([`session_rules`]).
    initialized: bool,
}

/// What one bounded line read found.
enum Read {
    /// A whole line is in `line`.
    Line,
    /// A line over the limit ended; it was dropped, its top level scanned.
    TooLarge(Box<Scan>),
    Eof,
    Io(io::Error),
}

enum Step {
    Line,
    More,
    Dropped,
}

impl<R, W> Lines<R, W>
where
    R: AsyncRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send + 'static,
{
    /// Reads lines of at most `limit` bytes from `read`, writes messages to `write`.
    pub(crate) fn new(read: R, write: W, limit: usize) -> Self {
        Lines {
            read: BufReader::new(read),
            line: Vec::new(),
            limit,
            discarding: None,
            write: Arc::new(tokio::sync::Mutex::new(Some(write))),
            budget: Budget::default(),
            initialized: false,
        }
    }

    /// Reads up to the next newline, never holding more than `limit` bytes of a line
    /// (cancel-safe: what was read stays in `line` or `discarding`, and `consume` follows each
    /// copy with no await between).
    async fn read_line(&mut self) -> Read {
        loop {
            let (consumed, step) = {
                let available = match self.read.fill_buf().await {
                    Ok(available) => available,
                    Err(e) => return Read::Io(e),
                };
                if available.is_empty() {
                    return Read::Eof;
                }
                let newline = available.iter().position(|&b| b == b'\n');
                let take = newline.map_or(available.len(), |at| at + 1);
                let content = newline.map_or(take, |at| at);
                let piece = &available[..take];
                let step = if let Some(scan) = &mut self.discarding {
                    scan.feed(piece);
                    if newline.is_some() {
                        Step::Dropped
                    } else {
                        Step::More
                    }
                } else if self.line.len().saturating_add(content) > self.limit {
                    let mut scan = Box::new(Scan::default());
                    scan.feed(&self.line);
                    scan.feed(piece);
                    // Give back what the line took: an oversized line must not leave its
                    // buffer behind.
                    self.line = Vec::new();
                    self.discarding = Some(scan);
                    if newline.is_some() {
                        Step::Dropped
                    } else {
                        Step::More
                    }
                } else {
                    self.line.extend_from_slice(piece);
                    if newline.is_some() {
                        Step::Line
                    } else {
                        Step::More
                    }
                };
                (take, step)
            };
            self.read.consume(consumed);
            match step {
                Step::Line => return Read::Line,
                Step::More => {}
                Step::Dropped => {
                    if let Some(scan) = self.discarding.take() {
                        return Read::TooLarge(scan);
                    }
                }
            }
        }
    }

    /// Answers a message rmcp could not parse, unless it may not be answered (a response, a
    /// notification) or the budget of error answers is spent. The answer is written by a task
    /// of its own, so `receive` stays cancel-safe.
    fn refuse(&mut self, refusal: &Refusal) {
        if !refusal.answer {
            tracing::debug!(kind = refusal.kind(), message = %refusal.message, "stdio: message ignored");
            return;
        }
        tracing::info!(
            code = refusal.code,
            id = %refusal.id.as_ref().map_or_else(|| "null".to_owned(), ToString::to_string),
            message = %refusal.message,
            "stdio: invalid message refused"
        );
        if !self.budget.take() {
            return;
        }
        let mut bytes = refusal.to_json();
        bytes.push(b'\n');
        let write = Arc::clone(&self.write);
        tokio::spawn(async move {
            let mut write = write.lock().await;
            if let Some(write) = write.as_mut()
                && write.write_all(&bytes).await.is_ok()
            {
                let _ = write.flush().await;
            }
        });
    }
}

/// The `_meta` keys by which a request of protocol 2026-07-28 names its revision and its
/// client's capabilities (SEP-2575).
const PER_REQUEST_KEYS: [&str; 2] = [
    "io.modelcontextprotocol/protocolVersion",
    "io.modelcontextprotocol/clientCapabilities",
];

/// Keeps a session's requests to its session's revision: once the connection began with
/// `initialize` (`initialized`), a request's per-request revision and capabilities are taken out
/// of its `_meta`, so it is served as the session negotiated (an approval of 2026-07-28 cannot be
/// brought into a 2025-11-25 session whose user is asked by elicitation).
fn session_rules(message: &mut RxJsonRpcMessage<RoleServer>, initialized: &mut bool) {
    use rmcp::model::{ClientRequest, GetMeta as _, JsonRpcMessage};
    let JsonRpcMessage::Request(request) = message else {
        return;
    };
    if matches!(request.request, ClientRequest::InitializeRequest(_)) {
        *initialized = true;
        return;
    }
    if !*initialized {
        return;
    }
    let meta = request.request.get_meta_mut();
    let removed: Vec<&str> = PER_REQUEST_KEYS
        .into_iter()
        .filter(|key| meta.0.remove(*key).is_some())
        .collect();
    if !removed.is_empty() {
        tracing::info!(
            id = %request.id,
            keys = ?removed,
            "stdio: a request of an initialized session named a protocol revision of its own; \
             served by the session's"
        );
    }
}

/// The line without its newline and a carriage return before it.
fn trimmed(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

impl<R, W> Transport<RoleServer> for Lines<R, W>
where
    R: AsyncRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), io::Error>> + Send + 'static {
        let bytes = serde_json::to_vec(&item).map(|mut bytes| {
            bytes.push(b'\n');
            bytes
        });
        let write = Arc::clone(&self.write);
        async move {
            let bytes = bytes?;
            let mut write = write.lock().await;
            let Some(write) = write.as_mut() else {
                return Err(io::Error::new(
                    io::ErrorKind::NotConnected,
                    "the transport is closed",
                ));
            };
            write.write_all(&bytes).await?;
            write.flush().await
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            match self.read_line().await {
                Read::Line => {}
                Read::TooLarge(scan) => {
                    let refusal = super::too_large(&scan, self.limit);
                    self.refuse(&refusal);
                    continue;
                }
                // A last line without its newline is an incomplete message: nothing to deliver.
                Read::Eof => return None,
                Read::Io(e) => {
                    tracing::error!(error = %e, "stdio: reading failed");
                    return None;
                }
            }
            let parsed = {
                let line = trimmed(&self.line);
                if line.is_empty() {
                    self.line.clear();
                    continue;
                }
                let renamed = crate::tasks::legacy::rename(line);
                let line = renamed.as_deref().unwrap_or(line);
                let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
                serde_json::from_slice::<RxJsonRpcMessage<RoleServer>>(line)
                    .map_err(|e| super::classify(line, Some(&e)))
            };
            self.line.clear();
            match parsed {
                Ok(mut message) => {
                    session_rules(&mut message, &mut self.initialized);
                    return Some(message);
                }
                Err(refusal) => self.refuse(&refusal),
            }
        }
    }

    async fn close(&mut self) -> Result<(), io::Error> {
        drop(self.write.lock().await.take());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    /// A transport on pipes, its client's writer and the lines it answers with.
    fn pipes(
        limit: usize,
    ) -> (
        Lines<tokio::io::DuplexStream, tokio::io::DuplexStream>,
        tokio::io::DuplexStream,
        tokio::io::Lines<BufReader<tokio::io::DuplexStream>>,
    ) {
        let (client_out, server_in) = tokio::io::duplex(1 << 16);
        let (server_out, client_in) = tokio::io::duplex(1 << 16);
        (
            Lines::new(server_in, server_out, limit),
            client_out,
            BufReader::new(client_in).lines(),
        )
    }

    async fn answer(lines: &mut tokio::io::Lines<BufReader<tokio::io::DuplexStream>>) -> Value {
        let line = tokio::time::timeout(std::time::Duration::from_secs(5), lines.next_line())
            .await
            .expect("an answer in time")
            .unwrap()
            .unwrap();
        serde_json::from_str(&line).unwrap()
    }

    #[tokio::test]
    async fn good_lines_pass_and_bad_ones_are_answered_in_order() {
        let (mut transport, mut client, mut answers) = pipes(1 << 20);
        let input = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\nnot json\n\n{\"jsonrpc\":\"2.0\",\"id\":2}\n{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}\n";
        tokio::spawn(async move {
            for piece in input.chunks(5) {
                client.write_all(piece).await.unwrap();
            }
            client.shutdown().await.unwrap();
        });
        let first = transport.receive().await.expect("the ping");
        assert!(serde_json::to_string(&first).unwrap().contains("\"id\":1"));
        let third = transport.receive().await.expect("the second ping");
        assert!(serde_json::to_string(&third).unwrap().contains("\"id\":3"));
        assert!(transport.receive().await.is_none(), "end of input");
        let parse = answer(&mut answers).await;
        assert_eq!(parse["error"]["code"], -32700);
        assert_eq!(parse["id"], Value::Null);
        let no_method = answer(&mut answers).await;
        assert_eq!(no_method["error"]["code"], -32600);
        assert_eq!(no_method["id"], 2);
    }

    #[tokio::test]
    async fn a_line_over_the_limit_is_dropped_as_it_streams_and_answered_with_its_id() {
        let (mut transport, mut client, mut answers) = pipes(1_000);
        tokio::spawn(async move {
            client
                .write_all(br#"{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"s":""#)
                .await
                .unwrap();
            for _ in 0..100 {
                client.write_all(&[b'x'; 10_000]).await.unwrap();
            }
            client
                .write_all(b"\"}}\n{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}\n")
                .await
                .unwrap();
        });
        let next = transport.receive().await.expect("the ping after it");
        assert!(serde_json::to_string(&next).unwrap().contains("\"id\":5"));
        assert!(
            transport.line.capacity() <= 2_000,
            "the big line's bytes were not kept: {}",
            transport.line.capacity()
        );
        let refused = answer(&mut answers).await;
        assert_eq!(refused["id"], json!("big"));
        assert_eq!(refused["error"]["code"], -32600);
        assert!(
            refused["error"]["message"]
                .as_str()
                .unwrap()
                .contains("larger than 1000 bytes")
        );
    }

    #[tokio::test]
    async fn responses_are_never_answered_and_answers_are_bounded() {
        let (mut transport, mut client, mut answers) = pipes(1 << 20);
        tokio::spawn(async move {
            client
                .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":5,\"x\":}\n")
                .await
                .unwrap();
            for _ in 0..100 {
                client
                    .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1}\n")
                    .await
                    .unwrap();
            }
            client.shutdown().await.unwrap();
        });
        assert!(transport.receive().await.is_none());
        // Flush the answers' tasks: the writer is closed after the last.
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        transport.close().await.unwrap();
        drop(transport);
        let mut count = 0;
        while let Ok(Some(line)) = answers.next_line().await {
            let v: Value = serde_json::from_str(&line).unwrap();
            assert_eq!(v["id"], 1, "the response line is not answered: {line}");
            count += 1;
        }
        assert!(
            (20..=22).contains(&count),
            "a burst of answers, then the rate: {count}"
        );
    }
}
