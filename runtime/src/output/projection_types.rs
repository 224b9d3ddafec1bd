//! What a `jmespath` expression can yield from a result that matches the tool's output schema,
//! worked out before the call runs: an expression that is wrong for every result the tool can
//! return (a function the runtime does not have, the wrong number of arguments, an argument of a
//! type the function never takes, a slice with a step of 0) is refused with the arguments, so a
//! tool that changes the world is never run for a projection that cannot be applied (issue 43).
//!
//! The types an expression can yield are over-approximated (a set of JSON types, from the
//! schema's `type`, `enum`, `const`, `anyOf`, `oneOf`, `properties`, `required`,
//! `additionalProperties` and `items`; anything else is "any type"), so a refusal is sound: an
//! argument whose every possible type the function refuses fails wherever it is evaluated. An
//! expression that may fail for some results only (`abs(x)` where `x` is a number or a string)
//! is let through; applied after the tool ran, its error is answered beside the tool's result
//! (`results.rs`). A function in a branch that is not evaluated for some results (`a || abs(b)`,
//! a projection of an empty list) is refused all the same: it is wrong for the schema, and the
//! caller is told before anything runs.

use jmespath::ast::Ast;
use serde_json::Value;

/// A set of JMESPath types, as bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Types(u8);

impl Types {
    const NULL: Types = Types(1);
    const BOOL: Types = Types(2);
    const NUMBER: Types = Types(4);
    const STRING: Types = Types(8);
    const ARRAY: Types = Types(16);
    const OBJECT: Types = Types(32);
    const EXPREF: Types = Types(64);
    /// Any JSON value (an expression reference only comes from `&`).
    const ANY: Types = Types(63);

    fn or(self, other: Types) -> Types {
        Types(self.0 | other.0)
    }

    fn has(self, other: Types) -> bool {
        self.0 & other.0 != 0
    }

    fn only(self, other: Types) -> bool {
        self.0 & !other.0 == 0
    }

    /// Its types in words: `an array`, `a number or null`.
    fn words(self) -> String {
        let names: Vec<&str> = [
            (Types::NULL, "null"),
            (Types::BOOL, "a boolean"),
            (Types::NUMBER, "a number"),
            (Types::STRING, "a string"),
            (Types::ARRAY, "an array"),
            (Types::OBJECT, "an object"),
            (Types::EXPREF, "an expression reference (`&..`)"),
        ]
        .iter()
        .filter(|(t, _)| self.has(*t))
        .map(|(_, n)| *n)
        .collect();
        match names.as_slice() {
            [] => "nothing".to_owned(),
            [one] => (*one).to_owned(),
            [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
        }
    }
}

/// What an expression can yield: its types, and (when it is one value of the result) the
/// schema that value matches, for the fields and items read from it.
#[derive(Debug, Clone)]
struct Yield<'s> {
    types: Types,
    schema: Option<&'s Value>,
}

impl<'s> Yield<'s> {
    fn of(types: Types) -> Self {
        Yield {
            types,
            schema: None,
        }
    }

    fn any() -> Self {
        Yield::of(Types::ANY)
    }

    fn from_schema(schema: &'s Value) -> Self {
        Yield {
            types: types_of(schema, 0),
            schema: Some(schema),
        }
    }
}

/// How deep `anyOf` / `oneOf` are followed (a schema is inlined and finite; this bounds the work).
const MAX_DEPTH: usize = 16;

