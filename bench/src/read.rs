//! The read side: reading fields of a received value in place, through
//! pktc's borrowed views and rkyv's validated access, beside pktc's owned
//! decode.
//!
//! Every reader returns a checksum of what it read, a wrapping sum of the
//! fields' values (floats by their bits, enums by their wire value), so
//! that the optimiser cannot drop the reads and so that the smoke test can
//! check that a view, an rkyv archive and the owned value read the same
//! data. "All fields" touches every scalar, iterates every list and reads
//! every string and byte field as a slice: its length and its first and
//! last byte (hashing the contents would time the hash, not the access).
//! "One field" reads what a router would: the sender of a chat line, the
//! union tag and the entity of each stream frame, one triangle's corner of
//! the mesh.

use rkyv::rancor::Error as RkyvError;

use crate::peers::native;
use crate::pkt::bench::mesh::{Mesh, MeshView, Triangle};
use crate::pkt::game::common::{Quat, Vec3};
use crate::pkt::game::net::{
    ChatMessage, ChatMessageView, EntityMove, EntityTransform, Equipment, EquipmentView,
    ServerPacket, ServerPacketView, SpawnEntity, SpawnEntityView,
};
use crate::pkt::seeds::chat::{ChatPacket, ChatPacketView};

/// The functions of the read-side rows of one data set: `P` is the pktc
/// value. The `*_owned` functions read the owned value and give the
/// checksum the other readers must return; the others take encoded bytes
/// (pktc's, or rkyv's for `rkyv_*`), validate them and read.
pub struct Readers<P> {
    pub one_owned: fn(&P) -> u64,
    pub all_owned: fn(&P) -> u64,
    /// pktc `decode` to the owned value, then [`all_owned`](Self::all_owned).
    pub decode_all: fn(&[u8]) -> u64,
    pub view_one: fn(&[u8]) -> u64,
    pub view_all: fn(&[u8]) -> u64,
    pub rkyv_one: fn(&[u8]) -> u64,
    pub rkyv_all: fn(&[u8]) -> u64,
}

/// A string or byte field read as a slice: its length and its first and
/// last byte.
#[inline(always)]
fn slice(s: &[u8]) -> u64 {
    let ends = match s {
        [] => 0,
        [first, .., last] => *first as u64 + *last as u64,
        [only] => 2 * *only as u64,
    };
    (s.len() as u64).wrapping_add(ends)
}

#[inline(always)]
fn f(x: f32) -> u64 {
    x.to_bits() as u64
}

#[inline(always)]
fn rf(x: rkyv::rend::f32_le) -> u64 {
    f(x.to_native())
}

// ---------------------------------------------------------------- ChatPacket

fn chat_one_owned(p: &ChatPacket) -> u64 {
    p.sender_id as u64
}

fn chat_all_owned(p: &ChatPacket) -> u64 {
    (p.sender_id as u64)
        .wrapping_add(slice(p.nickname.as_bytes()))
        .wrapping_add(slice(p.text.as_bytes()))
}

fn chat_all_view(p: &ChatPacketView<'_>) -> u64 {
    (p.sender_id as u64)
        .wrapping_add(slice(p.nickname.as_bytes()))
        .wrapping_add(slice(p.text.as_bytes()))
}

fn chat_all_rkyv(p: &native::ArchivedChatPacket) -> u64 {
    (p.sender_id.to_native() as u64)
        .wrapping_add(slice(p.nickname.as_bytes()))
        .wrapping_add(slice(p.text.as_bytes()))
}

/// The chat line.
pub const CHAT: Readers<ChatPacket> = Readers {
    one_owned: chat_one_owned,
    all_owned: chat_all_owned,
    decode_all: |b| chat_all_owned(&pkt_runtime::Decode::decode(b).expect("pktc")),
    view_one: |b| ChatPacket::view(b).expect("pktc view").sender_id as u64,
    view_all: |b| chat_all_view(&ChatPacket::view(b).expect("pktc view")),
    rkyv_one: |b| {
        rkyv::access::<native::ArchivedChatPacket, RkyvError>(b)
            .expect("rkyv access")
            .sender_id
            .to_native() as u64
    },
    rkyv_all: |b| {
        chat_all_rkyv(
            rkyv::access::<native::ArchivedChatPacket, RkyvError>(b).expect("rkyv access"),
        )
    },
};

// ---------------------------------------------------------------------- Mesh

