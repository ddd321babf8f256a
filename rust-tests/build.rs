//! Generates Rust for every schema in `schemas/` through the `build.rs` API,
//! the way a user's crate does, plus a table of every generated type for the
//! property tests.

use std::fmt::Write as _;
use std::path::PathBuf;

use pktc::ir::{Ir, Prim, Type, TypeDef, TypeKind};
use pktc::names::{self, Lang, NameKind};

fn main() -> Result<(), pktc::Error> {
    let dir = PathBuf::from("../schemas");
    let mut schemas: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("schemas/ is readable")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pkt"))
        .collect();
    schemas.sort();
    // New schema files must be picked up too.
    println!("cargo:rerun-if-changed=../schemas");
    pktc::compile(&schemas)?;

    // Two versions of one protocol, for the evolution matrix.
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR is set"));
    for version in ["v1", "v2"] {
        pktc::Config::new()
            .out_dir(out.join(format!("evo_{version}")))
            .compile(&[format!("../schemas/evolution/{version}/protocol.pkt")])?;
    }

    // Two versions of a protocol sent as deltas.
    for version in ["v1", "v2"] {
        pktc::Config::new()
            .out_dir(out.join(format!("delta_evo_{version}")))
            .compile(&[format!("../schemas/delta_evolution/{version}/units.pkt")])?;
    }

    // Two imported files with the same name, which must not overwrite each other.
    pktc::Config::new()
        .out_dir(out.join("same_stem"))
        .compile(&["../schemas/same_stem/top.pkt"])?;

    let checked = pktc::check(&schemas).map_err(pktc::Error::Schema)?;
    let mut table = String::from(
        "/// Every generated type by qualified schema name, with the property\n\
         /// check instantiated for it (deprecated types included).\n\
         #[allow(deprecated)]\n\
         pub static TYPES: &[Entry] = &[\n",
    );
    for def in &checked.ir.types {
        let ns = checked.ir.namespace_of(def);
        let mut path: Vec<String> = ns
            .iter()
            .map(|s| names::ident(Lang::Rust, NameKind::Field, s))
            .collect();
        path.push(names::type_ident(Lang::Rust, def));
        let mut qualified = ns.join(".");
        qualified.push('.');
        qualified.push_str(&def.name);
        // Messages, unions and variable-size structs have views.
        let viewed = !matches!(def.kind, pktc::ir::TypeKind::Enum { .. }) && !def.layout.is_fixed();
        let _ = writeln!(
            table,
            "    crate::props::{}::<crate::{}>({qualified:?}),",
            if viewed { "viewed_entry" } else { "entry" },
            path.join("::")
        );
    }
    table.push_str("];\n");
    table.push_str(
        "\n/// The IR's decoded-size model of every type: qualified name, size.\n\
         pub static MODELS: &[(&str, u64)] = &[\n",
    );
    for def in &checked.ir.types {
        let ns = checked.ir.namespace_of(def);
        let qualified = format!("{}.{}", ns.join("."), def.name);
        let _ = writeln!(table, "    ({qualified:?}, {}),", def.memory.size);
    }
    table.push_str("];\n");
    std::fs::write(out.join("types.rs"), table).map_err(pktc::Error::Io)?;
    std::fs::write(out.join("render.rs"), render_impls(&checked.ir)).map_err(pktc::Error::Io)?;
    Ok(())
}

/// `crate::ns::Type`, the path of a declared type's generated Rust.
fn rust_path(ir: &Ir, def: &TypeDef) -> String {
    let mut path: Vec<String> = ir
        .namespace_of(def)
        .iter()
        .map(|s| names::ident(Lang::Rust, NameKind::Field, s))
        .collect();
    path.push(names::type_ident(Lang::Rust, def));
    format!("crate::{}", path.join("::"))
}

