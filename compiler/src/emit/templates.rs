//! The template registry every backend renders with. Templates are compiled
//! into the binary, so a `build.rs` user needs no files besides the schemas.

use handlebars::Handlebars;
use serde::Serialize;

pub struct Templates {
    hb: Handlebars<'static>,
}

impl Templates {
    /// Registers `(name, source)` pairs. Strict mode makes a missing view-model
    /// field an error instead of silently empty text.
    pub fn new(sources: &[(&str, &str)]) -> Self {
        let mut hb = Handlebars::new();
        hb.set_strict_mode(true);
        // Generated code is not HTML.
        hb.register_escape_fn(handlebars::no_escape);
        hb.set_prevent_indent(true);
        let mut t = Templates { hb };
        t.register_all(sources);
        t
    }

    /// Registers more `(name, source)` pairs.
    pub fn register_all(&mut self, sources: &[(&str, &str)]) {
        for (name, source) in sources {
            self.hb
                .register_template_string(name, *source)
                .unwrap_or_else(|e| panic!("template {name} does not parse: {e}"));
        }
    }

    /// Renders a template's lines (each without its newline): for code that
    /// is placed line by line into an enclosing template.
    pub fn lines(&self, name: &str, data: &impl Serialize) -> Vec<String> {
        self.render(name, data)
            .lines()
            .map(str::to_string)
            .collect()
    }

    /// Renders a template. The templates are part of the compiler and their
    /// view models are typed, so a failure here is a bug in pktc itself.
    pub fn render(&self, name: &str, data: &impl Serialize) -> String {
        self.hb
            .render(name, data)
            .unwrap_or_else(|e| panic!("template {name} failed to render: {e}"))
    }
}