/// The corner read by "one field": the middle triangle's `a.x`.
fn mesh_pick(len: usize) -> usize {
    len / 2
}

fn mesh_one_owned(m: &Mesh) -> u64 {
    let t = &m.triangles[mesh_pick(m.triangles.len())];
    f(t.a.x)
}

#[inline(always)]
fn triangle(t: &Triangle) -> u64 {
    [t.a, t.b, t.c, t.normal]
        .iter()
        .fold(0u64, |s, v| s.wrapping_add(f(v.x) + f(v.y) + f(v.z)))
}

fn mesh_all_owned(m: &Mesh) -> u64 {
    m.triangles
        .iter()
        .fold(m.triangles.len() as u64, |s, t| s.wrapping_add(triangle(t)))
}

fn mesh_one_view(m: &MeshView<'_>) -> u64 {
    let t = m
        .triangles
        .get(mesh_pick(m.triangles.len()))
        .expect("in range");
    f(t.a.x)
}

fn mesh_all_view(m: &MeshView<'_>) -> u64 {
    m.triangles.iter().fold(m.triangles.len() as u64, |s, t| {
        s.wrapping_add(triangle(&t))
    })
}

#[inline(always)]
fn rkyv_vec3(v: &native::ArchivedVec3) -> u64 {
    rf(v.x) + rf(v.y) + rf(v.z)
}

fn mesh_one_rkyv(m: &native::ArchivedMesh) -> u64 {
    rf(m.triangles[mesh_pick(m.triangles.len())].a.x)
}

fn mesh_all_rkyv(m: &native::ArchivedMesh) -> u64 {
    m.triangles.iter().fold(m.triangles.len() as u64, |s, t| {
        s.wrapping_add(rkyv_vec3(&t.a) + rkyv_vec3(&t.b) + rkyv_vec3(&t.c) + rkyv_vec3(&t.normal))
    })
}

/// The 125,000-triangle mesh.
pub const MESH: Readers<Mesh> = Readers {
    one_owned: mesh_one_owned,
    all_owned: mesh_all_owned,
    decode_all: |b| mesh_all_owned(&pkt_runtime::Decode::decode(b).expect("pktc")),
    view_one: |b| mesh_one_view(&Mesh::view(b).expect("pktc view")),
    view_all: |b| mesh_all_view(&Mesh::view(b).expect("pktc view")),
    rkyv_one: |b| {
        mesh_one_rkyv(rkyv::access::<native::ArchivedMesh, RkyvError>(b).expect("rkyv access"))
    },
    rkyv_all: |b| {
        mesh_all_rkyv(rkyv::access::<native::ArchivedMesh, RkyvError>(b).expect("rkyv access"))
    },
};

// ------------------------------------------------------- ServerPacket stream

// A number per variant, the same for every reader (not the wire tag).
const PONG: u64 = 1;
const SPAWN: u64 = 2;
const MOVED: u64 = 3;
const DESPAWN: u64 = 4;
const CHAT_LINE: u64 = 5;

#[inline(always)]
fn vec3(v: &Vec3) -> u64 {
    f(v.x) + f(v.y) + f(v.z)
}

#[inline(always)]
fn quat(q: &Quat) -> u64 {
    f(q.x) + f(q.y) + f(q.z) + f(q.w)
}

#[inline(always)]
fn transform(t: &EntityTransform) -> u64 {
    vec3(&t.position) + quat(&t.rotation) + vec3(&t.velocity)
}

#[inline(always)]
fn entity_move(m: &EntityMove) -> u64 {
    (m.entity_id as u64) + (m.tick as u64) + transform(&m.transform)
}

#[inline(always)]
fn equipment_head(e: &Equipment) -> u64 {
    (e.head as u64) + (e.chest as u64) + (e.main_hand as u64) + (e.off_hand as u64)
}

fn spawn_owned(s: &SpawnEntity) -> u64 {
    let mut sum = (s.entity_id as u64)
        + (s.kind.to_raw() as u64)
        + (s.team.to_raw() as u64)
        + transform(&s.transform)
        + slice(s.name.as_bytes())
        + (s.health as u64)
        + f(s.protection)
        + (s.visible as u64)
        + slice(&s.appearance);
    if let Some(e) = &s.equipment {
        sum += 1 + equipment_head(e);
        sum = e
            .cosmetics
            .iter()
            .fold(sum + e.cosmetics.len() as u64, |a, c| {
                a.wrapping_add(*c as u64)
            });
    }
    sum
}