/// The types a value matching `schema` can have.
fn types_of(schema: &Value, depth: usize) -> Types {
    let Some(map) = schema.as_object() else {
        // `true` (or anything not a schema object): any value.
        return Types::ANY;
    };
    if depth > MAX_DEPTH {
        return Types::ANY;
    }
    if let Some(t) = map.get("type") {
        let names: Vec<&str> = match t {
            Value::String(s) => vec![s.as_str()],
            Value::Array(list) => list.iter().filter_map(Value::as_str).collect(),
            _ => return Types::ANY,
        };
        return names.iter().fold(Types(0), |all, name| {
            all.or(match *name {
                "null" => Types::NULL,
                "boolean" => Types::BOOL,
                "number" | "integer" => Types::NUMBER,
                "string" => Types::STRING,
                "array" => Types::ARRAY,
                "object" => Types::OBJECT,
                _ => Types::ANY,
            })
        });
    }
    if let Some(value) = map.get("const") {
        return type_of_value(value);
    }
    if let Some(Value::Array(values)) = map.get("enum") {
        return values
            .iter()
            .fold(Types(0), |all, v| all.or(type_of_value(v)));
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = map.get(key) {
            return branches
                .iter()
                .fold(Types(0), |all, b| all.or(types_of(b, depth + 1)));
        }
    }
    Types::ANY
}

fn type_of_value(value: &Value) -> Types {
    match value {
        Value::Null => Types::NULL,
        Value::Bool(_) => Types::BOOL,
        Value::Number(_) => Types::NUMBER,
        Value::String(_) => Types::STRING,
        Value::Array(_) => Types::ARRAY,
        Value::Object(_) => Types::OBJECT,
    }
}

/// What `name` of an object yields (null when the object lacks it, or for a value that is not
/// an object).
fn field<'s>(of: &Yield<'s>, name: &str) -> Yield<'s> {
    let mut types = Types(0);
    if !of.types.only(Types::OBJECT) {
        types = types.or(Types::NULL);
    }
    if !of.types.has(Types::OBJECT) {
        return Yield::of(types);
    }
    let Some(schema) = of.schema.and_then(Value::as_object) else {
        return Yield::any();
    };
    // Only a schema that says exactly what its object holds is read.
    if schema.contains_key("patternProperties")
        || schema.contains_key("anyOf")
        || schema.contains_key("oneOf")
        || schema.contains_key("allOf")
    {
        return Yield::any();
    }
    let required = schema
        .get("required")
        .and_then(Value::as_array)
        .is_some_and(|r| r.iter().any(|k| k == name));
    match schema
        .get("properties")
        .and_then(Value::as_object)
        .and_then(|p| p.get(name))
    {
        Some(property) => {
            let types = types.or(types_of(property, 0));
            Yield {
                types: if required {
                    types
                } else {
                    types.or(Types::NULL)
                },
                schema: Some(property),
            }
        }
        None => match schema.get("additionalProperties") {
            Some(Value::Bool(false)) => Yield::of(Types::NULL),
            Some(additional @ Value::Object(_)) => Yield {
                types: types.or(types_of(additional, 0)).or(Types::NULL),
                schema: Some(additional),
            },
            _ => Yield::any(),
        },
    }
}

/// What one item of an array yields.
fn item<'s>(of: &Yield<'s>) -> Yield<'s> {
    match of.schema.and_then(Value::as_object) {
        Some(schema) if of.types.only(Types::ARRAY.or(Types::NULL)) => match schema.get("items") {
            Some(items @ Value::Object(_)) if !schema.contains_key("prefixItems") => {
                Yield::from_schema(items)
            }
            _ => Yield::any(),
        },
        _ => Yield::any(),
    }
}

/// A function of JMESPath's runtime: the types each argument takes (the last repeats for a
/// variadic one) and what it returns (`None`: what its first argument is, as `reverse` and
/// `sort_by` return).
struct Signature {
    inputs: &'static [Types],
    variadic: bool,
    returns: Option<Types>,
}

