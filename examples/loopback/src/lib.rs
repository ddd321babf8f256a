//! A game server and client talking over a loopback TCP socket with the
//! protocol of `schemas/game.pkt`. Each side reads the stream through a
//! `FrameDecoder`, which reassembles union frames however TCP splits them.
//! [`run_tokio`] is the same exchange on tokio with `PacketCodec`.

use std::io::{self, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::thread;

use pkt_runtime::{Encode, FrameDecoder};

include!(concat!(env!("OUT_DIR"), "/pktc/mod.rs"));

mod tokio_tcp;

pub use tokio_tcp::run_tokio;

use game::common::Vec3;
use game::net::{
    ChatChannel, ChatMessage, ChatSend, ClientPacket, Kick, KickReason, Login, LoginResult,
    LoginStatus, Pong, ServerPacket,
};

/// What the client saw, in order.
#[derive(Debug, Default, PartialEq)]
pub struct Transcript {
    pub received: Vec<ServerPacket>,
}

/// Reads frames until `f` says stop or the peer closes the stream.
fn read_frames<T: pkt_runtime::Decode>(
    stream: &mut TcpStream,
    mut f: impl FnMut(T) -> io::Result<bool>,
) -> io::Result<()> {
    let mut decoder = FrameDecoder::<T>::new();
    let mut buf = [0u8; 7]; // small on purpose: frames arrive in pieces
    loop {
        while let Some(frame) = decoder
            .next_frame()
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?
        {
            if !f(frame)? {
                return Ok(());
            }
        }
        let n = stream.read(&mut buf)?;
        if n == 0 {
            return Ok(());
        }
        decoder.push(&buf[..n]);
    }
}

fn send(stream: &mut TcpStream, packet: &impl Encode, out: &mut Vec<u8>) -> io::Result<()> {
    out.clear();
    // A packet over its schema's limits is an error here, not bytes the
    // peer would reject.
    packet
        .encode_into(out)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    stream.write_all(out)
}

/// The server's answer to one packet, and whether to keep the connection.
fn reply(packet: ClientPacket) -> (ServerPacket, bool) {
    let answer = match packet {
        ClientPacket::Login(login) => ServerPacket::LoginResult(LoginResult {
            status: LoginStatus::Accepted,
            player_id: Some(7),
            motd: format!("welcome, {}", login.username),
            ..LoginResult::default()
        }),
        ClientPacket::Ping(client_time) => ServerPacket::Pong(Pong {
            client_time,
            server_time: client_time + 1,
        }),
        ClientPacket::ChatSend(chat) => ServerPacket::Chat(ChatMessage {
            channel: chat.channel,
            sender_id: 7,
            sender_name: "amy".into(),
            text: chat.text,
            ..ChatMessage::default()
        }),
        _ => {
            let kick = ServerPacket::Kick(Kick {
                reason: KickReason::ProtocolError,
                detail: "unexpected packet".into(),
                banned_until: None,
            });
            return (kick, false);
        }
    };
    (answer, true)
}

fn serve(mut stream: TcpStream) -> io::Result<()> {
    let mut out = Vec::with_capacity(256);
    let mut writer = stream.try_clone()?;
    read_frames::<ClientPacket>(&mut stream, |packet| {
        let (answer, keep_going) = reply(packet);
        send(&mut writer, &answer, &mut out)?;
        Ok(keep_going)
    })
}

/// What the client sends: log in, chat, ping, then a packet the server does
/// not expect.
fn client_packets() -> [ClientPacket; 4] {
    [
        ClientPacket::Login(Login {
            protocol_version: 3,
            username: "amy".into(),
            ..Login::default()
        }),
        ClientPacket::ChatSend(ChatSend {
            channel: ChatChannel::Team,
            whisper_to: None,
            text: "gg".into(),
        }),
        ClientPacket::Ping(1000),
        ClientPacket::UseItem(game::net::UseItem {
            slot: 1,
            target_id: None,
            aim: Vec3 {
                x: 0.0,
                y: 1.0,
                z: 0.0,
            },
        }),
    ]
}

/// Starts a server on an ephemeral loopback port, logs in, chats, pings,
/// then sends a packet the server does not expect and is kicked.
pub fn run() -> io::Result<Transcript> {
    let listener = TcpListener::bind("127.0.0.1:0")?;
    let addr = listener.local_addr()?;
    let server = thread::spawn(move || -> io::Result<()> {
        let (stream, _) = listener.accept()?;
        serve(stream)
    });

    let mut stream = TcpStream::connect(addr)?;
    let mut out = Vec::new();
    let packets = client_packets();
    // All packets in one buffer, written in uneven pieces.
    let mut all = Vec::new();
    for p in &packets {
        p.encode_into(&mut all)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    }
    for piece in all.chunks(5) {
        out.clear();
        out.extend_from_slice(piece);
        stream.write_all(&out)?;
    }
    let mut transcript = Transcript::default();
    read_frames::<ServerPacket>(&mut stream, |packet| {
        let done = matches!(packet, ServerPacket::Kick(_));
        transcript.received.push(packet);
        Ok(!done)
    })?;
    server.join().expect("server thread")?;
    Ok(transcript)
}
