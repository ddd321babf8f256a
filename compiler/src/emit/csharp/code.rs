//! Codecs: the statements encoding, sizing and decoding one type expression,
//! each rendered from the `templates/csharp/codec/` template of its type
//! constructor with a view model computed here (the scalar stores and loads
//! of fixed-size structs are one line each from a table here: see the `emit`
//! module docs).
//!
//! Locals are named with the nesting depth as suffix (`l0`, `i1`, ...), and
//! every composite opens its own block, so nested fragments never shadow one
//! another. Generated locals start with a lowercase letter, which no schema
//! name can (C# names are converted to UpperCamelCase).

use super::memory::{self, MemoryConst, MemoryExpr};
use super::{float_literal, int_literal, prim_cs, qualified, string_literal, NAMING};
use crate::ir::{DefaultValue, Elem, Ir, Prim, Type, TypeDef, TypeId, TypeKind, Value};
use crate::names::NameKind;
use serde::Serialize;
use std::rc::Rc;

/// Lines of C# at a given indentation (four spaces per level).
pub(super) struct Code {
    text: String,
    level: usize,
}

impl Code {
    pub(super) fn new(level: usize) -> Self {
        Code {
            text: String::new(),
            level,
        }
    }

    pub(super) fn line(&mut self, s: &str) {
        for _ in 0..self.level {
            self.text.push_str("    ");
        }
        self.text.push_str(s);
        self.text.push('\n');
    }

    /// Appends a codec's lines (indented relative to each other) at this
    /// position.
    pub(super) fn lines(&mut self, lines: &Lines) {
        for l in lines {
            self.line(l);
        }
    }

    /// The lines, each ending in a newline (empty when there are none).
    pub(super) fn finish(self) -> String {
        self.text
    }
}

/// The lines of a rendered codec, without indentation of their own beyond
/// their nesting inside the codec. A codec template places its inner codecs'
/// lines with `{{#each}}`, so the indentation lives in the templates.
pub(super) type Lines = Vec<String>;

// View models of the `codec/read_*` templates. `lv` is the lvalue decoded
// into, `field` the `IPktNamed` arguments naming the field for errors.

#[derive(Serialize)]
struct ReadCharge<'a> {
    /// Model bytes of the boxed value, a C# `long` expression.
    bytes: String,
    field: &'a str,
    value: Lines,
}

#[derive(Serialize)]
struct ReadPrim<'a> {
    lv: &'a str,
    method: String,
}

#[derive(Serialize)]
struct ReadString<'a> {
    lv: &'a str,
    method: &'static str,
    /// The value to reuse (`lv`) or `null`.
    current: &'a str,
    field: &'a str,
}

#[derive(Serialize)]
struct ReadOptional<'a> {
    lv: &'a str,
    /// `read_optional_boxed`: the local holding the flag's position, and
    /// the model bytes charged when the value is present.
    b: String,
    bytes: String,
    field: &'a str,
    value: Lines,
}

#[derive(Serialize)]
struct ReadList<'a> {
    lv: &'a str,
    l: String,
    n: String,
    i: String,
    e: String,
    /// Minimum wire size of one element, and its model size (`long`).
    min: u32,
    elem_memory: String,
    field: &'a str,
    list: String,
    /// The count, or empty when elements may take no bytes (the count is
    /// then not bounded by the input).
    capacity: String,
    /// `read_list_into`: grow a reused list once to the checked count,
    /// not by doubling.
    grow: bool,
    elem_type: String,
    /// Decodes into a new local `e`.
    elem: Lines,
    /// `read_list_into`: decodes into a reused element `l[i]`.
    reuse: Lines,
}

#[derive(Serialize)]
struct ReadMap<'a> {
    lv: &'a str,
    /// Reuse the map in `lv`.
    into: bool,
    m: String,
    n: String,
    i: String,
    k: String,
    v: String,
    at: String,
    min: u32,
    /// Model bytes of one key and one value (`long`).
    entry: String,
    field: &'a str,
    map: String,
    /// The key order comparer.
    order: String,
    key_type: String,
    key: Lines,
    value_type: String,
    value: Lines,
}

#[derive(Serialize)]
struct ReadArray<'a> {
    lv: &'a str,
    /// Reuse the array in `lv` when it has the right length.
    into: bool,
    a: String,
    i: String,
    count: u32,
    new_array: String,
    elem: Lines,
}

/// `read_enum`, `read_struct`, `read_object_into`, `read_union`.
#[derive(Serialize)]
struct ReadNamed<'a> {
    lv: &'a str,
    /// The qualified C# type.
    q: String,
    /// `read_enum`: the scalar read.
    method: String,
    /// `read_union`: the variant to reuse, or `null`.
    current: &'a str,
    /// `read_object_into`: `, fresh` when the caller knows it, else empty.
    fresh: String,
}

/// `codec/reset_*`: `default` for `reset_collection` and `reset_value`,
/// `count` and `new_array` for `reset_array`.
#[derive(Serialize)]
struct Reset<'a> {
    lv: &'a str,
    default: String,
    count: u32,
    new_array: String,
}

// View models of the fixed-size struct codecs (`codec/fixed_*`,
// `codec/truncated_*`, `codec/validate_*`); `off` is the byte offset in the
// span `s` as a C# expression.

#[derive(Serialize)]
struct FixedLoad<'a> {
    lv: &'a str,
    /// The straight-line load (see [`load`]).
    load: String,
}

/// A nested struct written from or read into `lv`: the arguments of its
/// `WriteTo` or `ReadInto` (see [`Access::nested_args`]).
#[derive(Serialize)]
struct FixedNested<'a> {
    lv: &'a str,
    args: String,
}

/// A nested struct at `off` for the truncation checks, or the scalar at
/// `off` of `size` bytes for `truncated_value`.
#[derive(Serialize)]
struct FixedStruct<'a> {
    q: String,
    off: &'a str,
    size: u32,
}

#[derive(Serialize)]
struct Truncated {
    /// The offset just past the value.
    end: String,
    /// Returns the error of the value cut off.
    cut: Lines,
    /// Checks the whole value when it is not cut off.
    validate: Lines,
}

#[derive(Serialize)]
struct TruncatedArray {
    i: String,
    e: String,
    elem_off: String,
    elem: Lines,
}

#[derive(Serialize)]
struct ValidateArray {
    i: String,
    count: u32,
    elem: Lines,
}

// View models of the `codec/size_*` templates. `constant` is the fixed part
// of the size of the value inside, absent when it is 0.

#[derive(Serialize)]
struct SizeCall<'a> {
    /// The static method returning the variable part.
    call: &'static str,
    expr: &'a str,
}

#[derive(Serialize)]
struct SizeObject<'a> {
    expr: &'a str,
    default: String,
    /// The nesting level the object's size is computed at.
    depth: &'static str,
}

#[derive(Serialize)]
struct SizeOptional<'a> {
    o: String,
    expr: &'a str,
    constant: Option<u64>,
    value: Lines,
}

#[derive(Serialize)]
struct SizeCollection<'a> {
    var: String,
    i: String,
    expr: &'a str,
    /// Per element.
    constant: Option<u64>,
    /// The elements' variable parts; no loop when empty.
    body: Lines,
}

