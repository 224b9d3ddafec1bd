//! The README's "Use it in your crate" lines build a crate: a scratch crate whose
//! `[dependencies]` are exactly those lines (toolwright itself patched to this checkout, since
//! it is not on crates.io yet) and whose `src/main.rs` is the README's first example, plus a
//! tool taking a uom quantity (the lines' `uom` feature and crate). Its binary then answers the
//! "Try it" commands: `tools --format markdown` and `call`. And every robot-arm command line of
//! "Try it" runs as written.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md")).unwrap()
}

/// The first fenced block of `lang` after `heading` (or from the start).
fn block(text: &str, heading: Option<&str>, lang: &str) -> String {
    let from = heading.map_or(0, |h| text.find(h).unwrap_or_else(|| panic!("no {h}")));
    let rest = &text[from..];
    let fence = format!("```{lang}");
    let start = rest.find(&fence).unwrap_or_else(|| panic!("no {fence}"));
    let body = &rest[start..];
    let body = &body[body.find('\n').unwrap() + 1..];
    body[..body.find("```").unwrap()].to_owned()
}

#[test]
fn the_cargo_toml_lines_build_a_crate() {
    let text = readme();
    let lines = block(&text, Some("## Use it in your crate"), "toml");
    assert!(lines.starts_with("[dependencies]\n"), "{lines}");
    for needed in ["toolwright =", "serde =", "tokio =", "uom ="] {
        assert!(lines.contains(needed), "{needed} missing from:\n{lines}");
    }
    let example = block(&text, None, "rust");
    assert!(example.contains("run_cli_main()"), "{example}");

    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let workspace = workspace.canonicalize().unwrap();
    // Inside the workspace's target, so its .cargo/config.toml (the dev profile) applies and
    // the dependencies it already built are reused.
    let target = workspace.join("target");
    let dir = target
        .join("tmp")
        .join(format!("readme-crate-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let manifest = format!(
        "[package]\nname = \"my-robot\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n{lines}\n\
         [patch.crates-io]\ntoolwright = {{ path = {:?} }}\ntoolwright-macros = {{ path = {:?} }}\n\n\
         # Not a member of the toolwright workspace above it.\n[workspace]\n",
        workspace.join("runtime"),
        workspace.join("macros"),
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    // The workspace's lock file: the same versions it already has, nothing fetched.
    std::fs::copy(workspace.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let quantities = r#"
/// How far to reach.
#[toolwright::tool(read_only)]
fn reach(
    /// The distance.
    #[param(unit = "mm", range = 0.0..=850.0)]
    distance: uom::si::f64::Length,
) -> String {
    format!("{:.0} mm", distance.get::<uom::si::length::millimeter>())
}

#[allow(dead_code)]
fn quantities() -> Vec<toolwright::ToolDef<()>> {
    toolwright::tool_defs![reach]
}
"#;
    std::fs::write(dir.join("src/main.rs"), format!("{example}\n{quantities}")).unwrap();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(&cargo)
        .args(["build", "--offline", "--quiet", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", &target)
        .env_remove("RUSTFLAGS")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "the README's lines do not build:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bin: PathBuf = target.join("debug").join("my-robot");
    let tools = Command::new(&bin)
        .args(["tools", "--format", "markdown"])
        .output()
        .unwrap();
    assert!(tools.status.success(), "{tools:?}");
    let markdown = String::from_utf8(tools.stdout).unwrap();
    assert!(markdown.contains("## `grasp`"), "{markdown}");
    let call = Command::new(&bin)
        .args([
            "call",
            "grasp",
            "--args",
            r#"{"target": {"x": 1, "y": 2}, "force": 100}"#,
        ])
        .output()
        .unwrap();
    assert_eq!(call.status.code(), Some(1), "{call:?}");
    assert!(
        String::from_utf8_lossy(&call.stdout)
            .contains("force: must be between 5 and 30 N, got 100"),
        "{}",
        String::from_utf8_lossy(&call.stdout)
    );
    let _ = std::fs::remove_file(&bin);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The words of a shell line (`a 'b c' d`), with single quotes as the README writes them.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let (mut quoted, mut started) = (false, false);
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                started = true;
            }
            c if c.is_whitespace() && !quoted => {
                if started {
                    out.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            c => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        out.push(word);
    }
    out
}

/// Every `cargo run --example robot_arm ...` line of "Try it" runs as written (with the robot
/// arm built once; `docs/` is a scratch folder; `serve --http` must be up and serving after a
/// second, then it is stopped).
#[test]
fn the_try_it_commands_run_as_written() {
    let text = readme();
    let section = &text[text.find("## Try it").unwrap()..];
    let section = &section[..section[3..].find("\n## ").unwrap() + 3];
    let mut lines: Vec<String> = Vec::new();
    let mut rest = section;
    while let Some(at) = rest.find("```sh\n") {
        let block = &rest[at + "```sh\n".len()..];
        let end = block.find("```").unwrap();
        lines.extend(
            block[..end]
                .lines()
                .map(|l| l.split(" #").next().unwrap().trim().to_owned())
                .filter(|l| l.starts_with("cargo run --example robot_arm")),
        );
        rest = &block[end..];
    }
    assert!(lines.len() >= 7, "{lines:?}");
    let bin = common::robot_arm_binary();
    let scratch = std::env::temp_dir().join(format!("toolwright-try-it-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).unwrap();
    for line in &lines {
        let args: Vec<String> = words(line)
            .into_iter()
            .skip(4) // cargo run --example robot_arm
            .skip_while(|w| w == "--")
            .map(|w| w.replace("docs/", &format!("{}/", scratch.display())))
            .collect();
        if args.first().map(String::as_str) == Some("serve") {
            let mut server = Command::new(&bin)
                .args(&args)
                .stdin(std::process::Stdio::null())
                .spawn()
                .unwrap();
            std::thread::sleep(std::time::Duration::from_secs(1));
            let addr = args.iter().skip_while(|a| *a != "--http").nth(1).unwrap();
            let reached = std::net::TcpStream::connect(addr.as_str()).is_ok();
            let early_exit = server.try_wait().unwrap();
            let _ = server.kill();
            let _ = server.wait();
            assert!(
                early_exit.is_none() && reached,
                "`{line}` is not serving on {addr}"
            );
            continue;
        }
        let out = Command::new(&bin)
            .args(&args)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "`{line}` failed ({:?}):\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert!(scratch.join("index.html").exists());
    let _ = std::fs::remove_dir_all(&scratch);
}
