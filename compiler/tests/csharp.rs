//! The C# backend: golden output for every schema, determinism, and a Mono
//! harness that compiles the generated code with the hand-written tests in
//! `compiler/tests/csharp/` and runs them.
//!
//! The harness needs Mono's `mcs` and `mono` (Debian: `apt-get install
//! mono-mcs mono-runtime`, or `mono-complete`). It compiles with
//!
//! ```text
//! mcs -langversion:7.2 -optimize+ -warnaserror -nologo -out:PktTests.exe <generated>/*.cs compiler/tests/csharp/*.cs
//! mono PktTests.exe
//! ```
//!
//! No extra references are needed: Mono's mscorlib already has `Span<T>`,
//! `BinaryPrimitives`, `IBufferWriter<T>` and the other System.Memory types.
//! Under `CI=true` a missing Mono is a failure; elsewhere the test warns on
//! stderr and returns.
//!
//! Each schema's golden output is a test case of its own (`valid/game`); the
//! harness stays one test case, with one `mcs` run for every schema.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{check, schema_trials, schemas_in, stem, trial};
use pkt_test_support::full_aot::{script_command, FullAot};
use pkt_test_support::{long_tests, scaled};

fn main() {
    let mut trials = Vec::new();
    trials.extend(schema_trials(
        "schemas",
        "valid",
        "valid_schemas_found",
        9,
        schema_matches_its_generated_csharp,
    ));
    trials.extend([
        trial(
            "runtime_file_is_emitted_verbatim_on_request",
            runtime_file_is_emitted_verbatim_on_request,
        ),
        trial(
            "imports_are_generated_alongside",
            imports_are_generated_alongside,
        ),
        trial("generation_is_deterministic", generation_is_deterministic),
        trial(
            "files_with_the_same_name_get_distinct_outputs",
            files_with_the_same_name_get_distinct_outputs,
        ),
        trial(
            "asmdef_is_written_on_request_and_removed_with_its_option",
            asmdef_is_written_on_request_and_removed_with_its_option,
        ),
        trial(
            "a_type_named_like_its_namespace_fails_by_its_short_name",
            a_type_named_like_its_namespace_fails_by_its_short_name,
        ),
        trial(
            "safe_changes_keep_csharp_source_compiling",
            safe_changes_keep_csharp_source_compiling,
        ),
        trial(
            "generated_csharp_compiles_and_passes_the_mono_tests",
            generated_csharp_compiles_and_passes_the_mono_tests,
        ),
        trial(
            "memory_constants_that_name_other_types_equal_the_model",
            memory_constants_that_name_other_types_equal_the_model,
        ),
        trial(
            "unsafe_csharp_compiles_and_passes_the_mono_tests",
            unsafe_csharp_compiles_and_passes_the_mono_tests,
        ),
        // Minutes the first time (the framework is compiled ahead of time
        // once per Mono installation), so only in the long runs.
        trial(
            "generated_csharp_passes_the_mono_tests_under_full_aot",
            generated_csharp_passes_the_mono_tests_under_full_aot,
        )
        .with_ignored_flag(!long_tests()),
        trial(
            "unsafe_csharp_passes_the_mono_tests_under_full_aot",
            unsafe_csharp_passes_the_mono_tests_under_full_aot,
        )
        .with_ignored_flag(!long_tests()),
        trial(
            "unsafe_csharp_byte_path_passes_the_mono_tests",
            unsafe_csharp_byte_path_passes_the_mono_tests,
        )
        .with_ignored_flag(!long_tests()),
        trial(
            "full_aot_refuses_code_that_needs_a_jit",
            full_aot_refuses_code_that_needs_a_jit,
        )
        .with_ignored_flag(!long_tests()),
        trial(
            "quantize_rounds_as_the_rust_runtime_does",
            quantize_rounds_as_the_rust_runtime_does,
        ),
    ]);
    common::run(trials)
}
use pktc::emit::{generate, GenOptions, GeneratedFile};
use pktc::Lang;

/// The next `f64` above `x` (finite), as `f64::next_up` (Rust 1.86) does.
fn next_up(x: f64) -> f64 {
    if x == 0.0 {
        f64::from_bits(1)
    } else if x > 0.0 {
        f64::from_bits(x.to_bits() + 1)
    } else {
        f64::from_bits(x.to_bits() - 1)
    }
}

