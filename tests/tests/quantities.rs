//! uom quantities (the `uom` feature) as parameters, fields and outputs, through rmcp's client:
//! published in their SI unit or the declared one, converted on the way in and out, ranges in the
//! published unit, and exported like any other number.

mod common;

use common::{call, connect, text};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use toolwright::export::{self, Format, drift};
use toolwright::{ToolError, ToolSchema, Toolbox, tool, tools};
use uom::si::angle::{degree, radian};
use uom::si::f64::{Angle, Force, Length, Mass, Time, Torque, Velocity};
use uom::si::force::newton;
use uom::si::length::{meter, millimeter};
use uom::si::mass::gram;
use uom::si::time::second;
use uom::si::torque::newton_meter;
use uom::si::velocity::millimeter_per_second;

/// Where to aim the tool point.
#[derive(Debug, Serialize, Deserialize, ToolSchema)]
struct Target {
    /// Height above the table.
    #[param(unit = "mm", range = 0.0..=500.0)]
    z: Length,
    /// Pitch of the approach.
    #[param(unit = "deg", range = -90.0..=90.0)]
    pitch: Angle,
    /// Wrist torque limit.
    torque: Torque,
}

/// What a body received, in SI values (uom's storage).
#[derive(Debug, PartialEq, Serialize, Deserialize, ToolSchema)]
struct Seen {
    /// The values, in SI units, in parameter order.
    si: Vec<f64>,
    /// The optional value, in SI units, if given.
    optional: Option<f64>,
}

/// Reach out and grip.
#[tool]
fn reach(
    /// How far to reach.
    #[param(unit = "mm", range = 0.0..=500.0)]
    reach: Length,
    /// Grip force.
    #[param(range = 0.0..=40.0)]
    force: Force,
    /// Approach speed.
    #[param(unit = "mm/s", default = 100.0)]
    speed: Velocity,
    /// Mass of the payload, if known.
    #[param(unit = "g")]
    payload: Option<Mass>,
    /// Heights of the waypoints.
    #[param(unit = "mm", range = 0.0..=500.0)]
    heights: Vec<Length>,
) -> Seen {
    let mut si = vec![reach.value, force.value, speed.value];
    si.extend(heights.iter().map(|h| h.value));
    Seen {
        si,
        optional: payload.map(|m| m.value),
    }
}

/// Aim the tool point.
#[tool]
fn aim(
    /// The target.
    target: Target,
) -> Seen {
    Seen {
        si: vec![target.z.value, target.pitch.value, target.torque.value],
        optional: None,
    }
}

/// The last motion.
#[derive(Debug, Serialize, Deserialize, ToolSchema)]
struct Motion {
    /// Distance travelled.
    #[param(unit = "mm")]
    distance: Length,
    /// Time it took.
    #[param(unit = "ms")]
    took: Time,
    /// Grip force at the end.
    force: Force,
    /// Heading at the end, if known.
    #[param(unit = "deg")]
    heading: Option<Angle>,
}

/// Report the last motion.
#[tool]
fn last_motion(
    /// Whether the heading is known.
    heading_known: bool,
) -> Motion {
    Motion {
        distance: Length::new::<meter>(0.25),
        took: Time::new::<second>(1.5),
        force: Force::new::<newton>(12.0),
        heading: heading_known.then(|| Angle::new::<radian>(std::f64::consts::FRAC_PI_2)),
    }
}

/// Measure the gap.
#[tool]
fn gap() -> Result<Length, ToolError> {
    Ok(Length::new::<millimeter>(42.0))
}

fn toolbox() -> Toolbox {
    tools![reach, aim, last_motion, gap].build().unwrap()
}

fn tool_json(toolbox: &Toolbox, name: &str) -> Value {
    let tool = toolbox.tools().iter().find(|t| t.name == name).unwrap();
    serde_json::to_value(tool).unwrap()
}

