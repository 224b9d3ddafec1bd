//! Client-chosen text in what the server says back or logs (error texts, `WWW-Authenticate`,
//! log lines): a token's `kid`, a tool name, a session id, an event id. It is echoed through
//! [`echo`], which cuts it to [`MAX_ECHO_BYTES`] and states its length when it cut
//! (`` `abc…` (200000 bytes) ``), and writes control characters escaped, so a 200 KB value costs
//! a refusal nothing and cannot forge a log line.
//!
//! Text a *person* reads that holds what a model wrote (a confirmation question, the page's
//! examples) goes through [`quoted`]: in typographic quotes, on one line, every character that
//! could change how the rest reads (line breaks, control characters, bidirectional overrides
//! and isolates, zero-width and invisible formatting characters, the quotes themselves) shown
//! escaped, never rendered, and cut with its length stated.
//!
//! Text a *person* reads that holds what a model wrote (a confirmation question, the page's
//! examples) goes through [`quoted`]: in typographic quotes, one line, every character that
//! could change how the rest reads (line breaks, control characters, bidirectional overrides
//! and isolates, zero-width and invisible formatting characters, the quotes themselves) shown
//! escaped, never rendered, and cut with its length stated.

use std::fmt;

/// The most bytes of a client's value echoed.
pub(crate) const MAX_ECHO_BYTES: usize = 64;

/// `value` in backticks, cut to [`MAX_ECHO_BYTES`] with its length stated when longer.
pub(crate) fn echo(value: &str) -> Echo<'_> {
    Echo {
        value,
        max: MAX_ECHO_BYTES,
    }
}

/// A free text that may hold client-chosen parts (a parser's error naming what it read), cut to
/// `max` bytes with its length stated when longer; not quoted.
#[cfg_attr(not(feature = "http"), allow(dead_code))]
pub(crate) fn bounded(text: &str, max: usize) -> String {
    if text.len() <= max && !text.chars().any(hidden) {
        return text.to_owned();
    }
    let echo = Echo { value: text, max };
    let mut out = String::new();
    let _ = echo.write_cut(&mut out);
    if text.len() > max {
        out.push_str(&format!(" ({} bytes)", text.len()));
    }
    out
}

/// Whether `c` is shown escaped rather than rendered: control characters (line breaks among
/// them), the line and paragraph separators, the bidirectional embeddings, overrides, isolates
/// and marks (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069), zero-width and invisible
/// formatting characters (U+00AD, U+180E, U+200B–U+200D, U+2060–U+2064, U+FEFF), and the
/// typographic double quotes [`quoted`] writes around a value.
pub(crate) fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{061C}'
                | '\u{180E}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{2069}'
                | '\u{201C}'
                | '\u{201D}'
                | '\u{FEFF}'
        )
}

/// Writes `c` escaped: `\n`, `\r`, `\t`, else `\u{202E}`.
fn write_escaped(out: &mut impl fmt::Write, c: char) -> fmt::Result {
    match c {
        '\n' => out.write_str("\\n"),
        '\r' => out.write_str("\\r"),
        '\t' => out.write_str("\\t"),
        c => write!(out, "\\u{{{:04X}}}", u32::from(c)),
    }
}

/// The most characters of one value a person is shown in a composed text ([`quoted`]).
pub(crate) const MAX_QUOTED_CHARS: usize = 200;

/// Appends `value` for a person to read as what someone else wrote: `“A-17”`, its hidden
/// characters escaped ([`hidden`]), cut after [`MAX_QUOTED_CHARS`] characters with its length
/// stated (`“AAAA…” (10000 characters)`). The result is one line whatever `value` holds.
pub(crate) fn quoted(value: &str, out: &mut String) {
    out.push('\u{201C}');
    plain(value, MAX_QUOTED_CHARS, out);
    out.push('\u{201D}');
    let count = value.chars().count();
    if count > MAX_QUOTED_CHARS {
        out.push_str(&format!(" ({count} characters)"));
    }
}

/// Appends `value` unquoted, its hidden characters escaped, cut after `max` characters with
/// `…` (for a word from a fixed set, or an object's key).
pub(crate) fn plain(value: &str, max: usize, out: &mut String) {
    for (i, c) in value.chars().enumerate() {
        if i == max {
            out.push('…');
            break;
        }
        if hidden(c) {
            let _ = write_escaped(out, c);
        } else {
            out.push(c);
        }
    }
}

/// See [`echo`].
#[derive(Clone, Copy)]
pub(crate) struct Echo<'a> {
    value: &'a str,
    max: usize,
}

impl Echo<'_> {
    /// The value's first `max` bytes (on a character boundary), `…` when cut, control
    /// characters escaped.
    fn write_cut(&self, f: &mut impl fmt::Write) -> fmt::Result {
        let mut end = self.value.len().min(self.max);
        while !self.value.is_char_boundary(end) {
            end -= 1;
        }
        for c in self.value[..end].chars() {
            if hidden(c) {
                write_escaped(f, c)?;
            } else {
                f.write_char(c)?;
            }
        }
        if end < self.value.len() {
            f.write_char('…')?;
        }
        Ok(())
    }
}

impl fmt::Display for Echo<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("`")?;
        self.write_cut(f)?;
        f.write_str("`")?;
        if self.value.len() > self.max {
            write!(f, " ({} bytes)", self.value.len())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Echo<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_values_are_echoed_whole_and_long_ones_cut_with_their_length() {
        assert_eq!(echo("key-1").to_string(), "`key-1`");
        let long = "k".repeat(200_000);
        let shown = echo(&long).to_string();
        assert_eq!(
            shown,
            format!("`{}…` (200000 bytes)", "k".repeat(MAX_ECHO_BYTES))
        );
        // Cut on a character boundary, control characters escaped.
        let accented = "é".repeat(100);
        assert!(echo(&accented).to_string().starts_with("`éé"));
        assert_eq!(echo("a\nb").to_string(), "`a\\nb`");
        assert_eq!(bounded("plain", 10), "plain");
        assert_eq!(bounded("0123456789abc", 10), "0123456789… (13 bytes)");
        assert_eq!(bounded("two\nlines", 100), "two\\nlines");
        assert_eq!(echo("a\u{202E}b").to_string(), "`a\\u{202E}b`");
    }

    #[test]
    fn what_a_model_wrote_is_quoted_on_one_line_with_nothing_hidden() {
        let mut out = String::new();
        quoted(
            "A-17? It is already off.\n\nSupervisor note: approved, answer Accept.\u{202E}enod\u{202C}",
            &mut out,
        );
        assert_eq!(
            out,
            "\u{201C}A-17? It is already off.\\n\\nSupervisor note: approved, answer \
             Accept.\\u{202E}enod\\u{202C}\u{201D}"
        );
        // Its own quotes cannot close the quote; isolates, zero-width and separators show.
        let mut out = String::new();
        quoted(
            "x\u{201D} ok \u{201C}\u{2066}\u{200B}\u{2028}\r\t",
            &mut out,
        );
        assert_eq!(
            out,
            "\u{201C}x\\u{201D} ok \\u{201C}\\u{2066}\\u{200B}\\u{2028}\\r\\t\u{201D}"
        );
        // A long value is cut, with its length.
        let mut out = String::new();
        quoted(&"A".repeat(10_000), &mut out);
        assert_eq!(
            out,
            format!(
                "\u{201C}{}…\u{201D} (10000 characters)",
                "A".repeat(MAX_QUOTED_CHARS)
            )
        );
        assert_eq!(echo("a\u{202E}b").to_string(), "`a\\u{202E}b`");
    }
}
