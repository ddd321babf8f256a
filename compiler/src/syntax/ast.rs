//! The syntax tree of one `.pkt` file, with spans. Nothing here is resolved:
//! names are plain strings and literals are as written.

use crate::diag::Span;

/// A name as written, with where it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// One parsed schema file.
#[derive(Clone, Debug)]
pub struct File {
    pub namespace: Option<Namespace>,
    pub imports: Vec<Import>,
    pub items: Vec<Item>,
}

#[derive(Clone, Debug)]
pub struct Namespace {
    pub doc: Vec<String>,
    pub path: Vec<Ident>,
    /// The `namespace` keyword.
    pub keyword: Span,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Import {
    /// The path as written, relative to the importing file.
    pub path: String,
    /// The string literal as written.
    pub path_span: Span,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Attr {
    pub name: Ident,
    pub args: Vec<Literal>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum LitKind {
    Int(i128),
    Float(f64),
    Str(String),
    Bool(bool),
    /// An enum value or constant name; a constant's may be qualified by its
    /// namespace (`game.common.MAX_NAME`).
    Ident(String),
    /// A constant's name after a minus sign (`-WORLD_HALF`): its value
    /// negated. The name (without the sign) may be qualified.
    NegIdent(String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Literal {
    pub kind: LitKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Item {
    pub doc: Vec<String>,
    pub attrs: Vec<Attr>,
    pub kind: ItemKind,
    /// The keyword that introduces the declaration (`struct`, `const`, ...).
    pub keyword: Span,
    pub span: Span,
}

impl Item {
    pub fn name(&self) -> &Ident {
        match &self.kind {
            ItemKind::Const(c) => &c.name,
            ItemKind::Enum(e) => &e.name,
            ItemKind::Struct(r) | ItemKind::Message(r) => &r.name,
            ItemKind::Union(u) => &u.name,
        }
    }

    /// The keyword that introduced the item, for messages.
    pub fn keyword(&self) -> &'static str {
        match &self.kind {
            ItemKind::Const(_) => "const",
            ItemKind::Enum(_) => "enum",
            ItemKind::Struct(_) => "struct",
            ItemKind::Message(_) => "message",
            ItemKind::Union(_) => "union",
        }
    }
}

#[derive(Clone, Debug)]
pub enum ItemKind {
    Const(ConstDecl),
    Enum(EnumDecl),
    Struct(Record),
    Message(Record),
    Union(UnionDecl),
}

#[derive(Clone, Debug)]
pub struct ConstDecl {
    pub name: Ident,
    pub ty: TypeExpr,
    pub value: Literal,
}

#[derive(Clone, Debug)]
pub struct EnumDecl {
    pub name: Ident,
    pub base: Option<Ident>,
    pub values: Vec<EnumValue>,
    /// From `{` to `}`, both included.
    pub braces: Span,
}

#[derive(Clone, Debug)]
pub struct EnumValue {
    pub doc: Vec<String>,
    pub attrs: Vec<Attr>,
    pub name: Ident,
    pub value: Literal,
    pub span: Span,
}

/// The body of a `struct` or a `message`.
#[derive(Clone, Debug)]
pub struct Record {
    pub name: Ident,
    pub fields: Vec<Field>,
    /// From `{` to `}`, both included.
    pub braces: Span,
}

#[derive(Clone, Debug)]
pub struct Field {
    pub doc: Vec<String>,
    pub attrs: Vec<Attr>,
    pub name: Ident,
    pub ty: TypeExpr,
    pub default: Option<Literal>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct UnionDecl {
    pub name: Ident,
    pub tag: Option<Ident>,
    pub variants: Vec<Variant>,
    pub reserved: Vec<Literal>,
    /// Each `reserved a, b` entry, keyword included; the tags of all of them
    /// are in `reserved`, in order.
    pub reserved_entries: Vec<Span>,
    /// From `{` to `}`, both included.
    pub braces: Span,
}

#[derive(Clone, Debug)]
pub struct Variant {
    pub doc: Vec<String>,
    pub attrs: Vec<Attr>,
    pub name: Ident,
    pub ty: TypeExpr,
    pub tag: Literal,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct TypeExpr {
    pub kind: TypeExprKind,
    /// Attributes written after an element, key or value type
    /// (`list<string @max(24)>`); a field's type has none of its own (they
    /// are the field's).
    pub attrs: Vec<Attr>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum TypeExprKind {
    /// A builtin or a declared type; a dotted path is kept whole for the diagnostic.
    Named(Vec<Ident>),
    List(Box<TypeExpr>),
    Map(Box<TypeExpr>, Box<TypeExpr>),
    Array(Box<TypeExpr>, Literal),
    Optional(Box<TypeExpr>),
}

impl File {
    /// Sets every span to the default, so that two trees can be compared for
    /// what they say rather than where they say it (e.g. before and after
    /// formatting).
    pub fn erase_spans(&mut self) {
        let z = Span::default();
        if let Some(ns) = &mut self.namespace {
            ns.path.iter_mut().for_each(|i| i.span = z);
            ns.keyword = z;
            ns.span = z;
        }
        for imp in &mut self.imports {
            imp.path_span = z;
            imp.span = z;
        }
        for item in &mut self.items {
            item.attrs.iter_mut().for_each(Attr::erase_spans);
            item.keyword = z;
            item.span = z;
            match &mut item.kind {
                ItemKind::Const(c) => {
                    c.name.span = z;
                    c.ty.erase_spans();
                    c.value.span = z;
                }
                ItemKind::Enum(e) => {
                    e.name.span = z;
                    if let Some(b) = &mut e.base {
                        b.span = z;
                    }
                    e.braces = z;
                    for v in &mut e.values {
                        v.attrs.iter_mut().for_each(Attr::erase_spans);
                        v.name.span = z;
                        v.value.span = z;
                        v.span = z;
                    }
                }
                ItemKind::Struct(r) | ItemKind::Message(r) => {
                    r.name.span = z;
                    r.braces = z;
                    for f in &mut r.fields {
                        f.attrs.iter_mut().for_each(Attr::erase_spans);
                        f.name.span = z;
                        f.ty.erase_spans();
                        if let Some(d) = &mut f.default {
                            d.span = z;
                        }
                        f.span = z;
                    }
                }
                ItemKind::Union(u) => {
                    u.name.span = z;
                    if let Some(t) = &mut u.tag {
                        t.span = z;
                    }
                    u.braces = z;
                    u.reserved.iter_mut().for_each(|l| l.span = z);
                    u.reserved_entries.iter_mut().for_each(|s| *s = z);
                    for v in &mut u.variants {
                        v.attrs.iter_mut().for_each(Attr::erase_spans);
                        v.name.span = z;
                        v.ty.erase_spans();
                        v.tag.span = z;
                        v.span = z;
                    }
                }
            }
        }
    }
}

impl Attr {
    fn erase_spans(&mut self) {
        self.name.span = Span::default();
        self.args.iter_mut().for_each(|l| l.span = Span::default());
        self.span = Span::default();
    }
}

impl TypeExpr {
    fn erase_spans(&mut self) {
        self.span = Span::default();
        self.attrs.iter_mut().for_each(Attr::erase_spans);
        match &mut self.kind {
            TypeExprKind::Named(path) => path.iter_mut().for_each(|i| i.span = Span::default()),
            TypeExprKind::List(t) | TypeExprKind::Optional(t) => t.erase_spans(),
            TypeExprKind::Map(k, v) => {
                k.erase_spans();
                v.erase_spans();
            }
            TypeExprKind::Array(t, n) => {
                t.erase_spans();
                n.span = Span::default();
            }
        }
    }
}
