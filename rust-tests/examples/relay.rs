//! A relay: a game server's fan-out loop that reads each incoming
//! `ServerPacket` frame through a borrowed view, looks at its union tag and
//! one field, and forwards the frame's original bytes unchanged to the
//! subscribers that want it. Nothing is decoded into owned values, nothing
//! is copied but the forwarded bytes, and no frame allocates.
//!
//! ```text
//! cargo run -p pkt-rust-tests --example relay
//! ```
//!
//! `cargo test` runs it too (as a test of this example), with a counting
//! allocator that checks the "no allocation per frame" claim.

use pkt_runtime::{DecodeError, Encode, FrameDecoder};
use pkt_rust_tests::game::net::{
    ChatChannel, ChatMessage, EntityMove, EntityTransform, Pong, ServerPacket, ServerPacketView,
};

pkt_test_support::counting_allocator!();

/// Where frames go: each subscriber's outgoing bytes, flushed by the caller.
#[derive(Default)]
struct Relay {
    decoder: FrameDecoder<ServerPacket>,
    /// Team chat only.
    team_chat: Vec<u8>,
    /// Movement of entities in the subscriber's area of interest.
    nearby: Vec<u8>,
    /// Everything else but pongs, which the relay answers itself.
    rest: Vec<u8>,
    forwarded: usize,
    dropped: usize,
    rejected: usize,
}

impl Relay {
    /// Entity ids the subscriber of `nearby` can see.
    const NEARBY: core::ops::Range<u32> = 0..500;

    /// Takes bytes as they arrive from the connection; frames may be split
    /// across calls. A frame that fails validation is skipped (the stream
    /// stays in step, since its length was good); a bad length closes the
    /// stream.
    fn on_bytes(&mut self, bytes: &[u8]) -> Result<(), DecodeError> {
        self.decoder.push(bytes);
        loop {
            let frame = match self.decoder.next_view() {
                Ok(Some(frame)) => frame,
                Ok(None) => return Ok(()),
                Err(e) => {
                    if self.decoder.is_failed() {
                        return Err(e);
                    }
                    self.rejected += 1;
                    continue;
                }
            };
            let out = match frame.view {
                ServerPacketView::Chat(chat) if chat.channel == ChatChannel::Team => {
                    Some(&mut self.team_chat)
                }
                ServerPacketView::EntityMoved(m) if Self::NEARBY.contains(&m.entity_id) => {
                    Some(&mut self.nearby)
                }
                ServerPacketView::EntityMoved(_) | ServerPacketView::Pong(_) => None,
                _ => Some(&mut self.rest),
            };
            match out {
                Some(out) => {
                    out.extend_from_slice(frame.bytes);
                    self.forwarded += 1;
                }
                None => self.dropped += 1,
            }
        }
    }

    /// Sends the buffered bytes (here: forgets them), keeping the buffers.
    fn flush(&mut self) -> usize {
        let n = self.team_chat.len() + self.nearby.len() + self.rest.len();
        self.team_chat.clear();
        self.nearby.clear();
        self.rest.clear();
        n
    }
}

/// A second of traffic: movement, chat on every channel, pongs.
fn traffic(frames: usize) -> Vec<u8> {
    let mut out = Vec::new();
    for i in 0..frames as u32 {
        let packet = match i % 10 {
            0 => ServerPacket::Chat(ChatMessage {
                channel: [ChatChannel::Say, ChatChannel::Team][(i / 10 % 2) as usize],
                sender_id: i,
                sender_name: "amy".into(),
                text: format!("message {i}"),
                mentions: vec!["bo".into()],
                sent_at: 1_700_000_000 + u64::from(i),
            }),
            1 => ServerPacket::Pong(Pong {
                client_time: u64::from(i),
                server_time: u64::from(i) + 1,
            }),
            _ => ServerPacket::EntityMoved(EntityMove {
                entity_id: i % 1000,
                tick: i,
                transform: EntityTransform::default(),
            }),
        };
        packet.encode_into(&mut out).expect("within limits");
    }
    out
}

/// Feeds `input` in 1,500-byte reads, as from a socket, and returns the
/// bytes forwarded.
fn run(relay: &mut Relay, input: &[u8]) -> usize {
    let mut sent = 0;
    for chunk in input.chunks(1500) {
        relay.on_bytes(chunk).expect("a well-formed stream");
        sent += relay.flush();
    }
    sent
}

fn main() {
    let input = traffic(10_000);
    let mut relay = Relay::default();
    // The first second sizes the buffers; the next one must not allocate.
    run(&mut relay, &input);
    (relay.forwarded, relay.dropped) = (0, 0);
    let (sent, stats) = pkt_test_support::alloc::measure(|| run(&mut relay, &input));
    println!(
        "10,000 frames: forwarded {} ({sent} bytes), dropped {}, rejected {}; {} allocations",
        relay.forwarded, relay.dropped, relay.rejected, stats.calls
    );
    assert_eq!(stats.calls, 0, "the relay allocated per frame");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forwards_exact_bytes_and_allocates_nothing_per_frame() {
        let input = traffic(1_000);
        let mut relay = Relay::default();
        // Collect what is forwarded, without flushing.
        relay.on_bytes(&input).unwrap();
        let frames: Vec<ServerPacket> = {
            let mut d = FrameDecoder::<ServerPacket>::new();
            d.push(&input);
            std::iter::from_fn(|| d.next_frame().unwrap()).collect()
        };
        let expect = |keep: &dyn Fn(&ServerPacket) -> bool| -> Vec<u8> {
            let mut out = Vec::new();
            for f in frames.iter().filter(|f| keep(f)) {
                f.encode_into(&mut out).unwrap();
            }
            out
        };
        assert_eq!(
            relay.team_chat,
            expect(&|f| matches!(f, ServerPacket::Chat(c) if c.channel == ChatChannel::Team))
        );
        assert_eq!(
            relay.nearby,
            expect(&|f| matches!(f, ServerPacket::EntityMoved(m) if m.entity_id < 500))
        );
        assert_eq!(relay.forwarded + relay.dropped, 1_000);
        assert!(!relay.team_chat.is_empty() && !relay.nearby.is_empty());

        relay.flush();
        run(&mut relay, &input);
        let (_, stats) = pkt_test_support::alloc::measure(|| run(&mut relay, &input));
        assert_eq!(stats.calls, 0, "the relay allocated per frame");
    }

    #[test]
    fn skips_a_bad_frame_and_stops_at_a_bad_length() {
        let mut input = traffic(3);
        // The first frame is a chat message: frame length, tag, body length,
        // channel, sender id, then the sender name's length, made to run
        // past the frame.
        assert!(matches!(
            ServerPacket::view(&input[..input.len() / 3]),
            Ok(ServerPacketView::Chat(_)) | Err(_)
        ));
        input[15..19].copy_from_slice(&0xFFFF_FFF0u32.to_le_bytes());
        let mut relay = Relay::default();
        relay.on_bytes(&input).unwrap();
        assert_eq!(relay.rejected, 1);
        assert_eq!(relay.forwarded + relay.dropped, 2);
        let mut bad = Relay::default();
        let e = bad.on_bytes(&[0xFF, 0xFF, 0xFF, 0x7F]).unwrap_err();
        assert!(bad.decoder.is_failed(), "{e}");
    }
}
