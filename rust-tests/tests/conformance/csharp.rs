//! The C# driver: `Driver.cs` below, plus per-type dispatch and value text
//! generated here from the IR, compiled with the generated C# by `mcs`
//! (as the other C# tests do) once per distinct source, and run under
//! `mono <Driver.exe> <cases> <answers>`.

use std::fmt::Write as _;

use pktc::emit::{generate, GenOptions};
use pktc::ir::{Ir, Prim, Type, TypeId, TypeKind};
use pktc::names::{Lang, NameKind};

use crate::support::{mono, qualified};
use crate::Driver;

/// Builds the driver unless a build of the same sources is cached under the
/// target directory; `None` (after a loud warning) without Mono outside CI.
pub fn prepare(ir: &Ir) -> Option<Driver> {
    if !mono::tools_or_skip("conformance (C#)") {
        return None;
    }
    let sources = [
        ("Driver.cs", DRIVER.to_string()),
        ("Dispatch.cs", dispatch(ir)),
    ];
    let generated: Vec<String> = generate(ir, &GenOptions::new(Lang::CSharp))
        .into_iter()
        .map(|f| f.contents)
        .collect();
    let inputs = generated
        .iter()
        .chain(sources.iter().map(|(_, text)| text))
        .map(String::as_str);
    let dir = crate::cached_build("csharp", inputs, |dir| {
        mono::build(dir, ir, &sources, "Driver");
    });
    let exe = dir.join("Driver.exe");
    Some(Driver::Program {
        program: "mono".into(),
        args: vec![exe.into_os_string()],
    })
}

/// The C# type of a primitive.
fn prim(p: Prim) -> &'static str {
    match p {
        Prim::Bool => "bool",
        Prim::U8 => "byte",
        Prim::I8 => "sbyte",
        Prim::U16 => "ushort",
        Prim::I16 => "short",
        Prim::U32 => "uint",
        Prim::I32 => "int",
        Prim::U64 => "ulong",
        Prim::I64 => "long",
        Prim::F32 => "float",
        Prim::F64 => "double",
    }
}

/// Whether C# holds the type as a value type (an optional one is `T?`).
fn value_type(ir: &Ir, ty: &Type) -> bool {
    match ty {
        Type::Prim(_) => true,
        Type::Named(r) => {
            let def = ir.ty(r.id);
            match def.kind {
                TypeKind::Enum { .. } => true,
                TypeKind::Struct { .. } => def.layout.is_fixed(),
                _ => false,
            }
        }
        _ => false,
    }
}

/// Statements rendering `var` (of type `ty`) into `o`.
fn render(ir: &Ir, ty: &Type, var: &str, d: usize) -> String {
    match ty {
        Type::Prim(Prim::Bool) => format!("Bool(o, {var});"),
        Type::Prim(Prim::F32) => format!("F32(o, {var});"),
        Type::Prim(Prim::F64) => format!("F64(o, {var});"),
        Type::Prim(_) => format!("o.Append({var}.ToString(CultureInfo.InvariantCulture));"),
        Type::String => format!("Str(o, {var});"),
        Type::Bytes => format!("Bytes(o, {var});"),
        Type::List(e) | Type::Array(e, _) => format!(
            "Seq(o, {var}, x{d} => {{ {} }});",
            render(ir, &e.ty, &format!("x{d}"), d + 1)
        ),
        Type::Map(k, v) => format!(
            "Map(o, {var}, k{d} => {{ {} }}, v{d} => {{ {} }});",
            render(ir, &k.ty, &format!("k{d}"), d + 1),
            render(ir, &v.ty, &format!("v{d}"), d + 1)
        ),
        Type::Optional(inner) => {
            let (test, value) = if value_type(ir, inner) {
                (format!("{var}.HasValue"), format!("{var}.Value"))
            } else {
                (format!("{var} != null"), var.to_string())
            };
            format!(
                "if ({test}) {{ var x{d} = {value}; {} }} else o.Append(\"null\");",
                render(ir, inner, &format!("x{d}"), d + 1)
            )
        }
        Type::Named(r) => match &ir.ty(r.id).kind {
            TypeKind::Enum { base, .. } => format!(
                "o.Append((({}){var}).ToString(CultureInfo.InvariantCulture));",
                prim(*base)
            ),
            _ => format!("R{}(o, {var});", r.id.0),
        },
    }
}

