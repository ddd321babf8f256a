//! Quantized floats: a field declared `x: f32 @quantize(min, max, step)`
//! travels as the number of steps `q` from `min`, an unsigned integer in the
//! smallest of `u8`, `u16`, `u32` and `u64` that holds `steps`.
//!
//! The arithmetic is the one of `docs/wire-format.md`, the same in every
//! language: a value is widened to `f64`; NaN, the infinities and values
//! outside `[min, max]` are refused; `q = round_half_away_from_zero((v -
//! min) / step)` with one IEEE-754 subtraction and one division, capped at
//! `steps`. A decoder refuses `q > steps` and returns `min + q * step` (one
//! multiplication, then one addition, never fused), rounded to `f32` for an
//! `f32` field.
//!
//! Generated code checks a value with [`Quantize::check`] before anything
//! is written (as it checks `@max`), writes it with [`Quantize::put`], and
//! reads it with [`Quantize::read_f32`] or [`Quantize::read_f64`].

use std::borrow::Cow;

use crate::{
    DecodeError, DecodeErrorKind, EncodeError, EncodeErrorKind, FixedSize, Reader, Writer,
};

/// One field's quantization, as the schema declares it: generated code
/// holds it in a constant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quantize {
    /// The smallest value, stored as 0.
    pub min: f64,
    /// The largest value.
    pub max: f64,
    /// The distance between two stored values.
    pub step: f64,
    /// `round((max - min) / step)`: the largest stored integer.
    pub steps: u64,
}

impl Quantize {
    /// The quantization of `@quantize(min, max, step)`; `steps` is
    /// `round((max - min) / step)`, which pktc computes and checks.
    pub const fn new(min: f64, max: f64, step: f64, steps: u64) -> Self {
        Self {
            min,
            max,
            step,
            steps,
        }
    }

    /// Bytes of the stored integer: 1, 2, 4 or 8, the fewest that hold
    /// `steps`.
    pub const fn width(&self) -> usize {
        stored_width(self.steps)
    }

    /// The stored integer of `v`, or `None` when `v` is NaN, infinite or
    /// outside `[min, max]`.
    #[inline]
    pub fn quantize(&self, v: f64) -> Option<u64> {
        // Written so that NaN fails both comparisons.
        if !(v >= self.min && v <= self.max) {
            return None;
        }
        // `f64::round` rounds half away from zero; the quotient is never
        // negative here, and at most `steps` plus a rounding error.
        let q = ((v - self.min) / self.step).round();
        Some((q as u64).min(self.steps))
    }

    /// The value of stored integer `q`, or `None` when `q > steps`.
    #[inline]
    pub fn dequantize(&self, q: u64) -> Option<f64> {
        if q > self.steps {
            return None;
        }
        // Two operations, each rounded: Rust never fuses them.
        let scaled = q as f64 * self.step;
        Some(self.min + scaled)
    }

    /// [`Quantize::dequantize`] rounded to `f32`, for `f32` fields.
    #[inline]
    pub fn dequantize_f32(&self, q: u64) -> Option<f32> {
        self.dequantize(q).map(|v| v as f32)
    }

    /// [`EncodeErrorKind::OutOfRange`] naming `field` unless `v` can be
    /// stored.
    #[inline]
    pub fn check(&self, v: f64, field: &'static str) -> Result<(), EncodeError> {
        match self.quantize(v) {
            Some(_) => Ok(()),
            None => Err(EncodeError::out_of_range(field)),
        }
    }

    /// Writes the stored integer of `v`, which [`Quantize::check`] accepted
    /// (a value it refuses is written as 0: encoders check first).
    #[inline]
    pub fn put(&self, w: &mut Writer<'_>, v: f64) {
        let q = self.quantize(v).unwrap_or(0);
        match self.width() {
            1 => w.put_u8(q as u8),
            2 => w.put_u16(q as u16),
            4 => w.put_u32(q as u32),
            _ => w.put_u64(q),
        }
    }

    /// Reads a stored integer: [`DecodeErrorKind::InvalidQuantized`] at its
    /// first byte when it is more than `steps`.
    #[inline]
    pub fn read(&self, r: &mut Reader<'_>) -> Result<u64, DecodeError> {
        let at = r.position();
        let q = match self.width() {
            1 => u64::from(r.read_u8()?),
            2 => u64::from(r.read_u16()?),
            4 => u64::from(r.read_u32()?),
            _ => r.read_u64()?,
        };
        if q > self.steps {
            return Err(DecodeError::new(
                DecodeErrorKind::InvalidQuantized {
                    value: q,
                    steps: self.steps,
                },
                at,
            ));
        }
        Ok(q)
    }

