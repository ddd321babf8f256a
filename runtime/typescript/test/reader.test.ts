import { test } from "node:test";
import assert from "node:assert/strict";
import {
  PktError,
  PktFrameReader,
  PktLimits,
  PktReader,
  PktWriter,
  completeFrameLength,
  mapMemory,
  utf8ValidUpTo,
  type PktDecodeKind,
} from "../src/index.js";

function hex(s: string): Uint8Array {
  const clean = s.replace(/\s+/g, "");
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function toHex(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join(" ");
}

/** Runs `fn`, which must throw a decode PktError of `kind` at `offset`. */
function fails(fn: () => unknown, kind: PktDecodeKind, offset: number): PktError {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  assert(caught instanceof PktError, `expected a PktError ${kind}, got ${String(caught)}`);
  assert.equal(caught.kind, kind, caught.message);
  assert.equal(caught.offset, offset, caught.message);
  assert.equal(caught.decoding, true);
  return caught;
}

// Hand-written decoders in the shape generated code takes, for the examples
// of docs/wire-format.md.

interface Small {
  id: number;
  name: string;
}

function readSmall(r: PktReader): Small {
  const outer = r.enterFrame();
  const v: Small = { id: 0, name: "" };
  if (r.hasMore()) {
    v.id = r.readU32();
    if (r.hasMore()) v.name = r.readString("Small.name");
  }
  r.leaveMessage(outer);
  return v;
}

function writeSmall(w: PktWriter, v: Small): void {
  w.enter("Small");
  const start = w.beginLength();
  w.writeU32(v.id);
  w.writeString(v.name, 0xffffffff, "Small.name");
  w.endLength(start);
  w.leave();
}

function decode<T>(read: (r: PktReader) => T, bytes: Uint8Array, limits?: PktLimits): T {
  const r = PktReader.over(bytes, limits);
  const v = read(r);
  r.expectEnd();
  return v;
}

interface Scoreboard {
  round: number;
  scores: Map<string, number>;
  mvp: string | undefined;
}

function readScoreboard(r: PktReader): Scoreboard {
  const outer = r.enterFrame();
  const v: Scoreboard = { round: 0, scores: new Map(), mvp: undefined };
  if (r.hasMore()) v.round = r.readU16();
  if (r.hasMore()) {
    r.peekMax(64, "game.scoreboard.Scoreboard.scores", false);
    const n = r.readMapCount(8, 28, "game.scoreboard.Scoreboard.scores");
    for (let i = 0; i < n; i++) {
      const at = r.pos;
      const k = r.readString("game.scoreboard.Scoreboard.scores");
      if (v.scores.has(k)) throw r.duplicateKey(at);
      v.scores.set(k, r.readI32());
    }
  }
  if (r.hasMore()) v.mvp = r.readOptionFlag() ? r.readString("game.scoreboard.Scoreboard.mvp") : undefined;
  r.leaveMessage(outer);
  return v;
}

type ServerPacket = { tag: 3; reason: number; detail: string; bannedUntil: bigint | undefined } | { tag: "unknown"; rawTag: number; body: Uint8Array };

function readServerPacket(r: PktReader): ServerPacket {
  const outer = r.enterFrame();
  const tag = r.readU16();
  let v: ServerPacket;
  if (tag === 3) {
    const body = r.enterFrame();
    let reason = 0;
    let detail = "";
    let bannedUntil: bigint | undefined;
    if (r.hasMore()) reason = r.readU8();
    if (r.hasMore()) detail = r.readString("Kick.detail");
    if (r.hasMore()) bannedUntil = r.readOptionFlag() ? r.readU64() : undefined;
    r.leaveMessage(body);
    v = { tag: 3, reason, detail, bannedUntil };
    r.leaveVariant(outer, tag);
  } else {
    v = { tag: "unknown", rawTag: tag, body: r.readRest("ServerPacket") };
    r.leaveMessage(outer);
  }
  return v;
}

test("the wire-format examples decode", () => {
  const small = decode(readSmall, hex("0a000000 01000000 02000000 6869"));
  assert.deepEqual(small, { id: 1, name: "hi" });

  const board = decode(
    readScoreboard,
    hex("24000000 0300 02000000 03000000 616d79 0a000000 03000000 7a6564 ffffffff 01 03000000 616d79"),
  );
  assert.equal(board.round, 3);
  assert.deepEqual(Array.from(board.scores), [
    ["amy", 10],
    ["zed", -1],
  ]);
  assert.equal(board.mvp, "amy");

  const kick = decode(readServerPacket, hex("17000000 0300 11000000 01 03000000 61666b 01 0700000000000000"));
  assert.deepEqual(kick, { tag: 3, reason: 1, detail: "afk", bannedUntil: 7n });

  const unknown = decode(readServerPacket, hex("05000000 0004 010203"));
  assert.equal(unknown.tag, "unknown");
  if (unknown.tag === "unknown") {
    assert.equal(unknown.rawTag, 0x0400);
    assert.deepEqual(Array.from(unknown.body), [1, 2, 3]);
  }
});

test("a message written and read back keeps its bytes and values", () => {
  for (const name of ["", "hi", "héllo wörld", "\u{1F600} emoji", "x".repeat(100), "\uFEFFbom first"]) {
    const v = { id: 0xdeadbeef, name };
    const size = 4 + 4 + 4 + new TextEncoder().encode(name).length;
    const w = PktWriter.ofSize(size);
    writeSmall(w, v);
    assert.equal(w.pos, size);
    assert.deepEqual(decode(readSmall, w.buf), v);
  }
  const w = PktWriter.ofSize(14);
  writeSmall(w, { id: 1, name: "hi" });
  assert.equal(toHex(w.buf), "0a 00 00 00 01 00 00 00 02 00 00 00 68 69");
});

test("a message body ending early leaves the remaining fields at their defaults, and unknown fields are skipped", () => {
  assert.deepEqual(decode(readSmall, hex("04000000 05000000")), { id: 5, name: "" });
  assert.deepEqual(decode(readSmall, hex("0b000000 05000000 01000000 61 ffee")), { id: 5, name: "a" });
});

test("every decode error names the kind and offset that the Rust runtime gives for the same bytes", () => {
  // Short input: at the value that is cut off.
  fails(() => decode(readSmall, hex("0a00")), "UnexpectedEnd", 0);
  fails(() => decode(readSmall, hex("06000000 01000000 0200")), "UnexpectedEnd", 8);
  // A body or string longer than the input: at its prefix.
  fails(() => decode(readSmall, hex("0b000000 01000000 02000000 6869")), "LengthExceedsInput", 0);
  fails(() => decode(readSmall, hex("0a000000 01000000 03000000 6869")), "LengthExceedsInput", 8);
  // Invalid UTF-8: at the first bad byte.
  fails(() => decode(readSmall, hex("0c000000 01000000 04000000 6869 c328")), "InvalidUtf8", 14);
  fails(() => decode(readSmall, hex("0a000000 01000000 02000000 ff69")), "InvalidUtf8", 12);
  fails(() => decode(readSmall, hex("0b000000 01000000 03000000 61 eda080")), "InvalidUtf8", 13);
  // Trailing bytes after a whole value.
  fails(() => decode(readSmall, hex("04000000 01000000 00")), "TrailingBytes", 8);
  // Optional flag and bool bytes other than 0 and 1.
  fails(() => decode(readScoreboard, hex("07000000 0300 00000000 02")), "InvalidOptionFlag", 10);
  fails(() => decode((r) => r.readBool(), hex("02")), "InvalidBool", 0);
  // A repeated map key: at the repeated key.
  fails(
    () => decode(readScoreboard, hex("18000000 0300 02000000 01000000 61 01000000 01000000 61 02000000")),
    "DuplicateMapKey",
    19,
  );
  // @max checked on the count prefix before anything else of it.
  fails(() => decode(readScoreboard, hex("08000000 0300 41000000 0000")), "FieldTooLong", 6);
  // A known variant that leaves bytes of its frame unread: at the first one left.
  fails(() => decode(readServerPacket, hex("08000000 0300 01000000 01 00")), "VariantLength", 11);
  // A frame too short for its tag.
  fails(() => decode(readServerPacket, hex("01000000 03")), "UnexpectedEnd", 4);
});

test("limits: string length, counts, total elements, depth, budget", () => {
  const tight: PktLimits = { maxLength: 1 };
  fails(() => decode(readSmall, hex("0a000000 01000000 02000000 6869"), tight), "LimitExceeded", 8);
  fails(
    () => decode(readScoreboard, hex("16000000 0300 02000000 00000000 01000000 00000000 02000000"), tight),
    "LimitExceeded",
    6,
  );

  const readLists = (r: PktReader): number[][] => {
    const lists: number[][] = [];
    while (r.hasMore()) {
      const n = r.readCount(4, 4, "lists");
      const l: number[] = [];
      for (let i = 0; i < n; i++) l.push(r.readI32());
      lists.push(l);
    }
    return lists;
  };
  const three = "03000000 01000000 02000000 03000000";
  assert.deepEqual(decode(readLists, hex(three + three), { maxTotalElements: 6 }), [
    [1, 2, 3],
    [1, 2, 3],
  ]);
  fails(() => decode(readLists, hex(three + three), { maxTotalElements: 5 }), "LimitExceeded", 16);
  // The count is checked against the bytes left first.
  fails(() => decode(readLists, hex("05000000 01000000 02000000 03000000"), { maxTotalElements: 1 }), "LengthExceedsInput", 0);

  // Budget: base + per byte × input length, charged at the prefix.
  const input = hex(three);
  assert.deepEqual(decode(readLists, input, { decodeBudgetBase: 12, decodeBudgetPerByte: 0 }), [[1, 2, 3]]);
  const e = fails(() => decode(readLists, input, { decodeBudgetBase: 11, decodeBudgetPerByte: 0 }), "BudgetExceeded", 0);
  assert.equal(e.field, "lists");
  assert.deepEqual(decode(readLists, input, { decodeBudgetBase: 0, decodeBudgetPerByte: 1 }), [[1, 2, 3]]);
  assert.equal(PktLimits.decodeBudget(undefined, 10), 1024 * 1024 + 320);
  // Strings are charged their byte length.
  fails(
    () => decode(readSmall, hex("0a000000 01000000 02000000 6869"), { decodeBudgetBase: 1, decodeBudgetPerByte: 0 }),
    "BudgetExceeded",
    8,
  );

  // Depth: the frame that would be one level too deep, at its prefix.
  const nested = (depth: number): Uint8Array => {
    let body = new Uint8Array(0);
    for (let i = 0; i < depth; i++) {
      const next = new Uint8Array(body.length + 4);
      new DataView(next.buffer).setUint32(0, body.length, true);
      next.set(body, 4);
      body = next;
    }
    return body;
  };
  const readNested = (r: PktReader): number => {
    const outer = r.enterFrame();
    const d = r.hasMore() ? 1 + readNested(r) : 1;
    r.leaveMessage(outer);
    return d;
  };
  assert.equal(decode(readNested, nested(64)), 64);
  fails(() => decode(readNested, nested(65)), "DepthExceeded", 64 * 4);
  fails(() => decode(readNested, nested(3), { maxDepth: 2 }), "DepthExceeded", 8);
});

test("map charges follow the decoded-size model of maps", () => {
  assert.equal(mapMemory(0, 28), 0);
  assert.equal(mapMemory(1, 28), 11 * 28 + 40);
  assert.equal(mapMemory(11, 28), 11 * 28 + 40);
  // 12 entries: the root and 1 + ceil(11 / 5) = 4 nodes of 96 bytes more.
  assert.equal(mapMemory(12, 28), (11 * 28 + 40 + 96) * 4);
  assert.equal(mapMemory(16, 28), (11 * 28 + 40 + 96) * 4);
  assert.equal(mapMemory(17, 28), (11 * 28 + 40 + 96) * 5);
});

test("strings: BOM kept, short and long, ASCII and not", () => {
  for (const s of ["\uFEFF", "\uFEFFa", "a".repeat(15), "a".repeat(16), "a".repeat(17), "é".repeat(8), "日本語のテキスト", "\u{10FFFF}"]) {
    const bytes = new TextEncoder().encode(s);
    const input = new Uint8Array(4 + bytes.length);
    new DataView(input.buffer).setUint32(0, bytes.length, true);
    input.set(bytes, 4);
    assert.equal(decode((r) => r.readString(), input), s);
  }
});

test("short and long strings decode as TextDecoder does, invalid UTF-8 failing at the first bad byte", () => {
  const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  let seed = 12345;
  const next = (): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed >>> 8;
  };
  const interesting = [0x00, 0x41, 0x7f, 0x80, 0xbf, 0xc0, 0xc2, 0xdf, 0xe0, 0xed, 0xef, 0xf0, 0xf4, 0xf5, 0xff, 0xa0, 0x9f, 0x8f, 0x90];
  let invalid = 0;
  for (let k = 0; k < 5000; k++) {
    const len = next() % 80;
    const bytes = new Uint8Array(4 + len);
    new DataView(bytes.buffer).setUint32(0, len, true);
    // Mostly valid text with a few stray bytes, so both outcomes occur.
    const text = new TextEncoder().encode(Array.from({ length: len }, () => String.fromCodePoint([0x61, 0xe9, 0x65e5, 0x1f600][next() % 4] as number)).join(""));
    bytes.set(text.subarray(0, len), 4);
    for (let j = 4; j < bytes.length; j++) if (next() % 23 === 0) bytes[j] = interesting[next() % interesting.length] as number;
    let expected: string | undefined;
    try {
      expected = fatal.decode(bytes.subarray(4));
    } catch {
      expected = undefined;
    }
    const validUpTo = utf8ValidUpTo(bytes, 4, bytes.length);
    assert.equal(validUpTo < 0, expected !== undefined, toHex(bytes));
    if (expected !== undefined) {
      assert.equal(decode((r) => r.readString(), bytes), expected);
    } else {
      invalid++;
      fails(() => decode((r) => r.readString(), bytes), "InvalidUtf8", 4 + validUpTo);
    }
  }
  assert(invalid > 500, `${invalid} of the strings were invalid`);
});

