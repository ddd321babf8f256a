//! The TextMate grammar of editors/vscode, run through the engine VS Code
//! uses (vscode-textmate with vscode-oniguruma, installed with `npm ci` from
//! editors/test/package-lock.json into the target directory) over every
//! example schema: known tokens must get the expected scopes.
//!
//! Needs Node.js. Without it the test fails under `CI=true` and elsewhere
//! prints a warning and passes.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true" || v == "1")
}

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Installs the tokenizer's packages into the target directory (again only
/// when the lock file changed) and returns its `node_modules`.
fn install() -> Option<PathBuf> {
    for tool in ["node", "npm"] {
        if !have(tool) {
            assert!(
                !in_ci(),
                "`{tool}` is not installed: the editor grammar test needs Node.js"
            );
            eprintln!(
                "\n*** WARNING: `{tool}` not found; the TextMate grammar in editors/ was NOT tested ***\n"
            );
            return None;
        }
    }
    let src = common::root().join("editors/test");
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("editor-grammar");
    std::fs::create_dir_all(&dir).expect("create the npm directory");
    let lock =
        std::fs::read(src.join("package-lock.json")).expect("editors/test/package-lock.json");
    let installed = dir
        .join("node_modules/vscode-textmate/package.json")
        .exists()
        && std::fs::read(dir.join("package-lock.json")).is_ok_and(|l| l == lock);
    if !installed {
        std::fs::copy(src.join("package.json"), dir.join("package.json")).expect("copy");
        std::fs::write(dir.join("package-lock.json"), &lock).expect("copy");
        let o = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"])
            .current_dir(&dir)
            .output()
            .expect("npm runs");
        assert!(
            o.status.success(),
            "npm ci failed:\n{}",
            String::from_utf8_lossy(&o.stderr)
        );
        // `npm ci` rewrites nothing, but keep the copy that was installed.
        std::fs::write(dir.join("package-lock.json"), &lock).expect("copy");
    }
    Some(dir.join("node_modules"))
}

