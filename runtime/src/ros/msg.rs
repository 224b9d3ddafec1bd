//! A parser of ROS `.msg` definitions as roslibrust embeds them in
//! `RosMessageType::DESCRIPTION.definition`: the message's own text, then each message it uses
//! after a line of `=` and a `MSG: package/Name` line.
//!
//! Only what a schema needs is kept: the fields (type, array kind, bound, default) and the
//! comments, which become descriptions. The message's leading comment block describes the
//! message; a comment block directly above a field (no blank line between) or a comment after it
//! on its line describes the field. Constants (`uint8 FIX=0`) are skipped.

use std::collections::HashMap;

/// A message definition with the definitions it depends on, by full name (`geometry_msgs/Point`).
#[derive(Debug, PartialEq)]
pub(crate) struct Definition {
    /// The message itself.
    pub root: Message,
    /// Every message it uses, directly or not.
    pub deps: HashMap<String, Message>,
}

/// One message.
#[derive(Debug, PartialEq)]
pub(crate) struct Message {
    /// `geometry_msgs/Pose`.
    pub name: String,
    /// The leading comment block.
    pub description: Option<String>,
    /// The fields, in order.
    pub fields: Vec<Field>,
}

/// A field of a message.
#[derive(Debug, PartialEq)]
pub(crate) struct Field {
    /// Its name.
    pub name: String,
    /// A built-in type (`float64`, `string`) or a message's full name (`geometry_msgs/Point`).
    pub ty: String,
    /// `string<=N`: the most characters.
    pub string_bound: Option<usize>,
    /// Whether and how it is an array.
    pub array: Array,
    /// The ROS 2 default value, as written (`1`, `"text"`, `[1, 2]`).
    pub default: Option<String>,
    /// The comments that describe it.
    pub description: Option<String>,
}

/// A field's array kind.
#[derive(Debug, PartialEq, Clone, Copy)]
pub(crate) enum Array {
    /// Not an array.
    No,
    /// `T[]`.
    Unbounded,
    /// `T[N]`.
    Fixed(usize),
    /// `T[<=N]`.
    Bounded(usize),
}

/// The built-in field types of ROS 2 (and ROS 1's `time`/`duration` are not supported).
pub(crate) const BUILTINS: &[&str] = &[
    "bool", "byte", "char", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64",
    "uint64", "float32", "float64", "string", "wstring",
];

/// The line between a message's text and each of its dependencies'.
const SEPARATOR: &str =
    "================================================================================";

/// Parses a full definition (`name` is the message's own full name, `pkg/Name`).
pub(crate) fn parse(name: &str, text: &str) -> Result<Definition, String> {
    let mut sections = Vec::new();
    let mut current_name = name.to_owned();
    let mut current = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.trim() == SEPARATOR {
            sections.push((
                std::mem::take(&mut current_name),
                std::mem::take(&mut current),
            ));
            let header = lines.next().unwrap_or_default();
            current_name = header
                .trim()
                .strip_prefix("MSG:")
                .map(|n| n.trim().to_owned())
                .ok_or_else(|| {
                    format!("expected `MSG: package/Name` after `===`, got `{header}`")
                })?;
        } else {
            current.push(line);
        }
    }
    sections.push((current_name, current));
    let mut messages = sections
        .into_iter()
        .map(|(name, lines)| parse_message(&name, &lines));
    let root = messages.next().ok_or("empty definition")??;
    let mut deps = HashMap::new();
    for m in messages {
        let m = m?;
        deps.insert(m.name.clone(), m);
    }
    Ok(Definition { root, deps })
}

/// Parses one message's text.
pub(crate) fn parse_message(name: &str, lines: &[&str]) -> Result<Message, String> {
    let package = name.split('/').next().unwrap_or_default();
    let mut description = None;
    let mut fields = Vec::new();
    // The comment lines just read, and whether they began at the top of the message.
    let mut block: Vec<String> = Vec::new();
    let mut at_top = true;
    for raw in lines {
        let line = raw.trim();
        if line.is_empty() {
            if at_top && !block.is_empty() {
                description = join(&block);
            }
            if !block.is_empty() {
                at_top = false;
            }
            block.clear();
            continue;
        }
        if let Some(comment) = line.strip_prefix('#') {
            block.push(comment.trim().to_owned());
            continue;
        }
        // A field or a constant: the leading block, even with no blank line after it, is the
        // message's (Point.msg's comment sits right above `float64 x`).
        let mut above = std::mem::take(&mut block);
        if at_top {
            if !above.is_empty() {
                description = join(&above);
            }
            above.clear();
            at_top = false;
        }
        let (code, trailing) = split_comment(line);
        if let Some(f) =
            parse_line(package, code.trim()).map_err(|e| format!("{name}: `{line}`: {e}"))?
        {
            if let Some(t) = trailing {
                above.push(t.to_owned());
            }
            fields.push(Field {
                description: join(&above),
                ..f
            });
        }
    }
    if at_top && !block.is_empty() {
        description = join(&block);
    }
    Ok(Message {
        name: name.to_owned(),
        description,
        fields,
    })
}

