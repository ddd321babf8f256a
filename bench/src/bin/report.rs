//! Writes `docs/benchmarks.md` and `docs/benchmarks.svg` from the last
//! `cargo bench -p pkt-bench` run (criterion's `new/estimates.json`, median)
//! plus wire sizes and allocation counts measured here.
//!
//! Usage: `cargo run -p pkt-bench --release --bin report [-- [--csharp-only | --instructions-only | --delta-only] [CRITERION_DIR]]`.
//! CRITERION_DIR defaults to `$CARGO_TARGET_DIR/criterion`, else
//! `target/criterion` in the workspace.
//!
//! When `$CARGO_TARGET_DIR/csharp-bench/results.tsv` (written by
//! `--bin csharp`) exists, a C# section is added. `--csharp-only` replaces
//! just that section in the existing `docs/benchmarks.md` and leaves the Rust
//! part (and the chart) as they are, so no criterion results are needed.
//! Likewise `$CARGO_TARGET_DIR/instructions/results.tsv` (from
//! `--bin instructions`) adds the instruction counts, and
//! `--instructions-only` replaces just their section. The delta-snapshot
//! section needs the results of `cargo bench -p pkt-bench --bench world`;
//! `--delta-only` replaces just that section.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use pkt_bench::codec::Codec;
use pkt_bench::csharp_report;
use pkt_bench::instructions::{self, Counts};
use pkt_bench::suite::{
    self, Visitor, CODECS, DATASETS, FIXED, FIXED_LAYOUT, READS, VIEW_DATASETS,
};
use pkt_bench::typescript_report;
use pkt_bench::world::{Run, Sizes, DATASET as WORLD};
use pkt_bench::world_report;
use rkyv::util::AlignedVec;

// Counts allocations (including reallocations) per thread; the report is
// single-threaded and measures nothing else while counting.
pkt_test_support::counting_allocator!();

/// Allocations per call of `f`, after two warm-up calls (so buffers that are
/// reused have reached their size).
fn allocs_per_op(mut f: impl FnMut()) -> f64 {
    f();
    f();
    const N: u64 = 20;
    let before = pkt_test_support::alloc::calls();
    for _ in 0..N {
        f();
    }
    (pkt_test_support::alloc::calls() - before) as f64 / N as f64
}

#[derive(Clone, Debug, Default)]
struct Row {
    encode_mode: &'static str,
    bytes: usize,
    encode_allocs: f64,
    decode_allocs: f64,
}

/// Allocations per read-side call, by (data set, codec, operation).
type ReadAllocs = BTreeMap<(&'static str, &'static str, &'static str), f64>;

#[derive(Default)]
struct Measure {
    rows: BTreeMap<(&'static str, &'static str), Row>,
    reads: ReadAllocs,
}

impl Visitor for Measure {
    fn codec<T, C>(&mut self, dataset: &'static str, codec: &'static str, value: &T, mut c: C)
    where
        T: Clone + PartialEq + core::fmt::Debug,
        C: Codec<T>,
    {
        let mut wire = AlignedVec::<16>::new();
        wire.extend_from_slice(c.encode(value));
        let back = c.decode(&wire);
        assert!(
            back == *value,
            "{dataset}/{codec}: round trip changed the value"
        );
        let encode_allocs = allocs_per_op(|| {
            std::hint::black_box(c.encode(value).len());
        });
        let decode_allocs = allocs_per_op(|| {
            std::hint::black_box(c.decode(&wire));
        });
        self.rows.insert(
            (dataset, codec),
            Row {
                encode_mode: C::ENCODE,
                bytes: wire.len(),
                encode_allocs,
                decode_allocs,
            },
        );
    }

    fn decode_into<T>(
        &mut self,
        dataset: &'static str,
        value: &T,
        wire: Vec<u8>,
        into: fn(&[u8], &mut T),
    ) where
        T: Clone + PartialEq + core::fmt::Debug,
    {
        let mut target = value.clone();
        into(&wire, &mut target);
        assert!(target == *value, "{dataset}: decode_into changed the value");
        let decode_allocs = allocs_per_op(|| into(&wire, &mut target));
        self.rows.insert(
            (dataset, "pktc decode_into"),
            Row {
                encode_mode: "",
                bytes: wire.len(),
                encode_allocs: f64::NAN,
                decode_allocs,
            },
        );
    }

    fn read(
        &mut self,
        dataset: &'static str,
        codec: &'static str,
        op: &'static str,
        wire: &[u8],
        read: fn(&[u8]) -> u64,
        expected: u64,
    ) {
        assert_eq!(read(wire), expected, "{dataset}/{codec}/{op}: wrong read");
        let allocs = allocs_per_op(|| {
            std::hint::black_box(read(wire));
        });
        self.reads.insert((dataset, codec, op), allocs);
    }
}

/// Median times in ns by (data set, codec label, operation).
type Times = BTreeMap<(String, String, String), f64>;

fn read_times(dir: &Path) -> Times {
    let mut times = Times::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                if p.file_name().is_some_and(|n| n == "new") {
                    read_one(&p, &mut times);
                } else {
                    stack.push(p);
                }
            }
        }
    }
    times
}

