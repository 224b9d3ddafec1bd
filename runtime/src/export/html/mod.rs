//! `index.html`: the tools for people who read them in a browser (safety reviewers, integrators,
//! the operators of a robot cell). One file that fetches nothing: its style, its script and its
//! pictures are inline, so it opens offline, from a file, and in a review tool that blocks
//! requests.
//!
//! - **Header**: the server's title, name and version, the toolwright version that wrote it,
//!   and, when a tool has an envelope, that the envelopes drawn are the declared ones (an
//!   operator may narrow them when starting the server, never widen them).
//! - **Per tool**: its description and annotation badges (read-only, destructive, idempotent,
//!   open world); how it runs (the resources it holds and their queues, its deadline and grace
//!   period, what stops it or what it stops, rate limit, scopes, task support, group, retries),
//!   the question the user confirms, where it may move; a table of its parameters (type, unit,
//!   range drawn as a bar with the default marked, default, allowed values with their
//!   meanings, examples) and one of its output fields; what OpenAI strict mode, Gemini and
//!   Anthropic would not see of it (`<details>`); an example call valid against its schema.
//! - **Envelopes**: each resource's envelope drawn as inline SVG from above (x-y) and from the
//!   side (x-z): the allowed region (inside every allow shape) shaded, the keep-outs labelled.
//! - **Anchors**: every tool, parameter and output field has an id fixed by one grammar (below,
//!   and at the end of the page), so a review can link to `#plan_trajectory.waypoints[].x`.
//!
//! Without JavaScript everything is on the page, readable and linked (the tables, `<details>`,
//! anchors); print styles and a dark scheme (`prefers-color-scheme`) are in its CSS. With
//! JavaScript, a search box filters the tools and parameters as one types (by tool name, summary
//! or parameter name), and a button copies each example call.
//!
//! # Anchors
//!
//! ```text
//! id       = tool [ ":" part ] / ":" reserved
//! tool     = segment                                 move_arm_to_pose
//! part     = "result" *( "." field ) / "example" / "dialects"
//! param    = tool 1*( "." field )                    plan_trajectory.waypoints[].x
//! field    = segment [ "[]" ] / "*"                  "[]": an array's items; "*": a map's values
//! segment  = 1*( ALPHA / DIGIT / "_" / "-" / pct )   every other byte of the UTF-8 name as %XX
//! ```
//!
//! `TOOL` is a tool, `TOOL.NAME` a parameter (the result arguments a tool takes, `jmespath` and
//! `summary`, too: `TOOL.jmespath`), `TOOL.NAME.FIELD` a field inside it, `NAME[]` an
//! array's items (`plan_trajectory.waypoints[].x`), `TOOL:result.FIELD` an output field,
//! `TOOL:example` the example call. Each segment is percent-encoded, `.`, `:`, `[`, `]`, `*` and
//! `%` included, so a property named `a.b` (`a%2Eb`) never collides with the field `b` of a
//! property `a` (`a.b`). The page's own sections (`:tools`, `:resources`, `:resource.arm`,
//! `:envelope.arm`) start with `:`, which no encoded segment does. A field listed in two
//! variants of a tagged enum has one id, on its first row.
//!
//! Deterministic, like the other exports (no date, tools in declaration order), so the drift
//! gate holds it ([`drift::check_documents`](super::drift::check_documents)).

mod anchor;
mod envelope;

use std::collections::HashSet;
use std::fmt::Write as _;

use rmcp::model::Tool;
use serde_json::{Map, Value};

use self::anchor::Step;
use super::markdown::{self, first_paragraph};
use super::skill::{Operation, SharedResource};
use super::words;
use crate::exec::policy::describe_duration;
use crate::rate::Rate;

/// The file `export` writes the page to.
pub const FILE: &str = "index.html";

const CSS: &str = include_str!("page.css");
const JS: &str = include_str!("page.js");

/// What a page is written from: the server, its tools and how each runs.
pub(crate) struct PageSource<'a> {
    /// The server's name (`serverInfo.name`) and version.
    pub name: &'a str,
    pub version: &'a str,
    /// The server's title, when it has one.
    pub title: Option<&'a str>,
    pub instructions: Option<&'a str>,
    /// The tools as listed, in order.
    pub tools: &'a [Tool],
    /// How each of `tools` runs, in the same order.
    pub operations: &'a [Operation],
    /// The resources the tools hold, in order of first use.
    pub resources: &'a [SharedResource],
    /// Calls one client may make to all tools together.
    pub client_rate_limit: Option<Rate>,
    /// The tools as OpenAI and Gemini declarations, when the caller has them already (else
    /// each tool's are made here): what each dialect drops is read from them.
    pub dialects: Option<(&'a Value, &'a Value)>,
}

/// Text in HTML, escaped.
pub(crate) fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A line of the other exports' text in HTML: escaped, `` `code` `` as `<code>`, and the
/// `<br>` the Markdown tables use kept as a line break.
fn inline(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 16);
    for (i, line) in s.split("<br>").enumerate() {
        if i > 0 {
            out.push_str("<br>");
        }
        for (j, piece) in line.split('`').enumerate() {
            if j % 2 == 1 {
                let _ = write!(out, "<code>{}</code>", esc(piece));
            } else {
                out.push_str(&esc(piece));
            }
        }
    }
    out
}

