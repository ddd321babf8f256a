//! Data sets in the shapes of the widely used public Rust serialization
//! benchmark: access logs, player save data and game updates (the
//! fourth, a 125,000-triangle mesh, is [`crate::data::mesh`]). The values are generated here from the published
//! descriptions of those data sets (counts, field types, typical contents);
//! the peers convert them to their own types like every other data set.

use crate::data::Rng;
use crate::pkt::bench::logs::{Address, Log, LogFile};
use crate::pkt::bench::minecraft::{
    Abilities, Entity, GameType, Item, Player, RecipeBook, SaveFile, Vec3d, Vehicle,
};
use crate::pkt::bench::mk48::{
    Contact, EntityType, Guidance, TerrainUpdate, TickBatch, Transform, Update, Vec2,
};

/// Records in the log data set.
pub const LOGS: usize = 10_000;
/// Players in the save-data set.
pub const PLAYERS: usize = 500;
/// Updates in the game-update set; each carries about 100 contacts.
pub const UPDATES: usize = 1_000;

const ALPHANUMERIC: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

fn word(rng: &mut Rng, min: u64, max: u64) -> String {
    let len = min + rng.below(max - min + 1);
    (0..len)
        .map(|_| char::from(ALPHANUMERIC[rng.below(ALPHANUMERIC.len() as u64) as usize]))
        .collect()
}

fn pick<'a>(rng: &mut Rng, items: &[&'a str]) -> &'a str {
    items[rng.below(items.len() as u64) as usize]
}

fn bool(rng: &mut Rng) -> bool {
    rng.below(2) == 1
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];
const METHODS: [&str; 4] = ["GET", "POST", "PUT", "DELETE"];
const CODES: [u16; 6] = [200, 204, 301, 304, 404, 500];

/// 10,000 access-log records: an IPv4 address, a short identity and user id,
/// a timestamp, a request line, a status code and a response size.
pub fn logs() -> LogFile {
    let mut rng = Rng::new(11);
    let logs = (0..LOGS)
        .map(|_| {
            let date = format!(
                "{:02}/{}/{}:{:02}:{:02}:{:02} -0700",
                1 + rng.below(28),
                MONTHS[rng.below(12) as usize],
                1995 + rng.below(30),
                rng.below(24),
                rng.below(60),
                rng.below(60)
            );
            let request = format!(
                "{} /{}/{}.html HTTP/1.1",
                pick(&mut rng, &METHODS),
                word(&mut rng, 3, 10),
                word(&mut rng, 3, 12)
            );
            Log {
                address: Address {
                    x0: rng.below(256) as u8,
                    x1: rng.below(256) as u8,
                    x2: rng.below(256) as u8,
                    x3: rng.below(256) as u8,
                },
                identity: word(&mut rng, 1, 10),
                userid: word(&mut rng, 1, 10),
                date,
                request,
                code: CODES[rng.below(CODES.len() as u64) as usize],
                size: rng.below(100_000_000),
            }
        })
        .collect();
    LogFile { logs }
}

const ITEMS: [&str; 8] = [
    "dirt",
    "stone",
    "pickaxe",
    "sand",
    "gravel",
    "shovel",
    "chestplate",
    "steak",
];
const RECIPES: [&str; 8] = [
    "pickaxe",
    "torch",
    "bow",
    "crafting_table",
    "furnace",
    "shears",
    "arrow",
    "tnt",
];
const DIMENSIONS: [&str; 3] = ["overworld", "nether", "end"];
const ENTITIES: [&str; 5] = ["cow", "sheep", "zombie", "skeleton", "spider"];

fn item(rng: &mut Rng) -> Item {
    Item {
        count: rng.below(64) as i8,
        slot: rng.below(36) as u8,
        id: format!("minecraft:{}", pick(rng, &ITEMS)),
    }
}

fn vec3d(rng: &mut Rng) -> Vec3d {
    Vec3d {
        x: rng.f32_in(-1_000.0, 1_000.0) as f64,
        y: rng.f32_in(0.0, 256.0) as f64,
        z: rng.f32_in(-1_000.0, 1_000.0) as f64,
    }
}

fn uuid(rng: &mut Rng) -> [u32; 4] {
    [0; 4].map(|_| rng.next_u64() as u32)
}

fn entity(rng: &mut Rng) -> Entity {
    Entity {
        id: format!("minecraft:{}", pick(rng, &ENTITIES)),
        pos: vec3d(rng),
        motion: vec3d(rng),
        rotation: [rng.f32_in(0.0, 360.0), rng.f32_in(-90.0, 90.0)],
        fall_distance: rng.f32_in(0.0, 10.0),
        fire: rng.below(100) as u16,
        air: rng.below(300) as u16,
        on_ground: bool(rng),
        no_gravity: bool(rng),
        invulnerable: bool(rng),
        portal_cooldown: rng.below(1_000) as i32,
        uuid: uuid(rng),
        custom_name: (rng.below(2) == 0).then(|| word(rng, 3, 16)),
        custom_name_visible: bool(rng),
        silent: bool(rng),
        glowing: bool(rng),
        tags: (0..rng.below(3)).map(|_| word(rng, 3, 10)).collect(),
    }
}

