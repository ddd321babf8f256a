//! Encodes game packets many times, checked (`encode_into`) or unchecked
//! (`encode_into_unchecked`), for comparing instruction counts under
//! `valgrind --tool=callgrind` (docs/security.md):
//!
//! ```text
//! cargo build --release -p pkt-rust-tests --example encode_cost
//! valgrind --tool=callgrind target/release/examples/encode_cost checked 100000
//! valgrind --tool=callgrind target/release/examples/encode_cost unchecked 100000
//! ```

use pkt_runtime::Encode;
use pkt_rust_tests::game::net::{
    ChatChannel, ChatMessage, EntityState, EntityTransform, ServerPacket, WorldState,
};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [mode, n] = args.as_slice() else {
        eprintln!("usage: encode_cost checked|unchecked COUNT");
        std::process::exit(2);
    };
    let checked = mode == "checked";
    let n: usize = n.parse().expect("count is a number");
    let packets = [
        ServerPacket::Chat(ChatMessage {
            channel: ChatChannel::Team,
            sender_id: 7,
            sender_name: "amy".into(),
            text: "on my way".into(),
            mentions: vec!["bo".into()],
            sent_at: 1,
        }),
        ServerPacket::WorldState(WorldState {
            entities: (0..32)
                .map(|i| {
                    let state = EntityState {
                        transform: EntityTransform::default(),
                        health: 100,
                        ..EntityState::default()
                    };
                    (i, state)
                })
                .collect(),
            ..WorldState::default()
        }),
    ];
    let mut out = Vec::with_capacity(1 << 16);
    let mut total = 0usize;
    for i in 0..n {
        let p = std::hint::black_box(&packets[i % packets.len()]);
        out.clear();
        if checked {
            p.encode_into(&mut out).expect("within limits");
        } else {
            p.encode_into_unchecked(&mut out);
        }
        total += out.len();
    }
    println!("{total}");
}
