//! The evolution matrix: v1 and v2 of `schemas/evolution/`, every pairing of
//! writer version × reader version × writer language × reader language.
//!
//! Rust is the oracle for values: a Rust reader's decoded value must equal the
//! value the rules of docs/evolution.md predict, and a C# or TypeScript
//! reader's re-encoding must equal the Rust reader's (the same bytes in means
//! the same values were decoded). C# and TypeScript writers must produce the
//! same bytes as Rust writers. A v1 relay, in any language, re-encodes v2
//! union values and `@preserve_unknown` messages byte for byte.
#![allow(deprecated)] // v2 deprecates Profile.legacy_score, which samples set.

mod support;

use std::collections::BTreeMap;
use std::path::PathBuf;

use pkt_runtime::{Decode, Encode};
use pkt_rust_tests::evo_v1::evo::protocol as v1;
use pkt_rust_tests::evo_v2::evo::protocol as v2;
use pkt_test_support::hex::{decode as unhex, encode as hex};
use support::{mono, node};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Version {
    V1,
    V2,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Lang {
    Rust,
    CSharp,
    TypeScript,
}

/// A value of one of the protocol's top-level types, in one version.
#[derive(Debug, PartialEq)]
enum Value<E, R, N> {
    Event(E),
    Relay(R),
    Envelope(N),
}

type V1 = Value<v1::Event, v1::Relay, v1::Envelope>;
type V2 = Value<v2::Event, v2::Relay, v2::Envelope>;

impl<E: Encode + Decode, R: Encode + Decode, N: Encode + Decode> Value<E, R, N> {
    fn type_name(&self) -> &'static str {
        match self {
            Value::Event(_) => "Event",
            Value::Relay(_) => "Relay",
            Value::Envelope(_) => "Envelope",
        }
    }
    fn encode(&self) -> Vec<u8> {
        match self {
            Value::Event(v) => v.encode_to_vec().unwrap(),
            Value::Relay(v) => v.encode_to_vec().unwrap(),
            Value::Envelope(v) => v.encode_to_vec().unwrap(),
        }
    }
    fn decode(type_name: &str, bytes: &[u8]) -> Self {
        fn get<T: Decode>(type_name: &str, bytes: &[u8]) -> T {
            T::decode(bytes).unwrap_or_else(|e| panic!("{type_name}: {e} in {bytes:02x?}"))
        }
        match type_name {
            "Event" => Value::Event(get(type_name, bytes)),
            "Relay" => Value::Relay(get(type_name, bytes)),
            "Envelope" => Value::Envelope(get(type_name, bytes)),
            other => panic!("no type {other}"),
        }
    }
}

fn bytes_of(parts: &[&dyn Encode]) -> Vec<u8> {
    let mut out = Vec::new();
    for p in parts {
        p.encode_into(&mut out).unwrap();
    }
    out
}

/// The samples each version's writers send, by name.
fn samples_v1() -> BTreeMap<&'static str, V1> {
    BTreeMap::from([
        (
            "join",
            Value::Event(v1::Event::Join(v1::Profile {
                id: 1,
                name: "amy".into(),
                class: v1::Class::Mage,
                legacy_score: 9,
                unknown_fields: vec![],
            })),
        ),
        ("leave", Value::Event(v1::Event::Leave(5))),
        (
            "relay",
            Value::Relay(v1::Relay {
                hops: 2,
                origin: "eu-1".into(),
                unknown_fields: vec![],
            }),
        ),
        (
            "envelope",
            Value::Envelope(v1::Envelope {
                seq: 10,
                event: v1::Event::Leave(3),
                relay: v1::Relay {
                    hops: 1,
                    origin: "us-2".into(),
                    unknown_fields: vec![],
                },
            }),
        ),
    ])
}

