//! Generates Rust for every schema in `schemas/` through the `build.rs` API,
//! the way a user's crate does, plus a table of every generated type for the
//! property tests.

use std::fmt::Write as _;
use std::path::PathBuf;

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
        path.push(names::ident(Lang::Rust, NameKind::Type, &def.name));
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
    Ok(())
}
