//! The case file of the conformance drivers (the protocol is stated in
//! `rust-tests/tests/conformance.rs`): one case a line,
//! `<type> <hex> <limits>`, where `<type>` is the qualified schema name
//! (`game.net.ServerPacket`), `<hex>` the input (`-` when empty) and
//! `<limits>` either `-` (the default limits) or six decimal numbers joined
//! by commas: max depth, max length, max frame, max total elements, decode
//! budget base, decode budget per byte. A fourth word, `frames`, asks for
//! the input to be read as a stream of frames instead of as one value.

use std::fmt::Write as _;

/// The six limits a case may set, in the order of the case file (and of
/// `pkt_runtime::Limits`' fields and C#'s `PktLimits` constructor).
pub type Limits = [u64; 6];

/// One case: decode `bytes` as `ty`, with `limits` or the default ones.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    pub ty: String,
    pub bytes: Vec<u8>,
    pub limits: Option<Limits>,
    /// Whether the bytes are a stream of frames (a frame reader of the
    /// type's) rather than one value.
    pub frames: bool,
}

impl Case {
    /// The case's line, without its newline.
    pub fn line(&self) -> String {
        let mut s = format!("{} ", self.ty);
        if self.bytes.is_empty() {
            s.push('-');
        } else {
            s.push_str(&crate::hex::encode(&self.bytes));
        }
        match self.limits {
            None => s.push_str(" -"),
            Some(l) => {
                for (i, n) in l.iter().enumerate() {
                    let _ = write!(s, "{}{n}", if i == 0 { ' ' } else { ',' });
                }
            }
        }
        if self.frames {
            s.push_str(" frames");
        }
        s
    }

    /// Reads a line written by [`Case::line`].
    pub fn parse(line: &str) -> Result<Case, String> {
        let mut parts = line.split(' ');
        let (Some(ty), Some(hex), Some(limits), mode, None) = (
            parts.next(),
            parts.next(),
            parts.next(),
            parts.next(),
            parts.next(),
        ) else {
            return Err(format!("not `<type> <hex> <limits> [frames]`: {line:?}"));
        };
        let frames = match mode {
            None => false,
            Some("frames") => true,
            Some(other) => return Err(format!("unknown mode {other:?}: {line:?}")),
        };
        let bytes = if hex == "-" {
            Vec::new()
        } else {
            crate::hex::decode(hex)
        };
        let limits = if limits == "-" {
            None
        } else {
            let n: Vec<u64> = limits
                .split(',')
                .map(|n| n.parse().map_err(|e| format!("{e}: {line:?}")))
                .collect::<Result<_, _>>()?;
            Some(
                n.try_into()
                    .map_err(|_| format!("six limits expected: {line:?}"))?,
            )
        };
        Ok(Case {
            ty: ty.to_string(),
            bytes,
            limits,
            frames,
        })
    }
}

/// The case file of `cases`.
pub fn file(cases: &[Case]) -> String {
    let mut s = String::new();
    for c in cases {
        s.push_str(&c.line());
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::Case;

    #[test]
    fn lines_round_trip() {
        for case in [
            Case {
                ty: "a.B".into(),
                bytes: vec![0, 0xff],
                limits: None,
                frames: false,
            },
            Case {
                ty: "a.B".into(),
                bytes: Vec::new(),
                limits: Some([1, 2, 3, 4, 5, 6]),
                frames: true,
            },
        ] {
            assert_eq!(
                Case::parse(&case.line()),
                Ok(case.clone()),
                "{}",
                case.line()
            );
        }
        assert!(Case::parse("a.B 00").is_err());
        assert!(Case::parse("a.B 00 1,2").is_err());
        assert!(Case::parse("a.B 00 - stream").is_err());
    }
}
