//! `@delta` structs and messages in TypeScript: the `$delta` description
//! of how each field changes, which the runtime's `encodeDelta` and
//! `applyDelta` walk. What each field sends is `crate::delta`'s rule.

use serde::Serialize;

use super::code::{key_order, param, quantized, uses, Code, Gen, ReadCx};
use super::memory::MemoryExpr;
use super::string_literal;
use crate::delta::{field_delta, FieldDelta};
use crate::ir::*;

#[derive(Serialize)]
pub(crate) struct DeltaView {
    message: bool,
    /// `patchMemory`, the patch model: a number, else a getter naming
    /// other types' (`crate::delta::PatchPart`), and the comment of its
    /// parts.
    patch_memory_literal: bool,
    patch_memory: String,
    patch_memory_parts: String,
    /// The lines of the field descriptions, in field order.
    fields: Vec<String>,
}

impl Gen<'_> {
    pub(super) fn delta_view(&self, id: TypeId, fields: &[Field]) -> Option<DeltaView> {
        if !crate::delta::is_delta(self.ir, id) {
            return None;
        }
        let def = self.ir.ty(id);
        let ty = super::type_ident(def);
        let mut code = Code::default();
        for f in fields {
            let lv = self.access("v", f);
            match field_delta(self.ir, f) {
                FieldDelta::Whole => self.whole_field(&mut code, &ty, f, &lv),
                FieldDelta::Nested(id) => {
                    let nested = self.name(id);
                    code.line(format!(
                        "$pkt.nestedField((): $pkt.PktDeltaCodec<{nested}> => {nested}.$delta, (v: {ty}): {nested} => {lv}),"
                    ));
                }
                FieldDelta::Map { key, value, nested } => {
                    let (k, vt) = (self.ts_type(&key.ty), self.ts_type(&value.ty));
                    code.open(format!(
                        "$pkt.mapField((v: {ty}): $pkt.PktMap<{k}, {vt}> => {lv}, (): $pkt.PktDeltaMap<{k}, {vt}> => ({{"
                    ));
                    code.line(format!("order: {},", key_order(self.ir, &key.ty)));
                    code.line(format!("field: {},", string_literal(&f.path)));
                    self.part_fns(&mut code, "Key", &key.ty, &k, f);
                    self.part_fns(&mut code, "Value", &value.ty, &vt, f);
                    code.line(format!("keyMin: {},", self.ir.layout(&key.ty).min_size()));
                    code.line(format!("keyMemory: {},", self.memory_expr(&key.ty)));
                    code.line(format!(
                        "valueMin: {},",
                        self.ir.layout(&value.ty).min_size()
                    ));
                    code.line(format!("valueMemory: {},", self.memory_expr(&value.ty)));
                    if let Some(id) = nested {
                        let n = self.name(id);
                        code.line(format!(
                            "nested: (): $pkt.PktDeltaCodec<{n}> => {n}.$delta,"
                        ));
                        code.line(format!("valuePatchMemory: {n}.patchMemory,"));
                    }
                    code.close("})),");
                }
            }
        }
        let (patch_memory, patch_memory_parts) = self.patch_memory(fields);
        Some(DeltaView {
            message: matches!(def.kind, TypeKind::Message { .. }),
            patch_memory_literal: matches!(patch_memory, MemoryExpr::Literal(_)),
            patch_memory: patch_memory.to_string(),
            patch_memory_parts,
            fields: code.finish(),
        })
    }

    /// `patchMemory` of a `@delta` type (`crate::delta::PatchPart`): a
    /// number, plus the `memory` of the types it names (the `patchMemory`
    /// of nested `@delta` fields always), and the comment of its parts.
    fn patch_memory(&self, fields: &[Field]) -> (MemoryExpr, String) {
        use crate::delta::{PatchPart, MAP_PATCH_MEMORY, PATCH, PATCH_FIELD};
        let mut sum = MemoryExpr::Literal(PATCH);
        let mut terms = vec![format!("{PATCH} for the patch")];
        if !fields.is_empty() {
            terms.push(format!("{PATCH_FIELD} per field"));
        }
        let mut named = MemoryExpr::Literal(0);
        for f in fields {
            sum = sum.add(MemoryExpr::Literal(PATCH_FIELD));
            let part = match crate::delta::patch_part(self.ir, f) {
                PatchPart::Whole { ty, cyclic: true } => {
                    MemoryExpr::Literal(self.ir.slot_memory(ty, true).size)
                }
                PatchPart::Whole { ty, .. } => self.memory_part(ty),
                PatchPart::Nested(id) => MemoryExpr::Expr(format!("{}.patchMemory", self.name(id))),
                PatchPart::Map => MemoryExpr::Literal(MAP_PATCH_MEMORY),
            };
            let name = self.field_ident(&f.name);
            match part {
                MemoryExpr::Literal(n) => {
                    terms.push(format!("{n} {name}"));
                    sum = sum.add(MemoryExpr::Literal(n));
                }
                e => {
                    terms.push(name);
                    named = named.add(e);
                }
            }
        }
        (sum.add(named), terms.join(" + "))
    }

    /// `$pkt.wholeField(size, write, read, set)` for field `f` at `lv`.
    fn whole_field(&self, code: &mut Code, ty: &str, f: &Field, lv: &str) {
        code.open("$pkt.wholeField(");
        let name = self.field_ident(&f.name);
        let set = format!("(t: {ty}, s: {ty}): void => {{ t.{name} = s.{name}; }},");
        if let Some(q) = &f.quantize {
            // The change is the stored integer, compared as such; writing
            // it checks the range, so there is no shortcut by value.
            let (write, read) = quantized(f, q, lv, &string_literal(&f.path));
            code.line(format!("(_v: {ty}): number => {},", q.stored.size()));
            closure(code, ("w", "$pkt.PktWriter"), ty, vec![write]);
            closure(
                code,
                ("r", "$pkt.PktReader"),
                ty,
                vec![format!("{lv} = {read};")],
            );
            code.line(set);
            code.close("),");
            return;
        }
        self.size_fn(code, "", &format!("v: {ty}"), "v", &f.ty, lv);
        let mut write = Code::default();
        self.write(&mut write, &f.ty, lv, f.max, &f.path, 0);
        closure(code, ("w", "$pkt.PktWriter"), ty, write.finish());
        let field = string_literal(&f.path);
        let cx = ReadCx {
            field: &field,
            place: f.path.clone(),
            fresh: "false",
            boxed: f.cyclic.then(|| self.boxed_memory(&f.ty)),
        };
        let mut read = Code::default();
        if let Some(max) = f.max {
            read.line(format!(
                "r.peekMax({max}, {field}, {});",
                matches!(f.ty, Type::Optional(_))
            ));
        }
        self.read(&mut read, &f.ty, lv, false, &cx, 0);
        closure(code, ("r", "$pkt.PktReader"), ty, read.finish());
        code.line(set);
        // A field with an `@max` is written to check it, as encode would.
        let same = match f.max {
            None => self.same(&f.ty, &format!("v.{name}"), &format!("b.{name}")),
            Some(_) => None,
        };
        if let Some(same) = same {
            code.line(format!("(v: {ty}, b: {ty}): boolean => {same},"));
        }
        code.close("),");
    }

    /// An expression true when `a` and `b`, values of `ty`, certainly
    /// encode alike, for the types where that is one comparison: integers,
    /// booleans, enums and strings by value, floats by value but `0` and
    /// `-0` apart (a NaN, equal to no number, is compared by encoding).
    fn same(&self, ty: &Type, a: &str, b: &str) -> Option<String> {
        match ty {
            Type::Prim(Prim::F32 | Prim::F64) => {
                Some(format!("{a} === {b} && ({a} !== 0 || 1 / {a} === 1 / {b})"))
            }
            Type::Prim(_) | Type::String => Some(format!("{a} === {b}")),
            Type::Named(r) if matches!(self.ir.ty(r.id).kind, TypeKind::Enum { .. }) => {
                Some(format!("{a} === {b}"))
            }
            _ => None,
        }
    }

    /// `keySize`, `writeKey`, `readKey` (or `value...`) of a map part.
    fn part_fns(&self, code: &mut Code, part: &str, ty: &Type, ts: &str, f: &Field) {
        let lower = part.to_ascii_lowercase();
        self.size_fn(
            code,
            &format!("{lower}Size: "),
            &format!("x: {ts}"),
            "x",
            ty,
            "x",
        );
        let mut write = Code::default();
        self.write(&mut write, ty, "x", None, &f.path, 0);
        let lines = write.finish();
        code.line(format!(
            "write{part}: ({}: $pkt.PktWriter, x: {ts}): void => {{",
            param("w", &lines)
        ));
        body(code, lines);
        let field = string_literal(&f.path);
        let cx = ReadCx {
            field: &field,
            place: f.path.clone(),
            fresh: "false",
            boxed: None,
        };
        let mut read = Code::default();
        read.line(format!("let x: {ts};"));
        self.read(&mut read, ty, "x", false, &cx, 1);
        read.line("return x;");
        code.line(format!("read{part}: (r: $pkt.PktReader): {ts} => {{"));
        body(code, read.finish());
    }

    /// A closure `(param): number` computing the encoded size of `expr`.
    fn size_fn(
        &self,
        code: &mut Code,
        prefix: &str,
        param_decl: &str,
        name: &str,
        ty: &Type,
        expr: &str,
    ) {
        let mut size = Code::default();
        let constant = self.size(&mut size, ty, expr, 0);
        let lines = size.finish();
        let p = if uses(&lines, name) {
            param_decl.to_string()
        } else {
            format!("_{param_decl}")
        };
        if lines.is_empty() {
            code.line(format!("{prefix}({p}): number => {constant},"));
            return;
        }
        code.line(format!("{prefix}({p}): number => {{"));
        let mut inner = Code::default();
        if uses(&lines, "depth") {
            inner.line("const depth = 1;");
        }
        inner.line(format!("let n = {constant};"));
        let mut all = inner.finish();
        all.extend(lines);
        all.push("return n;".to_string());
        body(code, all);
    }
}

/// `(a: A, v: T): void => { lines },` with unused parameters
/// `_`-prefixed.
fn closure(code: &mut Code, (a, a_ty): (&str, &str), ty: &str, lines: Vec<String>) {
    code.line(format!(
        "({}: {a_ty}, {}: {ty}): void => {{",
        param(a, &lines),
        param("v", &lines)
    ));
    body(code, lines);
}

/// The body lines of a closure, indented, and its closing `},`.
fn body(code: &mut Code, lines: Vec<String>) {
    for l in lines {
        code.line(format!("    {l}"));
    }
    code.line("},");
}