    /// Reads an `f64` field's value.
    #[inline]
    pub fn read_f64(&self, r: &mut Reader<'_>) -> Result<f64, DecodeError> {
        let q = self.read(r)?;
        Ok(self.dequantize(q).unwrap_or(self.min))
    }

    /// Reads an `f32` field's value.
    #[inline]
    pub fn read_f32(&self, r: &mut Reader<'_>) -> Result<f32, DecodeError> {
        let q = self.read(r)?;
        Ok(self.dequantize_f32(q).unwrap_or(self.min as f32))
    }
}

// What generated code calls, with the field's quantization as literals
// (`min, max, step, steps`), which the compiler folds.

/// [`Quantize::check`].
#[inline]
pub fn check(
    field: &'static str,
    v: f64,
    min: f64,
    max: f64,
    step: f64,
    steps: u64,
) -> Result<(), EncodeError> {
    Quantize::new(min, max, step, steps).check(v, field)
}

/// [`Quantize::put`].
#[inline]
pub fn put(w: &mut Writer<'_>, v: f64, min: f64, max: f64, step: f64, steps: u64) {
    Quantize::new(min, max, step, steps).put(w, v);
}

/// [`Quantize::read_f32`].
#[inline]
pub fn read_f32(
    r: &mut Reader<'_>,
    min: f64,
    max: f64,
    step: f64,
    steps: u64,
) -> Result<f32, DecodeError> {
    Quantize::new(min, max, step, steps).read_f32(r)
}

/// [`Quantize::read_f64`].
#[inline]
pub fn read_f64(
    r: &mut Reader<'_>,
    min: f64,
    max: f64,
    step: f64,
    steps: u64,
) -> Result<f64, DecodeError> {
    Quantize::new(min, max, step, steps).read_f64(r)
}

/// Writes the stored integer of `v` into `out`, a fixed-size struct's bytes
/// of the field (checked first, as [`Quantize::put`]).
#[inline]
pub fn write_fixed(out: &mut [u8], v: f64, min: f64, max: f64, step: f64, steps: u64) {
    let q = Quantize::new(min, max, step, steps)
        .quantize(v)
        .unwrap_or(0);
    let width = stored_width(steps);
    out[..width].copy_from_slice(&q.to_le_bytes()[..width]);
}

/// The value of the stored integer in `bytes`, a fixed-size struct's bytes
/// of the field at absolute `offset`: [`DecodeErrorKind::InvalidQuantized`]
/// there when it is more than `steps`.
#[inline]
pub fn read_fixed_f64(
    bytes: &[u8],
    offset: usize,
    min: f64,
    max: f64,
    step: f64,
    steps: u64,
) -> Result<f64, DecodeError> {
    let q = read_stored(bytes, offset, steps)?;
    Ok(Quantize::new(min, max, step, steps)
        .dequantize(q)
        .unwrap_or(min))
}

/// [`read_fixed_f64`] rounded to `f32`.
#[inline]
pub fn read_fixed_f32(
    bytes: &[u8],
    offset: usize,
    min: f64,
    max: f64,
    step: f64,
    steps: u64,
) -> Result<f32, DecodeError> {
    read_fixed_f64(bytes, offset, min, max, step, steps).map(|v| v as f32)
}

/// The value of the stored integer in `bytes`, which
/// [`FixedSize::is_valid`] of [`Stored`] accepted.
#[inline]
pub fn read_valid_f64(bytes: &[u8], min: f64, max: f64, step: f64, steps: u64) -> f64 {
    let q = le(bytes, stored_width(steps));
    Quantize::new(min, max, step, steps)
        .dequantize(q)
        .unwrap_or(min)
}

/// [`read_valid_f64`] rounded to `f32`.
#[inline]
pub fn read_valid_f32(bytes: &[u8], min: f64, max: f64, step: f64, steps: u64) -> f32 {
    read_valid_f64(bytes, min, max, step, steps) as f32
}

/// The stored integer of a quantized field of at most `STEPS` steps, as a
/// [`FixedSize`] value: what a fixed-size struct's validation and error
/// paths (`fixed_is_valid!`, [`crate::fixed::Fields`]) read of the field.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stored<const STEPS: u64>(pub u64);