/// The next `f64` below `x` (finite).
fn next_down(x: f64) -> f64 {
    -next_up(-x)
}

fn settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path(common::root().join("snapshots").join("csharp"));
    s.set_prepend_module_to_snapshot(false);
    s.set_omit_expression(true);
    s
}

fn generate_for(path: &Path, runtime: bool) -> Vec<GeneratedFile> {
    generate_with(path, runtime, false)
}

fn generate_with(path: &Path, runtime: bool, unsafe_code: bool) -> Vec<GeneratedFile> {
    let checked = check(path).unwrap_or_else(|f| panic!("{} failed:\n{f}", path.display()));
    let mut options = GenOptions::new(Lang::CSharp);
    options.runtime = runtime;
    options.unsafe_code = unsafe_code;
    generate(&checked.ir, &options)
}

fn schema_matches_its_generated_csharp(path: &Path) {
    let name = stem(path);
    let generated = generate_for(path, false);
    let own = format!("{name}.cs");
    let file = generated
        .iter()
        .find(|f| f.path == Path::new(&own))
        .unwrap_or_else(|| panic!("{} produced no {own}", path.display()));
    assert!(file.contents.starts_with("// <auto-generated/>\n"));
    // Without an output directory, the header names the schema by its file name.
    assert!(file.contents.contains(&format!(
        "// @generated by pktc from {name}.pkt. Do not edit.\n"
    )));
    settings().bind(|| insta::assert_snapshot!(name, file.contents));
}

fn runtime_file_is_emitted_verbatim_on_request() {
    let with = generate_for(Path::new("schemas/small.pkt"), true);
    let runtime = with
        .iter()
        .find(|f| f.path == Path::new("PktRuntime.cs"))
        .expect("PktRuntime.cs");
    let source = std::fs::read_to_string(common::root().join("runtime/csharp/PktRuntime.cs"))
        .expect("runtime source");
    // Verbatim but for the generated-file marker, which `gen` recognises
    // its own files by.
    let (first, rest) = runtime.contents.split_once('\n').expect("lines");
    let (marker, rest) = rest.split_once('\n').expect("lines");
    assert_eq!(format!("{first}\n{rest}"), source);
    assert!(marker.starts_with(pktc::emit::output::MARKER), "{marker}");
    let without = generate_for(Path::new("schemas/small.pkt"), false);
    assert!(without.iter().all(|f| f.path != Path::new("PktRuntime.cs")));
}

fn imports_are_generated_alongside() {
    let files = generate_for(Path::new("schemas/game.pkt"), false);
    let names: Vec<_> = files.iter().map(|f| f.path.display().to_string()).collect();
    assert!(names.contains(&"game.cs".to_string()), "{names:?}");
    assert!(names.contains(&"common.cs".to_string()), "{names:?}");
}

fn generation_is_deterministic() {
    for path in schemas_in("schemas") {
        let a = generate_for(&path, true);
        let b = generate_for(&path, true);
        assert_eq!(a, b, "{}", path.display());
    }
}

fn files_with_the_same_name_get_distinct_outputs() {
    let files = generate_for(Path::new("schemas/same_stem/top.pkt"), true);
    let names: Vec<_> = files.iter().map(|f| f.path.display().to_string()).collect();
    assert_eq!(
        names,
        ["top.cs", "common.cs", "common_2.cs", "PktRuntime.cs"],
        "{names:?}"
    );
    let second = &files[2].contents;
    assert!(second.contains("namespace SameStem.Server"), "{second}");
    assert!(second.contains("class Common2Constants"), "{second}");
    // Both files declare `Note`: the names its exceptions give are qualified.
    assert!(
        second.contains("case 0: return \"same_stem.server.Note.text\";")
            && second.contains("default: return \"same_stem.server.Note\";"),
        "{second}"
    );
    if !mono_available() {
        return;
    }
    let dir = work_dir("same_stem");
    compile(&dir, &files, "-target:library", "SameStem.dll");
}

