//! The Unity package of the C# runtime, `runtime/csharp/`: its manifest and
//! assembly definition are valid and agree with each other, with the
//! runtime file `gen` writes and with the assembly definition `gen --asmdef`
//! writes; every file Unity imports has its `.meta` file; the sample is what
//! pktc generates now; and the sample and the README's code compile against
//! the runtime (under Mono, with a stand-in for the few `UnityEngine` types
//! they use).

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use pktc::emit::{generate, write_files, GenOptions, GeneratedFile, WriteMode};
use pktc::Lang;
use serde_json::Value;

const PACKAGE: &str = "runtime/csharp";
const SAMPLE: &str = "runtime/csharp/Samples~/Lobby";
const SAMPLE_ASSEMBLY: &str = "Lobby.Protocol";

fn package() -> PathBuf {
    common::root().join(PACKAGE)
}

fn json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()))
}

fn crate_version(manifest: &str) -> String {
    let text = std::fs::read_to_string(common::root().join(manifest)).expect("Cargo.toml");
    text.lines()
        .find_map(|l| l.strip_prefix("version = \""))
        .and_then(|v| v.strip_suffix('"'))
        .unwrap_or_else(|| panic!("no version in {manifest}"))
        .to_string()
}

#[test]
fn the_manifest_names_the_package_its_version_and_its_samples() {
    let manifest = json(&package().join("package.json"));
    let name = manifest["name"].as_str().expect("name");
    // Unity's rule: reverse domain notation, lowercase, at most 214 characters.
    assert!(
        name.len() <= 214
            && name.split('.').count() >= 3
            && name.split('.').all(|p| !p.is_empty()
                && p.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')),
        "package name {name}"
    );
    assert_eq!(name, "com.pktc.runtime");
    // Released together: the generated code calls the runtime of its version.
    let version = manifest["version"].as_str().expect("version");
    assert_eq!(
        version,
        crate_version("compiler/Cargo.toml"),
        "pktc's version"
    );
    assert_eq!(
        version,
        crate_version("runtime/Cargo.toml"),
        "pkt-runtime's version"
    );
    assert!(manifest["displayName"]
        .as_str()
        .is_some_and(|d| !d.is_empty()));
    assert!(manifest["description"]
        .as_str()
        .is_some_and(|d| !d.is_empty()));
    let unity = manifest["unity"].as_str().expect("unity");
    let parts: Vec<u32> = unity
        .split('.')
        .map(|p| p.parse().expect("a number"))
        .collect();
    assert!(
        parts.len() == 2 && parts[0] >= 2021,
        "Span<T> needs Unity 2021: {unity}"
    );
    let workspace = std::fs::read_to_string(common::root().join("Cargo.toml")).expect("Cargo.toml");
    let license = manifest["license"].as_str().expect("license");
    assert!(
        workspace.contains(&format!("license = \"{license}\"")),
        "the workspace's license"
    );
    let samples = manifest["samples"].as_array().expect("samples");
    assert!(!samples.is_empty());
    for sample in samples {
        let path = sample["path"].as_str().expect("sample path");
        assert!(path.starts_with("Samples~/"), "{path}");
        assert!(package().join(path).is_dir(), "{path} is not a folder");
        assert!(sample["displayName"]
            .as_str()
            .is_some_and(|d| !d.is_empty()));
    }
    assert_eq!(
        common::root().join(SAMPLE),
        package().join(samples[0]["path"].as_str().expect("path"))
    );
}

#[test]
fn the_assembly_definition_is_the_one_generated_code_references() {
    let asmdef = json(&package().join("Pkt.Runtime.asmdef"));
    assert_eq!(asmdef["name"], pktc::emit::CSHARP_RUNTIME_ASSEMBLY);
    assert_eq!(
        asmdef["rootNamespace"],
        pktc::emit::CSHARP_NAMING
            .runtime_namespace
            .expect("C# has a runtime namespace")
    );
    assert_eq!(asmdef["references"], serde_json::json!([]));
    assert_eq!(asmdef["allowUnsafeCode"], false);
    assert_eq!(asmdef["noEngineReferences"], true);
    // `gen --no-runtime --asmdef` references it by that name.
    let generated = json(
        &common::root()
            .join(SAMPLE)
            .join("Generated")
            .join(format!("{SAMPLE_ASSEMBLY}.asmdef")),
    );
    assert_eq!(generated["name"], SAMPLE_ASSEMBLY);
    assert_eq!(generated["references"], serde_json::json!([asmdef["name"]]));
}

/// One source of truth: the package holds `runtime/csharp/PktRuntime.cs`,
/// the file the compiler embeds and `gen` writes (with its marker line).
#[test]
fn the_package_holds_the_runtime_file_gen_writes() {
    let packaged = std::fs::read_to_string(package().join("PktRuntime.cs")).expect("PktRuntime.cs");
    let checked = common::check(Path::new("schemas/small.pkt")).expect("valid");
    let files = generate(&checked.ir, &GenOptions::new(Lang::CSharp));
    let written = files
        .iter()
        .find(|f| f.path == Path::new("PktRuntime.cs"))
        .expect("gen writes PktRuntime.cs");
    let without_marker: String = written
        .contents
        .lines()
        .filter(|l| !l.starts_with(pktc::emit::output::MARKER))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(without_marker, packaged);
}

/// The `.meta` file of an asset: its importer by kind, and its GUID.
fn meta_guid(asset: &Path, is_dir: bool) -> String {
    let meta = PathBuf::from(format!("{}.meta", asset.display()));
    let text = std::fs::read_to_string(&meta).unwrap_or_else(|_| {
        panic!(
            "{} has no .meta file: Unity ignores it in a package installed from git",
            asset.display()
        )
    });
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("fileFormatVersion: 2"),
        "{}",
        meta.display()
    );
    let guid = lines
        .next()
        .and_then(|l| l.strip_prefix("guid: "))
        .unwrap_or_else(|| panic!("{}: no guid", meta.display()));
    assert!(
        guid.len() == 32
            && guid
                .chars()
                .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()),
        "{}: guid {guid}",
        meta.display()
    );
    let name = asset.file_name().expect("name").to_string_lossy();
    let importer = if is_dir {
        "folderAsset: yes"
    } else if name == "package.json" {
        "PackageManifestImporter:"
    } else if name.ends_with(".cs") {
        "MonoImporter:"
    } else if name.ends_with(".asmdef") {
        "AssemblyDefinitionImporter:"
    } else {
        "TextScriptImporter:"
    };
    assert!(
        text.lines().any(|l| l == importer),
        "{}: expected {importer}",
        meta.display()
    );
    guid.to_string()
}

