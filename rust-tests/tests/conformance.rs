//! Every language decodes the same inputs the same way: one case file, a
//! driver per language, and every driver's answers equal to Rust's, line
//! for line.
//!
//! # The protocol
//!
//! A driver is a program (or, for Rust, a function) that reads a case file
//! and writes an answer file. The case file has one case a line,
//! `<type> <hex> <limits>` separated by single spaces
//! (`pkt_test_support::conformance`): the qualified schema name of a type
//! as the IR names it (`game.net.ServerPacket`), the input bytes in
//! lower-case hex (`-` for none), and `-` for the default decoder limits or
//! six decimal numbers joined by commas: max depth, max length, max frame,
//! max total elements, decode budget base, decode budget per byte; then,
//! for a stream of frames, the word `frames`. The driver decodes each input
//! as its type with those limits and writes one line per case, in order,
//! in UTF-8 with `\n` line ends:
//!
//! - `ok <hex> <value>`: decoded; `<hex>` is the value encoded again and
//!   `<value>` its value text (below);
//! - `err <kind> <offset>`: rejected; `<kind>` is the error kind's name as
//!   the runtimes name it (`LengthExceedsInput`, `BudgetExceeded`, ...),
//!   `<offset>` the absolute byte offset in decimal;
//! - for `frames`: the input pushed at once into a frame reader of the
//!   type (a union or message), `frames `, then the answer of each frame
//!   read (`ok ...` or `err ...` as above) followed by ` ; `, until the
//!   reader wants more bytes or has failed (a frame length over the limit),
//!   then `end <bytes left buffered>`; a frame that fails to decode is
//!   skipped and reading goes on;
//! - anything else (`unencodable <message>`, `escaped <exception>`) is a
//!   failure the comparison shows.
//!
//! The value text is the same in every language, written from the IR by
//! each driver's generator (never by hand per type): `true`/`false`;
//! integers in decimal (enum values by their number, named or not);
//! `f32:<8 hex digits>` and `f64:<16 hex digits>` of the float's bits (so
//! NaN payloads and `-0.0` compare); strings in double quotes with `"`, `\`
//! and code points below U+0020 and U+007F escaped (`\"`, `\\`, `\u001f`),
//! everything else as is; `bytes` as `0x<hex>`; lists and arrays as
//! `[a,b]`; maps as `{k:v,k:v}` in the wire's key order; an absent optional
//! as `null`, a present one as its value; structs and messages as
//! `{field:value,...}` in schema order with schema field names, a message
//! that keeps unknown fields ending with `@unknown:0x<hex>`; a union variant
//! as `Name(value)`, an unknown one as `?<tag>(0x<body>)`.
//!
//! # The languages
//!
//! [`LANGUAGES`] lists them: a name and how to prepare its driver (build
//! it once into a directory under the target directory that later runs
//! reuse while its sources are unchanged; `None` when its tools are
//! missing outside CI, after a loud warning; under `CI=true` a missing tool
//! fails). Rust is first and is the reference: its driver runs in this
//! process through the generated `Render` impls of `build.rs`
//! (`pkt_rust_tests::render`). The Rust views are a driver too, in this
//! process: each case viewed with its limits, then its owned value encoded
//! and rendered, which must answer as decode does, error kind and offset
//! included (`render::drive_view`). C#'s is in `conformance/csharp.rs`: the
//! driver's source, a generator of its per-type dispatch and value text,
//! and its build through [`cached_build`] (`mcs`, then `mono Driver.exe`).
//! A language joins with one line in [`LANGUAGES`] and such a module:
//! TypeScript's, `conformance/typescript.rs`, compiles the generated modules
//! with a dispatch module (`support/typescript.rs`) and its value text by
//! `tsc` once and runs its driver under `node`.
//!
//! # The cases
//!
//! The golden vectors of `schemas/vectors/` (whose bytes Rust must write
//! back), random canonical encodings of every type (written back as they
//! are), and the hostile corpus: the committed fuzz corpus, mutations of
//! random encodings (bit flips, `0xff` bytes, insertions, truncations,
//! oversized prefixes), prefixes just past the element limits of
//! `schemas/limits.pkt`, lists that go over the decode budget, every
//! recursive shape at and one level past the depth limit, and random and
//! mutated encodings decoded under small random limits; and streams of
//! frames of every union and message, whole, mutated or cut short, some
//! over a small frame length limit; and the hostile maps of
//! `schemas/hostile.pkt`, keys out of order at every level of a map-keyed
//! tree and of maps nested 62 deep, one level too deep, a key repeated,
//! and mutations of them. Types are every
//! declared type but enums, which C# reads and writes only inside the types
//! that hold them.

