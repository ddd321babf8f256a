//! Schema text shown outside the schema: in comments of generated code and
//! in diagnostics on a terminal. One rule for both decides which characters
//! cannot be shown as they are ([`must_escape`]) and how they are shown
//! instead ([`escaped`]).

use std::borrow::Cow;

/// Whether a character of schema text (a doc comment, a deprecation note,
/// a string default, a name, a schema file's path) must not reach
/// generated code or a terminal as it is: a character that ends a line in
/// some target language (CR, LF, U+0085 in C#, U+2028 and U+2029 in C# and
/// TypeScript), any other control character but tab (rustc refuses a bare
/// CR in a doc comment; ESC starts a terminal's escape sequences), and the
/// bidirectional controls U+202A–U+202E and U+2066–U+2069, which show text
/// in an order other than the one a compiler reads (rustc denies them in
/// comments and literals). Generated comments go through [`escaped`], each
/// backend's string literals escape the same characters in the language's
/// own syntax, and rendered diagnostics show schema text through
/// [`escaped`].
pub fn must_escape(c: char) -> bool {
    (c.is_control() && c != '\t')
        || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// How many characters [`escaped`] shows for `c`: six for a character
/// [`must_escape`] names (`\u2028`), else one.
pub fn escaped_width(c: char) -> usize {
    if must_escape(c) {
        ESCAPE_WIDTH
    } else {
        1
    }
}

/// The length of `\uXXXX`.
const ESCAPE_WIDTH: usize = 6;

/// `text` with each character [`must_escape`] names as a visible `\uXXXX`
/// (U+2028 becomes `\u2028`), so that the text stays on its one line and
/// reads in the order it is stored. No other character changes; text
/// without such a character is returned as it is.
pub fn escaped(text: &str) -> Cow<'_, str> {
    if !text.chars().any(must_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if must_escape(c) {
            // Every such character is in the Basic Multilingual Plane.
            out.push_str(&format!("\\u{:04X}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_ends_and_bidirectional_controls_are_escaped() {
        let text =
            "a\u{2028}b\u{2029}c\u{85}d\re\nf\u{202E}g\u{2066}h\u{2069}i\u{202A}j\u{0}k\u{7F}l\tm\u{1B}";
        assert_eq!(
            escaped(text),
            "a\\u2028b\\u2029c\\u0085d\\u000De\\u000Af\\u202Eg\\u2066h\\u2069i\\u202Aj\\u0000k\\u007Fl\tm\\u001B"
        );
        // Text without such characters, other non-ASCII text included, is
        // kept; escaping twice changes nothing.
        for kept in ["Ünïcödé ✓ \u{200E} \u{1F600}", "\\u2028", ""] {
            assert!(matches!(escaped(kept), Cow::Borrowed(_)), "{kept}");
        }
        let once = escaped(text).into_owned();
        assert_eq!(escaped(&once), once);
        for c in [
            '\u{2028}', '\u{2029}', '\u{85}', '\r', '\n', '\u{202B}', '\u{2067}', '\u{1B}',
        ] {
            assert!(must_escape(c), "{c:?}");
            assert_eq!(escaped_width(c), escaped(&c.to_string()).chars().count());
        }
        for c in [
            '\t', ' ', 'a', '\u{2027}', '\u{202F}', '\u{2065}', '\u{206A}',
        ] {
            assert!(!must_escape(c), "{c:?}");
            assert_eq!(escaped_width(c), 1);
        }
    }
}
