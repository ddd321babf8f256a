//! View models of the TypeScript templates and the codec statements of
//! every type expression. The recursion over nested type expressions stays
//! in Rust (handlebars cannot suffix locals by depth); [`Code`] indents by
//! nesting, so no caller states a column.

use std::rc::Rc;

use serde::Serialize;

use super::memory::{self, MemoryConst, MemoryExpr, Within};
use super::{
    alias_of_stem, doc_lines_deprecated, int_literal, prim_type, string_literal, type_ident,
};
use crate::emit::model::Models;
use crate::ir::{
    DefaultValue, Elem, EnumValue, Field, FileIndex, Ir, Prim, Type, TypeDef, TypeId, TypeKind,
    Value, Variant,
};
use crate::names::{self, Lang, NameKind};
use crate::wire;

/// Lines of code, indented by the nesting of [`Code::open`] and
/// [`Code::close`].
#[derive(Default)]
pub(super) struct Code {
    lines: Vec<String>,
    depth: usize,
}

impl Code {
    pub(super) fn line(&mut self, s: impl AsRef<str>) {
        self.lines
            .push(format!("{}{}", "    ".repeat(self.depth), s.as_ref()));
    }

    /// A line that opens a block (`if (x) {`).
    pub(super) fn open(&mut self, s: impl AsRef<str>) {
        self.line(s);
        self.depth += 1;
    }

    /// A line that closes a block (`}`, `} else {`, which opens another).
    pub(super) fn close(&mut self, s: impl AsRef<str>) {
        self.depth -= 1;
        self.line(s);
    }

    fn reopen(&mut self, s: impl AsRef<str>) {
        self.close(s);
        self.depth += 1;
    }

    pub(super) fn finish(self) -> Vec<String> {
        self.lines
    }
}

/// What every file's view models share.
pub(crate) struct Gen<'ir> {
    pub ir: &'ir Ir,
    models: Rc<Models>,
    /// Every schema file's output stem, by file index.
    stems: Rc<Vec<String>>,
    /// The file being generated: its types are named bare, others through
    /// their module's alias.
    file: FileIndex,
}

/// Where a read happens.
pub(super) struct ReadCx<'a> {
    /// String literal naming the innermost field or variant (`Type.field`),
    /// for budget errors.
    pub(super) field: &'a str,
    /// The part as `@max` errors name it (`Type.field[]`).
    pub(super) place: String,
    /// Expression: whether the value read into still holds its defaults.
    pub(super) fresh: &'a str,
    /// Model bytes charged when a boxed (cyclic) value is present.
    pub(super) boxed: Option<String>,
}

impl ReadCx<'_> {
    fn part<'b>(&'b self, fresh: &'b str, step: &str) -> ReadCx<'b> {
        ReadCx {
            field: self.field,
            place: format!("{}{step}", self.place),
            fresh,
            boxed: None,
        }
    }
}

impl<'ir> Gen<'ir> {
    pub fn new(ir: &'ir Ir) -> Self {
        Gen {
            ir,
            models: Rc::new(crate::emit::model::analyze(ir)),
            stems: Rc::new(crate::emit::output::stems(ir, super::NAMING.reserved_stems)),
            file: FileIndex(0),
        }
    }

