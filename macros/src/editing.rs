//! The macros while the user types: what rustc and rust-analyzer get back for half-typed bodies
//! (rust-analyzer's `__ra_fixup` repairs among them), for a mistake in an attribute and for a
//! signature that does not parse. The item is always in the output, without our helper
//! attributes; the generated registration is there whenever the signatures can be read.

use proc_macro2::TokenStream;
use quote::quote;

fn text(tokens: &TokenStream) -> String {
    tokens.to_string()
}

/// No attribute rustc would not know, no doc comment on a parameter.
fn assert_clean(out: &str) {
    for helper in [
        "# [tool",
        "# [param",
        "# [toolwright :: tool",
        "# [doc = r\" X, mm.\"]",
        "# [doc = r\" Seconds.\"]",
        "# [doc = r\" Speed, mm/s.\"]",
    ] {
        assert!(!out.contains(helper), "`{helper}` left in:\n{out}");
    }
}

/// `what` is in `out`, up to a trailing comma in a list (syn prints `(x: f64,)` for what was
/// written with one).
fn assert_contains(out: &str, what: &TokenStream) {
    let (out, what) = (out.replace(" ,)", ")"), text(what).replace(" ,)", ")"));
    assert!(out.contains(&what), "`{what}` missing from:\n{out}");
}

/// A tool body being typed (`let half = self.sim.` before the body's last line): the body
/// passes through as written and the definition is generated, with no error of ours.
#[test]
fn a_half_typed_body_of_a_free_tool_still_expands() {
    let body = quote! {
        let half = speed.
        format!("{speed}")
    };
    let out = text(&crate::tool::expand(
        quote!(read_only),
        quote! {
            /// Read the conveyor.
            fn read_conveyor(
                /// Speed, mm/s.
                #[param(unit = "mm/s", range = 0.0..=500.0)]
                speed: f64,
            ) -> String {
                #body
            }
        },
    ));
    assert!(!out.contains("compile_error"), "{out}");
    assert_contains(&out, &body);
    assert_contains(&out, &quote!(fn __toolwright_tool_read_conveyor));
    assert_clean(&out);
}

/// The same slip in one method of a `#[toolbox]` impl: every tool keeps its definition.
#[test]
fn a_half_typed_body_in_a_toolbox_keeps_every_tool() {
    let body = quote! {
        let half = self.sim.
        format!("{speed}")
    };
    let out = text(&crate::toolbox::expand(
        quote!(resource(name = "belt", safe_stop = halt)),
        quote! {
            impl Cell {
                fn halt(&self) {}

                /// Run the belt.
                #[tool(resource = "belt", confirm = "Run the belt at {speed}?")]
                async fn run_belt(
                    &self,
                    /// Speed, mm/s.
                    #[param(unit = "mm/s", range = 0.0..=500.0)]
                    speed: f64,
                ) -> String {
                    #body
                }

                /// Read the belt.
                #[tool(read_only)]
                fn belt_state(&self) -> String {
                    String::new()
                }
            }
        },
    ));
    assert!(!out.contains("compile_error"), "{out}");
    assert_contains(&out, &body);
    assert_contains(&out, &quote!(ToolSet for Cell));
    assert_contains(&out, &quote!(name : "run_belt"));
    assert_contains(&out, &quote!(name : "belt_state"));
    assert_clean(&out);
}

/// What rust-analyzer hands a macro while the user types: its fixups insert `__ra_fixup` where
/// an expression, a field or a block is missing. Every tool expands as if the body were whole.
#[test]
fn rust_analyzer_fixup_bodies_expand() {
    let bodies = [
        quote!(let half = self.sim.__ra_fixup; String::new()),
        quote!(let x = __ra_fixup; String::new()),
        quote!(if __ra_fixup {} String::new()),
        quote!(while __ra_fixup {} String::new()),
        quote!(for _ in __ra_fixup {} String::new()),
        quote!(match __ra_fixup {} String::new()),
        quote!(self.sim.step(__ra_fixup); String::new()),
        quote!(let x = self.sim.; String::new()),
        quote!(let x = ; String::new()),
    ];
    for body in bodies {
        let out = text(&crate::toolbox::expand(
            quote!(),
            quote! {
                impl Cell {
                    /// Step the simulation.
                    #[tool]
                    fn step(
                        &self,
                        /// Seconds.
                        #[param(unit = "s", range = 0.0..=1.0)]
                        dt: f64,
                    ) -> String {
                        #body
                    }
                }
            },
        ));
        assert!(!out.contains("compile_error"), "{body}:\n{out}");
        assert_contains(&out, &body);
        assert_contains(&out, &quote!(ToolSet for Cell));
        assert_clean(&out);

        let out = text(&crate::tool::expand(
            quote!(),
            quote! {
                /// Step the simulation.
                fn step(
                    /// Seconds.
                    #[param(unit = "s", range = 0.0..=1.0)]
                    dt: f64,
                ) -> String {
                    #body
                }
            },
        ));
        assert!(!out.contains("compile_error"), "{body}:\n{out}");
        assert_contains(&out, &body);
        assert_contains(&out, &quote!(fn __toolwright_tool_step));
        assert_clean(&out);
    }
}

