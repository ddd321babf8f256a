import { test } from "node:test";
import assert from "node:assert/strict";
import {
  KeyOrder,
  PktError,
  PktMap,
  PktReader,
  PktWriter,
  checkArray,
  checkDepth,
  checkSize,
  compareStrings,
  allocate,
  newList,
  replaceContents,
  sortedKeys,
  stringSize,
  utf8Length,
  utf8ValidUpTo,
  type PktEncodeKind,
} from "../src/index.js";

function encodeFails(fn: () => unknown, kind: PktEncodeKind): PktError {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  assert(caught instanceof PktError, `expected a PktError ${kind}, got ${String(caught)}`);
  assert.equal(caught.kind, kind, caught.message);
  assert.equal(caught.offset, -1);
  assert.equal(caught.decoding, false);
  return caught;
}

/** A deterministic generator, so that a failure names its case. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random strings mixing ASCII, two- and three-byte characters, pairs and lone surrogates. */
function randomStrings(count: number, seed: number): string[] {
  const next = rng(seed);
  const pools = [
    () => 0x20 + Math.floor(next() * 0x5f),
    () => 0x80 + Math.floor(next() * 0x780),
    () => 0x800 + Math.floor(next() * 0xd000),
    () => 0xd800 + Math.floor(next() * 0x800),
    () => 0xe000 + Math.floor(next() * 0x2000),
  ];
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    // Past 64 UTF-16 units the writer hands a string to TextEncoder, and past
    // 64 bytes the reader to TextDecoder: lengths on both sides of both.
    const len = Math.floor(next() * 80);
    let s = "";
    for (let j = 0; j < len; j++) {
      const r = next();
      if (r < 0.1) s += String.fromCodePoint(0x10000 + Math.floor(next() * 0x100000));
      else s += String.fromCharCode((pools[Math.floor(next() * pools.length)] as () => number)());
    }
    out.push(s);
  }
  return out;
}

test("strings are written as TextEncoder encodes them, lone surrogates as U+FFFD, and read back", () => {
  const enc = new TextEncoder();
  let nonAscii = 0;
  for (const s of [...randomStrings(2000, 1), "", "a", "\uD800", "a\uDC00b", "\uD83D\uDE00"]) {
    const expected = enc.encode(s);
    assert.equal(utf8Length(s), expected.length, JSON.stringify(s));
    const size = stringSize(s);
    const w = PktWriter.ofSize(size);
    w.writeString(s);
    assert.equal(w.pos, size);
    assert.deepEqual(Array.from(w.buf.subarray(4)), Array.from(expected));
    const back = new PktReader(w.buf).readString();
    assert.equal(back, new TextDecoder().decode(expected));
    if (expected.length !== s.length) nonAscii++;
  }
  assert(nonAscii > 1000, `${nonAscii} strings were not ASCII`);
  for (const n of [16, 63, 64, 65, 100]) {
    const s = "x".repeat(n);
    const w = PktWriter.ofSize(stringSize(s));
    w.writeString(s);
    assert.equal(new PktReader(w.buf).readString(), s);
  }
});

test("lists of integers are written and read in one loop each, wrapping and sign-extending as the element writes do", () => {
  const values = [0, 1, -1, 127, 128, 255, 256, -129, 32767, 32768, 65535, -32769, 2147483647, -2147483648, 4294967295];
  type Case = [number, (w: PktWriter, a: number[]) => void, (r: PktReader, n: number) => number[], (r: PktReader) => number, (v: number) => number];
  const cases: Case[] = [
    [1, (w, a) => w.writeU8s(a), (r, n) => r.readU8s(n), (r) => r.readU8(), (v) => v & 0xff],
    [1, (w, a) => w.writeI8s(a), (r, n) => r.readI8s(n), (r) => r.readI8(), (v) => (v << 24) >> 24],
    [2, (w, a) => w.writeU16s(a), (r, n) => r.readU16s(n), (r) => r.readU16(), (v) => v & 0xffff],
    [2, (w, a) => w.writeI16s(a), (r, n) => r.readI16s(n), (r) => r.readI16(), (v) => (v << 16) >> 16],
    [4, (w, a) => w.writeU32s(a), (r, n) => r.readU32s(n), (r) => r.readU32(), (v) => v >>> 0],
    [4, (w, a) => w.writeI32s(a), (r, n) => r.readI32s(n), (r) => r.readI32(), (v) => v | 0],
  ];
  for (const [size, write, read, readOne, wrap] of cases) {
    const w = PktWriter.ofSize(1 + size * values.length);
    w.writeU8(7);
    write(w, values);
    assert.equal(w.pos, 1 + size * values.length);
    const r = new PktReader(w.buf);
    assert.equal(r.readU8(), 7);
    assert.deepEqual(read(r, values.length), values.map(wrap));
    assert.equal(r.pos, w.pos);
    // The same bytes element by element.
    const one = new PktReader(w.buf);
    one.readU8();
    assert.deepEqual(values.map(() => readOne(one)), values.map(wrap));
  }
});