/// A description in HTML: paragraphs at blank lines, `- ` lines as a list.
fn paragraphs(s: &str, out: &mut String) {
    for block in s.split("\n\n").map(str::trim).filter(|b| !b.is_empty()) {
        let lines: Vec<&str> = block.lines().map(str::trim).collect();
        if lines.iter().all(|l| l.starts_with("- ")) {
            out.push_str("<ul>");
            for l in lines {
                let _ = write!(out, "<li>{}</li>", inline(&l[2..]));
            }
            out.push_str("</ul>");
        } else {
            let _ = write!(out, "<p>{}</p>", inline(&lines.join(" ")));
        }
    }
}

/// Renders `index.html`.
pub(crate) fn render(source: &PageSource<'_>) -> String {
    debug_assert_eq!(source.tools.len(), source.operations.len());
    let tools: Vec<(&Tool, &Operation)> = source.tools.iter().zip(source.operations).collect();
    let title = source.title.unwrap_or(source.name);
    let envelopes = envelope::collect(source.tools);
    let mut s = String::with_capacity(4096 + source.tools.len() * 3000);
    let _ = write!(
        s,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"toolwright {tw}\">\n\
         <link rel=\"icon\" href=\"data:,\">\n<title>{t}: tools</title>\n<style>\n{CSS}</style>\n\
         </head>\n<body>\n",
        tw = env!("CARGO_PKG_VERSION"),
        t = esc(title),
    );
    header(&mut s, source, title, !envelopes.is_empty());
    nav(&mut s, source.tools);
    s.push_str("<main>\n");
    let made;
    let (openai, gemini) = match source.dialects {
        Some(given) => given,
        None => {
            made = (
                super::openai::declarations(source.tools),
                super::gemini::declarations(source.tools),
            );
            (&made.0, &made.1)
        }
    };
    for (i, (tool, op)) in tools.iter().enumerate() {
        let declared = (
            &openai[i]["function"],
            &gemini[0]["functionDeclarations"][i],
        );
        render_tool(&mut s, tool, op, &envelopes, declared);
    }
    resources_section(&mut s, &tools, source.resources, &envelopes);
    grammar(&mut s);
    s.push_str("</main>\n");
    let _ = write!(s, "<script>\n{JS}</script>\n</body>\n</html>\n");
    s
}

/// Each resource once: its queue, its safe stop, the tools that hold and stop it, and its
/// envelope drawn.
fn resources_section(
    s: &mut String,
    tools: &[(&Tool, &Operation)],
    resources: &[SharedResource],
    envelopes: &[envelope::Drawn],
) {
    let mut names: Vec<String> = resources.iter().map(|r| r.name.clone()).collect();
    let stopped = tools.iter().flat_map(|(t, _)| super::stop_for(t));
    for r in stopped.chain(envelopes.iter().map(|d| d.resource.clone())) {
        if !names.contains(&r) {
            names.push(r);
        }
    }
    if names.is_empty() {
        return;
    }
    let uses = super::resource_uses(tools.iter().map(|(t, _)| *t));
    let _ = writeln!(
        s,
        "<section id=\"{}\">\n<h2>Resources</h2>\n<p>Calls that hold a resource run one at a \
         time, in the order the server received them. An envelope is where a resource may go, \
         as declared: the tool point, grown by the tool radius, must stay inside every allow \
         shape (shaded where they overlap) and clear of every keep-out (red), drawn from above \
         (x to the right, y up) and from the side (x to the right, z up).</p>",
        anchor::reserved(&["resources"])
    );
    for (i, name) in names.iter().enumerate() {
        let r = resources.iter().find(|r| &r.name == name);
        let holders: Vec<String> = tools
            .iter()
            .filter(|(_, op)| op.resources.iter().any(|n| n == name))
            .map(|(t, _)| tool_link(&t.name))
            .collect();
        let stoppers: Vec<String> = tools
            .iter()
            .filter(|(t, _)| super::stop_for(t).iter().any(|n| n == name))
            .map(|(t, _)| tool_link(&t.name))
            .collect();
        let uses = uses.iter().find(|u| u.name == *name);
        let _ = write!(
            s,
            "<div class=\"res\" id=\"{}\"><h3>Resource <code>{}</code></h3><ul>",
            anchor::reserved(&["resource", name]),
            esc(name)
        );
        if !holders.is_empty() {
            let _ = write!(s, "<li>Held by {}.</li>", holders.join(", "));
        }
        if let Some(u) = uses {
            let links = |names: &mut dyn Iterator<Item = &str>| {
                let all: Vec<String> = names.map(tool_link).collect();
                if all.is_empty() {
                    "none".to_owned()
                } else {
                    all.join(", ")
                }
            };
            let _ = write!(
                s,
                "<li>Changed once the user confirms: {}.</li>",
                links(&mut u.asking.iter().map(|(t, _)| *t))
            );
            let unasked: Vec<String> = u
                .unasked
                .iter()
                .map(|(t, because)| match because {
                    Some(because) => format!("{} (because {})", tool_link(t), esc(because)),
                    None => format!("{} (it says no reason)", tool_link(t)),
                })
                .collect();
            let _ = write!(
                s,
                "<li>Changed without asking: {}.</li>",
                if unasked.is_empty() {
                    "none".to_owned()
                } else {
                    unasked.join(", ")
                }
            );
            if !u.reading.is_empty() {
                let _ = write!(
                    s,
                    "<li>Only read by {}.</li>",
                    links(&mut u.reading.iter().copied())
                );
            }
        }
        if let Some(waiting) = r.and_then(|r| r.max_waiting) {
            let _ = write!(
                s,
                "<li>At most {waiting} calls wait for it; the next is refused at once with a \
                 retryable error.</li>"
            );
        }
        let _ = write!(
            s,
            "<li>{}</li>",
            if r.is_some_and(|r| r.safe_stop) {
                "Safe stop: after a call holding it ends early (deadline, cancel, disconnect), \
                 once its grace period is over, the declared safe stop runs, exactly once, \
                 before the next call gets it."
            } else {
                "No safe stop: a call that ends early leaves it as the tool left it."
            }
        );
        if !stoppers.is_empty() {
            let _ = write!(
                s,
                "<li>Stopped by {}: the calls waiting for it do not run, the one using it is \
                 stopped.</li>",
                stoppers.join(", ")
            );
        }
        s.push_str("</ul>\n");
        for (j, d) in envelopes.iter().enumerate() {
            if d.resource == *name {
                envelope::figure(s, i * 100 + j, d);
            }
        }
        s.push_str("</div>\n");
    }
    s.push_str("</section>\n");
}

