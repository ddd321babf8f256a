//! The TypeScript section of `docs/benchmarks.md`, which the `typescript`
//! bin's node harness writes (`$CARGO_TARGET_DIR/ts-bench/section.md`)
//! between two markers; `--bin report` keeps it when it rewrites the file.

use std::path::Path;

const BEGIN: &str = "<!-- typescript:begin";
const END: &str = "<!-- typescript:end -->";

/// The section written by the last `typescript` run, if any.
pub fn section(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    (text.contains(BEGIN) && text.contains(END)).then_some(text)
}

/// The TypeScript section of an existing `doc`, markers included.
pub fn existing(doc: &str) -> Option<&str> {
    let b = doc.find(BEGIN)?;
    let e = doc[b..].find(END)? + b;
    Some(&doc[b..e + END.len()])
}

/// `doc` with its TypeScript section replaced by `section` (appended when absent).
pub fn splice(doc: &str, section: &str) -> String {
    match (doc.find(BEGIN), doc.find(END)) {
        (Some(b), Some(e)) if e > b => format!(
            "{}{}{}",
            &doc[..b],
            section.trim_end(),
            &doc[e + END.len()..]
        ),
        _ => format!("{}\n\n{}\n", doc.trim_end(), section.trim_end()),
    }
}