fn tokenize(files: &[PathBuf]) -> Option<Vec<Value>> {
    let modules = install()?;
    let root = common::root();
    let o = Command::new("node")
        .arg(root.join("editors/test/tokenize.js"))
        .arg(root.join("editors/vscode/syntaxes/pkt.tmLanguage.json"))
        .args(files.iter().map(|f| root.join(f)))
        .env("NODE_PATH", modules)
        .output()
        .expect("node runs");
    assert!(
        o.status.success(),
        "tokenizer failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: Value = serde_json::from_slice(&o.stdout).expect("tokenizer prints JSON");
    Some(v.as_array().expect("one entry per file").clone())
}

struct Tok {
    line: u64,
    text: String,
    scopes: Vec<String>,
}

impl Tok {
    fn has(&self, prefix: &str) -> bool {
        self.scopes.iter().any(|s| s.starts_with(prefix))
    }
    fn is_code(&self) -> bool {
        !self.has("comment") && !self.has("string")
    }
}

const PRIMITIVES: &[&str] = &[
    "bool", "u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64", "f32", "f64", "string", "bytes",
];

#[test]
fn grammar_scopes_the_example_schemas() {
    let mut files = common::schemas_in("schemas");
    files.push("compiler/tests/inputs/messy.pkt".into());
    // Constants named by namespace.
    files.push("schemas/same_stem/top.pkt".into());
    let Some(results) = tokenize(&files) else {
        return;
    };
    let mut seen = std::collections::BTreeMap::<&str, usize>::new();
    let mut count = |what: &'static str| *seen.entry(what).or_default() += 1;
    for (file, result) in files.iter().zip(&results) {
        let toks: Vec<Tok> = result["tokens"]
            .as_array()
            .expect("tokens")
            .iter()
            .map(|t| Tok {
                line: t["line"].as_u64().expect("line"),
                text: t["text"].as_str().expect("text").to_string(),
                scopes: t["scopes"]
                    .as_array()
                    .expect("scopes")
                    .iter()
                    .map(|s| s.as_str().expect("scope").to_string())
                    .collect(),
            })
            .collect();
        let source = std::fs::read_to_string(common::root().join(file)).expect("readable");
        let lines: Vec<&str> = source.lines().collect();
        let at = |t: &Tok| format!("{}:{} `{}` {:?}", file.display(), t.line, t.text, t.scopes);

        for (i, t) in toks.iter().enumerate() {
            let word = t.text.trim();
            let line = lines
                .get((t.line - 1) as usize)
                .map_or("", |l| l.trim_start());
            if !t.is_code() || word.is_empty() {
                continue;
            }
            let next = toks.get(i + 1).map_or("", |n| n.text.as_str());
            let prev = toks[..i]
                .iter()
                .rev()
                .map(|p| p.text.trim())
                .find(|p| !p.is_empty())
                .unwrap_or("");
            let expect = |ok: bool, what: &str| assert!(ok, "{}: expected {what}", at(t));
            // An attribute's argument or an array length that names a
            // constant, qualified or not, is one constant token.
            if ((prev == "(" && line.contains(&format!("@max({word}")))
                || (prev == ";" && line.contains(&format!("; {word}"))))
                && word.starts_with(|c: char| c.is_ascii_alphabetic())
            {
                let name: String = line[line.find(word).expect("the token is on its line")..]
                    .chars()
                    .take_while(|&c| c.is_alphanumeric() || c == '_' || c == '.')
                    .collect();
                expect(
                    t.has("variable.other.constant") && word == name,
                    "one constant token",
                );
                count(if word.contains('.') {
                    "qualified constant"
                } else {
                    "constant"
                });
                continue;
            }
            match word {
                "struct" | "message" | "enum" | "union" => {
                    expect(
                        t.has("keyword.declaration") && t.has("storage.type"),
                        "a keyword",
                    );
                    count("declaration keyword");
                }
                "namespace" | "import" => {
                    expect(t.has("keyword.control"), "keyword.control");
                    count("keyword.control");
                }
                "const" => expect(t.has("storage.type.const"), "storage.type.const"),
                "reserved" => {
                    expect(t.has("keyword.other.reserved"), "keyword.other.reserved");
                    count("reserved");
                }
                "list" | "map" if next.starts_with('<') => {
                    expect(t.has("support.type"), "support.type")
                }
                // A field may be named like a primitive (`string: String`).
                w if PRIMITIVES.contains(&w) && next.trim_start().starts_with(':') => {
                    expect(t.has("variable.other.member"), "a field name");
                    count("field named like a primitive");
                }
                w if PRIMITIVES.contains(&w) => {
                    expect(t.has("support.type.primitive"), "support.type.primitive");
                    count("primitive");
                }
                w if prev == "@" => {
                    expect(t.has("entity.other.attribute-name"), "an attribute");
                    count(if w == "max" {
                        "@max"
                    } else {
                        "other attribute"
                    });
                }
                w if w.starts_with(|c: char| c.is_ascii_digit() || c == '-') => {
                    expect(t.has("constant.numeric"), "constant.numeric");
                    count("number");
                }
                _ if next.starts_with(':')
                    && !["const", "enum", "union"]
                        .iter()
                        .any(|k| line.starts_with(k)) =>
                {
                    expect(t.has("variable.other.member"), "variable.other.member");
                    count("field name");
                }
                _ if ["struct", "message", "enum", "union"].contains(&prev) => {
                    expect(t.has("entity.name.type"), "entity.name.type");
                    count("type name");
                }
                w if w.contains(|c: char| c.is_alphanumeric()) => {
                    expect(t.scopes.len() > 1, "some scope for a word");
                }
                _ => {}
            }
        }

        // The reason of `@deprecated("...")`, quotes included, is a string.
        for (n, line) in lines.iter().enumerate() {
            let Some(open) = line
                .find("@deprecated(\"")
                .map(|i| i + "@deprecated(".len())
            else {
                continue;
            };
            let close = open + 1 + line[open + 1..].find('"').expect("closing quote");
            let mut col = 0;
            for t in toks.iter().filter(|t| t.line == n as u64 + 1) {
                let end = col + t.text.len();
                if col >= open && end <= close + 1 {
                    assert!(
                        t.has("string.quoted.double"),
                        "{}: expected a string",
                        at(t)
                    );
                    count("deprecation reason");
                }
                col = end;
            }
        }

        // Comments: the first token of a comment line says which kind.
        for (n, line) in lines.iter().enumerate() {
            let trimmed = line.trim_start();
            let kind = if trimmed.starts_with("///") && !trimmed.starts_with("////") {
                "comment.line.documentation"
            } else if trimmed.starts_with("//") {
                "comment.line.double-slash"
            } else if trimmed.starts_with("/*") {
                "comment.block"
            } else {
                continue;
            };
            let t = toks
                .iter()
                .find(|t| t.line == n as u64 + 1 && !t.text.trim().is_empty())
                .expect("a token on a comment line");
            assert!(t.has(kind), "{}: expected {kind}", at(t));
            count(kind);
        }
    }
    eprintln!("checked: {seen:?}");
    for what in [
        "declaration keyword",
        "keyword.control",
        "reserved",
        "primitive",
        "@max",
        "other attribute",
        "constant",
        "qualified constant",
        "deprecation reason",
        "number",
        "field name",
        "type name",
        "comment.line.documentation",
        "comment.line.double-slash",
        "comment.block",
    ] {
        assert!(
            seen.get(what).copied().unwrap_or(0) >= 2,
            "too few {what} tokens checked: {seen:?}"
        );
    }
}
