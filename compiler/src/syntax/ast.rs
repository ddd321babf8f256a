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
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Import {
    /// The path as written, relative to the importing file.
    pub path: String,
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
    /// An enum value or constant name.
    Ident(String),
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