/// Comment lines as text: lines of a paragraph joined by spaces, an empty comment line ending
/// a paragraph, a bullet (`*`, `-`) starting a line.
fn join(lines: &[String]) -> Option<String> {
    let mut out = String::new();
    let mut paragraph_end = false;
    for l in lines {
        if l.is_empty() {
            paragraph_end = !out.is_empty();
            continue;
        }
        if !out.is_empty() {
            if paragraph_end {
                out.push_str("\n\n");
            } else if l.starts_with("* ") || l.starts_with("- ") {
                out.push('\n');
            } else {
                out.push(' ');
            }
        }
        paragraph_end = false;
        out.push_str(l);
    }
    (!out.is_empty()).then_some(out)
}

/// Splits a line at its first `#` outside quotes (string constants and defaults may hold one).
fn split_comment(line: &str) -> (&str, Option<&str>) {
    let mut quote = None;
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, '#') => {
                let comment = line[i + 1..].trim();
                return (&line[..i], (!comment.is_empty()).then_some(comment));
            }
            _ => {}
        }
    }
    (line, None)
}

/// A field line (`None` for a constant), without its comment.
fn parse_line(package: &str, code: &str) -> Result<Option<Field>, String> {
    let (ty, rest) = code
        .split_once(char::is_whitespace)
        .ok_or("expected `TYPE NAME`")?;
    let rest = rest.trim();
    let (name, default) = match rest.split_once(char::is_whitespace) {
        Some((n, d)) => (n, Some(d.trim())),
        None => (rest, None),
    };
    // A constant: `TYPE NAME=VALUE` (spaces around `=` allowed).
    if name.contains('=') || default.is_some_and(|d| d.starts_with('=')) {
        return Ok(None);
    }
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("invalid field name `{name}`"));
    }
    let (base, array) = match ty.split_once('[') {
        Some((base, dims)) => {
            let dims = dims.strip_suffix(']').ok_or("unclosed `[`")?;
            let array = if dims.is_empty() {
                Array::Unbounded
            } else if let Some(n) = dims.strip_prefix("<=") {
                Array::Bounded(number(n)?)
            } else {
                Array::Fixed(number(dims)?)
            };
            (base, array)
        }
        None => (ty, Array::No),
    };
    let (base, string_bound) = match base.split_once("<=") {
        Some((b @ ("string" | "wstring"), n)) => (b, Some(number(n)?)),
        Some(_) => return Err(format!("only strings can be bounded, not `{base}`")),
        None => (base, None),
    };
    let ty = if BUILTINS.contains(&base) {
        base.to_owned()
    } else if base.contains('/') {
        // `pkg/msg/Name` (ROS 2 IDL style) is `pkg/Name`.
        let mut parts = base.split('/');
        match (parts.next(), parts.next_back()) {
            (Some(p), Some(n)) => format!("{p}/{n}"),
            _ => base.to_owned(),
        }
    } else if base == "Header" {
        // ROS 1 shorthand.
        "std_msgs/Header".to_owned()
    } else if base.starts_with(|c: char| c.is_ascii_uppercase()) {
        format!("{package}/{base}")
    } else {
        return Err(format!("unknown type `{base}`"));
    };
    Ok(Some(Field {
        name: name.to_owned(),
        ty,
        string_bound,
        array,
        default: default.filter(|d| !d.is_empty()).map(str::to_owned),
        description: None,
    }))
}

