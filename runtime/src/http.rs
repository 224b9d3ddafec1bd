//! Serving a toolbox over MCP streamable HTTP (rmcp's `StreamableHttpService` under axum).

use std::net::SocketAddr;
use std::sync::Arc;

use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio_util::sync::CancellationToken;

use crate::exec::arrival::OrderedSessions;
use crate::toolbox::{ServeError, Toolbox};

/// The path the MCP endpoint is served at.
pub const MCP_PATH: &str = "/mcp";

/// A running HTTP server: its address, and a handle to stop it.
#[derive(Debug)]
pub struct HttpServer {
    addr: SocketAddr,
    shutdown: CancellationToken,
    task: tokio::task::JoinHandle<Result<(), ServeError>>,
}

impl HttpServer {
    /// The address it listens on (useful with port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// The MCP endpoint URL, e.g. `http://127.0.0.1:8080/mcp`.
    pub fn url(&self) -> String {
        format!("http://{}{MCP_PATH}", self.addr)
    }

    /// Stops accepting connections and waits for the server to finish.
    pub async fn shutdown(self) -> Result<(), ServeError> {
        self.shutdown.cancel();
        self.task
            .await
            .map_err(|e| ServeError::new(format!("HTTP server task failed: {e}")))?
    }

    /// Waits until the server stops (for a server that runs until the process ends).
    pub async fn wait(self) -> Result<(), ServeError> {
        self.task
            .await
            .map_err(|e| ServeError::new(format!("HTTP server task failed: {e}")))?
    }
}

impl<S: Send + Sync + 'static> Toolbox<S> {
    /// Serves the toolbox over MCP streamable HTTP at `http://ADDR/mcp`, in the background.
    /// Every session shares this toolbox (tools, state, resource locks).
    ///
    /// Only loopback hosts are accepted in the `Host` header unless the address is not a
    /// loopback address (rmcp's DNS-rebinding protection).
    pub async fn serve_http(self, addr: SocketAddr) -> Result<HttpServer, ServeError> {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| ServeError::new(format!("cannot listen on {addr}: {e}")))?;
        let addr = listener
            .local_addr()
            .map_err(|e| ServeError::new(e.to_string()))?;
        let shutdown = CancellationToken::new();
        let mut config = StreamableHttpServerConfig::default();
        config.cancellation_token = shutdown.child_token();
        if !addr.ip().is_loopback() {
            config.allowed_hosts.clear();
        }
        let sessions = OrderedSessions::new(LocalSessionManager::default(), self.arrivals());
        let toolbox = self;
        let service =
            StreamableHttpService::new(move || Ok(toolbox.clone()), Arc::new(sessions), config);
        let router = axum::Router::new().nest_service(MCP_PATH, service);
        let stop = shutdown.clone();
        let task = tokio::spawn(async move {
            axum::serve(listener, router)
                .with_graceful_shutdown(async move { stop.cancelled().await })
                .await
                .map_err(|e| ServeError::new(format!("HTTP server failed: {e}")))
        });
        tracing::info!(url = %format!("http://{addr}{MCP_PATH}"), "serving MCP over streamable HTTP");
        Ok(HttpServer {
            addr,
            shutdown,
            task,
        })
    }
}
