//! Example toolboxes built with toolwright. The flagship is [`robot_arm`]: a simulated 6-axis arm
//! with a force/torque sensor, served as an MCP server by `examples/robot_arm.rs`.
//! [`parts_catalog`] is a stateless, read-only catalogue that runs as several replicas
//! (`examples/parts_catalog.rs`).

pub mod parts_catalog;
pub mod robot_arm;

/// Logs to stderr (stdout carries MCP on stdio), at `info` unless `RUST_LOG` says otherwise:
/// what each example server's `main` does first.
pub fn log_to_stderr() {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .init();
}