#[tokio::test]
async fn a_length_sent_in_mm_arrives_in_meters() {
    let client = connect(toolbox()).await;
    let result = call(
        &client,
        "reach",
        json!({"reach": 250, "force": 12.5, "payload": 500, "heights": [100, 300]}),
    )
    .await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    let seen: Seen = serde_json::from_value(result.structured_content.unwrap()).unwrap();
    let expected = [
        Length::new::<millimeter>(250.0).value,
        Force::new::<newton>(12.5).value,
        Velocity::new::<millimeter_per_second>(100.0).value, // the default, in mm/s
        Length::new::<millimeter>(100.0).value,
        Length::new::<millimeter>(300.0).value,
    ];
    assert_eq!(seen.si, expected);
    assert_eq!(seen.si[..3], [0.25, 12.5, 0.1]);
    assert_eq!(seen.optional, Some(Mass::new::<gram>(500.0).value));
    assert_eq!(seen.optional, Some(0.5));

    let result = call(
        &client,
        "reach",
        json!({"reach": 0, "force": 1, "heights": []}),
    )
    .await;
    let seen: Seen = serde_json::from_value(result.structured_content.unwrap()).unwrap();
    assert_eq!(seen.optional, None);

    let result = call(
        &client,
        "aim",
        json!({"target": {"z": 50, "pitch": 90, "torque": 2}}),
    )
    .await;
    let seen: Seen = serde_json::from_value(result.structured_content.unwrap()).unwrap();
    assert_eq!(
        seen.si,
        [
            Length::new::<millimeter>(50.0).value,
            Angle::new::<degree>(90.0).value,
            Torque::new::<newton_meter>(2.0).value,
        ]
    );
    assert_eq!(seen.si[1], std::f64::consts::FRAC_PI_2);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn out_of_range_is_refused_naming_the_path_and_the_published_unit() {
    let client = connect(toolbox()).await;
    let result = call(
        &client,
        "reach",
        json!({"reach": 900, "force": 50, "heights": [100, 700]}),
    )
    .await;
    assert_eq!(result.is_error, Some(true));
    let refused = text(&result);
    for line in [
        "- reach: must be between 0 and 500 mm, got 900",
        "- force: must be between 0 and 40 N, got 50",
        "- heights[1]: must be between 0 and 500 mm, got 700",
    ] {
        assert!(refused.contains(line), "{line:?} not in {refused}");
    }
    let result = call(
        &client,
        "aim",
        json!({"target": {"z": 600, "pitch": -100, "torque": 1}}),
    )
    .await;
    let text = text(&result);
    for line in [
        "- target.z: must be between 0 and 500 mm, got 600",
        "- target.pitch: must be between -90 and 90 deg, got -100",
    ] {
        assert!(text.contains(line), "{line:?} not in {text}");
    }
    client.cancel().await.unwrap();
}

#[test]
fn units_are_published_declared_or_si() {
    let toolbox = toolbox();
    let reach = tool_json(&toolbox, "reach");
    let props = &reach["inputSchema"]["properties"];
    assert_eq!(
        props["reach"],
        json!({"type": "number", "x-unit": "mm", "description": "How far to reach, in millimeters (mm).", "minimum": 0.0, "maximum": 500.0})
    );
    assert_eq!(
        props["force"],
        json!({"type": "number", "x-unit": "N", "description": "Grip force, in newtons (N).", "minimum": 0.0, "maximum": 40.0})
    );
    assert_eq!(props["speed"]["x-unit"], "mm/s");
    assert_eq!(props["speed"]["default"], json!(100.0));
    assert_eq!(props["payload"]["x-unit"], "g");
    assert_eq!(
        props["heights"],
        json!({"type": "array", "items": {"type": "number", "x-unit": "mm", "minimum": 0.0, "maximum": 500.0}, "description": "Heights of the waypoints, in millimeters (mm)."})
    );
    assert_eq!(
        reach["inputSchema"]["required"],
        json!(["reach", "force", "heights"])
    );
    let aim = tool_json(&toolbox, "aim");
    let target = &aim["inputSchema"]["properties"]["target"]["properties"];
    assert_eq!(target["z"]["x-unit"], "mm");
    assert_eq!(target["pitch"]["x-unit"], "deg");
    assert_eq!(
        target["torque"],
        json!({"type": "number", "x-unit": "N·m", "description": "Wrist torque limit, in newton-meters (N·m)."})
    );
    let listed = serde_json::to_string(toolbox.tools()).unwrap();
    assert!(
        !listed.contains("x-toolwright"),
        "private keywords published: {listed}"
    );
}

#[tokio::test]
async fn outputs_are_published_and_sent_in_their_units() {
    let toolbox = toolbox();
    let motion = tool_json(&toolbox, "last_motion");
    let props = &motion["outputSchema"]["properties"];
    assert_eq!(props["distance"]["x-unit"], "mm");
    assert_eq!(props["took"]["x-unit"], "ms");
    assert_eq!(props["force"]["x-unit"], "N");
    assert_eq!(props["heading"]["x-unit"], "deg");
    assert_eq!(props["heading"]["type"], json!(["number", "null"]));
    let gap = tool_json(&toolbox, "gap");
    assert_eq!(
        gap["outputSchema"]["properties"]["result"],
        json!({"type": "number", "x-unit": "m"})
    );

    let client = connect(toolbox).await;
    let result = call(&client, "last_motion", json!({"heading_known": true})).await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    let heading = Angle::new::<radian>(std::f64::consts::FRAC_PI_2).get::<degree>();
    assert_eq!(heading, 90.0);
    assert_eq!(
        result.structured_content,
        Some(json!({"distance": 250.0, "took": 1500.0, "force": 12.0, "heading": heading}))
    );
    let result = call(&client, "last_motion", json!({"heading_known": false})).await;
    assert_eq!(
        result.structured_content,
        Some(json!({"distance": 250.0, "took": 1500.0, "force": 12.0, "heading": null}))
    );
    let result = call(&client, "gap", json!({})).await;
    assert_eq!(result.structured_content, Some(json!({"result": 0.042})));
    client.cancel().await.unwrap();
}

#[test]
fn exports_pass_their_dialect_checks_and_keep_the_units() {
    let toolbox = toolbox();
    let tools = toolbox.tools();
    for (format, text) in common::checked_dialect_exports(tools) {
        assert!(text.contains("millimeters (mm)"), "{format:?}: {text}");
    }
    let markdown = export::render(tools, Format::Markdown);
    assert!(
        markdown.contains("How far to reach, in millimeters (mm)."),
        "{markdown}"
    );
    assert!(markdown.contains("newton-meters (N·m)"), "{markdown}");
}

mod in_meters {
    use super::*;

    /// Reach out and grip.
    #[tool]
    pub fn reach(
        /// How far to reach.
        #[param(range = 0.0..=0.5)]
        reach: Length,
        /// Grip force.
        #[param(range = 0.0..=40.0)]
        force: Force,
        /// Approach speed.
        #[param(unit = "mm/s", default = 100.0)]
        speed: Velocity,
        /// Mass of the payload, if known.
        #[param(unit = "g")]
        payload: Option<Mass>,
        /// Heights of the waypoints.
        #[param(unit = "mm", range = 0.0..=500.0)]
        heights: Vec<Length>,
    ) -> Seen {
        super::reach(reach, force, speed, payload, heights)
    }
}

#[test]
fn a_changed_unit_is_a_breaking_change() {
    let before = tools![reach].build().unwrap().tools().to_vec();
    let after = tools![in_meters::reach].build().unwrap().tools().to_vec();
    let report = drift::compare(&before, &after);
    assert!(report.is_breaking(), "{report}");
    let lines: Vec<String> = report.to_string().lines().map(str::to_owned).collect();
    assert_eq!(
        lines[..4],
        [
            "2 breaking changes, 1 compatible change to the published tools:",
            "- breaking: `reach` reach: unit changed from \"mm\" to \"m\": the same number now means something else. Instead, keep `reach` as published and add the new version as `reach_v2`.",
            "- breaking: `reach` reach: maximum lowered from 500 mm to 0.5 m: calls that were valid before can now be refused. Instead, keep `reach` as published and add the new version as `reach_v2`.",
            "- compatible: `reach` reach: description changed (text only).",
        ],
        "{lines:#?}"
    );
}

/// A gripper.
#[derive(Debug, Serialize, Deserialize, ToolSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Gripper {
    /// Two fingers.
    Parallel {
        /// Opening.
        #[param(unit = "mm")]
        width: Length,
    },
    /// A vacuum cup.
    Suction {
        /// Cup diameter.
        diameter: Length,
    },
}