fn read_one(new: &Path, times: &mut Times) {
    let json = |f: &str| -> Option<serde_json::Value> {
        serde_json::from_str(&std::fs::read_to_string(new.join(f)).ok()?).ok()
    };
    let (Some(bench), Some(est)) = (json("benchmark.json"), json("estimates.json")) else {
        return;
    };
    let group = bench["group_id"].as_str().unwrap_or_default().to_owned();
    let function = bench["function_id"].as_str().unwrap_or_default();
    let Some((codec, op)) = function.rsplit_once('/') else {
        return;
    };
    let Some(median) = est["median"]["point_estimate"].as_f64() else {
        return;
    };
    let codec = if op == "decode_into" {
        "pktc decode_into".to_owned()
    } else {
        codec.to_owned()
    };
    times.insert((group, codec, op.to_owned()), median);
}

fn fmt_ns(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns >= 1e3 {
        format!("{:.1} µs", ns / 1e3)
    } else {
        format!("{ns:.1} ns")
    }
}

fn fmt_ratio(r: f64) -> String {
    if r.is_finite() && r > 0.0 && r < 0.01 {
        // A view of a fixed-size list against work over all of its data.
        format!("{r:.1e}x")
    } else if r.is_finite() && r >= 100.0 {
        format!("{r:.0}x")
    } else if r.is_finite() {
        format!("{r:.2}x")
    } else {
        "–".to_owned()
    }
}

fn fmt_allocs(a: f64) -> String {
    if a.is_nan() {
        "–".to_owned()
    } else if a.fract() == 0.0 {
        format!("{a:.0}")
    } else {
        format!("{a:.2}")
    }
}

fn command(cmd: &str, args: &[&str]) -> String {
    std::process::Command::new(cmd)
        .args(args)
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_owned())
        .unwrap_or_else(|| "unknown".to_owned())
}

fn machine() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .and_then(|l| l.split_once(':'))
        .map_or("unknown", |(_, m)| m.trim())
        .to_owned();
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    format!(
        "- CPU: {model}, {cores} cores available (shared with other builds while measuring)\n\
         - {}\n\
         - Date: {}\n",
        command("rustc", &["--version"]),
        command("date", &["-u", "+%Y-%m-%d %H:%M UTC"]),
    )
}

struct Report {
    rows: BTreeMap<(&'static str, &'static str), Row>,
    reads: ReadAllocs,
    times: Times,
    counts: Option<Counts>,
}

impl Report {
    fn time(&self, ds: &str, codec: &str, op: &str) -> Option<f64> {
        self.times
            .get(&(ds.to_owned(), codec.to_owned(), op.to_owned()))
            .copied()
    }

    /// Ratio of `codec`'s time to pktc's for `op` (> 1: pktc is faster).
    fn ratio(&self, ds: &str, codec: &str, op: &str) -> f64 {
        let pktc_op = if op == "decode_into" { "decode" } else { op };
        match (self.time(ds, codec, op), self.time(ds, "pktc", pktc_op)) {
            (Some(t), Some(p)) => t / p,
            _ => f64::NAN,
        }
    }