fn samples_v2() -> BTreeMap<&'static str, V2> {
    BTreeMap::from([
        (
            "join",
            Value::Event(v2::Event::Join(v2::Profile {
                id: 1,
                name: "amy".into(),
                class: v2::Class::Mage,
                legacy_score: 9,
                level: 5,
                title: "champion".into(),
                guild: Some("red".into()),
                unknown_fields: vec![],
            })),
        ),
        ("leave", Value::Event(v2::Event::Leave(5))),
        (
            "relay",
            Value::Relay(v2::Relay {
                hops: 2,
                origin: "eu-1".into(),
                region: 9,
                unknown_fields: vec![],
            }),
        ),
        (
            "envelope",
            Value::Envelope(v2::Envelope {
                seq: 10,
                event: v2::Event::Leave(3),
                relay: v2::Relay {
                    hops: 1,
                    origin: "us-2".into(),
                    region: 9,
                    unknown_fields: vec![],
                },
                sent_at: 99,
            }),
        ),
        ("emote", Value::Event(v2::Event::Emote(v2::Emote { id: 7 }))),
        (
            "rogue",
            Value::Event(v2::Event::Join(v2::Profile {
                id: 2,
                name: "zed".into(),
                class: v2::Class::Rogue,
                legacy_score: 0,
                level: 3,
                title: "sneaky".into(),
                guild: None,
                unknown_fields: vec![],
            })),
        ),
        ("trade", Value::Event(v2::Event::Trade(vec![10, 20, 30]))),
    ])
}

/// What a v2 reader makes of v1 data: appended fields take their defaults.
fn v1_data_in_v2(name: &str) -> V2 {
    let relay = |hops, origin: &str| v2::Relay {
        hops,
        origin: origin.into(),
        region: 7,
        unknown_fields: vec![],
    };
    match name {
        "join" => Value::Event(v2::Event::Join(v2::Profile {
            id: 1,
            name: "amy".into(),
            class: v2::Class::Mage,
            legacy_score: 9,
            level: 1,
            title: "rookie".into(),
            guild: None,
            unknown_fields: vec![],
        })),
        "leave" => Value::Event(v2::Event::Leave(5)),
        "relay" => Value::Relay(relay(2, "eu-1")),
        "envelope" => Value::Envelope(v2::Envelope {
            seq: 10,
            event: v2::Event::Leave(3),
            relay: relay(1, "us-2"),
            sent_at: 0,
        }),
        other => panic!("no v1 sample {other}"),
    }
}

/// What a v1 reader makes of v2 data: unknown fields of `@preserve_unknown`
/// messages are kept as bytes, others skipped; unknown tags and enum values kept.
fn v2_data_in_v1(name: &str) -> V1 {
    match name {
        "join" => Value::Event(v1::Event::Join(v1::Profile {
            id: 1,
            name: "amy".into(),
            class: v1::Class::Mage,
            legacy_score: 9,
            unknown_fields: bytes_of(&[&5u16, &"champion".to_string(), &Some("red".to_string())]),
        })),
        "leave" => Value::Event(v1::Event::Leave(5)),
        "relay" => Value::Relay(v1::Relay {
            hops: 2,
            origin: "eu-1".into(),
            unknown_fields: bytes_of(&[&9u16]),
        }),
        "envelope" => Value::Envelope(v1::Envelope {
            seq: 10,
            event: v1::Event::Leave(3),
            relay: v1::Relay {
                hops: 1,
                origin: "us-2".into(),
                unknown_fields: bytes_of(&[&9u16]),
            },
        }),
        "emote" => Value::Event(v1::Event::Unknown {
            tag: 4,
            body: v2::Emote { id: 7 }.encode_to_vec().unwrap(),
        }),
        "rogue" => Value::Event(v1::Event::Join(v1::Profile {
            id: 2,
            name: "zed".into(),
            class: v1::Class::Unknown(3),
            legacy_score: 0,
            unknown_fields: bytes_of(&[&3u16, &"sneaky".to_string(), &None::<String>]),
        })),
        "trade" => Value::Event(v1::Event::Unknown {
            tag: 5,
            body: vec![10u32, 20, 30].encode_to_vec().unwrap(),
        }),
        other => panic!("no v2 sample {other}"),
    }
}

/// Samples whose v2 bytes a v1 relay must write back unchanged: union values
/// and `@preserve_unknown` messages. (An Envelope is neither: a v1 relay
/// drops its `sent_at`, which is why relayed data belongs in preserving types.)
const RELAYED_EXACTLY: &[&str] = &["join", "leave", "relay", "emote", "rogue", "trade"];

const CSHARP_V1: &str = r#"using System.Collections.Generic;
using Evo.Protocol;

