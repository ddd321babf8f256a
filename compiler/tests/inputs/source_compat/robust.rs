// Code written against version 1 of schemas/evolution that keeps compiling
// against version 2, whose changes are all safe or source-only: the idioms
// docs/evolution.md recommends ("What a change does to your source").

use proto::{Class, Event, Profile};

pub fn make() -> Profile {
    Profile {
        id: 1,
        name: "ann".to_string(),
        class: Class::Mage,
        ..Default::default()
    }
}

pub fn id(p: &Profile) -> u32 {
    let Profile { id, .. } = p;
    *id
}

pub fn describe(e: &Event) -> &'static str {
    match e {
        Event::Join(_) => "join",
        Event::Leave(_) => "leave",
        _ => "something newer",
    }
}

pub fn class(c: Class) -> u8 {
    match c {
        Class::Warrior => 1,
        Class::Mage => 2,
        _ => 0,
    }
}
