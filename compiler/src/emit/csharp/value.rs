//! Value semantics of the generated C# types: `Equals` (with
//! `IEquatable<T>`), `GetHashCode` and a bounded `ToString`, in a second
//! partial declaration of each struct, message and union (`value/struct`,
//! `value/class`, `value/union`). They read the fields and nothing else,
//! so the codec part of a type does not change with them.
//!
//! Two values are equal when they would encode to the same bytes: floats
//! are compared as their bits (a NaN equals itself, `0.0` and `-0.0`
//! differ), and a null in a non-optional position equals the default it
//! encodes as (a null string `""`, a null list or map an empty one, a null
//! array its elements' defaults, a null message or union the default one).
//! A class compares with a null one through its static `PktEquals`, which
//! reads every field of a null value as that default, so no default object
//! is ever allocated; hashes follow the same rule.
//!
//! As with the codecs (`code.rs`), each type constructor has one template
//! per operation (`value/equal_*`, `value/hash_*`, `value/text_*`), locals
//! carry the nesting depth as suffix, and lists and arrays share the `seq`
//! templates, given how each counts and reads its elements.

use serde::Serialize;

use super::code::{Code, Gen, Lines};
use super::{field_name, prim_cs, qualified, string_literal, type_ident};
use crate::ir::{Field, Prim, Type, TypeDef, TypeKind, Value, Variant};
use crate::names::{self, NameKind};

/// `value/equal_value`: one comparison.
#[derive(Serialize)]
struct Differ {
    /// True when the two values differ.
    differ: String,
}

/// `value/equal_optional` and `value/hash_optional`, `value/text_optional`.
#[derive(Serialize)]
struct Optional<'a> {
    x: String,
    y: String,
    left: &'a str,
    right: &'a str,
    expr: &'a str,
    /// True when one of `x` and `y` is present and the other is not.
    differ: String,
    /// True when `x` is present.
    present: String,
    value: Lines,
}

/// `value/*_seq`: a list or an array.
#[derive(Serialize)]
struct Seq<'a> {
    x: String,
    y: String,
    n: String,
    i: String,
    left: &'a str,
    right: &'a str,
    expr: &'a str,
    /// How many elements `x` (`y`) counts as: a null list none, a null
    /// array its length of defaults.
    count_x: String,
    count_y: String,
    /// `value/hash_seq`: `count_x`; `value/text_seq`: the property
    /// (`Count`, `Length`).
    count: String,
    item: Lines,
}

/// `value/*_map`.
#[derive(Serialize)]
struct Map<'a> {
    x: String,
    y: String,
    n: String,
    i: String,
    left: &'a str,
    right: &'a str,
    expr: &'a str,
    key: Lines,
    value: Lines,
}

#[derive(Serialize)]
struct HashValue {
    hash: String,
}

#[derive(Serialize)]
struct TextValue {
    call: String,
}

/// Wraps an expression in parentheses unless it is a name, member access,
/// call, index or cast (the only expressions generated without spaces), so
/// that a method can be called on it or it can be compared.
fn operand(expr: &str) -> String {
    if expr.contains(' ') {
        format!("({expr})")
    } else {
        expr.to_string()
    }
}

/// A 32-bit FNV-1a hash of a type's qualified schema name: the seed of its
/// hash codes, so that equal-looking values of two types hash apart.
fn seed(name: &str) -> i32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in name.bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h as i32
}

fn qualified_schema_name(gen: &Gen, def: &TypeDef) -> String {
    let mut parts = gen.ir.namespace_of(def).to_vec();
    parts.push(def.name.clone());
    parts.join(".")
}

