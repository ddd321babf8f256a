//! Runs the exchange with std threads, or on tokio with `--tokio`.

fn main() -> std::io::Result<()> {
    let transcript = if std::env::args().any(|a| a == "--tokio") {
        tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .build()?
            .block_on(pkt_example_loopback::run_tokio())?
    } else {
        pkt_example_loopback::run()?
    };
    for packet in &transcript.received {
        println!("{packet:?}");
    }
    Ok(())
}
