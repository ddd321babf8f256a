//! Decoder limits.

/// Bounds a decoder enforces on untrusted input.
///
/// Every length and count is also checked against the bytes actually left in
/// the input, so these limits only matter for inputs that are themselves large.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Maximum nesting of messages and unions (default 64).
    pub max_depth: u32,
    /// Maximum byte length of one `string`/`bytes` value and maximum count of
    /// one list or map (default 16 MiB).
    pub max_len: usize,
    /// Maximum length prefix accepted by
    /// [`FrameDecoder`](crate::frame::FrameDecoder) (default 16 MiB).
    pub max_frame: usize,
    /// Maximum total number of list and map elements in one decode call
    /// (default 16 Mi).
    pub max_total_elements: usize,
}

impl Limits {
    /// The default limits, usable in `const` context.
    pub const DEFAULT: Limits = Limits {
        max_depth: 64,
        max_len: 16 * 1024 * 1024,
        max_frame: 16 * 1024 * 1024,
        max_total_elements: 16 * 1024 * 1024,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Self::DEFAULT
    }
}