impl Gen<'_> {
    /// What a field reads as in a null value: its default, or null for the
    /// types whose null already equals their default (strings excepted,
    /// whose declared default may not be empty). Never allocates.
    fn null_default(&self, ty: &Type, declared: Option<&Value>) -> String {
        let allocates = match ty {
            Type::Bytes | Type::List(_) | Type::Map(..) | Type::Array(..) => true,
            Type::Named(r) => {
                let def = self.ir.ty(r.id);
                match def.kind {
                    TypeKind::Enum { .. } => false,
                    TypeKind::Struct { .. } => !def.layout.is_fixed(),
                    _ => true,
                }
            }
            Type::Prim(_) | Type::String | Type::Optional(_) => false,
        };
        match allocates {
            true => format!("default({})", self.cs_type(ty)),
            false => self
                .default_expr(ty, declared)
                .unwrap_or_else(|| format!("default({})", self.cs_type(ty))),
        }
    }

    /// How a sequence counts and reads its elements: `(count of x,
    /// element i of x)`; a null list is empty, a null array holds `n`
    /// element defaults.
    fn seq_access(&self, ty: &Type, x: &str, i: &str) -> (String, String) {
        match ty {
            Type::Array(elem, n) => (
                format!("{x} != null ? {x}.Length : {n}"),
                format!("{x} != null ? {x}[{i}] : {}", self.element_default(elem)),
            ),
            _ => (format!("{x} == null ? 0 : {x}.Count"), format!("{x}[{i}]")),
        }
    }

    /// The optional's presence test and value of the local `x`.
    fn optional_access(&self, inner: &Type, x: &str) -> (String, String) {
        if self.is_value(inner) {
            (format!("{x}.HasValue"), format!("{x}.Value"))
        } else {
            (format!("{x} != null"), x.to_string())
        }
    }

    /// Statements that return false when `x` and `y` differ.
    pub(super) fn equal(&self, ty: &Type, x: &str, y: &str, d: usize) -> Lines {
        let t = super::templates();
        let leaf = |differ: String| t.lines("value/equal_value", &Differ { differ });
        match ty {
            Type::Prim(Prim::F32 | Prim::F64) | Type::String | Type::Bytes => {
                leaf(format!("!global::Pkt.PktValues.Equal({x}, {y})"))
            }
            Type::Prim(_) => leaf(format!("{} != {}", operand(x), operand(y))),
            Type::Optional(inner) => {
                let (xo, yo) = (format!("x{d}"), format!("y{d}"));
                let (present, xv) = self.optional_access(inner, &xo);
                let (present_y, yv) = self.optional_access(inner, &yo);
                let differ = if self.is_value(inner) {
                    format!("{present} != {present_y}")
                } else {
                    format!("({present}) != ({present_y})")
                };
                let value = self.equal(inner, &xv, &yv, d + 1);
                t.lines(
                    "value/equal_optional",
                    &Optional {
                        left: x,
                        right: y,
                        expr: "",
                        differ,
                        present,
                        value,
                        x: xo,
                        y: yo,
                    },
                )
            }
            Type::List(elem) | Type::Array(elem, _) => {
                let (xs, ys, i) = (format!("x{d}"), format!("y{d}"), format!("i{d}"));
                let (count_x, item_x) = self.seq_access(ty, &xs, &i);
                let (count_y, item_y) = self.seq_access(ty, &ys, &i);
                let item = self.equal(elem, &item_x, &item_y, d + 1);
                t.lines(
                    "value/equal_seq",
                    &Seq {
                        n: format!("n{d}"),
                        left: x,
                        right: y,
                        expr: "",
                        count_x,
                        count_y: operand(&count_y),
                        count: String::new(),
                        item,
                        x: xs,
                        y: ys,
                        i,
                    },
                )
            }
            Type::Map(kt, vt) => {
                let (xm, ym, i) = (format!("x{d}"), format!("y{d}"), format!("i{d}"));
                let key = self.equal(
                    kt,
                    &format!("{xm}.KeyAt({i})"),
                    &format!("{ym}.KeyAt({i})"),
                    d + 1,
                );
                let value = self.equal(
                    vt,
                    &format!("{xm}.ValueAt({i})"),
                    &format!("{ym}.ValueAt({i})"),
                    d + 1,
                );
                t.lines(
                    "value/equal_map",
                    &Map {
                        n: format!("n{d}"),
                        left: x,
                        right: y,
                        expr: "",
                        key,
                        value,
                        x: xm,
                        y: ym,
                        i,
                    },
                )
            }
            Type::Named(r) => {
                let def = self.ir.ty(r.id);
                match def.kind {
                    TypeKind::Enum { .. } => leaf(format!("{} != {}", operand(x), operand(y))),
                    TypeKind::Struct { .. } if def.layout.is_fixed() => {
                        leaf(format!("!{}.Equals({y})", operand(x)))
                    }
                    _ => leaf(format!("!{}.PktEquals({x}, {y})", qualified(self.ir, def))),
                }
            }
        }
    }

    /// Statements mixing the hash of `v` into the local `h`.
    pub(super) fn hash(&self, ty: &Type, v: &str, d: usize) -> Lines {
        let t = super::templates();
        let leaf = |hash: String| t.lines("value/hash_value", &HashValue { hash });
        match ty {
            Type::Prim(p) => leaf(prim_hash(*p, v)),
            Type::String | Type::Bytes => leaf(format!("global::Pkt.PktValues.Hash({v})")),
            Type::Optional(inner) => {
                let x = format!("x{d}");
                let (present, value) = self.optional_access(inner, &x);
                let value = self.hash(inner, &value, d + 1);
                t.lines(
                    "value/hash_optional",
                    &Optional {
                        y: String::new(),
                        left: "",
                        right: "",
                        expr: v,
                        differ: String::new(),
                        present,
                        value,
                        x,
                    },
                )
            }
            Type::List(elem) | Type::Array(elem, _) => {
                let (x, i) = (format!("x{d}"), format!("i{d}"));
                let (count, item) = self.seq_access(ty, &x, &i);
                let item = self.hash(elem, &item, d + 1);
                t.lines(
                    "value/hash_seq",
                    &Seq {
                        y: String::new(),
                        n: format!("n{d}"),
                        left: "",
                        right: "",
                        expr: v,
                        count_x: String::new(),
                        count_y: String::new(),
                        count,
                        item,
                        x,
                        i,
                    },
                )
            }
            Type::Map(kt, vt) => {
                let (x, i) = (format!("x{d}"), format!("i{d}"));
                let key = self.hash(kt, &format!("{x}.KeyAt({i})"), d + 1);
                let value = self.hash(vt, &format!("{x}.ValueAt({i})"), d + 1);
                t.lines(
                    "value/hash_map",
                    &Map {
                        y: String::new(),
                        n: format!("n{d}"),
                        left: "",
                        right: "",
                        expr: v,
                        key,
                        value,
                        x,
                        i,
                    },
                )
            }
            Type::Named(r) => {
                let def = self.ir.ty(r.id);
                match &def.kind {
                    TypeKind::Enum { base, .. } => leaf(prim_hash(
                        *base,
                        &format!("({}){}", prim_cs(*base), operand(v)),
                    )),
                    TypeKind::Struct { .. } if def.layout.is_fixed() => {
                        leaf(format!("{}.GetHashCode()", operand(v)))
                    }
                    _ => leaf(format!("{}.PktHash({v})", qualified(self.ir, def))),
                }
            }
        }
    }

    /// Statements appending `v` as text to the `global::Pkt.PktText` `t`.
    pub(super) fn text(&self, ty: &Type, v: &str, d: usize) -> Lines {
        let t = super::templates();
        let leaf = |call: String| t.lines("value/text_value", &TextValue { call });
        match ty {
            Type::Prim(p) => leaf(format!("t.{}({v})", prim_text(*p))),
            Type::String => leaf(format!("t.String({v})")),
            Type::Bytes => leaf(format!("t.Bytes({v})")),
            Type::Optional(inner) => {
                let x = format!("x{d}");
                let (present, value) = self.optional_access(inner, &x);
                let value = self.text(inner, &value, d + 1);
                t.lines(
                    "value/text_optional",
                    &Optional {
                        y: String::new(),
                        left: "",
                        right: "",
                        expr: v,
                        differ: String::new(),
                        present,
                        value,
                        x,
                    },
                )
            }
            Type::List(elem) | Type::Array(elem, _) => {
                let (x, i) = (format!("x{d}"), format!("i{d}"));
                let item = self.text(elem, &format!("{x}[{i}]"), d + 1);
                let count = match ty {
                    Type::List(_) => "Count",
                    _ => "Length",
                };
                t.lines(
                    "value/text_seq",
                    &Seq {
                        y: String::new(),
                        n: format!("n{d}"),
                        left: "",
                        right: "",
                        expr: v,
                        count_x: String::new(),
                        count_y: String::new(),
                        count: count.to_string(),
                        item,
                        x,
                        i,
                    },
                )
            }
            Type::Map(kt, vt) => {
                let (x, i) = (format!("x{d}"), format!("i{d}"));
                let key = self.text(kt, &format!("{x}.KeyAt({i})"), d + 1);
                let value = self.text(vt, &format!("{x}.ValueAt({i})"), d + 1);
                t.lines(
                    "value/text_map",
                    &Map {
                        y: String::new(),
                        n: format!("n{d}"),
                        left: "",
                        right: "",
                        expr: v,
                        key,
                        value,
                        x,
                        i,
                    },
                )
            }
            Type::Named(r) => {
                let def = self.ir.ty(r.id);
                match def.kind {
                    // The value's name, or its number when the schema has
                    // no name for it.
                    TypeKind::Enum { .. } => leaf(format!("t.Raw({}.ToString())", operand(v))),
                    _ => leaf(format!("{}.PktAppend(t, {v})", qualified(self.ir, def))),
                }
            }
        }
    }
}

