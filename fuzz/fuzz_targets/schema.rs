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
        // One file: importing "fuzz.pkt" makes a cycle; other paths are missing.
        if path == Path::new("fuzz.pkt") {
            Ok(self.0.clone())
        } else {
            Err(io::Error::new(io::ErrorKind::NotFound, "not in the fuzz input"))
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    // Whatever parses formats, and the formatted text parses to the same tree
    // and is already formatted.
    if let Ok(mut tree) = pktc::syntax::parse(&text, pktc::diag::FileId(0)) {
        let formatted = pktc::tools::format::format_source(&text).expect("a parsed file formats");
        let mut again = pktc::syntax::parse(&formatted, pktc::diag::FileId(0))
            .unwrap_or_else(|d| panic!("formatted text does not parse: {}\n{formatted}", d.message));
        tree.erase_spans();
        again.erase_spans();
        assert_eq!(format!("{tree:?}"), format!("{again:?}"), "formatting changed the tree");
        assert_eq!(pktc::tools::format::format_source(&formatted).ok().as_deref(), Some(formatted.as_str()));
    }
    match pktc::check_with(&[PathBuf::from("fuzz.pkt")], &One(text)) {
        Ok(checked) => {
            let _ = pktc::tools::layout::layout(&checked.ir);
            for lang in pktc::Lang::ALL {
                let _ = pktc::emit::generate(&checked.ir, &pktc::emit::GenOptions::new(lang));
            }
        }
        Err(failed) => assert!(!failed.diagnostics.is_empty(), "rejected without a diagnostic"),
    }
});