#[derive(Serialize)]
struct SizeArray<'a> {
    a: String,
    i: String,
    count: u32,
    expr: &'a str,
    member: String,
    elem: Lines,
}

// View models of the `codec/write_*` templates: what to write, and the
// already rendered codecs of the values inside.

#[derive(Serialize)]
struct WriteValue<'a> {
    /// `WriteU8`, `WriteString`, ...
    method: String,
    expr: &'a str,
    /// `, max, "Type.field"` for a field with `@max`, else empty.
    max: String,
}

#[derive(Serialize)]
struct WriteEnum<'a> {
    method: String,
    base: &'static str,
    expr: &'a str,
}

#[derive(Serialize)]
struct WriteStruct<'a> {
    expr: &'a str,
}

#[derive(Serialize)]
struct WriteObject<'a> {
    expr: &'a str,
    /// Written in place of null.
    default: String,
}

#[derive(Serialize)]
struct WriteOptional<'a> {
    o: String,
    expr: &'a str,
    value: Lines,
}

#[derive(Serialize)]
struct WriteList<'a> {
    l: String,
    n: String,
    i: String,
    expr: &'a str,
    max: String,
    elem: Lines,
}

#[derive(Serialize)]
struct WriteMap<'a> {
    m: String,
    n: String,
    i: String,
    expr: &'a str,
    max: String,
    key: Lines,
    value: Lines,
}

#[derive(Serialize)]
struct WriteArray<'a> {
    a: String,
    i: String,
    count: u32,
    expr: &'a str,
    /// The member as a C# string literal, for the wrong-length exception.
    member: String,
    elem: Lines,
}

fn prim_method(p: Prim) -> &'static str {
    match p {
        Prim::Bool => "Bool",
        Prim::U8 => "U8",
        Prim::U16 => "U16",
        Prim::U32 => "U32",
        Prim::U64 => "U64",
        Prim::I8 => "I8",
        Prim::I16 => "I16",
        Prim::I32 => "I32",
        Prim::I64 => "I64",
        Prim::F32 => "F32",
        Prim::F64 => "F64",
    }
}

/// `new T[n]`, with the length in the right place for jagged arrays.
/// Arrays up to this many elements with a default other than the CLR zero
/// value are initialised with each element written out; longer ones with a
/// loop (`Pkt.PktArrays`), so that generated code grows with the schema's
/// text, not with its array lengths.
const MAX_LISTED_DEFAULTS: u32 = 16;

fn new_array(elem: &str, n: u32) -> String {
    let mut base = elem;
    let mut suffix = String::new();
    while let Some(b) = base.strip_suffix("[]") {
        base = b;
        suffix.push_str("[]");
    }
    format!("new {base}[{n}]{suffix}")
}

fn offset(base: &str, index: &str, size: u32) -> String {
    let scaled = if size == 1 {
        index.to_string()
    } else {
        format!("{index} * {size}")
    };
    if base == "0" {
        scaled
    } else {
        format!("{base} + {scaled}")
    }
}

/// The `@max` arguments of a write call: the bound and the name of the
/// part reported on violation (`Type.field`, `Type.field[]`), or nothing.
fn max_args(max: Option<u32>, place: &str) -> String {
    match max {
        Some(m) => format!(", {m}, {}", string_literal(place)),
        None => String::new(),
    }
}

/// What errors call an element, key or value of the part `place`.
fn step(place: &str, step: &str) -> String {
    format!("{place}{step}")
}

/// What a decode statement needs to know about where it is.
pub(super) struct ReadCx<'a> {
    /// C# string literal naming the innermost declared field (`Type.field`)
    /// or union variant, for budget errors.
    pub field: &'a str,
    /// The part being read as `@max` errors name it (`Type.field`,
    /// `Type.field[]`).
    pub place: String,
    /// C# expression: whether the value read into still holds the defaults
    /// it was constructed with (absent fields then need no reset).
    pub fresh: &'a str,
    /// Model bytes charged when the value is present, for a boxed (cyclic)
    /// field or variant ([`Ir::boxed_memory`]), a C# `long` expression.
    pub boxed: Option<String>,
}

impl ReadCx<'_> {
    /// The context of a value nested inside this one (a list element, an
    /// optional's value): same field, nothing boxed.
    fn nested<'b>(&'b self, fresh: &'b str) -> ReadCx<'b> {
        self.part(fresh, "")
    }

    /// The context of an element (`step` `[]`), key (`[key]`) or value
    /// (`[value]`) of this value.
    fn part<'b>(&'b self, fresh: &'b str, step_name: &str) -> ReadCx<'b> {
        ReadCx {
            field: self.field,
            place: step(&self.place, step_name),
            fresh,
            boxed: None,
        }
    }
}

pub(super) struct Gen<'a> {
    pub ir: &'a Ir,
    /// The unsafe output (`GenOptions::unsafe_code`).
    pub unsafe_code: bool,
    /// The member being generated as errors name it (`Type.field`), for the
    /// wrong-array-length exception.
    pub member: &'a str,
    /// Per declared type (structs only): the default expression, `None` when
    /// the CLR zero value is right.
    struct_defaults: Rc<Vec<Option<String>>>,
    /// Per declared type (structs only): see [`Gen::raw`].
    raw: Rc<Vec<bool>>,
    /// Per declared type: its `PktMemory` constant, if it has one.
    memory: Rc<Vec<Option<MemoryConst>>>,
}

/// The structs, each after every struct it contains. Struct containment is
/// acyclic (layout rejects cycles) but may nest as deep as the schema has
/// declarations, so the walk keeps its own stack.
fn structs_inner_first(ir: &Ir) -> Vec<TypeId> {
    fn inner(ty: &Type) -> Option<TypeId> {
        match ty {
            Type::Named(r) => Some(r.id),
            Type::Array(t, _) => inner(t),
            _ => None,
        }
    }
    let is_struct = |id: TypeId| matches!(ir.ty(id).kind, TypeKind::Struct { .. });
    let mut done = vec![false; ir.types.len()];
    let mut order = Vec::new();
    for root in (0..ir.types.len()).map(TypeId) {
        if done[root.0] || !is_struct(root) {
            continue;
        }
        // (struct, index of the next field to follow)
        let mut stack = vec![(root, 0)];
        done[root.0] = true;
        while let Some((id, next)) = stack.last_mut() {
            let id = *id;
            let fields = ir.ty(id).kind.fields();
            let Some(f) = fields.get(*next) else {
                order.push(id);
                stack.pop();
                continue;
            };
            *next += 1;
            if let Some(t) = inner(&f.ty).filter(|&t| is_struct(t) && !done[t.0]) {
                done[t.0] = true;
                stack.push((t, 0));
            }
        }
    }
    order
}