/// The hash of a scalar as an `int` expression.
fn prim_hash(p: Prim, v: &str) -> String {
    match p {
        Prim::Bool => format!("{} ? 1 : 0", operand(v)),
        Prim::U8 | Prim::I8 | Prim::U16 | Prim::I16 | Prim::I32 => v.to_string(),
        Prim::U32 => format!("unchecked((int){})", operand(v)),
        Prim::U64 | Prim::I64 | Prim::F32 | Prim::F64 => {
            format!("global::Pkt.PktValues.Hash({v})")
        }
    }
}

/// The `PktText` method that appends a scalar.
fn prim_text(p: Prim) -> &'static str {
    match p {
        Prim::Bool => "Bool",
        Prim::U64 => "UInt",
        Prim::F32 => "F32",
        Prim::F64 => "F64",
        _ => "Int",
    }
}

/// The value part of a declared type; `None` for an enum, which C# gives
/// value semantics already.
pub(super) fn part(gen: &Gen, def: &TypeDef) -> Option<String> {
    match &def.kind {
        TypeKind::Enum { .. } => None,
        TypeKind::Struct { fields } => Some(record(gen, def, fields, None)),
        TypeKind::Message {
            fields,
            preserve_unknown,
        } => Some(record(
            gen,
            def,
            fields,
            preserve_unknown.then_some("UnknownFields"),
        )),
        TypeKind::Union { variants, .. } => Some(union(gen, def, variants)),
    }
}

