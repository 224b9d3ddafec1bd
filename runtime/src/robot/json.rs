//! The published form, `_meta["io.toolwright/robot"]` on each tool that moves a robot resource:
//!
//! ```json
//! {"resource": "arm", "source": {"file": "robots/panda.urdf", "sha256": "…"},
//!  "tip": {"link": "panda_hand_tcp", "offset": [0, 0, 0]},
//!  "joints": [{"name": "panda_joint1", "type": "revolute", "unit": "rad",
//!              "lower": -2.8973, "upper": 2.8973, "maxVelocity": 2.175,
//!              "maxAcceleration": 3.75, "maxDeceleration": 3.75, …}],
//!  "positions": "/positions",
//!  "links": [{"name": "panda_link1", "capsules": [{"a": [x, y, z], "b": [x, y, z],
//!                                                  "radius": r}]}],
//!  "unit": "mm", "tolerance": 10, "robot": "panda", "base": "panda_link0",
//!  "home": {"joints": {"panda_joint1": 0, …}, "from": "…",
//!           "capsules": [{"link": "panda_link1", "a": […], "b": […], "radius": r}]}}
//! ```
//!
//! `lower`/`upper` are the enforced range; capsules are in each link's frame and, like every
//! length here, in the envelope's unit (`unit`); `tolerance` is the swept check's bound. Beyond
//! the keys the issue fixed: each joint's `from` (where each limit came from), `parent`,
//! `child`, `origin` (its frame at zero in the previous joint's, `xyz` and `quaternion`
//! `[x, y, z, w]`) and `axis`; `mimics` (chain joints that follow another); a link's `frame`
//! (the joint it moves with, or the base) and `swept` (the joint outside the chain whose travel
//! its capsules hold); `home`, the configuration the page draws, with every capsule there in
//! the base frame.

use nalgebra::Point3;
use serde_json::{Map, Value, json};

use super::def::JointKind;
use super::model::Robot;
use super::sweep::TOLERANCE;

/// A number as JSON: integers as integers, others to 9 significant decimals of the unit.
fn num(x: f64) -> Value {
    let r = (x * 1e9).round() / 1e9;
    if r.fract() == 0.0 && r.abs() < 9.0e15 {
        Value::from(r as i64)
    } else {
        serde_json::Number::from_f64(r).map_or(Value::Null, Value::Number)
    }
}

/// A length in metres as JSON in the unit `per_metre` of which make a metre, rounded up when
/// `up` (radii: what is published still holds what is checked).
fn length(x: f64, per_metre: f64, up: bool) -> Value {
    let v = x * per_metre;
    if up {
        num((v * 1e6).ceil() / 1e6)
    } else {
        num((v * 1e6).round() / 1e6)
    }
}

fn point(p: &Point3<f64>, per_metre: f64) -> Value {
    Value::Array(vec![
        length(p.x, per_metre, false),
        length(p.y, per_metre, false),
        length(p.z, per_metre, false),
    ])
}

