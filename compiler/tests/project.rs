//! The project file `pktc.toml` as a team uses it: `pktc gen` without
//! arguments writes every target, `pktc check` checks the project's
//! schemas, and `pktc ci` fails for each kind of problem (a schema error, a
//! breaking change against the baseline, an unused waiver, stale generated
//! code of each target) and passes when there is none. Each case works in a
//! scratch directory of its own, a git repository whose tag `v1` is the
//! compat baseline. Also: warnings belong to a language (`gen` shows only
//! its language's, `check` all or its project's).

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const COMMON_V1: &str = "namespace sky;\n\n/// Longest name.\nconst MAX_NAME: u16 = 16;\n\n\
                         enum Team : u8 {\n    Red = 1,\n    Blue = 2,\n}\n";

const GAME_V1: &str = "namespace sky;\n\nimport \"common.pkt\";\n\n\
                       union Packet {\n    Join(Join) = 1,\n}\n\n\
                       message Join {\n    name: string @max(MAX_NAME),\n    team: Team,\n}\n";

/// Version 2: a field appended (safe).
const GAME_V2: &str = "namespace sky;\n\nimport \"common.pkt\";\n\n\
                       union Packet {\n    Join(Join) = 1,\n}\n\n\
                       message Join {\n    name: string @max(MAX_NAME),\n    team: Team,\n    \
                       level: u8,\n}\n";

/// A retyped field (breaking: `message-field-retyped` at `sky.Join.team`).
const GAME_BREAKING: &str = "namespace sky;\n\nimport \"common.pkt\";\n\n\
                             union Packet {\n    Join(Join) = 1,\n}\n\n\
                             message Join {\n    name: string @max(MAX_NAME),\n    team: u16,\n}\n";

const PROJECT: &str = r#"# The schemas; their imports are read too.
schemas = ["schemas/game.pkt"]

[[target]]
lang = "rust"
out = "server/src/net"

[[target]]
lang = "csharp"
out = "client/Assets/Net"
no_runtime = true
asmdef = "Sky.Protocol"

[[target]]
lang = "typescript"
out = "bot/src/net"

[compat]
baseline = "v1"
"#;

const WAIVER: &str = "\n[[compat.waiver]]\nrule = \"message-field-retyped\"\n\
                      place = \"sky.Join.team\"\nreason = \"every client reads u16 teams since 1.2\"\n";

/// A scratch git repository holding the project, version 1 committed with
/// its generated code and tagged `v1`.
struct Repo {
    dir: PathBuf,
}

