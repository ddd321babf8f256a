//! pktc: a schema compiler for network packets.
