//! Unity: the assembly definition `gen --asmdef NAME` writes beside the
//! generated files, so that Unity compiles them into an assembly of their
//! own. With the runtime left out (`--no-runtime`, the runtime coming from
//! the `com.pktc.runtime` package in `runtime/csharp/`), the assembly
//! references the package's; with the runtime included it needs nothing.

use std::path::PathBuf;

use serde::Serialize;

use super::super::{output, GeneratedFile};

/// The assembly of the runtime package (`runtime/csharp/Pkt.Runtime.asmdef`).
pub const RUNTIME_ASSEMBLY: &str = "Pkt.Runtime";

/// The assemblies Unity names itself, which a project's assembly definition
/// may not take.
const PREDEFINED: &[&str] = &[
    "Assembly-CSharp",
    "Assembly-CSharp-Editor",
    "Assembly-CSharp-firstpass",
    "Assembly-CSharp-Editor-firstpass",
];

/// Why `name` cannot be the name of the generated code's assembly (and of
/// its `.asmdef` file), if it cannot: a dotted name of letters, digits,
/// `_` and `-`, not Unity's own nor the runtime's.
pub fn assembly_name_error(name: &str) -> Option<String> {
    let valid_part = |p: &str| {
        p.chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && p.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    };
    if name.is_empty() || !name.split('.').all(valid_part) {
        return Some(format!(
            "`{name}` is not an assembly name: use letters, digits, `_` and `-` in parts \
             separated by dots, each starting with a letter (e.g. `Game.Protocol`)"
        ));
    }
    if name == RUNTIME_ASSEMBLY || PREDEFINED.contains(&name) {
        return Some(format!(
            "`{name}` is already an assembly of the project; choose another name (e.g. `Game.Protocol`)"
        ));
    }
    None
}

/// An assembly definition as Unity reads it; the `"//"` member is the
/// generated-file marker (JSON has no comments; Unity ignores members it
/// does not know).
#[derive(Serialize)]
struct AssemblyDefinition<'a> {
    #[serde(rename = "//")]
    marker: String,
    name: &'a str,
    references: Vec<&'a str>,
    /// Set for the output of `gen --unsafe`, which Unity compiles only in
    /// an assembly that allows unsafe code.
    #[serde(rename = "allowUnsafeCode")]
    allow_unsafe_code: bool,
    #[serde(rename = "autoReferenced")]
    auto_referenced: bool,
    /// Generated code uses `System` only.
    #[serde(rename = "noEngineReferences")]
    no_engine_references: bool,
}

/// `<name>.asmdef`, referencing the runtime package's assembly unless the
/// runtime is generated beside it, and allowing unsafe code when the output
/// has it.
pub(super) fn assembly_definition(
    name: &str,
    runtime_included: bool,
    unsafe_code: bool,
) -> GeneratedFile {
    let definition = AssemblyDefinition {
        marker: output::json_marker(),
        name,
        references: if runtime_included {
            Vec::new()
        } else {
            vec![RUNTIME_ASSEMBLY]
        },
        allow_unsafe_code: unsafe_code,
        auto_referenced: true,
        no_engine_references: true,
    };
    let mut contents =
        serde_json::to_string_pretty(&definition).expect("an assembly definition serializes");
    contents.push('\n');
    GeneratedFile {
        path: PathBuf::from(format!("{name}.asmdef")),
        contents,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assembly_names() {
        for ok in ["Game", "Game.Protocol", "My_Game.Net-2"] {
            assert_eq!(assembly_name_error(ok), None, "{ok}");
        }
        for bad in [
            "",
            "Game.",
            ".Game",
            "Game..Net",
            "2Game",
            "../Game",
            "Game/Net",
            "Game Net",
            "Pkt.Runtime",
            "Assembly-CSharp",
        ] {
            assert!(assembly_name_error(bad).is_some(), "{bad:?}");
        }
    }

    #[test]
    fn references_the_runtime_package_unless_the_runtime_is_included() {
        let without = assembly_definition("Game.Protocol", false, false);
        assert_eq!(without.path, PathBuf::from("Game.Protocol.asmdef"));
        assert!(
            output::is_generated(&without.contents),
            "{}",
            without.contents
        );
        let json: serde_json::Value = serde_json::from_str(&without.contents).expect("JSON");
        assert_eq!(json["name"], "Game.Protocol");
        assert_eq!(json["references"], serde_json::json!(["Pkt.Runtime"]));
        assert_eq!(json["allowUnsafeCode"], false);
        let with = assembly_definition("Game.Protocol", true, false);
        let json: serde_json::Value = serde_json::from_str(&with.contents).expect("JSON");
        assert_eq!(json["references"], serde_json::json!([]));
    }

    #[test]
    fn allows_unsafe_code_for_the_unsafe_output() {
        let file = assembly_definition("Game.Protocol", false, true);
        let json: serde_json::Value = serde_json::from_str(&file.contents).expect("JSON");
        assert_eq!(json["allowUnsafeCode"], true);
    }
}