/// Every file and folder Unity imports from the package (all but the
/// package folder itself, hidden ones and folders ending in `~`) has a
/// `.meta` file with a GUID of its own, and every `.meta` file an asset.
#[test]
fn every_imported_file_has_its_meta_file() {
    let mut guids: BTreeMap<String, PathBuf> = BTreeMap::new();
    let mut assets = 0;
    let mut dirs = vec![package()];
    while let Some(dir) = dirs.pop() {
        let mut entries: Vec<_> = std::fs::read_dir(&dir)
            .expect("package folder")
            .map(|e| e.expect("entry").path())
            .collect();
        entries.sort();
        for path in entries {
            let name = path
                .file_name()
                .expect("name")
                .to_string_lossy()
                .into_owned();
            if name.starts_with('.') || name.ends_with('~') {
                continue;
            }
            if let Some(asset) = name.strip_suffix(".meta") {
                assert!(dir.join(asset).exists(), "{} has no asset", path.display());
                continue;
            }
            let is_dir = path.is_dir();
            let guid = meta_guid(&path, is_dir);
            if let Some(other) = guids.insert(guid.clone(), path.clone()) {
                panic!(
                    "{} and {} share the guid {guid}",
                    other.display(),
                    path.display()
                );
            }
            assets += 1;
            if is_dir {
                dirs.push(path);
            }
        }
    }
    assert!(
        assets >= 4,
        "package.json, the asmdef, the runtime and the README"
    );
}

/// What `pktc gen --lang csharp --no-runtime --asmdef Lobby.Protocol` writes
/// for the sample's schema, named from the workspace root as the sample's
/// README runs it.
fn sample_files() -> Vec<GeneratedFile> {
    // Absolute, as is the output directory: the header names the schema by
    // the path between them, as `pktc gen` run anywhere does.
    let schema = common::root().join(SAMPLE).join("lobby.pkt");
    let checked = common::check(&schema).unwrap_or_else(|f| panic!("{f}"));
    assert!(
        checked.warnings.is_empty(),
        "the sample's schema has warnings"
    );
    let mut options = GenOptions::new(Lang::CSharp);
    options.runtime = false;
    options.out_dir = Some(common::root().join(SAMPLE).join("Generated"));
    options
        .set_csharp_asmdef(Some(SAMPLE_ASSEMBLY))
        .expect("a valid name");
    generate(&checked.ir, &options)
}

/// The output of `gen --unsafe` compiles in Unity only in an assembly that
/// allows unsafe code; the package's own assembly needs none.
#[test]
fn the_unsafe_output_gets_an_assembly_that_allows_unsafe_code() {
    let schema = format!("{SAMPLE}/lobby.pkt");
    let checked = common::check(Path::new(&schema)).unwrap_or_else(|f| panic!("{f}"));
    for unsafe_code in [false, true] {
        let mut options = GenOptions::new(Lang::CSharp);
        options.runtime = false;
        options.unsafe_code = unsafe_code;
        options
            .set_csharp_asmdef(Some(SAMPLE_ASSEMBLY))
            .expect("a valid name");
        let files = generate(&checked.ir, &options);
        let asmdef = files
            .iter()
            .find(|f| f.path.extension().is_some_and(|e| e == "asmdef"))
            .expect("an assembly definition");
        let parsed: Value = serde_json::from_str(&asmdef.contents).expect("JSON");
        assert_eq!(
            parsed["allowUnsafeCode"], unsafe_code,
            "{}",
            asmdef.contents
        );
    }
    let runtime = json(&package().join("Pkt.Runtime.asmdef"));
    assert_eq!(runtime["allowUnsafeCode"], false);
}