fn header(s: &mut String, source: &PageSource<'_>, title: &str, envelopes: bool) {
    let n = source.tools.len();
    let _ = write!(
        s,
        "<header id=\"{top}\">\n<h1>{t}</h1>\n<p class=\"meta\"><code>{name}</code> {version} · \
         {n} tool{plural} · written by toolwright {tw} from the tool declarations (do not edit \
         by hand) · also as <a href=\"tools.json\">tools.json</a>, \
         <a href=\"TOOLS.md\">TOOLS.md</a>, <a href=\"llms.txt\">llms.txt</a></p>\n",
        top = anchor::reserved(&["top"]),
        t = esc(title),
        name = esc(source.name),
        version = esc(source.version),
        plural = if n == 1 { "" } else { "s" },
        tw = env!("CARGO_PKG_VERSION"),
    );
    if let Some(instructions) = source.instructions {
        paragraphs(instructions, s);
        s.push('\n');
    }
    if envelopes {
        let _ = writeln!(
            s,
            "<p class=\"note\">The <a href=\"#{}\">envelopes</a> on this page are the declared \
             ones. An operator may narrow them when starting the server (<code>serve \
             --envelope FILE</code>), never widen them; the server's <code>tools/list</code> \
             publishes the envelopes it checks.</p>",
            anchor::reserved(&["resources"])
        );
    }
    if let Some(rate) = source.client_rate_limit {
        let _ = writeln!(
            s,
            "<p>All tools together: {} per client (<code>describe_tool</code> excepted).</p>",
            esc(&rate.to_string())
        );
    }
    let _ = writeln!(
        s,
        "<p class=\"find\" hidden><input id=\"{q}\" type=\"search\" \
         placeholder=\"Filter tools and parameters (press /)\" aria-label=\"Filter tools and \
         parameters\" autocomplete=\"off\"> <output id=\"{q}-n\"></output></p>\n</header>",
        q = anchor::reserved(&["q"]),
    );
}

fn nav(s: &mut String, tools: &[Tool]) {
    let _ = writeln!(
        s,
        "<nav id=\"{}\">\n<h2>Tools</h2>\n<ul>",
        anchor::reserved(&["tools"])
    );
    for tool in tools {
        let summary = tool
            .description
            .as_deref()
            .map(first_paragraph)
            .unwrap_or_default();
        let id = anchor::tool(&tool.name);
        let _ = writeln!(
            s,
            "<li data-t=\"{id}\"><a href=\"#{id}\"><code>{}</code></a> {}</li>",
            esc(&tool.name),
            inline(&summary)
        );
    }
    s.push_str("</ul>\n</nav>\n");
}

/// The annotation badges: each declared hint, `not …` when false.
fn badges(tool: &Tool) -> String {
    let read_only = tool.annotations.as_ref().and_then(|a| a.read_only_hint) == Some(true);
    // MCP reads an undeclared `readOnlyHint` as false.
    let mut out = if read_only {
        String::new()
    } else {
        " <span class=\"b cw\">changes the world</span>".to_owned()
    };
    let Some(a) = tool.annotations.as_ref() else {
        return out;
    };
    for (value, yes, no, class) in [
        (a.read_only_hint, "read-only", "not read-only", "ro"),
        (a.destructive_hint, "destructive", "not destructive", "de"),
        (a.idempotent_hint, "idempotent", "not idempotent", "id"),
        (a.open_world_hint, "open world", "closed world", "ow"),
    ] {
        if let Some(v) = value {
            let _ = write!(
                out,
                " <span class=\"b {class}{}\">{}</span>",
                if v { "" } else { " no" },
                if v { yes } else { no }
            );
        }
    }
    out
}

