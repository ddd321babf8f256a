//! Waivers: deliberate changes, recorded in the repository and reviewed like
//! code. Each names a rule, the place it applies to and a reason, and
//! optionally the baseline revision it was written against:
//!
//! ```toml
//! [[compat.waiver]]
//! rule = "const-value-changed"
//! place = "game.chat.MAX_CHAT"
//! reason = "every reader accepts 512 since release 1.4"
//! baseline = "v1.3"   # optional: only when comparing against this revision
//! ```
//!
//! The tables live under `[compat]`, so the same text can stand in a file of
//! its own (`pktc-waivers.toml`) or in a project file that has other
//! sections. A finding a waiver matches is reported as `waived` and not
//! counted; a waiver that matches no finding (the change was undone, or the
//! baseline moved past it) is an error, so stale waivers cannot pile up.

use std::fmt;
use std::path::Path;

use serde::Deserialize;

use super::{Report, Rule};

/// One `[[compat.waiver]]` table.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Waiver {
    /// The rule's id, as `pktc compat` prints it in brackets.
    pub rule: String,
    /// The qualified name of what changed (`game.Chat.text`), as `pktc
    /// compat --format json` prints it as `place`.
    pub place: String,
    /// Why the change is deliberate; printed with the waived finding.
    pub reason: String,
    /// The revision the waiver was written against: it applies only to a
    /// comparison with that revision (`--against-git`), compared by commit.
    #[serde(default)]
    pub baseline: Option<String>,
}

/// The waivers of one file, each with the line its table starts on.
#[derive(Clone, Debug, Default)]
pub struct Waivers {
    /// The file as shown in messages.
    pub file: String,
    pub entries: Vec<(Waiver, usize)>,
}

#[derive(Deserialize)]
struct WaiverFile {
    #[serde(default)]
    compat: Section,
}

/// `[compat]`: other keys (a project file's baseline, say) are not ours.
#[derive(Default, Deserialize)]
struct Section {
    #[serde(default)]
    waiver: Vec<toml::Spanned<Waiver>>,
}

/// The 1-based line of byte `offset` of `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

impl Waivers {
    /// Parses `text` (the file `file`, as shown in messages). Every
    /// waiver must name a known rule, a place and a reason.
    pub fn parse(file: &str, text: &str) -> Result<Waivers, String> {
        let parsed: WaiverFile = toml::from_str(text).map_err(|e| {
            let at = e
                .span()
                .map_or(String::new(), |s| format!(":{}", line_of(text, s.start)));
            format!("{file}{at}: {}", e.message().trim_end())
        })?;
        let mut entries = Vec::new();
        for spanned in parsed.compat.waiver {
            let line = line_of(text, spanned.span().start);
            let w = spanned.into_inner();
            let problem = if Rule::from_id(&w.rule).is_none() {
                Some(match Rule::similar(&w.rule) {
                    Some(r) => format!(
                        "`{}` is not a rule of pktc compat; did you mean `{}`?",
                        w.rule,
                        r.id()
                    ),
                    None => format!(
                        "`{}` is not a rule of pktc compat (`pktc explain` lists them)",
                        w.rule
                    ),
                })
            } else if w.place.trim().is_empty() {
                Some("the waiver names no place".to_string())
            } else if w.reason.trim().is_empty() {
                Some("the waiver gives no reason".to_string())
            } else if w.baseline.as_deref().is_some_and(|b| b.trim().is_empty()) {
                Some("the baseline is empty; leave it out to apply to any".to_string())
            } else {
                None
            };
            if let Some(p) = problem {
                return Err(format!("{file}:{line}: {p}"));
            }
            entries.push((w, line));
        }
        Ok(Waivers {
            file: file.to_string(),
            entries,
        })
    }

    /// Reads and parses the file at `path`.
    pub fn read(path: &Path) -> Result<Waivers, String> {
        let shown = crate::load::display(path);
        let text = crate::load::read_source(path)
            .map_err(|e| format!("cannot read {shown}: {}", crate::load::describe_io(&e)))?;
        Waivers::parse(&shown, &text)
    }
}

/// What the waivers were compared against, for waivers that name a
/// baseline.
pub enum Baseline<'a> {
    /// Two files named on the command line: no revision.
    Files,
    /// A git revision, as given and as the commit it resolves to, with a way
    /// to resolve a waiver's baseline in the same repository.
    Git {
        rev: &'a str,
        commit: String,
        resolve: &'a dyn Fn(&str) -> Option<String>,
    },
}

/// A waiver that accepted no finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unused {
    pub file: String,
    pub line: usize,
    pub waiver: Waiver,
    /// Why: no finding of its rule at its place, or another baseline.
    pub problem: String,
}

