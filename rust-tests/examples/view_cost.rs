//! Views or decodes packets many times, for comparing instruction counts
//! under `valgrind --tool=callgrind`:
//!
//! ```text
//! cargo build --release -p pkt-rust-tests --example view_cost
//! valgrind --tool=callgrind target/release/examples/view_cost chat-view 100000
//! valgrind --tool=callgrind target/release/examples/view_cost chat-decode 100000
//! ```
//!
//! Modes: `chat-view`, `chat-decode`, `moved-view`, `moved-decode` (an
//! `EntityMoved` server frame).

use std::hint::black_box;

use pkt_runtime::{Decode, Encode};
use pkt_rust_tests::game::net::{EntityMove, EntityTransform, ServerPacket, ServerPacketView};
use pkt_rust_tests::seeds::chat::{ChatPacket, ChatPacketView};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [mode, n] = args.as_slice() else {
        eprintln!("usage: view_cost chat-view|chat-decode|moved-view|moved-decode COUNT");
        std::process::exit(2);
    };
    let n: usize = n.parse().expect("count is a number");
    let chat = ChatPacket {
        sender_id: 42,
        nickname: "player_one".into(),
        text: "gg, see you in the next round".into(),
    }
    .encode_to_vec()
    .expect("within limits");
    let moved = ServerPacket::EntityMoved(EntityMove {
        entity_id: 7,
        tick: 9,
        transform: EntityTransform::default(),
    })
    .encode_to_vec()
    .expect("within limits");
    let mut sum = 0usize;
    for _ in 0..n {
        sum += match mode.as_str() {
            "chat-view" => {
                let v: ChatPacketView = ChatPacket::view(black_box(&chat)).expect("valid");
                v.sender_id as usize + v.nickname.len() + v.text.len()
            }
            "chat-decode" => {
                let v = ChatPacket::decode(black_box(&chat)).expect("valid");
                v.sender_id as usize + v.nickname.len() + v.text.len()
            }
            "moved-view" => match ServerPacket::view(black_box(&moved)).expect("valid") {
                ServerPacketView::EntityMoved(m) => m.entity_id as usize,
                _ => 0,
            },
            "moved-decode" => match ServerPacket::decode(black_box(&moved)).expect("valid") {
                ServerPacket::EntityMoved(m) => m.entity_id as usize,
                _ => 0,
            },
            _ => panic!("unknown mode {mode}"),
        };
    }
    println!("{sum}");
}
