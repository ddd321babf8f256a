//! Protocol Buffers equivalents for prost, written by hand with
//! `#[derive(prost::Message)]` (no protoc). Integers narrower than 32 bits
//! become `uint32`; integers use the default varint encodings and floats
//! `float` (4 bytes), as a `.proto` author would write them. A union becomes a
//! message with a `oneof`.

use super::FromPkt;
use crate::pkt;

#[derive(Clone, PartialEq, prost::Message)]
pub struct Packet {
    #[prost(uint32, tag = "1")]
    pub size: u32,
    #[prost(uint32, tag = "2")]
    pub id: u32,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct Int3Packet {
    #[prost(uint32, tag = "1")]
    pub size: u32,
    #[prost(uint32, tag = "2")]
    pub id: u32,
    #[prost(int32, tag = "3")]
    pub x: i32,
    #[prost(int32, tag = "4")]
    pub y: i32,
    #[prost(int32, tag = "5")]
    pub z: i32,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct TransformPacket {
    #[prost(uint32, tag = "1")]
    pub size: u32,
    #[prost(uint32, tag = "2")]
    pub id: u32,
    #[prost(float, tag = "3")]
    pub pos_x: f32,
    #[prost(float, tag = "4")]
    pub pos_y: f32,
    #[prost(float, tag = "5")]
    pub pos_z: f32,
    #[prost(float, tag = "6")]
    pub rot_x: f32,
    #[prost(float, tag = "7")]
    pub rot_y: f32,
    #[prost(float, tag = "8")]
    pub rot_z: f32,
    #[prost(float, tag = "9")]
    pub scale_x: f32,
    #[prost(float, tag = "10")]
    pub scale_y: f32,
    #[prost(float, tag = "11")]
    pub scale_z: f32,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct ChatPacket {
    #[prost(int64, tag = "1")]
    pub sender_id: i64,
    #[prost(string, tag = "2")]
    pub nickname: String,
    #[prost(string, tag = "3")]
    pub text: String,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct ItemSlot {
    #[prost(uint32, tag = "1")]
    pub slot: u32,
    #[prost(uint32, tag = "2")]
    pub item_id: u32,
    #[prost(uint32, tag = "3")]
    pub kind: u32,
    #[prost(uint32, tag = "4")]
    pub count: u32,
    #[prost(uint32, tag = "5")]
    pub durability: u32,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct Inventory {
    #[prost(uint64, tag = "1")]
    pub owner_id: u64,
    #[prost(message, repeated, tag = "2")]
    pub slots: Vec<ItemSlot>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct WorldSnapshot {
    #[prost(int32, repeated, tag = "1")]
    pub cells: Vec<i32>,
}

#[derive(Clone, Copy, PartialEq, prost::Message)]
pub struct Vec3 {
    #[prost(float, tag = "1")]
    pub x: f32,
    #[prost(float, tag = "2")]
    pub y: f32,
    #[prost(float, tag = "3")]
    pub z: f32,
}

#[derive(Clone, Copy, PartialEq, prost::Message)]
pub struct Quat {
    #[prost(float, tag = "1")]
    pub x: f32,
    #[prost(float, tag = "2")]
    pub y: f32,
    #[prost(float, tag = "3")]
    pub z: f32,
    #[prost(float, tag = "4")]
    pub w: f32,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct Triangle {
    #[prost(message, optional, tag = "1")]
    pub a: Option<Vec3>,
    #[prost(message, optional, tag = "2")]
    pub b: Option<Vec3>,
    #[prost(message, optional, tag = "3")]
    pub c: Option<Vec3>,
    #[prost(message, optional, tag = "4")]
    pub normal: Option<Vec3>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct Mesh {
    #[prost(message, repeated, tag = "1")]
    pub triangles: Vec<Triangle>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct EntityTransform {
    #[prost(message, optional, tag = "1")]
    pub position: Option<Vec3>,
    #[prost(message, optional, tag = "2")]
    pub rotation: Option<Quat>,
    #[prost(message, optional, tag = "3")]
    pub velocity: Option<Vec3>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct EntityMove {
    #[prost(uint32, tag = "1")]
    pub entity_id: u32,
    #[prost(uint32, tag = "2")]
    pub tick: u32,
    #[prost(message, optional, tag = "3")]
    pub transform: Option<EntityTransform>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct Equipment {
    #[prost(uint32, tag = "1")]
    pub head: u32,
    #[prost(uint32, tag = "2")]
    pub chest: u32,
    #[prost(uint32, tag = "3")]
    pub main_hand: u32,
    #[prost(uint32, tag = "4")]
    pub off_hand: u32,
    #[prost(uint32, repeated, tag = "5")]
    pub cosmetics: Vec<u32>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct SpawnEntity {
    #[prost(uint32, tag = "1")]
    pub entity_id: u32,
    #[prost(uint32, tag = "2")]
    pub kind: u32,
    #[prost(uint32, tag = "3")]
    pub team: u32,
    #[prost(message, optional, tag = "4")]
    pub transform: Option<EntityTransform>,
    #[prost(string, tag = "5")]
    pub name: String,
    #[prost(uint32, tag = "6")]
    pub health: u32,
    #[prost(float, tag = "7")]
    pub protection: f32,
    #[prost(bool, tag = "8")]
    pub visible: bool,
    #[prost(bytes = "vec", tag = "9")]
    pub appearance: Vec<u8>,
    #[prost(message, optional, tag = "10")]
    pub equipment: Option<Equipment>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct Despawn {
    #[prost(uint32, tag = "1")]
    pub entity_id: u32,
    #[prost(uint32, tag = "2")]
    pub reason: u32,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct ChatMessage {
    #[prost(uint32, tag = "1")]
    pub channel: u32,
    #[prost(uint32, tag = "2")]
    pub sender_id: u32,
    #[prost(string, tag = "3")]
    pub sender_name: String,
    #[prost(string, tag = "4")]
    pub text: String,
    #[prost(string, repeated, tag = "5")]
    pub mentions: Vec<String>,
    #[prost(uint64, tag = "6")]
    pub sent_at: u64,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct Pong {
    #[prost(uint64, tag = "1")]
    pub client_time: u64,
    #[prost(uint64, tag = "2")]
    pub server_time: u64,
}

#[derive(Clone, PartialEq, prost::Oneof)]
pub enum Frame {
    #[prost(message, tag = "1")]
    Pong(Pong),
    #[prost(message, tag = "2")]
    Spawn(SpawnEntity),
    #[prost(message, tag = "3")]
    EntityMoved(EntityMove),
    #[prost(message, tag = "4")]
    Despawn(Despawn),
    #[prost(message, tag = "5")]
    Chat(ChatMessage),
}

/// The union as a message holding a `oneof`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ServerPacket {
    #[prost(oneof = "Frame", tags = "1, 2, 3, 4, 5")]
    pub frame: Option<Frame>,
}

impl FromPkt<pkt::seeds::packets::Packet> for Packet {
    fn from_pkt(p: &pkt::seeds::packets::Packet) -> Self {
        Self {
            size: p.size.into(),
            id: p.id.into(),
        }
    }
}

impl FromPkt<pkt::seeds::packets::Int3Packet> for Int3Packet {
    fn from_pkt(p: &pkt::seeds::packets::Int3Packet) -> Self {
        Self {
            size: p.size.into(),
            id: p.id.into(),
            x: p.x,
            y: p.y,
            z: p.z,
        }
    }
}

impl FromPkt<pkt::seeds::packets::TransformPacket> for TransformPacket {
    fn from_pkt(p: &pkt::seeds::packets::TransformPacket) -> Self {
        Self {
            size: p.size.into(),
            id: p.id.into(),
            pos_x: p.pos_x,
            pos_y: p.pos_y,
            pos_z: p.pos_z,
            rot_x: p.rot_x,
            rot_y: p.rot_y,
            rot_z: p.rot_z,
            scale_x: p.scale_x,
            scale_y: p.scale_y,
            scale_z: p.scale_z,
        }
    }
}

impl FromPkt<pkt::seeds::chat::ChatPacket> for ChatPacket {
    fn from_pkt(p: &pkt::seeds::chat::ChatPacket) -> Self {
        Self {
            sender_id: p.sender_id,
            nickname: p.nickname.clone(),
            text: p.text.clone(),
        }
    }
}

impl FromPkt<pkt::seeds::chat::Inventory> for Inventory {
    fn from_pkt(p: &pkt::seeds::chat::Inventory) -> Self {
        Self {
            owner_id: p.owner_id,
            slots: p
                .slots
                .iter()
                .map(|s| ItemSlot {
                    slot: s.slot.into(),
                    item_id: s.item_id,
                    kind: s.kind.to_raw().into(),
                    count: s.count.into(),
                    durability: s.durability.into(),
                })
                .collect(),
        }
    }
}

impl FromPkt<pkt::seeds::world::WorldSnapshot> for WorldSnapshot {
    fn from_pkt(p: &pkt::seeds::world::WorldSnapshot) -> Self {
        Self {
            cells: p.cells.clone(),
        }
    }
}

fn mvec3(v: &pkt::bench::mesh::Vec3) -> Option<Vec3> {
    Some(Vec3 {
        x: v.x,
        y: v.y,
        z: v.z,
    })
}

impl FromPkt<pkt::bench::mesh::Mesh> for Mesh {
    fn from_pkt(p: &pkt::bench::mesh::Mesh) -> Self {
        Self {
            triangles: p
                .triangles
                .iter()
                .map(|t| Triangle {
                    a: mvec3(&t.a),
                    b: mvec3(&t.b),
                    c: mvec3(&t.c),
                    normal: mvec3(&t.normal),
                })
                .collect(),
        }
    }
}

fn vec3(v: &pkt::game::common::Vec3) -> Option<Vec3> {
    Some(Vec3 {
        x: v.x,
        y: v.y,
        z: v.z,
    })
}

fn transform(t: &pkt::game::net::EntityTransform) -> Option<EntityTransform> {
    Some(EntityTransform {
        position: vec3(&t.position),
        rotation: Some(Quat {
            x: t.rotation.x,
            y: t.rotation.y,
            z: t.rotation.z,
            w: t.rotation.w,
        }),
        velocity: vec3(&t.velocity),
    })
}

impl FromPkt<pkt::game::net::ServerPacket> for ServerPacket {
    fn from_pkt(p: &pkt::game::net::ServerPacket) -> Self {
        use pkt::game::net::ServerPacket as P;
        let frame = match p {
            P::Pong(v) => Frame::Pong(Pong {
                client_time: v.client_time,
                server_time: v.server_time,
            }),
            P::Spawn(v) => Frame::Spawn(SpawnEntity {
                entity_id: v.entity_id,
                kind: v.kind.to_raw().into(),
                team: v.team.to_raw().into(),
                transform: transform(&v.transform),
                name: v.name.clone(),
                health: v.health.into(),
                protection: v.protection,
                visible: v.visible,
                appearance: v.appearance.clone(),
                equipment: v.equipment.as_ref().map(|e| Equipment {
                    head: e.head,
                    chest: e.chest,
                    main_hand: e.main_hand,
                    off_hand: e.off_hand,
                    cosmetics: e.cosmetics.clone(),
                }),
            }),
            P::EntityMoved(v) => Frame::EntityMoved(EntityMove {
                entity_id: v.entity_id,
                tick: v.tick,
                transform: transform(&v.transform),
            }),
            P::Despawn(v) => Frame::Despawn(Despawn {
                entity_id: v.entity_id,
                reason: v.reason.to_raw().into(),
            }),
            P::Chat(v) => Frame::Chat(ChatMessage {
                channel: v.channel.to_raw().into(),
                sender_id: v.sender_id,
                sender_name: v.sender_name.clone(),
                text: v.text.clone(),
                mentions: v.mentions.clone(),
                sent_at: v.sent_at,
            }),
            other => panic!("the stream benchmark does not use {other:?}"),
        };
        Self { frame: Some(frame) }
    }
}