test("a reader over a subarray reports offsets from the subarray's start", () => {
  const backing = hex("ffffffff 0a000000 01000000 02000000 6869");
  assert.deepEqual(decode(readSmall, backing.subarray(4)), { id: 1, name: "hi" });
  const bad = hex("ffffffff 0a000000 01000000 02000000 68ff");
  fails(() => decode(readSmall, bad.subarray(4)), "InvalidUtf8", 13);
});

function frame(s: Small): Uint8Array {
  const size = 12 + new TextEncoder().encode(s.name).length;
  const w = PktWriter.ofSize(size);
  writeSmall(w, s);
  return w.buf;
}

test("the frame reader splits a stream pushed in any pieces, skips a bad frame and reports stream offsets", () => {
  const good1 = frame({ id: 1, name: "one" });
  const bad = hex("0a000000 02000000 02000000 68ff");
  const good2 = frame({ id: 3, name: "three" });
  const stream = new Uint8Array(good1.length + bad.length + good2.length);
  stream.set(good1, 0);
  stream.set(bad, good1.length);
  stream.set(good2, good1.length + bad.length);
  for (const piece of [1, 2, 3, 5, 7, stream.length]) {
    const reader = new PktFrameReader(readSmall);
    const got: Array<Small | PktError> = [];
    for (let at = 0; at < stream.length; at += piece) {
      reader.push(stream.subarray(at, Math.min(stream.length, at + piece)));
      for (;;) {
        try {
          const v = reader.next();
          if (v === undefined) break;
          got.push(v);
        } catch (e) {
          assert(e instanceof PktError);
          got.push(e);
        }
      }
    }
    assert.equal(got.length, 3, `pieces of ${piece}`);
    assert.deepEqual(got[0], { id: 1, name: "one" });
    const e = got[1];
    assert(e instanceof PktError);
    assert.equal(e.kind, "InvalidUtf8");
    assert.equal(e.offset, good1.length + 13);
    assert.deepEqual(got[2], { id: 3, name: "three" });
    assert.equal(reader.buffered, 0);
    assert.equal(reader.streamPosition, stream.length);
    assert.equal(reader.failed, false);
  }
});

