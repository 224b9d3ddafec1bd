//! Reading a `joint_limits.yaml` (ros2_control's `joint_limits.<joint>.<key>` parameters, the
//! file MoveIt's configurations ship): per joint, the keys toolwright knows, each a finite
//! number or a boolean with the line it is on. What the values may do (only tighten the URDF)
//! is decided in `reduce.rs`, which knows the URDF.

use super::decl::did_you_mean;
use super::yaml::{self, Node};

/// The keys of one joint's entry and whether each is a boolean flag.
pub const KEYS: &[(&str, bool)] = &[
    ("has_position_limits", true),
    ("min_position", false),
    ("max_position", false),
    ("has_velocity_limits", true),
    ("max_velocity", false),
    ("has_acceleration_limits", true),
    ("max_acceleration", false),
    ("has_deceleration_limits", true),
    ("max_deceleration", false),
    ("has_jerk_limits", true),
    ("max_jerk", false),
    ("has_effort_limits", true),
    ("max_effort", false),
    ("angle_wraparound", true),
    ("has_soft_limits", true),
    ("k_position", false),
    ("k_velocity", false),
    ("soft_lower_limit", false),
    ("soft_upper_limit", false),
];

/// Top-level keys of MoveIt's file that are not per-joint limits: read past.
const OTHER_TOP_KEYS: &[&str] = &[
    "default_velocity_scaling_factor",
    "default_acceleration_scaling_factor",
    "cartesian_limits",
];

/// A value of the file.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    Number(f64),
    Flag(bool),
}

/// One joint's entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub joint: String,
    pub line: usize,
    /// `(key, value, line)`, in the file's order.
    pub values: Vec<(&'static str, Value, usize)>,
}

impl Entry {
    /// The number under `key`, with its line.
    pub fn number(&self, key: &str) -> Option<(f64, usize)> {
        self.values.iter().find_map(|(k, v, line)| match v {
            Value::Number(x) if *k == key => Some((*x, *line)),
            _ => None,
        })
    }

    /// The flag under `key`, with its line.
    pub fn flag(&self, key: &str) -> Option<(bool, usize)> {
        self.values.iter().find_map(|(k, v, line)| match v {
            Value::Flag(x) if *k == key => Some((*x, *line)),
            _ => None,
        })
    }
}

