//! Generated types through serde_json: values round-trip, and JSON read back
//! encodes to the very bytes the value was decoded from, including values
//! this schema version does not know (enum numbers, union tags, trailing
//! message fields).

use std::collections::BTreeMap;
use std::fmt::Debug;

use pkt_runtime::{Decode, Encode};
use pkt_rust_tests_serde::test::everything::{
    BinOp, BinaryExpr, CallExpr, Color, Command, Defaults, Empty, Everything, Expr, Fixed,
    Forwarded, Leaf, Point, Program, TreeNode, Wide,
};
use pkt_rust_tests_serde::test::long_arrays::{Blob, Frame, Key};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::json;

/// bytes → value → JSON → value → bytes: the bytes come back unchanged and
/// the JSON is returned for inspection.
fn bytes_through_json<T>(bytes: &[u8]) -> serde_json::Value
where
    T: Decode + Encode + Serialize + DeserializeOwned + PartialEq + Debug,
{
    let value = T::decode(bytes).expect("valid bytes");
    let text = serde_json::to_string(&value).expect("serializes");
    let back: T = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(back, value);
    assert_eq!(back.encode_to_vec().unwrap(), bytes, "{text}");
    serde_json::from_str(&text).expect("valid JSON")
}

fn value_through_json<T>(value: &T) -> serde_json::Value
where
    T: Decode + Encode + Serialize + DeserializeOwned + PartialEq + Debug,
{
    bytes_through_json::<T>(&value.encode_to_vec().unwrap())
}

fn leaf(name: &str, weight: f64) -> Leaf {
    Leaf {
        name: name.into(),
        weight,
    }
}

#[test]
fn enums_are_names_and_unknown_values_are_numbers() {
    assert_eq!(serde_json::to_value(Color::Green).unwrap(), json!("Green"));
    assert_eq!(serde_json::to_value(Wide::High).unwrap(), json!("High"));
    assert_eq!(serde_json::to_value(Color::Unknown(9)).unwrap(), json!(9));
    assert_eq!(
        serde_json::from_value::<Color>(json!("Blue")).unwrap(),
        Color::Blue
    );
    let unknown = serde_json::from_value::<Color>(json!(200)).unwrap();
    assert!(matches!(unknown, Color::Unknown(200)));
    // A number that has a name reads as `Unknown(n)`, which equals the named
    // value and encodes the same.
    let one = serde_json::from_value::<Color>(json!(1)).unwrap();
    assert_eq!(one, Color::Green);
    assert_eq!(
        one.encode_to_vec().unwrap(),
        Color::Green.encode_to_vec().unwrap()
    );
    assert!(serde_json::from_value::<Color>(json!("Purple")).is_err());
    assert!(serde_json::from_value::<Color>(json!(300)).is_err());
}

#[test]
fn unknown_enum_value_inside_a_struct_survives_json() {
    let fixed = Fixed {
        flag: true,
        color: Color::Unknown(7),
        wide: Wide::Unknown(0x1234),
        points: [Point { x: 1, y: -1 }, Point { x: 2, y: -2 }],
        nested: [[1, 2], [3, 4]],
        ratio: 0.25,
        precise: -1.5e300,
        ..Fixed::default()
    };
    let bytes = fixed.encode_to_vec().unwrap();
    let decoded = Fixed::decode(&bytes).unwrap();
    assert!(matches!(decoded.color, Color::Unknown(7)));
    let j = bytes_through_json::<Fixed>(&bytes);
    assert_eq!(j["color"], json!(7));
    assert_eq!(j["wide"], json!(0x1234));
    assert_eq!(j["big"], json!("Small"));
    assert_eq!(j["nested"], json!([[1, 2], [3, 4]]));
}