fn task_support(tool: &Tool) -> Option<&str> {
    tool.meta
        .as_ref()
        .and_then(|m| m.0.get(crate::tasks::TASK_SUPPORT_META))
        .and_then(Value::as_str)
}

fn codes(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("<code>{}</code>", esc(n)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn resource_link(name: &str) -> String {
    format!(
        "<a href=\"#{}\"><code>{}</code></a>",
        anchor::reserved(&["resource", name]),
        esc(name)
    )
}

fn tool_link(name: &str) -> String {
    format!(
        "<a href=\"#{}\"><code>{}</code></a>",
        anchor::tool(name),
        esc(name)
    )
}

fn render_tool(
    s: &mut String,
    tool: &Tool,
    op: &Operation,
    envelopes: &[envelope::Drawn],
    declared: (&Value, &Value),
) {
    let id = anchor::tool(&tool.name);
    let _ = write!(
        s,
        "<section class=\"tool\" id=\"{id}\">\n<h2><a href=\"#{id}\">{}</a>{}</h2>\n",
        esc(&tool.name),
        badges(tool)
    );
    let title = tool
        .title
        .clone()
        .or_else(|| tool.annotations.as_ref().and_then(|a| a.title.clone()));
    if let Some(t) = title {
        let _ = writeln!(s, "<p class=\"title\">{}</p>", esc(t.trim()));
    }
    if let Some(d) = &tool.description {
        let mut blocks = d.trim().splitn(2, "\n\n");
        let first = blocks.next().unwrap_or_default();
        let _ = write!(
            s,
            "<p class=\"sum\">{}</p>",
            inline(&first.split_whitespace().collect::<Vec<_>>().join(" "))
        );
        if let Some(rest) = blocks.next() {
            paragraphs(rest, s);
        }
        s.push('\n');
    }
    facts(s, tool, op, envelopes);

    let input = own_input(tool);
    let params = fields(&input);
    // The result arguments (`jmespath`, `summary`) are parameters too, with ids of their own
    // (`TOOL.jmespath`), after the tool's own.
    let added = result_arguments(tool);
    let extra = added_input(tool, &added);
    let extra_params = fields(&extra);
    s.push_str("<h3>Parameters</h3>\n");
    if params.is_empty() && extra_params.is_empty() {
        s.push_str("<p>None.</p>\n");
    } else {
        s.push_str(
            "<table class=\"p\"><thead><tr><th>Name</th><th>Type</th><th>Required</th>\
             <th>Unit</th><th>Allowed</th><th>Default</th><th>Description</th></tr></thead>\
             <tbody>\n",
        );
        let mut seen = HashSet::new();
        for f in params.iter().chain(&extra_params) {
            row(s, &tool.name, f, Side::Input, &mut seen);
        }
        s.push_str("</tbody></table>\n");
    }
    if !added.is_empty() {
        let links: Vec<String> = added
            .iter()
            .map(|a| {
                format!(
                    "<a href=\"#{}\"><code>{}</code></a>",
                    anchor::param(&tool.name, &[Step::Prop(a.clone())]),
                    esc(a)
                )
            })
            .collect();
        let _ = writeln!(
            s,
            "<p>{} {} for its result (see <a href=\"#{}\">result arguments</a>).</p>",
            if params.is_empty() {
                "Takes"
            } else {
                "Also takes"
            },
            links.join(", "),
            anchor::reserved(&["result-arguments"])
        );
    }

    let _ = writeln!(
        s,
        "<h3 id=\"{}\">Output</h3>",
        anchor::result(&tool.name, &[])
    );
    match &tool.output_schema {
        None => {
            let words = super::content_words(tool).unwrap_or("Text (no structured output).");
            let _ = writeln!(s, "<p>{}</p>", esc(words));
        }
        Some(schema) => {
            let output = match crate::output::split_published(schema) {
                Some((payload, _)) => payload.clone(),
                None => Value::Object((**schema).clone()),
            };
            let out_fields = fields(&output);
            if out_fields.is_empty() {
                let _ = writeln!(
                    s,
                    "<p>A value of type {}.</p>",
                    esc(&markdown::type_name(&output))
                );
            } else {
                s.push_str(
                    "<table class=\"o\"><thead><tr><th>Field</th><th>Type</th><th>Always \
                     present</th><th>Unit</th><th>Allowed</th><th>Description</th></tr>\
                     </thead><tbody>\n",
                );
                let mut seen = HashSet::new();
                for f in &out_fields {
                    row(s, &tool.name, f, Side::Output, &mut seen);
                }
                s.push_str("</tbody></table>\n");
            }
            if let Some(words) = super::content_words(tool) {
                let _ = writeln!(s, "<p>{}</p>", esc(words));
            }
        }
    }
    let keys = branch_keys(tool);
    if !keys.is_empty() {
        let list: Vec<String> = keys.iter().map(|k| format!("{{\"{k}\": ..}}")).collect();
        let _ = writeln!(
            s,
            "<p>Or, instead of the result: {} (see <a href=\"#{}\">result arguments</a>).</p>",
            codes(&list),
            anchor::reserved(&["result-arguments"])
        );
    }

    dialects(s, tool, declared);

    let call =
        serde_json::json!({"name": tool.name, "arguments": super::example_arguments(tool, &input)});
    let _ = write!(
        s,
        "<h3>Example call</h3>\n<pre class=\"ex\" id=\"{}\"><code>{}</code></pre>\n</section>\n",
        anchor::part(&tool.name, "example"),
        esc(&serde_json::to_string_pretty(&call).expect("JSON values serialize"))
    );
}

/// How a tool runs, as a definition list.
fn facts(s: &mut String, tool: &Tool, op: &Operation, envelopes: &[envelope::Drawn]) {
    let mut items: Vec<(&str, String)> = Vec::new();
    if !op.resources.is_empty() {
        let links: Vec<String> = op.resources.iter().map(|r| resource_link(r)).collect();
        items.push((
            "Holds",
            format!(
                "{}: its calls run one at a time, in the order received",
                links.join(", ")
            ),
        ));
    }
    let stops = super::stop_for(tool);
    if !stops.is_empty() {
        let links: Vec<String> = stops.iter().map(|r| resource_link(r)).collect();
        items.push((
            "Stops",
            format!(
                "{}: cancels the calls waiting for it, stops the one using it, then its safe \
                 stop runs; never queued, rate-limited or confirmed",
                links.join(", ")
            ),
        ));
    }
    items.push((
        "Deadline",
        match op.timeout {
            Some(t) => format!(
                "{} (waiting for its resources included); once told to stop it has {} to \
                 return",
                describe_duration(t),
                describe_duration(op.grace)
            ),
            None => format!(
                "none; when cancelled it has {} to return",
                describe_duration(op.grace)
            ),
        },
    ));
    if op.retry > 0 {
        items.push((
            "Retries",
            format!(
                "up to {} more time{} after a deadline or a retryable error",
                op.retry,
                if op.retry == 1 { "" } else { "s" }
            ),
        ));
    }
    if let Some(rate) = op.rate_limit {
        items.push((
            "Rate limit",
            format!("{} per client", esc(&rate.to_string())),
        ));
    }
    let scopes = super::scopes(tool);
    if !scopes.is_empty() {
        items.push((
            "Scopes",
            format!("{} (an OAuth access token must grant them)", codes(&scopes)),
        ));
    }
    if let Some(support) = task_support(tool) {
        items.push((
            "Task",
            format!(
                "{} (the client may poll it and cancel it: MCP tasks)",
                esc(support)
            ),
        ));
    }
    if let Some(group) = &op.group {
        items.push(("Group", format!("<code>{}</code>", esc(group))));
    }
    if let Some(question) = super::confirmation(tool) {
        items.push((
            "Confirmation",
            format!(
                "the user is asked <q>{}</q>{}{} before each call; declined, it does not run",
                esc(question),
                if question.contains('{') {
                    ", the arguments filled in,"
                } else {
                    ""
                },
                if super::check_note(question).is_empty() {
                    ""
                } else {
                    " (<code>{check}</code>: what its check says of the call)"
                }
            ),
        ));
    }
    if let Some(because) = super::confirm_not_needed(tool) {
        items.push((
            "Confirmation",
            format!(
                "none: the user is not asked before a call, because {}",
                esc(because)
            ),
        ));
    }
    if let Some(e) = super::envelope_of(tool) {
        let link = envelopes
            .iter()
            .find(|d| d.matches(e))
            .map(|d| format!("<a href=\"#{}\">its envelope</a>", d.id()))
            .unwrap_or_else(|| "its envelope".to_owned());
        items.push((
            "May move",
            format!(
                "{} against {link} from where the resource is, before anything moves and before \
                 the user is asked; a motion outside it is refused and nothing moves",
                inline(&super::target_words(e))
            ),
        ));
    }
    s.push_str("<dl class=\"f\">");
    for (term, text) in items {
        let _ = write!(s, "<dt>{term}</dt><dd>{text}</dd>");
    }
    s.push_str("</dl>\n");
}

/// A tool's input schema without the arguments toolwright adds for its result.
fn own_input(tool: &Tool) -> Value {
    let added = result_arguments(tool);
    let mut input = Value::Object((*tool.input_schema).clone());
    if let Some(props) = input.get_mut("properties").and_then(Value::as_object_mut) {
        props.retain(|k, _| !added.contains(k));
    }
    input
}

/// The input schema's result arguments alone (`added`), as an object schema.
fn added_input(tool: &Tool, added: &[String]) -> Value {
    let properties: Map<String, Value> = tool
        .input_schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|props| {
            props
                .iter()
                .filter(|(k, _)| added.contains(k))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        })
        .unwrap_or_default();
    serde_json::json!({"type": "object", "properties": properties})
}

fn result_arguments(tool: &Tool) -> Vec<String> {
    tool.meta
        .as_ref()
        .and_then(|m| m.0.get(crate::contract::RESULT_ARGUMENTS_META))
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

fn branch_keys(tool: &Tool) -> Vec<String> {
    tool.output_schema
        .as_deref()
        .and_then(crate::output::split_published)
        .map(|(_, keys)| keys.into_iter().map(str::to_owned).collect())
        .unwrap_or_default()
}

#[derive(Clone, Copy, PartialEq)]
enum Side {
    Input,
    Output,
}

/// One parameter or output field: where it is and its schema.
pub(crate) struct Field<'a> {
    pub path: Vec<Step>,
    pub node: &'a Map<String, Value>,
    pub required: bool,
    /// The variant it belongs to (`` `Wait` ``), for a field of one variant only.
    pub variant: Option<String>,
}

/// Every parameter (or output field) of a schema, depth first: properties, then the fields of
/// nested objects, array items, map values and variants (as `TOOLS.md` lists them).
pub(crate) fn fields(schema: &Value) -> Vec<Field<'_>> {
    let mut out = Vec::new();
    collect(schema, &mut Vec::new(), None, &mut out);
    out
}

