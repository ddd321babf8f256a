//! Runs one row of the benchmark matrix many times, for counting its
//! instructions under valgrind's callgrind (`--bin instructions`).
//!
//! The setup (building and encoding every codec's value of the data set) is
//! the same for any count, so the difference between the instructions of two
//! counts divided by the difference in count is the cost of one operation.

use std::hint::black_box;

use crate::codec::Codec;
use crate::suite::{self, Visitor};
use rkyv::util::AlignedVec;

/// What a row does, parsed from its name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Row {
    /// `encode:CODEC`: the codec's encode into its reused buffer, as the
    /// encode column of the benchmark tables.
    Encode(String),
    /// `CODEC`: the codec's decode into an owned value, dropped each time.
    Decode(String),
    /// `decode_into`: pktc's `decode_into` an existing value.
    DecodeInto,
    /// `CODEC/OPERATION`: a read-side row ([`suite::READS`]).
    Read(String),
}

impl Row {
    /// Parses a row name: `encode:CODEC`, `decode_into`, `CODEC/OPERATION`
    /// for a read-side row, else `CODEC` for its decode.
    pub fn parse(name: &str) -> Row {
        if let Some(codec) = name.strip_prefix("encode:") {
            Row::Encode(codec.to_owned())
        } else if name == "decode_into" {
            Row::DecodeInto
        } else if suite::READS
            .iter()
            .any(|(codec, op)| name == format!("{codec}/{op}"))
        {
            Row::Read(name.to_owned())
        } else {
            Row::Decode(name.to_owned())
        }
    }
}

/// Repeats its row on the one data set `suite::run` walks.
struct Repeat {
    row: Row,
    n: usize,
    ran: bool,
}

impl Visitor for Repeat {
    fn codec<T, C>(&mut self, _dataset: &'static str, codec: &'static str, value: &T, mut c: C)
    where
        T: Clone + PartialEq + core::fmt::Debug,
        C: Codec<T>,
    {
        match &self.row {
            Row::Encode(name) if name == codec => {
                for _ in 0..self.n {
                    black_box(c.encode(black_box(value)));
                }
                self.ran = true;
            }
            Row::Decode(name) if name == codec => {
                let mut wire = AlignedVec::<16>::new();
                wire.extend_from_slice(c.encode(value));
                for _ in 0..self.n {
                    black_box(c.decode(black_box(&wire)));
                }
                self.ran = true;
            }
            _ => {}
        }
    }

    fn decode_into<T>(
        &mut self,
        _dataset: &'static str,
        value: &T,
        wire: Vec<u8>,
        into: fn(&[u8], &mut T),
    ) where
        T: Clone + PartialEq + core::fmt::Debug,
    {
        if self.row != Row::DecodeInto {
            return;
        }
        let mut target = value.clone();
        for _ in 0..self.n {
            into(black_box(&wire), &mut target);
            black_box(&target);
        }
        self.ran = true;
    }

    fn read(
        &mut self,
        _dataset: &'static str,
        codec: &'static str,
        op: &'static str,
        wire: &[u8],
        read: fn(&[u8]) -> u64,
        _expected: u64,
    ) {
        if self.row != Row::Read(format!("{codec}/{op}")) {
            return;
        }
        let mut aligned = AlignedVec::<16>::new();
        aligned.extend_from_slice(wire);
        for _ in 0..self.n {
            black_box(read(black_box(&aligned)));
        }
        self.ran = true;
    }
}

/// Runs `row` of `dataset` (its exact name) `n` times; false when the data
/// set has no such row.
pub fn repeat(dataset: &str, row: &str, n: usize) -> bool {
    let mut r = Repeat {
        row: Row::parse(row),
        n,
        ran: false,
    };
    suite::run(&mut r, Some(dataset));
    r.ran
}
