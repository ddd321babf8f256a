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

    #[test]
    fn ulp_is_the_gap_to_the_next_value() {
        assert_eq!(ulp(1.0, true), f64::from(f32::EPSILON));
        assert_eq!(ulp(1.0, false), f64::EPSILON);
        assert_eq!(ulp(4096.0, true), 1.0 / 2048.0);
        assert_eq!(ulp(4095.0, true), 1.0 / 4096.0);
        assert_eq!(ulp(1e-45, true), 2f64.powi(-149));
    }
}
