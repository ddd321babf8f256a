//! `pktc inspect`: decodes bytes of any schema type with the IR and the
//! runtime's [`Reader`](pkt_runtime::Reader) (no generated code), and prints
//! the values as JSON or as an annotated hex dump with one line per field.
//!
//! [`decode`] fails the way the generated decoders do, because it reads with
//! the same reader: the same error kinds, the same checks in the same order,
//! the same absolute byte offsets, the same limits and decode budget. Every
//! length and count is checked against the bytes that are left before
//! anything is allocated, no input makes it panic, and no schema makes it
//! recurse: decoding, printing and dropping use an explicit stack.

mod decode;
mod delta;
mod dump;
mod json;

pub use decode::{decode, decode_stream, DecodeError, Kind, Node, NodeId, Seg, Tree};
pub use delta::{apply_delta, Applied, DeltaError};
pub use dump::hex_dump;
pub use json::{to_json, to_json_pretty};
/// What went wrong: the runtime's own error kinds.
pub use pkt_runtime::DecodeErrorKind as ErrorKind;
/// Bounds on untrusted input: the runtime's own type, so the defaults are
/// the same by construction.
pub use pkt_runtime::Limits;

use crate::ir::{Ir, TypeDef, TypeId, TypeKind};

/// Finds a declared type by qualified (`game.net.ServerPacket`) or, when
/// only one type has that name, bare name.
pub fn find_type(ir: &Ir, name: &str) -> Result<TypeId, String> {
    let qualified = |t: &TypeDef| ir.qualified_name(t);
    if let Some(i) = ir.types.iter().position(|t| qualified(t) == name) {
        return Ok(TypeId(i));
    }
    let bare: Vec<usize> = (0..ir.types.len())
        .filter(|&i| ir.types[i].name == name)
        .collect();
    match bare.as_slice() {
        [i] => Ok(TypeId(*i)),
        [] => {
            // As `check` suggests: a near name, qualified when the name is
            // or when the near bare name belongs to more than one type.
            let names: Vec<String> = if name.contains('.') {
                ir.types.iter().map(qualified).collect()
            } else {
                ir.types.iter().map(|t| t.name.clone()).collect()
            };
            let near = crate::sema::suggest(name, names.iter().map(String::as_str)).map(|s| {
                let matching: Vec<String> = ir
                    .types
                    .iter()
                    .filter(|t| t.name == s)
                    .map(qualified)
                    .collect();
                match matching.as_slice() {
                    [_, _, ..] => matching
                        .iter()
                        .map(|m| format!("`{m}`"))
                        .collect::<Vec<_>>()
                        .join(" or "),
                    _ => format!("`{s}`"),
                }
            });
            Err(match near {
                Some(near) => format!(
                    "no type named `{name}` in these schemas\n  = help: did you mean {near}?"
                ),
                None => format!("no type named `{name}` in these schemas"),
            })
        }
        many => Err(format!(
            "`{name}` is ambiguous; name one of {}",
            many.iter()
                .map(|&i| format!("`{}`", qualified(&ir.types[i])))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// Bytes from hex text: pairs of hex digits, with whitespace, `,`, `:` and
/// `0x` prefixes ignored.
pub fn parse_hex(text: &str) -> Result<Vec<u8>, String> {
    let mut digits = Vec::new();
    for word in text.split(|c: char| c.is_whitespace() || c == ',' || c == ':') {
        let word = word
            .strip_prefix("0x")
            .or_else(|| word.strip_prefix("0X"))
            .unwrap_or(word);
        for c in word.chars() {
            match c.to_digit(16) {
                Some(d) => digits.push(d as u8),
                None => return Err(format!("`{c}` is not a hex digit")),
            }
        }
    }
    if digits.len() % 2 != 0 {
        return Err("odd number of hex digits".to_string());
    }
    Ok(digits.chunks(2).map(|p| p[0] << 4 | p[1]).collect())
}

/// The most bytes `pktc inspect` decodes: the runtime's default frame
/// limit (`Limits::max_frame`, 16 MiB), the most a frame decoder accepts.
pub const MAX_INPUT: usize = Limits::DEFAULT.max_frame;

/// The most characters of hex text `pktc inspect --hex` reads: two digits
/// and a separator for each of [`MAX_INPUT`] bytes, with room for `0x`
/// prefixes and line breaks.
pub const MAX_HEX_INPUT: usize = 4 * MAX_INPUT;

/// Reads the input of `pktc inspect` from `reader`: raw bytes, or with
/// `hex` hex text ([`parse_hex`]). Reads at most one byte more than the
/// cap ([`MAX_INPUT`] bytes, [`MAX_HEX_INPUT`] characters of hex text) and
/// refuses a longer input with an error that states the cap, so that an
/// endless input (`/dev/zero`) takes neither memory nor time beyond it.
/// `name` names the input in errors.
pub fn read_input(reader: impl std::io::Read, hex: bool, name: &str) -> Result<Vec<u8>, String> {
    use std::io::Read as _;
    let cap = if hex { MAX_HEX_INPUT } else { MAX_INPUT };
    let mut bytes = Vec::new();
    reader
        .take(cap as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {name}: {}", crate::load::describe_io(&e)))?;
    let mib = |n: usize| n / (1024 * 1024);
    let too_long = |what: String| {
        format!("{name} is longer than {what}, the most `pktc inspect` decodes (the default frame limit)")
    };
    if bytes.len() > cap {
        return Err(too_long(if hex {
            format!("{} MiB of hex text", mib(MAX_HEX_INPUT))
        } else {
            format!("{} MiB", mib(MAX_INPUT))
        }));
    }
    if !hex {
        return Ok(bytes);
    }
    let text = String::from_utf8(bytes).map_err(|_| "hex input is not text".to_string())?;
    let bytes = parse_hex(&text).map_err(|e| format!("bad hex input: {e}"))?;
    if bytes.len() > MAX_INPUT {
        return Err(too_long(format!("{} MiB of bytes", mib(MAX_INPUT))));
    }
    Ok(bytes)
}

/// How `pktc inspect` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Json,
    Hex,
}

/// `pktc inspect`: decodes `input` as the type named `type_name` (one value,
/// or with `stream` a sequence of union frames) and returns what to print,
/// and the error, if any, to report after it.
pub fn inspect(
    ir: &Ir,
    type_name: &str,
    input: &[u8],
    format: Format,
    stream: bool,
) -> Result<String, (String, String)> {
    let id = find_type(ir, type_name).map_err(|e| (String::new(), e))?;
    let limits = Limits::default();
    let (trees, complete, error) = if stream {
        if !matches!(ir.ty(id).kind, TypeKind::Union { .. }) {
            let e = format!("--stream reads union frames; `{type_name}` is not a union");
            return Err((String::new(), e));
        }
        decode_stream(ir, id, input, limits)
    } else {
        let (tree, error) = decode(ir, id, input, limits);
        (vec![tree], usize::from(error.is_none()), error)
    };
    let mut out = String::new();
    match format {
        Format::Json if stream => {
            for t in &trees[..complete] {
                out.push_str(&to_json(t));
                out.push('\n');
            }
        }
        Format::Json => {
            if error.is_none() {
                out.push_str(&to_json_pretty(&trees[0]));
                out.push('\n');
            }
        }
        Format::Hex => {
            for (i, t) in trees.iter().enumerate() {
                if stream {
                    out.push_str(&format!("# frame {i}\n"));
                }
                out.push_str(&hex_dump(t));
            }
        }
    }
    match error {
        Some(e) => Err((out, format!("cannot decode: {e}"))),
        None => Ok(out),
    }
}

/// `pktc inspect --delta-against`: applies `delta`, a delta of the `@delta`
/// struct or message named `type_name`, to `baseline`, the encoding of the
/// value it was written against, and returns what to print: with JSON, an
/// object of the fields that changed (`"changed"`, paths as errors name
/// them) and the new value as `inspect` prints values (`"value"`); with hex,
/// the changed fields as `# changed:` lines, then the hex dump of the new
/// value's ordinary encoding (offsets count in that encoding). Errors in the
/// delta name offsets of the delta.
pub fn inspect_delta(
    ir: &Ir,
    type_name: &str,
    baseline: &[u8],
    delta: &[u8],
    format: Format,
) -> Result<String, (String, String)> {
    let id = find_type(ir, type_name).map_err(|e| (String::new(), e))?;
    if !crate::delta::is_delta(ir, id) {
        let e = format!(
            "`{type_name}` is not declared @delta; --delta-against reads deltas of @delta \
             structs and messages"
        );
        return Err((String::new(), e));
    }
    let limits = Limits::default();
    let applied =
        apply_delta(ir, id, baseline, delta, limits).map_err(|e| (String::new(), e.to_string()))?;
    let (tree, error) = decode(ir, id, &applied.bytes, limits);
    if let Some(e) = error {
        let e = format!("the value the delta makes does not decode: {e}");
        return Err((String::new(), e));
    }
    let mut out = String::new();
    match format {
        Format::Json => {
            let changed: Vec<String> = applied.changed.iter().map(|c| json::quoted(c)).collect();
            out.push_str("{\n  \"changed\": [");
            for (i, c) in changed.iter().enumerate() {
                out.push_str(if i == 0 { "\n    " } else { ",\n    " });
                out.push_str(c);
            }
            out.push_str(if changed.is_empty() {
                "],\n"
            } else {
                "\n  ],\n"
            });
            out.push_str("  \"value\": ");
            out.push_str(&to_json_pretty(&tree).replace('\n', "\n  "));
            out.push_str("\n}\n");
        }
        Format::Hex => {
            for c in &applied.changed {
                out.push_str(&format!("# changed: {c}\n"));
            }
            out.push_str("# the new value, as encoded\n");
            out.push_str(&hex_dump(&tree));
        }
    }
    Ok(out)
}
