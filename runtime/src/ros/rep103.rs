//! Units of the standard ROS messages, after REP 103 ("Standard Units of Measure and Coordinate
//! Conventions": SI units, angles in radians) and the messages' own comments.
//!
//! Two kinds of entries:
//! - a numeric field's unit (`sensor_msgs/Range.range` is in meters), with an optional
//!   description for fields the `.msg` file leaves undescribed;
//! - a nested message field whose numbers all share a unit (`geometry_msgs/Twist.linear`, a
//!   `Vector3`, is in m/s): the unit applies to every number inside, overriding theirs.

use crate::schema::Unit;

const fn u(symbol: &'static str, words: &'static str) -> Unit {
    Unit { symbol, words }
}

pub(crate) const M: Unit = u("m", "meters");
pub(crate) const RAD: Unit = u("rad", "radians");
pub(crate) const M_S: Unit = u("m/s", "meters per second");
pub(crate) const RAD_S: Unit = u("rad/s", "radians per second");
pub(crate) const M_S2: Unit = u("m/s^2", "meters per second squared");
pub(crate) const RAD_S2: Unit = u("rad/s^2", "radians per second squared");
pub(crate) const N: Unit = u("N", "newtons");
pub(crate) const NM: Unit = u("N·m", "newton-meters");
pub(crate) const S: Unit = u("s", "seconds");
pub(crate) const NS: Unit = u("ns", "nanoseconds");
pub(crate) const DEG: Unit = u("deg", "degrees");
pub(crate) const CELSIUS: Unit = u("°C", "degrees Celsius");
pub(crate) const PA: Unit = u("Pa", "pascals");
pub(crate) const LX: Unit = u("lx", "lux");
pub(crate) const KG: Unit = u("kg", "kilograms");

/// What the table says of a field.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Entry {
    /// The unit of its numbers (every number inside, for a nested message).
    pub unit: Option<Unit>,
    /// A description when the `.msg` file has none for it.
    pub description: Option<&'static str>,
    /// Exclusive upper bound of a number (`nanosec` < 1e9).
    pub exclusive_maximum: Option<f64>,
}

const fn unit(unit: Unit) -> Entry {
    Entry {
        unit: Some(unit),
        description: None,
        exclusive_maximum: None,
    }
}

const fn described(unit: Option<Unit>, description: &'static str) -> Entry {
    Entry {
        unit,
        description: Some(description),
        exclusive_maximum: None,
    }
}

