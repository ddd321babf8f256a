//! Values built by hand in C# agree with Rust's: C# encodes them; Rust
//! decodes them and compares them with the same values built in Rust, and
//! encodes them to the same bytes. A value named like a golden vector must
//! encode to its bytes. Both encoders refuse the same values over a limit,
//! naming the same part. (Decoding the same bytes alike, random encodings
//! and golden vectors included, is `conformance.rs`.)

mod support;

use std::collections::BTreeMap;

use pkt_runtime::{Decode, Encode};
use pkt_rust_tests::game::net::{EntityState, StatusEffect, WorldState};
use pkt_rust_tests::game::scoreboard::Scoreboard;
use pkt_rust_tests::seeds::chat::{Inventory, ItemKind, ItemSlot};
use pkt_rust_tests::seeds::small::Small;
use pkt_rust_tests::test::everything::LinkedNode;
use pkt_rust_tests::test::floats::FloatDefaults;
use pkt_rust_tests::test::frozen::{Batch, Entry, Level};
use pkt_test_support::hex::{decode as unhex, encode as hex};
use pkt_test_support::vectors;
use support::{ir, mono};

/// The C# side: writes the hand-built values and the refusals.
const PROGRAM: &str = r#"using System;
using System.IO;

static class CrossLang
{
    static string Hex(byte[] b)
    {
        var sb = new System.Text.StringBuilder(b.Length * 2);
        foreach (var x in b) sb.Append(x.ToString("x2"));
        return sb.ToString();
    }

    static int Main(string[] args)
    {
        using (var values = new StreamWriter(args[0]))
        {
            foreach (var v in Values.All())
            {
                values.WriteLine(v.Key + "\t" + Hex(v.Value));
            }
        }
        using (var refusals = new StreamWriter(args[1]))
        {
            foreach (var r in Values.Refused())
            {
                try
                {
                    refusals.WriteLine(r.Key + "\twritten " + Hex(r.Value()));
                }
                catch (Pkt.PktEncodeException e)
                {
                    refusals.WriteLine(r.Key + "\t" + e.Message);
                }
            }
        }
        return 0;
    }
}
"#;

/// Values built in C#; `rust_values` builds the same ones in Rust.
const CSHARP_VALUES: &str = r#"using System;
using System.Collections.Generic;

