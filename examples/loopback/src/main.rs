fn main() -> std::io::Result<()> {
    let transcript = pkt_example_loopback::run()?;
    for packet in &transcript.received {
        println!("{packet:?}");
    }
    Ok(())
}