test("the UTF-8 validator finds the first invalid byte where Rust's from_utf8 does", () => {
  // valid_up_to of Rust's str::from_utf8 for these inputs.
  const cases: Array<[number[], number]> = [
    [[], -1],
    [[0x61], -1],
    [[0x80], 0],
    [[0x61, 0xc3], 1],
    [[0xc3, 0xa9], -1],
    [[0xc0, 0x80], 0],
    [[0xe0, 0x80, 0x80], 0],
    [[0xe0, 0xa0, 0x80], -1],
    [[0xed, 0xa0, 0x80], 0],
    [[0xef, 0xbf, 0xbf], -1],
    [[0xf0, 0x8f, 0xbf, 0xbf], 0],
    [[0xf0, 0x90, 0x80, 0x80], -1],
    [[0xf4, 0x8f, 0xbf, 0xbf], -1],
    [[0xf4, 0x90, 0x80, 0x80], 0],
    [[0x61, 0x62, 0xf5], 2],
    [[0x61, 0xe2, 0x82], 1],
    [[0x61, 0xe2, 0x82, 0xac, 0xff], 4],
  ];
  for (const [bytes, expected] of cases) {
    const b = Uint8Array.from(bytes);
    assert.equal(utf8ValidUpTo(b, 0, b.length), expected, bytes.join(","));
  }
  // And agrees with the platform's fatal decoder on random bytes.
  const next = rng(7);
  const dec = new TextDecoder("utf-8", { fatal: true });
  let invalid = 0;
  for (let i = 0; i < 5000; i++) {
    const b = new Uint8Array(Math.floor(next() * 12));
    for (let j = 0; j < b.length; j++) b[j] = next() < 0.5 ? Math.floor(next() * 0x80) : 0x80 + Math.floor(next() * 0x80);
    let platform = true;
    try {
      dec.decode(b);
    } catch {
      platform = false;
    }
    assert.equal(utf8ValidUpTo(b, 0, b.length) < 0, platform, Array.from(b).join(","));
    if (!platform) invalid++;
  }
  assert(invalid > 1000);
});

test("string keys sort by their UTF-8 bytes", () => {
  const enc = new TextEncoder();
  const strings = randomStrings(400, 3);
  let surrogateOrder = 0;
  for (let i = 0; i + 1 < strings.length; i++) {
    const a = strings[i] as string;
    const b = strings[i + 1] as string;
    const byBytes = Math.sign(Buffer.compare(enc.encode(a), enc.encode(b)));
    assert.equal(Math.sign(compareStrings(a, b)), byBytes, `${JSON.stringify(a)} ${JSON.stringify(b)}`);
    if ((a < b ? -1 : a > b ? 1 : 0) !== byBytes) surrogateOrder++;
  }
  // U+FFFF sorts after U+10000 by UTF-16 units but before it by code point.
  assert.equal(compareStrings("\uFFFF", "\u{10000}"), -1);
  assert(surrogateOrder > 0, "no pair where UTF-16 order and byte order differ");
  assert.equal(compareStrings("\uD800", "\uFFFD"), 0);
});


test("map keys come in wire order; keys that encode alike are an encode error", () => {
  const m = new Map<string, number>([
    ["zed", 1],
    ["amy", 2],
    ["\u{10000}", 3],
    ["\uFFFF", 4],
  ]);
  assert.deepEqual(Array.from(sortedKeys(m, KeyOrder.String)), ["amy", "zed", "\uFFFF", "\u{10000}"]);
  const sorted = new Map([
    [1, "a"],
    [2, "b"],
  ]);
  const keys = sortedKeys(sorted, KeyOrder.Number);
  assert(!Array.isArray(keys), "an ordered map's keys are not copied");
  assert.deepEqual(Array.from(keys), [1, 2]);
  assert.deepEqual(Array.from(sortedKeys(new Map([[5n, 0], [-1n, 0]]), KeyOrder.BigInt)), [-1n, 5n]);
  assert.deepEqual(Array.from(sortedKeys(new Map([[true, 0], [false, 0]]), KeyOrder.Bool)), [false, true]);
  const e = encodeFails(() => sortedKeys(new Map([["\uD800", 1], ["\uFFFD", 2]]), KeyOrder.String, "T.m"), "DuplicateMapKey");
  assert.equal(e.field, "T.m");
});