/// The stored integer at the front of `bytes` (absolute `offset`), at most
/// `steps`.
#[inline]
fn read_stored(bytes: &[u8], offset: usize, steps: u64) -> Result<u64, DecodeError> {
    let width = stored_width(steps);
    let Some(b) = bytes.get(..width) else {
        return Err(DecodeError::new(
            DecodeErrorKind::UnexpectedEnd {
                needed: width,
                remaining: bytes.len(),
            },
            offset,
        ));
    };
    let q = le(b, width);
    if q > steps {
        return Err(DecodeError::new(
            DecodeErrorKind::InvalidQuantized { value: q, steps },
            offset,
        ));
    }
    Ok(q)
}

impl<const STEPS: u64> FixedSize for Stored<STEPS> {
    const SIZE: usize = stored_width(STEPS);

    #[inline]
    fn write_fixed(&self, out: &mut [u8]) {
        out.copy_from_slice(&self.0.to_le_bytes()[..Self::SIZE]);
    }

    #[inline]
    fn read_fixed(bytes: &[u8], offset: usize) -> Result<Self, DecodeError> {
        read_stored(bytes, offset, STEPS).map(Self)
    }

    #[inline]
    fn is_valid(bytes: &[u8]) -> bool {
        le(bytes, Self::SIZE) <= STEPS
    }

    #[inline]
    fn read_valid(bytes: &[u8]) -> Self {
        Self(le(bytes, Self::SIZE))
    }
}

/// The little-endian integer of `bytes[..width]`.
#[inline]
fn le(bytes: &[u8], width: usize) -> u64 {
    let mut b = [0u8; 8];
    b[..width].copy_from_slice(&bytes[..width]);
    u64::from_le_bytes(b)
}

/// Bytes of the smallest unsigned integer that holds `steps`.
pub const fn stored_width(steps: u64) -> usize {
    if steps <= u8::MAX as u64 {
        1
    } else if steps <= u16::MAX as u64 {
        2
    } else if steps <= u32::MAX as u64 {
        4
    } else {
        8
    }
}

