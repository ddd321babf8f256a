//! The serde helper for arrays longer than 32 elements (feature `serde`).

use serde::{Deserialize, Serialize};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Long {
    #[serde(with = "pkt_runtime::serde_array")]
    bytes: [u8; 40],
    #[serde(with = "pkt_runtime::serde_array")]
    names: [String; 33],
    short: [u16; 2],
}

#[test]
fn long_arrays_round_trip_as_json_arrays() {
    let v = Long {
        bytes: core::array::from_fn(|i| i as u8),
        names: core::array::from_fn(|i| format!("n{i}")),
        short: [1, 2],
    };
    let json = serde_json::to_string(&v).unwrap();
    assert!(json.starts_with("{\"bytes\":[0,1,2,"), "{json}");
    assert_eq!(serde_json::from_str::<Long>(&json).unwrap(), v);
}

#[test]
fn wrong_lengths_are_errors() {
    let short = format!(
        "{{\"bytes\":{:?},\"names\":{:?},\"short\":[1,2]}}",
        [0u8; 39],
        vec!["x"; 33]
    );
    let e = serde_json::from_str::<Long>(&short).unwrap_err();
    assert!(e.to_string().contains("array of 40 elements"), "{e}");
    let long = format!(
        "{{\"bytes\":{:?},\"names\":{:?},\"short\":[1,2]}}",
        [0u8; 41],
        vec!["x"; 33]
    );
    assert!(serde_json::from_str::<Long>(&long).is_err());
}