/// Writes `files` into `dir` and compiles them with `mcs` (C# 7.2, warnings
/// as errors) into `out`.
fn compile(dir: &Path, files: &[GeneratedFile], target: &str, out: &str) {
    let mut args: Vec<String> = vec![
        "-langversion:7.2".into(),
        "-warnaserror".into(),
        "-nologo".into(),
        target.into(),
        format!("-out:{}", dir.join(out).display()),
    ];
    for f in files {
        let p = dir.join(&f.path);
        std::fs::write(&p, &f.contents).expect("write generated file");
        args.push(p.display().to_string());
    }
    let out = Command::new("mcs").args(&args).output().expect("run mcs");
    assert!(
        out.status.success(),
        "mcs failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `--asmdef NAME` adds `NAME.asmdef`, referencing the runtime package's
/// assembly unless the runtime is generated too; a renamed or dropped
/// option removes the file an earlier run wrote, as with any stale file,
/// and never a hand-written assembly definition or one of another language.
fn asmdef_is_written_on_request_and_removed_with_its_option() {
    use pktc::emit::{write_files, WriteMode};
    let checked = check(Path::new("schemas/small.pkt")).expect("valid");
    let gen = |runtime: bool, asmdef: Option<&str>| {
        let mut options = GenOptions::new(Lang::CSharp);
        options.runtime = runtime;
        options.set_csharp_asmdef(asmdef).expect("a valid name");
        generate(&checked.ir, &options)
    };
    let dir = work_dir("asmdef");
    let names = |dir: &Path| {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .expect("list")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let json = |name: &str| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(dir.join(name)).expect("read")).expect("JSON")
    };
    std::fs::write(dir.join("Mine.asmdef"), "{ \"name\": \"Mine\" }\n").expect("write");

    write_files(&dir, &gen(false, Some("Game.Protocol")), WriteMode::Write).expect("write");
    assert_eq!(
        names(&dir),
        ["Game.Protocol.asmdef", "Mine.asmdef", "small.cs"]
    );
    let definition = json("Game.Protocol.asmdef");
    assert_eq!(definition["name"], "Game.Protocol");
    assert_eq!(
        definition["references"],
        serde_json::json!([pktc::emit::CSHARP_RUNTIME_ASSEMBLY])
    );

    write_files(&dir, &gen(true, Some("Game.Net")), WriteMode::Write).expect("write");
    assert_eq!(
        names(&dir),
        [
            "Game.Net.asmdef",
            "Mine.asmdef",
            "PktRuntime.cs",
            "small.cs"
        ]
    );
    assert_eq!(json("Game.Net.asmdef")["references"], serde_json::json!([]));

    // Rust output in the same folder leaves the C# output alone.
    let rust = generate(&checked.ir, &GenOptions::new(Lang::Rust));
    write_files(&dir, &rust, WriteMode::Write).expect("write");
    assert!(names(&dir).contains(&"Game.Net.asmdef".to_string()));

    let report = write_files(&dir, &gen(true, None), WriteMode::Check).expect("check");
    assert_eq!(
        report.stale,
        [dir.join("Game.Net.asmdef")],
        "--check lists it"
    );
    write_files(&dir, &gen(true, None), WriteMode::Write).expect("write");
    assert_eq!(
        names(&dir),
        [
            "Mine.asmdef",
            "PktRuntime.cs",
            "mod.rs",
            "small.cs",
            "small.rs"
        ]
    );
}

/// What the `type_named_like_namespace` warning says: in a file with
/// `using Sky.GuildRank;`, code inside namespace `Sky` that names the type
/// `GuildRank` gets CS0118, while the type the warning leaves alone
/// (`Guild`) and the full name compile.
fn a_type_named_like_its_namespace_fails_by_its_short_name() {
    let files = generate_for(
        Path::new("schemas/warnings/type_named_like_namespace.pkt"),
        true,
    );
    if !mono_available() {
        return;
    }
    let dir = work_dir("named_like_namespace");
    let mut sources = Vec::new();
    for f in &files {
        let p = dir.join(&f.path);
        std::fs::write(&p, &f.contents).expect("write generated file");
        sources.push(p.display().to_string());
    }
    let compile = |client: &str| {
        let path = dir.join("Client.cs");
        let text = format!(
            "using Sky.GuildRank;\n\nnamespace Sky.Client\n{{\n    public static class C\n    {{\n        {client}\n    }}\n}}\n"
        );
        std::fs::write(&path, text).expect("write client");
        let out = Command::new("mcs")
            .args(["-langversion:7.2", "-nologo", "-target:library"])
            .arg(format!("-out:{}", dir.join("Client.dll").display()))
            .args(&sources)
            .arg(&path)
            .output()
            .expect("run mcs");
        (
            out.status.success(),
            format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ),
        )
    };
    let (ok, text) = compile("public static Guild Make() { return new Guild(); }");
    assert!(ok, "a type not named like its namespace:\n{text}");
    let (ok, text) = compile("public static GuildRank First() { return default(GuildRank); }");
    assert!(!ok && text.contains("CS0118"), "expected CS0118:\n{text}");
    let (ok, text) = compile(
        "public static Sky.GuildRank.GuildRank First() { return default(Sky.GuildRank.GuildRank); }",
    );
    assert!(ok, "the full name:\n{text}");
}