/// A mistake in the attribute: our error, and the fn as written, without our attributes, with
/// its (stub or real) definition, so the rest of the crate keeps its types.
#[test]
fn a_mistake_in_the_attribute_keeps_the_item() {
    let out = text(&crate::tool::expand(
        quote!(naem = "x"),
        quote! {
            /// Move.
            pub fn move_to(
                /// X, mm.
                #[param(unit = "mm")]
                x: f64,
            ) -> f64 {
                x * 2.0
            }
        },
    ));
    assert!(out.contains("compile_error"), "{out}");
    assert_contains(
        &out,
        &quote!(
            pub fn move_to(x: f64) -> f64 {
                x * 2.0
            }
        ),
    );
    assert_contains(&out, &quote!(fn __toolwright_tool_move_to));
    assert_clean(&out);

    let out = text(&crate::toolbox::expand(
        quote!(resource(name = "arm", safe_stop = hlat)),
        quote! {
            impl Arm {
                fn halt(&self) {}

                /// Move.
                #[tool(resource = "arm", naem = "x")]
                fn move_to(
                    &self,
                    /// X, mm.
                    #[param(unit = "mm")]
                    x: f64,
                ) -> f64 {
                    x * 2.0
                }
            }
        },
    ));
    assert!(out.contains("compile_error"), "{out}");
    assert_contains(
        &out,
        &quote!(
            fn move_to(&self, x: f64) -> f64 {
                x * 2.0
            }
        ),
    );
    assert_contains(
        &out,
        &quote!(
            fn halt(&self) {}
        ),
    );
    assert_clean(&out);
}

/// A signature being typed: rustc reports the syntax error; the macro gives the item back
/// without our attributes (and, for a free tool, a stub definition), adding no error of its own.
#[test]
fn a_half_typed_signature_gives_the_item_back() {
    let out = text(&crate::tool::expand(
        quote!(),
        quote! {
            /// Move.
            pub fn move_to(
                /// X, mm.
                #[param(unit = "mm")]
                x: ,
            ) -> f64 {
                2.0
            }
        },
    ));
    assert!(!out.contains("compile_error"), "{out}");
    assert_contains(&out, &quote!(pub fn move_to(x: ,) -> f64 { 2.0 }));
    assert_contains(&out, &quote!(pub fn __toolwright_tool_move_to));
    assert_clean(&out);

    let out = text(&crate::toolbox::expand(
        quote!(resource(name = "arm", safe_stop = halt)),
        quote! {
            impl Arm {
                /// Halts the arm.
                fn halt(&self, ) -> {}

                /// Move.
                #[tool(resource = "arm", confirm = "Move to {x}?")]
                fn move_to(
                    &self,
                    /// X, mm.
                    #[param(unit = "mm")]
                    x: ,
                ) -> f64 {
                    2.0
                }

                /// Read the arm.
                #[tool(read_only)]
                fn read(&self) -> f64 {
                    1.0
                }
            }
        },
    ));
    // No "no tool uses `arm`", no "no method `halt`": those items are being typed.
    assert!(!out.contains("compile_error"), "{out}");
    assert_contains(&out, &quote!(fn move_to(&self, x: ,) -> f64 { 2.0 }));
    assert_contains(&out, &quote!(name : "read"));
    assert_clean(&out);
}

/// Not a fn, not an impl: our error, and the item as written.
#[test]
fn the_wrong_item_is_one_error_and_kept() {
    let out = text(&crate::tool::expand(
        quote!(),
        quote!(
            struct Arm {
                x: f64,
            }
        ),
    ));
    assert_eq!(out.matches("compile_error").count(), 1, "{out}");
    assert_contains(
        &out,
        &quote!(
            struct Arm {
                x: f64,
            }
        ),
    );
    let out = text(&crate::toolbox::expand(
        quote!(),
        quote!(
            fn arm() {}
        ),
    ));
    assert_eq!(out.matches("compile_error").count(), 1, "{out}");
    assert_contains(
        &out,
        &quote!(
            fn arm() {}
        ),
    );
}
