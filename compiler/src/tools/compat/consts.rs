//! Constants: paired by qualified name (a name found once in another
//! namespace has moved), then checked for their value, their type and the
//! generated class that holds them, which some languages name after the
//! schema file.

use std::collections::BTreeMap;

use super::{Comparer, Rule};
use crate::emit::output;
use crate::ir::*;

/// A constant with where its generated code puts it.
struct Placed<'a> {
    c: &'a Const,
    namespace: String,
    file: &'a str,
    /// `(language, class)` for each built-in language that holds constants
    /// in a class named after the file (C#'s `ChatConstants`).
    holders: Vec<(&'static str, String)>,
}

fn placed(ir: &Ir) -> Vec<Placed<'_>> {
    let namings = crate::emit::namings();
    let stems: Vec<Vec<String>> = namings
        .iter()
        .map(|n| output::stems(ir, n.reserved_stems))
        .collect();
    let mut out = Vec::new();
    for (index, file) in ir.files.iter().enumerate() {
        let holders: Vec<(&'static str, String)> = namings
            .iter()
            .zip(&stems)
            .filter_map(|(n, stems)| n.consts_holder.map(|h| (n.language, h(&stems[index]))))
            .collect();
        for c in &file.consts {
            out.push(Placed {
                c,
                namespace: file.namespace.join("."),
                file: &file.name,
                holders: holders.clone(),
            });
        }
    }
    out
}

fn qualified(p: &Placed<'_>) -> String {
    if p.namespace.is_empty() {
        p.c.name.clone()
    } else {
        format!("{}.{}", p.namespace, p.c.name)
    }
}

impl Comparer<'_> {
    pub(super) fn compare_consts(&mut self) {
        let old = placed(self.old);
        let new = placed(self.new);
        let new_at: BTreeMap<String, usize> = new
            .iter()
            .enumerate()
            .map(|(i, p)| (qualified(p), i))
            .collect();
        let old_names: BTreeMap<String, usize> = old
            .iter()
            .enumerate()
            .map(|(i, p)| (qualified(p), i))
            .collect();
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        let (mut gone, mut arrived) = (Vec::new(), Vec::new());
        for (i, p) in old.iter().enumerate() {
            match new_at.get(&qualified(p)) {
                Some(&j) => pairs.push((i, j)),
                None => gone.push(i),
            }
        }
        for (j, p) in new.iter().enumerate() {
            if !old_names.contains_key(&qualified(p)) {
                arrived.push(j);
            }
        }
        // A name gone from one namespace and found once in another moved.
        let unique = |list: &[usize], all: &[Placed<'_>]| -> BTreeMap<String, usize> {
            let mut by: BTreeMap<String, Option<usize>> = BTreeMap::new();
            for &i in list {
                by.entry(all[i].c.name.clone())
                    .and_modify(|e| *e = None)
                    .or_insert(Some(i));
            }
            by.into_iter()
                .filter_map(|(k, v)| v.map(|v| (k, v)))
                .collect()
        };
        let (gone_by, arrived_by) = (unique(&gone, &old), unique(&arrived, &new));
        let mut namespace_moves = Vec::new();
        for (name, &i) in &gone_by {
            if let Some(&j) = arrived_by.get(name) {
                namespace_moves.push((i, j));
            }
        }
        gone.retain(|i| !namespace_moves.iter().any(|(m, _)| m == i));
        arrived.retain(|j| !namespace_moves.iter().any(|(_, m)| m == j));

        for &(i, j) in &namespace_moves {
            let (a, b) = (&old[i], &new[j]);
            self.push(
                Rule::ConstMoved,
                qualified(b),
                format!(
                    "constant `{}` moved to namespace `{}`",
                    qualified(a),
                    b.namespace
                ),
                Some((a.c.span, "declared here in the old version".into())),
                Some((b.c.span, "now declared here".into())),
                Some("code naming the generated constant by its namespace must be updated"),
            );
        }
        // Constants that stayed in their namespace but whose generated
        // class changed, grouped by the files they came from and went to.
        let mut file_moves: BTreeMap<(&str, &str), Vec<(usize, usize)>> = BTreeMap::new();
        for &(i, j) in &pairs {
            if old[i].holders != new[j].holders {
                file_moves
                    .entry((old[i].file, new[j].file))
                    .or_default()
                    .push((i, j));
            }
        }
        for ((from, to), moved) in file_moves {
            let (a, b) = (&old[moved[0].0], &new[moved[0].1]);
            let names: Vec<String> = moved
                .iter()
                .map(|&(i, _)| format!("`{}`", old[i].c.name))
                .collect();
            let classes: Vec<String> = b
                .holders
                .iter()
                .zip(&a.holders)
                .filter(|(n, o)| n != o)
                .map(|((lang, n), (_, o))| format!("the {lang} class `{n}` (was `{o}`)"))
                .collect();
            self.push(
                Rule::ConstMoved,
                to.to_string(),
                format!(
                    "{} {} of `{}` moved from {from} to {to}: {} now generated into {}",
                    if names.len() == 1 { "constant" } else { "constants" },
                    names.join(", "),
                    if a.namespace.is_empty() { "the root namespace" } else { &a.namespace },
                    if names.len() == 1 { "it is" } else { "they are" },
                    classes.join(" and ")
                ),
                Some((a.c.span, format!("in {from}"))),
                Some((b.c.span, format!("now in {to}"))),
                Some("the file's name names the class that holds its constants; code using them must name the new class"),
            );
        }
        for &(i, j) in pairs.iter().chain(&namespace_moves) {
            let (a, b) = (old[i].c, new[j].c);
            if a.value != b.value {
                self.push(
                    Rule::ConstValueChanged,
                    qualified(&new[j]),
                    format!(
                        "constant `{}` changed from {} to {}",
                        qualified(&new[j]),
                        a.value,
                        b.value
                    ),
                    Some((a.span, a.value.to_string())),
                    Some((b.span, b.value.to_string())),
                    Some("peers built from the two versions disagree on its value (a protocol version, a limit); uses in the schema are reported where they change the bytes"),
                );
            }
            if a.ty != b.ty {
                self.push(
                    Rule::ConstRetyped,
                    qualified(&new[j]),
                    format!(
                        "constant `{}` changed type from `{}` to `{}`",
                        qualified(&new[j]),
                        a.ty.name(),
                        b.ty.name()
                    ),
                    Some((a.span, format!("`{}`", a.ty.name()))),
                    Some((b.span, format!("`{}`", b.ty.name()))),
                    Some("the generated constant's type changes; code storing it in the old type may not compile"),
                );
            }
        }
        for i in gone {
            let a = &old[i];
            self.push(
                Rule::ConstRemoved,
                qualified(a),
                format!("constant `{}` was removed", qualified(a)),
                Some((a.c.span, "declared here in the old version".into())),
                None,
                Some("the bytes are unchanged; code using the generated constant stops compiling"),
            );
        }
        for j in arrived {
            let b = &new[j];
            self.push(
                Rule::ConstAdded,
                qualified(b),
                format!("constant `{}` was added", qualified(b)),
                None,
                Some((b.c.span, "new".into())),
                None,
            );
        }
    }
}
