//! The resolved schema: every name bound, every type classified fixed-size or
//! variable-size, sizes and offsets computed. Independent of the parser and of
//! any target language; the backends read only this.

use std::fmt;

use serde::{Serialize, Serializer};

use crate::diag::{FileId, Span};
use crate::wire;

/// All files of one compilation and every type they declare.
#[derive(Clone, Debug, Serialize)]
pub struct Ir {
    pub files: Vec<FileIr>,
    pub types: Vec<TypeDef>,
}

impl Ir {
    pub fn ty(&self, id: TypeId) -> &TypeDef {
        &self.types[id.0]
    }

    pub fn file(&self, index: FileIndex) -> &FileIr {
        &self.files[index.0]
    }

    /// The namespace segments of the file declaring `def`.
    pub fn namespace_of(&self, def: &TypeDef) -> &[String] {
        &self.file(def.file).namespace
    }

    /// The type's name with its namespace (`game.net.Chat`; the bare name
    /// without one), as the errors of generated code name it: unlike
    /// [`TypeDef::display_name`] it does not depend on what other files the
    /// schema set holds, so a new file never changes another's output.
    pub fn qualified_name(&self, def: &TypeDef) -> String {
        match self.namespace_of(def) {
            [] => def.name.clone(),
            ns => format!("{}.{}", ns.join("."), def.name),
        }
    }

    /// A type expression as tools show it: each declared type by its
    /// [`TypeDef::display_name`], qualified where two types share a name.
    pub fn show<'a>(&'a self, ty: &'a Type) -> Shown<'a> {
        Shown {
            names: Names::Display(self),
            ty,
        }
    }

    /// A type expression with every declared type by its qualified name:
    /// two spellings of one type are equal, two types that share a name
    /// are not.
    pub fn spelling(&self, ty: &Type) -> String {
        Shown {
            names: Names::Qualified(self),
            ty,
        }
        .to_string()
    }

    /// Files named as inputs (not only reached through an import), in the order given.
    pub fn input_files(&self) -> impl Iterator<Item = &FileIr> {
        self.files.iter().filter(|f| f.is_input)
    }

    /// The layout of any type expression. The layouts of declared types are
    /// computed once by `sema::layout`; this derives every other from them, so
    /// there is one rule for sizes.
    pub fn layout(&self, ty: &Type) -> Layout {
        match ty {
            Type::Prim(p) => Layout::Fixed { size: p.size() },
            Type::String | Type::Bytes => Layout::Variable {
                min_size: wire::LENGTH_PREFIX,
            },
            Type::List(_) | Type::Map(..) => Layout::Variable {
                min_size: wire::COUNT_PREFIX,
            },
            Type::Optional(_) => Layout::Variable {
                min_size: wire::OPTION_FLAG,
            },
            Type::Array(elem, n) => match self.layout(elem) {
                Layout::Fixed { size } => Layout::Fixed {
                    size: size.saturating_mul(*n),
                },
                Layout::Variable { min_size } => Layout::Variable {
                    min_size: min_size.saturating_mul(*n),
                },
            },
            Type::Named(r) => self.ty(r.id).layout,
        }
    }

    /// The layout of a field on the wire: its type's, or for a quantized
    /// float its stored integer's.
    pub fn field_layout(&self, field: &Field) -> Layout {
        match &field.quantize {
            Some(q) => Layout::Fixed {
                size: q.stored.size(),
            },
            None => self.layout(&field.ty),
        }
    }

    /// Whether values of the type always take the same number of bytes.
    pub fn is_fixed(&self, ty: &Type) -> bool {
        self.layout(ty).is_fixed()
    }

    /// The memory model of any type expression stored inline. The models of
    /// declared types are computed once by `sema::memory`; this derives every
    /// other from them, so there is one rule for decoded sizes.
    pub fn memory(&self, ty: &Type) -> Memory {
        match ty {
            Type::Prim(p) => Memory::scalar(p.size()),
            Type::String | Type::Bytes | Type::List(_) | Type::Map(..) => Memory::HANDLE,
            Type::Optional(t) => {
                let m = self.memory(t);
                Memory {
                    size: round_up(m.size.saturating_add(u64::from(m.align)), m.align),
                    align: m.align,
                }
            }
            Type::Array(t, n) => Memory::array(self.memory(t), *n),
            Type::Named(r) => self.ty(r.id).memory,
        }
    }

