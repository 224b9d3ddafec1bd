//! The drift gate: what changed between the published tool definitions and the current ones,
//! and whether a client built against the published ones keeps working.
//!
//! A change is **breaking** when a call that the published schema accepted may now be refused,
//! or an output a client relied on may now be missing or different: a removed or renamed tool
//! or parameter, a new required parameter (or an optional one becoming required), a narrower
//! range, a removed enum value or variant, a type change, tighter length, item-count or
//! `pattern` limits, a changed unit, an argument mirrored into another HTTP header (or into one
//! now, or no longer: `x-mcp-header`), a removed output field (or one that may now be absent), a
//! confirmation removed (its calls now run unasked) or added (a client that cannot be asked is
//! refused). It
//! is **compatible** otherwise: a new tool, a new optional parameter, a wider range, an added
//! enum value, relaxed limits, text changes (descriptions, titles, annotations, examples), a
//! changed default.
//!
//! For outputs the direction flips: a client reading `structuredContent` breaks when the
//! server may now send more (a wider range, a new enum value), not less.
//!
//! Rather than break a published tool, publish the new version next to it under a new name
//! (`grasp_v2`) and keep the old one until clients have moved; the report suggests that name
//! for every breaking change.

use std::fmt;
use std::io;
use std::path::Path;

use regex::Regex;
use rmcp::model::Tool;
use serde_json::{Map, Value};

use super::{Format, parse_mcp, render};

mod schema;

use schema::{Side, hint, schema};

/// Whether clients of the published definitions keep working.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Compatibility {
    /// Existing calls and output readers keep working.
    Compatible,
    /// Some call that worked, or some output a client relied on, may now fail.
    Breaking,
}

/// One difference between the published and the current definitions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// Breaking or compatible.
    pub compatibility: Compatibility,
    /// The tool's name (`""` for a change to an exported file as a whole).
    pub tool: String,
    /// Where in the tool: `"force"`, `"target_position.x"`, `"waypoints[]"`, `"offsets.*"`,
    /// `"output.position.x"` for an output field, `""` for the tool itself (or the file name
    /// for a file-level change).
    pub path: String,
    /// What changed and why that matters.
    pub description: String,
}

/// The differences found by [`compare`] or [`check_against`], breaking ones first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// Every change, breaking ones first, then in tool and schema order.
    pub changes: Vec<Change>,
}

impl Report {
    /// No differences.
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }

    /// Whether any change is breaking.
    pub fn is_breaking(&self) -> bool {
        self.changes
            .iter()
            .any(|c| c.compatibility == Compatibility::Breaking)
    }

    /// The exit status of a drift check: 0 when identical, 1 when any change is breaking, 2
    /// when every change is compatible.
    pub fn exit_code(&self) -> i32 {
        if self.is_empty() {
            0
        } else if self.is_breaking() {
            1
        } else {
            2
        }
    }

    fn sort(&mut self) {
        // Stable: breaking first, each group in discovery order.
        self.changes
            .sort_by_key(|c| std::cmp::Reverse(c.compatibility));
    }
}

