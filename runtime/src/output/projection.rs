//! `jmespath`: a projection of a tool's result, applied on the server after the tool ran, so a
//! model asks for `readings[?axis=='Fz'].value` instead of reading the whole result; and the
//! `_jmespath_error` envelope that answers an expression that cannot be applied.
//!
//! Expressions are compiled with the maintained [`jmespath`] crate (its `sync` variables, so a
//! compiled expression can wait in the call's future while the tool runs).

use serde_json::{Map, Value, json};

/// The injected argument's name.
pub const ARGUMENT: &str = "jmespath";

/// The longest expression accepted (in characters). It bounds the parser's recursion (each
/// nesting level takes at least one character) and the work of one evaluation.
pub const MAX_LENGTH: u64 = 512;

/// The key of the envelope's message.
pub const ERROR_KEY: &str = "_jmespath_error";

/// The key a projected value is wrapped in (`structuredContent` is always an object).
pub const PROJECTION_KEY: &str = "projection";

/// The argument's description: what a model reads.
pub const DESCRIPTION: &str = "Optional JMESPath expression applied to this tool's result on the \
    server, so only what you need comes back: for example `items[?status=='ok'].name` or \
    `{x: position.x, n: length(items)}`. The selected value is returned as \
    {\"projection\": value}. Omit it to get the whole result.";

/// A compiled expression.
#[derive(Debug)]
pub struct Projection {
    expression: jmespath::Expression<'static>,
}

impl Projection {
    /// Compiles `expression`, or says why it cannot be (for the model: what is wrong, where).
    pub fn compile(expression: &str) -> Result<Projection, String> {
        let expression = expression.to_owned();
        on_deep_stack(move || {
            jmespath::compile(&expression)
                .map(|expression| Projection { expression })
                .map_err(|e| describe(&e))
        })
    }

    /// The expression as the caller wrote it.
    pub fn as_str(&self) -> &str {
        self.expression.as_str()
    }

    /// The value the expression selects from `payload` (JSON `null` when it selects nothing).
    pub fn apply(&self, payload: &Value) -> Result<Value, String> {
        on_deep_stack(|| {
            let data = jmespath::Variable::try_from(payload).map_err(|e| describe(&e))?;
            let found = self.expression.search(data).map_err(|e| describe(&e))?;
            serde_json::to_value(&*found).map_err(|e| e.to_string())
        })
    }
}

/// The stack an expression is parsed and evaluated on. The crate's parser and interpreter
/// recurse once per operator, up to [`MAX_LENGTH`] levels (`!!!!…a`); measured in a debug build,
/// a level takes up to 10 KiB, so the longest expression needs about 5 MiB, more than the
/// 2 MiB of a tokio worker. Only touched pages are committed.
const DEEP_STACK: usize = 16 << 20;

/// Runs `f` on a thread of its own with a [`DEEP_STACK`]: a hostile expression cannot overflow
/// the caller's stack (an overflow aborts the whole server), and a panic in the crate becomes
/// an error.
fn on_deep_stack<T: Send>(f: impl FnOnce() -> Result<T, String> + Send) -> Result<T, String> {
    std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .name("toolwright-jmespath".to_owned())
            .stack_size(DEEP_STACK)
            .spawn_scoped(scope, f);
        match spawned {
            Ok(handle) => handle
                .join()
                .unwrap_or_else(|_| Err("the expression could not be evaluated".to_owned())),
            Err(e) => Err(format!(
                "the server could not evaluate the expression now ({e})"
            )),
        }
    })
}

/// A jmespath error in one line: the reason and the column (the crate's own `Display` draws a
/// caret under the expression over several lines).
fn describe(e: &jmespath::JmespathError) -> String {
    format!("{} (at column {})", e.reason, e.column + 1)
}

