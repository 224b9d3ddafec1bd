//! The short, in-CI version of the cargo-fuzz target (tests/fuzz): arbitrary JSON values as the
//! arguments of every robot-arm tool. Every call gets a result (never a protocol error, never a
//! panic outside a tool body), invalid arguments name a field, and the toolbox keeps answering.

use proptest::prelude::*;
use serde_json::{Map, Value, json};
use toolwright::Toolbox;
use toolwright_examples::robot_arm::{RobotArm, SimConfig};

fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Value::from),
        "[a-zA-Z0-9 _.-]{0,12}".prop_map(Value::from),
        prop_oneof![
            Just("parallel"),
            Just("suction"),
            Just("kalman"),
            Just("Fx"),
            Just("15"),
            Just("15N"),
            Just("x"),
            Just("target_position"),
            Just("waypoints"),
            Just("-0"),
            Just("1e400"),
        ]
        .prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop_oneof![
                        Just("x".to_owned()),
                        Just("y".to_owned()),
                        Just("z".to_owned()),
                        Just("force".to_owned()),
                        Just("speed".to_owned()),
                        Just("axes".to_owned()),
                        Just("filter".to_owned()),
                        Just("waypoints".to_owned()),
                        Just("execute".to_owned()),
                        Just("target_position".to_owned()),
                        Just("grasp_strategy".to_owned()),
                        Just("timeout".to_owned()),
                        "[a-z]{1,6}",
                    ],
                    inner,
                ),
                0..6,
            )
            .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_arguments_always_get_a_result(tool in 0usize..8, args in any_json()) {
        let rt = runtime();
        let toolbox = Toolbox::builder(RobotArm::new(SimConfig { time_scale: 0.0, seed: 1, ..SimConfig::default() })).with_confirmation(false).build().unwrap();
        let name = toolbox.tools()[tool].name.to_string();
        let arguments = match &args {
            Value::Object(map) => Some(map.clone()),
            other => Some(json!({"target_position": other, "waypoints": other, "x": other}).as_object().unwrap().clone()),
        };
        let result = rt.block_on(toolbox.call(&name, arguments)).expect("known tools never give a protocol error");
        prop_assert!(!result.content.is_empty());
        let text = result.content[0].as_text().map(|t| t.text.clone()).unwrap_or_default();
        if text.starts_with("Invalid arguments") {
            prop_assert_eq!(result.is_error, Some(true));
            // Every problem line names a path: "- name: ..." or "- arguments: ..." (the last
            // line of a long list counts the problems not listed).
            for line in text.lines().filter(|l| l.starts_with("- ") && !l.starts_with("- … and ")) {
                prop_assert!(line.contains(": "), "{}", line);
            }
        }
        let next = rt.block_on(toolbox.call("get_arm_state", None)).unwrap();
        prop_assert_eq!(next.is_error, Some(false));
    }
}