/// Whether mcs and mono can run: under `CI=true` their absence is a failure,
/// elsewhere a loud warning.
/// What docs/evolution.md says a safe change does to C# source: code
/// written against version 1 of `schemas/evolution`
/// (`inputs/source_compat/Client.cs`: an object initializer, switches over
/// a union and an enum with a default branch, a type test) compiles without
/// a warning against version 1 and against version 2 (appended fields, new
/// variants, a new enum value) with one warning, CS0612, where it sets the
/// field version 2 deprecates.
fn safe_changes_keep_csharp_source_compiling() {
    let client = common::root().join("compiler/tests/inputs/source_compat/Client.cs");
    let deprecated_line = std::fs::read_to_string(&client)
        .expect("read Client.cs")
        .lines()
        .position(|l| l.contains("// CS0612"))
        .expect("Client.cs marks its deprecated use")
        + 1;
    let generated: Vec<Vec<GeneratedFile>> = ["v1", "v2"]
        .iter()
        .map(|v| {
            generate_for(
                Path::new(&format!("schemas/evolution/{v}/protocol.pkt")),
                true,
            )
        })
        .collect();
    if !mono_available() {
        return;
    }
    for (v, files) in ["v1", "v2"].iter().zip(&generated) {
        let dir = work_dir(&format!("source_compat_{v}"));
        let mut args: Vec<String> = ["-langversion:7.2", "-nologo", "-target:library"]
            .map(String::from)
            .to_vec();
        args.push(format!("-out:{}", dir.join("Client.dll").display()));
        for f in files {
            let p = dir.join(&f.path);
            std::fs::write(&p, &f.contents).expect("write generated file");
            args.push(p.display().to_string());
        }
        args.push(client.display().to_string());
        let out = Command::new("mcs").args(&args).output().expect("run mcs");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.status.success(), "{v}:\n{text}");
        let warnings: Vec<&str> = text.lines().filter(|l| l.contains("warning CS")).collect();
        let expected: Vec<String> = if *v == "v1" {
            Vec::new()
        } else {
            vec![format!("Client.cs({deprecated_line},")]
        };
        assert_eq!(
            warnings.len(),
            expected.len(),
            "{v}: expected {expected:?}:\n{text}"
        );
        for (w, e) in warnings.iter().zip(&expected) {
            assert!(w.contains(e.as_str()) && w.contains("CS0612"), "{v}: {w}");
        }
    }
}

fn mono_available() -> bool {
    if tool_available("mcs") && tool_available("mono") {
        return true;
    }
    let msg = "mcs/mono not found: the C# tests cannot run (install mono-mcs and mono-runtime)";
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{msg}");
    }
    eprintln!("warning: {msg}; SKIPPING the C# compile check");
    false
}

fn tool_available(name: &str) -> bool {
    Command::new(name)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// Where the harness writes sources and binaries: under the target directory.
fn work_dir(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("csharp-tests")
        .join(test);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).expect("clean work dir");
    }
    std::fs::create_dir_all(&dir).expect("create work dir");
    dir
}

fn generated_csharp_compiles_and_passes_the_mono_tests() {
    if !mono_available() {
        return;
    }
    let exe = build_mono_tests(&work_dir("mono"), false);
    let mut mono = Command::new("mono");
    mono.arg(&exe);
    run_mono_tests(mono, &exe);
}

