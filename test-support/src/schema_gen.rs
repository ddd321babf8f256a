//! Random valid schemas over every construct of the language, for the tests
//! that generate code for them and compile it in every language.
//!
//! A schema set is one to three files: the first is the input, and each
//! imports every file after it; each has a
//! namespace of up to three segments or none. Between them they hold
//! constants (used as `@max` bounds and array lengths), enums of every base
//! with values at the edges of their range, fixed-size and variable-size
//! structs (empty ones too), messages (`@preserve_unknown`, defaults at the
//! edges, `@deprecated` fields), and unions with `u8` and `u16` tags,
//! reserved tags and fixed-size variants up to a few kilobytes. Field types
//! are drawn from every type form (arrays of every element kind, lists,
//! maps of every key kind, optionals, declared types of every kind),
//! nested; `@max` limits take values at the edges of `u32` and apply to
//! fields, and to the elements, keys and values of collections; names are
//! drawn partly from a list of names near the ones generated code and the
//! platforms reserve.
//!
//! The schemas are valid by construction: a type refers to types declared
//! before it, and to later ones (or itself) only from a message or union
//! and through a list, map or optional, so every cycle has one; no list
//! or array holds zero-size elements; names are unique after any case
//! conversion.
//! Fixed sizes stay under 32 KiB and arrays of variable-size values under
//! five elements, so few sets pass the 64 KiB bound on a value in memory
//! (3% of 300 seeds; the generator does not model each language's objects).

use std::collections::HashSet;
use std::fmt::Write as _;

use crate::Rng;

/// One file of a schema set: its path, relative to the set's directory,
/// and its text.
#[derive(Clone, Debug)]
pub struct SchemaFile {
    pub path: String,
    pub text: String,
}

/// A set of schema files; the first is the one to compile (it imports the
/// others).
#[derive(Clone, Debug)]
pub struct SchemaSet {
    pub files: Vec<SchemaFile>,
}

impl SchemaSet {
    /// Every file, each after a `// file: PATH` line, for failure messages.
    pub fn listing(&self) -> String {
        let mut out = String::new();
        for f in &self.files {
            let _ = writeln!(out, "// file: {}\n{}", f.path, f.text);
        }
        out
    }
}

/// The random schema set of `seed` (not zero).
pub fn schema_set(seed: u64) -> SchemaSet {
    Gen::new(seed).run()
}

/// Type names close to names that generated code, the runtimes and the
/// platforms use (`System.Buffers`, `Span`, Rust's prelude, pktc's own
/// runtime types), which a type must be free to take.
const TYPE_NAMES: &[&str] = &[
    "Buffers",
    "Collections",
    "Generic",
    "Binary",
    "Runtime",
    "Text",
    "Exception",
    "Object",
    "List",
    "Dictionary",
    "Span",
    "ReadOnlySpan",
    "Memory",
    "Math",
    "Array",
    "Encoding",
    "Action",
    "Func",
    "Attribute",
    "Obsolete",
    "Core",
    "Std",
    "Alloc",
    "Marker",
    "Some",
    "None",
    "Ok",
    "Err",
    "Reader",
    "Writer",
    "PktReader",
    "PktWriter",
    "PktMap",
    "Limits",
    "DecodeError",
    "EncodeError",
    "Fixed",
    "FixedArray",
    "Lazy",
    "Map",
    "Type",
    "Int32",
    "Str",
    "Bytes",
    "Boxed",
    "Options",
    "Results",
    "Values",
    "Global",
    "Systems",
    "Pkts",
    "Unknowns",
    "Tags",
    "Encoder",
    "Decoder",
    "Viewable",
    "Views",
    // Names one language reserves for types, which its backend renames:
    // Rust's prelude (`Vec_`), C# members (`EncodeValue`, `TagValue`).
    "Vec",
    "Option",
    "String",
    "Box",
    "Result",
    "Default",
    "FnMut",
    "Encode",
    "ToArray",
    "Equals",
    "Tag",
];

