//! The generated TypeScript of a schema set, compiled for node with a
//! `dispatch` module that maps each qualified type name (`game.net.Chat`)
//! to its codec object, so that a node program can decode and encode any
//! type by name: what `rust-tests/tests/typescript.rs` drives, and what a
//! language-neutral driver needs to add TypeScript.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use pktc::emit::{generate, output_files, GenOptions, TYPESCRIPT_RUNTIME_STEM};
use pktc::ir::{Ir, TypeId, TypeKind};
use pktc::names::{self, Lang};

use super::{node, qualified};

/// Whether the type has a codec object (enums are read and written inside
/// the types that hold them).
pub fn has_codec(ir: &Ir, id: TypeId) -> bool {
    !matches!(ir.ty(id).kind, TypeKind::Enum { .. })
}

/// The text of `dispatch.ts`: `TYPES`, every codec by qualified name, each
/// with `create`, `encode`, `decode` and `decodeInto`.
pub fn dispatch(ir: &Ir) -> String {
    let files = output_files(ir, "ts", &[TYPESCRIPT_RUNTIME_STEM], None);
    let alias = |stem: &str| {
        format!(
            "$m_{}",
            stem.replace(|c: char| !c.is_ascii_alphanumeric(), "_")
        )
    };
    let mut text = String::new();
    for f in &files {
        if f.file.types.iter().any(|&id| has_codec(ir, id)) {
            let _ = writeln!(
                text,
                "import * as {} from \"./{}.js\";",
                alias(&f.stem),
                f.stem
            );
        }
    }
    text.push_str(
        "\n/** A codec object of a generated type. */\n\
         export interface Codec<T> {\n    \
         create(): T;\n    \
         encode(value: T): Uint8Array;\n    \
         decode(bytes: Uint8Array): T;\n    \
         decodeInto(target: T, bytes: Uint8Array): void;\n\
         }\n\n\
         /** Every type with a codec, by its qualified schema name. */\n\
         export const TYPES: Record<string, Codec<any>> = {\n",
    );
    for (i, def) in ir.types.iter().enumerate() {
        if !has_codec(ir, TypeId(i)) {
            continue;
        }
        let _ = writeln!(
            text,
            "    \"{}\": {}.{},",
            qualified(ir, TypeId(i)),
            alias(&files[def.file.0].stem),
            names::type_ident(Lang::TypeScript, def)
        );
    }
    text.push_str("};\n");
    text
}

/// Generates the TypeScript of `ir` with `dispatch.ts` and the `(name,
/// text)` modules of `extra` into `dir/src`, compiles them with
/// `tsc --strict` (no diagnostic allowed) into `dir/js`, an ES module
/// package, and returns `dir/js`, where a node program beside them imports
/// `./dispatch.js`.
pub fn build(ir: &Ir, dir: &Path, extra: &[(&str, &str)]) -> PathBuf {
    let _ = std::fs::remove_dir_all(dir);
    let src = dir.join("src");
    std::fs::create_dir_all(&src).expect("create the source directory");
    for f in generate(ir, &GenOptions::new(Lang::TypeScript)) {
        std::fs::write(src.join(&f.path), f.contents).expect("write generated TypeScript");
    }
    std::fs::write(src.join("dispatch.ts"), dispatch(ir)).expect("write dispatch.ts");
    for (name, text) in extra {
        std::fs::write(src.join(name), text).expect("write an extra module");
    }
    std::fs::write(
        dir.join("tsconfig.json"),
        r#"{
  "compilerOptions": {
    "strict": true, "noUnusedLocals": true, "noUnusedParameters": true, "noImplicitReturns": true,
    "target": "ES2020", "module": "ES2020", "moduleResolution": "bundler", "lib": ["ES2020"],
    "rootDir": "src", "outDir": "js"
  },
  "include": ["src/*.ts"]
}
"#,
    )
    .expect("write tsconfig.json");
    node::compile(dir, &["-p", "tsconfig.json"]);
    let js = dir.join("js");
    std::fs::write(js.join("package.json"), "{ \"type\": \"module\" }\n").expect("package.json");
    js
}