    fn table(&self, ds: &str, out: &mut String) {
        let _ = writeln!(out, "### {ds}\n");
        out.push_str(
            "| codec | encode into | encode | vs pktc | decode | vs pktc | bytes | allocs/encode | allocs/decode |\n\
             | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
        );
        for codec in CODECS {
            let Some(row) = self.rows.get(&(ds, codec)) else {
                continue;
            };
            let (enc, enc_r, dec, dec_r) = if codec == "pktc decode_into" {
                let dec = self.time(ds, codec, "decode_into");
                (
                    "–".to_owned(),
                    "–".to_owned(),
                    dec.map_or("?".to_owned(), fmt_ns),
                    fmt_ratio(self.ratio(ds, codec, "decode_into")),
                )
            } else {
                (
                    self.time(ds, codec, "encode")
                        .map_or("?".to_owned(), fmt_ns),
                    fmt_ratio(self.ratio(ds, codec, "encode")),
                    self.time(ds, codec, "decode")
                        .map_or("?".to_owned(), fmt_ns),
                    fmt_ratio(self.ratio(ds, codec, "decode")),
                )
            };
            let mode = if codec == "pktc decode_into" {
                "(decodes into an existing value)"
            } else {
                row.encode_mode
            };
            let _ = writeln!(
                out,
                "| {codec} | {mode} | {enc} | {enc_r} | {dec} | {dec_r} | {} | {} | {} |",
                row.bytes,
                fmt_allocs(row.encode_allocs),
                fmt_allocs(row.decode_allocs),
            );
        }
        out.push('\n');
    }

    /// The targets, checked against this run.
    fn targets(&self, out: &mut String) {
        let mut line = |ok: bool, text: String| {
            let _ = writeln!(
                out,
                "- {} {text}",
                if ok { "**met**:" } else { "**missed**:" }
            );
        };
        let peers = [
            "wincode",
            "bincode (fixint)",
            "bincode (varint)",
            "postcard",
            "bitcode",
            "rkyv",
            "speedy",
            "prost",
            "bebop",
        ];
        for ds in FIXED {
            let (Some(slice), Some(base)) = (
                self.time(ds, "pktc (slice)", "encode"),
                self.time(ds, "baseline", "encode"),
            ) else {
                continue;
            };
            let r = slice / base;
            line(
                r <= 1.2,
                format!(
                    "{ds}: pktc encode (slice) is {r:.2}x the hand-written baseline (target ≤ 1.2x)"
                ),
            );
            let best = self
                .time(ds, "pktc", "encode")
                .unwrap_or(f64::NAN)
                .min(slice);
            let slower: Vec<&str> = peers
                .iter()
                .copied()
                .filter(|p| self.time(ds, p, "encode").is_some_and(|t| t < best))
                .collect();
            line(
                slower.is_empty(),
                if slower.is_empty() {
                    format!("{ds}: pktc encodes faster than every peer")
                } else {
                    format!("{ds}: pktc encode is slower than {}", slower.join(", "))
                },
            );
        }
        // pktc's `encode_into` (a reused Vec) and `decode` against the
        // fixed-layout peers.
        for ds in DATASETS.iter().filter(|d| !FIXED.contains(d)) {
            for op in ["encode", "decode"] {
                let ratio = |p: &str| match (self.time(ds, p, op), self.time(ds, "pktc", op)) {
                    (Some(t), Some(r)) => t / r,
                    _ => f64::NAN,
                };
                // Beside each peer ahead, its instruction count against
                // pktc's, which tells a timing swing from a real gap.
                let instr = |p: &str| {
                    self.counts
                        .as_ref()
                        .and_then(|c| c.ratio(ds, p, op))
                        .map_or(String::new(), |r| format!("; instructions {r:.2}x"))
                };
                let ahead: Vec<String> = FIXED_LAYOUT
                    .iter()
                    .filter(|p| ratio(p) < 1.0)
                    .map(|p| format!("{p} ({:.2}x{})", ratio(p), instr(p)))
                    .collect();
                line(
                    ahead.is_empty(),
                    if ahead.is_empty() {
                        format!(
                            "{ds}: pktc {op} is no slower than {}",
                            FIXED_LAYOUT.join(", ")
                        )
                    } else {
                        format!("{ds}: pktc {op} is slower than {}", ahead.join(", "))
                    },
                );
            }
            if let (Some(r), Some(p)) = (
                self.time(ds, "rkyv", "decode"),
                self.time(ds, "pktc", "decode"),
            ) {
                let x = p / r;
                line(
                    x <= 1.1,
                    format!(
                        "{ds}: pktc decode is {x:.2}x rkyv's validated deserialize (target ≤ 1.1x)"
                    ),
                );
            }
            for op in ["encode", "decode"] {
                if let (Some(m), Some(p)) = (self.time(ds, "memcpy", op), self.time(ds, "pktc", op))
                {
                    let x = p / m;
                    line(
                        x <= 1.1,
                        format!("{ds}: pktc {op} is {x:.2}x a plain memcpy of the same bytes (target ≤ 1.1x)"),
                    );
                }
            }
        }
        for ds in DATASETS {
            let (Some(p), Some(b)) = (
                self.rows.get(&(ds, "pktc")),
                self.rows.get(&(ds, "bincode (fixint)")),
            ) else {
                continue;
            };
            line(
                p.bytes <= b.bytes,
                format!(
                    "{ds}: pktc writes {} bytes, bincode (fixint) {}",
                    p.bytes, b.bytes
                ),
            );
        }
        let views = self.view_targets();
        let mut info = Vec::new();
        for (ok, text) in views {
            match ok {
                Some(ok) => line(ok, text),
                None => info.push(text),
            }
        }
        for text in info {
            let _ = writeln!(out, "- information: {text}");
        }
        out.push('\n');
    }