    pub fn in_file(&self, file: FileIndex) -> Gen<'ir> {
        Gen {
            ir: self.ir,
            models: self.models.clone(),
            stems: self.stems.clone(),
            file,
        }
    }

    /// A declared type as this file names it.
    pub(super) fn name(&self, id: TypeId) -> String {
        let def = self.ir.ty(id);
        if def.file == self.file {
            type_ident(def)
        } else {
            format!(
                "{}.{}",
                alias_of_stem(&self.stems[def.file.0]),
                type_ident(def)
            )
        }
    }

    pub(super) fn field_ident(&self, name: &str) -> String {
        names::ident(Lang::TypeScript, NameKind::Field, name)
    }

    /// `v.name`, or `v["name"]` for a name that is not an identifier
    /// (never: fields are `lowerCamel`), kept simple.
    pub(super) fn access(&self, base: &str, f: &Field) -> String {
        format!("{base}.{}", self.field_ident(&f.name))
    }

    pub fn ts_type(&self, ty: &Type) -> String {
        match ty {
            Type::Prim(p) => prim_type(*p).to_string(),
            Type::String => "string".to_string(),
            Type::Bytes => "globalThis.Uint8Array".to_string(),
            Type::List(e) | Type::Array(e, _) => match &e.ty {
                _ if float_elements(e).is_some() => float_elements(e)
                    .map(|(_, t)| t.to_string())
                    .unwrap_or_default(),
                Type::Optional(_) => format!("({})[]", self.ts_type(&e.ty)),
                t => format!("{}[]", self.ts_type(t)),
            },
            Type::Map(k, v) => format!(
                "$pkt.PktMap<{}, {}>",
                self.ts_type(&k.ty),
                self.ts_type(&v.ty)
            ),
            Type::Optional(t) => format!("{} | undefined", self.ts_type(t)),
            Type::Named(r) => self.name(r.id),
        }
    }

    fn is_record(&self, ty: &Type) -> bool {
        match ty {
            Type::Named(r) => matches!(
                self.ir.ty(r.id).kind,
                TypeKind::Struct { .. } | TypeKind::Message { .. }
            ),
            _ => false,
        }
    }

    fn memory_const(&self, id: TypeId) -> MemoryConst {
        let name = |t: TypeId| self.name(t);
        let field = |f: &str| self.field_ident(f);
        memory::constant(self.ir, &self.models, &name, &field, id)
    }

    /// A value's model where it is charged.
    pub(super) fn memory_expr(&self, ty: &Type) -> String {
        self.memory_part(ty).to_string()
    }

    /// [`memory_expr`](Self::memory_expr) as a number or an expression.
    pub(super) fn memory_part(&self, ty: &Type) -> MemoryExpr {
        let name = |t: TypeId| self.name(t);
        memory::inline(self.ir, &name, ty, false, Within::Charge)
    }

    pub(super) fn boxed_memory(&self, ty: &Type) -> String {
        let inner = match ty {
            Type::Optional(t) => t,
            t => t,
        };
        self.memory_expr(inner)
    }

    // -----------------------------------------------------------------
    // Defaults
    // -----------------------------------------------------------------

    /// A fresh value of `ty` that is `value` (the IR decides which value a
    /// field, element or variant starts as; this only spells it).
    pub fn default_expr(&self, ty: &Type, value: DefaultValue<'_>) -> String {
        // An optional's declared default is a value of the inner type.
        let bare = match ty {
            Type::Optional(t) => t,
            t => t,
        };
        match value {
            DefaultValue::Declared(v) => self.declared(bare, v),
            DefaultValue::Scalar(Prim::Bool) => "false".to_string(),
            DefaultValue::Scalar(Prim::U64 | Prim::I64) => "0n".to_string(),
            DefaultValue::Scalar(_) => "0".to_string(),
            DefaultValue::Empty => match ty {
                Type::String => "\"\"".to_string(),
                Type::Bytes => "new globalThis.Uint8Array(0)".to_string(),
                Type::List(e) => match float_elements(e) {
                    Some((_, array)) => format!("new {array}(0)"),
                    None => "[]".to_string(),
                },
                Type::Map(k, _) => format!(
                    "new {}(null, {})",
                    self.ts_type(ty),
                    key_order(self.ir, &k.ty)
                ),
                _ => format!("new {}()", self.ts_type(ty)),
            },
            DefaultValue::Absent => "undefined".to_string(),
            DefaultValue::Array { elem, len } => match float_elements(elem) {
                Some((_, array)) => format!("new {array}({len})"),
                None => {
                    let d = self.default_expr(&elem.ty, self.ir.default_value(&elem.ty, None));
                    let t = self.ts_type(&elem.ty);
                    let t = if t.contains(' ') { format!("({t})") } else { t };
                    format!("globalThis.Array.from({{ length: {len} }}, (): {t} => {d})")
                }
            },
            DefaultValue::EnumValue { value, .. } => match bare {
                Type::Named(r) => match &self.ir.ty(r.id).kind {
                    TypeKind::Enum { base, .. } => int_literal(*base, value.value as i128),
                    _ => unreachable!("an enum value of an enum"),
                },
                _ => unreachable!("an enum value of an enum"),
            },
            // The companion's `create` spells the fields' defaults and the
            // first variant.
            DefaultValue::Fields(_) | DefaultValue::Variant { .. } => match bare {
                Type::Named(r) => format!("{}.create()", self.name(r.id)),
                _ => unreachable!("fields and variants of a declared type"),
            },
        }
    }

    /// A declared default of a field of type `ty`.
    fn declared(&self, ty: &Type, v: &Value) -> String {
        match (ty, v) {
            (_, Value::Bool(b)) => b.to_string(),
            (Type::Prim(p), Value::Int(i)) => int_literal(*p, *i),
            (Type::Prim(p), Value::Float(f)) => float_literal(*p, *f),
            (_, Value::String(s)) => string_literal(s),
            (Type::Named(r), Value::Enum { value, .. }) => match &self.ir.ty(r.id).kind {
                TypeKind::Enum { base, .. } => int_literal(*base, *value as i128),
                _ => unreachable!("an enum default of an enum"),
            },
            (ty, v) => unreachable!("a default {v:?} of {ty}"),
        }
    }

    // -----------------------------------------------------------------
    // Sizes
    // -----------------------------------------------------------------

    /// The constant part of the encoded size of `expr`; statements adding
    /// the variable part to `n` go to `code`.
    pub(super) fn size(&self, code: &mut Code, ty: &Type, expr: &str, d: usize) -> u64 {
        match ty {
            Type::Prim(_) => u64::from(self.ir.layout(ty).min_size()),
            Type::String => {
                code.line(format!("n += $pkt.utf8Length({expr});"));
                u64::from(wire::LENGTH_PREFIX)
            }
            Type::Bytes => {
                code.line(format!("n += {expr}.length;"));
                u64::from(wire::LENGTH_PREFIX)
            }
            Type::Optional(t) => {
                let o = format!("o{d}");
                let mut inner = Code::default();
                let c = self.size(&mut inner, t, &o, d + 1);
                code.open("{");
                code.line(format!("const {o} = {expr};"));
                code.open(format!("if ({o} !== undefined) {{"));
                if c > 0 {
                    code.line(format!("n += {c};"));
                }
                for l in inner.finish() {
                    code.line(l);
                }
                code.close("}");
                code.close("}");
                u64::from(wire::OPTION_FLAG)
            }
            Type::List(e) => {
                let x = format!("x{d}");
                let mut inner = Code::default();
                let c = self.size(&mut inner, &e.ty, &x, d + 1);
                let inner = inner.finish();
                if inner.is_empty() {
                    if c > 0 {
                        code.line(format!("n += {expr}.length * {c};"));
                    }
                } else {
                    code.open(format!("for (const {x} of {expr}) {{"));
                    if c > 0 {
                        code.line(format!("n += {c};"));
                    }
                    for l in inner {
                        code.line(l);
                    }
                    code.close("}");
                }
                u64::from(wire::COUNT_PREFIX)
            }
            Type::Map(k, v) => {
                let (kx, vx) = (format!("k{d}"), format!("v{d}"));
                let mut inner = Code::default();
                let c = self.size(&mut inner, &k.ty, &kx, d + 1)
                    + self.size(&mut inner, &v.ty, &vx, d + 1);
                let inner = inner.finish();
                if inner.is_empty() {
                    if c > 0 {
                        code.line(format!("n += {expr}.size * {c};"));
                    }
                } else {
                    // By index: a `PktMap` holds its keys and values in arrays.
                    let (m, i) = (format!("m{d}"), format!("i{d}"));
                    code.open("{");
                    code.line(format!("const {m} = {expr};"));
                    code.open(format!("for (let {i} = 0; {i} < {m}.size; {i}++) {{"));
                    if inner.iter().any(|l| l.contains(&kx)) {
                        code.line(format!("const {kx} = {m}.keyAt({i});"));
                    }
                    if inner.iter().any(|l| l.contains(&vx)) {
                        code.line(format!("const {vx} = {m}.valueAt({i});"));
                    }
                    if c > 0 {
                        code.line(format!("n += {c};"));
                    }
                    for l in inner {
                        code.line(l);
                    }
                    code.close("}");
                    code.close("}");
                }
                u64::from(wire::COUNT_PREFIX)
            }
            Type::Array(e, count) => {
                let x = format!("x{d}");
                let mut inner = Code::default();
                let c = self.size(&mut inner, &e.ty, &x, d + 1);
                let inner = inner.finish();
                if !inner.is_empty() {
                    code.open(format!("for (const {x} of {expr}) {{"));
                    for l in inner {
                        code.line(l);
                    }
                    code.close("}");
                }
                c * u64::from(*count)
            }
            Type::Named(r) => {
                let def = self.ir.ty(r.id);
                match (&def.kind, def.layout) {
                    (_, crate::ir::Layout::Fixed { size }) => u64::from(size),
                    (TypeKind::Struct { .. }, _) => {
                        code.line(format!("n += {}.size({expr}, depth);", self.name(r.id)));
                        0
                    }
                    _ => {
                        code.line(format!("n += {}.size({expr}, depth + 1);", self.name(r.id)));
                        0
                    }
                }
            }
        }
    }

    // -----------------------------------------------------------------
    // Writes
    // -----------------------------------------------------------------

    fn max_args(max: Option<u32>, place: &str) -> String {
        match max {
            Some(m) => format!(", {m}, {}", string_literal(place)),
            None => String::new(),
        }
    }

    pub(super) fn write(
        &self,
        code: &mut Code,
        ty: &Type,
        expr: &str,
        max: Option<u32>,
        place: &str,
        d: usize,
    ) {
        match ty {
            Type::Prim(p) => code.line(format!("w.write{}({expr});", prim_method(*p))),
            Type::String => code.line(format!(
                "w.writeString({expr}{});",
                Self::max_args(max, place)
            )),
            Type::Bytes => code.line(format!(
                "w.writeBytes({expr}{});",
                Self::max_args(max, place)
            )),
            Type::Optional(t) => {
                let o = format!("o{d}");
                code.open("{");
                code.line(format!("const {o} = {expr};"));
                code.open(format!("if ({o} !== undefined) {{"));
                code.line("w.writeU8(1);");
                self.write(code, t, &o, max, place, d + 1);
                code.reopen("} else {");
                code.line("w.writeU8(0);");
                code.close("}");
                code.close("}");
            }
            Type::List(e) if float_elements(e).is_some() => {
                let (method, _) = float_elements(e).expect("floats");
                let l = format!("l{d}");
                code.open("{");
                code.line(format!("const {l} = {expr};"));
                code.line(format!(
                    "w.writeCount({l}.length{});",
                    Self::max_args(max, place)
                ));
                code.line(format!("w.write{method}({l});"));
                code.close("}");
            }
            Type::Array(e, n) if float_elements(e).is_some() => {
                let (method, _) = float_elements(e).expect("floats");
                let a = format!("a{d}");
                code.open("{");
                code.line(format!("const {a} = {expr};"));
                code.line(format!(
                    "w.checkArray({a}, {n}, {});",
                    string_literal(place)
                ));
                code.line(format!("w.write{method}({a});"));
                code.close("}");
            }
            Type::List(e) if int_elements(e).is_some() => {
                let method = int_elements(e).expect("integers");
                let l = format!("l{d}");
                code.open("{");
                code.line(format!("const {l} = {expr};"));
                code.line(format!(
                    "w.writeCount({l}.length{});",
                    Self::max_args(max, place)
                ));
                code.line(format!("w.write{method}({l});"));
                code.close("}");
            }
            Type::List(e) => {
                let (l, x) = (format!("l{d}"), format!("x{d}"));
                code.open("{");
                code.line(format!("const {l} = {expr};"));
                code.line(format!(
                    "w.writeCount({l}.length{});",
                    Self::max_args(max, place)
                ));
                code.open(format!("for (const {x} of {l}) {{"));
                self.write(code, &e.ty, &x, e.max, &format!("{place}[]"), d + 1);
                code.close("}");
                code.close("}");
            }
            Type::Map(k, v) => {
                // A `PktMap` holds its entries in key order, the wire's.
                let (m, i) = (format!("m{d}"), format!("i{d}"));
                code.open("{");
                code.line(format!("const {m} = {expr};"));
                code.line(format!(
                    "w.writeCount({m}.size{});",
                    Self::max_args(max, place)
                ));
                code.open(format!("for (let {i} = 0; {i} < {m}.size; {i}++) {{"));
                let kx = format!("{m}.keyAt({i})");
                let kx = if matches!(k.ty, Type::Prim(_) | Type::String) {
                    kx
                } else {
                    let local = format!("k{d}");
                    code.line(format!("const {local} = {kx};"));
                    local
                };
                self.write(code, &k.ty, &kx, k.max, &format!("{place}[key]"), d + 1);
                let vx = format!("{m}.valueAt({i})");
                let vx = if matches!(v.ty, Type::Prim(_) | Type::String | Type::Bytes) {
                    vx
                } else {
                    let local = format!("v{d}");
                    code.line(format!("const {local} = {vx};"));
                    local
                };
                self.write(code, &v.ty, &vx, v.max, &format!("{place}[value]"), d + 1);
                code.close("}");
                code.close("}");
            }
            Type::Array(e, n) => {
                let (a, x) = (format!("a{d}"), format!("x{d}"));
                code.open("{");
                code.line(format!("const {a} = {expr};"));
                code.line(format!(
                    "w.checkArray({a}, {n}, {});",
                    string_literal(place)
                ));
                code.open(format!("for (const {x} of {a}) {{"));
                self.write(code, &e.ty, &x, e.max, &format!("{place}[]"), d + 1);
                code.close("}");
                code.close("}");
            }
            Type::Named(r) => {
                let def = self.ir.ty(r.id);
                match &def.kind {
                    TypeKind::Enum { base, .. } => {
                        code.line(format!("w.write{}({expr});", prim_method(*base)))
                    }
                    _ => code.line(format!("{}.write(w, {expr});", self.name(r.id))),
                }
            }
        }
    }

    // -----------------------------------------------------------------
    // Reads
    // -----------------------------------------------------------------

    /// Reads a value of `ty` into the place `lv`; with `into`, `lv` holds
    /// a value of the type whose parts may be reused.
    pub(super) fn read(
        &self,
        code: &mut Code,
        ty: &Type,
        lv: &str,
        into: bool,
        cx: &ReadCx,
        d: usize,
    ) {
        if let (Some(m), false) = (&cx.boxed, matches!(ty, Type::Optional(_))) {
            code.line(format!("r.charge({m}, r.pos, {});", cx.field));
        }
        let field = cx.field;
        match ty {
            Type::Prim(p) => code.line(format!("{lv} = r.read{}();", prim_method(*p))),
            Type::String => code.line(format!("{lv} = r.readString({field});")),
            Type::Bytes => code.line(format!("{lv} = r.readBytes({field});")),
            Type::Optional(t) => {
                let inner = ReadCx {
                    field,
                    place: cx.place.clone(),
                    fresh: cx.fresh,
                    boxed: None,
                };
                match &cx.boxed {
                    Some(m) => {
                        let b = format!("b{d}");
                        code.open("{");
                        code.line(format!("const {b} = r.pos;"));
                        code.open("if (r.readOptionFlag()) {");
                        code.line(format!("r.charge({m}, {b}, {field});"));
                        self.read(code, t, lv, false, &inner, d + 1);
                        code.reopen("} else {");
                        code.line(format!("{lv} = undefined;"));
                        code.close("}");
                        code.close("}");
                    }
                    None => {
                        code.open("if (r.readOptionFlag()) {");
                        self.read(code, t, lv, false, &inner, d + 1);
                        code.reopen("} else {");
                        code.line(format!("{lv} = undefined;"));
                        code.close("}");
                    }
                }
            }
            Type::List(e) if float_elements(e).is_some() => {
                let (method, _) = float_elements(e).expect("floats");
                let c = format!("c{d}");
                code.open("{");
                code.line(format!(
                    "const {c} = r.readCount({}, {}, {field});",
                    self.ir.layout(&e.ty).min_size(),
                    self.memory_expr(&e.ty)
                ));
                code.line(format!("{lv} = r.read{method}({c});"));
                code.close("}");
            }
            Type::Array(e, n) if float_elements(e).is_some() => {
                let (method, _) = float_elements(e).expect("floats");
                code.line(format!("{lv} = r.read{method}({n});"));
            }
            Type::List(e) if !into && int_elements(e).is_some() => {
                let method = int_elements(e).expect("integers");
                code.line(format!(
                    "{lv} = r.read{method}(r.readCount({}, {}, {field}));",
                    self.ir.layout(&e.ty).min_size(),
                    self.memory_expr(&e.ty)
                ));
            }
            Type::List(e) => {
                let (c, l, i) = (format!("c{d}"), format!("l{d}"), format!("i{d}"));
                let nested = cx.part("false", "[]");
                code.open("{");
                code.line(format!(
                    "const {c} = r.readCount({}, {}, {field});",
                    self.ir.layout(&e.ty).min_size(),
                    self.memory_expr(&e.ty)
                ));
                self.read_sequence(code, ty, e, lv, (&l, &i, &c), into, &nested, d);
            }
            Type::Array(e, n) => {
                let (l, i) = (format!("a{d}"), format!("i{d}"));
                let fresh = if into { cx.fresh } else { "false" };
                let nested = cx.part(fresh, "[]");
                code.open("{");
                let n = n.to_string();
                self.read_sequence(code, ty, e, lv, (&l, &i, &n), into, &nested, d);
            }
            Type::Map(k, v) => {
                let (c, m, i, at, kx, vx) = (
                    format!("c{d}"),
                    format!("m{d}"),
                    format!("i{d}"),
                    format!("at{d}"),
                    format!("k{d}"),
                    format!("v{d}"),
                );
                code.open("{");
                code.line(format!(
                    "const {c} = r.readMapCount({}, {}, {field});",
                    self.ir.layout(&k.ty).min_size() + self.ir.layout(&v.ty).min_size(),
                    memory_sum(self.memory_expr(&k.ty), self.memory_expr(&v.ty))
                ));
                if into {
                    code.line(format!("const {m} = {lv};"));
                    code.line(format!("{m}.clear();"));
                } else {
                    code.line(format!(
                        "const {m} = new {}(null, {});",
                        self.ts_type(ty),
                        key_order(self.ir, &k.ty)
                    ));
                }
                // Entries are appended as read and sorted once at the end
                // when keys came out of order; a key repeated before an
                // error that comes later is the error (see `PktMap`).
                code.open("try {");
                code.open(format!("for (let {i} = 0; {i} < {c}; {i}++) {{"));
                code.line(format!("const {at} = r.pos;"));
                code.line(format!("let {kx}: {};", self.ts_type(&k.ty)));
                self.read_part(code, k, &kx, false, &cx.part("false", "[key]"), d + 1);
                code.line(format!("{m}.decodedKey({kx}, {at});"));
                code.line(format!("let {vx}: {};", self.ts_type(&v.ty)));
                self.read_part(code, v, &vx, false, &cx.part("false", "[value]"), d + 1);
                code.line(format!("{m}.decodedValue({vx});"));
                code.close("}");
                code.reopen("} catch (e) {");
                code.line(format!("throw {m}.decodeFailed(r, e);"));
                code.close("}");
                code.line(format!("{m}.endDecode(r);"));
                if !into {
                    code.line(format!("{lv} = {m};"));
                }
                code.close("}");
            }
            Type::Named(r) => {
                let def = self.ir.ty(r.id);
                let q = self.name(r.id);
                match &def.kind {
                    TypeKind::Enum { base, .. } => {
                        code.line(format!("{lv} = r.read{}();", prim_method(*base)))
                    }
                    TypeKind::Struct { .. } if into && def.layout.is_fixed() => {
                        code.line(format!("{q}.readInto(r, {lv});"))
                    }
                    TypeKind::Struct { .. } | TypeKind::Message { .. } if into => {
                        code.line(format!("{q}.readInto(r, {lv}, {});", cx.fresh))
                    }
                    _ => code.line(format!("{lv} = {q}.read(r);")),
                }
            }
        }
    }

    /// The rest of a list's or array's read, inside its block, once its
    /// element count `n` (an expression) is known: the array (the target's,
    /// cut to `n`, or a new one), each element, and the block's end.
    #[allow(clippy::too_many_arguments)]
    fn read_sequence(
        &self,
        code: &mut Code,
        ty: &Type,
        e: &Elem,
        lv: &str,
        (l, i, n): (&str, &str, &str),
        into: bool,
        cx: &ReadCx,
        d: usize,
    ) {
        if into {
            code.line(format!("const {l} = {lv};"));
            code.line(format!("if ({l}.length > {n}) {l}.length = {n};"));
        } else {
            code.line(format!(
                "const {l}: {} = $pkt.newList({n});",
                self.ts_type(ty)
            ));
        }
        code.open(format!("for (let {i} = 0; {i} < {n}; {i}++) {{"));
        self.read_elem(code, e, l, i, into, cx, d);
        code.close("}");
        if !into {
            code.line(format!("{lv} = {l};"));
        }
        code.close("}");
    }

    /// One element `l[i]` of a list or array being read: decoded into the
    /// element there when reusing a record, else read anew and stored.
    #[allow(clippy::too_many_arguments)]
    fn read_elem(
        &self,
        code: &mut Code,
        e: &Elem,
        l: &str,
        i: &str,
        into: bool,
        cx: &ReadCx,
        d: usize,
    ) {
        let x = format!("e{d}");
        if into && self.is_record(&e.ty) {
            code.open(format!("if ({i} < {l}.length) {{"));
            self.read_part(code, e, &format!("{l}[{i}]"), true, cx, d + 1);
            code.reopen("} else {");
            code.line(format!("let {x}: {};", self.ts_type(&e.ty)));
            self.read_part(code, e, &x, false, cx, d + 1);
            code.line(format!("{l}.push({x});"));
            code.close("}");
        } else {
            let mut part = Code::default();
            self.read_part(&mut part, e, &x, false, cx, d + 1);
            let part = part.finish();
            match only_assignment(&part, &x) {
                Some(value) => code.line(format!("{l}[{i}] = {value}")),
                None => {
                    code.line(format!("let {x}: {};", self.ts_type(&e.ty)));
                    for line in part {
                        code.line(line);
                    }
                    code.line(format!("{l}[{i}] = {x};"));
                }
            }
        }
    }

    /// An element, key or value: its `@max` checked on its prefix first.
    fn read_part(&self, code: &mut Code, e: &Elem, lv: &str, into: bool, cx: &ReadCx, d: usize) {
        if let Some(max) = e.max {
            code.line(format!(
                "r.peekMax({max}, {}, {});",
                string_literal(&cx.place),
                matches!(e.ty, Type::Optional(_))
            ));
        }
        self.read(code, &e.ty, lv, into, cx, d);
    }

    // -----------------------------------------------------------------
    // Types
    // -----------------------------------------------------------------

    pub fn enum_view(&self, def: &TypeDef, base: Prim, values: &[EnumValue]) -> EnumView {
        EnumView {
            doc: doc_lines_deprecated(&def.doc, def.deprecated, &def.deprecated_note),
            name: type_ident(def),
            ty: prim_type(base),
            values: values
                .iter()
                .map(|v| EnumValueView {
                    doc: doc_lines_deprecated(&v.doc, v.deprecated, &v.deprecated_note),
                    name: names::ident(Lang::TypeScript, NameKind::Variant, &v.name),
                    value: int_literal(base, v.value as i128),
                })
                .collect(),
        }
    }

    fn field_decls(&self, fields: &[Field]) -> Vec<FieldDecl> {
        fields
            .iter()
            .map(|f| FieldDecl {
                doc: doc_lines_deprecated(&f.doc, f.deprecated, &f.deprecated_note),
                name: self.field_ident(&f.name),
                ty: self.ts_type(&f.ty),
            })
            .collect()
    }

    fn create(&self, fields: &[Field], unknown: bool) -> Vec<String> {
        let mut out: Vec<String> = fields
            .iter()
            .map(|f| {
                format!(
                    "{}: {},",
                    self.field_ident(&f.name),
                    self.default_expr(&f.ty, self.ir.field_default(f))
                )
            })
            .collect();
        if unknown {
            out.push("$unknownFields: new globalThis.Uint8Array(0),".to_string());
        }
        out
    }

    pub fn struct_view(&self, id: TypeId, fields: &[Field]) -> RecordView {
        let def = self.ir.ty(id);
        let fixed = def.layout.fixed_size();
        let mut size = Code::default();
        let mut parts = Vec::new();
        let mut write = Code::default();
        let mut read = Code::default();
        let mut read_into = Code::default();
        for f in fields {
            let place = f.path.clone();
            let field = string_literal(&place);
            let lv = self.access("v", f);
            if let Some(q) = &f.quantize {
                parts.push((u64::from(q.stored.size()), self.field_ident(&f.name)));
                let (w, r) = quantized(f, q, &lv, &field);
                write.line(w);
                read.line(format!("const {}: number = {r};", self.local(f)));
                read_into.line(format!("{lv} = {r};"));
                continue;
            }
            parts.push((
                self.size(&mut size, &f.ty, &lv, 0),
                self.field_ident(&f.name),
            ));
            self.write(&mut write, &f.ty, &lv, f.max, &place, 0);
            let cx = ReadCx {
                field: &field,
                place,
                fresh: if fixed.is_some() { "false" } else { "fresh" },
                boxed: f.cyclic.then(|| self.boxed_memory(&f.ty)),
            };
            if let Some(max) = f.max {
                let peek = format!(
                    "r.peekMax({max}, {field}, {});",
                    matches!(f.ty, Type::Optional(_))
                );
                read.line(&peek);
                read_into.line(peek);
            }
            self.read_local(&mut read, f, &cx);
            self.read(&mut read_into, &f.ty, &lv, true, &cx, 0);
        }
        self.literal(&mut read, fields, None);
        self.record_view(
            id,
            def,
            fields,
            RecordKind::Struct {
                fixed: fixed.is_some(),
            },
            self.delta_view(id, fields),
            size,
            parts,
            write,
            (read, read_into),
        )
    }

    /// The local a fresh read decodes field `f` into, before the value is
    /// built as one object literal.
    fn local(&self, f: &Field) -> String {
        format!("f_{}", self.field_ident(&f.name))
    }

    /// Reads field `f` into its local: `const f_x: T = r.readU8();` where one
    /// statement does, else declared first and assigned by the read.
    fn read_local(&self, code: &mut Code, f: &Field, cx: &ReadCx) {
        let local = self.local(f);
        let ty = self.ts_type(&f.ty);
        let mut body = Code::default();
        self.read(&mut body, &f.ty, &local, false, cx, 0);
        let body = body.finish();
        match only_assignment(&body, &local) {
            Some(value) => code.line(format!("const {local}: {ty} = {value}")),
            None => {
                code.line(format!("let {local}: {ty};"));
                for l in body {
                    code.line(l);
                }
            }
        }
    }

    /// `return { a: f_a, ... };`: every field in order, so that every value
    /// of a type has one shape (V8 hidden class) from its first property.
    fn literal(&self, code: &mut Code, fields: &[Field], unknown: Option<&str>) {
        if fields.is_empty() && unknown.is_none() {
            code.line("return {};");
            return;
        }
        code.open("return {");
        for f in fields {
            code.line(format!("{}: {},", self.field_ident(&f.name), self.local(f)));
        }
        if let Some(u) = unknown {
            code.line(format!("$unknownFields: {u},"));
        }
        code.close("};");
    }

    pub fn message_view(&self, id: TypeId, fields: &[Field], preserve_unknown: bool) -> RecordView {
        let def = self.ir.ty(id);
        let qualified = self.ir.qualified_name(def);
        let mut size = Code::default();
        let mut parts = vec![(u64::from(wire::BODY_PREFIX), "length".to_string())];
        let mut write = Code::default();
        let mut read = Code::default();
        let mut read_into = Code::default();
        read.line("const outer = r.enterFrame();");
        read_into.line("const outer = r.enterFrame();");
        if !fields.is_empty() {
            read.line("let more = r.hasMore();");
            read_into.line("let more = r.hasMore();");
        }
        // Where each field's lines start in `size`, `write` and `read_into`.
        let mut marks = Vec::with_capacity(fields.len() + 1);
        for (index, f) in fields.iter().enumerate() {
            marks.push([size.lines.len(), write.lines.len(), read_into.lines.len()]);
            let place = f.path.clone();
            let field = string_literal(&place);
            let lv = self.access("v", f);
            let quantized = f.quantize.as_ref().map(|q| quantized(f, q, &lv, &field));
            match &quantized {
                Some((w, _)) => {
                    let q = f.quantize.as_ref().expect("quantized");
                    parts.push((u64::from(q.stored.size()), self.field_ident(&f.name)));
                    write.line(w);
                }
                None => {
                    parts.push((
                        self.size(&mut size, &f.ty, &lv, 0),
                        self.field_ident(&f.name),
                    ));
                    self.write(&mut write, &f.ty, &lv, f.max, &place, 0);
                }
            }
            let cx = ReadCx {
                field: &field,
                place,
                fresh: "fresh",
                boxed: f.cyclic.then(|| self.boxed_memory(&f.ty)),
            };
            let peek = f.max.map(|max| {
                format!(
                    "r.peekMax({max}, {field}, {});",
                    matches!(f.ty, Type::Optional(_))
                )
            });
            let next = index + 1 < fields.len() || preserve_unknown;
            let charge = f
                .default_charge
                .map(|n| format!("r.charge({n}, r.pos, {field});"));
            let default = self.default_expr(&f.ty, self.ir.field_default(f));

            let local = self.local(f);
            read.line(format!("let {local}: {};", self.ts_type(&f.ty)));
            read.open("if (more) {");
            if let Some(peek) = &peek {
                read.line(peek);
            }
            match &quantized {
                Some((_, r)) => read.line(format!("{local} = {r};")),
                None => self.read(&mut read, &f.ty, &local, false, &cx, 0),
            }
            if next {
                read.line("more = r.hasMore();");
            }
            read.reopen("} else {");
            if let Some(charge) = &charge {
                read.line(charge);
            }
            read.line(format!("{local} = {default};"));
            read.close("}");

            read_into.open("if (more) {");
            if let Some(peek) = peek {
                read_into.line(peek);
            }
            match &quantized {
                Some((_, r)) => read_into.line(format!("{lv} = {r};")),
                None => self.read(&mut read_into, &f.ty, &lv, true, &cx, 0),
            }
            if next {
                read_into.line("more = r.hasMore();");
            }
            read_into.reopen("} else {");
            if let Some(charge) = charge {
                read_into.line(charge);
            }
            read_into.line(format!("if (!fresh) {lv} = {default};"));
            read_into.close("}");
        }
        marks.push([size.lines.len(), write.lines.len(), read_into.lines.len()]);
        let name = type_ident(def);
        let chunks = chunk_fields(&marks);
        let mut chunk_views = Vec::new();
        if chunks.len() > 1 {
            // Long bodies split into members of at most `CHUNK_LINES` lines
            // each (see `chunk_fields`); `read` decodes into a new value.
            let [size_lines, write_lines, read_lines] =
                [size, write, read_into].map(|c| c.finish());
            size = Code::default();
            write = Code::default();
            read_into = Code::default();
            read = Code::default();
            read_into.line("const outer = r.enterFrame();");
            read_into.line("let more = r.hasMore();");
            for (k, fields) in chunks.iter().enumerate() {
                let part = |which: usize, lines: &[String]| {
                    lines[marks[fields.start][which]..marks[fields.end][which]].to_vec()
                };
                let (first, last) = (fields.start, fields.end - 1);
                let body = part(0, &size_lines);
                if !body.is_empty() {
                    size.line(format!("n += {name}.$size{k}(v, depth);"));
                    let mut lines = vec!["let n = 0;".to_string()];
                    lines.extend(body);
                    lines.push("return n;".to_string());
                    chunk_views.push(ChunkView {
                        doc: format!("The variable part of the size of fields {first} to {last}."),
                        signature: format!(
                            "$size{k}({}: {name}, {}: number): number",
                            param("v", &lines),
                            param("depth", &lines)
                        ),
                        body: lines,
                    });
                }
                let body = part(1, &write_lines);
                if !body.is_empty() {
                    write.line(format!("{name}.$write{k}(w, v);"));
                    chunk_views.push(ChunkView {
                        doc: format!("Writes fields {first} to {last}."),
                        signature: format!(
                            "$write{k}({}: $pkt.PktWriter, {}: {name}): void",
                            param("w", &body),
                            param("v", &body)
                        ),
                        body,
                    });
                }
                let mut body = part(2, &read_lines);
                body.push("return more;".to_string());
                read_into.line(format!("more = {name}.$readInto{k}(r, v, fresh, more);"));
                chunk_views.push(ChunkView {
                    doc: format!(
                        "Decodes fields {first} to {last} into `v` while the body has `more`; returns whether it has more after them."
                    ),
                    signature: format!(
                        "$readInto{k}(r: $pkt.PktReader, v: {name}, {}: boolean, more: boolean): boolean",
                        param("fresh", &body)
                    ),
                    body,
                });
            }
        }
        let mut unknown = None;
        if preserve_unknown {
            parts.push((0, String::new()));
            size.line("n += v.$unknownFields.length;");
            write.line("w.writeRaw(v.$unknownFields);");
            let name = string_literal(&qualified);
            let rest = if fields.is_empty() {
                format!("r.readRest({name})")
            } else {
                format!("more ? r.readRest({name}) : new globalThis.Uint8Array(0)")
            };
            if chunk_views.is_empty() {
                read.line(format!("const unknown = {rest};"));
            }
            read_into.line(format!("v.$unknownFields = {rest};"));
            unknown = Some("unknown");
        }
        read_into.line("r.leaveMessage(outer);");
        if chunk_views.is_empty() {
            read.line("r.leaveMessage(outer);");
            self.literal(&mut read, fields, unknown);
        } else {
            read.line(format!("const v = {name}.create();"));
            read.line(format!("{name}.readInto(r, v, true);"));
            read.line("return v;");
        }
        let mut view = self.record_view(
            id,
            def,
            fields,
            RecordKind::Message { preserve_unknown },
            self.delta_view(id, fields),
            size,
            parts,
            write,
            (read, read_into),
        );
        view.chunks = chunk_views;
        view
    }

    #[allow(clippy::too_many_arguments)]
    fn record_view(
        &self,
        id: TypeId,
        def: &TypeDef,
        fields: &[Field],
        kind: RecordKind,
        delta: Option<super::delta::DeltaView>,
        size: Code,
        parts: Vec<(u64, String)>,
        write: Code,
        (read, read_into): (Code, Code),
    ) -> RecordView {
        let name = type_ident(def);
        let qualified = self.ir.qualified_name(def);
        let memory = self.memory_const(id);
        let constant: u64 = parts.iter().map(|(n, _)| n).sum();
        let size_lines = size.finish();
        let (fixed, message, unknown) = match kind {
            RecordKind::Struct { fixed } => (fixed, false, false),
            RecordKind::Message { preserve_unknown } => (false, true, preserve_unknown),
        };
        let mut write_lines = Vec::new();
        if message {
            write_lines.push("const start = w.beginLength();".to_string());
        }
        write_lines.extend(write.finish());
        if message {
            write_lines.push("w.endLength(start);".to_string());
        }
        let fresh_lines = read.finish();
        let read_lines = read_into.finish();
        let fresh_used = !fixed && uses(&read_lines, "fresh");
        RecordView {
            doc: doc_lines_deprecated(&def.doc, def.deprecated, &def.deprecated_note),
            name: name.clone(),
            schema_name: string_literal(&qualified),
            fields: self.field_decls(fields),
            unknown,
            memory_literal: matches!(memory.value, MemoryExpr::Literal(_)),
            memory: memory.value.to_string(),
            memory_parts: memory.parts,
            create: self.create(fields, unknown),
            fixed,
            message,
            check_depth: message,
            size_v: param("v", &size_lines),
            size_depth: if message {
                "depth".to_string()
            } else {
                param("depth", &size_lines)
            },
            size_constant: constant,
            size_comment: crate::emit::sum_comment(&parts),
            size: size_lines,
            write_w: param("w", &write_lines),
            write_v: param("v", &write_lines),
            write: write_lines,
            read_fresh_r: param("r", &fresh_lines),
            read_r: param("r", &read_lines),
            read_v: param("v", &read_lines),
            fresh_param: match (fixed, fresh_used) {
                (true, _) => String::new(),
                (false, true) => ", fresh: boolean".to_string(),
                (false, false) => ", _fresh: boolean".to_string(),
            },
            into_args: if fixed { "" } else { ", false" }.to_string(),
            read: fresh_lines,
            read_into: read_lines,
            delta: delta.into_iter().collect(),
            chunks: Vec::new(),
        }
    }

    pub fn union_view(&self, id: TypeId, tag: Prim, variants: &[Variant]) -> UnionView {
        let def = self.ir.ty(id);
        let qualified = self.ir.qualified_name(def);
        let memory = self.memory_const(id);
        let tag_method = prim_method(tag);
        UnionView {
            doc: doc_lines_deprecated(&def.doc, def.deprecated, &def.deprecated_note),
            name: type_ident(def),
            schema_name: string_literal(&qualified),
            memory_literal: matches!(memory.value, MemoryExpr::Literal(_)),
            memory: memory.value.to_string(),
            memory_parts: memory.parts,
            tag_method,
            header: wire::union_header(tag),
            first: {
                let (_, v) = def.zero_variant().expect("a union");
                UnionDefault {
                    kind: string_literal(&v.name),
                    value: self.default_expr(&v.ty, self.ir.default_value(&v.ty, None)),
                }
            },
            variants: variants
                .iter()
                .map(|v| {
                    let place = v.path.clone();
                    let field = string_literal(&place);
                    let mut size = Code::default();
                    let constant = self.size(&mut size, &v.ty, "v.value", 0);
                    let mut write = Code::default();
                    self.write(&mut write, &v.ty, "v.value", None, &place, 0);
                    let mut read = Code::default();
                    let cx = ReadCx {
                        field: &field,
                        place,
                        fresh: "false",
                        boxed: v.cyclic.then(|| self.boxed_memory(&v.ty)),
                    };
                    self.read(&mut read, &v.ty, "value", false, &cx, 0);
                    VariantView {
                        doc: doc_lines_deprecated(&v.doc, v.deprecated, &v.deprecated_note),
                        kind: string_literal(&v.name),
                        tag: v.tag,
                        ty: self.ts_type(&v.ty),
                        size_constant: constant + u64::from(wire::union_header(tag)),
                        size: size.finish(),
                        write: write.finish(),
                        read: read.finish(),
                    }
                })
                .collect(),
        }
    }
}