/// `value/class` and `value/struct`.
#[derive(Serialize)]
struct RecordValue {
    name: String,
    /// `message` or `struct`, for the docs.
    noun: &'static str,
    seed: i32,
    equal: String,
    hash: String,
    text: String,
}

/// The value part of a struct, message or variable-size struct: `this`
/// (a struct) or `a` (a class) against `other` or `b`, each field of a
/// null `b` reading as its default.
fn record(gen: &Gen, def: &TypeDef, fields: &[Field], extra: Option<&str>) -> String {
    let t = super::templates();
    let fixed = def.layout.is_fixed();
    let level = 2;
    let mut equal = Code::new(level);
    let mut hash = Code::new(level);
    let mut text = Code::new(level);
    let name = type_ident(&def.name);
    if fields.is_empty() && extra.is_none() {
        text.line(&format!(
            "t.Raw({});",
            string_literal(&format!("{name} {{ }}"))
        ));
    }
    // (C# member, what a null value reads it as, type)
    let mut members: Vec<(String, String, &Type)> = fields
        .iter()
        .map(|f| {
            let default = gen.null_default(&f.ty, f.default.as_ref());
            (field_name(def, f), default, &f.ty)
        })
        .collect();
    if let Some(extra) = extra {
        members.push((extra.to_string(), "null".to_string(), &Type::Bytes));
    }
    for (index, (member, default, ty)) in members.iter().enumerate() {
        if fixed {
            let this = format!("this.{member}");
            equal.lines(&gen.equal(ty, &this, &format!("other.{member}"), 0));
            hash.lines(&gen.hash(ty, &this, 0));
        } else {
            let right = format!("b != null ? b.{member} : {default}");
            equal.lines(&gen.equal(ty, &format!("a.{member}"), &right, 0));
            let v = format!("v != null ? v.{member} : {default}");
            hash.lines(&gen.hash(ty, &v, 0));
        }
        let label = if index == 0 {
            format!("{name} {{ {member} = ")
        } else {
            format!(", {member} = ")
        };
        text.line(&format!("t.Raw({});", string_literal(&label)));
        text.lines(&gen.text(ty, &format!("v.{member}"), 0));
    }
    if !members.is_empty() {
        text.line("t.Raw(\" }\");");
    }
    let view = RecordValue {
        noun: if matches!(def.kind, TypeKind::Message { .. }) {
            "message"
        } else {
            "struct"
        },
        seed: seed(&qualified_schema_name(gen, def)),
        name,
        equal: equal.finish(),
        hash: hash.finish(),
        text: text.finish(),
    };
    t.render(if fixed { "value/struct" } else { "value/class" }, &view)
}

