//! The compatibility checker: old/new pairs under `schemas/compat/`, each
//! stating the rules it expects to trigger; together they trigger every rule,
//! and docs/evolution.md lists the same rules. The rendered reports are
//! snapshots. Also `--format json`, `--against-git`, schema errors, `pktc
//! explain`, and every pair of the example schemas' versions. Each case is a test
//! case of its own (`compat/<case>`).

mod common;

use common::trial;
use std::path::Path;
use std::process::Command;

use std::collections::BTreeSet;

use pktc::tools::compat::{compare, ChangeKind, Rule};

fn compat_cases() -> Vec<String> {
    let dir = common::root().join("schemas/compat");
    let mut cases: Vec<String> = std::fs::read_dir(&dir)
        .expect("schemas/compat exists")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    cases.sort();
    cases
}

/// The rules a case's `new.pkt` says it triggers (`// expect: id, id`).
fn expected_rules(case: &str) -> Vec<Rule> {
    let new = common::root()
        .join("schemas/compat")
        .join(case)
        .join("new.pkt");
    let text = std::fs::read_to_string(new).expect("readable");
    let line = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("// expect: "))
        .unwrap_or_else(|| panic!("{case}: new.pkt must start with `// expect: ...`"));
    if line == "nothing" {
        return Vec::new();
    }
    let mut rules: Vec<Rule> = line
        .split(", ")
        .map(|id| Rule::from_id(id).unwrap_or_else(|| panic!("{case}: no rule `{id}`")))
        .collect();
    rules.sort();
    rules
}

fn main() {
    let mut trials = Vec::new();
    let cases = compat_cases();
    let found = cases.clone();
    trials.push(trial("compat_cases_found", move || {
        assert!(found.len() >= 30, "{found:?}");
    }));
    for case in cases {
        trials.push(trial(format!("compat/{case}"), move || {
            rule_case_triggers_the_rules_it_names(case)
        }));
    }
    trials.extend([
        trial(
            "the_cases_the_rule_enum_and_the_docs_list_the_same_rules",
            the_cases_the_rule_enum_and_the_docs_list_the_same_rules,
        ),
        trial(
            "json_output_lists_changes_with_locations",
            json_output_lists_changes_with_locations,
        ),
        trial("safe_changes_exit_0", safe_changes_exit_0),
        trial(
            "against_git_compares_with_a_revision",
            against_git_compares_with_a_revision,
        ),
        trial(
            "against_git_reads_the_repository_of_the_schema_not_of_the_current_directory",
            against_git_reads_the_repository_of_the_schema_not_of_the_current_directory,
        ),
        trial(
            "against_git_finds_nothing_in_an_unchanged_repository",
            against_git_finds_nothing_in_an_unchanged_repository,
        ),
        trial(
            "waivers_accept_deliberate_changes_and_stale_waivers_fail",
            waivers_accept_deliberate_changes_and_stale_waivers_fail,
        ),
        trial(
            "schema_errors_exit_3_with_a_json_object",
            schema_errors_exit_3_with_a_json_object,
        ),
        trial(
            "explain_prints_each_rules_section",
            explain_prints_each_rules_section,
        ),
        trial(
            "every_pair_of_example_versions_reports_exactly_its_changes",
            every_pair_of_example_versions_reports_exactly_its_changes,
        ),
        trial(
            "every_schema_compared_with_itself_reports_nothing",
            every_schema_compared_with_itself_reports_nothing,
        ),
    ]);
    common::run(trials)
}