enum RecordKind {
    Struct { fixed: bool },
    Message { preserve_unknown: bool },
}

/// Whether `word` occurs in `lines` as an identifier of its own.
pub(super) fn uses(lines: &[String], word: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    lines.iter().any(|l| {
        l.match_indices(word).any(|(at, _)| {
            let before = l[..at].chars().next_back();
            let after = l[at + word.len()..].chars().next();
            !before.is_some_and(ident) && before != Some('.') && !after.is_some_and(ident)
        })
    })
}

/// `value;` when `lines` is the one statement `{target} = value;`, which a
/// declaration or a store can take over.
fn only_assignment<'a>(lines: &'a [String], target: &str) -> Option<&'a str> {
    match lines {
        [one] => one.strip_prefix(target)?.strip_prefix(" = "),
        _ => None,
    }
}

/// A parameter's name: `_name` where the body does not use it.
pub(super) fn param(name: &str, lines: &[String]) -> String {
    if uses(lines, name) {
        name.to_string()
    } else {
        format!("_{name}")
    }
}

fn memory_sum(a: String, b: String) -> String {
    match (a.parse::<u64>(), b.parse::<u64>()) {
        (Ok(x), Ok(y)) => (x + y).to_string(),
        _ => format!("{a} + {b}"),
    }
}

