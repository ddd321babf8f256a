//! Test support: the IR of every example schema, and an encoder driven by it
//! that writes random canonical values of any type. It follows
//! docs/wire-format.md independently of the generated code, so agreement
//! between the two checks both.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use pktc::ir::{Ir, Layout, Prim, Type, TypeId, TypeKind};

pub fn schemas() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("schemas/ is readable")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pkt"))
        .collect();
    out.sort();
    out
}

pub fn ir() -> Ir {
    pktc::check(&schemas()).unwrap_or_else(|f| panic!("{f}")).ir
}

pub fn qualified(ir: &Ir, id: TypeId) -> String {
    let def = ir.ty(id);
    format!("{}.{}", ir.namespace_of(def).join("."), def.name)
}

pub use pkt_test_support::Rng;

/// Nesting beyond this gets empty lists and absent optionals, so recursive
/// types stay small.
const MAX_DEPTH: usize = 4;

pub struct Gen<'a> {
    pub ir: &'a Ir,
    pub rng: Rng,
    depth: usize,
}

/// A map key, ordered as the wire orders keys.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
enum Key {
    Int(i128),
    Bytes(Vec<u8>),
}

impl<'a> Gen<'a> {
    pub fn new(ir: &'a Ir, seed: u64) -> Self {
        Gen {
            ir,
            rng: Rng(seed | 1),
            depth: 0,
        }
    }

    /// A random canonical encoding of a declared type.
    pub fn encode(&mut self, id: TypeId) -> Vec<u8> {
        let mut out = Vec::new();
        self.named(id, &mut out);
        out
    }

    fn count(&mut self, max: Option<u32>) -> usize {
        if self.depth >= MAX_DEPTH {
            return 0;
        }
        let n = self.rng.below(5) as usize;
        max.map_or(n, |m| n.min(m as usize))
    }

    fn prim(&mut self, p: Prim, out: &mut Vec<u8>) {
        match p {
            Prim::Bool => out.push(self.rng.below(2) as u8),
            // Finite floats only: NaN is kept bit for bit, but NaN != NaN
            // would fail the value comparisons.
            Prim::F32 => {
                let v = (self.rng.next() as i32 as f32) / 7.0;
                out.extend_from_slice(&v.to_le_bytes());
            }
            Prim::F64 => {
                let v = (self.rng.next() as i64 as f64) / 7.0;
                out.extend_from_slice(&v.to_le_bytes());
            }
            _ => {
                let v = self.rng.next().to_le_bytes();
                out.extend_from_slice(&v[..p.size() as usize]);
            }
        }
    }

    fn string(&mut self, max: Option<u32>) -> Vec<u8> {
        const PIECES: &[&str] = &[
            "a",
            "Z",
            " ",
            "é",
            "漢",
            "🎮",
            "\0",
            "\u{FFFF}",
            "\u{10000}",
        ];
        let mut s = String::new();
        for _ in 0..self.rng.below(6) {
            let piece = PIECES[self.rng.below(PIECES.len() as u64) as usize];
            if max.is_some_and(|m| s.len() + piece.len() > m as usize) {
                break;
            }
            s.push_str(piece);
        }
        s.into_bytes()
    }

    fn key(&mut self, ty: &Type, max: Option<u32>) -> (Key, Vec<u8>) {
        let mut bytes = Vec::new();
        let key = match ty {
            Type::String => {
                let s = self.string(max);
                bytes.extend_from_slice(&(s.len() as u32).to_le_bytes());
                bytes.extend_from_slice(&s);
                Key::Bytes(s)
            }
            Type::Prim(p) => {
                self.prim(*p, &mut bytes);
                Key::Int(int_value(*p, &bytes))
            }
            Type::Named(r) => {
                let TypeKind::Enum { base, .. } = &self.ir.ty(r.id).kind else {
                    panic!("map keys are scalars, strings or enums")
                };
                self.named(r.id, &mut bytes);
                Key::Int(int_value(*base, &bytes))
            }
            _ => panic!("map keys are scalars, strings or enums"),
        };
        (key, bytes)
    }

    /// A field's value: for a quantized float, a stored integer of its
    /// width no more than its steps (edges often), which every decoder
    /// reads as a value that encodes back to it.
    fn field(&mut self, f: &pktc::ir::Field, out: &mut Vec<u8>) {
        let Some(q) = &f.quantize else {
            return self.value(&f.ty, f.max, out);
        };
        let n = match self.rng.below(4) {
            0 => 0,
            1 => q.steps,
            _ => self.rng.below(q.steps + 1),
        };
        out.extend_from_slice(&n.to_le_bytes()[..q.stored.size() as usize]);
    }

