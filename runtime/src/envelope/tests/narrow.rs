//! An operator's narrowing: it may only take room away.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use super::super::{Kind, narrow_file};
use super::{arm, ball, cube, named, unnamed};

#[test]
fn a_narrowing_adds_shapes_and_tightens_limits() {
    let arm = arm();
    let narrowed = arm
        .narrow(&json!({
            "allow": [{"box": {"min": [-500, -500, 0], "max": [500, 500, 800]}}],
            "keepOut": [{"name": "desk", "sphere": {"center": [400, -400, 200], "radius": 100}}],
            "maxStep": 300,
            "toolRadius": 50,
            "unit": "mm",
            "frame": "base_link"
        }))
        .unwrap();
    let mut expected = arm.clone();
    expected
        .allow
        .push(unnamed(cube([-500.0, -500.0, 0.0], [500.0, 500.0, 800.0])));
    expected
        .keep_out
        .push(named("desk", ball([400.0, -400.0, 200.0], 100.0)));
    expected.max_step = Some(300.0);
    expected.tool_radius = 50.0;
    assert_eq!(narrowed, expected);
    // What the declared envelope allowed, the narrowed one refuses.
    let p = [[700.0, 0.0, 300.0]];
    assert!(arm.check(None, &p, Kind::Target).is_ok());
    assert!(narrowed.check(None, &p, Kind::Target).is_err());
    // An empty entry changes nothing; equal limits are allowed.
    assert_eq!(arm.narrow(&json!({})), Ok(arm.clone()));
    assert_eq!(
        arm.narrow(&json!({"maxStep": 600, "toolRadius": 40})),
        Ok(arm.clone())
    );
}

#[test]
fn any_step_limit_narrows_an_unbounded_one() {
    let mut arm = arm();
    arm.max_step = None;
    assert_eq!(
        arm.narrow(&json!({"maxStep": 5000})).map(|e| e.max_step),
        Ok(Some(5000.0))
    );
}

#[test]
fn a_narrowing_that_would_widen_is_refused_naming_the_limit() {
    let arm = arm();
    assert_eq!(
        arm.narrow(&json!({"maxStep": 800, "toolRadius": 20, "unit": "m", "frame": "world"})),
        Err(
            "unit `m` differs from the declared `mm`: a narrowing is written in the published \
             unit; frame `world` differs from the declared `base_link`: a narrowing is written \
             in the published frame; maxStep 800 would widen the declared 600 mm (a narrowing \
             may only lower it); toolRadius 20 would shrink the declared 40 mm (a narrowing may \
             only keep or enlarge it)"
                .to_owned()
        )
    );
    assert_eq!(
        arm.narrow(&json!({"maxstep": 100, "keepOut": [{"box": {"min": [0, 0, 0]}}]})),
        Err(
            "maxstep: unknown key; expected one of allow, keepOut, maxStep, toolRadius, unit, \
             frame (did you mean `maxStep`?); keepOut[0].box: missing `max`"
                .to_owned()
        )
    );
    // Well formed but invalid: a keep-out without a name, allow shapes with nothing in common.
    let err = arm
        .narrow(&json!({
            "allow": [{"sphere": {"center": [5000, 0, 0], "radius": 10}}],
            "keepOut": [{"sphere": {"center": [0, 0, 0], "radius": 10}}]
        }))
        .unwrap_err();
    assert_eq!(
        err,
        "the narrowed envelope is not valid: keep-out 2 (sphere) has no name: \
         every keep-out needs one (refusals name it)"
    );
    let err = arm
        .narrow(&json!({"allow": [{"sphere": {"center": [5000, 0, 0], "radius": 100}}]}))
        .unwrap_err();
    assert!(
        err.starts_with(
            "the narrowed envelope is not valid: allow shape 0 (sphere `reach`) \
             and allow shape 2 (sphere) have no point in common"
        ),
        "{err}"
    );
    assert_eq!(
        arm.narrow(&json!(["maxStep"])),
        Err("expected an object, found [\"maxStep\"]".to_owned())
    );
}

