//! `allow(many_params)` on the tool or on the toolbox keeps more than five parameters.
use toolwright::{Toolbox, tool, toolbox, tools};

/// Set the pose of the tool point.
#[tool(allow(many_params))]
fn set_pose(
    /// X coordinate.
    x: f64,
    /// Y coordinate.
    y: f64,
    /// Z coordinate.
    z: f64,
    /// Roll angle.
    roll: f64,
    /// Pitch angle.
    pitch: f64,
    /// Yaw angle.
    yaw: f64,
) {
    let _ = (x, y, z, roll, pitch, yaw);
}

struct Arm;

#[toolbox(allow(many_params))]
impl Arm {
    /// Set the joint angles.
    #[tool]
    fn set_joints(
        &self,
        /// Base joint angle.
        j1: f64,
        /// Shoulder joint angle.
        j2: f64,
        /// Elbow joint angle.
        j3: f64,
        /// Wrist 1 angle.
        j4: f64,
        /// Wrist 2 angle.
        j5: f64,
        /// Wrist 3 angle.
        j6: f64,
    ) {
        let _ = (j1, j2, j3, j4, j5, j6);
    }
}

fn main() {
    assert_eq!(tools![set_pose].build().unwrap().tools().len(), 1);
    assert_eq!(Toolbox::new(Arm).tools().len(), 1);
}
