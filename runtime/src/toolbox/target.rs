//! Where a tool moves its resource (`#[tool(target = ..)]`, `#[tool(path = ..)]`): the
//! declaration resolved against the published input schema into JSON pointers when the toolbox
//! is built (each coordinate in the envelope's unit, its range within the envelope), published
//! in the tool's `_meta`, and the points of a call read from its validated arguments.

use std::sync::Arc;

use serde_json::{Map, Value};

use crate::contract::TargetDecl;
use crate::envelope::{Envelope, Kind, Refusal};
use crate::exec::policy::Resource;

/// A tool's target in its resource's envelope.
pub(super) struct Target<S> {
    /// The resource it moves (its position and its envelope as checked).
    pub(super) resource: Arc<Resource<S>>,
    /// The envelope as checked (the declared one, narrowed by the operator).
    pub(super) envelope: Arc<Envelope>,
    pointers: Pointers,
}

/// Where the coordinates are in the arguments.
enum Pointers {
    /// One point: the pointers to x, y and z.
    Point([Pointer; 3]),
    /// A list of points: the list, and the pointers to x, y and z inside one item.
    Path { array: Pointer, point: [Pointer; 3] },
}

/// A JSON pointer, as published (`/target_position/x`) and split into its property names once
/// (serde_json's `Value::pointer` splits and unescapes it, allocating, on every call).
struct Pointer {
    text: String,
    names: Box<[String]>,
}

impl Pointer {
    fn new(text: String) -> Self {
        let names = text
            .split('/')
            .skip(1)
            .map(|t| t.replace("~1", "/").replace("~0", "~"))
            .collect();
        Pointer { text, names }
    }

    /// The value it points to in `value` (objects only: targets are properties).
    fn get<'v>(&self, value: &'v Value) -> Option<&'v Value> {
        self.names
            .iter()
            .try_fold(value, |v, name| v.as_object()?.get(name))
    }
}

/// The points of one call, in the envelope's unit: one target (no allocation), or waypoints.
#[derive(Clone)]
pub(super) enum Points {
    One([[f64; 3]; 1]),
    Many(Vec<[f64; 3]>),
}

impl Points {
    fn as_slice(&self) -> &[[f64; 3]] {
        match self {
            Points::One(p) => p,
            Points::Many(v) => v,
        }
    }
}

const AXES: [&str; 3] = ["x", "y", "z"];