/// For a list or array of floats, held in a typed array (whose elements
/// keep a NaN's bits, as a `number[]` of doubles may not): the runtime's
/// method suffix (`F32s`) and the array type.
fn float_elements(e: &Elem) -> Option<(&'static str, &'static str)> {
    match e.ty {
        Type::Prim(Prim::F32) => Some(("F32s", "globalThis.Float32Array")),
        Type::Prim(Prim::F64) => Some(("F64s", "globalThis.Float64Array")),
        _ => None,
    }
}

/// For a list of integers of up to 32 bits (`number[]`), read and written
/// by one runtime loop rather than a call per element: the runtime's method
/// suffix (`I32s`).
fn int_elements(e: &Elem) -> Option<&'static str> {
    match e.ty {
        Type::Prim(Prim::U8) => Some("U8s"),
        Type::Prim(Prim::I8) => Some("I8s"),
        Type::Prim(Prim::U16) => Some("U16s"),
        Type::Prim(Prim::I16) => Some("I16s"),
        Type::Prim(Prim::U32) => Some("U32s"),
        Type::Prim(Prim::I32) => Some("I32s"),
        _ => None,
    }
}

/// The runtime's key order for map keys of type `ty`.
pub(super) fn key_order(ir: &Ir, ty: &Type) -> &'static str {
    let prim = match ty {
        Type::Prim(p) => *p,
        Type::Named(r) => match &ir.ty(r.id).kind {
            TypeKind::Enum { base, .. } => *base,
            _ => unreachable!("map keys are scalars, strings or enums"),
        },
        Type::String => return "$pkt.KeyOrder.String",
        _ => unreachable!("map keys are scalars, strings or enums"),
    };
    match prim {
        Prim::Bool => "$pkt.KeyOrder.Bool",
        Prim::U64 | Prim::I64 => "$pkt.KeyOrder.BigInt",
        _ => "$pkt.KeyOrder.Number",
    }
}