/// Reads the limits file `text` (shown as `file` in messages).
pub fn read(text: &str, file: &str) -> Result<Vec<Entry>, Vec<String>> {
    let root = match yaml::parse(text) {
        Ok(Some(root)) => root,
        Ok(None) => {
            return Err(vec![format!(
                "`{file}` is empty: it should hold `joint_limits:`"
            )]);
        }
        Err((line, what)) => return Err(vec![format!("`{file}` line {line}: {what}")]),
    };
    let Node::Map { entries, .. } = &root else {
        return Err(vec![format!(
            "`{file}` line {}: expected a mapping with `joint_limits:`, found {}",
            root.line(),
            root.kind()
        )]);
    };
    let mut problems = Vec::new();
    let mut limits = None;
    for (key, line, value) in entries {
        if key == "joint_limits" {
            limits = Some(value);
        } else if let Some(inner) = ros_parameters(value) {
            // ros2_control's parameter file: `NODE: {ros__parameters: {joint_limits: ..}}`.
            limits = Some(inner);
        } else if !OTHER_TOP_KEYS.contains(&key.as_str()) {
            problems.push(format!(
                "`{file}` line {line}: unknown key `{key}`: {}",
                did_you_mean(
                    key,
                    "top-level keys",
                    std::iter::once("joint_limits").chain(OTHER_TOP_KEYS.iter().copied())
                )
            ));
        }
    }
    let Some(limits) = limits else {
        problems.push(format!(
            "`{file}` has no `joint_limits:` mapping (ros2_control / MoveIt format: \
             `joint_limits: {{JOINT: {{has_velocity_limits: true, max_velocity: 2.0}}}}`)"
        ));
        return Err(problems);
    };
    let Node::Map {
        entries: joints, ..
    } = limits
    else {
        problems.push(format!(
            "`{file}` line {}: `joint_limits` must be a mapping from joint names to their \
             limits, found {}",
            limits.line(),
            limits.kind()
        ));
        return Err(problems);
    };
    let mut out = Vec::new();
    for (joint, line, body) in joints {
        let Node::Map { entries, .. } = body else {
            problems.push(format!(
                "`{file}` line {line}, joint `{joint}`: expected a mapping of limits, found {}",
                body.kind()
            ));
            continue;
        };
        let mut values = Vec::new();
        for (key, key_line, value) in entries {
            let here = format!("`{file}` line {key_line}, joint `{joint}`");
            let Some(&(known, flag)) = KEYS.iter().find(|(k, _)| k == key) else {
                problems.push(format!(
                    "{here}: unknown key `{key}`: {}",
                    did_you_mean(key, "keys", KEYS.iter().map(|(k, _)| *k))
                ));
                continue;
            };
            if flag {
                match value.boolean() {
                    Some(b) => values.push((known, Value::Flag(b), *key_line)),
                    None => problems.push(format!(
                        "{here}: `{key}: {}` must be `true` or `false`",
                        value.shown()
                    )),
                }
                continue;
            }
            match value.number() {
                Some(x) if !x.is_finite() => problems.push(format!(
                    "{here}: `{key}: {}` is not finite: toolwright refuses a NaN or infinite \
                     limit (leave the key out for none)",
                    value.shown()
                )),
                Some(x) if x < 0.0 && key.starts_with("max_") && key != "max_deceleration" => {
                    problems.push(format!(
                        "{here}: `{key}: {}` is negative: a cap is a magnitude",
                        value.shown()
                    ))
                }
                Some(x) if (key.starts_with("k_")) && x < 0.0 => {
                    problems.push(format!("{here}: `{key}: {}` is negative", value.shown()))
                }
                Some(x) => values.push((known, Value::Number(x), *key_line)),
                None => problems.push(format!(
                    "{here}: `{key}: {}` is not a number",
                    value.shown()
                )),
            }
        }
        out.push(Entry {
            joint: joint.clone(),
            line: *line,
            values,
        });
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

/// `joint_limits` under `ros__parameters` in `value`, if that is what it holds.
fn ros_parameters(value: &Node) -> Option<&Node> {
    let Node::Map { entries, .. } = value else {
        return None;
    };
    let (_, _, params) = entries.iter().find(|(k, _, _)| k == "ros__parameters")?;
    let Node::Map { entries, .. } = params else {
        return None;
    };
    entries
        .iter()
        .find(|(k, _, _)| k == "joint_limits")
        .map(|(_, _, v)| v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_moveit_s_panda_file() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../examples/robots/panda_moveit_config/joint_limits.yaml"
        ))
        .unwrap();
        let entries = read(&text, "joint_limits.yaml").unwrap();
        assert_eq!(entries.len(), 9);
        let j1 = &entries[0];
        assert_eq!(j1.joint, "panda_joint1");
        assert_eq!(j1.number("max_velocity"), Some((2.175, 8)));
        assert_eq!(j1.number("max_acceleration"), Some((3.75, 10)));
        assert_eq!(j1.flag("has_jerk_limits"), Some((true, 11)));
    }

    #[test]
    fn ros2_control_s_parameter_form_reads_too() {
        let text = "arm_controller:\n  ros__parameters:\n    joint_limits:\n      j1:\n        max_velocity: 1.0\n";
        let entries = read(text, "l.yaml").unwrap();
        assert_eq!(entries[0].number("max_velocity"), Some((1.0, 5)));
    }

    #[test]
    fn bad_values_name_file_line_joint_and_key() {
        let e = read(
            "joint_limits:\n  j1:\n    max_velocity: .nan\n    max_acceleration: fast\n    has_velocity_limits: yes\n    max_velcity: 1\n",
            "l.yaml",
        )
        .unwrap_err();
        assert_eq!(
            e,
            [
                "`l.yaml` line 3, joint `j1`: `max_velocity: .nan` is not finite: toolwright \
                 refuses a NaN or infinite limit (leave the key out for none)",
                "`l.yaml` line 4, joint `j1`: `max_acceleration: fast` is not a number",
                "`l.yaml` line 5, joint `j1`: `has_velocity_limits: yes` must be `true` or `false`",
                "`l.yaml` line 6, joint `j1`: unknown key `max_velcity`: did you mean `max_velocity`?",
            ]
        );
        let e = read("joint_limts:\n  j1: {}\n", "l.yaml").unwrap_err();
        assert!(
            e[0].contains("unknown key `joint_limts`: did you mean `joint_limits`?"),
            "{e:?}"
        );
        let e = read(
            "joint_limits:\n  j1:\n   max_velocity: 1\n  - x\n",
            "l.yaml",
        )
        .unwrap_err();
        assert!(e[0].starts_with("`l.yaml` line 4"), "{e:?}");
    }
}
