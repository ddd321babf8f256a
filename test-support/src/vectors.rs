//! The golden vectors of `schemas/vectors/*.vectors` (format in the README
//! there): each kept once, read by the Rust, C#, inspect and benchmark tests.

use std::path::{Path, PathBuf};

/// One golden vector.
#[derive(Clone, Debug)]
pub struct Vector {
    /// Unique across all files.
    pub name: String,
    /// The schema file it belongs to, relative to the workspace root
    /// ([`root`]): `schemas/<file stem>.pkt`.
    pub schema: PathBuf,
    /// The qualified type name (`game.net.ServerPacket`).
    pub ty: String,
    /// The bytes as written in the file.
    pub hex: String,
    /// The bytes.
    pub bytes: Vec<u8>,
    /// The value as `pktc inspect` prints it, if given (JSON text).
    pub json: Option<String>,
}

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("test-support/ has a parent")
        .to_path_buf()
}

/// `schemas/vectors` of this workspace.
pub fn dir() -> PathBuf {
    root().join("schemas/vectors")
}

/// Every vector, by file name and then in file order.
pub fn all() -> Vec<Vector> {
    let dir = dir();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "vectors"))
        .collect();
    files.sort();
    let mut out: Vec<Vector> = Vec::new();
    for file in files {
        let text =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let stem = file.file_stem().expect("stem").to_string_lossy();
        let schema = Path::new("schemas").join(format!("{stem}.pkt"));
        for v in parse(&text, &schema).unwrap_or_else(|e| panic!("{}: {e}", file.display())) {
            assert!(
                out.iter().all(|o| o.name != v.name),
                "{}: vector `{}` is defined twice",
                file.display(),
                v.name
            );
            out.push(v);
        }
    }
    assert!(!out.is_empty(), "no vectors in {}", dir.display());
    out
}

/// The vector called `name`; panics if there is none.
pub fn get(name: &str) -> Vector {
    all()
        .into_iter()
        .find(|v| v.name == name)
        .unwrap_or_else(|| panic!("no golden vector `{name}` in {}", dir().display()))
}

/// A vector being read: its name and the keys seen so far.
#[derive(Default)]
struct Partial {
    name: String,
    ty: Option<String>,
    hex: Option<String>,
    json: Option<String>,
}

impl Partial {
    fn finish(self, schema: &Path) -> Result<Vector, String> {
        let name = self.name;
        let ty = self.ty.ok_or_else(|| format!("[{name}] has no `type`"))?;
        let hex = self.hex.ok_or_else(|| format!("[{name}] has no `hex`"))?;
        Ok(Vector {
            bytes: crate::hex::decode(&hex),
            name,
            schema: schema.to_path_buf(),
            ty,
            hex,
            json: self.json,
        })
    }
}

/// Reads one file's text. Errors name the line.
pub fn parse(text: &str, schema: &Path) -> Result<Vec<Vector>, String> {
    let mut out = Vec::new();
    let mut current: Option<Partial> = None;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        let at = |m: &str| format!("line {}: {m}", i + 1);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            if let Some(done) = current.take() {
                out.push(done.finish(schema).map_err(|e| at(&e))?);
            }
            current = Some(Partial {
                name: name.trim().to_string(),
                ..Partial::default()
            });
            continue;
        }
        let Some(cur) = current.as_mut() else {
            return Err(at("a key before the first [name]"));
        };
        let (key, value) = line
            .split_once('=')
            .ok_or_else(|| at("expected `key = value`"))?;
        let slot = match key.trim() {
            "type" => &mut cur.ty,
            "hex" => &mut cur.hex,
            "json" => &mut cur.json,
            other => return Err(at(&format!("unknown key `{other}`"))),
        };
        if slot.is_some() {
            return Err(at(&format!("`{}` given twice", key.trim())));
        }
        *slot = Some(value.trim().to_string());
    }
    if let Some(done) = current {
        out.push(done.finish(schema)?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_file_parses_and_names_are_unique() {
        let all = super::all();
        for v in &all {
            let schema = super::root().join(&v.schema);
            assert!(schema.exists(), "{}: no {}", v.name, schema.display());
            assert!(!v.bytes.is_empty(), "{}", v.name);
        }
    }

    #[test]
    fn parse_reports_the_line() {
        let e = super::parse("[a]\ntype = T\nfoo = 1\n", "x.pkt".as_ref()).unwrap_err();
        assert!(e.starts_with("line 3:"), "{e}");
        let e = super::parse("[a]\ntype = T\n", "x.pkt".as_ref()).unwrap_err();
        assert!(e.contains("no `hex`"), "{e}");
    }
}
