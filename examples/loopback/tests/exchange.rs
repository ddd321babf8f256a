use pkt_example_loopback::game::net::{KickReason, LoginStatus, ServerPacket};

use pkt_example_loopback::Transcript;

#[test]
fn client_and_server_exchange_packets_over_tcp() {
    check(&pkt_example_loopback::run().expect("exchange runs"));
}

#[tokio::test]
async fn client_and_server_exchange_packets_over_tokio_tcp() {
    let tokio_transcript = pkt_example_loopback::run_tokio()
        .await
        .expect("exchange runs");
    check(&tokio_transcript);
    // The same packets as the std version, byte for byte.
    assert_eq!(tokio_transcript, pkt_example_loopback::run().unwrap());
}

fn check(t: &Transcript) {
    assert_eq!(t.received.len(), 4, "{:#?}", t.received);
    match &t.received[0] {
        ServerPacket::LoginResult(r) => {
            assert_eq!(r.status, LoginStatus::Accepted);
            assert_eq!(r.player_id, Some(7));
            assert_eq!(r.motd, "welcome, amy");
        }
        other => panic!("expected a login result, got {other:?}"),
    }
    assert!(matches!(&t.received[1], ServerPacket::Chat(c) if c.text == "gg"));
    assert!(matches!(&t.received[2], ServerPacket::Pong(p) if p.server_time == 1001));
    assert!(
        matches!(&t.received[3], ServerPacket::Kick(k) if k.reason == KickReason::ProtocolError)
    );
}
