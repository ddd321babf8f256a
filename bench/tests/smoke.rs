//! Every codec on every data set once, unoptimised: each must give back the
//! value it encoded. Keeps the benchmark matrix compiling and honest between
//! benchmark runs (a codec that lost data would otherwise look fast).

use std::collections::BTreeSet;

use pkt_bench::codec::Codec;
use pkt_bench::suite::{self, Visitor, CODECS, DATASETS};
use rkyv::util::AlignedVec;

#[derive(Default)]
struct RoundTrip {
    seen: BTreeSet<(&'static str, &'static str)>,
}

impl Visitor for RoundTrip {
    fn codec<T, C>(&mut self, dataset: &'static str, codec: &'static str, value: &T, mut c: C)
    where
        T: Clone + PartialEq + core::fmt::Debug,
        C: Codec<T>,
    {
        let mut wire = AlignedVec::<16>::new();
        wire.extend_from_slice(c.encode(value));
        assert!(!wire.is_empty(), "{dataset}/{codec}: nothing encoded");
        assert!(
            c.decode(&wire) == *value,
            "{dataset}/{codec}: the decoded value differs from the encoded one"
        );
        assert!(
            self.seen.insert((dataset, codec)),
            "{dataset}/{codec} twice"
        );
    }

    fn decode_into<T>(
        &mut self,
        dataset: &'static str,
        value: &T,
        wire: Vec<u8>,
        into: fn(&[u8], &mut T),
    ) where
        T: Clone + PartialEq + core::fmt::Debug,
    {
        let mut target = value.clone();
        into(&wire, &mut target);
        assert!(target == *value, "{dataset}/pktc decode_into differs");
        assert!(self.seen.insert((dataset, "pktc decode_into")));
    }
}

#[test]
fn every_codec_round_trips_every_data_set() {
    let mut v = RoundTrip::default();
    suite::run(&mut v, None);
    for ds in DATASETS {
        for codec in [
            "pktc",
            "pktc (slice)",
            "pktc decode_into",
            "wincode",
            "rkyv",
        ] {
            assert!(
                v.seen.contains(&(ds, codec)),
                "{ds} was not run with {codec}"
            );
        }
    }
    for (ds, codec) in &v.seen {
        assert!(
            DATASETS.contains(ds) && CODECS.contains(codec),
            "{ds}/{codec} is not reported"
        );
    }
    assert!(v.seen.contains(&("Mesh", "memcpy")));
}