test("a frame prefix over maxFrame fails the reader for good, before the body arrives", () => {
  const reader = new PktFrameReader(readSmall, { maxFrame: 16 });
  reader.push(frame({ id: 1, name: "ok" }));
  assert.deepEqual(reader.next(), { id: 1, name: "ok" });
  reader.push(hex("11"));
  assert.equal(reader.next(), undefined);
  reader.push(hex("000000"));
  assert.equal(reader.failed, true);
  for (let i = 0; i < 2; i++) fails(() => reader.next(), "LimitExceeded", 14);
  reader.push(frame({ id: 2, name: "dropped" }));
  assert.equal(reader.buffered, 0);

  assert.equal(completeFrameLength(hex("0200 00")), -1);
  assert.equal(completeFrameLength(hex("02000000 01")), -1);
  assert.equal(completeFrameLength(hex("02000000 0102 03")), 6);
  fails(() => completeFrameLength(hex("11000000"), { maxFrame: 16 }), "LimitExceeded", 0);
});

test("numbers read as the wire stores them", () => {
  const bytes = hex("ff 80 ffff 0080 ffffffff 00000080 ffffffffffffffff 0000000000000080 0000c03f 000000000000f83f");
  const r = new PktReader(bytes);
  assert.equal(r.readU8(), 255);
  assert.equal(r.readI8(), -128);
  assert.equal(r.readU16(), 65535);
  assert.equal(r.readI16(), -32768);
  assert.equal(r.readU32(), 4294967295);
  assert.equal(r.readI32(), -2147483648);
  assert.equal(r.readU64(), 18446744073709551615n);
  assert.equal(r.readI64(), -9223372036854775808n);
  assert.equal(r.readF32(), 1.5);
  assert.equal(r.readF64(), 1.5);
  r.expectEnd();
  fails(() => new PktReader(hex("010203")).readU32(), "UnexpectedEnd", 0);
});

