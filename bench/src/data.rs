//! The benchmark data sets, built as pktc values. The peers convert these to
//! their own types (`peers::*::from_pkt`), so every codec sees the same data.

use crate::pkt::bench::mesh::{Mesh, Triangle, Vec3 as MVec3};
use crate::pkt::game::common::{Quat, Team, Vec3};
use crate::pkt::game::net::{
    ChatChannel, ChatMessage, Despawn, DespawnReason, EntityKind, EntityMove, EntityTransform,
    Equipment, Pong, ServerPacket, SpawnEntity,
};
use crate::pkt::seeds::chat::{ChatPacket, Inventory, ItemKind, ItemSlot};
use crate::pkt::seeds::packets::{Int3Packet, Packet, TransformPacket};
use crate::pkt::seeds::world::WorldSnapshot;
use pkt_runtime::Decode;
use pkt_test_support::vectors;

/// Number of `i32` cells in the world snapshot.
pub const WORLD_CELLS: usize = 30_000;
/// Number of triangles in the mesh.
pub const MESH_TRIANGLES: usize = 125_000;
/// Number of inventory slots.
pub const INVENTORY_SLOTS: usize = 100;
/// Number of union frames in the server stream.
pub const STREAM_FRAMES: usize = 10_000;

/// SplitMix64: a small deterministic generator, so every run and every
/// codec sees the same values.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// Uniform in `lo..hi`.
    pub fn f32_in(&mut self, lo: f32, hi: f32) -> f32 {
        let unit = (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        lo + (hi - lo) * unit
    }
}

/// The golden vector `name` of `schemas/vectors/`, decoded: the seed
/// packets are kept there once, with their bytes.
fn golden<T: Decode>(name: &str) -> T {
    T::decode(&vectors::get(name).bytes).unwrap_or_else(|e| panic!("golden vector {name}: {e}"))
}

/// Seed article 004: `Packet(size 4, id 1234)`.
pub fn packet() -> Packet {
    golden("packet")
}

/// Seed article 004: `Int3Packet(16, 2345, 10, 102030, 99999999)`.
pub fn int3_packet() -> Int3Packet {
    golden("int3_packet")
}

/// Seed article 004: `TransformPacket(40, 3456, pos 1.1 2.2 3.3, rot 123.456
/// 234.567 345.678, scale 10000 20000 30000)`.
pub fn transform_packet() -> TransformPacket {
    golden("transform_packet")
}

/// A chat line with two short strings (10 and 39 bytes).
pub fn chat() -> ChatPacket {
    ChatPacket {
        sender_id: 7_340_123_456,
        nickname: "Lumberjack".to_owned(),
        text: "meet at the north bridge, bring potions".to_owned(),
    }
}

/// A bag of 100 occupied slots with realistic ids, stacks and durability.
pub fn inventory() -> Inventory {
    let mut rng = Rng::new(1);
    let slots = (0..INVENTORY_SLOTS as u16)
        .map(|slot| {
            let raw = 1 + rng.below(5) as u8;
            let kind = ItemKind::from_raw(raw);
            let stacks = matches!(kind, ItemKind::Consumable | ItemKind::Material);
            let wears = matches!(kind, ItemKind::Weapon | ItemKind::Armor);
            ItemSlot {
                slot,
                item_id: 10_000 + rng.below(90_000) as u32,
                kind,
                count: if stacks { 1 + rng.below(99) as u16 } else { 1 },
                durability: if wears { rng.below(1_000) as u16 } else { 0 },
            }
        })
        .collect();
    Inventory {
        owner_id: 90_210_000_123,
        slots,
    }
}

/// 30,000 cells: mostly small terrain ids (0..64), every 8th cell a packed
/// 32-bit state word (which needs 4-5 bytes as a varint).
pub fn world() -> WorldSnapshot {
    let mut rng = Rng::new(2);
    let cells = (0..WORLD_CELLS)
        .map(|i| {
            if i % 8 == 7 {
                rng.next_u64() as u32 as i32
            } else {
                rng.below(64) as i32
            }
        })
        .collect();
    WorldSnapshot { cells }
}

fn mesh_vec3(rng: &mut Rng, range: f32) -> MVec3 {
    MVec3 {
        x: rng.f32_in(-range, range),
        y: rng.f32_in(-range, range),
        z: rng.f32_in(-range, range),
    }
}

