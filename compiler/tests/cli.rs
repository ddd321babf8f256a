//! The `pktc` command as a user runs it: output and exit status. Each
//! command's run on a missing file is a test case of its own
//! (`missing_file/check`).

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
            "unreadable_input_is_an_error_not_a_panic",
            unreadable_input_is_an_error_not_a_panic,
        ),
    ];
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
