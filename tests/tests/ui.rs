//! Compile-time behaviour: definitions that would mislead a model fail the build, on the
//! offending token; valid edge cases compile.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/fail/*.rs");
    t.pass("ui/pass/*.rs");
}
