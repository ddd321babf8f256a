//! The TypeScript driver: the generated modules of `schemas/` with a
//! dispatch module (`support/typescript.rs`) and a value-text module
//! generated here from the IR, compiled by `tsc --strict` once per distinct
//! source, and `driver.mjs` below, run as `node driver.mjs <cases> <answers>`.

use std::fmt::Write as _;

use pktc::emit::{generate, output_files, GenOptions, TYPESCRIPT_RUNTIME_STEM};
use pktc::ir::{Ir, Prim, Type, TypeId, TypeKind};
use pktc::names::{Lang, NameKind};

use crate::support::{node, qualified, typescript};
use crate::Driver;

/// Builds the driver unless a build of the same sources is cached under the
/// target directory; `None` (after a loud warning) without node outside CI.
pub fn prepare(ir: &Ir) -> Option<Driver> {
    if !node::tools_or_skip("conformance (TypeScript)") {
        return None;
    }
    let render = render_module(ir);
    let generated: Vec<String> = generate(ir, &GenOptions::new(Lang::TypeScript))
        .into_iter()
        .map(|f| f.contents)
        .collect();
    let inputs = generated
        .iter()
        .map(String::as_str)
        .chain([render.as_str(), DRIVER]);
    let dir = crate::cached_build("typescript", inputs, |dir| {
        let js = typescript::build(ir, dir, &[("render.ts", render.as_str())]);
        std::fs::write(js.join("driver.mjs"), DRIVER).expect("write driver.mjs");
    });
    Some(Driver::Program {
        program: "node".into(),
        args: vec![dir.join("js/driver.mjs").into_os_string()],
    })
}

/// An expression rendering `var` (of type `ty`) onto the array `o`.
fn render(ir: &Ir, ty: &Type, var: &str, d: usize) -> String {
    match ty {
        Type::Prim(Prim::F32) => format!("f32(o, {var});"),
        Type::Prim(Prim::F64) => format!("f64(o, {var});"),
        Type::Prim(_) => format!("o.push(String({var}));"),
        Type::String => format!("str(o, {var});"),
        Type::Bytes => format!("bytes(o, {var});"),
        Type::List(e) | Type::Array(e, _) => match e.ty {
            Type::Prim(Prim::F32) => format!("f32s(o, {var});"),
            Type::Prim(Prim::F64) => format!("f64s(o, {var});"),
            _ => format!(
                "seq(o, {var}, (x{d}) => {{ {} }});",
                render(ir, &e.ty, &format!("x{d}"), d + 1)
            ),
        },
        Type::Map(k, v) => format!(
            "map(o, {var}, {}, (k{d}) => {{ {} }}, (v{d}) => {{ {} }});",
            key_order(ir, &k.ty),
            render(ir, &k.ty, &format!("k{d}"), d + 1),
            render(ir, &v.ty, &format!("v{d}"), d + 1)
        ),
        Type::Optional(inner) => format!(
            "if ({var} === undefined) o.push(\"null\"); else {{ const x{d} = {var}; {} }}",
            render(ir, inner, &format!("x{d}"), d + 1)
        ),
        Type::Named(r) => match &ir.ty(r.id).kind {
            TypeKind::Enum { .. } => format!("o.push(String({var}));"),
            _ => format!("r{}(o, {var});", r.id.0),
        },
    }
}

fn key_order(ir: &Ir, ty: &Type) -> &'static str {
    let prim = match ty {
        Type::String => return "KeyOrder.String",
        Type::Prim(p) => *p,
        Type::Named(r) => match &ir.ty(r.id).kind {
            TypeKind::Enum { base, .. } => *base,
            _ => unreachable!("map keys are scalars, strings or enums"),
        },
        _ => unreachable!("map keys are scalars, strings or enums"),
    };
    match prim {
        Prim::Bool => "KeyOrder.Bool",
        Prim::U64 | Prim::I64 => "KeyOrder.BigInt",
        _ => "KeyOrder.Number",
    }
}

