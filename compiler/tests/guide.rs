//! Runs docs/guide.md, so the guide cannot rot. The scratch directory it
//! runs in holds this repository as `pktc/` (a link standing for the clone
//! the guide works from). Code blocks are processed in order:
//!
//! - `` ```LANG file=PATH ``: written to PATH in the scratch directory, as
//!   written (a `.pkt` file must pass `pktc check`);
//! - `` ```sh ``: each line runs in the scratch directory and must succeed;
//! - `` ```console ``: `$ command` lines run; the lines after one are its
//!   expected standard output, compared exactly; the exit status must be the
//!   block's `exit=N` (default 0) and the standard error must contain the
//!   block's `stderr=TEXT`, if any; a command ending in `&` runs in the
//!   background until the block ends, and must exit by then (in a block
//!   marked `stop`, it must still run, and is stopped). `127.0.0.1:7777`
//!   becomes a free port.
//! - `` ```yaml file=.github/workflows/... ``: written, then its `run: pktc ...`
//!   steps run as CI would, against a local `origin/main`; any other `run:`
//!   step must be a command an `sh` block of the guide ran.
//!
//! Blocks marked `long` are toolchain builds the guide's later blocks do not
//! need (installing pktc with cargo, rebuilding the server against version
//! 2): they run only under `PKT_LONG_TESTS=1`. In a short run the `pktc` the
//! guide uses is this build's binary.
//!
//! `GUIDE_UPDATE=1` writes the outputs the commands really print into the
//! guide instead of comparing (exit statuses are still checked); review the
//! diff like a snapshot change.
//!
//! The Rust server in the guide is built with cargo against the clone's
//! crates, and the C# client with Mono's `mcs`: without Mono the test fails
//! under `CI=true` and warns loudly elsewhere. The Node.js bot needs node and
//! npm the same way; its `tsc` is TypeScript 5, installed once under the
//! target directory (`rust-tests/tests/support/node.rs`), on the guide's
//! `PATH`.

mod common;

#[allow(dead_code)]
#[path = "../../rust-tests/tests/support/node.rs"]
mod node;

use common::{blocks, Block};

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

struct Scratch {
    /// With GUIDE_UPDATE: (line of the block's opening fence, new block text).
    updates: Vec<(usize, String)>,
    dir: PathBuf,
    path_env: String,
    background: Vec<Child>,
    /// The commands the `sh` blocks ran (or, `long` ones, stand for).
    commands: Vec<String>,
}

