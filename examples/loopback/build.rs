// Generates the game protocol into $OUT_DIR/pktc. `game.pkt` imports
// `common.pkt`; both are watched for changes.
fn main() -> Result<(), pktc::Error> {
    pktc::compile(&["../../schemas/game.pkt"])
}