impl<'a> Gen<'a> {
    pub(super) fn new(ir: &'a Ir, unsafe_code: bool) -> Gen<'a> {
        let n = ir.types.len();
        let mut gen = Gen {
            ir,
            unsafe_code,
            member: "",
            struct_defaults: Rc::new(vec![None; n]),
            raw: Rc::new(vec![false; n]),
            memory: Rc::new(memory::constants(ir)),
        };
        for id in structs_inner_first(ir) {
            let fields = ir.ty(id).kind.fields();
            let default = gen.struct_default(ir.ty(id), fields);
            // A quantized float's memory is not its encoding.
            let raw = fields.iter().all(|f| match &f.ty {
                _ if f.quantize.is_some() => false,
                Type::Prim(p) => *p != Prim::Bool,
                Type::Named(r) => match &ir.ty(r.id).kind {
                    TypeKind::Enum { .. } => true,
                    TypeKind::Struct { .. } => gen.raw[r.id.0],
                    _ => false,
                },
                _ => false,
            });
            Rc::make_mut(&mut gen.struct_defaults)[id.0] = default;
            Rc::make_mut(&mut gen.raw)[id.0] = raw;
        }
        gen
    }

    /// The same generator for one member (`Type.field`), which errors name.
    pub(super) fn for_member<'b>(&'b self, member: &'b str) -> Gen<'b> {
        Gen {
            ir: self.ir,
            unsafe_code: self.unsafe_code,
            member,
            struct_defaults: Rc::clone(&self.struct_defaults),
            raw: Rc::clone(&self.raw),
            memory: Rc::clone(&self.memory),
        }
    }

    /// The type's `PktMemory` constant, if it has one ([`memory::constants`]).
    pub(super) fn memory_const(&self, id: TypeId) -> Option<&MemoryConst> {
        self.memory[id.0].as_ref()
    }

    /// What a boxed field or variant of type `ty` is charged when present
    /// ([`Ir::boxed_memory`]), a C# `long` expression.
    pub(super) fn boxed_memory(&self, ty: &Type) -> String {
        match ty {
            Type::Optional(t) => self.memory_expr(t),
            t => self.memory_expr(t),
        }
        .to_string()
    }

    /// The model of a value of type `ty` stored inline, as a C# `long`
    /// expression that names the `PktMemory` constants of the declared
    /// types it holds where they have one ([`memory::inline`]).
    pub(super) fn memory_expr(&self, ty: &Type) -> MemoryExpr {
        memory::inline(self.ir, &self.memory, ty, false, memory::Within::Charge)
            .unwrap_or_else(|| MemoryExpr::Literal(self.ir.memory(ty).size))
    }

    /// Whether a struct's C# memory layout, declared `Sequential, Pack = 1`,
    /// is exactly its wire layout: every field a scalar other than `bool`, an
    /// enum, or such a struct. `bool` is excluded because it makes .NET leave
    /// the managed layout unspecified (and every byte must be checked to be 0
    /// or 1); arrays because they are references in C#.
    pub(super) fn raw(&self, id: TypeId) -> bool {
        self.raw[id.0]
    }

    /// `new Q { F = default, ... }` for the fields whose default is not the
    /// CLR zero value, or `None`. Arrays inside structs stay null (null
    /// encodes as the array of defaults), so a default struct costs nothing.
    fn struct_default(&self, def: &TypeDef, fields: &[crate::ir::Field]) -> Option<String> {
        let inits: Vec<String> = fields
            .iter()
            .filter(|f| !matches!(f.ty, Type::Array(..)))
            .filter_map(|f| {
                self.default_expr(&f.ty, f.default.as_ref()).map(|d| {
                    format!(
                        "{} = {d}",
                        NAMING.member_ident(NameKind::Field, &f.name, def)
                    )
                })
            })
            .collect();
        let q = qualified(self.ir, def);
        (!inits.is_empty()).then(|| format!("new {q} {{ {} }}", inits.join(", ")))
    }
}

impl Gen<'_> {
    /// The C# type of a type expression.
    pub(super) fn cs_type(&self, ty: &Type) -> String {
        match ty {
            Type::Prim(p) => prim_cs(*p).to_string(),
            Type::String => "string".to_string(),
            Type::Bytes => "byte[]".to_string(),
            Type::List(t) => format!(
                "global::System.Collections.Generic.List<{}>",
                self.cs_type(t)
            ),
            Type::Map(k, v) => format!(
                "global::Pkt.PktMap<{}, {}>",
                self.cs_type(k),
                self.cs_type(v)
            ),
            Type::Array(t, _) => format!("{}[]", self.cs_type(t)),
            Type::Optional(t) => {
                if self.is_value(t) {
                    format!("{}?", self.cs_type(t))
                } else {
                    self.cs_type(t)
                }
            }
            Type::Named(r) => qualified(self.ir, self.ir.ty(r.id)),
        }
    }

    /// Whether the C# type is a value type (so optionals become `T?`).
    pub(super) fn is_value(&self, ty: &Type) -> bool {
        match ty {
            Type::Prim(_) => true,
            Type::Named(r) => {
                matches!(
                    self.ir.ty(r.id).kind,
                    TypeKind::Struct { .. } | TypeKind::Enum { .. }
                ) && !self.is_var_struct(ty)
            }
            _ => false,
        }
    }

    /// Whether the type is a variable-size struct: a class, encoded like a
    /// message without its length prefix and nesting level.
    fn is_var_struct(&self, ty: &Type) -> bool {
        match ty {
            Type::Named(r) => {
                let def = self.ir.ty(r.id);
                matches!(def.kind, TypeKind::Struct { .. }) && !def.layout.is_fixed()
            }
            _ => false,
        }
    }

    fn fixed_size(&self, ty: &Type) -> Option<u32> {
        self.ir.layout(ty).fixed_size()
    }

    pub(super) fn min_size(&self, ty: &Type) -> u32 {
        self.ir.layout(ty).min_size()
    }

    /// Whether a default value of `ty` may be shared by the elements of an
    /// array: a value type (number, enum, fixed-size struct) or an
    /// immutable string.
    fn is_value_like(&self, ty: &Type) -> bool {
        match ty {
            Type::Prim(_) | Type::String => true,
            Type::Named(r) => match self.ir.ty(r.id).kind {
                TypeKind::Enum { .. } => true,
                TypeKind::Struct { .. } => self.ir.ty(r.id).layout.is_fixed(),
                _ => false,
            },
            _ => false,
        }
    }

