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

#[derive(Clone, PartialEq, prost::Message)]
pub struct Log {
    /// The four octets packed into one `fixed32`, as a `.proto` author
    /// would store an IPv4 address.
    #[prost(fixed32, tag = "1")]
    pub address: u32,
    #[prost(string, tag = "2")]
    pub identity: String,
    #[prost(string, tag = "3")]
    pub userid: String,
    #[prost(string, tag = "4")]
    pub date: String,
    #[prost(string, tag = "5")]
    pub request: String,
    #[prost(uint32, tag = "6")]
    pub code: u32,
    #[prost(uint64, tag = "7")]
    pub size: u64,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct LogFile {
    #[prost(message, repeated, tag = "1")]
    pub logs: Vec<Log>,
}

impl FromPkt<pkt::bench::logs::LogFile> for LogFile {
    fn from_pkt(p: &pkt::bench::logs::LogFile) -> Self {
        Self {
            logs: p
                .logs
                .iter()
                .map(|l| Log {
                    address: u32::from_le_bytes([
                        l.address.x0,
                        l.address.x1,
                        l.address.x2,
                        l.address.x3,
                    ]),
                    identity: l.identity.clone(),
                    userid: l.userid.clone(),
                    date: l.date.clone(),
                    request: l.request.clone(),
                    code: u32::from(l.code),
                    size: l.size,
                })
                .collect(),
        }
    }
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct Item {
    #[prost(int32, tag = "1")]
    pub count: i32,
    #[prost(uint32, tag = "2")]
    pub slot: u32,
    #[prost(string, tag = "3")]
    pub id: String,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct Abilities {
    #[prost(float, tag = "1")]
    pub walk_speed: f32,
    #[prost(float, tag = "2")]
    pub fly_speed: f32,
    #[prost(bool, tag = "3")]
    pub may_fly: bool,
    #[prost(bool, tag = "4")]
    pub flying: bool,
    #[prost(bool, tag = "5")]
    pub invulnerable: bool,
    #[prost(bool, tag = "6")]
    pub may_build: bool,
    #[prost(bool, tag = "7")]
    pub instabuild: bool,
}

#[derive(Clone, Copy, PartialEq, prost::Message)]
pub struct Vec3d {
    #[prost(double, tag = "1")]
    pub x: f64,
    #[prost(double, tag = "2")]
    pub y: f64,
    #[prost(double, tag = "3")]
    pub z: f64,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct Entity {
    #[prost(string, tag = "1")]
    pub id: String,
    #[prost(message, optional, tag = "2")]
    pub pos: Option<Vec3d>,
    #[prost(message, optional, tag = "3")]
    pub motion: Option<Vec3d>,
    #[prost(float, repeated, tag = "4")]
    pub rotation: Vec<f32>,
    #[prost(float, tag = "5")]
    pub fall_distance: f32,
    #[prost(uint32, tag = "6")]
    pub fire: u32,
    #[prost(uint32, tag = "7")]
    pub air: u32,
    #[prost(bool, tag = "8")]
    pub on_ground: bool,
    #[prost(bool, tag = "9")]
    pub no_gravity: bool,
    #[prost(bool, tag = "10")]
    pub invulnerable: bool,
    #[prost(int32, tag = "11")]
    pub portal_cooldown: i32,
    #[prost(fixed32, repeated, tag = "12")]
    pub uuid: Vec<u32>,
    #[prost(string, optional, tag = "13")]
    pub custom_name: Option<String>,
    #[prost(bool, tag = "14")]
    pub custom_name_visible: bool,
    #[prost(bool, tag = "15")]
    pub silent: bool,
    #[prost(bool, tag = "16")]
    pub glowing: bool,
    #[prost(string, repeated, tag = "17")]
    pub tags: Vec<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct Vehicle {
    #[prost(fixed32, repeated, tag = "1")]
    pub uuid: Vec<u32>,
    #[prost(message, optional, tag = "2")]
    pub entity: Option<Entity>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct RecipeBook {
    #[prost(string, repeated, tag = "1")]
    pub recipes: Vec<String>,
    #[prost(string, repeated, tag = "2")]
    pub to_be_displayed: Vec<String>,
    #[prost(bool, tag = "3")]
    pub is_filtering_craftable: bool,
    #[prost(bool, tag = "4")]
    pub is_gui_open: bool,
    #[prost(bool, tag = "5")]
    pub is_furnace_filtering_craftable: bool,
    #[prost(bool, tag = "6")]
    pub is_furnace_gui_open: bool,
    #[prost(bool, tag = "7")]
    pub is_blasting_furnace_filtering_craftable: bool,
    #[prost(bool, tag = "8")]
    pub is_blasting_furnace_gui_open: bool,
    #[prost(bool, tag = "9")]
    pub is_smoker_filtering_craftable: bool,
    #[prost(bool, tag = "10")]
    pub is_smoker_gui_open: bool,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct Player {
    #[prost(uint32, tag = "1")]
    pub game_type: u32,
    #[prost(uint32, tag = "2")]
    pub previous_game_type: u32,
    #[prost(int64, tag = "3")]
    pub score: i64,
    #[prost(string, tag = "4")]
    pub dimension: String,
    #[prost(uint32, tag = "5")]
    pub selected_item_slot: u32,
    #[prost(message, optional, tag = "6")]
    pub selected_item: Option<Item>,
    #[prost(string, optional, tag = "7")]
    pub spawn_dimension: Option<String>,
    #[prost(int64, tag = "8")]
    pub spawn_x: i64,
    #[prost(int64, tag = "9")]
    pub spawn_y: i64,
    #[prost(int64, tag = "10")]
    pub spawn_z: i64,
    #[prost(bool, optional, tag = "11")]
    pub spawn_forced: Option<bool>,
    #[prost(uint32, tag = "12")]
    pub sleep_timer: u32,
    #[prost(float, tag = "13")]
    pub food_exhaustion_level: f32,
    #[prost(float, tag = "14")]
    pub food_saturation_level: f32,
    #[prost(uint32, tag = "15")]
    pub food_tick_timer: u32,
    #[prost(uint32, tag = "16")]
    pub xp_level: u32,
    #[prost(float, tag = "17")]
    pub xp_p: f32,
    #[prost(int32, tag = "18")]
    pub xp_total: i32,
    #[prost(int32, tag = "19")]
    pub xp_seed: i32,
    #[prost(message, repeated, tag = "20")]
    pub inventory: Vec<Item>,
    #[prost(message, repeated, tag = "21")]
    pub ender_items: Vec<Item>,
    #[prost(message, optional, tag = "22")]
    pub abilities: Option<Abilities>,
    #[prost(message, optional, tag = "23")]
    pub entered_nether_position: Option<Vec3d>,
    #[prost(message, optional, tag = "24")]
    pub root_vehicle: Option<Vehicle>,
    #[prost(message, optional, tag = "25")]
    pub shoulder_entity_left: Option<Entity>,
    #[prost(message, optional, tag = "26")]
    pub shoulder_entity_right: Option<Entity>,
    #[prost(bool, tag = "27")]
    pub seen_credits: bool,
    #[prost(message, optional, tag = "28")]
    pub recipe_book: Option<RecipeBook>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct SaveFile {
    #[prost(message, repeated, tag = "1")]
    pub players: Vec<Player>,
}

fn item(i: &pkt::bench::minecraft::Item) -> Item {
    Item {
        count: i32::from(i.count),
        slot: u32::from(i.slot),
        id: i.id.clone(),
    }
}

fn vec3d(v: &pkt::bench::minecraft::Vec3d) -> Vec3d {
    Vec3d {
        x: v.x,
        y: v.y,
        z: v.z,
    }
}

fn entity(e: &pkt::bench::minecraft::Entity) -> Entity {
    Entity {
        id: e.id.clone(),
        pos: Some(vec3d(&e.pos)),
        motion: Some(vec3d(&e.motion)),
        rotation: e.rotation.to_vec(),
        fall_distance: e.fall_distance,
        fire: u32::from(e.fire),
        air: u32::from(e.air),
        on_ground: e.on_ground,
        no_gravity: e.no_gravity,
        invulnerable: e.invulnerable,
        portal_cooldown: e.portal_cooldown,
        uuid: e.uuid.to_vec(),
        custom_name: e.custom_name.clone(),
        custom_name_visible: e.custom_name_visible,
        silent: e.silent,
        glowing: e.glowing,
        tags: e.tags.clone(),
    }
}

impl FromPkt<pkt::bench::minecraft::SaveFile> for SaveFile {
    fn from_pkt(p: &pkt::bench::minecraft::SaveFile) -> Self {
        Self {
            players: p
                .players
                .iter()
                .map(|p| {
                    let a = &p.abilities;
                    let r = &p.recipe_book;
                    Player {
                        game_type: u32::from(p.game_type.to_raw()),
                        previous_game_type: u32::from(p.previous_game_type.to_raw()),
                        score: p.score,
                        dimension: p.dimension.clone(),
                        selected_item_slot: p.selected_item_slot,
                        selected_item: Some(item(&p.selected_item)),
                        spawn_dimension: p.spawn_dimension.clone(),
                        spawn_x: p.spawn_x,
                        spawn_y: p.spawn_y,
                        spawn_z: p.spawn_z,
                        spawn_forced: p.spawn_forced,
                        sleep_timer: u32::from(p.sleep_timer),
                        food_exhaustion_level: p.food_exhaustion_level,
                        food_saturation_level: p.food_saturation_level,
                        food_tick_timer: p.food_tick_timer,
                        xp_level: p.xp_level,
                        xp_p: p.xp_p,
                        xp_total: p.xp_total,
                        xp_seed: p.xp_seed,
                        inventory: p.inventory.iter().map(item).collect(),
                        ender_items: p.ender_items.iter().map(item).collect(),
                        abilities: Some(Abilities {
                            walk_speed: a.walk_speed,
                            fly_speed: a.fly_speed,
                            may_fly: a.may_fly,
                            flying: a.flying,
                            invulnerable: a.invulnerable,
                            may_build: a.may_build,
                            instabuild: a.instabuild,
                        }),
                        entered_nether_position: p.entered_nether_position.as_ref().map(vec3d),
                        root_vehicle: p.root_vehicle.as_ref().map(|v| Vehicle {
                            uuid: v.uuid.to_vec(),
                            entity: Some(entity(&v.entity)),
                        }),
                        shoulder_entity_left: p.shoulder_entity_left.as_ref().map(entity),
                        shoulder_entity_right: p.shoulder_entity_right.as_ref().map(entity),
                        seen_credits: p.seen_credits,
                        recipe_book: Some(RecipeBook {
                            recipes: r.recipes.clone(),
                            to_be_displayed: r.to_be_displayed.clone(),
                            is_filtering_craftable: r.is_filtering_craftable,
                            is_gui_open: r.is_gui_open,
                            is_furnace_filtering_craftable: r.is_furnace_filtering_craftable,
                            is_furnace_gui_open: r.is_furnace_gui_open,
                            is_blasting_furnace_filtering_craftable: r
                                .is_blasting_furnace_filtering_craftable,
                            is_blasting_furnace_gui_open: r.is_blasting_furnace_gui_open,
                            is_smoker_filtering_craftable: r.is_smoker_filtering_craftable,
                            is_smoker_gui_open: r.is_smoker_gui_open,
                        }),
                    }
                })
                .collect(),
        }
    }
}

#[derive(Clone, Copy, PartialEq, prost::Message)]
pub struct Guidance {
    #[prost(uint32, tag = "1")]
    pub angle: u32,
    #[prost(bool, tag = "2")]
    pub submerge: bool,
    #[prost(sint32, tag = "3")]
    pub velocity: i32,
}

#[derive(Clone, Copy, PartialEq, prost::Message)]
pub struct Transform {
    #[prost(sint32, tag = "1")]
    pub altitude: i32,
    #[prost(uint32, tag = "2")]
    pub angle: u32,
    #[prost(float, tag = "3")]
    pub x: f32,
    #[prost(float, tag = "4")]
    pub y: f32,
    #[prost(sint32, tag = "5")]
    pub velocity: i32,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct Contact {
    #[prost(float, tag = "1")]
    pub damage: f32,
    #[prost(uint32, tag = "2")]
    pub entity_id: u32,
    #[prost(uint32, optional, tag = "3")]
    pub entity_type: Option<u32>,
    #[prost(message, optional, tag = "4")]
    pub guidance: Option<Guidance>,
    #[prost(uint32, optional, tag = "5")]
    pub player_id: Option<u32>,
    #[prost(bool, repeated, tag = "6")]
    pub reloads: Vec<bool>,
    #[prost(message, optional, tag = "7")]
    pub transform: Option<Transform>,
    #[prost(uint32, repeated, tag = "8")]
    pub turrets: Vec<u32>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct TerrainUpdate {
    #[prost(sint32, tag = "1")]
    pub chunk_x: i32,
    #[prost(sint32, tag = "2")]
    pub chunk_y: i32,
    #[prost(bytes = "vec", tag = "3")]
    pub data: Vec<u8>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct Update {
    #[prost(message, repeated, tag = "1")]
    pub contacts: Vec<Contact>,
    #[prost(uint32, tag = "2")]
    pub score: u32,
    #[prost(float, tag = "3")]
    pub world_radius: f32,
    #[prost(message, repeated, tag = "4")]
    pub terrain_updates: Vec<TerrainUpdate>,
}

#[derive(Clone, PartialEq, prost::Message)]
pub struct TickBatch {
    #[prost(message, repeated, tag = "1")]
    pub updates: Vec<Update>,
}

fn contact(c: &pkt::bench::mk48::Contact) -> Contact {
    Contact {
        damage: c.damage,
        entity_id: c.entity_id,
        entity_type: c.entity_type.map(|t| u32::from(t.to_raw())),
        guidance: Some(Guidance {
            angle: u32::from(c.guidance.angle),
            submerge: c.guidance.submerge,
            velocity: i32::from(c.guidance.velocity),
        }),
        player_id: c.player_id.map(u32::from),
        reloads: c.reloads.clone(),
        transform: Some(Transform {
            altitude: i32::from(c.transform.altitude),
            angle: u32::from(c.transform.angle),
            x: c.transform.position.x,
            y: c.transform.position.y,
            velocity: i32::from(c.transform.velocity),
        }),
        turrets: c.turrets.iter().map(|&t| u32::from(t)).collect(),
    }
}

impl FromPkt<pkt::bench::mk48::TickBatch> for TickBatch {
    fn from_pkt(p: &pkt::bench::mk48::TickBatch) -> Self {
        Self {
            updates: p
                .updates
                .iter()
                .map(|u| Update {
                    contacts: u.contacts.iter().map(contact).collect(),
                    score: u.score,
                    world_radius: u.world_radius,
                    terrain_updates: u
                        .terrain_updates
                        .iter()
                        .map(|t| TerrainUpdate {
                            chunk_x: i32::from(t.chunk_x),
                            chunk_y: i32::from(t.chunk_y),
                            data: t.data.clone(),
                        })
                        .collect(),
                })
                .collect(),
        }
    }
}