fn required_of(n: &Map<String, Value>) -> Vec<&str> {
    n.get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

fn collect<'a>(
    schema: &'a Value,
    path: &mut Vec<Step>,
    variant: Option<&str>,
    out: &mut Vec<Field<'a>>,
) {
    let Some(n) = schema.as_object() else {
        return;
    };
    let required = required_of(n);
    if let Some(Value::Object(props)) = n.get("properties") {
        for (name, child) in props {
            path.push(Step::Prop(name.clone()));
            push(child, path, required.contains(&name.as_str()), variant, out);
            path.pop();
        }
    }
    if let Some(v @ Value::Object(_)) = n.get("additionalProperties")
        && !n.contains_key("properties")
        && path.is_empty()
    {
        path.push(Step::Values);
        push(v, path, false, variant, out);
        path.pop();
    }
}

fn push<'a>(
    child: &'a Value,
    path: &mut Vec<Step>,
    required: bool,
    variant: Option<&str>,
    out: &mut Vec<Field<'a>>,
) {
    let Some(c) = child.as_object() else {
        return;
    };
    out.push(Field {
        path: path.clone(),
        node: c,
        required,
        variant: variant.map(str::to_owned),
    });
    if c.contains_key("properties") {
        collect(child, path, variant, out);
    }
    if let Some(items) = c.get("items")
        && items.get("properties").is_some()
    {
        path.push(Step::Items);
        collect(items, path, variant, out);
        path.pop();
    }
    if let Some(v @ Value::Object(_)) = c.get("additionalProperties")
        && v.get("properties").is_some()
    {
        path.push(Step::Values);
        collect(v, path, variant, out);
        path.pop();
    }
    let variants = c
        .get("oneOf")
        .or_else(|| c.get("anyOf"))
        .and_then(Value::as_array)
        .filter(|_| c.get("type").is_none());
    for v in variants.into_iter().flatten() {
        let (label, tag) = markdown::variant_label(v);
        let Some(vn) = v.as_object() else { continue };
        let Some(Value::Object(props)) = vn.get("properties") else {
            continue;
        };
        let required = required_of(vn);
        for (name, field) in props {
            if Some(name.as_str()) == tag.as_deref() {
                continue;
            }
            path.push(Step::Prop(name.clone()));
            push(
                field,
                path,
                required.contains(&name.as_str()),
                Some(&label),
                out,
            );
            path.pop();
        }
    }
}

