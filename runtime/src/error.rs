//! Error types for decoding and encoding.

use std::borrow::Cow;

use core::fmt;

/// What went wrong while decoding. Always paired with a byte offset in a
/// [`DecodeError`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// The input ended inside a value.
    UnexpectedEnd {
        /// Bytes the value needed.
        needed: usize,
        /// Bytes that were left.
        remaining: usize,
    },
    /// A `bool` byte other than `0x00` or `0x01`.
    InvalidBool(u8),
    /// An optional's flag byte other than `0x00` or `0x01`.
    InvalidOptionFlag(u8),
    /// A `string` whose bytes are not valid UTF-8. The offset names the first
    /// invalid byte.
    InvalidUtf8,
    /// A length or count prefix claims more bytes than the rest of the input
    /// holds. For counts, `len` is the count times the element's minimum
    /// encoded size (saturating), so both numbers are in bytes.
    LengthExceedsInput {
        /// Bytes the prefix claims (at least).
        len: usize,
        /// Bytes left after the prefix.
        remaining: usize,
    },
    /// A [`Limits`](crate::Limits) value was exceeded.
    LimitExceeded {
        /// Which limit: `"string length"`, `"bytes length"`, `"count"`,
        /// `"total elements"` or `"frame length"`.
        what: &'static str,
        /// The offending value.
        value: usize,
        /// The configured maximum.
        max: usize,
    },
    /// A field declared with `@max(N)` is longer than `N`.
    FieldTooLong {
        /// The field's name (`game.net.Chat.text`: the type with its
        /// namespace, then the field). Generated decoders name it
        /// with a `&'static str`; schema-driven decoders such as
        /// `pktc inspect` build it at run time.
        field: Cow<'static, str>,
        /// Its length (bytes or elements).
        len: usize,
        /// The declared maximum.
        max: usize,
    },
    /// Messages and unions are nested deeper than
    /// [`Limits::max_depth`](crate::Limits::max_depth).
    DepthExceeded {
        /// The configured maximum depth.
        max: u32,
    },
    /// Bytes are left after a complete top-level value.
    TrailingBytes {
        /// How many bytes are left.
        count: usize,
    },
    /// A known union variant did not consume exactly the rest of its frame.
    VariantLength {
        /// The variant's tag.
        tag: u16,
        /// Bytes the frame holds after the tag.
        expected: usize,
        /// Bytes the variant consumed.
        consumed: usize,
    },
    /// A map holds the same key twice. The offset names the repeated key.
    DuplicateMapKey,
    /// What the input would build in memory exceeds the decode budget
    /// ([`Limits::decode_budget`](crate::Limits::decode_budget)); nothing of
    /// it was allocated. The offset names the prefix, flag or bytes that asked
    /// for the memory.
    BudgetExceeded {
        /// The innermost message field being decoded (`namespace.Type.field`), or
        /// empty when the charge is outside any field.
        field: Cow<'static, str>,
        /// Bytes this charge asked for.
        needed: usize,
        /// Bytes left in the budget before it.
        left: usize,
    },
    /// A quantized float's stored integer is more than its `steps`
    /// (`@quantize` in `docs/wire-format.md`). The offset names the
    /// integer's first byte.
    InvalidQuantized {
        /// The stored integer.
        value: u64,
        /// The largest the field allows.
        steps: u64,
    },
    /// A delta (`crate::delta`) that no writer writes or that does not fit
    /// its baseline: a mask with a zero last byte or naming a field a
    /// struct lacks, a map delta key out of order, missing from the
    /// baseline or already in it. The offset names the byte.
    InvalidDelta {
        /// What is wrong.
        reason: &'static str,
    },
}

impl fmt::Display for DecodeErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnexpectedEnd { needed, remaining } => write!(
                f,
                "unexpected end of input: needed {needed} bytes, {remaining} remaining"
            ),
            Self::InvalidBool(b) => write!(f, "invalid bool byte 0x{b:02x}"),
            Self::InvalidOptionFlag(b) => write!(f, "invalid optional flag byte 0x{b:02x}"),
            Self::InvalidUtf8 => f.write_str("invalid UTF-8 in string"),
            Self::LengthExceedsInput { len, remaining } => write!(
                f,
                "length prefix claims {len} bytes but only {remaining} remain"
            ),
            Self::LimitExceeded { what, value, max } => {
                write!(f, "{what} {value} exceeds the limit of {max}")
            }
            Self::FieldTooLong { field, len, max } => {
                write!(
                    f,
                    "field `{field}` has length {len}, more than its maximum {max}"
                )
            }
            Self::DepthExceeded { max } => write!(f, "nesting deeper than {max} levels"),
            Self::TrailingBytes { count } => write!(f, "{count} trailing bytes after the value"),
            Self::VariantLength {
                tag,
                expected,
                consumed,
            } => write!(
                f,
                "union variant {tag} consumed {consumed} of its {expected} bytes"
            ),
            Self::DuplicateMapKey => f.write_str("duplicate map key"),
            Self::InvalidDelta { reason } => write!(f, "invalid delta: {reason}"),
            Self::BudgetExceeded {
                field,
                needed,
                left,
            } if field.is_empty() => write!(
                f,
                "decoding needs {needed} more bytes of memory, only {left} left in the decode budget"
            ),
            Self::BudgetExceeded {
                field,
                needed,
                left,
            } => write!(
                f,
                "field `{field}` needs {needed} more bytes of memory, only {left} left in the decode budget"
            ),
            Self::InvalidQuantized { value, steps } => write!(
                f,
                "quantized value {value} is more than the field's {steps} steps"
            ),
        }
    }
}

