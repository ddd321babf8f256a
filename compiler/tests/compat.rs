//! The compatibility checker: old/new pairs under `schemas/compat/`, each
//! stating the rules it expects to trigger; together they trigger every rule,
//! and docs/evolution.md lists the same rules. The rendered reports are
//! snapshots. Also `--format json` and `--against-git`. Each case is a test
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

    // The docs' rule table: `| <a id="ID"></a>`ID` | summary | class |`.
    let docs = std::fs::read_to_string(common::root().join("docs/evolution.md")).expect("docs");
    let documented: Vec<(String, String, String)> = docs
        .lines()
        .filter_map(|l| l.strip_prefix("| <a id=\""))
        .map(|l| {
            let (id, rest) = l.split_once('"').expect("anchor id");
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
    assert_eq!(c["docs"], "docs/evolution.md#union-tag-repointed");
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

fn against_git_compares_with_a_revision() {
    let repo = common::root().join("target/compat-git-test");
    let _ = std::fs::remove_dir_all(&repo);
    std::fs::create_dir_all(repo.join("schemas")).expect("mkdir");
    let git = |args: &[&str]| {
        let o = Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
            .args(args)
            .current_dir(&repo)
            .output()
            .expect("git runs");
        assert!(
            o.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    };
    git(&["init", "-q"]);
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
    assert_eq!(o.status.code(), Some(1));
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
