//! Shared by the benchmarks: scenarios, criterion settings, the ratio summary printed after a run,
//! and the instruction-count mode used by `tests/bench-scripts/instructions.sh`.
//!
//! A scenario is a named setup returning a routine that runs `n` iterations and returns the time
//! they took (criterion's `iter_custom`). With `TOOLWRIGHT_BENCH_PROFILE=<group>/<id>` set, the
//! benchmark binary skips criterion and runs that one scenario: a warm-up, then
//! `TOOLWRIGHT_BENCH_ITERS` iterations inside [`tw_bench_measured`], the function that
//! `valgrind --tool=callgrind --toggle-collect` counts instructions in.
//!
//! Criterion measures each implementation on its own; the figures that matter here are ratios
//! (toolwright over a baseline) between benchmarks of the same run. After the groups ran, the
//! summary reads the medians criterion wrote (`<target>/criterion/<group>/<fn>/new/estimates.json`),
//! keeps only the ones written by this process, and prints one line per comparison. The same table
//! goes to `<target>/criterion/ratios-<bench>.md`.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use criterion::Criterion;

/// Runs `n` iterations of a scenario and returns the time they took.
pub type Routine = Box<dyn FnMut(u64) -> Duration>;

/// One benchmark: `group/id`, set up on demand.
pub struct Scenario {
    /// Criterion group (the comparison it belongs to).
    pub group: String,
    /// The implementation measured.
    pub id: &'static str,
    /// Builds the routine (servers, clients, documents); not timed.
    pub setup: Box<dyn Fn() -> Routine>,
    /// Fewer samples for slow scenarios.
    pub sample_size: Option<usize>,
}

impl Scenario {
    /// A scenario with the default sample size.
    pub fn new(
        group: impl Into<String>,
        id: &'static str,
        setup: impl Fn() -> Routine + 'static,
    ) -> Self {
        Scenario {
            group: group.into(),
            id,
            setup: Box::new(setup),
            sample_size: None,
        }
    }

    /// Sets the sample size.
    #[allow(dead_code)] // not every benchmark has slow scenarios
    pub fn samples(mut self, n: usize) -> Self {
        self.sample_size = Some(n);
        self
    }
}

/// The code whose instructions `instructions.sh` counts (callgrind `--toggle-collect`).
#[inline(never)]
pub fn tw_bench_measured(routine: &mut Routine, iters: u64) -> Duration {
    routine(std::hint::black_box(iters))
}

/// Runs the scenarios under criterion and prints the ratios, or runs one of them for a profiler
/// (`TOOLWRIGHT_BENCH_PROFILE`, see the module docs).
pub fn run(bench: &str, scenarios: Vec<Scenario>, ratios: &[Ratio]) {
    if let Ok(which) = std::env::var("TOOLWRIGHT_BENCH_PROFILE") {
        let iters = std::env::var("TOOLWRIGHT_BENCH_ITERS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(1000u64);
        let scenario = scenarios
            .iter()
            .find(|s| format!("{}/{}", s.group, s.id) == which)
            .unwrap_or_else(|| panic!("no scenario {which}"));
        let mut routine = (scenario.setup)();
        routine(iters / 10 + 1);
        let took = tw_bench_measured(&mut routine, iters);
        eprintln!(
            "{which}: {iters} iterations, {:.3} µs each",
            took.as_secs_f64() * 1e6 / iters as f64
        );
        return;
    }
    if std::env::var_os("TOOLWRIGHT_BENCH_SCENARIOS").is_some() {
        for s in &scenarios {
            println!("{}/{}", s.group, s.id);
        }
        return;
    }
    let since = SystemTime::now();
    let mut c = criterion();
    let mut i = 0;
    while i < scenarios.len() {
        let name = scenarios[i].group.clone();
        let mut group = c.benchmark_group(name.clone());
        while i < scenarios.len() && scenarios[i].group == name {
            let s = &scenarios[i];
            if let Some(n) = s.sample_size {
                group.sample_size(n);
            }
            let mut routine = (s.setup)();
            group.bench_function(s.id, |b| b.iter_custom(&mut routine));
            i += 1;
        }
        group.finish();
    }
    c.final_summary();
    summarize(bench, since, ratios);
}

/// Where criterion writes its results: `$CARGO_TARGET_DIR/criterion` or the workspace's
/// `target/criterion`.
pub fn output_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../target")))
        .join("criterion")
}

/// Modest settings for a 2-core machine: a whole `cargo bench` takes a few minutes.
pub fn criterion() -> Criterion {
    Criterion::default()
        .sample_size(40)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4))
        .output_directory(&output_dir())
        .configure_from_args()
}

/// One comparison: `group/numerator` over `group/denominator`, against an optional target.
pub struct Ratio {
    /// Criterion group of both benchmarks.
    pub group: String,
    /// The implementation measured.
    pub numerator: &'static str,
    /// The baseline.
    pub denominator: &'static str,
    /// The target ratio (met when the measured ratio is at most this), if there is one.
    pub target: Option<f64>,
}

impl Ratio {
    /// `group/numerator` over `group/denominator`, met when at most `target`.
    pub fn new(
        group: impl Into<String>,
        numerator: &'static str,
        denominator: &'static str,
        target: Option<f64>,
    ) -> Self {
        Ratio {
            group: group.into(),
            numerator,
            denominator,
            target,
        }
    }
}

/// The median estimate (ns) of one benchmark, if this run wrote it.
fn median_ns(group: &str, function: &str, since: SystemTime) -> Option<f64> {
    let path = output_dir()
        .join(group)
        .join(function)
        .join("new")
        .join("estimates.json");
    let modified = std::fs::metadata(&path).ok()?.modified().ok()?;
    if modified < since {
        return None; // left over from an earlier run, or filtered out of this one
    }
    let text = std::fs::read_to_string(&path).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).ok()?;
    json["median"]["point_estimate"].as_f64()
}

fn human(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.3} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{ns:.0} ns")
    }
}

/// Prints (and writes to `ratios-<bench>.md`) the ratio of every comparison measured in this run.
pub fn summarize(bench: &str, since: SystemTime, ratios: &[Ratio]) {
    let mut table = String::new();
    let _ = writeln!(
        table,
        "| group | measured | baseline | median | baseline median | ratio | target |"
    );
    let _ = writeln!(table, "|---|---|---|---|---|---|---|");
    let mut rows = 0;
    for r in ratios {
        let (Some(num), Some(den)) = (
            median_ns(&r.group, r.numerator, since),
            median_ns(&r.group, r.denominator, since),
        ) else {
            continue;
        };
        let ratio = num / den;
        let target = match r.target {
            Some(t) if ratio <= t => format!("≤ {t} met"),
            Some(t) => format!("≤ {t} **missed**"),
            None => String::new(),
        };
        let _ = writeln!(
            table,
            "| {} | {} | {} | {} | {} | {ratio:.3}× | {target} |",
            r.group,
            r.numerator,
            r.denominator,
            human(num),
            human(den)
        );
        rows += 1;
    }
    if rows == 0 {
        return; // `--test`, `--list` or a filter that matched nothing comparable
    }
    println!("\nRatios (criterion medians of this run):\n\n{table}");
    let path = output_dir().join(format!("ratios-{bench}.md"));
    if std::fs::write(&path, &table).is_ok() {
        println!("(also written to {})", path.display());
    }
}