    /// The memory a field or variant takes inside its parent: a pointer when
    /// it is boxed ([`Field::cyclic`]), else the value itself.
    pub fn slot_memory(&self, ty: &Type, cyclic: bool) -> Memory {
        if cyclic {
            Memory::POINTER
        } else {
            self.memory(ty)
        }
    }

    /// The separate allocation a boxed (cyclic) field or variant makes when
    /// decoded: the value behind the pointer (`T` of `Option<Box<T>>`).
    pub fn boxed_memory(&self, ty: &Type) -> u64 {
        let inner = match ty {
            Type::Optional(t) => t,
            t => t,
        };
        self.memory(inner).size
    }

    /// The value of `ty` a decoder makes without reading it: `declared` (a
    /// message field's `= ...`), else the zero value of `ty`. Backends spell
    /// what this returns; they do not decide it.
    pub fn default_value<'a>(
        &'a self,
        ty: &'a Type,
        declared: Option<&'a Value>,
    ) -> DefaultValue<'a> {
        if let Some(v) = declared {
            return DefaultValue::Declared(v);
        }
        match ty {
            Type::Prim(p) => DefaultValue::Scalar(*p),
            Type::String | Type::Bytes | Type::List(_) | Type::Map(..) => DefaultValue::Empty,
            Type::Optional(_) => DefaultValue::Absent,
            Type::Array(elem, len) => DefaultValue::Array { elem, len: *len },
            Type::Named(r) => self.ty(r.id).zero_value(),
        }
    }

    /// What field `f` of a message decodes to when the body ends before it
    /// (written by an older version): its declared default, else its
    /// type's zero value. The decode budget is charged
    /// [`Field::default_charge`] for it.
    pub fn field_default<'a>(&'a self, f: &'a Field) -> DefaultValue<'a> {
        self.default_value(&f.ty, f.default.as_ref())
    }
}

