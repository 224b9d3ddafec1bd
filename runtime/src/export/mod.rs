//! Export a toolbox's tool definitions as documentation and for other LLM APIs, and gate
//! changes to them.
//!
//! One declaration gives five files, each deterministic (declaration order, stable key order,
//! a trailing newline) so a change to a tool is a small diff:
//!
//! | [`Format`] | file | what |
//! |---|---|---|
//! | `mcp` | `tools.json` | the `tools/list` payload the server sends: `{"tools": [..]}` |
//! | `markdown` | `TOOLS.md` | for people: descriptions, annotations, parameter and output tables, an example call ([`markdown`]) |
//! | `openai` | `openai.json` | OpenAI function tools in strict mode ([`openai`]) |
//! | `anthropic` | `anthropic.json` | Anthropic Messages API tools ([`anthropic`]) |
//! | `gemini` | `gemini.json` | Gemini function declarations ([`gemini`]) |
//!
//! A toolbox exports more than its tools ([`Toolbox::export`](crate::Toolbox::export), what
//! `export --out DIR` writes, [`Export`]): `index.html`, one page for people that fetches
//! nothing ([`html`]), and `llms.txt` ([`llms`]); a toolbox that serves an operating skill
//! ([`ToolboxBuilder::with_skill`](crate::ToolboxBuilder::with_skill)) also `SKILL.md`
//! ([`skill`]) and the reference it links, `references/TOOLS.md`, the tree the skills
//! extension serves. The drift gate holds them all ([`drift::check_documents`]).
//!
//! Each dialect module documents the provider's rules with their sources and has a check for
//! them ([`check_openai`], [`check_anthropic`], [`check_gemini`]). Where a provider refuses a
//! keyword, what it said goes into the description in words, so units, ranges, defaults and
//! enum meanings reach the model either way. A call shaped by any dialect is accepted by the
//! toolbox (in its default lax mode, an explicit `null` for an optional parameter counts as
//! absent).
//!
//! [`drift`] compares published definitions with the current ones and classifies every
//! difference as compatible or breaking; [`assert_snapshot`] and [`assert_tools_snapshot!`](crate::assert_tools_snapshot)
//! turn that into a test.
//!
//! ```no_run
//! # fn toolbox() -> toolwright::Toolbox<()> { toolwright::Toolbox::from_tools((), Vec::new()) }
//! use std::path::Path;
//! use toolwright::export::{self, Format};
//!
//! let toolbox = toolbox();
//! print!("{}", export::render(toolbox.tools(), Format::Markdown));
//! export::write_all(toolbox.tools(), Path::new("docs/tools"))?;
//! let report = export::drift::check_against(toolbox.tools(), Path::new("docs/tools"))?;
//! print!("{report}");
//! std::process::exit(report.exit_code());
//! # Ok::<(), std::io::Error>(())
//! ```

pub mod anthropic;
pub mod clients;
pub mod drift;
pub mod gemini;
pub mod html;
pub mod llms;
pub mod markdown;
pub mod openai;
pub mod skill;
mod words;

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use rmcp::model::Tool;
use serde_json::{Value, json};

pub use anthropic::check_anthropic;
pub use gemini::check_gemini;
pub use openai::check_openai;

/// An export format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// `tools.json`: the `tools/list` payload, `{"tools": [..]}`.
    Mcp,
    /// `TOOLS.md`: documentation for people.
    Markdown,
    /// `openai.json`: OpenAI function tools, strict mode.
    OpenAi,
    /// `anthropic.json`: Anthropic tools.
    Anthropic,
    /// `gemini.json`: Gemini function declarations.
    Gemini,
}

impl Format {
    /// Every format, in the order [`write_all`] writes them.
    pub const ALL: [Format; 5] = [
        Format::Mcp,
        Format::Markdown,
        Format::OpenAi,
        Format::Anthropic,
        Format::Gemini,
    ];

    /// The name used on the command line: `mcp`, `markdown`, `openai`, `anthropic`, `gemini`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Mcp => "mcp",
            Format::Markdown => "markdown",
            Format::OpenAi => "openai",
            Format::Anthropic => "anthropic",
            Format::Gemini => "gemini",
        }
    }

    /// The file [`write_all`] writes it to.
    pub fn file_name(self) -> &'static str {
        match self {
            Format::Mcp => "tools.json",
            Format::Markdown => "TOOLS.md",
            Format::OpenAi => "openai.json",
            Format::Anthropic => "anthropic.json",
            Format::Gemini => "gemini.json",
        }
    }

    /// The format with this [`name`](Format::name), if any.
    pub fn from_name(s: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == s)
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).expect("JSON values serialize") + "\n"
}

