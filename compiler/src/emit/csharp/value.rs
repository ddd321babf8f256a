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
use super::{field_name, prim_cs, qualified, string_literal, type_ident, NAMING};
use crate::ir::{Field, Prim, Type, TypeDef, TypeKind, Value, Variant};
use crate::names::NameKind;

/// What a value statement does: [`Gen::walk`] renders the template
/// `value/{op}_{constructor}`.
#[derive(Clone, Copy, PartialEq)]
enum Op {
    /// Returns false when `x` and `y` differ.
    Equal,
    /// Mixes the hash of `x` into the local `h`.
    Hash,
    /// Appends `x` as text to the `global::Pkt.PktText` `t`.
    Text,
}

impl Op {
    fn name(self) -> &'static str {
        match self {
            Op::Equal => "equal",
            Op::Hash => "hash",
            Op::Text => "text",
        }
    }
}

/// `value/*_value`: one comparison, hash or text call.
#[derive(Serialize)]
struct Leaf {
    expr: String,
}

/// `value/*_optional`, `value/*_seq` (a list or an array) and
/// `value/*_map`; each template uses what its operation needs.
#[derive(Serialize)]
struct Composite<'a> {
    /// Locals holding the values, its count and the element index.
    x: String,
    y: String,
    n: String,
    i: String,
    /// The value (`left`) and, to compare, the other one.
    left: &'a str,
    right: &'a str,
    /// Optionals: true when `x` is present, and when one of `x` and `y` is
    /// present and the other is not.
    present: String,
    differ: String,
    /// Sequences: how many elements `x` (`y`) counts as (a null list none,
    /// a null array its length of defaults), and its count property.
    count_x: String,
    count_y: String,
    count: &'static str,
    /// Maps: the key's statements; the value's, the element's or the
    /// optional's value's.
    key: Lines,
    value: Lines,
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

    /// The statements of `op` on `x` (and, to compare, `y`) of type `ty`.
    fn walk(&self, op: Op, ty: &Type, x: &str, y: &str, d: usize) -> Lines {
        let t = super::templates();
        let (xs, ys, i) = (format!("x{d}"), format!("y{d}"), format!("i{d}"));
        let mut view = Composite {
            x: xs.clone(),
            y: ys.clone(),
            n: format!("n{d}"),
            i: i.clone(),
            left: x,
            right: y,
            present: String::new(),
            differ: String::new(),
            count_x: String::new(),
            count_y: String::new(),
            count: "",
            key: Lines::new(),
            value: Lines::new(),
        };
        let constructor = match ty {
            Type::Optional(inner) => {
                let (present, xv) = self.optional_access(inner, &xs);
                let (present_y, yv) = self.optional_access(inner, &ys);
                view.differ = if self.is_value(inner) {
                    format!("{present} != {present_y}")
                } else {
                    format!("({present}) != ({present_y})")
                };
                view.present = present;
                view.value = self.walk(op, inner, &xv, &yv, d + 1);
                "optional"
            }
            Type::List(elem) | Type::Array(elem, _) => {
                let (count_x, item_x) = self.seq_access(ty, &xs, &i);
                let (count_y, item_y) = self.seq_access(ty, &ys, &i);
                // Text shows a null array as it is, not as its defaults.
                let item_x = match op {
                    Op::Text => format!("{xs}[{i}]"),
                    _ => item_x,
                };
                view.count_x = count_x;
                view.count_y = operand(&count_y);
                view.count = match ty {
                    Type::List(_) => "Count",
                    _ => "Length",
                };
                view.value = self.walk(op, elem, &item_x, &item_y, d + 1);
                "seq"
            }
            Type::Map(kt, vt) => {
                let at = |m: &str, what: &str| format!("{m}.{what}At({i})");
                view.key = self.walk(op, kt, &at(&xs, "Key"), &at(&ys, "Key"), d + 1);
                view.value = self.walk(op, vt, &at(&xs, "Value"), &at(&ys, "Value"), d + 1);
                "map"
            }
            _ => {
                let expr = match op {
                    Op::Equal => self.differ(ty, x, y),
                    Op::Hash => self.hash_of(ty, x),
                    Op::Text => self.text_call(ty, x),
                };
                return t.lines(&format!("value/{}_value", op.name()), &Leaf { expr });
            }
        };
        t.lines(&format!("value/{}_{constructor}", op.name()), &view)
    }

    /// True when the scalar, string, bytes or named values `x` and `y`
    /// differ.
    fn differ(&self, ty: &Type, x: &str, y: &str) -> String {
        match ty {
            Type::Prim(Prim::F32 | Prim::F64) | Type::String | Type::Bytes => {
                format!("!global::Pkt.PktValues.Equal({x}, {y})")
            }
            Type::Named(r) => {
                let def = self.ir.ty(r.id);
                match def.kind {
                    TypeKind::Enum { .. } => format!("{} != {}", operand(x), operand(y)),
                    TypeKind::Struct { .. } if def.layout.is_fixed() => {
                        format!("!{}.Equals({y})", operand(x))
                    }
                    _ => format!("!{}.PktEquals({x}, {y})", qualified(self.ir, def)),
                }
            }
            _ => format!("{} != {}", operand(x), operand(y)),
        }
    }

    /// The hash of a scalar, string, bytes or named value, an `int`.
    fn hash_of(&self, ty: &Type, v: &str) -> String {
        match ty {
            Type::Prim(p) => prim_hash(*p, v),
            Type::Named(r) => {
                let def = self.ir.ty(r.id);
                match &def.kind {
                    TypeKind::Enum { base, .. } => {
                        prim_hash(*base, &format!("({}){}", prim_cs(*base), operand(v)))
                    }
                    TypeKind::Struct { .. } if def.layout.is_fixed() => {
                        format!("{}.GetHashCode()", operand(v))
                    }
                    _ => format!("{}.PktHash({v})", qualified(self.ir, def)),
                }
            }
            _ => format!("global::Pkt.PktValues.Hash({v})"),
        }
    }

    /// The call appending a scalar, string, bytes or named value to `t`.
    fn text_call(&self, ty: &Type, v: &str) -> String {
        match ty {
            Type::Prim(p) => format!("t.{}({v})", prim_text(*p)),
            Type::String => format!("t.String({v})"),
            Type::Named(r) => {
                let def = self.ir.ty(r.id);
                match def.kind {
                    // The value's name, or its number when the schema has
                    // no name for it.
                    TypeKind::Enum { .. } => format!("t.Raw({}.ToString())", operand(v)),
                    _ => format!("{}.PktAppend(t, {v})", qualified(self.ir, def)),
                }
            }
            _ => format!("t.Bytes({v})"),
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
    let name = type_ident(def);
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
            equal.lines(&gen.walk(Op::Equal, ty, &this, &format!("other.{member}"), 0));
            hash.lines(&gen.walk(Op::Hash, ty, &this, "", 0));
        } else {
            let right = format!("b != null ? b.{member} : {default}");
            equal.lines(&gen.walk(Op::Equal, ty, &format!("a.{member}"), &right, 0));
            let v = format!("v != null ? v.{member} : {default}");
            hash.lines(&gen.walk(Op::Hash, ty, &v, "", 0));
        }
        let label = if index == 0 {
            format!("{name} {{ {member} = ")
        } else {
            format!(", {member} = ")
        };
        text.line(&format!("t.Raw({});", string_literal(&label)));
        text.lines(&gen.walk(Op::Text, ty, &format!("v.{member}"), "", 0));
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
        seed: seed(&gen.ir.qualified_name(def)),
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
    /// The zero variant's class: the default a null union equals.
    zero: String,
    /// Compares the zero variant `x` with its default value.
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
    /// the zero variant).
    present: String,
    /// Mixes the variant's value into `h`.
    hash: String,
    /// `Union.Variant(`.
    open: String,
    text: String,
}

