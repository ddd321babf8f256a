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
}