test("PktMap: a Map's API, in key order, with lookups by binary search", () => {
  const m = new PktMap<number, string>([
    [5, "e"],
    [-1, "z"],
    [3, "c"],
    [5, "E"],
  ]);
  assert.equal(m.size, 3);
  assert.deepEqual(Array.from(m), [
    [-1, "z"],
    [3, "c"],
    [5, "E"],
  ]);
  assert.equal(m.get(5), "E");
  assert.equal(m.get(4), undefined);
  assert(m.has(-1) && !m.has(0));
  m.set(4, "d").set(9, "i").set(-7, "y").set(3, "C");
  assert.deepEqual(Array.from(m.keys()), [-7, -1, 3, 4, 5, 9]);
  assert.deepEqual(Array.from(m.values()), ["y", "z", "C", "d", "E", "i"]);
  assert(m.delete(4) && m.delete(9) && !m.delete(4));
  assert.deepEqual(Array.from(m.keys()), [-7, -1, 3, 5]);
  const seen: string[] = [];
  m.forEach((v, k, map) => {
    assert.equal(map, m);
    seen.push(`${k}=${v}`);
  });
  assert.deepEqual(seen, ["-7=y", "-1=z", "3=C", "5=E"]);
  assert.equal(m.keyAt(1), -1);
  assert.equal(m.valueAt(1), "z");
  assert.equal(m.indexOf(3), 2);
  assert.equal(m.indexOf(4), -1 - 3);
  assert.equal(String(m), "[object PktMap]");
  m.clear();
  assert.equal(m.size, 0);
  assert.deepEqual(Array.from(m.entries()), []);
  // Without an order, the wire's for the key's type.
  const big = new PktMap([[5n, 0], [-1n, 0], [1n << 63n, 0]]);
  assert.deepEqual(Array.from(big.keys()), [-1n, 5n, 1n << 63n]);
  const strings = new PktMap([["zed", 1], ["\u{10000}", 2], ["\uFFFF", 3], ["amy", 4]]);
  assert.deepEqual(Array.from(strings.keys()), ["amy", "zed", "\uFFFF", "\u{10000}"]);
  assert.deepEqual(Array.from(new PktMap([[true, 0], [false, 1]]).keys()), [false, true]);
  // Strings written as the same UTF-8 are one key.
  const lone = new PktMap([["\uD800", 1]]);
  lone.set("\uDC00", 2);
  assert.deepEqual(Array.from(lone), [["\uD800", 2]]);
  // sortedKeys hands back a PktMap's keys as they are.
  assert.deepEqual(Array.from(sortedKeys(strings, KeyOrder.String)), ["amy", "zed", "\uFFFF", "\u{10000}"]);
});

