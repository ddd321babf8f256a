//! Decoder limits.

/// Bounds a decoder enforces on untrusted input.
///
/// Every length and count is also checked against the bytes actually left in
/// the input, so most of these limits only matter for inputs that are
/// themselves large. The decode budget bounds what the decoded value takes in
/// memory; `docs/security.md` states what each limit guarantees and what a
/// server should configure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Maximum nesting of messages and unions (default 64), when decoding
    /// and when encoding.
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
    /// Decode budget of one decode call, fixed part (default 1 MiB): see
    /// [`decode_budget`](Limits::decode_budget).
    pub decode_budget_base: usize,
    /// Decode budget of one decode call per input byte (default 32).
    pub decode_budget_per_byte: usize,
}

impl Limits {
    /// The default limits, usable in `const` context.
    pub const DEFAULT: Limits = Limits {
        max_depth: 64,
        max_len: 16 * 1024 * 1024,
        max_frame: 16 * 1024 * 1024,
        max_total_elements: 16 * 1024 * 1024,
        decode_budget_base: 1024 * 1024,
        decode_budget_per_byte: 32,
    };

    /// The memory, in bytes of the decoded-size model, that one decode call
    /// over `input_len` bytes may build: `decode_budget_base +
    /// decode_budget_per_byte * input_len`, saturating.
    ///
    /// Lists, maps, strings, bytes, boxed values, string defaults and kept
    /// unknown bytes are charged against it before they are allocated; a
    /// charge larger than what is left is
    /// [`DecodeErrorKind::BudgetExceeded`](crate::DecodeErrorKind::BudgetExceeded).
    pub const fn decode_budget(&self, input_len: usize) -> usize {
        self.decode_budget_base
            .saturating_add(self.decode_budget_per_byte.saturating_mul(input_len))
    }
}

impl Default for Limits {
    fn default() -> Self {
        Self::DEFAULT
    }
}
