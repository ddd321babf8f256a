//! Every codec on every data set once, unoptimised: each must give back the
//! value it encoded, and every read-side row (views, rkyv access) must read
//! what the owned value holds. Keeps the benchmark matrix compiling and
//! honest between benchmark runs (a codec that lost data would otherwise
//! look fast).

use std::collections::BTreeSet;

use pkt_bench::codec::Codec;
use pkt_bench::suite::{self, Visitor, CODECS, DATASETS, READS, VIEW_DATASETS};
use rkyv::util::AlignedVec;

#[derive(Default)]
struct RoundTrip {
    seen: BTreeSet<(&'static str, &'static str)>,
    reads: BTreeSet<(&'static str, &'static str, &'static str)>,
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

    fn read(
        &mut self,
        dataset: &'static str,
        codec: &'static str,
        op: &'static str,
        wire: &[u8],
        read: fn(&[u8]) -> u64,
        expected: u64,
    ) {
        assert_eq!(
            read(wire),
            expected,
            "{dataset}/{codec}/{op}: read something else than the owned value holds"
        );
        assert!(
            self.reads.insert((dataset, codec, op)),
            "{dataset}/{codec}/{op} twice"
        );
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
    for ds in VIEW_DATASETS {
        for (codec, op) in READS {
            assert!(
                v.reads.contains(&(ds, codec, op)),
                "{ds}/{codec}/{op} was not run"
            );
        }
    }
    assert_eq!(v.reads.len(), VIEW_DATASETS.len() * READS.len());
}

/// The views of the read-side data sets give back the owned values
/// (`to_owned`), and the read-side checksums, which `read` above compares
/// with the owned value's for every row, depend on the fields they read.
#[test]
fn views_agree_with_the_owned_decode() {
    use pkt_bench::data;
    use pkt_bench::pkt::bench::mesh::Mesh;
    use pkt_bench::pkt::game::net::ServerPacket;
    use pkt_bench::pkt::seeds::chat::ChatPacket;
    use pkt_bench::read::{CHAT, MESH, STREAM};
    use pkt_runtime::Encode;

    let chat = data::chat();
    let wire = chat.encode_to_vec().unwrap();
    assert_eq!(ChatPacket::view(&wire).unwrap().to_owned(), chat);
    assert_eq!((CHAT.view_all)(&wire), (CHAT.all_owned)(&chat));

    let mesh = data::mesh();
    let wire = mesh.encode_to_vec().unwrap();
    assert_eq!(Mesh::view(&wire).unwrap().to_owned(), mesh);
    assert_eq!((MESH.view_all)(&wire), (MESH.all_owned)(&mesh));
    // Changing one coordinate of one triangle changes the checksum.
    let mut other = mesh.clone();
    other.triangles[7].normal.z += 1.0;
    assert_ne!((MESH.all_owned)(&other), (MESH.all_owned)(&mesh));

    let frames = data::stream();
    let mut wire = Vec::new();
    for f in &frames {
        f.encode_into(&mut wire).unwrap();
    }
    let mut rest = wire.as_slice();
    for f in &frames {
        let (v, n) = ServerPacket::view_prefix(rest).unwrap();
        assert_eq!(&v.to_owned(), f);
        rest = &rest[n..];
    }
    assert!(rest.is_empty());
    // The stream rows view the frames through `for_each_view`.
    let mut k = 0;
    ServerPacket::for_each_view(&wire, |v, bytes| {
        assert_eq!(&(*v).to_owned(), &frames[k]);
        assert_eq!(bytes, frames[k].encode_to_vec().unwrap());
        k += 1;
    })
    .unwrap();
    assert_eq!(k, frames.len());
    assert_eq!((STREAM.view_all)(&wire), (STREAM.all_owned)(&frames));
    assert_ne!((STREAM.all_owned)(&frames), (STREAM.one_owned)(&frames));
}
