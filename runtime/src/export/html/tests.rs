use serde_json::json;

use super::*;

fn tool(value: Value) -> Tool {
    serde_json::from_value(value).unwrap()
}

fn page(tools: &[Tool]) -> String {
    let operations = vec![Operation::default(); tools.len()];
    render(&PageSource {
        name: "arm",
        version: "1.2.3",
        title: Some("Robot <arm>"),
        instructions: None,
        tools,
        operations: &operations,
        resources: &[],
        client_rate_limit: None,
        dialects: None,
    })
}

#[test]
fn every_parameter_and_field_has_its_anchor() {
    let t = tool(json!({
        "name": "plan",
        "description": "Plan a path.\n\nMore words with `code`.",
        "inputSchema": {"type": "object", "properties": {
            "waypoints": {"type": "array", "items": {"type": "object", "properties": {
                "x": {"type": "number", "x-unit": "mm", "minimum": -850, "maximum": 850},
                "a.b": {"type": "string"}
            }, "required": ["x"]}},
            "speed": {"type": "number", "minimum": 0.1, "maximum": 1.0, "default": 0.5}
        }, "required": ["waypoints"]},
        "outputSchema": {"type": "object", "properties": {
            "position": {"type": "object", "properties": {"x": {"type": "number"}}}
        }}
    }));
    let html = page(&[t]);
    for id in [
        "id=\"plan\"",
        "id=\"plan.waypoints\"",
        "id=\"plan.waypoints[].x\"",
        "id=\"plan.waypoints[].a%2Eb\"",
        "id=\"plan.speed\"",
        "id=\"plan:result\"",
        "id=\"plan:result.position.x\"",
        "id=\"plan:example\"",
    ] {
        assert!(html.contains(id), "{id} missing");
    }
    // The range of `speed` as a bar with its default at 44.4 % of it.
    assert!(
        html.contains("<i style=\"left:44.4%\">"),
        "no default marker"
    );
    assert!(html.contains("<title>Robot &lt;arm&gt;: tools</title>"));
    assert!(html.contains("<p>More words with <code>code</code>.</p>"));
}

#[test]
fn the_page_fetches_nothing() {
    let html = page(&[tool(
        json!({"name": "t", "inputSchema": {"type": "object"}}),
    )]);
    for needle in [
        "src=",
        "@import",
        "url(http",
        "<link rel=\"stylesheet",
        "fetch(",
        "XMLHttpRequest",
    ] {
        assert!(!html.contains(needle), "{needle}");
    }
    // The one <link> is an empty inline icon, so the browser asks for no favicon.
    assert_eq!(html.matches("<link").count(), 1);
    assert!(html.contains("<link rel=\"icon\" href=\"data:,\">"));
}

#[test]
fn dialect_drops_are_listed() {
    let t = tool(json!({
        "name": "grip",
        "inputSchema": {"type": "object", "properties": {
            "force": {"type": "number", "x-unit": "N", "minimum": 5, "maximum": 30, "default": 15},
            "level": {"type": "integer", "enum": [1, 2, 3]}
        }, "required": ["level"]}
    }));
    let html = page(&[t]);
    let details = &html[html.find("<details").unwrap()..html.find("</details>").unwrap()];
    assert!(details.contains("OpenAI (strict): not sent as keywords (units, limits and defaults are said in the description instead): <code>force</code>: <code>x-unit</code>, <code>default</code>"), "{details}");
    assert!(
        details.contains("optional parameters are required and nullable"),
        "{details}"
    );
    assert!(
        details.contains("the values of <code>level</code> are in words only"),
        "{details}"
    );
}

#[test]
fn result_arguments_have_anchors_of_their_own() {
    let t = tool(json!({
        "name": "scan",
        "inputSchema": {"type": "object", "properties": {
            "rate": {"type": "number"},
            "jmespath": {"type": "string", "minLength": 1, "description": "A JMESPath expression."},
            "summary": {"type": "boolean", "default": false, "description": "A summary instead."}
        }},
        "_meta": {"io.toolwright/resultArguments": ["jmespath", "summary"]}
    }));
    let html = page(&[t]);
    for id in ["scan.rate", "scan.jmespath", "scan.summary"] {
        assert_eq!(html.matches(&format!("id=\"{id}\"")).count(), 1, "{id}");
        assert!(html.contains(&format!("<a href=\"#{id}\"><code>")), "{id}");
    }
    // After the tool's own parameters, and linked from the sentence that says what they are.
    assert!(html.find("id=\"scan.rate\"") < html.find("id=\"scan.jmespath\""));
    assert!(html.contains(
        "<p>Also takes <a href=\"#scan.jmespath\"><code>jmespath</code></a>, <a \
         href=\"#scan.summary\"><code>summary</code></a> for its result"
    ));
    // A tool that takes only them.
    let only = tool(json!({
        "name": "state",
        "inputSchema": {"type": "object", "properties": {"jmespath": {"type": "string"}}},
        "_meta": {"io.toolwright/resultArguments": ["jmespath"]}
    }));
    let html = page(&[only]);
    assert!(html.contains("id=\"state.jmespath\""));
    assert!(!html.contains("<p>None.</p>"));
    assert!(html.contains("<p>Takes <a href=\"#state.jmespath\">"));
}
