//! The delta-snapshot benchmark: a deterministic simulation of a game world
//! of [`ENTITIES`] entities over [`TICKS`] ticks, in which about a tenth of
//! the entities change each tick, and the world of every tick in each
//! variant the benchmark compares:
//!
//! - `bench/schemas/sim_full.pkt`: the world encoded whole;
//! - `bench/schemas/sim_delta.pkt`: the same types with `@delta`;
//! - `bench/schemas/sim_quantized.pkt`: `@delta` and quantized vectors;
//! - [`mirror`]: hand-written Rust types with the same fields for bitcode.
//!
//! The simulation runs on the `sim_full` types; the other variants are
//! converted from them. The quantized world of a tick is the value its
//! encoding decodes to, as a server that quantizes its state holds it (a
//! client applying the deltas then ends with exactly the server's world).

use std::collections::BTreeMap;

use pkt_runtime::{Decode, Encode};

use crate::data::Rng;
use crate::pkt::sim::full::{Entity, Item, Position, Rotation, Velocity, World};
use crate::pkt::sim::{delta, quantized};

/// The criterion group of the benchmark (`benches/world.rs`).
pub const DATASET: &str = "World deltas";
/// Entities in the world at the start (spawns and despawns keep it there).
pub const ENTITIES: usize = 1_000;
/// Ticks simulated after the first world.
pub const TICKS: usize = 300;
/// Entities changed per tick: a tenth of the world.
pub const CHANGED_PER_TICK: usize = ENTITIES / 10;
/// Seconds per tick (20 ticks per second).
const DT: f32 = 0.05;
/// Entities stay within this distance of the centre on x and z (the
/// quantized positions hold ±1024).
const EDGE: f32 = 1_000.0;
/// One tick in this many despawns an entity and spawns a new one.
const RESPAWN_ONE_IN: u64 = 10;

fn velocity(rng: &mut Rng) -> Velocity {
    Velocity {
        x: rng.f32_in(-6.0, 6.0),
        y: 0.0,
        z: rng.f32_in(-6.0, 6.0),
    }
}

fn item(rng: &mut Rng) -> Item {
    Item {
        item_id: 1 + rng.below(500) as u16,
        count: 1 + rng.below(64) as u16,
    }
}

fn spawn(rng: &mut Rng) -> Entity {
    Entity {
        position: Position {
            x: rng.f32_in(-EDGE, EDGE),
            // Entities walk on terraces: the height only changes at spawn.
            y: rng.f32_in(0.0, 50.0),
            z: rng.f32_in(-EDGE, EDGE),
        },
        rotation: Rotation {
            x: 0.0,
            y: rng.f32_in(-180.0, 180.0),
            z: 0.0,
        },
        velocity: velocity(rng),
        health: 100,
        alive: true,
        visible: true,
        crouching: false,
        inventory: (0..rng.below(7)).map(|_| item(rng)).collect(),
    }
}

/// Moves `p` by `v` for one tick, bouncing off the edge of the map.
fn walk(p: &mut f32, v: &mut f32) {
    *p += *v * DT;
    if p.abs() > EDGE {
        *p = p.clamp(-EDGE, EDGE);
        *v = -*v;
    }
}

/// One changed entity: it moves; now and then it turns, takes damage or
/// heals, crouches or stands, or its inventory changes.
fn step(rng: &mut Rng, e: &mut Entity) {
    if rng.below(4) == 0 {
        e.velocity = velocity(rng);
        e.rotation.y = rng.f32_in(-180.0, 180.0);
    }
    walk(&mut e.position.x, &mut e.velocity.x);
    walk(&mut e.position.z, &mut e.velocity.z);
    if rng.below(10) == 0 {
        e.health = 1 + rng.below(100) as u16;
    }
    if rng.below(20) == 0 {
        e.crouching = !e.crouching;
    }
    if rng.below(20) == 0 {
        let n = e.inventory.len() as u64;
        match rng.below(3) {
            0 if n < 32 => e.inventory.push(item(rng)),
            1 if n > 0 => {
                e.inventory.remove(rng.below(n) as usize);
            }
            _ if n > 0 => e.inventory[rng.below(n) as usize].count = 1 + rng.below(64) as u16,
            _ => e.inventory.push(item(rng)),
        }
    }
}