/// A numeric range (inclusive or not) and the default, as a bar.
fn bar(n: &Map<String, Value>, default: Option<&Value>) -> String {
    let get = |a: &str, b: &str| n.get(a).or_else(|| n.get(b)).and_then(Value::as_f64);
    let (Some(lo), Some(hi)) = (
        get("minimum", "exclusiveMinimum"),
        get("maximum", "exclusiveMaximum"),
    ) else {
        return String::new();
    };
    if hi <= lo || !lo.is_finite() || !hi.is_finite() {
        return String::new();
    }
    match default.and_then(Value::as_f64) {
        Some(d) if (lo..=hi).contains(&d) => {
            let at = (d - lo) / (hi - lo) * 100.0;
            format!(
                "<span class=\"bar\" title=\"default {}\"><i style=\"left:{}%\"></i></span>",
                esc(&words::value(default.unwrap_or(&Value::Null))),
                (at * 10.0).round() / 10.0
            )
        }
        _ => "<span class=\"bar\"></span>".to_owned(),
    }
}

fn row(s: &mut String, tool: &str, f: &Field<'_>, side: Side, seen: &mut HashSet<String>) {
    let n = f.node;
    let id = match side {
        Side::Input => anchor::param(tool, &f.path),
        Side::Output => anchor::result(tool, &f.path),
    };
    // A field in two variants is listed twice, linked once.
    let first = seen.insert(id.clone());
    let name = esc(&anchor::display(&f.path));
    let depth = f
        .path
        .iter()
        .filter(|s| matches!(s, Step::Prop(_)))
        .count()
        .saturating_sub(1)
        .min(4);
    let _ = write!(
        s,
        "<tr{}{}><td>{}</td>",
        if first {
            format!(" id=\"{id}\"")
        } else {
            String::new()
        },
        if depth > 0 {
            format!(" class=\"d{depth}\"")
        } else {
            String::new()
        },
        if first {
            format!("<a href=\"#{id}\"><code>{name}</code></a>")
        } else {
            format!("<code>{name}</code>")
        }
    );
    let description = n
        .get("description")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let (allowed, mut rest) = markdown::allowed(n, description);
    if let Some(label) = &f.variant {
        rest = format!("{rest} (only in variant {label})")
            .trim()
            .to_owned();
    }
    let mut allowed = allowed;
    if let Some(vs) = n
        .get("oneOf")
        .or_else(|| n.get("anyOf"))
        .and_then(Value::as_array)
        .filter(|_| n.get("type").is_none())
    {
        let labels: Vec<String> = vs
            .iter()
            .map(|v| {
                let (label, _) = markdown::variant_label(v);
                match v.get("description").and_then(Value::as_str) {
                    Some(d) => format!("{label}: {}", d.trim()),
                    None => label,
                }
            })
            .collect();
        allowed = labels.join("<br>");
    }
    let unit = n
        .get("x-unit")
        .or_else(|| n.get("items").and_then(|i| i.get("x-unit")))
        .and_then(Value::as_str)
        .unwrap_or_default();
    let default = match side {
        Side::Input => n.get("default"),
        Side::Output => None,
    };
    let ranged = if n.contains_key("minimum") || n.contains_key("exclusiveMinimum") {
        n
    } else {
        n.get("items").and_then(Value::as_object).unwrap_or(n)
    };
    let bar = bar(ranged, default);
    let _ = write!(
        s,
        "<td>{}</td><td>{}</td><td>{}</td><td>{}{}</td>",
        esc(&markdown::type_name_of(n)),
        if f.required { "yes" } else { "no" },
        esc(unit),
        inline(&allowed),
        bar
    );
    if side == Side::Input {
        let _ = write!(
            s,
            "<td>{}</td>",
            default
                .map(|d| format!("<code>{}</code>", esc(&words::value(d))))
                .unwrap_or_default()
        );
    }
    let mut text = inline(&rest);
    if let Some(list) = n.get("examples").and_then(Value::as_array)
        && !list.is_empty()
    {
        let items: Vec<String> = list
            .iter()
            .map(|v| format!("<code>{}</code>", esc(&words::value(v))))
            .collect();
        let _ = write!(
            text,
            "{}Example{}: {}",
            if text.is_empty() { "" } else { " " },
            if items.len() == 1 { "" } else { "s" },
            items.join(", ")
        );
    }
    let _ = writeln!(s, "<td>{text}</td></tr>");
}

