//! A raw MCP client over streamable HTTP (reqwest), on either protocol revision, for tests that
//! watch what an SDK's client hides: a call's event stream, its head, a hang-up mid-call.

use serde_json::{Value, json};

/// How a test's requests travel.
#[derive(Debug, Clone)]
pub enum Wire {
    /// Protocol 2026-07-28, stateless: every call carries the version and the client in its
    /// `_meta`.
    Stateless,
    /// Protocol 2025-11-25, in this session (initialized).
    Session(String),
}

impl Wire {
    /// A client of `url` on `version` (`2026-07-28`, or `2025-11-25` with a session opened and
    /// initialized here).
    pub async fn open(url: &str, version: &str) -> Wire {
        if version == "2026-07-28" {
            return Wire::Stateless;
        }
        assert_eq!(version, "2025-11-25", "a protocol revision");
        let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"}}});
        let response = Wire::Stateless.post(url, &initialize).await;
        assert_eq!(response.status().as_u16(), 200);
        let session = response.headers()["mcp-session-id"]
            .to_str()
            .unwrap()
            .to_owned();
        drop(response.text().await);
        let wire = Wire::Session(session);
        let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        assert_eq!(wire.post(url, &initialized).await.status().as_u16(), 202);
        wire
    }

    /// The protocol revision.
    pub fn version(&self) -> &'static str {
        match self {
            Wire::Stateless => "2026-07-28",
            Wire::Session(_) => "2025-11-25",
        }
    }

    /// `message` POSTed to `url` with this wire's headers (a `tools/call` also names its method
    /// and tool); the response once its head has come.
    pub async fn post(&self, url: &str, message: &Value) -> reqwest::Response {
        let mut request = reqwest::Client::new()
            .post(url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream");
        if message["method"] != json!("initialize") {
            request = request.header("mcp-protocol-version", self.version());
        }
        if message["method"] == json!("tools/call") {
            request = request
                .header("mcp-method", "tools/call")
                .header("mcp-name", message["params"]["name"].as_str().unwrap());
        }
        if let Wire::Session(session) = self {
            request = request.header("mcp-session-id", session);
        }
        request
            .body(message.to_string())
            .send()
            .await
            .expect("the server answers")
    }

    /// A `tools/call` of `tool` with `arguments` (and `meta`), as this wire sends it: stateless,
    /// its `_meta` also names the version, the client and its capabilities (none, unless `meta`
    /// gives them).
    pub fn call(&self, id: u64, tool: &str, arguments: Value, meta: Value) -> Value {
        let mut meta = meta;
        if let Wire::Stateless = self {
            let meta = meta.as_object_mut().expect("_meta is an object");
            for (key, value) in [
                ("protocolVersion", json!("2026-07-28")),
                ("clientInfo", json!({"name": "raw", "version": "0"})),
                ("clientCapabilities", json!({})),
            ] {
                meta.entry(format!("io.modelcontextprotocol/{key}"))
                    .or_insert(value);
            }
        }
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": arguments, "_meta": meta}})
    }

    /// Calls `tool` and waits for its whole answer: the `result` of the reply.
    pub async fn call_result(&self, url: &str, id: u64, tool: &str, arguments: Value) -> Value {
        let response = self
            .post(url, &self.call(id, tool, arguments, json!({})))
            .await;
        assert_eq!(response.status().as_u16(), 200);
        let text = response.text().await.unwrap();
        let reply = reply(&text, id);
        assert!(reply.get("result").is_some(), "{reply}");
        reply["result"].clone()
    }
}

/// The JSON-RPC reply to request `id` in an answer's text: the JSON body, or the data of the
/// event that carries it.
pub fn reply(text: &str, id: u64) -> Value {
    serde_json::from_str(text).unwrap_or_else(|_| {
        text.lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
            .find(|m| m["id"] == json!(id))
            .unwrap_or_else(|| panic!("no reply to {id} in {text:?}"))
    })
}

/// The text of a tool result's first content block.
pub fn result_text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().expect("a text block")
}