static class Samples
{
    public static IEnumerable<KeyValuePair<string, byte[]>> All()
    {
        yield return P("envelope", new Envelope { Seq = 10, Event = new Event.Leave(3), Relay = new Relay { Hops = 1, Origin = "us-2" } }.ToArray());
        yield return P("join", new Event.Join(new Profile { Id = 1, Name = "amy", Class = Class.Mage, LegacyScore = 9 }).ToArray());
        yield return P("leave", new Event.Leave(5).ToArray());
        yield return P("relay", new Relay { Hops = 2, Origin = "eu-1" }.ToArray());
    }

    static KeyValuePair<string, byte[]> P(string n, byte[] b) { return new KeyValuePair<string, byte[]>(n, b); }
}
"#;

const CSHARP_V2: &str = r#"using System.Collections.Generic;
using Evo.Protocol;

static class Samples
{
#pragma warning disable 612, 618
    public static IEnumerable<KeyValuePair<string, byte[]>> All()
    {
        yield return P("emote", new Event.Emote(new Emote { Id = 7 }).ToArray());
        yield return P("envelope", new Envelope { Seq = 10, Event = new Event.Leave(3), Relay = new Relay { Hops = 1, Origin = "us-2", Region = 9 }, SentAt = 99 }.ToArray());
        yield return P("join", new Event.Join(new Profile { Id = 1, Name = "amy", Class = Class.Mage, LegacyScore = 9, Level = 5, Title = "champion", Guild = "red" }).ToArray());
        yield return P("leave", new Event.Leave(5).ToArray());
        yield return P("relay", new Relay { Hops = 2, Origin = "eu-1", Region = 9 }.ToArray());
        yield return P("rogue", new Event.Join(new Profile { Id = 2, Name = "zed", Class = Class.Rogue, Level = 3, Title = "sneaky" }).ToArray());
        var trade = new Event.Trade();
        trade.Value.Add(10); trade.Value.Add(20); trade.Value.Add(30);
        yield return P("trade", trade.ToArray());
    }
#pragma warning restore 612, 618

    static KeyValuePair<string, byte[]> P(string n, byte[] b) { return new KeyValuePair<string, byte[]>(n, b); }
}
"#;

/// Writes its samples, or decodes and re-encodes every `type<TAB>hex` line.
const CSHARP_MAIN: &str = r#"using System;
using System.IO;
using System.Text;
using Evo.Protocol;

static class Agent
{
    static string Hex(byte[] b) { var s = new StringBuilder(); foreach (var x in b) s.Append(x.ToString("x2")); return s.ToString(); }
    static byte[] Unhex(string s) { var b = new byte[s.Length / 2]; for (int i = 0; i < b.Length; i++) b[i] = Convert.ToByte(s.Substring(2 * i, 2), 16); return b; }

    static byte[] RoundTrip(string type, byte[] b)
    {
        switch (type)
        {
            case "Event": return Event.Decode(b).ToArray();
            case "Relay": return Relay.Decode(b).ToArray();
            case "Envelope": return Envelope.Decode(b).ToArray();
            default: throw new Exception("no type " + type);
        }
    }

    static int Main(string[] args)
    {
        using (var output = new StreamWriter(args[1]))
        {
            if (args[0] == "samples")
            {
                foreach (var s in Samples.All()) output.WriteLine(s.Key + "\t" + Hex(s.Value));
            }
            else
            {
                foreach (var line in File.ReadAllLines(args[2]))
                {
                    var parts = line.Split('\t');
                    output.WriteLine(Hex(RoundTrip(parts[0], Unhex(parts[1]))));
                }
            }
        }
        return 0;
    }
}
"#;

struct Agent {
    exe: PathBuf,
    dir: PathBuf,
}

impl Agent {
    fn build(version: &str, samples: &str) -> Agent {
        let schema = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join(format!("../schemas/evolution/{version}/protocol.pkt"));
        let ir = pktc::check(&[schema]).unwrap_or_else(|f| panic!("{f}")).ir;
        let dir = mono::work_dir(&format!("evolution-{version}"));
        let exe = mono::build(
            &dir,
            &ir,
            &[
                ("Samples.cs", samples.to_string()),
                ("Agent.cs", CSHARP_MAIN.to_string()),
            ],
            &format!("agent-{version}"),
        );
        Agent { exe, dir }
    }