/// The same tests against the unsafe output (`gen --unsafe`): the same
/// bytes, the same errors at the same offsets, and hostile input rejected
/// before any pointer access.
fn unsafe_csharp_compiles_and_passes_the_mono_tests() {
    if !mono_available() {
        return;
    }
    let exe = build_mono_tests(&work_dir("mono-unsafe"), true);
    let mut mono = Command::new("mono");
    mono.arg(&exe);
    run_mono_tests(mono, &exe);
}

/// The unsafe output's byte-at-a-time path, which 32-bit and big-endian
/// hosts take (`PktHost.PointerAccess` false): this machine takes the other,
/// so the test compiles the output with the condition replaced by `false`.
fn unsafe_csharp_byte_path_passes_the_mono_tests() {
    if !mono_available() {
        return;
    }
    let dir = work_dir("mono-unsafe-bytes");
    // False, though not a constant (which would make the other branch
    // unreachable code, a warning).
    let never = "global::System.IntPtr.Size < 0";
    let exe = build_mono_tests_with(&dir, true, |text| {
        text.replace("global::Pkt.PktHost.PointerAccess", never)
    });
    let generated = std::fs::read_to_string(dir.join("generated/seed_packets.cs"))
        .expect("generated seed packets");
    assert!(
        generated.contains(never) && !generated.contains("PktHost.PointerAccess"),
        "every pointer access takes the byte path"
    );
    let mut mono = Command::new("mono");
    mono.arg(&exe);
    run_mono_tests(mono, &exe);
}

/// The same tests with every method compiled ahead of time and no JIT at
/// run time (`mono --full-aot`), as Unity's IL2CPP runs the generated code:
/// nothing in the generated code or the runtime may need a JIT. They run
/// through the script users run (`runtime/csharp/Tools~/full-aot.sh`), so
/// this proves the recipe too.
fn generated_csharp_passes_the_mono_tests_under_full_aot() {
    if !mono_available() {
        return;
    }
    let exe = build_mono_tests(&work_dir("mono-aot"), false);
    let Some(run) = full_aot(&exe) else { return };
    run_mono_tests(run, &exe);
}

/// The unsafe output under full AOT.
fn unsafe_csharp_passes_the_mono_tests_under_full_aot() {
    if !mono_available() {
        return;
    }
    let exe = build_mono_tests(&work_dir("mono-unsafe-aot"), true);
    let Some(run) = full_aot(&exe) else { return };
    run_mono_tests(run, &exe);
}

/// The check of the check: under the same setup, code that needs the JIT
/// (here `Reflection.Emit`) fails instead of running.
fn full_aot_refuses_code_that_needs_a_jit() {
    if !mono_available() {
        return;
    }
    let dir = work_dir("mono-aot-jit");
    let source = dir.join("NeedsJit.cs");
    std::fs::write(
        &source,
        r#"using System;
using System.Reflection.Emit;

static class NeedsJit
{
    static int Main()
    {
        var m = new DynamicMethod("Seven", typeof(int), Type.EmptyTypes);
        var il = m.GetILGenerator();
        il.Emit(OpCodes.Ldc_I4_7);
        il.Emit(OpCodes.Ret);
        var f = (Func<int>)m.CreateDelegate(typeof(Func<int>));
        Console.WriteLine("ran " + f());
        return 0;
    }
}
"#,
    )
    .expect("write NeedsJit.cs");
    let exe = dir.join("NeedsJit.exe");
    let out = Command::new("mcs")
        .args(["-nologo".to_owned(), format!("-out:{}", exe.display())])
        .arg(&source)
        .output()
        .expect("run mcs");
    assert!(out.status.success(), "mcs: {out:?}");
    let jit = Command::new("mono").arg(&exe).output().expect("run mono");
    assert!(
        String::from_utf8_lossy(&jit.stdout).contains("ran 7"),
        "runs under the JIT: {jit:?}"
    );
    let Some(mut aot) = full_aot(&exe) else {
        return;
    };
    let run = aot.output().expect("run full-aot.sh");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        !run.status.success() && !stdout.contains("ran 7"),
        "full AOT ran code that needs a JIT:\n{stdout}{}",
        String::from_utf8_lossy(&run.stderr)
    );
}