/// The write statement and the read expression of a quantized float field
/// (`@quantize`), with its quantization as literals.
pub(super) fn quantized(
    f: &Field,
    q: &crate::ir::Quantize,
    lv: &str,
    field: &str,
) -> (String, String) {
    let f32 = f.ty == Type::Prim(Prim::F32);
    let (min, max, step, steps) = (
        format!("{:?}", q.min),
        format!("{:?}", q.max),
        format!("{:?}", q.step),
        q.steps,
    );
    (
        format!("w.writeQuantized({lv}, {f32}, {min}, {max}, {step}, {steps}, {field});"),
        format!("r.readQuantized({f32}, {min}, {step}, {steps})"),
    )
}

/// `U8`, `I64`, `F32`, `Bool`: the runtime's read and write method suffix.
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

/// A number with exactly the value's bits once stored: an `f32` default
/// is written as the double it reads back as.
fn float_literal(p: Prim, v: f64) -> String {
    if v.is_nan() {
        // The quiet NaN of `NAN_F64_BITS` (and, stored as an f32, of
        // `NAN_F32_BITS`), as the other languages write it.
        return "globalThis.NaN".to_string();
    }
    if v.is_infinite() {
        return if v > 0.0 {
            "globalThis.Infinity".to_string()
        } else {
            "-globalThis.Infinity".to_string()
        };
    }
    let v = if p == Prim::F32 {
        f64::from(v as f32)
    } else {
        v
    };
    if v == 0.0 && v.is_sign_negative() {
        return "-0".to_string();
    }
    format!("{v:?}")
}