/// `(message, field) → entry`.
const TABLE: &[(&str, &str, Entry)] = &[
    // geometry_msgs: positions in meters, orientation as a unit quaternion.
    (
        "geometry_msgs/Point",
        "x",
        described(Some(M), "X coordinate."),
    ),
    (
        "geometry_msgs/Point",
        "y",
        described(Some(M), "Y coordinate."),
    ),
    (
        "geometry_msgs/Point",
        "z",
        described(Some(M), "Z coordinate."),
    ),
    (
        "geometry_msgs/Point32",
        "x",
        described(Some(M), "X coordinate."),
    ),
    (
        "geometry_msgs/Point32",
        "y",
        described(Some(M), "Y coordinate."),
    ),
    (
        "geometry_msgs/Point32",
        "z",
        described(Some(M), "Z coordinate."),
    ),
    (
        "geometry_msgs/Pose",
        "position",
        described(None, "Position of the origin."),
    ),
    (
        "geometry_msgs/Pose",
        "orientation",
        described(None, "Orientation, as a unit quaternion (x, y, z, w)."),
    ),
    (
        "geometry_msgs/Quaternion",
        "x",
        described(None, "X component of the quaternion's vector part."),
    ),
    (
        "geometry_msgs/Quaternion",
        "y",
        described(None, "Y component of the quaternion's vector part."),
    ),
    (
        "geometry_msgs/Quaternion",
        "z",
        described(None, "Z component of the quaternion's vector part."),
    ),
    (
        "geometry_msgs/Quaternion",
        "w",
        described(None, "Scalar part of the quaternion."),
    ),
    (
        "geometry_msgs/Vector3",
        "x",
        described(None, "X component."),
    ),
    (
        "geometry_msgs/Vector3",
        "y",
        described(None, "Y component."),
    ),
    (
        "geometry_msgs/Vector3",
        "z",
        described(None, "Z component."),
    ),
    (
        "geometry_msgs/Pose2D",
        "x",
        described(Some(M), "X coordinate."),
    ),
    (
        "geometry_msgs/Pose2D",
        "y",
        described(Some(M), "Y coordinate."),
    ),
    (
        "geometry_msgs/Pose2D",
        "theta",
        described(Some(RAD), "Heading."),
    ),
    (
        "geometry_msgs/Transform",
        "translation",
        described(Some(M), "Translation."),
    ),
    (
        "geometry_msgs/Transform",
        "rotation",
        described(None, "Rotation, as a unit quaternion."),
    ),
    (
        "geometry_msgs/Twist",
        "linear",
        described(Some(M_S), "Linear velocity."),
    ),
    (
        "geometry_msgs/Twist",
        "angular",
        described(Some(RAD_S), "Angular velocity."),
    ),
    (
        "geometry_msgs/Accel",
        "linear",
        described(Some(M_S2), "Linear acceleration."),
    ),
    (
        "geometry_msgs/Accel",
        "angular",
        described(Some(RAD_S2), "Angular acceleration."),
    ),
    (
        "geometry_msgs/Wrench",
        "force",
        described(Some(N), "Force."),
    ),
    (
        "geometry_msgs/Wrench",
        "torque",
        described(Some(NM), "Torque."),
    ),
    ("geometry_msgs/Inertia", "m", unit(KG)),
    // builtin_interfaces: time and durations as seconds plus nanoseconds.
    ("builtin_interfaces/Time", "sec", unit(S)),
    (
        "builtin_interfaces/Time",
        "nanosec",
        Entry {
            unit: Some(NS),
            description: None,
            exclusive_maximum: Some(1e9),
        },
    ),
    ("builtin_interfaces/Duration", "sec", unit(S)),
    (
        "builtin_interfaces/Duration",
        "nanosec",
        Entry {
            unit: Some(NS),
            description: None,
            exclusive_maximum: Some(1e9),
        },
    ),
    // sensor_msgs.
    (
        "sensor_msgs/JointState",
        "name",
        described(None, "Joint names, one per joint."),
    ),
    (
        "sensor_msgs/JointState",
        "position",
        described(
            None,
            "Position of each joint, in the order of `name`: radians (rad) for a revolute joint, meters (m) for a prismatic one.",
        ),
    ),
    (
        "sensor_msgs/JointState",
        "velocity",
        described(
            None,
            "Velocity of each joint, in the order of `name`: rad/s for a revolute joint, m/s for a prismatic one.",
        ),
    ),
    (
        "sensor_msgs/JointState",
        "effort",
        described(
            None,
            "Effort applied in each joint, in the order of `name`: N·m for a revolute joint, N for a prismatic one.",
        ),
    ),
    ("sensor_msgs/Range", "field_of_view", unit(RAD)),
    ("sensor_msgs/Range", "min_range", unit(M)),
    ("sensor_msgs/Range", "max_range", unit(M)),
    ("sensor_msgs/Range", "range", unit(M)),
    ("sensor_msgs/LaserScan", "angle_min", unit(RAD)),
    ("sensor_msgs/LaserScan", "angle_max", unit(RAD)),
    ("sensor_msgs/LaserScan", "angle_increment", unit(RAD)),
    ("sensor_msgs/LaserScan", "time_increment", unit(S)),
    ("sensor_msgs/LaserScan", "scan_time", unit(S)),
    ("sensor_msgs/LaserScan", "range_min", unit(M)),
    ("sensor_msgs/LaserScan", "range_max", unit(M)),
    ("sensor_msgs/LaserScan", "ranges", unit(M)),
    ("sensor_msgs/Imu", "angular_velocity", unit(RAD_S)),
    ("sensor_msgs/Imu", "linear_acceleration", unit(M_S2)),
    ("sensor_msgs/Temperature", "temperature", unit(CELSIUS)),
    ("sensor_msgs/FluidPressure", "fluid_pressure", unit(PA)),
    ("sensor_msgs/Illuminance", "illuminance", unit(LX)),
    ("sensor_msgs/NavSatFix", "latitude", unit(DEG)),
    ("sensor_msgs/NavSatFix", "longitude", unit(DEG)),
    ("sensor_msgs/NavSatFix", "altitude", unit(M)),
];

/// The table's entry for a field.
pub(crate) fn entry(message: &str, field: &str) -> Option<&'static Entry> {
    TABLE
        .iter()
        .find(|(m, f, _)| *m == message && *f == field)
        .map(|(_, _, e)| e)
}

/// Messages whose values must be unit quaternions.
pub(crate) fn unit_norm(message: &str) -> bool {
    message == "geometry_msgs/Quaternion"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn looks_up_by_message_and_field() {
        assert_eq!(
            entry("geometry_msgs/Twist", "angular").and_then(|e| e.unit),
            Some(RAD_S)
        );
        assert_eq!(entry("geometry_msgs/Twist", "x"), None);
        assert_eq!(
            entry("builtin_interfaces/Time", "nanosec").and_then(|e| e.exclusive_maximum),
            Some(1e9)
        );
        assert!(unit_norm("geometry_msgs/Quaternion"));
        assert!(!unit_norm("geometry_msgs/Vector3"));
    }

    #[test]
    fn no_entry_twice() {
        for (i, (m, f, _)) in TABLE.iter().enumerate() {
            assert!(
                !TABLE[..i].iter().any(|(m2, f2, _)| m2 == m && f2 == f),
                "{m}.{f} listed twice"
            );
        }
    }
}