test("f32 NaN payloads, signalling ones included, are read and written back bit for bit", () => {
  const patterns = [0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001, 0x7fa00000, 0x7fbfffff, 0x7fffffff, 0xcd0eb9c7, 0x7f9c1234];
  let nans = 0;
  for (const bits of patterns) {
    const input = new Uint8Array(4);
    new DataView(input.buffer).setUint32(0, bits, true);
    const v = new PktReader(input).readF32();
    const w = PktWriter.ofSize(4);
    w.writeF32(v);
    assert.equal(toHex(w.buf), toHex(input), `0x${bits.toString(16)}`);
    if (v !== v) nans++;
  }
  assert.equal(nans, patterns.length - 1);
  // Ordinary values and infinities are unchanged.
  for (const v of [0, -0, 1.5, Math.fround(-3.25e-20), Infinity, -Infinity]) {
    const w = PktWriter.ofSize(4);
    w.writeF32(v);
    assert(Object.is(new PktReader(w.buf).readF32(), v));
  }
  // A NaN made by arithmetic is written as an f32 NaN.
  const w = PktWriter.ofSize(4);
  w.writeF32(NaN);
  assert(Number.isNaN(new DataView(w.buf.buffer, w.buf.byteOffset, 4).getFloat32(0, true)));
});