/// The envelope that replaces a result when the expression cannot be applied: the problem, the
/// expression, the result's top-level keys (to write a better one) and what to do.
pub fn error_envelope(message: &str, expression: &str, keys: &[String], ran: bool) -> Value {
    let done = if ran {
        "The tool ran, but its result is not shown."
    } else {
        "The tool did not run."
    };
    let keys_text = if keys.is_empty() {
        String::new()
    } else {
        format!(
            " The result's top-level keys are: {}.",
            keys.iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    json!({
        ERROR_KEY: message,
        "expression": expression,
        "original_keys": keys,
        "hint": format!(
            "{done} Fix the JMESPath expression and call again, or omit `{ARGUMENT}` to get the \
             whole result.{keys_text}"
        ),
    })
}

/// The `outputSchema` branches a tool that accepts `jmespath` adds: a projected value, and the
/// error envelope.
pub fn branches() -> [Value; 2] {
    [
        json!({
            "type": "object",
            "properties": {
                PROJECTION_KEY: {
                    "description": "The value the `jmespath` expression selected from the result."
                }
            },
            "required": [PROJECTION_KEY],
            "additionalProperties": false,
        }),
        json!({
            "type": "object",
            "properties": {
                ERROR_KEY: {
                    "type": "string",
                    "description": "Why the `jmespath` expression could not be applied."
                },
                "expression": {"type": "string", "description": "The expression as sent."},
                "original_keys": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": "The result's top-level keys."
                },
                "hint": {"type": "string", "description": "What to do next."}
            },
            "required": [ERROR_KEY, "expression", "original_keys", "hint"],
            "additionalProperties": false,
        }),
    ]
}

/// The argument's schema (a string, bounded).
pub fn argument_schema(description: String) -> Value {
    json!({
        "type": "string",
        "minLength": 1,
        "maxLength": MAX_LENGTH,
        "description": description,
    })
}

/// Wraps a projected value as the structured result.
pub fn wrap(value: Value) -> Value {
    let mut map = Map::new();
    map.insert(PROJECTION_KEY.to_owned(), value);
    Value::Object(map)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ft() -> Value {
        json!({
            "filter": "kalman",
            "readings": [
                {"axis": "Fx", "value": 0.5, "unit": "N"},
                {"axis": "Fz", "value": -9.8, "unit": "N"},
                {"axis": "Mz", "value": 0.01, "unit": "N·m"}
            ],
            "pose": {"position": {"x": 400, "y": 0, "z": 200}}
        })
    }

    fn project(expr: &str, v: &Value) -> Result<Value, String> {
        Projection::compile(expr)?.apply(v)
    }

    #[test]
    fn selects_nested_fields_and_filters() {
        let v = ft();
        assert_eq!(
            project("readings[?axis=='Fz'].value", &v),
            Ok(json!([-9.8]))
        );
        assert_eq!(project("pose.position.z", &v), Ok(json!(200)));
        assert_eq!(
            project("{f: filter, n: length(readings)}", &v),
            Ok(json!({"f": "kalman", "n": 3}))
        );
        assert_eq!(
            project("readings[].axis", &v),
            Ok(json!(["Fx", "Fz", "Mz"]))
        );
        // Integers stay integers.
        assert_eq!(project("pose.position.x", &v), Ok(json!(400)));
        // Nothing selected is null.
        assert_eq!(project("missing.key", &v), Ok(Value::Null));
    }

    #[test]
    fn errors_say_what_and_where() {
        let e = Projection::compile("readings[?axis=='Fz'.value").unwrap_err();
        assert!(e.contains("Parse error"), "{e}");
        assert!(e.contains("column"), "{e}");
        let e = project("length(filter_missing_fn(readings))", &ft()).unwrap_err();
        assert!(e.contains("filter_missing_fn"), "{e}");
        let e = project("abs(filter)", &ft()).unwrap_err();
        assert!(e.contains("Runtime error"), "{e}");
    }

    #[test]
    fn the_longest_expressions_do_not_overflow() {
        // Every operator nested as deep as the length limit allows, from a caller with a small
        // stack: each parses (or fails to) without taking the process down.
        let n = MAX_LENGTH as usize;
        let deepest = [
            format!("{}a{}", "(".repeat(n / 2 - 1), ")".repeat(n / 2 - 1)),
            format!("{}a", "!".repeat(n - 1)),
            format!("a{}", ".a".repeat(n / 2 - 1)),
            format!("a{}", "[]".repeat(n / 2 - 1)),
            format!("a{}", "|a".repeat(n / 2 - 1)),
            format!("{}a{}", "[".repeat(n / 2 - 1), "]".repeat(n / 2 - 1)),
            format!("a{}", "[?a]".repeat(n / 4 - 1)),
            "[".repeat(n),
        ];
        for expr in deepest {
            assert!(expr.len() <= n);
            let outcome = std::thread::Builder::new()
                .stack_size(256 << 10)
                .spawn(move || {
                    Projection::compile(&expr).and_then(|p| p.apply(&json!({"a": {"a": 1}})))
                })
                .unwrap()
                .join();
            assert!(outcome.is_ok(), "the caller's thread survived");
        }
    }

    #[test]
    fn the_envelope_lists_the_keys() {
        let e = error_envelope(
            "Parse error",
            "a[",
            &["filter".into(), "readings".into()],
            false,
        );
        assert_eq!(e["original_keys"], json!(["filter", "readings"]));
        assert!(
            e["hint"]
                .as_str()
                .unwrap()
                .starts_with("The tool did not run.")
        );
        assert!(e["hint"].as_str().unwrap().contains("`readings`"));
        let validator = crate::validate::Validator::compile(&branches()[1]).unwrap();
        let mut e = e;
        assert_eq!(validator.check_output(&mut e), Ok(()));
    }
}
