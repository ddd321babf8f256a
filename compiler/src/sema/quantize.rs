//! The checks of `@quantize(min, max, step)` on a float field: every
//! quantization accepted here stores `min` as 0 and its largest value as
//! `steps`, and every stored integer decodes to a value that encodes back
//! to the same integer, in every language.

use crate::diag::{Diagnostic, Span};
use crate::ir::{Prim, Quantize};

/// One argument as a number, with where it is written.
#[derive(Clone, Copy)]
pub(super) struct Arg {
    pub value: f64,
    pub span: Span,
}

/// The most steps: every integer up to it is an exact `f64`.
const MAX_STEPS: f64 = 9_007_199_254_740_992.0; // 2^53

/// The quantization of a field of type `prim` (`f32` or `f64`), or the
/// first rule it breaks.
pub(super) fn check(
    attr: Span,
    prim: Prim,
    min: Arg,
    max: Arg,
    step: Arg,
) -> Result<Quantize, Diagnostic> {
    let is_f32 = prim == Prim::F32;
    for (name, a) in [("min", min), ("max", max), ("step", step)] {
        if !a.value.is_finite() {
            return Err(Diagnostic::error(
                format!("`@quantize` needs a finite {name}"),
                a.span,
                "not a finite number",
            )
            .with_help("`@quantize(min, max, step)` stores values between two finite bounds"));
        }
        if is_f32 && a.value.abs() > f64::from(f32::MAX) {
            return Err(Diagnostic::error(
                format!("the {name} of `@quantize` is outside the range of `f32`"),
                a.span,
                "too large for `f32`",
            )
            .with_help("an `f32` field holds values up to about 3.4e38; declare it `f64`"));
        }
    }
    if min.value >= max.value {
        return Err(Diagnostic::error(
            "`@quantize` needs `min < max`",
            max.span,
            format!("not more than {}", min.value),
        )
        .with_label(min.span, "min")
        .with_help("write the smallest value first: `@quantize(min, max, step)`"));
    }
    if step.value <= 0.0 {
        return Err(Diagnostic::error(
            "the step of `@quantize` must be more than 0",
            step.span,
            "not positive",
        )
        .with_help("the step is the distance between two stored values, such as 0.01"));
    }
    let quotient = ((max.value - min.value) / step.value).round();
    if !(1.0..=MAX_STEPS).contains(&quotient) {
        return Err(Diagnostic::error(
            format!("`@quantize` would store {quotient} steps"),
            step.span,
            "step too large or too small for the range",
        )
        .with_help("`round((max - min) / step)` must be between 1 and 2^53"));
    }
    let edge = min.value.abs().max(max.value.abs());
    let ulp = ulp(edge, is_f32);
    if step.value <= ulp {
        return Err(Diagnostic::error(
            format!(
                "the step of `@quantize` is finer than `{}` can tell apart",
                prim.name()
            ),
            step.span,
            format!("values near {edge} are {ulp:e} apart"),
        )
        .with_help(format!(
            "use a step larger than {ulp:e}{}",
            if is_f32 {
                ", or declare the field `f64`"
            } else {
                ""
            }
        )));
    }
    let q = Quantize::new(min.value, max.value, step.value);
    let finest = finest_step(min.value, max.value, q.steps, is_f32);
    if step.value < finest {
        // The finest step depends a little on the number of steps: the
        // suggestion is one that passes with its own.
        let mut suggested = finest;
        for _ in 0..8 {
            let steps = ((max.value - min.value) / suggested).round() as u64;
            let next = finest_step(min.value, max.value, steps, is_f32);
            if next <= suggested {
                break;
            }
            suggested = next;
        }
        // Printed with 5 digits, rounded up.
        let suggested = suggested * (1.0 + 1e-4);
        return Err(Diagnostic::error(
            "the step of `@quantize` is too fine for every stored value to encode back",
            step.span,
            "some stored values would decode to a value that encodes to the next step",
        )
        .with_label(attr, "")
        .with_help(format!(
            "use a step of at least {suggested:.4e}: decoding and encoding near {edge} \
             then round by less than half a step"
        )));
    }
    // The stored integers at both ends decode to values of the field's type
    // that encode back to them: a `min` or `max` that the type rounds
    // outward, or a range that is not a whole number of steps, would not.
    let rt = q.runtime();
    for n in [0, q.steps] {
        let v = rt.dequantize(n).expect("within the steps");
        let v = if is_f32 { f64::from(v as f32) } else { v };
        if rt.quantize(v) != Some(n) {
            let (what, span) = if n == 0 {
                ("min", min.span)
            } else {
                ("max", max.span)
            };
            return Err(Diagnostic::error(
                "`@quantize` stores a value it cannot encode again",
                span,
                format!(
                    "{n} steps decode to {v} as `{}`, outside the range",
                    prim.name()
                ),
            )
            .with_label(attr, "")
            .with_help(format!(
                "make `max - min` a whole number of steps, and `{what}` a value `{}` holds exactly",
                prim.name()
            )));
        }
    }
    Ok(q)
}