test("float lists are copied byte for byte, NaN payloads included, and a short one fails at its first cut element", () => {
  const bytes = hex("0000c03f 0100807f 000000000000f83f 0100000000f0ff7f");
  const r = new PktReader(bytes);
  const f = r.readF32s(2);
  assert.equal(f[0], 1.5);
  const d = r.readF64s(2);
  assert.equal(d[0], 1.5);
  r.expectEnd();
  const w = PktWriter.ofSize(bytes.length);
  w.writeF32s(f);
  w.writeF64s(d);
  assert.equal(toHex(w.buf), toHex(bytes));
  // A subarray view is written from its own range.
  const view = new Float32Array([9, 1.5, 2.5]).subarray(1);
  const w2 = PktWriter.ofSize(8);
  w2.writeF32s(view);
  assert.equal(toHex(w2.buf), "00 00 c0 3f 00 00 20 40");
  fails(() => new PktReader(hex("0000c03f 0000")).readF32s(2), "UnexpectedEnd", 4);
  fails(() => new PktReader(hex("0000c03f 0000")).readF64s(1), "UnexpectedEnd", 0);
  assert.equal(new PktReader(new Uint8Array(0)).readF32s(0).length, 0);
});

test("bytes count against the total element limit, after the input and length checks and before the budget", () => {
  const readTwo = (r: PktReader): number => r.readBytes("T.b").length + r.readBytes("T.b").length;
  const input = hex("03000000 010203 02000000 0405");
  assert.equal(decode(readTwo, input, { maxTotalElements: 5 }), 5);
  fails(() => decode(readTwo, input, { maxTotalElements: 4 }), "LimitExceeded", 7);
  // The input is checked first, then maxLength, then the elements left.
  fails(() => decode(readTwo, hex("09000000 010203"), { maxTotalElements: 1 }), "LengthExceedsInput", 0);
  fails(() => decode(readTwo, input, { maxLength: 2, maxTotalElements: 1 }), "LimitExceeded", 0);
  fails(() => decode(readTwo, input, { maxTotalElements: 4, decodeBudgetBase: 0, decodeBudgetPerByte: 0 }), "BudgetExceeded", 0);
});
