// The TypeScript benchmark: pktc's generated TypeScript against protobufjs,
// bebop's TypeScript output, msgpackr and JSON, on the data sets of the Rust
// benchmarks. `cargo run -p pkt-bench --release --bin typescript` writes the
// data sets (pktc encodings made by the Rust code), generates and compiles
// everything and runs this file:
//
//   node dist/harness.js DATA_DIR RESULTS.tsv SECTION.md [--quick]
//
// Every codec encodes and decodes the same values: the pktc TypeScript
// decodes the Rust encoding of each data set (and must encode it back to the
// same bytes), and the peers take those values converted to their own types.
// Each codec's output is decoded and encoded again before it is timed, and
// must give the same bytes (or text). Times are medians of samples taken in
// rounds, codec after codec, in one run, so that ratios compare like with like.

import * as fs from "node:fs";
import * as os from "node:os";
import { createRequire } from "node:module";

import { Int3Packet, Packet, TransformPacket } from "./pktc/seed_packets.js";
import { ChatPacket, Inventory } from "./pktc/chat.js";
import { WorldSnapshot } from "./pktc/world.js";
import { Mesh } from "./pktc/mesh.js";
import { ServerPacket } from "./pktc/game.js";
import { LogFile } from "./pktc/logs.js";
import { SaveFile } from "./pktc/minecraft.js";
import { TickBatch } from "./pktc/mk48.js";
import * as bop from "./bebop.js";

const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const protobuf: any = require("protobufjs");
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const msgpackr: any = require("msgpackr");

const [dataDir, resultsPath, sectionPath] = process.argv.slice(2);
const quick = process.argv.includes("--quick");
if (!dataDir || !resultsPath || !sectionPath) {
  console.error("usage: node harness.js DATA_DIR RESULTS.tsv SECTION.md [--quick]");
  process.exit(2);
}

/** One way to turn a data set's value into bytes (or text) and back. */
interface Codec {
  name: string;
  /** Encodes the whole data set once (every frame of a stream). */
  encode(): unknown;
  /** Decodes the whole data set once from what `encode` returned. */
  decode(): unknown;
  /** Encoded size of the whole data set. */
  bytes: number;
  /** Whether `decode` is another row's (then it is not timed again). */
  sameDecode?: boolean;
}

interface DataSet {
  name: string;
  /** Public-benchmark shape (docs/benchmarks.md), else a game data set. */
  publicShape: boolean;
  codecs: Codec[];
}

// ---------------------------------------------------------------- values

const read = (name: string): Uint8Array => new Uint8Array(fs.readFileSync(`${dataDir}/${name}.bin`));

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`verification failed: ${what}`);
}

/** The frames of a stream of union frames, each as its own bytes. */
function splitFrames(bytes: Uint8Array): Uint8Array[] {
  const frames: Uint8Array[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 0; at < bytes.length; ) {
    const n = 4 + view.getUint32(at, true);
    frames.push(bytes.slice(at, at + n));
    at += n;
  }
  return frames;
}

// Union variants of the stream by pktc kind: the name of the protobuf oneof
// member and the bebop discriminator (bench/peers/bebop/bench.bop).
const PROTO_VARIANT: Record<string, string> = {
  Pong: "pong",
  Spawn: "spawn",
  EntityMoved: "entityMoved",
  Despawn: "despawn",
  Chat: "chat",
};
const BEBOP_TAG: Record<string, number> = { Pong: 1, Spawn: 2, EntityMoved: 3, Despawn: 4, Chat: 5 };

type Plain = unknown;

function isUnion(v: object): v is { kind: string; value: unknown } {
  return "kind" in v && "value" in v && typeof (v as { kind: unknown }).kind === "string";
}

/** The value as protobufjs takes it: 64-bit integers as Long, unions as a oneof member. */
function toProto(v: Plain): Plain {
  if (typeof v === "bigint") return protobuf.util.Long.fromString(v.toString(), v >= 0n);
  if (v === null || typeof v !== "object" || v instanceof Uint8Array) return v;
  if (v instanceof Float32Array || v instanceof Float64Array) return Array.from(v);
  if (Array.isArray(v)) return v.map(toProto);
  if (isUnion(v)) {
    const member = PROTO_VARIANT[v.kind];
    if (member === undefined) throw new Error(`no protobuf variant for ${v.kind}`);
    return { [member]: toProto(v.value) };
  }
  const out: Record<string, Plain> = {};
  for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = toProto(x);
  return out;
}