fn spawn_view(s: &SpawnEntityView<'_>) -> u64 {
    let mut sum = (s.entity_id as u64)
        + (s.kind.to_raw() as u64)
        + (s.team.to_raw() as u64)
        + transform(&s.transform)
        + slice(s.name.as_bytes())
        + (s.health as u64)
        + f(s.protection)
        + (s.visible as u64)
        + slice(s.appearance);
    if let Some(e) = &s.equipment {
        let e: &EquipmentView<'_> = e;
        sum += 1 + (e.head as u64) + (e.chest as u64) + (e.main_hand as u64) + (e.off_hand as u64);
        sum = e
            .cosmetics
            .iter()
            .fold(sum + e.cosmetics.len() as u64, |a, c| {
                a.wrapping_add(c as u64)
            });
    }
    sum
}

fn chat_msg_owned(c: &ChatMessage) -> u64 {
    let sum = (c.channel.to_raw() as u64)
        + (c.sender_id as u64)
        + slice(c.sender_name.as_bytes())
        + slice(c.text.as_bytes())
        + c.sent_at
        + c.mentions.len() as u64;
    c.mentions
        .iter()
        .fold(sum, |a, m| a.wrapping_add(slice(m.as_bytes())))
}

fn chat_msg_view(c: &ChatMessageView<'_>) -> u64 {
    let sum = (c.channel.to_raw() as u64)
        + (c.sender_id as u64)
        + slice(c.sender_name.as_bytes())
        + slice(c.text.as_bytes())
        + c.sent_at
        + c.mentions.len() as u64;
    c.mentions
        .iter()
        .fold(sum, |a, m| a.wrapping_add(slice(m.as_bytes())))
}

fn frame_one_owned(p: &ServerPacket) -> u64 {
    match p {
        ServerPacket::Pong(p) => PONG + p.server_time,
        ServerPacket::Spawn(s) => SPAWN + s.entity_id as u64,
        ServerPacket::EntityMoved(m) => MOVED + m.entity_id as u64,
        ServerPacket::Despawn(d) => DESPAWN + d.entity_id as u64,
        ServerPacket::Chat(c) => CHAT_LINE + c.sender_id as u64,
        _ => unreachable!("not in the stream"),
    }
}

fn frame_all_owned(p: &ServerPacket) -> u64 {
    match p {
        ServerPacket::Pong(p) => PONG + p.client_time + p.server_time,
        ServerPacket::Spawn(s) => SPAWN + spawn_owned(s),
        ServerPacket::EntityMoved(m) => MOVED + entity_move(m),
        ServerPacket::Despawn(d) => DESPAWN + d.entity_id as u64 + d.reason.to_raw() as u64,
        ServerPacket::Chat(c) => CHAT_LINE + chat_msg_owned(c),
        _ => unreachable!("not in the stream"),
    }
}

fn frame_one_view(p: &ServerPacketView<'_>) -> u64 {
    match p {
        ServerPacketView::Pong(p) => PONG + p.server_time,
        ServerPacketView::Spawn(s) => SPAWN + s.entity_id as u64,
        ServerPacketView::EntityMoved(m) => MOVED + m.entity_id as u64,
        ServerPacketView::Despawn(d) => DESPAWN + d.entity_id as u64,
        ServerPacketView::Chat(c) => CHAT_LINE + c.sender_id as u64,
        _ => unreachable!("not in the stream"),
    }
}

fn frame_all_view(p: &ServerPacketView<'_>) -> u64 {
    match p {
        ServerPacketView::Pong(p) => PONG + p.client_time + p.server_time,
        ServerPacketView::Spawn(s) => SPAWN + spawn_view(s),
        ServerPacketView::EntityMoved(m) => MOVED + entity_move(m),
        ServerPacketView::Despawn(d) => DESPAWN + d.entity_id as u64 + d.reason.to_raw() as u64,
        ServerPacketView::Chat(c) => CHAT_LINE + chat_msg_view(c),
        _ => unreachable!("not in the stream"),
    }
}

