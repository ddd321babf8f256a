//! Quantized float fields (`x: f32 @quantize(min, max, step)`): generated
//! code calls `pkt_runtime::quantize` with the field's quantization written
//! out as literals (`min, max, step, steps`), where it reads, writes or
//! checks the field instead of the float.

use super::{float_literal, layout};
use crate::ir::{Field, Prim, Quantize, Type};

const PATH: &str = "::pkt_runtime::quantize::";

/// A field's quantization and whether it is an `f32`.
pub(super) struct Quantized<'f> {
    q: &'f Quantize,
    is_f32: bool,
}

impl<'f> Quantized<'f> {
    pub(super) fn of(f: &'f Field) -> Option<Quantized<'f>> {
        f.quantize.as_ref().map(|q| Quantized {
            q,
            is_f32: f.ty == Type::Prim(Prim::F32),
        })
    }

    /// `min, max, step, steps`.
    fn args(&self) -> [String; 4] {
        [
            float_literal(self.q.min, false),
            float_literal(self.q.max, false),
            float_literal(self.q.step, false),
            self.q.steps.to_string(),
        ]
    }

    /// The field's value as an `f64`.
    fn value(&self, place: &str) -> String {
        if self.is_f32 {
            format!("f64::from({place})")
        } else {
            place.to_string()
        }
    }

    fn suffix(&self) -> &'static str {
        if self.is_f32 {
            "f32"
        } else {
            "f64"
        }
    }

    fn call(&self, function: &str, lead: &[String]) -> String {
        let mut args = lead.to_vec();
        args.extend(self.args());
        layout::call(&format!("{PATH}{function}"), &args)
    }

    /// `check("path", value, ..)?;`: the encoders' range check.
    pub(super) fn check(&self, path: &str, place: &str) -> String {
        format!(
            "{}?;",
            self.call("check", &[format!("\"{path}\""), self.value(place)])
        )
    }

    /// `put(w, value, ..);`.
    pub(super) fn put(&self, place: &str) -> String {
        format!(
            "{};",
            self.call("put", &["w".to_string(), self.value(place)])
        )
    }

    /// `mask.quantized(out, index, value, baseline, ..);`: a `@delta`
    /// type's change of the field, its stored integer when that differs
    /// from the baseline's.
    pub(super) fn delta_write(&self, index: usize, this: &str, base: &str) -> String {
        let mut args = vec![
            "out".to_string(),
            index.to_string(),
            self.value(this),
            self.value(base),
        ];
        args.extend(self.args());
        layout::statement("mask.quantized", &args, ";")
    }

    /// `read_f32(reader, ..)`, the value read from a `Reader`.
    pub(super) fn read(&self, reader: &str) -> String {
        self.call(&format!("read_{}", self.suffix()), &[reader.to_string()])
    }

    /// [`Quantized::read`] after a lead (`self.x = `), which moves to the
    /// next line rather than break when it fits there.
    pub(super) fn read_after_lead(&self, reader: &str) -> String {
        let mut args = vec![reader.to_string()];
        args.extend(self.args());
        layout::movable_call(&format!("{PATH}read_{}", self.suffix()), &args)
    }

    /// `write_fixed(&mut out[range], value, ..);`.
    pub(super) fn write_fixed(&self, range: &str, place: &str) -> String {
        format!(
            "{};",
            self.call(
                "write_fixed",
                &[format!("&mut out[{range}]"), self.value(place)]
            )
        )
    }

    /// `read_fixed_f32(&bytes[range], offset, ..)`.
    pub(super) fn read_fixed(&self, range: &str, offset: &str) -> String {
        self.call(
            &format!("read_fixed_{}", self.suffix()),
            &[format!("&bytes[{range}]"), offset.to_string()],
        )
    }

    /// `read_valid_f32(&bytes[range], ..)`.
    pub(super) fn read_valid(&self, range: &str) -> String {
        self.call(
            &format!("read_valid_{}", self.suffix()),
            &[format!("&bytes[{range}]")],
        )
    }

    /// The `FixedSize` type of the stored integer: `Stored<STEPS>`.
    pub(super) fn stored_type(&self) -> String {
        format!("{PATH}Stored<{}>", self.q.steps)
    }
}