fn rule_case_triggers_the_rules_it_names(case: String) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(common::root().join("snapshots/compat"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    let old = Path::new("schemas/compat").join(&case).join("old.pkt");
    let new = Path::new("schemas/compat").join(&case).join("new.pkt");
    let expected = expected_rules(&case);
    let report = compare(&[old], &common::RootReader, &[new], &common::RootReader)
        .unwrap_or_else(|f| panic!("{case}: {f}"));
    let mut rules: Vec<Rule> = report.changes.iter().map(|c| c.rule).collect();
    rules.sort();
    assert_eq!(rules, expected, "{case}:\n{}", report.render());
    for c in &report.changes {
        assert_eq!(c.kind, c.rule.class(), "{case}: {}", c.message);
        // The qualified name a waiver names: a namespace, a dot, a name.
        assert!(
            c.place.contains('.') && !c.place.contains([' ', '`']),
            "{case}: place `{}` of {}",
            c.place,
            c.message
        );
    }
    assert_eq!(
        report.is_breaking(),
        expected.iter().any(|r| r.class() == ChangeKind::Breaking),
        "{case}"
    );
    settings.bind(|| insta::assert_snapshot!(case.clone(), report.render()));
}

fn the_cases_the_rule_enum_and_the_docs_list_the_same_rules() {
    let all: BTreeSet<Rule> = Rule::ALL.iter().copied().collect();
    let exercised: BTreeSet<Rule> = compat_cases()
        .iter()
        .flat_map(|c| expected_rules(c))
        .collect();
    let missing: Vec<&str> = all.difference(&exercised).map(|r| r.id()).collect();
    assert!(
        missing.is_empty(),
        "rules without a case in schemas/compat: {missing:?}"
    );

    // The docs' rule table: `| [`ID`](#ID) | summary | class |`.
    let docs = std::fs::read_to_string(common::root().join("docs/evolution.md")).expect("docs");
    let documented: Vec<(String, String, String)> = docs
        .lines()
        .filter_map(|l| l.strip_prefix("| [`"))
        .map(|l| {
            let (id, rest) = l.split_once('`').expect("id in backticks");
            assert!(rest.starts_with(&format!("](#{id})")), "{id}: link {rest}");
            let cells: Vec<&str> = rest.split(" | ").collect();
            (
                id.to_owned(),
                cells[1].trim().to_owned(),
                cells[2].trim_end_matches('|').trim().to_owned(),
            )
        })
        .collect();
    let expected: Vec<(String, String, String)> = Rule::ALL
        .iter()
        .map(|r| {
            (
                r.id().to_owned(),
                r.summary().to_owned(),
                r.class().word().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        documented, expected,
        "docs/evolution.md's rule table and compat::Rule differ"
    );
}

fn pktc(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_pktc"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("pktc runs")
}

fn json_output_lists_changes_with_locations() {
    let o = pktc(
        &common::root(),
        &[
            "compat",
            "--format",
            "json",
            "schemas/compat/union_tag_repointed/old.pkt",
            "schemas/compat/union_tag_repointed/new.pkt",
        ],
    );
    assert_eq!(o.status.code(), Some(1), "breaking changes exit 1");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["breaking"], 1);
    let c = &v["changes"][0];
    assert_eq!(c["kind"], "breaking");
    assert_eq!(c["rule"], "union-tag-repointed");
    assert_eq!(c["place"], "game.evo.Packet.Emote", "what waivers name");
    assert_eq!(c["waived"], serde_json::Value::Null);
    assert_eq!(v["waived"], 0);
    assert_eq!(c["docs"], "pktc explain union-tag-repointed");
    assert_eq!(
        c["old"]["file"],
        "schemas/compat/union_tag_repointed/old.pkt"
    );
    assert_eq!(c["new"]["line"], 6);
    assert_eq!(ChangeKind::Breaking.word(), "breaking");
}

fn safe_changes_exit_0() {
    let o = pktc(
        &common::root(),
        &[
            "compat",
            "schemas/compat/message_field_appended/old.pkt",
            "schemas/compat/message_field_appended/new.pkt",
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("0 breaking, 0 source-only, 1 safe"));
}

/// A new, empty git repository `target/<name>` with a `schemas` directory.
fn new_repo(name: &str) -> std::path::PathBuf {
    let repo = common::root().join("target").join(name);
    let _ = std::fs::remove_dir_all(&repo);
    std::fs::create_dir_all(repo.join("schemas")).expect("mkdir");
    git(&repo, &["init", "-q"]);
    repo
}

fn git(repo: &Path, args: &[&str]) {
    let o = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
        .args(args)
        .current_dir(repo)
        .output()
        .expect("git runs");
    assert!(
        o.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

fn against_git_compares_with_a_revision() {
    let repo = new_repo("compat-git-test");
    let git = |args: &[&str]| git(&repo, args);
    let write =
        |name: &str, text: &str| std::fs::write(repo.join("schemas").join(name), text).unwrap();
    write(
        "common.pkt",
        "namespace g;\nenum Team : u8 { Red = 1, Blue = 2 }\n",
    );
    write(
        "game.pkt",
        "namespace g;\nimport \"common.pkt\";\nunion Packet {\n    Join(Team) = 1,\n}\n",
    );
    git(&["add", "."]);
    git(&["commit", "-q", "-m", "v1"]);
    // Work tree: a safe change in the imported file, a breaking one in the entry.
    write(
        "common.pkt",
        "namespace g;\nenum Team : u8 { Red = 1, Blue = 2, Green = 3 }\n",
    );
    write(
        "game.pkt",
        "namespace g;\nimport \"common.pkt\";\nunion Packet {\n    Join(u16) = 1,\n}\n",
    );
    let o = pktc(
        &repo,
        &["compat", "--against-git", "HEAD", "schemas/game.pkt"],
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains("1 breaking, 0 source-only, 1 safe"), "{out}");
    assert!(out.contains("schemas/game.pkt@HEAD:4:5"), "{out}");
    assert!(
        out.contains("`g.Team::Green`") || out.contains("`Team::Green`"),
        "{out}"
    );

    // A file added since the revision: every type in it is added (safe).
    write("lobby.pkt", "namespace g;\nmessage Lobby { size: u8 }\n");
    let o = pktc(
        &repo,
        &["compat", "--against-git", "HEAD", "schemas/lobby.pkt"],
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains("0 breaking, 0 source-only, 1 safe"), "{out}");
    assert!(
        out.contains("`g.Lobby`") || out.contains("`Lobby`"),
        "{out}"
    );
    // A file deleted since the revision: its types are removed (source-only:
    // the wire does not change, code that names them does).
    std::fs::remove_file(repo.join("schemas/common.pkt")).unwrap();
    std::fs::remove_file(repo.join("schemas/game.pkt")).unwrap();
    let o = pktc(
        &repo,
        &["compat", "--against-git", "HEAD", "schemas/game.pkt"],
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(out.contains("0 breaking, 2 source-only, 0 safe"), "{out}");
    assert!(out.contains("union `g.Packet` was removed"), "{out}");
    // A file in neither place is an error that names it.
    let o = pktc(
        &repo,
        &["compat", "--against-git", "HEAD", "schemas/nowhere.pkt"],
    );
    assert_eq!(o.status.code(), Some(3), "not readable, so not compared");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("cannot read schemas/nowhere.pkt: no such file"),
        "{err}"
    );

    let o = pktc(
        &repo,
        &["compat", "--against-git", "no-such-rev", "schemas/game.pkt"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown git revision"));
}

/// A repository with one commit of `schemas/game.pkt` and a breaking change
/// in its working tree, for running `--against-git` from elsewhere.
fn repo_with_a_breaking_change(name: &str) -> std::path::PathBuf {
    let repo = new_repo(name);
    let git = |args: &[&str]| git(&repo, args);
    let game = repo.join("schemas/game.pkt");
    std::fs::write(
        &game,
        "namespace g;\nmessage Whisper { to: string, body: string }\n",
    )
    .unwrap();
    git(&["add", "."]);
    git(&["commit", "-q", "-m", "v1"]);
    std::fs::write(
        &game,
        "namespace g;\nmessage Whisper { body: string, to: string }\n",
    )
    .unwrap();
    repo
}

fn against_git_reads_the_repository_of_the_schema_not_of_the_current_directory() {
    let repo = repo_with_a_breaking_change("compat-git-elsewhere");
    let game = repo.join("schemas/game.pkt");
    // From a directory outside the repository (the system's temporary
    // directory), and from this repository's root, which is another git
    // repository whose HEAD has no such file.
    for dir in [std::env::temp_dir(), common::root()] {
        let o = pktc(
            &dir,
            &[
                "compat",
                "--against-git",
                "HEAD",
                game.to_str().expect("UTF-8 path"),
            ],
        );
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(
            o.status.code(),
            Some(1),
            "from {}: {out}{}",
            dir.display(),
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(out.contains("2 breaking, 0 source-only, 0 safe"), "{out}");
    }
    // A relative path from a subdirectory of the repository.
    let o = pktc(
        &repo.join("schemas"),
        &["compat", "--against-git", "HEAD", "game.pkt"],
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("game.pkt@HEAD:2:"), "{out}");
}

/// Every way of naming the baseline (`HEAD`, a branch, a tag, a SHA, a
/// relative revision) of a repository whose files did not change, with
/// constants in an imported file and in the entry file: nothing is
/// reported. (The old version's files are shown as `common.pkt@REV`, and the
/// class holding a file's constants is named after the file, not after what
/// it is shown as.) Then a real rename of the file is still reported.
fn against_git_finds_nothing_in_an_unchanged_repository() {
    let repo = new_repo("compat-git-unchanged");
    let git = |args: &[&str]| git(&repo, args);
    let write =
        |name: &str, text: &str| std::fs::write(repo.join("schemas").join(name), text).unwrap();
    write(
        "common.pkt",
        "namespace g;\nconst MAX_NAME: u16 = 32;\nconst MAX_CHAT: u16 = 256;\n",
    );
    write(
        "game.pkt",
        "namespace g;\nimport \"common.pkt\";\nconst VERSION: u8 = 3;\n\
         message Say { who: string @max(MAX_NAME), text: string @max(MAX_CHAT) }\n",
    );
    git(&["add", "."]);
    git(&["commit", "-q", "-m", "v1"]);
    git(&["tag", "v1"]);
    git(&["branch", "release"]);
    git(&["commit", "-q", "--allow-empty", "-m", "nothing"]);
    let sha = Command::new("git")
        .args(["rev-parse", "HEAD~1"])
        .current_dir(&repo)
        .output()
        .expect("git runs");
    let sha = String::from_utf8(sha.stdout).unwrap().trim().to_owned();
    for rev in ["HEAD", "HEAD~1", "v1", "release", &sha, &sha[..10]] {
        for files in [
            &["schemas/game.pkt"][..],
            &["schemas/game.pkt", "schemas/common.pkt"],
        ] {
            let mut args = vec!["compat", "--against-git", rev];
            args.extend(files);
            let o = pktc(&repo, &args);
            let out = String::from_utf8_lossy(&o.stdout);
            assert_eq!(
                o.status.code(),
                Some(0),
                "{rev}: {out}{}",
                String::from_utf8_lossy(&o.stderr)
            );
            assert!(
                out.starts_with("0 breaking, 0 source-only, 0 safe"),
                "{rev} {files:?}: {out}"
            );
        }
    }
    // Renaming the imported file does move its constants to another class.
    git(&["mv", "schemas/common.pkt", "schemas/limits.pkt"]);
    write(
        "game.pkt",
        "namespace g;\nimport \"limits.pkt\";\nconst VERSION: u8 = 3;\n\
         message Say { who: string @max(MAX_NAME), text: string @max(MAX_CHAT) }\n",
    );
    let o = pktc(
        &repo,
        &["compat", "--against-git", "v1", "schemas/game.pkt"],
    );
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("0 breaking, 1 source-only, 0 safe"), "{out}");
    assert!(
        out.contains("moved from schemas/common.pkt@v1 to schemas/limits.pkt"),
        "{out}"
    );
    assert!(
        out.contains("the C# class `LimitsConstants` (was `CommonConstants`)"),
        "{out}"
    );
}

const CHAT_V1: &str = "namespace game.chat;

const MAX_CHAT: u16 = 256;
const MAX_NAME: u16 = 32;

message Say {
    text: string @max(MAX_CHAT),
}

message Whisper {
    to: string @max(MAX_NAME),
    text: string @max(MAX_CHAT),
}

message Notice {
    body: string @max(MAX_CHAT),
}

message History {
    lines: list<string @max(MAX_CHAT)> @max(50),
}

struct Line {
    text: string @max(MAX_CHAT),
}

union ChatPacket {
    Say(Say) = 1,
    Whisper(Whisper) = 2,
    History(History) = 3,
    Line(Line) = 4,
    Notice(Notice) = 5,
}
";

/// The six findings of raising `MAX_CHAT` from 256 to 512, as waivers.
const CHAT_FINDINGS: &[(&str, &str)] = &[
    ("const-value-changed", "game.chat.MAX_CHAT"),
    ("message-max-changed", "game.chat.Say.text"),
    ("message-max-changed", "game.chat.Whisper.text"),
    ("message-max-changed", "game.chat.Notice.body"),
    ("element-max-changed", "game.chat.History.lines"),
    ("struct-max-changed", "game.chat.Line.text"),
];

fn waiver_tables(findings: &[(&str, &str)], baseline: Option<&str>) -> String {
    let mut out = String::from("# Deliberate changes, reviewed like code.\n");
    for (rule, place) in findings {
        out.push_str(&format!(
            "\n[[compat.waiver]]\nrule = \"{rule}\"\nplace = \"{place}\"\n\
             reason = \"every reader accepts 512 since 1.4\"\n"
        ));
        if let Some(b) = baseline {
            out.push_str(&format!("baseline = \"{b}\"\n"));
        }
    }
    out
}

/// The team raises `MAX_CHAT` after every reader was deployed: six breaking
/// findings, accepted by six waivers in the repository. A waiver that
/// matches nothing (a typo, a change undone, a baseline that moved past
/// the change) fails the run and names the waiver.
fn waivers_accept_deliberate_changes_and_stale_waivers_fail() {
    let repo = new_repo("compat-waivers");
    let git = |args: &[&str]| git(&repo, args);
    let chat = repo.join("schemas/chat.pkt");
    std::fs::write(&chat, CHAT_V1).unwrap();
    git(&["add", "."]);
    git(&["commit", "-q", "-m", "v1"]);
    git(&["tag", "v1"]);
    std::fs::write(&chat, CHAT_V1.replace("= 256", "= 512")).unwrap();
    let waivers = repo.join("pktc-waivers.toml");
    let run = |extra: &[&str]| {
        let mut args = vec!["compat", "--against-git", "v1", "schemas/chat.pkt"];
        args.extend(extra);
        let o = pktc(&repo, &args);
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };

    let (code, out, _) = run(&[]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("6 breaking, 0 source-only, 0 safe\n"), "{out}");

    // Every finding waived, one of them for this baseline only.
    let mut text = waiver_tables(&CHAT_FINDINGS[1..], None);
    text.push_str(
        &waiver_tables(&CHAT_FINDINGS[..1], Some("v1"))
            .replace("# Deliberate changes, reviewed like code.\n", ""),
    );
    std::fs::write(&waivers, &text).unwrap();
    let (code, out, err) = run(&["--waivers", "pktc-waivers.toml"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains("0 breaking, 0 source-only, 0 safe, 6 waived"),
        "{out}"
    );
    assert!(
        out.contains(
            "waived[const-value-changed]: constant `game.chat.MAX_CHAT` changed from 256 to 512 \
             (every reader accepts 512 since 1.4)"
        ),
        "{out}"
    );
    assert!(!out.contains("breaking["), "{out}");
    let o = pktc(
        &repo,
        &[
            "compat",
            "--format",
            "json",
            "--against-git",
            "v1",
            "--waivers",
            "pktc-waivers.toml",
            "schemas/chat.pkt",
        ],
    );
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["breaking"], 0);
    assert_eq!(v["waived"], 6);
    assert_eq!(v["unused_waivers"], serde_json::json!([]));
    let changes = v["changes"].as_array().expect("changes");
    assert_eq!(changes.len(), 6);
    for c in changes {
        assert_eq!(c["kind"], "breaking", "the kind stays what it is");
        assert_eq!(c["waived"]["reason"], "every reader accepts 512 since 1.4");
        assert!(CHAT_FINDINGS
            .iter()
            .any(|(r, p)| c["rule"] == *r && c["place"] == *p));
    }
    // The same baseline named by its commit: the waiver still applies.
    let sha = Command::new("git")
        .args(["rev-parse", "v1"])
        .current_dir(&repo)
        .output()
        .expect("git runs");
    let sha = String::from_utf8(sha.stdout).unwrap().trim().to_owned();
    let o = pktc(
        &repo,
        &[
            "compat",
            "--against-git",
            &sha,
            "--waivers",
            "pktc-waivers.toml",
            "schemas/chat.pkt",
        ],
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );

    // One finding left unwaived is still breaking.
    std::fs::write(&waivers, waiver_tables(&CHAT_FINDINGS[1..], None)).unwrap();
    let (code, out, _) = run(&["--waivers", "pktc-waivers.toml"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("1 breaking, 0 source-only, 0 safe, 5 waived"),
        "{out}"
    );
    assert!(out.contains("breaking[const-value-changed]"), "{out}");

    // A waiver that matches no finding is an error naming it, even when
    // every finding is waived.
    let mut findings = CHAT_FINDINGS.to_vec();
    findings.push(("message-max-changed", "game.chat.Say.txt"));
    std::fs::write(&waivers, waiver_tables(&findings, None)).unwrap();
    let (code, out, err) = run(&["--waivers", "pktc-waivers.toml"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        out.contains("0 breaking, 0 source-only, 0 safe, 6 waived"),
        "{out}"
    );
    assert!(
        err.contains(
            "error: pktc-waivers.toml:33: the waiver of `message-max-changed` at \
             `game.chat.Say.txt` matches no finding; remove it"
        ),
        "{err}"
    );

    // The change merged: the baseline moves past it, and the waivers that
    // no longer match anything fail the run until they are removed.
    std::fs::write(&waivers, waiver_tables(CHAT_FINDINGS, Some("v1"))).unwrap();
    git(&["add", "."]);
    git(&["commit", "-q", "-m", "MAX_CHAT 512"]);
    let o = pktc(
        &repo,
        &[
            "compat",
            "--against-git",
            "HEAD",
            "--waivers",
            "pktc-waivers.toml",
            "schemas/chat.pkt",
        ],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert_eq!(err.matches("error: pktc-waivers.toml:").count(), 6, "{err}");
    assert!(
        err.contains("is for baseline `v1`, but the comparison is with `HEAD`, another commit"),
        "{err}"
    );
    // Without a baseline, they match no finding.
    std::fs::write(&waivers, waiver_tables(CHAT_FINDINGS, None)).unwrap();
    let o = pktc(
        &repo,
        &[
            "compat",
            "--against-git",
            "HEAD",
            "--waivers",
            "pktc-waivers.toml",
            "schemas/chat.pkt",
        ],
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert_eq!(
        err.matches("matches no finding; remove it").count(),
        6,
        "{err}"
    );

    // A waiver file that does not parse, or names no reason, is a usage
    // error that says where.
    std::fs::write(
        &waivers,
        "[[compat.waiver]]\nrule = \"const-value-changed\"\nplace = \"game.chat.MAX_CHAT\"\n",
    )
    .unwrap();
    let (code, _, err) = run(&["--waivers", "pktc-waivers.toml"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("pktc-waivers.toml:1:") && err.contains("reason"),
        "{err}"
    );
    let (code, _, err) = run(&["--waivers", "nowhere.toml"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("cannot read nowhere.toml: no such file"),
        "{err}"
    );
}

fn schema_errors_exit_3_with_a_json_object() {
    let dir = common::root().join("target/compat-schema-errors");
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.pkt");
    let bad = dir.join("bad.pkt");
    std::fs::write(&good, "namespace g;\nmessage M { a: u32 }\n").unwrap();
    std::fs::write(&bad, "namespace g;\nmessage M { a: Nope }\n").unwrap();
    let path = |p: &Path| p.to_str().expect("UTF-8 path").to_owned();
    for (old, new, version) in [(&bad, &good, "old"), (&good, &bad, "new")] {
        let o = pktc(&dir, &["compat", &path(old), &path(new)]);
        assert_eq!(
            o.status.code(),
            Some(3),
            "{version}: not 1, which is breaking"
        );
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("unknown type `Nope`"), "{err}");
        assert!(
            err.contains(&format!("the {version} version has errors")),
            "{err}"
        );
        let o = pktc(
            &dir,
            &["compat", "--format", "json", &path(old), &path(new)],
        );
        assert_eq!(o.status.code(), Some(3));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("a JSON object");
        assert_eq!(v["error"], "schema");
        assert_eq!(v["version"], version);
        let d = &v["diagnostics"][0];
        assert_eq!(d["severity"], "error");
        assert!(d["message"]
            .as_str()
            .unwrap()
            .contains("unknown type `Nope`"));
        assert_eq!(d["labels"][0]["file"], path(&bad));
        assert_eq!(d["labels"][0]["line"], 2);
        assert_eq!(d["labels"][0]["column"], 16);
    }
    // Usage errors keep their own status, with a JSON object too.
    let o = pktc(&dir, &["compat", "--format", "json", &path(&good)]);
    assert_eq!(o.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("a JSON object");
    assert_eq!(v["error"], "usage");
}

fn explain_prints_each_rules_section() {
    for rule in Rule::ALL {
        let o = pktc(&common::root(), &["explain", rule.id()]);
        assert_eq!(o.status.code(), Some(0), "{}", rule.id());
        let out = String::from_utf8_lossy(&o.stdout);
        let first = out.lines().next().unwrap_or_default();
        assert_eq!(
            first,
            format!(
                "{} ({}): {}",
                rule.id(),
                rule.class().word(),
                rule.summary()
            )
        );
        assert!(out.contains(rule.explain()), "{}", rule.id());
        assert!(
            rule.explain().len() > 80,
            "{}: too short to explain",
            rule.id()
        );
    }
    let o = pktc(&common::root(), &["explain", "message-fields-reorderd"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("did you mean `message-fields-reordered`?"),
        "{err}"
    );
}

/// Old and new versions of a schema, each a set of files named on the
/// command line (relative to the repository root).
struct Versions {
    dir: &'static str,
    files: &'static [&'static str],
}

/// Every multi-version example in the repository.
const EXAMPLES: &[Versions] = &[
    Versions {
        dir: "schemas/evolution",
        files: &["protocol.pkt"],
    },
    Versions {
        dir: "schemas/stable",
        files: &["game.pkt"],
    },
];

/// What compat must report for each ordered pair of an example's versions
/// (`dir`, old, new): exactly these rules, as many times as listed. Upgrades
/// are never breaking; a downgrade undoes them and is.
const EXAMPLE_PAIRS: &[(&str, &str, &str, &[&str])] = &[
    (
        "schemas/evolution",
        "v1",
        "v2",
        &[
            "deprecation-changed",
            "enum-value-added",
            "message-field-appended",
            "message-field-appended",
            "message-field-appended",
            "message-field-appended",
            "message-field-appended",
            "type-added",
            "union-variant-added",
            "union-variant-added",
        ],
    ),
    (
        "schemas/evolution",
        "v2",
        "v1",
        &[
            "deprecation-changed",
            "enum-value-removed",
            "message-field-removed",
            "message-field-removed",
            "message-field-removed",
            "message-field-removed",
            "message-field-removed",
            "type-removed",
            "union-variant-removed",
            "union-variant-removed",
        ],
    ),
    ("schemas/stable", "v1", "v2", STABLE_APPENDS),
    ("schemas/stable", "v2", "v1", STABLE_REMOVALS),
];

const STABLE_APPENDS: &[&str] = &[
    "message-field-appended",
    "message-field-appended",
    "message-field-appended",
    "message-field-appended",
    "message-field-appended",
    "message-field-appended",
];

const STABLE_REMOVALS: &[&str] = &[
    "message-field-removed",
    "message-field-removed",
    "message-field-removed",
    "message-field-removed",
    "message-field-removed",
    "message-field-removed",
];

fn every_pair_of_example_versions_reports_exactly_its_changes() {
    let mut compared = 0;
    for example in EXAMPLES {
        let mut versions: Vec<String> = std::fs::read_dir(common::root().join(example.dir))
            .expect("example directory")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        versions.sort();
        assert!(versions.len() >= 2, "{}: {versions:?}", example.dir);
        let files = |v: &str| -> Vec<std::path::PathBuf> {
            example
                .files
                .iter()
                .map(|f| Path::new(example.dir).join(v).join(f))
                .collect()
        };
        for old in &versions {
            for new in &versions {
                let report = compare(
                    &files(old),
                    &common::RootReader,
                    &files(new),
                    &common::RootReader,
                )
                .unwrap_or_else(|e| panic!("{}: {e}", example.dir));
                let mut found: Vec<&str> = report.changes.iter().map(|c| c.rule.id()).collect();
                found.sort_unstable();
                let expected: Vec<&str> = if old == new {
                    Vec::new()
                } else {
                    let (.., rules) = EXAMPLE_PAIRS
                        .iter()
                        .find(|(d, o, n, _)| *d == example.dir && o == old && n == new)
                        .unwrap_or_else(|| {
                            panic!("{}: no expectation for {old} -> {new}", example.dir)
                        });
                    rules.to_vec()
                };
                assert_eq!(
                    found,
                    expected,
                    "{} {old} -> {new}:\n{}",
                    example.dir,
                    report.render()
                );
                if old < new {
                    assert!(!report.is_breaking(), "an upgrade is never breaking");
                }
                compared += 1;
            }
        }
    }
    assert_eq!(compared, 8);
}

/// Comparing a schema with itself finds nothing: no rule fires on a value
/// that compares unequal to itself (a `nan` default) or on anything else.
fn every_schema_compared_with_itself_reports_nothing() {
    let schemas = common::schemas_in("schemas");
    assert!(schemas.len() >= 10, "{schemas:?}");
    for path in schemas {
        let report = compare(
            std::slice::from_ref(&path),
            &common::RootReader,
            std::slice::from_ref(&path),
            &common::RootReader,
        )
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            report.changes.is_empty(),
            "{}:\n{}",
            path.display(),
            report.render()
        );
    }
}