/// The built-in functions (jmespath 0.5's runtime; JMESPath's specification). An array of
/// numbers or strings is checked as an array: an empty one is accepted whatever its items.
fn signature(name: &str) -> Option<Signature> {
    const NUM: Types = Types::NUMBER;
    const STR: Types = Types::STRING;
    const ARR: Types = Types::ARRAY;
    const OBJ: Types = Types::OBJECT;
    const ANY: Types = Types(127);
    const EXP: Types = Types::EXPREF;
    let s = |inputs: &'static [Types], returns: Types| Signature {
        inputs,
        variadic: false,
        returns: Some(returns),
    };
    Some(match name {
        "abs" | "ceil" | "floor" => s(&[NUM], NUM),
        "avg" => s(&[ARR], NUM.or(Types::NULL)),
        "contains" => s(&[Types(STR.0 | ARR.0), ANY], Types::BOOL),
        "ends_with" | "starts_with" => s(&[STR, STR], Types::BOOL),
        "join" => s(&[STR, ARR], STR),
        "keys" | "values" => s(&[OBJ], ARR),
        "length" => s(&[Types(ARR.0 | OBJ.0 | STR.0)], NUM),
        "map" => s(&[EXP, ARR], ARR),
        "max" | "min" => s(&[ARR], Types(NUM.0 | STR.0 | Types::NULL.0)),
        "max_by" | "min_by" => s(&[ARR, EXP], Types::ANY),
        "merge" => Signature {
            inputs: &[OBJ],
            variadic: true,
            returns: Some(OBJ),
        },
        "not_null" => Signature {
            inputs: &[ANY],
            variadic: true,
            returns: Some(Types::ANY),
        },
        "reverse" => Signature {
            inputs: &[Types(ARR.0 | STR.0)],
            variadic: false,
            returns: None,
        },
        "sort" => s(&[ARR], ARR),
        "sort_by" => Signature {
            inputs: &[ARR, EXP],
            variadic: false,
            returns: None,
        },
        "sum" => s(&[ARR], NUM),
        "to_array" => s(&[ANY], ARR),
        "to_number" => s(&[ANY], NUM.or(Types::NULL)),
        "to_string" | "type" => s(&[ANY], STR),
        _ => return None,
    })
}

/// Why `ast` cannot be applied to any result matching `schema` (the tool's payload schema), or
/// `None` when it may be (module docs).
pub(crate) fn check(ast: &Ast, schema: &Value) -> Option<String> {
    let mut problems = Vec::new();
    yields(ast, &Yield::from_schema(schema), &mut problems);
    problems.into_iter().next()
}

