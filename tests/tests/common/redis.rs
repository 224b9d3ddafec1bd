//! A `redis-server` of a test's own (`.ci/run` installs it before the tests).

use std::time::{Duration, Instant};

/// A `redis-server` of this test's own on a free loopback port, stopped when dropped.
pub struct RedisServer {
    child: std::process::Child,
    /// `redis://127.0.0.1:PORT/0`.
    pub url: String,
}

impl RedisServer {
    /// `None` without `redis-server` on the `PATH` (`.ci/run` installs it).
    pub async fn start() -> Option<RedisServer> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        Self::start_on(port).await
    }

    /// A `redis-server` on `port` (one that was stopped, started again).
    pub async fn start_on(port: u16) -> Option<RedisServer> {
        let child = std::process::Command::new("redis-server")
            .args([
                "--port",
                &port.to_string(),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
            ])
            .args(["--appendonly", "no"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .ok()?;
        let server = RedisServer {
            child,
            url: format!("redis://127.0.0.1:{port}/0"),
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        while tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_err()
        {
            assert!(Instant::now() < deadline, "redis-server did not listen");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        Some(server)
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
