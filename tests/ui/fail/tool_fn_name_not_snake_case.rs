#![allow(non_snake_case)]
use toolwright::tool;

/// Move the arm to a pose.
#[tool]
fn moveArm() {}

fn main() {}