    /// The expression of [`crate::ir::Ir::default_value`], or `None` when
    /// the CLR zero value (`default(T)`) is already right.
    pub(super) fn default_expr(&self, ty: &Type, declared: Option<&Value>) -> Option<String> {
        let q = |r: &crate::ir::TypeRef| qualified(self.ir, self.ir.ty(r.id));
        match (self.ir.default_value(ty, declared), ty) {
            (
                DefaultValue::Declared(Value::Bool(false) | Value::Int(0))
                | DefaultValue::Scalar(_)
                | DefaultValue::Absent,
                _,
            ) => None,
            (DefaultValue::Declared(Value::Float(f)), _) if *f == 0.0 && f.is_sign_positive() => {
                None
            }
            (DefaultValue::Declared(Value::Bool(true)), _) => Some("true".to_string()),
            (DefaultValue::Declared(Value::Int(v)), Type::Prim(p)) => Some(int_literal(*p, *v)),
            (DefaultValue::Declared(Value::Float(f)), Type::Prim(p)) => Some(float_literal(*p, *f)),
            (DefaultValue::Declared(Value::String(s)), _) => Some(string_literal(s)),
            (DefaultValue::Declared(Value::Enum { index, .. }), Type::Named(r)) => {
                let TypeKind::Enum { values, .. } = &self.ir.ty(r.id).kind else {
                    panic!("an enum default for {ty}");
                };
                Some(format!(
                    "{}.{}",
                    q(r),
                    NAMING.member_ident(NameKind::Variant, &values[*index].name, self.ir.ty(r.id))
                ))
            }
            (DefaultValue::Declared(other), _) => {
                panic!("a {} default for {ty}", value_kind(other))
            }
            (DefaultValue::Empty, Type::String) => Some("\"\"".to_string()),
            (DefaultValue::Empty, Type::Bytes) => {
                Some("global::System.Array.Empty<byte>()".to_string())
            }
            (DefaultValue::Empty, Type::Map(k, _)) => {
                Some(format!("new {}({})", self.cs_type(ty), self.key_order(k)))
            }
            (DefaultValue::Empty, _) => Some(format!("new {}()", self.cs_type(ty))),
            (DefaultValue::Array { elem: t, len: n }, _) => {
                Some(match self.default_expr(t, None) {
                    None => new_array(&self.cs_type(t), n),
                    Some(d) if n <= MAX_LISTED_DEFAULTS => {
                        let items = vec![d; n as usize].join(", ");
                        format!("new {}[] {{ {items} }}", self.cs_type(t))
                    }
                    // Value types and strings are copied; objects are made
                    // anew for each element.
                    Some(d) if self.is_value_like(t) => format!(
                        "global::Pkt.PktArrays.Filled<{}>({n}, {d})",
                        self.cs_type(t)
                    ),
                    Some(d) => format!(
                        "global::Pkt.PktArrays.New<{}>({n}, () => {d})",
                        self.cs_type(t)
                    ),
                })
            }
            // A C# enum's zero is the number 0, which the first value may
            // not have.
            (DefaultValue::EnumValue { value, .. }, Type::Named(r)) => {
                (value.value != 0).then(|| {
                    format!(
                        "{}.{}",
                        q(r),
                        NAMING.member_ident(NameKind::Variant, &value.name, self.ir.ty(r.id))
                    )
                })
            }
            (DefaultValue::Fields(_), Type::Named(r)) => {
                let def = self.ir.ty(r.id);
                if matches!(def.kind, TypeKind::Struct { .. }) && def.layout.is_fixed() {
                    self.struct_defaults[r.id.0].clone()
                } else {
                    Some(format!("new {}()", q(r)))
                }
            }
            (DefaultValue::Variant { variant, .. }, Type::Named(r)) => Some(format!(
                "new {}.{}()",
                q(r),
                NAMING.member_ident(NameKind::Variant, &variant.name, self.ir.ty(r.id))
            )),
            (_, _) => unreachable!("a declared type's zero value for {ty}"),
        }
    }

    /// The default as an expression, falling back to `default(T)`.
    fn default_or_zero(&self, ty: &Type) -> String {
        self.default_expr(ty, None)
            .unwrap_or_else(|| format!("default({})", self.cs_type(ty)))
    }

    /// What a null fixed-length array contributes per element: the element
    /// default for value types, null (which encodes as the default) otherwise.
    pub(super) fn element_default(&self, ty: &Type) -> String {
        if self.is_value(ty) {
            self.default_or_zero(ty)
        } else {
            format!("default({})", self.cs_type(ty))
        }
    }

    /// The wire-order comparer for a map key type.
    pub(super) fn key_order(&self, k: &Type) -> String {
        match k {
            Type::Prim(p) => format!("global::Pkt.PktKeyOrders.{}", prim_method(*p)),
            Type::String => "global::Pkt.PktKeyOrders.String".to_string(),
            Type::Named(r) => format!("{}_KeyOrder.Instance", qualified(self.ir, self.ir.ty(r.id))),
            other => panic!("{other} cannot be a map key"),
        }
    }

    /// Adds statements that add the variable part of `expr`'s encoded size to
    /// `n`; returns the constant part.
    pub(super) fn size_lines(&self, lines: &mut Lines, ty: &Type, expr: &str) -> u64 {
        let (constant, more) = self.size_codec(ty, expr, 0);
        lines.extend(more);
        constant
    }

    /// The size codec of a type expression: the constant part of its size,
    /// and the lines (from the `codec/size_*` template of its type
    /// constructor) adding the variable part to `n`.
    fn size_codec(&self, ty: &Type, expr: &str, d: usize) -> (u64, Lines) {
        if let Some(size) = self.fixed_size(ty) {
            return (u64::from(size), Lines::new());
        }
        let t = super::templates();
        match ty {
            Type::String | Type::Bytes => {
                let call = if *ty == Type::String {
                    "global::Pkt.PktUtf8.ByteCount"
                } else {
                    "global::Pkt.PktWriter.BytesLength"
                };
                (4, t.lines("codec/size_call", &SizeCall { call, expr }))
            }
            Type::Optional(inner) => {
                let o = format!("o{d}");
                let value = if self.is_value(inner) {
                    format!("{o}.Value")
                } else {
                    o.clone()
                };
                let (k, value) = self.size_codec(inner, &value, d + 1);
                let view = SizeOptional {
                    o,
                    expr,
                    constant: (k > 0).then_some(k),
                    value,
                };
                (1, t.lines("codec/size_optional", &view))
            }
            Type::List(elem) => {
                let (l, i) = (format!("l{d}"), format!("i{d}"));
                let item = format!("{l}[{i}]");
                self.collection_size(l, i, expr, &[(elem, item)], d)
            }
            Type::Map(kt, vt) => {
                let (m, i) = (format!("m{d}"), format!("i{d}"));
                let elems = [
                    (&kt.ty, format!("{m}.KeyAt({i})")),
                    (&vt.ty, format!("{m}.ValueAt({i})")),
                ];
                self.collection_size(m, i, expr, &elems, d)
            }
            Type::Array(elem, count) => {
                let (a, i) = (format!("a{d}"), format!("i{d}"));
                let item = format!("({a} != null ? {a}[{i}] : {})", self.element_default(elem));
                let (k, elem) = self.size_codec(elem, &item, d + 1);
                let view = SizeArray {
                    a,
                    i,
                    count: *count,
                    expr,
                    member: string_literal(self.member),
                    elem,
                };
                (k * u64::from(*count), t.lines("codec/size_array", &view))
            }
            Type::Named(_) => {
                // A variable-size struct is no nesting level.
                let depth = if self.is_var_struct(ty) {
                    "depth"
                } else {
                    "depth + 1"
                };
                let view = SizeObject {
                    expr,
                    default: self.default_or_zero(ty),
                    depth,
                };
                (0, t.lines("codec/size_object", &view))
            }
            Type::Prim(_) => unreachable!("scalars are fixed-size"),
        }
    }

    /// The size of a list or map: its count prefix, `Count` times the fixed
    /// part of one element, and a loop over the elements for the rest.
    fn collection_size(
        &self,
        var: String,
        i: String,
        expr: &str,
        elems: &[(&Type, String)],
        d: usize,
    ) -> (u64, Lines) {
        let mut constant = 0;
        let mut body = Lines::new();
        for (t, e) in elems {
            let (k, lines) = self.size_codec(t, e, d + 1);
            constant += k;
            body.extend(lines);
        }
        let view = SizeCollection {
            var,
            i,
            expr,
            constant: (constant > 0).then_some(constant),
            body,
        };
        (4, super::templates().lines("codec/size_collection", &view))
    }