    /// The targets of the borrowed views, checked against this
    /// run (`Some(met)`), and comparisons given for information (`None`).
    /// See the Views section for what the rows measure.
    fn view_targets(&self) -> Vec<(Option<bool>, String)> {
        let mut lines = Vec::new();
        for ds in ["ChatPacket", "ServerPacket stream"] {
            if let (Some(v), Some(d)) = (
                self.time(ds, "pktc view", "all fields"),
                self.time(ds, "pktc", "decode"),
            ) {
                let r = v / d;
                lines.push((
                    Some(r <= 0.5),
                    format!(
                        "{ds}: pktc view + reading every field takes {r:.2}x the time of pktc's owned decode (target ≤ 0.5x)"
                    ),
                ));
            }
        }
        let ds = "Mesh";
        let t = |codec: &str, op: &str| self.time(ds, codec, op);
        if let (Some(v), Some(r)) = (t("pktc view", "all fields"), t("rkyv access", "all fields")) {
            let x = v / r;
            lines.push((
                Some(x <= 1.5),
                format!(
                    "{ds}: pktc view + reading every field is {x:.2}x rkyv's validated access + reading every field (target ≤ 1.5x; the reference is the rkyv row that does the same reads)"
                ),
            ));
        }
        if let (Some(v), Some(r)) = (t("pktc view", "one field"), t("rkyv access", "one field")) {
            lines.push((
                None,
                format!(
                    "{ds}: validation alone (view or access, then one field): pktc view is {:.2}x rkyv's validated access",
                    v / r
                ),
            ));
        }
        if let (Some(v), Some(r)) = (t("pktc view", "all fields"), t("rkyv access", "one field")) {
            lines.push((
                None,
                format!(
                    "{ds}: pktc view + reading every field is {} rkyv's validated access + one field (reading every field against validating only)",
                    fmt_ratio(v / r)
                ),
            ));
        }
        lines
    }

    /// One table per data set with read-side rows: the owned decodes of
    /// the main tables beside the views and rkyv's access.
    fn views(&self, out: &mut String) {
        for ds in VIEW_DATASETS {
            let Some(decode) = self.time(ds, "pktc", "decode") else {
                continue;
            };
            let _ = writeln!(out, "### {ds} (read side)\n");
            out.push_str(
                "| row | median | vs pktc decode | vs rkyv access, same reads | allocs/op |\n\
                 | --- | ---: | ---: | ---: | ---: |\n",
            );
            let owned_allocs = |codec| {
                self.rows
                    .get(&(ds, codec))
                    .map_or(f64::NAN, |r| r.decode_allocs)
            };
            let mut rows: Vec<(String, Option<f64>, f64, f64)> = vec![
                (
                    "pktc decode (owned, reads nothing)".to_owned(),
                    Some(decode),
                    f64::NAN,
                    owned_allocs("pktc"),
                ),
                (
                    "rkyv deserialize (validated, owned)".to_owned(),
                    self.time(ds, "rkyv", "decode"),
                    f64::NAN,
                    owned_allocs("rkyv"),
                ),
            ];
            for (codec, op) in READS {
                let t = self.time(ds, codec, op);
                let vs_rkyv = match (t, self.time(ds, "rkyv access", op)) {
                    (Some(t), Some(r)) if codec != "rkyv access" => t / r,
                    _ => f64::NAN,
                };
                let label = match codec {
                    "pktc decode" => format!("pktc decode + read {op}"),
                    "rkyv access" => format!("rkyv access (validated) + read {op}"),
                    _ => format!("{codec} ({op})"),
                };
                let allocs = self
                    .reads
                    .get(&(ds, codec, op))
                    .copied()
                    .unwrap_or(f64::NAN);
                rows.push((label, t, vs_rkyv, allocs));
            }
            for (label, t, vs_rkyv, allocs) in rows {
                let _ = writeln!(
                    out,
                    "| {label} | {} | {} | {} | {} |",
                    t.map_or("?".to_owned(), fmt_ns),
                    fmt_ratio(t.map_or(f64::NAN, |t| t / decode)),
                    fmt_ratio(vs_rkyv),
                    fmt_allocs(allocs),
                );
            }
            out.push('\n');
        }
    }

