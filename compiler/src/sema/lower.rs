//! Binds names and lowers each declaration to IR, checking what can be checked
//! one declaration at a time. Sizes are left for `layout`.

use std::collections::HashMap;

use super::suggest;
use crate::diag::{Diagnostic, Lint, Span};
use crate::ir::*;
use crate::load::Loaded;
use crate::names::UNKNOWN;
use crate::syntax::ast::{self, LitKind, Literal, TypeExprKind};

/// The longest fixed array accepted; larger would be a wire-size mistake.
const MAX_ARRAY_LEN: i128 = 1 << 20;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Symbol {
    Type(TypeId),
    /// File index and index into that file's consts.
    Const(usize, usize),
}

struct Decl {
    symbol: Symbol,
    span: Span,
}

struct Lowerer<'a> {
    loaded: &'a Loaded,
    /// Declarations of each file by name.
    decls: Vec<HashMap<String, Decl>>,
    /// Namespace of each file, dotted.
    namespaces: Vec<String>,
    ir: Ir,
    diags: Vec<Diagnostic>,
}

pub fn lower(loaded: &Loaded) -> (Ir, Vec<Diagnostic>) {
    let mut cx = Lowerer {
        loaded,
        decls: Vec::new(),
        namespaces: Vec::new(),
        ir: Ir {
            files: Vec::new(),
            types: Vec::new(),
        },
        diags: Vec::new(),
    };
    cx.declare();
    cx.name_for_display();
    cx.lower_consts();
    cx.lower_types();
    (cx.ir, cx.diags)
}