/// Pick a gripper.
#[tool]
fn pick(
    /// The gripper.
    gripper: Gripper,
) -> String {
    format!("{gripper:?}")
}

#[test]
fn a_declared_unit_inside_an_enum_is_refused_when_the_toolbox_is_built() {
    let err = Toolbox::try_from_tools((), toolwright::tool_defs![pick]).unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains(
            "tool `pick`: input: gripper.width: a quantity in a unit other than its SI unit cannot be inside `oneOf`"
        ),
        "{text}"
    );
}

/// Push along a path.
#[tool]
fn push(
    /// How hard.
    #[param(unit = "kN")]
    force: Force,
    /// Legs of the path.
    #[param(unit = "km")]
    legs: Vec<Length>,
) -> Seen {
    Seen {
        si: [force.value]
            .into_iter()
            .chain(legs.iter().map(|l| l.value))
            .collect(),
        optional: None,
    }
}

#[tokio::test]
async fn a_number_that_overflows_its_conversion_is_refused_never_passed_unconverted() {
    let client = connect(tools![push].build().unwrap()).await;
    // 1e306 kN is 1e309 N: not a finite f64. Without the check the body got 1e306 "N".
    for (arguments, path) in [
        (json!({"force": 1e306, "legs": []}), "force"),
        (json!({"force": 1, "legs": [2, 1e306]}), "legs[1]"),
    ] {
        let result = call(&client, "push", arguments).await;
        assert_eq!(result.is_error, Some(true), "{result:?}");
        let refused = text(&result);
        assert!(
            refused.contains(&format!(
                "- {path}: is too large to convert to the unit the tool works in"
            )),
            "{refused}"
        );
    }
    let result = call(&client, "push", json!({"force": 2, "legs": [1.5]})).await;
    assert_eq!(result.is_error, Some(false), "{result:?}");
    assert_eq!(
        result.structured_content.unwrap()["si"],
        json!([2000.0, 1500.0])
    );
    client.cancel().await.unwrap();
}
