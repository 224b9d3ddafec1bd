//! A small YAML tree with line numbers, built from saphyr-parser's events (YAML 1.2), for the
//! limits file: mappings keep their order and refuse a repeated key (a second entry for a joint
//! must not silently replace the first), scalars keep whether they were quoted, anchors and
//! aliases are refused (a limits file has no need of them).

use saphyr_parser::{Event, Parser, ScalarStyle};

/// A node and the line it starts on (1-based).
#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Scalar {
        text: String,
        /// Plain (unquoted, not a block): only a plain scalar is a number or a boolean.
        plain: bool,
        line: usize,
    },
    Map {
        entries: Vec<(String, usize, Node)>,
        line: usize,
    },
    Seq {
        items: Vec<Node>,
        line: usize,
    },
}

impl Node {
    pub fn line(&self) -> usize {
        match self {
            Node::Scalar { line, .. } | Node::Map { line, .. } | Node::Seq { line, .. } => *line,
        }
    }

    /// What it is, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Node::Scalar { .. } => "a value",
            Node::Map { .. } => "a mapping",
            Node::Seq { .. } => "a list",
        }
    }

    /// The number a plain scalar holds (YAML 1.2's core schema: integers, decimal and
    /// exponent floats, `.inf`, `-.inf`, `.nan`), or `None`.
    pub fn number(&self) -> Option<f64> {
        let Node::Scalar {
            text, plain: true, ..
        } = self
        else {
            return None;
        };
        let t = text.as_str();
        match t {
            ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => return Some(f64::INFINITY),
            "-.inf" | "-.Inf" | "-.INF" => return Some(f64::NEG_INFINITY),
            ".nan" | ".NaN" | ".NAN" => return Some(f64::NAN),
            _ => {}
        }
        if let Some(hex) = t.strip_prefix("0x") {
            return i64::from_str_radix(hex, 16).ok().map(|v| v as f64);
        }
        if let Some(oct) = t.strip_prefix("0o") {
            return i64::from_str_radix(oct, 8).ok().map(|v| v as f64);
        }
        // The core schema's float: [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
        let body = t.strip_prefix(['-', '+']).unwrap_or(t);
        let (mantissa, exponent) = match body.find(['e', 'E']) {
            Some(i) => (&body[..i], Some(&body[i + 1..])),
            None => (body, None),
        };
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        let mantissa_ok = match mantissa.split_once('.') {
            Some((whole, frac)) => {
                (digits(whole) && (frac.is_empty() || digits(frac)))
                    || (whole.is_empty() && digits(frac))
            }
            None => digits(mantissa),
        };
        let exponent_ok = exponent.is_none_or(|e| digits(e.strip_prefix(['-', '+']).unwrap_or(e)));
        if mantissa_ok && exponent_ok {
            t.parse::<f64>().ok()
        } else {
            None
        }
    }

    /// The boolean a plain scalar holds (`true`/`True`/`TRUE`, `false`/..), or `None`.
    pub fn boolean(&self) -> Option<bool> {
        match self {
            Node::Scalar {
                text, plain: true, ..
            } => match text.as_str() {
                "true" | "True" | "TRUE" => Some(true),
                "false" | "False" | "FALSE" => Some(false),
                _ => None,
            },
            _ => None,
        }
    }

    /// The value as written, for messages.
    pub fn shown(&self) -> String {
        match self {
            Node::Scalar { text, plain, .. } => {
                if *plain {
                    text.clone()
                } else {
                    format!("\"{text}\"")
                }
            }
            other => other.kind().to_owned(),
        }
    }
}