    /// A chart of encode and decode time relative to pktc, per data set and
    /// codec, on a log scale.
    fn svg(&self) -> String {
        let codecs: Vec<&str> = CODECS
            .iter()
            .copied()
            .filter(|c| *c != "pktc decode_into" && *c != "pktc (slice)")
            .collect();
        let (label_w, plot_w, bar_h, gap) = (150.0, 560.0, 7.0, 4.0);
        let row_h = 2.0 * bar_h + gap;
        let panel_h = |ds: &str| {
            let n = codecs
                .iter()
                .filter(|c| self.rows.contains_key(&(ds, **c)))
                .count();
            30.0 + n as f64 * row_h + 10.0
        };
        let total_h: f64 = 70.0 + DATASETS.iter().map(|d| panel_h(d)).sum::<f64>() + 30.0;
        let width = label_w + plot_w + 40.0;
        // log2 axis from 1/4 to 64
        let (lo, hi) = (-2.0f64, 6.0f64);
        let x = |r: f64| label_w + (r.log2().clamp(lo, hi) - lo) / (hi - lo) * plot_w;
        let mut s = String::new();
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{total_h}" font-family="sans-serif" font-size="11">"#
        );
        let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
        let _ = writeln!(
            s,
            r#"<text x="10" y="20" font-size="14" font-weight="bold">Time relative to pktc (median, log scale; right of 1x = slower than pktc)</text>"#
        );
        let _ = writeln!(
            s,
            r##"<rect x="10" y="32" width="12" height="8" fill="#4477aa"/><text x="26" y="40">encode</text><rect x="80" y="32" width="12" height="8" fill="#ee6677"/><text x="96" y="40">decode</text>"##
        );
        let mut y = 70.0;
        for ds in DATASETS {
            let h = panel_h(ds);
            let _ = writeln!(
                s,
                r#"<text x="10" y="{}" font-weight="bold">{ds}</text>"#,
                y + 14.0
            );
            for t in [0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0] {
                let tx = x(t);
                let (stroke, dash) = if t == 1.0 {
                    ("#000", "")
                } else {
                    ("#ccc", r#" stroke-dasharray="2,2""#)
                };
                let _ = writeln!(
                    s,
                    r##"<line x1="{tx:.1}" y1="{}" x2="{tx:.1}" y2="{}" stroke="{stroke}"{dash}/><text x="{tx:.1}" y="{}" text-anchor="middle" fill="#666">{t}x</text>"##,
                    y + 20.0,
                    y + h - 8.0,
                    y + 18.0
                );
            }
            let mut ry = y + 24.0;
            for codec in &codecs {
                if !self.rows.contains_key(&(ds, *codec)) {
                    continue;
                }
                let _ = writeln!(
                    s,
                    r#"<text x="{}" y="{}" text-anchor="end">{codec}</text>"#,
                    label_w - 6.0,
                    ry + bar_h + 2.0
                );
                for (i, (op, color)) in [("encode", "#4477aa"), ("decode", "#ee6677")]
                    .iter()
                    .enumerate()
                {
                    let r = self.ratio(ds, codec, op);
                    if !r.is_finite() {
                        continue;
                    }
                    let by = ry + i as f64 * bar_h;
                    let (x0, x1) = (x(1.0).min(x(r)), x(1.0).max(x(r)));
                    let _ = writeln!(
                        s,
                        r#"<rect x="{x0:.1}" y="{by:.1}" width="{:.1}" height="{}" fill="{color}"><title>{ds} {codec} {op}: {r:.2}x pktc</title></rect>"#,
                        (x1 - x0).max(1.0),
                        bar_h - 1.0
                    );
                }
                ry += row_h;
            }
            y += h;
        }
        s.push_str("</svg>\n");
        s
    }
}

/// The delta-snapshot section, from the criterion results in `times`.
fn world_section(times: &Times) -> Option<String> {
    let sizes = Sizes::measure(&Run::new());
    world_report::section(&sizes, |way, op| {
        times
            .get(&(WORLD.to_owned(), way.to_owned(), op.to_owned()))
            .copied()
    })
}

/// The heading the instructions section goes before.
const RESULTS: &str = "## Results";