/// A decoding failure: what went wrong and the absolute byte offset (from the
/// start of the input handed to the decoder) where it happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    kind: DecodeErrorKind,
    offset: usize,
}

impl DecodeError {
    /// Creates an error of `kind` at absolute byte `offset`.
    pub fn new(kind: DecodeErrorKind, offset: usize) -> Self {
        Self { kind, offset }
    }

    /// What went wrong.
    pub fn kind(&self) -> &DecodeErrorKind {
        &self.kind
    }

    /// The absolute byte offset where decoding failed.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// Names `field` (`namespace.Type.field`) in a [`DecodeErrorKind::BudgetExceeded`]
    /// or [`DecodeErrorKind::FieldTooLong`] that names no field yet, so the
    /// innermost field wins; other errors pass unchanged. Generated decoders
    /// call it on the way out of each field.
    #[cold]
    pub fn in_field(mut self, field: impl Into<Cow<'static, str>>) -> Self {
        match &mut self.kind {
            DecodeErrorKind::BudgetExceeded { field: f, .. }
            | DecodeErrorKind::FieldTooLong { field: f, .. }
                if f.is_empty() =>
            {
                *f = field.into();
            }
            _ => {}
        }
        self
    }

    /// The same error with its offset moved forward by `base` bytes, for input
    /// that was decoded out of a larger stream.
    pub(crate) fn shifted(mut self, base: usize) -> Self {
        self.offset = self.offset.saturating_add(base);
        self
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.kind, self.offset)
    }
}

impl std::error::Error for DecodeError {}

/// What went wrong while encoding.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeErrorKind {
    /// The output slice is shorter than the encoding.
    BufferTooSmall {
        /// Bytes the encoding needs.
        needed: usize,
        /// Bytes the slice has.
        available: usize,
    },
    /// A field declared with `@max(N)` is longer than `N`.
    FieldTooLong {
        /// The field's name (`Type.field`), with the steps into it for a
        /// limit on an element, key or value (`Type.field[]`).
        field: Cow<'static, str>,
        /// Its length (bytes or elements).
        len: usize,
        /// The declared maximum.
        max: usize,
    },
    /// Messages and unions are nested deeper than the decoder's
    /// [`Limits::max_depth`](crate::Limits::max_depth) accepts.
    DepthExceeded {
        /// The depth limit.
        max: u32,
    },
    /// The encoding is longer than the `u32` length prefixes of the wire
    /// format can frame (`u32::MAX` bytes).
    TooLarge {
        /// Bytes the encoding would take.
        len: usize,
    },
    /// A field declared with `@quantize(min, max, step)` holds NaN, an
    /// infinity or a value outside `[min, max]`.
    OutOfRange {
        /// The field's name (`Type.field`).
        field: Cow<'static, str>,
    },
}

/// An encoding failure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeError {
    kind: EncodeErrorKind,
}

impl EncodeError {
    /// Creates an error of `kind`.
    pub fn new(kind: EncodeErrorKind) -> Self {
        Self { kind }
    }

    /// A [`EncodeErrorKind::BufferTooSmall`] error.
    pub fn buffer_too_small(needed: usize, available: usize) -> Self {
        Self::new(EncodeErrorKind::BufferTooSmall { needed, available })
    }

    /// A [`EncodeErrorKind::FieldTooLong`] error.
    pub fn field_too_long(field: impl Into<Cow<'static, str>>, len: usize, max: usize) -> Self {
        Self::new(EncodeErrorKind::FieldTooLong {
            field: field.into(),
            len,
            max,
        })
    }

    /// A [`EncodeErrorKind::TooLarge`] error.
    pub fn too_large(len: usize) -> Self {
        Self::new(EncodeErrorKind::TooLarge { len })
    }

    /// What went wrong.
    pub fn kind(&self) -> &EncodeErrorKind {
        &self.kind
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            EncodeErrorKind::BufferTooSmall { needed, available } => write!(
                f,
                "output buffer too small: needed {needed} bytes, {available} available"
            ),
            EncodeErrorKind::FieldTooLong { field, len, max } => {
                write!(
                    f,
                    "field `{field}` has length {len}, more than its maximum {max}"
                )
            }
            EncodeErrorKind::DepthExceeded { max } => {
                write!(f, "value nested deeper than {max} levels")
            }
            EncodeErrorKind::TooLarge { len } => write!(
                f,
                "encoding of {len} bytes, more than the {} a length prefix can frame",
                u32::MAX
            ),
            EncodeErrorKind::OutOfRange { field } => {
                write!(f, "field `{field}` is outside its quantized range")
            }
        }
    }
}

impl std::error::Error for EncodeError {}