/** The value as bebop's TypeScript takes it (bench.bop): unions by tag, an optional struct as a flag and a value. */
function toBebop(v: Plain): Plain {
  if (v === null || typeof v !== "object" || v instanceof Uint8Array) return v;
  if (Array.isArray(v)) return v.map(toBebop);
  if (isUnion(v)) {
    const tag = BEBOP_TAG[v.kind];
    if (tag === undefined) throw new Error(`no bebop variant for ${v.kind}`);
    return { tag, value: toBebop(v.value) };
  }
  const out: Record<string, Plain> = {};
  for (const [k, x] of Object.entries(v)) out[k] = toBebop(x);
  if ("equipment" in out) {
    out.hasEquipment = out.equipment !== undefined;
    out.equipment ??= { head: 0, chest: 0, mainHand: 0, offHand: 0, cosmetics: [] };
  }
  return out;
}

/** The value as JSON holds it: 64-bit integers as numbers, bytes and float arrays as arrays of numbers, absent optionals left out. */
function toJson(v: Plain): Plain {
  if (typeof v === "bigint") return Number(v);
  if (v instanceof Uint8Array || v instanceof Float32Array || v instanceof Float64Array) return Array.from(v);
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map(toJson);
  const out: Record<string, Plain> = {};
  for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = toJson(x);
  return out;
}

// ---------------------------------------------------------------- codecs

interface Pktc<T> {
  encode(value: T): Uint8Array;
  encodeInto(value: T, buffer: Uint8Array, offset: number): number;
  decode(bytes: Uint8Array): T;
}

/** pktc and the peers for one value (or, with `frames`, each frame of a stream). */
function codecs<T>(
  name: string,
  pktc: Pktc<T>,
  wire: Uint8Array,
  frames: boolean,
  protoType: string,
  bebop: { encode(v: never): Uint8Array; decode(b: Uint8Array): unknown } | null,
): Codec[] {
  const wires = frames ? splitFrames(wire) : [wire];
  const values = wires.map((w) => pktc.decode(w));
  const out: Codec[] = [];
  const total = (parts: Array<{ length: number }>): number => parts.reduce((n, p) => n + p.length, 0);

  // Every codec: encode all values into a list of outputs, decode all outputs.
  const add = <V, E extends { length: number }>(
    codec: string,
    vs: V[],
    enc: (v: V) => E,
    dec: (e: E) => unknown,
    same: (a: E, b: E) => boolean,
    sameDecode = false,
  ): void => {
    // Copies: bebop's encode returns a view of one buffer that it reuses.
    const keep = (e: E): E => (e instanceof Uint8Array ? (e.slice() as unknown as E) : e);
    const encoded = vs.map((v) => keep(enc(v)));
    encoded.forEach((e, i) => check(same(enc(dec(e) as V), e), `${name}: ${codec} round trip of value ${i}`));
    out.push({
      name: codec,
      encode: () => {
        let last: E | undefined;
        for (let i = 0; i < vs.length; i++) last = enc(vs[i] as V);
        return last;
      },
      decode: () => {
        let last: unknown;
        for (let i = 0; i < encoded.length; i++) last = dec(encoded[i] as E);
        return last;
      },
      bytes: total(encoded),
      sameDecode,
    });
  };

  // pktc must write what the Rust code wrote.
  values.forEach((v, i) => check(sameBytes(pktc.encode(v), wires[i] as Uint8Array), `${name}: pktc bytes of value ${i}`));
  add("pktc", values, (v) => pktc.encode(v), (b) => pktc.decode(b), sameBytes);
  // Into one buffer reused for every call, as bebop encodes.
  const into = new Uint8Array(Math.max(...wires.map((w) => w.length)));
  add(
    "pktc encodeInto",
    values,
    (v) => into.subarray(0, pktc.encodeInto(v, into, 0)),
    (b) => pktc.decode(b),
    sameBytes,
    true,
  );

  const P = protoRoot.lookupType(`bench.${protoType}`);
  add(
    "protobufjs",
    values.map(toProto),
    (v) => P.encode(v).finish() as Uint8Array,
    (b) => P.decode(b),
    sameBytes,
  );
  if (bebop !== null) {
    add(
      "bebop",
      values.map(toBebop),
      (v) => bebop.encode(v as never),
      (b) => bebop.decode(b),
      sameBytes,
    );
  }
  const packr = new msgpackr.Packr({ useRecords: false, int64AsType: "bigint" });
  add("msgpackr", values, (v) => packr.pack(v) as Uint8Array, (b) => packr.unpack(b), sameBytes);
  const records = new msgpackr.Packr({ useRecords: true, int64AsType: "bigint" });
  add("msgpackr (records)", values, (v) => records.pack(v) as Uint8Array, (b) => records.unpack(b), sameBytes);
  add(
    "JSON",
    values.map(toJson),
    (v) => JSON.stringify(v),
    (s) => JSON.parse(s),
    (a, b) => a === b,
  );
  return out;
}

