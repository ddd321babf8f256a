//! Runs a check over every fixture of a test and reports every failing one
//! by name, so one failing schema does not hide the others.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

/// What [`each`] calls a fixture in its report.
pub trait Fixture {
    fn name(&self) -> String;
}

impl Fixture for PathBuf {
    fn name(&self) -> String {
        self.display().to_string()
    }
}

impl Fixture for &Path {
    fn name(&self) -> String {
        self.display().to_string()
    }
}

impl Fixture for String {
    fn name(&self) -> String {
        self.clone()
    }
}

impl Fixture for &str {
    fn name(&self) -> String {
        self.to_string()
    }
}

/// A command line.
impl Fixture for &[&str] {
    fn name(&self) -> String {
        self.join(" ")
    }
}

/// A fixture with its name first.
impl<T> Fixture for (String, T) {
    fn name(&self) -> String {
        self.0.clone()
    }
}

/// Runs `check` on each fixture, catching panics (failed assertions,
/// snapshot mismatches), then panics once listing every failing fixture by
/// name with the first line of its message. Each panic is also printed as it
/// happens, with its details. An empty list fails too: a fixture directory
/// that lost its files must not pass silently.
pub fn each<T: Fixture>(fixtures: impl IntoIterator<Item = T>, mut check: impl FnMut(T)) {
    let mut total = 0;
    let mut failed: Vec<(String, String)> = Vec::new();
    for fixture in fixtures {
        total += 1;
        let name = fixture.name();
        if let Err(payload) = catch_unwind(AssertUnwindSafe(|| check(fixture))) {
            let message = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "(no message)".to_string());
            failed.push((name, message));
        }
    }
    assert!(total > 0, "no fixtures to check");
    if !failed.is_empty() {
        let mut report = format!("{} of {total} fixtures failed:", failed.len());
        for (name, message) in &failed {
            let first = message.lines().next().unwrap_or("");
            report.push_str(&format!("\n  {name}: {first}"));
        }
        panic!("{report}");
    }
}

#[cfg(test)]
mod tests {
    use std::panic::catch_unwind;

    #[test]
    fn reports_every_failure_by_name() {
        let mut seen = Vec::new();
        let e = catch_unwind(std::panic::AssertUnwindSafe(|| {
            super::each(["a", "b", "c"], |s| {
                seen.push(s);
                assert!(s == "b", "{s} is not b");
            })
        }))
        .unwrap_err();
        let msg = e.downcast_ref::<String>().expect("a message");
        assert!(msg.starts_with("2 of 3 fixtures failed:"), "{msg}");
        assert!(
            msg.contains("\n  a: a is not b") && msg.contains("\n  c: c is not b"),
            "{msg}"
        );
        assert_eq!(seen, ["a", "b", "c"]);
    }

    #[test]
    #[should_panic(expected = "no fixtures")]
    fn an_empty_list_fails() {
        super::each(Vec::<String>::new(), |_| {});
    }
}
