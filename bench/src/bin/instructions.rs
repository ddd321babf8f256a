//! Counts the instructions of one operation of every row in
//! `pkt_bench::instructions::rows` on every data set, with valgrind's
//! callgrind, and leaves them in
//! `$CARGO_TARGET_DIR/instructions/results.tsv` for `--bin report`.
//!
//! Usage:
//! `cargo run -p pkt-bench --release --bin instructions [-- DATASET_FILTER]`
//! (about ten minutes on two cores; the filter keeps the data sets whose
//! names contain it, and their counts replace only theirs in the file).
//!
//! `instructions --repeat DATASET ROW N` runs one row N times and nothing
//! else, which is what each callgrind run executes; run it under callgrind
//! yourself to profile a row (`ROW` as in `pkt_bench::cost::Row::parse`):
//!
//! ```text
//! valgrind --tool=callgrind target/release/instructions --repeat Inventory pktc 1000
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::Mutex;

use pkt_bench::cost;
use pkt_bench::instructions::{self, Counts};
use pkt_bench::suite::DATASETS;

/// Instructions valgrind reports for `exe --repeat dataset row n`.
fn collected(exe: &Path, dataset: &str, row: &str, n: usize) -> Result<u64, String> {
    let out = Command::new("valgrind")
        .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
        .arg(exe)
        .args(["--repeat", dataset, row, &n.to_string()])
        .output()
        .map_err(|e| format!("cannot run valgrind (apt-get install -y valgrind): {e}"))?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        return Err(format!("{dataset} / {row} x{n} failed:\n{stderr}"));
    }
    stderr
        .lines()
        .find_map(|l| {
            l.split_once("Collected : ")
                .map(|(_, n)| n.trim().parse().ok())
        })
        .flatten()
        .ok_or_else(|| format!("{dataset} / {row}: no instruction count in:\n{stderr}"))
}

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"),
        PathBuf::from,
    )
}

fn measure(filter: Option<&str>) -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| format!("own path: {e}"))?;
    let version = Command::new("valgrind")
        .arg("--version")
        .output()
        .map_err(|e| format!("cannot run valgrind (apt-get install -y valgrind): {e}"))?;
    let version = String::from_utf8_lossy(&version.stdout).trim().to_owned();

    // Every (data set, row) the matrix has: a row that is not there (no
    // rkyv on a data set, say) runs nothing and is left out.
    let mut jobs: Vec<(&str, String)> = Vec::new();
    for ds in DATASETS {
        if filter.is_some_and(|f| !ds.contains(f)) {
            continue;
        }
        for row in instructions::rows() {
            if cost::repeat(ds, &row, 0) {
                jobs.push((ds, row));
            }
        }
    }
    let total = jobs.len();
    let queue = Mutex::new(jobs.into_iter().enumerate());
    let results: Mutex<BTreeMap<(String, String), f64>> = Mutex::default();
    let failure: Mutex<Option<String>> = Mutex::default();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let Some((i, (ds, row))) = queue.lock().expect("queue").next() else {
                    return;
                };
                let (a, b) = instructions::counts(ds);
                let count = collected(&exe, ds, &row, a).and_then(|x| {
                    let y = collected(&exe, ds, &row, b)?;
                    Ok((y as f64 - x as f64) / (b - a) as f64)
                });
                match count {
                    Ok(per_op) => {
                        eprintln!("[{}/{total}] {ds} / {row}: {per_op:.0}", i + 1);
                        results
                            .lock()
                            .expect("results")
                            .insert((ds.to_owned(), row), per_op);
                    }
                    Err(e) => {
                        *failure.lock().expect("failure") = Some(e);
                        return;
                    }
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().expect("failure") {
        return Err(e);
    }

    let dir = target_dir().join("instructions");
    std::fs::create_dir_all(&dir).map_err(|e| format!("mkdir {}: {e}", dir.display()))?;
    let path = dir.join("results.tsv");
    // A filtered run keeps the other data sets' earlier counts.
    let mut kept = String::new();
    if let (Some(f), Ok(old)) = (filter, std::fs::read_to_string(&path)) {
        for line in old.lines() {
            let mut fields = line.split('\t');
            if fields.next() == Some("count") && fields.next().is_some_and(|ds| !ds.contains(f)) {
                kept.push_str(line);
                kept.push('\n');
            }
        }
    }
    let date = Command::new("date")
        .args(["-u", "+%Y-%m-%d %H:%M UTC"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default();
    let mut text = format!("meta\tvalgrind\t{version}\nmeta\tdate\t{date}\n{kept}");
    for ((ds, row), per_op) in results.into_inner().expect("results") {
        text.push_str(&Counts::line(&ds, &row, per_op));
    }
    std::fs::write(&path, text).map_err(|e| format!("write {}: {e}", path.display()))?;
    Ok(path)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--repeat") {
        let [_, dataset, row, n] = args.as_slice() else {
            eprintln!("usage: instructions --repeat DATASET ROW N");
            return ExitCode::from(2);
        };
        let Ok(n) = n.parse() else {
            eprintln!("N must be a count, not {n:?}");
            return ExitCode::from(2);
        };
        if !cost::repeat(dataset, row, n) {
            eprintln!("the data set {dataset:?} has no row {row:?}");
            return ExitCode::FAILURE;
        }
        return ExitCode::SUCCESS;
    }
    match measure(args.first().map(String::as_str)) {
        Ok(path) => {
            println!("wrote {}", path.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