impl fmt::Display for Unused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: the waiver of `{}` at `{}` {}; remove it",
            self.file, self.line, self.waiver.rule, self.waiver.place, self.problem
        )
    }
}

impl Unused {
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "file": self.file,
            "line": self.line,
            "rule": self.waiver.rule,
            "place": self.waiver.place,
            "baseline": self.waiver.baseline,
            "problem": self.problem,
        })
    }
}

impl Report {
    /// Marks the findings that `waivers` accept as waived (each waiver
    /// accepts every finding of its rule at its place) and returns the
    /// waivers that accepted none. Waived findings are listed after the
    /// others and not counted.
    pub fn apply_waivers(&mut self, waivers: &Waivers, baseline: &Baseline<'_>) -> Vec<Unused> {
        let mut unused = Vec::new();
        for (w, line) in &waivers.entries {
            let matching: Vec<usize> = self
                .changes
                .iter()
                .enumerate()
                .filter(|(_, c)| c.rule.id() == w.rule && c.place == w.place)
                .map(|(i, _)| i)
                .collect();
            let other_baseline = match (&w.baseline, baseline) {
                (None, _) => None,
                (Some(b), Baseline::Files) => Some(format!(
                    "is for baseline `{b}`, but two files were compared, not a revision"
                )),
                (
                    Some(b),
                    Baseline::Git {
                        rev,
                        commit,
                        resolve,
                    },
                ) => match resolve(b) {
                    Some(c) if c == *commit => None,
                    Some(_) => Some(format!(
                        "is for baseline `{b}`, but the comparison is with `{rev}`, another commit"
                    )),
                    None => Some(format!(
                        "is for baseline `{b}`, which is not a revision of the repository"
                    )),
                },
            };
            let fresh: Vec<usize> = matching
                .iter()
                .copied()
                .filter(|&i| self.changes[i].waived.is_none())
                .collect();
            let problem = match (other_baseline, matching.is_empty(), fresh.is_empty()) {
                (Some(p), ..) => Some(p),
                (None, true, _) => Some("matches no finding".to_string()),
                (None, false, true) => {
                    Some("repeats an earlier waiver of the same finding".to_string())
                }
                (None, false, false) => None,
            };
            match problem {
                Some(problem) => unused.push(Unused {
                    file: waivers.file.clone(),
                    line: *line,
                    waiver: w.clone(),
                    problem,
                }),
                None => {
                    for i in fresh {
                        self.changes[i].waived = Some(w.reason.clone());
                    }
                }
            }
        }
        self.changes.sort_by_key(|c| c.waived.is_some());
        unused
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_waivers_with_their_lines_and_ignores_other_sections() {
        let text = "[project]\nname = \"x\"\n\n[compat]\nbaseline = \"main\"\n\n\
                    [[compat.waiver]]\nrule = \"const-value-changed\"\nplace = \"g.MAX\"\n\
                    reason = \"deployed\"\n\n[[compat.waiver]]\nrule = \"message-max-changed\"\n\
                    place = \"g.Chat.text\"\nreason = \"deployed\"\nbaseline = \"v1\"\n";
        let w = Waivers::parse("pktc.toml", text).expect("parses");
        assert_eq!(w.entries.len(), 2);
        assert_eq!(w.entries[0].1, 7);
        assert_eq!(w.entries[1].1, 12);
        assert_eq!(w.entries[1].0.baseline.as_deref(), Some("v1"));
        assert!(Waivers::parse("w.toml", "").unwrap().entries.is_empty());
    }

    #[test]
    fn a_waiver_without_a_reason_or_with_an_unknown_rule_or_key_is_refused() {
        let one = |body: &str| Waivers::parse("w.toml", &format!("[[compat.waiver]]\n{body}"));
        let e =
            one("rule = \"const-value-change\"\nplace = \"g.X\"\nreason = \"r\"\n").unwrap_err();
        assert!(
            e.contains("w.toml:1:") && e.contains("did you mean `const-value-changed`?"),
            "{e}"
        );
        let e =
            one("rule = \"const-value-changed\"\nplace = \"g.X\"\nreason = \" \"\n").unwrap_err();
        assert!(e.contains("gives no reason"), "{e}");
        let e = one("rule = \"const-value-changed\"\nplace = \"g.X\"\n").unwrap_err();
        assert!(e.contains("reason"), "{e}");
        let e = one("rule = \"const-value-changed\"\nplace = \"g.X\"\nreason = \"r\"\nwhy = 1\n")
            .unwrap_err();
        assert!(e.contains("w.toml:") && e.contains("why"), "{e}");
        let e = Waivers::parse("w.toml", "[[compat.waiver]\n").unwrap_err();
        assert!(e.starts_with("w.toml:1:"), "{e}");
    }
}
