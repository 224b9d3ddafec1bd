//! Definitions whose published schema must agree with what serde accepts: a variant's own
//! `rename_all`, an enum's `rename_all_fields`, and a field whose type has the same name as the
//! type being derived but lives in another module (not a recursion), and a variant serde skips
//! (its fields' attributes shape nothing published, so they are not read).

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use toolwright::{ToolSchema, Toolbox, tool, tool_defs};

/// A command for the arm.
#[derive(Debug, Serialize, Deserialize, ToolSchema)]
#[serde(tag = "kind")]
enum Command {
    /// Move to a target at a speed.
    #[serde(rename_all = "camelCase")]
    MoveTo {
        /// Fraction of the maximum speed.
        #[param(range = 0.1..=1.0)]
        target_speed: f64,
    },
    /// Open the gripper.
    Open {
        /// How wide.
        #[param(unit = "mm", range = 0.0..=85.0)]
        gripper_width: f64,
    },
}

/// A command, with every field named by the enum's rule.
#[derive(Debug, Serialize, Deserialize, ToolSchema)]
#[serde(rename_all_fields = "SCREAMING_SNAKE_CASE")]
enum Setting {
    /// Limits of a motion.
    Limits {
        /// Largest speed.
        #[param(unit = "mm/s")]
        max_speed: f64,
    },
}

mod geo {
    use serde::{Deserialize, Serialize};
    use toolwright::ToolSchema;

    /// A pose in another library's terms.
    #[derive(Debug, Clone, Copy, Serialize, Deserialize, ToolSchema)]
    pub struct Pose {
        /// X, mm.
        #[param(unit = "mm")]
        pub x: f64,
        /// Y, mm.
        #[param(unit = "mm")]
        pub y: f64,
    }
}

/// Our pose: another library's pose, with a frame name. Not recursive.
#[derive(Debug, Serialize, Deserialize, ToolSchema)]
struct Pose {
    /// The wrapped pose.
    inner: geo::Pose,
    /// The frame it is expressed in.
    #[param(max_length = 32)]
    frame: String,
}

#[allow(dead_code)] // Used only by the skipped variant, whose fields serde never reads.
mod as_text {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&v.to_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        String::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

/// A gripper action.
#[derive(Debug, Serialize, Deserialize, ToolSchema)]
enum Grip {
    /// Close with a force.
    Close {
        /// Grip force.
        #[param(unit = "N", range = 0.0..=40.0)]
        force: f64,
    },
    /// A calibration record the driver keeps: never read nor written by serde, so never published.
    /// (Never built in this test: only its declaration matters.)
    #[serde(skip)]
    #[allow(dead_code)]
    Calibration {
        #[serde(with = "as_text")]
        raw: f64,
    },
}

/// Run a command.
#[tool]
fn run_command(
    /// The command.
    command: Command,
) -> String {
    format!("{command:?}")
}

/// Apply a setting.
#[tool]
fn apply(
    /// The setting.
    setting: Setting,
) -> String {
    format!("{setting:?}")
}

/// Go to a pose.
#[tool]
fn go_to(
    /// The pose.
    pose: Pose,
) -> String {
    format!("{pose:?}")
}

/// Act with the gripper.
#[tool]
fn grip(
    /// The action.
    action: Grip,
) -> String {
    format!("{action:?}")
}

fn toolbox() -> Toolbox {
    Toolbox::from_tools((), tool_defs![run_command, apply, go_to, grip])
}

fn properties(tool: &str, at: &str) -> Vec<String> {
    let t = toolbox();
    let schema = Value::Object((*t.tool(tool).unwrap().input_schema).clone());
    let mut names: Vec<String> = Vec::new();
    fn collect(v: &Value, out: &mut Vec<String>) {
        if let Some(props) = v.get("properties").and_then(Value::as_object) {
            out.extend(props.keys().cloned());
            props.values().for_each(|p| collect(p, out));
        }
        for key in ["oneOf", "anyOf"] {
            if let Some(list) = v.get(key).and_then(Value::as_array) {
                list.iter().for_each(|p| collect(p, out));
            }
        }
    }
    collect(&schema["properties"][at], &mut names);
    names
}

async fn call(tool: &str, args: Value) -> (bool, String) {
    let r = toolbox()
        .call(tool, args.as_object().cloned())
        .await
        .unwrap();
    (
        r.is_error == Some(true),
        r.content[0].as_text().unwrap().text.clone(),
    )
}

#[tokio::test]
async fn a_variants_rename_all_names_its_fields() {
    let names = properties("run_command", "command");
    assert!(names.contains(&"targetSpeed".to_owned()), "{names:?}");
    assert!(!names.contains(&"target_speed".to_owned()), "{names:?}");
    assert!(
        names.contains(&"gripper_width".to_owned()),
        "other variants keep theirs"
    );
    let (error, text) = call(
        "run_command",
        json!({"command": {"kind": "MoveTo", "targetSpeed": 0.5}}),
    )
    .await;
    assert!(!error, "{text}");
    assert_eq!(text, "MoveTo { target_speed: 0.5 }");
    // The published range is enforced on the renamed field.
    let (error, text) = call(
        "run_command",
        json!({"command": {"kind": "MoveTo", "targetSpeed": 5}}),
    )
    .await;
    assert!(error);
    assert!(
        text.contains("command.targetSpeed: must be between 0.1 and 1"),
        "{text}"
    );
    // serde's own output validates against the same schema (a round trip through the tool).
    let sent = serde_json::to_value(Command::MoveTo { target_speed: 0.25 }).unwrap();
    assert_eq!(sent, json!({"kind": "MoveTo", "targetSpeed": 0.25}));
    assert!(!call("run_command", json!({"command": sent})).await.0);
}

#[tokio::test]
async fn an_enums_rename_all_fields_names_every_variants_fields() {
    let names = properties("apply", "setting");
    assert!(names.contains(&"MAX_SPEED".to_owned()), "{names:?}");
    let sent = serde_json::to_value(Setting::Limits { max_speed: 250.0 }).unwrap();
    assert_eq!(sent, json!({"Limits": {"MAX_SPEED": 250.0}}));
    let (error, text) = call("apply", json!({"setting": sent})).await;
    assert!(!error, "{text}");
    assert_eq!(text, "Limits { max_speed: 250.0 }");
}

#[tokio::test]
async fn a_type_wrapping_another_modules_type_of_the_same_name_is_not_recursive() {
    let (error, text) = call(
        "go_to",
        json!({"pose": {"inner": {"x": 1, "y": 2}, "frame": "base"}}),
    )
    .await;
    assert!(!error, "{text}");
    assert_eq!(
        text,
        "Pose { inner: Pose { x: 1.0, y: 2.0 }, frame: \"base\" }"
    );
}

#[tokio::test]
async fn a_skipped_variants_fields_are_not_read() {
    // `#[serde(with)]` is refused where it would shape a published value; on a variant serde
    // skips it shapes nothing, so the type derives, and the variant is in no schema.
    let schema = serde_json::to_string(&*toolbox().tool("grip").unwrap().input_schema).unwrap();
    assert!(schema.contains("Close"), "{schema}");
    assert!(
        !schema.contains("Calibration") && !schema.contains("raw"),
        "{schema}"
    );
    assert!(serde_json::to_value(Grip::Calibration { raw: 1.0 }).is_err());
    let (error, text) = call("grip", json!({"action": {"Close": {"force": 12.5}}})).await;
    assert!(!error, "{text}");
    assert!(text.contains("Close { force: 12.5 }"), "{text}");
}
