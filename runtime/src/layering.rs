//! Pins the runtime's layering (DEVELOPERS.md, "How the pieces fit"): reading the `crate::`
//! paths of every source file (comments, `$crate::` paths of macros, which are generated code's,
//! and `#[cfg(test)]` items aside), the top-level modules import one another without a cycle,
//! and none imports the generated-code facade `crate::__private`, which only re-exports.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each top-level module (a `src/<name>.rs` or `src/<name>/` that `lib.rs` declares), with the
/// top-level modules its files name, and where.
type Graph = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

#[test]
fn top_level_modules_import_one_another_without_a_cycle() {
    let graph = graph();
    let cycles = cycles(&graph);
    assert!(
        cycles.is_empty(),
        "the runtime's top-level modules import one another in a cycle:\n{}",
        cycles
            .iter()
            .map(|cycle| describe(&graph, cycle))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn no_module_imports_the_generated_code_facade() {
    let graph = graph();
    let importers: Vec<String> = graph
        .iter()
        .filter(|(_, edges)| edges.contains_key("__private"))
        .map(|(module, edges)| format!("{module} ({})", join(&edges["__private"])))
        .collect();
    assert!(
        importers.is_empty(),
        "`crate::__private` is the generated code's facade (re-exports only); import what it \
         re-exports from its own module instead: {}",
        importers.join(", ")
    );
}

#[test]
fn the_facade_only_re_exports() {
    let text = strip(&read(&src().join("private.rs")));
    let mut others = Vec::new();
    for statement in without_attributes(&text).split(';') {
        let mut s = statement.trim().trim_start_matches('}').trim();
        // `pub mod prelude { pub use .. }`: a module of re-exports.
        if let Some((_, inner)) = s.strip_prefix("pub mod ").and_then(|r| r.split_once('{')) {
            s = inner.trim();
        }
        if !s.is_empty() && !s.starts_with("pub use ") {
            others.push(s.to_owned());
        }
    }
    assert!(
        others.is_empty(),
        "private.rs must only re-export (write the item in the module it belongs to); found: \
         {others:?}"
    );
}

/// The text without `#[..]` and `#![..]` attributes.
fn without_attributes(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find('#') {
        out.push_str(&rest[..i]);
        let after = rest[i + 1..].trim_start_matches('!');
        let mut depth = 0usize;
        let mut end = after.len();
        for (j, c) in after.char_indices() {
            match c {
                '[' => depth += 1,
                ']' => {
                    depth -= 1;
                    if depth == 0 {
                        end = j + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

#[test]
fn the_scan_sees_the_known_edges() {
    // The scanner itself: a few edges the layering rests on, so a scan that silently finds
    // nothing cannot pass the tests above.
    let graph = graph();
    for (from, to) in [
        ("toolbox", "exec"),
        ("exec", "contract"),
        ("validate", "schema"),
        ("robot", "envelope"),
    ] {
        assert!(
            graph.get(from).is_some_and(|e| e.contains_key(to)),
            "expected `{from}` to import `{to}`; the scan found {:?}",
            graph.get(from).map(|e| e.keys().collect::<Vec<_>>())
        );
    }
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The modules `lib.rs` declares, and what its `pub use` lines re-export from which (so
/// `crate::Context` counts as an import of `context`).
fn root() -> (BTreeSet<String>, BTreeMap<String, String>) {
    let lib = strip(&read(&src().join("lib.rs")));
    let mut modules = BTreeSet::new();
    let mut exports = BTreeMap::new();
    for statement in lib.split(';') {
        let statement = statement.trim();
        let words: Vec<&str> = statement.split_whitespace().collect();
        if let Some(i) = words.iter().position(|w| *w == "mod") {
            modules.insert(words[i + 1].to_owned());
        }
        if let Some(rest) = statement
            .rfind("pub use ")
            .map(|i| &statement[i + "pub use ".len()..])
        {
            let Some((module, names)) = rest.split_once("::") else {
                continue;
            };
            for name in names.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
                if !name.is_empty() {
                    exports.insert(name.to_owned(), module.trim().to_owned());
                }
            }
        }
    }
    modules.insert("__private".to_owned());
    (modules, exports)
}

fn graph() -> Graph {
    let (modules, exports) = root();
    let mut graph = Graph::new();
    for module in &modules {
        graph.entry(module.clone()).or_default();
    }
    let mut files = Vec::new();
    collect(&src(), &mut files);
    for file in files {
        let relative = file.strip_prefix(src()).unwrap();
        let first = relative
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let from = match first.strip_suffix(".rs") {
            Some("private") => "__private".to_owned(),
            Some(name) => name.to_owned(),
            None => first.into_owned(),
        };
        if !modules.contains(&from) {
            continue; // lib.rs, and this file (test-only)
        }
        let text = strip(&read(&file));
        for name in crate_paths(&text) {
            let to = if modules.contains(&name) {
                name.clone()
            } else if let Some(module) = exports.get(&name) {
                module.clone()
            } else {
                panic!(
                    "{}: `crate::{name}` is neither a top-level module nor a re-export of lib.rs",
                    relative.display()
                );
            };
            if to != from {
                graph
                    .entry(from.clone())
                    .or_default()
                    .entry(to)
                    .or_default()
                    .insert(relative.display().to_string());
            }
        }
    }
    graph
}

/// Every `.rs` file under `dir`, but test-only ones (`tests.rs`, `tests/`).
fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            if name != "tests" {
                collect(&path, files);
            }
        } else if name.ends_with(".rs") && name != "tests.rs" {
            files.push(path);
        }
    }
    files.sort();
}

/// The source without comments, string literals' contents and `#[cfg(test)]` items.
fn strip(source: &str) -> String {
    let bytes = source.as_bytes();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    while i < bytes.len() {
        if source[i..].starts_with("//") {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if source[i..].starts_with("/*") {
            let end = source[i + 2..]
                .find("*/")
                .map_or(bytes.len(), |e| i + 2 + e + 2);
            i = end;
        } else if bytes[i] == b'"' && !source[..i].ends_with('\'') {
            // A string literal: keep the quotes, drop what is inside (a `"crate::"` in a
            // message is not an import). Raw strings in this crate hold no `"`.
            out.push('"');
            i += 1;
            while i < bytes.len() && bytes[i] != b'"' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            out.push('"');
            i += 1;
        } else if source[i..].starts_with("#[cfg(test)]") {
            i = skip_item(source, i + "#[cfg(test)]".len());
        } else {
            let c = source[i..].chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// The end of the item starting at `i`: at its first `;` before any brace, or after its braces.
fn skip_item(source: &str, mut i: usize) -> usize {
    let bytes = source.as_bytes();
    let mut depth = 0usize;
    while i < bytes.len() {
        match bytes[i] {
            b';' if depth == 0 => return i + 1,
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    i
}

/// The first segment of every `crate::` path (`crate::{a, b::c}` names `a` and `b`); not
/// `$crate::`, which macros expand in the user's crate.
fn crate_paths(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let mut rest = text;
    while let Some(i) = rest.find("crate::") {
        let before = rest[..i].chars().next_back();
        let after = &rest[i + "crate::".len()..];
        rest = after;
        if before.is_some_and(|c| c == '$' || c.is_alphanumeric() || c == '_') {
            continue;
        }
        if let Some(group) = after.strip_prefix('{') {
            let mut depth = 0usize;
            let mut segment = String::new();
            let mut at_start = true;
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        if !segment.is_empty() {
                            names.insert(std::mem::take(&mut segment));
                        }
                        at_start = true;
                    }
                    c if at_start && (c.is_alphanumeric() || c == '_') => segment.push(c),
                    c if at_start && c.is_whitespace() && segment.is_empty() => {}
                    _ if at_start => {
                        if !segment.is_empty() {
                            names.insert(std::mem::take(&mut segment));
                        }
                        at_start = false;
                    }
                    _ => {}
                }
            }
            if !segment.is_empty() {
                names.insert(segment);
            }
        } else {
            let name: String = after
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() && name != "self" {
                names.insert(name);
            }
        }
    }
    names.remove("self");
    names
}

/// The strongly connected components with more than one module (Tarjan).
fn cycles(graph: &Graph) -> Vec<Vec<String>> {
    struct State<'a> {
        graph: &'a Graph,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        for w in s.graph.get(v).into_iter().flat_map(|e| e.keys()) {
            let w = w.as_str();
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.stack.contains(&w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                component.push(w.to_owned());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.found.push(component);
            }
        }
    }
    let mut state = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !state.index.contains_key(v.as_str()) {
            visit(&mut state, v);
        }
    }
    state.found
}

fn describe(graph: &Graph, cycle: &[String]) -> String {
    let mut lines = vec![format!("  {{{}}}:", cycle.join(", "))];
    for from in cycle {
        for (to, files) in &graph[from] {
            if cycle.contains(to) {
                lines.push(format!("    {from} -> {to} ({})", join(files)));
            }
        }
    }
    lines.join("\n")
}

fn join(files: &BTreeSet<String>) -> String {
    files.iter().cloned().collect::<Vec<_>>().join(", ")
}

#[test]
fn the_scanner_reads_paths_groups_and_skips_tests() {
    let text = strip(
        "use crate::a::X;\n// crate::b\nuse crate::{c, d::{e, f}};\nlet s = \"crate::g\";\n\
         $crate::h::i!();\n#[cfg(test)]\nmod tests { use crate::j; }\nfn k() { crate::l::m(); }",
    );
    let names: Vec<String> = crate_paths(&text).into_iter().collect();
    assert_eq!(names, ["a", "c", "d", "l"]);
}
