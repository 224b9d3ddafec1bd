//! Generates the ROS 2 message types of the `ros_arm` example from the vendored `.msg` files
//! (examples/ros_msgs) with roslibrust's code generator: no ROS installation needed.
//! `src/ros_arm/msgs.rs` includes the result.

use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let msgs = manifest.join("ros_msgs");
    let (tokens, inputs) =
        roslibrust_codegen::find_and_generate_ros_messages_without_ros_package_path(vec![
            msgs.clone(),
        ])
        .unwrap_or_else(|e| panic!("generating the ROS messages of {}: {e}", msgs.display()));
    println!("cargo:rerun-if-changed={}", msgs.display());
    for path in inputs {
        println!("cargo:rerun-if-changed={}", path.display());
    }
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo")).join("ros_msgs.rs");
    std::fs::write(&out, tokens.to_string())
        .unwrap_or_else(|e| panic!("writing {}: {e}", out.display()));
}