fn number(s: &str) -> Result<usize, String> {
    s.trim()
        .parse()
        .map_err(|_| format!("`{s}` is not an array or string bound"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(name: &str, text: &str) -> Message {
        parse(name, text).unwrap().root
    }

    #[test]
    fn leading_block_describes_the_message_even_right_above_a_field() {
        let m = msg(
            "geometry_msgs/Point",
            "# This contains the position of a point in free space\nfloat64 x\nfloat64 y\nfloat64 z",
        );
        assert_eq!(
            m.description.as_deref(),
            Some("This contains the position of a point in free space")
        );
        assert_eq!(m.fields.len(), 3);
        assert!(m.fields.iter().all(|f| f.description.is_none()));
        assert_eq!(m.fields[2].name, "z");
        assert_eq!(m.fields[2].ty, "float64");
    }

    #[test]
    fn comments_above_or_after_a_field_describe_it() {
        let m = msg(
            "builtin_interfaces/Time",
            "# This message communicates ROS Time defined here:\n# https://design.ros2.org/articles/clock_and_time.html\n\n# The seconds component, valid over all int32 values.\nint32 sec\n\n# A block followed by a blank line describes nothing.\n\nuint32 nanosec # in [0, 1e9)",
        );
        assert_eq!(
            m.description.as_deref(),
            Some(
                "This message communicates ROS Time defined here: https://design.ros2.org/articles/clock_and_time.html"
            )
        );
        assert_eq!(
            m.fields[0].description.as_deref(),
            Some("The seconds component, valid over all int32 values.")
        );
        assert_eq!(m.fields[1].description.as_deref(), Some("in [0, 1e9)"));
    }

    #[test]
    fn paragraphs_and_bullets_keep_their_breaks() {
        let m = msg(
            "sensor_msgs/JointState",
            "# The state of each joint is defined by:\n#  * the position,\n#  * the velocity\n#\n# Second paragraph\n# goes on.\n\nstring[] name",
        );
        assert_eq!(
            m.description.as_deref(),
            Some(
                "The state of each joint is defined by:\n* the position,\n* the velocity\n\nSecond paragraph goes on."
            )
        );
    }

    #[test]
    fn constants_are_skipped_even_with_a_hash_in_a_string() {
        let m = msg(
            "sensor_msgs/NavSatStatus",
            "int8 STATUS_FIX = 0 # fix\nint8 STATUS_NO_FIX=-1\nstring TAG=\"a#b\"\n# The status.\nint8 status",
        );
        assert_eq!(m.fields.len(), 1);
        assert_eq!(m.fields[0].name, "status");
        assert_eq!(m.fields[0].description.as_deref(), Some("The status."));
    }

    #[test]
    fn arrays_bounds_and_defaults() {
        let m = msg(
            "pkg/Arrays",
            "float64[9] covariance\nfloat64[] ranges\nint32[<=3] few\nstring<=8 tag \"a # b\"\nstring<=4[<=2] tags\nfloat64 w 1\nint32[] list [1, 2]",
        );
        let f = |i: usize| &m.fields[i];
        assert_eq!(f(0).array, Array::Fixed(9));
        assert_eq!(f(1).array, Array::Unbounded);
        assert_eq!(f(2).array, Array::Bounded(3));
        assert_eq!(
            (f(3).string_bound, f(3).default.as_deref()),
            (Some(8), Some("\"a # b\""))
        );
        assert_eq!(f(3).description, None);
        assert_eq!(
            (f(4).string_bound, f(4).array),
            (Some(4), Array::Bounded(2))
        );
        assert_eq!(f(5).default.as_deref(), Some("1"));
        assert_eq!(f(6).default.as_deref(), Some("[1, 2]"));
    }

    #[test]
    fn nested_types_resolve_to_full_names() {
        let m = msg(
            "geometry_msgs/PoseStamped",
            "Header header\nPose pose\nbuiltin_interfaces/msg/Time t\nstd_msgs/Header h2",
        );
        let tys: Vec<_> = m.fields.iter().map(|f| f.ty.as_str()).collect();
        assert_eq!(
            tys,
            [
                "std_msgs/Header",
                "geometry_msgs/Pose",
                "builtin_interfaces/Time",
                "std_msgs/Header"
            ]
        );
    }

    #[test]
    fn dependency_sections_are_recorded_by_name() {
        let text = "# A pose.\n\nPoint position\nQuaternion orientation\n================================================================================\nMSG: geometry_msgs/Point\n# A point\nfloat64 x\n================================================================================\nMSG: geometry_msgs/Quaternion\nfloat64 w 1";
        let d = parse("geometry_msgs/Pose", text).unwrap();
        assert_eq!(d.root.description.as_deref(), Some("A pose."));
        assert_eq!(d.root.fields.len(), 2);
        let point = &d.deps["geometry_msgs/Point"];
        assert_eq!(point.description.as_deref(), Some("A point"));
        assert_eq!(point.fields[0].name, "x");
        assert_eq!(
            d.deps["geometry_msgs/Quaternion"].fields[0]
                .default
                .as_deref(),
            Some("1")
        );
        assert_eq!(d.deps.len(), 2);
    }

    #[test]
    fn malformed_lines_are_errors() {
        assert!(parse("p/M", "float64").is_err());
        assert!(parse("p/M", "float64[ x").is_err());
        assert!(parse("p/M", "int32<=3 x").is_err());
        assert!(
            parse("p/M", "time stamp")
                .unwrap_err()
                .contains("unknown type `time`")
        );
        let sep = format!("float64 x\n{SEPARATOR}\nbad");
        assert!(parse("p/M", &sep).unwrap_err().contains("MSG:"));
    }
}