/// The world of every tick, `0..=TICKS` (index = tick), on the
/// `sim_full` types. The same every run.
pub fn simulate() -> Vec<World> {
    let mut rng = Rng::new(30);
    let mut world = World {
        tick: 0,
        entities: (0..ENTITIES as u32)
            .map(|id| (id, spawn(&mut rng)))
            .collect(),
    };
    let mut next_id = ENTITIES as u32;
    let mut worlds = Vec::with_capacity(TICKS + 1);
    worlds.push(world.clone());
    for tick in 1..=TICKS as u32 {
        world.tick = tick;
        let mut ids: Vec<u32> = world.entities.keys().copied().collect();
        let n = ids.len();
        // The first CHANGED_PER_TICK of a partial shuffle: distinct entities.
        for i in 0..CHANGED_PER_TICK {
            let j = i + rng.below((n - i) as u64) as usize;
            ids.swap(i, j);
        }
        for id in &ids[..CHANGED_PER_TICK] {
            step(&mut rng, world.entities.get_mut(id).expect("a live id"));
        }
        if rng.below(RESPAWN_ONE_IN) == 0 {
            let gone = ids[CHANGED_PER_TICK + rng.below((n - CHANGED_PER_TICK) as u64) as usize];
            world.entities.remove(&gone);
            world.entities.insert(next_id, spawn(&mut rng));
            next_id += 1;
        }
        worlds.push(world.clone());
    }
    worlds
}

/// The same world in another schema's types, field by field (the three
/// schemas declare the same fields).
macro_rules! convert {
    ($m:ident) => {
        impl From<&World> for $m::World {
            fn from(w: &World) -> Self {
                $m::World {
                    tick: w.tick,
                    entities: w
                        .entities
                        .iter()
                        .map(|(id, e)| {
                            let v = $m::Entity {
                                position: $m::Position {
                                    x: e.position.x,
                                    y: e.position.y,
                                    z: e.position.z,
                                },
                                rotation: $m::Rotation {
                                    x: e.rotation.x,
                                    y: e.rotation.y,
                                    z: e.rotation.z,
                                },
                                velocity: $m::Velocity {
                                    x: e.velocity.x,
                                    y: e.velocity.y,
                                    z: e.velocity.z,
                                },
                                health: e.health,
                                alive: e.alive,
                                visible: e.visible,
                                crouching: e.crouching,
                                inventory: e
                                    .inventory
                                    .iter()
                                    .map(|i| $m::Item {
                                        item_id: i.item_id,
                                        count: i.count,
                                    })
                                    .collect(),
                            };
                            (*id, v)
                        })
                        .collect(),
                }
            }
        }
    };
}

convert!(delta);
convert!(quantized);

/// Hand-written Rust types with the fields of `sim_full.pkt`, for bitcode's
/// derive (vectors as `[f32; 3]`, as such code usually has them).
pub mod mirror {
    use std::collections::BTreeMap;

    #[derive(Clone, Debug, PartialEq, bitcode::Encode, bitcode::Decode)]
    pub struct Item {
        pub item_id: u16,
        pub count: u16,
    }

    #[derive(Clone, Debug, PartialEq, bitcode::Encode, bitcode::Decode)]
    pub struct Entity {
        pub position: [f32; 3],
        pub rotation: [f32; 3],
        pub velocity: [f32; 3],
        pub health: u16,
        pub alive: bool,
        pub visible: bool,
        pub crouching: bool,
        pub inventory: Vec<Item>,
    }

    #[derive(Clone, Debug, PartialEq, bitcode::Encode, bitcode::Decode)]
    pub struct World {
        pub tick: u32,
        pub entities: BTreeMap<u32, Entity>,
    }
}

impl From<&World> for mirror::World {
    fn from(w: &World) -> Self {
        mirror::World {
            tick: w.tick,
            entities: w
                .entities
                .iter()
                .map(|(id, e)| {
                    let v = mirror::Entity {
                        position: [e.position.x, e.position.y, e.position.z],
                        rotation: [e.rotation.x, e.rotation.y, e.rotation.z],
                        velocity: [e.velocity.x, e.velocity.y, e.velocity.z],
                        health: e.health,
                        alive: e.alive,
                        visible: e.visible,
                        crouching: e.crouching,
                        inventory: e
                            .inventory
                            .iter()
                            .map(|i| mirror::Item {
                                item_id: i.item_id,
                                count: i.count,
                            })
                            .collect(),
                    };
                    (*id, v)
                })
                .collect::<BTreeMap<_, _>>(),
        }
    }
}