/// `value/union`.
#[derive(Serialize)]
struct UnionValue {
    name: String,
    seed: i32,
    /// The first variant's class: the default a null union equals.
    first: String,
    /// Compares the first variant `x` with its default value.
    equal_default: String,
    unknown_open: String,
    variants: Vec<VariantValue>,
}

#[derive(Serialize)]
struct VariantValue {
    name: String,
    tag: u16,
    /// Compares `x.Value` and `y.Value`.
    equal: String,
    /// Whether the union `v` hashes as this variant (a null one hashes as
    /// the first).
    present: String,
    /// Mixes the variant's value into `h`.
    hash: String,
    /// `Union.Variant(`.
    open: String,
    text: String,
}

/// The value part of a union.
fn union(gen: &Gen, def: &TypeDef, variants: &[Variant]) -> String {
    let name = type_ident(&def.name);
    let variant_name =
        |v: &Variant| names::csharp_member_ident(NameKind::Variant, &v.name, &def.name);
    let first = variants.first().expect("unions have variants");
    let first_default = gen.null_default(&first.ty, None);
    let mut equal_default = Code::new(3);
    equal_default.lines(&gen.equal(&first.ty, "x.Value", &first_default, 0));
    let views = variants
        .iter()
        .enumerate()
        .map(|(index, v)| {
            let mut equal = Code::new(4);
            equal.lines(&gen.equal(&v.ty, "x.Value", "y.Value", 0));
            let (present, value) = if index == 0 {
                (
                    "x != null || v == null".to_string(),
                    format!("(x != null ? x.Value : {first_default})"),
                )
            } else {
                ("x != null".to_string(), "x.Value".to_string())
            };
            let mut hash = Code::new(4);
            hash.lines(&gen.hash(&v.ty, &value, 0));
            let mut text = Code::new(4);
            text.lines(&gen.text(&v.ty, "x.Value", 0));
            let class = variant_name(v);
            VariantValue {
                open: string_literal(&format!("{name}.{class}(")),
                name: class,
                tag: v.tag,
                equal: equal.finish(),
                present,
                hash: hash.finish(),
                text: text.finish(),
            }
        })
        .collect();
    let view = UnionValue {
        seed: seed(&qualified_schema_name(gen, def)),
        first: variant_name(first),
        equal_default: equal_default.finish(),
        unknown_open: string_literal(&format!("{name}.Unknown(")),
        variants: views,
        name,
    };
    super::templates().render("value/union", &view)
}
