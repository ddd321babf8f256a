//! The peers' own types for the benchmark data, and conversions from the
//! pktc values.

pub mod bebop;
pub mod native;
pub mod proto;

/// Conversion from the pktc value of the same data.
pub trait FromPkt<P> {
    fn from_pkt(p: &P) -> Self;
}

impl<P, N: FromPkt<P>> FromPkt<Vec<P>> for Vec<N> {
    fn from_pkt(p: &Vec<P>) -> Self {
        p.iter().map(N::from_pkt).collect()
    }
}