/// `render.ts`: a value-text function per type, and `RENDER` by qualified name.
fn render_module(ir: &Ir) -> String {
    let files = output_files(ir, "ts", &[TYPESCRIPT_RUNTIME_STEM], None);
    let naming = Lang::TypeScript.naming();
    let mut imports = String::new();
    let mut used = vec![false; files.len()];
    let mut functions = String::new();
    let mut table = String::new();
    for (i, def) in ir.types.iter().enumerate() {
        if matches!(def.kind, TypeKind::Enum { .. }) {
            continue;
        }
        used[def.file.0] = true;
        let ts = format!("$m{}.{}", def.file.0, naming.type_ident(def));
        let mut body = String::new();
        match &def.kind {
            TypeKind::Enum { .. } => unreachable!(),
            TypeKind::Struct { fields } | TypeKind::Message { fields, .. } => {
                body.push_str("    o.push(\"{\");\n");
                for (n, f) in fields.iter().enumerate() {
                    let label = format!("{}{}:", if n > 0 { "," } else { "" }, f.name);
                    let var = format!("v.{}", naming.member_ident(NameKind::Field, &f.name, def));
                    let _ = writeln!(
                        body,
                        "    o.push({label:?}); {}",
                        render(ir, &f.ty, &var, 0)
                    );
                }
                if let TypeKind::Message {
                    preserve_unknown: true,
                    ..
                } = def.kind
                {
                    let label = if fields.is_empty() {
                        "@unknown:"
                    } else {
                        ",@unknown:"
                    };
                    let _ = writeln!(body, "    o.push({label:?}); bytes(o, v.$unknownFields);");
                }
                body.push_str("    o.push(\"}\");\n");
            }
            TypeKind::Union { variants, .. } => {
                body.push_str("    switch (v.kind) {\n");
                for var in variants {
                    let _ = writeln!(
                        body,
                        "        case {:?}: {{ o.push({:?}); {} o.push(\")\"); return; }}",
                        var.name,
                        format!("{}(", var.name),
                        render(ir, &var.ty, "v.value", 0)
                    );
                }
                body.push_str(
                    "        case \"Unknown\": { o.push(\"?\" + String(v.tag) + \"(\"); bytes(o, v.body); o.push(\")\"); return; }\n    }\n",
                );
            }
        }
        let _ = writeln!(
            functions,
            "function r{i}(o: string[], v: {ts}): void {{\n    void v;\n{body}}}\n"
        );
        let _ = writeln!(
            table,
            "    {:?}: (o, v) => r{i}(o, v as {ts}),",
            qualified(ir, TypeId(i))
        );
    }
    for (i, f) in files.iter().enumerate() {
        if used[i] {
            let _ = writeln!(imports, "import * as $m{i} from \"./{}.js\";", f.stem);
        }
    }
    format!(
        "{imports}import {{ KeyOrder, PktMap, f32NanBits, sortedKeys }} from \"./pkt_runtime.js\";\n\n\
         {HELPERS}\n{functions}\
         /** The value text of each type with a codec, by qualified name. */\n\
         export const RENDER: Record<string, (o: string[], v: unknown) => void> = {{\n{table}}};\n"
    )
}

/// The value text of scalars, strings, bytes and collections.
const HELPERS: &str = r#"const scratch = new DataView(new ArrayBuffer(8));

export function hex(b: Uint8Array): string {
    let s = "";
    for (const x of b) s += x.toString(16).padStart(2, "0");
    return s;
}

export function f32(o: string[], v: number): void {
    let bits: number;
    if (v !== v) {
        bits = f32NanBits(v);
    } else {
        scratch.setFloat32(0, v, true);
        bits = scratch.getUint32(0, true);
    }
    o.push("f32:" + bits.toString(16).padStart(8, "0"));
}

export function f64(o: string[], v: number): void {
    scratch.setFloat64(0, v, true);
    o.push("f64:" + scratch.getBigUint64(0, true).toString(16).padStart(16, "0"));
}

// Float lists from their bytes: reading an element would make it a double.
export function f32s(o: string[], a: Float32Array): void {
    const view = new DataView(a.buffer, a.byteOffset, a.byteLength);
    const items: string[] = [];
    for (let i = 0; i < a.length; i++) items.push("f32:" + view.getUint32(4 * i, true).toString(16).padStart(8, "0"));
    o.push("[" + items.join(",") + "]");
}

export function f64s(o: string[], a: Float64Array): void {
    const view = new DataView(a.buffer, a.byteOffset, a.byteLength);
    const items: string[] = [];
    for (let i = 0; i < a.length; i++) items.push("f64:" + view.getBigUint64(8 * i, true).toString(16).padStart(16, "0"));
    o.push("[" + items.join(",") + "]");
}