/// The types with generated deltas, behind one interface for the benchmark.
pub trait Delta: Encode + Decode + Clone + PartialEq + core::fmt::Debug {
    /// Appends the delta from `baseline` to `self`.
    fn delta_into(&self, baseline: &Self, out: &mut Vec<u8>);
    /// Applies a delta made by [`delta_into`](Delta::delta_into).
    fn apply(&mut self, bytes: &[u8]) -> Result<(), pkt_runtime::DecodeError>;
}

macro_rules! delta {
    ($m:ident) => {
        impl Delta for $m::World {
            #[inline]
            fn delta_into(&self, baseline: &Self, out: &mut Vec<u8>) {
                self.encode_delta(baseline, out)
                    .expect("the simulated world is within its limits");
            }

            #[inline]
            fn apply(&mut self, bytes: &[u8]) -> Result<(), pkt_runtime::DecodeError> {
                self.apply_delta(bytes)
            }
        }
    };
}

delta!(delta);
delta!(quantized);

/// Every tick's world in every variant (index = tick, `0..=TICKS`).
pub struct Run {
    pub full: Vec<World>,
    pub delta: Vec<delta::World>,
    pub quantized: Vec<quantized::World>,
    pub mirror: Vec<mirror::World>,
}

impl Run {
    pub fn new() -> Run {
        let full = simulate();
        let delta = full.iter().map(delta::World::from).collect();
        let quantized = full
            .iter()
            .map(|w| {
                let q = quantized::World::from(w);
                let bytes = q.encode_to_vec().expect("positions are within range");
                quantized::World::decode(&bytes).expect("its own encoding")
            })
            .collect();
        let mirror = full.iter().map(mirror::World::from).collect();
        Run {
            full,
            delta,
            quantized,
            mirror,
        }
    }
}

impl Default for Run {
    fn default() -> Self {
        Run::new()
    }
}

/// Bytes of every tick after the first (`1..=TICKS`), per way of sending it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sizes {
    /// pktc's encoding of the whole world.
    pub full: Vec<usize>,
    /// pktc's delta from the previous tick's world.
    pub delta: Vec<usize>,
    /// pktc's delta of the quantized world from the previous one.
    pub quantized: Vec<usize>,
    /// bitcode's encoding of the whole world.
    pub bitcode: Vec<usize>,
}

/// Sum and mean of the sizes of a run.
pub fn total(sizes: &[usize]) -> usize {
    sizes.iter().sum()
}

pub fn mean(sizes: &[usize]) -> f64 {
    total(sizes) as f64 / sizes.len() as f64
}

/// The deltas of every tick after the first, each from the tick before.
pub fn deltas<T: Delta>(worlds: &[T]) -> Vec<Vec<u8>> {
    worlds
        .windows(2)
        .map(|w| {
            let mut out = Vec::new();
            w[1].delta_into(&w[0], &mut out);
            out
        })
        .collect()
}

impl Sizes {
    pub fn measure(run: &Run) -> Sizes {
        let mut buffer = bitcode::Buffer::new();
        Sizes {
            full: run.full[1..].iter().map(|w| w.encoded_len()).collect(),
            delta: deltas(&run.delta).iter().map(Vec::len).collect(),
            quantized: deltas(&run.quantized).iter().map(Vec::len).collect(),
            bitcode: run.mirror[1..]
                .iter()
                .map(|w| buffer.encode(w).len())
                .collect(),
        }
    }
}

/// Entities whose value differs between two worlds, plus spawned and
/// despawned ones: what a tick changed.
pub fn changed_entities<K: Ord, V: PartialEq>(a: &BTreeMap<K, V>, b: &BTreeMap<K, V>) -> usize {
    let changed = b
        .iter()
        .filter(|(k, v)| a.get(k).is_none_or(|old| old != *v))
        .count();
    changed + a.keys().filter(|k| !b.contains_key(k)).count()
}
