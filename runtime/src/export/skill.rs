//! `SKILL.md`: an operating skill (Agent Skills format, served through the MCP Skills
//! extension, SEP-2640) written from the same declarations as the tools. A toolbox opts in with
//! [`ToolboxBuilder::with_skill`](crate::ToolboxBuilder::with_skill), giving the skill a name
//! and a sentence saying what it is for; everything else is generated, deterministically:
//!
//! - the front matter the Agent Skills format requires (`name`, `description`);
//! - the server's title and instructions;
//! - **Tools**: per tool, whether it changes the world (not `read_only`; destructive,
//!   idempotent, the resources it holds), its deadline, and what it is for (the first paragraph
//!   of its description);
//! - **How robot motions are checked** (a resource declared from its URDF): the joint limits,
//!   every link along the whole motion against the envelope and the other links, the bound,
//!   the timing by the joints' caps, and what is not checked (dynamics, moving obstacles, the
//!   links' exact shapes);
//! - **When a call ends early**: deadlines, cancels, a client gone, shutdowns, the grace
//!   period, each resource's safe stop (whatever the tool returned) and queue, a safe stop that
//!   fails, retries, and the lease of tasks that hold a resource with a safe stop;
//! - **Using each tool**: the rest of its description, and every parameter with its type,
//!   unit, allowed values, default and description (the rows of `TOOLS.md`), with what happens
//!   to arguments outside them;
//! - **Rate limits**, **Groups** and **Access** (OAuth scopes), when declared.
//!
//! The skill is served as two files: `SKILL.md` and `references/TOOLS.md` (the full reference,
//! the same text as the exported `TOOLS.md`), at `skill://<name>/SKILL.md` and
//! `skill://<name>/references/TOOLS.md`. `export --out DIR` writes `SKILL.md` next to
//! `TOOLS.md`, and `check --against DIR` holds it like the other exports.

use std::fmt::Write as _;

use serde_json::Value;
use std::time::Duration;

use rmcp::model::Tool;

use super::markdown::{self, cell, first_paragraph};
use crate::exec::policy::describe_duration;
use crate::rate::Rate;

/// The file name of the skill's entry point (and of its export).
pub const SKILL_FILE: &str = "SKILL.md";

/// The path, inside the served skill, of the full tool reference (`TOOLS.md`).
pub const REFERENCE_FILE: &str = "references/TOOLS.md";

/// The longest skill description the Agent Skills format allows, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 1024;

/// How one tool runs, besides its published definition.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Operation {
    /// The call's deadline (the tool's, else the toolbox's default).
    pub timeout: Option<Duration>,
    /// How long the body has to return once told to stop.
    pub grace: Duration,
    /// The resources it holds while it runs.
    pub resources: Vec<String>,
    /// Extra attempts on a timeout or a retryable error.
    pub retry: u32,
    /// Calls one client may make to it.
    pub rate_limit: Option<Rate>,
    /// Its group.
    pub group: Option<String>,
}

/// A resource the tools share.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SharedResource {
    pub name: String,
    /// Whether a safe stop is declared for it.
    pub safe_stop: bool,
    /// How many calls may wait for it (its queue's `max_waiting`).
    pub max_waiting: Option<usize>,
}

/// What a skill is written from.
pub(crate) struct SkillSource<'a> {
    pub name: &'a str,
    pub description: &'a str,
    /// The server's title (else its name).
    pub title: &'a str,
    pub instructions: Option<&'a str>,
    /// The tools as listed, in order.
    pub tools: &'a [Tool],
    /// How each of `tools` runs, in the same order.
    pub operations: &'a [Operation],
    /// The resources the tools hold, in order of first use.
    pub resources: &'a [SharedResource],
    /// Calls one client may make to all tools together.
    pub client_rate_limit: Option<Rate>,
    /// How long a task holding a resource with a safe stop may go unpolled
    /// ([`crate::TaskLimits::lease`]).
    pub task_lease: Duration,
}

/// Why a skill name or description is refused: the Agent Skills rules.
pub(crate) fn check(name: &str, description: &str) -> Result<(), String> {
    let valid_name = !name.is_empty()
        && name.len() <= 64
        && name.split('-').all(|part| {
            !part.is_empty() && part.bytes().all(|b| matches!(b, b'a'..=b'z' | b'0'..=b'9'))
        });
    if !valid_name {
        return Err(format!(
            "skill name `{name}`: use 1 to 64 characters, lowercase letters, digits and single \
             hyphens between them (e.g. `robot-arm`)"
        ));
    }
    let chars = description.trim().chars().count();
    if chars == 0 || chars > MAX_DESCRIPTION_CHARS {
        return Err(format!(
            "skill description of {chars} characters: write 1 to {MAX_DESCRIPTION_CHARS} \
             characters saying what the skill is for and when to use it"
        ));
    }
    if description.contains(['\n', '\r']) {
        return Err("skill description: write it on one line".to_owned());
    }
    Ok(())
}

