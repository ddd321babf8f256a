//! The framing of the wire format (docs/wire-format.md), described once:
//! `sema::layout` and [`Ir::layout`](crate::ir::Ir::layout) size types with
//! it, both emitters hand it to their templates, and `pktc inspect` frames
//! streams with it. Scalars are little-endian and take their
//! [`Prim::size`]; everything else is built from these prefixes.

use crate::ir::Prim;

/// The `u32` byte length before a `string` or `bytes` value.
pub const LENGTH_PREFIX: u32 = 4;

/// The `u32` element count before a `list` or `map`.
pub const COUNT_PREFIX: u32 = 4;

/// The `u32` body length before a message's fields.
pub const BODY_PREFIX: u32 = 4;

/// The `u32` frame length before a union's tag, and before each frame of a
/// stream of union values.
pub const FRAME_PREFIX: u32 = 4;

/// The flag byte of an optional: `0` absent, `1` present.
pub const OPTION_FLAG: u32 = 1;

/// The bytes before a union's variant: the frame length and the tag.
pub fn union_header(tag: Prim) -> u32 {
    FRAME_PREFIX + tag.size()
}

/// The header of a variant whose payload has the fixed size `payload`,
/// known before encoding: the frame length (the tag and the payload), then
/// the tag, little-endian; returned with that frame length. `None` when the
/// frame does not fit the `u32` length.
pub fn fixed_variant_header(tag: Prim, tag_value: u16, payload: u64) -> Option<(u32, Vec<u8>)> {
    let len = u32::try_from(u64::from(tag.size()) + payload).ok()?;
    let mut out = len.to_le_bytes().to_vec();
    out.extend_from_slice(&tag_value.to_le_bytes()[..tag.size() as usize]);
    debug_assert_eq!(out.len() as u32, union_header(tag));
    Some((len, out))
}

#[cfg(test)]
mod tests {
    use pkt_runtime::Encode;

    /// The runtime writes the prefixes this module describes.
    #[test]
    fn the_runtime_writes_these_prefixes() {
        let len = |v: &dyn Fn() -> usize| v() as u32;
        assert_eq!(len(&|| String::new().encoded_len()), super::LENGTH_PREFIX);
        assert_eq!(
            len(&|| Vec::<u16>::new().encoded_len()),
            super::COUNT_PREFIX
        );
        assert_eq!(len(&|| None::<u8>.encoded_len()), super::OPTION_FLAG);
    }

    /// The runtime's frame reader takes a fixed variant's header as the
    /// frame of that variant.
    #[test]
    fn fixed_variant_headers_are_what_the_runtime_reads() {
        use crate::ir::Prim;
        for (tag, value) in [(Prim::U8, 7u16), (Prim::U16, 0x0101)] {
            let (len, mut bytes) = super::fixed_variant_header(tag, value, 48).expect("fits");
            assert_eq!(len, tag.size() + 48);
            assert_eq!(bytes.len() as u32, super::union_header(tag));
            bytes.extend([0xAB; 48]);
            let mut r = pkt_runtime::Reader::new(&bytes);
            let (read, body) = r.union_frame(tag.size() as usize).expect("a frame");
            assert_eq!((read, body.remaining()), (value, 48));
            assert!(r.is_empty());
        }
        assert_eq!(
            super::fixed_variant_header(Prim::U16, 0x0101, 48),
            Some((50, vec![50, 0, 0, 0, 1, 1]))
        );
        assert_eq!(
            super::fixed_variant_header(Prim::U8, 1, u64::from(u32::MAX)),
            None
        );
    }
}