/// `Dispatch.cs`: the answer for a type name, and a value-text method per type.
fn dispatch(ir: &Ir) -> String {
    let mut cases = String::new();
    let mut frames = String::new();
    let mut methods = String::new();
    for (i, def) in ir.types.iter().enumerate() {
        let id = TypeId(i);
        let cs = mono::csharp_name(ir, id);
        let member = |kind, name: &str| Lang::CSharp.naming().member_ident(kind, name, def);
        let mut body = String::new();
        match &def.kind {
            // Enums have no codec of their own in C#: they are read and
            // written inside the types that hold them.
            TypeKind::Enum { .. } => continue,
            TypeKind::Struct { fields } | TypeKind::Message { fields, .. } => {
                body.push_str("o.Append('{');\n");
                for (i, f) in fields.iter().enumerate() {
                    let label = format!("{}{}:", if i > 0 { "," } else { "" }, f.name);
                    let var = format!("v.{}", member(NameKind::Field, &f.name));
                    let _ = writeln!(body, "o.Append({label:?}); {}", render(ir, &f.ty, &var, 0));
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
                    let _ = writeln!(body, "o.Append({label:?}); Bytes(o, v.UnknownFields);");
                }
                body.push_str("o.Append('}');\n");
            }
            TypeKind::Union { variants, .. } => {
                for v in variants {
                    let _ = writeln!(
                        body,
                        "if (v is {cs}.{} u{}) {{ o.Append({:?}); {} o.Append(')'); return; }}",
                        member(NameKind::Variant, &v.name),
                        v.tag,
                        format!("{}(", v.name),
                        render(ir, &v.ty, &format!("u{}.Value", v.tag), 0)
                    );
                }
                let _ = writeln!(
                    body,
                    "var unknown = ({cs}.Unknown)v; UnknownVariant(o, unknown.UnknownTag, unknown.Body);"
                );
            }
        }
        let _ = writeln!(
            methods,
            "    static void R{i}(StringBuilder o, {cs} v)\n    {{\n{body}    }}\n"
        );
        let limited = !matches!(def.kind, TypeKind::Struct { .. }) || !def.layout.is_fixed();
        let decode = if limited {
            format!("limits == null ? {cs}.Decode(b) : {cs}.Decode(b, limits)")
        } else {
            format!("{cs}.Decode(b)")
        };
        let _ = writeln!(
            cases,
            "            case \"{}\": {{ var v = {decode}; var again = v.ToArray(); var o = new StringBuilder(); R{i}(o, v); return Ok(again, o); }}",
            qualified(ir, id)
        );
        // Unions and messages are frames (their length prefix delimits them).
        if matches!(def.kind, TypeKind::Union { .. } | TypeKind::Message { .. }) {
            let _ = writeln!(
                frames,
                "            case \"{}\": return Frames<{cs}>({cs}.ReadFrom, b, limits, v => v.ToArray(), R{i});",
                qualified(ir, id)
            );
        }
    }
    format!(
        "using System;\nusing System.Globalization;\nusing System.Text;\n\n\
         // Every type is decoded, the deprecated ones too.\n#pragma warning disable 612, 618\n\n\
         static partial class Driver\n{{\n\
         \x20   static string Answer(string type, byte[] b, Pkt.PktLimits limits)\n    {{\n        switch (type)\n        {{\n\
         {cases}            default: throw new InvalidOperationException(\"no type \" + type);\n        }}\n    }}\n\n\
         \x20   static string Frames(string type, byte[] b, Pkt.PktLimits limits)\n    {{\n        switch (type)\n        {{\n\
         {frames}            default: throw new InvalidOperationException(\"no frames of \" + type);\n        }}\n    }}\n\n{methods}}}\n"
    )
}

/// The protocol's loop and value text helpers.
const DRIVER: &str = r#"using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Text;

static partial class Driver
{
    static int Main(string[] args)
    {
        var output = new StreamWriter(args[1], false, new UTF8Encoding(false));
        output.NewLine = "\n";
        using (output)
        {
            foreach (var line in File.ReadAllLines(args[0]))
            {
                var parts = line.Split(' ');
                var bytes = parts[1] == "-" ? new byte[0] : Unhex(parts[1]);
                Pkt.PktLimits limits = null;
                if (parts[2] != "-")
                {
                    var n = parts[2].Split(',');
                    limits = new Pkt.PktLimits(
                        int.Parse(n[0]), int.Parse(n[1]), int.Parse(n[2]), int.Parse(n[3]),
                        long.Parse(n[4]), long.Parse(n[5]));
                }
                string answer;
                try
                {
                    answer = parts.Length > 3 && parts[3] == "frames"
                        ? Frames(parts[0], bytes, limits)
                        : Answer(parts[0], bytes, limits);
                }
                catch (Pkt.PktDecodeException e)
                {
                    answer = "err " + e.Reason + " " + e.Offset;
                }
                catch (Pkt.PktEncodeException e)
                {
                    answer = "unencodable " + e.Message;
                }
                catch (Exception e)
                {
                    answer = "escaped " + e.GetType().FullName + ": " + e.Message.Replace('\n', ' ');
                }
                output.WriteLine(answer);
            }
        }
        return 0;
    }

