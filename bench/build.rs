//! Generates the pktc code for the benchmark schemas, the way a user's crate
//! does.

use std::path::PathBuf;

fn main() -> Result<(), pktc::Error> {
    let schemas: Vec<PathBuf> = [
        "seed_packets.pkt",
        "chat.pkt",
        "world.pkt",
        "mesh.pkt",
        "game.pkt",
        "logs.pkt",
        "minecraft.pkt",
        "mk48.pkt",
    ]
    .iter()
    .map(|f| PathBuf::from("../schemas").join(f))
    .chain(
        // The delta-snapshot benchmark's world, in its variants.
        ["sim_full.pkt", "sim_delta.pkt", "sim_quantized.pkt"]
            .iter()
            .map(|f| PathBuf::from("schemas").join(f)),
    )
    .collect();
    pktc::compile(&schemas)
}