/// A value a decoder makes without reading bytes for it: a message field
/// the body ends before ([`Ir::field_default`]), the zero value of a type
/// ([`Ir::default_value`], [`TypeDef::zero_value`]): what `Default` gives in
/// Rust, what a new C# object holds, what `pktc inspect` shows for an absent
/// field. One level deep: parts (array elements, fields, a variant's
/// payload) are asked for in turn.
#[derive(Clone, Copy, Debug)]
pub enum DefaultValue<'a> {
    /// A message field's declared default, checked against its type.
    Declared(&'a Value),
    /// `false`, `0` or `0.0` (positive zero).
    Scalar(Prim),
    /// The empty string, bytes, list or map.
    Empty,
    /// An absent optional.
    Absent,
    /// `len` elements, each the zero value of `elem`.
    Array { elem: &'a Elem, len: u32 },
    /// An enum's zero value: its first value (`index` 0 of its values,
    /// whatever its number).
    EnumValue { index: usize, value: &'a EnumValue },
    /// A struct or message with each field at its default
    /// ([`Ir::field_default`]; struct fields have no declared defaults).
    Fields(&'a [Field]),
    /// A union's zero value: its first variant (`index` 0), holding the
    /// zero value of the variant's type.
    Variant { index: usize, variant: &'a Variant },
}

/// `n` rounded up to a multiple of `align` (a power of two), saturating.
pub fn round_up(n: u64, align: u32) -> u64 {
    let a = u64::from(align.max(1));
    n.saturating_add(a - 1) / a * a
}

/// The decoded-memory model: what one value of a type occupies once decoded,
/// the same for every language and for `pktc inspect`, so that every decoder
/// charges the same numbers against the decode budget at the same offsets.
///
/// It is an upper bound of what a value takes in each generated language:
/// the in-memory size of the generated Rust type (fields laid out in
/// declaration order with natural alignment, which Rust's reordering can
/// only shrink) and the objects the generated C# allocates for it. Scalars
/// take their wire size; an enum twice its base (the `Unknown(raw)` variant
/// next to a discriminant); `string`, `bytes`, `list` and `map` a 24-byte
/// handle (their contents are charged when read); `T?` one alignment unit
/// more than `T`; a boxed field a pointer; `[T; N]` its elements plus
/// [`Memory::ARRAY`] (a C# array is an object of its own); a fixed-size
/// struct its fields, and at least 1 byte (the size of an empty C# struct);
/// a message or variable-size struct its fields plus [`Memory::OBJECT`] (a C#
/// object); a union its largest payload (at least the 32-byte unknown
/// variant) plus one alignment unit for the discriminant, plus
/// [`Memory::OBJECT`] (the C# variant object).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Memory {
    /// Bytes, saturating at `u64::MAX`.
    pub size: u64,
    /// Alignment in bytes: 1, 2, 4 or 8.
    pub align: u32,
}

impl Memory {
    /// A `String`, `Vec` or map: pointer, length, capacity.
    pub const HANDLE: Memory = Memory {
        size: pkt_runtime::memory::HANDLE as u64,
        align: 8,
    };
    /// A `Box`.
    pub const POINTER: Memory = Memory { size: 8, align: 8 };
    /// An empty value.
    pub const EMPTY: Memory = Memory { size: 0, align: 1 };
    /// What a C# array adds to its elements: the reference to it (8 bytes)
    /// and its header (32 bytes in Mono and IL2CPP, 24 in .NET).
    pub const ARRAY: u64 = pkt_runtime::memory::ARRAY as u64;
    /// What a C# object adds to its fields: the reference to it (8 bytes)
    /// and its header (16 bytes).
    pub const OBJECT: u64 = pkt_runtime::memory::OBJECT as u64;

    /// `[T; n]` of elements of model `elem`: the elements and
    /// [`Memory::ARRAY`], aligned as the elements are (as the Rust array is).
    pub fn array(elem: Memory, n: u32) -> Memory {
        Memory {
            size: elem
                .size
                .saturating_mul(u64::from(n))
                .saturating_add(Memory::ARRAY),
            align: elem.align,
        }
    }

    /// The same value held by a C# object: [`Memory::OBJECT`] more.
    pub fn object(self) -> Memory {
        Memory {
            size: self.size.saturating_add(Memory::OBJECT),
            align: self.align,
        }
    }

    pub fn scalar(size: u32) -> Memory {
        Memory {
            size: u64::from(size),
            align: size.max(1),
        }
    }

    /// Fields laid out one after another, each at its alignment, the whole
    /// rounded up to the largest alignment.
    pub fn sequence(parts: impl IntoIterator<Item = Memory>) -> Memory {
        let mut size = 0u64;
        let mut align = 1u32;
        for p in parts {
            size = round_up(size, p.align).saturating_add(p.size);
            align = align.max(p.align);
        }
        Memory {
            size: round_up(size, align),
            align,
        }
    }
}

/// One schema file.
#[derive(Clone, Debug, Serialize)]
pub struct FileIr {
    /// The path as given (relative paths stay relative), with `/` separators.
    pub name: String,
    #[serde(skip)]
    pub id: FileId,
    #[serde(skip)]
    pub path: std::path::PathBuf,
    /// The dotted namespace split into segments; empty when none is declared.
    pub namespace: Vec<String>,
    /// Where the namespace path is written, when one is declared.
    #[serde(skip)]
    pub namespace_span: Option<crate::diag::Span>,
    pub doc: Vec<String>,
    pub imports: Vec<FileIndex>,
    pub consts: Vec<Const>,
    /// Types declared in this file, in declaration order.
    pub types: Vec<TypeId>,
    /// Named on the command line or in `Config::compile`, as opposed to only imported.
    #[serde(skip)]
    pub is_input: bool,
}

impl FileIr {
    /// The file's name without directory and `.pkt` extension. It comes
    /// from the path read, not from `name`, which is how the file is shown
    /// and may say more (`common.pkt@HEAD` for a file read from a git
    /// revision).
    pub fn stem(&self) -> String {
        let path = crate::load::display(&self.path);
        let base = path.rsplit('/').next().unwrap_or(&path);
        base.strip_suffix(".pkt").unwrap_or(base).to_string()
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Const {
    pub name: String,
    pub doc: Vec<String>,
    pub ty: Prim,
    pub value: i128,
    #[serde(skip)]
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct TypeId(pub usize);

/// A file of one compilation: an index into [`Ir::files`]. Lowering keeps
/// the loader's file order, so it is also the file's index there. (Not a
/// [`FileId`], which names a source text for diagnostics.)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct FileIndex(pub usize);

#[derive(Clone, Debug, Serialize)]
pub struct TypeDef {
    pub name: String,
    /// How tools and error messages name the type: `name`, or the qualified
    /// name (`sky.chat.Message`) when another type of the schema set has the
    /// same `name`.
    #[serde(skip)]
    pub display_name: String,
    pub file: FileIndex,
    pub doc: Vec<String>,
    pub deprecated: bool,
    /// The reason of `@deprecated("...")`, which the generated attributes
    /// carry; only when `deprecated`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deprecated_note: Option<String>,
    pub layout: Layout,
    /// What one decoded value occupies in memory, by the model of
    /// [`Memory`]; computed once by `sema::memory`.
    pub memory: Memory,
    #[serde(flatten)]
    pub kind: TypeKind,
    /// The span of the declared name.
    #[serde(skip)]
    pub span: Span,
    /// The warnings `@allow` turns off for this type; they change no
    /// generated code.
    #[serde(skip)]
    pub allow: Vec<crate::diag::Lint>,
    /// `@delta` (structs and messages): the type also gets an encoder of
    /// its changes against a baseline and their reader (`crate::delta`).
    /// Its ordinary encoding is unchanged.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub delta: bool,
}

impl TypeDef {
    /// The value of this type a decoder makes when it reads none: an enum's
    /// first value, a union's first variant holding its type's zero value,
    /// a struct's or message's fields each at its default.
    pub fn zero_value(&self) -> DefaultValue<'_> {
        match &self.kind {
            TypeKind::Struct { fields } | TypeKind::Message { fields, .. } => {
                DefaultValue::Fields(fields)
            }
            TypeKind::Enum { values, .. } => DefaultValue::EnumValue {
                index: 0,
                value: values.first().expect("enums have values"),
            },
            TypeKind::Union { variants, .. } => DefaultValue::Variant {
                index: 0,
                variant: variants.first().expect("unions have variants"),
            },
        }
    }

    /// The variant a union's zero value holds (see [`TypeDef::zero_value`]);
    /// `None` for other kinds.
    pub fn zero_variant(&self) -> Option<(usize, &Variant)> {
        match self.zero_value() {
            DefaultValue::Variant { index, variant } => Some((index, variant)),
            _ => None,
        }
    }

    /// The value an enum's zero value is, with its index (see
    /// [`TypeDef::zero_value`]); `None` for other kinds.
    pub fn zero_enum_value(&self) -> Option<(usize, &EnumValue)> {
        match self.zero_value() {
            DefaultValue::EnumValue { index, value } => Some((index, value)),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TypeKind {
    Struct {
        fields: Vec<Field>,
    },
    Message {
        fields: Vec<Field>,
        /// `@preserve_unknown`: bytes after the known fields are kept and re-encoded.
        preserve_unknown: bool,
    },
    Enum {
        base: Prim,
        values: Vec<EnumValue>,
    },
    Union {
        tag: Prim,
        variants: Vec<Variant>,
        reserved: Vec<u16>,
    },
}

impl TypeKind {
    pub fn keyword(&self) -> &'static str {
        match self {
            TypeKind::Struct { .. } => "struct",
            TypeKind::Message { .. } => "message",
            TypeKind::Enum { .. } => "enum",
            TypeKind::Union { .. } => "union",
        }
    }

    pub fn fields(&self) -> &[Field] {
        match self {
            TypeKind::Struct { fields } | TypeKind::Message { fields, .. } => fields,
            _ => &[],
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Field {
    pub name: String,
    /// How errors of every decoder and encoder name the field: the owner's
    /// [`Ir::qualified_name`], a dot and the field's name as the schema
    /// spells it (`game.net.Chat.text`); set by `sema::members`.
    pub path: String,
    pub doc: Vec<String>,
    pub ty: Type,
    /// The declared default (message fields only); `None` means the zero
    /// value of the type. What the field decodes to when a message body
    /// ends before it is [`Ir::field_default`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<Value>,
    /// What the decode budget is charged when a message body ends before
    /// the field: the bytes of its declared default string, as if that
    /// string had been decoded (every decoder builds it); `None` when the
    /// default builds nothing. Set by `sema::members`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_charge: Option<u64>,
    /// `@max(N)`: the most bytes (string, bytes) or elements (list, map).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<u32>,
    /// `@quantize(min, max, step)` on an `f32` or `f64` field: stored as
    /// an integer number of steps, not as the float.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub quantize: Option<Quantize>,
    pub deprecated: bool,
    /// The reason of `@deprecated("...")`, which the generated attributes
    /// carry; only when `deprecated`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deprecated_note: Option<String>,
    pub layout: Layout,
    /// Byte offset inside a struct; `None` in messages, where it depends on the data.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<u32>,
    /// The field's type contains the enclosing type again without a list or map
    /// in between, so languages that store values inline must box it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub cyclic: bool,
    #[serde(skip)]
    pub span: Span,
}

/// A quantized float field (`x: f32 @quantize(-4096, 4096, 0.01)`): the
/// value travels as `q`, the number of steps from `min`, in `stored`, the
/// smallest unsigned integer that holds `steps`. `pkt_runtime::quantize`
/// holds the arithmetic, which `sema` checks and every language repeats.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Quantize {
    pub min: f64,
    pub max: f64,
    pub step: f64,
    /// `round((max - min) / step)`: the largest stored integer, 1 to 2^53.
    pub steps: u64,
    /// `u8`, `u16`, `u32` or `u64`.
    pub stored: Prim,
}

impl Quantize {
    /// The quantization of `@quantize(min, max, step)` with its steps and
    /// stored width.
    pub fn new(min: f64, max: f64, step: f64) -> Quantize {
        let steps = ((max - min) / step).round() as u64;
        let stored = match pkt_runtime::quantize::stored_width(steps) {
            1 => Prim::U8,
            2 => Prim::U16,
            4 => Prim::U32,
            _ => Prim::U64,
        };
        Quantize {
            min,
            max,
            step,
            steps,
            stored,
        }
    }

    /// The runtime's form, which checks, writes and reads values.
    pub fn runtime(&self) -> pkt_runtime::quantize::Quantize {
        pkt_runtime::quantize::Quantize::new(self.min, self.max, self.step, self.steps)
    }

    /// `@quantize(min, max, step)` as a schema would write it.
    pub fn attribute(&self) -> String {
        format!("@quantize({}, {}, {})", self.min, self.max, self.step)
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct EnumValue {
    pub name: String,
    pub doc: Vec<String>,
    pub value: u64,
    pub deprecated: bool,
    /// The reason of `@deprecated("...")`, which the generated attributes
    /// carry; only when `deprecated`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deprecated_note: Option<String>,
    #[serde(skip)]
    pub span: Span,
}

#[derive(Clone, Debug, Serialize)]
pub struct Variant {
    pub name: String,
    /// How errors name the variant, as [`Field::path`] names a field
    /// (`game.net.ServerPacket.Chat`).
    pub path: String,
    pub doc: Vec<String>,
    pub tag: u16,
    pub ty: Type,
    pub deprecated: bool,
    /// The reason of `@deprecated("...")`, which the generated attributes
    /// carry; only when `deprecated`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deprecated_note: Option<String>,
    /// As for [`Field::cyclic`].
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub cyclic: bool,
    #[serde(skip)]
    pub span: Span,
}

/// A type expression, resolved.
#[derive(Clone, Debug, PartialEq)]
pub enum Type {
    Prim(Prim),
    String,
    Bytes,
    List(Box<Elem>),
    Map(Box<Elem>, Box<Elem>),
    Array(Box<Elem>, u32),
    Optional(Box<Type>),
    Named(TypeRef),
}

/// An element of a list or array, or a key or value of a map: its type,
/// and the `@max` written after it (`list<string @max(24)>`), which bounds
/// each element as a field's `@max` bounds the field. It reads as its type
/// wherever only the type matters.
#[derive(Clone, Debug, PartialEq)]
pub struct Elem {
    pub ty: Type,
    /// `@max(N)`: the most bytes (string, bytes) or elements (list, map)
    /// of each element; on `T?`, of the `T` when present.
    pub max: Option<u32>,
}

impl Elem {
    pub fn new(ty: Type) -> Elem {
        Elem { ty, max: None }
    }
}

impl std::ops::Deref for Elem {
    type Target = Type;
    fn deref(&self) -> &Type {
        &self.ty
    }
}

impl fmt::Display for Elem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.max {
            Some(n) => write!(f, "{} @max({n})", self.ty),
            None => write!(f, "{}", self.ty),
        }
    }
}

impl Type {
    /// Appends the declared types this expression holds, through lists,
    /// arrays, optionals and maps, in order.
    pub fn named_parts(&self, out: &mut Vec<TypeId>) {
        match self {
            Type::Named(r) => out.push(r.id),
            Type::List(t) | Type::Array(t, _) => t.named_parts(out),
            Type::Optional(t) => t.named_parts(out),
            Type::Map(k, v) => {
                k.named_parts(out);
                v.named_parts(out);
            }
            Type::Prim(_) | Type::String | Type::Bytes => {}
        }
    }

    /// Whether an `@max` is written anywhere inside this expression, on an
    /// element, key or value at any depth (a field's own `@max` is the
    /// field's).
    pub fn has_element_max(&self) -> bool {
        match self {
            Type::List(e) | Type::Array(e, _) => e.max.is_some() || e.ty.has_element_max(),
            Type::Map(k, v) => {
                k.max.is_some()
                    || v.max.is_some()
                    || k.ty.has_element_max()
                    || v.ty.has_element_max()
            }
            Type::Optional(t) => t.has_element_max(),
            Type::Prim(_) | Type::String | Type::Bytes | Type::Named(_) => false,
        }
    }

    /// The type with every element `@max` removed: what it is on the wire
    /// and in memory, for comparing two versions' types apart from their
    /// limits.
    pub fn without_max(&self) -> Type {
        let bare = |e: &Elem| Box::new(Elem::new(e.ty.without_max()));
        match self {
            Type::List(e) => Type::List(bare(e)),
            Type::Array(e, n) => Type::Array(bare(e), *n),
            Type::Map(k, v) => Type::Map(bare(k), bare(v)),
            Type::Optional(t) => Type::Optional(Box::new(t.without_max())),
            t => t.clone(),
        }
    }
}

/// A reference to a declared type; the name, as the schema spells it, is
/// kept for display (tools show [`Ir::show`], which qualifies a name that
/// two types share).
#[derive(Clone, Debug, PartialEq)]
pub struct TypeRef {
    pub id: TypeId,
    pub name: String,
}

impl Type {
    /// The declared type this expression names directly, if any.
    pub fn named(&self) -> Option<TypeId> {
        match self {
            Type::Named(r) => Some(r.id),
            _ => None,
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Shown {
            names: Names::Spelled,
            ty: self,
        }
        .fmt(f)
    }
}

/// A type expression written with declared types named one way: see
/// [`Ir::show`] and [`Ir::spelling`].
pub struct Shown<'a> {
    names: Names<'a>,
    ty: &'a Type,
}

#[derive(Clone, Copy)]
enum Names<'a> {
    /// As the schema spells them.
    Spelled,
    /// By [`TypeDef::display_name`].
    Display(&'a Ir),
    /// By [`Ir::qualified_name`].
    Qualified(&'a Ir),
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let inner = |ty| Shown {
            names: self.names,
            ty,
        };
        // An element, key or value with its limit: `string @max(24)`.
        let names = self.names;
        let elem = |e: &Elem, f: &mut fmt::Formatter<'_>| {
            Shown { names, ty: &e.ty }.fmt(f)?;
            match e.max {
                Some(n) => write!(f, " @max({n})"),
                None => Ok(()),
            }
        };
        match self.ty {
            Type::Prim(p) => f.write_str(p.name()),
            Type::String => f.write_str("string"),
            Type::Bytes => f.write_str("bytes"),
            Type::List(t) => {
                f.write_str("list<")?;
                elem(t, f)?;
                f.write_str(">")
            }
            Type::Map(k, v) => {
                f.write_str("map<")?;
                elem(k, f)?;
                f.write_str(", ")?;
                elem(v, f)?;
                f.write_str(">")
            }
            Type::Array(t, n) => {
                f.write_str("[")?;
                elem(t, f)?;
                write!(f, "; {n}]")
            }
            Type::Optional(t) => write!(f, "{}?", inner(t)),
            Type::Named(r) => match self.names {
                Names::Spelled => f.write_str(&r.name),
                Names::Display(ir) => f.write_str(&ir.ty(r.id).display_name),
                Names::Qualified(ir) => f.write_str(&ir.qualified_name(ir.ty(r.id))),
            },
        }
    }
}

impl Serialize for Type {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Scalars: the types with a fixed size and no structure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Prim {
    Bool,
    U8,
    U16,
    U32,
    U64,
    I8,
    I16,
    I32,
    I64,
    F32,
    F64,
}

impl Prim {
    pub const ALL: [Prim; 11] = [
        Prim::Bool,
        Prim::U8,
        Prim::U16,
        Prim::U32,
        Prim::U64,
        Prim::I8,
        Prim::I16,
        Prim::I32,
        Prim::I64,
        Prim::F32,
        Prim::F64,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Prim::Bool => "bool",
            Prim::U8 => "u8",
            Prim::U16 => "u16",
            Prim::U32 => "u32",
            Prim::U64 => "u64",
            Prim::I8 => "i8",
            Prim::I16 => "i16",
            Prim::I32 => "i32",
            Prim::I64 => "i64",
            Prim::F32 => "f32",
            Prim::F64 => "f64",
        }
    }

    pub fn from_name(name: &str) -> Option<Prim> {
        Prim::ALL.into_iter().find(|p| p.name() == name)
    }

    pub fn size(self) -> u32 {
        match self {
            Prim::Bool | Prim::U8 | Prim::I8 => 1,
            Prim::U16 | Prim::I16 => 2,
            Prim::U32 | Prim::I32 | Prim::F32 => 4,
            Prim::U64 | Prim::I64 | Prim::F64 => 8,
        }
    }

    pub fn is_integer(self) -> bool {
        !matches!(self, Prim::Bool | Prim::F32 | Prim::F64)
    }

    pub fn is_float(self) -> bool {
        matches!(self, Prim::F32 | Prim::F64)
    }

    /// The inclusive range of an integer type.
    pub fn int_range(self) -> Option<(i128, i128)> {
        Some(match self {
            Prim::U8 => (0, u8::MAX as i128),
            Prim::U16 => (0, u16::MAX as i128),
            Prim::U32 => (0, u32::MAX as i128),
            Prim::U64 => (0, u64::MAX as i128),
            Prim::I8 => (i8::MIN as i128, i8::MAX as i128),
            Prim::I16 => (i16::MIN as i128, i16::MAX as i128),
            Prim::I32 => (i32::MIN as i128, i32::MAX as i128),
            Prim::I64 => (i64::MIN as i128, i64::MAX as i128),
            _ => return None,
        })
    }
}

/// How a type occupies the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "layout", rename_all = "snake_case")]
pub enum Layout {
    /// Always exactly `size` bytes.
    Fixed { size: u32 },
    /// At least `min_size` bytes; used to bound counts before allocating.
    Variable { min_size: u32 },
}

impl Layout {
    pub fn is_fixed(self) -> bool {
        matches!(self, Layout::Fixed { .. })
    }

    /// The fewest bytes one value can take.
    pub fn min_size(self) -> u32 {
        match self {
            Layout::Fixed { size } => size,
            Layout::Variable { min_size } => min_size,
        }
    }

    pub fn fixed_size(self) -> Option<u32> {
        match self {
            Layout::Fixed { size } => Some(size),
            Layout::Variable { .. } => None,
        }
    }
}

/// The bits of a `nan` default: the quiet NaN with sign and payload 0, the
/// same in every language.
pub const NAN_F32_BITS: u32 = 0x7FC0_0000;
/// [`NAN_F32_BITS`] for `f64`.
pub const NAN_F64_BITS: u64 = 0x7FF8_0000_0000_0000;

/// A literal after checking against the type it initialises.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Value {
    Bool(bool),
    Int(i128),
    Float(f64),
    String(String),
    /// A value of an enum, by index into its values.
    Enum {
        name: String,
        index: usize,
        value: u64,
    },
}
