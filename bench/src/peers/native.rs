//! Hand-written Rust types equivalent to the pktc types, shared by the
//! derive-based peers: serde (bincode, postcard), bitcode, speedy and rkyv.
//! Enums are carried as their `u8` wire value, as a hand-written protocol
//! usually does.

use super::FromPkt;
use crate::pkt;

macro_rules! native {
    ($($item:item)*) => {$(
        #[derive(
            Clone, Debug, PartialEq,
            serde::Serialize, serde::Deserialize,
            bitcode::Encode, bitcode::Decode,
            speedy::Readable, speedy::Writable,
            rkyv::Archive, rkyv::Serialize, rkyv::Deserialize,
        )]
        $item
    )*};
}

native! {
    pub struct Packet {
        pub size: u16,
        pub id: u16,
    }

    pub struct Int3Packet {
        pub size: u16,
        pub id: u16,
        pub x: i32,
        pub y: i32,
        pub z: i32,
    }

    pub struct TransformPacket {
        pub size: u16,
        pub id: u16,
        pub pos_x: f32,
        pub pos_y: f32,
        pub pos_z: f32,
        pub rot_x: f32,
        pub rot_y: f32,
        pub rot_z: f32,
        pub scale_x: f32,
        pub scale_y: f32,
        pub scale_z: f32,
    }

    pub struct ChatPacket {
        pub sender_id: i64,
        pub nickname: String,
        pub text: String,
    }

    pub struct ItemSlot {
        pub slot: u16,
        pub item_id: u32,
        pub kind: u8,
        pub count: u16,
        pub durability: u16,
    }

    pub struct Inventory {
        pub owner_id: u64,
        pub slots: Vec<ItemSlot>,
    }

    pub struct WorldSnapshot {
        pub cells: Vec<i32>,
    }

    pub struct Vec3 {
        pub x: f32,
        pub y: f32,
        pub z: f32,
    }

    pub struct Quat {
        pub x: f32,
        pub y: f32,
        pub z: f32,
        pub w: f32,
    }

    pub struct Triangle {
        pub a: Vec3,
        pub b: Vec3,
        pub c: Vec3,
        pub normal: Vec3,
    }

    pub struct Mesh {
        pub triangles: Vec<Triangle>,
    }

    pub struct EntityTransform {
        pub position: Vec3,
        pub rotation: Quat,
        pub velocity: Vec3,
    }

    pub struct EntityMove {
        pub entity_id: u32,
        pub tick: u32,
        pub transform: EntityTransform,
    }

    pub struct Equipment {
        pub head: u32,
        pub chest: u32,
        pub main_hand: u32,
        pub off_hand: u32,
        pub cosmetics: Vec<u32>,
    }

    pub struct SpawnEntity {
        pub entity_id: u32,
        pub kind: u8,
        pub team: u8,
        pub transform: EntityTransform,
        pub name: String,
        pub health: u16,
        pub protection: f32,
        pub visible: bool,
        pub appearance: Vec<u8>,
        pub equipment: Option<Equipment>,
    }

    pub struct Despawn {
        pub entity_id: u32,
        pub reason: u8,
    }

    pub struct ChatMessage {
        pub channel: u8,
        pub sender_id: u32,
        pub sender_name: String,
        pub text: String,
        pub mentions: Vec<String>,
        pub sent_at: u64,
    }

    pub struct Pong {
        pub client_time: u64,
        pub server_time: u64,
    }

    /// The server packets that occur in the stream benchmark.
    pub enum ServerPacket {
        Pong(Pong),
        Spawn(SpawnEntity),
        EntityMoved(EntityMove),
        Despawn(Despawn),
        Chat(ChatMessage),
    }
}

impl FromPkt<pkt::seeds::packets::Packet> for Packet {
    fn from_pkt(p: &pkt::seeds::packets::Packet) -> Self {
        Self {
            size: p.size,
            id: p.id,
        }
    }
}

impl FromPkt<pkt::seeds::packets::Int3Packet> for Int3Packet {
    fn from_pkt(p: &pkt::seeds::packets::Int3Packet) -> Self {
        Self {
            size: p.size,
            id: p.id,
            x: p.x,
            y: p.y,
            z: p.z,
        }
    }
}

impl FromPkt<pkt::seeds::packets::TransformPacket> for TransformPacket {
    fn from_pkt(p: &pkt::seeds::packets::TransformPacket) -> Self {
        Self {
            size: p.size,
            id: p.id,
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
                    slot: s.slot,
                    item_id: s.item_id,
                    kind: s.kind.to_raw(),
                    count: s.count,
                    durability: s.durability,
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

fn mvec3(v: &pkt::bench::mesh::Vec3) -> Vec3 {
    Vec3 {
        x: v.x,
        y: v.y,
        z: v.z,
    }
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

fn vec3(v: &pkt::game::common::Vec3) -> Vec3 {
    Vec3 {
        x: v.x,
        y: v.y,
        z: v.z,
    }
}

fn transform(t: &pkt::game::net::EntityTransform) -> EntityTransform {
    EntityTransform {
        position: vec3(&t.position),
        rotation: Quat {
            x: t.rotation.x,
            y: t.rotation.y,
            z: t.rotation.z,
            w: t.rotation.w,
        },
        velocity: vec3(&t.velocity),
    }
}

impl FromPkt<pkt::game::net::ServerPacket> for ServerPacket {
    fn from_pkt(p: &pkt::game::net::ServerPacket) -> Self {
        use pkt::game::net::ServerPacket as P;
        match p {
            P::Pong(v) => Self::Pong(Pong {
                client_time: v.client_time,
                server_time: v.server_time,
            }),
            P::Spawn(v) => Self::Spawn(SpawnEntity {
                entity_id: v.entity_id,
                kind: v.kind.to_raw(),
                team: v.team.to_raw(),
                transform: transform(&v.transform),
                name: v.name.clone(),
                health: v.health,
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
            P::EntityMoved(v) => Self::EntityMoved(EntityMove {
                entity_id: v.entity_id,
                tick: v.tick,
                transform: transform(&v.transform),
            }),
            P::Despawn(v) => Self::Despawn(Despawn {
                entity_id: v.entity_id,
                reason: v.reason.to_raw(),
            }),
            P::Chat(v) => Self::Chat(ChatMessage {
                channel: v.channel.to_raw(),
                sender_id: v.sender_id,
                sender_name: v.sender_name.clone(),
                text: v.text.clone(),
                mentions: v.mentions.clone(),
                sent_at: v.sent_at,
            }),
            other => panic!("the stream benchmark does not use {other:?}"),
        }
    }
}