/// Field and variant names near keywords of either language and members
/// the generated code declares.
const FIELD_NAMES: &[&str] = &[
    "type",
    "match",
    "ref",
    "fn",
    "move",
    "async",
    "await",
    "dyn",
    "abstract",
    "yield",
    "union",
    "default",
    "object",
    "base",
    "event",
    "checked",
    "decimal",
    "operator",
    "lock",
    "out",
    "fixed",
    "var",
    "null",
    "params",
    "internal",
    "class",
    "where",
    "loop",
    "box",
    "impl",
    "trait",
    "macro",
    "pub",
    "mod",
    "use",
    "static",
    "unsafe",
    "extern",
    "virtual",
    "override",
    "sealed",
    "sizeof",
    "typeof",
    "namespace",
    "delegate",
    "explicit",
    "implicit",
    "goto",
    "volatile",
    "string",
    "int",
    "bool",
    "system",
    "buffers",
    "pkt",
    "reader",
    "writer",
    "span",
    "count",
    "len",
    "is_empty",
    "body",
    "encoded_len",
    "encode_raw",
    "decode_raw",
    "check_at",
    "items",
    "keys",
    "new",
    "this",
    "value",
    "values",
    "tag2",
    "kind",
    "result",
    "option",
    "vec",
    "std",
    "core",
    "_spare",
    "__inner",
    "selfish",
    "superb",
    "crates",
    "data",
    "size",
    "length",
];

/// Namespace segments: everyday ones and ones near module and namespace
/// names the generated code refers to.
const NAMESPACE_WORDS: &[&str] = &[
    "game",
    "net",
    "proto",
    "v1",
    "core",
    "std",
    "alloc",
    "collections",
    "buffers",
    "generic",
    "global",
    "runtime",
    "pkt_runtime",
    "serde",
    "system",
    "unity",
    "client",
    "server",
    "shared",
    "r#",
    "type",
    "mod",
];

/// `@max` bounds at the edges of what a length or count can be.
const LIMITS: &[u64] = &[
    0,
    1,
    2,
    3,
    24,
    255,
    256,
    65_535,
    65_536,
    16_777_216,
    2_147_483_647,
    2_147_483_648,
    4_294_967_294,
    4_294_967_295,
];

/// Array lengths, from one element to past the size a view copies.
const ARRAY_LENS: &[u64] = &[1, 2, 3, 4, 7, 8, 16, 33, 255, 256, 257, 300, 1000];

/// The largest fixed size a generated type may have.
const MAX_FIXED: u64 = 32 * 1024;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Enum,
    Struct,
    Message,
    Union,
}

