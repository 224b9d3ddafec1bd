//! `llms.txt` ([llmstxt.org](https://llmstxt.org)): for a model or an agent that reads a
//! server's documentation before using it. An H1 with the server's title, a one-line summary
//! as a block quote, the instructions, then lists of links: a line per tool (its summary and
//! what it does to the world) into `TOOLS.md`, the files that describe the tools, and, under
//! "Optional", the dialect files.

use std::fmt::Write as _;

use rmcp::model::Tool;

use super::markdown::first_paragraph;

/// The file `export` writes it to.
pub const FILE: &str = "llms.txt";

/// What `llms.txt` is written from.
pub(crate) struct Source<'a> {
    pub name: &'a str,
    pub version: &'a str,
    pub title: Option<&'a str>,
    pub instructions: Option<&'a str>,
    pub tools: &'a [Tool],
    /// Whether the export has a `SKILL.md`.
    pub skill: bool,
}

/// The anchor GitHub and most Markdown renderers give the heading `` ## `name` ``.
fn heading_anchor(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric() || *c == '_' || *c == '-')
        .flat_map(char::to_lowercase)
        .collect()
}

/// Renders `llms.txt`.
pub(crate) fn render(source: &Source<'_>) -> String {
    let mut s = String::new();
    let title = source.title.unwrap_or(source.name);
    let n = source.tools.len();
    let _ = writeln!(s, "# {}\n", title.trim());
    let _ = writeln!(
        s,
        "> An MCP server (`{}` {}) with {n} tool{}. Every argument is checked against the \
         published schema before a tool runs; a refused call says what to fix.\n",
        source.name,
        source.version,
        if n == 1 { "" } else { "s" }
    );
    if let Some(instructions) = source.instructions {
        let _ = writeln!(s, "{}\n", instructions.trim());
    }
    s.push_str("## Tools\n\n");
    for tool in source.tools {
        let summary = tool
            .description
            .as_deref()
            .map(first_paragraph)
            .unwrap_or_default();
        let read_only = tool
            .annotations
            .as_ref()
            .and_then(|a| a.read_only_hint)
            .unwrap_or(false);
        let mut notes = Vec::new();
        if !read_only {
            notes.push("changes the world".to_owned());
        }
        if super::confirmation(tool).is_some() {
            notes.push("the user confirms each call".to_owned());
        }
        let stops = super::stop_for(tool);
        if !stops.is_empty() {
            notes.push(format!("stops {}", stops.join(", ")));
        }
        let notes = if notes.is_empty() {
            String::new()
        } else {
            format!(" ({})", notes.join("; "))
        };
        let _ = writeln!(
            s,
            "- [{}](TOOLS.md#{}): {}{notes}",
            tool.name,
            heading_anchor(&tool.name),
            summary.trim()
        );
    }
    s.push_str("\n## Docs\n\n");
    s.push_str(
        "- [TOOLS.md](TOOLS.md): every parameter and output field (type, unit, range, default, \
         allowed values), with an example call per tool\n",
    );
    if source.skill {
        s.push_str(
            "- [SKILL.md](SKILL.md): how to operate the server safely: what changes the world, \
             deadlines, what happens when a call ends early, limits\n",
        );
    }
    s.push_str(
        "- [tools.json](tools.json): the `tools/list` payload, as the server sends it\n\
         - [index.html](index.html): the same for people, with pictures of ranges and \
         envelopes\n",
    );
    s.push_str(
        "\n## Optional\n\n\
         - [openai.json](openai.json): the tools as OpenAI strict function tools\n\
         - [anthropic.json](anthropic.json): the tools as Anthropic Messages API tools\n\
         - [gemini.json](gemini.json): the tools as Gemini function declarations\n",
    );
    s
}