/// The command that runs `exe` under full AOT as users do, with the
/// script `runtime/csharp/Tools~/full-aot.sh` (which compiles `exe` and,
/// once, the framework), or None (with a loud warning) when full AOT is
/// impossible here (the framework cannot be compiled); under `CI=true` that
/// is a failure.
fn full_aot(exe: &Path) -> Option<Command> {
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("mono-aot");
    match FullAot::prepare(&cache, &[exe]) {
        Ok(_) => Some(script_command(&cache, exe)),
        Err(e) => {
            let msg = format!(
                "full AOT is not possible here, so the C# tests did NOT run without a JIT: {e}"
            );
            if std::env::var("CI").is_ok_and(|v| v == "true") {
                panic!("{msg}");
            }
            eprintln!("warning: {msg}");
            None
        }
    }
}

/// Generates every schema (with the runtime; the unsafe output with
/// `unsafe_code`) into `dir/generated` and compiles it with the hand-written
/// tests into `dir/PktTests.exe`, warning-free.
fn build_mono_tests(dir: &Path, unsafe_code: bool) -> PathBuf {
    build_mono_tests_with(dir, unsafe_code, |text| text.to_string())
}

/// [`build_mono_tests`], with `edit` applied to every generated file.
fn build_mono_tests_with(dir: &Path, unsafe_code: bool, edit: impl Fn(&str) -> String) -> PathBuf {
    let gen_dir = dir.join("generated");
    std::fs::create_dir_all(&gen_dir).expect("generated dir");

    // Every schema, with its imports; files generated twice must agree.
    let mut sources: BTreeMap<PathBuf, String> = BTreeMap::new();
    for path in schemas_in("schemas") {
        for f in generate_with(&path, true, unsafe_code) {
            if let Some(prev) = sources.get(&f.path) {
                assert_eq!(
                    prev,
                    &f.contents,
                    "{} differs between schemas",
                    f.path.display()
                );
            }
            sources.insert(f.path, f.contents);
        }
    }
    let exe = dir.join("PktTests.exe");
    let mut args: Vec<String> = vec![
        "-langversion:7.2".into(),
        "-optimize+".into(),
        "-warnaserror".into(),
        "-nologo".into(),
        format!("-out:{}", exe.display()),
    ];
    if unsafe_code {
        args.push("-unsafe".into());
    }
    for (path, contents) in &sources {
        let p = gen_dir.join(path);
        std::fs::write(&p, edit(contents)).expect("write generated file");
        args.push(p.display().to_string());
    }
    let tests_dir = common::root().join("compiler/tests/csharp");
    let mut tests: Vec<PathBuf> = std::fs::read_dir(&tests_dir)
        .expect("compiler/tests/csharp")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "cs"))
        .collect();
    tests.sort();
    assert!(!tests.is_empty(), "no C# tests in {}", tests_dir.display());
    args.extend(tests.iter().map(|p| p.display().to_string()));

    let out = Command::new("mcs").args(&args).output().expect("run mcs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "mcs failed:\nmcs {}\n{text}",
        args.join(" ")
    );
    assert!(
        !text.to_lowercase().contains("warning"),
        "mcs reported warnings:\n{text}"
    );
    exe
}

/// Runs the test program with `mono` (its arguments already given) in its
/// directory; every test must pass.
fn run_mono_tests(mut mono: Command, exe: &Path) {
    let run = mono
        .current_dir(exe.parent().expect("exe in a directory"))
        .output()
        .expect("run mono");
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    println!("{stdout}");
    eprintln!("{stderr}");
    assert!(run.status.success(), "C# tests failed:\n{stdout}\n{stderr}");
    assert!(
        stdout.contains("ALL PASSED"),
        "C# tests did not finish:\n{stdout}"
    );
}