    /// Statements writing `expr` to the writer `w`.
    pub(super) fn write(&self, c: &mut Code, ty: &Type, expr: &str, max: Option<u32>, d: usize) {
        c.lines(&self.write_codec(ty, expr, max, self.member, d));
    }

    /// The write codec of a type expression: its lines, unindented, from the
    /// `codec/write_*` template of its type constructor. `max` is the
    /// `@max` on it, which errors report for `place`.
    fn write_codec(&self, ty: &Type, expr: &str, max: Option<u32>, place: &str, d: usize) -> Lines {
        let t = super::templates();
        match ty {
            Type::Prim(p) => t.lines(
                "codec/write_value",
                &WriteValue {
                    method: format!("Write{}", prim_method(*p)),
                    expr,
                    max: String::new(),
                },
            ),
            Type::String | Type::Bytes => t.lines(
                "codec/write_value",
                &WriteValue {
                    method: if *ty == Type::String {
                        "WriteString"
                    } else {
                        "WriteBytes"
                    }
                    .to_string(),
                    expr,
                    max: max_args(max, place),
                },
            ),
            Type::Optional(inner) => {
                let o = format!("o{d}");
                let value = if self.is_value(inner) {
                    format!("{o}.Value")
                } else {
                    o.clone()
                };
                let value = self.write_codec(inner, &value, max, place, d + 1);
                t.lines("codec/write_optional", &WriteOptional { o, expr, value })
            }
            // Numbers: the runtime's WriteList claims their bytes at once.
            Type::List(elem) if matches!(elem.ty, Type::Prim(_)) => t.lines(
                "codec/write_list_numbers",
                &WriteValue {
                    method: String::new(),
                    expr,
                    max: max_args(max, place),
                },
            ),
            Type::List(elem) => {
                let (l, n, i) = (format!("l{d}"), format!("c{d}"), format!("i{d}"));
                let item = format!("{l}[{i}]");
                let elem = self.write_codec(elem, &item, elem.max, &step(place, "[]"), d + 1);
                t.lines(
                    "codec/write_list",
                    &WriteList {
                        l,
                        n,
                        i,
                        expr,
                        max: max_args(max, place),
                        elem,
                    },
                )
            }
            Type::Map(kt, vt) => {
                let (m, n, i) = (format!("m{d}"), format!("c{d}"), format!("i{d}"));
                let (key, value) = (format!("{m}.KeyAt({i})"), format!("{m}.ValueAt({i})"));
                let key = self.write_codec(kt, &key, kt.max, &step(place, "[key]"), d + 1);
                let value = self.write_codec(vt, &value, vt.max, &step(place, "[value]"), d + 1);
                t.lines(
                    "codec/write_map",
                    &WriteMap {
                        m,
                        n,
                        i,
                        expr,
                        max: max_args(max, place),
                        key,
                        value,
                    },
                )
            }
            Type::Array(elem, count) => {
                let (a, i) = (format!("a{d}"), format!("i{d}"));
                let item = format!("({a} != null ? {a}[{i}] : {})", self.element_default(elem));
                let elem = self.write_codec(elem, &item, elem.max, &step(place, "[]"), d + 1);
                t.lines(
                    "codec/write_array",
                    &WriteArray {
                        a,
                        i,
                        count: *count,
                        expr,
                        member: string_literal(self.member),
                        elem,
                    },
                )
            }
            Type::Named(r) => {
                let def = self.ir.ty(r.id);
                match &def.kind {
                    TypeKind::Enum { base, .. } => t.lines(
                        "codec/write_enum",
                        &WriteEnum {
                            method: format!("Write{}", prim_method(*base)),
                            base: prim_cs(*base),
                            expr,
                        },
                    ),
                    TypeKind::Struct { .. } if def.layout.is_fixed() => {
                        t.lines("codec/write_struct", &WriteStruct { expr })
                    }
                    TypeKind::Struct { .. } | TypeKind::Message { .. } | TypeKind::Union { .. } => {
                        t.lines(
                            "codec/write_object",
                            &WriteObject {
                                expr,
                                default: self.default_or_zero(ty),
                            },
                        )
                    }
                }
            }
        }
    }

    /// Statements decoding from the reader `r` into the lvalue `lv`. With
    /// `into`, `lv` holds a value whose lists, maps, arrays, messages and
    /// union variants are reused; otherwise `lv` may be unassigned.
    pub(super) fn read_lines(&self, ty: &Type, lv: &str, into: bool, cx: &ReadCx) -> Lines {
        self.read_codec(ty, lv, into, cx, 0)
    }

    /// The read codec of a type expression: its lines from the
    /// `codec/read_*` template of its type constructor. A boxed (cyclic)
    /// value is charged first (`read_charge`), except an optional, which
    /// charges only when present (`read_optional_boxed`).
    fn read_codec(&self, ty: &Type, lv: &str, into: bool, cx: &ReadCx, d: usize) -> Lines {
        let lines = self.read_unboxed(ty, lv, into, cx, d);
        match (&cx.boxed, ty) {
            (Some(m), ty) if !matches!(ty, Type::Optional(_)) => super::templates().lines(
                "codec/read_charge",
                &ReadCharge {
                    bytes: m.clone(),
                    field: cx.field,
                    value: lines,
                },
            ),
            _ => lines,
        }
    }

    /// The read codec of an element, key or value: its `@max` checked on
    /// its prefix first (`PeekMax`), as a field's is.
    fn read_part(&self, e: &Elem, lv: &str, into: bool, cx: &ReadCx, d: usize) -> Lines {
        let mut lines = Lines::new();
        if let Some(max) = e.max {
            lines.push(format!(
                "r.PeekMax({max}, {}, {});",
                string_literal(&cx.place),
                matches!(e.ty, Type::Optional(_))
            ));
        }
        lines.extend(self.read_codec(&e.ty, lv, into, cx, d));
        lines
    }

    /// The read codec of a value that is not boxed (or whose box is
    /// charged around it): one step per type constructor.
    fn read_unboxed(&self, ty: &Type, lv: &str, into: bool, cx: &ReadCx, d: usize) -> Lines {
        match ty {
            Type::Prim(p) => super::templates().lines(
                "codec/read_prim",
                &ReadPrim {
                    lv,
                    method: format!("Read{}", prim_method(*p)),
                },
            ),
            Type::String | Type::Bytes => self.read_string(ty, lv, into, cx),
            Type::Optional(inner) => self.read_optional(inner, lv, into, cx, d),
            Type::List(elem) => self.read_list(ty, elem, lv, into, cx, d),
            Type::Map(kt, vt) => self.read_map(ty, (kt, vt), lv, into, cx, d),
            Type::Array(elem, count) => self.read_array(elem, *count, lv, into, cx, d),
            Type::Named(r) => self.read_named(r.id, lv, into, cx),
        }
    }

