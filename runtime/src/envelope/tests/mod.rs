//! The envelope's tests, by topic: `geometry.rs` (distances, exact cases), `check.rs` (the
//! rules and their boundaries), `messages.rs` (what a refusal says, and that what it suggests
//! passes), `declare.rs` (validation, bounding box), `def.rs` (the compile-time checks of a
//! declaration: solids apart, keep-outs met, target bounds), `example.rs` (the point an example
//! call moves to), `json.rs` (the published form),
//! `narrow.rs` (the operator's file) and `properties.rs` (exact distances against dense
//! sampling, checks and their suggestions against the rules).

use super::{Envelope, Point, Shape, Solid};

mod check;
mod declare;
mod def;
mod example;
mod geometry;
mod json;
mod messages;
mod narrow;
mod properties;

fn named(name: &str, solid: Solid) -> Shape {
    Shape {
        name: Some(name.to_owned()),
        solid,
    }
}

fn unnamed(solid: Solid) -> Shape {
    Shape { name: None, solid }
}

fn cube(min: Point, max: Point) -> Solid {
    Solid::Box { min, max }
}

fn ball(center: Point, radius: f64) -> Solid {
    Solid::Sphere { center, radius }
}

fn column(center: [f64; 2], radius: f64, z_min: f64, z_max: f64) -> Solid {
    Solid::Cylinder {
        center,
        radius,
        z_min,
        z_max,
    }
}

/// The robot arm of the examples: a reach sphere within a table-top box, a camera mast and the
/// arm's own base column as keep-outs, a 40 mm tool, steps of at most 600 mm.
fn arm() -> Envelope {
    Envelope {
        frame: "base_link".to_owned(),
        unit: "mm".to_owned(),
        tool_radius: 40.0,
        allow: vec![
            named("reach", ball([0.0, 0.0, 100.0], 850.0)),
            named("table", cube([-900.0, -900.0, 0.0], [900.0, 900.0, 1000.0])),
        ],
        keep_out: vec![
            named(
                "camera_mast",
                cube([-100.0, 350.0, 0.0], [100.0, 450.0, 950.0]),
            ),
            named("base", column([0.0, 0.0], 80.0, 0.0, 300.0)),
        ],
        max_step: Some(600.0),
    }
}

/// One allow box `[-1000, 1000]³` (a point tool, no step limit) around the given keep-outs.
fn open_space(keep_out: Vec<Shape>) -> Envelope {
    Envelope {
        frame: "world".to_owned(),
        unit: "mm".to_owned(),
        tool_radius: 0.0,
        allow: vec![unnamed(cube([-1000.0; 3], [1000.0; 3]))],
        keep_out,
        max_step: None,
    }
}

#[test]
fn the_envelope_is_a_leaf_importing_only_echo_msg_and_holds() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/envelope");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        seen += 1;
        let text = std::fs::read_to_string(&path).unwrap();
        for (i, _) in text.match_indices("crate::") {
            let after = &text[i + "crate::".len()..];
            assert!(
                after.starts_with("echo")
                    || after.starts_with("schema::Msg")
                    || after.starts_with("schema::Holds")
                    || after.starts_with("schema::{Holds, Msg}"),
                "{}: `crate::{}` (the envelope imports only `crate::echo` and the compile-time \
                 check's vocabulary `crate::schema::{{Holds, Msg}}`, both leaves)",
                path.display(),
                &after[..after.len().min(20)]
            );
        }
    }
    assert!(seen >= 2, "{seen} files in {}", dir.display());
}