mod support;

#[path = "conformance/csharp.rs"]
mod csharp;
#[path = "conformance/typescript.rs"]
mod typescript;

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use pkt_test_support::conformance::{self, Case};
use pkt_test_support::hex::encode as hex;
use pkt_test_support::{scaled, vectors};
use pktc::ir::{Ir, TypeId, TypeKind};
use support::{ir, qualified, Gen, Rng};

/// How a language's driver is run.
pub enum Driver {
    /// A function from the case file's text to the answer file's.
    InProcess(fn(&str) -> String),
    /// `<program> <args...> <case file> <answer file>`.
    Program {
        program: OsString,
        args: Vec<OsString>,
    },
}

/// A language the harness runs.
pub struct Language {
    pub name: &'static str,
    /// Builds (or finds already built) the driver for the IR of `schemas/`.
    pub prepare: fn(&Ir) -> Option<Driver>,
}

/// Every language; the first is the reference the others must equal.
pub const LANGUAGES: &[Language] = &[
    Language {
        name: "Rust",
        prepare: |_| Some(Driver::InProcess(pkt_rust_tests::render::drive)),
    },
    // The Rust views, which must answer as Rust's decode does.
    Language {
        name: "Rust view",
        prepare: |_| Some(Driver::InProcess(pkt_rust_tests::render::drive_view)),
    },
    Language {
        name: "C#",
        prepare: csharp::prepare,
    },
    Language {
        name: "TypeScript",
        prepare: typescript::prepare,
    },
];

/// The directory under the target directory that holds the driver of
/// `lang` built from `inputs` (its sources, generated code included):
/// `build` makes it unless a build of the same inputs is there already.
/// Only the latest build of each language is kept.
pub fn cached_build<'a>(
    lang: &str,
    inputs: impl Iterator<Item = &'a str>,
    build: impl FnOnce(&Path),
) -> PathBuf {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for text in inputs {
        text.hash(&mut hasher);
    }
    let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("conformance-{lang}"));
    let dir = base.join(format!("{:016x}", hasher.finish()));
    if !dir.exists() {
        let _ = std::fs::remove_dir_all(&base);
        let building = base.join("building");
        std::fs::create_dir_all(&building).expect("create the driver's directory");
        build(&building);
        std::fs::rename(&building, &dir).expect("keep the built driver");
    }
    dir
}

impl Driver {
    fn run(&self, cases: &str, dir: &Path) -> String {
        match self {
            Driver::InProcess(f) => f(cases),
            Driver::Program { program, args } => {
                let input = dir.join("cases.txt");
                let output = dir.join("answers.txt");
                std::fs::write(&input, cases).expect("write the case file");
                let out = std::process::Command::new(program)
                    .args(args)
                    .arg(&input)
                    .arg(&output)
                    .output()
                    .unwrap_or_else(|e| panic!("run {program:?}: {e}"));
                assert!(
                    out.status.success(),
                    "{program:?} {args:?} failed:\n{}{}",
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&out.stderr)
                );
                std::fs::read_to_string(&output).expect("the answer file")
            }
        }
    }
}

/// Where the cases come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Source {
    Golden,
    Random,
    Corpus,
    Mutation,
    ElementLimit,
    Budget,
    Depth,
    Limits,
    Frames,
    Hostile,
}

struct Cases {
    ir: Ir,
    /// Every declared type but enums.
    types: Vec<TypeId>,
    list: Vec<(Source, Case)>,
}

impl Cases {
    fn push(&mut self, source: Source, id: TypeId, bytes: Vec<u8>, limits: Option<[u64; 6]>) {
        let ty = qualified(&self.ir, id);
        let frames = source == Source::Frames;
        self.list.push((
            source,
            Case {
                ty,
                bytes,
                limits,
                frames,
            },
        ));
    }