/// `PktMemory` constants written as sums of other types' constants (the
/// types of `schemas/stable` hold another file's messages), and a union's
/// as the largest of its payloads' constants, compile, and C# evaluates each
/// to the IR's model of its type.
fn memory_constants_that_name_other_types_equal_the_model() {
    let path = Path::new("schemas/stable/v2/game.pkt");
    let checked = check(path).unwrap_or_else(|f| panic!("{f}"));
    let files = generate_for(path, true);
    let game = files
        .iter()
        .find(|f| f.path == Path::new("game.cs"))
        .expect("game.cs");
    assert!(
        game.contents
            .contains("public const long PktMemory = (8L + global::Stable.Common.Stats.PktMemory"),
        "a sum naming another file's constants"
    );
    assert!(
        game.contents.contains(
            "public const long Chat = global::Stable.Common.Chat.PktMemory > 32L ? global::Stable.Common.Chat.PktMemory : 32L;"
        ),
        "a union's largest payload naming another file's constants"
    );
    let mut prints = String::new();
    let mut models = BTreeMap::new();
    for def in checked.ir.types.iter() {
        if matches!(def.kind, pktc::ir::TypeKind::Enum { .. }) {
            continue;
        }
        let ident = |kind, s: &str| pktc::names::ident(Lang::CSharp, kind, s);
        let ns: Vec<String> = checked
            .ir
            .namespace_of(def)
            .iter()
            .map(|s| ident(pktc::names::NameKind::Type, s))
            .collect();
        let ty = format!(
            "global::{}.{}",
            ns.join("."),
            pktc::names::type_ident(Lang::CSharp, def)
        );
        prints.push_str(&format!("        Print(\"{}\", typeof({ty}));\n", def.name));
        models.insert(def.name.clone(), def.memory.size);
    }
    if !mono_available() {
        return;
    }
    let dir = work_dir("memory_constants");
    let mut files = files;
    files.push(GeneratedFile {
        path: PathBuf::from("Main.cs"),
        contents: format!(
            "static class Program\n{{\n    static void Print(string name, System.Type t)\n    {{\n        \
             var f = t.GetField(\"PktMemory\");\n        \
             System.Console.WriteLine(name + \" \" + (f == null ? \"none\" : f.GetValue(null).ToString()));\n    }}\n\n    \
             static void Main()\n    {{\n{prints}    }}\n}}\n"
        ),
    });
    compile(&dir, &files, "-target:exe", "Memory.exe");
    let run = Command::new("mono")
        .arg(dir.join("Memory.exe"))
        .output()
        .expect("run mono");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let mut without = Vec::new();
    for line in String::from_utf8_lossy(&run.stdout).lines() {
        let (name, value) = line.split_once(' ').expect("name value");
        match value {
            "none" => without.push(name.to_string()),
            v => assert_eq!(v.parse::<u64>().ok(), models.get(name).copied(), "{name}"),
        }
    }
    assert!(without.is_empty(), "without a PktMemory: {without:?}");
}

/// The values of a quantization worth comparing: its edges and the floats
/// next to them, ties (`min + (k + 0.5) * step`) and the floats next to
/// them, zeros, NaN, the infinities, random values around the range, and
/// each of them rounded to `f32` too.
fn quantize_values(q: &pktc::ir::Quantize, rng: &mut pkt_test_support::Rng) -> Vec<f64> {
    let mut v = vec![
        q.min,
        q.max,
        next_down(q.min),
        next_up(q.min),
        next_down(q.max),
        next_up(q.max),
        0.0,
        -0.0,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::MAX,
        f64::MIN_POSITIVE,
    ];
    for k in [0, 1, 2, q.steps / 2, q.steps.saturating_sub(1), q.steps] {
        let tie = q.min + (k as f64 + 0.5) * q.step;
        v.extend([tie, next_down(tie), next_up(tie)]);
    }
    let span = q.max - q.min;
    for _ in 0..scaled(40, 4000) {
        let unit = (rng.next() >> 11) as f64 / (1u64 << 53) as f64;
        v.push(q.min - span * 0.01 + unit * span * 1.02);
    }
    let f32s: Vec<f64> = v.iter().map(|&x| f64::from(x as f32)).collect();
    v.extend(f32s);
    v
}

