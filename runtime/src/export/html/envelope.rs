//! Each resource's envelope drawn as inline SVG: from above (x-y) and from the side (x-z). The
//! region inside every allow shape is shaded (nested clip paths: their intersection), each
//! allow shape outlined, each keep-out hatched and labelled with its name. A view is a
//! projection: a sphere is a circle in both, a vertical cylinder a circle from above and a
//! rectangle from the side, a box a rectangle in both. A robot resource's arm is drawn at its
//! home configuration, each link's capsules as rounded strokes (`_meta["io.toolwright/robot"]`'s
//! `home.capsules`), and its joints listed under the views with their ranges as bars (home
//! marked) and caps, each with an anchor `:joint.RESOURCE.JOINT`.

use std::fmt::Write as _;

use rmcp::model::Tool;
use serde_json::Value;

use super::{anchor, esc, inline, tool_link};

/// An envelope as the page draws it: the published one without its tool's arguments.
pub(super) struct Drawn {
    pub resource: String,
    /// `_meta["io.toolwright/envelope"]` less `resource`, `target` and `path`.
    pub envelope: Value,
    /// The tools that move the resource in it.
    pub tools: Vec<String>,
    /// Which of the envelopes of this resource (0 unless tools publish different ones).
    nth: usize,
    /// The robot the resource is (`_meta["io.toolwright/robot"]` of its first tool), if any.
    robot: Option<Value>,
}

fn shape_of(e: &Value) -> Value {
    let mut own = e.as_object().cloned().unwrap_or_default();
    for k in ["resource", "target", "path"] {
        own.shift_remove(k);
    }
    Value::Object(own)
}

impl Drawn {
    /// The figure's id: `:envelope.RESOURCE` (`:envelope.RESOURCE.2` for a second one).
    pub(super) fn id(&self) -> String {
        if self.nth == 0 {
            anchor::reserved(&["envelope", &self.resource])
        } else {
            anchor::reserved(&["envelope", &self.resource, &(self.nth + 1).to_string()])
        }
    }

    /// Whether a tool's published envelope is this one.
    pub(super) fn matches(&self, published: &Value) -> bool {
        published.get("resource").and_then(Value::as_str) == Some(&self.resource)
            && shape_of(published) == self.envelope
    }
}

/// The distinct envelopes of the tools, in order of first use.
pub(super) fn collect(tools: &[Tool]) -> Vec<Drawn> {
    let mut out: Vec<Drawn> = Vec::new();
    for tool in tools {
        let Some(e) = super::super::envelope_of(tool) else {
            continue;
        };
        let resource = e
            .get("resource")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_owned();
        let robot = tool
            .meta
            .as_ref()
            .and_then(|m| m.0.get(crate::contract::ROBOT_META))
            .cloned();
        match out.iter_mut().find(|d| d.matches(e)) {
            Some(d) => {
                d.tools.push(tool.name.to_string());
                if d.robot.is_none() {
                    d.robot = robot;
                }
            }
            None => {
                let nth = out.iter().filter(|d| d.resource == resource).count();
                out.push(Drawn {
                    resource,
                    envelope: shape_of(e),
                    tools: vec![tool.name.to_string()],
                    nth,
                    robot,
                });
            }
        }
    }
    out
}

/// A shape in one view.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Flat {
    Rect { u0: f64, v0: f64, u1: f64, v1: f64 },
    Circle { u: f64, v: f64, r: f64 },
}