/// What each dialect does not carry of a tool, in a `<details>`.
/// `declared`: the tool's OpenAI function and Gemini declaration.
fn dialects(s: &mut String, tool: &Tool, (openai, gemini): (&Value, &Value)) {
    let input = Value::Object((*tool.input_schema).clone());
    let mut items = Vec::new();

    let mut said = Vec::new();
    dropped(&input, &openai["parameters"], &mut Vec::new(), &mut said);
    let mut openai_notes = Vec::new();
    if openai["strict"] == Value::Bool(false) {
        openai_notes.push(
            "sent with <code>strict: false</code> (strict mode cannot declare a map with \
             free-form keys)"
                .to_owned(),
        );
    }
    let optional = input
        .get("properties")
        .and_then(Value::as_object)
        .map_or(0, |p| p.len())
        > required_of(tool.input_schema.as_ref()).len();
    if optional {
        openai_notes.push(
            "optional parameters are required and nullable: <code>null</code> leaves one out"
                .to_owned(),
        );
    }
    items.push(("OpenAI (strict)", said, openai_notes));

    let mut said = Vec::new();
    let (key, mut notes) = if gemini.get("parametersJsonSchema").is_some() {
        (
            "parametersJsonSchema",
            vec!["declared as <code>parametersJsonSchema</code>".to_owned()],
        )
    } else {
        ("parameters", Vec::new())
    };
    if gemini.get(key).is_some() {
        dropped(&input, &gemini[key], &mut Vec::new(), &mut said);
    }
    for (path, keys) in &said {
        if keys.iter().any(|k| k == "enum") {
            notes.push(format!(
                "the values of <code>{}</code> are in words only: Gemini takes only string \
                 enums",
                esc(path)
            ));
        }
    }
    items.push(("Gemini", said, notes));

    let mut lost = vec!["annotations", "<code>_meta</code>"];
    if tool.output_schema.is_some() {
        lost.insert(0, "the output schema");
    }
    s.push_str("<details class=\"dl\" id=\"");
    s.push_str(&anchor::part(&tool.name, "dialects"));
    s.push_str("\"><summary>What other APIs see</summary>\n<ul>");
    let (last, rest) = lost.split_last().expect("two or three");
    let _ = write!(
        s,
        "<li>Every dialect: {} and {last} are not sent (the description says what matters in \
         words).</li>",
        rest.join(", ")
    );
    s.push_str("<li>Anthropic: the input schema as published.</li>");
    for (dialect, said, notes) in items {
        let mut parts: Vec<String> = said
            .iter()
            .map(|(path, keys)| {
                let keys: Vec<String> = keys
                    .iter()
                    .map(|k| format!("<code>{}</code>", esc(k)))
                    .collect();
                let place = if path.is_empty() {
                    "the tool".to_owned()
                } else {
                    format!("<code>{}</code>", esc(path))
                };
                format!("{place}: {}", keys.join(", "))
            })
            .collect();
        let head = if parts.is_empty() {
            "every keyword kept".to_owned()
        } else {
            let list = std::mem::take(&mut parts).join("; ");
            format!(
                "not sent as keywords (units, limits and defaults are said in the description instead): {list}"
            )
        };
        let mut line = format!("<li>{dialect}: {head}");
        for note in notes {
            let _ = write!(line, "; {note}");
        }
        line.push_str(".</li>");
        s.push_str(&line);
    }
    s.push_str("</ul></details>\n");
}