/// The tools in one format, as the file's text (ending with a newline). Deterministic: tools in
/// the order given (a toolbox's declaration order), keys in schema order.
pub fn render(tools: &[Tool], format: Format) -> String {
    match format {
        Format::Mcp => pretty(&json!({ "tools": tools })),
        Format::Markdown => markdown::render(tools),
        Format::OpenAi => pretty(&openai::declarations(tools)),
        Format::Anthropic => pretty(&anthropic::declarations(tools)),
        Format::Gemini => pretty(&gemini::declarations(tools)),
    }
}

/// Writes every format into `dir` (created if needed), returning the paths written in
/// [`Format::ALL`] order.
pub fn write_all(tools: &[Tool], dir: &Path) -> io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let mut written = Vec::new();
    for format in Format::ALL {
        let path = dir.join(format.file_name());
        std::fs::write(&path, render(tools, format))?;
        written.push(path);
    }
    Ok(written)
}

/// Writes a toolbox's `SKILL.md` ([`skill`]) into `dir` (created if needed) and returns its
/// path.
pub fn write_skill(skill_md: &str, dir: &Path) -> io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let path = dir.join(skill::SKILL_FILE);
    std::fs::write(&path, skill_md)?;
    Ok(path)
}

/// Everything `export --out DIR` writes for a toolbox ([`Toolbox::export`](crate::Toolbox::export)),
/// and what `check --against DIR` ([`drift::check_documents`]) holds.
#[derive(Debug, Clone, PartialEq)]
pub struct Export {
    /// The tools as listed.
    pub tools: Vec<Tool>,
    /// The tools in every [`Format`], rendered once, in [`Format::ALL`] order.
    pub formats: Vec<(Format, String)>,
    /// The other files, by path relative to the directory, in the order written: `SKILL.md`
    /// and `references/TOOLS.md` for a toolbox that serves a skill (the tree the skills
    /// extension serves, so the skill's links resolve in both), `index.html`, `llms.txt`.
    pub documents: Vec<(String, String)>,
}

impl Export {
    /// The tools rendered in every format, and no documents yet; the OpenAI and Gemini
    /// declarations are returned too, for the page to read what they drop.
    pub(crate) fn of_tools(tools: Vec<Tool>) -> (Export, Value, Value) {
        let openai = openai::declarations(&tools);
        let gemini = gemini::declarations(&tools);
        let formats = Format::ALL
            .into_iter()
            .map(|format| {
                let text = match format {
                    Format::OpenAi => pretty(&openai),
                    Format::Gemini => pretty(&gemini),
                    other => render(&tools, other),
                };
                (format, text)
            })
            .collect();
        let export = Export {
            tools,
            formats,
            documents: Vec::new(),
        };
        (export, openai, gemini)
    }

    /// Writes every file into `dir` (created if needed, with the folders a document's path
    /// names), returning the paths written: the formats in [`Format::ALL`] order, then the
    /// documents.
    pub fn write(&self, dir: &Path) -> io::Result<Vec<PathBuf>> {
        std::fs::create_dir_all(dir)?;
        let mut written = Vec::new();
        let formats = self
            .formats
            .iter()
            .map(|(format, text)| (format.file_name(), text));
        let documents = self
            .documents
            .iter()
            .map(|(name, text)| (name.as_str(), text));
        for (name, text) in formats.chain(documents) {
            let path = dir.join(name);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(&path, text)?;
            written.push(path);
        }
        Ok(written)
    }
}

/// Parses the `mcp` export (`{"tools": [..]}`, or a bare array of tools) back into tools.
pub fn parse_mcp(text: &str) -> Result<Vec<Tool>, serde_json::Error> {
    let value: Value = serde_json::from_str(text)?;
    let list = match value {
        Value::Object(mut map) if map.contains_key("tools") => {
            map.remove("tools").unwrap_or_default()
        }
        other => other,
    };
    serde_json::from_value(list)
}