/// Views every frame of the concatenated stream in turn
/// (`ServerPacket::for_each_view`) and folds `read` over them.
#[inline(always)]
fn each_view(bytes: &[u8], read: impl Fn(&ServerPacketView<'_>) -> u64) -> u64 {
    let mut sum = 0u64;
    ServerPacket::for_each_view(bytes, |v, _| sum = sum.wrapping_add(read(v))).expect("pktc view");
    sum
}

#[inline(always)]
fn rkyv_transform(t: &native::ArchivedEntityTransform) -> u64 {
    let q = &t.rotation;
    rkyv_vec3(&t.position) + rf(q.x) + rf(q.y) + rf(q.z) + rf(q.w) + rkyv_vec3(&t.velocity)
}

fn frame_one_rkyv(p: &native::ArchivedServerPacket) -> u64 {
    use native::ArchivedServerPacket as A;
    match p {
        A::Pong(p) => PONG + p.server_time.to_native(),
        A::Spawn(s) => SPAWN + s.entity_id.to_native() as u64,
        A::EntityMoved(m) => MOVED + m.entity_id.to_native() as u64,
        A::Despawn(d) => DESPAWN + d.entity_id.to_native() as u64,
        A::Chat(c) => CHAT_LINE + c.sender_id.to_native() as u64,
    }
}

fn frame_all_rkyv(p: &native::ArchivedServerPacket) -> u64 {
    use native::ArchivedServerPacket as A;
    match p {
        A::Pong(p) => PONG + p.client_time.to_native() + p.server_time.to_native(),
        A::Spawn(s) => {
            let mut sum = (s.entity_id.to_native() as u64)
                + (s.kind as u64)
                + (s.team as u64)
                + rkyv_transform(&s.transform)
                + slice(s.name.as_bytes())
                + (s.health.to_native() as u64)
                + rf(s.protection)
                + (s.visible as u64)
                + slice(&s.appearance);
            if let Some(e) = s.equipment.as_ref() {
                sum += 1
                    + (e.head.to_native() as u64)
                    + (e.chest.to_native() as u64)
                    + (e.main_hand.to_native() as u64)
                    + (e.off_hand.to_native() as u64);
                sum = e
                    .cosmetics
                    .iter()
                    .fold(sum + e.cosmetics.len() as u64, |a, c| {
                        a.wrapping_add(c.to_native() as u64)
                    });
            }
            SPAWN + sum
        }
        A::EntityMoved(m) => {
            MOVED
                + (m.entity_id.to_native() as u64)
                + (m.tick.to_native() as u64)
                + rkyv_transform(&m.transform)
        }
        A::Despawn(d) => DESPAWN + d.entity_id.to_native() as u64 + d.reason as u64,
        A::Chat(c) => {
            let sum = (c.channel as u64)
                + (c.sender_id.to_native() as u64)
                + slice(c.sender_name.as_bytes())
                + slice(c.text.as_bytes())
                + c.sent_at.to_native()
                + c.mentions.len() as u64;
            CHAT_LINE
                + c.mentions
                    .iter()
                    .fold(sum, |a, m| a.wrapping_add(slice(m.as_bytes())))
        }
    }
}

type ArchivedStream = rkyv::Archived<Vec<native::ServerPacket>>;

/// The stream of 10,000 frames. pktc's bytes are the frames one after
/// another; rkyv's are the whole `Vec` as one archive (rkyv has no
/// per-frame delimiting), accessed once and read element by element.
pub const STREAM: Readers<Vec<ServerPacket>> = Readers {
    one_owned: |s| {
        s.iter()
            .fold(0u64, |a, p| a.wrapping_add(frame_one_owned(p)))
    },
    all_owned: |s| {
        s.iter()
            .fold(0u64, |a, p| a.wrapping_add(frame_all_owned(p)))
    },
    decode_all: |b| {
        let mut sum = 0u64;
        <ServerPacket as pkt_runtime::Decode>::decode_for_each(b, |p| {
            sum = sum.wrapping_add(frame_all_owned(&p));
        })
        .expect("pktc");
        sum
    },
    view_one: |b| each_view(b, frame_one_view),
    view_all: |b| each_view(b, frame_all_view),
    rkyv_one: |b| {
        rkyv::access::<ArchivedStream, RkyvError>(b)
            .expect("rkyv access")
            .iter()
            .fold(0u64, |a, p| a.wrapping_add(frame_one_rkyv(p)))
    },
    rkyv_all: |b| {
        rkyv::access::<ArchivedStream, RkyvError>(b)
            .expect("rkyv access")
            .iter()
            .fold(0u64, |a, p| a.wrapping_add(frame_all_rkyv(p)))
    },
};
