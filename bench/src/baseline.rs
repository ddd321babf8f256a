//! The hand-written baseline for the fixed packets: every field stored with
//! `to_le_bytes` at a constant offset into a preallocated buffer, and read
//! back with `from_le_bytes` after one length check. This is the practical
//! limit for fixed-size data in safe Rust.

use crate::codec::Codec;
use crate::pkt::seeds::packets::{Int3Packet, Packet, TransformPacket};

/// The baseline codec; its buffer is allocated once.
pub struct Baseline {
    buf: [u8; 64],
}

impl Default for Baseline {
    fn default() -> Self {
        Self { buf: [0; 64] }
    }
}

#[inline]
fn get<const N: usize>(b: &[u8], at: usize) -> [u8; N] {
    let mut a = [0; N];
    a.copy_from_slice(&b[at..at + N]);
    a
}

impl Codec<Packet> for Baseline {
    const ENCODE: &'static str = "preallocated slice";

    #[inline]
    fn encode(&mut self, p: &Packet) -> &[u8] {
        let out = &mut self.buf[..4];
        out[0..2].copy_from_slice(&p.size.to_le_bytes());
        out[2..4].copy_from_slice(&p.id.to_le_bytes());
        out
    }

    #[inline]
    fn decode(&mut self, b: &[u8]) -> Packet {
        assert_eq!(b.len(), 4, "Packet is 4 bytes");
        Packet {
            size: u16::from_le_bytes(get(b, 0)),
            id: u16::from_le_bytes(get(b, 2)),
        }
    }
}

impl Codec<Int3Packet> for Baseline {
    const ENCODE: &'static str = "preallocated slice";

    #[inline]
    fn encode(&mut self, p: &Int3Packet) -> &[u8] {
        let out = &mut self.buf[..16];
        out[0..2].copy_from_slice(&p.size.to_le_bytes());
        out[2..4].copy_from_slice(&p.id.to_le_bytes());
        out[4..8].copy_from_slice(&p.x.to_le_bytes());
        out[8..12].copy_from_slice(&p.y.to_le_bytes());
        out[12..16].copy_from_slice(&p.z.to_le_bytes());
        out
    }

    #[inline]
    fn decode(&mut self, b: &[u8]) -> Int3Packet {
        assert_eq!(b.len(), 16, "Int3Packet is 16 bytes");
        Int3Packet {
            size: u16::from_le_bytes(get(b, 0)),
            id: u16::from_le_bytes(get(b, 2)),
            x: i32::from_le_bytes(get(b, 4)),
            y: i32::from_le_bytes(get(b, 8)),
            z: i32::from_le_bytes(get(b, 12)),
        }
    }
}

impl Codec<TransformPacket> for Baseline {
    const ENCODE: &'static str = "preallocated slice";

    #[inline]
    fn encode(&mut self, p: &TransformPacket) -> &[u8] {
        let out = &mut self.buf[..40];
        out[0..2].copy_from_slice(&p.size.to_le_bytes());
        out[2..4].copy_from_slice(&p.id.to_le_bytes());
        out[4..8].copy_from_slice(&p.pos_x.to_le_bytes());
        out[8..12].copy_from_slice(&p.pos_y.to_le_bytes());
        out[12..16].copy_from_slice(&p.pos_z.to_le_bytes());
        out[16..20].copy_from_slice(&p.rot_x.to_le_bytes());
        out[20..24].copy_from_slice(&p.rot_y.to_le_bytes());
        out[24..28].copy_from_slice(&p.rot_z.to_le_bytes());
        out[28..32].copy_from_slice(&p.scale_x.to_le_bytes());
        out[32..36].copy_from_slice(&p.scale_y.to_le_bytes());
        out[36..40].copy_from_slice(&p.scale_z.to_le_bytes());
        out
    }

    #[inline]
    fn decode(&mut self, b: &[u8]) -> TransformPacket {
        assert_eq!(b.len(), 40, "TransformPacket is 40 bytes");
        TransformPacket {
            size: u16::from_le_bytes(get(b, 0)),
            id: u16::from_le_bytes(get(b, 2)),
            pos_x: f32::from_le_bytes(get(b, 4)),
            pos_y: f32::from_le_bytes(get(b, 8)),
            pos_z: f32::from_le_bytes(get(b, 12)),
            rot_x: f32::from_le_bytes(get(b, 16)),
            rot_y: f32::from_le_bytes(get(b, 20)),
            rot_z: f32::from_le_bytes(get(b, 24)),
            scale_x: f32::from_le_bytes(get(b, 28)),
            scale_y: f32::from_le_bytes(get(b, 32)),
            scale_z: f32::from_le_bytes(get(b, 36)),
        }
    }
}