    /// A string or bytes: read anew, or into the current value's storage
    /// with `into`.
    fn read_string(&self, ty: &Type, lv: &str, into: bool, cx: &ReadCx) -> Lines {
        super::templates().lines(
            "codec/read_string",
            &ReadString {
                lv,
                method: if *ty == Type::String {
                    "ReadString"
                } else {
                    "ReadBytes"
                },
                current: if into { lv } else { "null" },
                field: cx.field,
            },
        )
    }

    /// `T?`: the flag, then `T`; a boxed one is charged only when present.
    fn read_optional(&self, inner: &Type, lv: &str, into: bool, cx: &ReadCx, d: usize) -> Lines {
        let t = super::templates();
        let value = self.read_codec(inner, lv, into, &cx.nested(cx.fresh), d + 1);
        match &cx.boxed {
            Some(m) => t.lines(
                "codec/read_optional_boxed",
                &ReadOptional {
                    lv,
                    b: format!("b{d}"),
                    bytes: m.clone(),
                    field: cx.field,
                    value,
                },
            ),
            None => t.lines(
                "codec/read_optional",
                &ReadOptional {
                    lv,
                    b: String::new(),
                    bytes: String::new(),
                    field: cx.field,
                    value,
                },
            ),
        }
    }

    /// A list: its count checked against the bytes left and charged, then
    /// each element (numbers at once by the runtime); with `into`, the
    /// existing elements are decoded into.
    fn read_list(
        &self,
        ty: &Type,
        elem_ty: &Elem,
        lv: &str,
        into: bool,
        cx: &ReadCx,
        d: usize,
    ) -> Lines {
        let (l, n, i, e) = (
            format!("l{d}"),
            format!("c{d}"),
            format!("i{d}"),
            format!("e{d}"),
        );
        let min = self.min_size(elem_ty);
        let nested = cx.part("false", "[]");
        let reuse = if into {
            self.read_part(elem_ty, &format!("{l}[{i}]"), true, &nested, d + 1)
        } else {
            Lines::new()
        };
        let view = ReadList {
            lv,
            min,
            elem_memory: self.memory_expr(elem_ty).to_string(),
            field: cx.field,
            list: self.cs_type(ty),
            capacity: if min > 0 { n.clone() } else { String::new() },
            grow: min > 0,
            elem_type: self.cs_type(elem_ty),
            elem: self.read_part(elem_ty, &e, false, &nested, d + 1),
            reuse,
            l,
            n,
            i,
            e,
        };
        // Numbers: the runtime's ReadList appends them at once.
        let name = match (into, matches!(elem_ty.ty, Type::Prim(_))) {
            (true, true) => "codec/read_list_numbers_into",
            (false, true) => "codec/read_list_numbers",
            (true, false) => "codec/read_list_into",
            (false, false) => "codec/read_list",
        };
        super::templates().lines(name, &view)
    }

    /// A map: its count checked and each entry read, key then value; the
    /// runtime charges the map's nodes.
    fn read_map(
        &self,
        ty: &Type,
        (kt, vt): (&Elem, &Elem),
        lv: &str,
        into: bool,
        cx: &ReadCx,
        d: usize,
    ) -> Lines {
        let entry = self.memory_expr(kt).add(self.memory_expr(vt));
        let (k, v) = (format!("k{d}"), format!("v{d}"));
        let (key_cx, value_cx) = (cx.part("false", "[key]"), cx.part("false", "[value]"));
        let view = ReadMap {
            lv,
            into,
            min: self.min_size(kt) + self.min_size(vt),
            entry: entry.to_string(),
            field: cx.field,
            map: self.cs_type(ty),
            order: self.key_order(kt),
            key_type: self.cs_type(kt),
            key: self.read_part(kt, &k, false, &key_cx, d + 1),
            value_type: self.cs_type(vt),
            value: self.read_part(vt, &v, false, &value_cx, d + 1),
            m: format!("m{d}"),
            n: format!("c{d}"),
            i: format!("i{d}"),
            at: format!("at{d}"),
            k,
            v,
        };
        super::templates().lines("codec/read_map", &view)
    }

    /// `[T; N]`: each element into a new array, or into the existing one
    /// with `into`.
    fn read_array(
        &self,
        elem_ty: &Elem,
        count: u32,
        lv: &str,
        into: bool,
        cx: &ReadCx,
        d: usize,
    ) -> Lines {
        let (a, i) = (format!("a{d}"), format!("i{d}"));
        // A reused array's elements are fresh only if the array is.
        let fresh = if into { cx.fresh } else { "false" };
        let elem = format!("{a}[{i}]");
        let view = ReadArray {
            lv,
            into,
            count,
            new_array: new_array(&self.cs_type(elem_ty), count),
            elem: self.read_part(elem_ty, &elem, true, &cx.part(fresh, "[]"), d + 1),
            a,
            i,
        };
        super::templates().lines("codec/read_array", &view)
    }

    /// A declared type, through its own reader: an enum's number, a
    /// struct, message or union by its class; a variable-size one decoded
    /// into the current object with `into`.
    fn read_named(&self, id: TypeId, lv: &str, into: bool, cx: &ReadCx) -> Lines {
        let t = super::templates();
        let def = self.ir.ty(id);
        let view = |method: String, fresh: String| ReadNamed {
            lv,
            q: qualified(self.ir, def),
            method,
            current: if into { lv } else { "null" },
            fresh,
        };
        match &def.kind {
            TypeKind::Enum { base, .. } => t.lines(
                "codec/read_enum",
                &view(format!("Read{}", prim_method(*base)), String::new()),
            ),
            TypeKind::Struct { .. } | TypeKind::Message { .. }
                if into && !def.layout.is_fixed() =>
            {
                let fresh = if cx.fresh == "false" {
                    String::new()
                } else {
                    format!(", {}", cx.fresh)
                };
                t.lines("codec/read_object_into", &view(String::new(), fresh))
            }
            TypeKind::Struct { .. } | TypeKind::Message { .. } => {
                t.lines("codec/read_struct", &view(String::new(), String::new()))
            }
            TypeKind::Union { .. } => {
                t.lines("codec/read_union", &view(String::new(), String::new()))
            }
        }
    }

    /// The lines giving a field its default when old data ends before it:
    /// lists and maps are cleared, arrays of zero-valued elements cleared in
    /// place, anything else assigned its default.
    pub(super) fn reset(&self, ty: &Type, lv: &str, declared: Option<&Value>) -> Lines {
        let t = super::templates();
        match ty {
            Type::List(_) | Type::Map(..) => t.lines(
                "codec/reset_collection",
                &Reset {
                    lv,
                    default: self.default_or_zero(ty),
                    count: 0,
                    new_array: String::new(),
                },
            ),
            Type::Array(elem, n) if self.default_expr(elem, None).is_none() => t.lines(
                "codec/reset_array",
                &Reset {
                    lv,
                    default: String::new(),
                    count: *n,
                    new_array: new_array(&self.cs_type(elem), *n),
                },
            ),
            _ => {
                let default = self
                    .default_expr(ty, declared)
                    .unwrap_or_else(|| format!("default({})", self.cs_type(ty)));
                let view = Reset {
                    lv,
                    default,
                    count: 0,
                    new_array: String::new(),
                };
                t.lines("codec/reset_value", &view)
            }
        }
    }