impl Lowerer<'_> {
    fn err(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// Gives every type an id and every name a binding, so declarations can
    /// refer to each other in any order.
    fn declare(&mut self) {
        // Types and constants share one namespace per schema namespace, since
        // they share one module in the generated code.
        let mut by_namespace: HashMap<String, HashMap<String, Span>> = HashMap::new();
        for (fi, file) in self.loaded.files.iter().enumerate() {
            let ast = &file.ast;
            let namespace: Vec<String> = ast
                .namespace
                .as_ref()
                .map(|n| n.path.iter().map(|i| i.name.clone()).collect())
                .unwrap_or_default();
            let ns = namespace.join(".");
            let mut decls = HashMap::new();
            let mut consts = 0;
            for item in &ast.items {
                let name = item.name();
                if is_builtin(&name.name) {
                    self.err(
                        Diagnostic::error(
                            format!("`{}` is a builtin type and cannot be declared", name.name),
                            name.span,
                            "builtin name",
                        )
                        .with_help("choose another name"),
                    );
                    continue;
                }
                let seen = by_namespace.entry(ns.clone()).or_default();
                if let Some(&first) = seen.get(&name.name) {
                    let where_ = if ns.is_empty() {
                        "without a namespace".to_string()
                    } else {
                        format!("in namespace `{ns}`")
                    };
                    self.diags.push(
                        Diagnostic::error(
                            format!("`{}` is declared twice {where_}", name.name),
                            name.span,
                            "declared again here",
                        )
                        .with_label(first, "first declared here")
                        .with_help("rename one of them"),
                    );
                    continue;
                }
                seen.insert(name.name.clone(), name.span);
                let symbol = match &item.kind {
                    ast::ItemKind::Const(_) => {
                        consts += 1;
                        Symbol::Const(fi, consts - 1)
                    }
                    _ => {
                        let id = TypeId(self.ir.types.len());
                        self.ir.types.push(TypeDef {
                            name: name.name.clone(),
                            display_name: String::new(),
                            file: FileIndex(fi),
                            doc: item.doc.clone(),
                            deprecated: false,
                            deprecated_note: None,
                            layout: Layout::Variable { min_size: 0 },
                            memory: Memory::EMPTY,
                            kind: TypeKind::Struct { fields: Vec::new() },
                            span: name.span,
                            allow: Vec::new(),
                            delta: false,
                        });
                        Symbol::Type(id)
                    }
                };
                decls.insert(
                    name.name.clone(),
                    Decl {
                        symbol,
                        span: name.span,
                    },
                );
            }
            self.decls.push(decls);
            self.namespaces.push(ns);
            self.ir.files.push(FileIr {
                name: self.loaded.sources.get(file.id).name.clone(),
                id: file.id,
                path: self.loaded.sources.get(file.id).path.clone(),
                namespace,
                namespace_span: ast.namespace.as_ref().and_then(|n| {
                    let (first, last) = (n.path.first()?, n.path.last()?);
                    Some(Span {
                        end: last.span.end,
                        ..first.span
                    })
                }),
                doc: ast
                    .namespace
                    .as_ref()
                    .map(|n| n.doc.clone())
                    .unwrap_or_default(),
                imports: file
                    .imports
                    .iter()
                    .flatten()
                    .map(|&i| FileIndex(i))
                    .collect(),
                consts: Vec::new(),
                types: Vec::new(),
                is_input: file.is_input,
            });
        }
    }

    /// Gives every type the name tools and errors show: qualified when
    /// another type has the same name in another namespace.
    fn name_for_display(&mut self) {
        let mut count: HashMap<&str, usize> = HashMap::new();
        for t in &self.ir.types {
            *count.entry(t.name.as_str()).or_default() += 1;
        }
        let shared: Vec<bool> = self
            .ir
            .types
            .iter()
            .map(|t| count[t.name.as_str()] > 1)
            .collect();
        for (t, shared) in self.ir.types.iter_mut().zip(shared) {
            let ns = &self.namespaces[t.file.0];
            t.display_name = if shared && !ns.is_empty() {
                format!("{ns}.{}", t.name)
            } else {
                t.name.clone()
            };
        }
    }

    /// Finds what a (possibly dotted) name means in `file`: its own
    /// declarations first, then those of the files it imports.
    fn lookup(&mut self, file: usize, path: &[ast::Ident], what: &str) -> Option<Symbol> {
        let name = &path[path.len() - 1];
        let qualifier = path[..path.len() - 1]
            .iter()
            .map(|i| i.name.as_str())
            .collect::<Vec<_>>()
            .join(".");
        let span = Span::new(
            name.span.file,
            path[0].span.start as usize,
            name.span.end as usize,
        );
        let mut scope = vec![file];
        scope.extend(self.ir.files[file].imports.iter().map(|i| i.0));
        let mut found: Vec<(usize, Symbol)> = Vec::new();
        for &f in &scope {
            if !qualifier.is_empty() && self.namespaces[f] != qualifier {
                continue;
            }
            if let Some(d) = self.decls[f].get(&name.name) {
                if !found.iter().any(|(_, s)| *s == d.symbol) {
                    found.push((f, d.symbol));
                }
            }
            if f == file && !found.is_empty() && qualifier.is_empty() {
                break;
            }
        }
        match found.len() {
            1 => Some(found[0].1),
            // An import of this file failed (missing, a cycle, or a file
            // that does not parse), which is reported already; the name may
            // be declared there.
            0 if self.loaded.files[file]
                .imports
                .iter()
                .any(|i| i.is_none_or(|i| self.loaded.files[i].unparsed)) =>
            {
                None
            }
            0 => {
                let shown: String = path
                    .iter()
                    .map(|i| i.name.as_str())
                    .collect::<Vec<_>>()
                    .join(".");
                // Only names of the kind wanted (a constant is never a type),
                // from the namespace named if any.
                let wants_const = what == "constant";
                let candidates: Vec<String> = scope
                    .iter()
                    .filter(|&&f| qualifier.is_empty() || self.namespaces[f] == qualifier)
                    .flat_map(|&f| {
                        self.decls[f]
                            .iter()
                            .filter(|(_, d)| matches!(d.symbol, Symbol::Const(..)) == wants_const)
                            .map(|(n, _)| n.clone())
                    })
                    .chain(
                        builtin_names()
                            .filter(|_| !wants_const && qualifier.is_empty())
                            .map(String::from),
                    )
                    .collect();
                let mut d = Diagnostic::error(
                    format!("unknown {what} `{shown}`"),
                    span,
                    "not declared in this file or the files it imports",
                );
                let prefix = if qualifier.is_empty() {
                    String::new()
                } else {
                    format!("{qualifier}.")
                };
                d = match suggest(&name.name, candidates.iter().map(String::as_str)) {
                    Some(s) => d.with_help(format!("did you mean `{prefix}{s}`?")),
                    None => d.with_help(format!(
                        "declare the {what}, or import the file that declares it"
                    )),
                };
                self.err(d);
                None
            }
            _ => {
                let mut d = Diagnostic::error(
                    format!("`{}` is ambiguous", name.name),
                    span,
                    "declared in more than one imported namespace",
                );
                for (f, _) in &found {
                    if let Some(decl) = self.decls[*f].get(&name.name) {
                        d = d.with_label(
                            decl.span,
                            format!("declared in `{}`", self.namespaces[*f]),
                        );
                    }
                }
                self.err(d.with_help(format!(
                    "qualify it with its namespace, e.g. `{}.{}`",
                    self.namespaces[found[0].0], name.name
                )));
                None
            }
        }
    }

    /// Constants, each file's after those of the files it imports: a value
    /// may name an imported constant (`same_stem.server.LIMIT`).
    fn lower_consts(&mut self) {
        for fi in imports_first(&self.loaded.files) {
            let file = &self.loaded.files[fi];
            for item in &file.ast.items {
                let ast::ItemKind::Const(c) = &item.kind else {
                    continue;
                };
                if !matches!(self.decls[fi].get(&c.name.name), Some(d) if d.span == c.name.span) {
                    continue; // a duplicate, already reported
                }
                let prim = match &c.ty.kind {
                    TypeExprKind::Named(p) if p.len() == 1 => Prim::from_name(&p[0].name),
                    _ => None,
                }
                .filter(|p| p.is_integer());
                let (prim, value) = match prim {
                    Some(prim) => {
                        let value = self
                            .int_value(fi, &c.value, prim, "constant")
                            .unwrap_or_default();
                        (prim, value)
                    }
                    None => {
                        self.err(
                            Diagnostic::error(
                                "constants must have an integer type",
                                c.ty.span,
                                "not an integer type",
                            )
                            .with_help("use one of u8, u16, u32, u64, i8, i16, i32, i64"),
                        );
                        (Prim::U32, 0)
                    }
                };
                self.ir.files[fi].consts.push(Const {
                    name: c.name.name.clone(),
                    doc: item.doc.clone(),
                    ty: prim,
                    value,
                    span: c.name.span,
                });
            }
        }
    }

    /// An integer literal, or a constant's value, checked against `prim`'s range.
    fn int_value(&mut self, file: usize, lit: &Literal, prim: Prim, what: &str) -> Option<i128> {
        let v = match &lit.kind {
            LitKind::Int(v) => *v,
            LitKind::Ident(name) => self.const_value(file, name, lit.span)?,
            // The result is checked against `prim` below like any number:
            // `-MAX` of a `u16` constant fits no unsigned type.
            LitKind::NegIdent(name) => -self.const_value(file, name, after_minus(lit.span))?,
            _ => {
                self.err(Diagnostic::error(
                    format!("expected an integer for this {what}"),
                    lit.span,
                    format!("this is {}", describe_literal(&lit.kind)),
                ));
                return None;
            }
        };
        let (lo, hi) = prim.int_range().expect("integer type");
        if v < lo || v > hi {
            let shown = match &lit.kind {
                LitKind::NegIdent(name) => format!("`-{name}` is {v}, which"),
                _ => v.to_string(),
            };
            self.err(
                Diagnostic::error(
                    format!("{shown} does not fit in `{}`", prim.name()),
                    lit.span,
                    format!("out of range for `{}`", prim.name()),
                )
                .with_help(format!("`{}` holds {lo} to {hi}", prim.name())),
            );
            return None;
        }
        Some(v)
    }

    fn const_value(&mut self, file: usize, name: &str, span: Span) -> Option<i128> {
        // `game.common.MAX_NAME`: the segments, each with its own span.
        let mut at = span.start as usize;
        let path: Vec<ast::Ident> = name
            .split('.')
            .map(|segment| {
                let ident = ast::Ident {
                    name: segment.to_string(),
                    span: Span::new(span.file, at, at + segment.len()),
                };
                at += segment.len() + 1;
                ident
            })
            .collect();
        match self.lookup(file, &path, "constant")? {
            Symbol::Const(f, i) => match self.ir.files[f].consts.get(i) {
                Some(c) => Some(c.value),
                None => {
                    self.err(Diagnostic::error(
                        format!("constant `{name}` is used before it is declared"),
                        span,
                        "declared later",
                    ));
                    None
                }
            },
            Symbol::Type(_) => {
                self.err(Diagnostic::error(
                    format!("`{name}` is a type, not a constant"),
                    span,
                    "expected a constant",
                ));
                None
            }
        }
    }

    fn lower_types(&mut self) {
        for (fi, file) in self.loaded.files.iter().enumerate() {
            for item in &file.ast.items {
                let name = item.name();
                let Some(Decl {
                    symbol: Symbol::Type(id),
                    span,
                }) = self.decls[fi].get(&name.name)
                else {
                    continue;
                };
                if *span != name.span {
                    continue; // a duplicate, already reported
                }
                let id = *id;
                self.ir.files[fi].types.push(id);
                let attrs = self.item_attrs(item);
                let kind = match &item.kind {
                    ast::ItemKind::Struct(r) => TypeKind::Struct {
                        fields: self.fields(fi, r, true),
                    },
                    ast::ItemKind::Message(r) => TypeKind::Message {
                        fields: self.fields(fi, r, false),
                        preserve_unknown: attrs.preserve_unknown,
                    },
                    ast::ItemKind::Enum(e) => self.enum_kind(fi, e),
                    ast::ItemKind::Union(u) => self.union_kind(fi, u),
                    ast::ItemKind::Const(_) => unreachable!("constants have no type id"),
                };
                let def = &mut self.ir.types[id.0];
                def.kind = kind;
                def.deprecated = attrs.deprecated;
                def.deprecated_note = attrs.deprecated_note;
                def.allow = attrs.allow;
                def.delta = attrs.delta;
            }
        }
    }

    fn item_attrs(&mut self, item: &ast::Item) -> ItemAttrs {
        let mut out = ItemAttrs::default();
        for a in self.once(&item.attrs) {
            match a.name.name.as_str() {
                "deprecated" => {
                    out.deprecated = true;
                    out.deprecated_note = self.deprecation_note(a);
                }
                "preserve_unknown" => {
                    self.no_args(a);
                    if matches!(item.kind, ast::ItemKind::Message(_)) {
                        out.preserve_unknown = true;
                    } else {
                        self.err(
                            Diagnostic::error(
                                format!(
                                    "`@preserve_unknown` applies to messages, not to a {}",
                                    item.keyword()
                                ),
                                a.span,
                                "not allowed here",
                            )
                            .with_help(match item.kind {
                                ast::ItemKind::Struct(_) => {
                                    "a struct is frozen: there are never unknown bytes to keep"
                                }
                                ast::ItemKind::Union(_) => {
                                    "unions always keep unknown variants as `Unknown`"
                                }
                                _ => "remove the attribute",
                            }),
                        );
                    }
                }
                "delta" => {
                    self.no_args(a);
                    out.delta = self.delta_attr(item, a);
                }
                "allow" => {
                    let lints = self.allow_attr(a);
                    out.allow.extend(lints);
                }
                _ => self.unknown_attr(a, &["allow", "delta", "deprecated", "preserve_unknown"]),
            }
        }
        out
    }

    /// Whether `@delta` holds on `item`: structs and messages of at most
    /// [`crate::delta::MAX_FIELDS`] fields (a delta's mask has at most 255
    /// bytes).
    fn delta_attr(&mut self, item: &ast::Item, a: &ast::Attr) -> bool {
        let fields = match &item.kind {
            ast::ItemKind::Struct(r) | ast::ItemKind::Message(r) => r.fields.len(),
            _ => {
                self.err(
                    Diagnostic::error(
                        format!(
                            "`@delta` applies to structs and messages, not to a {}",
                            item.keyword()
                        ),
                        a.span,
                        "not allowed here",
                    )
                    .with_help(match item.kind {
                        ast::ItemKind::Union(_) => {
                            "a union changes as a whole: a field holding it is sent whole when it changes"
                        }
                        _ => "an enum is one number: a field holding it is sent whole when it changes",
                    }),
                );
                return false;
            }
        };
        if fields > crate::delta::MAX_FIELDS {
            self.err(
                Diagnostic::error(
                    format!(
                        "`@delta` on a type of {fields} fields, more than the {} a delta's mask can name",
                        crate::delta::MAX_FIELDS
                    ),
                    a.span,
                    "too many fields",
                )
                .with_help("split the type into nested `@delta` types"),
            );
            return false;
        }
        true
    }

    /// The warnings `@allow(name, ...)` turns off.
    fn allow_attr(&mut self, a: &ast::Attr) -> Vec<Lint> {
        let names = Lint::ALL.map(Lint::name);
        let list = names.map(|n| format!("`{n}`")).join(", ");
        if a.args.is_empty() {
            self.err(
                Diagnostic::error(
                    "`@allow` takes the names of the warnings to turn off",
                    a.span,
                    "no warning named",
                )
                .with_help(format!("warnings that can be turned off: {list}")),
            );
        }
        let mut out = Vec::new();
        for arg in &a.args {
            let found = match &arg.kind {
                ast::LitKind::Ident(name) => Lint::from_name(name).ok_or(name.as_str()),
                _ => Err(""),
            };
            match found {
                Ok(lint) => out.push(lint),
                Err(name) => {
                    let d = Diagnostic::error(
                        if name.is_empty() {
                            "`@allow` takes warning names, not values".to_string()
                        } else {
                            format!("unknown warning `{name}`")
                        },
                        arg.span,
                        "not a warning name",
                    );
                    self.err(match suggest(name, names.into_iter()) {
                        Some(s) if !name.is_empty() => d.with_help(format!("did you mean `{s}`?")),
                        _ => d.with_help(format!("warnings that can be turned off: {list}")),
                    });
                }
            }
        }
        out
    }

    /// `attrs` without the repeats of an attribute, each reported: a second
    /// `@max` would silently replace the first (`list<string> @max(8)
    /// @max(24)` reads as if it bounded the strings). `@allow` may repeat,
    /// its names adding up.
    fn once<'a>(&mut self, attrs: &'a [ast::Attr]) -> Vec<&'a ast::Attr> {
        let mut out: Vec<&ast::Attr> = Vec::with_capacity(attrs.len());
        for a in attrs {
            let name = a.name.name.as_str();
            let first = out.iter().find(|b| b.name.name == name && name != "allow");
            let Some(first) = first else {
                out.push(a);
                continue;
            };
            let help = if name == "max" {
                "give one limit; to bound each element, key or value of a collection, \
                 write `@max` after its type: `list<string @max(24)> @max(8)`"
            } else {
                "remove the repeated attribute"
            };
            self.err(
                Diagnostic::error(
                    format!("`@{name}` is given twice"),
                    a.span,
                    "given again here",
                )
                .with_label(first.span, "first given here")
                .with_help(help),
            );
        }
        out
    }

    fn no_args(&mut self, a: &ast::Attr) {
        if !a.args.is_empty() {
            self.err(Diagnostic::error(
                format!("`@{}` takes no arguments", a.name.name),
                a.span,
                "remove the arguments",
            ));
        }
    }

    fn unknown_attr(&mut self, a: &ast::Attr, allowed: &[&str]) {
        let all = [
            "allow",
            "delta",
            "deprecated",
            "max",
            "preserve_unknown",
            "quantize",
        ];
        let (msg, label) = if all.contains(&a.name.name.as_str()) {
            (
                format!("`@{}` is not allowed here", a.name.name),
                "not allowed here",
            )
        } else {
            (
                format!("unknown attribute `@{}`", a.name.name),
                "unknown attribute",
            )
        };
        let list = allowed
            .iter()
            .map(|s| format!("`@{s}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let mut d = Diagnostic::error(msg, a.name.span, label);
        d = match suggest(&a.name.name, allowed.iter().copied()) {
            Some(s) => d.with_help(format!("did you mean `@{s}`?")),
            None => d.with_help(format!("allowed here: {list}")),
        };
        self.err(d);
    }

    fn fields(&mut self, file: usize, r: &ast::Record, is_struct: bool) -> Vec<Field> {
        let mut out: Vec<Field> = Vec::new();
        let mut seen: HashMap<&str, Span> = HashMap::new();
        for f in &r.fields {
            if let Some(&first) = seen.get(f.name.name.as_str()) {
                self.err(
                    Diagnostic::error(
                        format!(
                            "field `{}` is declared twice in `{}`",
                            f.name.name, r.name.name
                        ),
                        f.name.span,
                        "declared again here",
                    )
                    .with_label(first, "first declared here"),
                );
                continue;
            }
            seen.insert(&f.name.name, f.name.span);
            let ty = self.resolve(file, &f.ty);
            let mut deprecated = false;
            let mut deprecated_note = None;
            let mut max = None;
            let mut quantize = None;
            for a in self.once(&f.attrs) {
                match a.name.name.as_str() {
                    "deprecated" => {
                        deprecated = true;
                        deprecated_note = self.deprecation_note(a);
                    }
                    "max" => max = self.max_attr(file, a, ty.as_ref()),
                    "quantize" => quantize = self.quantize_attr(file, a, ty.as_ref()),
                    _ => self.unknown_attr(a, &["deprecated", "max", "quantize"]),
                }
            }
            let default = match (&f.default, &ty) {
                (Some(lit), _) if is_struct => {
                    self.err(
                        Diagnostic::error(
                            "struct fields cannot have defaults",
                            lit.span,
                            "default given here",
                        )
                        .with_help("a struct's layout is frozen and every field is always present; declare a `message` for fields that may be missing in older data"),
                    );
                    None
                }
                (Some(lit), Some(ty)) => self.default_value(file, lit, ty),
                _ => None,
            };
            if let (Some(q), Some(Value::Float(v)), Some(lit)) = (&quantize, &default, &f.default) {
                if !(*v >= q.min && *v <= q.max) {
                    self.err(
                        Diagnostic::error(
                            "the default is outside the quantized range",
                            lit.span,
                            format!("not between {} and {}", q.min, q.max),
                        )
                        .with_help("a quantized field holds values from its min to its max; give a default inside them"),
                    );
                }
            }
            let Some(ty) = ty else { continue };
            out.push(Field {
                name: f.name.name.clone(),
                path: String::new(),
                doc: f.doc.clone(),
                ty,
                default,
                default_charge: None,
                max,
                quantize,
                deprecated,
                deprecated_note,
                layout: Layout::Variable { min_size: 0 },
                offset: None,
                cyclic: false,
                span: f.name.span,
            });
        }
        out
    }

    fn max_attr(&mut self, file: usize, a: &ast::Attr, ty: Option<&Type>) -> Option<u32> {
        if a.args.len() != 1 {
            self.err(
                Diagnostic::error("`@max` takes one argument", a.span, "expected `@max(N)`")
                    .with_help(
                        "N is the most bytes of a string or bytes, or elements of a list or map",
                    ),
            );
            return None;
        }
        let n = self.int_value(file, &a.args[0], Prim::U32, "limit")?;
        let inner = match ty? {
            Type::Optional(t) => t.as_ref(),
            t => t,
        };
        if !matches!(
            inner,
            Type::String | Type::Bytes | Type::List(_) | Type::Map(..)
        ) {
            self.err(
                Diagnostic::error(
                    format!("`@max` does not apply to `{inner}`"),
                    a.span,
                    "only for string, bytes, list and map",
                )
                .with_help("`@max(N)` limits the bytes of a string or bytes, or the elements of a list or map"),
            );
            return None;
        }
        Some(n as u32)
    }

    /// `@quantize(min, max, step)` on an `f32` or `f64` field; the rules
    /// are `super::quantize`'s.
    fn quantize_attr(&mut self, file: usize, a: &ast::Attr, ty: Option<&Type>) -> Option<Quantize> {
        let prim = match ty? {
            Type::Prim(p) if p.is_float() => *p,
            t => {
                self.err(
                    Diagnostic::error(
                        format!("`@quantize` does not apply to `{t}`"),
                        a.span,
                        "only for `f32` and `f64` fields",
                    )
                    .with_help("`@quantize(min, max, step)` stores a float field as a whole number of steps; for an optional or a collection, quantize a field of a struct it holds"),
                );
                return None;
            }
        };
        if a.args.len() != 3 {
            self.err(
                Diagnostic::error(
                    "`@quantize` takes three arguments",
                    a.span,
                    "expected `@quantize(min, max, step)`",
                )
                .with_help("for example `x: f32 @quantize(-4096, 4096, 0.01)`: values from -4096 to 4096 in steps of 0.01"),
            );
            return None;
        }
        let mut args = Vec::with_capacity(3);
        for lit in &a.args {
            let value = match &lit.kind {
                LitKind::Float(v) => *v,
                LitKind::Int(v) => *v as f64,
                LitKind::Ident(name) if name == "inf" => f64::INFINITY,
                LitKind::Ident(name) if name == "nan" => f64::NAN,
                LitKind::Ident(name) => self.const_value(file, name, lit.span)? as f64,
                LitKind::NegIdent(name) => {
                    -(self.const_value(file, name, after_minus(lit.span))? as f64)
                }
                other => {
                    self.err(Diagnostic::error(
                        "expected a number for `@quantize`",
                        lit.span,
                        format!("this is {}", describe_literal(other)),
                    ));
                    return None;
                }
            };
            args.push(super::quantize::Arg {
                value,
                span: lit.span,
            });
        }
        match super::quantize::check(a.span, prim, args[0], args[1], args[2]) {
            Ok(q) => Some(q),
            Err(d) => {
                self.err(d);
                None
            }
        }
    }

    fn default_value(&mut self, file: usize, lit: &Literal, ty: &Type) -> Option<Value> {
        let mismatch = |this: &mut Self, expected: &str| {
            this.err(Diagnostic::error(
                format!("the default does not fit `{ty}`"),
                lit.span,
                format!("expected {expected}, found {}", describe_literal(&lit.kind)),
            ));
            None
        };
        match ty {
            Type::Prim(Prim::Bool) => match lit.kind {
                LitKind::Bool(b) => Some(Value::Bool(b)),
                _ => mismatch(self, "`true` or `false`"),
            },
            Type::Prim(p) if p.is_float() => match lit.kind {
                LitKind::Float(f)
                    if *p == Prim::F32 && f.is_finite() && f.abs() > f32::MAX as f64 =>
                {
                    mismatch(self, "a value within the range of `f32`")
                }
                LitKind::Float(f) => Some(Value::Float(f)),
                LitKind::Int(i) => Some(Value::Float(i as f64)),
                LitKind::Ident(ref name) if name == "inf" => Some(Value::Float(f64::INFINITY)),
                // The quiet NaN with sign and payload 0, in every language.
                LitKind::Ident(ref name) if name == "nan" => Some(Value::Float(f64::NAN)),
                _ => mismatch(self, "a number, `inf`, `-inf` or `nan`"),
            },
            Type::Prim(p) => match lit.kind {
                LitKind::Int(_) | LitKind::Ident(_) | LitKind::NegIdent(_) => {
                    self.int_value(file, lit, *p, "default").map(Value::Int)
                }
                _ => mismatch(self, "an integer"),
            },
            Type::String => match &lit.kind {
                LitKind::Str(s) => Some(Value::String(s.clone())),
                _ => mismatch(self, "a string"),
            },
            Type::Named(r) => {
                let def = &self.ir.types[r.id.0];
                let decl_enum =
                    self.loaded.files[def.file.0]
                        .ast
                        .items
                        .iter()
                        .find_map(|i| match &i.kind {
                            ast::ItemKind::Enum(e) if e.name.span == def.span => Some(e),
                            _ => None,
                        });
                let Some(e) = decl_enum else {
                    self.err(
                        Diagnostic::error(
                            format!("`{}` fields cannot have a default", r.name),
                            lit.span,
                            "not allowed for this type",
                        )
                        .with_help(format!(
                            "its default is a `{}` whose fields hold their own defaults",
                            r.name
                        )),
                    );
                    return None;
                };
                let LitKind::Ident(name) = &lit.kind else {
                    return mismatch(self, &format!("a value of `{}`", r.name));
                };
                match e.values.iter().position(|v| v.name.name == *name) {
                    Some(index) => {
                        let value = match &e.values[index].value.kind {
                            LitKind::Int(v) => *v as u64,
                            _ => 0,
                        };
                        Some(Value::Enum {
                            name: name.clone(),
                            index,
                            value,
                        })
                    }
                    None => {
                        let mut d = Diagnostic::error(
                            format!("`{}` has no value `{name}`", r.name),
                            lit.span,
                            "unknown value",
                        );
                        let names: Vec<&str> =
                            e.values.iter().map(|v| v.name.name.as_str()).collect();
                        d = match suggest(name, names.iter().copied()) {
                            Some(s) => d.with_help(format!("did you mean `{s}`?")),
                            None => d.with_help(format!("`{}` has {}", r.name, names.join(", "))),
                        };
                        self.err(d);
                        None
                    }
                }
            }
            Type::Optional(_) => {
                self.err(
                    Diagnostic::error("optional fields cannot have a default", lit.span, "not allowed")
                        .with_help("an optional field's default is absent; make the field non-optional to give it a value"),
                );
                None
            }
            _ => {
                self.err(
                    Diagnostic::error(
                        format!("`{ty}` fields cannot have a default"),
                        lit.span,
                        "not allowed",
                    )
                    .with_help("their default is empty (or all defaults, for arrays)"),
                );
                None
            }
        }
    }

    fn resolve(&mut self, file: usize, t: &ast::TypeExpr) -> Option<Type> {
        match &t.kind {
            TypeExprKind::Named(path) => {
                if path.len() == 1 {
                    let n = path[0].name.as_str();
                    if let Some(p) = Prim::from_name(n) {
                        return Some(Type::Prim(p));
                    }
                    match n {
                        "string" => return Some(Type::String),
                        "bytes" => return Some(Type::Bytes),
                        "list" | "map" => {
                            self.err(
                                Diagnostic::error(
                                    format!("`{n}` needs type arguments"),
                                    t.span,
                                    "missing `<...>`",
                                )
                                .with_help(if n == "list" {
                                    "write `list<T>`"
                                } else {
                                    "write `map<K, V>`"
                                }),
                            );
                            return None;
                        }
                        _ => {}
                    }
                }
                match self.lookup(file, path, "type")? {
                    Symbol::Type(id) => Some(Type::Named(TypeRef {
                        id,
                        name: self.ir.types[id.0].name.clone(),
                    })),
                    Symbol::Const(..) => {
                        self.err(Diagnostic::error(
                            format!("`{}` is a constant, not a type", path[path.len() - 1].name),
                            t.span,
                            "expected a type",
                        ));
                        None
                    }
                }
            }
            TypeExprKind::List(elem) => Some(Type::List(Box::new(self.elem(file, elem)?))),
            TypeExprKind::Map(k, v) => {
                let key = self.elem(file, k);
                let value = self.elem(file, v);
                let key = key?;
                let key_ok = match &key.ty {
                    Type::Prim(p) => p.is_integer() || *p == Prim::Bool,
                    Type::String => true,
                    Type::Named(r) => matches!(
                        self.loaded.files[self.ir.types[r.id.0].file.0]
                            .ast
                            .items
                            .iter()
                            .find(|i| i.name().span == self.ir.types[r.id.0].span)
                            .map(|i| &i.kind),
                        Some(ast::ItemKind::Enum(_))
                    ),
                    _ => false,
                };
                if !key_ok {
                    self.err(
                        Diagnostic::error(format!("`{}` cannot be a map key", key.ty), k.span, "not a valid key type")
                            .with_help("map keys are integers, bool, string or enums, so that every language orders them the same way"),
                    );
                    return None;
                }
                Some(Type::Map(Box::new(key), Box::new(value?)))
            }
            TypeExprKind::Array(elem, len) => {
                let elem = self.elem(file, elem);
                let n = self.int_value(file, len, Prim::U32, "array length");
                let n = match n {
                    Some(n) if !(1..=MAX_ARRAY_LEN).contains(&n) => {
                        self.err(
                            Diagnostic::error(
                                format!("an array length must be between 1 and {MAX_ARRAY_LEN}"),
                                len.span,
                                format!("length {n}"),
                            )
                            .with_help("use `list<T>` for a sequence whose length varies"),
                        );
                        None
                    }
                    n => n,
                };
                Some(Type::Array(Box::new(elem?), n? as u32))
            }
            TypeExprKind::Optional(inner) => {
                if let TypeExprKind::Optional(_) = inner.kind {
                    self.err(
                        Diagnostic::error("an optional cannot be optional again", t.span, "`??`")
                            .with_help("one `?` already allows the value to be absent"),
                    );
                    return None;
                }
                Some(Type::Optional(Box::new(self.resolve(file, inner)?)))
            }
        }
    }

    /// An element, key or value type and its attributes: `@max(N)` bounds
    /// each element as a field's bounds the field.
    fn elem(&mut self, file: usize, t: &ast::TypeExpr) -> Option<Elem> {
        let ty = self.resolve(file, t);
        let mut max = None;
        for a in self.once(&t.attrs) {
            match a.name.name.as_str() {
                "max" => max = self.max_attr(file, a, ty.as_ref()),
                "quantize" => self.err(
                    Diagnostic::error(
                        "`@quantize` applies to fields, not to elements, keys or values",
                        a.span,
                        "not allowed here",
                    )
                    .with_help("declare a struct with the quantized field and hold that struct: `struct Pos { x: f32 @quantize(0, 1, 0.01) }`, `list<Pos>`"),
                ),
                _ => self.unknown_attr(a, &["max"]),
            }
        }
        Some(Elem { ty: ty?, max })
    }

    fn enum_kind(&mut self, file: usize, e: &ast::EnumDecl) -> TypeKind {
        let base = match &e.base {
            None => Prim::U8,
            Some(b) => match Prim::from_name(&b.name) {
                Some(p @ (Prim::U8 | Prim::U16 | Prim::U32)) => p,
                _ => {
                    self.err(
                        Diagnostic::error(
                            format!("`{}` cannot be the base type of an enum", b.name),
                            b.span,
                            "expected u8, u16 or u32",
                        )
                        .with_help("an enum is stored as an unsigned integer: u8 (the default), u16 or u32"),
                    );
                    Prim::U8
                }
            },
        };
        if e.values.is_empty() {
            self.err(
                Diagnostic::error(
                    format!("enum `{}` has no values", e.name.name),
                    e.name.span,
                    "empty enum",
                )
                .with_help("an enum needs at least one value; its first value is the default"),
            );
        }
        let mut values: Vec<EnumValue> = Vec::new();
        let mut names: HashMap<&str, Span> = HashMap::new();
        let mut numbers: HashMap<i128, (Span, &str)> = HashMap::new();
        for v in &e.values {
            let (deprecated, deprecated_note) = self.value_attrs(&v.attrs);
            if v.name.name == UNKNOWN {
                self.err(reserved_unknown(
                    v.name.span,
                    "an enum value",
                    "an enum value the reader does not know",
                ));
                continue;
            }
            if let Some(&first) = names.get(v.name.name.as_str()) {
                self.err(
                    Diagnostic::error(
                        format!(
                            "`{}` is declared twice in enum `{}`",
                            v.name.name, e.name.name
                        ),
                        v.name.span,
                        "declared again here",
                    )
                    .with_label(first, "first declared here"),
                );
                continue;
            }
            names.insert(&v.name.name, v.name.span);
            let Some(n) = self.int_value(file, &v.value, base, "enum value") else {
                continue;
            };
            if let Some((first, first_name)) = numbers.get(&n) {
                self.err(
                    Diagnostic::error(
                        format!(
                            "`{}` and `{first_name}` have the same value {n}",
                            v.name.name
                        ),
                        v.value.span,
                        "value used again here",
                    )
                    .with_label(*first, "first used here")
                    .with_help("every value of an enum needs its own number"),
                );
                continue;
            }
            numbers.insert(n, (v.value.span, &v.name.name));
            values.push(EnumValue {
                name: v.name.name.clone(),
                doc: v.doc.clone(),
                value: n as u64,
                deprecated,
                deprecated_note,
                span: v.name.span,
            });
        }
        TypeKind::Enum { base, values }
    }

    /// Whether an enum value or variant is deprecated, and the reason given.
    fn value_attrs(&mut self, attrs: &[ast::Attr]) -> (bool, Option<String>) {
        let mut deprecated = (false, None);
        for a in self.once(attrs) {
            if a.name.name == "deprecated" {
                deprecated = (true, self.deprecation_note(a));
            } else {
                self.unknown_attr(a, &["deprecated"]);
            }
        }
        deprecated
    }

    /// The reason of `@deprecated("...")`: no argument, or one string.
    fn deprecation_note(&mut self, a: &ast::Attr) -> Option<String> {
        match a.args.as_slice() {
            [] => None,
            [Literal {
                kind: LitKind::Str(note),
                ..
            }] => Some(note.clone()),
            args => {
                let (span, label) = match args {
                    [one] => (one.span, format!("this is {}", describe_literal(&one.kind))),
                    _ => (a.span, "more than one argument".to_string()),
                };
                self.err(
                    Diagnostic::error(
                        "`@deprecated` takes no argument or one string, the reason",
                        span,
                        label,
                    )
                    .with_help("write `@deprecated` or `@deprecated(\"use `pos` instead\")`"),
                );
                None
            }
        }
    }

    fn union_kind(&mut self, file: usize, u: &ast::UnionDecl) -> TypeKind {
        let tag = match &u.tag {
            None => Prim::U8,
            Some(b) => match Prim::from_name(&b.name) {
                Some(p @ (Prim::U8 | Prim::U16)) => p,
                _ => {
                    self.err(
                        Diagnostic::error(
                            format!("`{}` cannot be the tag type of a union", b.name),
                            b.span,
                            "expected u8 or u16",
                        )
                        .with_help("a union's tag is u8 (the default) or u16"),
                    );
                    Prim::U8
                }
            },
        };
        if u.variants.is_empty() {
            self.err(
                Diagnostic::error(
                    format!("union `{}` has no variants", u.name.name),
                    u.name.span,
                    "empty union",
                )
                .with_help("a union needs at least one variant; its first variant is the default"),
            );
        }
        let mut reserved: Vec<u16> = Vec::new();
        let mut reserved_at: HashMap<u16, Span> = HashMap::new();
        for lit in &u.reserved {
            if let Some(n) = self.int_value(file, lit, tag, "reserved tag") {
                reserved.push(n as u16);
                reserved_at.entry(n as u16).or_insert(lit.span);
            }
        }
        let mut variants: Vec<Variant> = Vec::new();
        let mut names: HashMap<&str, Span> = HashMap::new();
        let mut tags: HashMap<u16, (Span, &str)> = HashMap::new();
        for v in &u.variants {
            let (deprecated, deprecated_note) = self.value_attrs(&v.attrs);
            let ty = self.resolve(file, &v.ty);
            if v.name.name == UNKNOWN {
                self.err(reserved_unknown(
                    v.name.span,
                    "a variant",
                    "a tag the reader does not know",
                ));
                continue;
            }
            if let Some(&first) = names.get(v.name.name.as_str()) {
                self.err(
                    Diagnostic::error(
                        format!(
                            "variant `{}` is declared twice in union `{}`",
                            v.name.name, u.name.name
                        ),
                        v.name.span,
                        "declared again here",
                    )
                    .with_label(first, "first declared here"),
                );
                continue;
            }
            names.insert(&v.name.name, v.name.span);
            let Some(n) = self.int_value(file, &v.tag, tag, "union tag") else {
                continue;
            };
            let n = n as u16;
            if let Some(&at) = reserved_at.get(&n) {
                self.err(
                    Diagnostic::error(format!("tag {n} is reserved"), v.tag.span, "reserved tag used")
                        .with_label(at, "reserved here")
                        .with_help("a reserved tag belonged to a removed variant and is never reused; pick a new tag"),
                );
                continue;
            }
            if let Some((first, first_name)) = tags.get(&n) {
                self.err(
                    Diagnostic::error(
                        format!("`{}` and `{first_name}` have the same tag {n}", v.name.name),
                        v.tag.span,
                        "tag used again here",
                    )
                    .with_label(*first, "first used here")
                    .with_help("every variant needs its own tag"),
                );
                continue;
            }
            tags.insert(n, (v.tag.span, &v.name.name));
            let Some(ty) = ty else { continue };
            variants.push(Variant {
                name: v.name.name.clone(),
                path: String::new(),
                doc: v.doc.clone(),
                tag: n,
                ty,
                deprecated,
                deprecated_note,
                cyclic: false,
                span: v.name.span,
            });
        }
        TypeKind::Union {
            tag,
            variants,
            reserved,
        }
    }
}

/// Every file's index, each after the files it imports (in a cycle, which
/// is reported elsewhere, after those not on the cycle). Without recursion:
/// an import chain may be long.
fn imports_first(files: &[crate::load::LoadedFile]) -> Vec<usize> {
    let mut order = Vec::with_capacity(files.len());
    let mut seen = vec![false; files.len()];
    for root in 0..files.len() {
        if seen[root] {
            continue;
        }
        seen[root] = true;
        // (file, how many of its imports were visited)
        let mut stack = vec![(root, 0)];
        while let Some((fi, next)) = stack.pop() {
            match files[fi].imports.get(next) {
                Some(&import) => {
                    stack.push((fi, next + 1));
                    if let Some(i) = import.filter(|&i| !seen[i]) {
                        seen[i] = true;
                        stack.push((i, 0));
                    }
                }
                None => order.push(fi),
            }
        }
    }
    order
}

#[derive(Default)]
struct ItemAttrs {
    deprecated: bool,
    deprecated_note: Option<String>,
    preserve_unknown: bool,
    delta: bool,
    allow: Vec<Lint>,
}

fn reserved_unknown(span: Span, what: &str, meaning: &str) -> Diagnostic {
    Diagnostic::error(
        format!("`{UNKNOWN}` cannot be the name of {what}"),
        span,
        "reserved name",
    )
    .with_help(format!(
        "generated code uses `{UNKNOWN}` for {meaning}; choose another name"
    ))
}

fn builtin_names() -> impl Iterator<Item = &'static str> {
    Prim::ALL
        .into_iter()
        .map(Prim::name)
        .chain(["string", "bytes", "list", "map"])
}

fn is_builtin(name: &str) -> bool {
    builtin_names().any(|b| b == name)
}

/// The span of a negated name without its minus sign.
fn after_minus(span: Span) -> Span {
    Span {
        start: span.start + 1,
        ..span
    }
}

fn describe_literal(lit: &LitKind) -> String {
    match lit {
        LitKind::Int(v) => format!("the integer {v}"),
        LitKind::Float(v) => format!("the number {v}"),
        LitKind::Str(s) => format!("the string {s:?}"),
        LitKind::Bool(b) => format!("`{b}`"),
        LitKind::Ident(n) => format!("the name `{n}`"),
        LitKind::NegIdent(n) => format!("the negated constant `-{n}`"),
    }
}
