//! Generates Rust with serde derives for every schema in `schemas/` and for
//! this crate's own `schemas/` (arrays longer than serde's 32), the way a
//! user's crate turns the option on.

use std::path::PathBuf;

fn pkt_files(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("schema directory is readable")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pkt"))
        .collect();
    files.sort();
    files
}

fn main() -> Result<(), pktc::Error> {
    println!("cargo:rerun-if-changed=../schemas");
    println!("cargo:rerun-if-changed=schemas");
    let mut schemas = pkt_files("../schemas");
    schemas.extend(pkt_files("schemas"));
    pktc::Config::new().serde(true).compile(&schemas)?;
    Ok(())
}