/// The value part of a union.
fn union(gen: &Gen, def: &TypeDef, variants: &[Variant]) -> String {
    let name = type_ident(def);
    let variant_name = |v: &Variant| NAMING.member_ident(NameKind::Variant, &v.name, def);
    let (zero, zero_variant) = def.zero_variant().expect("a union");
    let zero_default = gen.null_default(&zero_variant.ty, None);
    let mut equal_default = Code::new(3);
    equal_default.lines(&gen.walk(Op::Equal, &zero_variant.ty, "x.Value", &zero_default, 0));
    let views = variants
        .iter()
        .enumerate()
        .map(|(index, v)| {
            let mut equal = Code::new(4);
            equal.lines(&gen.walk(Op::Equal, &v.ty, "x.Value", "y.Value", 0));
            let (present, value) = if index == zero {
                (
                    "x != null || v == null".to_string(),
                    format!("(x != null ? x.Value : {zero_default})"),
                )
            } else {
                ("x != null".to_string(), "x.Value".to_string())
            };
            let mut hash = Code::new(4);
            hash.lines(&gen.walk(Op::Hash, &v.ty, &value, "", 0));
            let mut text = Code::new(4);
            text.lines(&gen.walk(Op::Text, &v.ty, "x.Value", "", 0));
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
        seed: seed(&gen.ir.qualified_name(def)),
        zero: variant_name(zero_variant),
        equal_default: equal_default.finish(),
        unknown_open: string_literal(&format!("{name}.Unknown(")),
        variants: views,
        name,
    };
    super::templates().render("value/union", &view)
}