    fn id(&self, name: &str) -> TypeId {
        *self
            .types
            .iter()
            .find(|&&id| qualified(&self.ir, id) == name)
            .unwrap_or_else(|| panic!("no type {name}"))
    }
}

/// Bit flips, `0xff` bytes, insertions, truncations and oversized length
/// prefixes, one to three of them.
fn mutate(rng: &mut Rng, bytes: &mut Vec<u8>) {
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(bytes.len() as u64 + 1) as usize;
        match rng.below(5) {
            0 if at < bytes.len() => bytes[at] ^= 1 << rng.below(8),
            1 if at < bytes.len() => bytes[at] = 0xFF,
            2 => bytes.insert(at, rng.next() as u8),
            3 => bytes.truncate(at),
            _ => {
                if bytes.len() >= 4 {
                    let n = rng.below(1 << 20) as u32;
                    let at = at.min(bytes.len() - 4);
                    bytes[at..at + 4].copy_from_slice(&n.to_le_bytes());
                }
            }
        }
    }
}

/// The largest mutated input: random values of the types of
/// `schemas/arrays.pkt` take up to a few hundred KiB, which only the long
/// runs send to every language (the random source sends every type).
fn max_mutated() -> usize {
    scaled(16 << 10, usize::MAX)
}

fn cases() -> Cases {
    let ir = ir();
    let types: Vec<TypeId> = (0..ir.types.len())
        .map(TypeId)
        .filter(|&id| !matches!(ir.ty(id).kind, TypeKind::Enum { .. }))
        .collect();
    let mut c = Cases {
        ir,
        types,
        list: Vec::new(),
    };

    for v in vectors::all() {
        let id = (0..c.ir.types.len())
            .map(TypeId)
            .find(|&id| qualified(&c.ir, id) == v.ty)
            .unwrap_or_else(|| panic!("{}: no type {}", v.name, v.ty));
        if c.types.contains(&id) {
            c.push(Source::Golden, id, v.bytes, None);
        }
    }

    let per_type = scaled(5, 25);
    for (i, &id) in c.types.clone().iter().enumerate() {
        for seed in 0..per_type {
            let bytes = Gen::new(&c.ir, 0xC0FFEE + seed * 131 + i as u64).encode(id);
            c.push(Source::Random, id, bytes, None);
        }
    }

    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus/decode");
    let mut files: Vec<_> = std::fs::read_dir(&corpus)
        .expect("fuzz/corpus/decode")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    for path in files {
        let data = std::fs::read(&path).expect("readable");
        let Some((&sel, rest)) = data.split_first() else {
            continue;
        };
        // The fuzz target's selector indexes every generated type.
        let name = pkt_rust_tests::TYPES[sel as usize % pkt_rust_tests::TYPES.len()].name;
        if let Some(&id) = c.types.iter().find(|&&id| qualified(&c.ir, id) == name) {
            c.push(Source::Corpus, id, rest.to_vec(), None);
        }
    }

    let mut rng = Rng(0xBADC_0FFE_E0DD_F00D);
    for case in 0..scaled(4_000u64, 20_000) {
        let id = c.types[(case % c.types.len() as u64) as usize];
        let mut bytes = Gen::new(&c.ir, case ^ 0x55).encode(id);
        mutate(&mut rng, &mut bytes);
        if bytes.len() <= max_mutated() {
            c.push(Source::Mutation, id, bytes, None);
        }
    }

    let limited: Vec<TypeId> = c
        .types
        .iter()
        .copied()
        .filter(|&id| qualified(&c.ir, id).starts_with("test.limits."))
        .collect();
    assert_eq!(limited.len(), 3, "Chat, Line and Packet");
    for case in 0..scaled(3_000u64, 20_000) {
        let id = limited[(case % limited.len() as u64) as usize];
        let mut bytes = Gen::new(&c.ir, case ^ 0x11).encode(id);
        if bytes.len() >= 4 {
            let n = [3u32, 4, 5, 6, 7, 9, 11, 25, 33, 257, 1 << 20][rng.below(11) as usize];
            let at = rng.below(bytes.len() as u64 - 3) as usize;
            bytes[at..at + 4].copy_from_slice(&n.to_le_bytes());
        }
        c.push(Source::ElementLimit, id, bytes, None);
    }

    // A message whose one field is a list of `count` copies of `elem`.
    let shapes: [(&str, &[u8]); 6] = [
        ("test.amplify.OptionalBigs", &[0]),
        ("test.amplify.Bigs", &[0, 0, 0, 0]),
        ("test.amplify.VariantList", &[1, 0, 0, 0, 9]),
        ("test.amplify.VariantList", &[5, 0, 0, 0, 2, 0, 0, 0, 0]),
        ("test.amplify.Defaults", &[0, 0, 0, 0]),
        ("test.amplify.Strings", &[0, 0, 0, 0]),
    ];
    for (name, elem) in shapes {
        let id = c.id(name);
        for count in [
            1u32, 10, 30, 31, 32, 33, 40, 100, 250, 300, 1000, 1100, 1200, 5000,
        ] {
            let mut body = count.to_le_bytes().to_vec();
            for _ in 0..count {
                body.extend_from_slice(elem);
            }
            let mut bytes = (body.len() as u32).to_le_bytes().to_vec();
            bytes.extend_from_slice(&body);
            c.push(Source::Budget, id, bytes, None);
        }
    }

    use pkt_rust_tests::deep::{depth_per_level, Deep, SHAPES};
    let max = pkt_runtime::Limits::DEFAULT.max_depth;
    for shape in SHAPES {
        // The type of the value `Deep` builds.
        let ty = match *shape {
            "DeepBig" => "test.amplify.DeepBig".to_string(),
            "BinaryExpr" | "CallExpr" => "test.everything.Expr".to_string(),
            "LinkedNode" | "TreeNode" => format!("test.everything.{shape}"),
            "ArrayTree" | "ArrayForest" => format!("test.arrays.{shape}"),
            other => panic!("which type is the shape {other}?"),
        };
        let id = c.id(&ty);
        let deepest = max - max % depth_per_level(shape);
        for levels in [deepest, deepest + depth_per_level(shape)] {
            let bytes = Deep::new(shape, levels).encode_unchecked();
            // The shapes of large values (2 MiB for `DeepBig`) only in the
            // long runs.
            if bytes.len() <= scaled(64 << 10, usize::MAX) {
                c.push(Source::Depth, id, bytes, None);
            }
        }
    }

    // Maps whose keys are out of order at every level of a map-keyed tree
    // and of maps nested 62 deep (views of them took time doubling with
    // each level), one level too deep, with a key repeated at the end, and
    // mutated.
    let tree = c.id("test.hostile.MapTree");
    let nested = c.id("test.hostile.DeepMaps");
    for levels in [1, 2, 3, 8, 32, 62, 63, 64, 65] {
        let bytes = message(&unsorted_maps(levels, 0));
        c.push(Source::Hostile, tree, bytes.clone(), None);
        if levels > 1 {
            // The top level's last key (before its empty tree, 8 bytes)
            // made 1, which the top level holds already.
            let mut repeated = bytes;
            let last = repeated.len() - 9;
            repeated[last] = 1;
            c.push(Source::Hostile, tree, repeated, None);
        }
        if levels <= 62 {
            c.push(
                Source::Hostile,
                nested,
                message(&unsorted_maps(levels, 62)),
                None,
            );
        }
    }
    for case in 0..scaled(200u64, 2_000) {
        let (id, mut bytes) = if case % 2 == 0 {
            (tree, message(&unsorted_maps(1 + rng.below(64) as usize, 0)))
        } else {
            (
                nested,
                message(&unsorted_maps(1 + rng.below(62) as usize, 62)),
            )
        };
        mutate(&mut rng, &mut bytes);
        c.push(Source::Hostile, id, bytes, None);
    }

    // Small limits, on valid and mutated encodings: depth, length, total
    // elements (which the bytes of a `bytes` value count against, as a
    // `list<u8>`'s do) and the budget.
    for case in 0..scaled(2_000u64, 10_000) {
        let id = c.types[(case.wrapping_mul(7) % c.types.len() as u64) as usize];
        let mut bytes = Gen::new(&c.ir, case ^ 0x77).encode(id);
        if rng.chance(3) {
            mutate(&mut rng, &mut bytes);
        }
        let big = 1 << 24;
        let mut limits = [64, big, big, big, 1 << 20, 32];
        match rng.below(4) {
            0 => limits[0] = rng.below(4),
            1 => limits[1] = rng.below(8),
            2 => limits[3] = rng.below(64),
            // A budget of at most 7 bytes per input byte, so that the
            // cases reach BudgetExceeded whatever types the schemas hold.
            _ => {
                limits[4] = rng.below(256);
                limits[5] = rng.below(8);
            }
        }
        if bytes.len() <= max_mutated() {
            c.push(Source::Limits, id, bytes, Some(limits));
        }
    }
    // Streams of one to four frames of a union or message, some mutated,
    // some cut short (the rest stays buffered), some read with a frame
    // length limit the stream goes over.
    let framed: Vec<TypeId> = c
        .types
        .iter()
        .copied()
        .filter(|&id| {
            matches!(
                c.ir.ty(id).kind,
                TypeKind::Union { .. } | TypeKind::Message { .. }
            )
        })
        .collect();
    for case in 0..scaled(1_000u64, 5_000) {
        let id = framed[(case % framed.len() as u64) as usize];
        let mut stream = Vec::new();
        for k in 0..1 + rng.below(4) {
            stream.extend(Gen::new(&c.ir, case * 4 + k + 0xF4).encode(id));
        }
        if rng.chance(3) {
            mutate(&mut rng, &mut stream);
        }
        let limits = rng.chance(4).then(|| {
            let big = 1 << 24;
            [64, big, rng.below(64), big, 1 << 20, 32]
        });
        if stream.len() <= max_mutated() {
            c.push(Source::Frames, id, stream, limits);
        }
    }
    c
}