/// The name to publish a changed tool under: `grasp` → `grasp_v2`, `grasp_v2` → `grasp_v3`.
pub fn next_version(name: &str) -> String {
    let re = Regex::new(r"^(.*)_v(\d+)$").expect("valid regex");
    if let Some(c) = re.captures(name)
        && let Ok(n) = c[2].parse::<u64>()
    {
        return format!("{}_v{}", &c[1], n + 1);
    }
    format!("{name}_v2")
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return writeln!(f, "no changes: the tools match the published definitions");
        }
        let breaking = self
            .changes
            .iter()
            .filter(|c| c.compatibility == Compatibility::Breaking)
            .count();
        let compatible = self.changes.len() - breaking;
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        writeln!(
            f,
            "{breaking} breaking change{}, {compatible} compatible change{} to the published tools:",
            plural(breaking),
            plural(compatible)
        )?;
        let mut ordered: Vec<&Change> = self.changes.iter().collect();
        ordered.sort_by_key(|c| std::cmp::Reverse(c.compatibility));
        for c in ordered {
            let place = match (c.tool.as_str(), c.path.as_str()) {
                ("", p) => p.to_owned(),
                (t, "") => format!("`{t}`"),
                (t, p) => format!("`{t}` {p}"),
            };
            match c.compatibility {
                Compatibility::Breaking => {
                    write!(f, "- breaking: {place}: {}", c.description)?;
                    if !c.tool.is_empty() {
                        write!(
                            f,
                            " Instead, keep `{t}` as published and add the new version as `{v}`.",
                            t = c.tool,
                            v = next_version(&c.tool)
                        )?;
                    }
                    writeln!(f)?;
                }
                Compatibility::Compatible => {
                    writeln!(f, "- compatible: {place}: {}", c.description)?
                }
            }
        }
        Ok(())
    }
}

struct Diff<'a> {
    tool: &'a str,
    changes: Vec<Change>,
}

impl Diff<'_> {
    fn push(&mut self, compatibility: Compatibility, path: &str, description: String) {
        self.changes.push(Change {
            compatibility,
            tool: self.tool.to_owned(),
            path: path.to_owned(),
            description,
        });
    }
    fn breaking(&mut self, path: &str, description: String) {
        self.push(Compatibility::Breaking, path, description);
    }
    fn compatible(&mut self, path: &str, description: String) {
        self.push(Compatibility::Compatible, path, description);
    }
}

/// Classifies every difference between the `published` tools and the `current` ones.
pub fn compare(published: &[Tool], current: &[Tool]) -> Report {
    let mut report = Report::default();
    let mut removed = Vec::new();
    for old in published {
        match current.iter().find(|t| t.name == old.name) {
            Some(new) => report.changes.extend(compare_tool(old, new)),
            None => removed.push(old),
        }
    }
    let mut added: Vec<&Tool> = current
        .iter()
        .filter(|t| !published.iter().any(|p| p.name == t.name))
        .collect();
    for old in removed {
        let renamed = added.iter().position(|a| {
            a.input_schema == old.input_schema && a.output_schema == old.output_schema
        });
        let description = match renamed {
            Some(i) => {
                let new = added.remove(i);
                format!(
                    "tool renamed to `{}` (same parameters): clients calling `{}` get an unknown-tool error.",
                    new.name, old.name
                )
            }
            None => format!(
                "tool removed: clients calling `{}` get an unknown-tool error.",
                old.name
            ),
        };
        report.changes.push(Change {
            compatibility: Compatibility::Breaking,
            tool: old.name.to_string(),
            path: String::new(),
            description,
        });
    }
    for new in added {
        report.changes.push(Change {
            compatibility: Compatibility::Compatible,
            tool: new.name.to_string(),
            path: String::new(),
            description: "new tool.".to_owned(),
        });
    }
    report.sort();
    report
}

