//! Where a tool moves its resource (`#[tool(target = ..)]`, `#[tool(path = ..)]`): the
//! declaration resolved against the published input schema into JSON pointers when the toolbox
//! is built (each coordinate in the envelope's unit, its range within the envelope), published
//! in the tool's `_meta`, and the points of a call read from its validated arguments.

use std::sync::Arc;

use serde_json::{Map, Value};

use crate::contract::TargetDecl;
use crate::envelope::{Envelope, Kind, Refusal};
use crate::exec::Plan;
use crate::exec::policy::Resource;

/// Why a motion is refused: by the envelope (a tool point), or by a robot's check (its links).
pub(in crate::toolbox) enum Refused {
    Envelope(Refusal),
    #[cfg(feature = "robot")]
    Robot {
        resource: Arc<str>,
        refusal: crate::robot::Refusal,
    },
}

/// A tool's target in its resource's envelope.
pub(super) struct Target<S> {
    /// The resource it moves (its position and its envelope as checked).
    pub(super) resource: Arc<Resource<S>>,
    /// The envelope as checked (the declared one, narrowed by the operator).
    pub(super) envelope: Arc<Envelope>,
    pointers: Pointers,
    /// The speed argument (`speed = ..`), a fraction of the joints' caps.
    #[cfg(feature = "robot")]
    speed: Option<String>,
}

/// Where the coordinates are in the arguments.
enum Pointers {
    /// One point: the pointers to x, y and z.
    Point([Pointer; 3]),
    /// A list of points: the list, and the pointers to x, y and z inside one item.
    Path { array: Pointer, point: [Pointer; 3] },
    /// A robot's joint positions: the object, and its properties in the robot's joint order.
    #[cfg(feature = "robot")]
    Joints { object: Pointer, names: Vec<String> },
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

/// The points of one call, in the envelope's unit: one target (no allocation), or waypoints;
/// or a robot's target joint positions.
#[derive(Clone)]
pub(super) enum Points {
    One([[f64; 3]; 1]),
    Many(Vec<[f64; 3]>),
    #[cfg(feature = "robot")]
    Joints(Vec<f64>),
}

impl Points {
    fn as_slice(&self) -> &[[f64; 3]] {
        match self {
            Points::One(p) => p,
            Points::Many(v) => v,
            #[cfg(feature = "robot")]
            Points::Joints(_) => &[],
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
        #[cfg(feature = "robot")]
        if let TargetDecl::Joints(name) = decl {
            return joints_target(name, input, resource, envelope);
        }
        // `target = positions` on a robot resource, naming joint positions rather than a point.
        #[cfg(feature = "robot")]
        if let TargetDecl::Point(name) = decl
            && resource.robot.is_some()
            && input
                .get("properties")
                .and_then(|p| p.get(name))
                .is_some_and(|schema| point_in(schema).is_none())
        {
            return joints_target(name, input, resource, envelope);
        }
        #[cfg(feature = "robot")]
        if resource.robot.is_some() && matches!(decl, TargetDecl::Path(_)) {
            return Err(vec![
                "a `path` on a robot resource is not checked yet: move through the waypoints \
                 one `target` (or `positions`) at a time"
                    .to_owned(),
            ]);
        }
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
            // (Robot builds take it above.)
            TargetDecl::Joints(name) => {
                return Err(vec![format!(
                    "`positions = {name}`: joint positions are checked against a robot \
                     (toolwright's `robot` feature, `resource(.., robot(..))`)"
                )]);
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
            #[cfg(feature = "robot")]
            speed: None,
        })
    }