/// What the generator knows of a type expression.
#[derive(Clone, Copy, Debug)]
struct Shape {
    /// The encoded size, when it is fixed.
    fixed: Option<u64>,
    /// Can be a map key: an integer, `bool`, `string` or an enum.
    key: bool,
    /// A `string`, `bytes`, list or map: what `@max` bounds.
    limitable: bool,
    /// The outermost form is `T?`.
    optional: bool,
    /// An integer or enum, with the range of a default.
    default: Default,
    /// Holds an array somewhere (kept from nesting arrays deeper).
    arrays: u32,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Default {
    None,
    Bool,
    Int(i128, i128),
    /// A float of this many bytes.
    Float(u32),
    Str,
    /// The enum of this declaration index.
    Enum(usize),
}

impl Shape {
    fn variable() -> Shape {
        Shape {
            fixed: None,
            key: false,
            limitable: false,
            optional: false,
            default: Default::None,
            arrays: 0,
        }
    }
}

struct Decl {
    name: String,
    kind: Kind,
    file: usize,
    /// Known once the declaration's body is generated (structs and enums
    /// before anything may use them).
    shape: Shape,
    /// Value names of an enum.
    values: Vec<String>,
}

struct FileState {
    namespace: Vec<String>,
    text: String,
    consts: Vec<(String, u64)>,
}

struct Gen {
    rng: Rng,
    decls: Vec<Decl>,
    files: Vec<FileState>,
    /// Type and constant names taken in the whole set, compared as every
    /// backend compares them (case and underscores dropped).
    taken: HashSet<String>,
    counter: usize,
}

/// A name as the backends compare names: lower case, no underscores.
fn folded(name: &str) -> String {
    name.chars()
        .filter(|c| *c != '_')
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

impl Gen {
    fn new(seed: u64) -> Gen {
        Gen {
            rng: Rng(seed.max(1)),
            decls: Vec::new(),
            files: Vec::new(),
            taken: HashSet::new(),
            counter: 0,
        }
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.rng.index(items.len())]
    }

    fn run(mut self) -> SchemaSet {
        let file_count = 1 + self.rng.index(3);
        let mut namespaces: Vec<Vec<String>> = Vec::new();
        for i in 0..file_count {
            // Only the input may go without a namespace: two files without
            // one would put their types side by side in C#'s global
            // namespace, which the names rule out anyway, but it keeps the
            // imported files' names apart.
            let ns = if i == 0 && self.rng.chance(3) {
                Vec::new()
            } else {
                self.namespace(&namespaces)
            };
            namespaces.push(ns.clone());
            self.files.push(FileState {
                namespace: ns,
                text: String::new(),
                consts: Vec::new(),
            });
        }
        // In C# a type and a namespace of one qualified name clash: no type
        // takes the name of a namespace segment.
        for ns in &namespaces {
            for seg in ns {
                self.taken.insert(folded(seg));
            }
        }
        // Declarations in dependency order: the last file first, since the
        // first imports it (directly or through the files between).
        let order: Vec<usize> = (0..file_count).rev().collect();
        for &file in &order {
            for _ in 0..self.rng.index(3) {
                self.constant(file);
            }
            let count = 2 + self.rng.index(6);
            let kinds: Vec<Kind> = (0..count)
                .map(|_| {
                    *self.pick(&[
                        Kind::Enum,
                        Kind::Struct,
                        Kind::Struct,
                        Kind::Message,
                        Kind::Message,
                        Kind::Union,
                    ])
                })
                .collect();
            // Messages and unions are named up front, so that earlier ones
            // can refer to them.
            let first = self.decls.len();
            let global = self.files[file].namespace.is_empty();
            for &kind in &kinds {
                let name = self.type_name(global);
                self.decls.push(Decl {
                    name,
                    kind,
                    file,
                    shape: Shape::variable(),
                    values: Vec::new(),
                });
            }
            for i in first..first + count {
                self.declaration(i);
            }
        }
        let mut files = Vec::new();
        for (i, f) in self.files.iter().enumerate() {
            let mut text = String::new();
            if !f.namespace.is_empty() {
                let _ = writeln!(
                    text,
                    "/// Namespace {i}.\nnamespace {};\n",
                    f.namespace.join(".")
                );
            }
            for j in i + 1..file_count {
                let _ = writeln!(text, "import \"{}\";", file_name(j));
            }
            if i + 1 < file_count {
                text.push('\n');
            }
            text.push_str(&f.text);
            files.push(SchemaFile {
                path: file_name(i),
                text,
            });
        }
        SchemaSet { files }
    }

    fn namespace(&mut self, taken: &[Vec<String>]) -> Vec<String> {
        loop {
            let len = 1 + self.rng.index(3);
            let mut ns: Vec<String> = Vec::new();
            for i in 0..len {
                let mut word = (*self.pick(NAMESPACE_WORDS)).to_string();
                // C# keeps `System` for .NET itself and `Pkt` for the
                // runtime (as a first segment), and a segment cannot be
                // written with `r#`.
                if word == "r#" || (i == 0 && (word == "system" || word.starts_with("pkt"))) {
                    word = "game".into();
                }
                if ns.iter().any(|w| folded(w) == folded(&word)) {
                    word = format!("{word}{i}");
                }
                ns.push(word);
            }
            if !taken.contains(&ns) {
                return ns;
            }
        }
    }

    /// A fresh type name: near a reserved one, or made up. `global`: for
    /// a file without a namespace, where C# keeps `Object` for Mono.
    fn type_name(&mut self, global: bool) -> String {
        loop {
            let base = if self.rng.chance(3) {
                let name = *self.pick(TYPE_NAMES);
                if global && name == "Object" {
                    continue;
                }
                name.to_string()
            } else {
                self.counter += 1;
                let word = *self.pick(&[
                    "Packet", "Entity", "Item", "Frame", "Node", "Stat", "Cell", "Slot",
                ]);
                format!("{word}{}", self.counter)
            };
            // A type `X` has a Rust companion `XView`; keep both free.
            let view = format!("{base}View");
            if self.taken.insert(folded(&base)) && self.taken.insert(folded(&view)) {
                return base;
            }
        }
    }

    fn constant(&mut self, file: usize) {
        self.counter += 1;
        let name = format!("LIMIT_{}", self.counter);
        self.taken.insert(folded(&name));
        let (ty, value) = match self.rng.index(4) {
            0 => ("u8", *self.pick(&[1u64, 3, 200, 255])),
            1 => ("u16", *self.pick(&[1u64, 300, 4096, 65535])),
            2 => ("u32", *self.pick(LIMITS)),
            _ => ("u64", *self.pick(&[1u64, 24, 256, 4_294_967_295])),
        };
        let f = &mut self.files[file];
        let _ = writeln!(f.text, "/// A bound.\nconst {name}: {ty} = {value};\n");
        f.consts.push((name, value));
    }

    /// A constant of the files visible from `file` with a value in
    /// `range`.
    fn constant_in(&mut self, file: usize, range: std::ops::RangeInclusive<u64>) -> Option<String> {
        let visible: Vec<(String, u64)> = (file..self.files.len())
            .flat_map(|f| {
                let ns = &self.files[f].namespace;
                self.files[f].consts.iter().map(move |(n, v)| {
                    // Constant names are unique in the set, so the name
                    // alone finds one in an imported file.
                    let _ = ns;
                    (n.clone(), *v)
                })
            })
            .filter(|(_, v)| range.contains(v))
            .collect();
        if visible.is_empty() || !self.rng.chance(2) {
            None
        } else {
            Some(self.pick(&visible).0.clone())
        }
    }

    fn declaration(&mut self, index: usize) {
        let mut text = String::new();
        if self.rng.chance(2) {
            let doc = *self.pick(&[
                "A type.",
                "Holds <b>bold</b> & \"quoted\" text, a */ and a {{brace}}.",
                "Line one.\n/// Line two, `code`.",
                "Ends with a backslash \\",
            ]);
            let _ = writeln!(text, "/// {doc}");
        }
        if self.rng.chance(8) {
            text.push_str("@deprecated\n");
        }
        let name = self.decls[index].name.clone();
        let file = self.decls[index].file;
        match self.decls[index].kind {
            Kind::Enum => {
                let base = *self.pick(&["", "u8", "u16", "u32"]);
                let max: u64 = match base {
                    "u16" => 65535,
                    "u32" => 4_294_967_295,
                    _ => 255,
                };
                let size = match base {
                    "u16" => 2,
                    "u32" => 4,
                    _ => 1,
                };
                let header = if base.is_empty() {
                    format!("enum {name} {{")
                } else {
                    format!("enum {name} : {base} {{")
                };
                let _ = writeln!(text, "{header}");
                let mut used = HashSet::new();
                let mut names = HashSet::new();
                let mut values = Vec::new();
                for i in 0..1 + self.rng.index(5) {
                    let v = match self.rng.index(4) {
                        0 => 0,
                        1 => max,
                        2 => i as u64,
                        _ => self.rng.below(max + 1),
                    };
                    if !used.insert(v) {
                        continue;
                    }
                    let vname = self.member_name(&mut names, &name, true);
                    if self.rng.chance(6) {
                        text.push_str("    @deprecated\n");
                    }
                    let lit = if self.rng.chance(2) {
                        format!("{v:#X}")
                    } else {
                        v.to_string()
                    };
                    let _ = writeln!(text, "    {vname} = {lit},");
                    values.push(vname);
                }
                text.push_str("}\n\n");
                let d = &mut self.decls[index];
                d.values = values;
                d.shape = Shape {
                    fixed: Some(size),
                    key: true,
                    limitable: false,
                    optional: false,
                    default: Default::Enum(index),
                    arrays: 0,
                };
            }
            Kind::Struct | Kind::Message => {
                let is_struct = self.decls[index].kind == Kind::Struct;
                if !is_struct && self.rng.chance(4) {
                    text.push_str("@preserve_unknown\n");
                }
                let keyword = if is_struct { "struct" } else { "message" };
                let _ = writeln!(text, "{keyword} {name} {{");
                let mut names = HashSet::new();
                let mut fixed = Some(0u64);
                let fields = match self.rng.index(8) {
                    0 => 0,
                    _ => 1 + self.rng.index(6),
                };
                for _ in 0..fields {
                    let budget = MAX_FIXED - fixed.unwrap_or(0);
                    let (ty, shape) = self.field_type(index, budget, 0);
                    fixed = match (fixed, shape.fixed) {
                        (Some(a), Some(b)) => Some(a + b),
                        _ => None,
                    };
                    let fname = self.member_name(&mut names, &name, false);
                    let mut line = String::from("    ");
                    if self.rng.chance(6) {
                        line.push_str("@deprecated ");
                    }
                    let _ = write!(line, "{fname}: {ty}");
                    if shape.limitable && self.rng.chance(2) {
                        let limit = self.limit(file);
                        let _ = write!(line, " @max({limit})");
                    }
                    // A default longer than the field's `@max` could not be
                    // encoded: no default where there is a `@max`.
                    if !is_struct && !line.contains("@max") && self.rng.chance(2) {
                        if let Some(d) = self.default_value(shape) {
                            let _ = write!(line, " = {d}");
                        }
                    }
                    let _ = writeln!(text, "{line},");
                }
                text.push_str("}\n\n");
                if is_struct {
                    self.decls[index].shape = Shape {
                        fixed,
                        ..Shape::variable()
                    };
                }
            }
            Kind::Union => {
                let wide = self.rng.chance(2);
                let max: u64 = if wide { 65535 } else { 255 };
                let header = match (wide, self.rng.chance(2)) {
                    (true, _) => format!("union {name} : u16 {{"),
                    (false, true) => format!("union {name} : u8 {{"),
                    (false, false) => format!("union {name} {{"),
                };
                let _ = writeln!(text, "{header}");
                let mut names = HashSet::new();
                let mut tags = HashSet::new();
                let variants = 1 + self.rng.index(5);
                for i in 0..variants {
                    let tag = match self.rng.index(3) {
                        0 => i as u64,
                        1 => max - i as u64,
                        _ => self.rng.below(max + 1),
                    };
                    if !tags.insert(tag) {
                        continue;
                    }
                    let vname = self.member_name(&mut names, &name, true);
                    let ty = if self.rng.chance(4) {
                        // A fixed-size payload too large for a view to copy.
                        let n = *self.pick(&[257u64, 300, 1000, 4096]);
                        let elem = *self.pick(&["u8", "u64", "bool", "i16"]);
                        format!("[{elem}; {n}]")
                    } else {
                        self.field_type(index, MAX_FIXED, 0).0
                    };
                    if self.rng.chance(6) {
                        text.push_str("    @deprecated\n");
                    }
                    let _ = writeln!(text, "    {vname}({ty}) = {tag},");
                }
                if self.rng.chance(3) {
                    let free: Vec<u64> = (0..=max.min(300))
                        .filter(|t| !tags.contains(t))
                        .take(3)
                        .collect();
                    if !free.is_empty() {
                        let list: Vec<String> = free.iter().map(u64::to_string).collect();
                        let _ = writeln!(text, "    reserved {},", list.join(", "));
                    }
                }
                text.push_str("}\n\n");
            }
        }
        self.files[file].text.push_str(&text);
    }

    /// A field or variant name unique in its type (after case conversion),
    /// and not one that C# would turn into the type's own name plus
    /// `Value` next to another.
    fn member_name(&mut self, names: &mut HashSet<String>, owner: &str, upper: bool) -> String {
        loop {
            let base = if self.rng.chance(3) {
                (*self.pick(FIELD_NAMES)).to_string()
            } else {
                self.counter += 1;
                let word = *self.pick(&["pos", "hp", "name", "id", "score", "tick", "flags"]);
                format!("{word}_{}", self.counter)
            };
            let name = if upper { upper_camel(&base) } else { base };
            let key = folded(&name);
            let like_owner = key == folded(owner) || key == folded(&format!("{owner}value"));
            // Members of C#'s union classes, which variants cannot take.
            let union_member = upper && ["tag", "value", "body"].contains(&key.as_str());
            if name.trim_start_matches('_').is_empty() || like_owner || union_member {
                continue;
            }
            if names.insert(key.clone()) {
                // C# renames a member named like its type to `<Type>Value`.
                names.insert(format!("{}value", folded(owner)));
                return name;
            }
        }
    }

    /// A `@max` bound: a literal at the edges, or a constant.
    fn limit(&mut self, file: usize) -> String {
        match self.constant_in(file, 0..=4_294_967_295) {
            Some(c) => c,
            None => self.pick(LIMITS).to_string(),
        }
    }

    /// The type of a field or variant of declaration `owner`, at most
    /// `budget` bytes when fixed-size.
    fn field_type(&mut self, owner: usize, budget: u64, depth: u32) -> (String, Shape) {
        self.ty(owner, budget, depth, false)
    }

    /// A type expression. `wrapped`: inside a list, map or optional, where
    /// a message or union may refer to a later type or to itself.
    fn ty(&mut self, owner: usize, budget: u64, depth: u32, wrapped: bool) -> (String, Shape) {
        let owner_kind = self.decls[owner].kind;
        let may_nest = depth < 3;
        let choice = if may_nest {
            self.rng.index(12)
        } else {
            self.rng.index(4)
        };
        match choice {
            0 | 1 => self.prim(),
            2 => {
                let s = if self.rng.chance(2) {
                    "string"
                } else {
                    "bytes"
                };
                (
                    s.to_string(),
                    Shape {
                        key: s == "string",
                        limitable: true,
                        default: if s == "string" {
                            Default::Str
                        } else {
                            Default::None
                        },
                        ..Shape::variable()
                    },
                )
            }
            3 => self.named(owner, budget, wrapped, owner_kind),
            4 | 5 => {
                // list<T>: never of zero-size elements.
                let (t, s) = loop {
                    let (t, s) = self.ty(owner, MAX_FIXED, depth + 1, true);
                    if s.fixed != Some(0) {
                        break (t, s);
                    }
                };
                let t = self.element(t, s, owner);
                (
                    format!("list<{t}>"),
                    Shape {
                        limitable: true,
                        arrays: s.arrays,
                        ..Shape::variable()
                    },
                )
            }
            6 => {
                let (k, ks) = loop {
                    let (k, s) = self.ty(owner, 8, depth + 1, true);
                    if s.key {
                        break (k, s);
                    }
                };
                let k = self.element(k, ks, owner);
                let (v, vs) = self.ty(owner, MAX_FIXED, depth + 1, true);
                let v = self.element(v, vs, owner);
                (
                    format!("map<{k}, {v}>"),
                    Shape {
                        limitable: true,
                        arrays: vs.arrays,
                        ..Shape::variable()
                    },
                )
            }
            7 | 8 => {
                let mut n = *self.pick(ARRAY_LENS);
                // Never of zero-size elements (`pktc check` refuses them).
                let (t, s) = loop {
                    let (t, s) = self.ty(owner, budget, depth + 1, wrapped);
                    if s.fixed != Some(0) {
                        break (t, s);
                    }
                };
                if s.arrays >= 2 {
                    n = n.min(4);
                }
                if let Some(size) = s.fixed {
                    // An inner array is an object of its own in C# (40
                    // bytes beside its elements).
                    let each = if s.arrays > 0 { size + 40 } else { size };
                    while each * n > budget && n > 1 {
                        n /= 2;
                    }
                    if each * n > budget {
                        return self.prim();
                    }
                } else {
                    // Each element of a variable-size array is a value of
                    // its own in memory, of a size the generator does not
                    // model; keep arrays of them short.
                    n = n.min(4);
                }
                let t = self.element(t, s, owner);
                let len = match self.constant_in(self.decls[owner].file, n..=n) {
                    Some(c) => c,
                    None => n.to_string(),
                };
                (
                    format!("[{t}; {len}]"),
                    Shape {
                        fixed: s.fixed.map(|size| size * n),
                        arrays: s.arrays + 1,
                        ..Shape::variable()
                    },
                )
            }
            9 | 10 => {
                let (t, s) = loop {
                    let (t, s) = self.ty(owner, budget, depth + 1, true);
                    if !s.optional {
                        break (t, s);
                    }
                };
                (
                    format!("{t}?"),
                    Shape {
                        optional: true,
                        limitable: s.limitable,
                        arrays: s.arrays,
                        ..Shape::variable()
                    },
                )
            }
            _ => self.named(owner, budget, wrapped, owner_kind),
        }
    }

    /// An element, key or value type `t`, with a `@max` of its own now and
    /// then when it is a string, bytes, list or map.
    fn element(&mut self, t: String, s: Shape, owner: usize) -> String {
        if s.limitable && self.rng.chance(3) {
            let limit = self.limit(self.decls[owner].file);
            format!("{t} @max({limit})")
        } else {
            t
        }
    }

    fn prim(&mut self) -> (String, Shape) {
        let (name, size, default) = *self.pick(&[
            ("bool", 1, Default::Bool),
            ("u8", 1, Default::Int(0, 255)),
            ("u16", 2, Default::Int(0, 65535)),
            ("u32", 4, Default::Int(0, 4_294_967_295)),
            ("u64", 8, Default::Int(0, u64::MAX as i128)),
            ("i8", 1, Default::Int(-128, 127)),
            ("i16", 2, Default::Int(-32768, 32767)),
            ("i32", 4, Default::Int(i32::MIN as i128, i32::MAX as i128)),
            ("i64", 8, Default::Int(i64::MIN as i128, i64::MAX as i128)),
            ("f32", 4, Default::Float(4)),
            ("f64", 8, Default::Float(8)),
        ]);
        (
            name.to_string(),
            Shape {
                fixed: Some(size),
                key: !matches!(default, Default::Float(_)),
                default,
                ..Shape::variable()
            },
        )
    }

    /// A declared type: one before `owner`, or, from a message or union
    /// inside a list, map or optional, any message or union (`owner`
    /// itself and later ones included). Falls back to a scalar.
    fn named(
        &mut self,
        owner: usize,
        budget: u64,
        wrapped: bool,
        owner_kind: Kind,
    ) -> (String, Shape) {
        let recursive = wrapped && matches!(owner_kind, Kind::Message | Kind::Union);
        let file = self.decls[owner].file;
        let candidates: Vec<usize> = (0..self.decls.len())
            .filter(|&i| {
                let d = &self.decls[i];
                // Visible: declared in this file or one it imports (files
                // are generated last to first, so a lower index is a
                // complete declaration).
                if d.file < file {
                    return false;
                }
                let earlier = i < owner;
                let fits = d.shape.fixed.is_none_or(|s| s <= budget);
                (earlier && fits) || (recursive && matches!(d.kind, Kind::Message | Kind::Union))
            })
            .collect();
        if candidates.is_empty() {
            return self.prim();
        }
        let i = *self.pick(&candidates);
        let d = &self.decls[i];
        let name = if d.file == file || self.files[d.file].namespace.is_empty() {
            d.name.clone()
        } else {
            format!("{}.{}", self.files[d.file].namespace.join("."), d.name)
        };
        (name, d.shape)
    }

    fn default_value(&mut self, shape: Shape) -> Option<String> {
        Some(match shape.default {
            Default::None => return None,
            Default::Bool => self.pick(&["true", "false"]).to_string(),
            Default::Int(lo, hi) => match self.rng.index(4) {
                0 => lo.to_string(),
                1 => hi.to_string(),
                2 => format!("{:#x}", hi),
                _ => ((lo + hi) / 2).to_string(),
            },
            Default::Float(size) => {
                let big = if size == 4 { "3.4e38" } else { "1.5e300" };
                self.pick(&["-0.0", "inf", "-inf", "nan", big, "-2.5", "0.1", "3"])
                    .to_string()
            }
            Default::Str => self
                .pick(&[
                    "\"\"",
                    "\"plain\"",
                    "\"caf\\u{e9} \\u{1F600}\"",
                    "\"quote \\\" backslash \\\\ newline \\n tab \\t nul \\0\"",
                    "\"{{braces}} </summary> */\"",
                ])
                .to_string(),
            Default::Enum(i) => {
                let values = &self.decls[i].values;
                if values.is_empty() {
                    return None;
                }
                values[self.rng.index(values.len())].clone()
            }
        })
    }
}

fn file_name(i: usize) -> String {
    if i == 0 {
        "main.pkt".into()
    } else {
        format!("part{i}.pkt")
    }
}

/// `snake_case` or anything to `UpperCamelCase`, keeping a leading
/// underscore run.
fn upper_camel(s: &str) -> String {
    let lead = s.len() - s.trim_start_matches('_').len();
    let mut out = "_".repeat(lead);
    for part in s.split('_').filter(|p| !p.is_empty()) {
        let mut chars = part.chars();
        if let Some(c) = chars.next() {
            out.push(c.to_ascii_uppercase());
            out.extend(chars);
        }
    }
    out
}