/// The smallest step with which every stored integer `q` of `0..=steps`
/// decodes to a value that encodes back to `q` (a sufficient condition,
/// from the arithmetic of `runtime/src/quantize.rs`, which the C# and
/// TypeScript runtimes repeat).
///
/// Decoding computes `s = fl(q * step)`, `w = fl(min + s)` and, for an
/// `f32` field, `v = f32(w)`; encoding computes `d = fl(v - min)` and
/// `round(fl(d / step))`, rounding half away from zero. Each rounding is at
/// most half an ulp of its result, and every result is bounded: `q * step`
/// by `steps * step`, `w` and `v` by the larger magnitude `m` of `min` and
/// `max` (decoding is monotonic in `q`, and both ends were checked), `v -
/// min` by `max - min`. So `|d - q * step| <= e` with
///
/// `e = ulp(steps * step) / 2 + ulp(m) / 2 + ulp_f32(m) / 2 + ulp(max - min) / 2`,
///
/// where the second and last terms vanish when `min` is 0 (adding and
/// subtracting 0 is exact) and the third is there for `f32` fields only.
/// The quotient `x = d / step` is then within `e / step` of `q`, and
/// `fl(x)` rounds back to `q` unless it reaches `q + 0.5`: below 2^52 that
/// half is a float, which `fl(x)` reaches from `x >= q + 0.5 -
/// ulp(q) / 2`. So the step must be more than `e / (0.5 - ulp(n) / 2)`,
/// with `n` the largest stored integer below 2^52. Bounds are taken a
/// little high (`grow`) so that no rounding of this computation makes the
/// condition weaker.
fn finest_step(min: f64, max: f64, steps: u64, is_f32: bool) -> f64 {
    let grow = |x: f64| x * (1.0 + 2f64.powi(-40));
    let half_ulp = |x: f64, f32_ulp: bool| ulp(grow(x), f32_ulp) / 2.0;
    let m = min.abs().max(max.abs());
    let range = grow(max - min);
    // `steps * step` is within half a step of `max - min`.
    let product = range + range / steps as f64;
    let mut e = half_ulp(product, false);
    if min != 0.0 {
        e += half_ulp(m, false) + half_ulp(range, false);
    }
    if is_f32 {
        e += half_ulp(m, true);
    }
    let below_2_52 = steps.min((1 << 52) - 1) as f64;
    let margin = 0.5 - ulp(below_2_52, false) / 2.0;
    grow(e / margin)
}