const protoRoot = protobuf.parse(fs.readFileSync(new URL("../bench.proto", import.meta.url), "utf8")).root;

/** The data sets in the order of the Rust tables, each built only when measured (so that one at a time is in memory). */
function dataSets(): Array<{ name: string; publicShape: boolean; build: () => Codec[] }> {
  const b = bop as unknown as Record<string, { encode(v: never): Uint8Array; decode(b: Uint8Array): unknown }>;
  const bebopOf = (t: string): { encode(v: never): Uint8Array; decode(b: Uint8Array): unknown } => {
    const c = b[t];
    if (c === undefined) throw new Error(`no bebop type ${t}`);
    return c;
  };
  const set = <T>(name: string, publicShape: boolean, pktc: Pktc<T>, frames: boolean, proto: string, bebop: string | null) => ({
    name,
    publicShape,
    build: () => codecs(name, pktc, read(name), frames, proto, bebop === null ? null : bebopOf(bebop)),
  });
  return [
    set("Packet", false, Packet, false, "Packet", "Packet"),
    set("Int3Packet", false, Int3Packet, false, "Int3Packet", "Int3Packet"),
    set("TransformPacket", false, TransformPacket, false, "TransformPacket", "TransformPacket"),
    set("ChatPacket", false, ChatPacket, false, "ChatPacket", "ChatPacket"),
    set("Inventory", false, Inventory, false, "Inventory", "Inventory"),
    set("WorldSnapshot", false, WorldSnapshot, false, "WorldSnapshot", "WorldSnapshot"),
    set("Mesh", true, Mesh, false, "Mesh", "Mesh"),
    set("ServerPacket stream", false, ServerPacket, true, "ServerPacket", "ServerPacket"),
    set("Logs", true, LogFile, false, "LogFile", null),
    set("Minecraft players", true, SaveFile, false, "SaveFile", null),
    set("mk48 updates", true, TickBatch, false, "TickBatch", null),
  ];
}

// ---------------------------------------------------------------- timing

const SAMPLES = quick ? 3 : 21;
/** Smallest sample, so that the clock's resolution and call overhead do not matter. */
const SAMPLE_NS = quick ? 0 : 5_000_000;

let sink: unknown;

/** Calls per sample so that one sample takes about SAMPLE_NS. */
function calibrate(f: () => unknown): number {
  let calls = 1;
  for (;;) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) sink = f();
    const ns = Number(process.hrtime.bigint() - t0);
    if (ns >= SAMPLE_NS || calls >= 1 << 24) return calls;
    calls = ns <= 0 ? calls * 16 : Math.min(calls * 16, Math.ceil((calls * SAMPLE_NS * 1.2) / ns));
  }
}

function sample(f: () => unknown, calls: number): number {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) sink = f();
  return Number(process.hrtime.bigint() - t0) / calls;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

interface Result {
  dataSet: string;
  publicShape: boolean;
  codec: string;
  bytes: number;
  encode: number;
  decode: number;
}

function measure(ds: DataSet): Result[] {
  const ops = ds.codecs.flatMap((c) => [
    { c, op: "encode" as const, f: c.encode },
    ...(c.sameDecode ? [] : [{ c, op: "decode" as const, f: c.decode }]),
  ]);
  // Warm-up (the JIT's tiers) and calls per sample, then rounds of one
  // sample of each operation in turn, so that a change in the machine's load
  // falls on every codec alike. Garbage is not collected between samples
  // (`--expose-gc` and `gc()`): forced collections slowed the peers' small
  // calls 3 to 7 times (protobufjs's Int3Packet encode from 0.57 to 1.9 µs),
  // apparently by discarding their compiled code or feedback.
  for (const o of ops) calibrate(o.f);
  const calls = ops.map((o) => calibrate(o.f));
  const times: number[][] = ops.map(() => []);
  for (let s = 0; s < SAMPLES; s++) {
    ops.forEach((o, i) => (times[i] as number[]).push(sample(o.f, calls[i] as number)));
  }
  return ds.codecs.map((c) => {
    const at = (op: "encode" | "decode"): number => {
      const i = ops.findIndex((o) => o.c === c && o.op === op);
      return i < 0 ? NaN : median(times[i] as number[]);
    };
    return { dataSet: ds.name, publicShape: ds.publicShape, codec: c.name, bytes: c.bytes, encode: at("encode"), decode: at("decode") };
  });
}