impl<S> Target<S> {
    /// The target of `decl` in the input schema `input`, or what is wrong with the declaration:
    /// an argument that is not there or holds no x, y and z, a coordinate without the
    /// envelope's unit, a range wider than the declared envelope allows.
    pub(super) fn resolve(
        decl: TargetDecl,
        input: &Map<String, Value>,
        resource: Arc<Resource<S>>,
        envelope: Arc<Envelope>,
        declared: &Envelope,
    ) -> Result<Self, Vec<String>> {
        let properties = input.get("properties").and_then(Value::as_object);
        let property = |name: &str| properties.and_then(|p| p.get(name));
        let (pointers, coordinates): (Pointers, [Option<&Value>; 3]) = match decl {
            TargetDecl::Params(names) => (
                Pointers::Point(names.map(|n| Pointer::new(format!("/{}", escape(n))))),
                names.map(property),
            ),
            TargetDecl::Point(name) => {
                let schema = property(name).ok_or_else(|| missing(name))?;
                let (inner, coordinates) = point_in(schema).ok_or_else(|| not_a_point(name))?;
                (
                    Pointers::Point(inner.map(|p| Pointer::new(format!("/{}{p}", escape(name))))),
                    coordinates,
                )
            }
            TargetDecl::Path(name) => {
                let schema = property(name).ok_or_else(|| missing(name))?;
                let items = schema
                    .get("items")
                    .filter(|_| schema.get("type") == Some(&Value::from("array")))
                    .ok_or_else(|| {
                        vec![format!(
                            "`path = {name}`: `{name}` is not a list of points (a `Vec` of \
                             points, each with x, y and z)"
                        )]
                    })?;
                let (point, coordinates) = point_in(items).ok_or_else(|| not_a_point(name))?;
                (
                    Pointers::Path {
                        array: Pointer::new(format!("/{}", escape(name))),
                        point: point.map(Pointer::new),
                    },
                    coordinates,
                )
            }
        };
        let mut problems = Vec::new();
        let bounds = declared.bounding_box();
        for (axis, coordinate) in coordinates.iter().enumerate() {
            let Some(schema) = coordinate else {
                problems.push(format!(
                    "`{}` has no {} coordinate in the published schema",
                    decl_name(decl),
                    AXES[axis]
                ));
                continue;
            };
            if !matches!(
                schema.get("type").and_then(Value::as_str),
                Some("number" | "integer")
            ) {
                problems.push(format!(
                    "the target's {} (`{}`) is not a number",
                    AXES[axis],
                    decl_name(decl)
                ));
                continue;
            }
            let unit = schema.get("x-unit").and_then(Value::as_str);
            if unit != Some(declared.unit.as_str()) {
                problems.push(format!(
                    "the target's {} is {}, not in the envelope's unit `{}`: declare it \
                     `#[param(unit = \"{}\")]`",
                    AXES[axis],
                    unit.map_or("without a unit".to_owned(), |u| format!("in `{u}`")),
                    declared.unit,
                    declared.unit
                ));
            }
            let Some((lo, hi)) = bounds else { continue };
            let min = schema.get("minimum").and_then(Value::as_f64);
            let max = schema.get("maximum").and_then(Value::as_f64);
            let (from, to) = (lo[axis], hi[axis]);
            if min.is_some_and(|m| m < from) || max.is_some_and(|m| m > to) {
                problems.push(format!(
                    "the target's {} is published as {}..={}, wider than the envelope allows \
                     ({}..={} {}: its allow shapes' bounding box, less the tool radius): a \
                     published range must not promise what the envelope refuses; declare \
                     `range = {}..={}` or narrower",
                    AXES[axis],
                    min.map_or("-∞".to_owned(), |m| m.to_string()),
                    max.map_or("∞".to_owned(), |m| m.to_string()),
                    from,
                    to,
                    declared.unit,
                    from,
                    to
                ));
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        Ok(Target {
            resource,
            envelope,
            pointers,
        })
    }

    /// The published form, `_meta["io.toolwright/envelope"]`: the envelope, its resource, and
    /// the pointers of the target or the path.
    pub(super) fn publish(&self) -> Value {
        let mut published = self.envelope.to_json();
        if let Value::Object(map) = &mut published {
            let mut first = Map::new();
            first.insert(
                "resource".to_owned(),
                Value::from(&**self.resource.queue.name()),
            );
            first.extend(std::mem::take(map));
            match &self.pointers {
                Pointers::Point(p) => {
                    let p: Vec<&str> = p.iter().map(|p| p.text.as_str()).collect();
                    first.insert("target".to_owned(), Value::from(p));
                }
                Pointers::Path { array, point } => {
                    let point: Vec<&str> = point.iter().map(|p| p.text.as_str()).collect();
                    first.insert(
                        "path".to_owned(),
                        serde_json::json!({"array": array.text, "point": point}),
                    );
                }
            }
            *map = first;
        }
        published
    }

    /// The points of a call, read from its validated arguments (in their published units);
    /// `None` when one is missing or not a number (the validator lets none through).
    pub(super) fn points(&self, args: &Value) -> Option<Points> {
        let read = |value: &Value, pointers: &[Pointer; 3]| -> Option<[f64; 3]> {
            let mut p = [0.0; 3];
            for (i, pointer) in pointers.iter().enumerate() {
                p[i] = pointer.get(value)?.as_f64()?;
            }
            Some(p)
        };
        match &self.pointers {
            Pointers::Point(p) => Some(Points::One([read(args, p)?])),
            Pointers::Path { array, point } => {
                let items = array.get(args)?.as_array()?;
                items
                    .iter()
                    .map(|item| read(item, point))
                    .collect::<Option<Vec<_>>>()
                    .map(Points::Many)
            }
        }
    }

    /// Checks `points` from where the resource is now.
    pub(super) fn check(&self, state: &S, points: &Points) -> Result<(), Refusal> {
        let start = self.resource.position.and_then(|position| position(state));
        let kind = match self.pointers {
            Pointers::Point(_) => Kind::Target,
            Pointers::Path { .. } => Kind::Path,
        };
        self.envelope
            .check(start, points.as_slice(), kind)
            .map_err(|refusal| refusal.with_resource(self.resource.queue.name()))
    }
}

/// The pointers to x, y and z inside a point's schema, and their schemas: its own `x`, `y`,
/// `z` properties, else those of its `position` (a pose).
fn point_in(schema: &Value) -> Option<([String; 3], [Option<&Value>; 3])> {
    let properties = schema.get("properties")?.as_object()?;
    if AXES.iter().all(|a| properties.contains_key(*a)) {
        return Some((
            AXES.map(|a| format!("/{a}")),
            AXES.map(|a| properties.get(a)),
        ));
    }
    let position = properties.get("position")?.get("properties")?.as_object()?;
    AXES.iter().all(|a| position.contains_key(*a)).then(|| {
        (
            AXES.map(|a| format!("/position/{a}")),
            AXES.map(|a| position.get(a)),
        )
    })
}

fn decl_name(decl: TargetDecl) -> String {
    match decl {
        TargetDecl::Params(names) => names.join(", "),
        TargetDecl::Point(name) | TargetDecl::Path(name) => name.to_owned(),
    }
}

fn missing(name: &str) -> Vec<String> {
    vec![format!(
        "the target names `{name}`, which is not a parameter"
    )]
}

fn not_a_point(name: &str) -> Vec<String> {
    vec![format!(
        "`{name}` holds no point: a target is an object with number fields x, y and z (a \
         nalgebra `Point3`, a struct of yours, a ROS `geometry_msgs/Point`) or with such a \
         `position` (a ROS `Pose`)"
    )]
}

/// A name as one JSON pointer segment (RFC 6901).
fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}