/// The distance from a value of magnitude `x` to the next one of the type:
/// `2^(exponent - 23)` for `f32`, `2^(exponent - 52)` for `f64`, the
/// exponent no less than the smallest normal one.
fn ulp(x: f64, is_f32: bool) -> f64 {
    let exponent = ((x.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let (min_exponent, mantissa) = if is_f32 { (-126, 23) } else { (-1022, 52) };
    2f64.powi(exponent.max(min_exponent) - mantissa)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arg(value: f64) -> Arg {
        Arg {
            value,
            span: Span::default(),
        }
    }

    fn accepts(min: f64, max: f64, step: f64, prim: Prim) -> bool {
        check(Span::default(), prim, arg(min), arg(max), arg(step)).is_ok()
    }

    /// Whether stored integer `n` decodes to a value that encodes back to
    /// it, with the runtime's own arithmetic.
    fn survives(q: &pkt_runtime::quantize::Quantize, n: u64, is_f32: bool) -> bool {
        let v = if is_f32 {
            f64::from(q.dequantize_f32(n).expect("within the steps"))
        } else {
            q.dequantize(n).expect("within the steps")
        };
        q.quantize(v) == Some(n)
    }

    /// The stored integers a property run tries: both ends, both sides of
    /// every power of two up to `steps`, and `count` random ones.
    fn samples(steps: u64, count: usize, seed: u64) -> Vec<u64> {
        let mut out = vec![0, 1, steps - 1, steps];
        for k in 0..64 {
            let p = 1u64 << k;
            if p > steps {
                break;
            }
            out.extend([p - 1, p, (p + 1).min(steps)]);
        }
        let mut x = seed | 1;
        for _ in 0..count {
            // xorshift64
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            out.push(x % (steps + 1));
        }
        out
    }

    /// `@quantize(0, 1.5, 2.331468351712829e-16)` (1.05 ulps of 1.5) was
    /// accepted, and 4325496071827287 came back as 4325496071827288.
    #[test]
    fn a_step_of_one_to_two_ulps_is_refused() {
        let (min, max, step) = (0.0, 1.5, 2.331468351712829e-16);
        let q = Quantize::new(min, max, step).runtime();
        assert!(!survives(&q, 4_325_496_071_827_287, false));
        assert!(!accepts(min, max, step, Prim::F64));
        let e = check(Span::default(), Prim::F64, arg(min), arg(max), arg(step)).unwrap_err();
        assert_eq!(
            e.message,
            "the step of `@quantize` is too fine for every stored value to encode back"
        );
    }

    /// For ranges of each kind, steps from 1 to 8 ulps of the range's
    /// larger end (4,000 of them, evenly spread): every step the check
    /// accepts keeps every stored integer tried (the ends, around every
    /// power of two, 2,000 at random), and the steps refused as too fine
    /// all lie below the accepted ones (the boundary is one threshold,
    /// printed with `--nocapture`). Some refused steps do lose integers
    /// (counted; the 1- to 2-ulp steps of the finding among them).
    #[test]
    fn every_accepted_step_keeps_every_stored_integer() {
        let cases: [(f64, f64, Prim); 9] = [
            (0.0, 1.5, Prim::F64),
            (0.0, 1.0, Prim::F64),
            (-1.0, 1.0, Prim::F64),
            (100.0, 200.0, Prim::F64),
            (-180.0, 180.0, Prim::F64),
            (1000.0, 1000.5, Prim::F64),
            (0.0, 1000.0, Prim::F32),
            (-4096.0, 4096.0, Prim::F32),
            (0.25, 0.75, Prim::F32),
        ];
        let mut lossy_refused = 0;
        for (min, max, prim) in cases {
            let is_f32 = prim == Prim::F32;
            let u = ulp(min.abs().max(max.abs()), is_f32);
            let (mut smallest_accepted, mut largest_too_fine) = (f64::INFINITY, 0f64);
            for i in 0..4000 {
                let step = u * (1.0 + 7.0 * f64::from(i) / 4000.0);
                let q = Quantize::new(min, max, step).runtime();
                match check(Span::default(), prim, arg(min), arg(max), arg(step)) {
                    Ok(_) => {
                        smallest_accepted = smallest_accepted.min(step);
                        for n in samples(q.steps, 2000, step.to_bits()) {
                            assert!(
                                survives(&q, n, is_f32),
                                "@quantize({min}, {max}, {step:e}) as {}: {n} does not come back",
                                prim.name()
                            );
                        }
                    }
                    Err(e) if e.message.contains("too fine for every stored value") => {
                        largest_too_fine = largest_too_fine.max(step);
                        let lost = samples(q.steps - 1, 2000, step.to_bits())
                            .into_iter()
                            .any(|n| !survives(&q, n, is_f32));
                        lossy_refused += usize::from(lost);
                    }
                    Err(_) => {}
                }
            }
            assert!(
                smallest_accepted.is_finite(),
                "{min} {max}: nothing accepted"
            );
            assert!(
                largest_too_fine < smallest_accepted,
                "{min} {max}: {largest_too_fine:e} refused, {smallest_accepted:e} accepted"
            );
            println!(
                "@quantize({min}, {max}, _) as {}: largest refused as too fine {largest_too_fine:e} \
                 ({:.3} ulps), smallest accepted {smallest_accepted:e} ({:.3} ulps)",
                prim.name(),
                largest_too_fine / u,
                smallest_accepted / u
            );
        }
        println!("refused steps that lose a sampled integer: {lossy_refused}");
        assert!(lossy_refused > 0);
    }

    #[test]
    fn ulp_is_the_gap_to_the_next_value() {
        assert_eq!(ulp(1.0, true), f64::from(f32::EPSILON));
        assert_eq!(ulp(1.0, false), f64::EPSILON);
        assert_eq!(ulp(4096.0, true), 1.0 / 2048.0);
        assert_eq!(ulp(4095.0, true), 1.0 / 4096.0);
        assert_eq!(ulp(1e-45, true), 2f64.powi(-149));
    }
}