// ---------------------------------------------------------------- report

function time(ns: number): string {
  if (ns < 1_000) return `${ns.toFixed(0)} ns`;
  if (ns < 1_000_000) return `${(ns / 1_000).toFixed(ns < 10_000 ? 2 : 1)} µs`;
  return `${(ns / 1_000_000).toFixed(ns < 10_000_000 ? 2 : 1)} ms`;
}

function ratio(x: number): string {
  return `${x.toFixed(2)}x`;
}

function report(results: Result[]): string {
  const o: string[] = [];
  const sets = [...new Set(results.map((r) => r.dataSet))];
  const peers = ["protobufjs", "bebop", "msgpackr", "msgpackr (records)"];
  const targets: string[] = [];
  for (const ds of sets) {
    const rows = results.filter((r) => r.dataSet === ds);
    const p = rows.find((r) => r.codec === "pktc") as Result;
    // bebop encodes into one reused buffer: against pktc encodeInto, which does the same.
    const into = rows.find((r) => r.codec === "pktc encodeInto") as Result;
    const ours = (peer: string, op: "encode" | "decode"): number => (peer === "bebop" && op === "encode" ? into : p)[op];
    for (const op of ["encode", "decode"] as const) {
      const slower = rows.filter((r) => peers.includes(r.codec) && r[op] < ours(r.codec, op));
      if (slower.length === 0) {
        targets.push(`- **met**: ${ds}: pktc ${op}s faster than ${rows.filter((r) => peers.includes(r.codec)).map((r) => r.codec).join(", ")}`);
      } else {
        targets.push(
          `- **missed**: ${ds}: pktc ${op} is slower than ${slower.map((r) => `${r.codec} (${ratio(r[op] / ours(r.codec, op))})`).join(", ")}`,
        );
      }
    }
    const json = rows.find((r) => r.codec === "JSON") as Result;
    const both = (json.encode + json.decode) / (p.encode + p.decode);
    const each = `encode ${ratio(json.encode / p.encode)}, decode ${ratio(json.decode / p.decode)}`;
    targets.push(`- **${both >= 3 ? "met" : "missed"}**: ${ds}: pktc encode + decode is ${ratio(both)} as fast as JSON.stringify + JSON.parse (target ≥ 3x; ${each})`);
  }

  o.push("<!-- typescript:begin (generated by `--bin typescript`) -->");
  o.push("");
  o.push("## TypeScript (Node.js)");
  o.push("");
  o.push(
    "pktc's generated TypeScript (`pktc gen --lang typescript`, with the runtime copied beside it) against " +
      "protobufjs, bebop's TypeScript output, msgpackr and `JSON.stringify`/`JSON.parse` under Node.js, on the " +
      "data sets above, side by side in one run of `cargo run -p pkt-bench --release --bin typescript` " +
      "(`bench/typescript/`, about five minutes).",
  );
  o.push("");
  o.push("- Every codec takes the same values: the generated code decodes the Rust encoding of each data set " +
    "(and must encode it back to the same bytes), and the peers take those values converted to their own " +
    "types once, outside the timed loop: protobufjs from `bench/typescript/bench.proto` (the pktc types field " +
    "for field, 64-bit integers as `Long`), bebop from `bench/peers/bebop/bench.bop` (game data sets only, as in " +
    "the Rust tables), msgpackr and JSON the plain values (JSON with 64-bit integers as numbers and bytes as " +
    "arrays of numbers). Each codec's output is decoded and encoded again, and must give the same bytes (JSON: the same text), before it is timed.");
  o.push("- **encode** makes a new `Uint8Array` per value (pktc `encode`, protobufjs `encode().finish()`, bebop " +
    "`encode`, msgpackr `pack`; JSON a string), except bebop's `encode`, which returns a view of one buffer " +
    "it reuses (valid until its next call), and the row `pktc encodeInto`, which writes into one reused buffer " +
    "the same way (its decode is pktc's); **decode** builds the whole value (protobufjs messages with `Long`s, " +
    "bebop's frozen records, msgpackr and JSON plain objects). The ServerPacket stream encodes and decodes its " +
    "10,000 frames one by one. msgpackr runs twice: standard MessagePack maps (`useRecords: false`), and its " +
    "record extension, which only msgpackr reads.");
  o.push(`- Times are medians of ${SAMPLES} samples per codec and operation, taken in rounds of one sample of each in turn; ` +
    "\"vs pktc\" divides by pktc's time in the same run (above 1.00x pktc is faster). The machine's 2 cores are " +
    "shared with other builds (load average during this run: LOAD), so differences under about 20% are noise, " +
    "and more under load; the garbage each codec leaves is collected when V8 decides, inside whichever samples it falls.");
  o.push("");
  o.push("### Machine");
  o.push("");
  o.push(`- Node.js ${process.version} (V8 ${process.versions.v8}), ${os.cpus()[0]?.model ?? "unknown CPU"}, ${os.cpus().length} cores`);
  o.push(`- protobufjs ${version("protobufjs")}, bebop ${version("bebop")}, msgpackr ${version("msgpackr")}, TypeScript ${version("typescript")}`);
  o.push(`- Date: ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`);
  o.push("");
  o.push("### Targets");
  o.push("");
  o.push("pktc ahead of protobufjs, bebop and msgpackr on every data set (bebop's encode, which reuses one buffer, " +
    "against pktc encodeInto, which does too), and at least 3x as fast as JSON:");
  o.push("");
  o.push(...targets);
  o.push("");
  o.push(fs.readFileSync(new URL("../notes.md", import.meta.url), "utf8").trim());
  o.push("");
  o.push("### Results");
  o.push("");
  for (const ds of sets) {
    const rows = results.filter((r) => r.dataSet === ds);
    const p = rows.find((r) => r.codec === "pktc") as Result;
    o.push(`#### ${ds}${rows[0]?.publicShape ? " (public-benchmark shape)" : ""}`);
    o.push("");
    o.push("| codec | encode | vs pktc | decode | vs pktc | bytes |");
    o.push("| --- | ---: | ---: | ---: | ---: | ---: |");
    for (const r of rows) {
      const decode = Number.isNaN(r.decode) ? "(pktc's)" : time(r.decode);
      const decodeRatio = Number.isNaN(r.decode) ? "–" : ratio(r.decode / p.decode);
      o.push(`| ${r.codec} | ${time(r.encode)} | ${ratio(r.encode / p.encode)} | ${decode} | ${decodeRatio} | ${r.bytes.toLocaleString("en-US")} |`);
    }
    o.push("");
  }
  o.push("<!-- typescript:end -->");
  return o.join("\n") + "\n";
}

