//! What a refused call is told: its invalid arguments (at most [`MAX_LISTED_PROBLEMS`], each
//! within [`MAX_PROBLEM_BYTES`]), or that its arguments are over the size limit.

use std::borrow::Cow;

use rmcp::model::{CallToolResult, ContentBlock};

use super::Violation;

/// The most problems one refusal lists; the rest are counted ("… and 9,980 more"), so the text a
/// model reads stays bounded however many problems the arguments have.
pub(crate) const MAX_LISTED_PROBLEMS: usize = 20;

/// The longest line, in bytes, one problem takes in a refusal (a 10 MB key is not echoed).
pub(crate) const MAX_PROBLEM_BYTES: usize = 400;

/// The `isError` result for refused arguments: the first [`MAX_LISTED_PROBLEMS`] problems, each
/// within [`MAX_PROBLEM_BYTES`], the count of the others, then what to do.
pub(crate) fn invalid_arguments(tool: &str, violations: &[Violation]) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(invalid_arguments_text(
        tool, violations,
    ))])
}

/// The text of [`invalid_arguments`].
pub(crate) fn invalid_arguments_text(tool: &str, violations: &[Violation]) -> String {
    use std::fmt::Write as _;
    let n = violations.len();
    let mut text = format!(
        "Invalid arguments for tool `{tool}` ({} problem{}):",
        thousands(n),
        if n == 1 { "" } else { "s" }
    );
    let mut line = String::new();
    for v in violations.iter().take(MAX_LISTED_PROBLEMS) {
        line.clear();
        let _ = write!(line, "{v}");
        text.push_str("\n- ");
        text.push_str(&cut_line(&line, MAX_PROBLEM_BYTES));
    }
    if n > MAX_LISTED_PROBLEMS {
        let _ = write!(
            text,
            "\n- … and {} more (fix the problems above first; the next call lists what remains)",
            thousands(n - MAX_LISTED_PROBLEMS)
        );
    }
    text.push_str("\nThe tool did not run. Fix the arguments above and call it again.");
    text
}

/// `line` cut to at most `max` bytes on a character boundary, ending in `…` when cut.
fn cut_line(line: &str, max: usize) -> std::borrow::Cow<'_, str> {
    if line.len() <= max {
        return Cow::Borrowed(line);
    }
    let mut end = max - '…'.len_utf8();
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    Cow::Owned(format!("{}…", &line[..end]))
}

/// `9980` as `9,980`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The `isError` result for arguments over the size limit.
pub(crate) fn arguments_too_large(tool: &str, size: usize, limit: usize) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(format!(
        "Arguments for tool `{tool}` are too large: {size} bytes, over the limit of {limit} bytes. \
         Send smaller arguments (for example fewer items per call)."
    ))])
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolbox::DEFAULT_MAX_ARGUMENT_BYTES;
    use crate::validate::Violation;

    #[test]
    fn refusals_list_at_most_twenty_problems_of_bounded_length() {
        let many: Vec<Violation> = (0..10_000)
            .map(|i| Violation {
                path: format!("k{i}"),
                message: "unknown argument; allowed: force".to_owned(),
                hint: None,
            })
            .collect();
        let r = invalid_arguments("grasp", &many);
        let text = r.content[0].as_text().unwrap().text.clone();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            "Invalid arguments for tool `grasp` (10,000 problems):"
        );
        assert_eq!(lines[1], "- k0: unknown argument; allowed: force");
        assert_eq!(lines[20], "- k19: unknown argument; allowed: force");
        assert_eq!(
            lines[21],
            "- … and 9,980 more (fix the problems above first; the next call lists what remains)"
        );
        assert_eq!(lines.len(), 23, "{text}");
        assert!(text.len() < 2_000, "{} bytes", text.len());

        // One problem with a 1 MB key is cut on a character boundary.
        let huge = Violation {
            path: "é".repeat(500_000),
            message: "unknown argument".to_owned(),
            hint: None,
        };
        let r = invalid_arguments("grasp", &[huge]);
        let text = &r.content[0].as_text().unwrap().text;
        let line = text.lines().nth(1).unwrap();
        assert!(line.len() <= MAX_PROBLEM_BYTES + 2, "{}", line.len());
        assert!(line.ends_with("é…"), "{line}");
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn too_large_message() {
        let r = arguments_too_large("plan_trajectory", 2_000_000, DEFAULT_MAX_ARGUMENT_BYTES);
        assert_eq!(r.is_error, Some(true));
        assert_eq!(
            r.content[0].as_text().map(|t| t.text.as_str()),
            Some(
                "Arguments for tool `plan_trajectory` are too large: 2000000 bytes, over the \
                 limit of 1048576 bytes. Send smaller arguments (for example fewer items per call)."
            )
        );
    }
}
