//! A check's parameters have the tool's types: `z: u32` for the tool's `z: f64` would refuse
//! every call leaving `z` at its default (20.0), and `z: f32` would lose precision.
use toolwright::toolbox;

struct Gantry;

#[toolbox(resource(name = "gantry"))]
impl Gantry {
    /// Lower the gripper.
    #[tool(resource = "gantry", check = low_enough, confirm = "Run it?")]
    async fn lower(
        &self,
        /// Height above the belt.
        #[param(unit = "mm", range = 0.0..=400.0, default = 20.0)]
        z: f64,
    ) -> String {
        format!("{z}")
    }

    /// The check of `lower`, with another type for `z`.
    fn low_enough(&self, z: u32) -> Result<(), String> {
        let _ = z;
        Ok(())
    }

    /// Raise the gripper.
    #[tool(resource = "gantry", check = high_enough, confirm = "Run it?")]
    async fn raise(
        &self,
        /// Height above the belt.
        #[param(unit = "mm", range = 0.0..=400.0)]
        z: f64,
    ) -> String {
        format!("{z}")
    }

    /// The check of `raise`, taking `z` as an `f32`.
    fn high_enough(&self, z: f32) -> Result<(), String> {
        let _ = z;
        Ok(())
    }
}

fn main() {}