/// The environment variable that makes [`assert_snapshot`] rewrite the snapshot: set it to
/// `overwrite` (like trybuild's `TRYBUILD=overwrite`).
pub const SNAPSHOT_ENV: &str = "TOOLWRIGHT_SNAPSHOT";

/// Compares the tools with the export in `dir` (see [`drift::check_against`]) and panics with
/// the drift report on any difference, or when there is no export yet. With the environment
/// variable `TOOLWRIGHT_SNAPSHOT=overwrite` it rewrites the export instead (review the diff
/// before committing it).
#[track_caller]
pub fn assert_snapshot(tools: &[Tool], dir: &Path) {
    assert_export(tools, dir, None);
}

/// [`assert_snapshot`] for a toolbox's whole export: its tools, and its `SKILL.md` (`None`
/// when it serves no skill; see [`drift::check_export`]). What [`assert_tools_snapshot!`](crate::assert_tools_snapshot)
/// runs.
#[track_caller]
pub fn assert_export_snapshot(tools: &[Tool], skill_md: Option<&str>, dir: &Path) {
    assert_export(tools, dir, Some(skill_md));
}

/// [`assert_snapshot`] for everything `export` writes for a toolbox
/// ([`Toolbox::export`](crate::Toolbox::export): its tools in every format, its page, its
/// `llms.txt`, its skill; see [`drift::check_documents`]). What
/// [`assert_tools_snapshot!`](crate::assert_tools_snapshot) runs.
#[track_caller]
pub fn assert_export_files(export: &Export, dir: &Path) {
    if std::env::var(SNAPSHOT_ENV).is_ok_and(|v| v == "overwrite") {
        if let Err(e) = export.write(dir) {
            panic!("cannot write the tool snapshot in {}: {e}", dir.display());
        }
        return;
    }
    report_drift(
        drift::check_documents(&export.tools, &export.documents, dir),
        dir,
    );
}

#[track_caller]
fn assert_export(tools: &[Tool], dir: &Path, skill_md: Option<Option<&str>>) {
    if std::env::var(SNAPSHOT_ENV).is_ok_and(|v| v == "overwrite") {
        let written = write_all(tools, dir).and_then(|_| match skill_md.flatten() {
            Some(md) => write_skill(md, dir).map(|_| ()),
            None => Ok(()),
        });
        if let Err(e) = written {
            panic!("cannot write the tool snapshot in {}: {e}", dir.display());
        }
        return;
    }
    let report = match skill_md {
        Some(md) => drift::check_export(tools, md, dir),
        None => drift::check_against(tools, dir),
    };
    report_drift(report, dir);
}

#[track_caller]
fn report_drift(report: io::Result<drift::Report>, dir: &Path) {
    match report {
        Ok(report) if report.is_empty() => {}
        Ok(report) => panic!(
            "the tools differ from the snapshot in {}:\n{report}\
             If the change is intended, rerun with {SNAPSHOT_ENV}=overwrite and review the diff.",
            dir.display()
        ),
        Err(e) if e.kind() == io::ErrorKind::NotFound => panic!(
            "no tool snapshot in {} ({e}); create it with {SNAPSHOT_ENV}=overwrite and review it",
            dir.display()
        ),
        Err(e) => panic!("cannot read the tool snapshot in {}: {e}", dir.display()),
    }
}

/// Asserts that everything `export` writes for a toolbox (its tools in every format,
/// `index.html`, `llms.txt`, and its skill when it serves one) matches the export committed in
/// a directory, relative to the calling crate's `Cargo.toml`; see
/// [`assert_export_files`](crate::export::assert_export_files). Beside it,
/// [`assert_clients_accept!`](crate::assert_clients_accept) holds the same toolbox against the
/// rules of the clients that will list it ([`clients`]).
///
/// ```no_run
/// # fn toolbox() -> toolwright::Toolbox<()> { toolwright::Toolbox::from_tools((), Vec::new()) }
/// # fn main() {
/// toolwright::assert_tools_snapshot!(toolbox(), "docs/tools");
/// # }
/// ```
///
/// Run with `TOOLWRIGHT_SNAPSHOT=overwrite` to write the export, then review and commit it.
#[macro_export]
macro_rules! assert_tools_snapshot {
    ($toolbox:expr, $dir:expr $(,)?) => {{
        let toolbox = &($toolbox);
        $crate::export::assert_export_files(
            &toolbox.export(),
            &::std::path::Path::new(::core::env!("CARGO_MANIFEST_DIR")).join($dir),
        )
    }};
}