    // A frame reader over the whole input: each frame's answer and " ; ",
    // then "end <bytes left buffered>"; a failed reader ends the line.
    static string Frames<T>(Pkt.PktReadFunc<T> read, byte[] b, Pkt.PktLimits limits, Func<T, byte[]> encode, Action<StringBuilder, T> render)
    {
        var reader = new Pkt.PktFrameReader<T>(read, limits ?? Pkt.PktLimits.Default);
        reader.Push(b, 0, b.Length);
        var o = new StringBuilder("frames ");
        while (true)
        {
            try
            {
                T v;
                if (!reader.TryRead(out v)) break;
                try
                {
                    o.Append("ok ").Append(Hex(encode(v))).Append(' ');
                    render(o, v);
                }
                catch (Pkt.PktEncodeException e)
                {
                    o.Append("unencodable " + e.Message);
                }
            }
            catch (Pkt.PktDecodeException e)
            {
                o.Append("err ").Append(e.Reason).Append(' ').Append(e.Offset);
                if (reader.IsFailed)
                {
                    o.Append(" ; ");
                    break;
                }
            }
            o.Append(" ; ");
        }
        o.Append("end ").Append(reader.Buffered);
        return o.ToString();
    }

    static string Ok(byte[] again, StringBuilder value)
    {
        return "ok " + Hex(again) + " " + value;
    }

    static string Hex(byte[] b)
    {
        const string digits = "0123456789abcdef";
        var s = new char[b.Length * 2];
        for (int i = 0; i < b.Length; i++)
        {
            s[2 * i] = digits[b[i] >> 4];
            s[2 * i + 1] = digits[b[i] & 15];
        }
        return new string(s);
    }

    static byte[] Unhex(string s)
    {
        var b = new byte[s.Length / 2];
        for (int i = 0; i < b.Length; i++) b[i] = (byte)(Nibble(s[2 * i]) << 4 | Nibble(s[2 * i + 1]));
        return b;
    }

    static int Nibble(char c)
    {
        return c <= '9' ? c - '0' : c - 'a' + 10;
    }

    static void Bool(StringBuilder o, bool v) { o.Append(v ? "true" : "false"); }

    static void F32(StringBuilder o, float v)
    {
        o.Append("f32:").Append(BitConverter.ToUInt32(BitConverter.GetBytes(v), 0).ToString("x8"));
    }

    static void F64(StringBuilder o, double v)
    {
        o.Append("f64:").Append(((ulong)BitConverter.DoubleToInt64Bits(v)).ToString("x16"));
    }

    static void Str(StringBuilder o, string s)
    {
        o.Append('"');
        foreach (var c in s)
        {
            if (c == '"') o.Append("\\\"");
            else if (c == '\\') o.Append("\\\\");
            else if (c < 0x20 || c == 0x7F) o.Append("\\u").Append(((int)c).ToString("x4"));
            else o.Append(c);
        }
        o.Append('"');
    }

    static void Bytes(StringBuilder o, byte[] b)
    {
        o.Append("0x").Append(Hex(b));
    }

    static void Seq<T>(StringBuilder o, IEnumerable<T> items, Action<T> f)
    {
        o.Append('[');
        var first = true;
        foreach (var x in items)
        {
            if (!first) o.Append(',');
            first = false;
            f(x);
        }
        o.Append(']');
    }

    static void Map<K, V>(StringBuilder o, IEnumerable<KeyValuePair<K, V>> entries, Action<K> fk, Action<V> fv)
    {
        o.Append('{');
        var first = true;
        foreach (var e in entries)
        {
            if (!first) o.Append(',');
            first = false;
            fk(e.Key);
            o.Append(':');
            fv(e.Value);
        }
        o.Append('}');
    }

    static void UnknownVariant(StringBuilder o, ulong tag, byte[] body)
    {
        o.Append('?').Append(tag.ToString(CultureInfo.InvariantCulture)).Append('(');
        Bytes(o, body);
        o.Append(')');
    }
}
"#;
