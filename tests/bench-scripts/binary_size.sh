#!/usr/bin/env bash
# Release binary size of the robot_arm example vs its rmcp twin (the same 7 tools written with
# rmcp's macros and schemars derives: tests/bench-scripts/rmcp_twin/main.rs).
#
#   tests/bench-scripts/binary_size.sh
#
# The twin is built as a throwaway crate under target/bench-scripts/, with the workspace's
# Cargo.lock (the same dependency versions), the same dependency features and the same release
# profile (opt-level 3, debug = 1, no LTO). Prints bytes and stripped bytes of both and the ratios.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="$root/target/bench-scripts"
twin="$work/rmcp_twin"
mkdir -p "$twin/src"

cat >"$twin/Cargo.toml" <<'EOF'
[package]
name = "robot-arm-rmcp-twin"
version = "0.1.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
rmcp = { version = "3.11.0", default-features = false, features = ["server", "macros", "transport-io"] }
schemars = { version = "1.2.3", features = ["preserve_order"] }
serde = { version = "1", features = ["derive"] }
serde_json = { version = "1", features = ["preserve_order"] }
tokio = { version = "1", features = ["rt", "macros", "sync", "time", "io-std", "io-util", "rt-multi-thread"] }
tracing = "0.1"
tracing-subscriber = { version = "0.3", features = ["env-filter", "fmt"] }

[profile.release]
debug = 1
EOF
cp "$root/tests/bench-scripts/rmcp_twin/main.rs" "$twin/src/main.rs"
cp "$root/Cargo.lock" "$twin/Cargo.lock"

echo "building the robot_arm example (release)..." >&2
(cd "$root" && cargo build --quiet --release -p toolwright-examples --example robot_arm)
echo "building the rmcp twin (release)..." >&2
(cd "$twin" && CARGO_TARGET_DIR="$work/target" cargo build --quiet --release)

ours="$root/target/release/examples/robot_arm"
theirs="$work/target/release/robot-arm-rmcp-twin"
strip -o "$work/robot_arm.stripped" "$ours"
strip -o "$work/rmcp_twin.stripped" "$theirs"

size() { stat -c %s "$1"; }
a=$(size "$ours"); b=$(size "$theirs")
as=$(size "$work/robot_arm.stripped"); bs=$(size "$work/rmcp_twin.stripped")
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

echo "| binary | bytes | stripped bytes |"
echo "|---|---|---|"
echo "| robot_arm (toolwright) | $a | $as |"
echo "| rmcp twin | $b | $bs |"
echo "| ratio | $(ratio "$a" "$b")× | $(ratio "$as" "$bs")× |"
echo "| difference | $((a - b)) | $((as - bs)) |"