    /// The speed argument (`speed = ..`): a number parameter.
    #[cfg(feature = "robot")]
    pub(super) fn with_speed(
        mut self,
        name: &str,
        input: &Map<String, Value>,
    ) -> Result<Self, Vec<String>> {
        let schema = input
            .get("properties")
            .and_then(Value::as_object)
            .and_then(|p| p.get(name))
            .ok_or_else(|| missing(name))?;
        if !matches!(
            schema.get("type").and_then(Value::as_str),
            Some("number" | "integer")
        ) {
            return Err(vec![format!(
                "`speed = {name}`: `{name}` is not a number (a fraction of the joints' caps)"
            )]);
        }
        let min = schema.get("minimum").and_then(Value::as_f64);
        let exclusive = schema.get("exclusiveMinimum").and_then(Value::as_f64);
        let max = schema.get("maximum").and_then(Value::as_f64);
        if !(min.is_some_and(|m| m > 0.0) || exclusive.is_some_and(|m| m >= 0.0))
            || max.is_none_or(|m| m > 1.0)
        {
            return Err(vec![format!(
                "`speed = {name}`: a speed is a fraction of the joints' caps, above 0 and at \
                 most 1: declare `range = 0.01..=1.0` (or another range within (0, 1])"
            )]);
        }
        self.speed = Some(name.to_owned());
        Ok(self)
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
                #[cfg(feature = "robot")]
                Pointers::Joints { .. } => {}
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
            #[cfg(feature = "robot")]
            Pointers::Joints { object, names } => {
                let object = object.get(args)?.as_object()?;
                names
                    .iter()
                    .map(|n| object.get(n)?.as_f64())
                    .collect::<Option<Vec<f64>>>()
                    .map(Points::Joints)
            }
        }
    }

    /// The JSON pointer to the joint positions, when the tool takes them.
    #[cfg(feature = "robot")]
    pub(super) fn positions_pointer(&self) -> Option<&str> {
        match &self.pointers {
            Pointers::Joints { object, .. } => Some(&object.text),
            _ => None,
        }
    }

    /// Checks `points` from where the resource is now; for a robot resource, also what the
    /// body is handed (the checked [`Motion`](crate::robot::Motion)).
    pub(super) fn check(
        &self,
        state: &S,
        points: &Points,
        args: &Map<String, Value>,
    ) -> Result<Option<Plan>, Refused> {
        #[cfg(feature = "robot")]
        if let Some(arm) = &self.resource.robot {
            return self.check_robot(arm, state, points, args).map(Some);
        }
        let _ = args;
        self.check_points(state, points)
            .map(|()| None)
            .map_err(Refused::Envelope)
    }

    /// A robot resource's motion: from its joints now to the target joints (given, or solved
    /// from a Cartesian target), link by link.
    #[cfg(feature = "robot")]
    fn check_robot(
        &self,
        arm: &crate::exec::policy::Arm<S>,
        state: &S,
        points: &Points,
        args: &Map<String, Value>,
    ) -> Result<Plan, Refused> {
        let robot = &arm.robot;
        let refuse = |message: String, code: &'static str| Refused::Robot {
            resource: Arc::clone(self.resource.queue.name()),
            refusal: crate::robot::Refusal { code, message },
        };
        let Some(from) = (arm.joints)(state).filter(|j| j.len() == robot.dof()) else {
            return Err(refuse(
                "where the arm's joints are now is not known, so no motion from there can be \
                 checked: nothing moves until it is"
                    .to_owned(),
                "at_start",
            ));
        };
        let to = match points {
            Points::Joints(q) => q.clone(),
            Points::One([p]) => {
                let k = 1.0 / arm.space.per_metre;
                let target = [p[0] * k, p[1] * k, p[2] * k];
                match robot.solve(target, None, &from) {
                    crate::robot::Solved::Reached(q) => q,
                    crate::robot::Solved::Unreachable {
                        closest,
                        reached,
                        distance,
                        ..
                    } => {
                        let u = &arm.space.unit;
                        let m = arm.space.per_metre;
                        return Err(refuse(
                            format!(
                                "the arm cannot put its tool point at ({}, {}, {}) {u} within its \
                                 joints' ranges: the closest it reaches is ({}, {}, {}) {u}, {} \
                                 {u} away (joints there: {}); choose a target within reach",
                                clean(p[0]),
                                clean(p[1]),
                                clean(p[2]),
                                clean(reached[0] * m),
                                clean(reached[1] * m),
                                clean(reached[2] * m),
                                clean(distance * m),
                                robot.describe(&closest)
                            ),
                            "unreachable",
                        ));
                    }
                }
            }
            Points::Many(_) => unreachable!("a path on a robot resource does not build"),
        };
        robot
            .check(&arm.space, &from, &to)
            .map_err(|refusal| Refused::Robot {
                resource: Arc::clone(self.resource.queue.name()),
                refusal,
            })?;
        let speed = self
            .speed
            .as_ref()
            .and_then(|name| args.get(name)?.as_f64())
            .unwrap_or(1.0);
        Ok(Arc::new(robot.motion(from, to, speed)))
    }

    /// Checks `points` from where the resource is now, against its envelope.
    fn check_points(&self, state: &S, points: &Points) -> Result<(), Refusal> {
        let start = self.resource.position.and_then(|position| position(state));
        let kind = match self.pointers {
            Pointers::Path { .. } => Kind::Path,
            _ => Kind::Target,
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
        TargetDecl::Point(name) | TargetDecl::Path(name) | TargetDecl::Joints(name) => {
            name.to_owned()
        }
    }
}

