//! An envelope with every kind of shape, consts for numbers, a flat target, a nalgebra point
//! target, a path and a check compile, and the toolbox builds and publishes the envelope.
use std::ops::RangeInclusive;

use nalgebra::Point3;
use toolwright::{ENVELOPE_META, Toolbox, toolbox};

const REACH: f64 = 800.0;
const TOOL: f64 = 20.0;
const WORKSPACE: [RangeInclusive<f64>; 3] = [
    -(REACH - TOOL)..=REACH - TOOL,
    -(REACH - TOOL)..=REACH - TOOL,
    TOOL..=REACH - TOOL,
];

#[derive(Default)]
struct Arm;

#[toolbox(resource(
    name = "arm",
    safe_stop = halt,
    position = at,
    envelope(
        frame = "base_link",
        unit = "mm",
        tool_radius = TOOL,
        allow(name = "reach", sphere(center = (0, 0, 0), radius = REACH)),
        allow(box(min = (-REACH, -REACH, 0), max = [REACH, REACH, REACH])),
        keep_out(name = "column", cylinder(center = (0, 0), radius = 100, z = (0, 500))),
        keep_out(name = "camera", box(min = (300, 300, 0), max = (400, 400, 900))),
        max_step = 500.0
    )
))]
impl Arm {
    /// Halt the arm.
    fn halt(&self) -> String {
        "halted".into()
    }

    /// Where the arm is (`None` before it homed).
    fn at(&self) -> Option<Point3<f64>> {
        Some(Point3::new(300.0, 0.0, 300.0))
    }

    /// The check of `move_to`: low moves are slow.
    fn slow_when_low(&self, z: f64, speed: f64) -> Result<(), String> {
        if z < 100.0 && speed > 0.5 {
            return Err(format!("below 100 mm the speed is at most 0.5, not {speed}"));
        }
        Ok(())
    }

    /// Move the arm.
    #[tool(resource = "arm", target = (x, y, z), check = slow_when_low, confirm = "Run it?")]
    async fn move_to(
        &self,
        /// X.
        #[param(unit = "mm", range = -780.0..=780.0)]
        x: f64,
        /// Y.
        #[param(unit = "mm", range = -780.0..=780.0)]
        y: f64,
        /// Z.
        #[param(unit = "mm", range = 20.0..=780.0)]
        z: f64,
        /// Speed, a fraction of full speed.
        #[param(range = 0.1..=1.0, default = 0.5)]
        speed: f64,
    ) -> String {
        format!("{x} {y} {z} {speed}")
    }

    /// Reach a point.
    #[tool(resource = "arm", target = point, confirm = "Run it?")]
    async fn reach(
        &self,
        /// The point.
        #[param(unit = "mm", range = WORKSPACE)]
        point: Point3<f64>,
    ) -> String {
        format!("{point}")
    }

    /// Follow a path.
    #[tool(resource = "arm", path = waypoints, confirm = "Run it?")]
    async fn follow(
        &self,
        /// The waypoints.
        #[param(unit = "mm", range = WORKSPACE, min_items = 1)]
        waypoints: Vec<Point3<f64>>,
    ) -> String {
        format!("{}", waypoints.len())
    }
}

fn main() {
    let toolbox = Toolbox::new(Arm);
    for tool in toolbox.listed_tools() {
        let envelope = &tool.meta.as_ref().unwrap().0[ENVELOPE_META];
        assert_eq!(envelope["resource"], "arm");
        assert_eq!(envelope["keepOut"][0]["name"], "column");
    }
}