/// The keywords of `original` (by path) that `dialect` does not have: said in its description
/// instead. A keyword turned into another (`oneOf` into `anyOf`, `const` into `enum`) is not
/// counted, nor the wrapper that makes an optional property nullable.
fn dropped(
    original: &Value,
    dialect: &Value,
    path: &mut Vec<Step>,
    out: &mut Vec<(String, Vec<String>)>,
) {
    let (Some(o), Some(mut d)) = (original.as_object(), dialect.as_object()) else {
        return;
    };
    // `anyOf: [T, {"type": "null"}]` around an optional property.
    if !o.contains_key("anyOf")
        && !o.contains_key("oneOf")
        && let Some(Value::Array(branches)) = d.get("anyOf")
        && let Some(inner) = branches.first().and_then(Value::as_object)
    {
        d = inner;
    }
    let keys: Vec<String> = o
        .keys()
        .filter(|k| !d.contains_key(*k))
        .filter(|k| !matches!(k.as_str(), "description" | "title" | "$schema"))
        .filter(|k| !(k.as_str() == "oneOf" && d.contains_key("anyOf")))
        .filter(|k| !(k.as_str() == "const" && d.contains_key("enum")))
        .cloned()
        .collect();
    if !keys.is_empty() {
        out.push((anchor::display(path), keys));
    }
    if let (Some(Value::Object(op)), Some(Value::Object(dp))) =
        (o.get("properties"), d.get("properties"))
    {
        for (name, child) in op {
            if let Some(dc) = dp.get(name) {
                path.push(Step::Prop(name.clone()));
                dropped(child, dc, path, out);
                path.pop();
            }
        }
    }
    if let (Some(oi), Some(di)) = (o.get("items"), d.get("items")) {
        path.push(Step::Items);
        dropped(oi, di, path, out);
        path.pop();
    }
    if let (Some(oa @ Value::Object(_)), Some(da @ Value::Object(_))) =
        (o.get("additionalProperties"), d.get("additionalProperties"))
    {
        path.push(Step::Values);
        dropped(oa, da, path, out);
        path.pop();
    }
    let ov = o
        .get("oneOf")
        .or_else(|| o.get("anyOf"))
        .and_then(Value::as_array);
    let dv = d.get("anyOf").and_then(Value::as_array);
    if let (Some(ov), Some(dv)) = (ov, dv) {
        for (a, b) in ov.iter().zip(dv) {
            dropped(a, b, path, out);
        }
    }
}

fn grammar(s: &mut String) {
    let _ = writeln!(
        s,
        "<section id=\"{}\">\n<h2>Links into this page</h2>\n<p>Every tool, parameter and \
         output field has an id that stays the same while its name does: <code>TOOL</code> \
         for a tool, <code>TOOL.NAME</code> for a parameter (<code>TOOL.jmespath</code> and \
         <code>TOOL.summary</code> for the result arguments), <code>TOOL.NAME.FIELD</code> for \
         a field inside it, <code>NAME[]</code> for an array's items and <code>NAME.*</code> \
         for a map's values (<code>plan_trajectory.waypoints[].x</code>), \
         <code>TOOL:result.FIELD</code> for an output field and <code>TOOL:example</code> for \
         the example call. Each name is percent-encoded, <code>.</code> included, so names \
         with dots cannot collide; ids of the page's own sections start with \
         <code>:</code>.</p>\n</section>",
        anchor::reserved(&["anchors"])
    );
    let _ = writeln!(
        s,
        "<section id=\"{}\">\n<h2>Result arguments</h2>\n<p>Tools that opt in take \
         <code>jmespath</code> (a JMESPath expression applied to the result on the server, \
         answered as <code>{{\"projection\": ..}}</code>) or <code>summary: true</code> (each \
         list as its count and three samples); a tool that declares \
         <code>over_budget = \"envelope\"</code> answers a result over its budget with \
         <code>{{\"_budget_exceeded\": true, ..}}</code>, saying how to ask for less. Each is a \
         branch of the tool's <code>outputSchema</code>.</p>\n</section>",
        anchor::reserved(&["result-arguments"])
    );
}

#[cfg(test)]
mod tests;