    fn samples(&self) -> BTreeMap<String, Vec<u8>> {
        let out = self.dir.join("samples.txt");
        mono::run(&self.exe, &[std::path::Path::new("samples"), &out]);
        std::fs::read_to_string(out)
            .expect("samples")
            .lines()
            .map(|l| {
                let (n, h) = l.split_once('\t').expect("name<TAB>hex");
                (n.to_string(), unhex(h))
            })
            .collect()
    }

    fn reencode(&self, inputs: &[(&str, Vec<u8>)]) -> Vec<Vec<u8>> {
        let input = self.dir.join("in.txt");
        let out = self.dir.join("out.txt");
        let text: String = inputs
            .iter()
            .map(|(t, b)| format!("{t}\t{}\n", hex(b)))
            .collect();
        std::fs::write(&input, text).expect("write input");
        mono::run(&self.exe, &[std::path::Path::new("reencode"), &out, &input]);
        let lines: Vec<Vec<u8>> = std::fs::read_to_string(out)
            .expect("output")
            .lines()
            .map(unhex)
            .collect();
        assert_eq!(lines.len(), inputs.len(), "C# answered every input");
        lines
    }
}

const TYPESCRIPT_V1: &str = r#"import { Class, Envelope, Event, Profile, Relay } from "./protocol.js";

export function samples(): [string, Uint8Array][] {
    const leave: Event = { kind: "Leave", value: 3 };
    return [
        ["envelope", Envelope.encode({ seq: 10, event: leave, relay: { hops: 1, origin: "us-2", $unknownFields: new Uint8Array(0) } })],
        ["join", Event.encode({ kind: "Join", value: { id: 1, name: "amy", class: Class.Mage, legacyScore: 9, $unknownFields: new Uint8Array(0) } })],
        ["leave", Event.encode({ kind: "Leave", value: 5 })],
        ["relay", Relay.encode({ hops: 2, origin: "eu-1", $unknownFields: new Uint8Array(0) })],
    ];
}

export const types = { Event, Relay, Envelope, Profile };
"#;

const TYPESCRIPT_V2: &str = r#"import { Class, Envelope, Event, Profile, Relay } from "./protocol.js";

export function samples(): [string, Uint8Array][] {
    const profile = (id: number, name: string, cls: Class, level: number, title: string): Profile => ({
        ...Profile.create(), id, name, class: cls, level, title,
    });
    return [
        ["emote", Event.encode({ kind: "Emote", value: { id: 7 } })],
        ["envelope", Envelope.encode({ seq: 10, event: { kind: "Leave", value: 3 }, relay: { hops: 1, origin: "us-2", region: 9, $unknownFields: new Uint8Array(0) }, sentAt: 99n })],
        ["join", Event.encode({ kind: "Join", value: { ...profile(1, "amy", Class.Mage, 5, "champion"), legacyScore: 9, guild: "red" } })],
        ["leave", Event.encode({ kind: "Leave", value: 5 })],
        ["relay", Relay.encode({ hops: 2, origin: "eu-1", region: 9, $unknownFields: new Uint8Array(0) })],
        ["rogue", Event.encode({ kind: "Join", value: profile(2, "zed", Class.Rogue, 3, "sneaky") })],
        ["trade", Event.encode({ kind: "Trade", value: [10, 20, 30] })],
    ];
}

export const types = { Event, Relay, Envelope, Profile };
"#;

/// Writes its samples, or decodes and re-encodes every `type<TAB>hex` line.
const TYPESCRIPT_MAIN: &str = r#"import { readFileSync, writeFileSync } from "node:fs";
import { samples, types } from "./samples.js";

const hex = (b) => Buffer.from(b).toString("hex");
const [mode, output, input] = process.argv.slice(2);
const out = [];
if (mode === "samples") {
  for (const [name, bytes] of samples()) out.push(name + "\t" + hex(bytes));
} else {
  for (const line of readFileSync(input, "utf8").split("\n")) {
    if (!line) continue;
    const [type, text] = line.split("\t");
    const codec = types[type];
    out.push(hex(codec.encode(codec.decode(new Uint8Array(Buffer.from(text, "hex"))))));
  }
}
writeFileSync(output, out.join("\n") + "\n");
"#;

/// The TypeScript agent of one version: its generated modules and samples
/// compiled by `tsc --strict`, run by node.
struct TsAgent {
    dir: PathBuf,
}