/// What a tool returning content blocks returns, in words (`None` for JSON and text results).
pub(crate) fn content_words(tool: &Tool) -> Option<&'static str> {
    let kind = tool
        .meta
        .as_ref()
        .and_then(|m| m.0.get(crate::contract::CONTENT_META))
        .and_then(Value::as_str)?;
    let with_value = tool.output_schema.is_some();
    Some(match (kind, with_value) {
        ("image", _) => "Returns an image.",
        ("audio", _) => "Returns audio.",
        ("resource", _) => "Returns a resource's contents.",
        ("resource_link", _) => "Returns a link to a resource.",
        (_, true) => {
            "Returns its result as JSON, followed by content blocks (images, audio or resources)."
        }
        _ => "Returns content blocks (text, images, audio or resources).",
    })
}

/// A tool's description for a dialect that has no output schema nor `_meta`: its own, then
/// what it returns when that is content blocks (so the model knows it will see an image), then
/// where it may move its resource (its envelope, in words).
pub(crate) fn dialect_description(tool: &Tool) -> Option<String> {
    let parts: Vec<String> = [
        tool.description.as_deref().map(|d| d.trim_end().to_owned()),
        content_words(tool).map(str::to_owned),
        tool_envelope_words(tool),
        tool_robot_words(tool),
    ]
    .into_iter()
    .flatten()
    .collect();
    (!parts.is_empty()).then(|| parts.join("\n\n"))
}

