//! Hand-written Rust types equivalent to the pktc types, shared by the
//! derive-based peers: serde (bincode, postcard), bitcode, speedy, rkyv and
//! wincode.
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
            wincode::SchemaWrite, wincode::SchemaRead,
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

    pub struct Address {
        pub x0: u8,
        pub x1: u8,
        pub x2: u8,
        pub x3: u8,
    }

    pub struct Log {
        pub address: Address,
        pub identity: String,
        pub userid: String,
        pub date: String,
        pub request: String,
        pub code: u16,
        pub size: u64,
    }

    pub struct LogFile {
        pub logs: Vec<Log>,
    }

    pub struct Item {
        pub count: i8,
        pub slot: u8,
        pub id: String,
    }

    pub struct Abilities {
        pub walk_speed: f32,
        pub fly_speed: f32,
        pub may_fly: bool,
        pub flying: bool,
        pub invulnerable: bool,
        pub may_build: bool,
        pub instabuild: bool,
    }

    pub struct Vec3d {
        pub x: f64,
        pub y: f64,
        pub z: f64,
    }

    pub struct Entity {
        pub id: String,
        pub pos: Vec3d,
        pub motion: Vec3d,
        pub rotation: [f32; 2],
        pub fall_distance: f32,
        pub fire: u16,
        pub air: u16,
        pub on_ground: bool,
        pub no_gravity: bool,
        pub invulnerable: bool,
        pub portal_cooldown: i32,
        pub uuid: [u32; 4],
        pub custom_name: Option<String>,
        pub custom_name_visible: bool,
        pub silent: bool,
        pub glowing: bool,
        pub tags: Vec<String>,
    }

    pub struct Vehicle {
        pub uuid: [u32; 4],
        pub entity: Entity,
    }

    pub struct RecipeBook {
        pub recipes: Vec<String>,
        pub to_be_displayed: Vec<String>,
        pub is_filtering_craftable: bool,
        pub is_gui_open: bool,
        pub is_furnace_filtering_craftable: bool,
        pub is_furnace_gui_open: bool,
        pub is_blasting_furnace_filtering_craftable: bool,
        pub is_blasting_furnace_gui_open: bool,
        pub is_smoker_filtering_craftable: bool,
        pub is_smoker_gui_open: bool,
    }

    pub struct Player {
        pub game_type: u8,
        pub previous_game_type: u8,
        pub score: i64,
        pub dimension: String,
        pub selected_item_slot: u32,
        pub selected_item: Item,
        pub spawn_dimension: Option<String>,
        pub spawn_x: i64,
        pub spawn_y: i64,
        pub spawn_z: i64,
        pub spawn_forced: Option<bool>,
        pub sleep_timer: u16,
        pub food_exhaustion_level: f32,
        pub food_saturation_level: f32,
        pub food_tick_timer: u32,
        pub xp_level: u32,
        pub xp_p: f32,
        pub xp_total: i32,
        pub xp_seed: i32,
        pub inventory: Vec<Item>,
        pub ender_items: Vec<Item>,
        pub abilities: Abilities,
        pub entered_nether_position: Option<Vec3d>,
        pub root_vehicle: Option<Vehicle>,
        pub shoulder_entity_left: Option<Entity>,
        pub shoulder_entity_right: Option<Entity>,
        pub seen_credits: bool,
        pub recipe_book: RecipeBook,
    }

    pub struct SaveFile {
        pub players: Vec<Player>,
    }

    pub struct Vec2 {
        pub x: f32,
        pub y: f32,
    }

    pub struct Transform {
        pub altitude: i8,
        pub angle: u16,
        pub position: Vec2,
        pub velocity: i16,
    }

    pub struct Guidance {
        pub angle: u16,
        pub submerge: bool,
        pub velocity: i16,
    }

    pub struct Contact {
        pub damage: f32,
        pub entity_id: u32,
        pub entity_type: Option<u8>,
        pub guidance: Guidance,
        pub player_id: Option<u16>,
        pub reloads: Vec<bool>,
        pub transform: Transform,
        pub turrets: Vec<u16>,
    }

    pub struct TerrainUpdate {
        pub chunk_x: i8,
        pub chunk_y: i8,
        pub data: Vec<u8>,
    }

    pub struct Update {
        pub contacts: Vec<Contact>,
        pub score: u32,
        pub world_radius: f32,
        pub terrain_updates: Vec<TerrainUpdate>,
    }

    pub struct TickBatch {
        pub updates: Vec<Update>,
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

impl FromPkt<pkt::bench::logs::LogFile> for LogFile {
    fn from_pkt(p: &pkt::bench::logs::LogFile) -> Self {
        Self {
            logs: p
                .logs
                .iter()
                .map(|l| Log {
                    address: Address {
                        x0: l.address.x0,
                        x1: l.address.x1,
                        x2: l.address.x2,
                        x3: l.address.x3,
                    },
                    identity: l.identity.clone(),
                    userid: l.userid.clone(),
                    date: l.date.clone(),
                    request: l.request.clone(),
                    code: l.code,
                    size: l.size,
                })
                .collect(),
        }
    }
}

fn item(i: &pkt::bench::minecraft::Item) -> Item {
    Item {
        count: i.count,
        slot: i.slot,
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
        pos: vec3d(&e.pos),
        motion: vec3d(&e.motion),
        rotation: e.rotation,
        fall_distance: e.fall_distance,
        fire: e.fire,
        air: e.air,
        on_ground: e.on_ground,
        no_gravity: e.no_gravity,
        invulnerable: e.invulnerable,
        portal_cooldown: e.portal_cooldown,
        uuid: e.uuid,
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
                .map(|p| Player {
                    game_type: p.game_type.to_raw(),
                    previous_game_type: p.previous_game_type.to_raw(),
                    score: p.score,
                    dimension: p.dimension.clone(),
                    selected_item_slot: p.selected_item_slot,
                    selected_item: item(&p.selected_item),
                    spawn_dimension: p.spawn_dimension.clone(),
                    spawn_x: p.spawn_x,
                    spawn_y: p.spawn_y,
                    spawn_z: p.spawn_z,
                    spawn_forced: p.spawn_forced,
                    sleep_timer: p.sleep_timer,
                    food_exhaustion_level: p.food_exhaustion_level,
                    food_saturation_level: p.food_saturation_level,
                    food_tick_timer: p.food_tick_timer,
                    xp_level: p.xp_level,
                    xp_p: p.xp_p,
                    xp_total: p.xp_total,
                    xp_seed: p.xp_seed,
                    inventory: p.inventory.iter().map(item).collect(),
                    ender_items: p.ender_items.iter().map(item).collect(),
                    abilities: Abilities {
                        walk_speed: p.abilities.walk_speed,
                        fly_speed: p.abilities.fly_speed,
                        may_fly: p.abilities.may_fly,
                        flying: p.abilities.flying,
                        invulnerable: p.abilities.invulnerable,
                        may_build: p.abilities.may_build,
                        instabuild: p.abilities.instabuild,
                    },
                    entered_nether_position: p.entered_nether_position.as_ref().map(vec3d),
                    root_vehicle: p.root_vehicle.as_ref().map(|v| Vehicle {
                        uuid: v.uuid,
                        entity: entity(&v.entity),
                    }),
                    shoulder_entity_left: p.shoulder_entity_left.as_ref().map(entity),
                    shoulder_entity_right: p.shoulder_entity_right.as_ref().map(entity),
                    seen_credits: p.seen_credits,
                    recipe_book: RecipeBook {
                        recipes: p.recipe_book.recipes.clone(),
                        to_be_displayed: p.recipe_book.to_be_displayed.clone(),
                        is_filtering_craftable: p.recipe_book.is_filtering_craftable,
                        is_gui_open: p.recipe_book.is_gui_open,
                        is_furnace_filtering_craftable: p
                            .recipe_book
                            .is_furnace_filtering_craftable,
                        is_furnace_gui_open: p.recipe_book.is_furnace_gui_open,
                        is_blasting_furnace_filtering_craftable: p
                            .recipe_book
                            .is_blasting_furnace_filtering_craftable,
                        is_blasting_furnace_gui_open: p.recipe_book.is_blasting_furnace_gui_open,
                        is_smoker_filtering_craftable: p.recipe_book.is_smoker_filtering_craftable,
                        is_smoker_gui_open: p.recipe_book.is_smoker_gui_open,
                    },
                })
                .collect(),
        }
    }
}

fn contact(c: &pkt::bench::mk48::Contact) -> Contact {
    Contact {
        damage: c.damage,
        entity_id: c.entity_id,
        entity_type: c.entity_type.map(|t| t.to_raw()),
        guidance: Guidance {
            angle: c.guidance.angle,
            submerge: c.guidance.submerge,
            velocity: c.guidance.velocity,
        },
        player_id: c.player_id,
        reloads: c.reloads.clone(),
        transform: Transform {
            altitude: c.transform.altitude,
            angle: c.transform.angle,
            position: Vec2 {
                x: c.transform.position.x,
                y: c.transform.position.y,
            },
            velocity: c.transform.velocity,
        },
        turrets: c.turrets.clone(),
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
                            chunk_x: t.chunk_x,
                            chunk_y: t.chunk_y,
                            data: t.data.clone(),
                        })
                        .collect(),
                })
                .collect(),
        }
    }
}
