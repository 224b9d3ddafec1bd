//! Client-chosen text in what the server says back or logs (error texts, `WWW-Authenticate`,
//! log lines): a token's `kid`, a tool name, a session id, an event id. It is echoed through
//! [`echo`], which cuts it to [`MAX_ECHO_BYTES`] and states its length when it cut
//! (`` `abc…` (200000 bytes) ``), and writes control characters escaped, so a 200 KB value costs
//! a refusal nothing and cannot forge a log line.

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
    if text.len() <= max && !text.chars().any(char::is_control) {
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
            if c.is_control() {
                write!(f, "{}", c.escape_default())?;
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
    }
}