/// What `ast` yields on a value that yields `on`, recording each certain failure.
fn yields<'s>(ast: &Ast, on: &Yield<'s>, problems: &mut Vec<String>) -> Yield<'s> {
    let maybe_null = |types: Types| {
        if on.types.has(Types::NULL) {
            types.or(Types::NULL)
        } else {
            types
        }
    };
    match ast {
        Ast::Identity { .. } => on.clone(),
        Ast::Field { name, .. } => field(on, name),
        Ast::Subexpr { lhs, rhs, .. } => {
            let left = yields(lhs, on, problems);
            yields(rhs, &left, problems)
        }
        Ast::Index { .. } => {
            let mut got = item(on);
            got.types = got.types.or(Types::NULL);
            if !on.types.has(Types::ARRAY) {
                return Yield::of(Types::NULL);
            }
            got
        }
        Ast::Slice { step, offset, .. } => {
            if *step == 0 {
                problems.push(format!(
                    "a slice's step cannot be 0 (at column {})",
                    offset + 1
                ));
            }
            if !on.types.has(Types::ARRAY) {
                return Yield::of(Types::NULL);
            }
            Yield {
                types: Types::ARRAY.or(Types::NULL),
                schema: on.schema,
            }
        }
        Ast::Projection { lhs, rhs, .. } => {
            let left = yields(lhs, on, problems);
            if !left.types.has(Types::ARRAY) {
                // Not a list: the projection yields null, and its right side never runs.
                return Yield::of(Types::NULL);
            }
            yields(rhs, &item(&left), problems);
            Yield::of(Types::ARRAY.or(Types::NULL))
        }
        Ast::Flatten { node, .. } => {
            let inner = yields(node, on, problems);
            if !inner.types.has(Types::ARRAY) {
                return Yield::of(Types::NULL);
            }
            // Items that are never arrays are kept as they are: the same list.
            let kept = inner.schema.is_some() && !item(&inner).types.has(Types::ARRAY);
            Yield {
                types: Types::ARRAY.or(Types::NULL),
                schema: if kept { inner.schema } else { None },
            }
        }
        Ast::ObjectValues { node, .. } => {
            let inner = yields(node, on, problems);
            if !inner.types.has(Types::OBJECT) {
                return Yield::of(Types::NULL);
            }
            Yield::of(Types::ARRAY.or(Types::NULL))
        }
        Ast::MultiList { elements, .. } => {
            for e in elements {
                yields(e, on, problems);
            }
            Yield::of(maybe_null(Types::ARRAY))
        }
        Ast::MultiHash { elements, .. } => {
            for kv in elements {
                yields(&kv.value, on, problems);
            }
            Yield::of(maybe_null(Types::OBJECT))
        }
        Ast::Literal { value, .. } => {
            use jmespath::Variable as V;
            Yield::of(match &**value {
                V::Null => Types::NULL,
                V::Bool(_) => Types::BOOL,
                V::Number(_) => Types::NUMBER,
                V::String(_) => Types::STRING,
                V::Array(_) => Types::ARRAY,
                V::Object(_) => Types::OBJECT,
                V::Expref(_) => Types::EXPREF,
            })
        }
        Ast::Comparison { lhs, rhs, .. } => {
            yields(lhs, on, problems);
            yields(rhs, on, problems);
            Yield::of(Types::BOOL.or(Types::NULL))
        }
        Ast::Not { node, .. } => {
            yields(node, on, problems);
            Yield::of(Types::BOOL)
        }
        Ast::And { lhs, rhs, .. } | Ast::Or { lhs, rhs, .. } => {
            let left = yields(lhs, on, problems);
            let right = yields(rhs, on, problems);
            Yield::of(left.types.or(right.types))
        }
        Ast::Condition {
            predicate, then, ..
        } => {
            yields(predicate, on, problems);
            let mut got = yields(then, on, problems);
            got.types = got.types.or(Types::NULL);
            got
        }
        Ast::Expref { ast, .. } => {
            // Checked where a function applies it, on what it is applied to (below); an
            // expression reference passed where none is taken is the function's problem.
            let _ = ast;
            Yield::of(Types::EXPREF)
        }
        Ast::Function {
            name, args, offset, ..
        } => function(name, args, *offset, on, problems),
    }
}

