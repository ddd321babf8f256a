// Code written against version 1 of schemas/evolution that compiles there
// and stops compiling against version 2, exactly where a marker says, with
// the error docs/evolution.md names for the change.

use proto::{Class, Event, Profile};

pub fn make() -> Profile {
    Profile { // error[E0063]: fields appended to the message
        id: 1,
        name: "ann".to_string(),
        class: Class::Mage,
        legacy_score: 0, // warning[deprecated]: @deprecated in version 2
        unknown_fields: Vec::new(),
    }
}

pub fn id(p: &Profile) -> u32 {
    let Profile { id, name: _, class: _, legacy_score: _, unknown_fields: _ } = p; // error[E0027] warning[deprecated]
    *id
}

pub fn describe(e: &Event) -> &'static str {
    match e { // error[E0004]: variants added to the union
        Event::Join(_) => "join",
        Event::Leave(_) => "leave",
        Event::Unknown { .. } => "unknown",
    }
}

pub fn class(c: Class) -> u8 {
    match c { // error[E0004]: a value added to the enum
        Class::Warrior => 1,
        Class::Mage => 2,
        Class::Unknown(n) => n,
    }
}
