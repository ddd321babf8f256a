//! The schema front end (parser, loader, checker, layout, diagnostics) on
//! arbitrary text: an `Ok` or diagnostics, never a panic or a hang.
#![no_main]

use std::io;
use std::path::{Path, PathBuf};

use libfuzzer_sys::fuzz_target;
use pktc::load::FileReader;

struct One(String);

impl FileReader for One {
    fn read(&self, path: &Path) -> io::Result<String> {
        if path == Path::new("fuzz.pkt") {
            Ok(self.0.clone())
        } else {
            // Imports resolve to the same text, so import cycles are reachable.
            Ok(self.0.clone())
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    match pktc::check_with(&[PathBuf::from("fuzz.pkt")], &One(text)) {
        Ok(checked) => {
            let _ = pktc::report::layout(&checked.ir);
            for lang in [pktc::Lang::Rust, pktc::Lang::CSharp] {
                let _ = pktc::emit::generate(&checked.ir, &pktc::emit::GenOptions::new(lang));
            }
        }
        Err(failed) => assert!(!failed.diagnostics.is_empty(), "rejected without a diagnostic"),
    }
});