    /// Statements storing `expr` at byte offset `off` (a C# expression) of
    /// the value's bytes, reached through `access`. A scalar is one
    /// straight-line store (see [`store`]); an array loops with the
    /// `write_array` codec; a struct calls its own stores.
    pub(super) fn fixed_write(
        &self,
        access: Access,
        ty: &Type,
        expr: &str,
        off: &str,
        d: usize,
    ) -> Lines {
        let t = super::templates();
        match ty {
            Type::Prim(p) => vec![store(access, *p, expr, off)],
            Type::Array(elem, n) => {
                let (a, i) = (format!("a{d}"), format!("i{d}"));
                let size = self.fixed_size(elem).expect("struct arrays are fixed");
                let item = format!("({a} != null ? {a}[{i}] : {})", self.element_default(elem));
                let lines = self.fixed_write(access, elem, &item, &offset(off, &i, size), d + 1);
                let view = WriteArray {
                    a,
                    i,
                    count: *n,
                    expr,
                    member: string_literal(self.member),
                    elem: lines,
                };
                t.lines("codec/write_array", &view)
            }
            Type::Named(r) => {
                let def = self.ir.ty(r.id);
                match &def.kind {
                    TypeKind::Enum { base, .. } => {
                        vec![store(
                            access,
                            *base,
                            &format!("({}){expr}", prim_cs(*base)),
                            off,
                        )]
                    }
                    TypeKind::Struct { .. } => t.lines(
                        "codec/fixed_write_struct",
                        &FixedNested {
                            lv: expr,
                            args: access.nested_args(off, false),
                        },
                    ),
                    _ => unreachable!("only fixed-size types are inside structs"),
                }
            }
            _ => unreachable!("only fixed-size types are inside structs"),
        }
    }

    /// Statements loading the value at byte offset `off` of the value's
    /// bytes, reached through `access`, into `lv`; `at` is the absolute
    /// offset of the value's first byte, for errors.
    pub(super) fn fixed_read(
        &self,
        access: Access,
        ty: &Type,
        lv: &str,
        off: &str,
        d: usize,
    ) -> Lines {
        let t = super::templates();
        match ty {
            Type::Prim(p) => t.lines(
                "codec/fixed_load",
                &FixedLoad {
                    lv,
                    load: load(access, *p, off),
                },
            ),
            Type::Array(elem, n) => {
                let (a, i) = (format!("a{d}"), format!("i{d}"));
                let size = self.fixed_size(elem).expect("struct arrays are fixed");
                let item = format!("{a}[{i}]");
                let lines = self.fixed_read(access, elem, &item, &offset(off, &i, size), d + 1);
                let view = ReadArray {
                    lv,
                    into: false,
                    count: *n,
                    new_array: new_array(&self.cs_type(elem), *n),
                    elem: lines,
                    a,
                    i,
                };
                t.lines("codec/fixed_read_array", &view)
            }
            Type::Named(r) => {
                let def = self.ir.ty(r.id);
                let q = qualified(self.ir, def);
                match &def.kind {
                    TypeKind::Enum { base, .. } => {
                        // `(E)*(ushort*)p` would parse as a multiplication.
                        let value = match access {
                            Access::Pointer => {
                                format!("({})", load(access, *base, off))
                            }
                            _ => load(access, *base, off),
                        };
                        t.lines(
                            "codec/fixed_load",
                            &FixedLoad {
                                lv,
                                load: format!("({q}){value}"),
                            },
                        )
                    }
                    TypeKind::Struct { .. } => t.lines(
                        "codec/fixed_read_struct",
                        &FixedNested {
                            lv,
                            args: access.nested_args(off, true),
                        },
                    ),
                    _ => unreachable!("only fixed-size types are inside structs"),
                }
            }
            _ => unreachable!("only fixed-size types are inside structs"),
        }
    }
}

impl Gen<'_> {
    /// Statements for a struct whose bytes `s` end inside it: the first error
    /// in wire order, as a value-by-value decoder meets it. Whole values
    /// before the cut are checked (an invalid bool wins); the value cut off
    /// returns `UnexpectedEnd` at its own offset, or, for a struct, its
    /// `Truncated` error. `off` is an expression.
    pub(super) fn fixed_truncated(&self, ty: &Type, off: &str, d: usize) -> Lines {
        let t = super::templates();
        let size = self.fixed_size(ty).expect("struct fields are fixed");
        let end = if off == "0" {
            size.to_string()
        } else {
            format!("{off} + {size}")
        };
        let cut = match ty {
            Type::Array(elem, _) => {
                let es = self.fixed_size(elem).expect("struct arrays are fixed");
                let (i, e) = (format!("i{d}"), format!("e{d}"));
                let view = TruncatedArray {
                    elem_off: offset(off, &i, es),
                    elem: self.fixed_truncated(elem, &e, d + 1),
                    i,
                    e,
                };
                t.lines("codec/truncated_array", &view)
            }
            Type::Named(r) if matches!(self.ir.ty(r.id).kind, TypeKind::Struct { .. }) => {
                let view = FixedStruct {
                    q: qualified(self.ir, self.ir.ty(r.id)),
                    off,
                    size,
                };
                t.lines("codec/truncated_struct", &view)
            }
            _ => {
                let view = FixedStruct {
                    q: String::new(),
                    off,
                    size,
                };
                t.lines("codec/truncated_value", &view)
            }
        };
        let view = Truncated {
            end,
            cut,
            validate: self.fixed_validate(ty, off, d),
        };
        t.lines("codec/fixed_truncated", &view)
    }

    /// Statements checking the whole value at `off` of `s` (its bools).
    fn fixed_validate(&self, ty: &Type, off: &str, d: usize) -> Lines {
        let t = super::templates();
        match ty {
            Type::Prim(Prim::Bool) => t.lines(
                "codec/validate_bool",
                &FixedStruct {
                    q: String::new(),
                    off,
                    size: 1,
                },
            ),
            Type::Array(elem, n) => {
                let es = self.fixed_size(elem).expect("struct arrays are fixed");
                let i = format!("i{d}");
                let lines = self.fixed_validate(elem, &offset(off, &i, es), d + 1);
                if lines.is_empty() {
                    return lines;
                }
                let view = ValidateArray {
                    i,
                    count: *n,
                    elem: lines,
                };
                t.lines("codec/validate_array", &view)
            }
            Type::Named(r) => {
                let def = self.ir.ty(r.id);
                match def.kind {
                    TypeKind::Struct { .. } => t.lines(
                        "codec/validate_struct",
                        &FixedStruct {
                            q: qualified(self.ir, def),
                            off,
                            size: def.layout.fixed_size().expect("structs are fixed"),
                        },
                    ),
                    _ => Lines::new(),
                }
            }
            _ => Lines::new(),
        }
    }
}

fn value_kind(v: &Value) -> &'static str {
    match v {
        Value::Bool(_) => "bool",
        Value::Int(_) => "integer",
        Value::Float(_) => "float",
        Value::String(_) => "string",
        Value::Enum { .. } => "enum",
    }
}