#[test]
fn unknown_union_variant_survives_json() {
    // Tag 12 is not a Command variant.
    let bytes = [3, 0, 0, 0, 12, 0xde, 0xad];
    let value = Command::decode(&bytes).unwrap();
    assert_eq!(
        value,
        Command::Unknown {
            tag: 12,
            body: vec![0xde, 0xad]
        }
    );
    let j = bytes_through_json::<Command>(&bytes);
    assert_eq!(j, json!({"Unknown": {"tag": 12, "body": [0xde, 0xad]}}));
}

#[test]
fn union_variants_are_externally_tagged() {
    assert_eq!(
        value_through_json(&Command::Say("hi".into())),
        json!({"Say": "hi"})
    );
    assert_eq!(
        value_through_json(&Command::Nop(Empty {})),
        json!({"Nop": {}})
    );
    assert_eq!(
        value_through_json(&Command::Maybe(None)),
        json!({"Maybe": null})
    );
    assert_eq!(
        value_through_json(&Command::Tint(Color::Unknown(5))),
        json!({"Tint": 5})
    );
    assert_eq!(
        value_through_json(&Command::Leaf(leaf("x", 0.5))),
        json!({"Leaf": {"name": "x", "weight": 0.5}})
    );
}

#[test]
fn preserved_unknown_fields_survive_json_and_are_left_out_when_empty() {
    // Version 7, payload [1], then 3 bytes from a newer writer.
    let mut bytes = vec![0, 0, 0, 0];
    bytes.extend(7u32.to_le_bytes());
    bytes.extend([1, 0, 0, 0, 0xaa]);
    bytes.extend([9, 9, 9]);
    let len = (bytes.len() - 4) as u32;
    bytes[..4].copy_from_slice(&len.to_le_bytes());
    let j = bytes_through_json::<Forwarded>(&bytes);
    assert_eq!(j["unknown_fields"], json!([9, 9, 9]));

    let plain = Forwarded {
        version: 1,
        payload: vec![],
        unknown_fields: vec![],
    };
    assert_eq!(
        value_through_json(&plain),
        json!({"version": 1, "payload": []})
    );
}

#[test]
fn missing_message_fields_take_their_schema_defaults() {
    let d: Defaults = serde_json::from_value(json!({"v_u8": 3})).unwrap();
    assert_eq!(
        d,
        Defaults {
            v_u8: 3,
            ..Defaults::default()
        }
    );
    assert_eq!(d.text, "anonymous");
    assert_eq!(d.color, Color::Blue);
    let e: Everything = serde_json::from_value(json!({})).unwrap();
    assert_eq!(e, Everything::default());
    // Structs are frozen: every field is required.
    assert!(serde_json::from_value::<Point>(json!({"x": 1})).is_err());
}

#[test]
fn defaults_extremes_round_trip() {
    let j = value_through_json(&Defaults::default());
    assert_eq!(j["v_u64"], json!(u64::MAX));
    assert_eq!(j["v_i64"], json!(i64::MIN));
    assert_eq!(j["big"], json!("Huge"));
}

#[test]
#[allow(deprecated)]
fn everything_round_trips() {
    let mut e = Everything {
        v_bool: true,
        v_u64: u64::MAX,
        v_i8: -5,
        v_f32: 1.1,
        v_f64: -0.1,
        color: Color::Unknown(77),
        wide: Wide::Mid,
        text: "tëxt".into(),
        short_text: "short".into(),
        blob: vec![0, 255],
        command: Command::Batch(vec![1, 2, 3]),
        list_color: vec![Color::Red, Color::Unknown(3)],
        list_array: vec![[1, 2, 3]],
        list_opt_u32: vec![Some(1), None],
        list_map: vec![BTreeMap::from([("k".to_string(), 1u8)])],
        map_i8: BTreeMap::from([(-1, 1), (1, -1)]),
        map_bool: BTreeMap::from([(false, "no".into()), (true, "yes".into())]),
        map_color: BTreeMap::from([(Color::Green, vec!["g".into()]), (Color::Blue, vec![])]),
        map_wide: BTreeMap::from([(Wide::High, 1)]),
        map_nested: BTreeMap::from([("n".into(), BTreeMap::from([(1, 2.5)]))]),
        map_command: BTreeMap::from([(
            4,
            Command::Unknown {
                tag: 200,
                body: vec![1],
            },
        )]),
        map_opt: BTreeMap::from([("none".into(), None), ("some".into(), Some(1))]),
        array_f32: [0.5; 16],
        array_string: ["a".into(), "b".into()],
        array_opt: [None, Some(2), None],
        array_command: [Command::Ping(1), Command::Idle(Default::default())],
        opt_fixed: Some(Fixed::default()),
        opt_map: Some(BTreeMap::new()),
        opt_array: Some([9; 4]),
        old_id: 42,
        old_name: "legacy".into(),
        ..Everything::default()
    };
    e.map_i32.insert(-3, leaf("leaf", 2.0));
    let j = value_through_json(&e);
    assert_eq!(j["color"], json!(77));
    assert_eq!(j["map_color"], json!({"Green": ["g"], "Blue": []}));
    assert_eq!(j["map_bool"], json!({"false": "no", "true": "yes"}));
    assert_eq!(j["old_id"], json!(42));
}