function version(pkg: string): string {
  try {
    const path = new URL(`../node_modules/${pkg}/package.json`, import.meta.url);
    return (JSON.parse(fs.readFileSync(path, "utf8")) as { version: string }).version;
  } catch {
    return "?";
  }
}

const loadBefore = os.loadavg()[0] ?? 0;
const all: Result[] = [];
const tsv: string[] = ["data set\tcodec\tbytes\tencode ns\tdecode ns"];
const only = process.argv.find((a) => a.startsWith("--only="))?.slice("--only=".length);
for (const d of dataSets()) {
  if (only !== undefined && !d.name.includes(only)) continue;
  const ds: DataSet = { name: d.name, publicShape: d.publicShape, codecs: d.build() };
  for (const r of measure(ds)) {
    all.push(r);
    tsv.push(`${r.dataSet}\t${r.codec}\t${r.bytes}\t${r.encode.toFixed(1)}\t${r.decode.toFixed(1)}`);
    console.log(`${r.dataSet.padEnd(20)} ${r.codec.padEnd(20)} encode ${time(r.encode).padStart(10)}  decode ${(Number.isNaN(r.decode) ? "-" : time(r.decode)).padStart(10)}  ${r.bytes} bytes`);
  }
}
void sink;
fs.writeFileSync(resultsPath, tsv.join("\n") + "\n");
const load = `${loadBefore.toFixed(1)} at the start, ${(os.loadavg()[0] ?? 0).toFixed(1)} at the end`;
fs.writeFileSync(sectionPath, report(all).replace("LOAD", load));