test("PktMap decoding: repeated keys are Rust's DuplicateMapKey, in O(n log n) comparisons", () => {
  let comparisons = 0;
  const order = (a: number, b: number): number => {
    comparisons++;
    return KeyOrder.Number(a, b);
  };
  const r = new PktReader(new Uint8Array(0));
  // Ascending keys: one comparison each.
  const up = new PktMap<number, number>(null, order);
  for (let i = 0; i < 1000; i++) {
    up.decodedKey(i, i);
    up.decodedValue(i);
  }
  up.endDecode(r);
  assert.equal(comparisons, 999);
  // Descending keys: sorted once at the end.
  comparisons = 0;
  const n = 1 << 14;
  const down = new PktMap<number, number>(null, order);
  for (let i = 0; i < n; i++) {
    down.decodedKey(n - i, i);
    down.decodedValue(i);
  }
  down.endDecode(r);
  assert.deepEqual(Array.from(down.keys()).slice(0, 3), [1, 2, 3]);
  assert.equal(down.get(1), n - 1);
  assert(comparisons <= n * Math.log2(n) + 3 * n, `${comparisons} comparisons for ${n} keys`);
  // The first key that repeats an earlier one, in input order.
  const keys = [9, 4, 7, 4, 9, 7];
  const dup = new PktMap<number, number>(null, order);
  keys.forEach((k, i) => {
    dup.decodedKey(k, 100 + i);
    dup.decodedValue(i);
  });
  assert.throws(() => dup.endDecode(r), (e: unknown) => e instanceof PktError && e.kind === "DuplicateMapKey" && e.offset === 103);
  // A repeat before a later error wins over it; the map keeps whole entries, once each.
  const cut = new PktMap<number, number>(null, order);
  [3, 1, 3, 2].forEach((k, i) => {
    cut.decodedKey(k, 10 + i);
    // The value of the last key fails to read.
    if (i < 3) cut.decodedValue(i);
  });
  const later = new PktError("UnexpectedEnd", 50, "cut");
  const thrown = cut.decodeFailed(r, later);
  assert(thrown instanceof PktError && thrown.kind === "DuplicateMapKey" && thrown.offset === 12);
  assert.deepEqual(Array.from(cut), [
    [1, 1],
    [3, 0],
  ]);
  // The repeat may be the key whose value failed to read.
  const last = new PktMap<number, number>(null, order);
  [5, 2, 5].forEach((k, i) => {
    last.decodedKey(k, 20 + i);
    if (i < 2) last.decodedValue(i);
  });
  const repeated = last.decodeFailed(r, later);
  assert(repeated instanceof PktError && repeated.kind === "DuplicateMapKey" && repeated.offset === 22);
  assert.deepEqual(Array.from(last), [
    [2, 1],
    [5, 0],
  ]);
  // ... or a key of its own, which sorts first.
  const first = new PktMap<number, number>(null, order);
  [5, 2, 0].forEach((k, i) => {
    first.decodedKey(k, 30 + i);
    if (i < 2) first.decodedValue(i);
  });
  assert.equal(first.decodeFailed(r, later), later);
  assert.deepEqual(Array.from(first), [
    [2, 1],
    [5, 0],
  ]);
  const clean = new PktMap<number, number>(null, order);
  [3, 1].forEach((k, i) => {
    clean.decodedKey(k, i);
    clean.decodedValue(i);
  });
  assert.equal(clean.decodeFailed(r, later), later);
});

test("PktMap delta merges: removals, additions and changes in one pass", () => {
  const m = new PktMap<number, string>([1, 2, 3, 4, 5, 6].map((k): [number, string] => [k, String(k)]));
  const changed: number[] = [];
  m.walk([2, 5], (i, j) => {
    changed.push(i, j);
    m.setValueAt(i, "x");
  });
  assert.deepEqual(changed, [1, 0, 4, 1]);
  m.merge([1, 4, 6], [0, 7, 8], ["a", "b", "c"]);
  assert.deepEqual(Array.from(m), [
    [0, "a"],
    [2, "x"],
    [3, "3"],
    [5, "x"],
    [7, "b"],
    [8, "c"],
  ]);
});

test("encode errors: @max, array length, depth, size, room", () => {
  const w = PktWriter.ofSize(64);
  w.writeString("abcd", 4, "T.s");
  const e = encodeFails(() => w.writeString("abcde", 4, "T.s"), "FieldTooLong");
  assert.equal(e.field, "T.s");
  encodeFails(() => w.writeString("éé", 3, "T.s"), "FieldTooLong");
  encodeFails(() => w.writeBytes(new Uint8Array(3), 2, "T.b"), "FieldTooLong");
  encodeFails(() => w.writeCount(3, 2, "T.l"), "FieldTooLong");
  checkArray([1, 2, 3], 3, "T.a");
  encodeFails(() => checkArray([1, 2], 3, "T.a"), "ArrayLength");
  checkDepth(64, "T");
  encodeFails(() => checkDepth(65, "T"), "DepthExceeded");
  const deep = PktWriter.ofSize(0);
  for (let i = 0; i < 64; i++) deep.enter("T");
  encodeFails(() => deep.enter("T"), "DepthExceeded");
  assert.equal(checkSize(0xffffffff, "T"), 0xffffffff);
  encodeFails(() => checkSize(0x100000000, "T"), "TooLarge");
  PktWriter.checkRoom(new Uint8Array(8), 4, 4);
  encodeFails(() => PktWriter.checkRoom(new Uint8Array(8), 5, 4), "BufferTooSmall");
  assert.throws(() => PktWriter.checkRoom(new Uint8Array(8), 9, 0), (x: unknown) => x instanceof RangeError);
});

