//! Arbitrary bytes as the arguments of every robot-arm tool: through validation, coercion,
//! deserialization and dispatch. Nothing may panic outside a tool body (a panic inside one is
//! caught and becomes an isError result), and every call gets a result.
//!
//! Run: `cd tests/fuzz && cargo +nightly fuzz run call_arguments -- -runs=1000000`

#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use toolwright::Toolbox;
use toolwright_examples::robot_arm::{RobotArm, SimConfig};

struct Harness {
    runtime: tokio::runtime::Runtime,
    toolbox: Toolbox<RobotArm>,
    names: Vec<String>,
}

fn harness() -> &'static Harness {
    static HARNESS: OnceLock<Harness> = OnceLock::new();
    HARNESS.get_or_init(|| {
        let toolbox = Toolbox::new(RobotArm::new(SimConfig {
            time_scale: 0.0,
            seed: 1,
            ..SimConfig::default()
        }));
        let names = toolbox.tools().iter().map(|t| t.name.to_string()).collect();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        Harness {
            runtime,
            toolbox,
            names,
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let h = harness();
    let Some((&selector, body)) = data.split_first() else {
        return;
    };
    let name = &h.names[usize::from(selector) % h.names.len()];
    let arguments = match serde_json::from_slice::<serde_json::Value>(body) {
        Ok(serde_json::Value::Object(map)) => Some(map),
        Ok(other) => {
            // Not an object: send it wrapped under each of the tool's parameter names too.
            let mut map = serde_json::Map::new();
            map.insert("waypoints".into(), other.clone());
            map.insert("force".into(), other.clone());
            map.insert("target_position".into(), other.clone());
            map.insert("axes".into(), other);
            Some(map)
        }
        Err(_) => None,
    };
    let result = h.runtime.block_on(h.toolbox.call(name, arguments));
    let result = result.expect("known tools never give a protocol error");
    assert!(!result.content.is_empty(), "every result says something");
});
