//! Expansion snapshots: what one tool, one toolbox and one derive expand to, pretty-printed and
//! compared with the reviewed files in `macros/tests/expand/`. `TOOLWRIGHT_SNAPSHOT=overwrite cargo test -p
//! toolwright-macros` rewrites them (the variable that rewrites every snapshot); read the diff
//! before committing.

use std::path::PathBuf;

use proc_macro2::TokenStream;
use quote::quote;

fn check(name: &str, expansion: TokenStream) {
    let file: syn::File = syn::parse2(expansion).expect("the expansion is Rust");
    let text = prettyplease::unparse(&file);
    assert!(
        !text.contains("compile_error"),
        "{name} expanded with errors:\n{text}"
    );
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/expand")
        .join(format!("{name}.rs"));
    if std::env::var("TOOLWRIGHT_SNAPSHOT").is_ok_and(|v| v == "overwrite") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &text).unwrap();
        return;
    }
    let reviewed = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "no snapshot {}; run with TOOLWRIGHT_SNAPSHOT=overwrite and review it",
            path.display()
        )
    });
    assert!(
        reviewed == text,
        "the expansion of {name} differs from {}; run with TOOLWRIGHT_SNAPSHOT=overwrite to rewrite it and review the diff.\n--- now ---\n{text}",
        path.display()
    );
}

#[test]
fn a_tool() {
    check(
        "tool",
        crate::tool::expand(
            quote!(
                idempotent,
                timeout = "30s",
                resource = "arm",
                confirm = "Move the arm to x = {x} at {speed} of full speed?"
            ),
            quote! {
                /// Move the arm's tool point in a straight line to a position.
                async fn move_arm_to_pose(
                    /// Target X coordinate.
                    #[param(unit = "mm", range = -850.0..=850.0)]
                    x: f64,
                    /// Fraction of the maximum speed.
                    #[param(range = 0.1..=1.0, default = 0.5)]
                    speed: f64,
                    ctx: Context,
                ) -> Result<MoveResult, ToolError> {
                    todo_move(x, speed, &ctx).await
                }
            },
        ),
    );
}

#[test]
fn a_toolbox() {
    check(
        "toolbox",
        crate::toolbox::expand(
            quote!(
                timeout = "30s",
                resource(name = "arm", safe_stop = halt, max_waiting = 8)
            ),
            quote! {
                impl RobotArm {
                    /// Halts any motion where it is.
                    fn halt(&self) -> String {
                        self.stop_now()
                    }

                    /// Read the arm's state.
                    #[tool(read_only, blocking = false)]
                    fn get_arm_state(&self) -> ArmState {
                        self.state()
                    }

                    /// Close the gripper with a force.
                    #[tool(resource = "arm", scopes = ["arm:move"], confirm = false, because = "a simulated arm moves nothing")]
                    async fn grip(
                        &self,
                        /// Grip force.
                        #[param(unit = "N", range = 5.0..=30.0, default = 15.0)]
                        force: f64,
                    ) -> Result<String, ToolError> {
                        self.close(force).await
                    }
                }
            },
        ),
    );
}

#[test]
fn a_derive() {
    check(
        "derive",
        crate::derive::expand(quote! {
            /// A command for the arm.
            #[serde(tag = "kind", rename_all = "snake_case")]
            enum Command {
                /// Move to a target.
                MoveTo {
                    /// Fraction of the maximum speed.
                    #[param(range = 0.1..=1.0)]
                    target_speed: f64,
                    /// Where, in the base frame.
                    target: Position,
                },
                /// Stop where it is.
                Stop,
            }
        }),
    );
}