impl Drop for Scratch {
    fn drop(&mut self) {
        for child in &mut self.background {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Scratch {
    fn new() -> Scratch {
        // The server's `target/` is kept between runs to save rebuilding
        // its dependencies.
        let dir = common::scratch_dir("guide");
        // The clone of this repository the guide works from.
        std::os::unix::fs::symlink(common::root(), dir.join("pktc")).expect("link the clone");
        // `cargo install` puts pktc in `.cargo/bin` (long runs); until then,
        // and in short runs, this build's binary stands in.
        let bin = dir.join(".bin");
        std::fs::create_dir_all(&bin).expect("bin dir");
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_pktc"), bin.join("pktc"))
            .expect("link pktc");
        // What `npm install --save-dev typescript` gives a project.
        std::fs::write(
            bin.join("tsc"),
            format!("#!/bin/sh\nexec node '{}' \"$@\"\n", node::tsc().display()),
        )
        .expect("write tsc");
        std::fs::set_permissions(
            bin.join("tsc"),
            std::os::unix::fs::PermissionsExt::from_mode(0o755),
        )
        .expect("make tsc executable");
        let path_env = format!(
            "{}:{}:{}",
            dir.join(".cargo/bin").display(),
            bin.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        Scratch {
            updates: Vec::new(),
            dir,
            path_env,
            background: Vec::new(),
            commands: Vec::new(),
        }
    }

    fn command(&self, line: &str) -> Command {
        let mut c = Command::new("sh");
        c.arg("-c")
            .arg(line)
            .current_dir(&self.dir)
            .env("PATH", &self.path_env)
            .env("GIT_AUTHOR_NAME", "guide")
            .env("GIT_AUTHOR_EMAIL", "guide@example.invalid")
            .env("GIT_COMMITTER_NAME", "guide")
            .env("GIT_COMMITTER_EMAIL", "guide@example.invalid")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env_remove("CARGO_TARGET_DIR")
            // The framework compiled ahead of time (the guide's full-AOT
            // check) is shared with the C# tests' full-AOT runs.
            .env(
                "PKT_FULL_AOT_CACHE",
                Path::new(env!("CARGO_TARGET_TMPDIR")).join("mono-aot"),
            )
            // `cargo install` installs into the scratch directory.
            .env("CARGO_INSTALL_ROOT", self.dir.join(".cargo"));
        if line.starts_with("cargo install ") {
            // Building where the next run finds what it built.
            c.env(
                "CARGO_TARGET_DIR",
                common::root().join("target/guide-install"),
            );
        }
        c
    }

    fn write(&self, path: &str, text: &str) {
        let p = self.dir.join(path);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).expect("create parent");
        }
        std::fs::write(p, text).expect("write block");
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// How long a background process may take to start listening or to exit
/// before the test calls it hung. A guard against hangs only: no assertion
/// here measures speed, so it is far above any time a loaded machine needs.
const HANG: Duration = Duration::from_secs(600);

/// Waits until something listens on `port`, failing at once if `child`
/// exits first. Probing by binding rather than connecting: the guide's
/// server accepts exactly one client.
fn wait_for_port(port: u16, what: &str, child: &mut Child) {
    let start = Instant::now();
    while TcpListener::bind(("127.0.0.1", port)).is_ok() {
        if let Some(status) = child.try_wait().expect("wait") {
            panic!("{what} exited ({status}) before listening on port {port}");
        }
        assert!(
            start.elapsed() < HANG,
            "{what} hung: not listening on port {port} after {HANG:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Whether a block runs: `long` ones only under `PKT_LONG_TESTS`.
fn runs(b: &Block) -> bool {
    !b.attrs.contains_key("long") || pkt_test_support::long_tests()
}

fn mono_available() -> bool {
    let ok = |t: &str| {
        Command::new(t)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if ok("mcs") && ok("mono") {
        return true;
    }
    let msg = "docs/guide.md needs mcs and mono for its C# client; the guide was NOT tested";
    if std::env::var_os("CI").is_some() {
        panic!("{msg}");
    }
    eprintln!("warning: {msg}");
    false
}

#[test]
fn the_guide_runs_as_written() {
    if !mono_available() || !node::tools_or_skip("the_guide_runs_as_written") {
        return;
    }
    let guide = std::fs::read_to_string(common::root().join("docs/guide.md")).expect("guide");
    let mut s = Scratch::new();
    let mut ran = 0;
    for b in blocks(&guide) {
        let at = format!("docs/guide.md:{}", b.line);
        if b.lang == "sh" {
            s.commands.extend(
                b.text
                    .lines()
                    .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
                    .map(String::from),
            );
        }
        if !runs(&b) {
            continue;
        }
        if let Some(path) = b.attrs.get("file") {
            s.write(path, &b.text);
            if path.ends_with("Cargo.toml") {
                // The workspace's lock file, so that the build needs no
                // registry beyond what this workspace already resolved.
                let dir = Path::new(path).parent().expect("crate dir");
                std::fs::copy(
                    common::root().join("Cargo.lock"),
                    s.dir.join(dir).join("Cargo.lock"),
                )
                .expect("copy lock file");
            }
            if b.lang == "pkt" {
                let o = s
                    .command(&format!("pktc check {path}"))
                    .output()
                    .expect("pktc");
                assert!(
                    o.status.success(),
                    "{at}: {path} does not check:\n{}",
                    String::from_utf8_lossy(&o.stderr)
                );
            }
            if b.lang == "yaml" {
                run_ci_steps(&mut s, &b.text, &at);
            }
            ran += 1;
            continue;
        }
        match b.lang.as_str() {
            "sh" => {
                for line in b
                    .text
                    .lines()
                    .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
                {
                    let o = s.command(line).output().expect("sh");
                    assert!(
                        o.status.success(),
                        "{at}: `{line}` failed:\n{}{}",
                        String::from_utf8_lossy(&o.stdout),
                        String::from_utf8_lossy(&o.stderr)
                    );
                }
            }
            "console" => run_console(&mut s, &b, &at),
            _ => continue,
        }
        ran += 1;
    }
    assert!(ran >= 20, "only {ran} blocks ran");
    if !s.updates.is_empty() {
        let mut lines: Vec<String> = guide.lines().map(String::from).collect();
        for (fence, text) in s.updates.iter().rev() {
            let end = (*fence..lines.len())
                .find(|&i| lines[i].starts_with("```"))
                .expect("closing fence");
            lines.splice(*fence..end, text.lines().map(String::from));
        }
        let mut out = lines.join("\n");
        out.push('\n');
        std::fs::write(common::root().join("docs/guide.md"), out).expect("update guide");
        eprintln!(
            "updated {} console blocks in docs/guide.md",
            s.updates.len()
        );
    }
}

fn run_console(s: &mut Scratch, b: &Block, at: &str) {
    let port = free_port();
    let expected_exit: i32 = b
        .attrs
        .get("exit")
        .map_or(0, |e| e.parse().expect("exit=N"));
    let mut commands: Vec<(String, String)> = Vec::new();
    for line in b.text.lines() {
        match line.strip_prefix("$ ") {
            Some(cmd) => commands.push((
                cmd.replace("127.0.0.1:7777", &format!("127.0.0.1:{port}")),
                String::new(),
            )),
            None => {
                let last = commands
                    .last_mut()
                    .unwrap_or_else(|| panic!("{at}: output before a command"));
                last.1.push_str(line);
                last.1.push('\n');
            }
        }
    }
    let update = std::env::var_os("GUIDE_UPDATE").is_some();
    let mut recorded = String::new();
    for (cmd, expected) in commands {
        let shown = cmd.replace(&format!("127.0.0.1:{port}"), "127.0.0.1:7777");
        recorded.push_str(&format!("$ {shown}\n"));
        if let Some(bg) = cmd.strip_suffix('&') {
            let child = s
                .command(bg.trim())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("spawn");
            s.background.push(child);
            let child = s.background.last_mut().expect("just pushed");
            wait_for_port(port, bg, child);
            continue;
        }
        let o = s.command(&cmd).output().expect("run");
        let stdout = String::from_utf8_lossy(&o.stdout);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(
            o.status.code(),
            Some(expected_exit),
            "{at}: `{cmd}` exited with {:?}:\n{stdout}{stderr}",
            o.status.code(),
        );
        if let Some(text) = b.attrs.get("stderr") {
            assert!(
                stderr.contains(text.as_str()),
                "{at}: `{cmd}` did not print {text:?} on standard error:\n{stderr}"
            );
        }
        if update {
            if !stdout.trim_end().is_empty() {
                recorded.push_str(stdout.trim_end());
                recorded.push('\n');
            }
        } else {
            assert_eq!(
                stdout.trim_end(),
                expected.trim_end(),
                "{at}: output of `{cmd}` differs"
            );
        }
    }
    if update && recorded != b.text {
        s.updates.push((b.line, recorded));
    }
    let stop = b.attrs.contains_key("stop");
    for mut child in s.background.drain(..) {
        if stop {
            // A server that serves until it is stopped: still serving.
            let status = child.try_wait().expect("wait");
            assert!(
                status.is_none(),
                "{at}: background process exited: {status:?}"
            );
            let _ = child.kill();
            let _ = child.wait();
            continue;
        }
        // Background servers in the guide exit when their client leaves.
        let start = Instant::now();
        while child.try_wait().expect("wait").is_none() {
            assert!(
                start.elapsed() < HANG,
                "{at}: background process hung: not exited after {HANG:?}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// The guide shows a tokio server (`PacketCodec` in `Framed`), and the guide
/// run builds and runs it: its crate enables the runtime's `tokio` feature,
/// an `sh` block builds that crate, and a console block starts the binary
/// and talks to it with a client whose output is checked. (The run itself
/// is `the_guide_runs_as_written`; this checks that it covers the server.)
#[test]
fn the_guide_builds_and_runs_its_tokio_server() {
    let guide = std::fs::read_to_string(common::root().join("docs/guide.md")).expect("guide");
    let blocks = blocks(&guide);
    let file = |b: &Block| b.attrs.get("file").cloned().unwrap_or_default();
    let main = blocks
        .iter()
        .find(|b| {
            b.lang == "rust"
                && file(b).ends_with("src/main.rs")
                && b.text.contains("PacketCodec")
                && b.text.contains("Framed::new")
        })
        .expect("a Rust server in the guide uses PacketCodec with Framed");
    assert!(runs(main) && !main.attrs.contains_key("long"));
    let dir = file(main).trim_end_matches("src/main.rs").to_string();
    let manifest = format!("{dir}Cargo.toml");
    let toml = blocks
        .iter()
        .find(|b| file(b) == manifest)
        .unwrap_or_else(|| panic!("no {manifest} block"));
    assert!(
        toml.text
            .lines()
            .any(|l| l.starts_with("pkt-runtime") && l.contains("\"tokio\"")),
        "{manifest} does not enable pkt-runtime's tokio feature"
    );
    let package = toml
        .text
        .lines()
        .find_map(|l| l.strip_prefix("name = "))
        .expect("a package name")
        .trim_matches('"');
    let build = blocks
        .iter()
        .position(|b| {
            b.lang == "sh"
                && !b.attrs.contains_key("long")
                && b.text.lines().any(|l| {
                    l.starts_with("cargo build")
                        && l.contains(&format!("--manifest-path {manifest}"))
                })
        })
        .unwrap_or_else(|| panic!("no sh block builds {manifest}"));
    let run = blocks[build..]
        .iter()
        .find(|b| {
            b.lang == "console"
                && b.text.lines().any(|l| {
                    l.starts_with("$ ")
                        && l.contains(&format!("/debug/{package} "))
                        && l.ends_with('&')
                })
        })
        .unwrap_or_else(|| panic!("no console block after the build runs {package}"));
    // A client talks to it and its output is compared.
    let lines: Vec<&str> = run.text.lines().collect();
    let started = lines
        .iter()
        .position(|l| l.contains(&format!("/debug/{package} ")))
        .expect("the server's line");
    assert!(
        lines[started + 1..].iter().any(|l| l.starts_with("$ "))
            && lines[started + 1..].iter().any(|l| !l.starts_with("$ ")),
        "docs/guide.md:{}: no client with checked output talks to {package}",
        run.line
    );
}

/// The CI job's `pktc` steps, with `origin/main` pointing at the first commit.
fn run_ci_steps(s: &mut Scratch, yaml: &str, at: &str) {
    let o = s
        .command("git branch -f origin/main $(git rev-list --max-parents=0 HEAD)")
        .output()
        .expect("git");
    assert!(
        o.status.success(),
        "{at}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let mut steps = 0;
    for line in yaml.lines() {
        let Some(cmd) = line.trim().strip_prefix("- run: ") else {
            continue;
        };
        if !cmd.starts_with("pktc ") {
            // Setup (installing pktc): a command the guide has run itself.
            assert!(
                s.commands.iter().any(|c| c == cmd),
                "{at}: CI step `{cmd}` is not a command the guide runs"
            );
            continue;
        }
        let o = s
            .command(cmd)
            .env("GITHUB_BASE_REF", "main")
            .output()
            .expect("run");
        assert!(
            o.status.success(),
            "{at}: CI step `{cmd}` failed:\n{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
        steps += 1;
    }
    assert_eq!(steps, 1, "{at}: the CI job's pktc steps");
}