/// A number as the refusals print it.
#[cfg(feature = "robot")]
fn clean(x: f64) -> String {
    crate::envelope::clean((x * 10.0).round() / 10.0)
}

/// The joint positions `name` of a robot resource's tool: an object parameter with exactly the
/// robot's moving joints as number properties, each in the joint's unit (`rad` or `m`) and, when
/// it declares a range, within the joint's enforced range.
#[cfg(feature = "robot")]
fn joints_target<S>(
    name: &str,
    input: &Map<String, Value>,
    resource: Arc<Resource<S>>,
    envelope: Arc<Envelope>,
) -> Result<Target<S>, Vec<String>> {
    let Some(arm) = resource.robot.as_ref() else {
        return Err(vec![format!(
            "`positions = {name}`: joint positions are checked against a robot, and the tool's \
             resource declares none (`resource(name = \"..\", robot(urdf = \"..\", ..), \
             envelope(..))`)"
        )]);
    };
    let robot = &arm.robot;
    let schema = input
        .get("properties")
        .and_then(Value::as_object)
        .and_then(|p| p.get(name))
        .ok_or_else(|| missing(name))?;
    let properties = schema
        .get("properties")
        .and_then(Value::as_object)
        .ok_or_else(|| {
            vec![format!(
                "`positions = {name}`: `{name}` is not an object of joint positions (the \
                 robot's joint-position type, one field per moving joint)"
            )]
        })?;
    let names: Vec<String> = robot.joint_names().map(str::to_owned).collect();
    let mut problems = Vec::new();
    for key in properties.keys() {
        if !names.contains(key) {
            problems.push(format!(
                "`{name}.{key}` is not a moving joint of robot `{}`{}",
                robot.name,
                crate::envelope::closest_name(
                    key,
                    &names.iter().map(String::as_str).collect::<Vec<_>>()
                )
                .map(|n| format!(" (did you mean `{n}`?)"))
                .unwrap_or_default()
            ));
        }
    }
    for ((joint, (lower, upper)), unit) in names.iter().zip(robot.ranges()).zip(robot.units()) {
        let Some(p) = properties.get(joint) else {
            problems.push(format!(
                "`{name}` has no `{joint}`: it must give every moving joint"
            ));
            continue;
        };
        if !matches!(
            p.get("type").and_then(Value::as_str),
            Some("number" | "integer")
        ) {
            problems.push(format!("`{name}.{joint}` is not a number"));
            continue;
        }
        if p.get("x-unit").and_then(Value::as_str) != Some(unit) {
            problems.push(format!(
                "`{name}.{joint}` must be in `{unit}` (declare `#[param(unit = \"{unit}\")]`)"
            ));
        }
        // `a..b` publishes `exclusiveMaximum`: values below `b` are promised.
        let min = p
            .get("minimum")
            .or_else(|| p.get("exclusiveMinimum"))
            .and_then(Value::as_f64);
        let max = p
            .get("maximum")
            .or_else(|| p.get("exclusiveMaximum"))
            .and_then(Value::as_f64);
        if min.is_none_or(|m| m < lower) || max.is_none_or(|m| m > upper) {
            problems.push(format!(
                "`{name}.{joint}` is published as {}..={}, wider than the joint allows \
                 ({lower}..={upper} {unit}, its enforced range): a published range must not \
                 promise what the robot refuses; declare `range = {lower}..={upper}` or narrower",
                min.map_or("-∞".to_owned(), |m| m.to_string()),
                max.map_or("∞".to_owned(), |m| m.to_string()),
            ));
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(Target {
        resource,
        envelope,
        pointers: Pointers::Joints {
            object: Pointer::new(format!("/{}", escape(name))),
            names,
        },
        speed: None,
    })
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
