//! Hex strings of byte strings, as the tests print and read them.

use std::fmt::Write as _;

/// Lower-case hex, two digits a byte, no separator: `"04d2"`.
pub fn encode(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        s.push(DIGITS[usize::from(b >> 4)] as char);
        s.push(DIGITS[usize::from(b & 15)] as char);
    }
    s
}

/// Lower-case hex with a space between bytes: `"04 d2"`.
pub fn spaced(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 3);
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// Reads hex digits in pairs, ignoring white space anywhere (so both
/// `"04d2"` and `"04 d2\n"` work). Panics on anything else: test data is
/// wrong, not input to handle.
pub fn decode(hex: &str) -> Vec<u8> {
    let digits: Vec<u8> = hex.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    assert!(digits.len() % 2 == 0, "odd number of hex digits in {hex:?}");
    let nibble = |d: u8| match d {
        b'0'..=b'9' => d - b'0',
        b'a'..=b'f' => d - b'a' + 10,
        b'A'..=b'F' => d - b'A' + 10,
        _ => panic!("not hex: {:?} in {hex:?}", d as char),
    };
    digits
        .chunks(2)
        .map(|pair| nibble(pair[0]) << 4 | nibble(pair[1]))
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn round_trips() {
        let b = [0u8, 1, 0xab, 0xff];
        assert_eq!(super::encode(&b), "0001abff");
        assert_eq!(super::spaced(&b), "00 01 ab ff");
        assert_eq!(super::decode("0001abff"), b);
        assert_eq!(super::decode(" 00 01\n ab ff "), b);
        assert_eq!(super::spaced(&[]), "");
    }
}