impl Flat {
    fn bounds(self) -> (f64, f64, f64, f64) {
        match self {
            Flat::Rect { u0, v0, u1, v1 } => (u0.min(u1), v0.min(v1), u0.max(u1), v0.max(v1)),
            Flat::Circle { u, v, r } => (u - r, v - r, u + r, v + r),
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
enum View {
    Top,
    Side,
}

fn num(v: Option<&Value>) -> Option<f64> {
    v.and_then(Value::as_f64).filter(|x| x.is_finite())
}

fn point(v: Option<&Value>) -> Option<Vec<f64>> {
    v.and_then(Value::as_array)
        .map(|a| a.iter().filter_map(|x| num(Some(x))).collect())
}

/// A published shape (`{"box": ..}`, `{"sphere": ..}`, `{"cylinder": ..}`) in a view.
fn flat(shape: &Value, view: View) -> Option<Flat> {
    let second = |p: &[f64]| if view == View::Top { p[1] } else { p[2] };
    if let Some(b) = shape.get("box") {
        let (min, max) = (point(b.get("min"))?, point(b.get("max"))?);
        (min.len() == 3 && max.len() == 3).then(|| Flat::Rect {
            u0: min[0],
            v0: second(&min),
            u1: max[0],
            v1: second(&max),
        })
    } else if let Some(s) = shape.get("sphere") {
        let c = point(s.get("center"))?;
        (c.len() == 3).then(|| Flat::Circle {
            u: c[0],
            v: second(&c),
            r: num(s.get("radius")).unwrap_or(0.0),
        })
    } else if let Some(c) = shape.get("cylinder") {
        let center = point(c.get("center"))?;
        let r = num(c.get("radius")).unwrap_or(0.0);
        if center.len() != 2 {
            return None;
        }
        Some(match view {
            View::Top => Flat::Circle {
                u: center[0],
                v: center[1],
                r,
            },
            View::Side => Flat::Rect {
                u0: center[0] - r,
                v0: num(c.get("zMin"))?,
                u1: center[0] + r,
                v1: num(c.get("zMax"))?,
            },
        })
    } else {
        None
    }
}

/// A grid step of 1, 2 or 5 times a power of ten giving about `lines` lines over `span`.
fn grid_step(span: f64, lines: f64) -> f64 {
    let raw = span / lines;
    let power = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|k| k * power)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * power)
}

/// A coordinate in the SVG, to a tenth of a pixel.
fn px(x: f64) -> String {
    let r = (x * 10.0).round() / 10.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

/// A coordinate as people write it: `-865`, `0.5`.
fn label(x: f64) -> String {
    let r = (x * 1000.0).round() / 1000.0;
    if r == r.trunc() && r.abs() < 1e15 {
        format!("{}", r as i64)
    } else {
        format!("{r}")
    }
}

struct Named {
    name: Option<String>,
    flat: Flat,
}

fn shapes(envelope: &Value, key: &str, view: View) -> Vec<Named> {
    envelope
        .get(key)
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(|s| {
                    Some(Named {
                        name: s.get("name").and_then(Value::as_str).map(str::to_owned),
                        flat: flat(s, view)?,
                    })
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The home capsules of a published robot in a view: `(u0, v0, u1, v1, radius, link)`.
fn capsules(robot: Option<&Value>, view: View) -> Vec<(f64, f64, f64, f64, f64, String)> {
    let second = |p: &[f64]| if view == View::Top { p[1] } else { p[2] };
    robot
        .and_then(|r| r.get("home"))
        .and_then(|h| h.get("capsules"))
        .and_then(Value::as_array)
        .map(|list| {
            list.iter()
                .filter_map(|c| {
                    let (a, b) = (point(c.get("a"))?, point(c.get("b"))?);
                    (a.len() == 3 && b.len() == 3).then(|| {
                        (
                            a[0],
                            second(&a),
                            b[0],
                            second(&b),
                            num(c.get("radius")).unwrap_or(0.0),
                            c.get("link")
                                .and_then(Value::as_str)
                                .unwrap_or("")
                                .to_owned(),
                        )
                    })
                })
                .collect()
        })
        .unwrap_or_default()
}

/// One view as an SVG.
fn svg(s: &mut String, figure: usize, envelope: &Value, robot: Option<&Value>, view: View) {
    let unit = envelope.get("unit").and_then(Value::as_str).unwrap_or("");
    const WIDTH: f64 = 320.0;
    let allow = shapes(envelope, "allow", view);
    let keep_out = shapes(envelope, "keepOut", view);
    let all: Vec<Flat> = allow.iter().chain(&keep_out).map(|n| n.flat).collect();
    if all.is_empty() {
        return;
    }
    let (mut u0, mut v0, mut u1, mut v1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for f in &all {
        let (a, b, c, d) = f.bounds();
        u0 = u0.min(a);
        v0 = v0.min(b);
        u1 = u1.max(c);
        v1 = v1.max(d);
    }
    let pad = ((u1 - u0).max(v1 - v0) * 0.06).max(1.0);
    let (u0, v0, u1, v1) = (u0 - pad, v0 - pad, u1 + pad, v1 + pad);
    let scale = WIDTH / (u1 - u0);
    let height = ((v1 - v0) * scale).clamp(40.0, 2.0 * WIDTH);
    let scale_v = height / (v1 - v0);
    let x = |u: f64| px((u - u0) * scale);
    let y = |v: f64| px((v1 - v) * scale_v);
    let element = |f: Flat, class: &str| -> String {
        match f {
            Flat::Rect {
                u0: a,
                v0: b,
                u1: c,
                v1: d,
            } => {
                let (a, c) = (a.min(c), a.max(c));
                let (b, d) = (b.min(d), b.max(d));
                format!(
                    "<rect class=\"{class}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>",
                    x(a),
                    y(d),
                    px((c - a) * scale),
                    px((d - b) * scale_v)
                )
            }
            Flat::Circle { u, v, r } => {
                if (scale - scale_v).abs() < 1e-9 {
                    format!(
                        "<circle class=\"{class}\" cx=\"{}\" cy=\"{}\" r=\"{}\"/>",
                        x(u),
                        y(v),
                        px(r * scale)
                    )
                } else {
                    format!(
                        "<ellipse class=\"{class}\" cx=\"{}\" cy=\"{}\" rx=\"{}\" ry=\"{}\"/>",
                        x(u),
                        y(v),
                        px(r * scale),
                        px(r * scale_v)
                    )
                }
            }
        }
    };
    let (axis_u, axis_v) = match view {
        View::Top => ("x", "y"),
        View::Side => ("x", "z"),
    };
    let which = if view == View::Top { "top" } else { "side" };
    let _ = write!(
        s,
        "<svg class=\"env\" viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\" role=\"img\" \
         aria-label=\"{} view ({axis_u}-{axis_v})\"><defs>",
        px(WIDTH),
        px(height),
        px(WIDTH),
        px(height),
        if view == View::Top { "Top" } else { "Side" },
    );
    for (i, a) in allow.iter().enumerate() {
        let _ = write!(
            s,
            "<clipPath id=\":clip-{figure}-{which}-{i}\">{}</clipPath>",
            element(a.flat, "")
        );
    }
    s.push_str("</defs>");
    // The grid, each line labelled along the bottom and the left.
    let step = grid_step((u1 - u0).max(v1 - v0), 6.0);
    let mut ticks = String::new();
    s.push_str("<g class=\"grid\">");
    let mut g = (u0 / step).ceil() * step;
    while g <= u1 {
        let _ = write!(
            s,
            "<line x1=\"{0}\" y1=\"0\" x2=\"{0}\" y2=\"{1}\"{2}/>",
            x(g),
            px(height),
            if g == 0.0 { " class=\"zero\"" } else { "" }
        );
        let at = (g - u0) * scale;
        if at > 12.0 && at < WIDTH - 40.0 {
            let _ = write!(
                ticks,
                "<text class=\"ax\" x=\"{}\" y=\"{}\">{}</text>",
                px(at + 2.0),
                px(height - 3.0),
                label(g)
            );
        }
        g += step;
    }
    let mut g = (v0 / step).ceil() * step;
    while g <= v1 {
        let _ = write!(
            s,
            "<line x1=\"0\" y1=\"{0}\" x2=\"{1}\" y2=\"{0}\"{2}/>",
            y(g),
            px(WIDTH),
            if g == 0.0 { " class=\"zero\"" } else { "" }
        );
        let at = (v1 - g) * scale_v;
        if at > 24.0 && at < height - 16.0 {
            let _ = write!(
                ticks,
                "<text class=\"ax\" x=\"2\" y=\"{}\">{}</text>",
                px(at - 2.0),
                label(g)
            );
        }
        g += step;
    }
    s.push_str("</g>");
    // The allowed region: inside every allow shape.
    let mut open = 0;
    for i in 0..allow.len() {
        let _ = write!(s, "<g clip-path=\"url(#:clip-{figure}-{which}-{i})\">");
        open += 1;
    }
    let _ = write!(
        s,
        "<rect class=\"ok\" x=\"0\" y=\"0\" width=\"{}\" height=\"{}\"/>",
        px(WIDTH),
        px(height)
    );
    s.push_str(&"</g>".repeat(open));
    for a in &allow {
        s.push_str(&element(a.flat, "al"));
    }
    for k in &keep_out {
        s.push_str(&element(k.flat, "ko"));
    }
    // The arm at home: each capsule a stroke as wide as the capsule, with round ends.
    for (a, b, c, d, r, link) in capsules(robot, view) {
        let _ = write!(
            s,
            "<line class=\"ln\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" \
             stroke-width=\"{}\"><title>{}</title></line>",
            x(a),
            y(b),
            x(c),
            y(d),
            px((2.0 * r * scale).max(1.0)),
            esc(&link)
        );
    }
    // Labels: keep-outs at their centre, allow shapes at their top left.
    for k in &keep_out {
        let (a, b, c, d) = k.flat.bounds();
        if let Some(name) = &k.name {
            let _ = write!(
                s,
                "<text class=\"kl\" x=\"{}\" y=\"{}\">{}</text>",
                x((a + c) / 2.0),
                y((b + d) / 2.0),
                esc(name)
            );
        }
    }
    for (k, a) in allow.iter().enumerate() {
        let (left, _, _, top) = a.flat.bounds();
        if let Some(name) = &a.name {
            let _ = write!(
                s,
                "<text class=\"al\" x=\"{}\" y=\"{}\">{}</text>",
                px(((left - u0) * scale).max(0.0) + 4.0),
                px(((v1 - top) * scale_v).max(0.0) + 12.0 + 13.0 * k as f64),
                esc(name)
            );
        }
    }
    let _ = write!(
        s,
        "{ticks}<text class=\"ax\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{axis_u} →</text>\
         <text class=\"ax\" x=\"2\" y=\"11\">↑ {axis_v}</text>\
         <text class=\"ax\" x=\"{}\" y=\"11\" text-anchor=\"end\">grid {} {}</text></svg>",
        px(WIDTH - 3.0),
        px(height - 14.0),
        px(WIDTH - 3.0),
        label(step),
        esc(unit),
    );
}

/// The figure of one envelope: both views and what it says in words.
pub(super) fn figure(s: &mut String, i: usize, d: &Drawn) {
    let unit = d
        .envelope
        .get("unit")
        .and_then(Value::as_str)
        .unwrap_or("?");
    let _ = write!(
        s,
        "<figure id=\"{}\"><h3>Envelope of <code>{}</code></h3><div class=\"views\">",
        d.id(),
        esc(&d.resource)
    );
    svg(s, i, &d.envelope, d.robot.as_ref(), View::Top);
    svg(s, i, &d.envelope, d.robot.as_ref(), View::Side);
    let mut published = d.envelope.clone();
    if let Some(map) = published.as_object_mut() {
        map.insert("resource".to_owned(), Value::String(d.resource.clone()));
    }
    let links: Vec<String> = d.tools.iter().map(|t| tool_link(t)).collect();
    let arm = match &d.robot {
        Some(r) => format!(
            " The arm of robot <code>{}</code> is drawn at its home configuration ({}).",
            esc(r.get("robot").and_then(Value::as_str).unwrap_or("?")),
            inline(
                r.get("home")
                    .and_then(|h| h.get("from"))
                    .and_then(Value::as_str)
                    .unwrap_or("?")
            )
        ),
        None => String::new(),
    };
    let _ = write!(
        s,
        "</div><figcaption>{} Coordinates in {}. Moved by {}.{arm}</figcaption>",
        inline(&super::super::envelope_words(&published, d.robot.is_some())),
        esc(unit),
        links.join(", ")
    );
    if let Some(robot) = &d.robot {
        joint_table(s, &d.resource, robot);
    }
    s.push_str("</figure>\n");
}

/// The joints of a published robot: name (with its anchor), type, range as a bar with home
/// marked, velocity and acceleration caps, where the range came from.
fn joint_table(s: &mut String, resource: &str, robot: &Value) {
    let Some(joints) = robot.get("joints").and_then(Value::as_array) else {
        return;
    };
    let home = robot.get("home").and_then(|h| h.get("joints"));
    s.push_str(
        "<table class=\"joints\"><thead><tr><th>joint</th><th>type</th><th>range</th>\
         <th>max velocity</th><th>max acceleration</th><th>from</th></tr></thead><tbody>",
    );
    for j in joints {
        let text = |k: &str| j.get(k).and_then(Value::as_str).unwrap_or("?");
        let n = |k: &str| num(j.get(k));
        let name = text("name");
        let unit = text("unit");
        let (lo, hi) = (n("lower").unwrap_or(0.0), n("upper").unwrap_or(0.0));
        let marker = home
            .and_then(|h| num(h.get(name)))
            .filter(|_| hi > lo)
            .map(|h| {
                format!(
                    "<i style=\"left:{}%\" title=\"home {}\"></i>",
                    px(((h - lo) / (hi - lo) * 100.0).clamp(0.0, 100.0)),
                    label(h)
                )
            })
            .unwrap_or_default();
        let cap = |k: &str, per: &str| {
            n(k).map_or_else(|| "–".to_owned(), |v| format!("{} {unit}/{per}", label(v)))
        };
        let exact = |k: &str| {
            j.get(k)
                .map_or_else(|| "?".to_owned(), super::super::words::value)
        };
        let from = j
            .get("from")
            .and_then(|f| f.get("range"))
            .and_then(Value::as_str)
            .unwrap_or("");
        let _ = write!(
            s,
            "<tr id=\"{}\"><td><code>{}</code></td><td>{}</td><td>{} .. {} {}<span \
             class=\"bar\">{marker}</span></td><td>{}</td><td>{}</td><td>{}</td></tr>",
            super::anchor::reserved(&["joint", resource, name]),
            esc(name),
            esc(text("type")),
            // The enforced range as published, every digit: a joint's limit is not rounded.
            esc(&exact("lower")),
            esc(&exact("upper")),
            esc(unit),
            cap("maxVelocity", "s"),
            cap("maxAcceleration", "s²"),
            inline(from)
        );
    }
    s.push_str("</tbody></table>");
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn shapes_project_onto_each_view() {
        let cylinder =
            json!({"cylinder": {"center": [-450, 450], "radius": 50, "zMin": 0, "zMax": 1400}});
        assert_eq!(
            flat(&cylinder, View::Top),
            Some(Flat::Circle {
                u: -450.0,
                v: 450.0,
                r: 50.0
            })
        );
        assert_eq!(
            flat(&cylinder, View::Side),
            Some(Flat::Rect {
                u0: -500.0,
                v0: 0.0,
                u1: -400.0,
                v1: 1400.0
            })
        );
        let sphere = json!({"sphere": {"center": [0, 10, 100], "radius": 865}});
        assert_eq!(
            flat(&sphere, View::Side),
            Some(Flat::Circle {
                u: 0.0,
                v: 100.0,
                r: 865.0
            })
        );
        let b = json!({"box": {"min": [-1, -2, -3], "max": [1, 2, 3]}});
        assert_eq!(
            flat(&b, View::Top),
            Some(Flat::Rect {
                u0: -1.0,
                v0: -2.0,
                u1: 1.0,
                v1: 2.0
            })
        );
        assert_eq!(flat(&json!({"cone": {}}), View::Top), None);
    }

    #[test]
    fn grid_steps_are_round() {
        assert_eq!(grid_step(1900.0, 6.0), 500.0);
        assert_eq!(grid_step(10.0, 6.0), 2.0);
        assert_eq!(grid_step(0.9, 6.0), 0.2);
    }
}