fn compare_tool(old: &Tool, new: &Tool) -> Vec<Change> {
    let mut d = Diff {
        tool: &old.name,
        changes: Vec::new(),
    };
    if super::own_description(old) != super::own_description(new) {
        d.compatible("", "description changed (text only).".to_owned());
    }
    // A check that may refuse what passed before is breaking; its words are text.
    match (super::check(old), super::check(new)) {
        (None, Some(check)) => d.breaking(
            "",
            format!(
                "now runs a check before each call, which may refuse calls that passed: {check}"
            ),
        ),
        (Some(_), None) => d.compatible("", "no longer runs its check.".to_owned()),
        (Some(a), Some(b)) if a != b => {
            d.compatible("", format!("its check now says: {b} (text only)."));
        }
        _ => {}
    }
    if old.title != new.title {
        d.compatible("", "title changed (text only).".to_owned());
    }
    let a = old.annotations.clone().unwrap_or_default();
    let b = new.annotations.clone().unwrap_or_default();
    if a.title != b.title {
        d.compatible("", "annotation title changed (text only).".to_owned());
    }
    for (name, x, y) in [
        ("readOnlyHint", a.read_only_hint, b.read_only_hint),
        ("destructiveHint", a.destructive_hint, b.destructive_hint),
        ("idempotentHint", a.idempotent_hint, b.idempotent_hint),
        ("openWorldHint", a.open_world_hint, b.open_world_hint),
    ] {
        if x != y {
            d.compatible(
                "",
                format!(
                    "annotation `{name}` changed from {} to {} (a hint: calls are unaffected, but clients may ask for confirmation differently).",
                    hint(x),
                    hint(y)
                ),
            );
        }
    }
    let (old_scopes, new_scopes) = (super::scopes(old), super::scopes(new));
    for added in new_scopes.iter().filter(|s| !old_scopes.contains(s)) {
        d.breaking(
            "",
            format!("now needs scope `{added}`: tokens without it are refused."),
        );
    }
    for removed in old_scopes.iter().filter(|s| !new_scopes.contains(s)) {
        d.compatible("", format!("no longer needs scope `{removed}`."));
    }
    confirmation(old, new, &mut d);
    envelope(old, new, &mut d);
    robot(old, new, &mut d);
    let old_in = Value::Object((*old.input_schema).clone());
    let new_in = Value::Object((*new.input_schema).clone());
    schema(&old_in, &new_in, "", Side::Input, &mut d);
    match (&old.output_schema, &new.output_schema) {
        (Some(_), None) => d.breaking(
            "output",
            "output schema removed: clients reading `structuredContent` lose it.".to_owned(),
        ),
        (None, Some(_)) => d.compatible("output", "output schema added.".to_owned()),
        (Some(a), Some(b)) => {
            // The result's own shape is compared; the envelopes result options add (`anyOf`
            // branches after it) only come when the call asks for them, or over a budget.
            let (a, old_envelopes) = result_shapes(a);
            let (b, new_envelopes) = result_shapes(b);
            schema(&a, &b, "output", Side::Output, &mut d);
            for added in new_envelopes.iter().filter(|k| !old_envelopes.contains(k)) {
                let change = format!("may now answer `{{\"{added}\": ..}}` instead of the result.");
                // A projection or a summary comes only when the call asks for it; the budget
                // envelope replaces a result unasked, which a client reading it must handle.
                if added == crate::output::budget::EXCEEDED_KEY {
                    d.breaking("output", change);
                } else {
                    d.compatible("output", change);
                }
            }
            for removed in old_envelopes.iter().filter(|k| !new_envelopes.contains(k)) {
                d.compatible(
                    "output",
                    format!("no longer answers `{{\"{removed}\": ..}}`."),
                );
            }
        }
        (None, None) => {}
    }
    d.changes
}

/// Who confirms a tool's calls (`_meta["io.toolwright/confirm"]`): a confirmation removed is
/// breaking (a call the user approved each time now runs unasked, a safety change operators
/// must see), and one added is breaking too (a client that cannot be asked is now refused); a
/// changed question, or a changed reason for asking no one, is text.
fn confirmation(old: &Tool, new: &Tool, d: &mut Diff<'_>) {
    match (super::confirmation(old), super::confirmation(new)) {
        (Some(_), None) => d.breaking(
            "",
            format!(
                "no longer asks the user before each call: calls now run unasked{}.",
                super::confirm_not_needed(new)
                    .map(|because| format!(" (because {because})"))
                    .unwrap_or_default()
            ),
        ),
        (None, Some(question)) => d.breaking(
            "",
            format!(
                "now asks the user before each call (\"{question}\"): a client that cannot be \
                 asked is refused."
            ),
        ),
        (Some(a), Some(b)) if a != b => {
            d.compatible(
                "",
                "the confirmation question changed (text only).".to_owned(),
            );
        }
        _ => {
            if super::confirm_not_needed(old) != super::confirm_not_needed(new)
                && super::confirm_not_needed(new).is_some()
            {
                d.compatible(
                    "",
                    "the reason no one confirms its calls changed (text only).".to_owned(),
                );
            }
        }
    }
}

