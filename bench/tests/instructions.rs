//! The instruction-count tooling: which rows a callgrind run repeats, and
//! how the counts become the section of `docs/benchmarks.md`.

use pkt_bench::cost::{repeat, Row};
use pkt_bench::instructions::{splice, Counts, BEGIN, END};

#[test]
fn row_names_parse_to_what_they_run() {
    assert_eq!(Row::parse("encode:pktc"), Row::Encode("pktc".into()));
    assert_eq!(
        Row::parse("bincode (fixint)"),
        Row::Decode("bincode (fixint)".into())
    );
    assert_eq!(Row::parse("decode_into"), Row::DecodeInto);
    assert_eq!(
        Row::parse("pktc view/all fields"),
        Row::Read("pktc view/all fields".into())
    );
}

#[test]
fn a_row_runs_only_on_its_exact_data_set() {
    // "Packet" is part of four other data sets' names; only the data set of
    // that exact name runs.
    assert!(repeat("Packet", "encode:pktc", 1));
    assert!(repeat("Packet", "decode_into", 1));
    assert!(repeat("ChatPacket", "pktc view/one field", 1));
    assert!(!repeat("Packet", "pktc view/one field", 1));
    assert!(!repeat("Packet", "memcpy", 1));
    assert!(!repeat("Pack", "pktc", 1));
    assert!(!repeat("Packet", "no such codec", 1));
}

fn sample() -> Counts {
    let mut text = String::from("meta\tvalgrind\tvalgrind-3.19.0\nmeta\tdate\t2026-12-01\n");
    for (ds, row, n) in [
        ("ChatPacket", "encode:pktc", 136.0),
        ("ChatPacket", "encode:speedy", 104.0),
        ("ChatPacket", "encode:wincode", 135.0),
        ("ChatPacket", "pktc", 670.0),
        ("ChatPacket", "speedy", 700.0),
        ("ChatPacket", "rkyv", 600.0),
        ("ChatPacket", "decode_into", 334.0),
        ("Mesh", "pktc", 731_559.0),
        ("Mesh", "wincode", 800_000.0),
        ("Logs", "encode:pktc", 9_000_000.0),
        ("Logs", "encode:postcard", 8_000_000.0),
        ("Inventory", "encode:pktc", 2_600.4),
        ("Packet", "encode:pktc", 15.0),
        ("Packet", "encode:pktc (slice)", 8.0),
        ("Packet", "encode:bincode (fixint)", 8.0),
        ("Int3Packet", "encode:pktc", 15.0),
        ("Int3Packet", "encode:pktc (slice)", 14.0),
        ("Int3Packet", "encode:bincode (fixint)", 12.0),
        ("ChatPacket", "encode:pktc (slice)", 120.0),
    ] {
        text.push_str(&Counts::line(ds, row, n));
    }
    text.push_str("count\tLogs\tpktc\tnot a number\n");
    Counts::parse(&text)
}

#[test]
fn counts_are_read_back_by_codec_and_operation() {
    let c = sample();
    assert_eq!(c.get("ChatPacket", "pktc", "encode"), Some(136.0));
    assert_eq!(c.get("ChatPacket", "speedy", "decode"), Some(700.0));
    assert_eq!(c.get("ChatPacket", "pktc", "decode_into"), Some(334.0));
    assert_eq!(c.get("Logs", "pktc", "decode"), None);
    assert_eq!(
        c.ratio("ChatPacket", "speedy", "encode"),
        Some(104.0 / 136.0)
    );
}

#[test]
fn targets_name_each_peer_ahead_and_the_known_cause() {
    let s = sample().section();
    assert!(
        s.contains("- **missed**: ChatPacket: pktc encode takes more instructions than wincode (0.99x), speedy (0.76x). Why: a message writes its body length"),
        "{s}"
    );
    assert!(
        s.contains("- **met**: ChatPacket: pktc decode takes no more instructions than"),
        "{s}"
    );
    assert!(
        s.contains("- **missed**: ChatPacket: pktc decode takes 1.12x the instructions of rkyv's validated deserialize (target ≤ 1.1x). Why: a call sets up its reader"),
        "{s}"
    );
    assert!(
        s.contains("- **missed**: Logs: pktc encode takes more instructions than postcard (0.89x). Why: not yet found"),
        "{s}"
    );
    assert!(
        s.contains("- **met**: Mesh: pktc decode takes no more instructions"),
        "{s}"
    );
    assert!(!s.contains("Logs: pktc decode"), "{s}");
    // A fixed packet's encode counts pktc's better encoder, as its timing
    // target does; other data sets count `encode_into` a `Vec` only.
    assert!(
        s.contains("- **met**: Packet: pktc encode (the better of `encode_into` a `Vec` and `encode_to_slice`) takes no more instructions than"),
        "{s}"
    );
    assert!(
        s.contains("- **missed**: Int3Packet: pktc encode (the better of `encode_into` a `Vec` and `encode_to_slice`) takes more instructions than bincode (fixint) (0.86x)"),
        "{s}"
    );
}

#[test]
fn the_section_tabulates_counts_against_pktc() {
    let s = sample().section();
    assert!(s.starts_with(BEGIN) && s.trim_end().ends_with(END));
    assert!(s.contains("Measured with `valgrind-3.19.0` on 2026-12-01"));
    assert!(
        s.contains("| ChatPacket | 136 | 120 (0.88x) | 135 (0.99x) | 104 (0.76x) | – |"),
        "{s}"
    );
    // The decode table has no `pktc (slice)` column: its decode is pktc's.
    assert!(s.contains("| ChatPacket | 670 | – | 700 (1.04x) |"), "{s}");
    assert!(s.contains("| Inventory | 2,600 | – |"), "{s}");
    assert!(s.contains("| Mesh | 731,559 | 800,000 (1.09x) |"), "{s}");
    assert!(s.contains("| Logs | 9.00 M |"), "{s}");
    // decode_into is divided by pktc's own decode.
    assert!(s.contains("| 334 (0.50x) |"), "{s}");
}

#[test]
fn the_section_replaces_its_old_self_or_goes_before_the_marker() {
    let section = format!("{BEGIN}\nnew\n{END}\n");
    let doc = "# B\n\n## Results\n\ntables\n";
    let once = splice(doc, &section, "## Results");
    assert_eq!(
        once,
        format!("# B\n\n{BEGIN}\nnew\n{END}\n\n## Results\n\ntables\n")
    );
    let again = splice(&once, &format!("{BEGIN}\nnewer\n{END}\n"), "## Results");
    assert_eq!(
        again,
        format!("# B\n\n{BEGIN}\nnewer\n{END}\n\n## Results\n\ntables\n")
    );
    assert_eq!(
        splice("# B\n", &section, "## Results"),
        format!("# B\n\n{section}")
    );
}
