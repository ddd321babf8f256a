//! `pktc layout`: the wire layout of every type, as a reviewer reads it.

use std::fmt::Write as _;

use crate::ir::*;

/// One section per input file (imported files too, after the inputs), one
/// table per type, in declaration order.
pub fn layout(ir: &Ir) -> String {
    let mut out = String::new();
    for file in &ir.files {
        if file.types.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        let ns = if file.namespace.is_empty() {
            String::new()
        } else {
            format!(" (namespace {})", file.namespace.join("."))
        };
        let _ = writeln!(out, "{}{ns}", file.name);
        for id in &file.types {
            out.push('\n');
            type_table(ir, *id, &mut out);
        }
    }
    out
}

fn size_text(layout: Layout) -> String {
    match layout {
        Layout::Fixed { size } => format!("fixed, {size} {}", plural(size, "byte")),
        Layout::Variable { min_size } => {
            format!("variable, at least {min_size} {}", plural(min_size, "byte"))
        }
    }
}

fn plural(n: u32, word: &str) -> String {
    if n == 1 {
        word.to_string()
    } else {
        format!("{word}s")
    }
}

fn type_table(ir: &Ir, id: TypeId, out: &mut String) {
    let def = ir.ty(id);
    let kind = def.kind.keyword();
    let delta = crate::delta::is_delta(ir, id);
    let _ = writeln!(
        out,
        "{}{kind} {}: {}",
        if delta { "@delta " } else { "" },
        def.display_name,
        size_text(def.layout)
    );
    if delta {
        let bytes = crate::delta::mask_bytes(def.kind.fields().len());
        let _ = writeln!(
            out,
            "  delta: {}u8 n, n <= {bytes} mask {}, then the changes of the fields whose bits are set",
            if matches!(def.kind, TypeKind::Message { .. }) {
                "u32 body length, "
            } else {
                ""
            },
            plural(bytes as u32, "byte")
        );
    }
    let mut rows: Vec<[String; 4]> = Vec::new();
    let header: [&str; 4];
    match &def.kind {
        TypeKind::Struct { fields } if !def.layout.is_fixed() => {
            let _ = writeln!(out, "  frozen, no length prefix: the fields back to back");
            header = ["offset", "wire", "field", "type"];
            for f in fields {
                let mut ty = field_type(ir, f);
                if let Some(max) = f.max {
                    ty.push_str(&format!(" @max({max})"));
                }
                rows.push([
                    f.offset.map_or(String::new(), |o| o.to_string()),
                    wire(f.layout),
                    f.name.clone(),
                    ty,
                ]);
            }
        }
        TypeKind::Struct { fields } => {
            header = ["offset", "size", "field", "type"];
            for f in fields {
                rows.push([
                    f.offset.map_or(String::new(), |o| o.to_string()),
                    f.layout.min_size().to_string(),
                    f.name.clone(),
                    field_type(ir, f),
                ]);
            }
        }
        TypeKind::Message {
            fields,
            preserve_unknown,
        } => {
            let _ = writeln!(
                out,
                "  u32 body length, then the fields{}",
                if *preserve_unknown {
                    "; unknown trailing bytes are kept"
                } else {
                    ""
                }
            );
            header = ["#", "wire", "field", "type"];
            for (i, f) in fields.iter().enumerate() {
                let mut ty = field_type(ir, f);
                if let Some(max) = f.max {
                    ty.push_str(&format!(" @max({max})"));
                }
                if f.deprecated {
                    ty.push_str(" @deprecated");
                }
                if let Some(v) = &f.default {
                    ty.push_str(" = ");
                    ty.push_str(&value_text(&f.ty, v));
                }
                rows.push([(i + 1).to_string(), wire(f.layout), f.name.clone(), ty]);
            }
        }
        TypeKind::Enum { base, values } => {
            let _ = writeln!(out, "  stored as {}", base.name());
            header = ["value", "", "name", ""];
            for v in values {
                rows.push([
                    v.value.to_string(),
                    String::new(),
                    v.name.clone(),
                    String::new(),
                ]);
            }
        }
        TypeKind::Union {
            tag,
            variants,
            reserved,
        } => {
            let _ = writeln!(
                out,
                "  u32 frame length, {} tag, then the variant",
                tag.name()
            );
            header = ["tag", "wire", "variant", "type"];
            for v in variants {
                rows.push([
                    v.tag.to_string(),
                    wire(ir.layout(&v.ty)),
                    v.name.clone(),
                    ir.show(&v.ty).to_string(),
                ]);
            }
            if !reserved.is_empty() {
                let tags: Vec<String> = reserved.iter().map(u16::to_string).collect();
                let _ = writeln!(out, "  reserved tags: {}", tags.join(", "));
            }
        }
    }
    if rows.is_empty() {
        return;
    }
    let mut widths = header.map(str::len);
    for r in &rows {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let line = |cells: [&str; 4]| {
        let mut s = format!(
            "  {:>w0$}  {:>w1$}  {:<w2$}  {}",
            cells[0],
            cells[1],
            cells[2],
            cells[3],
            w0 = widths[0],
            w1 = widths[1],
            w2 = widths[2]
        );
        s.truncate(s.trim_end().len());
        s.push('\n');
        s
    };
    out.push_str(&line(header));
    for r in &rows {
        out.push_str(&line([&r[0], &r[1], &r[2], &r[3]]));
    }
}

/// A field's type, and for a quantized float what it is stored as:
/// `f32 @quantize(-4096, 4096, 0.01) -> u32`.
fn field_type(ir: &Ir, f: &Field) -> String {
    let ty = ir.show(&f.ty).to_string();
    match &f.quantize {
        Some(q) => format!("{ty} {} -> {}", q.attribute(), q.stored.name()),
        None => ty,
    }
}

fn wire(layout: Layout) -> String {
    match layout {
        Layout::Fixed { size } => size.to_string(),
        Layout::Variable { min_size } => format!("{min_size}+"),
    }
}

/// The longest default string shown whole, in characters.
const MAX_DEFAULT_CHARS: usize = 32;

/// A declared default as the schema writes it: `1`, `-0.0`, `nan`, `-inf`,
/// `"text"`, an enum value by name.
fn value_text(ty: &Type, v: &Value) -> String {
    let float = |f: f64, text: String| {
        if f.is_nan() {
            "nan".to_string()
        } else if f.is_infinite() {
            if f < 0.0 { "-inf" } else { "inf" }.to_string()
        } else if text.contains(['.', 'e', 'E']) {
            text
        } else {
            format!("{text}.0")
        }
    };
    match v {
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => match ty {
            Type::Prim(Prim::F32) => float(*f, (*f as f32).to_string()),
            _ => float(*f, f.to_string()),
        },
        // A long default keeps the table readable: its start and length.
        Value::String(s) if s.chars().count() > MAX_DEFAULT_CHARS => {
            let start: String = s.chars().take(MAX_DEFAULT_CHARS).collect();
            let quoted = format!("{start:?}");
            format!("{}...\" ({} bytes)", &quoted[..quoted.len() - 1], s.len())
        }
        Value::String(s) => format!("{s:?}"),
        Value::Enum { name, .. } => name.clone(),
    }
}
