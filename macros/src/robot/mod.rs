//! `robot(..)` on a `#[toolbox]` resource: the robot's own description read at compile time
//! and reduced to constant data the runtime checks motions with (`toolwright::reference`,
//! "Robots").
//!
//! Plain functions, testable without `proc_macro`: paths in, a reduced [`model::Robot`] or
//! every problem (what, and which key of the declaration it belongs to) out.
//!
//! - `decl.rs`: what the declaration says, the problems and their sites;
//! - `files.rs`: paths, mesh URIs (`package://` through the declared map), the files read;
//! - `urdf.rs`: the URDF (roxmltree for positions and strict numbers, urdf-rs for the model);
//! - `limits.rs` (over `yaml.rs`): a ros2_control / MoveIt `joint_limits.yaml`;
//! - `srdf.rs`: the SRDF's disabled pairs and named states;
//! - `mesh.rs`: STL meshes; `capsule.rs`, `shapes.rs`: shapes to bounding capsules;
//! - `reduce.rs`: the chain, the capsules, the enforced limits; `model.rs`: the result;
//! - `math.rs`: vectors, rotations, poses;
//! - `attr.rs`: the keys of `robot(..)` from tokens; `codegen.rs`: the `RobotDef` expression;
//! - `resource.rs`: `robot(..)` on a `#[toolbox]` resource (taken out of the attribute, then
//!   the constants, methods, joint-position type and `ToolSet::robots` generated);
//! - `fields.rs`: a hand-written struct of joint positions checked against the robot at
//!   compile time (the derive's impls, the toolbox's checks).

pub mod attr;
pub mod capsule;
pub mod codegen;
pub mod decl;
pub mod fields;
pub mod files;
pub mod limits;
pub mod math;
pub mod mesh;
pub mod model;
pub mod reduce;
pub mod resource;
pub mod shapes;
pub mod srdf;
pub mod urdf;
pub mod yaml;

#[cfg(test)]
mod tests;

pub use reduce::read;