/// The front matter of `SKILL.md`: `name` plain, `description` as a double-quoted scalar (JSON
/// string syntax, which YAML reads as the same string).
fn front_matter(s: &mut String, name: &str, description: &str) {
    let quoted = serde_json::to_string(description).expect("a string serializes");
    let _ = write!(s, "---\nname: {name}\ndescription: {quoted}\n---\n\n");
}

/// Whether a tool may run as a task (`_meta["io.toolwright/taskSupport"]`).
fn runs_as_task(tool: &Tool) -> bool {
    tool.meta
        .as_ref()
        .and_then(|m| m.0.get(crate::tasks::TASK_SUPPORT_META))
        .and_then(serde_json::Value::as_str)
        .is_some_and(|support| support != "forbidden")
}

fn names(list: &[&str]) -> String {
    list.iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Renders `SKILL.md`.
pub(crate) fn render(source: &SkillSource<'_>) -> String {
    debug_assert_eq!(source.tools.len(), source.operations.len());
    let mut s = String::new();
    front_matter(&mut s, source.name, source.description.trim());
    let _ = writeln!(s, "# {}\n", source.title.trim());
    s.push_str(
        "<!-- Generated by toolwright from the tool declarations (toolwright::export); \
         do not edit by hand. -->\n\n",
    );
    if let Some(instructions) = source.instructions {
        let _ = writeln!(s, "{}\n", instructions.trim());
    }
    let tools: Vec<(&Tool, &Operation)> = source.tools.iter().zip(source.operations).collect();
    render_tools(&mut s, &tools);
    render_ending_early(&mut s, &tools, source.resources, source.task_lease);
    render_envelopes(&mut s, &tools);
    render_robots(&mut s, &tools);
    render_confirmations(&mut s, &tools);
    render_resource_uses(&mut s, source.tools);
    render_each(&mut s, &tools);
    render_rate_limits(&mut s, &tools, source.client_rate_limit);
    render_groups(&mut s, &tools);
    render_access(&mut s, &tools);
    s.truncate(s.trim_end().len());
    s.push('\n');
    s
}

fn render_tools(s: &mut String, tools: &[(&Tool, &Operation)]) {
    s.push_str("## Tools\n\n");
    if tools.is_empty() {
        s.push_str("No tools.\n\n");
        return;
    }
    s.push_str(
        "Tools that change the world (everything not read-only) act on what the server \
         controls: check the state before calling one, and read its result before the next.\n\n",
    );
    s.push_str("| Tool | Changes the world | Deadline | What it is for |\n|---|---|---|---|\n");
    for (tool, op) in tools {
        let summary = tool
            .description
            .as_deref()
            .map(first_paragraph)
            .unwrap_or_default();
        let _ = writeln!(
            s,
            "| `{}` | {} | {} | {} |",
            tool.name,
            effect(tool, op),
            op.timeout
                .map_or_else(|| "none".to_owned(), describe_duration),
            cell(&summary)
        );
    }
    let _ = writeln!(
        s,
        "\nEvery parameter and output field, with an example call, is in \
         [{REFERENCE_FILE}]({REFERENCE_FILE}) (the same schemas as `tools/list`).\n"
    );
}

/// The "changes the world" column: `no (read-only)`, or `**yes**` (MCP reads an undeclared
/// `readOnlyHint` as false) and what else is declared.
fn effect(tool: &Tool, op: &Operation) -> String {
    let a = tool.annotations.as_ref();
    if a.and_then(|a| a.read_only_hint) == Some(true) {
        return "no (read-only)".to_owned();
    }
    let mut parts = vec!["**yes**".to_owned()];
    if a.and_then(|a| a.destructive_hint) == Some(true) {
        parts.push("destructive".to_owned());
    }
    if a.and_then(|a| a.idempotent_hint) == Some(true) {
        parts.push("idempotent".to_owned());
    }
    if !op.resources.is_empty() {
        let held: Vec<&str> = op.resources.iter().map(String::as_str).collect();
        parts.push(format!("holds {}", names(&held)));
    }
    parts.join("; ")
}

/// A description after its first paragraph (the table has that), paragraphs kept.
fn rest_of(description: &str) -> String {
    description
        .split("\n\n")
        .skip(1)
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n")
}

fn render_each(s: &mut String, tools: &[(&Tool, &Operation)]) {
    if tools.is_empty() {
        return;
    }
    s.push_str("## Using each tool\n\n");
    s.push_str(
        "The server checks every argument against the limits below before the tool runs. A \
         refused call gets an `isError` result listing every problem (where, what is allowed, \
         what was sent) and the tool did not run: fix the arguments and call again. An optional \
         parameter left out takes its default.\n\n",
    );
    for (tool, _) in tools {
        let _ = writeln!(s, "### `{}`\n", tool.name);
        let rest = tool.description.as_deref().map(rest_of).unwrap_or_default();
        if !rest.is_empty() {
            let _ = writeln!(s, "{rest}\n");
        }
        let rows = markdown::parameter_rows(tool);
        if rows.is_empty() {
            s.push_str("No parameters.\n\n");
            continue;
        }
        for r in rows {
            let mut head = vec![r.ty.clone()];
            if let Some(unit) = &r.unit {
                head.push(unit.clone());
            }
            if r.required {
                head.push("required".to_owned());
            }
            if let Some(default) = &r.default {
                head.push(format!("default `{default}`"));
            }
            let mut line = format!("- `{}` ({})", r.path, head.join(", "));
            let description = r.description.trim();
            if !description.is_empty() {
                let _ = write!(line, ": {description}");
            }
            if !r.allowed.is_empty() {
                let allowed = r.allowed.replace("<br>", "; ");
                let _ = write!(line, " Allowed: {allowed}.");
            }
            let _ = writeln!(s, "{}", line.replace('\n', " "));
        }
        s.push('\n');
    }
}

fn render_ending_early(
    s: &mut String,
    tools: &[(&Tool, &Operation)],
    resources: &[SharedResource],
    task_lease: Duration,
) {
    if tools.is_empty() {
        return;
    }
    s.push_str("## When a call ends early\n\n");
    s.push_str(
        "A call's deadline (the Deadline column) covers waiting for its resources and running. \
         When it passes, when the client cancels the call or goes away, when a stop tool stops \
         its resource, or when the server shuts down:\n\n",
    );
    let mut graces: Vec<Duration> = tools.iter().map(|(_, op)| op.grace).collect();
    graces.sort_unstable();
    graces.dedup();
    let grace = match graces.as_slice() {
        [one] => describe_duration(*one),
        _ => tools
            .iter()
            .map(|(t, op)| format!("`{}` {}", t.name, describe_duration(op.grace)))
            .collect::<Vec<_>>()
            .join(", "),
    };
    s.push_str("- A call still waiting for its turn does not start.\n");
    let _ = writeln!(
        s,
        "- A running tool is told to stop and has its grace period to return: {grace} (at \
         most 2 s when its client went away or the server is shutting down)."
    );
    let stopped = |op: &Operation| {
        op.resources
            .iter()
            .any(|name| resources.iter().any(|r| &r.name == name && r.safe_stop))
    };
    let held = resources.iter().any(|r| r.safe_stop);
    let free = tools.iter().any(|(_, op)| !stopped(op));
    if held {
        s.push_str(
            "- Then the safe stop of each resource it holds runs, exactly once, whatever the \
             tool returned, before any other call may use the resource: a tool told to stop did \
             not do what was asked. A tool that cannot be interrupted keeps its resources until \
             it really returns.\n",
        );
    }
    if free {
        s.push_str(if held {
            "- A tool that holds no resource with a safe stop and finishes its work in that \
             time answers with its result.\n"
        } else {
            "- A tool that finishes its work in that time answers with its result.\n"
        });
    }
    s.push_str(
        "- Otherwise the answer is an `isError` result saying what stopped the call and how the \
         tool ended",
    );
    s.push_str(if held {
        ", what each safe stop reported, then what the tool returned, if it returned anything. \
         It never claims a stop that did not run.\n"
    } else {
        " and what it reported.\n"
    });
    if held {
        s.push_str(
            "- A safe stop that fails leaves its resource refusing every call that moves it, \
             saying why, until its safe stop succeeds again (each such call runs it again \
             first). Do not work around it: tell the user the device needs checking.\n",
        );
        s.push_str(
            "- The client is gone when stdin closes, or when its HTTP connection drops (on \
             protocol 2025-11-25, when a call's event stream is not resumed within the server's \
             resume window, 2 s by default): its calls are stopped as above. Stay connected \
             while a motion runs.\n",
        );
    }
    let retried: Vec<String> = tools
        .iter()
        .filter(|(_, op)| op.retry > 0)
        .map(|(t, op)| {
            format!(
                "`{}` up to {} more time{}",
                t.name,
                op.retry,
                if op.retry == 1 { "" } else { "s" }
            )
        })
        .collect();
    if !retried.is_empty() {
        let _ = writeln!(
            s,
            "- After a deadline (not a cancel) or a retryable error, the server itself runs the \
             call again: {}.",
            retried.join(", ")
        );
    }
    let leased: Vec<&str> = tools
        .iter()
        .filter(|(t, op)| stopped(op) && runs_as_task(t))
        .map(|(t, _)| t.name.as_ref())
        .collect();
    if !leased.is_empty() {
        let _ = writeln!(
            s,
            "- {} may run as {}. Such a task is cancelled, and its resources' safe stops run, \
             when no `tasks/get` or `tasks/update` for it comes within {} (its lease, also in \
             the task's `_meta[\"io.toolwright/leaseMs\"]`): poll it more often than that.",
            names(&leased),
            if leased.len() == 1 { "a task" } else { "tasks" },
            describe_duration(task_lease)
        );
    }
    s.push('\n');
    let mut listed = Vec::new();
    for r in resources {
        let holders: Vec<&str> = tools
            .iter()
            .filter(|(_, op)| op.resources.contains(&r.name))
            .map(|(t, _)| t.name.as_ref())
            .collect();
        if holders.is_empty() {
            continue;
        }
        let stop = if r.safe_stop {
            "has a safe stop"
        } else {
            "no safe stop: a call that ends early leaves it as the tool left it"
        };
        let stoppers: Vec<&str> = tools
            .iter()
            .filter(|(t, _)| super::stop_for(t).contains(&r.name))
            .map(|(t, _)| t.name.as_ref())
            .collect();
        let stopped_by = if stoppers.is_empty() {
            String::new()
        } else {
            format!(
                " {} stop{} it: each call cancels every call waiting for it (they do not run), \
                 runs its safe stop and stops the one using it (whose answer names the stop); {} \
                 never queued, rate-limited or confirmed, so call {} as soon as something goes \
                 wrong.",
                names(&stoppers),
                if stoppers.len() == 1 { "s" } else { "" },
                if stoppers.len() == 1 {
                    "it is"
                } else {
                    "they are"
                },
                if stoppers.len() == 1 { "it" } else { "one" },
            )
        };
        listed.push(format!(
            "- `{}` ({stop}): held by {}. Calls holding it run one at a time, in the order the \
             server received them; when too many wait, the next is refused at once with a \
             retryable error.{stopped_by}",
            r.name,
            names(&holders)
        ));
    }
    let free: Vec<&str> = tools
        .iter()
        .filter(|(t, op)| {
            op.resources.is_empty()
                && t.annotations.as_ref().and_then(|a| a.read_only_hint) != Some(true)
                && super::stop_for(t).is_empty()
        })
        .map(|(t, _)| t.name.as_ref())
        .collect();
    if !free.is_empty() {
        listed.push(format!(
            "- {} {} no resource: no safe stop runs after {}, and what {} did before stopping \
             stays done.",
            names(&free),
            if free.len() == 1 { "holds" } else { "hold" },
            if free.len() == 1 { "it" } else { "them" },
            if free.len() == 1 { "it" } else { "they" },
        ));
    }
    if !listed.is_empty() {
        let _ = writeln!(s, "What the tools hold:\n\n{}\n", listed.join("\n"));
    }
}

fn render_rate_limits(s: &mut String, tools: &[(&Tool, &Operation)], client: Option<Rate>) {
    let per_tool: Vec<(&str, Rate)> = tools
        .iter()
        .filter_map(|(t, op)| op.rate_limit.map(|r| (t.name.as_ref(), r)))
        .collect();
    if client.is_none() && per_tool.is_empty() {
        return;
    }
    s.push_str("## Rate limits\n\n");
    s.push_str(
        "Past a limit a call is refused at once, without running, with a retryable `isError` \
         result saying how long to wait (`_meta[\"io.toolwright/retryAfterMs\"]`).\n\n",
    );
    if let Some(rate) = client {
        let _ = writeln!(
            s,
            "- All tools together: {rate} per client (`describe_tool` excepted)."
        );
    }
    for (name, rate) in per_tool {
        let _ = writeln!(s, "- `{name}`: {rate} per client.");
    }
    s.push('\n');
}

fn render_groups(s: &mut String, tools: &[(&Tool, &Operation)]) {
    let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
    for (t, op) in tools {
        let Some(g) = op.group.as_deref() else {
            continue;
        };
        match groups.iter_mut().find(|(name, _)| *name == g) {
            Some((_, members)) => members.push(t.name.as_ref()),
            None => groups.push((g, vec![t.name.as_ref()])),
        }
    }
    if groups.is_empty() {
        return;
    }
    s.push_str("## Groups\n\n");
    s.push_str(
        "The server may serve only some groups, and may enable or disable a group while it runs \
         (clients are told with `notifications/tools/list_changed`): a disabled group's tools \
         are neither listed nor callable.\n\n",
    );
    for (g, members) in groups {
        let _ = writeln!(s, "- `{g}`: {}", names(&members));
    }
    s.push('\n');
}

fn render_envelopes(s: &mut String, tools: &[(&Tool, &Operation)]) {
    // One entry per envelope (tools of one resource share it), with the tools it checks.
    let mut envelopes: Vec<(&Value, bool, Vec<String>)> = Vec::new();
    for (t, _) in tools {
        let Some(envelope) = super::envelope_of(t) else {
            continue;
        };
        let mut own = envelope.clone();
        if let Value::Object(map) = &mut own {
            map.remove("target");
            map.remove("path");
        }
        let checked = format!(
            "`{}`: {}",
            t.name,
            super::target_words(envelope)
                .replacen("The ", "the ", 1)
                .replacen("Each ", "each ", 1)
        );
        let robot = super::robot_of(t).is_some();
        match envelopes.iter_mut().find(|(e, r, _)| {
            let mut other = (*e).clone();
            if let Value::Object(map) = &mut other {
                map.remove("target");
                map.remove("path");
            }
            other == own && *r == robot
        }) {
            Some((_, _, checks)) => checks.push(checked),
            None => envelopes.push((envelope, robot, vec![checked])),
        }
    }
    if envelopes.is_empty() {
        return;
    }
    s.push_str("## Where motions may go\n\n");
    s.push_str(
        "The server checks every motion of these tools against its resource's envelope from \
         where the resource is, before anything moves and before the user is asked, and again \
         when the motion gets its turn (the motions before it move the resource). A refused \
         motion did not move anything: its `isError` result names the shape or the segment and \
         says how to go around it (the nearest allowed point, a waypoint that clears a keep-out, \
         a shorter step). No argument can widen an envelope; an operator may have narrowed it \
         at start-up, and the envelope in each tool's `_meta[\"io.toolwright/envelope\"]` is \
         the one checked.\n\n",
    );
    for (envelope, robot, checks) in envelopes {
        let _ = writeln!(s, "- {}", super::envelope_words(envelope, robot));
        for check in checks {
            let _ = writeln!(s, "  - {check}.");
        }
    }
    s.push('\n');
}

/// What the server checks of each robot's motions, and what it does not, from the tools'
/// `_meta["io.toolwright/robot"]`.
fn render_robots(s: &mut String, tools: &[(&Tool, &Operation)]) {
    // One entry per robot resource, with the tools that move it.
    let mut robots: Vec<(&Value, Vec<&str>)> = Vec::new();
    for (t, _) in tools {
        let Some(robot) = super::robot_of(t) else {
            continue;
        };
        match robots
            .iter_mut()
            .find(|(r, _)| r.get("resource") == robot.get("resource"))
        {
            Some((_, movers)) => movers.push(t.name.as_ref()),
            None => robots.push((robot, vec![t.name.as_ref()])),
        }
    }
    if robots.is_empty() {
        return;
    }
    s.push_str(
        "## How robot motions are checked

",
    );
    for (robot, movers) in robots {
        let text =
            |v: &Value, key: &str| v.get(key).and_then(Value::as_str).unwrap_or("?").to_owned();
        let unit = text(robot, "unit");
        let tolerance = robot
            .get("tolerance")
            .map_or_else(|| "?".to_owned(), super::words::value);
        let joints: Vec<String> = robot
            .get("joints")
            .and_then(Value::as_array)
            .map(|js| {
                js.iter()
                    .map(|j| {
                        let n =
                            |k: &str| j.get(k).map_or_else(|| "?".to_owned(), super::words::value);
                        let u = text(j, "unit");
                        format!(
                            "`{}` {} to {} {u} (at most {} {u}/s)",
                            text(j, "name"),
                            n("lower"),
                            n("upper"),
                            n("maxVelocity")
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        let _ = writeln!(
            s,
            "{} {} robot `{}` (resource `{}`), read from `{}` when the server was built. Before \
             anything moves and before the user is asked, and again when the motion gets its \
             turn, the server checks:\n",
            names(&movers),
            if movers.len() == 1 { "moves" } else { "move" },
            text(robot, "robot"),
            text(robot, "resource"),
            robot
                .get("source")
                .map_or_else(|| "?".to_owned(), |f| text(f, "file")),
        );
        let _ = writeln!(
            s,
            "- **Joint limits.** Each joint stays within its range: {}. A joint position \
             outside its range is refused by the tool's schema, before anything else.",
            joints.join(", ")
        );
        let _ = writeln!(
            s,
            "- **Every link, along the whole motion.** A motion goes in a straight line in joint \
             space from where the joints are. Every link of the arm (the elbow and the forearm, \
             not only the tool point), as capsules that contain its shape, must stay inside the \
             envelope, clear of every keep-out, and clear of the robot's other links. A target \
             for the tool point is first solved to joint positions within the joints' ranges, \
             closest to where the arm is; a point out of reach is refused with the closest point \
             the arm reaches."
        );
        let _ = writeln!(
            s,
            "- **The bound: {tolerance} {unit}.** A motion that would bring a link within \
             {tolerance} {unit} of a keep-out, of the envelope's edge or of another link is \
             refused; one that stays more than {tolerance} {unit} clear all along is accepted. \
             Leave more room than that. A refusal names the link, what it would touch, how far \
             along the motion and the joint values there, and a way around (often: move in \
             steps, through the home configuration); nothing moved and no one was asked."
        );
        let _ = writeln!(
            s,
            "- **Timing.** The joints move in step, so the path keeps its shape; a motion takes \
             at least what the slowest joint's velocity cap (and its acceleration and \
             deceleration caps) allows at the requested `speed`, a fraction of the caps. The \
             result's `duration` is that time.\n"
        );
        s.push_str(
            "It does not check, so do not rely on it for:\n\n\
             - dynamics: torques, payloads, and the distance the arm needs to stop under load;\n\
             - anything that moves or was placed after the server started (people, other \
             machines, objects): the envelope is fixed, so ask the user when the cell may have \
             changed;\n\
             - the links' exact shapes: each is checked as the capsules that contain it, which \
             are larger, so a motion very close to an obstacle may be refused although the real \
             link would pass;\n\
             - jerk and effort limits (read from the robot's description, not enforced).\n\n",
        );
    }
}

fn render_confirmations(s: &mut String, tools: &[(&Tool, &Operation)]) {
    let asking: Vec<(&str, &str)> = tools
        .iter()
        .filter_map(|(t, _)| super::confirmation(t).map(|q| (t.name.as_ref(), q)))
        .collect();
    if asking.is_empty() {
        return;
    }
    s.push_str(
        "## Calls the user confirms

",
    );
    s.push_str(
        "Before one of these tools runs, the server asks the user, with the question filled in \
         from the arguments and their units. A call the user declines, or that no one could be \
         asked about, did nothing, and its `isError` result says so: tell the user what you \
         meant to do and why, and do not call it again unless they ask you to.\n\n",
    );
    for (name, question) in asking {
        let _ = writeln!(
            s,
            "- `{name}`: \"{question}\"{}",
            super::check_note(question)
        );
    }
    s.push('\n');
}

/// Per resource, which tools change it after the user confirms, which without asking (and
/// why), which only read it and which stop it.
fn render_resource_uses(s: &mut String, tools: &[Tool]) {
    let uses = super::resource_uses(tools);
    if uses.is_empty() {
        return;
    }
    s.push_str(
        "## Who changes what\n\nEvery tool that changes a resource asks the user before each call, \
         or says here why no one needs to. A tool that only reads it changes nothing; a stop tool \
         is never confirmed.\n\n",
    );
    for u in uses {
        let mut parts = Vec::new();
        if !u.asking.is_empty() {
            let asking: Vec<&str> = u.asking.iter().map(|(t, _)| *t).collect();
            parts.push(format!(
                "changed after the user confirms by {}",
                names(&asking)
            ));
        }
        for (tool, because) in &u.unasked {
            parts.push(match because {
                Some(because) => format!("changed without asking by `{tool}` (because {because})"),
                None => format!("changed without asking by `{tool}`"),
            });
        }
        if !u.reading.is_empty() {
            parts.push(format!("only read by {}", names(&u.reading)));
        }
        if !u.stopping.is_empty() {
            parts.push(format!("stopped by {}", names(&u.stopping)));
        }
        let _ = writeln!(s, "- `{}`: {}.", u.name, parts.join("; "));
    }
    s.push('\n');
}

fn render_access(s: &mut String, tools: &[(&Tool, &Operation)]) {
    let mut by_scope: Vec<(String, Vec<&str>)> = Vec::new();
    for (t, _) in tools {
        for scope in super::scopes(t) {
            match by_scope.iter_mut().find(|(name, _)| *name == scope) {
                Some((_, members)) => members.push(t.name.as_ref()),
                None => by_scope.push((scope, vec![t.name.as_ref()])),
            }
        }
    }
    if by_scope.is_empty() {
        return;
    }
    s.push_str("## Access\n\n");
    s.push_str(
        "Over HTTP with OAuth, the access token must grant every scope listed for a tool, or the \
         call is refused with `403` (`insufficient_scope`):\n\n",
    );
    for (scope, members) in by_scope {
        let _ = writeln!(s, "- `{scope}`: {}", names(&members));
    }
    s.push('\n');
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use rmcp::model::ToolAnnotations;
    use serde_json::json;

    use super::*;

    fn tool(name: &str, description: &str, input: serde_json::Value, read_only: bool) -> Tool {
        let serde_json::Value::Object(input) = input else {
            panic!("an object schema")
        };
        Tool::new(name.to_owned(), description.to_owned(), Arc::new(input)).with_annotations(
            ToolAnnotations::from_raw(
                None,
                Some(read_only),
                (!read_only).then_some(true),
                None,
                None,
            ),
        )
    }

    fn grip() -> Tool {
        tool(
            "grip",
            "Close the gripper.\n\nMore words.",
            json!({
                "type": "object",
                "properties": {
                    "force": {"type": "number", "description": "Grip force.", "x-unit": "N",
                              "minimum": 5.0, "maximum": 30.0, "default": 15.0}
                }
            }),
            false,
        )
    }

    fn look() -> Tool {
        tool(
            "look",
            "Read the sensor.",
            json!({"type": "object", "properties": {}}),
            true,
        )
    }

    fn render_two(ops: [Operation; 2], resources: &[SharedResource]) -> String {
        let tools = [grip(), look()];
        render(&SkillSource {
            name: "gripper",
            description: "Operate the gripper: grip, and read its sensor.",
            title: "A gripper",
            instructions: Some("Read the sensor first."),
            tools: &tools,
            operations: &ops,
            resources,
            client_rate_limit: None,
            task_lease: Duration::from_secs(10),
        })
    }

    fn gripping() -> Operation {
        Operation {
            timeout: Some(Duration::from_secs(30)),
            grace: Duration::from_secs(1),
            resources: vec!["hand".to_owned()],
            group: Some("hand".to_owned()),
            ..Operation::default()
        }
    }

    fn looking() -> Operation {
        Operation {
            timeout: Some(Duration::from_secs(3)),
            grace: Duration::from_secs(1),
            ..Operation::default()
        }
    }

    #[test]
    fn front_matter_names_and_describes_the_skill() {
        let md = render_two([gripping(), looking()], &[]);
        assert!(
            md.starts_with(
                "---\nname: gripper\ndescription: \"Operate the gripper: grip, and read its \
                 sensor.\"\n---\n\n# A gripper\n"
            ),
            "{md}"
        );
        // The description is a YAML double-quoted scalar; quotes and backslashes stay escaped.
        let mut s = String::new();
        front_matter(&mut s, "x", r#"Say "stop" \ now"#);
        assert_eq!(
            s,
            "---\nname: x\ndescription: \"Say \\\"stop\\\" \\\\ now\"\n---\n\n"
        );
    }

    #[test]
    fn says_which_tools_act_with_deadlines_and_limits() {
        let md = render_two([gripping(), looking()], &[]);
        assert!(
            md.contains(
                "| `grip` | **yes**; destructive; holds `hand` | 30 s | Close the gripper. |"
            ),
            "{md}"
        );
        assert!(
            md.contains("| `look` | no (read-only) | 3 s | Read the sensor. |"),
            "{md}"
        );
        assert!(
            md.contains("- `force` (number, N, default `15`): Grip force. Allowed: 5 to 30."),
            "{md}"
        );
        assert!(md.contains("### `look`\n\nNo parameters.\n"), "{md}");
        assert!(
            md.contains("### `grip`\n\nMore words.\n\n- `force`"),
            "{md}"
        );
        assert!(md.contains("Read the sensor first."), "{md}");
        assert!(md.contains("- `hand`: `grip`"), "{md}");
    }

    #[test]
    fn names_safe_stops_and_what_has_none() {
        let with = render_two(
            [gripping(), looking()],
            &[SharedResource {
                name: "hand".to_owned(),
                safe_stop: true,
                max_waiting: Some(16),
            }],
        );
        assert!(
            with.contains("- `hand` (has a safe stop): held by `grip`."),
            "{with}"
        );
        assert!(
            with.contains(
                "- Then the safe stop of each resource it holds runs, exactly once, whatever the \
                 tool returned"
            ),
            "{with}"
        );
        assert!(
            with.contains("grace period to return: 1 s (at most 2 s when its client went away"),
            "{with}"
        );
        assert!(
            with.contains("- A safe stop that fails leaves its resource refusing every call"),
            "{with}"
        );
        assert!(
            with.contains("- The client is gone when stdin closes, or when its HTTP connection"),
            "{with}"
        );
        // `look` holds nothing: it finishes and answers.
        assert!(
            with.contains("- A tool that holds no resource with a safe stop and finishes its work"),
            "{with}"
        );
        assert!(!with.contains("may run as"), "no task tools: {with}");
        // A task tool holding `hand` has a lease.
        let mut tasked = grip();
        tasked.meta = Some(rmcp::model::MetaObject(
            json!({crate::tasks::TASK_SUPPORT_META: "optional"})
                .as_object()
                .cloned()
                .expect("an object"),
        ));
        let tools = [tasked, look()];
        let leased = render(&SkillSource {
            name: "gripper",
            description: "Operate the gripper.",
            title: "A gripper",
            instructions: None,
            tools: &tools,
            operations: &[gripping(), looking()],
            resources: &[SharedResource {
                name: "hand".to_owned(),
                safe_stop: true,
                max_waiting: None,
            }],
            client_rate_limit: None,
            task_lease: Duration::from_secs(10),
        });
        assert!(
            leased.contains(
                "- `grip` may run as a task. Such a task is cancelled, and its resources' safe \
                 stops run, when no `tasks/get` or `tasks/update` for it comes within 10 s (its \
                 lease, also in the task's `_meta[\"io.toolwright/leaseMs\"]`): poll it more \
                 often than that."
            ),
            "{leased}"
        );

        let without = render_two(
            [
                Operation {
                    resources: Vec::new(),
                    retry: 2,
                    grace: Duration::from_millis(1500),
                    ..gripping()
                },
                looking(),
            ],
            &[],
        );
        assert!(!without.contains("safe stop of each resource"), "{without}");
        assert!(
            without.contains("- `grip` holds no resource: no safe stop runs after it"),
            "{without}"
        );
        assert!(without.contains("`grip` up to 2 more times"), "{without}");
        assert!(
            without.contains("grace period to return: `grip` 1.5 s, `look` 1 s (at most 2 s"),
            "{without}"
        );
        assert!(
            without.contains("- A tool that finishes its work in that time answers with its"),
            "{without}"
        );
    }

    #[test]
    fn rate_limits_and_scopes_appear_only_when_declared() {
        let md = render_two([gripping(), looking()], &[]);
        assert!(
            !md.contains("## Rate limits") && !md.contains("## Access"),
            "{md}"
        );
        let mut scoped = grip();
        scoped.meta = Some(rmcp::model::MetaObject(
            json!({crate::contract::SCOPES_META: ["hand:move"]})
                .as_object()
                .cloned()
                .expect("an object"),
        ));
        let tools = [scoped, look()];
        let ops = [
            Operation {
                rate_limit: Rate::parse("10/min"),
                ..gripping()
            },
            looking(),
        ];
        let md = render(&SkillSource {
            name: "gripper",
            description: "Grip.",
            title: "A gripper",
            instructions: None,
            tools: &tools,
            operations: &ops,
            resources: &[],
            client_rate_limit: Rate::parse("120/min"),
            task_lease: Duration::from_secs(10),
        });
        assert!(
            md.contains("- `grip`: 10 calls per minute per client."),
            "{md}"
        );
        assert!(
            md.contains("- All tools together: 120 calls per minute per client"),
            "{md}"
        );
        assert!(md.contains("- `hand:move`: `grip`"), "{md}");
    }

    #[test]
    fn confirmations_appear_only_when_declared() {
        let md = render_two([gripping(), looking()], &[]);
        assert!(!md.contains("## Calls the user confirms"), "{md}");
        let mut asking = grip();
        asking.meta = Some(rmcp::model::MetaObject(
            json!({crate::contract::CONFIRM_META: "Grip with {force}?"})
                .as_object()
                .cloned()
                .expect("an object"),
        ));
        let tools = [asking, look()];
        let md = render(&SkillSource {
            name: "gripper",
            description: "Grip.",
            title: "A gripper",
            instructions: None,
            tools: &tools,
            operations: &[gripping(), looking()],
            resources: &[],
            client_rate_limit: None,
            task_lease: Duration::from_secs(10),
        });
        assert!(md.contains("## Calls the user confirms"), "{md}");
        assert!(md.contains("- `grip`: \"Grip with {force}?\""), "{md}");
        assert!(!md.contains("- `look`"), "{md}");
        assert!(
            md.contains("do not call it again unless they ask you to"),
            "{md}"
        );
    }

    #[test]
    fn is_deterministic() {
        let a = render_two([gripping(), looking()], &[]);
        let b = render_two([gripping(), looking()], &[]);
        assert_eq!(a, b);
        assert!(a.ends_with('\n') && !a.ends_with("\n\n"), "{a:?}");
    }

    #[test]
    fn names_and_descriptions_follow_the_agent_skills_rules() {
        assert!(check("robot-arm", "Operate the arm.").is_ok());
        assert!(check("a1", "x").is_ok());
        for bad in [
            "",
            "Robot",
            "robot_arm",
            "-arm",
            "arm-",
            "robot--arm",
            &"a".repeat(65),
        ] {
            assert!(check(bad, "Operate.").is_err(), "{bad:?}");
        }
        assert!(check("arm", "").is_err());
        assert!(check("arm", "two\nlines").is_err());
        assert!(check("arm", &"x".repeat(MAX_DESCRIPTION_CHARS + 1)).is_err());
        assert!(check("arm", &"x".repeat(MAX_DESCRIPTION_CHARS)).is_ok());
    }
}