/// Parses `text`: the one document's root node (`None` for an empty document), or the first
/// problem with its line.
pub fn parse(text: &str) -> Result<Option<Node>, (usize, String)> {
    let mut parser = Parser::new_from_str(text);
    // The open collections: a mapping's entries with the key waiting for its value.
    enum Open {
        Map {
            entries: Vec<(String, usize, Node)>,
            key: Option<(String, usize)>,
            line: usize,
        },
        Seq {
            items: Vec<Node>,
            line: usize,
        },
    }
    let mut stack: Vec<Open> = Vec::new();
    let mut root: Option<Node> = None;
    let mut documents = 0;
    while let Some(event) = parser.next_event() {
        let (event, span) = event.map_err(|e| (e.marker().line(), e.info().to_owned()))?;
        let line = span.start.line();
        let node = match event {
            Event::DocumentStart(_) => {
                documents += 1;
                if documents > 1 {
                    return Err((line, "a limits file holds one YAML document".to_owned()));
                }
                continue;
            }
            Event::StreamStart | Event::StreamEnd | Event::DocumentEnd | Event::Nothing => continue,
            Event::Alias(_) => {
                return Err((
                    line,
                    "anchors and aliases (`&name`, `*name`) are not read in a limits file: \
                     write each value out"
                        .to_owned(),
                ));
            }
            Event::Scalar(text, style, anchor, _) => {
                if anchor != 0 {
                    return Err((
                        line,
                        "anchors (`&name`) are not read in a limits file: write each value out"
                            .to_owned(),
                    ));
                }
                Node::Scalar {
                    text: text.into_owned(),
                    plain: style == ScalarStyle::Plain,
                    line,
                }
            }
            Event::MappingStart(anchor, _) | Event::SequenceStart(anchor, _) if anchor != 0 => {
                return Err((
                    line,
                    "anchors (`&name`) are not read in a limits file: write each value out"
                        .to_owned(),
                ));
            }
            Event::MappingStart(..) => {
                stack.push(Open::Map {
                    entries: Vec::new(),
                    key: None,
                    line,
                });
                continue;
            }
            Event::SequenceStart(..) => {
                stack.push(Open::Seq {
                    items: Vec::new(),
                    line,
                });
                continue;
            }
            Event::MappingEnd => match stack.pop() {
                Some(Open::Map { entries, line, .. }) => Node::Map { entries, line },
                _ => return Err((line, "unbalanced mapping".to_owned())),
            },
            Event::SequenceEnd => match stack.pop() {
                Some(Open::Seq { items, line }) => Node::Seq { items, line },
                _ => return Err((line, "unbalanced list".to_owned())),
            },
        };
        match stack.last_mut() {
            None => root = Some(node),
            Some(Open::Seq { items, .. }) => items.push(node),
            Some(Open::Map { entries, key, .. }) => match key.take() {
                None => match node {
                    Node::Scalar { text, line, .. } => {
                        if let Some((_, first, _)) = entries.iter().find(|(k, _, _)| *k == text) {
                            return Err((
                                line,
                                format!(
                                    "`{text}` is written twice in the same mapping (first on \
                                     line {first}): keep one"
                                ),
                            ));
                        }
                        *key = Some((text, line));
                    }
                    other => {
                        return Err((
                            other.line(),
                            "a mapping's key must be a plain name".to_owned(),
                        ));
                    }
                },
                Some((k, key_line)) => entries.push((k, key_line, node)),
            },
        }
    }
    Ok(root)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_the_tree_with_lines() {
        let root = parse("a:\n  b: 1.5\n  c: [1, 2]\nd: \"x\"\n")
            .unwrap()
            .unwrap();
        let Node::Map { entries, .. } = &root else {
            panic!("{root:?}")
        };
        assert_eq!(entries[0].0, "a");
        let Node::Map { entries: inner, .. } = &entries[0].2 else {
            panic!()
        };
        assert_eq!((inner[0].0.as_str(), inner[0].1), ("b", 2));
        assert_eq!(inner[0].2.number(), Some(1.5));
        assert_eq!(entries[1].2.number(), None);
        assert_eq!(entries[1].2.shown(), "\"x\"");
    }

    #[test]
    fn numbers_follow_the_core_schema() {
        let n = |t: &str| {
            Node::Scalar {
                text: t.to_owned(),
                plain: true,
                line: 1,
            }
            .number()
        };
        assert_eq!(n("2.175"), Some(2.175));
        assert_eq!(n("-3"), Some(-3.0));
        assert_eq!(n("1e3"), Some(1000.0));
        assert_eq!(n(".5"), Some(0.5));
        assert_eq!(n(".inf"), Some(f64::INFINITY));
        assert!(n(".nan").unwrap().is_nan());
        assert_eq!(n("inf"), None);
        assert_eq!(n("nan"), None);
        assert_eq!(n("1.2.3"), None);
        assert_eq!(n("fast"), None);
    }

    #[test]
    fn repeated_keys_aliases_and_bad_syntax_are_refused_with_their_line() {
        assert_eq!(
            parse("a: 1\nb: 2\na: 3\n").unwrap_err(),
            (
                3,
                "`a` is written twice in the same mapping (first on line 1): keep one".to_owned()
            )
        );
        assert_eq!(parse("a: &x 1\nb: *x\n").unwrap_err().0, 1);
        let (line, _) = parse("a:\n  b: 1\n c: 2\n").unwrap_err();
        assert_eq!(line, 3);
        assert_eq!(parse("").unwrap(), None);
    }
}