#[test]
fn the_sample_is_what_pktc_generates() {
    let dir = common::root().join(SAMPLE).join("Generated");
    let report = write_files(&dir, &sample_files(), WriteMode::Check).expect("readable");
    assert!(
        !report.is_outdated(),
        "{SAMPLE}/Generated is out of date ({:?} would change, {:?} would be removed); from the \
         workspace root run:\n  cargo run -p pktc -- gen --lang csharp --no-runtime --asmdef \
         {SAMPLE_ASSEMBLY} -o \"{SAMPLE}/Generated\" \"{SAMPLE}/lobby.pkt\"",
        report.changed,
        report.stale
    );
}

/// The `UnityEngine` members the sample and the README call.
const UNITY_STAND_IN: &str = "namespace UnityEngine
{
    public class Object { }
    public class Component : Object { }
    public class Behaviour : Component { }
    public class MonoBehaviour : Behaviour { }
    public static class Debug
    {
        public static void Log(object message) { }
    }
}
";

/// Compiles `sources` with the runtime and the stand-in into a library, as
/// Unity's compiler would, with warnings as errors.
fn compile(dir: &Path, name: &str, sources: &[PathBuf]) {
    let stand_in = dir.join("UnityEngine.cs");
    std::fs::write(&stand_in, UNITY_STAND_IN).expect("write the stand-in");
    let out = Command::new("mcs")
        .args([
            "-langversion:7.2",
            "-warnaserror",
            "-nologo",
            "-target:library",
        ])
        .arg(format!(
            "-out:{}",
            dir.join(format!("{name}.dll")).display()
        ))
        .arg(&stand_in)
        .arg(package().join("PktRuntime.cs"))
        .args(sources)
        .output()
        .expect("run mcs");
    assert!(
        out.status.success(),
        "{name} does not compile:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("unity-package")
        .join(name);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).expect("clean");
    }
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

#[test]
fn the_sample_compiles_against_the_runtime() {
    if !common::mono_available("the Unity sample's compilation") {
        return;
    }
    let sample = common::root().join(SAMPLE);
    let mut sources = vec![sample.join("LobbyClient.cs")];
    sources.extend(
        sample_files()
            .iter()
            .filter(|f| f.path.extension().is_some_and(|e| e == "cs"))
            .map(|f| sample.join("Generated").join(&f.path)),
    );
    compile(&scratch("sample"), "LobbySample", &sources);
}

/// The README's C# compiles against the code generated from
/// `schemas/game.pkt`, the schema it uses.
#[test]
fn the_readme_code_compiles_against_the_runtime() {
    if !common::mono_available("the compilation of the Unity package README's code") {
        return;
    }
    let dir = scratch("readme");
    let checked = common::check(Path::new("schemas/game.pkt")).expect("valid");
    let mut options = GenOptions::new(Lang::CSharp);
    options.runtime = false;
    let mut sources = Vec::new();
    for f in generate(&checked.ir, &options) {
        let path = dir.join(&f.path);
        std::fs::write(&path, &f.contents).expect("write generated file");
        sources.push(path);
    }
    let readme = std::fs::read_to_string(package().join("README.md")).expect("README.md");
    let mut blocks = 0;
    let mut lines = readme.lines();
    while let Some(line) = lines.next() {
        if line == "```csharp" {
            let code: Vec<&str> = lines
                .by_ref()
                .take_while(|l| !l.starts_with("```"))
                .collect();
            blocks += 1;
            let path = dir.join(format!("Readme{blocks}.cs"));
            std::fs::write(&path, code.join("\n")).expect("write block");
            sources.push(path);
        }
    }
    assert!(blocks >= 1, "no C# in the README");
    compile(&dir, "Readme", &sources);
}

/// The full-AOT check users run (the IL2CPP/iOS check on a desktop) ships
/// with the package in `Tools~`, a folder Unity does not import; it is an
/// executable shell script that parses, and the guide, the package README
/// and docs/benchmarks.md send users to it (the full-AOT runs of
/// `csharp.rs` run it under `PKT_LONG_TESTS=1`).
#[test]
fn the_full_aot_script_ships_outside_unitys_import_and_the_docs_use_it() {
    use std::os::unix::fs::PermissionsExt;
    let script = package().join("Tools~/full-aot.sh");
    let mode = std::fs::metadata(&script)
        .unwrap_or_else(|e| panic!("{}: {e}", script.display()))
        .permissions()
        .mode();
    assert!(mode & 0o111 != 0, "full-aot.sh is not executable");
    assert!(!package().join("Tools~.meta").exists());
    let parse = Command::new("sh")
        .arg("-n")
        .arg(&script)
        .output()
        .expect("sh");
    assert!(parse.status.success(), "sh -n: {parse:?}");
    for doc in [
        "docs/guide.md",
        "runtime/csharp/README.md",
        "docs/benchmarks.md",
    ] {
        let text = std::fs::read_to_string(common::root().join(doc)).expect("doc");
        assert!(
            text.contains("Tools~/full-aot.sh"),
            "{doc} does not point at the full-AOT script"
        );
    }
}
