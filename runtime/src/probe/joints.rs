//! Which types the derive checks against a robot's joints (the `robot` feature): `Probe<T>`'s
//! inherent `JOINT_FIELDS` for a type `#[derive(ToolSchema)]` wrote (`T: JointFields`), the
//! fallback's for any other (its check passes; the published schema is checked when the
//! toolbox is built). See `crate::robot`'s `fields.rs`.

use super::Probe;
use crate::robot::{JointFields, JointFieldsOf, NoJointFields};

impl<T: JointFields> Probe<T> {
    /// `T`'s fields, checked against a robot's joints by `T`'s own `JointRanges` impl.
    pub const JOINT_FIELDS: JointFieldsOf<T> = JointFieldsOf::NEW;
}

/// `Probe::<T>::JOINT_FIELDS` for a type without fields the derive checks.
pub trait JointFieldsFallback {
    /// Nothing to check at compile time.
    const JOINT_FIELDS: JointFieldsOf<NoJointFields> = JointFieldsOf::NEW;
}
impl<T> JointFieldsFallback for Probe<T> {}
