//! `jmespath`: a projection of a tool's result, applied on the server after the tool ran, so a
//! model asks for `readings[?axis=='Fz'].value` instead of reading the whole result; and the
//! `_jmespath_error` envelope that answers an expression that cannot be applied.
//!
//! Expressions are compiled with the maintained [`jmespath`] crate (its `sync` variables, so a
//! compiled expression can wait in the call's future while the tool runs).

use std::time::Instant;

use serde_json::{Map, Value, json};

/// The injected argument's name.
pub(crate) const ARGUMENT: &str = "jmespath";

/// The longest expression accepted (in characters). It bounds the parser's recursion (each
/// nesting level takes at least one character) and the work of one evaluation.
pub(crate) const MAX_LENGTH: u64 = 512;

/// The key of the envelope's message.
pub(crate) const ERROR_KEY: &str = "_jmespath_error";

/// The key a projected value is wrapped in (`structuredContent` is always an object).
pub(crate) const PROJECTION_KEY: &str = "projection";

/// The argument's description: what a model reads.
pub(crate) const DESCRIPTION: &str = "Optional JMESPath expression applied to this tool's result on the \
    server, so only what you need comes back: for example `items[?status=='ok'].name` or \
    `{x: position.x, n: length(items)}`. The selected value is returned as \
    {\"projection\": value}. Omit it to get the whole result.";

/// A compiled expression.
#[derive(Debug, Clone)]
pub(crate) struct Projection {
    expression: std::sync::Arc<jmespath::Expression<'static>>,
}

/// The most an expression may multiply the result: multi-selects repeat what they select
/// (`[@, @]` twice), and chained through pipes or projections they multiply
/// (`@ | [@, @] | [@, @]` four times), so 85 of them in 512 characters would ask for 2^85 copies.
/// Expressions that could exceed this are refused before anything runs.
pub(crate) const MAX_GROWTH: u64 = 64;

/// How many expressions are parsed or evaluated at once (each on a thread of its own); the
/// others wait.
const SLOTS: usize = 4;

impl Projection {
    /// Compiles `expression`, or says why it cannot be (for the model: what is wrong, where).
    pub(crate) async fn compile(expression: &str) -> Result<Projection, String> {
        let expression = expression.to_owned();
        on_deep_stack(move || {
            let compiled = jmespath::compile(&expression).map_err(|e| describe(&e))?;
            let growth = growth(compiled.as_ast());
            if growth > MAX_GROWTH {
                return Err(format!(
                    "the expression could repeat the result up to {} times (multi-selects \
                     inside multi-selects, pipes or projections multiply); at most {MAX_GROWTH} \
                     are allowed: select less, or in fewer nested steps",
                    if growth == u64::MAX {
                        "an astronomical number of".to_owned()
                    } else {
                        growth.to_string()
                    }
                ));
            }
            Ok(Projection {
                expression: std::sync::Arc::new(compiled),
            })
        })
        .await
    }

    /// Why the expression cannot be applied to any result matching `schema` (the tool's
    /// payload schema), or `None` when it may be (`projection_types.rs`).
    pub(crate) fn check_against(&self, schema: &Value) -> Option<String> {
        super::projection_types::check(self.expression.as_ast(), schema)
    }

    /// The expression as the caller wrote it.
    pub(crate) fn as_str(&self) -> &str {
        self.expression.as_str()
    }

    /// The value the expression selects from `payload` (JSON `null` when it selects nothing).
    /// The answer is at most [`MAX_GROWTH`] times the payload's size (in values), plus a margin
    /// for what functions make. When it is not ready by `answer_by` (the call's deadline) the
    /// call stops waiting for it and errs; the evaluation finishes on its thread, unseen.
    pub(crate) async fn apply(
        &self,
        payload: Value,
        answer_by: Option<Instant>,
    ) -> Result<Value, String> {
        let expression = std::sync::Arc::clone(&self.expression);
        let evaluation = on_deep_stack(move || {
            let limit = count_values(&payload)
                .saturating_mul(MAX_GROWTH as usize)
                .saturating_add(10_000);
            let data = jmespath::Variable::try_from(payload).map_err(|e| describe(&e))?;
            let found = expression.search(data).map_err(|e| describe(&e))?;
            let mut budget = limit;
            to_json(&found, &mut budget).ok_or_else(|| {
                format!("the selected value is too large (over {limit} values); select less")
            })
        });
        let Some(answer_by) = answer_by else {
            return evaluation.await;
        };
        tokio::time::timeout_at(answer_by.into(), evaluation)
            .await
            .unwrap_or_else(|_| Err(TOO_SLOW.to_owned()))
    }
}

