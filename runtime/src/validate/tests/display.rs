//! Display.

use super::*;

#[test]
fn display_forms() {
    let v = Violation {
        path: String::new(),
        message: "m".into(),
        hint: None,
    };
    assert_eq!(v.to_string(), "arguments: m");
    let v = Violation {
        path: "a.b".into(),
        message: "m".into(),
        hint: Some("h".into()),
    };
    assert_eq!(v.to_string(), "a.b: m (hint: h)");
}