/// How the bytes of a fixed-size struct are reached: its store and load
/// bodies are generated once per kind (see `struct.hbs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Access {
    /// `Span<byte> s` (stores) or `ReadOnlySpan<byte> s` (loads) from index
    /// `o`: bounds-checked byte accesses.
    Span,
    /// `byte[] b` from index `o`: the same, without a span.
    Array,
    /// `byte* p`, in the unsafe output where `PktHost.PointerAccess`: one
    /// store or load per scalar. Its callers check the length first.
    Pointer,
}

impl Access {
    /// The byte at `off`, as an lvalue or a value.
    fn byte_at(self, off: &str) -> String {
        match self {
            Access::Span => format!("s[{}]", index("o", off)),
            Access::Array => format!("b[{}]", index("o", off)),
            Access::Pointer => format!("p[{off}]"),
        }
    }

    /// The buffer and index arguments of a `PktBytes` call at `off` (a span
    /// by reference: Mono copies one passed by value at every call).
    fn bytes_args(self, off: &str) -> String {
        match self {
            Access::Span => format!("ref s, {}", index("o", off)),
            Access::Array => format!("b, {}", index("o", off)),
            Access::Pointer => unreachable!("pointer accesses need no helper"),
        }
    }

    /// `(p + off)`, or `p`: the operand of a pointer cast.
    fn pointer(off: &str) -> String {
        if off == "0" {
            "p".to_string()
        } else {
            format!("(p + {off})")
        }
    }

    /// The arguments of a nested struct's `WriteTo` (`read`: `ReadInto`) at
    /// `off`.
    fn nested_args(self, off: &str, read: bool) -> String {
        let place = match self {
            Access::Span => format!("s, {}", index("o", off)),
            Access::Array => format!("b, {}", index("o", off)),
            Access::Pointer => index("p", off),
        };
        if read {
            format!("{place}, {}", index("at", off))
        } else {
            place
        }
    }
}

/// `base + off`, or `base` when `off` is 0.
fn index(base: &str, off: &str) -> String {
    if off == "0" {
        base.to_string()
    } else {
        format!("{base} + {off}")
    }
}

/// A little-endian store of a scalar at `off`.
fn store(access: Access, p: Prim, expr: &str, off: &str) -> String {
    match (access, p) {
        (_, Prim::Bool) => format!("{} = {expr} ? (byte)1 : (byte)0;", access.byte_at(off)),
        (_, Prim::U8) => format!("{} = {expr};", access.byte_at(off)),
        (_, Prim::I8) => format!("{} = unchecked((byte){expr});", access.byte_at(off)),
        (Access::Pointer, _) => format!("*({}*){} = {expr};", prim_cs(p), Access::pointer(off)),
        _ => format!(
            "global::Pkt.PktBytes.Put{}({}, {expr});",
            prim_method(p),
            access.bytes_args(off)
        ),
    }
}

/// A little-endian load of a scalar at `off`; a bool is checked, and its
/// error reported at `at + off`.
fn load(access: Access, p: Prim, off: &str) -> String {
    match (access, p) {
        (_, Prim::Bool) => format!(
            "global::Pkt.PktBytes.Bool({}, {})",
            access.byte_at(off),
            index("at", off)
        ),
        (_, Prim::U8) => access.byte_at(off),
        (_, Prim::I8) => format!("unchecked((sbyte){})", access.byte_at(off)),
        (Access::Pointer, _) => format!("*({}*){}", prim_cs(p), Access::pointer(off)),
        _ => format!(
            "global::Pkt.PktBytes.Get{}({})",
            prim_method(p),
            access.bytes_args(off)
        ),
    }
}

/// Quantized float fields (`x: f32 @quantize(min, max, step)`): the stored
/// integer is written, read and checked through `PktQuantize`'s static
/// helpers with the quantization as literals.
impl Gen<'_> {
    /// `min, max, step, steps` (`max` left out for reads).
    fn quantize_args(q: &crate::ir::Quantize, with_max: bool) -> String {
        let lit = |v: f64| format!("{v:?}");
        if with_max {
            format!(
                "{}, {}, {}, {}UL",
                lit(q.min),
                lit(q.max),
                lit(q.step),
                q.steps
            )
        } else {
            format!("{}, {}, {}UL", lit(q.min), lit(q.step), q.steps)
        }
    }

    /// `(float)` for an `f32` field.
    fn quantize_cast(ty: &Type) -> &'static str {
        if *ty == Type::Prim(Prim::F32) {
            "(float)"
        } else {
            ""
        }
    }

    /// The store of a quantized field of a fixed-size struct.
    pub(super) fn quantized_write(
        &self,
        access: Access,
        q: &crate::ir::Quantize,
        expr: &str,
        off: &str,
    ) -> Lines {
        let stored = format!(
            "({})global::Pkt.PktQuantize.Store({expr}, {}, {})",
            prim_cs(q.stored),
            Self::quantize_args(q, true),
            string_literal(self.member)
        );
        vec![store(access, q.stored, &stored, off)]
    }

    /// The load of a quantized field of a fixed-size struct into `lv`.
    pub(super) fn quantized_read(
        &self,
        access: Access,
        ty: &Type,
        q: &crate::ir::Quantize,
        lv: &str,
        off: &str,
    ) -> Lines {
        vec![format!(
            "{lv} = {}global::Pkt.PktQuantize.Load({}, {}, {});",
            Self::quantize_cast(ty),
            load(access, q.stored, off),
            Self::quantize_args(q, false),
            index("at", off)
        )]
    }

    /// [`Gen::fixed_truncated`] of a quantized field: cut off, or past its
    /// steps.
    pub(super) fn quantized_truncated(&self, q: &crate::ir::Quantize, off: &str) -> Lines {
        let t = super::templates();
        let size = q.stored.size();
        let end = if off == "0" {
            size.to_string()
        } else {
            format!("{off} + {size}")
        };
        let value = match q.stored {
            Prim::U8 => format!("s[{off}]"),
            p => format!("global::Pkt.PktBytes.Get{}(ref s, {off})", prim_method(p)),
        };
        let view = Truncated {
            end,
            cut: t.lines(
                "codec/truncated_value",
                &FixedStruct {
                    q: String::new(),
                    off,
                    size,
                },
            ),
            validate: vec![format!(
                "global::Pkt.PktQuantize.CheckStored({value}, {}UL, ref r, {});",
                q.steps,
                index("at", off)
            )],
        };
        t.lines("codec/fixed_truncated", &view)
    }

    /// The statements of a quantized message or variable-size struct
    /// field: its size, its write, its read into `lv`.
    pub(super) fn quantized_record(
        &self,
        ty: &Type,
        q: &crate::ir::Quantize,
        lv: &str,
    ) -> (u64, String, Lines) {
        let write = format!(
            "global::Pkt.PktQuantize.Write(ref w, {lv}, {}, {});",
            Self::quantize_args(q, true),
            string_literal(self.member)
        );
        let read = vec![format!(
            "{lv} = {}global::Pkt.PktQuantize.Read(ref r, {});",
            Self::quantize_cast(ty),
            Self::quantize_args(q, false)
        )];
        (u64::from(q.stored.size()), write, read)
    }
}