/// Why a projection was not answered: the call's deadline came first.
const TOO_SLOW: &str = "the expression did not finish before the call's deadline (the tool's \
                        timeout); select less, or call without a jmespath expression";

/// How many times the value an expression yields can repeat its input (see [`MAX_GROWTH`]):
/// multi-selects add their parts, chaining multiplies, saturating at `u64::MAX`.
fn growth(ast: &jmespath::ast::Ast) -> u64 {
    use jmespath::ast::Ast;
    match ast {
        Ast::Subexpr { lhs, rhs, .. } | Ast::Projection { lhs, rhs, .. } => {
            growth(lhs).saturating_mul(growth(rhs))
        }
        Ast::And { lhs, rhs, .. } | Ast::Or { lhs, rhs, .. } => growth(lhs).max(growth(rhs)),
        Ast::Comparison { .. } | Ast::Not { .. } => 1,
        Ast::Condition { then, .. } => growth(then),
        Ast::Flatten { node, .. }
        | Ast::ObjectValues { node, .. }
        | Ast::Expref { ast: node, .. } => growth(node),
        Ast::MultiList { elements, .. } => elements
            .iter()
            .fold(0u64, |sum, e| sum.saturating_add(growth(e)))
            .max(1),
        Ast::MultiHash { elements, .. } => elements
            .iter()
            .fold(0u64, |sum, kv| sum.saturating_add(growth(&kv.value)))
            .max(1),
        // A function can combine its arguments (`map(&expr, list)` applies one to the other).
        Ast::Function { args, .. } => args
            .iter()
            .fold(1u64, |product, a| product.saturating_mul(growth(a))),
        Ast::Identity { .. }
        | Ast::Field { .. }
        | Ast::Index { .. }
        | Ast::Literal { .. }
        | Ast::Slice { .. } => 1,
    }
}

/// The number of values in a document (every scalar, array and object counts one).
fn count_values(value: &Value) -> usize {
    let mut count = 0;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        count += 1;
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.values()),
            _ => {}
        }
    }
    count
}

/// A jmespath value as JSON, spending one of `budget` per value written; `None` when it runs
/// out (the crate shares repeated values, and writing them out is where they multiply).
fn to_json(value: &jmespath::Variable, budget: &mut usize) -> Option<Value> {
    use jmespath::Variable;
    *budget = budget.checked_sub(1)?;
    Some(match value {
        Variable::Null | Variable::Expref(_) => Value::Null,
        Variable::Bool(b) => Value::Bool(*b),
        Variable::Number(n) => Value::Number(n.clone()),
        Variable::String(s) => Value::String(s.clone()),
        Variable::Array(items) => Value::Array(
            items
                .iter()
                .map(|item| to_json(item, budget))
                .collect::<Option<_>>()?,
        ),
        Variable::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| Some((k.clone(), to_json(v, budget)?)))
                .collect::<Option<_>>()?,
        ),
    })
}

/// The stack an expression is parsed and evaluated on. The crate's parser and interpreter
/// recurse once per operator, up to [`MAX_LENGTH`] levels (`!!!!…a`); measured in a debug build,
/// a level takes up to 10 KiB, so the longest expression needs about 5 MiB, more than the
/// 2 MiB of a tokio worker. Only touched pages are committed.
const DEEP_STACK: usize = 16 << 20;

