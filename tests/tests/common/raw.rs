//! A client that speaks raw JSON-RPC lines to a toolbox served on a pipe: for input no typed
//! client can send, and for requests written in one batch.

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader, DuplexStream};
use toolwright::Toolbox;

/// A client that writes raw lines to the server's transport and reads its raw replies.
pub struct Raw {
    lines: tokio::io::Lines<BufReader<tokio::io::ReadHalf<DuplexStream>>>,
    writer: tokio::io::WriteHalf<DuplexStream>,
}

impl Raw {
    /// Serves `toolbox` on a pipe as stdio is served (`Toolbox::serve_lines`) and initializes a
    /// session by hand.
    pub async fn connect<S: Send + Sync + 'static>(toolbox: Toolbox<S>) -> Raw {
        Raw::connect_with(toolbox, json!({})).await
    }

    /// The same, the client declaring `capabilities` in its `initialize`.
    pub async fn connect_with<S: Send + Sync + 'static>(
        toolbox: Toolbox<S>,
        capabilities: Value,
    ) -> Raw {
        let (server_io, client_io) = tokio::io::duplex(1 << 20);
        tokio::spawn(async move {
            let (read, write) = tokio::io::split(server_io);
            let server = toolbox
                .serve_lines(read, write)
                .await
                .expect("server starts");
            let _ = server.waiting().await;
        });
        let (read, writer) = tokio::io::split(client_io);
        let mut raw = Raw {
            lines: BufReader::new(read).lines(),
            writer,
        };
        let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": capabilities,
            "clientInfo": {"name": "raw", "version": "0"}}});
        raw.send(initialize.to_string().as_bytes()).await;
        let replies = raw.until(0).await;
        assert!(
            replies[0]["result"]["serverInfo"].is_object(),
            "{replies:?}"
        );
        raw.send(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            .await;
        raw
    }

    /// Writes one line.
    pub async fn send(&mut self, line: &[u8]) {
        self.writer.write_all(line).await.expect("write");
        self.writer.write_all(b"\n").await.expect("write");
        self.writer.flush().await.expect("flush");
    }

    /// Writes these lines in one write, as a client sending a batch of requests does.
    pub async fn send_together(&mut self, lines: &[String]) {
        let mut all = lines.join("\n").into_bytes();
        all.push(b'\n');
        self.writer.write_all(&all).await.expect("write");
        self.writer.flush().await.expect("flush");
    }

    /// The next message the server writes.
    pub async fn next(&mut self) -> Value {
        let line = self
            .lines
            .next_line()
            .await
            .expect("read")
            .expect("the server closed the connection");
        serde_json::from_str(&line).expect("the server writes JSON")
    }

    /// Every message up to and including the response with this id.
    pub async fn until(&mut self, id: u64) -> Vec<Value> {
        let mut seen = Vec::new();
        loop {
            let message = self.next().await;
            let done = message["id"] == json!(id);
            seen.push(message);
            if done {
                return seen;
            }
        }
    }

    /// Sends a tools/call line with these raw arguments (JSON text, possibly invalid).
    pub async fn call_raw(&mut self, id: u64, tool: &str, arguments: &[u8]) {
        let mut line = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":"#
        )
        .into_bytes();
        line.extend_from_slice(arguments);
        line.extend_from_slice(b"}}");
        self.send(&line).await;
    }

    /// The arm's state through a well-formed call, collecting whatever arrives before it.
    pub async fn state(&mut self, id: u64) -> (Value, Vec<Value>) {
        self.call_raw(id, "get_arm_state", b"{}").await;
        let mut seen = self.until(id).await;
        let reply = seen.pop().expect("the reply");
        (reply["result"]["structuredContent"].clone(), seen)
    }
}