/// `body` behind its length, as a message is written.
fn message(body: &[u8]) -> Vec<u8> {
    let mut out = (body.len() as u32).to_le_bytes().to_vec();
    out.extend_from_slice(body);
    out
}

/// Maps `levels` deep in the shapes of `schemas/hostile.pkt`: at every
/// level but the last, key 1 holding the rest and then key 0 holding an
/// empty map, out of order. `structs` 0: a `MapTree` body (each value a
/// message); else a `DeepMaps` body, whose values are structs holding the
/// next map down to the `map<u8, u8>` of the `structs`-th level, which
/// holds entries 1 and 0 too when the maps go that deep.
fn unsorted_maps(levels: usize, structs: usize) -> Vec<u8> {
    let value = |inner: &[u8]| {
        if structs == 0 {
            message(inner)
        } else {
            inner.to_vec()
        }
    };
    let mut map = if structs != 0 && levels == structs {
        vec![2, 0, 0, 0, 1, 9, 0, 9]
    } else {
        0u32.to_le_bytes().to_vec()
    };
    let empty = value(&0u32.to_le_bytes());
    for _ in 1..levels {
        let mut next = 2u32.to_le_bytes().to_vec();
        next.push(1);
        next.extend(value(&map));
        next.push(0);
        next.extend(&empty);
        map = next;
    }
    map
}