/// Runs `f` on a thread of its own with a [`DEEP_STACK`], at most [`SLOTS`] at once, and waits
/// for it without holding up the async runtime: a hostile expression cannot overflow the
/// caller's stack (an overflow aborts the whole server), and a panic in the crate becomes an
/// error. A call abandoned while it waits leaves the thread to finish, holding its slot.
async fn on_deep_stack<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, String> + Send + 'static,
) -> Result<T, String> {
    static RUNNING: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(SLOTS);
    let slot = RUNNING
        .acquire()
        .await
        .map_err(|_| "the server is shutting down".to_owned())?;
    let (tx, rx) = tokio::sync::oneshot::channel();
    std::thread::Builder::new()
        .name("toolwright-jmespath".to_owned())
        .stack_size(DEEP_STACK)
        .spawn(move || {
            let _slot = slot;
            let _ = tx.send(f());
        })
        .map_err(|e| format!("the server could not evaluate the expression now ({e})"))?;
    // The sender is dropped without a value only if `f` panicked.
    rx.await
        .unwrap_or_else(|_| Err("the expression could not be evaluated".to_owned()))
}

/// A jmespath error in one line: the reason and the column (the crate's own `Display` draws a
/// caret under the expression over several lines).
fn describe(e: &jmespath::JmespathError) -> String {
    format!("{} (at column {})", e.reason, e.column + 1)
}