impl TsAgent {
    fn build(version: &str, samples: &str) -> TsAgent {
        let schema = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join(format!("../schemas/evolution/{version}/protocol.pkt"));
        let ir = pktc::check(&[schema]).unwrap_or_else(|f| panic!("{f}")).ir;
        let dir = mono::work_dir(&format!("evolution-ts-{version}"));
        let src = dir.join("src");
        std::fs::create_dir_all(&src).expect("mkdir");
        for f in pktc::emit::generate(&ir, &pktc::emit::GenOptions::new(pktc::Lang::TypeScript)) {
            std::fs::write(src.join(&f.path), f.contents).expect("write generated TypeScript");
        }
        std::fs::write(src.join("samples.ts"), samples).expect("write samples.ts");
        std::fs::write(
            dir.join("tsconfig.json"),
            r#"{ "compilerOptions": { "strict": true, "noUnusedLocals": true, "noUnusedParameters": true,
  "target": "ES2020", "module": "ES2020", "moduleResolution": "bundler", "lib": ["ES2020"],
  "rootDir": "src", "outDir": "js" }, "include": ["src/*.ts"] }
"#,
        )
        .expect("write tsconfig.json");
        node::compile(&dir, &["-p", "tsconfig.json"]);
        std::fs::write(dir.join("js/package.json"), "{ \"type\": \"module\" }\n").expect("write");
        std::fs::write(dir.join("js/agent.mjs"), TYPESCRIPT_MAIN).expect("write agent.mjs");
        TsAgent { dir }
    }

    fn run(&self, args: &[&std::path::Path]) {
        let mut all = vec!["agent.mjs"];
        all.extend(args.iter().map(|p| p.to_str().expect("UTF-8 path")));
        node::run(&self.dir.join("js"), &all);
    }

    fn samples(&self) -> BTreeMap<String, Vec<u8>> {
        let out = self.dir.join("samples.txt");
        self.run(&[std::path::Path::new("samples"), &out]);
        std::fs::read_to_string(out)
            .expect("samples")
            .lines()
            .map(|l| {
                let (n, h) = l.split_once('\t').expect("name<TAB>hex");
                (n.to_string(), unhex(h))
            })
            .collect()
    }

    fn reencode(&self, inputs: &[(&str, Vec<u8>)]) -> Vec<Vec<u8>> {
        let input = self.dir.join("in.txt");
        let out = self.dir.join("out.txt");
        let text: String = inputs
            .iter()
            .map(|(t, b)| format!("{t}\t{}\n", hex(b)))
            .collect();
        std::fs::write(&input, text).expect("write input");
        self.run(&[std::path::Path::new("reencode"), &out, &input]);
        let lines: Vec<Vec<u8>> = std::fs::read_to_string(out)
            .expect("output")
            .lines()
            .map(unhex)
            .collect();
        assert_eq!(lines.len(), inputs.len(), "TypeScript answered every input");
        lines
    }
}

/// One written value: who wrote it and its bytes.
struct Written {
    version: Version,
    lang: Lang,
    name: &'static str,
    type_name: &'static str,
    bytes: Vec<u8>,
}

