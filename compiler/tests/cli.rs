//! The `pktc` command as a user runs it: output and exit status. Each
//! command's run on a missing file is a test case of its own
//! (`missing_file/check`), as is each command given a FIFO
//! (`not_a_regular_file/check`).

mod common;

use common::trial;
use std::process::{Command, Output};

fn main() {
    let mut trials = vec![
        trial(
            "check_succeeds_silently_on_valid_schemas",
            check_succeeds_silently_on_valid_schemas,
        ),
        trial(
            "check_reports_every_error_and_exits_1",
            check_reports_every_error_and_exits_1,
        ),
        trial(
            "check_prints_warnings_and_exits_0",
            check_prints_warnings_and_exits_0,
        ),
        trial(
            "layout_shows_the_seed_packet_sizes",
            layout_shows_the_seed_packet_sizes,
        ),
        trial(
            "layout_qualifies_names_two_namespaces_share",
            layout_qualifies_names_two_namespaces_share,
        ),
        trial("dump_ir_is_json_and_stable", dump_ir_is_json_and_stable),
        trial("usage_errors_exit_2", usage_errors_exit_2),
        trial(
            "schema_text_reaches_the_terminal_escaped",
            schema_text_reaches_the_terminal_escaped,
        ),
        trial(
            "unreadable_input_is_an_error_not_a_panic",
            unreadable_input_is_an_error_not_a_panic,
        ),
    ];
    for args in CLOSED_PIPE_RUNS {
        trials.push(trial(format!("closed_pipe/{}", args[0]), move || {
            a_closed_pipe_keeps_the_exit_status(args)
        }));
    }
    #[cfg(unix)]
    for command in ["check", "gen", "fmt", "compat", "layout", "build_script"] {
        trials.push(trial(format!("not_a_regular_file/{command}"), move || {
            a_fifo_or_directory_is_refused(command)
        }));
    }
    #[cfg(unix)]
    trials.push(trial(
        "inspect_refuses_an_endless_input",
        inspect_refuses_an_endless_input,
    ));
    for args in MISSING_FILE_RUNS {
        trials.push(trial(format!("missing_file/{}", args[0]), move || {
            command_reports_a_missing_file_alike(args)
        }));
    }
    common::run(trials)
}

