//! Resolution and checks: syntax trees in, [`Ir`] or diagnostics out.
//!
//! Passes, in order: `lower` binds names and checks each declaration on its
//! own; `members` settles what backends say about each field and variant
//! (its path in errors, the charge for an absent default);
//! `layout` computes sizes and offsets and finds containment cycles;
//! `memory` models what each type occupies once decoded; `size` bounds what
//! one value may take; `depth` bounds how deep types nest in generated Rust
//! and how deep their smallest values nest;
//! `naming` checks that every name survives conversion to each target
//! language. Each pass reports every problem it finds before the next runs.

mod depth;
mod layout;
mod lower;
mod members;
pub(crate) mod memory;
mod naming;
mod quantize;
mod size;

use crate::diag::Diagnostic;
use crate::ir::Ir;
use crate::load::Loaded;

/// Checks the names of a checked IR against the naming rules of any
/// backends (the built-in ones are checked by [`analyze`]); for backends
/// outside this crate.
pub use naming::check_with as check_names;

/// Strongly connected components of a graph of types (for backends whose
/// types must be built with indirections where they refer back to
/// themselves).
pub(crate) use layout::tarjan;

/// Checks the loaded files. Returns the IR only when there is no error;
/// warnings come back either way.
pub fn analyze(loaded: &Loaded) -> (Option<Ir>, Vec<Diagnostic>) {
    let (mut ir, mut diags) = lower::lower(loaded);
    if diags.iter().any(Diagnostic::is_error) {
        return (None, diags);
    }
    members::compute(&mut ir);
    diags.extend(layout::compute(&mut ir));
    if diags.iter().any(Diagnostic::is_error) {
        return (None, diags);
    }
    memory::compute(&mut ir);
    diags.extend(size::check(&ir));
    diags.extend(depth::check(&ir));
    if diags.iter().any(Diagnostic::is_error) {
        return (None, diags);
    }
    diags.extend(naming::check(&ir));
    if diags.iter().any(Diagnostic::is_error) {
        return (None, diags);
    }
    (Some(ir), diags)
}

/// The closest of `candidates` to `name`, if close enough to be a likely typo.
pub(crate) fn suggest<'a>(
    name: &str,
    candidates: impl Iterator<Item = &'a str>,
) -> Option<&'a str> {
    let lower = name.to_ascii_lowercase();
    candidates
        .filter(|c| *c != name)
        .map(|c| (edit_distance(&lower, &c.to_ascii_lowercase()), c))
        .filter(|&(d, c)| d <= (c.len().max(name.len()) / 3).max(1))
        .min_by_key(|&(d, c)| (d, c))
        .map(|(_, c)| c)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_near_names_only() {
        let names = ["Vec3", "Quat", "ServerPacket"];
        assert_eq!(suggest("Vec4", names.into_iter()), Some("Vec3"));
        assert_eq!(suggest("vec3", names.into_iter()), Some("Vec3"));
        assert_eq!(suggest("Transform", names.into_iter()), None);
    }
}