#[test]
fn every_writer_reader_pairing_agrees() {
    if !mono::tools_or_skip("every_writer_reader_pairing_agrees")
        || !node::tools_or_skip("every_writer_reader_pairing_agrees")
    {
        return;
    }
    let (s1, s2) = (samples_v1(), samples_v2());
    let agents = [Agent::build("v1", CSHARP_V1), Agent::build("v2", CSHARP_V2)];
    let ts_agents = [
        TsAgent::build("v1", TYPESCRIPT_V1),
        TsAgent::build("v2", TYPESCRIPT_V2),
    ];

    let mut written = Vec::new();
    for (version, samples) in [
        (
            Version::V1,
            s1.iter()
                .map(|(n, v)| (*n, v.type_name(), v.encode()))
                .collect::<Vec<_>>(),
        ),
        (
            Version::V2,
            s2.iter()
                .map(|(n, v)| (*n, v.type_name(), v.encode()))
                .collect(),
        ),
    ] {
        let csharp = agents[version as usize].samples();
        assert_eq!(
            csharp.len(),
            samples.len(),
            "{version:?}: C# writes every sample"
        );
        let typescript = ts_agents[version as usize].samples();
        assert_eq!(
            typescript.len(),
            samples.len(),
            "{version:?}: TypeScript writes every sample"
        );
        for (name, type_name, bytes) in samples {
            let cs = &csharp[name];
            assert_eq!(
                hex(cs),
                hex(&bytes),
                "{version:?} {name}: C# and Rust writers differ"
            );
            let ts = &typescript[name];
            assert_eq!(
                hex(ts),
                hex(&bytes),
                "{version:?} {name}: TypeScript and Rust writers differ"
            );
            for (lang, b) in [
                (Lang::Rust, bytes.clone()),
                (Lang::CSharp, cs.clone()),
                (Lang::TypeScript, ts.clone()),
            ] {
                written.push(Written {
                    version,
                    lang,
                    name,
                    type_name,
                    bytes: b,
                });
            }
        }
    }

    let inputs: Vec<(&str, Vec<u8>)> = written
        .iter()
        .map(|w| (w.type_name, w.bytes.clone()))
        .collect();
    let csharp_read = [agents[0].reencode(&inputs), agents[1].reencode(&inputs)];
    let typescript_read = [
        ts_agents[0].reencode(&inputs),
        ts_agents[1].reencode(&inputs),
    ];

    let mut cells = 0;
    for (i, w) in written.iter().enumerate() {
        for reader in [Version::V1, Version::V2] {
            // The Rust reader: decode, compare with the rules' prediction, re-encode.
            let rust_again = match reader {
                Version::V1 => {
                    let got = V1::decode(w.type_name, &w.bytes);
                    let want = match w.version {
                        Version::V1 => V1::decode(w.type_name, &s1[w.name].encode()),
                        Version::V2 => v2_data_in_v1(w.name),
                    };
                    assert_eq!(
                        got, want,
                        "{} written by {:?} {:?}, read by Rust v1",
                        w.name, w.lang, w.version
                    );
                    got.encode()
                }
                Version::V2 => {
                    let got = V2::decode(w.type_name, &w.bytes);
                    let want = match w.version {
                        Version::V2 => V2::decode(w.type_name, &s2[w.name].encode()),
                        Version::V1 => v1_data_in_v2(w.name),
                    };
                    assert_eq!(
                        got, want,
                        "{} written by {:?} {:?}, read by Rust v2",
                        w.name, w.lang, w.version
                    );
                    got.encode()
                }
            };
            // The C# reader of the same version must have decoded the same values.
            let csharp_again = &csharp_read[reader as usize][i];
            assert_eq!(
                hex(csharp_again),
                hex(&rust_again),
                "{} written by {:?} {:?}: C# {reader:?} and Rust {reader:?} readers disagree",
                w.name,
                w.lang,
                w.version
            );
            // And the TypeScript reader.
            let typescript_again = &typescript_read[reader as usize][i];
            assert_eq!(
                hex(typescript_again),
                hex(&rust_again),
                "{} written by {:?} {:?}: TypeScript {reader:?} and Rust {reader:?} readers disagree",
                w.name,
                w.lang,
                w.version
            );
            cells += 3;
            if w.version == Version::V2
                && reader == Version::V1
                && RELAYED_EXACTLY.contains(&w.name)
            {
                assert_eq!(
                    hex(&rust_again),
                    hex(&w.bytes),
                    "{}: a Rust v1 relay changed the bytes",
                    w.name
                );
                assert_eq!(
                    hex(csharp_again),
                    hex(&w.bytes),
                    "{}: a C# v1 relay changed the bytes",
                    w.name
                );
                assert_eq!(
                    hex(typescript_again),
                    hex(&w.bytes),
                    "{}: a TypeScript v1 relay changed the bytes",
                    w.name
                );
            }
        }
    }
    // v1 samples: 4 × (3 writer languages × 2 readers × 3 reader languages);
    // v2 samples: 7 × the same.
    assert_eq!(cells, (4 + 7) * 18);
    println!("evolution matrix: {cells} cells agree");
}

#[test]
fn v1_to_v2_is_not_breaking() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let report = pktc::tools::compat::compare(
        &[root.join("schemas/evolution/v1/protocol.pkt")],
        &pktc::load::FsReader,
        &[root.join("schemas/evolution/v2/protocol.pkt")],
        &pktc::load::FsReader,
    )
    .unwrap_or_else(|f| panic!("{f}"));
    assert!(!report.is_breaking(), "{}", report.render());
    assert!(report.changes.len() >= 8, "{}", report.render());
}