#[test]
fn the_file_narrows_each_resource_by_name() {
    let declared = BTreeMap::from([("arm".to_owned(), arm()), ("gripper".to_owned(), arm())]);
    let narrowed = narrow_file(&declared, &json!({"arm": {"maxStep": 100}})).unwrap();
    assert_eq!(narrowed["arm"].max_step, Some(100.0));
    assert_eq!(narrowed["gripper"], declared["gripper"]);
    assert_eq!(narrow_file(&declared, &json!({})), Ok(declared.clone()));

    let err = narrow_file(
        &declared,
        &json!({"amr": {}, "arm": {"maxStep": 900}, "table": {}}),
    )
    .unwrap_err();
    assert_eq!(
        err,
        "`amr`: no resource of that name declares an envelope (did you mean `arm`?); those \
         that do: `arm`, `gripper`\n\
         maxStep 900 would widen the declared 600 mm of resource `arm` (a narrowing may only \
         lower it)\n\
         `table`: no resource of that name declares an envelope; those that do: `arm`, \
         `gripper`"
    );
    let err = narrow_file(&declared, &json!({"arm": {"keepOut": [{"sphere": {}}]}})).unwrap_err();
    assert_eq!(
        err,
        "arm.keepOut[0].sphere: missing `center`; arm.keepOut[0].sphere: missing `radius`"
    );
    let err = narrow_file(
        &declared,
        &json!({"arm": {"allow": [{"sphere": {"center": [5000, 0, 0], "radius": 100}}]}}),
    )
    .unwrap_err();
    assert!(
        err.starts_with("the narrowed envelope of resource `arm` is not valid: "),
        "{err}"
    );
    assert_eq!(
        narrow_file(&declared, &json!([])),
        Err("the envelope narrowing file must be an object of resource names, found []".to_owned())
    );
    assert!(
        narrow_file(&BTreeMap::new(), &json!({"arm": {}}))
            .unwrap_err()
            .ends_with("no resource declares one")
    );
}

/// Issue 43: a key the operator wrote twice, at any depth, is refused with its name and line (a
/// plain parse keeps the last one: `{"arm": {"allow": [..]}, "arm": {}}` lost the narrowing).
#[test]
fn a_repeated_key_in_the_file_is_refused_naming_it_and_its_line() {
    use crate::envelope::parse_strict;
    for (text, key, line) in [
        (
            "{\"arm\": {\"allow\": [{\"box\": {\"min\": [0, 0, 0], \"max\": [1, 1, 1]}}]},\n \"arm\": {}}",
            "arm",
            2,
        ),
        (
            "{\"arm\": {\n  \"maxStep\": 10,\n  \"maxStep\": 900\n}}",
            "maxStep",
            3,
        ),
        (
            "{\"arm\": {\"allow\": [{\"box\": {\"min\": [0, 0, 0],\n \"max\": [1, 1, 1], \"max\": [9, 9, 9]}}]}}",
            "max",
            2,
        ),
    ] {
        let e = parse_strict(text.as_bytes()).unwrap_err();
        assert!(e.contains(&format!("the key `{key}` appears twice")), "{e}");
        assert!(e.contains(&format!("at line {line} ")), "{e}");
    }
    // The same key in two objects is not repeated; what a plain parse reads, this reads.
    let text = r#"{"arm": {"allow": [{"box": {"min": [0, 0, 0], "max": [1, 1, 1]}}, {"box": {"min": [0, 0, 0], "max": [2, 2, 2.5]}}], "maxStep": 1e2}}"#;
    assert_eq!(
        parse_strict(text.as_bytes()).unwrap(),
        serde_json::from_str::<Value>(text).unwrap()
    );
    assert!(parse_strict(b"{\"arm\": }").unwrap_err().contains("line 1"));
}
