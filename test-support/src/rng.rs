/// xorshift64*: deterministic, so a failure names a reproducible seed.
///
/// The seed must not be zero (a zero state stays zero).
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    #[allow(clippy::should_implement_trait)] // an endless stream, not an iterator
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform-ish in `0..n` (`0` when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    /// [`Rng::below`] for indices and lengths.
    pub fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }

    /// True once in `one_in` draws on average.
    pub fn chance(&mut self, one_in: u64) -> bool {
        self.below(one_in) == 0
    }
}