/// 125,000 triangles with arbitrary float coordinates (the size of the
/// public Rust serialization benchmark's mesh).
pub fn mesh() -> Mesh {
    let mut rng = Rng::new(3);
    let triangles = (0..MESH_TRIANGLES)
        .map(|_| Triangle {
            a: mesh_vec3(&mut rng, 100.0),
            b: mesh_vec3(&mut rng, 100.0),
            c: mesh_vec3(&mut rng, 100.0),
            normal: mesh_vec3(&mut rng, 1.0),
        })
        .collect();
    Mesh { triangles }
}

fn vec3(rng: &mut Rng, range: f32) -> Vec3 {
    Vec3 {
        x: rng.f32_in(-range, range),
        y: rng.f32_in(-range, range),
        z: rng.f32_in(-range, range),
    }
}

fn transform(rng: &mut Rng) -> EntityTransform {
    EntityTransform {
        position: vec3(rng, 500.0),
        rotation: Quat {
            x: rng.f32_in(-1.0, 1.0),
            y: rng.f32_in(-1.0, 1.0),
            z: rng.f32_in(-1.0, 1.0),
            w: rng.f32_in(-1.0, 1.0),
        },
        velocity: vec3(rng, 10.0),
    }
}

const NAMES: [&str; 6] = [
    "Lumberjack",
    "xX_sniper_Xx",
    "Mira",
    "Old Tom",
    "kestrel",
    "Bjorn",
];
const LINES: [&str; 5] = [
    "gg",
    "need heals at B",
    "meet at the north bridge, bring potions",
    "anyone selling iron ore? paying 40g a stack",
    "lol",
];

/// Share of each variant in the stream, in percent: EntityMoved 80,
/// Chat 8, Spawn 5, Despawn 4, Pong 3.
pub const STREAM_MIX: [(&str, u64); 5] = [
    ("EntityMoved", 80),
    ("Chat", 8),
    ("Spawn", 5),
    ("Despawn", 4),
    ("Pong", 3),
];

/// 10,000 server-to-client frames in a realistic mix (see [`STREAM_MIX`]).
pub fn stream() -> Vec<ServerPacket> {
    let mut rng = Rng::new(4);
    (0..STREAM_FRAMES as u64)
        .map(|i| {
            let tick = 50_000 + (i / 25) as u32;
            let entity_id = 1_000 + rng.below(400) as u32;
            match rng.below(100) {
                0..80 => ServerPacket::EntityMoved(EntityMove {
                    entity_id,
                    tick,
                    transform: transform(&mut rng),
                }),
                80..88 => {
                    let mentions = if rng.below(4) == 0 {
                        vec![NAMES[rng.below(6) as usize].to_owned()]
                    } else {
                        Vec::new()
                    };
                    ServerPacket::Chat(ChatMessage {
                        channel: ChatChannel::from_raw(rng.below(2) as u8),
                        sender_id: entity_id,
                        sender_name: NAMES[rng.below(6) as usize].to_owned(),
                        text: LINES[rng.below(5) as usize].to_owned(),
                        mentions,
                        sent_at: 1_700_000_000_000 + i * 33,
                    })
                }
                88..93 => {
                    let kind = EntityKind::from_raw(1 + rng.below(4) as u8);
                    let player = matches!(kind, EntityKind::Player);
                    ServerPacket::Spawn(SpawnEntity {
                        entity_id,
                        kind,
                        team: Team::from_raw(rng.below(3) as u8),
                        transform: transform(&mut rng),
                        name: NAMES[rng.below(6) as usize].to_owned(),
                        health: 100,
                        protection: 1.5,
                        visible: true,
                        appearance: (0..24).map(|_| rng.below(256) as u8).collect(),
                        equipment: player.then(|| Equipment {
                            head: 2_001,
                            chest: 2_101,
                            main_hand: 3_050,
                            off_hand: 0,
                            cosmetics: vec![9_001, 9_017],
                        }),
                    })
                }
                93..97 => ServerPacket::Despawn(Despawn {
                    entity_id,
                    reason: DespawnReason::from_raw(rng.below(4) as u8),
                }),
                _ => ServerPacket::Pong(Pong {
                    client_time: 1_700_000_000_000_000 + i * 1_000,
                    server_time: 1_700_000_000_000_400 + i * 1_000,
                }),
            }
        })
        .collect()
}