/// What a call of function `name` yields, recording why it must fail if it must.
fn function<'s>(
    name: &str,
    args: &[Ast],
    offset: usize,
    on: &Yield<'s>,
    problems: &mut Vec<String>,
) -> Yield<'s> {
    let column = offset + 1;
    let got: Vec<Yield<'s>> = args.iter().map(|a| yields(a, on, problems)).collect();
    let Some(signature) = signature(name) else {
        problems.push(format!(
            "there is no function `{name}` (at column {column}); JMESPath's functions are abs, \
             avg, ceil, contains, ends_with, floor, join, keys, length, map, max, max_by, merge, \
             min, min_by, not_null, reverse, sort, sort_by, starts_with, sum, to_array, \
             to_number, to_string, type and values"
        ));
        return Yield::any();
    };
    let expected = signature.inputs.len();
    let arity_ok = if signature.variadic {
        got.len() >= expected
    } else {
        got.len() == expected
    };
    if !arity_ok {
        problems.push(format!(
            "`{name}` takes {}{expected} argument{}, and is given {} (at column {column})",
            if signature.variadic { "at least " } else { "" },
            if expected == 1 { "" } else { "s" },
            got.len()
        ));
        return Yield::any();
    }
    for (i, arg) in got.iter().enumerate() {
        let accepted = signature.inputs[i.min(expected - 1)];
        if !arg.types.has(accepted) {
            problems.push(format!(
                "`{name}` takes {} as its argument {}, and it is always {} here (by the tool's \
                 output schema) (at column {column})",
                accepted.words(),
                i + 1,
                arg.types.words()
            ));
        }
    }
    // The expression a function applies to each item of its array, checked on those items.
    let applied = match name {
        "map" => Some((0, 1)),
        "sort_by" | "max_by" | "min_by" => Some((1, 0)),
        _ => None,
    };
    if let Some((expref, list)) = applied
        && let Some(Ast::Expref { ast, .. }) = args.get(expref)
    {
        yields(ast, &item(&got[list]), problems);
    }
    match signature.returns {
        Some(types) => Yield::of(types),
        None => Yield {
            types: got[0].types,
            schema: got[0].schema,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "distance": {"type": "number"},
                "label": {"type": "string"},
                "note": {"type": ["string", "null"]},
                "segments": {"type": "array", "items": {
                    "type": "object",
                    "properties": {"length": {"type": "number"}, "name": {"type": "string"}},
                    "required": ["length", "name"],
                    "additionalProperties": false
                }},
                "mode": {"enum": ["fast", "slow"]},
                "extra": {}
            },
            "required": ["distance", "segments", "label", "mode"],
            "additionalProperties": false
        })
    }

    fn verdict(expression: &str) -> Option<String> {
        let compiled = jmespath::compile(expression).unwrap();
        check(compiled.as_ast(), &schema())
    }

    #[test]
    fn expressions_that_fail_on_every_result_are_refused() {
        for (expression, says) in [
            (
                "abs(segments)",
                "`abs` takes a number as its argument 1, and it is always an array here",
            ),
            ("abs(label)", "always a string"),
            (
                "length(distance)",
                "`length` takes a string, an array or an object",
            ),
            ("segments[].abs(name)", "always a string"),
            ("sum(distance)", "`sum` takes an array"),
            ("keys(segments)", "`keys` takes an object"),
            ("map(&abs(name), segments)", "always a string"),
            ("sort_by(segments, &abs(name))", "always a string"),
            ("sort_by(segments, name)", "an expression reference"),
            ("length(&distance)", "always an expression reference"),
            ("abs(missing)", "always null"),
            ("segments[0].missing.abs(@)", "always null"),
            ("length(mode) || abs(label)", "`abs`"),
            (
                "filter_missing_fn(segments)",
                "there is no function `filter_missing_fn`",
            ),
            (
                "abs(distance, distance)",
                "`abs` takes 1 argument, and is given 2",
            ),
            ("merge()", "takes at least 1 argument"),
            ("segments[::0]", "a slice's step cannot be 0"),
            ("starts_with(label, distance)", "argument 2"),
        ] {
            let got = verdict(expression).unwrap_or_else(|| panic!("{expression} let through"));
            assert!(got.contains(says), "{expression}: {got}");
            assert!(got.contains("at column"), "{got}");
        }
    }

    #[test]
    fn expressions_that_may_work_are_let_through() {
        for expression in [
            "distance",
            "abs(distance)",
            "segments[].length",
            "sum(segments[].length)",
            "max_by(segments, &length).name",
            "sort_by(segments, &name)[0]",
            "length(segments)",
            "length(note)", // a string or null: fails only for null
            "abs(extra)",   // any value
            "{d: distance, n: length(segments)}",
            "segments[?length > `2`].name",
            "reverse(label)",
            "to_number(label)",
            "not_null(note, label)",
            "join(', ', segments[].name)",
            "contains(segments[].name, 'a')",
            "type(@)",
            "abs(to_number(label))",
            "length(keys(@))",
            "values(@)[0]",
            "*.length",
            "segments[*].abs(length)",
        ] {
            assert_eq!(verdict(expression), None, "{expression}");
        }
        // Without a schema worth reading, only what fails for any value is refused.
        let anything = json!({});
        for expression in ["abs(x)", "length(a.b)", "sum(@)"] {
            let compiled = jmespath::compile(expression).unwrap();
            assert_eq!(check(compiled.as_ast(), &anything), None, "{expression}");
        }
        let compiled = jmespath::compile("nope(x)").unwrap();
        assert!(check(compiled.as_ast(), &anything).is_some());
    }
}