    pub fn value(&mut self, ty: &Type, max: Option<u32>, out: &mut Vec<u8>) {
        match ty {
            Type::Prim(p) => self.prim(*p, out),
            Type::String | Type::Bytes => {
                let b = if *ty == Type::String {
                    self.string(max)
                } else {
                    let n = self.count(max);
                    (0..n).map(|_| self.rng.next() as u8).collect()
                };
                out.extend_from_slice(&(b.len() as u32).to_le_bytes());
                out.extend_from_slice(&b);
            }
            Type::List(elem) => {
                let n = self.count(max);
                out.extend_from_slice(&(n as u32).to_le_bytes());
                self.depth += 1;
                for _ in 0..n {
                    self.value(elem, elem.max, out);
                }
                self.depth -= 1;
            }
            Type::Map(k, v) => {
                let n = self.count(max);
                let mut entries: Vec<(Key, Vec<u8>)> = (0..n).map(|_| self.key(k, k.max)).collect();
                entries.sort_by(|a, b| a.0.cmp(&b.0));
                entries.dedup_by(|a, b| a.0 == b.0);
                out.extend_from_slice(&(entries.len() as u32).to_le_bytes());
                self.depth += 1;
                for (_, key) in entries {
                    out.extend_from_slice(&key);
                    self.value(v, v.max, out);
                }
                self.depth -= 1;
            }
            Type::Array(elem, n) => {
                for _ in 0..*n {
                    self.value(elem, elem.max, out);
                }
            }
            Type::Optional(inner) => {
                if self.depth >= MAX_DEPTH || self.rng.chance(3) {
                    out.push(0);
                } else {
                    out.push(1);
                    self.depth += 1;
                    self.value(inner, max, out);
                    self.depth -= 1;
                }
            }
            Type::Named(r) => self.named(r.id, out),
        }
    }

    fn named(&mut self, id: TypeId, out: &mut Vec<u8>) {
        let def = self.ir.ty(id);
        match &def.kind {
            TypeKind::Struct { fields } => {
                for f in fields {
                    self.field(f, out);
                }
            }
            TypeKind::Enum { base, values } => {
                let raw = if self.rng.chance(5) {
                    // Often not a declared value: unknown values must survive.
                    self.rng.next() & ((1u64 << (base.size() * 8)) - 1)
                } else {
                    values[self.rng.below(values.len() as u64) as usize].value
                };
                out.extend_from_slice(&raw.to_le_bytes()[..base.size() as usize]);
            }
            TypeKind::Message {
                fields,
                preserve_unknown,
            } => {
                let mark = out.len();
                out.extend_from_slice(&[0; 4]);
                self.depth += 1;
                for f in fields {
                    self.field(f, out);
                }
                self.depth -= 1;
                if *preserve_unknown && self.rng.chance(2) {
                    for _ in 0..self.rng.below(6) {
                        out.push(self.rng.next() as u8);
                    }
                }
                let len = (out.len() - mark - 4) as u32;
                out[mark..mark + 4].copy_from_slice(&len.to_le_bytes());
            }
            TypeKind::Union {
                tag,
                variants,
                reserved,
            } => {
                let mark = out.len();
                out.extend_from_slice(&[0; 4]);
                let unknown = self.rng.chance(6);
                let width = tag.size() as usize;
                if unknown {
                    let mut t = self.rng.next() as u16;
                    if width == 1 {
                        t &= 0xFF;
                    }
                    while variants.iter().any(|v| v.tag == t) || reserved.contains(&t) {
                        t = t.wrapping_add(1) & if width == 1 { 0xFF } else { 0xFFFF };
                    }
                    out.extend_from_slice(&t.to_le_bytes()[..width]);
                    for _ in 0..self.rng.below(8) {
                        out.push(self.rng.next() as u8);
                    }
                } else {
                    let i = if self.depth >= MAX_DEPTH {
                        0
                    } else {
                        self.rng.below(variants.len() as u64) as usize
                    };
                    let v = &variants[i];
                    out.extend_from_slice(&v.tag.to_le_bytes()[..width]);
                    self.depth += 1;
                    self.value(&v.ty, None, out);
                    self.depth -= 1;
                }
                let len = (out.len() - mark - 4) as u32;
                out[mark..mark + 4].copy_from_slice(&len.to_le_bytes());
            }
        }
    }
}

fn int_value(p: Prim, bytes: &[u8]) -> i128 {
    let mut b = [0u8; 8];
    b[..bytes.len()].copy_from_slice(bytes);
    let u = u64::from_le_bytes(b);
    match p {
        Prim::Bool | Prim::U8 | Prim::U16 | Prim::U32 | Prim::U64 => u as i128,
        Prim::I8 => u as u8 as i8 as i128,
        Prim::I16 => u as u16 as i16 as i128,
        Prim::I32 => u as u32 as i32 as i128,
        Prim::I64 => u as i64 as i128,
        Prim::F32 | Prim::F64 => panic!("floats are not map keys"),
    }
}

/// The fixed size of a type, if it has one.
pub fn fixed_size(ir: &Ir, ty: &Type) -> Option<u32> {
    match ir.layout(ty) {
        Layout::Fixed { size } => Some(size),
        Layout::Variable { .. } => None,
    }
}
pub mod delta;
pub mod mono;
pub mod node;
pub mod typescript;