static class Values
{
    public static IEnumerable<KeyValuePair<string, byte[]>> All()
    {
        yield return Pair("transform_packet", new Seeds.Packets.TransformPacket
        {
            Size = 40, Id = 3456,
            PosX = 1.1f, PosY = 2.2f, PosZ = 3.3f,
            RotX = 123.456f, RotY = 234.567f, RotZ = 345.678f,
            ScaleX = 10000f, ScaleY = 20000f, ScaleZ = 30000f,
        }.ToArray());
        yield return Pair("small", new Seeds.Small.Small { Id = -7, Name = "héllo 🎮" }.ToArray());

        var board = new Game.Scoreboard.Scoreboard { Round = 3, Mvp = "amy" };
        // Inserted out of order; U+FFFF sorts before U+1F600 in UTF-8 order
        // although its UTF-16 code unit is larger.
        board.Scores.Add("zed", -1);
        board.Scores.Add("\U0001F600", 2);
        board.Scores.Add("\uFFFF", 1);
        board.Scores.Add("amy", 10);
        yield return Pair("scoreboard", board.ToArray());

        yield return Pair("server_kick", new Game.Net.ServerPacket.Kick(new Game.Net.Kick
        {
            Reason = Game.Net.KickReason.Idle, Detail = "afk", BannedUntil = 7,
        }).ToArray());
        yield return Pair("server_unknown", new Game.Net.ServerPacket.Unknown(0x0400, new byte[] { 1, 2, 3 }).ToArray());

        var inv = new Seeds.Chat.Inventory { OwnerId = 99 };
        inv.Slots.Add(new Seeds.Chat.ItemSlot { Slot = 1, ItemId = 1001, Kind = Seeds.Chat.ItemKind.Armor, Count = 2, Durability = 50 });
        inv.Slots.Add(new Seeds.Chat.ItemSlot { Slot = 2, ItemId = 1002, Kind = (Seeds.Chat.ItemKind)77, Count = 1, Durability = 9 });
        yield return Pair("inventory", inv.ToArray());

        var world = new Game.Net.WorldState { Tick = 5 };
        var hurt = new Game.Net.EntityState { Health = 10 };
        hurt.Effects.Add(new Game.Net.StatusEffect { EffectId = 1, Remaining = 2.5f, Stacks = 3 });
        world.Entities.Add(9, hurt);
        world.Entities.Add(2, new Game.Net.EntityState { Health = 20 });
        for (int i = 0; i < 16; i++) world.DebugView[i] = i * 0.5f;
        yield return Pair("world", world.ToArray());

        var list = new Test.Everything.LinkedNode { Value = 3 };
        list = new Test.Everything.LinkedNode { Value = 2, Next = list };
        list = new Test.Everything.LinkedNode { Value = 1, Next = list };
        yield return Pair("linked", list.ToArray());

        // Defaults as initialised, and as decoded from a body that lacks the
        // fields (older data): -0.0 and NaN must keep their bits.
        yield return Pair("float_defaults", new Test.Floats.FloatDefaults().ToArray());
        yield return Pair("float_defaults_absent", Test.Floats.FloatDefaults.Decode(new byte[4]).ToArray());

        // Frozen variable-size structs: alone, in a list and optional in a message.
        yield return Pair("frozen_entry", new Test.Frozen.Entry
        {
            Level = Test.Frozen.Level.Warn, At = 7, Source = "db", Text = "slow",
        }.ToArray());
        var batch = new Test.Frozen.Batch { Seq = 2 };
        batch.Entries.Add(new Test.Frozen.Entry { Level = Test.Frozen.Level.Warn, At = 7, Source = "db", Text = "slow" });
        batch.Entries.Add(new Test.Frozen.Entry { Level = (Test.Frozen.Level)9, At = 8, Source = "", Text = "h\u00e9llo" });
        batch.Latest = new Test.Frozen.Entry { Level = Test.Frozen.Level.Error, At = 9, Source = "x", Text = "" };
        yield return Pair("frozen_batch", batch.ToArray());

        // Every part at its `@max` (schemas/limits.pkt).
        yield return Pair("limits_chat", FullChat().ToArray());
    }

    static Test.Limits.Chat FullChat()
    {
        var chat = new Test.Limits.Chat();
        for (int i = 0; i < 8; i++) chat.Mentions.Add(new string('m', 24));
        chat.Tags.Add(new string('k', 32), new byte[256]);
        chat.Notes.Add("four");
        chat.Notes.Add(null);
        for (int i = 0; i < 3; i++) chat.Grid.Add(new List<string> { "five!", "" });
        chat.Slots[0] = new byte[] { 1, 2 };
        chat.Groups = new Pkt.PktMap<byte, List<uint>>(Pkt.PktKeyOrders.U8);
        chat.Groups.Add(1, new List<uint> { 1, 2 });
        return chat;
    }

    /// Values with one part over its `@max`, which the encoders refuse,
    /// naming the part; `refused` builds the same ones in Rust.
    public static IEnumerable<KeyValuePair<string, Func<byte[]>>> Refused()
    {
        yield return Refusal("mentions", c => c.Mentions.Add(new string('m', 25)));
        yield return Refusal("tags_key", c => c.Tags.Add(new string('k', 33), new byte[0]));
        yield return Refusal("tags_value", c => c.Tags.Add("", new byte[257]));
        yield return Refusal("notes", c => c.Notes.Add("fives"));
        yield return Refusal("grid", c => c.Grid.Add(new List<string> { "", "", "" }));
        yield return Refusal("grid_cell", c => c.Grid.Add(new List<string> { "sixsix" }));
        yield return Refusal("slots", c => c.Slots[2] = new byte[3]);
        yield return Refusal("groups", c => c.Groups[1] = new List<uint> { 1, 2, 3 });
        yield return new KeyValuePair<string, Func<byte[]>>("say", () =>
            new Test.Limits.Packet.Say(new List<string> { new string('x', 11) }).ToArray());
        yield return new KeyValuePair<string, Func<byte[]>>("line", () =>
        {
            var line = new Test.Limits.Line();
            line.Keys.Add("four", 1);
            return line.ToArray();
        });
    }

    static KeyValuePair<string, Func<byte[]>> Refusal(string name, Action<Test.Limits.Chat> change)
    {
        return new KeyValuePair<string, Func<byte[]>>(name, () =>
        {
            var chat = FullChat();
            change(chat);
            return chat.ToArray();
        });
    }