test("numbers are written little-endian at their widths", () => {
  const w = new PktWriter(new Uint8Array(2 + 43 + 1), 2);
  w.writeU8(255);
  w.writeI8(-128);
  w.writeBool(true);
  w.writeU16(65535);
  w.writeI16(-2);
  w.writeU32(4294967295);
  w.writeI32(-2);
  w.writeU64(18446744073709551615n);
  w.writeI64(-2n);
  w.writeF32(1.5);
  w.writeF64(-0);
  assert.equal(w.pos, 2 + 43);
  const r = new PktReader(w.buf.subarray(2, 45));
  assert.equal(r.readU8(), 255);
  assert.equal(r.readI8(), -128);
  assert.equal(r.readBool(), true);
  assert.equal(r.readU16(), 65535);
  assert.equal(r.readI16(), -2);
  assert.equal(r.readU32(), 4294967295);
  assert.equal(r.readI32(), -2);
  assert.equal(r.readU64(), 18446744073709551615n);
  assert.equal(r.readI64(), -2n);
  assert.equal(r.readF32(), 1.5);
  assert(Object.is(r.readF64(), -0));
  r.expectEnd();
  assert.equal(w.buf[0], 0);
  assert.equal(w.buf[45], 0);
});

test("raw bytes, short and long, land where they belong", () => {
  for (const n of [0, 1, 16, 17, 100]) {
    const b = Uint8Array.from({ length: n }, (_, i) => i + 1);
    const w = PktWriter.ofSize(4 + n + 1);
    w.writeBytes(b);
    w.writeU8(0xee);
    assert.equal(w.pos, 4 + n + 1);
    const r = new PktReader(w.buf);
    assert.deepEqual(Array.from(r.readBytes()), Array.from(b));
    assert.equal(r.readU8(), 0xee);
  }
});

test("a writer given the encoding's size checks the room before writing", () => {
  const buf = new Uint8Array(8);
  new PktWriter(buf, 4, 4).writeU32(0x01020304);
  assert.deepEqual(Array.from(buf), [0, 0, 0, 0, 4, 3, 2, 1]);
  encodeFails(() => new PktWriter(buf, 5, 4), "BufferTooSmall");
  const w = new PktWriter(buf, 0);
  w.checkArray([1, 2], 2, "T.a");
  encodeFails(() => w.checkArray([1], 2, "T.a"), "ArrayLength");
});

test("replaceContents leaves the target holding exactly the source's properties", () => {
  const target: { kind: string; value?: number; other?: string } = { kind: "A", value: 1 };
  const keep = target;
  replaceContents(target, { kind: "B", other: "x" });
  assert.equal(target, keep);
  assert.deepEqual(target, { kind: "B", other: "x" });
});

test("encodings come from a shared slab without overlapping, and a transferred slab is replaced", () => {
  const a = allocate(69);
  const b = allocate(69);
  const big = allocate(9000);
  assert.equal(a.length, 69);
  assert.equal(big.length, 9000);
  assert.equal(a.buffer, b.buffer, "small encodings share a slab");
  assert.notEqual(big.buffer, a.buffer, "large encodings have their own buffer");
  assert(b.byteOffset >= a.byteOffset + a.length, "no overlap");
  a.fill(0xaa);
  assert(b.every((x) => x === 0), "a neighbour's writes stay in its range");
  // Many allocations across several slabs: each one zeroed although its
  // predecessors were filled.
  for (let i = 0; i < 3000; i++) {
    const x = allocate(1 + (i % 200));
    assert(x.every((y) => y === 0));
    x.fill(1);
  }
  // Detaching the slab (as transferring it to a worker does) starts a new one.
  const c = allocate(16);
  const slab = c.buffer as ArrayBuffer;
  structuredClone(slab, { transfer: [slab] });
  assert.equal(c.buffer.byteLength, 0);
  const d = allocate(16);
  assert.equal(d.length, 16);
  assert.notEqual(d.buffer.byteLength, 0);
});

test("newList gives an array filled by index to its count", () => {
  for (const n of [0, 1, 1000, 32_768, 40_000]) {
    const l = newList<number>(n);
    for (let i = 0; i < n; i++) l[i] = i;
    assert.equal(l.length, n);
    assert.equal(l[n - 1], n === 0 ? undefined : n - 1);
  }
});