/// What a source's answers count: cases, accepted, rejected per error kind.
#[derive(Default)]
struct Tally {
    cases: usize,
    ok: usize,
    errors: std::collections::BTreeMap<String, usize>,
}

#[test]
fn every_language_answers_every_case_as_rust_does() {
    let c = cases();
    let file = conformance::file(&c.list.iter().map(|(_, k)| k.clone()).collect::<Vec<_>>());
    let dir = support::mono::work_dir("conformance");

    let mut answers: Vec<(&str, Vec<String>)> = Vec::new();
    for lang in LANGUAGES {
        let Some(driver) = (lang.prepare)(&c.ir) else {
            continue;
        };
        let text = driver.run(&file, &dir);
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        assert_eq!(
            lines.len(),
            c.list.len(),
            "{}: one answer per case",
            lang.name
        );
        answers.push((lang.name, lines));
    }
    let (reference, rust) = &answers[0];
    assert_eq!(*reference, "Rust");

    // Rust writes the golden vectors' bytes, and random canonical
    // encodings as they are.
    let mut tally: std::collections::BTreeMap<Source, Tally> = Default::default();
    for ((source, case), answer) in c.list.iter().zip(rust) {
        let t = tally.entry(*source).or_default();
        t.cases += 1;
        let mut words = answer.split(' ');
        match words.next() {
            Some("ok") => t.ok += 1,
            Some("frames") => {
                t.ok += answer.matches(" ; ").count() - answer.matches("err ").count();
                for e in answer.split("err ").skip(1) {
                    let kind = e.split(' ').next().unwrap_or("");
                    *t.errors.entry(kind.to_string()).or_default() += 1;
                }
            }
            Some("err") => {
                *t.errors
                    .entry(words.next().unwrap_or("").to_string())
                    .or_default() += 1
            }
            _ => panic!("{}: Rust answers {answer}", case.line()),
        }
        if matches!(source, Source::Golden | Source::Random) {
            let want = format!("ok {} ", hex(&case.bytes));
            assert!(
                answer.starts_with(&want),
                "{source:?} {}: Rust answers {answer}",
                case.line()
            );
        }
    }

    let mut problems = Vec::new();
    let mut agreed: Vec<(&str, std::collections::BTreeMap<Source, usize>)> = Vec::new();
    for (name, lines) in &answers[1..] {
        let mut per_source = std::collections::BTreeMap::new();
        for (((source, case), want), got) in c.list.iter().zip(rust).zip(lines) {
            if got == want {
                *per_source.entry(*source).or_insert(0) += 1;
            } else {
                problems.push(format!(
                    "{source:?} case of type {}: {}\n  Rust: {want}\n  {name}: {got}",
                    case.ty,
                    case.line()
                ));
            }
        }
        agreed.push((name, per_source));
    }
    let mut report = String::new();
    for (source, t) in &tally {
        report.push_str(&format!(
            "{source:?}: {} cases, Rust accepts {} and rejects {:?}",
            t.cases, t.ok, t.errors
        ));
        for (name, per_source) in &agreed {
            report.push_str(&format!(
                "; {name} agrees on {}",
                per_source.get(source).copied().unwrap_or(0)
            ));
        }
        report.push('\n');
    }
    println!("{report}");
    assert!(
        problems.is_empty(),
        "{} answers differ from Rust's; the first ones:\n{}\n{report}",
        problems.len(),
        problems
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );

    // The hostile sources reach what they are for.
    let errors = |s: Source, kind: &str| tally[&s].errors.get(kind).copied().unwrap_or(0);
    let mutations = &tally[&Source::Mutation];
    let rejected: usize = mutations.errors.values().sum();
    assert!(
        mutations.cases >= scaled(3_000, 20_000)
            && mutations.ok > mutations.cases / 20
            && rejected > mutations.cases / 20,
        "mutations: {} accepted, {rejected} rejected",
        mutations.ok
    );
    assert!(
        errors(Source::ElementLimit, "FieldTooLong") > tally[&Source::ElementLimit].cases / 10,
        "element limits"
    );
    assert!(errors(Source::Budget, "BudgetExceeded") > 10, "budget");
    let depth = &tally[&Source::Depth];
    assert!(
        depth.cases >= scaled(8, 14) && errors(Source::Depth, "DepthExceeded") == depth.cases / 2,
        "one past the depth limit, of every shape"
    );
    for kind in ["DepthExceeded", "LimitExceeded", "BudgetExceeded"] {
        assert!(errors(Source::Limits, kind) > 10, "small limits: {kind}");
    }
    let hostile = &tally[&Source::Hostile];
    assert!(
        hostile.ok >= 14
            && errors(Source::Hostile, "DuplicateMapKey") >= 6
            && errors(Source::Hostile, "DepthExceeded") >= 1,
        "hostile maps: {} accepted, {:?}",
        hostile.ok,
        hostile.errors
    );
    let frames = &tally[&Source::Frames];
    assert!(
        frames.ok > frames.cases && errors(Source::Frames, "LimitExceeded") > frames.cases / 20,
        "frames: {} read, {:?}",
        frames.ok,
        frames.errors
    );
}
