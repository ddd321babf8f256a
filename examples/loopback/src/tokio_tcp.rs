//! The same exchange as [`run`](crate::run), on tokio: the server and the
//! client each wrap their `TcpStream` in
//! `Framed<TcpStream, PacketCodec<Incoming, Outgoing>>`, which splits the
//! stream into decoded packets and writes packets straight into its send
//! buffer.

use std::io;

use futures_util::{SinkExt, StreamExt};
use pkt_runtime::codec::PacketCodec;
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::Framed;

use crate::game::net::{ClientPacket, ServerPacket};
use crate::{client_packets, reply, Transcript};

/// The server side: reads `ClientPacket`s, writes `ServerPacket`s.
type ServerConn = Framed<TcpStream, PacketCodec<ClientPacket, ServerPacket>>;
/// The client side: reads `ServerPacket`s, writes `ClientPacket`s.
type ClientConn = Framed<TcpStream, PacketCodec<ServerPacket, ClientPacket>>;

async fn serve(mut conn: ServerConn) -> io::Result<()> {
    while let Some(packet) = conn.next().await {
        let (answer, keep_going) = reply(packet?);
        conn.send(&answer).await?;
        if !keep_going {
            break;
        }
    }
    Ok(())
}

/// Starts a server task on an ephemeral loopback port, then logs in, chats,
/// pings and sends a packet the server does not expect, like
/// [`run`](crate::run). Packets are queued with `feed` and flushed together,
/// so several frames share writes.
pub async fn run_tokio() -> io::Result<Transcript> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let server = tokio::spawn(async move {
        let (stream, _) = listener.accept().await?;
        serve(Framed::new(stream, PacketCodec::new())).await
    });

    let stream = TcpStream::connect(addr).await?;
    let mut conn: ClientConn = Framed::new(stream, PacketCodec::new());
    for packet in client_packets() {
        conn.feed(packet).await?;
    }
    // The codec encodes `ClientPacket` and `&ClientPacket`; a sink method
    // without an item needs the item type named.
    SinkExt::<ClientPacket>::flush(&mut conn).await?;

    let mut transcript = Transcript::default();
    while let Some(packet) = conn.next().await {
        let packet = packet?;
        let done = matches!(packet, ServerPacket::Kick(_));
        transcript.received.push(packet);
        if done {
            break;
        }
    }
    server.await.map_err(io::Error::other)??;
    Ok(transcript)
}