impl Repo {
    fn new(name: &str) -> Repo {
        let dir = common::scratch_dir(&format!("project-{name}"));
        let repo = Repo { dir };
        repo.write("pktc.toml", PROJECT);
        repo.write("schemas/common.pkt", COMMON_V1);
        repo.write("schemas/game.pkt", GAME_V1);
        repo.git(&["init", "-q"]);
        let o = repo.pktc(&["gen"]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        repo.git(&["add", "."]);
        repo.git(&["commit", "-q", "-m", "v1"]);
        repo.git(&["tag", "v1"]);
        repo
    }

    fn write(&self, path: &str, contents: &str) {
        let p = self.dir.join(path);
        std::fs::create_dir_all(p.parent().expect("a parent")).expect("mkdir");
        std::fs::write(p, contents).expect("write");
    }

    fn git(&self, args: &[&str]) {
        let o = Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
            .args(["-c", "init.defaultBranch=main"])
            .args(args)
            .current_dir(&self.dir)
            .output()
            .expect("git runs");
        assert!(o.status.success(), "git {args:?}: {}", text(&o));
    }

    fn pktc(&self, args: &[&str]) -> Output {
        self.pktc_in(&self.dir, args)
    }

    fn pktc_in(&self, dir: &Path, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_pktc"))
            .args(args)
            .current_dir(dir)
            .output()
            .expect("pktc runs")
    }

    /// `pktc ci`: its exit status, and its summary lines by step.
    fn ci(&self) -> (Option<i32>, Vec<String>, String) {
        let o = self.pktc(&["ci"]);
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        let summary: Vec<String> = out
            .lines()
            .filter(|l| STEPS.iter().any(|s| l.starts_with(s)))
            .map(String::from)
            .collect();
        (o.status.code(), summary, text(&o))
    }
}

/// The steps `pktc ci` runs on [`PROJECT`], in order.
const STEPS: [&str; 5] = [
    "check: ",
    "compat against v1: ",
    "gen rust server/src/net: ",
    "gen csharp client/Assets/Net: ",
    "gen typescript bot/src/net: ",
];

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Asserts that `pktc ci` printed one summary line per step, each ok but
/// those in `failed`, whose lines contain the text given.
fn assert_steps(summary: &[String], failed: &[(usize, &str)], all: &str) {
    assert_eq!(summary.len(), STEPS.len(), "one line per step:\n{all}");
    for (i, (line, step)) in summary.iter().zip(STEPS).enumerate() {
        assert!(line.starts_with(step), "step {i} is {step:?}:\n{all}");
        match failed.iter().find(|(f, _)| *f == i) {
            Some((_, what)) => assert!(
                line.starts_with(&format!("{step}FAILED: ")) && line.contains(what),
                "step {i} fails with {what:?}:\n{all}"
            ),
            None => assert!(
                line.starts_with(&format!("{step}ok: ")),
                "step {i} passes:\n{all}"
            ),
        }
    }
}

#[test]
fn gen_without_arguments_writes_every_target_with_its_options() {
    let repo = Repo::new("gen");
    let exists = |p: &str| repo.dir.join(p).is_file();
    // Rust: a module per schema file and mod.rs.
    assert!(exists("server/src/net/game.rs") && exists("server/src/net/mod.rs"));
    // C#: no runtime, an assembly definition.
    assert!(exists("client/Assets/Net/game.cs"));
    assert!(exists("client/Assets/Net/Sky.Protocol.asmdef"));
    assert!(!exists("client/Assets/Net/PktRuntime.cs"));
    // TypeScript: with its runtime.
    assert!(exists("bot/src/net/game.ts") && exists("bot/src/net/pkt_runtime.ts"));

    // From a subdirectory, the file is found in a parent and its paths are
    // relative to it: the same files, all current.
    let sub = repo.dir.join("client/Assets");
    let o = repo.pktc_in(&sub, &["gen", "--check"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "");

    // A schema change: `gen` rewrites each target; `gen --check` said so first.
    repo.write("schemas/game.pkt", GAME_V2);
    let o = repo.pktc_in(&sub, &["gen", "--check"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    for file in [
        "../../server/src/net/game.rs",
        "../../client/Assets/Net/game.cs",
        "../../bot/src/net/game.ts",
    ] {
        assert!(
            out.lines().any(|l| l == format!("would change: {file}")),
            "{file}:\n{out}"
        );
    }
    let o = repo.pktc(&["gen"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        out.lines().filter(|l| l.starts_with("wrote ")).count(),
        3,
        "{out}"
    );
    let o = repo.pktc(&["gen", "--check"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));

    // Options belong in the file.
    let o = repo.pktc(&["gen", "--no-runtime"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("targets of pktc.toml"), "{}", text(&o));
}

#[test]
fn check_without_files_checks_the_project_schemas() {
    let repo = Repo::new("check");
    let o = repo.pktc(&["check"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    repo.write(
        "schemas/common.pkt",
        "namespace sky;\nenum Team : u8 { Red = 1,\n",
    );
    let o = repo.pktc(&["check"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("--> schemas/common.pkt:"), "{}", text(&o));
}

#[test]
fn ci_passes_when_nothing_is_wrong() {
    let repo = Repo::new("ci-ok");
    let (code, summary, all) = repo.ci();
    assert_eq!(code, Some(0), "{all}");
    assert_steps(&summary, &[], &all);
    assert_eq!(
        summary,
        [
            "check: ok: 1 schema file, 0 warnings",
            "compat against v1: ok: 0 breaking, 0 source-only, 0 safe, 0 waived",
            "gen rust server/src/net: ok: up to date",
            "gen csharp client/Assets/Net: ok: up to date",
            "gen typescript bot/src/net: ok: up to date",
        ]
    );
    // A safe change, regenerated.
    repo.write("schemas/game.pkt", GAME_V2);
    assert_eq!(repo.pktc(&["gen"]).status.code(), Some(0));
    let (code, summary, all) = repo.ci();
    assert_eq!(code, Some(0), "{all}");
    assert_steps(&summary, &[], &all);
    assert!(summary[1].contains("1 safe"), "{all}");
    assert!(all.contains("safe[message-field-appended]"), "{all}");
}

#[test]
fn ci_fails_on_a_schema_error() {
    let repo = Repo::new("ci-schema");
    repo.write(
        "schemas/game.pkt",
        &GAME_V2.replace("level: u8", "level: Level"),
    );
    let (code, summary, all) = repo.ci();
    assert_eq!(code, Some(1), "{all}");
    assert_eq!(summary[0], "check: FAILED: 1 error", "{all}");
    assert!(all.contains("unknown type `Level`"), "{all}");
    // Nothing else can run, and nothing else fails.
    for (line, step) in summary[1..].iter().zip(&STEPS[1..]) {
        assert_eq!(
            *line,
            format!("{step}skipped: the schemas do not check"),
            "{all}"
        );
    }
}

#[test]
fn ci_fails_on_a_breaking_change_unless_waived() {
    let repo = Repo::new("ci-breaking");
    repo.write("schemas/game.pkt", GAME_BREAKING);
    assert_eq!(repo.pktc(&["gen"]).status.code(), Some(0));
    let (code, summary, all) = repo.ci();
    assert_eq!(code, Some(1), "{all}");
    assert_steps(
        &summary,
        &[(1, "1 breaking, 0 source-only, 0 safe, 0 waived")],
        &all,
    );
    assert!(all.contains("breaking[message-field-retyped]"), "{all}");

    // Against a revision given on the command line instead: the change is
    // in the baseline, so nothing is found.
    repo.git(&["commit", "-q", "-a", "-m", "v2"]);
    let o = repo.pktc(&["ci", "--against-git", "HEAD"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout)
            .contains("\ncompat against HEAD: ok: 0 breaking, 0 source-only, 0 safe, 0 waived\n"),
        "{}",
        text(&o)
    );
    let o = repo.pktc(&["ci", "--against-git", "no-such-rev"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("unknown git revision `no-such-rev`"),
        "{}",
        text(&o)
    );

    // The deliberate change, waived in the project file.
    repo.write("pktc.toml", &format!("{PROJECT}{WAIVER}"));
    let (code, summary, all) = repo.ci();
    assert_eq!(code, Some(0), "{all}");
    assert_steps(&summary, &[], &all);
    assert!(
        summary[1].contains("0 breaking, 0 source-only, 0 safe, 1 waived"),
        "{all}"
    );
    assert!(all.contains("waived[message-field-retyped]"), "{all}");
    assert!(
        all.contains("every client reads u16 teams since 1.2"),
        "{all}"
    );
}

#[test]
fn ci_fails_on_an_unused_or_stale_waiver() {
    let repo = Repo::new("ci-waiver");
    // The waiver matches no finding: nothing changed.
    repo.write("pktc.toml", &format!("{PROJECT}{WAIVER}"));
    let (code, summary, all) = repo.ci();
    assert_eq!(code, Some(1), "{all}");
    assert_steps(&summary, &[(1, "0 waived, 1 unused waiver")], &all);
    assert!(
        all.contains(
            "error: pktc.toml:21: the waiver of `message-field-retyped` at `sky.Join.team` \
             matches no finding; remove it"
        ),
        "{all}"
    );

    // Written against another baseline: stale once the baseline moves on.
    repo.write("schemas/game.pkt", GAME_BREAKING);
    assert_eq!(repo.pktc(&["gen"]).status.code(), Some(0));
    repo.git(&["commit", "-q", "-a", "-m", "v2"]);
    repo.git(&["tag", "v2"]);
    repo.write(
        "pktc.toml",
        &format!("{PROJECT}{WAIVER}baseline = \"v2\"\n"),
    );
    let (code, summary, all) = repo.ci();
    assert_eq!(code, Some(1), "{all}");
    assert_steps(
        &summary,
        &[(
            1,
            "1 breaking, 0 source-only, 0 safe, 0 waived, 1 unused waiver",
        )],
        &all,
    );
    assert!(
        all.contains("is for baseline `v2`, but the comparison is with `v1`"),
        "{all}"
    );
}

#[test]
fn ci_fails_on_stale_generated_code_of_each_target() {
    let repo = Repo::new("ci-stale");
    repo.write("schemas/game.pkt", GAME_V2);
    assert_eq!(repo.pktc(&["gen"]).status.code(), Some(0));
    repo.git(&["commit", "-q", "-a", "-m", "v2"]);
    for (step, out) in [
        (2, "server/src/net"),
        (3, "client/Assets/Net"),
        (4, "bot/src/net"),
    ] {
        // This target's folder as version 1 generated it.
        repo.git(&["checkout", "-q", "v1", "--", out]);
        let (code, summary, all) = repo.ci();
        assert_eq!(code, Some(1), "{out}: {all}");
        assert_steps(
            &summary,
            &[(step, "1 file would change; run pktc gen")],
            &all,
        );
        repo.git(&["checkout", "-q", "HEAD", "--", out]);
    }
    // A file generated earlier and no longer generated is stale too.
    repo.write(
        "bot/src/net/old.ts",
        "// @generated by pktc from old.pkt. Do not edit.\n",
    );
    let (code, summary, all) = repo.ci();
    assert_eq!(code, Some(1), "{all}");
    assert_steps(&summary, &[(4, "1 file would be removed")], &all);
    std::fs::remove_file(repo.dir.join("bot/src/net/old.ts")).expect("remove");
    let (code, _, all) = repo.ci();
    assert_eq!(code, Some(0), "{all}");
}

#[test]
fn ci_compares_with_a_baseline_folder() {
    let repo = Repo::new("ci-dir");
    // The released version, kept in a folder at the same paths.
    repo.write("released/schemas/common.pkt", COMMON_V1);
    repo.write("released/schemas/game.pkt", GAME_V1);
    repo.write(
        "pktc.toml",
        &PROJECT.replace("baseline = \"v1\"", "baseline_dir = \"released\""),
    );
    let o = repo.pktc(&["ci"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    // Constants stay in the class named after their file: no finding.
    assert!(
        String::from_utf8_lossy(&o.stdout)
            .contains("compat against released: ok: 0 breaking, 0 source-only, 0 safe, 0 waived"),
        "{}",
        text(&o)
    );
    repo.write("schemas/game.pkt", GAME_BREAKING);
    assert_eq!(repo.pktc(&["gen"]).status.code(), Some(0));
    let o = repo.pktc(&["ci"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("compat against released: FAILED: 1 breaking"),
        "{}",
        text(&o)
    );
}

#[test]
fn a_bad_project_file_is_a_usage_error_that_says_where() {
    let repo = Repo::new("bad-file");
    repo.write(
        "pktc.toml",
        &PROJECT.replace(
            "no_runtime = true",
            "no_runtime = true\nasmdef_name = \"X\"",
        ),
    );
    for args in [&["ci"][..], &["gen"], &["check"]] {
        let o = repo.pktc(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.starts_with("error: pktc.toml:12:1: unknown field `asmdef_name`"),
            "{args:?}: {err}"
        );
    }
    // Without a project file, a command without files says what it looked for.
    let empty = common::scratch_dir("project-none");
    let o = repo.pktc_in(&empty, &["ci"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("no pktc.toml in this directory or its parents"),
        "{}",
        text(&o)
    );
}

/// A schema with a C#-only warning: `Sky.Guild.Guild`.
const GUILD: &str = "namespace sky.guild;\n\nmessage Guild {\n    name: string,\n}\n";

const CS_WARNING: &str = "warning: C# type `Sky.Guild.Guild` is named like its namespace";

#[test]
fn a_warning_is_the_data_of_its_language() {
    let dir = common::scratch_dir("project-warning-data");
    std::fs::write(dir.join("guild.pkt"), GUILD).expect("write");
    let checked = pktc::check(&[dir.join("guild.pkt")]).expect("checks");
    let [w] = &checked.warnings[..] else {
        panic!("one warning: {:?}", checked.warnings);
    };
    assert_eq!(w.language, Some("C#"));
    assert!(w.concerns(pktc::Lang::CSharp));
    assert!(!w.concerns(pktc::Lang::Rust) && !w.concerns(pktc::Lang::TypeScript));
    assert_eq!(w.to_json(&checked.sources)["language"], "C#");
}

#[test]
fn gen_shows_only_the_warnings_of_its_language() {
    let dir = common::scratch_dir("project-warnings-gen");
    std::fs::write(dir.join("guild.pkt"), GUILD).expect("write");
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_pktc"))
            .args(args)
            .current_dir(&dir)
            .output()
            .expect("pktc runs")
    };
    for (lang, shown) in [("rust", false), ("typescript", false), ("csharp", true)] {
        let o = run(&["gen", "--lang", lang, "-o", lang, "guild.pkt"]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        assert_eq!(
            String::from_utf8_lossy(&o.stderr).contains(CS_WARNING),
            shown,
            "gen --lang {lang}: {}",
            text(&o)
        );
    }
    let o = run(&["check", "guild.pkt"]);
    assert!(
        String::from_utf8_lossy(&o.stderr).contains(CS_WARNING),
        "{}",
        text(&o)
    );
}

#[test]
fn check_shows_the_warnings_of_the_project_targets() {
    let dir = common::scratch_dir("project-warnings-check");
    std::fs::write(dir.join("guild.pkt"), GUILD).expect("write");
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_pktc"))
            .args(args)
            .current_dir(&dir)
            .output()
            .expect("pktc runs")
    };
    let server_and_bot = "schemas = [\"guild.pkt\"]\n\n[[target]]\nlang = \"rust\"\n\
                          out = \"server\"\n\n[[target]]\nlang = \"typescript\"\nout = \"bot\"\n";
    std::fs::write(dir.join("pktc.toml"), server_and_bot).expect("write");
    for args in [&["check"][..], &["gen"], &["ci"]] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", text(&o));
        assert!(
            !text(&o).contains("named like its namespace"),
            "{args:?}: {}",
            text(&o)
        );
    }
    let o = run(&["ci"]);
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("check: ok: 1 schema file, 0 warnings"),
        "{}",
        text(&o)
    );
    // With a C# target, its warning is shown, naming its language.
    std::fs::write(
        dir.join("pktc.toml"),
        format!("{server_and_bot}\n[[target]]\nlang = \"csharp\"\nout = \"client\"\n"),
    )
    .expect("write");
    for args in [&["check"][..], &["gen"]] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", text(&o));
        assert!(
            String::from_utf8_lossy(&o.stderr).contains(CS_WARNING),
            "{args:?}: {}",
            text(&o)
        );
    }
    let o = run(&["ci"]);
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("check: ok: 1 schema file, 1 warning"),
        "{}",
        text(&o)
    );
}