impl EncodeError {
    /// An [`EncodeErrorKind::OutOfRange`] error.
    #[cold]
    pub fn out_of_range(field: impl Into<Cow<'static, str>>) -> Self {
        Self::new(EncodeErrorKind::OutOfRange {
            field: field.into(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Limits;

    const POS: Quantize = Quantize::new(-4096.0, 4096.0, 0.01, 819_200);
    const UNIT: Quantize = Quantize::new(0.0, 1.0, 0.5, 2);

    /// The next `f64` above `x` (finite), as `f64::next_up` (Rust 1.86) does.
    fn next_up(x: f64) -> f64 {
        if x == 0.0 {
            f64::from_bits(1)
        } else if x > 0.0 {
            f64::from_bits(x.to_bits() + 1)
        } else {
            f64::from_bits(x.to_bits() - 1)
        }
    }

    /// The next `f64` below `x` (finite).
    fn next_down(x: f64) -> f64 {
        -next_up(-x)
    }

    fn encode(q: &Quantize, v: f64) -> Result<Vec<u8>, EncodeError> {
        q.check(v, "T.x")?;
        let mut buf = vec![0u8; q.width()];
        let mut w = Writer::new(&mut buf);
        q.put(&mut w, v);
        Ok(buf)
    }

    fn decode(q: &Quantize, bytes: &[u8]) -> Result<f64, DecodeError> {
        let mut r = Reader::with_limits(bytes, Limits::default());
        q.read_f64(&mut r)
    }

    #[test]
    fn widths_are_the_smallest_that_hold_the_steps() {
        assert_eq!(stored_width(1), 1);
        assert_eq!(stored_width(255), 1);
        assert_eq!(stored_width(256), 2);
        assert_eq!(stored_width(65_535), 2);
        assert_eq!(stored_width(65_536), 4);
        assert_eq!(stored_width(u32::MAX as u64), 4);
        assert_eq!(stored_width(u32::MAX as u64 + 1), 8);
        assert_eq!(stored_width(1 << 53), 8);
        assert_eq!(POS.width(), 4);
    }

    #[test]
    fn the_edges_of_the_range_are_zero_and_steps() {
        assert_eq!(POS.quantize(-4096.0), Some(0));
        assert_eq!(POS.quantize(4096.0), Some(819_200));
        assert_eq!(encode(&POS, 4096.0).unwrap(), 819_200u32.to_le_bytes());
        assert_eq!(decode(&POS, &819_200u32.to_le_bytes()).unwrap(), 4096.0);
        assert_eq!(decode(&POS, &[0; 4]).unwrap(), -4096.0);
    }

    #[test]
    fn ties_round_away_from_zero() {
        // (0.25 - 0) / 0.5 = 0.5 exactly: away from zero is 1.
        assert_eq!(UNIT.quantize(0.25), Some(1));
        // 0.75 / 0.5 = 1.5: 2.
        assert_eq!(UNIT.quantize(0.75), Some(2));
        // Just under a tie rounds down.
        assert_eq!(UNIT.quantize(next_down(0.25f64)), Some(0));
        let q = Quantize::new(-1.0, 1.0, 0.5, 4);
        // (-0.75 + 1) / 0.5 = 0.5: 1, not 0 (the quotient, not the value, is rounded).
        assert_eq!(q.quantize(-0.75), Some(1));
    }

    #[test]
    fn values_outside_the_range_nan_and_infinities_are_refused() {
        let out = |v: f64| POS.check(v, "T.x").unwrap_err();
        for v in [
            next_up(4096f64),
            next_down(-4096f64),
            f64::NAN,
            -f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MAX,
        ] {
            assert_eq!(
                out(v).kind(),
                &EncodeErrorKind::OutOfRange {
                    field: "T.x".into()
                },
                "{v}"
            );
        }
        assert_eq!(
            out(f64::NAN).to_string(),
            "field `T.x` is outside its quantized range"
        );
    }

    #[test]
    fn the_example_of_the_wire_format_document() {
        // docs/wire-format.md, "Quantized floats".
        assert_eq!((12.345f64 + 4096.0) / 0.01, 410_834.5);
        assert_eq!(encode(&POS, 12.345).unwrap(), [0xd3, 0x44, 0x06, 0x00]);
        assert_eq!(
            decode(&POS, &[0xd3, 0x44, 0x06, 0x00]).unwrap(),
            12.350000000000364
        );
        assert_eq!(encode(&POS, 4096.0).unwrap(), [0x00, 0x80, 0x0c, 0x00]);
        assert!(encode(&POS, 4096.001).is_err());
    }

    #[test]
    fn negative_zero_is_zero() {
        assert_eq!(UNIT.quantize(-0.0), Some(0));
        assert_eq!(encode(&UNIT, -0.0).unwrap(), [0]);
        // Decoded, 0 is min itself: +0.0 here.
        assert_eq!(decode(&UNIT, &[0]).unwrap().to_bits(), 0f64.to_bits());
    }

    #[test]
    fn integers_above_steps_are_refused_at_their_offset() {
        let bytes = [9, 9, 3];
        let mut r = Reader::with_limits(&bytes, Limits::default());
        r.read_u16().unwrap();
        let e = UNIT.read_f32(&mut r).unwrap_err();
        assert_eq!(e.offset(), 2);
        assert_eq!(
            e.kind(),
            &DecodeErrorKind::InvalidQuantized { value: 3, steps: 2 }
        );
        let e = decode(&POS, &819_201u32.to_le_bytes()).unwrap_err();
        assert_eq!(e.offset(), 0);
        let e = decode(&POS, &[0, 0, 0]).unwrap_err();
        assert!(matches!(e.kind(), DecodeErrorKind::UnexpectedEnd { .. }));
    }

    #[test]
    fn the_largest_steps_round_trip() {
        // 2^53 steps: every integer up to it is an exact f64.
        let q = Quantize::new(0.0, 9_007_199_254_740_992.0, 1.0, 1 << 53);
        assert_eq!(q.width(), 8);
        for n in [0u64, 1, (1 << 53) - 1, 1 << 53] {
            let v = q.dequantize(n).unwrap();
            assert_eq!(q.quantize(v), Some(n));
        }
        assert_eq!(
            decode(&q, &((1u64 << 53) + 1).to_le_bytes())
                .unwrap_err()
                .offset(),
            0
        );
        assert_eq!(
            encode(&q, 9_007_199_254_740_992.0).unwrap(),
            (1u64 << 53).to_le_bytes()
        );
    }

    #[test]
    fn every_stored_integer_survives_decode_then_encode() {
        let f32_pos = |n: u64| f64::from(POS.dequantize_f32(n).unwrap());
        for n in (0..=POS.steps)
            .step_by(97)
            .chain([1, POS.steps - 1, POS.steps])
        {
            assert_eq!(POS.quantize(POS.dequantize(n).unwrap()), Some(n), "f64 {n}");
            assert_eq!(POS.quantize(f32_pos(n)), Some(n), "f32 {n}");
        }
    }
}