/// The same edge values through `pkt_runtime::quantize` and C#'s
/// `PktQuantize`: the same stored integer or the same refusal, and the same
/// decoded `f64` and `f32` bits, for quantizations of every width.
fn quantize_rounds_as_the_rust_runtime_does() {
    if !mono_available() {
        return;
    }
    let quantizations = [
        (-4096.0, 4096.0, 0.01),
        (0.0, 1.0, 0.5),
        (-1.0, 1.0, 0.5),
        (-128.0, 128.0, 1.0),
        (-3.125, 3.125, 0.001),
        (-180.0, 180.0, 0.0001),
        (0.0, 100.0, 0.25),
        (0.0, 1.0, 0.001),
        (-1e6, 1e6, 0.1),
        (0.0, 360.0, 0.1),
        (-0.5, 0.25, 0.05),
        (0.0, 8_589_934_592.0, 1.0),
        (0.0, 9_007_199_254_740_992.0, 1.0),
        (-1e300, 1e300, 1e290),
        (1e-3, 2e-3, 1e-6),
    ];
    let mut rng = pkt_test_support::Rng(0x51de);
    let mut cases = String::new();
    let mut expected = String::new();
    for (min, max, step) in quantizations {
        let q = pktc::ir::Quantize::new(min, max, step);
        let rt = q.runtime();
        for v in quantize_values(&q, &mut rng) {
            cases.push_str(&format!(
                "e {:x} {:x} {:x} {} {:x}\n",
                min.to_bits(),
                max.to_bits(),
                step.to_bits(),
                q.steps,
                v.to_bits()
            ));
            match rt.quantize(v) {
                Some(n) => expected.push_str(&format!("{n}\n")),
                None => expected.push_str("out\n"),
            }
        }
        let mut stored = vec![0, 1, q.steps / 3, q.steps / 2, q.steps - 1, q.steps];
        stored.extend((0..20).map(|_| rng.below(q.steps + 1)));
        for n in stored {
            cases.push_str(&format!(
                "d {:x} {:x} {:x} {} {n}\n",
                min.to_bits(),
                max.to_bits(),
                step.to_bits(),
                q.steps
            ));
            let v = rt.dequantize(n).expect("within the steps");
            let f = rt.dequantize_f32(n).expect("within the steps");
            expected.push_str(&format!("{:x} {:x}\n", v.to_bits(), f.to_bits()));
        }
    }
    let dir = work_dir("quantize");
    std::fs::write(dir.join("cases.txt"), &cases).expect("write cases");
    let program = GeneratedFile {
        path: "Quantize.cs".into(),
        contents: r#"using System;
using System.Globalization;
using System.IO;
using System.Text;
using Pkt;

static class QuantizeCases
{
    static double D(string hex) { return BitConverter.Int64BitsToDouble((long)ulong.Parse(hex, NumberStyles.HexNumber)); }

    static int Main(string[] args)
    {
        var o = new StringBuilder();
        foreach (var line in File.ReadAllLines(args[0]))
        {
            var w = line.Split(' ');
            var q = new PktQuantize(D(w[1]), D(w[2]), D(w[3]), ulong.Parse(w[4]));
            if (w[0] == "e")
            {
                ulong n;
                o.Append(q.TryQuantize(D(w[5]), out n) ? n.ToString(CultureInfo.InvariantCulture) : "out").Append('\n');
            }
            else
            {
                ulong n = ulong.Parse(w[5]);
                double v = q.Value(n, 0);
                float f = q.ValueF32(n, 0);
                o.Append(((ulong)BitConverter.DoubleToInt64Bits(v)).ToString("x")).Append(' ');
                o.Append(((uint)BitConverter.SingleToInt32Bits(f)).ToString("x")).Append('\n');
            }
        }
        Console.Out.Write(o.ToString());
        return 0;
    }
}
"#
        .into(),
    };
    let runtime = GeneratedFile {
        path: "PktRuntime.cs".into(),
        contents: std::fs::read_to_string(common::root().join("runtime/csharp/PktRuntime.cs"))
            .expect("read PktRuntime.cs"),
    };
    compile(&dir, &[runtime, program], "-target:exe", "Quantize.exe");
    let out = Command::new("mono")
        .arg(dir.join("Quantize.exe"))
        .arg(dir.join("cases.txt"))
        .output()
        .expect("run mono");
    assert!(out.status.success(), "mono: {out:?}");
    let actual = String::from_utf8(out.stdout).expect("UTF-8");
    let lines = expected.lines().count();
    for (i, ((want, got), case)) in expected
        .lines()
        .zip(actual.lines())
        .zip(cases.lines())
        .enumerate()
    {
        assert_eq!(got, want, "case {i}: {case}");
    }
    assert_eq!(actual.lines().count(), lines, "one answer per case");
    eprintln!("quantize: {lines} cases, Rust and C# agree");
}