/// The conformance driver's value text of every generated type (protocol in
/// `tests/conformance.rs`), a `Render` impl per type written from the IR, so
/// that no type is rendered by hand.
fn render_impls(ir: &Ir) -> String {
    let mut out = String::from("// Written by build.rs from the IR of schemas/.\n");
    for def in &ir.types {
        let member = |kind, name: &str| Lang::Rust.naming().member_ident(kind, name, def);
        let mut body = String::new();
        match &def.kind {
            TypeKind::Enum { .. } => body.push_str("int(o, self.to_raw());\n"),
            TypeKind::Struct { fields } | TypeKind::Message { fields, .. } => {
                body.push_str("o.push('{');\n");
                for (i, f) in fields.iter().enumerate() {
                    let label = format!("{}{}:", if i > 0 { "," } else { "" }, f.name);
                    let var = format!("self.{}", member(NameKind::Field, &f.name));
                    let _ = writeln!(
                        body,
                        "o.push_str({label:?});\n{};",
                        render_expr(ir, &f.ty, &var, false, 0)
                    );
                }
                if let TypeKind::Message {
                    preserve_unknown: true,
                    ..
                } = def.kind
                {
                    let label = if fields.is_empty() {
                        "@unknown:"
                    } else {
                        ",@unknown:"
                    };
                    let _ = writeln!(
                        body,
                        "o.push_str({label:?});\nbytes(o, &self.unknown_fields);"
                    );
                }
                body.push_str("o.push('}');\n");
            }
            TypeKind::Union { variants, .. } => {
                body.push_str("match self {\n");
                for v in variants {
                    let _ = writeln!(
                        body,
                        "Self::{}(x) => {{ o.push_str({:?}); {}; o.push(')'); }}",
                        member(NameKind::Variant, &v.name),
                        format!("{}(", v.name),
                        render_expr(ir, &v.ty, "x", true, 0)
                    );
                }
                body.push_str("Self::Unknown { tag, body } => unknown_variant(o, tag, body),\n}\n");
            }
        }
        let _ = writeln!(
            out,
            "#[allow(deprecated)]\nimpl Render for {} {{\nfn render(&self, o: &mut String) {{\n{body}}}\n}}",
            rust_path(ir, def)
        );
    }
    out
}

/// Code rendering `var` (of type `ty`: a reference to the value when
/// `by_ref`, else a place such as `self.field`) into `o`.
fn render_expr(ir: &Ir, ty: &Type, var: &str, by_ref: bool, depth: usize) -> String {
    let d = depth;
    let (value, reference) = if by_ref {
        (format!("*{var}"), var.to_string())
    } else {
        (var.to_string(), format!("&{var}"))
    };
    match ty {
        Type::Prim(Prim::Bool) => format!("boolean(o, {value})"),
        Type::Prim(Prim::F32) => format!("f32(o, {value})"),
        Type::Prim(Prim::F64) => format!("f64(o, {value})"),
        Type::Prim(_) => format!("int(o, {value})"),
        Type::String => format!("string(o, {reference})"),
        Type::Bytes => format!("bytes(o, {reference})"),
        Type::List(e) | Type::Array(e, _) => format!(
            "seq(o, {var}.iter(), |o, x{d}| {})",
            render_expr(ir, &e.ty, &format!("x{d}"), true, d + 1)
        ),
        Type::Map(k, v) => format!(
            "map(o, {var}.iter(), |o, k{d}| {}, |o, v{d}| {})",
            render_expr(ir, &k.ty, &format!("k{d}"), true, d + 1),
            render_expr(ir, &v.ty, &format!("v{d}"), true, d + 1)
        ),
        Type::Optional(inner) => format!(
            "opt(o, {var}.as_ref(), |o, x{d}| {})",
            render_expr(ir, inner, &format!("x{d}"), true, d + 1)
        ),
        Type::Named(r) => match ir.ty(r.id).kind {
            TypeKind::Enum { .. } => format!("int(o, {var}.to_raw())"),
            _ => format!("{var}.render(o)"),
        },
    }
}