impl Robot {
    /// The published form for `resource`, lengths in `unit` (`per_metre` of which make a
    /// metre), with the JSON pointer to the tool's joint positions when it takes them.
    pub fn to_json(
        &self,
        resource: &str,
        unit: &str,
        per_metre: f64,
        positions: Option<&str>,
    ) -> Value {
        let mut out = Map::new();
        out.insert("resource".into(), Value::from(resource));
        out.insert(
            "source".into(),
            json!({"file": self.urdf, "sha256": self.sha256}),
        );
        let mut tip = Map::new();
        tip.insert("link".into(), Value::from(self.tip_link.as_str()));
        if self.tip_offset != [0.0; 3] {
            tip.insert(
                "offset".into(),
                point(&Point3::from(self.tip_offset), per_metre),
            );
        }
        out.insert("tip".into(), Value::Object(tip));
        let joints: Vec<Value> = self
            .params
            .iter()
            .map(|&k| {
                let j = &self.joints[k];
                let l = &j.limits;
                let mut o = Map::new();
                o.insert("name".into(), Value::from(j.name.as_str()));
                o.insert("type".into(), Value::from(j.kind.as_str()));
                o.insert("unit".into(), Value::from(j.kind.unit()));
                o.insert("lower".into(), num(l.lower));
                o.insert("upper".into(), num(l.upper));
                o.insert("maxVelocity".into(), num(l.velocity));
                if let Some(a) = l.acceleration {
                    o.insert("maxAcceleration".into(), num(a));
                }
                if let Some(d) = l.deceleration {
                    o.insert("maxDeceleration".into(), num(d));
                }
                let mut from = Map::new();
                from.insert("range".into(), Value::from(l.range_from));
                from.insert("velocity".into(), Value::from(l.velocity_from));
                if let Some(a) = l.acceleration_from {
                    from.insert("acceleration".into(), Value::from(a));
                }
                if let Some(d) = l.deceleration_from {
                    from.insert("deceleration".into(), Value::from(d));
                }
                o.insert("from".into(), Value::Object(from));
                o.insert("parent".into(), Value::from(j.parent.as_str()));
                o.insert("child".into(), Value::from(j.child.as_str()));
                let t = j.origin.translation.vector;
                let r = j.origin.rotation.coords;
                o.insert(
                    "origin".into(),
                    json!({
                        "xyz": point(&Point3::from(t), per_metre),
                        "quaternion": [num(r.x), num(r.y), num(r.z), num(r.w)],
                    }),
                );
                let a = j.axis.into_inner();
                o.insert("axis".into(), json!([num(a.x), num(a.y), num(a.z)]));
                if j.kind == JointKind::Continuous {
                    o.insert("wraps".into(), Value::Bool(true));
                }
                Value::Object(o)
            })
            .collect();
        out.insert("joints".into(), Value::Array(joints));
        let mimics: Vec<Value> = self
            .joints
            .iter()
            .filter_map(|j| {
                let (leader, m, off) = j.mimic?;
                Some(json!({"name": j.name, "follows": self.joints[leader].name,
                            "multiplier": num(m), "offset": num(off)}))
            })
            .collect();
        if !mimics.is_empty() {
            out.insert("mimics".into(), Value::Array(mimics));
        }
        if let Some(p) = positions {
            out.insert("positions".into(), Value::from(p));
        }
        let links: Vec<Value> = self
            .links
            .iter()
            .filter(|l| !l.capsules.is_empty())
            .map(|l| {
                let mut o = Map::new();
                o.insert("name".into(), Value::from(l.name.as_str()));
                let capsules: Vec<Value> = l
                    .capsules
                    .iter()
                    .map(|c| {
                        json!({"a": point(&c.a, per_metre), "b": point(&c.b, per_metre),
                               "radius": length(c.radius, per_metre, true)})
                    })
                    .collect();
                o.insert("capsules".into(), Value::Array(capsules));
                let frame = if l.frame == 0 {
                    self.base.as_str()
                } else {
                    self.joints[l.frame - 1].name.as_str()
                };
                o.insert("frame".into(), Value::from(frame));
                if let Some(s) = &l.swept_by {
                    o.insert("swept".into(), Value::from(s.as_str()));
                }
                Value::Object(o)
            })
            .collect();
        out.insert("links".into(), Value::Array(links));
        out.insert("unit".into(), Value::from(unit));
        out.insert("tolerance".into(), length(TOLERANCE, per_metre, false));
        out.insert("robot".into(), Value::from(self.name.as_str()));
        out.insert("base".into(), Value::from(self.base.as_str()));
        let home_joints: Map<String, Value> = self
            .joint_names()
            .zip(&self.home)
            .map(|(n, v)| (n.to_owned(), num(*v)))
            .collect();
        let capsules: Vec<Value> = self
            .capsules_at(&self.home)
            .into_iter()
            .map(|(link, a, b, r)| {
                json!({"link": link, "a": point(&Point3::from(a), per_metre),
                       "b": point(&Point3::from(b), per_metre),
                       "radius": length(r, per_metre, true)})
            })
            .collect();
        out.insert(
            "home".into(),
            json!({"joints": home_joints, "from": self.home_from, "capsules": capsules}),
        );
        Value::Object(out)
    }
}