/// Replaces just the section that `--bin {bin}` measures in the existing
/// `doc` with `section`, made from `results` (exits when there are none).
fn replace_section(
    doc: &Path,
    bin: &str,
    section: Option<String>,
    results: &Path,
    splice: impl Fn(&str, &str) -> String,
) {
    let Some(section) = section else {
        eprintln!(
            "no results in {}; run `cargo run -p pkt-bench --release --bin {bin}` first",
            results.display()
        );
        std::process::exit(1);
    };
    let text = std::fs::read_to_string(doc).expect("read docs/benchmarks.md");
    std::fs::write(doc, splice(&text, &section)).expect("write docs/benchmarks.md");
    println!("replaced the {bin} section of docs/benchmarks.md");
}

fn main() {
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"),
        PathBuf::from,
    );
    let args: Vec<String> = std::env::args().skip(1).collect();
    let csharp_only = args.iter().any(|a| a == "--csharp-only");
    let csharp_results = target.join("csharp-bench").join("results.tsv");
    let csharp = csharp_report::section(&csharp_results);
    let counts_results = target.join("instructions").join("results.tsv");
    let counts = Counts::read(&counts_results);
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs");
    let doc = docs.join("benchmarks.md");
    if args.iter().any(|a| a == "--instructions-only") {
        let section = counts.map(|c| c.section());
        replace_section(&doc, "instructions", section, &counts_results, |d, s| {
            instructions::splice(d, s, RESULTS)
        });
        return;
    }
    if csharp_only {
        replace_section(
            &doc,
            "csharp",
            csharp,
            &csharp_results,
            csharp_report::splice,
        );
        return;
    }
    let criterion = args
        .iter()
        .find(|a| !a.starts_with("--"))
        .map_or_else(|| target.join("criterion"), PathBuf::from);
    let times = read_times(&criterion);
    if args.iter().any(|a| a == "--delta-only") {
        let Some(section) = world_section(&times) else {
            eprintln!(
                "no results of the world benchmark in {}; run `cargo bench -p pkt-bench --bench world` first",
                criterion.display()
            );
            std::process::exit(1);
        };
        let text = std::fs::read_to_string(&doc).expect("read docs/benchmarks.md");
        std::fs::write(&doc, world_report::splice(&text, &section))
            .expect("write docs/benchmarks.md");
        println!("replaced the delta-snapshot section of docs/benchmarks.md");
        return;
    }
    if times.is_empty() {
        eprintln!(
            "no criterion results in {}; run `cargo bench -p pkt-bench` first",
            criterion.display()
        );
        std::process::exit(1);
    }
    let mut m = Measure::default();
    suite::run(&mut m, None);
    let report = Report {
        rows: m.rows,
        reads: m.reads,
        times,
        counts,
    };

    let mut out = String::new();
    out.push_str(include_str!("report_head.md"));
    out.push_str("\n## Machine\n\n");
    out.push_str(&machine());
    out.push_str("\n## Targets\n\n");
    report.targets(&mut out);
    match &report.counts {
        Some(counts) => {
            out.push_str(&counts.section());
            out.push('\n');
        }
        None => eprintln!(
            "no instruction counts in {}: their section is left out",
            counts_results.display()
        ),
    }
    out.push_str(RESULTS);
    out.push_str("\n\n![Time relative to pktc](benchmarks.svg)\n\n");
    for ds in DATASETS {
        report.table(ds, &mut out);
    }
    out.push_str(include_str!("report_views.md"));
    report.views(&mut out);
    match world_section(&report.times) {
        Some(section) => {
            out.push_str(&section);
            out.push('\n');
        }
        None => eprintln!(
            "no results of `cargo bench -p pkt-bench --bench world`: the delta-snapshot section is left out"
        ),
    }
    out.push_str(include_str!("report_tail.md"));
    match csharp {
        Some(section) => out = csharp_report::splice(&out, &section),
        None => eprintln!(
            "no C# results in {}: the C# section is left out",
            csharp_results.display()
        ),
    }
    // The TypeScript section comes from its own bin's run; keep the one
    // the file has.
    let previous = std::fs::read_to_string(&doc).unwrap_or_default();
    if let Some(section) = typescript_report::existing(&previous) {
        out = typescript_report::splice(&out, section);
    }
    std::fs::write(&doc, out).expect("write docs/benchmarks.md");
    std::fs::write(docs.join("benchmarks.svg"), report.svg()).expect("write docs/benchmarks.svg");
    println!("wrote docs/benchmarks.md and docs/benchmarks.svg");
}
