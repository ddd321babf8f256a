//! A counting global allocator. Counters are per thread, so tests running in
//! parallel do not disturb each other; allocations made while a thread is
//! being torn down are not counted.
//!
//! A `#[global_allocator]` must be declared in each binary that wants it:
//!
//! ```ignore
//! pkt_test_support::counting_allocator!();
//!
//! let (value, stats) = pkt_test_support::alloc::measure(|| build());
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Forwards to the system allocator and counts, on the calling thread:
/// allocation calls (`alloc`, `alloc_zeroed`, `realloc`), bytes requested by
/// them, and live heap bytes with their peak.
pub struct Counting;

/// Declares [`Counting`] as the `#[global_allocator]` of this binary.
#[macro_export]
macro_rules! counting_allocator {
    () => {
        #[global_allocator]
        static PKT_TEST_SUPPORT_ALLOCATOR: $crate::alloc::Counting = $crate::alloc::Counting;
    };
}

thread_local! {
    static CALLS: Cell<usize> = const { Cell::new(0) };
    static BYTES: Cell<usize> = const { Cell::new(0) };
    static LIVE: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

fn grow(n: usize) {
    let _ = CALLS.try_with(|c| c.set(c.get() + 1));
    let _ = BYTES.try_with(|c| c.set(c.get() + n));
    let _ = LIVE.try_with(|c| {
        c.set(c.get() + n);
        let _ = PEAK.try_with(|p| p.set(p.get().max(c.get())));
    });
}

fn shrink(n: usize) {
    let _ = LIVE.try_with(|c| c.set(c.get().saturating_sub(n)));
}

// SAFETY: every call is forwarded unchanged to the system allocator; the
// bookkeeping touches only thread-local cells and never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grow(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        grow(layout.size());
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        grow(new_size);
        shrink(layout.size());
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        shrink(layout.size());
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Allocation calls made on this thread so far (`alloc`, `alloc_zeroed` and
/// `realloc` each count one).
pub fn calls() -> usize {
    CALLS.with(Cell::get)
}

/// Bytes requested on this thread so far (a `realloc` counts its new size).
pub fn bytes() -> usize {
    BYTES.with(Cell::get)
}

/// Heap bytes allocated on this thread and not yet freed.
pub fn live() -> usize {
    LIVE.with(Cell::get)
}

/// The highest [`live`] since the last [`reset_peak`].
pub fn peak() -> usize {
    PEAK.with(Cell::get)
}

/// Starts a new peak at the current [`live`] bytes.
pub fn reset_peak() {
    PEAK.with(|p| p.set(live()));
}

/// What [`measure`] saw `f` do on this thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stats {
    /// Allocation calls.
    pub calls: usize,
    /// Bytes requested.
    pub bytes: usize,
    /// Highest live heap above where `f` started.
    pub peak: usize,
}

/// Runs `f` and returns its result with the allocations it made on this
/// thread (meaningful only where [`counting_allocator!`] is declared).
pub fn measure<R>(f: impl FnOnce() -> R) -> (R, Stats) {
    let (calls, bytes, start) = (calls(), bytes(), live());
    PEAK.with(|p| p.set(start));
    let r = f();
    let stats = Stats {
        calls: self::calls() - calls,
        bytes: self::bytes() - bytes,
        peak: peak().saturating_sub(start),
    };
    (r, stats)
}
