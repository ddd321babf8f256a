//! What every backend says about each field and variant, settled once:
//! the path errors name it by, and what the decode budget is charged for a
//! message field the body ends before. Fills [`Field::path`],
//! [`Field::default_charge`] and [`Variant::path`]; reports nothing.

use crate::ir::{Field, Ir, TypeKind, Value};

pub fn compute(ir: &mut Ir) {
    for i in 0..ir.types.len() {
        let owner = ir.qualified_name(&ir.types[i]);
        let path = |name: &str| format!("{owner}.{name}");
        match &mut ir.types[i].kind {
            TypeKind::Struct { fields } | TypeKind::Message { fields, .. } => {
                for f in fields {
                    f.path = path(&f.name);
                    f.default_charge = default_charge(f);
                }
            }
            TypeKind::Union { variants, .. } => {
                for v in variants {
                    v.path = path(&v.name);
                }
            }
            TypeKind::Enum { .. } => {}
        }
    }
}

/// A default string is charged as if decoded: every decoder builds it when
/// the body ends before the field. No other default builds anything the
/// value's own model does not count.
fn default_charge(f: &Field) -> Option<u64> {
    match &f.default {
        Some(Value::String(s)) if !s.is_empty() => Some(s.len() as u64),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use crate::ir::{DefaultValue, Ir, Prim, TypeDef, Value};
    use crate::load::FileReader;

    /// One schema file, `t.pkt`, held in memory.
    struct Text(&'static str);

    impl FileReader for Text {
        fn read(&self, _: &Path) -> std::io::Result<String> {
            Ok(self.0.to_string())
        }
    }

    fn ir(source: &'static str) -> Ir {
        match crate::check_with(&[PathBuf::from("t.pkt")], &Text(source)) {
            Ok(c) => c.ir,
            Err(_) => panic!("the schema checks:\n{source}"),
        }
    }

    fn def<'a>(ir: &'a Ir, name: &str) -> &'a TypeDef {
        ir.types.iter().find(|t| t.name == name).expect("declared")
    }

    const SCHEMA: &str = "namespace game.net;
        enum Mood : u8 { Calm = 7, Angry = 0 }
        struct Pair { a: u8, b: Mood }
        message Hello {
            name: string = \"Zoë\",
            empty: string = \"\",
            level: u32 = 3,
            mood: Mood,
            tags: list<string>,
            slots: [u16; 3],
            pet: Pair?,
        }
        union Packet : u8 { Hi(Hello) = 9, Bye(u8) = 1 }";

    #[test]
    fn members_are_named_with_the_qualified_owner() {
        let ir = ir(SCHEMA);
        let paths: Vec<&str> = def(&ir, "Hello")
            .kind
            .fields()
            .iter()
            .map(|f| f.path.as_str())
            .collect();
        assert_eq!(paths[0], "game.net.Hello.name");
        assert_eq!(paths[6], "game.net.Hello.pet");
        assert_eq!(def(&ir, "Pair").kind.fields()[1].path, "game.net.Pair.b");
        let crate::ir::TypeKind::Union { variants, .. } = &def(&ir, "Packet").kind else {
            unreachable!("Packet is a union")
        };
        assert_eq!(variants[1].path, "game.net.Packet.Bye");
        // Without a namespace the path starts at the type.
        let bare = self::ir("message M { x: u8 }");
        assert_eq!(def(&bare, "M").kind.fields()[0].path, "M.x");
    }

    #[test]
    fn only_a_nonempty_default_string_is_charged_its_utf8_bytes() {
        let ir = ir(SCHEMA);
        let charges: Vec<Option<u64>> = def(&ir, "Hello")
            .kind
            .fields()
            .iter()
            .map(|f| f.default_charge)
            .collect();
        // "Zoë" is four bytes of UTF-8; "" builds nothing; numbers and
        // zero values are in the value's own model.
        assert_eq!(charges, [Some(4), None, None, None, None, None, None]);
    }

    #[test]
    fn zero_values_are_the_first_enum_value_and_the_first_variant() {
        let ir = ir(SCHEMA);
        // The first value, though another has the number 0.
        let (index, value) = def(&ir, "Mood").zero_enum_value().expect("an enum");
        assert_eq!((index, value.name.as_str(), value.value), (0, "Calm", 7));
        // The first variant, though another has the smaller tag.
        let (index, variant) = def(&ir, "Packet").zero_variant().expect("a union");
        assert_eq!((index, variant.name.as_str()), (0, "Hi"));
        assert!(def(&ir, "Hello").zero_variant().is_none());
        assert!(def(&ir, "Packet").zero_enum_value().is_none());
    }

    #[test]
    fn an_absent_field_takes_its_declared_default_else_its_types_zero() {
        let ir = ir(SCHEMA);
        let fields = def(&ir, "Hello").kind.fields();
        let shown: Vec<String> = fields
            .iter()
            .map(|f| match ir.field_default(f) {
                DefaultValue::Declared(Value::String(s)) => format!("declared {s:?}"),
                DefaultValue::Declared(Value::Int(n)) => format!("declared {n}"),
                DefaultValue::Declared(v) => format!("declared {v:?}"),
                DefaultValue::Scalar(p) => format!("zero {}", p.name()),
                DefaultValue::Empty => "empty".to_string(),
                DefaultValue::Absent => "absent".to_string(),
                DefaultValue::Array { elem, len } => format!("{len} x {}", elem.ty),
                DefaultValue::EnumValue { value, .. } => format!("enum {}", value.name),
                DefaultValue::Fields(fs) => format!("{} fields", fs.len()),
                DefaultValue::Variant { variant, .. } => format!("variant {}", variant.name),
            })
            .collect();
        assert_eq!(
            shown,
            [
                "declared \"Zoë\"",
                "declared \"\"",
                "declared 3",
                "enum Calm",
                "empty",
                "3 x u16",
                "absent",
            ]
        );
        let pair = fields[6].ty.clone();
        let crate::ir::Type::Optional(inner) = pair else {
            unreachable!()
        };
        assert!(matches!(ir.default_value(&inner, None), DefaultValue::Fields(f) if f.len() == 2));
        assert!(matches!(
            ir.default_value(&crate::ir::Type::Prim(Prim::F32), None),
            DefaultValue::Scalar(Prim::F32)
        ));
        let packet = crate::ir::Type::Named(crate::ir::TypeRef {
            id: ir
                .types
                .iter()
                .position(|t| t.name == "Packet")
                .map(crate::ir::TypeId)
                .unwrap(),
            name: "Packet".to_string(),
        });
        assert!(matches!(
            ir.default_value(&packet, None),
            DefaultValue::Variant { index: 0, variant } if variant.name == "Hi"
        ));
    }
}
