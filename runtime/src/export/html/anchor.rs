//! The ids of `index.html`: the grammar is in the module docs of [`super`] (and in the
//! reference), tested for collisions below.

use std::fmt::Write as _;

/// One step of a path into a schema.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) enum Step {
    /// A property, by name.
    Prop(String),
    /// An array's items.
    Items,
    /// A map's values (`additionalProperties`).
    Values,
}

/// A name as an id segment: ASCII letters, digits, `_` and `-` as they are, every other byte of
/// its UTF-8 as `%XX` (upper-case hex).
pub(crate) fn segment(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || b == b'_' || b == b'-' {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// The fields of a path (`waypoints[].x`, `offsets.*`), each property name encoded.
fn fields(path: &[Step]) -> String {
    let mut out = String::new();
    for step in path {
        match step {
            Step::Prop(name) => {
                out.push('.');
                out.push_str(&segment(name));
            }
            Step::Items => out.push_str("[]"),
            Step::Values => out.push_str(".*"),
        }
    }
    out
}

/// A tool's id.
pub(crate) fn tool(name: &str) -> String {
    segment(name)
}

/// A parameter's id: `TOOL.NAME`, `TOOL.NAME.FIELD`, `TOOL.NAME[].FIELD`.
pub(crate) fn param(tool: &str, path: &[Step]) -> String {
    format!("{}{}", segment(tool), fields(path))
}

/// An output field's id: `TOOL:result.FIELD` (`TOOL:result` for the output as a whole).
pub(crate) fn result(tool: &str, path: &[Step]) -> String {
    format!("{}:result{}", segment(tool), fields(path))
}

/// One of a tool's own parts: `TOOL:example`, `TOOL:dialects`.
pub(crate) fn part(tool: &str, part: &str) -> String {
    format!("{}:{part}", segment(tool))
}

/// The id of one of the page's own sections (`:tools`, `:envelope.arm`), never a tool's.
pub(crate) fn reserved(words: &[&str]) -> String {
    let list: Vec<String> = words.iter().map(|w| segment(w)).collect();
    format!(":{}", list.join("."))
}

/// A path as people read it in a table: `waypoints[].x`, `offsets.*`.
pub(crate) fn display(path: &[Step]) -> String {
    let mut out = String::new();
    for step in path {
        match step {
            Step::Prop(name) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(name);
            }
            Step::Items => out.push_str("[]"),
            Step::Values => out.push_str(".*"),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    fn p(names: &[&str]) -> Vec<Step> {
        names
            .iter()
            .map(|n| match *n {
                "[]" => Step::Items,
                "*" => Step::Values,
                n => Step::Prop(n.to_owned()),
            })
            .collect()
    }

    #[test]
    fn the_grammar_as_written() {
        assert_eq!(tool("move_arm_to_pose"), "move_arm_to_pose");
        assert_eq!(
            param("plan_trajectory", &p(&["waypoints", "[]", "x"])),
            "plan_trajectory.waypoints[].x"
        );
        assert_eq!(
            result("read_ft_sensor", &p(&["readings", "[]", "value"])),
            "read_ft_sensor:result.readings[].value"
        );
        assert_eq!(result("t", &[]), "t:result");
        assert_eq!(param("t", &p(&["offsets", "*", "x"])), "t.offsets.*.x");
        assert_eq!(part("t", "example"), "t:example");
        assert_eq!(reserved(&["envelope", "arm"]), ":envelope.arm");
        assert_eq!(segment("a.b:c[]*%é"), "a%2Eb%3Ac%5B%5D%2A%25%C3%A9");
        assert_eq!(display(&p(&["waypoints", "[]", "x"])), "waypoints[].x");
    }

    /// Names built to collide under a naive `join(".")`: a property named `a.b` and the field
    /// `b` of `a`; `a[]` as a name and the items of `a`; `*`; a tool named like a tool's part;
    /// `%2E` spelt out. Every id differs, and none but the reserved ones starts with `:`.
    #[test]
    fn ids_do_not_collide() {
        let tools = ["a", "a.b", "a:result", "a%2Eb", ":tools", "a.b:result"];
        let paths: Vec<Vec<Step>> = vec![
            p(&["b"]),
            p(&["a.b"]),
            p(&["a", "b"]),
            p(&["a", "[]"]),
            p(&["a[]"]),
            p(&["a", "*"]),
            p(&["*"]),
            p(&["a", "[]", "b"]),
            p(&["a[].b"]),
            p(&["result"]),
            p(&["%2E"]),
            p(&["."]),
            p(&["a", "b", "c"]),
            p(&["a.b.c"]),
            p(&["a", "b.c"]),
        ];
        let mut ids: Vec<(String, String)> = Vec::new();
        for t in tools {
            ids.push((tool(t), format!("tool {t}")));
            ids.push((result(t, &[]), format!("{t} result")));
            for part_name in ["example", "dialects"] {
                ids.push((part(t, part_name), format!("{t} {part_name}")));
            }
            for path in &paths {
                ids.push((param(t, path), format!("{t} param {path:?}")));
                ids.push((result(t, path), format!("{t} result {path:?}")));
            }
        }
        for words in [&["tools"][..], &["envelope", "arm"], &["anchors"]] {
            ids.push((reserved(words), format!("reserved {words:?}")));
        }
        let mut seen: HashSet<&str> = HashSet::new();
        for (id, what) in &ids {
            assert!(seen.insert(id), "{what} collides: {id}");
            assert_eq!(
                id.starts_with(':'),
                what.starts_with("reserved"),
                "{what}: {id}"
            );
            assert!(!id.contains(char::is_whitespace), "{id}");
        }
    }
}