/// The robot a tool moves, in words (`_meta["io.toolwright/robot"]`): which robot and from
/// what file, each joint's enforced range and velocity cap, what is checked and the bound.
/// `None` for a tool that moves none.
pub(crate) fn tool_robot_words(tool: &Tool) -> Option<String> {
    let robot = tool.meta.as_ref()?.0.get(crate::contract::ROBOT_META)?;
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).unwrap_or("?").to_owned();
    let joints: Vec<String> = robot
        .get("joints")
        .and_then(Value::as_array)
        .map(|js| {
            js.iter()
                .map(|j| {
                    let n = |k: &str| j.get(k).map_or_else(|| "?".to_owned(), words::value);
                    let unit = text(j, "unit");
                    format!(
                        "`{}` {}..{} {unit} (at most {} {unit}/s)",
                        text(j, "name"),
                        n("lower"),
                        n("upper"),
                        n("maxVelocity")
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let positions = robot
        .get("positions")
        .and_then(Value::as_str)
        .map(|p| format!(" The joint positions are `{}`.", p.trim_start_matches('/')))
        .unwrap_or_default();
    Some(format!(
        "Moves robot `{}` (resource `{}`, described by `{}`): joints {}. Every link is checked \
         along the whole motion, before anything moves: inside the envelope, clear of its \
         keep-outs and of the robot's other links; a motion that would touch is refused, one \
         that stays more than {} {} clear is accepted.{positions}",
        text(robot, "robot"),
        text(robot, "resource"),
        robot
            .get("source")
            .map_or_else(|| "?".to_owned(), |s| text(s, "file")),
        joints.join(", "),
        robot
            .get("tolerance")
            .map_or_else(|| "?".to_owned(), words::value),
        text(robot, "unit"),
    ))
}

/// The arguments of a tool's example call: a value valid against `input` (its input schema,
/// [`markdown::example`]) whose target, or each waypoint of whose path, the tool's envelope
/// allows (the nearest allowed point to the middle of the published ranges), so that the call
/// runs as written. `tests/tests/examples_run.rs` makes every example call of the robot arm.
pub(crate) fn example_arguments(tool: &Tool, input: &Value) -> Value {
    let mut arguments = markdown::example(input);
    if let Some(published) = envelope_of(tool) {
        fit_envelope(&mut arguments, input, published);
    }
    arguments
}

/// Moves the target (or each waypoint) of `arguments` to a point the envelope allows.
fn fit_envelope(arguments: &mut Value, input: &Value, published: &Value) {
    let Some(own) = published.as_object() else {
        return;
    };
    let own: serde_json::Map<String, Value> = own
        .iter()
        .filter(|(k, _)| !matches!(k.as_str(), "resource" | "target" | "path"))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let Ok(envelope) = crate::envelope::Envelope::from_json(&Value::Object(own)) else {
        return;
    };
    let pointers = |v: Option<&Value>| -> Option<[String; 3]> {
        let list: Vec<String> = v?
            .as_array()?
            .iter()
            .filter_map(|p| p.as_str().map(str::to_owned))
            .collect();
        list.try_into().ok()
    };
    let fit = |point: &mut Value, schema: &Value, pointers: &[String; 3]| {
        let mut p = [0.0; 3];
        let mut bounds: crate::envelope::Bounds = [(None, None); 3];
        for (i, pointer) in pointers.iter().enumerate() {
            let Some(c) = point.pointer(pointer).and_then(Value::as_f64) else {
                return;
            };
            p[i] = c;
            if let Some(s) = schema_at(schema, pointer) {
                bounds[i] = (
                    s.get("minimum").and_then(Value::as_f64),
                    s.get("maximum").and_then(Value::as_f64),
                );
            }
        }
        let Some(q) = envelope.example_point(p, &bounds) else {
            return;
        };
        for (pointer, c) in pointers.iter().zip(q) {
            if let Some(slot) = point.pointer_mut(pointer) {
                *slot = Value::from(c);
            }
        }
    };
    if let Some(target) = pointers(published.get("target")) {
        fit(arguments, input, &target);
    } else if let Some(path) = published.get("path") {
        let (Some(array), Some(point)) = (
            path.get("array").and_then(Value::as_str),
            pointers(path.get("point")),
        ) else {
            return;
        };
        let Some(items) = schema_at(input, array).and_then(|a| a.get("items")) else {
            return;
        };
        if let Some(Value::Array(waypoints)) = arguments.pointer_mut(array) {
            for waypoint in waypoints {
                fit(waypoint, items, &point);
            }
        }
    }
}

/// The schema of the property a JSON pointer into an instance names (`/target/x`: the `x` of
/// the `target` of the top object), through `properties`.
fn schema_at<'s>(schema: &'s Value, pointer: &str) -> Option<&'s Value> {
    pointer
        .split('/')
        .skip(1)
        .try_fold(schema, |s, key| s.get("properties")?.get(key))
}

/// The envelope a tool's motions are checked against (`_meta["io.toolwright/envelope"]`), if
/// it has one.
pub(crate) fn envelope_of(tool: &Tool) -> Option<&Value> {
    tool.meta
        .as_ref()
        .and_then(|m| m.0.get(crate::contract::ENVELOPE_META))
}

/// Where a tool may move its resource, in words: the envelope ([`envelope_words`]), then which
/// arguments are checked ([`target_words`]). `None` for a tool without one.
pub(crate) fn tool_envelope_words(tool: &Tool) -> Option<String> {
    let envelope = envelope_of(tool)?;
    Some(format!(
        "{} {} from where the resource is, before anything moves and before the user is asked: \
         a motion outside the envelope is refused and nothing moves.",
        envelope_words(envelope, robot_of(tool).is_some()),
        target_words(envelope)
    ))
}

/// The robot a tool moves (`_meta["io.toolwright/robot"]`), if it moves one.
pub(crate) fn robot_of(tool: &Tool) -> Option<&Value> {
    tool.meta
        .as_ref()
        .and_then(|m| m.0.get(crate::contract::ROBOT_META))
}

/// A published envelope in words: its resource, frame and unit, what must stay inside (the
/// tool point, or every link of the arm when the resource is a `robot`: its links are checked,
/// not its tool point alone), the allow shapes, the keep-outs and the longest straight motion.
pub(crate) fn envelope_words(envelope: &Value, robot: bool) -> String {
    let text = |key: &str| envelope.get(key).and_then(Value::as_str).unwrap_or("?");
    let unit = text("unit");
    let n = |v: Option<&Value>| v.map_or_else(|| "?".to_owned(), words::value);
    let point = |v: Option<&Value>| match v.and_then(Value::as_array) {
        Some(a) => format!(
            "({})",
            a.iter().map(words::value).collect::<Vec<_>>().join(", ")
        ),
        None => "?".to_owned(),
    };
    let shape = |s: &Value| {
        let name = s
            .get("name")
            .and_then(Value::as_str)
            .map_or(String::new(), |n| format!(" `{n}`"));
        if let Some(b) = s.get("box") {
            format!(
                "the box{name} from {} to {}",
                point(b.get("min")),
                point(b.get("max"))
            )
        } else if let Some(b) = s.get("sphere") {
            format!(
                "the sphere{name} of radius {} around {}",
                n(b.get("radius")),
                point(b.get("center"))
            )
        } else if let Some(c) = s.get("cylinder") {
            format!(
                "the vertical cylinder{name} of radius {} around the axis at {}, from z = {} \
                 to {}",
                n(c.get("radius")),
                point(c.get("center")),
                n(c.get("zMin")),
                n(c.get("zMax"))
            )
        } else {
            "a shape".to_owned()
        }
    };
    let list = |key: &str| -> Vec<String> {
        envelope
            .get(key)
            .and_then(Value::as_array)
            .map(|a| a.iter().map(shape).collect())
            .unwrap_or_default()
    };
    let join = |items: Vec<String>| match items.len() {
        0 => String::new(),
        1 => items.into_iter().next().unwrap_or_default(),
        _ => {
            let (last, rest) = items.split_last().expect("two or more");
            format!("{} and {last}", rest.join(", "))
        }
    };
    let radius = envelope
        .get("toolRadius")
        .map(|r| format!(" (a ball of radius {} {unit} around it)", words::value(r)))
        .unwrap_or_default();
    let what = if robot {
        "every link of the arm (as the capsules that hold it)".to_owned()
    } else {
        format!("the tool point{radius}")
    };
    let mut out = format!(
        "Envelope of `{}` (frame `{}`, {unit}): {what} must stay inside {}",
        text("resource"),
        text("frame"),
        join(list("allow"))
    );
    let keep_out = list("keepOut");
    if !keep_out.is_empty() {
        out.push_str(&format!(", and clear of {}", join(keep_out)));
    }
    out.push('.');
    if let Some(step) = envelope.get("maxStep") {
        out.push_str(&format!(
            " One straight motion travels at most {} {unit}.",
            words::value(step)
        ));
    }
    out
}

/// Which arguments of a tool its envelope checks: "The target (`x`, `y`, `z`) is checked",
/// "Each waypoint of `waypoints` (..) and each straight segment between them is checked".
pub(crate) fn target_words(envelope: &Value) -> String {
    let point_of = |pointers: Option<&Value>| -> String {
        pointers
            .and_then(Value::as_array)
            .map(|p| {
                p.iter()
                    .filter_map(Value::as_str)
                    .map(|p| format!("`{}`", p.trim_start_matches('/').replace('/', ".")))
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .unwrap_or_default()
    };
    match (envelope.get("target"), envelope.get("path")) {
        (Some(target), _) => format!("The target ({}) is checked", point_of(Some(target))),
        (None, Some(path)) => format!(
            "Each waypoint of `{}` ({} of each) and each straight segment between them is \
             checked",
            path.get("array")
                .and_then(Value::as_str)
                .unwrap_or("?")
                .trim_start_matches('/'),
            point_of(path.get("point"))
        ),
        (None, None) => "The motion is checked".to_owned(),
    }
}

/// The OAuth scopes a tool declares (`#[tool(scopes = [..])]`, published in its `_meta`).
/// The question a tool asks its user before it runs (`#[tool(confirm = "..")]`), if it declares
/// one.
pub(crate) fn confirmation(tool: &rmcp::model::Tool) -> Option<&str> {
    tool.meta
        .as_ref()
        .and_then(|m| m.0.get(crate::contract::CONFIRM_META))
        .and_then(serde_json::Value::as_str)
}

/// What a confirmation question's `{check}` is, for the docs: empty when it has none.
pub(crate) fn check_note(question: &str) -> &'static str {
    if question.contains("{check}") {
        " (`{check}`: what its check says of the call)"
    } else {
        ""
    }
}

/// Why no one confirms the calls of a tool that acts (`#[tool(confirm = false, because = "..")]`).
pub(crate) fn confirm_not_needed(tool: &rmcp::model::Tool) -> Option<&str> {
    tool.meta
        .as_ref()
        .and_then(|m| m.0.get(crate::contract::CONFIRM_NOT_NEEDED_META))
        .and_then(serde_json::Value::as_str)
}

/// The resources a tool's calls hold (`#[tool(resource = "..")]`).
pub(crate) fn resources_of(tool: &rmcp::model::Tool) -> Vec<String> {
    strings_meta(tool, crate::contract::RESOURCES_META)
}

/// What the tools do to one resource, for the people who run the server: which change it once
/// the user confirmed, which change it without asking (and why), which only read it, and which
/// stop it.
pub(crate) struct ResourceUse<'a> {
    /// The resource.
    pub(crate) name: String,
    /// Tools that change it once the user confirmed, with their questions.
    pub(crate) asking: Vec<(&'a str, &'a str)>,
    /// Tools that change it without asking, with why (`None`: they published no reason).
    pub(crate) unasked: Vec<(&'a str, Option<&'a str>)>,
    /// Read-only tools that hold it (they wait for it, and change nothing).
    pub(crate) reading: Vec<&'a str>,
    /// Its stop tools.
    pub(crate) stopping: Vec<&'a str>,
}

/// Each resource the tools hold or stop, in the order the tools name them, with what each
/// tool does to it.
pub(crate) fn resource_uses<'a>(
    tools: impl IntoIterator<Item = &'a rmcp::model::Tool>,
) -> Vec<ResourceUse<'a>> {
    /// The entry of resource `name`, added when new.
    fn entry<'a, 'b>(uses: &'b mut Vec<ResourceUse<'a>>, name: String) -> &'b mut ResourceUse<'a> {
        let i = match uses.iter().position(|u| u.name == name) {
            Some(i) => i,
            None => {
                uses.push(ResourceUse {
                    name,
                    asking: Vec::new(),
                    unasked: Vec::new(),
                    reading: Vec::new(),
                    stopping: Vec::new(),
                });
                uses.len() - 1
            }
        };
        &mut uses[i]
    }
    let mut uses: Vec<ResourceUse<'_>> = Vec::new();
    for tool in tools {
        let name = tool.name.as_ref();
        let read_only = tool
            .annotations
            .as_ref()
            .and_then(|a| a.read_only_hint)
            .unwrap_or(false);
        for resource in resources_of(tool) {
            let entry = entry(&mut uses, resource);
            match confirmation(tool) {
                Some(question) => entry.asking.push((name, question)),
                None if read_only => entry.reading.push(name),
                None => entry.unasked.push((name, confirm_not_needed(tool))),
            }
        }
        for resource in stop_for(tool) {
            entry(&mut uses, resource).stopping.push(name);
        }
    }
    uses
}