/// Keys that V8 hashes alike, for the hash-flooding shapes of
/// `schemas/map_keys.pkt`: V8 hashes a small integer with
/// `ComputeUnseededHash` and a bigint with `ComputeLongHash` of its least
/// significant 64-bit digit (its magnitude's), neither seeded, so the same
/// keys collide in every Node.js process. Both hashes are bijections before
/// their last 30-bit mask; these are the preimages of hashes whose low 14
/// bits are zero, which share one bucket of any table of up to 16,384.
pub mod colliding {
    /// The inverse of the odd `a` modulo 2^64.
    fn inverse(a: u64) -> u64 {
        let mut x: u64 = 1;
        for _ in 0..7 {
            x = x.wrapping_mul(2u64.wrapping_sub(a.wrapping_mul(x)));
        }
        x
    }

    /// The inverse of `x ^= x >> s` on 64-bit words (`mask` cuts to 32).
    fn unshift(y: u64, s: u32, mask: u64) -> u64 {
        let mut x = y;
        for _ in 0..64 {
            x = (y ^ (x >> s)) & mask;
        }
        x
    }

    /// The 32-bit `k` with `ComputeUnseededHash(k) == h` (before the mask).
    fn unhash32(h: u32) -> u32 {
        let m = u64::from(u32::MAX);
        let mut x = u64::from(h);
        x = unshift(x, 16, m);
        x = x.wrapping_mul(inverse(2057)) & m;
        x = unshift(x, 4, m);
        x = x.wrapping_mul(inverse(5)) & m;
        x = unshift(x, 12, m);
        // ~x + (x << 15) == x * (2^15 - 1) - 1
        x = (x + 1).wrapping_mul(inverse((1 << 15) - 1)) & m;
        x as u32
    }

    /// V8's `ComputeUnseededHash`, to check the inverse.
    pub fn hash32(k: u32) -> u32 {
        let mut h = k;
        h = (!h).wrapping_add(h << 15);
        h ^= h >> 12;
        h = h.wrapping_add(h << 2);
        h ^= h >> 4;
        h = h.wrapping_mul(2057);
        h ^= h >> 16;
        h & 0x3fff_ffff
    }

    /// The 64-bit `k` with `ComputeLongHash(k) == h` (before the mask).
    fn unhash64(h: u64) -> u64 {
        let m = u64::MAX;
        let mut x = unshift(h, 22, m);
        x = x.wrapping_mul(inverse(65));
        x = unshift(x, 11, m);
        x = x.wrapping_mul(inverse(21));
        x = unshift(x, 31, m);
        x.wrapping_add(1).wrapping_mul(inverse((1 << 18) - 1))
    }

    /// V8's `ComputeLongHash`, to check the inverse.
    pub fn hash64(k: u64) -> u32 {
        let mut h = k;
        h = (!h).wrapping_add(h << 18);
        h ^= h >> 31;
        h = h.wrapping_mul(21);
        h ^= h >> 11;
        h = h.wrapping_add(h << 6);
        h ^= h >> 22;
        (h & 0x3fff_ffff) as u32
    }

    /// `n` colliding 32-bit words whose value as `i32` is a small integer
    /// of V8 with 31-bit ones (-2^30 to 2^30), ascending by hash.
    pub fn words(n: usize) -> Vec<u32> {
        (0u32..1 << 18)
            .map(|i| unhash32(i << 14))
            .filter(|&k| (-(1 << 30)..1 << 30).contains(&(k as i32)))
            .take(n)
            .collect()
    }

    /// `n` colliding `u32` keys (small integers: below 2^30).
    pub fn u32s(n: usize) -> Vec<u32> {
        (0u32..1 << 18)
            .map(|i| unhash32(i << 14))
            .filter(|&k| k < 1 << 30)
            .take(n)
            .collect()
    }

    /// `n` colliding `u64` keys.
    pub fn u64s(n: usize) -> Vec<u64> {
        (1u64..).map(|i| unhash64(i << 14)).take(n).collect()
    }

    /// `n` colliding `i64` keys: magnitudes that collide, each with both
    /// signs (a bigint's hash ignores its sign).
    pub fn i64s(n: usize) -> Vec<i64> {
        (1u64..)
            .map(|i| unhash64(i << 14))
            .filter(|&k| k < 1 << 63)
            .take(n.div_ceil(2))
            .flat_map(|k| [k as i64, -(k as i64)])
            .take(n)
            .collect()
    }

    /// `n` string keys that look like integers ("1001472"), which V8 hashes
    /// by their value when it caches them as array indexes.
    pub fn names(n: usize) -> Vec<String> {
        (0..n).map(|i| (1_000_000 + i * 1024).to_string()).collect()
    }
}