    static KeyValuePair<string, byte[]> Pair(string name, byte[] bytes)
    {
        return new KeyValuePair<string, byte[]>(name, bytes);
    }
}
"#;

/// Decodes the C# bytes of one named value, compares with the Rust-built
/// value and checks that Rust encodes it to the same bytes. A value named
/// like a golden vector is compared with its bytes (golden.rs checks that
/// Rust encodes its value to them).
fn check_value(name: &str, bytes: &[u8]) {
    if let Some(v) = vectors::all().into_iter().find(|v| v.name == name) {
        assert_eq!(
            hex(bytes),
            hex(&v.bytes),
            "{name}: C# differs from the golden vector"
        );
        return;
    }
    fn same<T: Encode + Decode + PartialEq + std::fmt::Debug>(
        name: &str,
        bytes: &[u8],
        expected: T,
    ) {
        let decoded = T::decode(bytes)
            .unwrap_or_else(|e| panic!("{name}: Rust cannot decode C#'s bytes: {e}"));
        assert_eq!(decoded, expected, "{name}");
        assert_eq!(
            expected.encode_to_vec().unwrap(),
            bytes,
            "{name}: Rust encodes differently"
        );
    }
    match name {
        "small" => same(
            name,
            bytes,
            Small {
                id: -7,
                name: "héllo 🎮".into(),
            },
        ),
        "scoreboard" => same(
            name,
            bytes,
            Scoreboard {
                round: 3,
                scores: BTreeMap::from([
                    ("zed".into(), -1),
                    ("\u{1F600}".into(), 2),
                    ("\u{FFFF}".into(), 1),
                    ("amy".into(), 10),
                ]),
                mvp: Some("amy".into()),
            },
        ),
        "inventory" => same(
            name,
            bytes,
            Inventory {
                owner_id: 99,
                slots: vec![
                    ItemSlot {
                        slot: 1,
                        item_id: 1001,
                        kind: ItemKind::Armor,
                        count: 2,
                        durability: 50,
                    },
                    ItemSlot {
                        slot: 2,
                        item_id: 1002,
                        kind: ItemKind::Unknown(77),
                        count: 1,
                        durability: 9,
                    },
                ],
            },
        ),
        "world" => {
            let mut debug_view = [0.0f32; 16];
            for (i, v) in debug_view.iter_mut().enumerate() {
                *v = i as f32 * 0.5;
            }
            same(
                name,
                bytes,
                WorldState {
                    tick: 5,
                    entities: BTreeMap::from([
                        (
                            9,
                            EntityState {
                                health: 10,
                                effects: vec![StatusEffect {
                                    effect_id: 1,
                                    remaining: Some(2.5),
                                    stacks: 3,
                                }],
                                ..EntityState::default()
                            },
                        ),
                        (
                            2,
                            EntityState {
                                health: 20,
                                ..EntityState::default()
                            },
                        ),
                    ]),
                    debug_view,
                },
            )
        }
        "linked" => same(
            name,
            bytes,
            LinkedNode {
                value: 1,
                next: Some(Box::new(LinkedNode {
                    value: 2,
                    next: Some(Box::new(LinkedNode {
                        value: 3,
                        next: None,
                    })),
                })),
            },
        ),
        // NaN is not equal to itself: compare the bytes, which also pin the
        // sign of zero and the NaN's bits.
        "float_defaults" | "float_defaults_absent" => {
            let expected = FloatDefaults::default()
                .encode_to_vec()
                .expect("within limits");
            assert_eq!(bytes, expected, "{name}: C# encodes other bits");
            let absent = FloatDefaults::decode(&[0, 0, 0, 0]).expect("empty body");
            assert_eq!(
                absent.encode_to_vec().expect("within limits"),
                expected,
                "{name}: Rust's absent fields"
            );
            assert_eq!(&bytes[4..8], &(-0.0f32).to_bits().to_le_bytes(), "{name}");
            assert_eq!(&bytes[16..20], &0x7FC0_0000u32.to_le_bytes(), "{name}");
        }
        "frozen_entry" => same(
            name,
            bytes,
            Entry {
                level: Level::Warn,
                at: 7,
                source: "db".into(),
                text: "slow".into(),
            },
        ),
        "frozen_batch" => same(
            name,
            bytes,
            Batch {
                seq: 2,
                entries: vec![
                    Entry {
                        level: Level::Warn,
                        at: 7,
                        source: "db".into(),
                        text: "slow".into(),
                    },
                    Entry {
                        level: Level::Unknown(9),
                        at: 8,
                        source: String::new(),
                        text: "h\u{e9}llo".into(),
                    },
                ],
                kitchens: Vec::new(),
                latest: Some(Entry {
                    level: Level::Error,
                    at: 9,
                    source: "x".into(),
                    text: String::new(),
                }),
            },
        ),
        "limits_chat" => same(name, bytes, full_chat()),
        other => panic!("no Rust value for {other}"),
    }
}