export function str(o: string[], s: string): void {
    let t = "\"";
    for (const c of s) {
        const n = c.codePointAt(0) as number;
        if (c === "\"") t += "\\\"";
        else if (c === "\\") t += "\\\\";
        else if (n < 0x20 || n === 0x7f) t += "\\u" + n.toString(16).padStart(4, "0");
        else t += c;
    }
    o.push(t + "\"");
}

export function bytes(o: string[], b: Uint8Array): void {
    o.push("0x" + hex(b));
}

export function seq<T>(o: string[], items: Iterable<T>, f: (x: T) => void): void {
    o.push("[");
    let first = true;
    for (const x of items) {
        if (!first) o.push(",");
        first = false;
        f(x);
    }
    o.push("]");
}

export function map<K, V>(o: string[], m: PktMap<K, V>, order: (a: K, b: K) => number, fk: (k: K) => void, fv: (v: V) => void): void {
    o.push("{");
    let first = true;
    for (const k of sortedKeys(m, order)) {
        if (!first) o.push(",");
        first = false;
        fk(k);
        o.push(":");
        fv(m.get(k) as V);
    }
    o.push("}");
}
"#;

/// The protocol's loop: decode, encode again, render; frames through the
/// runtime's frame reader.
const DRIVER: &str = r#"import { closeSync, openSync, readFileSync, writeSync } from "node:fs";
import { TYPES } from "./dispatch.js";
import { RENDER } from "./render.js";
import { PktError, PktFrameReader } from "./pkt_runtime.js";

const hex = (b) => Buffer.from(b).toString("hex");

function limitsOf(text) {
  if (text === "-") return undefined;
  const n = text.split(",").map(Number);
  return {
    maxDepth: n[0], maxLength: n[1], maxFrame: n[2], maxTotalElements: n[3],
    decodeBudgetBase: n[4], decodeBudgetPerByte: n[5],
  };
}

function value(type, codec, v) {
  let again;
  try {
    again = codec.encode(v);
  } catch (e) {
    if (e instanceof PktError && !e.decoding) return "unencodable " + e.message;
    throw e;
  }
  const o = [];
  RENDER[type](o, v);
  return "ok " + hex(again) + " " + o.join("");
}

function failure(e) {
  if (e instanceof PktError && e.decoding) return `err ${e.kind} ${e.offset}`;
  if (e instanceof PktError) return "unencodable " + e.message;
  return `escaped ${e && e.name}: ${String(e && e.message).replace(/\n/g, " ")}`;
}

function frames(type, codec, bytes, limits) {
  const reader = new PktFrameReader(codec.read, limits);
  reader.push(bytes);
  let o = "frames ";
  for (;;) {
    let v;
    try {
      v = reader.next();
    } catch (e) {
      o += failure(e);
      if (reader.failed) {
        o += " ; ";
        break;
      }
      o += " ; ";
      continue;
    }
    if (v === undefined) break;
    o += value(type, codec, v) + " ; ";
  }
  return o + "end " + reader.buffered;
}

const [input, output] = process.argv.slice(2);
// The long run's case file and answers pass V8's longest string (512 MiB):
// the input is split into lines as bytes, and answers are written out in
// chunks.
const data = readFileSync(input);
const fd = openSync(output, "w");
let out = [];
let pending = 0;
const flush = () => {
  if (out.length) writeSync(fd, out.join("\n") + "\n");
  out = [];
  pending = 0;
};
for (let start = 0; start < data.length; ) {
  let end = data.indexOf(10, start);
  if (end < 0) end = data.length;
  const line = data.toString("latin1", start, end);
  start = end + 1;
  if (!line) continue;
  const [type, text, limitsText, mode] = line.split(" ");
  const codec = TYPES[type];
  const bytes = text === "-" ? new Uint8Array(0) : new Uint8Array(Buffer.from(text, "hex"));
  const limits = limitsOf(limitsText);
  let answer;
  try {
    answer = mode === "frames" ? frames(type, codec, bytes, limits) : value(type, codec, codec.decode(bytes, limits));
  } catch (e) {
    answer = failure(e);
  }
  out.push(answer);
  pending += answer.length;
  if (pending > 1 << 24) flush();
}
flush();
closeSync(fd);
"#;