/// The robot a tool moves (`_meta["io.toolwright/robot"]`): a joint added, removed or with any
/// limit changed (its range, its caps), other links or capsules, another tip, another tolerance
/// is breaking (motions that ran may be refused, or run differently); a new source file with
/// none of those changed is compatible.
fn robot(old: &Tool, new: &Tool, d: &mut Diff<'_>) {
    let read = |tool: &Tool| -> Option<Value> {
        tool.meta
            .as_ref()?
            .0
            .get(crate::contract::ROBOT_META)
            .cloned()
    };
    let (a, b) = match (read(old), read(new)) {
        (None, None) => return,
        (None, Some(_)) => {
            return d.breaking(
                "",
                "it now moves a robot whose every link is checked: some motions that ran are \
                 refused."
                    .to_owned(),
            );
        }
        (Some(_), None) => {
            return d.compatible(
                "",
                "its motions are no longer checked as a robot's.".to_owned(),
            );
        }
        (Some(a), Some(b)) => (a, b),
    };
    let joints = |v: &Value| -> Vec<(String, Vec<Value>)> {
        v.get("joints")
            .and_then(Value::as_array)
            .map(|js| {
                js.iter()
                    .map(|j| {
                        let name = j.get("name").and_then(Value::as_str).unwrap_or("?");
                        let limits = [
                            "type",
                            "unit",
                            "lower",
                            "upper",
                            "maxVelocity",
                            "maxAcceleration",
                            "maxDeceleration",
                        ]
                        .iter()
                        .map(|k| j.get(*k).cloned().unwrap_or(Value::Null))
                        .collect();
                        (name.to_owned(), limits)
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let (ja, jb) = (joints(&a), joints(&b));
    let before = d.changes.len();
    for (name, limits) in &ja {
        match jb.iter().find(|(n, _)| n == name) {
            None => d.breaking(
                "",
                format!("robot: joint `{name}` is no longer a parameter."),
            ),
            Some((_, new_limits)) if new_limits != limits => d.breaking(
                "",
                format!(
                    "robot: joint `{name}`'s limits changed (its range or caps): motions that \
                     ran may be refused or take longer."
                ),
            ),
            Some(_) => {}
        }
    }
    for (name, _) in jb.iter().filter(|(n, _)| !ja.iter().any(|(o, _)| o == n)) {
        d.breaking("", format!("robot: joint `{name}` added."));
    }
    for key in ["tip", "links", "tolerance", "positions", "unit", "resource"] {
        if a.get(key) != b.get(key) {
            d.breaking("", format!("robot: its `{key}` changed."));
        }
    }
    if a.get("source") != b.get("source") && d.changes.len() == before {
        d.compatible(
            "",
            "robot: its description's file changed, with the same joints, limits and links."
                .to_owned(),
        );
    }
}

/// The envelope a tool's motions are checked against (`_meta["io.toolwright/envelope"]`): one
/// that may refuse what the published one accepted (a new keep-out or allow shape, a shorter
/// `maxStep`, a larger tool radius, another frame, unit, resource or target) is breaking; one
/// that only relaxes it (shapes removed, a longer step, a smaller tool) is compatible.
fn envelope(old: &Tool, new: &Tool, d: &mut Diff<'_>) {
    let read = |tool: &Tool| -> Option<(Value, Option<crate::envelope::Envelope>)> {
        let published = tool
            .meta
            .as_ref()?
            .0
            .get(crate::contract::ENVELOPE_META)?
            .clone();
        let mut own = published.as_object().cloned().unwrap_or_default();
        let around: Map<String, Value> = ["resource", "target", "path"]
            .iter()
            .filter_map(|k| own.remove(*k).map(|v| ((*k).to_owned(), v)))
            .collect();
        Some((
            Value::Object(around),
            crate::envelope::Envelope::from_json(&Value::Object(own)).ok(),
        ))
    };
    match (read(old), read(new)) {
        (None, None) => {}
        (None, Some(_)) => d.breaking(
            "",
            "its motions are now checked against an envelope: some that ran are refused."
                .to_owned(),
        ),
        (Some(_), None) => d.compatible(
            "",
            "its motions are no longer checked against an envelope.".to_owned(),
        ),
        (Some((old_around, old_env)), Some((new_around, new_env))) => {
            let (Some(a), Some(b)) = (old_env, new_env) else {
                if old_around != new_around {
                    d.breaking("", "its envelope changed.".to_owned());
                }
                return;
            };
            if old_around != new_around || a.frame != b.frame || a.unit != b.unit {
                d.breaking(
                    "",
                    "its envelope's resource, frame, unit or target arguments changed.".to_owned(),
                );
            }
            let named = |s: &crate::envelope::Shape| {
                s.name.clone().unwrap_or_else(|| format!("{:?}", s.solid))
            };
            for (list, old_list, new_list) in [
                ("keep-out", &a.keep_out, &b.keep_out),
                ("allow shape", &a.allow, &b.allow),
            ] {
                for added in new_list.iter().filter(|s| !old_list.contains(s)) {
                    d.breaking(
                        "",
                        format!(
                            "envelope: {list} `{}` added or changed: motions it refuses ran before.",
                            named(added)
                        ),
                    );
                }
                for removed in old_list.iter().filter(|s| !new_list.contains(s)) {
                    if !new_list
                        .iter()
                        .any(|n| n.name.is_some() && n.name == removed.name)
                    {
                        d.compatible(
                            "",
                            format!("envelope: {list} `{}` removed.", named(removed)),
                        );
                    }
                }
            }
            match (a.max_step, b.max_step) {
                (x, y) if x == y => {}
                (Some(x), Some(y)) if y > x => {
                    d.compatible("", format!("envelope: maxStep raised from {x} to {y}."));
                }
                (Some(_), None) => d.compatible("", "envelope: maxStep removed.".to_owned()),
                (x, y) => d.breaking(
                    "",
                    format!(
                        "envelope: maxStep lowered ({} to {}): longer steps are refused.",
                        x.map_or("none".to_owned(), |x| x.to_string()),
                        y.map_or("none".to_owned(), |y| y.to_string())
                    ),
                ),
            }
            if b.tool_radius > a.tool_radius {
                d.breaking(
                    "",
                    format!(
                        "envelope: toolRadius raised from {} to {}: motions close to a limit are \
                         refused.",
                        a.tool_radius, b.tool_radius
                    ),
                );
            } else if b.tool_radius < a.tool_radius {
                d.compatible(
                    "",
                    format!(
                        "envelope: toolRadius lowered from {} to {}.",
                        a.tool_radius, b.tool_radius
                    ),
                );
            }
        }
    }
}

/// An output schema's own result shape, and the keys of the envelopes result options add.
fn result_shapes(schema: &Map<String, Value>) -> (Value, Vec<String>) {
    match crate::output::split_published(schema) {
        Some((payload, keys)) => (
            payload.clone(),
            keys.into_iter().map(str::to_owned).collect(),
        ),
        None => (Value::Object(schema.clone()), Vec::new()),
    }
}

/// Compares the current tools with an export in `dir`: the published definitions are
/// `dir/tools.json` (the `mcp` export). When they match, every other exported file in `dir`
/// that differs from what [`render`] gives now (or is missing) is reported as a compatible
/// "out of date" change; when the tools changed, only the tool changes are reported.
///
/// Fails when `dir/tools.json` cannot be read or parsed.
pub fn check_against(current: &[Tool], dir: &Path) -> io::Result<Report> {
    let path = dir.join(Format::Mcp.file_name());
    let text = std::fs::read_to_string(&path)?;
    let published = parse_mcp(&text).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{}: {e}", path.display()),
        )
    })?;
    let mut report = compare(&published, current);
    if !report.is_empty() {
        return Ok(report);
    }
    for format in Format::ALL {
        let file = dir.join(format.file_name());
        let expected = render(current, format);
        match std::fs::read_to_string(&file) {
            Ok(actual) => {
                let actual = actual.replace("\r\n", "\n");
                if actual != expected {
                    report.changes.push(Change {
                        compatibility: Compatibility::Compatible,
                        tool: String::new(),
                        path: format.file_name().to_owned(),
                        description: format!(
                            "out of date ({}); regenerate the export.",
                            first_difference(&actual, &expected)
                        ),
                    });
                }
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => report.changes.push(Change {
                compatibility: Compatibility::Compatible,
                tool: String::new(),
                path: format.file_name().to_owned(),
                description: "missing; regenerate the export.".to_owned(),
            }),
            Err(e) => return Err(e),
        }
    }
    Ok(report)
}

/// [`check_against`], and the exported `SKILL.md` against `skill_md`, the toolbox's skill
/// ([`super::skill`]; `None` when it serves none, and then no `SKILL.md` is checked): an
/// out-of-date or missing `SKILL.md` is a compatible change (a skill is guidance, not a
/// contract a call depends on).
pub fn check_export(current: &[Tool], skill_md: Option<&str>, dir: &Path) -> io::Result<Report> {
    let documents: Vec<(String, String)> = skill_md
        .map(|md| (super::skill::SKILL_FILE.to_owned(), md.to_owned()))
        .into_iter()
        .collect();
    check_documents(current, &documents, dir)
}

/// [`check_against`], and each of `documents` (a path relative to `dir` and the text it should
/// have: `SKILL.md`, `references/TOOLS.md`, `index.html`, `llms.txt`, as
/// [`Export`](super::Export) lists them) against the file in `dir`: an out-of-date or missing
/// document is a compatible change (documents are read by people and models; no call depends
/// on them).
pub fn check_documents(
    current: &[Tool],
    documents: &[(String, String)],
    dir: &Path,
) -> io::Result<Report> {
    let mut report = check_against(current, dir)?;
    for (file, expected) in documents {
        let change = |description: String| Change {
            compatibility: Compatibility::Compatible,
            tool: String::new(),
            path: file.clone(),
            description,
        };
        match std::fs::read_to_string(dir.join(file)) {
            Ok(actual) => {
                let actual = actual.replace("\r\n", "\n");
                if &actual != expected {
                    report.changes.push(change(format!(
                        "out of date ({}); regenerate the export.",
                        first_difference(&actual, expected)
                    )));
                }
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                report
                    .changes
                    .push(change("missing; regenerate the export.".to_owned()));
            }
            Err(e) => return Err(e),
        }
    }
    report.sort();
    Ok(report)
}

fn first_difference(actual: &str, expected: &str) -> String {
    let clip = |s: &str| {
        let s: String = s.chars().take(80).collect();
        format!("{s:?}")
    };
    let mut a = actual.lines();
    let mut e = expected.lines();
    let mut line = 1;
    loop {
        match (a.next(), e.next()) {
            (Some(x), Some(y)) if x == y => line += 1,
            (Some(x), Some(y)) => {
                return format!("line {line} is {} but should be {}", clip(x), clip(y));
            }
            (Some(x), None) => {
                return format!("line {line} is {} but should not be there", clip(x));
            }
            (None, Some(y)) => return format!("line {line} is missing, should be {}", clip(y)),
            (None, None) => return "differs in line endings or the final newline".to_owned(),
        }
    }
}