#[derive(Serialize)]
pub(crate) struct EnumView {
    doc: Vec<String>,
    name: String,
    ty: &'static str,
    values: Vec<EnumValueView>,
}

#[derive(Serialize)]
struct EnumValueView {
    doc: Vec<String>,
    name: String,
    value: String,
}

#[derive(Serialize)]
struct FieldDecl {
    doc: Vec<String>,
    name: String,
    ty: String,
}

#[derive(Serialize)]
pub(crate) struct RecordView {
    doc: Vec<String>,
    name: String,
    schema_name: String,
    fields: Vec<FieldDecl>,
    /// `@preserve_unknown`: the `$unknownFields` property.
    unknown: bool,
    /// Whether `memory` is a number (else a getter naming other types').
    memory_literal: bool,
    memory: String,
    memory_parts: String,
    /// The properties of `create()`.
    create: Vec<String>,
    fixed: bool,
    message: bool,
    check_depth: bool,
    /// Parameter names, `_`-prefixed where the body does not use them.
    size_v: String,
    size_depth: String,
    size_constant: u64,
    size_comment: String,
    size: Vec<String>,
    write_w: String,
    write_v: String,
    write: Vec<String>,
    read_fresh_r: String,
    read_r: String,
    read_v: String,
    /// `, fresh: boolean` (not for fixed-size structs, always fresh-free).
    fresh_param: String,
    /// The arguments after the target of `decodeInto`'s `readInto` call.
    into_args: String,
    /// `read`: the fields into locals, then one object literal.
    read: Vec<String>,
    read_into: Vec<String>,
    /// `@delta` (one element, else none): how each field changes.
    delta: Vec<super::delta::DeltaView>,
    /// The members a long message's `size`, `write` and `readInto` call,
    /// a part of its fields each (see [`chunk_fields`]).
    chunks: Vec<ChunkView>,
}