/// What a tool's check refuses (`#[tool(check = ..)]`'s doc comment), if it declares one.
pub(crate) fn check(tool: &rmcp::model::Tool) -> Option<&str> {
    tool.meta
        .as_ref()
        .and_then(|m| m.0.get(crate::contract::CHECK_META))
        .and_then(serde_json::Value::as_str)
}

/// A tool's description without its check's words (which end it: `Before it runs: ..`).
pub(crate) fn own_description(tool: &rmcp::model::Tool) -> &str {
    let description = tool.description.as_deref().unwrap_or("");
    match check(tool) {
        Some(check) => description
            .strip_suffix(check)
            .and_then(|d| d.strip_suffix(crate::contract::CHECK_PREFIX))
            .map_or(description, str::trim_end),
        None => description,
    }
}

/// The resources a stop tool stops (`#[tool(stop_for = "..")]`).
pub(crate) fn stop_for(tool: &rmcp::model::Tool) -> Vec<String> {
    strings_meta(tool, crate::contract::STOP_FOR_META)
}

pub(crate) fn scopes(tool: &rmcp::model::Tool) -> Vec<String> {
    strings_meta(tool, crate::contract::SCOPES_META)
}

/// A list of strings in the tool's `_meta` under `key` (empty when absent).
fn strings_meta(tool: &rmcp::model::Tool, key: &str) -> Vec<String> {
    tool.meta
        .as_ref()
        .and_then(|m| m.0.get(key))
        .and_then(serde_json::Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// The property names a schema object's `required` lists.
fn required_names(schema: &serde_json::Map<String, Value>) -> std::collections::HashSet<String> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}