/// The envelope that replaces a result when the expression cannot be applied: the problem, the
/// expression, the result's top-level keys (to write a better one) and what to do. `ran`: the
/// tool ran (only a read-only tool's result is ever replaced so: calling it again changes
/// nothing; any other tool answers its own result with the error beside it,
/// [`failed_beside`]).
pub(crate) fn error_envelope(message: &str, expression: &str, keys: &[String], ran: bool) -> Value {
    let done = if ran {
        "The tool ran (it is read-only: calling it again changes nothing), but its result is not \
         shown."
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

/// What a tool that is not read-only answers beside its own result when the expression could
/// not be applied after it ran: the result is the answer, and the model must not run the tool
/// again to see it (that would be a second motion).
pub(crate) fn failed_beside(tool: &str, message: &str, expression: &str) -> String {
    format!(
        "The `{ARGUMENT}` expression {} could not be applied to the result: {message}. `{tool}` \
         ran once and its whole result is given here instead. Do not call `{tool}` again to see \
         it: that would run it again. Read what you need from this result.",
        crate::echo::echo(expression)
    )
}

/// The `outputSchema` branches a tool that accepts `jmespath` adds: a projected value, and the
/// error envelope.
pub(crate) fn branches() -> [Value; 2] {
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
pub(crate) fn argument_schema(description: String) -> Value {
    json!({
        "type": "string",
        "minLength": 1,
        "maxLength": MAX_LENGTH,
        "description": description,
    })
}

/// Wraps a projected value as the structured result.
pub(crate) fn wrap(value: Value) -> Value {
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

    async fn project(expr: &str, v: &Value) -> Result<Value, String> {
        Projection::compile(expr)
            .await?
            .apply(v.clone(), None)
            .await
    }

    #[tokio::test]
    async fn selects_nested_fields_and_filters() {
        let v = ft();
        assert_eq!(
            project("readings[?axis=='Fz'].value", &v).await,
            Ok(json!([-9.8]))
        );
        assert_eq!(project("pose.position.z", &v).await, Ok(json!(200)));
        assert_eq!(
            project("{f: filter, n: length(readings)}", &v).await,
            Ok(json!({"f": "kalman", "n": 3}))
        );
        assert_eq!(
            project("readings[].axis", &v).await,
            Ok(json!(["Fx", "Fz", "Mz"]))
        );
        // Integers stay integers.
        assert_eq!(project("pose.position.x", &v).await, Ok(json!(400)));
        // Nothing selected is null.
        assert_eq!(project("missing.key", &v).await, Ok(Value::Null));
    }

    #[tokio::test]
    async fn errors_say_what_and_where() {
        let e = Projection::compile("readings[?axis=='Fz'.value")
            .await
            .unwrap_err();
        assert!(e.contains("Parse error"), "{e}");
        assert!(e.contains("column"), "{e}");
        let e = project("length(filter_missing_fn(readings))", &ft())
            .await
            .unwrap_err();
        assert!(e.contains("filter_missing_fn"), "{e}");
        let e = project("abs(filter)", &ft()).await.unwrap_err();
        assert!(e.contains("Runtime error"), "{e}");
    }

    #[tokio::test]
    async fn the_longest_expressions_parse_on_their_own_stack() {
        // Every operator nested as deep as the length limit allows: each is parsed (or refused)
        // on the expression's own thread, and the answer says which.
        let n = MAX_LENGTH as usize;
        let data = json!({"a": {"a": 1}});
        for (expr, expected) in [
            (
                format!("{}a{}", "(".repeat(n / 2 - 1), ")".repeat(n / 2 - 1)),
                Ok(json!({"a": 1})),
            ),
            (format!("{}a", "!".repeat(n - 1)), Ok(json!(false))),
            (format!("a{}", ".a".repeat(n / 2 - 1)), Ok(Value::Null)),
            (format!("a{}", "[]".repeat(n / 2 - 1)), Ok(Value::Null)),
            (format!("a{}", "|a".repeat(n / 2 - 1)), Ok(Value::Null)),
            (format!("a{}", "[?a]".repeat(n / 4 - 1)), Ok(Value::Null)),
            ("[".repeat(n), Err("Parse error")),
        ] {
            assert!(expr.len() <= n);
            let got = project(&expr, &data).await;
            match expected {
                Ok(value) => assert_eq!(got, Ok(value), "{}…", &expr[..20]),
                Err(start) => assert!(got.as_ref().is_err_and(|e| e.starts_with(start)), "{got:?}"),
            }
        }
    }

    #[tokio::test]
    async fn expressions_that_multiply_the_result_are_refused_before_they_run() {
        // 2^85 copies of the result through pipes of multi-selects; 2^63 through flattening.
        let doubling = format!("@{}", "|[@,@]".repeat(85));
        let flattening = format!("@{}", "|[@,@][]".repeat(63));
        let functions = format!("{}@{}", "map(&[@,@], ".repeat(20), ")".repeat(20));
        for expr in [doubling, flattening, functions] {
            assert!(expr.len() <= MAX_LENGTH as usize, "{}", expr.len());
            let e = Projection::compile(&expr).await.unwrap_err();
            assert!(e.contains("could repeat the result"), "{e}");
        }
        // Up to the limit, it runs: 64 copies of a small list.
        let sixty_four = format!("@{}", "|[@,@]".repeat(6));
        assert_eq!(
            growth(
                Projection::compile(&sixty_four)
                    .await
                    .unwrap()
                    .expression
                    .as_ast()
            ),
            64
        );
        let got = project(&format!("{sixty_four}|[][][][][]"), &json!([1]))
            .await
            .unwrap();
        assert_eq!(got.as_array().map(Vec::len), Some(64));
        // Legitimate selections are far below it.
        for (expr, expected) in [
            ("{f: filter, r: readings[].value, z: pose.position.z}", 3),
            ("readings[?axis=='Fz'].{v: value, u: unit}", 2),
            ("sort_by(readings, &value)[0]", 1),
        ] {
            let p = Projection::compile(expr).await.unwrap();
            assert_eq!(growth(p.expression.as_ast()), expected, "{expr}");
        }
    }

    #[tokio::test]
    async fn a_value_too_large_to_write_out_is_refused() {
        // Within the growth limit, a string made from the whole result is still one value;
        // the budget counts values written, so a result is bounded by MAX_GROWTH times its input.
        let big = json!((0..100_000).collect::<Vec<u32>>());
        let mut budget = 10;
        let var = jmespath::Variable::try_from(big).unwrap();
        assert_eq!(to_json(&var, &mut budget), None);
        let mut budget = 100_001;
        assert!(to_json(&var, &mut budget).is_some());
    }

    #[tokio::test]
    async fn a_projection_is_not_waited_for_past_the_call_deadline() {
        let big = json!({"items": (0..100_000).map(|i| json!({"v": i})).collect::<Vec<_>>()});
        let p = Projection::compile("sort_by(items, &v)[*].v")
            .await
            .unwrap();
        // A deadline already past: the evaluation (milliseconds for 100,000 items) is not
        // waited for.
        let late = p.apply(big.clone(), Some(Instant::now())).await;
        assert_eq!(late, Err(TOO_SLOW.to_owned()));
        // A deadline far enough: the answer.
        let far = Instant::now() + std::time::Duration::from_secs(600);
        let answer = p.apply(big, Some(far)).await.unwrap();
        assert_eq!(answer.as_array().map(Vec::len), Some(100_000));
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
