use toolwright::tool;

#[doc = concat!("Move the arm. Move the arm. Move the arm. Move the arm. Move the arm. Move the arm. Move the arm. Move the arm. Move the arm. Move the arm.", " ", "Move the arm. Move the arm. Move the arm. Move the arm. Move the arm. Move the arm. Move the arm. Move the arm. Move the arm. Move the arm.")]
#[tool(max_description_bytes = 200)]
fn move_arm() {}

fn main() {}
