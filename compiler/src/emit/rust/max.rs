//! Fields and variants with `@max` limits inside their type
//! (`list<string @max(24)> @max(8)`): generated code describes the limits
//! with a marker type of `pkt_runtime::max` (`List<8, Len<24>>`), named
//! `Max` by a type alias in the block that uses it, and decodes, views and
//! checks the value through that module instead of `Reader::field` and
//! `check_max`. A field with only its own `@max` keeps the plain path.

use super::layout;
use crate::ir::{Elem, Type};

const PATH: &str = "::pkt_runtime::max::";

/// The marker type of the limits in a type expression.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Marker {
    Any,
    Len(u32),
    List(u32, Box<Marker>),
    Array(Box<Marker>),
    Map(u32, Box<Marker>, Box<Marker>),
    Opt(Box<Marker>),
}

/// Whether an element has a limit on it or inside it.
fn bounded(e: &Elem) -> bool {
    e.max.is_some() || e.ty.has_element_max()
}

impl Marker {
    /// The marker of a field or variant of type `ty` with its own `@max`
    /// `max`, when the type has a limit inside.
    pub(super) fn of(ty: &Type, max: Option<u32>) -> Option<Marker> {
        ty.has_element_max().then(|| Marker::build(ty, max))
    }

    fn build(ty: &Type, max: Option<u32>) -> Marker {
        // A collection without a count limit of its own: no count exceeds
        // `u32::MAX`.
        let count = max.unwrap_or(u32::MAX);
        let elem = |e: &Elem| Box::new(Marker::build(&e.ty, e.max));
        match ty {
            // `@max` on `T?` bounds the `T`.
            Type::Optional(t) if max.is_some() || t.has_element_max() => {
                Marker::Opt(Box::new(Marker::build(t, max)))
            }
            Type::List(e) if bounded(e) => Marker::List(count, elem(e)),
            Type::Array(e, _) if bounded(e) => Marker::Array(elem(e)),
            Type::Map(k, v) if bounded(k) || bounded(v) => Marker::Map(count, elem(k), elem(v)),
            _ => match max {
                Some(n) => Marker::Len(n),
                None => Marker::Any,
            },
        }
    }

    /// The marker's name and its arguments.
    fn parts(&self) -> (&'static str, Vec<Arg<'_>>) {
        match self {
            Marker::Any => ("Any", Vec::new()),
            Marker::Len(n) => ("Len", vec![Arg::Number(*n)]),
            Marker::List(n, e) => ("List", vec![Arg::Number(*n), Arg::Marker(e)]),
            Marker::Array(e) => ("Array", vec![Arg::Marker(e)]),
            Marker::Map(n, k, v) => ("Map", vec![Arg::Number(*n), Arg::Marker(k), Arg::Marker(v)]),
            Marker::Opt(b) => ("Opt", vec![Arg::Marker(b)]),
        }
    }

    /// The marker on one line.
    fn text(&self) -> String {
        let (name, args) = self.parts();
        if args.is_empty() {
            return format!("{PATH}{name}");
        }
        let args: Vec<String> = args.iter().map(Arg::text).collect();
        format!("{PATH}{name}<{}>", args.join(", "))
    }

    /// `type Max = <marker>;`.
    pub(super) fn alias(&self) -> String {
        format!("type Max = {};", layout::ty(&self.text(), true))
    }
}

enum Arg<'m> {
    Number(u32),
    Marker(&'m Marker),
}

impl Arg<'_> {
    fn text(&self) -> String {
        match self {
            Arg::Number(n) => n.to_string(),
            Arg::Marker(m) => m.text(),
        }
    }
}

/// The reader argument of a call: `&mut body` for a message's body, which
/// the function owns, or the `&mut Reader` parameter `r` itself.
fn reader_arg(reader: &str) -> String {
    if reader == "body" {
        "&mut body".to_string()
    } else {
        reader.to_string()
    }
}

/// `lead::pkt_runtime::max::<function>::<_, Max>(args)tail`: after a
/// `lead` (`let v = `), the call moves to the next line rather than break
/// its arguments when it fits there on one line, as rustfmt prefers.
pub(super) fn call(lead: &str, function: &str, args: &[String], tail: &str) -> String {
    let callee = format!("{PATH}{function}::<_, Max>");
    format!("{lead}{}{tail}", layout::movable_call(&callee, args))
}