fn pktc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pktc"))
        .args(args)
        .current_dir(common::root())
        .output()
        .expect("pktc runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn check_succeeds_silently_on_valid_schemas() {
    let o = pktc(&["check", "schemas/game.pkt", "schemas/seed_packets.pkt"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
}

fn check_reports_every_error_and_exits_1() {
    let o = pktc(&["check", "schemas/invalid/multiple_errors.pkt"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert_eq!(
        err.matches("\nerror: ").count() + usize::from(err.starts_with("error: ")),
        4,
        "{err}"
    );
    assert!(
        err.contains("--> schemas/invalid/multiple_errors.pkt:6:37"),
        "{err}"
    );
    assert!(err.contains("aborting due to 3 previous errors"), "{err}");
}

/// A hostile schema cannot write to the terminal through `pktc check`:
/// escape sequences, bidirectional controls and line separators in its
/// source lines, its string defaults and its file name are printed as
/// `\u001B`, `\u202E` and `\u2028`, with the carets under them.
fn schema_text_reaches_the_terminal_escaped() {
    let dir = common::scratch_dir("terminal-escapes");
    let checked = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("write the schema");
        let o = pktc(&["check", &path.display().to_string()]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        let err = stderr(&o);
        let raw: Vec<char> = err
            .chars()
            .filter(|&c| c != '\n' && pktc::text::must_escape(c))
            .collect();
        assert!(raw.is_empty(), "{raw:?} in {err:?}");
        err
    };
    let err = checked(
        "evil\u{1B}[1m\u{202E}.pkt",
        "namespace t.evil;\n\nmessage A {\n    pos: Vec4, // \u{1B}[2J\u{2066} x\n    \
         s: string = \"\u{1B}]0;owned\u{7}\u{2028}\",\n    n: u8 = \"\u{202E}\",\n}\n",
    );
    for shown in [
        "evil\\u001B[1m\\u202E.pkt:4:10",
        "4 |     pos: Vec4, // \\u001B[2J\\u2066 x",
        "6 |     n: u8 = \"\\u202E\",",
        "  |             ^^^^^^^^ expected an integer",
    ] {
        assert!(err.contains(shown), "{shown} not in\n{err}");
    }
    let err = checked(
        "syntax.pkt",
        "namespace t.evil;\n\nmessage A {\n    v: Vec4\u{202E}\u{1B}[0m,\n}\n",
    );
    for shown in [
        "found `\\u202E\\u001B`",
        "4 |     v: Vec4\\u202E\\u001B[0m,",
        "  |            ^^^^^^^^^^^^ expected",
    ] {
        assert!(err.contains(shown), "{shown} not in\n{err}");
    }
}

/// A warning is printed like an error, with its place, source line, note and
/// help, and does not fail the command.
fn check_prints_warnings_and_exits_0() {
    let o = pktc(&["check", "schemas/warnings/type_named_like_namespace.pkt"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    let err = stderr(&o);
    assert!(
        err.starts_with("warning: C# type `Sky.GuildRank.GuildRank` is named like its namespace\n"),
        "{err}"
    );
    assert!(
        err.contains("--> schemas/warnings/type_named_like_namespace.pkt:15:6"),
        "{err}"
    );
    assert!(err.contains("15 | enum GuildRank : u8 {"), "{err}");
    assert!(err.contains("= help: rename the type"), "{err}");
    assert!(!err.contains("error:"), "{err}");
}

fn layout_shows_the_seed_packet_sizes() {
    let o = pktc(&["layout", "schemas/seed_packets.pkt"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("struct Packet: fixed, 4 bytes"), "{out}");
    assert!(out.contains("struct Int3Packet: fixed, 16 bytes"), "{out}");
    assert!(
        out.contains("struct TransformPacket: fixed, 40 bytes"),
        "{out}"
    );
}

/// Two imported files both declare `Settings` and `Note`: layout names
/// each with its namespace, wherever it appears.
fn layout_qualifies_names_two_namespaces_share() {
    let o = pktc(&["layout", "schemas/same_stem/top.pkt"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    for line in [
        "  1     1  client  same_stem.client.Settings",
        "    2    4+  Server   same_stem.server.Note",
        "message same_stem.client.Note: variable, at least 4 bytes",
        "struct same_stem.server.Settings: fixed, 2 bytes",
        // Names no other type has stay bare.
        "message Both: variable, at least 4 bytes",
    ] {
        assert!(out.lines().any(|l| l == line), "no line {line:?} in\n{out}");
    }
}

fn dump_ir_is_json_and_stable() {
    let a = pktc(&["dump", "ir", "schemas/game.pkt"]);
    let b = pktc(&["dump", "ir", "schemas/game.pkt"]);
    assert_eq!(a.status.code(), Some(0), "{}", stderr(&a));
    assert_eq!(a.stdout, b.stdout);
    let v: serde_json::Value = serde_json::from_slice(&a.stdout).expect("valid JSON");
    assert_eq!(v["files"][0]["name"], "schemas/game.pkt");
    assert_eq!(v["files"][1]["name"], "schemas/common.pkt");
}

fn usage_errors_exit_2() {
    assert_eq!(pktc(&["check"]).status.code(), Some(2));
    let out = std::env::temp_dir().join("pktc-cli-asmdef");
    let out = out.to_str().expect("UTF-8 path");
    let o = pktc(&[
        "gen",
        "--lang",
        "csharp",
        "--asmdef",
        "../Game",
        "-o",
        out,
        "schemas/small.pkt",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("`../Game` is not an assembly name"),
        "{}",
        stderr(&o)
    );
    let o = pktc(&[
        "gen",
        "--lang",
        "rust",
        "--asmdef",
        "Game",
        "-o",
        out,
        "schemas/small.pkt",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--lang csharp"), "{}", stderr(&o));
    assert!(!std::path::Path::new(out).exists(), "nothing written");
    assert_eq!(pktc(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(
        pktc(&["dump", "nothing", "schemas/game.pkt"]).status.code(),
        Some(2)
    );
}

fn unreadable_input_is_an_error_not_a_panic() {
    let o = pktc(&["check", "schemas/does_not_exist.pkt"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("cannot read schemas/does_not_exist.pkt"),
        "{}",
        stderr(&o)
    );
}

/// Commands whose output is often cut short (`| head`), with the exit
/// status each has when its output is read whole.
const CLOSED_PIPE_RUNS: [&[&str]; 4] = [
    &["dump", "ir", "schemas/everything.pkt"],
    &["layout", "schemas/everything.pkt"],
    &["explain", "message-field-removed"],
    &[
        "compat",
        "schemas/compat/message_fields_swapped/old.pkt",
        "schemas/compat/message_fields_swapped/new.pkt",
    ],
];

/// A reader that closes the pipe before reading anything: the command
/// neither panics nor changes its exit status (a breaking `compat` piped
/// into `head` still fails the CI step).
fn a_closed_pipe_keeps_the_exit_status(args: &[&str]) {
    use std::process::Stdio;
    let whole = pktc(args);
    assert!(!whole.stdout.is_empty(), "{args:?} prints something");
    let mut child = Command::new(env!("CARGO_BIN_EXE_pktc"))
        .args(args)
        .current_dir(common::root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pktc runs");
    drop(child.stdout.take());
    let cut = child.wait_with_output().expect("pktc ends");
    let err = stderr(&cut);
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert_eq!(cut.status.code(), whole.status.code(), "{args:?}: {err}");
}

/// Every command words a missing file the same way, without the operating
/// system's error number.
const MISSING_FILE_RUNS: [&[&str]; 5] = [
    &["check", "schemas/nowhere.pkt"],
    &["fmt", "schemas/nowhere.pkt"],
    &["compat", "schemas/nowhere.pkt", "schemas/game.pkt"],
    &[
        "gen",
        "--lang",
        "rust",
        "-o",
        "target/nowhere-out",
        "schemas/nowhere.pkt",
    ],
    &[
        "inspect",
        "--type",
        "Kick",
        "--input",
        "schemas/nowhere.bin",
        "schemas/game.pkt",
    ],
];

/// `pktc inspect --input /dev/zero` stops at the default frame limit with
/// an error that states it (it read until memory ran out), and so does
/// `--hex` at its own cap; `pktc inspect --help` states the cap.
#[cfg(unix)]
fn inspect_refuses_an_endless_input() {
    for hex in [false, true] {
        let mut args = vec!["inspect", "--type", "Kick", "--input", "/dev/zero"];
        if hex {
            args.push("--hex");
        }
        args.push("schemas/game.pkt");
        let o = pktc(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        let cap = if hex { "64 MiB of hex text" } else { "16 MiB" };
        assert!(
            err.contains(&format!(
                "/dev/zero is longer than {cap}, the most `pktc inspect` decodes"
            )),
            "{args:?}: {err}"
        );
    }
    let help = stdout(&pktc(&["inspect", "--help"]));
    assert!(help.contains("At most 16 MiB"), "{help}");
}

fn command_reports_a_missing_file_alike(args: &[&str]) {
    let o = pktc(args);
    let err = stderr(&o);
    // compat keeps 1 for "breaking": a version it cannot read is 3.
    let status = if args[0] == "compat" { 3 } else { 1 };
    assert_eq!(o.status.code(), Some(status), "{args:?}: {err}");
    assert!(
        err.contains("cannot read schemas/nowhere."),
        "{args:?}: {err}"
    );
    assert!(err.contains(": no such file"), "{args:?}: {err}");
    assert!(!err.contains("os error"), "{args:?}: {err}");
}

/// `pktc` on `args` in `dir`, killed and failed if it has not finished
/// within a minute (a FIFO opened for reading waits for a writer forever).
#[cfg(unix)]
fn pktc_within_a_minute(dir: &std::path::Path, args: &[&str]) -> Output {
    use std::time::{Duration, Instant};
    let mut child = Command::new(env!("CARGO_BIN_EXE_pktc"))
        .args(args)
        .current_dir(dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("pktc runs");
    let started = Instant::now();
    while child.try_wait().expect("pktc status").is_none() {
        if started.elapsed() > Duration::from_secs(60) {
            child.kill().expect("kill pktc");
            panic!("pktc {args:?} still runs after a minute");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("pktc output")
}

/// A schema that imports a FIFO, or a directory, and a FIFO named as the
/// input itself: each is refused with a diagnostic that says what it is,
/// instead of waiting for a writer forever.
#[cfg(unix)]
fn a_fifo_or_directory_is_refused(command: &str) {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("not_a_regular_file")
        .join(command);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("folder.pkt")).unwrap();
    let fifo = std::ffi::CString::new(dir.join("pipe.pkt").to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0, "mkfifo");
    std::fs::write(
        dir.join("main.pkt"),
        "namespace t;\nimport \"pipe.pkt\";\nimport \"folder.pkt\";\nmessage M { x: u8 }\n",
    )
    .unwrap();
    if command == "build_script" {
        let (tx, rx) = std::sync::mpsc::channel();
        let main = dir.join("main.pkt");
        let out = dir.join("out");
        std::thread::spawn(move || {
            let result = pktc::Config::new()
                .out_dir(out)
                .rerun_if_changed(false)
                .compile(&[main]);
            let _ = tx.send(result.map_err(|e| e.to_string()));
        });
        let result = rx
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("Config::compile returns within a minute");
        let err = result.expect_err("a FIFO import fails the build");
        assert!(
            err.contains("cannot import `pipe.pkt`: it is a FIFO (named pipe), not a regular file"),
            "{err}"
        );
        return;
    }
    let runs: Vec<(Vec<&str>, Vec<&str>)> = match command {
        "check" => vec![
            (
                vec!["check", "main.pkt"],
                vec![
                    "cannot import `pipe.pkt`: it is a FIFO (named pipe), not a regular file",
                    "cannot import `folder.pkt`: it is a directory, not a regular file",
                    "--> main.pkt:2:1",
                ],
            ),
            (
                vec!["check", "pipe.pkt"],
                vec!["cannot read pipe.pkt: it is a FIFO (named pipe), not a regular file"],
            ),
        ],
        "gen" => vec![(
            vec!["gen", "--lang", "rust", "-o", "out", "main.pkt"],
            vec!["cannot import `pipe.pkt`: it is a FIFO"],
        )],
        "fmt" => vec![(
            vec!["fmt", "pipe.pkt"],
            vec!["cannot read pipe.pkt: it is a FIFO (named pipe), not a regular file"],
        )],
        "compat" => vec![(
            vec!["compat", "pipe.pkt", "main.pkt"],
            vec!["cannot read pipe.pkt: it is a FIFO"],
        )],
        "layout" => vec![(
            vec!["layout", "main.pkt"],
            vec!["cannot import `pipe.pkt`: it is a FIFO"],
        )],
        _ => unreachable!(),
    };
    for (args, expected) in runs {
        let o = pktc_within_a_minute(&dir, &args);
        let err = stderr(&o);
        // compat exits 3 when a version does not check.
        let code = if command == "compat" { 3 } else { 1 };
        assert_eq!(o.status.code(), Some(code), "{args:?}: {err}");
        for e in expected {
            assert!(err.contains(e), "{args:?}: expected {e:?} in\n{err}");
        }
    }
}
