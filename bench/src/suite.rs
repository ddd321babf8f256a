//! The benchmark matrix: every data set with every codec. The criterion
//! benchmarks and the report walk the same matrix through a [`Visitor`].

use crate::baseline::Baseline;
use crate::codec::{
    pktc_decode_into, pktc_decode_stream_into, Bebop, BincodeFixint, BincodeVarint, Bitcode, Codec,
    Pktc, PktcSlice, Postcard, Prost, Rkyv, Speedy, Stream,
};
use crate::data;
use crate::peers::bebop::generated::owned as bop;
use crate::peers::{native, proto, FromPkt};

/// Receives each (data set, codec) pair of the matrix.
pub trait Visitor {
    /// One codec on one data set: `value` is the codec's own representation
    /// of the data set.
    fn codec<T, C>(&mut self, dataset: &'static str, codec: &'static str, value: &T, c: C)
    where
        T: Clone + PartialEq + core::fmt::Debug,
        C: Codec<T>;

    /// pktc's `decode_into` on one data set: `into(wire, target)` decodes
    /// `wire`, the pktc encoding of `value`, into `target`.
    fn decode_into<T>(
        &mut self,
        dataset: &'static str,
        value: &T,
        wire: Vec<u8>,
        into: fn(&[u8], &mut T),
    ) where
        T: Clone + PartialEq + core::fmt::Debug;
}

/// Data set names, in report order.
pub const DATASETS: [&str; 8] = [
    "Packet",
    "Int3Packet",
    "TransformPacket",
    "ChatPacket",
    "Inventory",
    "WorldSnapshot",
    "Mesh",
    "ServerPacket stream",
];

/// Codec names, in report order.
pub const CODECS: [&str; 12] = [
    "pktc",
    "pktc (slice)",
    "baseline",
    "bincode (fixint)",
    "bincode (varint)",
    "postcard",
    "bitcode",
    "rkyv",
    "speedy",
    "prost",
    "bebop",
    "pktc decode_into",
];

/// The fixed-size seed packets.
pub const FIXED: [&str; 3] = ["Packet", "Int3Packet", "TransformPacket"];

macro_rules! one_value {
    ($v:expr, $ds:expr, $p:expr, $native:ty, $proto:ty, $bebop:ty) => {{
        let p = $p;
        $v.codec($ds, "pktc", &p, Pktc::default());
        $v.codec($ds, "pktc (slice)", &p, PktcSlice::default());
        let n = <$native>::from_pkt(&p);
        $v.codec($ds, "bincode (fixint)", &n, BincodeFixint::default());
        $v.codec($ds, "bincode (varint)", &n, BincodeVarint::default());
        $v.codec($ds, "postcard", &n, Postcard::default());
        $v.codec($ds, "bitcode", &n, Bitcode::default());
        $v.codec($ds, "rkyv", &n, Rkyv::default());
        $v.codec($ds, "speedy", &n, Speedy::default());
        $v.codec($ds, "prost", &<$proto>::from_pkt(&p), Prost::default());
        $v.codec($ds, "bebop", &<$bebop>::from_pkt(&p), Bebop::default());
        $v.decode_into(
            $ds,
            &p,
            pkt_runtime::Encode::encode_to_vec(&p).expect("within limits"),
            pktc_decode_into,
        );
        p
    }};
}

/// Walks the whole matrix. `only`, when given, limits it to the data sets
/// whose names contain that string.
pub fn run(v: &mut impl Visitor, only: Option<&str>) {
    let want = |ds: &str| only.is_none_or(|o| ds.contains(o));

    if want("Packet") {
        let p = one_value!(
            v,
            "Packet",
            data::packet(),
            native::Packet,
            proto::Packet,
            bop::Packet
        );
        v.codec("Packet", "baseline", &p, Baseline::default());
    }
    if want("Int3Packet") {
        let p = one_value!(
            v,
            "Int3Packet",
            data::int3_packet(),
            native::Int3Packet,
            proto::Int3Packet,
            bop::Int3Packet
        );
        v.codec("Int3Packet", "baseline", &p, Baseline::default());
    }
    if want("TransformPacket") {
        let p = one_value!(
            v,
            "TransformPacket",
            data::transform_packet(),
            native::TransformPacket,
            proto::TransformPacket,
            bop::TransformPacket
        );
        v.codec("TransformPacket", "baseline", &p, Baseline::default());
    }
    if want("ChatPacket") {
        one_value!(
            v,
            "ChatPacket",
            data::chat(),
            native::ChatPacket,
            proto::ChatPacket,
            bop::ChatPacket
        );
    }
    if want("Inventory") {
        one_value!(
            v,
            "Inventory",
            data::inventory(),
            native::Inventory,
            proto::Inventory,
            bop::Inventory
        );
    }
    if want("WorldSnapshot") {
        one_value!(
            v,
            "WorldSnapshot",
            data::world(),
            native::WorldSnapshot,
            proto::WorldSnapshot,
            bop::WorldSnapshot
        );
    }
    if want("Mesh") {
        one_value!(
            v,
            "Mesh",
            data::mesh(),
            native::Mesh,
            proto::Mesh,
            bop::Mesh
        );
    }
    if want("ServerPacket stream") {
        const DS: &str = "ServerPacket stream";
        let frames = data::stream();
        v.codec(DS, "pktc", &frames, Stream(Pktc::default()));
        v.codec(DS, "pktc (slice)", &frames, Stream(PktcSlice::default()));
        let n = Vec::<native::ServerPacket>::from_pkt(&frames);
        v.codec(DS, "bincode (fixint)", &n, Stream(BincodeFixint::default()));
        v.codec(DS, "bincode (varint)", &n, Stream(BincodeVarint::default()));
        v.codec(DS, "postcard", &n, Stream(Postcard::default()));
        // Whole Vec as one value: no per-frame delimiting in bitcode or rkyv.
        v.codec(DS, "bitcode", &n, Bitcode::default());
        v.codec(DS, "rkyv", &n, Rkyv::default());
        v.codec(DS, "speedy", &n, Stream(Speedy::default()));
        let pr = Vec::<proto::ServerPacket>::from_pkt(&frames);
        v.codec(DS, "prost", &pr, Stream(Prost::default()));
        let b = Vec::<bop::ServerPacket>::from_pkt(&frames);
        v.codec(DS, "bebop", &b, Stream(Bebop::default()));
        let wire = frames
            .iter()
            .flat_map(|f| pkt_runtime::Encode::encode_to_vec(f).expect("within limits"))
            .collect();
        v.decode_into(DS, &frames, wire, |bytes, out| {
            pktc_decode_stream_into(bytes, out)
        });
    }
}