fn recipes(rng: &mut Rng, max: u64) -> Vec<String> {
    (0..rng.below(max))
        .map(|_| format!("minecraft:{}", pick(rng, &RECIPES)))
        .collect()
}

fn game_type(rng: &mut Rng) -> GameType {
    GameType::from_raw(rng.below(4) as u8)
}

/// 500 players with inventories, abilities, optional vehicles and
/// shoulder entities, and recipe books.
pub fn players() -> SaveFile {
    let mut rng = Rng::new(12);
    let rng = &mut rng;
    let players = (0..PLAYERS)
        .map(|_| Player {
            game_type: game_type(rng),
            previous_game_type: game_type(rng),
            score: rng.below(1_000_000) as i64,
            dimension: pick(rng, &DIMENSIONS).to_owned(),
            selected_item_slot: rng.below(9) as u32,
            selected_item: item(rng),
            spawn_dimension: (rng.below(2) == 0).then(|| pick(rng, &DIMENSIONS).to_owned()),
            spawn_x: rng.below(2_000) as i64 - 1_000,
            spawn_y: rng.below(256) as i64,
            spawn_z: rng.below(2_000) as i64 - 1_000,
            spawn_forced: (rng.below(2) == 0).then(|| bool(rng)),
            sleep_timer: rng.below(100) as u16,
            food_exhaustion_level: rng.f32_in(0.0, 4.0),
            food_saturation_level: rng.f32_in(0.0, 20.0),
            food_tick_timer: rng.below(80) as u32,
            xp_level: rng.below(100) as u32,
            xp_p: rng.f32_in(0.0, 1.0),
            xp_total: rng.below(10_000) as i32,
            xp_seed: rng.next_u64() as i32,
            inventory: (0..rng.below(36)).map(|_| item(rng)).collect(),
            ender_items: (0..rng.below(27)).map(|_| item(rng)).collect(),
            abilities: Abilities {
                walk_speed: 0.1,
                fly_speed: 0.05,
                may_fly: bool(rng),
                flying: bool(rng),
                invulnerable: bool(rng),
                may_build: bool(rng),
                instabuild: bool(rng),
            },
            entered_nether_position: (rng.below(2) == 0).then(|| vec3d(rng)),
            root_vehicle: (rng.below(2) == 0).then(|| Vehicle {
                uuid: uuid(rng),
                entity: entity(rng),
            }),
            shoulder_entity_left: (rng.below(2) == 0).then(|| entity(rng)),
            shoulder_entity_right: (rng.below(2) == 0).then(|| entity(rng)),
            seen_credits: bool(rng),
            recipe_book: RecipeBook {
                recipes: recipes(rng, 30),
                to_be_displayed: recipes(rng, 10),
                is_filtering_craftable: bool(rng),
                is_gui_open: bool(rng),
                is_furnace_filtering_craftable: bool(rng),
                is_furnace_gui_open: bool(rng),
                is_blasting_furnace_filtering_craftable: bool(rng),
                is_blasting_furnace_gui_open: bool(rng),
                is_smoker_filtering_craftable: bool(rng),
                is_smoker_gui_open: bool(rng),
            },
        })
        .collect();
    SaveFile { players }
}

fn contact(rng: &mut Rng) -> Contact {
    let turrets = rng.below(5);
    Contact {
        damage: rng.f32_in(0.0, 1.0),
        entity_id: rng.next_u64() as u32,
        entity_type: (rng.below(8) != 0).then(|| EntityType::from_raw(rng.below(20) as u8)),
        guidance: Guidance {
            angle: rng.next_u64() as u16,
            submerge: bool(rng),
            velocity: rng.next_u64() as i16,
        },
        player_id: (rng.below(2) == 0).then(|| rng.below(1_000) as u16),
        reloads: (0..turrets).map(|_| bool(rng)).collect(),
        transform: Transform {
            altitude: rng.next_u64() as i8,
            angle: rng.next_u64() as u16,
            position: Vec2 {
                x: rng.f32_in(-1_000.0, 1_000.0),
                y: rng.f32_in(-1_000.0, 1_000.0),
            },
            velocity: rng.next_u64() as i16,
        },
        turrets: (0..turrets).map(|_| rng.next_u64() as u16).collect(),
    }
}

/// 1,000 updates of about 100 contacts each; one update in ten carries a
/// terrain chunk.
pub fn updates() -> TickBatch {
    let mut rng = Rng::new(13);
    let rng = &mut rng;
    let updates = (0..UPDATES)
        .map(|_| Update {
            contacts: (0..50 + rng.below(101)).map(|_| contact(rng)).collect(),
            score: rng.below(100_000) as u32,
            world_radius: rng.f32_in(500.0, 2_000.0),
            terrain_updates: if rng.below(10) == 0 {
                vec![TerrainUpdate {
                    chunk_x: rng.next_u64() as i8,
                    chunk_y: rng.next_u64() as i8,
                    data: (0..64 + rng.below(192))
                        .map(|_| rng.below(16) as u8)
                        .collect(),
                }]
            } else {
                Vec::new()
            },
        })
        .collect();
    TickBatch { updates }
}
