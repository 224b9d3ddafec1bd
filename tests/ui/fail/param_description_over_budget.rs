use toolwright::tool;

/// Close the gripper on the object in front of it.
#[tool]
fn grasp(
    #[param(unit = "N", description = "Grip force to apply once the fingers touch the object; fragile objects break above their force limit, so prefer the default unless the object slips. Grip force to apply once the fingers touch the object; fragile objects break above their force limit, so prefer the default unless the object slips. Grip force to apply once the fingers touch the object; fragile objects break above their force limit, so prefer the default unless the object slips.")]
    force: f64,
) {
    let _ = force;
}

fn main() {}