/// The value of a bounded field decoded from `reader`.
pub(super) fn field(reader: &str, name: &str, tail: &str) -> String {
    call("", "field", &[reader_arg(reader), name.to_string()], tail)
}

/// A bounded field decoded from `reader` into `target`.
pub(super) fn field_into(reader: &str, target: &str, name: &str) -> String {
    call(
        "",
        "field_into",
        &[reader_arg(reader), target.to_string(), name.to_string()],
        "?;",
    )
}

/// The view of a bounded field read from `reader`, `lead` before it.
pub(super) fn view_field(lead: &str, reader: &str, name: &str, tail: &str) -> String {
    call(
        lead,
        "view_field",
        &[reader_arg(reader), name.to_string()],
        tail,
    )
}

/// `Max` and the statement that reads a bounded union variant's payload
/// from `body` into `v`: `function` is `variant` (decode), `variant_into`
/// (into the existing `v`) or `view_variant`.
pub(super) fn variant_lines(marker: &Marker, function: &str, name: &str) -> Vec<String> {
    let read = match function {
        "variant_into" => call(
            "",
            function,
            &["&mut body".to_string(), "v".to_string(), name.to_string()],
            "?;",
        ),
        _ => call(
            "let v = ",
            function,
            &["&mut body".to_string(), name.to_string()],
            "?;",
        ),
    };
    vec![marker.alias(), read]
}

/// The encoders' check of a bounded field or variant `value`, in a block
/// of its own with its `Max`; `tail` after the call. Lines indented
/// relative to the block's braces.
pub(super) fn check_block(marker: &Marker, name: &str, value: &str, tail: &str) -> Vec<String> {
    let check = call(
        "",
        "check",
        &[
            name.to_string(),
            value.to_string(),
            "depth".to_string(),
            "max_depth".to_string(),
        ],
        tail,
    );
    vec![
        "{".to_string(),
        format!("    {}", marker.alias()),
        format!("    {check}"),
        "}".to_string(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Prim;

    fn elem(ty: Type, max: Option<u32>) -> Box<Elem> {
        Box::new(Elem { ty, max })
    }

    #[test]
    fn markers_follow_the_type() {
        let mentions = Type::List(elem(Type::String, Some(24)));
        assert_eq!(
            Marker::of(&mentions, Some(8)).unwrap().text(),
            "::pkt_runtime::max::List<8, ::pkt_runtime::max::Len<24>>"
        );
        assert_eq!(
            Marker::of(&Type::List(elem(Type::String, None)), Some(8)),
            None
        );
        let tags = Type::Optional(Box::new(Type::Map(
            elem(Type::Prim(Prim::U8), None),
            elem(Type::Bytes, Some(256)),
        )));
        assert_eq!(
            Marker::of(&tags, None),
            Some(Marker::Opt(Box::new(Marker::Map(
                u32::MAX,
                Box::new(Marker::Any),
                Box::new(Marker::Len(256))
            ))))
        );
    }

    /// `Max` laid out at `indent` columns.
    fn alias_at(m: &Marker, indent: usize) -> Vec<String> {
        let line = format!("{}{}", " ".repeat(indent), m.alias());
        layout::lay_out(&line)
            .split('\n')
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn an_alias_moves_to_the_next_line_before_it_breaks() {
        let m = Marker::Opt(Box::new(Marker::Array(Box::new(Marker::Len(24)))));
        assert_eq!(
            alias_at(&m, 12),
            [
                "            type Max =",
                "                ::pkt_runtime::max::Opt<::pkt_runtime::max::Array<::pkt_runtime::max::Len<24>>>;",
            ]
        );
    }

    #[test]
    fn a_long_alias_breaks_like_rustfmt() {
        let m = Marker::Map(
            u32::MAX,
            Box::new(Marker::Len(32)),
            Box::new(Marker::Opt(Box::new(Marker::List(
                4,
                Box::new(Marker::Len(256)),
            )))),
        );
        assert_eq!(
            alias_at(&m, 16),
            [
                "                type Max = ::pkt_runtime::max::Map<",
                "                    4294967295,",
                "                    ::pkt_runtime::max::Len<32>,",
                "                    ::pkt_runtime::max::Opt<",
                "                        ::pkt_runtime::max::List<4, ::pkt_runtime::max::Len<256>>,",
                "                    >,",
                "                >;",
            ]
        );
    }
}