/// `FullChat` of the C# values: every part of `test.limits.Chat` at its
/// `@max`.
fn full_chat() -> pkt_rust_tests::test::limits::Chat {
    pkt_rust_tests::test::limits::Chat {
        mentions: vec!["m".repeat(24); 8],
        tags: BTreeMap::from([("k".repeat(32), vec![0; 256])]),
        notes: vec![Some("four".into()), None],
        grid: vec![vec!["five!".into(), String::new()]; 3],
        slots: [vec![1, 2], Vec::new(), Vec::new()],
        groups: Some(BTreeMap::from([(1, vec![1, 2])])),
    }
}

/// What the Rust encoder says of the value `Refused` builds in C# under
/// `name`: the error's text, which the C# exception's must equal.
fn refused(name: &str) -> String {
    use pkt_rust_tests::test::limits::{Line, Packet};
    let mut chat = full_chat();
    let result = match name {
        "say" => Packet::Say(vec!["x".repeat(11)]).encode_to_vec(),
        "line" => Line {
            keys: BTreeMap::from([("four".into(), 1)]),
            ..Line::default()
        }
        .encode_to_vec(),
        _ => {
            match name {
                "mentions" => chat.mentions.push("m".repeat(25)),
                "tags_key" => {
                    chat.tags.insert("k".repeat(33), Vec::new());
                }
                "tags_value" => {
                    chat.tags.insert(String::new(), vec![0; 257]);
                }
                "notes" => chat.notes.push(Some("fives".into())),
                "grid" => chat.grid.push(vec![String::new(); 3]),
                "grid_cell" => chat.grid.push(vec!["sixsix".into()]),
                "slots" => chat.slots[2] = vec![0; 3],
                "groups" => {
                    chat.groups
                        .as_mut()
                        .expect("groups")
                        .insert(1, vec![1, 2, 3]);
                }
                other => panic!("no Rust refusal for {other}"),
            }
            chat.encode_to_vec()
        }
    };
    match result {
        Ok(bytes) => format!("written {}", hex(&bytes)),
        Err(e) => e.to_string(),
    }
}

#[test]
fn values_built_in_csharp_are_rusts() {
    if !mono::tools_or_skip("values_built_in_csharp_are_rusts") {
        return;
    }
    let ir = ir();
    let dir = mono::work_dir("cross-lang");
    let exe = mono::build(
        &dir,
        &ir,
        &[
            ("CrossLang.cs", PROGRAM.to_string()),
            ("Values.cs", CSHARP_VALUES.to_string()),
        ],
        "CrossLang",
    );
    let values = dir.join("csharp-values.txt");
    let refusals = dir.join("csharp-refusals.txt");
    mono::run(&exe, &[&values, &refusals]);

    let values = std::fs::read_to_string(&values).expect("C# values");
    let mut names = Vec::new();
    for line in values.lines() {
        let (name, bytes) = line.split_once('\t').expect("name<TAB>hex");
        check_value(name, &unhex(bytes));
        names.push(name);
    }
    assert_eq!(names.len(), 13, "{names:?}");

    // Both encoders refuse the same values, naming the same part.
    let refusals = std::fs::read_to_string(&refusals).expect("C# refusals");
    let mut refused_count = 0;
    for line in refusals.lines() {
        let (name, csharp) = line.split_once('\t').expect("name<TAB>message");
        let rust = refused(name);
        assert!(
            rust.starts_with("field `"),
            "{name}: Rust writes it: {rust}"
        );
        assert_eq!(csharp, rust, "{name}: C# and Rust refuse differently");
        refused_count += 1;
    }
    assert_eq!(refused_count, 10, "{refusals}");
    println!("{} C# values decode in Rust", names.len());
}