#[test]
fn recursive_types_with_boxes_round_trip() {
    let program = Program {
        statements: vec![
            Expr::Binary(Box::new(BinaryExpr {
                op: BinOp::Mul,
                lhs: Some(Box::new(Expr::Literal(6))),
                rhs: Some(Box::new(Expr::Call(CallExpr {
                    function: "f".into(),
                    args: vec![Expr::Variable("x".into())],
                }))),
            })),
            Expr::Literal(-1),
        ],
    };
    let j = value_through_json(&program);
    assert_eq!(j["statements"][0]["Binary"]["op"], json!("Mul"));
    let tree = TreeNode {
        value: 1,
        children: vec![TreeNode {
            value: 2,
            children: vec![],
        }],
    };
    value_through_json(&tree);
}

#[test]
fn arrays_longer_than_32_round_trip() {
    let blob = Blob {
        key: Key {
            bytes: std::array::from_fn(|i| i as u8),
        },
        hashes: std::array::from_fn(|i| i as u32 * 1000),
        names: std::array::from_fn(|i| format!("n{i}")),
        short: [3; 32],
        maybe: Some(Key { bytes: [1; 64] }),
    };
    let j = value_through_json(&blob);
    assert_eq!(j["key"]["bytes"].as_array().unwrap().len(), 64);
    assert_eq!(j["names"][32], json!("n32"));
    let j = value_through_json(&Frame::Raw([7; 48]));
    assert_eq!(j["Raw"].as_array().unwrap().len(), 48);
    value_through_json(&Frame::Blob(blob));
}

#[test]
fn game_protocol_frames_round_trip() {
    use pkt_rust_tests_serde::game::net::{ChatChannel, ChatSend, ClientPacket};
    let p = ClientPacket::ChatSend(ChatSend {
        channel: ChatChannel::Team,
        whisper_to: None,
        text: "gg".into(),
    });
    let j = value_through_json(&p);
    assert_eq!(j["ChatSend"]["channel"], json!("Team"));
}

/// A known limitation: JSON map keys are strings, and the derived
/// deserializer reads an unknown enum value only from a number, so a map
/// keyed by an unknown enum value writes but does not read back. Known keys
/// (by name) do.
#[test]
fn unknown_enum_map_keys_write_as_numbers_but_do_not_read_back() {
    let m = BTreeMap::from([(Color::Unknown(9), 1u8), (Color::Red, 2)]);
    let text = serde_json::to_string(&m).unwrap();
    assert_eq!(text, r#"{"Red":2,"9":1}"#);
    assert!(serde_json::from_str::<BTreeMap<Color, u8>>(&text).is_err());
    let known = BTreeMap::from([(Color::Red, 2u8)]);
    let text = serde_json::to_string(&known).unwrap();
    assert_eq!(
        serde_json::from_str::<BTreeMap<Color, u8>>(&text).unwrap(),
        known
    );
}