/// One member of the object literal that does a part of a long function's
/// work.
#[derive(Serialize)]
pub(crate) struct ChunkView {
    doc: String,
    signature: String,
    body: Vec<String>,
}

/// The most lines of a message's `readInto` (its longest function) kept in
/// one function body. `tsc` gives up on a function whose control flow is too
/// long to follow ("TS2563: The containing function or module body is too
/// large for control flow analysis"): a message of 550 `u32` fields failed,
/// 3,300 lines of `readInto` and as many of `read`, and 500 fields passed;
/// `test.everything.Everything`, 86 fields of every kind, has 1,300 lines.
pub(super) const MAX_BODY_LINES: usize = 1_500;

/// The most lines of the fields in one chunk of a longer body: a third of
/// the shortest body that failed.
pub(super) const CHUNK_LINES: usize = 1_000;

/// The fields of a message whose `readInto` takes more than
/// [`MAX_BODY_LINES`] lines, in consecutive runs of at most [`CHUNK_LINES`]
/// lines (a field longer than that alone); one run of every field else.
/// `marks[i]` holds where field `i` starts in the `size`, `write` and
/// `readInto` lines, `marks[fields]` where they end.
fn chunk_fields(marks: &[[usize; 3]]) -> Vec<std::ops::Range<usize>> {
    let n = marks.len() - 1;
    let lines = |from: usize, to: usize| marks[to][2] - marks[from][2];
    if lines(0, n) <= MAX_BODY_LINES {
        return std::iter::once(0..n).collect();
    }
    let mut chunks = Vec::new();
    let mut start = 0;
    for end in 1..=n {
        if end - start > 1 && lines(start, end) > CHUNK_LINES {
            chunks.push(start..end - 1);
            start = end - 1;
        }
    }
    chunks.push(start..n);
    chunks
}

#[derive(Serialize)]
pub(crate) struct UnionView {
    doc: Vec<String>,
    name: String,
    schema_name: String,
    memory_literal: bool,
    memory: String,
    memory_parts: String,
    tag_method: &'static str,
    header: u32,
    first: UnionDefault,
    variants: Vec<VariantView>,
}

#[derive(Serialize)]
struct UnionDefault {
    kind: String,
    value: String,
}

#[derive(Serialize)]
struct VariantView {
    doc: Vec<String>,
    kind: String,
    tag: u16,
    ty: String,
    size_constant: u64,
    size: Vec<String>,
    write: Vec<String>,
    read: Vec<String>,
}
